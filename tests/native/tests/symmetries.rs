//! The symmetries of `examples/degenerate_dots.cgdl` as native code computes them: maps of
//! numbered lines that depend on the board's size (and the diagonal, which swaps it), so
//! their bit tables are built for every size. Checked on every position of small boards
//! against the board's dihedral group computed here from the lines' end points, and the
//! values they give against a search that uses no symmetry.

use cgdl_native_tests::degenerate_dots::{Dots, Universe};
use cgdl_runtime::{Mode, Rules, Solver, ValueKind};
use std::collections::BTreeSet;

/// A board of `rows` × `cols` dots and the numbers of its drawn lines.
type Board = (i64, i64, BTreeSet<i64>);

/// The end points of line `l` of a `rows` × `cols` board, as the example numbers lines:
/// the horizontal ones row by row, then the vertical ones.
fn ends(rows: i64, cols: i64, l: i64) -> ((i64, i64), (i64, i64)) {
    let horizontal = rows * (cols - 1);
    if l < horizontal {
        let (r, c) = (l / (cols - 1), l % (cols - 1));
        ((r, c), (r, c + 1))
    } else {
        let (r, c) = ((l - horizontal) / cols, (l - horizontal) % cols);
        ((r, c), (r + 1, c))
    }
}

/// The number of the line between dots `a` and `b` of a `rows` × `cols` board.
fn number(rows: i64, cols: i64, a: (i64, i64), b: (i64, i64)) -> i64 {
    let ((r, c), _) = if a <= b { (a, b) } else { (b, a) };
    if a.0 == b.0 {
        r * (cols - 1) + c
    } else {
        rows * (cols - 1) + r * cols + c
    }
}

/// The board's eight images: dot `(r, c)` goes to the mirror rows and columns chosen, then
/// over the diagonal if `turn` (the board then has `cols` rows).
fn images((rows, cols, drawn): &Board) -> Vec<Board> {
    let mut out = Vec::new();
    for flip_rows in [false, true] {
        for flip_cols in [false, true] {
            for turn in [false, true] {
                let dot = |(r, c): (i64, i64)| {
                    let r = if flip_rows { rows - 1 - r } else { r };
                    let c = if flip_cols { cols - 1 - c } else { c };
                    if turn {
                        (c, r)
                    } else {
                        (r, c)
                    }
                };
                let (rows2, cols2) = if turn { (*cols, *rows) } else { (*rows, *cols) };
                let lines = (drawn.iter())
                    .map(|&l| {
                        let (a, b) = ends(*rows, *cols, l);
                        number(rows2, cols2, dot(a), dot(b))
                    })
                    .collect();
                out.push((rows2, cols2, lines));
            }
        }
    }
    out
}

fn pos((rows, cols, drawn): &Board) -> <Universe as Rules>::Pos {
    Dots::new(*rows, *cols, drawn.iter().copied()).pos()
}

/// Every board of `rows` × `cols` dots.
fn boards(rows: i64, cols: i64) -> impl Iterator<Item = Board> {
    let lines = rows * (cols - 1) + (rows - 1) * cols;
    (0..1u64 << lines).map(move |bits| {
        (
            rows,
            cols,
            (0..lines).filter(|l| bits >> l & 1 == 1).collect(),
        )
    })
}

/// The declared maps are proven and the compiler's own group holds them (with more: the
/// twins among the lines, and a square board's diagonal), the diagonal across board sizes:
/// every image of a board under the dihedral group has one least image, no greater than
/// the least of those images.
#[test]
fn the_dihedral_images_of_a_board_share_its_least_image() {
    let sizes = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)];
    let mut merged = 0;
    for (rows, cols) in sizes {
        for board in boards(rows, cols) {
            let all = images(&board);
            let least = all.iter().map(pos).min().expect("eight images");
            let (image, _) = Universe.least_image_fixing(pos(&board));
            assert!(image <= least, "{board:?}");
            for other in &all {
                assert_eq!(
                    Universe.least_image(pos(other)),
                    image,
                    "{other:?} of {board:?}"
                );
            }
            merged += usize::from(image < least);
        }
    }
    // The twins merge boards no dihedral map does.
    assert!(merged > 0);
}

#[test]
fn symmetries_keep_outcomes_and_w_numbers() {
    let mut fast = Solver::new(&Universe);
    let mut exact = Solver::with_mode(&Universe, Mode::Exact);
    for (rows, cols) in [(2, 4), (4, 2), (3, 3)] {
        for board in boards(rows, cols) {
            for kind in [ValueKind::Outcome, ValueKind::WNumber] {
                let p = pos(&board);
                let want = exact.value_of(kind, p).expect("exact value");
                assert_eq!(fast.value_of(kind, p).expect("value"), want, "{board:?}");
            }
        }
    }
}

/// Numbers past a board's lines (which no move draws) are kept by every map: a board with
/// such numbers has the values of the board without them.
#[test]
fn numbers_past_the_lines_change_no_value() {
    let mut fast = Solver::new(&Universe);
    let mut exact = Solver::with_mode(&Universe, Mode::Exact);
    for (rows, cols) in [(2, 3), (3, 2), (2, 4), (3, 3)] {
        let count = rows * (cols - 1) + (rows - 1) * cols;
        for extra in count..40 {
            for drawn in [vec![extra], vec![0, extra], vec![1, extra, 39]] {
                let p = Dots::new(rows, cols, drawn.iter().copied()).pos();
                let without = (drawn.iter().copied()).filter(|&l| l < count);
                let q = Dots::new(rows, cols, without).pos();
                for kind in [ValueKind::Outcome, ValueKind::WNumber, ValueKind::Grundy] {
                    let want = exact.value_of(kind, q).expect("exact value");
                    assert_eq!(fast.value_of(kind, p).expect("value"), want, "{drawn:?}");
                    assert_eq!(exact.value_of(kind, p).expect("value"), want, "{drawn:?}");
                }
            }
        }
    }
}
