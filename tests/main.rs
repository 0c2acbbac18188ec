//! The `cgdl` crate's integration tests as one binary: each file is a module, so they link
//! once and run in parallel. `slow.rs` is a binary of its own, run in release mode by
//! `.ci/run`.

mod common;

mod cli;
mod comprehensions;
mod diagnostics;
mod examples;
mod partizan;
mod symmetry;

/// With `autotests = false`, a file in a crate's tests folder runs only where its binary's
/// `main.rs` names it as a module, or its crate's manifest as a `[[test]]`: each does.
#[test]
fn every_test_file_is_in_a_binary() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read = |path: &str| {
        std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let folders = [
        ("tests", "cgdl/Cargo.toml"),
        ("runtime/tests", "runtime/Cargo.toml"),
        ("compiler/tests", "compiler/Cargo.toml"),
        ("tests/native/tests", "tests/native/Cargo.toml"),
    ];
    let mut files = 0;
    for (folder, manifest) in folders {
        let main = read(&format!("{folder}/main.rs"));
        let manifest = read(manifest);
        for entry in std::fs::read_dir(root.join(folder)).expect("a tests folder") {
            let path = entry.expect("an entry").path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            // A folder of modules (`units/mod.rs`): its `mod.rs` names each of its files.
            if path.join("mod.rs").is_file() {
                let list = read(&format!("{folder}/{stem}/mod.rs"));
                for inner in std::fs::read_dir(&path).expect("a folder of modules") {
                    let inner = inner.expect("an entry").path();
                    let Some(name) = inner.file_stem().and_then(|s| s.to_str()) else {
                        continue;
                    };
                    if inner.extension().is_some_and(|x| x == "rs") && name != "mod" {
                        files += 1;
                        assert!(
                            list.contains(&format!("\nmod {name};\n")),
                            "{folder}/{stem}/{name}.rs is in no test binary: name it in \
                             {folder}/{stem}/mod.rs"
                        );
                    }
                }
                continue;
            }
            if path.extension().is_none_or(|x| x != "rs") || stem == "main" {
                continue;
            }
            files += 1;
            assert!(
                main.contains(&format!("\nmod {stem};\n"))
                    || manifest.contains(&format!("path = \"tests/{stem}.rs\""))
                    || manifest.contains(&format!("path = \"../tests/{stem}.rs\"")),
                "{folder}/{stem}.rs is in no test binary: name it in {folder}/main.rs"
            );
        }
    }
    assert!(files >= 30, "only {files} test files found");
}
