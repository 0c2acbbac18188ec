//! Checks too slow for the default suite. Run with
//! `cargo test --release -p cgdl --test slow -- --ignored` (CI does).

mod common;

use std::process::Command;

/// The outcome line of `cgdl eval` on a position of the degenerate dots example.
fn eval_dots(position: &str, extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_cgdl"))
        .args([
            "eval",
            "examples/degenerate_dots.cgdl",
            position,
            "--value",
            "outcome",
        ])
        .args(extra)
        .env(
            "CGDL_CACHE_DIR",
            common::root().join("target/cgdl-test-cache"),
        )
        .current_dir(common::root())
        .output()
        .expect("cgdl runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
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
