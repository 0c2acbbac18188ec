//! Compiles every example, and the generated programs of the
//! property test, through the public build API.

#[path = "loopy_digraphs.rs"]
mod loopy_digraphs;
#[path = "programs.rs"]
mod programs;
#[path = "wrong_symmetries.rs"]
mod wrong_symmetries;

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=programs.rs");
    println!("cargo:rerun-if-changed=wrong_symmetries.rs");
    println!("cargo:rerun-if-changed=loopy_digraphs.rs");
    println!("cargo:rerun-if-changed=natural.cgdl");
    println!("cargo:rerun-if-changed=permuted.cgdl");
    println!("cargo:rerun-if-changed=checked.cgdl");
    println!("cargo:rerun-if-changed=../../examples");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set for build scripts"));

    // Every example, compiled to native code; `examples.rs` lists them for `src/lib.rs`.
    let mut names: Vec<String> = std::fs::read_dir("../../examples")
        .expect("read the examples folder")
        .filter_map(|entry| {
            let path = entry.expect("an examples entry").path();
            let stem = path.file_stem()?.to_str()?.to_string();
            (path.extension()? == "cgdl").then_some(stem)
        })
        .collect();
    names.sort();
    let mut build = cgdl_compiler::Build::new();
    for name in &names {
        build.file(format!("../../examples/{name}.cgdl"));
    }
    // Games whose memo keys tests/memo_keys.rs checks.
    build.file("memo_keys.cgdl");
    // Names that native code renames (tests/names.rs).
    build.file("names.cgdl");
    // Games whose symmetries the compiler finds (tests/found_symmetries.rs).
    build.file("natural.cgdl");
    // Games whose declared maps permute their fields (tests/permuted_fields.rs).
    build.file("permuted.cgdl");
    // Declared maps checked until the checks' budget is spent (tests/checked_budget.rs).
    build.file("checked.cgdl");
    // Declared symmetries, most of them wrong (tests/checked_symmetries.rs).
    let wrong = out.join("wrong_symmetries.cgdl");
    std::fs::write(&wrong, wrong_symmetries::source()).expect("write wrong_symmetries.cgdl");
    build.file(&wrong);
    // Declared maps moved to the corner, wrong and right (tests/checked_symmetries.rs).
    let corner = out.join("wrong_corner.cgdl");
    std::fs::write(&corner, wrong_symmetries::corner_source()).expect("write wrong_corner.cgdl");
    build.file(&corner);
    // Random loopy digraphs (tests/loopy_digraphs.rs).
    let digraphs = out.join("loopy_digraphs.cgdl");
    std::fs::write(&digraphs, loopy_digraphs::source()).expect("write loopy_digraphs.cgdl");
    build.file(&digraphs);
    build.compile();
    std::fs::write(
        out.join("examples.rs"),
        format!("native_example!({});\n", names.join(", ")),
    )
    .expect("write examples.rs");

    // The generated programs: written to OUT_DIR, compiled there, listed in generated.rs.
    let dir = out.join("generated");
    std::fs::create_dir_all(&dir).expect("create OUT_DIR/generated");
    let mut generated = cgdl_compiler::Build::new();
    generated.out_dir(&dir);
    let mut list = String::new();
    for i in 0..programs::COUNT {
        let path = dir.join(format!("prog_{i}.cgdl"));
        std::fs::write(&path, programs::program(i)).expect("write a generated program");
        generated.file(&path);
        writeln!(
            list,
            "generated_program!(prog_{i}, {i}, concat!(env!(\"OUT_DIR\"), \"/generated/prog_{i}\"));"
        )
        .expect("write to a string");
    }
    generated.compile();
    list.push_str("\n/// How many programs there are.\npub const COUNT: usize = ");
    writeln!(list, "{};", programs::COUNT).expect("write to a string");
    program_fn(
        &mut list,
        "Program `i`'s source and each query's answer or error, natively on `threads` threads.",
        "run(i: usize, threads: usize) -> Option<(&'static str, Vec<Result<cgdl_runtime::report::Answer, String>>)>",
        |i| format!("(prog_{i}::SOURCE, each_query(&prog_{i}::Universe, prog_{i}::QUERIES.len(), prog_{i}::plan, threads))"),
    );
    program_fn(
        &mut list,
        "Program `i`'s source.",
        "source(i: usize) -> Option<&'static str>",
        |i| format!("prog_{i}::SOURCE"),
    );
    program_fn(
        &mut list,
        "Program `i`'s tiered solve of its queries' positions, against the ordinary solver.",
        "tiered(i: usize) -> Option<TieredCheck>",
        |i| format!("tiered_agrees(&prog_{i}::Universe, prog_{i}::QUERIES.len(), prog_{i}::plan)"),
    );
    std::fs::write(out.join("generated.rs"), list).expect("write generated.rs");
}

/// Writes `pub fn SIGNATURE`, documented by `doc`, that matches `i` against each generated
/// program's number and answers `Some(value(i))` (`None` past the last program).
fn program_fn(list: &mut String, doc: &str, signature: &str, value: impl Fn(u64) -> String) {
    writeln!(list, "\n/// {doc}\npub fn {signature} {{\nmatch i {{").expect("write to a string");
    for i in 0..programs::COUNT {
        writeln!(list, "{i} => Some({}),", value(i)).expect("write to a string");
    }
    list.push_str("_ => None,\n}\n}\n");
}
