//! Tests of `cgdl_compiler::opt::structure`.

use cgdl_compiler::ir::*;
use cgdl_compiler::opt::structure::*;
use cgdl_compiler::Interpreter;

/// A body inlined at an offset: its own names move past it (a `min` of a comprehension
/// binds its name too), the parameter becomes the argument, and it computes what the
/// function computes at the argument.
#[test]
fn an_inlined_body_moves_its_own_names_and_takes_its_arguments() {
    let source = "fn least(n: 0..=9) -> nat = min({y + n for y in 1..=3})
        game G(k: 0..=9) { move m(j in 0..k) => G(least(j) - j - 1) }
        value grundy of G(9)";
    let program = cgdl_compiler::compile_str(source).expect("checks");
    let body = &program.fns[0].body;
    assert!(matches!(body.kind(), IExprKind::Extreme(_)), "{body:?}");
    let offset = 10;
    let arg = IExpr::from(IExprKind::Lit(Val::Int(5)));
    let inlined = substitute(body, std::slice::from_ref(&arg), offset);
    let mut slots = Vec::new();
    inlined.for_each_var(&mut |v| slots.push(v.slot.index()));
    assert!(
        !slots.is_empty() && slots.iter().all(|&s| s >= offset),
        "{slots:?}"
    );
    let interp = Interpreter::new(&program, source);
    let mut env = vec![Val::Int(0); offset + program.fns[0].locals.len()];
    let at_five = interp.eval(&inlined, &mut env).expect("evaluates");
    let mut env = vec![Val::Int(5); program.fns[0].locals.len()];
    assert_eq!(at_five, interp.eval(body, &mut env).expect("evaluates"));
    assert_eq!(at_five, Val::Int(6));
}
