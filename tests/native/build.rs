//! Compiles the examples that native code supports, through the public build API.

/// The examples compiled to native code (the others use list fields, not supported yet).
const NATIVE_EXAMPLES: &[&str] = &[
    "degenerate_dots",
    "dawsons_kayles",
    "grundys_game",
    "kayles",
    "kings_horses",
    "limited_nim",
    "nim",
    "northcott",
    "queens",
    "wythoff",
];

fn main() {
    let mut build = cgdl_compiler::Build::new();
    for name in NATIVE_EXAMPLES {
        build.file(format!("../../examples/{name}.cgdl"));
    }
    build.compile();
}
