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

/// A function over finite types is tabulated while building, unless its table would take
/// more steps than a constant may: then it keeps its body alone (deterministically, not by
/// the clock).
#[test]
fn functions_are_tabulated_within_the_constant_budget() {
    let source = "fn light(x: 0..4) -> nat = x * 2\n\
                  fn heavy(x: 0..4) -> nat = count y in 0..2000000: y % 2 == x % 2\n\
                  game G(n: 0..4) { move m(n > 0) => G(n - 1) }\n\
                  value grundy of G(light(1) + heavy(0) % 1)\n";
    let program = cgdl_compiler::compile_str(source).expect("checks");
    let code = generate_source(&program, source, &CodegenOptions::default()).expect("compiles");
    let body = |name: &str| {
        let start = code
            .find(&format!("fn {name}("))
            .expect("the function is generated");
        let end = code[start..]
            .find("\n}\n")
            .map_or(code.len(), |e| start + e);
        code[start..end].to_string()
    };
    // A complete table is a lookup of its own (`light_table`), called where the argument
    // lies in it.
    assert!(
        body("light").contains("light_table(x)"),
        "{}",
        body("light")
    );
    assert!(
        body("light_table").contains("static TABLE"),
        "{}",
        body("light_table")
    );
    assert!(!body("heavy").contains("static TABLE"), "{}", body("heavy"));
    assert!(!code.contains("fn heavy_table("), "{code}");
}
