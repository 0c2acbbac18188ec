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

#[cfg(test)]
mod tests {
    use super::*;

    fn body(source: &str, func: &str) -> IExpr {
        let program = crate::compile_str(source).expect("checks");
        let f = program
            .fns
            .iter()
            .find(|f| f.name == func)
            .expect("declared");
        f.body.clone()
    }

    const SOURCE: &str = "fn twice(n: nat) -> nat = n * 2
fn near(s: set<0..9>, k: 0..9) -> bool = exists x in s: x + 1 == k
fn first(s: set<0..9>) -> nat = if len(s) == 0 then 0 else twice(min(s))
fn safe(s: set<0..9>, k: 0..9) -> bool = k in s or len(s) == 0
game G(n: nat) { move m(k in 1..=2, k <= n) => G(n - k) }
value grundy of G(3)
";

    #[test]
    fn facts_follow_from_the_parts() {
        let near = body(SOURCE, "near");
        let p = near.props();
        assert!(p.loops && p.fallible && !p.position && p.calls.is_empty());
        let read: Vec<&str> = p.reads.iter().map(|(_, n)| &**n).collect();
        assert_eq!(read, ["s", "k", "x"]);
        let first = body(SOURCE, "first");
        assert!(!first.props().loops && first.props().fallible);
        assert_eq!(&*first.props().calls, &[0]);
        let safe = body(SOURCE, "safe");
        assert!(!safe.props().fallible && !safe.props().loops);
        assert!(safe.reads_any(&[Var {
            slot: VarId::new(1),
            name: "k".into(),
            ty: Ty::Nat,
        }]));
        // One shape, one hash: the same expression checked from another place.
        let moved = body(&format!("\n\n{SOURCE}"), "near");
        assert_eq!(near.props().hash, moved.props().hash);
        assert_ne!(near.props().hash, safe.props().hash);
    }

    /// A change deep inside an expression, made the only way one can be (through each
    /// node's `kind_mut` on the path to it), is seen by the facts of every node above it.
    #[test]
    fn a_change_inside_is_seen_above() {
        let mut safe = body(SOURCE, "safe");
        assert!(!safe.props().fallible);
        let before = safe.props().hash;
        fn to_division(e: &mut IExpr) {
            if let IExprKind::Builtin { .. } = e.kind() {
                let lit = |n| IExpr::from(IExprKind::Lit(Val::Int(n)));
                *e = IExpr::bin(Op::Div, lit(1), lit(0), crate::ast::Span::default());
                return;
            }
            e.for_each_child_mut(&mut to_division);
        }
        to_division(&mut safe);
        assert!(safe.props().fallible);
        assert_ne!(safe.props().hash, before);
        assert_eq!(safe.props(), &Props::of(safe.kind()));
    }

    /// A node `take_apart` cannot use comes back as it was, its facts kept; one it can use
    /// gives up its parts.
    #[test]
    fn a_node_not_taken_apart_keeps_its_facts() {
        let safe = body(SOURCE, "safe");
        let facts = safe.props().clone();
        let span = safe.span();
        let is_and = |kind| match kind {
            IExprKind::Bin { op: Op::And, .. } => Ok(()),
            other => Err(other),
        };
        let back = safe
            .clone()
            .take_apart(is_and)
            .expect_err("an `or`, not an `and`");
        assert_eq!(back.kept_props(), Some(&facts));
        assert_eq!((back.span(), &back), (span, &safe));
        let parts = safe.take_apart(|kind| match kind {
            IExprKind::Bin {
                op: Op::Or,
                lhs,
                rhs,
            } => Ok((*lhs, *rhs)),
            other => Err(other),
        });
        let (lhs, rhs) = parts.expect("an `or`");
        assert!(lhs.as_bin().is_some_and(|(op, _, _)| op == Op::In));
        assert!(rhs.as_bin().is_some_and(|(op, _, _)| op == Op::Eq));
    }
}
