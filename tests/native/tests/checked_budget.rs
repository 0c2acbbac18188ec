//! Declared maps checked as the solver runs are checked on a solve's first positions only
//! (the runtime's `ChecksAccount`): past the checks' budget they are dropped, and every
//! answer is still an exact search's (`checked.cgdl`), in both back ends. (A wrong map
//! met before is reported: tests/checked_symmetries.rs.)

use cgdl_compiler::interp::Interpreter;
use cgdl_native_tests::checked as native;
use cgdl_runtime::report::{run_plan, Plan};
use cgdl_runtime::{Mode, Rules, SolveError, Solver};

/// A query's answer as JSON, or the name of the map reported wrong.
type Answer = Result<String, String>;

/// Each query's answer, the exact search's, and the positions solved when the maps were
/// dropped (if they were).
fn answers<'a, R: Rules>(
    rules: &R,
    count: usize,
    plan: &dyn Fn(usize) -> Plan<'a, R::Pos>,
) -> Vec<(Answer, String, Option<u64>)> {
    let json = |a| serde_json::to_string(&a).expect("JSON");
    (0..count)
        .map(|i| {
            let mut fast = Solver::new(rules);
            let answer = match run_plan(&mut fast, plan(i)) {
                Ok(answer) => Ok(json(answer)),
                Err(SolveError::NotASymmetry { symmetry, .. }) => Err(symmetry),
                Err(other) => panic!("query {i}: {other}"),
            };
            let mut exact = Solver::with_mode(rules, Mode::Exact);
            let expected = run_plan(&mut exact, plan(i)).expect("an exact solve");
            (answer, json(expected), fast.checked_maps_dropped())
        })
        .collect()
}

/// The answers agree with an exact search; a small game is checked throughout; a large
/// one has its maps dropped; a map wrong only on positions met after they were dropped
/// (the table's last rows) is not reported, and changes no answer.
fn check(back_end: &str, answers: &[(Answer, String, Option<u64>)]) {
    for (i, (answer, expected, _)) in answers.iter().enumerate() {
        assert_eq!(answer, &Ok(expected.clone()), "{back_end}: query {i}");
    }
    let dropped: Vec<bool> = answers.iter().map(|a| a.2.is_some()).collect();
    assert_eq!(dropped, [false, true, true], "{back_end}: maps dropped");
}

#[test]
fn checked_maps_are_dropped_past_their_budget_in_both_back_ends() {
    let count = native::QUERIES.len();
    let native_plan = |i: usize| native::plan(i).expect("a plan");
    check("native", &answers(&native::Universe, count, &native_plan));

    let program = cgdl_compiler::compile_str(native::SOURCE).expect("the file checks");
    assert!(
        (program.games.iter()).all(|g| g.symmetries.iter().all(|s| !s.proven)),
        "every map is checked, none proven"
    );
    let interp = Interpreter::new(&program, native::SOURCE);
    let interp_plan =
        |i: usize| cgdl_compiler::queries::plan(&interp, &program.queries[i]).expect("a plan");
    check("interpreter", &answers(&interp, count, &interp_plan));
}
