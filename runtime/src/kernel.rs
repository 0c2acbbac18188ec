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
#[derive(Debug, Default)]
pub struct KernelTables {
    tables: Vec<Vec<u32>>,
    /// The nim-sequence engines of heap games given by a code ([`heap_kernel`]).
    heaps: Vec<Option<HeapEngine>>,
}

impl KernelTables {
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
        self.heaps[game]
            .get_or_insert_with(|| HeapEngine::new(HeapCode::from_digits(digits.to_vec())))
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
