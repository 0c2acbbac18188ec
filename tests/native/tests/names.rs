//! Native code renames what it cannot name as the user did (its own locals and items, Rust
//! keywords, upper-case names), and the answers stay the interpreter's.

use cgdl_compiler::{compile_str, queries, Interpreter};
use cgdl_native_tests::{names, run_module};
use cgdl_runtime::report::run_plan;
use cgdl_runtime::Solver;

#[test]
fn renamed_names_give_the_interpreters_answers() {
    let source = include_str!("../names.cgdl");
    let program = compile_str(source).expect("names.cgdl checks");
    let interp = Interpreter::new(&program, source);
    let mut solver = Solver::new(&interp);
    let interpreted: Vec<_> = (program.queries.iter())
        .map(|q| run_plan(&mut solver, queries::plan(&interp, q).expect("plan")).expect("solve"))
        .collect();
    let native = run_module(&names::Universe, names::plans()).expect("runs natively");
    assert_eq!(native, interpreted);
    // Known(n): grundy values from the rules (n - 1, n - 2 and n - 3 while n >= 3).
    let grundy = [0, 1, 2, 3, 0, 4, 2, 3, 0, 4, 2, 3, 0];
    let known = format!("{:?}", native[1]);
    for g in grundy {
        assert!(known.contains(&g.to_string()));
    }
}
