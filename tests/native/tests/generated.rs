//! Property test: random small programs (see `programs.rs`; COUNT of them, from fixed seeds,
//! compiled by build.rs) give the same answers and the same error messages natively as in
//! the reference interpreter, query by query.

use cgdl_compiler::{compile_str, queries, Interpreter};
use cgdl_native_tests::generated;
use cgdl_runtime::report::{run_plan, Answer};
use cgdl_runtime::Solver;

/// Each query's answer or error message, interpreted, with a fresh solver per query.
fn interpret(source: &str) -> Vec<Result<Answer, String>> {
    let program = compile_str(source).expect("generated programs check");
    let interp = Interpreter::new(&program, source);
    program
        .queries
        .iter()
        .map(|q| {
            let plan = queries::plan(&interp, q).map_err(|e| interp.error_text(&e))?;
            let mut solver = Solver::new(&interp);
            run_plan(&mut solver, plan).map_err(|e| e.to_string())
        })
        .collect()
}

#[test]
fn generated_programs_run_the_same_natively_and_interpreted() {
    const { assert!(generated::COUNT >= 20) };
    let mut answers = 0;
    let mut errors = 0;
    for i in 0..generated::COUNT {
        let (source, native) = generated::run(i).expect("every program is compiled");
        let interpreted = interpret(source);
        assert_eq!(native, interpreted, "program {i}:\n{source}");
        answers += native.iter().filter(|r| r.is_ok()).count();
        errors += native.iter().filter(|r| r.is_err()).count();
    }
    // The programs exercise both paths: real answers, and run-time errors.
    assert!(answers >= 60, "only {answers} answers");
    assert!(errors >= 1, "no program hit a run-time error");
}
