//! Helpers shared by the integration tests.
#![allow(dead_code)]

use cgdl::compiler::{self, interp::Interpreter};
use cgdl::runtime::report::{run_plan, Answer};
use cgdl::runtime::{Mode, Solver};
use serde_json::Value as Json;
use std::path::PathBuf;
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The text of `examples/NAME`.
pub fn example(name: &str) -> String {
    std::fs::read_to_string(root().join("examples").join(name)).expect("example exists")
}

/// An example whose board is its constants `R` and `C` (written `const R = ...` on their
/// own lines), resized to `r` × `c`, with its `table` queries left out.
pub fn resized(source: &str, r: u32, c: u32) -> String {
    (source.lines())
        .map(|line| {
            if line.starts_with("const R = ") {
                format!("const R = {r}")
            } else if line.starts_with("const C = ") {
                format!("const C = {c}")
            } else if line.starts_with("table ") {
                format!("// {line}")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs every query of a source text with the interpreter.
pub fn run_source(source: &str, mode: Mode) -> Vec<Answer> {
    let program = compiler::compile_str(source)
        .unwrap_or_else(|d| panic!("{}", compiler::diagnostics::render_all(&d, "test", source)));
    run_program(&program, source, mode)
}

/// Runs every query of a checked program (of `source`) with the interpreter.
pub fn run_program(program: &compiler::ir::Program, source: &str, mode: Mode) -> Vec<Answer> {
    let interp = Interpreter::new(program, source);
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

/// A JSON value as the CLI prints it: `P`, `SL`, `3`, `∞{0}`.
pub fn shown(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        Json::Object(_) => cgdl::runtime::report::cell_text(v),
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

/// Runs the `cgdl` binary from the repository root, with the tests' solver cache. A `run`
/// not given `--interp` is given `--native`: it waits for its solver, so that the native
/// back end answers (a first run would otherwise race the interpreter against the build).
pub fn cgdl(args: &[&str]) -> Output {
    let mut args = args.to_vec();
    if args.first() == Some(&"run") && !args.contains(&"--interp") && !args.contains(&"--native") {
        args.insert(1, "--native");
    }
    Command::new(env!("CARGO_BIN_EXE_cgdl"))
        .args(args)
        .env("CGDL_CACHE_DIR", root().join("target/cgdl-test-cache"))
        .current_dir(root())
        .output()
        .expect("the cgdl binary runs")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Writes `source` to a file of the test binary's own under Cargo's temporary folder for
/// tests (`target/tmp`): `cargo clean` removes it, and each run of the binary writes over
/// the last run's files instead of leaving a folder per process in the system's `/tmp`.
/// The tests of a binary share the folder and run at once: each gives a name of its own.
pub fn temp_file(name: &str, source: &str) -> PathBuf {
    let binary = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| std::process::id().to_string());
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cgdl-test-{binary}"));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, source).expect("write temp file");
    path
}

/// Standard error without the native build's note.
pub fn stderr_without_build_note(o: &Output) -> String {
    stderr(o)
        .lines()
        .filter(|l| !l.starts_with("cgdl: building the native solver"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The positions a `--stats` line (the last line of `o`'s stderr, build notes aside) says
/// were solved.
pub fn stats_positions(o: &Output) -> u64 {
    let err = stderr_without_build_note(o);
    let line = err.lines().last().expect("a stats line");
    (line.strip_prefix("stats: "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("not a stats line: {line}"))
}

/// `cgdl ARGS` natively, then with `--interp`.
pub fn both_back_ends(args: &[&str]) -> [Output; 2] {
    let mut interp_args = args.to_vec();
    interp_args.push("--interp");
    [cgdl(args), cgdl(&interp_args)]
}

/// Asserts that `out` failed with status 1, saying `expected` on stderr.
pub fn assert_fails_with(out: &Output, expected: &str) {
    assert_eq!(out.status.code(), Some(1), "{}", stderr(out));
    assert!(stderr(out).contains(expected), "{}", stderr(out));
}

/// Runs `cgdl ARGS` in both back ends: each fails with `expected`, with the same stderr.
pub fn both_back_ends_fail_with(args: &[&str], expected: &str) -> [Output; 2] {
    let outs = both_back_ends(args);
    for out in &outs {
        assert_fails_with(out, expected);
    }
    assert_eq!(stderr_without_build_note(&outs[0]), stderr(&outs[1]));
    outs
}
