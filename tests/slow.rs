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
#[ignore = "seconds natively, about a minute with the interpreter (release mode)"]
fn degenerate_dots_4x4_empty_board() {
    assert_eq!(eval_dots("Dots(4, 4, {})", &[]), "outcome P\n");
    assert_eq!(eval_dots("Dots(4, 4, {})", &["--interp"]), "outcome P\n");
}

/// Lenhardt, Theorems 4.1 and 4.2: the second player wins an empty board iff rows + columns
/// is even, so the first player wins on 4×5 dots (issue 4's benchmark (d), natively).
#[test]
#[ignore = "about 20 seconds natively (release mode)"]
fn degenerate_dots_4x5_empty_board() {
    assert_eq!(eval_dots("Dots(4, 5, {})", &[]), "outcome N\n");
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
