//! Checks too slow for the interpreter in the default suite. Run with
//! `cargo test --release -p cgdl --test slow -- --ignored` (CI does).

mod common;

use std::process::Command;

/// Lenhardt, Theorem 4.1: on the empty 4×4-dot board the second player wins.
#[test]
#[ignore = "about a minute with the interpreter in release mode"]
fn degenerate_dots_4x4_empty_board() {
    let out = Command::new(env!("CARGO_BIN_EXE_cgdl"))
        .args([
            "eval",
            "examples/degenerate_dots.cgdl",
            "Dots(4, 4, {})",
            "--value",
            "outcome",
        ])
        .current_dir(common::root())
        .output()
        .expect("cgdl runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "outcome P\n");
}
