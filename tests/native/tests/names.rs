//! Native code renames what it cannot name as the user did (its own locals and items, Rust
//! keywords, upper-case names), and the answers stay the interpreter's and the rules'.

use cgdl_compiler::{compile_str, queries, Interpreter};
use cgdl_native_tests::{names, run};
use cgdl_runtime::report::{run_plan, Answer};
use cgdl_runtime::Solver;

/// The Grundy value and remoteness of `Known(n)` for `n` in `0..=last`, from its rules:
/// `step` moves to n - 1 and n - 2 (the list holds each twice), and `Self` to n - 3 and 1
/// once n >= 3 (each below n).
fn known_by_definition(last: usize) -> Vec<(u64, u64)> {
    let mut values: Vec<(u64, u64)> = Vec::new();
    for n in 0..=last {
        let mut options: Vec<usize> = (1..=2).filter(|&k| k <= n).map(|k| n - k).collect();
        if n >= 3 {
            options.extend([n - 3, 1]);
        }
        let grundy = (0..).find(|g| options.iter().all(|&o| values[o].0 != *g));
        let grundy = grundy.expect("a mex exists");
        // Remoteness: a loss (grundy 0) lasts as long as possible, a win ends soonest.
        let remoteness = if options.is_empty() {
            0
        } else if grundy == 0 {
            1 + options.iter().map(|&o| values[o].1).max().unwrap_or(0)
        } else {
            let winning = options.iter().filter(|&&o| values[o].0 == 0);
            1 + winning.map(|&o| values[o].1).min().unwrap_or(0)
        };
        values.push((grundy, remoteness));
    }
    values
}

#[test]
fn renamed_names_give_the_interpreters_answers() {
    let source = include_str!("../names.cgdl");
    let program = compile_str(source).expect("names.cgdl checks");
    let interp = Interpreter::new(&program, source);
    let mut solver = Solver::new(&interp);
    let interpreted: Vec<_> = (program.queries.iter())
        .map(|q| run_plan(&mut solver, queries::plan(&interp, q).expect("plan")).expect("solve"))
        .collect();
    let native = run(&names::Universe, names::plans(), 1).expect("runs natively");
    assert_eq!(native, interpreted);

    let Answer::Table { rows, .. } = &native[1] else {
        panic!("the second query is a one-name table: {:?}", native[1]);
    };
    let by_definition = known_by_definition(12);
    assert_eq!(rows.len(), by_definition.len());
    for (row, (grundy, remoteness)) in rows.iter().zip(by_definition) {
        assert_eq!(row[1], serde_json::json!(grundy), "{row:?}");
        assert_eq!(row[2], serde_json::json!(remoteness), "{row:?}");
    }
}
