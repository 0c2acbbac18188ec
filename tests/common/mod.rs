//! Helpers shared by the integration tests.
#![allow(dead_code)]

use cgdl::compiler::{self, interp::Interpreter};
use cgdl::runtime::report::{run_plan, Answer};
use cgdl::runtime::{Mode, Solver};
use serde_json::Value as Json;
use std::path::PathBuf;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The text of `examples/NAME`.
pub fn example(name: &str) -> String {
    std::fs::read_to_string(root().join("examples").join(name)).expect("example exists")
}

/// Runs every query of a source text with the interpreter.
pub fn run_source(source: &str, mode: Mode) -> Vec<Answer> {
    let program = compiler::compile_str(source)
        .unwrap_or_else(|d| panic!("{}", compiler::diagnostics::render_all(&d, "test", source)));
    let interp = Interpreter::new(&program, source);
    let mut solver = Solver::with_mode(&interp, mode);
    program
        .queries
        .iter()
        .map(|q| {
            let plan = compiler::queries::plan(&interp, q).expect("plan");
            run_plan(&mut solver, plan).expect("solve")
        })
        .collect()
}

/// Runs every query of `examples/NAME`.
pub fn run_example(name: &str) -> Vec<Answer> {
    run_source(&example(name), Mode::Fast)
}

/// The seed tables (Lenhardt, Antol).
pub fn seed_tables() -> Json {
    serde_json::from_str(include_str!("../data/seed_tables.json")).expect("seed tables")
}

/// A JSON value as the CLI prints it: `P`, `SL`, `3`.
pub fn shown(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The single grid of a grid answer, as printed strings.
pub fn grid(answer: &Answer) -> Vec<Vec<String>> {
    match answer {
        Answer::Grid { grids, .. } => grids[0]
            .1
            .iter()
            .map(|row| row.iter().map(shown).collect())
            .collect(),
        other => panic!("not a grid: {other:?}"),
    }
}

/// A seed table grid as printed strings.
pub fn seed_grid(v: &Json) -> Vec<Vec<String>> {
    v.as_array()
        .expect("rows")
        .iter()
        .map(|row| row.as_array().expect("row").iter().map(shown).collect())
        .collect()
}

/// Column `col` of a one-name table, as printed strings.
pub fn column(answer: &Answer, col: usize) -> Vec<String> {
    match answer {
        Answer::Table { rows, .. } => rows.iter().map(|r| shown(&r[col])).collect(),
        other => panic!("not a table: {other:?}"),
    }
}

/// The values of a `value` answer, by name.
pub fn values(answer: &Answer) -> Vec<(String, String)> {
    match answer {
        Answer::Value { values, .. } => values
            .iter()
            .map(|(n, v)| (n.clone(), cgdl::runtime::report::cell_text(v)))
            .collect(),
        other => panic!("not a value answer: {other:?}"),
    }
}

/// One named value of a `value` answer.
pub fn value(answer: &Answer, name: &str) -> String {
    values(answer)
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v)
        .unwrap_or_else(|| panic!("no value {name}"))
}

/// Numbers as the printed strings.
pub fn strings(ns: &[u32]) -> Vec<String> {
    ns.iter().map(|n| n.to_string()).collect()
}
