//! Tests of `cgdl_compiler::ir::typing`.

use cgdl_compiler::ast::Span;
use cgdl_compiler::ir::*;

/// Read off a program as the checker made it: each function body's type is its result
/// type, or more precise (`nat` where it is declared `int`: `0 - n` of a `nat` fails below
/// 0, and `max` of `nat`s is one).
#[test]
fn bodies_read_their_functions_types() {
    let source = "type Cell = (0..3, 0..3)
fn around(x: Cell) -> set<Cell> = { y for y in Cell where abs(x.0 - y.0) + abs(x.1 - y.1) == 1 }
fn far(s: set<Cell>) -> list<set<Cell>> = components(s, x => around(x))
fn most(s: set<Cell>) -> int = max({ x.0 + x.1 for x in s } | {0})
fn pair(n: nat) -> (bool, int) = (n > 2, 0 - n)
game G(n: nat) { move take(k in 1..=2, k <= n) => G(n - k) }
value grundy of G(3)
";
    let program = cgdl_compiler::compile_str(source).expect("checks");
    let read: Vec<String> = (program.fns.iter())
        .map(|f| f.body.ty().to_string())
        .collect();
    assert_eq!(
        read,
        [
            "set<(nat, nat)>",
            "list<set<(nat, nat)>>",
            "nat",
            "(bool, nat)"
        ]
    );
    // The elements of `{}` are of no type the IR can tell.
    let empty = IExpr::from(IExprKind::Set(Vec::new()));
    assert_eq!(empty.ty(), Ty::Set(Box::new(Ty::Any)));
    let neg = IExpr::from(IExprKind::Neg {
        arg: Box::new(IExpr::from(IExprKind::Lit(Val::Int(3)))),
    })
    .at(Span::default());
    assert_eq!(neg.ty(), Ty::Int);
}
