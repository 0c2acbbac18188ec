//! Checks too slow for the default suite. Run with
//! `cargo test --release -p cgdl --test slow -- --ignored` (CI does).

mod common;

/// The outcome line of `cgdl eval` on a position of the degenerate dots example.
fn eval_dots(position: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "eval",
        "examples/degenerate_dots.cgdl",
        position,
        "--value",
        "outcome",
    ];
    args.extend(extra);
    let out = common::cgdl(&args);
    assert!(out.status.success(), "{}", common::stderr(&out));
    common::stdout(&out)
}

/// Lenhardt, Theorem 4.1: on the empty 4×4-dot board the second player wins.
#[test]
#[ignore = "a moment natively, about a minute with the interpreter (release mode)"]
fn degenerate_dots_4x4_empty_board() {
    assert_eq!(eval_dots("Dots(4, 4, {})", &[]), "outcome P\n");
    assert_eq!(eval_dots("Dots(4, 4, {})", &["--interp"]), "outcome P\n");
}

/// Lenhardt, Theorems 4.1 and 4.2: the second player wins an empty board iff rows + columns
/// is even, so the first player wins on 4×5 and 5×4 dots (issue 4's benchmark (d),
/// natively), and the second on 5×5 (40 lines: "about a year" by plain search, Lenhardt
/// §6; a second or two with the example's symmetries, issue 15).
#[test]
#[ignore = "a few seconds natively (release mode), with the build of the solver"]
fn degenerate_dots_larger_empty_boards() {
    assert_eq!(eval_dots("Dots(4, 5, {})", &[]), "outcome N\n");
    assert_eq!(eval_dots("Dots(5, 4, {})", &[]), "outcome N\n");
    assert_eq!(eval_dots("Dots(5, 5, {})", &[]), "outcome P\n");
}

/// Runs `cgdl run SOURCE ARGS` natively and interpreted: both fail alike with `expected`.
fn both_back_ends_fail_with(name: &str, source: &str, args: &[&str], expected: &str) {
    let path = common::temp_file(name, source);
    let mut run = vec!["run", path.to_str().expect("path")];
    run.extend(args);
    common::both_back_ends_fail_with(&run, expected);
}

/// Issue 19: a move domain of 4·10⁹ values stops at the option limit, not in an abort.
#[test]
#[ignore]
fn huge_move_domains_stop_at_the_option_limit() {
    both_back_ends_fail_with(
        "take_all.cgdl",
        "game H(n: nat) { move take(k in 1..=n) => H(n - k) }\nvalue grundy of H(4000000000)\n",
        &[],
        "move `take` from H(4000000000): a position has more than 4194304 options",
    );
}

/// Issue 19: moves that grow without end are reported with their line of play.
#[test]
#[ignore]
fn unending_games_are_reported_with_their_line() {
    both_back_ends_fail_with(
        "up.cgdl",
        "game H(n: nat) { move up() => H(n + 1) }\nvalue outcome of H(0)\n",
        &[],
        "a line of play went 2000000 moves without ending (H(0) -> H(1) -> H(2) -> ... -> H(1999998) -> H(1999999))",
    );
}

/// Issue 19: moves that grow without end, each position with more options than the last
/// (so reaching the depth limit would take hours), stop once the options enumerated along
/// one line of play pass four per position of --max-positions.
#[test]
#[ignore = "about 25 seconds interpreted"]
fn growing_move_domains_are_reported_with_their_line() {
    both_back_ends_fail_with(
        "grow.cgdl",
        "game G(n: int) { move take(k in -1..=n, k != 0) => G(n - k) }\nvalue grundy of G(5)\n",
        &["--max-positions", "20000"],
        "the game is not well-founded, or too deep to solve: a line of play went 10000 moves \
         without ending (G(5) -> G(6) -> G(7) -> ... -> G(10003) -> G(10004)); 50065006 options \
         were enumerated along it without a position finished",
    );
}

/// Cram's values on every board up to 5 × 6 from `examples/cram.cgdl` (its regions split
/// into sums by `components`, and its mirror symmetries), natively: the nimbers Beling's igsolve 0.1.2 computes (`igsolve cram -r R
/// -c C`); 3×5 = 1, 4×5 = 2, 5×5 = 0 and 5×6 = 2 as issue 15 lists them, the first row
/// Dawson's Kayles (0.07), and every even × even board 0 by the symmetric strategy.
#[test]
#[ignore = "about 10 seconds natively, with the build (release mode)"]
fn cram_boards_up_to_5x6() {
    const IGSOLVE: [[&str; 6]; 5] = [
        ["0", "1", "1", "2", "0", "3"],
        ["1", "0", "1", "0", "1", "0"],
        ["1", "1", "0", "1", "1", "4"],
        ["2", "0", "1", "0", "2", "0"],
        ["0", "1", "1", "2", "0", "2"],
    ];
    let source = common::resized(&common::example("cram.cgdl"), 5, 6)
        + "\ntable grundy of Cram({ (i, j) for i in 0..r, j in 0..c }) for r in 1..=5, c in 1..=6\n";
    let path = common::temp_file("cram_5x6.cgdl", &source);
    let out = common::cgdl(&["run", path.to_str().expect("path"), "--format", "json"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let json: serde_json::Value =
        serde_json::from_str(&common::stdout(&out)).expect("the run's JSON");
    let grid = &json["queries"]
        .as_array()
        .expect("queries")
        .last()
        .expect("the table")["grids"][0][1];
    for (r, row) in IGSOLVE.iter().enumerate() {
        for (c, expected) in row.iter().enumerate() {
            assert_eq!(grid[r][c].to_string(), *expected, "{}×{}", r + 1, c + 1);
        }
    }
}
