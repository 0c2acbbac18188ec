//! Golden files of generated code (as prost-build keeps them): `cgdl compile` of every
//! example, so that a change to the code generator shows in review as a change to the
//! code it writes. Update with `INSTA_UPDATE=always cargo test -p cgdl-compiler --test golden`.

use cgdl_compiler::codegen::{generate_source, CodegenOptions};

#[test]
fn generated_code_of_every_example() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .expect("read examples/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cgdl"))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "examples/ holds the literature's games");
    for path in names {
        let source = std::fs::read_to_string(&path).expect("read an example");
        let program = cgdl_compiler::compile_str(&source).expect("every example checks");
        let code = generate_source(&program, &source, &CodegenOptions::default())
            .expect("every example compiles to native code");
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("example");
        insta::assert_snapshot!(name, code);
    }
}
