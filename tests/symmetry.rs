//! Declared symmetries: a position is solved as its least image, which changes no value.
//! `Mode::Exact` uses no symmetry, so it is the definition the fast mode is held to.

use crate::common;

use cgdl::runtime::Mode;
use common::{both_back_ends, example, resized, run_source, stdout, temp_file};
use proptest::prelude::*;

/// Every value of every query, the same with and without the symmetries.
fn assert_symmetries_keep_values(source: &str) {
    let fast = run_source(source, Mode::Fast);
    let exact = run_source(source, Mode::Exact);
    assert_eq!(fast, exact, "{source}");
    let plain: String = (source.lines())
        .filter(|l| !l.trim_start().starts_with("symmetry"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(fast, run_source(&plain, Mode::Fast), "{source}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    /// Cram on boards up to 3 × 4, with the example's mirror symmetries and its regions
    /// split into sums: Grundy values, outcomes and remoteness of every one-row and two-row
    /// start, and of random boards, the same without the symmetries, by search (`Exact`),
    /// and from the plain description.
    #[test]
    fn cram_mirrors_keep_every_value(
        rows in 1u32..=3,
        cols in 1u32..=4,
        holes in prop::collection::vec((0i64..3, 0i64..4), 0..4),
    ) {
        let holes: Vec<String> = (holes.iter())
            .filter(|(r, c)| *r < rows as i64 && *c < cols as i64)
            .map(|(r, c)| format!("({r}, {c})"))
            .collect();
        let source = resized(&example("cram.cgdl"), rows, cols)
            + &format!(
                "\nvalue grundy, remoteness, suspense, wnumber of Cram(Cell - {{{}}})\n",
                holes.join(", ")
            );
        assert_symmetries_keep_values(&source);
        // Split into regions or not, each value is that of the plain description.
        assert_eq!(run_source(&source, Mode::Fast), run_source(&unsplit(&source), Mode::Fast));
    }
}

/// The example's Cram as first written: no symmetry, and a move's result the whole rest of
/// the board instead of the sum of its regions.
fn unsplit(source: &str) -> String {
    let (open, close) = (
        "sum(Cram(part) for part in components(",
        ", x => neighbours(x)))",
    );
    let plain: Vec<String> = (source.lines())
        .filter(|l| !l.trim_start().starts_with("symmetry"))
        .map(|l| match (l.find(open), l.find(close)) {
            (Some(a), Some(b)) => format!("{}Cram({})", &l[..a], &l[a + open.len()..b]),
            _ => l.to_string(),
        })
        .collect();
    let plain = plain.join("\n");
    assert!(!plain.contains("components"), "{plain}");
    plain
}

/// A symmetry that is not element-wise on a set (native code calls the image's rules), and
/// one on a field of several: negating a signed counter, mirroring a row.
const SIGNED: &str = "
game Walk(at: -4..=4, seen: set<-4..=4>) {
    move step(d in [-1, 1], at + d in -4..=4, at + d not in seen) => Walk(at + d, seen | {at + d})
    symmetry flip => Walk(-at, { -x for x in seen })
}
table grundy, remoteness of Walk(a, {a}) for a in -4..=4
table outcome of Walk(a, {a, -a}) for a in -4..=4
";

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn symmetries_of_several_fields_keep_values_in_both_back_ends() {
    assert_symmetries_keep_values(SIGNED);
    let path = temp_file("symmetry_walk.cgdl", SIGNED);
    let outs = both_back_ends(&["run", path.to_str().expect("a UTF-8 path")]);
    for out in &outs {
        assert!(out.status.success(), "{}", common::stderr(out));
    }
    assert_eq!(stdout(&outs[0]), stdout(&outs[1]));
    // The Grundy values against a search of the walk's rules written here.
    let answers = run_source(SIGNED, Mode::Exact);
    let grundy = common::column(&answers[0], 1);
    let expected: Vec<String> = (-4..=4)
        .map(|a| walk_grundy(a, 1 << (a + 4)).to_string())
        .collect();
    assert_eq!(grundy, expected);
}

/// The Grundy value of the walk at `at` having seen the squares of `seen` (bit `x + 4`).
fn walk_grundy(at: i64, seen: u32) -> u32 {
    let options: Vec<u32> = [-1, 1]
        .iter()
        .map(|d| at + d)
        .filter(|&x| (-4..=4).contains(&x) && seen & 1 << (x + 4) == 0)
        .map(|x| walk_grundy(x, seen | 1 << (x + 4)))
        .collect();
    (0..).find(|g| !options.contains(g)).unwrap_or(0)
}

#[test]
fn a_symmetry_to_another_game_is_an_error() {
    let path = temp_file(
        "symmetry_other_game.cgdl",
        "game A(n: 0..=3) { move m(n > 0) => A(n - 1)\n symmetry s => B(n) }\n\
         game B(n: 0..=3) { move m(n > 0) => B(n - 1) }\nvalue grundy of A(3)\n",
    );
    let out = common::cgdl(&["check", path.to_str().expect("a UTF-8 path")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        common::stderr(&out)
            .contains("symmetry `s` must map a position of `A` to a position of `A`"),
        "{}",
        common::stderr(&out)
    );
}

/// `examples/degenerate_dots.cgdl` without its queries: boards of every size up to 5 × 5,
/// its symmetries maps of numbered lines that read the board's size (the diagonal swaps
/// it), which native code tabulates for every size.
fn numbered_dots() -> String {
    (example("degenerate_dots.cgdl").lines())
        .filter(|l| !l.starts_with("value") && !l.starts_with("table"))
        .collect::<Vec<_>>()
        .join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    /// Degenerate dots on boards up to 3 × 3: outcomes, w-numbers and Grundy values of
    /// random positions, the same with the symmetries, without them, and by search.
    #[test]
    fn numbered_dots_symmetries_keep_every_value(
        rows in 2i64..=3,
        cols in 2i64..=3,
        lines in prop::collection::vec(0i64..14, 0..6),
    ) {
        let count = rows * (cols - 1) + (rows - 1) * cols;
        let drawn: Vec<String> = (lines.iter())
            .filter(|&&l| l < count)
            .map(|l| l.to_string())
            .collect();
        let source = numbered_dots()
            + &format!(
                "\nvalue outcome, wnumber, grundy of Dots({rows}, {cols}, {{{}}})\n",
                drawn.join(", ")
            );
        assert_symmetries_keep_values(&source);
    }
}

/// The Grundy value of the whole 3 × 4 board by `examples/cram.cgdl` (patterns,
/// `components`, declared mirrors), solved by exact search.
fn example_cram_3_by_4() -> Vec<cgdl::runtime::report::Answer> {
    let example = resized(&example("cram.cgdl"), 3, 4);
    let rules: String = (example.lines())
        .filter(|l| !l.starts_with("value "))
        .map(|l| format!("{l}\n"))
        .collect();
    run_source(&(rules + "value grundy of Cram(Cell)\n"), Mode::Exact)
}

/// The rules of `scripts/variants/NAME` on a 3 × 4 board, without its queries.
fn variant_rules(name: &str) -> String {
    let variant = std::fs::read_to_string(common::root().join("scripts/variants").join(name))
        .expect("the variant");
    (resized(&variant, 3, 4).lines())
        .filter(|l| !l.starts_with("value "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Cram with its regions moved to the corner by a helper (`scripts/variants/cram_corner.cgdl`
/// on 3 × 4): the compiler proves that values do not change when a position moves, finds
/// the mirrors on the rules without the move to the corner, and keeps each position as
/// the least of its images moved to the corner. Positions on the board's edge and away
/// from it, in both back ends, against exact search.
fn cram_corner() -> String {
    variant_rules("cram_corner.cgdl")
        + "table grundy, outcome, remoteness of Cram({ x for x in Cell where x.1 >= k }) for k in 0..C
table grundy, outcome of Cram({ x for x in Cell where x.0 >= k and x != (2, 3) }) for k in 0..R
value grundy of Cram(Cell)
"
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn moves_to_the_corner_keep_values_in_both_back_ends() {
    let source = cram_corner();
    let fast = run_source(&source, Mode::Fast);
    assert_eq!(fast, run_source(&source, Mode::Exact));
    let path = temp_file("symmetry_cram_corner.cgdl", &source);
    let check = cgdl::compiler::compile_str(&source).expect("checks");
    assert!(check.games[0].found.as_ref().is_some_and(|f| f.to_corner));
    let outs = both_back_ends(&["run", path.to_str().expect("a UTF-8 path")]);
    for out in &outs {
        assert!(out.status.success(), "{}", common::stderr(out));
    }
    assert_eq!(stdout(&outs[0]), stdout(&outs[1]));
    // The whole 3 × 4 board against another description of Cram (the example: patterns,
    // `components`, declared mirrors), solved by exact search.
    let whole = example_cram_3_by_4();
    assert_eq!(common::values(&fast[2]), common::values(&whole[0]));
}

/// Cram on the filled cells (`scripts/variants/cram_filled.cgdl` on 3 × 4): solved as the
/// game of the free cells, with the options written as the filled cells, the same in both
/// back ends, and the values of the example's Cram on the free cells.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn games_on_the_filled_cells_answer_alike_in_both_back_ends() {
    let source = variant_rules("cram_filled.cgdl")
        + "value grundy, outcome, options of Cram({})
table grundy, outcome, remoteness of Cram({ x for x in Cell where x.1 < k }) for k in 0..C
value options, moves of Cram({(0, 0), (2, 3)})
";
    let check = cgdl::compiler::compile_str(&source).expect("checks");
    assert!(check.games.iter().any(|g| g.complement_of.is_some()));
    let fast = run_source(&source, Mode::Fast);
    assert_eq!(fast, run_source(&source, Mode::Exact));
    let path = temp_file("symmetry_cram_filled.cgdl", &source);
    let outs = both_back_ends(&["run", path.to_str().expect("a UTF-8 path")]);
    for out in &outs {
        assert!(out.status.success(), "{}", common::stderr(out));
    }
    assert_eq!(stdout(&outs[0]), stdout(&outs[1]));
    assert!(stdout(&outs[0]).contains("Cram({(0, 0), (0, 1)}) = "));
    let whole = example_cram_3_by_4();
    assert_eq!(common::values(&fast[0])[0], common::values(&whole[0])[0]);
}
