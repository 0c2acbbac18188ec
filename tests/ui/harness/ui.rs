//! Compile-fail and pass tests of `cgdl::game!` and `cgdl::include_game!` (trybuild).
//!
//! The expected compiler output (`tests/ui/*.stderr`) depends on the toolchain, which
//! `rust-toolchain.toml` pins. Regenerate it with `TRYBUILD=overwrite cargo test -p
//! cgdl-ui-tests --features ui` after a deliberate change, and review the diff.

use std::path::{Path, PathBuf};

/// trybuild builds the cases in a crate of its own at
/// `<target>/tests/trybuild/cgdl-ui-tests`; the
/// `.cgdl` files that `include_game!` reads (relative to the crate root) go there.
fn copy_game_files() {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("target"));
    let games = target.join("tests/trybuild/cgdl-ui-tests/games");
    std::fs::create_dir_all(&games).expect("create the trybuild games directory");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    for entry in std::fs::read_dir(&source).expect("read tests/ui/games") {
        let path = entry.expect("list tests/ui/games").path();
        if let Some(name) = path.file_name() {
            std::fs::copy(&path, games.join(name)).expect("copy a game file");
        }
    }
}

/// Compiling the cases takes a build of `cgdl` of their own (about a minute from a fresh
/// clone), so this test needs the `ui` feature, which the default suite leaves off;
/// `.ci/run` runs it with `cargo test -p cgdl-ui-tests --features ui`.
#[test]
fn ui() {
    copy_game_files();
    let cases = trybuild::TestCases::new();
    cases.compile_fail("*.rs");
    cases.pass("pass/*.rs");
}
