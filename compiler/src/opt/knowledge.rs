//! What the optimizer knows of the values an expression takes, in a scope: a finite type
//! holding every value of a name or expression ([`Knowledge::values_of`]), whether an
//! expression cannot fail ([`Knowledge::sure`]), and the domains quantifiers run over. Read
//! by the end probe pass (`opt/probe.rs`) and by the code generator, which leaves out the
//! checks of values known to lie in their types.

use crate::ast::ClosureKind;
use crate::ir::*;
use crate::opt::evaluate::Evaluations;
use cgdl_runtime::rules::MAX_OPTIONS;
use std::collections::HashMap;
use std::rc::Rc;

/// The most arguments a function is evaluated at while compiling (for its table, for the
/// hull of its values, for whether it succeeds at every argument a call may pass).
pub const TABLE_LIMIT: usize = 1024;

/// The finite types of the names in scope whose every value is known to lie in the type
/// (fields, and names bound over a type's values).
pub type Scope = HashMap<Rc<str>, FieldTy>;

/// The program, and its helper functions' values over boxes of arguments.
pub struct Knowledge<'p> {
    /// The program.
    pub program: &'p Program,
    /// Its functions' values, computed once each.
    pub evaluations: Evaluations<'p>,
}

impl<'p> Knowledge<'p> {
    /// What is known of `program` (checked from `source`).
    pub fn new(program: &'p Program, source: &'p str) -> Self {
        Knowledge {
            program,
            evaluations: Evaluations::new(program, source),
        }
    }

    /// Whether every value `arg` can take lies in the finite type `t`, given `scope`.
    pub fn values_within(&self, arg: &IExpr, t: &FieldTy, scope: &Scope) -> bool {
        self.values_of(arg, scope).is_some_and(|v| within(&v, t))
    }

    /// Whether every field value of position `args` of game `gid` surely lies in its
    /// field's type, given `scope`.
    pub fn position_fits(&self, gid: usize, args: &[IExpr], scope: &Scope) -> bool {
        (self.program.games[gid].fields.iter())
            .zip(args)
            .all(|(f, a)| self.lies_in(a, &f.ty, scope))
    }

    /// Whether evaluating `e` cannot fail: no arithmetic (which may overflow), no field of
    /// a position or payload that its value might not fit, only calls of functions that
    /// succeed at every argument their arguments' known values allow (each evaluated while
    /// the solver is built; see [`Knowledge::call_types`]).
    pub fn sure(&self, e: &IExpr, scope: &Scope) -> bool {
        match e.kind() {
            IExprKind::Lit(_) | IExprKind::AllOf { .. } | IExprKind::Var(_) => true,
            IExprKind::Not(x) | IExprKind::Field { tuple: x, .. } => self.sure(x, scope),
            IExprKind::Bin { op, lhs, rhs, .. } => {
                op.cannot_fail() && self.sure(lhs, scope) && self.sure(rhs, scope)
            }
            IExprKind::Tuple(es) | IExprKind::Set(es) => es.iter().all(|x| self.sure(x, scope)),
            IExprKind::If {
                cond,
                then,
                otherwise,
            } => [cond, then, otherwise].iter().all(|x| self.sure(x, scope)),
            IExprKind::Let { var, value, body } => {
                self.sure(value, scope) && self.sure(body, &self.with_let(var, value, scope))
            }
            IExprKind::Quant {
                vars, domain, body, ..
            } => {
                if !self.sure(domain, scope) || self.domain_size(domain, scope).is_none() {
                    return false;
                }
                self.sure(body, &self.with_binder(vars, domain, scope))
            }
            IExprKind::Variant { variant, args, .. } => (variant.fields.iter().zip(args))
                .all(|(t, a)| self.sure(a, scope) && self.lies_in(a, t, scope)),
            IExprKind::Builtin {
                func: Builtin::Len,
                args,
                ..
            } => args.iter().all(|x| self.sure(x, scope)),
            IExprKind::Call { func, args, .. } => {
                let f = &self.program.fns[*func];
                args.iter().all(|a| self.sure(a, scope))
                    && (self.call_types(*func, args, scope))
                        .and_then(|types| (self.evaluations).values(*func, &types, TABLE_LIMIT))
                        .is_some_and(|vs| {
                            vs.iter()
                                .all(|v| v.as_ref().is_some_and(|v| f.ret.admits(v)))
                        })
            }
            _ => false,
        }
    }

    /// `scope` with the name a quantifier or a move binds over `domain`, when a type holds
    /// its elements.
    pub fn with_binder(&self, vars: &[Var], domain: &IExpr, scope: &Scope) -> Scope {
        let mut inner = scope.clone();
        inner.extend(self.binder_type(vars, domain, scope));
        inner
    }

    /// The one name bound over `domain` and a finite type holding its elements.
    pub fn binder_type(
        &self,
        vars: &[Var],
        domain: &IExpr,
        scope: &Scope,
    ) -> Option<(Rc<str>, FieldTy)> {
        match vars {
            [v] => Some((v.name.clone(), self.domain_type(domain, scope)?)),
            _ => None,
        }
    }

    /// `scope` with the name a `let` binds, when its values are known.
    pub fn with_let(&self, var: &Var, value: &IExpr, scope: &Scope) -> Scope {
        let mut inner = scope.clone();
        if let Some(t) = self.values_of(value, scope) {
            inner.insert(var.name.clone(), t);
        }
        inner
    }

    /// Finite types that hold every argument of a call of function `func` and lie in its
    /// parameters' types: the arguments' known values (`rows` of a field of type `2..=5`
    /// for a `nat` parameter), or the parameter's own finite type when the argument surely
    /// lies in it.
    pub fn call_types(&self, func: usize, args: &[IExpr], scope: &Scope) -> Option<Vec<FieldTy>> {
        let f = &self.program.fns[func];
        (f.params.iter().zip(args))
            .map(|((_, param), arg)| match self.values_of(arg, scope) {
                Some(t) if within(&t, param) => Some(t),
                _ => self.lies_in(arg, param, scope).then(|| param.clone()),
            })
            .collect()
    }

    /// A finite type holding every value `e` takes where its evaluation succeeds (so also
    /// for parts that may fail: a move's result, a `let`), when one is known: a name's type in scope, a constant, a range from its bounds, a set
    /// built from others, the hull of a function's values over its arguments' types.
    pub fn values_of(&self, e: &IExpr, scope: &Scope) -> Option<FieldTy> {
        let set = |t: FieldTy| Some(FieldTy::Set(Box::new(t)));
        match e.kind() {
            IExprKind::Var(v) => scope.get(&v.name).cloned(),
            IExprKind::Lit(Val::Int(i)) => Some(FieldTy::Range(*i, *i)),
            IExprKind::Lit(Val::Bool(_)) => Some(FieldTy::Bool),
            IExprKind::Lit(Val::Range(lo, hi)) => set(FieldTy::Range(*lo, (*hi).max(*lo))),
            IExprKind::AllOf { ty, .. } => set(ty.clone()),
            IExprKind::Bin {
                op: op @ (Op::RangeIncl | Op::RangeExcl),
                lhs,
                rhs,
                ..
            } => {
                let (FieldTy::Range(lo, _), FieldTy::Range(_, hi)) =
                    (self.values_of(lhs, scope)?, self.values_of(rhs, scope)?)
                else {
                    return None;
                };
                let hi = if *op == Op::RangeExcl {
                    hi.checked_sub(1)?
                } else {
                    hi
                };
                set(FieldTy::Range(lo, hi.max(lo)))
            }
            IExprKind::Bin {
                op: Op::SetUnion,
                lhs,
                rhs,
                ..
            } => join(self.values_of(lhs, scope)?, self.values_of(rhs, scope)?),
            IExprKind::Bin {
                op: Op::SetInter,
                lhs,
                rhs,
                ..
            } => (self.values_of(lhs, scope)).or_else(|| self.values_of(rhs, scope)),
            IExprKind::Bin {
                op: Op::SetDiff | Op::Remove,
                lhs,
                ..
            } => self.values_of(lhs, scope),
            IExprKind::Bin {
                op: Op::Insert,
                lhs,
                rhs,
                ..
            } => join(
                self.values_of(lhs, scope)?,
                set(self.values_of(rhs, scope)?)?,
            ),
            IExprKind::Set(es) => {
                let mut elems = es.iter().map(|x| self.values_of(x, scope));
                let first = elems.next().unwrap_or(Some(FieldTy::Range(0, 0)))?;
                set(elems.try_fold(first, |acc, t| join(acc, t?))?)
            }
            IExprKind::Call { func, args, .. } => {
                let types = self.call_types(*func, args, scope)?;
                match (self.evaluations).range(*func, &types, TABLE_LIMIT) {
                    Some(ValueRange::Int((lo, hi))) => Some(FieldTy::Range(lo, hi)),
                    Some(ValueRange::Set(Some((lo, hi)))) => set(FieldTy::Range(lo, hi)),
                    Some(ValueRange::Set(None)) => set(FieldTy::Range(0, 0)),
                    // Not numbers: the declared result type, where every value of its
                    // static type lies in it (a tagged type, sets of one).
                    None => {
                        let ret = &self.program.fns[*func].ret;
                        holds_any(ret).then(|| ret.clone())
                    }
                }
            }
            _ => None,
        }
    }

    /// Whether the value of `arg` surely lies in the type `t` (see [`lies_in`]), or its
    /// known values do.
    pub fn lies_in(&self, arg: &IExpr, t: &FieldTy, scope: &Scope) -> bool {
        lies_in(arg, t, scope) || self.values_of(arg, scope).is_some_and(|v| within(&v, t))
    }

    /// A finite type holding every element of a domain, when known: a type's name, a
    /// field of set type, a range or a function's sets (see [`Knowledge::values_of`]).
    pub fn domain_type(&self, dom: &IExpr, scope: &Scope) -> Option<FieldTy> {
        let divided = match dom.kind() {
            IExprKind::Closure {
                kind: ClosureKind::Components,
                seed,
                ..
            } => Some(&**seed),
            IExprKind::Parts(op) if op.kind == PartsKind::Sets => Some(op.closure().0),
            _ => None,
        };
        if let Some(seed) = divided {
            // Each part is a subset of the set divided.
            return Some(FieldTy::Set(Box::new(self.domain_type(seed, scope)?)));
        }
        match self.values_of(dom, scope)? {
            FieldTy::Set(t) => Some(*t),
            _ => None,
        }
    }

    /// At most how many elements a domain has.
    pub fn domain_size(&self, dom: &IExpr, scope: &Scope) -> Option<usize> {
        match dom.kind() {
            IExprKind::AllOf {
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
pub fn lies_in(arg: &IExpr, t: &FieldTy, scope: &Scope) -> bool {
    if holds_any(t) {
        return true;
    }
    match (arg.kind(), t) {
        (IExprKind::Var(v), _) => scope.get(&v.name) == Some(t),
        (IExprKind::Lit(v), _) => t.admits(v),
        (IExprKind::AllOf { ty, .. }, FieldTy::Set(inner)) => **inner == *ty,
        (IExprKind::Set(es), FieldTy::Set(inner)) => es.iter().all(|e| lies_in(e, inner, scope)),
        (
            IExprKind::Bin {
                op: Op::SetUnion,
                lhs,
                rhs,
                ..
            },
            FieldTy::Set(_),
        ) => lies_in(lhs, t, scope) && lies_in(rhs, t, scope),
        (
            IExprKind::Bin {
                op: Op::SetDiff | Op::Remove,
                lhs,
                ..
            },
            FieldTy::Set(_),
        ) => lies_in(lhs, t, scope),
        (
            IExprKind::Bin {
                op: Op::Insert,
                lhs,
                rhs,
                ..
            },
            FieldTy::Set(inner),
        ) => lies_in(lhs, t, scope) && lies_in(rhs, inner, scope),
        (
            IExprKind::Bin {
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
pub fn holds_any(t: &FieldTy) -> bool {
    match t {
        FieldTy::Bool | FieldTy::Union(_) => true,
        FieldTy::Set(t) => holds_any(t),
        FieldTy::Tuple(ts) => ts.iter().all(holds_any),
        _ => false,
    }
}

/// The names of a game's fields, each with its type (every value of a field lies in it).
pub fn field_scope(game: &Game) -> Scope {
    (game.fields.iter())
        .map(|f| (Rc::from(f.name.as_str()), f.ty.clone()))
        .collect()
}

/// Whether every value of the finite type `a` lies in the type `b`.
pub fn within(a: &FieldTy, b: &FieldTy) -> bool {
    match (a, b) {
        _ if a == b => true,
        (FieldTy::Range(lo, hi), FieldTy::Range(c, d)) => c <= lo && hi <= d,
        (FieldTy::Range(lo, _), FieldTy::Nat) => *lo >= 0,
        (FieldTy::Range(..) | FieldTy::Nat, FieldTy::Int) => true,
        (FieldTy::Set(a), FieldTy::Set(b)) => within(a, b),
        (FieldTy::Tuple(a), FieldTy::Tuple(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| within(a, b))
        }
        _ => false,
    }
}

/// A type holding the values of both `a` and `b`, when one is known.
pub fn join(a: FieldTy, b: FieldTy) -> Option<FieldTy> {
    match (a, b) {
        (a, b) if a == b => Some(a),
        (FieldTy::Range(lo, hi), FieldTy::Range(c, d)) => {
            Some(FieldTy::Range(lo.min(c), hi.max(d)))
        }
        (FieldTy::Set(a), FieldTy::Set(b)) => Some(FieldTy::Set(Box::new(join(*a, *b)?))),
        _ => None,
    }
}
