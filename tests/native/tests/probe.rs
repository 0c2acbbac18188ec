//! The end probe (`Rules::ends_now`) and the options of a position without a move to `end`
//! (`Rules::options_open`) against their definition, on every position of small boards:
//! a position has a move to `end` exactly when enumerating all its options meets one, and
//! where it has none, the open options are the options, in the same order.

use cgdl_native_tests::{degenerate_dots, dots_lines};
use cgdl_runtime::{Expr, Options, Rules};

/// Checks every position of `positions`; how many had a move to `end`, and how many not.
fn check<R: Rules>(rules: &R, positions: impl IntoIterator<Item = R::Pos>) -> (usize, usize) {
    let (mut ended, mut open) = (0, 0);
    for p in positions {
        let mut all = Options::new();
        rules
            .options(p, &mut all)
            .expect("the rules never fail here");
        let all = all.to_exprs();
        let has_end = all.iter().any(|o| matches!(o, Expr::End));
        let probe = (rules.ends_now(p))
            .expect("the game has a probe")
            .expect("the probe never fails here");
        assert_eq!(probe, has_end, "{p:?}");
        if probe {
            ended += 1;
        } else {
            let mut fewer = Options::new();
            rules.options_open(p, &mut fewer).expect("open options");
            assert_eq!(fewer.to_exprs(), all, "{p:?}");
            open += 1;
        }
    }
    (ended, open)
}

/// The subsets of `0..n`, each as the members of a bit pattern.
fn subsets(n: u32) -> impl Iterator<Item = Vec<u32>> {
    (0..1u32 << n).map(move |bits| (0..n).filter(|i| bits >> i & 1 == 1).collect())
}

#[test]
fn numbered_dots_probe_and_open_options_agree_with_the_options() {
    // Every set of lines of the 2×2, 2×3, 3×2 and 3×3 boards (4, 7, 7 and 12 lines).
    let mut positions = Vec::new();
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (3, 3)] {
        let lines = (rows * (cols - 1) + (rows - 1) * cols) as u32;
        for drawn in subsets(lines) {
            let drawn = drawn.into_iter().map(i64::from);
            positions.push(degenerate_dots::Dots::new(rows, cols, drawn).pos());
        }
    }
    let (ended, open) = check(&degenerate_dots::Universe, positions);
    assert!(ended > 0 && open > 0, "{ended} with an end, {open} without");
}

#[test]
fn tagged_dots_probe_and_open_options_agree_with_the_options() {
    // The example's 3×3 board: 12 lines, every set of them.
    let positions = subsets(12).map(|drawn| {
        dots_lines::Dots::new(drawn.into_iter().map(dots_lines::Line::from_ordinal)).pos()
    });
    let (ended, open) = check(&dots_lines::Universe, positions);
    assert!(ended > 0 && open > 0, "{ended} with an end, {open} without");
}
