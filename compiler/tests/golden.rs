//! Golden files of generated code (as prost-build keeps them): `cgdl compile` of every
//! example, so that a change to the code generator shows in review as a change to the
//! code it writes. Update with `INSTA_UPDATE=always cargo test -p cgdl-compiler --test integration
//! golden::`.

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

/// The probe for a move to `end` (and the options of a position without one) exists where
/// every call in the moves succeeds at the values its arguments can take (`reach(k)` for
/// `k` in `0..5`), and not where one may fail (`12 / (k - 1)`); in the first, the position
/// built is known to fit its field (`i` lies in `0..8`) and is packed without the maker.
#[test]
fn end_probes_need_calls_that_cannot_fail() {
    let game = |reach: &str| {
        format!(
            "fn reach(n: nat) -> nat = {reach}\n\
             game G(k: 0..5, s: set<0..8>) {{\n\
                 move m(i in 0..min(reach(k), 8), i not in s) =>\n\
                     if i in {{1, 4}} and len(s) >= 2 then end else G(k, s | {{i}})\n\
                 move skip(k > 0) => G(0, s)\n\
             }}\n\
             value outcome of G(3, {{}})\n"
        )
    };
    let code = |source: &str| {
        let program = cgdl_compiler::compile_str(source).expect("checks");
        generate_source(&program, source, &CodegenOptions::default()).expect("compiles")
    };
    // `min` is not among what the probe proves sure: without it, the first has a probe.
    let sure = code(&game("n + 3").replace("min(reach(k), 8)", "reach(k)"));
    assert!(sure.contains("fn g_ends_now("), "{sure}");
    assert!(sure.contains("fn g_options_open("), "{sure}");
    // A move that never ends the game is the same either way: its function serves both.
    assert!(sure.contains("fn g_m_open("), "{sure}");
    assert!(!sure.contains("fn g_skip_open("), "{sure}");
    let open = &sure[sure.find("fn g_options_open(").expect("open options")..];
    assert!(open.contains("g_skip(k, &s, out)"), "{open}");
    assert!(sure.contains("out.position({"), "{sure}");
    assert!(!sure.contains("out.position(make_g("), "{sure}");
    let unsure = code(&game("12 / (n - 1)"));
    assert!(!unsure.contains("fn g_ends_now("), "{unsure}");
    assert!(!unsure.contains("fn g_options_open("), "{unsure}");
    assert!(unsure.contains("out.position(make_g("), "{unsure}");
}

/// A least image that is a few bit maps of the position (Chomp's diagonal, found) is
/// inlined into the solver's loop over options; one that moves positions to the corner
/// or reads tables (Cram's regions) stays a call.
#[test]
fn small_least_images_are_inlined() {
    let attribute = |source: &str| {
        let program = cgdl_compiler::compile_str(source).expect("checks");
        let code = generate_source(&program, source, &CodegenOptions::default())
            .expect("compiles to native code");
        let at = code.find("fn least_image_fixing").expect("symmetries");
        let before = &code[..at];
        before[before.rfind("#[").expect("an attribute")..]
            .trim()
            .to_string()
    };
    let chomp = "const R = 4\nconst C = 4\ntype Cell = (0..R, 0..C)\n\
                 game Chomp(left: set<Cell>) {\n\
                 move bite(x in left, x != (0, 0)) => Chomp({ y for y in left where y.0 < x.0 or y.1 < x.1 })\n\
                 }\nvalue grundy of Chomp(Cell)\n";
    assert_eq!(attribute(chomp), "#[inline(always)]");
    let cram = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/cram.cgdl"
    ))
    .expect("the example");
    assert_eq!(attribute(&cram), "#[inline]");
}

/// A move that keeps part of its board field does its set algebra on the field's stored
/// bits: by a constant set, by a tabulated function's cell sets (one static table of bits
/// however many moves read it), by cells written out, and through a `let`; a binder over
/// the field walks its bits, and a field read only so is never unpacked. (The values are
/// held to the interpreter's by the differential test of generated programs; this holds
/// the rewrite to happening.)
#[test]
fn set_algebra_reads_the_stored_bits() {
    let source = "const R = 3\nconst C = 4\ntype Cell = (0..R, 0..C)\n\
                  fn after(x: Cell) -> set<Cell> = { y for y in Cell where y.0 >= x.0 and y.1 >= x.1 }\n\
                  game G(cells: set<Cell>) {\n\
                  move bite(x in cells, x != (0, 0)) => G(cells - after(x))\n\
                  move nibble(x in cells) => G(cells & after(x))\n\
                  move corner(x in cells - {(0, 0)}) => G(cells - {x})\n\
                  move pair(x in cells) => let rest = cells - {x, (x.0, x.1 + 1)} in G(rest)\n\
                  move both(x in cells) => let rest = cells - {x} in if len(rest) > 3 then G(rest) else G(cells)\n\
                  }\nvalue grundy of G(Cell)\n";
    let program = cgdl_compiler::compile_str(source).expect("checks");
    let code = generate_source(&program, source, &CodegenOptions::default()).expect("compiles");
    let body = |name: &str| {
        let at = code.find(&format!("fn {name}(")).expect("a move function");
        let len = code[at..].find("\n}\n").expect("its end");
        // (Without the formatter's line breaks.)
        code[at..at + len].split_whitespace().collect::<String>()
    };
    for name in ["g_bite", "g_nibble"] {
        let f = body(name);
        assert!(
            f.contains("cells_bits.0") && f.contains("CELL_BITS_0["),
            "{f}"
        );
    }
    assert_eq!(code.matches("static CELL_BITS_").count(), 1, "one table");
    let corner = body("g_corner");
    assert!(
        corner.contains("forxin::cgdl_runtime::native::Bits64(cells_bits.0"),
        "{corner}"
    );
    assert!(corner.contains("pack_cell(x"), "{corner}");
    // Every move reads `cells` through its bits alone (`x in cells` walks them): none takes
    // the set as a value, and the options never unpack it.
    assert!(
        !body("g_options").contains("unpack_cells"),
        "{}",
        body("g_options")
    );
    assert!(
        !code.contains("allow(unused_variables)"),
        "moves take what they read"
    );
    // A set read both ways is made from its bits, its cells evaluated once.
    let both = body("g_both");
    assert!(both.contains("letrest=rest_bits.unpack_cells("), "{both}");
    let pair = body("g_pair");
    assert!(
        pair.contains("letrest_bits") && pair.contains("letcells=rest_bits;"),
        "{pair}"
    );
}
