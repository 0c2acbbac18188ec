//! Tests of `cgdl_compiler::ir::ranges`.

use cgdl_compiler::compile_str;
use cgdl_compiler::ir::*;

fn ranges_of(source: &str) -> Vec<(String, Vec<Option<Interval>>)> {
    let program = compile_str(source).expect("a valid program");
    let ranges = param_ranges(
        &program,
        &mut cgdl_compiler::codegen::range_oracle(&program, source),
    );
    (program.fns.iter().map(|f| f.name.clone()))
        .zip(ranges)
        .collect()
}

#[test]
fn degenerate_dots_functions_take_small_ranges() {
    let source = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/degenerate_dots.cgdl"
    ))
    .expect("the example");
    let ranges = ranges_of(&source);
    let get = |name: &str| {
        (ranges.iter().find(|(n, _)| n == name))
            .map(|(_, r)| r.clone())
            .expect("a function")
    };
    // The fields' types, for every function the move calls with them.
    let board = Some((2, 5));
    assert_eq!(get("line_count"), [board, board]);
    assert_eq!(get("box_count"), [board, board]);
    // `b in 0..box_count(rows, cols)`: every box of every board, 0..=15 on 5 × 5 dots
    // (the tabulated `box_count` is exact where the intervals alone would say
    // (5 - 1) * (5 - 1) - 1 all the same, and `sides` is tabulated: 4 * 4 * 16
    // arguments, at most 1,024).
    let [r, c, Some((lo, hi))] = get("sides")[..] else {
        panic!("sides' ranges: {:?}", get("sides"));
    };
    assert_eq!((r, c), (board, board));
    assert_eq!((lo, hi), (0, 15), "b in {lo}..={hi}");
}

#[test]
fn a_count_takes_up_to_its_domains_size() {
    let ranges = ranges_of(
        "fn bonus(n: nat) -> nat = n * 3 + 1
game G(s: set<0..=4>) {
move take(x in s) => G(s - {x} - { y for y in s where y < bonus(count z in s: z > x) })
}
value grundy of G({0, 1, 2, 3, 4})
",
    );
    // `count z in s` of a set of 0..=4 counts up to five elements (once said 0..=1,
    // which left `bonus` at 2..=5 to its body).
    assert_eq!(ranges[0], ("bonus".to_string(), vec![Some((0, 5))]));
}
