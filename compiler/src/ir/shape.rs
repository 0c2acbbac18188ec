//! Expressions up to where they were written and what their own names are called: two
//! expressions that compute the same thing from the same names have one [`Shape`], whatever
//! their spans and the slots of the names bound inside them. The sharing pass finds common
//! subexpressions by it; the structure and regions passes compare expressions by it.

use super::*;
use crate::ast::Span;

/// An expression with its spans forgotten and the names bound inside it moved to slots
/// numbered in the order they are bound, compared and hashed by its structure.
#[derive(Clone, Debug)]
pub struct Shape(IExpr, u64);

/// The first slot a shape gives the names bound inside it: past any body's frame, so that
/// the names it reads from outside keep theirs.
const BOUND: usize = usize::MAX / 2;

impl Shape {
    /// The shape of `e`.
    pub fn of(e: &IExpr) -> Shape {
        let hash = e.props().hash;
        let mut e = e.clone();
        e.for_each_node_mut(&mut |e| *e.span_mut() = Span::default());
        // A name bound inside `e` is read only inside its binder, where no other name of its
        // slot is visible: the walk renames each binder before the names it binds.
        let mut bound: rustc_hash::FxHashMap<VarId, VarId> = Default::default();
        e.for_each_var_mut(&mut |v, read| match read {
            true => v.slot = bound.get(&v.slot).copied().unwrap_or(v.slot),
            false => {
                let k = VarId::new(BOUND + bound.len());
                bound.insert(v.slot, k);
                v.slot = k;
            }
        });
        // Names hash by what they are called, their slots aside: the renaming kept the hash.
        Shape(e, hash)
    }

    /// The expression with its spans forgotten and its own names renamed.
    pub fn expr(&self) -> &IExpr {
        &self.0
    }
}

impl PartialEq for Shape {
    fn eq(&self, other: &Shape) -> bool {
        self.1 == other.1 && self.0 == other.0
    }
}

// Values hold no floating-point numbers: every expression equals itself.
impl Eq for Shape {}

impl std::hash::Hash for Shape {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(self.1);
    }
}

impl IExprKind {
    /// Hashes what this node holds besides its children (each variant's own data, never a
    /// span, and of a name what it is called, not its slot): equal shapes hash alike.
    pub fn hash_own(&self, h: &mut impl std::hash::Hasher) {
        let e = self;
        use std::hash::Hash;
        std::mem::discriminant(e).hash(h);
        let var = |v: &Var, h: &mut dyn std::hash::Hasher| h.write(v.name.as_bytes());
        let binders = |clauses: &[IClause], h: &mut dyn std::hash::Hasher| {
            for c in clauses {
                match c {
                    IClause::Bind(vars, _) => vars.iter().for_each(|v| var(v, h)),
                    IClause::Let(v, _) => var(v, h),
                    IClause::Cond(_) => h.write_u8(0),
                }
            }
        };
        match e {
            IExprKind::Lit(v) => v.hash(h),
            IExprKind::AllOf { values, .. } => values.hash(h),
            IExprKind::Var(v) => var(v, h),
            IExprKind::Bin { op, .. } => (*op as u8).hash(h),
            IExprKind::Field { index, .. } => index.hash(h),
            IExprKind::Tuple(es) | IExprKind::Set(es) | IExprKind::List(es) => es.len().hash(h),
            IExprKind::Let { var: v, .. } => var(v, h),
            IExprKind::Quant { kind, vars, .. } => {
                (*kind as u8).hash(h);
                vars.iter().for_each(|v| var(v, h));
            }
            IExprKind::Inverted(q) => {
                (q.kind as u8).hash(h);
                var(&q.var, h);
                q.table.func.hash(h);
            }
            IExprKind::Extreme(x) => {
                x.largest.hash(h);
                binders(&x.clauses, h);
            }
            IExprKind::Compr { clauses, .. } | IExprKind::CompoundOf { clauses, .. } => {
                binders(clauses, h)
            }
            IExprKind::Closure { kind, var: v, .. } => {
                (*kind as u8).hash(h);
                var(v, h);
            }
            IExprKind::Slice { lo, hi, .. } => (lo.is_some(), hi.is_some()).hash(h),
            IExprKind::Call { func, args, .. } => (func, args.len()).hash(h),
            IExprKind::Builtin { func, args, .. } => (*func as u8, args.len()).hash(h),
            IExprKind::Pos { game, .. } => game.hash(h),
            IExprKind::Variant { variant, .. } => (variant.ty.id, variant.variant).hash(h),
            IExprKind::Match {
                ty, arms, default, ..
            } => {
                (ty, default.is_some()).hash(h);
                for arm in arms {
                    arm.variant.hash(h);
                    arm.vars.iter().for_each(|v| var(v, h));
                }
            }
            _ => {}
        }
    }
}
