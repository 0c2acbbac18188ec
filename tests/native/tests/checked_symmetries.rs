//! Declared symmetries that are not symmetries are errors, never different answers, in both
//! back ends and for partizan games too (the runtime's `Rules::checked_symmetries`).
//!
//! `wrong_symmetries.cgdl` declares, for each of 128 values of a position's field `k`, an
//! involution of a 3 × 3 board's cells as the symmetry `s` of Cram, of Cram split into
//! regions and of Domineering (the board's mirrors and diagonal, then random
//! transpositions). Each query is solved with the symmetry and by an exact search (which
//! uses none): the answers agree, or the solve stops with the error naming `s`. Where some
//! position the search values has a value its image does not, the error is required.

use cgdl_compiler::interp::Interpreter;
use cgdl_native_tests::wrong_symmetries as native;
use cgdl_runtime::report::{run_plan, Plan};
use cgdl_runtime::{Expr, Mode, Options, Rules, SolveError, Solver, ValueKind};
use std::collections::HashSet;

/// What a solve of one query gave: its answer's values as JSON, or the error.
type Solved = Result<String, SolveError>;

fn solve<R: Rules>(rules: &R, plan: Plan<'_, R::Pos>, mode: Mode) -> Solved {
    let mut solver = Solver::with_mode(rules, mode);
    run_plan(&mut solver, plan).map(|a| serde_json::to_string(&a).expect("JSON"))
}

/// Whether some position reachable from `root` has a value (Grundy value, or canonical
/// form for a partizan game) that its image under the game's symmetry does not have.
fn some_image_differs<R: Rules>(rules: &R, root: R::Pos) -> bool {
    let mut exact = Solver::with_mode(rules, Mode::Exact);
    let mut value = |p: R::Pos| -> String {
        if rules.is_partizan(p) {
            exact.canonical(Expr::Pos(p)).expect("exact form")
        } else {
            exact
                .value(ValueKind::Grundy, Expr::Pos(p))
                .expect("exact value")
                .to_string()
        }
    };
    let (mut seen, mut work) = (HashSet::new(), vec![root]);
    while let Some(p) = work.pop() {
        if !seen.insert(p) {
            continue;
        }
        if let Some(q) = rules.symmetry_image(p, 0) {
            if value(p) != value(q) {
                return true;
            }
        }
        let mut opts = Options::new();
        let sides = [
            cgdl_runtime::partizan::Side::Left,
            cgdl_runtime::partizan::Side::Right,
        ];
        for side in sides {
            opts.clear();
            rules.side_options(p, side, &mut opts).expect("options");
            for i in 0..opts.len() {
                work.extend(opts.get(i).leaves().into_iter().copied());
            }
        }
    }
    false
}

/// Checks each query of the file in one back end; returns how many stopped with the
/// error.
fn check<'a, R: Rules>(
    rules: &R,
    count: usize,
    plan: &dyn Fn(usize) -> Plan<'a, R::Pos>,
    back_end: &str,
) -> usize {
    let mut errors = 0;
    for i in 0..count {
        let fast = solve(rules, plan(i), Mode::Fast);
        let exact = solve(rules, plan(i), Mode::Exact).expect("an exact solve");
        let Plan::Value { query, target, .. } = plan(i) else {
            unreachable!("value queries")
        };
        let &Expr::Pos(root) = &target else {
            unreachable!("one position")
        };
        // The game of query `i`: Cram, Regions, Domineering in turn. Regions' nimber search
        // values only some positions, so an image that differs need not be met.
        let must_fail = i % 3 != 1 && some_image_differs(rules, root);
        match fast {
            Ok(answer) => {
                assert_eq!(answer, exact, "{back_end}: {query}: a changed answer");
                assert!(
                    !must_fail,
                    "{back_end}: {query}: a wrong symmetry was not reported"
                );
            }
            Err(SolveError::NotASymmetry { symmetry, .. }) => {
                assert_eq!(symmetry, "s", "{back_end}: {query}");
                errors += 1;
            }
            Err(other) => panic!("{back_end}: {query}: {other}"),
        }
    }
    errors
}

#[test]
fn wrong_symmetries_are_errors_in_both_back_ends() {
    let count = native::QUERIES.len();
    let native_plan = |i: usize| native::plan(i).expect("a plan");
    let native_errors = check(&native::Universe, count, &native_plan, "native");

    let program = cgdl_compiler::compile_str(native::SOURCE).expect("the file checks");
    let interp = Interpreter::new(&program, native::SOURCE);
    let interp_plan =
        |i: usize| cgdl_compiler::queries::plan(&interp, &program.queries[i]).expect("a plan");
    let interp_errors = check(&interp, count, &interp_plan, "interpreter");
    // Most random involutions are no symmetry of these games: most queries stop.
    assert_eq!(native_errors, interp_errors);
    assert!(
        native_errors * 2 > count,
        "{native_errors} errors in {count} queries"
    );
}

/// Declared maps moved to the corner (`wrong_corner.cgdl`: Cram as regions moved to the
/// corner, each game `W0`–`W7` with a wrong map, some beside a correct mirror, `Right`
/// with three correct ones, and `Checked` with three correct ones written so that they are
/// checked, not proven), in both back ends: the correct ones change no answer and are never
/// reported; a wrong one is never proven, and each query answers as an exact search does or
/// stops with the error; and the wrong maps are met: some queries stop, in each back end.
#[test]
fn maps_moved_to_the_corner_are_proven_or_checked_in_both_back_ends() {
    use cgdl_native_tests::wrong_corner as native;
    let program = cgdl_compiler::compile_str(native::SOURCE).expect("the file checks");
    for game in &program.games {
        let wrong_proven = (game.held_by_found.iter()).any(|(name, _)| name == "s")
            || game.symmetries.iter().any(|s| s.name == "s" && s.proven);
        assert!(!wrong_proven, "{}: a wrong map proven", game.name);
        if game.name == "Right" {
            assert_eq!(game.held_by_found.len(), 3, "Right's maps are proven");
            assert!(game.symmetries.is_empty());
        }
        if game.name == "Checked" {
            assert_eq!(game.symmetries.len(), 3, "Checked's maps are checked");
            assert!(game.symmetries.iter().all(|s| !s.proven));
        }
    }
    let interp = Interpreter::new(&program, native::SOURCE);
    let count = native::QUERIES.len();
    let mut errors = [0usize; 2];
    for i in 0..count {
        let native_plan = native::plan(i).expect("a plan");
        let query = program.queries[i].text.clone();
        let answers = [
            solve(&native::Universe, native_plan, Mode::Fast),
            solve(
                &interp,
                cgdl_compiler::queries::plan(&interp, &program.queries[i]).expect("a plan"),
                Mode::Fast,
            ),
        ];
        let exact = solve(
            &interp,
            cgdl_compiler::queries::plan(&interp, &program.queries[i]).expect("a plan"),
            Mode::Exact,
        )
        .expect("an exact solve");
        for (b, answer) in answers.into_iter().enumerate() {
            match answer {
                Ok(answer) => assert_eq!(answer, exact, "{query}: a changed answer"),
                Err(SolveError::NotASymmetry { .. }) => {
                    assert!(
                        !query.contains("Right(") && !query.contains("Checked("),
                        "{query}: a correct map reported"
                    );
                    errors[b] += 1;
                }
                Err(other) => panic!("{query}: {other}"),
            }
        }
    }
    assert!(
        errors.iter().all(|&e| e > 0),
        "errors (native, interpreter): {errors:?}"
    );
}
