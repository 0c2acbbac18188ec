//! Interpreter == native: every example, compiled by build.rs, gives the same answers as the
//! reference interpreter.

use cgdl_compiler::{compile_str, queries, Interpreter};
use cgdl_native_tests::{run_native, EXAMPLES};
use cgdl_runtime::report::run_plan;
use cgdl_runtime::Solver;

fn interpret(source: &str) -> Vec<cgdl_runtime::report::Answer> {
    let program = compile_str(source).expect("example checks");
    let interp = Interpreter::new(&program, source);
    let mut solver = Solver::new(&interp);
    program
        .queries
        .iter()
        .map(|q| {
            let plan = queries::plan(&interp, q).expect("plan");
            run_plan(&mut solver, plan).expect("solve")
        })
        .collect()
}

#[test]
fn every_native_example_matches_the_interpreter() {
    // Every example file is compiled natively: none is left to the interpreter alone.
    let dir = format!("{}/../../examples", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("examples folder")
        .filter_map(|e| {
            let name = e.expect("entry").file_name().into_string().ok()?;
            name.strip_suffix(".cgdl").map(str::to_string)
        })
        .collect();
    files.sort();
    assert_eq!(EXAMPLES, files.as_slice());
    assert!(EXAMPLES.len() >= 14);
    for name in EXAMPLES {
        let path = format!("{}/../../examples/{name}.cgdl", env!("CARGO_MANIFEST_DIR"));
        let source = std::fs::read_to_string(&path).expect("example");
        let native = run_native(name, 1).expect("compiled").expect("runs");
        assert_eq!(native, interpret(&source), "{name}");
    }
}
