//! Quantifiers inverted while compiling: `exists b in Box: l in sides(b) and ...` (or
//! `count`) looks at every box for each line, though only the one or two boxes whose sides
//! hold `l` can pass. When the domain is a finite type and `sides` can be computed for each
//! of its values while compiling, the quantifier becomes an [`IExprKind::Inverted`]: for each
//! value `l` can take, the boxes `b` (in the domain's order) with `l in sides(b)`, and the
//! rest of the condition tested for each of them.
//!
//! The rewrite keeps every value, the first witness and every error: `l in sides(b)` holds
//! for the boxes in the table by construction and is false for the others, so the rest is
//! never evaluated there; every `sides(b)` is known to succeed (each was evaluated here) and
//! to be the same at run time (functions are pure); `l` reads no `b`, so the plain loop
//! computed it first at the first box, as the inverted one computes it once (a domain with
//! no value keeps the plain loop, which never computes `l`).

use crate::ast::QuantKind;
use crate::interp::{within_budget, Interpreter, CONST_BUDGET};
use crate::ir::*;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The most values a domain, or the type of the element looked for, may have.
const INVERSE_LIMIT: usize = 4096;

/// Runs the pass on every rule expression of `program`.
pub fn run(program: &mut Program, source: &str) {
    // The pass evaluates functions of the program as it is while it rewrites a copy.
    let mut rewritten = program.clone();
    let mut pass = Pass {
        program,
        interp: Interpreter::new(program, source),
        tables: Vec::new(),
    };
    rewritten.for_each_rule_expr_mut(&mut |e| pass.expr(e));
    *program = rewritten;
}

/// A table made for a function over a domain, or that none could be.
type Made = ((usize, FieldTy), Option<Rc<InverseTable>>);

struct Pass<'p> {
    program: &'p Program,
    interp: Interpreter<'p>,
    tables: Vec<Made>,
}

impl Pass<'_> {
    /// Rewrites `e`'s parts, then `e`.
    fn expr(&mut self, e: &mut IExpr) {
        e.for_each_child_mut(&mut |c| self.expr(c));
        if let Some(inverted) = self.inverted(e) {
            *e = IExpr::from(IExprKind::Inverted(Box::new(inverted)));
        }
    }

    /// `e` as an inverted quantifier, when it is one the module describes.
    fn inverted(&mut self, e: &IExpr) -> Option<Inverted> {
        let IExprKind::Quant {
            kind,
            vars,
            domain,
            body,
        } = e.kind()
        else {
            return None;
        };
        let ([b], IExprKind::AllOf { ty: dom_ty, .. }) = (vars.as_slice(), domain.kind()) else {
            return None;
        };
        if *kind == QuantKind::Forall {
            return None;
        }
        let (test, rest) = match body.as_bin() {
            Some((Op::And, lhs, rhs)) => (lhs, Some(rhs)),
            _ => (&**body, None),
        };
        let IExprKind::Bin {
            op: Op::In,
            lhs: x,
            rhs: set,
            ..
        } = test.kind()
        else {
            return None;
        };
        let IExprKind::Call { func, args, .. } = set.kind() else {
            return None;
        };
        if !matches!(args.as_slice(), [a] if a.as_var() == Some(b)) {
            return None;
        }
        if x.reads_any(std::slice::from_ref(b)) {
            return None;
        }
        let FieldTy::Set(elem_ty) = &self.program.fns[*func].ret else {
            return None;
        };
        let table = self.table(*func, dom_ty, elem_ty)?;
        Some(Inverted {
            kind: *kind,
            var: b.clone(),
            domain: dom_ty.clone(),
            looked_for: (**x).clone(),
            elem: (**elem_ty).clone(),
            rest: rest.cloned(),
            table,
        })
    }

    /// The table of `func` over the values of `dom_ty`, made once.
    fn table(
        &mut self,
        func: usize,
        dom_ty: &FieldTy,
        elem_ty: &FieldTy,
    ) -> Option<Rc<InverseTable>> {
        let key = (func, dom_ty.clone());
        if let Some((_, made)) = self.tables.iter().find(|(k, _)| *k == key) {
            return made.clone();
        }
        let made = self.make(func, dom_ty, elem_ty).map(Rc::new);
        self.tables.push((key, made.clone()));
        made
    }

    fn make(&self, func: usize, dom_ty: &FieldTy, elem_ty: &FieldTy) -> Option<InverseTable> {
        let types = &self.program.types;
        let elems = elem_ty.values(types, INVERSE_LIMIT)?;
        let domain_values = dom_ty.values(types, INVERSE_LIMIT)?;
        // An empty domain keeps the plain loop, which never evaluates the element.
        if domain_values.is_empty() {
            return None;
        }
        // `func` at every value of the domain, in its order: each must succeed.
        let (sets, spent) = within_budget(CONST_BUDGET, || {
            (domain_values.iter())
                .map(|v| {
                    let call = IExpr::from(IExprKind::Call {
                        in_table: false,
                        ret: self.program.fns[func].ret.ty(),
                        func,
                        args: vec![IExpr::from(IExprKind::Lit(v.clone()))],
                    });
                    (self.interp.eval(&call, &mut Vec::new()).ok()).map(Val::normalize)
                })
                .collect::<Option<Vec<Val>>>()
        });
        if spent {
            return None;
        }
        let elem_rank: BTreeMap<Val, usize> = (elems.into_iter())
            .map(Val::normalize)
            .enumerate()
            .map(|(i, v)| (v, i))
            .collect();
        let mut rows: Vec<Vec<u32>> = vec![Vec::new(); elem_rank.len()];
        for (rank, set) in sets?.iter().enumerate() {
            let Val::Set(members) = set else {
                return None;
            };
            for m in members.iter() {
                // A member outside the element type (a failed type check) keeps the loop.
                let i = *elem_rank.get(m)?;
                rows[i].push(u32::try_from(rank).ok()?);
            }
        }
        Some(InverseTable {
            func,
            domain_values,
            elem_rank,
            rows,
        })
    }
}
