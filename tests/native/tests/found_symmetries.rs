//! The symmetries the compiler finds in `natural.cgdl` (games written without symmetry
//! lines), natively: on every position of a 3 × 3 board (and of 3 × 3 dots), the values
//! with the symmetries are the values of an exact search, which uses none.

use cgdl_native_tests::natural::{
    Chomp, Cram, Domineering, DotPairs, Dots, FilledCram, Line, NodeKayles, NumberedCram, Pos,
    Universe,
};
use cgdl_runtime::{Mode, Rules, Solver, ValueKind};

/// The cells of the board in `mask`.
fn cells(mask: u32) -> impl Iterator<Item = (i64, i64)> {
    (0..9)
        .filter(move |i| mask >> i & 1 == 1)
        .map(|i| (i / 3, i % 3))
}

/// The cells of the board in `mask`, numbered row by row.
fn numbers(mask: u32) -> impl Iterator<Item = i64> {
    (0..9).filter(move |i| mask >> i & 1 == 1)
}

/// Checks every position `make` builds from a mask of `bits` bits.
fn check(bits: u32, partizan: bool, make: &dyn Fn(u32) -> Pos) {
    let mut fast = Solver::new(&Universe);
    let mut exact = Solver::with_mode(&Universe, Mode::Exact);
    let mut symmetric = 0;
    for mask in 0..1u32 << bits {
        let p = make(mask);
        symmetric += usize::from(Universe.least_image(p) != p);
        if partizan {
            let (a, b) = (fast.canonical(p), exact.canonical(p));
            assert_eq!(a.expect("form"), b.expect("form"), "{p:?}");
            continue;
        }
        for kind in [ValueKind::Grundy, ValueKind::Outcome, ValueKind::Remoteness] {
            let (a, b) = (fast.value_of(kind, p), exact.value_of(kind, p));
            assert_eq!(a.expect("value"), b.expect("value"), "{p:?} {kind:?}");
        }
    }
    // The symmetries are in use: many positions are kept as another.
    assert!(symmetric * 4 > 1 << bits, "{symmetric} positions moved");
}

#[test]
fn found_symmetries_keep_every_value() {
    assert!(Universe.has_symmetries());
    check(9, false, &|m| Cram::new(cells(m)).pos());
    check(9, false, &|m| NodeKayles::new(cells(m)).pos());
    check(9, false, &|m| NumberedCram::new(numbers(m)).pos());
    check(9, false, &|m| Chomp::new(cells(m)).pos());
    check(9, true, &|m| Domineering::new(cells(m)).pos());
    let lines: Vec<Line> = (0..3)
        .flat_map(|r| (0..2).map(move |c| Line::H(r, c)))
        .chain((0..2).flat_map(|r| (0..3).map(move |c| Line::V(r, c))))
        .collect();
    check(12, false, &|m| {
        Dots::new((0..12).filter(|i| m >> i & 1 == 1).map(|i| lines[i])).pos()
    });
    check(12, false, &|m| {
        DotPairs::new((0..12).filter(|i| m >> i & 1 == 1).map(|i| pair(lines[i]))).pos()
    });
}

/// Line `l` as the pair of dots it joins.
fn pair(l: Line) -> ((i64, i64), (i64, i64)) {
    match l {
        Line::H(r, c) => ((r, c), (r, c + 1)),
        Line::V(r, c) => ((r, c), (r + 1, c)),
    }
}

/// Dots with lines as pairs of dots (kept as bits of the 12 pairs that are lines) has the
/// values of dots with tagged lines at every position, and its accessor gives back the
/// lines it was given.
#[test]
fn lines_as_pairs_of_dots_are_the_same_game() {
    let lines: Vec<Line> = (0..3)
        .flat_map(|r| (0..2).map(move |c| Line::H(r, c)))
        .chain((0..2).flat_map(|r| (0..3).map(move |c| Line::V(r, c))))
        .collect();
    let mut solver = Solver::new(&Universe);
    for mask in 0..1u32 << 12 {
        let drawn = (0..12).filter(|i| mask >> i & 1 == 1).map(|i| lines[i]);
        let tagged = Dots::new(drawn.clone()).pos();
        let pairs = DotPairs::new(drawn.clone().map(pair));
        let mut want: Vec<_> = drawn.map(pair).collect();
        want.sort();
        assert_eq!(pairs.drawn().into_iter().collect::<Vec<_>>(), want);
        for kind in [ValueKind::Grundy, ValueKind::Outcome, ValueKind::Remoteness] {
            let (a, b) = (
                solver.value_of(kind, tagged),
                solver.value_of(kind, pairs.pos()),
            );
            assert_eq!(a.expect("value"), b.expect("value"), "{mask:b} {kind:?}");
        }
    }
    // A pair that is no line of the board is none of the values kept: an error.
    let error = DotPairs::try_new([((0, 0), (1, 1))]).expect_err("not a line");
    assert!(error.to_string().contains("none of the values"), "{error}");
}

/// Cram on the filled cells (solved as the game of the free cells) has at every position
/// the values of Cram on the free ones, and its options are its own positions, holding the
/// cells they fill.
#[test]
fn cram_on_the_filled_cells_is_cram_on_the_free_ones() {
    let mut solver = Solver::new(&Universe);
    let mut exact = Solver::with_mode(&Universe, Mode::Exact);
    for mask in 0..1u32 << 9 {
        let filled = FilledCram::new(cells(mask));
        let free = Cram::new(cells(!mask & 0x1ff)).pos();
        for kind in [ValueKind::Grundy, ValueKind::Outcome, ValueKind::Remoteness] {
            let (a, b) = (
                solver.value_of(kind, filled.pos()),
                exact.value_of(kind, free),
            );
            assert_eq!(a.expect("value"), b.expect("value"), "{mask:b} {kind:?}");
        }
        // Its options are its own positions, each with one domino more.
        let mut options = cgdl_runtime::Options::new();
        Universe
            .options(filled.pos(), &mut options)
            .expect("options");
        for option in options.to_exprs() {
            let cgdl_runtime::Expr::Pos(p) = option else {
                panic!("{mask:b}: an option of one position, not {option:?}");
            };
            let game = FilledCram::from_pos(p).expect("a position of the game written");
            let more: Vec<_> = game.filled().into_iter().collect();
            assert_eq!(more.len(), cells(mask).count() + 2, "{mask:b}");
            assert!(cells(mask).all(|x| more.contains(&x)), "{mask:b}");
            // Written as the game written, with the filled cells.
            assert_eq!(
                game.to_string(),
                FilledCram::new(more).to_string(),
                "{mask:b}"
            );
        }
    }
}

/// Cram on cells numbered row by row (divided into parts on the field's bits, the numbers
/// ranked from the least) has at every position the values of Cram on the cells.
#[test]
fn cram_on_numbered_cells_is_cram_on_the_cells() {
    let mut solver = Solver::new(&Universe);
    let mut exact = Solver::with_mode(&Universe, Mode::Exact);
    for mask in 0..1u32 << 9 {
        let numbered = NumberedCram::new(numbers(mask)).pos();
        let on_cells = Cram::new(cells(mask)).pos();
        for kind in [ValueKind::Grundy, ValueKind::Outcome, ValueKind::Remoteness] {
            let (a, b) = (
                solver.value_of(kind, numbered),
                exact.value_of(kind, on_cells),
            );
            assert_eq!(a.expect("value"), b.expect("value"), "{mask:b} {kind:?}");
        }
    }
}
