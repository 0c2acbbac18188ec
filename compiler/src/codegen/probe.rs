//! The probe for a move that ends the game (the runtime's `Rules::ends_now`): one boolean
//! condition per game, "some move's option is `end`", derived from its move rules.
//!
//! An outcome search treats a position with such a move as N at once, and the solver asks
//! the probe before it looks a position up, so a probe is only worth having when it costs
//! far less than enumerating the moves. The condition is the moves' clauses turned into
//! quantifiers, with one rewrite that makes it cheap: a move `l in D` whose `end` needs
//! `exists b in E: A(l, b) and B(b)` becomes `exists b in E: B(b) and exists l in D: A(l, b)`
//! (for degenerate dots: "a box with three sides drawn", a dozen popcounts, instead of a
//! loop over every undrawn line).
//!
//! Exchanging quantifiers changes the order of evaluation, so the probe is generated only
//! when nothing in the game's moves can fail: every part is one that [`Gen::sure`] accepts,
//! and the moves have at most `MAX_OPTIONS` options. Then the probe answers exactly what
//! enumerating the options up to the first `end` would, errors included (there are none).

use super::{CodegenError, Gen};
use crate::ast::QuantKind;
use crate::ir::*;
use cgdl_runtime::rules::MAX_OPTIONS;
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::HashMap;
use std::rc::Rc;

/// The finite types of the names in scope whose every value is known to lie in the type
/// (fields, and names bound over a type's values).
type Scope = HashMap<Rc<str>, FieldTy>;

impl Gen<'_> {
    /// The arm of `Rules::ends_now` and the probe function of a game, when its moves can end
    /// the game outright and the probe is exact (see the module's documentation).
    pub(super) fn ends_probe(
        &self,
        gid: usize,
        game: &Game,
    ) -> Result<Option<(TokenStream, TokenStream)>, CodegenError> {
        let rt = &self.rt;
        let GameKind::Rules(moves) = &game.kind else {
            return Ok(None);
        };
        if game.partizan || !moves.iter().any(|m| ends_outright(&m.result)) {
            return Ok(None);
        }
        let Some(cond) = self.ends_condition(game, moves) else {
            return Ok(None);
        };
        let cond = exchange(cond);
        let fields = self.field_names(game);
        let mut unpacked = Vec::new();
        let mut params = Vec::new();
        let mut reads = Vec::new();
        cond.for_each_read(&mut |v| reads.push(v.name.clone()));
        let mut borrowed = std::collections::HashSet::new();
        for (i, (f, x)) in game.fields.iter().zip(&fields).enumerate() {
            let packing = &self.layout.games[gid].fields[i];
            let ty = self.stored_ty(&f.ty, packing);
            if !reads.iter().any(|r| **r == *f.name) {
                params.push(quote!(_: #ty));
                continue;
            }
            params.push(quote!(#x: #ty));
            if !matches!(packing, super::layout::Packed::Plain) {
                let value = self.unpack(gid, i, x);
                unpacked.push(quote!(let #x = #value;));
            }
            if !super::layout::is_copy(self.program, &f.ty.ty()) {
                unpacked.push(quote!(let #x = &#x;));
                borrowed.insert(Rc::from(f.name.as_str()));
            }
        }
        *self.borrowed.borrow_mut() = borrowed;
        self.reading(|f| cond.for_each_read(f));
        let value = self.value(&cond);
        self.borrowed.borrow_mut().clear();
        let value = value?;
        let name = &self.names.games[gid].ends;
        let doc = format!(
            " Whether a position of `{}` has a move to `end`.",
            game.name
        );
        let lints = super::user_code_lints(&["ptr_arg"]);
        let function = quote! {
            #[doc = #doc]
            #lints
            fn #name(#(#params),*) -> ::std::result::Result<bool, #rt::RuleError> {
                #(#unpacked)*
                ::std::result::Result::Ok(#value)
            }
        };
        let pattern = self.pos_pattern(gid, &fields);
        let arm = quote!(#pattern => ::std::option::Option::Some(#name(#(#fields),*)),);
        Ok(Some((arm, function)))
    }

    /// "Some move of the game is to `end`" as one condition over the fields, when every
    /// move is sure and the moves have at most `MAX_OPTIONS` options together.
    fn ends_condition(&self, game: &Game, moves: &[Move]) -> Option<IExpr> {
        let mut scope: Scope = (game.fields.iter())
            .map(|f| (Rc::from(f.name.as_str()), f.ty.clone()))
            .collect();
        let mut options = 0usize;
        let mut any: Option<IExpr> = None;
        for m in moves {
            let mut count = 1usize;
            let mut bound = Vec::new();
            for clause in &m.clauses {
                match clause {
                    IClause::Bind(vars, dom) => {
                        count = count.saturating_mul(self.domain_size(dom, &scope)?);
                        if !self.sure(dom, &scope) {
                            return None;
                        }
                        if let ([v], Some(t)) = (vars.as_slice(), self.domain_type(dom, &scope)) {
                            scope.insert(v.name.clone(), t);
                            bound.push(v.name.clone());
                        }
                    }
                    IClause::Cond(c) | IClause::Let(_, c) => {
                        if !self.sure(c, &scope) {
                            return None;
                        }
                    }
                }
            }
            let ends = self.ends_of(&m.result, &scope)?;
            for name in bound {
                scope.remove(&name);
            }
            options = options.saturating_add(count);
            let ends = (m.clauses.iter().rev()).fold(ends, |body, clause| match clause {
                IClause::Bind(vars, dom) => IExpr::Quant {
                    kind: QuantKind::Exists,
                    vars: vars.clone(),
                    domain: Box::new(dom.clone()),
                    body: Box::new(body),
                },
                IClause::Cond(c) => and(c.clone(), body),
                IClause::Let(var, value) => IExpr::Let {
                    var: var.clone(),
                    value: Box::new(value.clone()),
                    body: Box::new(body),
                },
            });
            any = Some(match any {
                None => ends,
                Some(before) => or(before, ends),
            });
        }
        (options <= MAX_OPTIONS).then_some(any).flatten()
    }

    /// "This result is `end`", when every part of the result is sure.
    fn ends_of(&self, result: &IExpr, scope: &Scope) -> Option<IExpr> {
        Some(match result {
            IExpr::End => truth(true),
            IExpr::If {
                cond,
                then,
                otherwise,
            } => {
                if !self.sure(cond, scope) {
                    return None;
                }
                let (a, b) = (self.ends_of(then, scope)?, self.ends_of(otherwise, scope)?);
                match (is_truth(&a), is_truth(&b)) {
                    (_, Some(false)) => and((**cond).clone(), a),
                    (Some(false), _) => and(IExpr::Not(cond.clone()), b),
                    _ => IExpr::If {
                        cond: cond.clone(),
                        then: Box::new(a),
                        otherwise: Box::new(b),
                    },
                }
            }
            IExpr::Let { var, value, body } => {
                if !self.sure(value, scope) {
                    return None;
                }
                IExpr::Let {
                    var: var.clone(),
                    value: value.clone(),
                    body: Box::new(self.ends_of(body, scope)?),
                }
            }
            IExpr::Pos { game, args, .. } => {
                let fields = &self.program.games[*game].fields;
                let fits = (fields.iter().zip(args))
                    .all(|(f, a)| self.sure(a, scope) && lies_in(a, &f.ty, scope));
                if !fits {
                    return None;
                }
                truth(false)
            }
            _ => return None,
        })
    }

    /// Whether evaluating `e` cannot fail: no arithmetic (which may overflow), no field of
    /// a position or payload that its value might not fit, only calls of functions that
    /// succeed at every argument of their parameters' finite types, with arguments that lie
    /// in those types.
    fn sure(&self, e: &IExpr, scope: &Scope) -> bool {
        match e {
            IExpr::Lit(_) | IExpr::AllOf { .. } | IExpr::Var(_) => true,
            IExpr::Not(x) | IExpr::Field { tuple: x, .. } => self.sure(x, scope),
            IExpr::Bin { op, lhs, rhs, .. } => {
                matches!(
                    op,
                    Op::Or
                        | Op::And
                        | Op::Eq
                        | Op::Ne
                        | Op::Lt
                        | Op::Le
                        | Op::Gt
                        | Op::Ge
                        | Op::In
                        | Op::NotIn
                        | Op::SetUnion
                        | Op::SetInter
                        | Op::SetDiff
                ) && self.sure(lhs, scope)
                    && self.sure(rhs, scope)
            }
            IExpr::Tuple(es) | IExpr::Set(es) => es.iter().all(|x| self.sure(x, scope)),
            IExpr::If {
                cond,
                then,
                otherwise,
            } => [cond, then, otherwise].iter().all(|x| self.sure(x, scope)),
            IExpr::Let { value, body, .. } => self.sure(value, scope) && self.sure(body, scope),
            IExpr::Quant {
                vars, domain, body, ..
            } => {
                if !self.sure(domain, scope) || self.domain_size(domain, scope).is_none() {
                    return false;
                }
                let mut inner = scope.clone();
                if let ([v], Some(t)) = (vars.as_slice(), self.domain_type(domain, scope)) {
                    inner.insert(v.name.clone(), t);
                }
                self.sure(body, &inner)
            }
            IExpr::Variant { variant, args, .. } => (variant.fields.iter().zip(args))
                .all(|(t, a)| self.sure(a, scope) && lies_in(a, t, scope)),
            IExpr::Builtin {
                func: Builtin::Len,
                args,
                ..
            } => args.iter().all(|x| self.sure(x, scope)),
            IExpr::Call { func, args } => {
                let f = &self.program.fns[*func];
                let types: Vec<FieldTy> = f.params.iter().map(|(_, t)| t.clone()).collect();
                let in_types = (types.iter().zip(args))
                    .all(|(t, a)| self.sure(a, scope) && lies_in(a, t, scope));
                in_types
                    && (self
                        .evaluations
                        .values(*func, &types, super::game::TABLE_LIMIT))
                    .is_some_and(|vs| {
                        vs.iter()
                            .all(|v| v.as_ref().is_some_and(|v| f.ret.admits(v)))
                    })
            }
            _ => false,
        }
    }

    /// The finite type whose values a domain holds, when known: a type's name, or a field
    /// of set type.
    fn domain_type(&self, dom: &IExpr, scope: &Scope) -> Option<FieldTy> {
        match dom {
            IExpr::AllOf { ty, .. } => Some(ty.clone()),
            IExpr::Var(v) => match scope.get(&v.name) {
                Some(FieldTy::Set(t)) => Some((**t).clone()),
                _ => None,
            },
            _ => None,
        }
    }

    /// At most how many elements a domain has.
    fn domain_size(&self, dom: &IExpr, scope: &Scope) -> Option<usize> {
        match dom {
            IExpr::AllOf {
                values: Val::Set(s),
                ..
            } => Some(s.len()),
            _ => {
                let t = self.domain_type(dom, scope)?;
                Some(t.values(&self.program.types, MAX_OPTIONS + 1)?.len())
            }
        }
    }
}

/// Whether the value of `arg` surely lies in the type `t`: every value of its static type
/// does, or it is built from names and constants that lie in `t`.
fn lies_in(arg: &IExpr, t: &FieldTy, scope: &Scope) -> bool {
    if holds_any(t) {
        return true;
    }
    match (arg, t) {
        (IExpr::Var(v), _) => scope.get(&v.name) == Some(t),
        (IExpr::Lit(v), _) => t.admits(v),
        (IExpr::AllOf { ty, .. }, FieldTy::Set(inner)) => **inner == *ty,
        (IExpr::Set(es), FieldTy::Set(inner)) => es.iter().all(|e| lies_in(e, inner, scope)),
        (
            IExpr::Bin {
                op: Op::SetUnion,
                lhs,
                rhs,
                ..
            },
            FieldTy::Set(_),
        ) => lies_in(lhs, t, scope) && lies_in(rhs, t, scope),
        (
            IExpr::Bin {
                op: Op::SetDiff,
                lhs,
                ..
            },
            FieldTy::Set(_),
        ) => lies_in(lhs, t, scope),
        (
            IExpr::Bin {
                op: Op::SetInter,
                lhs,
                rhs,
                ..
            },
            FieldTy::Set(_),
        ) => lies_in(lhs, t, scope) || lies_in(rhs, t, scope),
        _ => false,
    }
}

/// Whether a field of type `t` holds every value of its static type (no range to check).
fn holds_any(t: &FieldTy) -> bool {
    match t {
        FieldTy::Bool | FieldTy::Union(_) => true,
        FieldTy::Set(t) => holds_any(t),
        FieldTy::Tuple(ts) => ts.iter().all(holds_any),
        _ => false,
    }
}

/// Whether a move's result can be `end` itself (through `if` and `let`).
fn ends_outright(result: &IExpr) -> bool {
    match result {
        IExpr::End => true,
        IExpr::If {
            then, otherwise, ..
        } => ends_outright(then) || ends_outright(otherwise),
        IExpr::Let { body, .. } => ends_outright(body),
        _ => false,
    }
}

fn truth(b: bool) -> IExpr {
    IExpr::Lit(Val::Bool(b))
}

fn is_truth(e: &IExpr) -> Option<bool> {
    match e {
        IExpr::Lit(Val::Bool(b)) => Some(*b),
        _ => None,
    }
}

fn bin(op: Op, lhs: IExpr, rhs: IExpr) -> IExpr {
    IExpr::Bin {
        op,
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
        span: crate::ast::Span { start: 0, end: 0 },
    }
}

/// `a and b`, without a `true` operand.
fn and(a: IExpr, b: IExpr) -> IExpr {
    match (is_truth(&a), is_truth(&b)) {
        (Some(true), _) => b,
        (_, Some(true)) => a,
        _ => bin(Op::And, a, b),
    }
}

fn or(a: IExpr, b: IExpr) -> IExpr {
    bin(Op::Or, a, b)
}

/// The operands of a chain of `and`s.
fn conjuncts(e: IExpr, out: &mut Vec<IExpr>) {
    match e {
        IExpr::Bin {
            op: Op::And,
            lhs,
            rhs,
            ..
        } => {
            conjuncts(*lhs, out);
            conjuncts(*rhs, out);
        }
        other => out.push(other),
    }
}

fn and_all(parts: Vec<IExpr>) -> IExpr {
    parts.into_iter().reduce(and).unwrap_or_else(|| truth(true))
}

/// `exists x in D: P(x) and (exists y in E: A(x, y) and B(y))` →
/// `exists y in E: B(y) and (exists x in D: P(x) and A(x, y))`, where `E` and `B` do not read
/// `x`: the test of `B` runs once per `y` instead of once per pair. Applied inside out.
fn exchange(e: IExpr) -> IExpr {
    match e {
        IExpr::Quant {
            kind: QuantKind::Exists,
            vars,
            domain,
            body,
        } => {
            let mut parts = Vec::new();
            conjuncts(exchange(*body), &mut parts);
            let inner = parts.iter().position(|p| match p {
                IExpr::Quant {
                    kind: QuantKind::Exists,
                    domain: inner_domain,
                    body: inner_body,
                    ..
                } => {
                    let mut inner_parts = Vec::new();
                    conjuncts((**inner_body).clone(), &mut inner_parts);
                    !inner_domain.reads_any(&vars)
                        && inner_parts.iter().any(|q| !q.reads_any(&vars))
                }
                _ => false,
            });
            let Some(j) = inner else {
                return IExpr::Quant {
                    kind: QuantKind::Exists,
                    vars,
                    domain,
                    body: Box::new(and_all(parts)),
                };
            };
            let IExpr::Quant {
                vars: inner_vars,
                domain: inner_domain,
                body: inner_body,
                ..
            } = parts.remove(j)
            else {
                unreachable!("the position found a quantifier")
            };
            let mut inner_parts = Vec::new();
            conjuncts(*inner_body, &mut inner_parts);
            let (with_x, without_x): (Vec<IExpr>, Vec<IExpr>) =
                inner_parts.into_iter().partition(|q| q.reads_any(&vars));
            parts.extend(with_x);
            let moved = IExpr::Quant {
                kind: QuantKind::Exists,
                vars,
                domain,
                body: Box::new(and_all(parts)),
            };
            IExpr::Quant {
                kind: QuantKind::Exists,
                vars: inner_vars,
                domain: inner_domain,
                body: Box::new(and(and_all(without_x), moved)),
            }
        }
        IExpr::Bin {
            op: Op::Or,
            lhs,
            rhs,
            span,
        } => IExpr::Bin {
            op: Op::Or,
            lhs: Box::new(exchange(*lhs)),
            rhs: Box::new(exchange(*rhs)),
            span,
        },
        other => other,
    }
}
