//! The facts about an expression that follow from its parts alone ([`Props`]), each node's
//! from its own kind and its children's facts: its type, a structural hash, whether it
//! holds a position, a loop, an operation that can fail, which helper functions it calls
//! and which names it reads. A
//! node keeps its facts once asked ([`IExpr::props`]); the passes read them instead of
//! walking the expression again. Facts that depend on the program (whether a called
//! function can fail, whether its calls are costly) are the reader's, from `calls`.

use super::*;
use std::hash::Hasher;

/// What an expression's parts tell about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Props {
    /// Its static type ([`IExpr::ty`]).
    pub ty: Ty,
    /// A hash of its structure, spans aside: expressions of one [`Shape`] hash alike.
    pub hash: u64,
    /// It is or holds a position expression (a position, `end`, a compound, a game sum).
    pub position: bool,
    /// It is or holds a loop (a quantifier, a comprehension, a closure, an extreme) or set
    /// algebra: work that grows with the sets it reads.
    pub loops: bool,
    /// It is or holds an operation that can fail on some values of its operands' types
    /// (arithmetic, an index, a position or payload whose fields are checked, `min` of a
    /// set that may be empty, ...), the calls of helper functions aside.
    pub fallible: bool,
    /// The helper functions it calls, by id, increasing.
    pub calls: Rc<[usize]>,
    /// The names it reads anywhere inside (names bound inside it too), as `(slot, name)`,
    /// increasing.
    pub reads: Rc<[(VarId, Rc<str>)]>,
}

impl Props {
    /// The facts of a node of kind `kind`, from its children's.
    pub fn of(kind: &IExprKind) -> Props {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        kind.hash_own(&mut hasher);
        let mut props = Props {
            ty: kind.ty_here(),
            hash: 0,
            position: kind.is_position(),
            loops: kind.loops_here(),
            fallible: !kind.cannot_fail_here(),
            calls: Rc::from([]),
            reads: Rc::from([]),
        };
        let mut calls: Vec<usize> = match kind {
            IExprKind::Call { func, .. } => vec![*func],
            _ => Vec::new(),
        };
        let mut reads: Vec<(VarId, Rc<str>)> = match kind {
            IExprKind::Var(v) => vec![(v.slot, v.name.clone())],
            _ => Vec::new(),
        };
        kind.for_each_child(&mut |c| {
            let p = c.props();
            hasher.write_u64(p.hash);
            props.position |= p.position;
            props.loops |= p.loops;
            props.fallible |= p.fallible;
            calls.extend(p.calls.iter().copied());
            reads.extend(p.reads.iter().cloned());
        });
        calls.sort_unstable();
        calls.dedup();
        props.calls = calls.into();
        reads.sort_unstable();
        reads.dedup();
        props.reads = reads.into();
        props.hash = hasher.finish();
        props
    }
}

impl IExprKind {
    /// Whether this node itself is a position expression (never moved, nor anything
    /// holding one: the code generator reads the shapes of moves' results).
    pub fn is_position(&self) -> bool {
        matches!(
            self,
            IExprKind::Pos { .. }
                | IExprKind::End
                | IExprKind::Compound { .. }
                | IExprKind::CompoundOf { .. }
                | IExprKind::Leaves(_)
                | IExprKind::Bin {
                    op: Op::GameSum,
                    ..
                }
        )
    }

    /// Whether this node itself is a loop or set algebra.
    pub fn loops_here(&self) -> bool {
        match self {
            IExprKind::Quant { .. }
            | IExprKind::Inverted(_)
            | IExprKind::Compr { .. }
            | IExprKind::Closure { .. }
            | IExprKind::Extreme(_) => true,
            IExprKind::Bin { op, .. } => op.is_set_algebra(),
            _ => false,
        }
    }

    /// Whether this node itself cannot fail when its parts do not, whatever the values of
    /// their types (a call: where the function cannot, which is the program's to say).
    pub fn cannot_fail_here(&self) -> bool {
        match self {
            IExprKind::Lit(_)
            | IExprKind::AllOf { .. }
            | IExprKind::Var(_)
            | IExprKind::Not(_)
            | IExprKind::Field { .. }
            | IExprKind::Tuple(_)
            | IExprKind::Set(_)
            | IExprKind::If { .. }
            | IExprKind::Let { .. }
            | IExprKind::Quant { .. }
            | IExprKind::Inverted(_)
            | IExprKind::Compr { .. }
            | IExprKind::Closure { .. }
            | IExprKind::Match { .. }
            | IExprKind::Call { .. }
            // Proven to fit its fields (`opt/checks.rs`).
            | IExprKind::Pos { fits: true, .. } => true,
            IExprKind::Bin { op, .. } => op.cannot_fail(),
            IExprKind::Builtin {
                func: Builtin::Len, ..
            } => true,
            _ => false,
        }
    }
}
