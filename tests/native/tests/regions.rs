//! `examples/cram.cgdl` natively: a move's result is the sum of the regions of the rest of
//! the board (`components` by its `neighbours` table, found on the bits of the field), each
//! solved once under its mirror images. Checked on every position of the example's 3 × 4
//! board against Cram's Grundy values computed here from the rules alone.

use cgdl_native_tests::cram::{Cram, Universe};
use cgdl_runtime::Solver;

const ROWS: u32 = 3;
const COLS: u32 = 4;

/// The Grundy value of the board whose empty cells are the bits of `empty` (bit `r * COLS
/// + c`): the least value no domino placement leaves.
fn grundy(empty: u32, memo: &mut Vec<Option<u32>>) -> u32 {
    if let Some(g) = memo[empty as usize] {
        return g;
    }
    let mut seen = Vec::new();
    for r in 0..ROWS {
        for c in 0..COLS {
            let at = 1 << (r * COLS + c);
            let right = (c + 1 < COLS).then_some(at << 1);
            let below = (r + 1 < ROWS).then_some(at << COLS);
            for other in [right, below].into_iter().flatten() {
                let domino = at | other;
                if empty & domino == domino {
                    seen.push(grundy(empty & !domino, memo));
                }
            }
        }
    }
    let g = (0..).find(|v| !seen.contains(v)).expect("a value is free");
    memo[empty as usize] = Some(g);
    g
}

#[test]
fn every_board_has_crams_value() {
    let cells = ROWS * COLS;
    let mut memo = vec![None; 1 << cells];
    let mut solver = Solver::new(&Universe);
    let mut values = [0; 4];
    for empty in 0..1u32 << cells {
        let set = (0..cells)
            .filter(|i| empty >> i & 1 == 1)
            .map(|i| (i64::from(i / COLS), i64::from(i % COLS)));
        let want = grundy(empty, &mut memo);
        let got = solver.grundy(Cram::new(set).pos()).expect("Cram solves");
        assert_eq!(got, want, "empty cells {empty:012b}");
        values[want.min(3) as usize] += 1;
    }
    // Boards of every value 0, 1, 2 and more were met.
    assert!(values.iter().all(|&n| n > 0), "{values:?}");
}
