//! Tests of `cgdl_compiler::ir::props`.

use cgdl_compiler::ir::*;

fn body(source: &str, func: &str) -> IExpr {
    let program = cgdl_compiler::compile_str(source).expect("checks");
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
            *e = IExpr::bin(Op::Div, lit(1), lit(0), cgdl_compiler::ast::Span::default());
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
