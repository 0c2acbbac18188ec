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
/// `main.rs` names it as a module, or its crate's manifest as a `[[test]]`: each does. A
/// folder of modules (`units/`) is named as a module itself (or by a `#[path]` to its
/// `mod.rs`), and its `mod.rs` names each of its files.
#[test]
fn every_test_file_is_in_a_binary() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read = |path: &std::path::Path| {
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let names = |list: &str, stem: &str| list.contains(&format!("\nmod {stem};\n"));
    // The `.rs` files of `dir` but `main.rs` and `mod.rs`, and its folders with a `mod.rs`.
    let entries = |dir: &std::path::Path| {
        let (mut files, mut folders) = (Vec::new(), Vec::new());
        for entry in std::fs::read_dir(dir).expect("a tests folder") {
            let path = entry.expect("an entry").path();
            let Some(stem) = path
                .file_stem()
                .and_then(|s| s.to_str())
                .map(str::to_string)
            else {
                continue;
            };
            if path.join("mod.rs").is_file() {
                folders.push((stem, path));
            } else if path.extension().is_some_and(|x| x == "rs") && stem != "main" && stem != "mod"
            {
                files.push((stem, path));
            }
        }
        (files, folders)
    };
    let folders = [
        ("tests", "cgdl/Cargo.toml"),
        ("runtime/tests", "runtime/Cargo.toml"),
        ("compiler/tests", "compiler/Cargo.toml"),
        ("tests/native/tests", "tests/native/Cargo.toml"),
    ];
    let mut count = 0;
    for (folder, manifest) in folders {
        let dir = root.join(folder);
        let main = read(&dir.join("main.rs"));
        let manifest = read(&root.join(manifest));
        let (files, modules) = entries(&dir);
        let sources: Vec<String> = files.iter().map(|(_, path)| read(path)).collect();
        for (stem, _) in &files {
            count += 1;
            assert!(
                names(&main, stem)
                    || manifest.contains(&format!("path = \"tests/{stem}.rs\""))
                    || manifest.contains(&format!("path = \"../tests/{stem}.rs\"")),
                "{folder}/{stem}.rs is in no test binary: name it in {folder}/main.rs"
            );
        }
        for (stem, path) in &modules {
            assert!(
                names(&main, stem)
                    || (sources.iter()).any(|s| s.contains(&format!("\"{stem}/mod.rs\""))),
                "{folder}/{stem}/ is in no test binary: name it in {folder}/main.rs"
            );
            let list = read(&path.join("mod.rs"));
            let (inner, _) = entries(path);
            for (name, _) in &inner {
                count += 1;
                assert!(
                    names(&list, name),
                    "{folder}/{stem}/{name}.rs is in no test binary: name it in \
                     {folder}/{stem}/mod.rs"
                );
            }
        }
    }
    assert!(count >= 30, "only {count} test files found");
}
