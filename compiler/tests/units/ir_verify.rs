//! Tests of `cgdl_compiler::ir::verify`.

use cgdl_compiler::compile_str;
use cgdl_compiler::ir::*;
use std::rc::Rc;

const SOURCE: &str = "fn twice(n: 0..=9) -> nat = n + n
game G(s: set<0..=4>) {
move take(x in s, let y = twice(x)) => G(s - {x} - { z for z in s where z < y })
}
value grundy of G({0, 1, 2, 3, 4})
";

fn moves(p: &mut Program) -> &mut Vec<Move> {
    match &mut p.games[0].kind {
        GameKind::Rules(moves) => moves,
        _ => panic!("a game of rules"),
    }
}

#[test]
fn every_example_is_well_formed_and_broken_programs_are_not() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
    for entry in std::fs::read_dir(dir).expect("examples/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|x| x == "cgdl") {
            let source = std::fs::read_to_string(&path).expect("readable");
            let program = compile_str(&source).expect("an example checks");
            assert_eq!(verify(&program), Ok(()), "{}", path.display());
        }
    }
    let program = compile_str(SOURCE).expect("checks");
    assert_eq!(verify(&program), Ok(()));
    // A name read outside its binder: the result reads `x` in another slot.
    let mut broken = program.clone();
    let m = &mut moves(&mut broken)[0];
    let IClause::Bind(vars, _) = &m.clauses[0] else {
        panic!("the binder first")
    };
    let mut x = vars[0].clone();
    x.slot = x.slot.offset(7);
    m.result = IExpr::from(IExprKind::Var(x));
    assert!(verify(&broken).unwrap_err().contains("not bound"));
    // A name bound twice on one path.
    let mut broken = program.clone();
    let m = &mut moves(&mut broken)[0];
    let first = m.clauses[0].clone();
    m.clauses.push(first);
    assert!(verify(&broken).unwrap_err().contains("in use"));
    // A name of another type than its slot's, bound and read where it is (the binder
    // and the result agree, the body's names do not).
    let mut broken = program.clone();
    let m = &mut moves(&mut broken)[0];
    let IClause::Bind(vars, _) = &mut m.clauses[0] else {
        panic!("the binder first")
    };
    vars[0].ty = Ty::Bool;
    let x = vars[0].clone();
    m.result = IExpr::from(IExprKind::Var(x));
    assert!(verify(&broken)
        .unwrap_err()
        .contains("which the body gives to"));
    // A name in a slot past the body's names.
    let mut broken = program.clone();
    let past = broken.games[0].locals.len();
    let m = &mut moves(&mut broken)[0];
    let IClause::Bind(vars, _) = &mut m.clauses[0] else {
        panic!("the binder first")
    };
    vars[0].slot = VarId::new(past);
    assert!(verify(&broken).unwrap_err().contains("no name"));
    // A call of `twice` giving `ret`, with literal arguments `args`.
    let call = |ret: Ty, args: &[i64], in_table: bool| {
        IExpr::from(IExprKind::Call {
            func: 0,
            args: (args.iter())
                .map(|&a| IExpr::from(IExprKind::Lit(Val::Int(a))))
                .collect(),
            ret,
            in_table,
        })
    };
    // A call with an argument too many.
    let mut broken = program.clone();
    broken.fns[0].body = call(Ty::Nat, &[1, 2], false);
    assert!(verify(&broken).unwrap_err().contains("2 arguments"));
    // A call whose result type is not its function's (the node's type fact reads it).
    let mut broken = program.clone();
    broken.fns[0].body = call(Ty::Bool, &[1], false);
    assert!(verify(&broken).unwrap_err().contains("which returns nat"));
    // A call read from a table that misses a value, or from none.
    assert!(verify(&program).is_ok(), "`twice`'s table is whole");
    let mut broken = program.clone();
    broken.fns[0].body = call(Ty::Nat, &[1], true);
    assert!(
        verify(&broken).is_ok(),
        "a call of `twice` may read its table"
    );
    let table = broken.fns[0].table.as_mut().expect("`twice` has a table");
    let mut values = table.values.to_vec();
    values[0] = None;
    table.values = values.into();
    assert!(verify(&broken).unwrap_err().contains("has not whole"));
    broken.fns[0].table = None;
    assert!(verify(&broken).unwrap_err().contains("has not whole"));
    // A constant of a tagged union the program does not have (inside a set).
    let mut broken = program.clone();
    let tag = Val::Tag(Rc::new(Tagged {
        ty: 0,
        variant: 1,
        fields: vec![Val::Int(3)],
        name: "V".into(),
        union: "Line".into(),
    }));
    let set = Val::Set(Rc::new([tag].into_iter().collect()));
    broken.fns[0].body = IExpr::from(IExprKind::Lit(set));
    assert!(verify(&broken)
        .unwrap_err()
        .contains("is not variant 1 of type 0 (`Line`)"));
    // Facts kept on a node that are not its own (which `kind_mut` makes impossible
    // outside `IExpr::claiming`).
    let mut broken = program.clone();
    let body = broken.fns[0].body.clone();
    let mut wrong = Props::of(body.kind());
    wrong.fallible = !wrong.fallible;
    broken.fns[0].body = IExpr::claiming(body.kind().clone(), wrong);
    assert!(verify(&broken).unwrap_err().contains("not its own"));
}
