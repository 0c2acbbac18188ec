//! The Grundy kernels' side of the rules: what a kernel answers ([`KernelAnswer`]), the
//! values kernels keep between calls ([`KernelTables`]), and the kernel of heap games given
//! by a code, which asks the heap engine ([`heap_kernel`]).

use crate::heap::{HeapCode, HeapEngine};
use crate::period::Period;

/// What [`crate::Rules::grundy_kernel`] made of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelAnswer {
    /// The kernel does not apply: the solver searches as usual.
    Declined,
    /// The position's value, and each new value computed on the way, are in `out`, for
    /// the solver to keep.
    Computed,
    /// The position's value, held by an engine that gives it again at once (a heap
    /// code's, [`heap_kernel`]): the solver need not keep it. `period`: the proven period
    /// it was read off, where the heap was past the budget; `computed`: the values the
    /// engine computed for it (positions solved).
    Kept {
        /// The Grundy value.
        value: u32,
        /// The proven period it was read off, if it was.
        period: Option<Period>,
        /// New values the engine computed to answer.
        computed: u64,
    },
    /// A heap its engine could neither compute within the budget nor read off a period
    /// proven within it; no search could answer it either. `computed`: the values computed.
    TooLarge {
        /// The heap.
        heap: u64,
        /// The values its engine computed.
        computed: usize,
    },
}

/// The Grundy values that [`crate::Rules::grundy_kernel`] computed, kept by the solver between
/// calls: table `game` holds the values of that game's first positions in the kernel's
/// index order. Every entry is an exact value, so a kernel that declines keeps them.
#[derive(Debug)]
pub struct KernelTables {
    tables: Vec<Vec<u32>>,
    /// The nim-sequence engines of heap games given by a code ([`heap_kernel`]).
    heaps: Vec<Option<HeapEngine>>,
    /// The threads a kernel may use.
    threads: usize,
    /// For each table, the cell that last declined (`usize::MAX`: none).
    declined: Vec<usize>,
    /// The fewest new cells a dense table is filled with several threads
    /// ([`PARALLEL_CELLS`]; tests lower it).
    parallel_cells: usize,
}

/// No tables yet; one thread.
impl Default for KernelTables {
    fn default() -> Self {
        KernelTables {
            tables: Vec::new(),
            heaps: Vec::new(),
            threads: 1,
            declined: Vec::new(),
            parallel_cells: PARALLEL_CELLS,
        }
    }
}

impl KernelTables {
    /// Lets kernels use `threads` threads (at least one, at most [`MAX_THREADS`]).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, MAX_THREADS);
    }

    /// The threads kernels may use.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The table of game `game` (its index among the file's games).
    pub fn table(&mut self, game: usize) -> &mut Vec<u32> {
        if self.tables.len() <= game {
            self.tables.resize_with(game + 1, Vec::new);
        }
        &mut self.tables[game]
    }

    /// The engine of heap game `game`, whose code has digits `digits`.
    pub fn heap(&mut self, game: usize, digits: &[u8]) -> &mut HeapEngine {
        if self.heaps.len() <= game {
            self.heaps.resize_with(game + 1, || None);
        }
        let engine = self.heaps[game]
            .get_or_insert_with(|| HeapEngine::new(HeapCode::from_digits(digits.to_vec())));
        engine.set_threads(self.threads);
        engine
    }

    /// Bytes held, roughly.
    pub fn bytes(&self) -> u64 {
        let tables: usize = self.tables.iter().map(|t| t.capacity() * 4).sum();
        let heaps: usize = (self.heaps.iter().flatten()).map(HeapEngine::bytes).sum();
        (tables + heaps) as u64
    }
}

/// The Grundy kernel of a heap game given by a code (octal or hexadecimal): the value of
/// heap `n` of game `game`, kept by its engine. It is computed, with every smaller heap,
/// when at most `budget` new values are needed; past that it is read off a period that the
/// code's bound proves, found within `budget` values. [`KernelAnswer::TooLarge`] when
/// neither works, [`KernelAnswer::Declined`] for a negative `n`.
pub fn heap_kernel(
    game: usize,
    digits: &[u8],
    n: i64,
    budget: u64,
    tables: &mut KernelTables,
) -> KernelAnswer {
    let Ok(n) = u64::try_from(n) else {
        return KernelAnswer::Declined;
    };
    let engine = tables.heap(game, digits);
    let held = engine.values().len();
    match engine.value(n, budget) {
        Some((value, period)) => KernelAnswer::Kept {
            value,
            period,
            computed: (engine.values().len() - held) as u64,
        },
        None => KernelAnswer::TooLarge {
            heap: n,
            computed: engine.values().len(),
        },
    }
}

/// The most threads a solver uses (`--threads` refuses more; [`KernelTables::set_threads`]
/// and [`crate::solver::shared::search_with_helpers`] take no more, and a tiered solve
/// refuses more workers a process): past the cores of any
/// machine today, and well short of the thousands of threads whose stacks a process cannot
/// map (a solve asked for 16,384 threads was aborted by the system, not refused).
pub const MAX_THREADS: usize = 1024;

/// The number of threads a solver uses by default: every core the process may run on (at
/// most [`MAX_THREADS`]).
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(MAX_THREADS)
}

/// The values a dense kernel's cell reads: those of the positions earlier than the one
/// being solved.
pub trait EarlierValues {
    /// The value of the position with index `i`; `None` where it is not earlier than the
    /// position being solved (the kernel then declines).
    fn earlier(&self, i: usize) -> Option<u32>;
}

/// While position `cur` is solved in index order, the table holds exactly the earlier ones.
impl EarlierValues for [u32] {
    #[inline]
    fn earlier(&self, i: usize) -> Option<u32> {
        self.get(i).copied()
    }
}

/// The values of a position's options, marked to find their least missing value (mex).
#[derive(Debug, Default)]
pub struct Marks {
    /// Values below 64, as bits.
    low: u64,
    /// Larger values.
    seen: Vec<bool>,
}

impl Marks {
    /// Forgets every mark.
    #[inline]
    pub fn clear(&mut self) {
        self.low = 0;
        self.seen.clear();
    }

    /// Marks value `x`.
    #[inline]
    pub fn mark(&mut self, x: u32) {
        if x < 64 {
            self.low |= 1u64 << x;
            return;
        }
        let x = x as usize;
        if x >= self.seen.len() {
            self.seen.resize(x + 1, false);
        }
        self.seen[x] = true;
    }

    /// The least value not marked.
    #[inline]
    pub fn mex(&self) -> u32 {
        if self.low != u64::MAX {
            return self.low.trailing_ones();
        }
        let free = (64..self.seen.len()).find(|&x| !self.seen[x]);
        free.unwrap_or(self.seen.len().max(64)) as u32
    }
}

/// The cells of a game whose positions index densely, as a generated kernel gives them to
/// [`fill_dense`] (or an interpreter to [`fill_dense_serial`]): the position at an index, and
/// its value from the earlier ones.
pub trait DenseCells {
    /// The rules' position type.
    type Pos: Copy;

    /// The cells of a row: the positions that share the value of the last field (its place
    /// value in the index), 0 where the positions are not a board of rows. Threads take a
    /// row at a time: a move that keeps the last field reads back within the row, so a row
    /// split between threads would leave the second waiting for the first.
    const ROW: usize;

    /// The position with index `cur`.
    fn pos(&self, cur: usize) -> Self::Pos;

    /// The Grundy value of the position with index `cur`, its options' values read from
    /// `g` (`marks` is scratch space); `None` where the kernel does not apply to it (an
    /// option not earlier, a field outside its type, a rule's error), as the rules say.
    fn value<G: EarlierValues + ?Sized>(&self, cur: usize, g: &G, marks: &mut Marks)
        -> Option<u32>;
}

/// Below this many new cells a table is filled by one thread (starting threads costs more).
pub const PARALLEL_CELLS: usize = 1 << 14;

/// Rows shorter than this are filled by one thread: a thread would wait for the previous
/// row at nearly every cell.
const MIN_ROW: usize = 32;

/// A cell not yet solved, in the table several threads fill (no Grundy value is this large:
/// it is at most a position's number of options).
const PENDING: u32 = u32::MAX;

/// The dense kernel: the Grundy value of the position with index `target` in table `game`
/// of `tables`, filled in index order from the values it holds, each new value pushed to
/// `out` with its position; positions `known` gives are not solved again. Declines where
/// more than `budget` values would be new, or a cell declines (the table then keeps the
/// values before it, each exact).
///
/// With more than one thread ([`KernelTables::set_threads`]), rows of at least 32 cells, and
/// at least [`PARALLEL_CELLS`] new cells in four rows or more and no fewer than the cells
/// held (the threads' table starts as a copy of them), threads take rows in index order and
/// each cell waits for the earlier values it reads; every option of a cell is earlier than
/// it, so the earliest cell being solved never waits and the fill always ends. Where a cell
/// declines, the values before it are kept and one thread goes on from there as it would
/// have alone, so the table, `out` and the answer are those of one thread (the order of
/// `out` aside).
pub fn fill_dense<C: DenseCells + Sync>(
    cells: &C,
    game: usize,
    target: usize,
    known: &dyn Fn(C::Pos) -> Option<u32>,
    out: &mut Vec<(C::Pos, u32)>,
    budget: u64,
    tables: &mut KernelTables,
) -> KernelAnswer {
    let (threads, parallel_cells) = (tables.threads, tables.parallel_cells);
    let (g, declined) = match dense_table(cells, game, target, out, budget, tables) {
        Ok(table) => table,
        Err(answer) => return answer,
    };
    let new = target + 1 - g.len();
    // Not where a cell declined before: the fill would stop there again, while one thread
    // goes past it once the solver knows its value.
    // And not for a few values after many: the threads' table starts as a copy of the
    // values held, which must cost less than the new ones.
    let parallel = threads > 1 && C::ROW >= MIN_ROW && *declined != g.len() && new >= g.len();
    if parallel && new >= parallel_cells.max(4 * C::ROW) {
        let start = g.len();
        let fresh = fill_parallel(cells, g, target + 1, threads);
        // As one thread would: the values `known` gives are not new.
        let new = (start..).zip(&fresh).map(|(cur, &v)| (cells.pos(cur), v));
        out.extend(new.filter(|&(pos, _)| known(pos).is_none()));
        g.extend(fresh);
    }
    fill_in_order(cells, g, declined, target, known, out)
}

/// [`fill_dense`] on one thread, for cells that threads cannot share.
pub fn fill_dense_serial<C: DenseCells>(
    cells: &C,
    game: usize,
    target: usize,
    known: &dyn Fn(C::Pos) -> Option<u32>,
    out: &mut Vec<(C::Pos, u32)>,
    budget: u64,
    tables: &mut KernelTables,
) -> KernelAnswer {
    match dense_table(cells, game, target, out, budget, tables) {
        Ok((g, declined)) => fill_in_order(cells, g, declined, target, known, out),
        Err(answer) => answer,
    }
}

/// Table `game` of `tables`, with room for `target`, and the cell of it that last declined;
/// or the answer at once: the value (pushed to `out`) where the table holds `target`
/// already, a refusal where more than `budget` values would be new.
fn dense_table<'t, C: DenseCells>(
    cells: &C,
    game: usize,
    target: usize,
    out: &mut Vec<(C::Pos, u32)>,
    budget: u64,
    tables: &'t mut KernelTables,
) -> Result<(&'t mut Vec<u32>, &'t mut usize), KernelAnswer> {
    tables.table(game);
    if tables.declined.len() <= game {
        tables.declined.resize(game + 1, usize::MAX);
    }
    let (g, declined) = (&mut tables.tables[game], &mut tables.declined[game]);
    if let Some(&value) = g.get(target) {
        out.push((cells.pos(target), value));
        return Err(KernelAnswer::Computed);
    }
    // Every position from `g.len()` to `target` may need a new value.
    if (target + 1 - g.len()) as u64 > budget {
        return Err(KernelAnswer::Declined);
    }
    g.reserve(target + 1 - g.len());
    Ok((g, declined))
}

/// Fills table `g` in index order up to `target` on this thread (see [`fill_dense`]).
fn fill_in_order<C: DenseCells>(
    cells: &C,
    g: &mut Vec<u32>,
    declined: &mut usize,
    target: usize,
    known: &dyn Fn(C::Pos) -> Option<u32>,
    out: &mut Vec<(C::Pos, u32)>,
) -> KernelAnswer {
    let mut marks = Marks::default();
    for cur in g.len()..=target {
        let pos = cells.pos(cur);
        if let Some(value) = known(pos) {
            g.push(value);
            continue;
        }
        let Some(value) = cells.value(cur, g.as_slice(), &mut marks) else {
            *declined = cur;
            out.clear();
            return KernelAnswer::Declined;
        };
        g.push(value);
        out.push((pos, value));
    }
    KernelAnswer::Computed
}

/// The values of cells `base.len()..end`, solved by `threads` threads, up to the first
/// cell that declines (or all of them).
///
/// A cell is first solved reading its options' values as they are (fast: one load each);
/// where one was still being solved ([`PENDING`], which the reader notes: a value may be
/// used in a nim-sum before it is marked), the cell is solved again waiting for each value
/// it reads. Cells are written once, so a value read
/// that is not [`PENDING`] is final.
fn fill_parallel<C: DenseCells + Sync>(
    cells: &C,
    base: &[u32],
    end: usize,
    threads: usize,
) -> Vec<u32> {
    use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
    let start = base.len();
    let table: Vec<AtomicU32> = (base.iter().map(|&v| AtomicU32::new(v)))
        .chain((start..end).map(|_| AtomicU32::new(PENDING)))
        .collect();
    // The next row to take, and the first cell that declined (`end` while none has).
    let row = C::ROW;
    let next = AtomicUsize::new(start / row);
    let stop = AtomicUsize::new(end);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut marks = Marks::default();
                'rows: loop {
                    let taken = next.fetch_add(1, Ordering::Relaxed);
                    let from = (taken * row).max(start);
                    if from >= stop.load(Ordering::Acquire) {
                        break;
                    }
                    for cur in from..((taken + 1) * row).min(end) {
                        let earlier = &table[..cur];
                        let racing = Racing {
                            earlier,
                            pending: std::cell::Cell::new(false),
                        };
                        let mut value = cells.value(cur, &racing, &mut marks);
                        if racing.pending.get() {
                            let g = Waiting {
                                earlier,
                                stop: &stop,
                            };
                            value = cells.value(cur, &g, &mut marks);
                        }
                        match value {
                            Some(v) => table[cur].store(v, Ordering::Release),
                            None => {
                                stop.fetch_min(cur, Ordering::AcqRel);
                                break 'rows;
                            }
                        }
                    }
                }
            });
        }
    });
    // Every cell before the first that declined was solved: a thread leaves a cell only
    // where it declined, or waited for a value at or past a cell that declined.
    let mut values: Vec<u32> = (table.into_iter().skip(start))
        .map(AtomicU32::into_inner)
        .collect();
    let solved = values.iter().position(|&v| v == PENDING);
    values.truncate(solved.unwrap_or(values.len()));
    values
}

/// The earlier values of a cell while several threads fill a table, read as they are: a
/// value still being solved is noted, and reads 0.
struct Racing<'a> {
    earlier: &'a [std::sync::atomic::AtomicU32],
    /// Whether a value still being solved was read.
    pending: std::cell::Cell<bool>,
}

impl EarlierValues for Racing<'_> {
    #[inline]
    fn earlier(&self, i: usize) -> Option<u32> {
        let v = self
            .earlier
            .get(i)?
            .load(std::sync::atomic::Ordering::Acquire);
        if v == PENDING {
            // Any value will do: the cell is solved again. 0 keeps the marks small.
            self.pending.set(true);
            return Some(0);
        }
        Some(v)
    }
}

/// The earlier values of a cell while several threads fill a table, each waited for until
/// it is solved.
struct Waiting<'a> {
    earlier: &'a [std::sync::atomic::AtomicU32],
    /// The first cell that declined.
    stop: &'a std::sync::atomic::AtomicUsize,
}

impl EarlierValues for Waiting<'_> {
    fn earlier(&self, i: usize) -> Option<u32> {
        use std::sync::atomic::Ordering;
        let cell = self.earlier.get(i)?;
        let mut waited = 0u32;
        loop {
            let v = cell.load(Ordering::Acquire);
            if v != PENDING {
                return Some(v);
            }
            // A cell at or past one that declined may never be solved: this one gives up
            // too (it is past that cell, so its value is not kept).
            if i >= self.stop.load(Ordering::Acquire) {
                return None;
            }
            waited += 1;
            if waited < 1 << 8 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A board of `rows` rows of 32 cells whose moves are given by list: each cell's
    /// options as offsets back from it (an offset past the cell is an option not earlier:
    /// the kernel declines there).
    #[derive(Debug)]
    struct Board {
        options: Vec<Vec<usize>>,
        /// Each cell's options that are sums of two earlier cells, as two offsets back.
        sums: Vec<Vec<(usize, usize)>>,
        /// A cell whose rules fail (the kernel declines there).
        fails: Option<usize>,
    }

    impl DenseCells for Board {
        type Pos = usize;
        // Rows as the generated code makes them: the tests' widths reach 32.
        const ROW: usize = 32;

        fn pos(&self, cur: usize) -> usize {
            cur
        }

        fn value<G: EarlierValues + ?Sized>(
            &self,
            cur: usize,
            g: &G,
            marks: &mut Marks,
        ) -> Option<u32> {
            marks.clear();
            if self.fails == Some(cur) {
                return None;
            }
            for &back in &self.options[cur] {
                // An offset past the cell reads a later cell: `earlier` says it is not one.
                let i = cur.checked_sub(back).unwrap_or(usize::MAX);
                marks.mark(g.earlier(i)?);
            }
            for &(a, b) in &self.sums[cur] {
                let (x, y) = (g.earlier(cur - a)?, g.earlier(cur - b)?);
                marks.mark(x ^ y);
            }
            Some(marks.mex())
        }
    }

    /// The Grundy values of the cells before the first that declines, by the definition.
    fn by_definition(board: &Board) -> Vec<u32> {
        let mut values: Vec<u32> = Vec::new();
        for cur in 0..board.options.len() {
            if board.fails == Some(cur) || board.options[cur].iter().any(|&b| b > cur || b == 0) {
                break;
            }
            let singles = board.options[cur].iter().map(|&b| values[cur - b]);
            let sums = (board.sums[cur].iter()).map(|&(a, b)| values[cur - a] ^ values[cur - b]);
            let options: Vec<u32> = singles.chain(sums).collect();
            values.push((0..).find(|v| !options.contains(v)).unwrap_or(0));
        }
        values
    }

    /// What [`fill`] saw: each call's answer, the table, each call's new values.
    type Filled = (Vec<KernelAnswer>, Vec<u32>, Vec<Vec<(usize, u32)>>);

    /// Fills `board` to each of `targets` in turn with `threads` threads and a kernel that
    /// knows the values `known` gives: the answers, the table and the new values of each
    /// call in index order.
    fn fill(
        board: &Board,
        targets: &[usize],
        threads: usize,
        known: &dyn Fn(usize) -> Option<u32>,
    ) -> Filled {
        let mut tables = KernelTables::default();
        tables.set_threads(threads);
        tables.parallel_cells = 1;
        let (mut answers, mut outs) = (Vec::new(), Vec::new());
        for &target in targets {
            let mut out = Vec::new();
            answers.push(fill_dense(
                board,
                0,
                target,
                known,
                &mut out,
                u64::MAX,
                &mut tables,
            ));
            out.sort_unstable();
            outs.push(out);
        }
        (answers, tables.table(0).clone(), outs)
    }

    fn board() -> impl Strategy<Value = Board> {
        (4usize..24, 0usize..4, any::<u64>()).prop_flat_map(|(rows, faults, seed)| {
            let cells = rows * 32;
            // Each cell's options: a few offsets within its row and a few rows back.
            let back = || prop_oneof![1usize..8, 1usize..200];
            let options = proptest::collection::vec(proptest::collection::vec(back(), 0..6), cells);
            let sums =
                proptest::collection::vec(proptest::collection::vec((back(), back()), 0..3), cells);
            let fixed = Just((faults, seed, cells));
            (options, sums, fixed).prop_map(|(options, sums, (faults, seed, cells))| {
                let mut options: Vec<Vec<usize>> = options;
                let mut sums: Vec<Vec<(usize, usize)>> = sums;
                for (cur, pairs) in sums.iter_mut().enumerate() {
                    pairs.retain(|&(a, b)| a <= cur && b <= cur);
                }
                let mut fails = None;
                // Some boards decline: a cell reads a later one, or its rules fail.
                match faults {
                    1 => options[seed as usize % cells].push(cells),
                    2 => fails = Some(seed as usize % cells),
                    _ => {}
                }
                // Offsets past the start of the board are read as later cells too:
                // keep them only where a fault is wanted.
                for (cur, opts) in options.iter_mut().enumerate() {
                    if faults != 1 || cur != seed as usize % cells {
                        opts.retain(|&b| b <= cur);
                    }
                }
                Board {
                    options,
                    sums,
                    fails,
                }
            })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Several threads fill a table exactly as one does, and as the definition says:
        /// the same answer, the same table (the values before a cell that declines), the
        /// same new values; with some values known beforehand too.
        #[test]
        fn threads_fill_a_table_as_one_thread_and_the_definition(
            board in board(),
            threads in 2usize..5,
            known_every in 0usize..5,
            first in 0.0f64..1.0,
        ) {
            let cells = board.options.len();
            // A table filled in one call, or in two (the second from where the first ended,
            // or from where it declined).
            let first = ((cells as f64 * first) as usize).max(128);
            let targets = [first.min(cells - 1), cells - 1];
            let expected = by_definition(&board);
            let known = |p: usize| {
                (known_every > 0 && p.is_multiple_of(known_every + 7))
                    .then(|| expected.get(p).copied())
                    .flatten()
            };
            let one = fill(&board, &targets, 1, &known);
            let many = fill(&board, &targets, threads, &known);
            prop_assert_eq!(&one, &many);
            prop_assert_eq!(&one.1, &expected);
            let answer = if expected.len() == cells {
                KernelAnswer::Computed
            } else {
                KernelAnswer::Declined
            };
            prop_assert_eq!(one.0[1], answer);
            let whole = fill(&board, &[cells - 1], threads, &known);
            prop_assert_eq!(&whole.1, &expected);
        }
    }

    /// The marks' least missing value, past one register too.
    #[test]
    fn marks_find_the_least_missing_value() {
        let mut marks = Marks::default();
        assert_eq!(marks.mex(), 0);
        for x in (0..200).filter(|&x| x != 130) {
            marks.mark(x);
        }
        assert_eq!(marks.mex(), 130);
        marks.mark(130);
        assert_eq!(marks.mex(), 200);
        marks.clear();
        marks.mark(1);
        assert_eq!(marks.mex(), 0);
    }
}
