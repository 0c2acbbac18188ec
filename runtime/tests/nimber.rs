//! Nimber search, which the solver uses for the Grundy values of games that split into sums
//! (`Rules::splits`), against the mex of every option's value, computed here from the
//! games' definitions.

use cgdl_runtime::solver::shared::{search_with_helpers, Helpers};
use cgdl_runtime::{Options, Outcome, RuleError, Rules, SolveError, Solver};
use proptest::prelude::*;
use std::collections::HashMap;

/// The least value not in `values`.
fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let seen: Vec<u32> = values.into_iter().collect();
    (0..).find(|v| !seen.contains(v)).expect("a value is free")
}

/// A take-and-break game: take `k` tokens for each `k` in `take`; with `split`, what is
/// left may also be left as two nonempty heaps.
struct Breaks {
    take: Vec<u32>,
    split: bool,
}

impl Rules for Breaks {
    type Pos = u32;
    fn options(&self, n: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        for &k in self.take.iter().filter(|&&k| k <= n) {
            let rest = n - k;
            if rest == 0 {
                out.end();
            } else {
                out.position(rest);
            }
            if self.split {
                for a in 1..=rest / 2 {
                    out.sum([a, rest - a]);
                }
            }
        }
        Ok(())
    }
    fn splits(&self, _: u32) -> bool {
        true
    }
}

/// The Grundy value of heap `n` of `game`, by its definition.
fn breaks_grundy(game: &Breaks, n: u32, memo: &mut HashMap<u32, u32>) -> u32 {
    if let Some(&g) = memo.get(&n) {
        return g;
    }
    let mut values = Vec::new();
    for &k in game.take.iter().filter(|&&k| k <= n) {
        let rest = n - k;
        values.push(breaks_grundy(game, rest, memo));
        if game.split {
            for a in 1..=rest / 2 {
                values.push(breaks_grundy(game, a, memo) ^ breaks_grundy(game, rest - a, memo));
            }
        }
    }
    let g = mex(values);
    memo.insert(n, g);
    g
}

/// Cram on a board of `rows` × `cols` cells (at most 25), a position the bits of its empty
/// cells (bit `r * cols + c`): a domino leaves the sum of the regions of what is left.
struct Cram {
    rows: u32,
    cols: u32,
}

impl Cram {
    /// The dominoes that fit in `empty`, as the bits of their two cells.
    fn dominoes(&self, empty: u32) -> Vec<u32> {
        let mut out = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                let at = 1 << (r * self.cols + c);
                if c + 1 < self.cols && empty & at != 0 && empty & (at << 1) != 0 {
                    out.push(at | at << 1);
                }
                if r + 1 < self.rows && empty & at != 0 && empty & (at << self.cols) != 0 {
                    out.push(at | at << self.cols);
                }
            }
        }
        out
    }

    /// The regions of `cells`: the parts that side-by-side neighbours join.
    fn regions(&self, mut cells: u32) -> Vec<u32> {
        let mut parts = Vec::new();
        while cells != 0 {
            let mut part = cells & cells.wrapping_neg();
            loop {
                let mut grown = part;
                for i in 0..self.rows * self.cols {
                    if part >> i & 1 == 1 {
                        let (r, c) = (i / self.cols, i % self.cols);
                        if c > 0 {
                            grown |= 1 << (i - 1);
                        }
                        if c + 1 < self.cols {
                            grown |= 1 << (i + 1);
                        }
                        if r > 0 {
                            grown |= 1 << (i - self.cols);
                        }
                        if r + 1 < self.rows {
                            grown |= 1 << (i + self.cols);
                        }
                    }
                }
                grown &= cells;
                if grown == part {
                    break;
                }
                part = grown;
            }
            parts.push(part);
            cells &= !part;
        }
        parts
    }
}

impl Rules for Cram {
    type Pos = u32;
    fn options(&self, empty: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        for d in self.dominoes(empty) {
            out.sum(self.regions(empty & !d));
        }
        Ok(())
    }
    fn splits(&self, _: u32) -> bool {
        true
    }
}

/// The Grundy value of Cram on `empty`, by its definition (the whole rest of the board
/// after each domino, never split).
fn cram_grundy(game: &Cram, empty: u32, memo: &mut HashMap<u32, u32>) -> u32 {
    if let Some(&g) = memo.get(&empty) {
        return g;
    }
    let values: Vec<u32> = (game.dominoes(empty).into_iter())
        .map(|d| cram_grundy(game, empty & !d, memo))
        .collect();
    let g = mex(values);
    memo.insert(empty, g);
    g
}

/// A game on positions `0..n`: position `i` moves to the positions of `singles[i]` and to
/// the sums of the pairs of `pairs[i]` (all below `i`), and, with `wide`, to every position
/// below it as well (nim: values up to `n - 1`, past the 128 values a search's sets hold).
#[derive(Debug)]
struct Dag {
    singles: Vec<Vec<u32>>,
    pairs: Vec<Vec<(u32, u32)>>,
    wide: bool,
}

impl Rules for Dag {
    type Pos = u32;
    fn options(&self, i: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        for &j in &self.singles[i as usize] {
            out.position(j);
        }
        for &(j, k) in &self.pairs[i as usize] {
            out.sum([j, k]);
        }
        if self.wide {
            (0..i).for_each(|j| out.position(j));
        }
        Ok(())
    }
    fn splits(&self, _: u32) -> bool {
        true
    }
}

/// Every position's Grundy value in `game`, by its definition.
fn dag_values(game: &Dag) -> Vec<u32> {
    let mut values: Vec<u32> = Vec::new();
    for i in 0..game.singles.len() {
        let mut options: Vec<u32> = game.singles[i]
            .iter()
            .map(|&j| values[j as usize])
            .collect();
        options
            .extend((game.pairs[i].iter()).map(|&(j, k)| values[j as usize] ^ values[k as usize]));
        if game.wide {
            options.extend(values.iter().copied());
        }
        values.push(mex(options));
    }
    values
}

/// A random [`Dag`] of `n` positions (`wide` as given).
fn dag(n: usize, wide: bool) -> impl Strategy<Value = Dag> {
    let moves = (1..n).map(|i| {
        let below = 0..i as u32;
        (
            prop::collection::vec(below.clone(), 0..8),
            prop::collection::vec((below.clone(), below), 0..8),
        )
    });
    moves.collect::<Vec<_>>().prop_map(move |moves| {
        let (mut singles, mut pairs) = (vec![Vec::new()], vec![Vec::new()]);
        for (s, p) in moves {
            singles.push(s);
            pairs.push(p);
        }
        Dag {
            singles,
            pairs,
            wide,
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random games whose options are positions and sums of two, each position asked of
    /// one solver in a random order (each search starting from what earlier ones found),
    /// its Grundy value or its outcome: those of the definition. With `wide`, values reach
    /// 200: the search's sets of 128 values do not hold them, nor some nim-sums of a sum's
    /// parts.
    #[test]
    fn random_game_values_are_the_mex(
        game in (any::<bool>()).prop_flat_map(|wide| dag(if wide { 200 } else { 60 }, wide)),
        asked in prop::collection::vec((any::<prop::sample::Index>(), any::<bool>()), 1..12),
    ) {
        let values = dag_values(&game);
        let mut solver = Solver::new(&game);
        for (index, outcome) in asked {
            let i = index.index(values.len()) as u32;
            let value = values[i as usize];
            match outcome {
                true => {
                    let o = solver.outcome(i).expect("an acyclic game");
                    let expected = if value == 0 { Outcome::P } else { Outcome::N };
                    prop_assert_eq!(o, expected, "position {}", i);
                }
                false => {
                    let g = solver.grundy(i).expect("an acyclic game");
                    prop_assert_eq!(g, value, "position {}", i);
                }
            }
        }
    }

    /// Heaps of random take-and-break games, asked in a random order of one solver (which
    /// keeps what earlier searches found), have the values of the definition.
    #[test]
    fn take_and_break_values_are_the_mex(
        take in prop::collection::btree_set(1u32..6, 1..4),
        split in any::<bool>(),
        heaps in prop::collection::vec(0u32..40, 1..8),
    ) {
        let game = Breaks { take: take.into_iter().collect(), split };
        let mut solver = Solver::new(&game);
        let mut memo = HashMap::new();
        for n in heaps {
            let g = solver.grundy(n).expect("an acyclic game");
            prop_assert_eq!(g, breaks_grundy(&game, n, &mut memo), "heap {}", n);
        }
    }

    /// Cram on boards up to 4 × 5 with random holes, split into regions: the values of
    /// the whole boards by their definition.
    #[test]
    fn cram_values_are_the_mex(rows in 1u32..=4, cols in 1u32..=5, holes in any::<u32>()) {
        let game = Cram { rows, cols };
        let board = (1u32 << (rows * cols)) - 1;
        let mut solver = Solver::new(&game);
        let mut memo = HashMap::new();
        for empty in [board, board & !(holes & holes >> 7)] {
            let g = solver.grundy(empty).expect("an acyclic game");
            prop_assert_eq!(g, cram_grundy(&game, empty, &mut memo), "{:b}", empty);
        }
    }
}

/// Helper threads (`threads` in all) woken at once: the smallest searches here are shared.
fn eager(threads: usize) -> Helpers {
    Helpers {
        threads,
        wake_after: 0,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// With helper threads sharing each search (2 or 3 threads in all, woken at once),
    /// random games of 1,500 positions (searches long enough for helpers to join),
    /// their Grundy values and outcomes, asked in a random order, are those of the
    /// definition: what one thread finds, whatever the threads' timing.
    #[test]
    fn helpers_leave_random_game_values_the_mex(
        game in dag(1500, false),
        threads in 2usize..=3,
        asked in prop::collection::vec((any::<prop::sample::Index>(), any::<bool>()), 1..12),
    ) {
        let values = dag_values(&game);
        let mut solver = Solver::new(&game);
        let answers = search_with_helpers(&mut solver, eager(threads), |solver| {
            asked.iter().map(|&(index, outcome)| {
                let i = index.index(values.len()) as u32;
                let answer = match outcome {
                    true => solver.outcome(i).map(|o| u32::from(o != Outcome::P)),
                    false => solver.grundy(i),
                };
                (i, outcome, answer.expect("an acyclic game"))
            }).collect::<Vec<_>>()
        });
        for (i, outcome, answer) in answers {
            let value = values[i as usize];
            let expected = if outcome { u32::from(value != 0) } else { value };
            prop_assert_eq!(answer, expected, "position {} (outcome: {})", i, outcome);
        }
    }

    /// Cram on boards up to 4 × 5 with random holes, searched by 2 or 3 threads: the values
    /// of the definition.
    #[test]
    fn helpers_leave_cram_values_the_mex(
        rows in 2u32..=4,
        cols in 2u32..=5,
        holes in any::<u32>(),
        threads in 2usize..=3,
    ) {
        let game = Cram { rows, cols };
        let board = (1u32 << (rows * cols)) - 1;
        let mut solver = Solver::new(&game);
        let boards = [board & !(holes & holes >> 7), board];
        let found = search_with_helpers(&mut solver, eager(threads), |solver| {
            boards.map(|empty| solver.grundy(empty).expect("an acyclic game"))
        });
        let mut memo = HashMap::new();
        for (empty, g) in boards.into_iter().zip(found) {
            prop_assert_eq!(g, cram_grundy(&game, empty, &mut memo), "{:b}", empty);
        }
    }
}

/// Cram 4 × 5 and 3 × 7, whole boards, with two threads woken at once and with one
/// thread: both the value by the definition.
#[test]
fn helpers_and_one_thread_agree_on_cram() {
    for (rows, cols) in [(4, 5), (3, 7)] {
        let game = Cram { rows, cols };
        let board = (1u32 << (rows * cols)) - 1;
        let expected = cram_grundy(&game, board, &mut HashMap::new());
        let mut alone = Solver::new(&game);
        assert_eq!(alone.grundy(board).ok(), Some(expected), "{rows} × {cols}");
        let mut shared = Solver::new(&game);
        let found = search_with_helpers(&mut shared, eager(2), |s| s.grundy(board).ok());
        assert_eq!(found, Some(expected), "{rows} × {cols}, two threads");
    }
}

/// More threads than a process can start are not attempted: asked for 100,000 (whose stacks
/// the system cannot map: it aborts the process), the helpers are the most a solver takes,
/// and the value is the definition's.
#[test]
fn more_threads_than_the_limit_are_not_started() {
    let game = Cram { rows: 3, cols: 4 };
    let board = (1u32 << 12) - 1;
    let expected = cram_grundy(&game, board, &mut HashMap::new());
    let mut solver = Solver::new(&game);
    solver.set_threads(100_000);
    assert_eq!(solver.threads(), cgdl_runtime::kernel::MAX_THREADS);
    let found = search_with_helpers(&mut solver, eager(100_000), |s| s.grundy(board).ok());
    assert_eq!(found, Some(expected));
}

/// A game that splits and loops: the search gives up, the ordinary search meets the
/// cycle, and the loopy game's graph grows without end (0 -> 1 + 2 -> 0 + 2 -> 1 + 2 + 2
/// ...): an error, not a value.
struct Loop;

impl Rules for Loop {
    type Pos = u32;
    fn options(&self, n: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        match n {
            0 => out.sum([1, 2]),
            1 => out.position(0),
            _ => {}
        }
        Ok(())
    }
    fn splits(&self, _: u32) -> bool {
        true
    }
}

#[test]
fn a_loop_in_a_game_that_splits_is_reported() {
    let mut solver = Solver::new(&Loop);
    match solver.grundy(0u32) {
        Err(SolveError::LargeCompound { components, limit }) => assert!(components > limit),
        other => panic!("{other:?}"),
    }
    // The solver stays usable: position 2 is terminal.
    assert_eq!(solver.grundy(2u32).ok(), Some(0));
}

/// Cram that counts every position any thread opens (each open lists the options once),
/// and whose asking thread (not a helper) is slowed by `asker_delay` a position: its
/// helpers race ahead of it.
struct Counted {
    game: Cram,
    opened: std::sync::atomic::AtomicU64,
    asker_delay: std::time::Duration,
}

impl Rules for Counted {
    type Pos = u32;
    fn options(&self, empty: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        self.opened
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let helper = std::thread::current()
            .name()
            .is_some_and(|n| n.starts_with("cgdl-helper"));
        if !helper && !self.asker_delay.is_zero() {
            std::thread::sleep(self.asker_delay);
        }
        self.game.options(empty, out)
    }
    fn splits(&self, _: u32) -> bool {
        true
    }
}

/// `--max-positions` holds for the whole process: with 2 and 3 threads, and with the asking
/// thread slowed so that its helpers run far ahead of it, Cram 4 × 6 (21,362 positions on
/// one thread) under a limit of a quarter to three quarters of that (a quarter, slowed) stops with the limit's
/// error, every thread's positions together past the limit by no more than the positions
/// each thread opens between two counts (1,024 for the asking thread, 256 a helper, twice
/// for the helpers' counts that race the asking thread's).
#[test]
fn the_position_limit_holds_for_every_thread_together() {
    use std::sync::atomic::Ordering;
    let board = (1u32 << 24) - 1;
    let counted = |asker_delay: u64| Counted {
        game: Cram { rows: 4, cols: 6 },
        opened: Default::default(),
        asker_delay: std::time::Duration::from_micros(asker_delay),
    };
    let game = counted(0);
    let mut alone = Solver::new(&game);
    alone.set_threads(1);
    // An even × even board is a second-player win: the half turn answers every move.
    assert_eq!(alone.grundy(board).ok(), Some(0));
    let one = game.opened.load(Ordering::Relaxed);
    // Slowed by 100 µs a position, the asking thread lets its helpers run far ahead.
    for (asker_delay, slowed) in [(0, false), (100, true)] {
        let game = counted(asker_delay);
        for threads in [2u64, 3] {
            let limits = match slowed {
                false => vec![one / 4, one / 2, one * 3 / 4],
                true => vec![one / 4],
            };
            for limit in limits {
                let mut shared = Solver::new(&game);
                shared.set_max_positions(limit);
                let found =
                    search_with_helpers(&mut shared, eager(threads as usize), |s| s.grundy(board));
                let opened = game.opened.swap(0, Ordering::Relaxed);
                assert!(
                    matches!(found, Err(SolveError::TooManyPositions { limit: l }) if l == limit),
                    "{found:?}"
                );
                let slack = 1024 + 2 * 256 * threads;
                assert!(
                    opened <= limit + slack,
                    "{threads} threads opened {opened} positions under a limit of {limit} \
                     (asking thread slowed by {asker_delay:?})"
                );
            }
        }
    }
}

/// Positions with no moves whose least image halves them: the image of an image is less
/// again, as over maps that do not make a group.
struct Halving;

impl Rules for Halving {
    type Pos = u32;
    fn options(&self, _: u32, _: &mut Options<u32>) -> Result<(), RuleError> {
        Ok(())
    }
    fn splits(&self, _: u32) -> bool {
        true
    }
    fn has_symmetries(&self) -> bool {
        true
    }
    fn least_image(&self, n: u32) -> u32 {
        n / 2
    }
}

#[test]
fn a_least_image_that_is_not_its_own_image_is_an_error_not_a_hang() {
    let mut solver = Solver::new(&Halving);
    let found = solver.grundy(8);
    assert!(
        matches!(&found, Err(SolveError::Rule(e)) if e.to_string().contains("least image")),
        "{found:?}"
    );
    // Where the image is its own image, the value is found.
    assert_eq!(Solver::new(&Halving).grundy(0).ok(), Some(0));
}
