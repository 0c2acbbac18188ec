//! The static type of every expression, read off the IR: a name's type is on it, a
//! literal's follows from its value, and every other node's from its children's (and the
//! called function's result type, which a call holds) by the checker's own rules: one of
//! each node's facts ([`Props::ty`]). The checker asserts, in
//! debug builds (every test), that this is the type it found for every expression it
//! checks without error, or more precise: `nat` where it found `int` and the value is surely
//! not negative (a constant of type `int` whose value is not, and arithmetic on such).
//! Passes read it instead of inferring types again.

use super::*;

impl IExpr {
    /// The static type of this expression (`Ty::Any` where nothing tells it, as for the
    /// elements of `{}`): one of its facts ([`IExpr::props`]).
    pub fn ty(&self) -> Ty {
        self.props().ty.clone()
    }
}

impl IExprKind {
    /// The static type of a node of this kind, from its children's.
    pub fn ty_here(&self) -> Ty {
        let ty = |e: &IExpr| e.ty();
        match self {
            IExprKind::Lit(v) => v.ty(),
            IExprKind::AllOf { ty, .. } => Ty::Set(Box::new(ty.ty())),
            IExprKind::Var(v) => v.ty.clone(),
            IExprKind::Neg { .. } => Ty::Int,
            IExprKind::Not(_) => Ty::Bool,
            IExprKind::Bin { op, lhs, rhs, .. } => match op {
                Op::RangeIncl | Op::RangeExcl => match ty(lhs).fits(&Ty::Nat) {
                    true => Ty::Set(Box::new(Ty::Nat)),
                    false => Ty::Set(Box::new(Ty::Int)),
                },
                Op::NatSub => Ty::Nat,
                Op::Sub => Ty::Int,
                Op::Add | Op::Mul | Op::Div | Op::Rem => {
                    let (l, r) = (ty(lhs), ty(rhs));
                    match l.fits(&Ty::Nat) && r.fits(&Ty::Nat) && l != Ty::Any
                        || (l == Ty::Nat && r == Ty::Any)
                    {
                        true => Ty::Nat,
                        false => Ty::Int,
                    }
                }
                Op::SetUnion | Op::SetInter | Op::SetDiff | Op::Concat => {
                    ty(lhs).join(&ty(rhs)).unwrap_or(Ty::Any)
                }
                // As the operation with the set of the one element.
                Op::Insert | Op::Remove => (ty(lhs))
                    .join(&Ty::Set(Box::new(ty(rhs))))
                    .unwrap_or(Ty::Any),
                Op::GameSum => Ty::Game,
                // Logic, comparisons and membership (`Op::gives_bool`).
                _ => Ty::Bool,
            },
            IExprKind::Field { tuple, index } => match ty(tuple) {
                Ty::Tuple(ts) => ts.get(*index).cloned().unwrap_or(Ty::Any),
                _ => Ty::Any,
            },
            IExprKind::Index { list, .. } => match ty(list) {
                Ty::List(t) => *t,
                _ => Ty::Any,
            },
            IExprKind::Tuple(es) => Ty::Tuple(es.iter().map(ty).collect()),
            IExprKind::Set(es) => Ty::Set(Box::new(join(es.iter().map(ty)))),
            IExprKind::List(es) => Ty::List(Box::new(join(es.iter().map(ty)))),
            IExprKind::If {
                then, otherwise, ..
            } => ty(then).join(&ty(otherwise)).unwrap_or(Ty::Any),
            IExprKind::Let { body, .. } => ty(body),
            IExprKind::Quant {
                kind: crate::ast::QuantKind::Count,
                ..
            } => Ty::Nat,
            IExprKind::Quant { .. } => Ty::Bool,
            IExprKind::Inverted(q) => match q.kind {
                crate::ast::QuantKind::Count => Ty::Nat,
                _ => Ty::Bool,
            },
            IExprKind::Compr { elem, .. } => Ty::Set(Box::new(ty(elem))),
            IExprKind::Closure {
                kind: crate::ast::ClosureKind::Reach,
                seed,
                ..
            } => ty(seed),
            IExprKind::Closure { seed, .. } => Ty::List(Box::new(ty(seed))),
            IExprKind::Slice { list, .. } | IExprKind::With { list, .. } => ty(list),
            IExprKind::Call { ret, .. } => ret.clone(),
            IExprKind::Builtin { func, args, .. } => match func {
                Builtin::Len | Builtin::Abs => Ty::Nat,
                Builtin::Min | Builtin::Max => match args.as_slice() {
                    [one] => match ty(one) {
                        Ty::Set(t) | Ty::List(t) => *t,
                        _ => Ty::Any,
                    },
                    _ => {
                        let tys: Vec<Ty> = args.iter().map(ty).collect();
                        match tys.iter().all(Ty::is_int) {
                            true if tys.iter().all(|t| t.fits(&Ty::Nat)) => Ty::Nat,
                            true => Ty::Int,
                            false => join(tys.into_iter()),
                        }
                    }
                },
            },
            IExprKind::Pos { .. }
            | IExprKind::End
            | IExprKind::Compound { .. }
            | IExprKind::CompoundOf { .. }
            | IExprKind::Leaves(_) => Ty::Game,
            IExprKind::Variant { variant, .. } => Ty::Union(variant.ty.clone()),
            IExprKind::Match { arms, default, .. } => join(
                (arms.iter().map(|a| &a.body))
                    .chain(default.as_deref())
                    .map(ty),
            ),
            IExprKind::Extreme(x) => ty(&x.elem),
            IExprKind::Cells(op) => ty(&op.written),
            IExprKind::Parts(op) => ty(&op.written),
        }
    }
}

impl Val {
    /// The static type of a constant: a number's is `nat` where it is not negative (as a
    /// literal's), a collection's the join of its elements' (`_` where it has none).
    pub fn ty(&self) -> Ty {
        match self {
            Val::Bool(_) => Ty::Bool,
            Val::Int(n) if *n >= 0 => Ty::Nat,
            Val::Int(_) => Ty::Int,
            Val::Tuple(vs) => Ty::Tuple(vs.iter().map(Val::ty).collect()),
            Val::Set(vs) => Ty::Set(Box::new(join(vs.iter().map(Val::ty)))),
            Val::List(vs) => Ty::List(Box::new(join(vs.iter().map(Val::ty)))),
            Val::Range(lo, hi) if *lo >= 0 || hi < lo => Ty::Set(Box::new(Ty::Nat)),
            Val::Range(..) => Ty::Set(Box::new(Ty::Int)),
            Val::Game(_) => Ty::Game,
            Val::Tag(t) => Ty::Union(UnionRef {
                id: t.ty,
                name: t.union.clone(),
            }),
        }
    }
}

/// The least type every one of `types` fits (`_` where there is none, or no type).
fn join(mut types: impl Iterator<Item = Ty>) -> Ty {
    types
        .try_fold(Ty::Any, |a, t| a.join(&t))
        .unwrap_or(Ty::Any)
}
