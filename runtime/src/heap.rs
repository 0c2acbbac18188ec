//! Take-and-break heap games by their codes (octal and hexadecimal), and the engine that
//! computes their nim-sequences: bottom up, in a compact array, with the rare/common split
//! of Gangolli–Plambeck and Flammenkamp (on labels with the heap's parity, as Beling's rc2)
//! for the mex of moves that split a heap, and with
//! proven periods (see [`crate::period`]) that answer any heap size.
//!
//! A code `d0.d1d2d3...` says, for each `k`, what a move that removes `k` tokens may leave
//! (bits of `dk`): 1 nothing, 2 one heap, 4 two non-empty heaps, 8 three non-empty heaps
//! (a hexadecimal digit). `d0` may only split (4, 8): it removes no tokens.

use crate::heap_simd;
use crate::period::{find_period, Bound, Period};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The most values [`HeapEngine`] computes for one game: 2^32 − 1 (positions are kept as
/// `u32`); a heap past it is answered only from a proven period.
pub const MAX_HEAP_TABLE: usize = u32::MAX as usize;

/// The most work (splits looked at) [`HeapEngine::value`] spends looking for a period
/// that would answer a heap too large to compute: a few seconds.
pub const PERIOD_SEARCH_WORK: u64 = 1 << 33;

/// A take-and-break game's code: digit `k` says what a move removing `k` tokens leaves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HeapCode {
    digits: Vec<u8>,
}

impl HeapCode {
    /// Reads a code such as `0.77`, `.156`, `4.07` (`d0 = 4`: a heap may split without
    /// losing tokens) or `0.8f` (hexadecimal digits 8–f leave three heaps). Trailing zeros
    /// are dropped.
    pub fn parse(code: &str) -> Result<Self, String> {
        let (head, rest) = code
            .split_once('.')
            .ok_or_else(|| "it needs a point, as in `0.77` or `4.07`".to_string())?;
        if rest.is_empty() {
            return Err("there are no digits after the point".to_string());
        }
        let d0 = match head {
            "" | "0" => 0,
            "4" => 4,
            "8" => 8,
            "c" | "C" => 12,
            other => {
                return Err(format!(
                    "the digit before the point, `{other}`, must be 0, 4, 8 or c: it removes no \
                     tokens, so it may only split a heap (1 or 2 would let a player pass or \
                     move from the empty heap)"
                ))
            }
        };
        let mut digits = vec![d0];
        for ch in rest.chars() {
            match ch.to_digit(16) {
                Some(d) => digits.push(d as u8),
                None => {
                    return Err(format!(
                        "`{ch}` is not a digit (0-7, or 0-f in hexadecimal)"
                    ))
                }
            }
        }
        if digits.len() > 4096 {
            return Err(format!(
                "it has {} digits; at most 4096 are supported",
                digits.len() - 1
            ));
        }
        Ok(Self::from_digits(digits))
    }

    /// The code with digits `d0 d1 ...` (each 0–15; trailing zeros are dropped).
    pub fn from_digits(mut digits: Vec<u8>) -> Self {
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.is_empty() {
            digits.push(0);
        }
        HeapCode { digits }
    }

    /// The digits `d0 d1 ...`.
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The largest number of tokens a move removes.
    pub fn max_removal(&self) -> usize {
        self.digits.len() - 1
    }

    /// The most heaps a move leaves (at least 1).
    pub fn max_parts(&self) -> usize {
        let all = self.digits.iter().fold(0, |a, d| a | d);
        if all & 8 != 0 {
            3
        } else if all & 4 != 0 {
            2
        } else {
            1
        }
    }

    /// The bound that proves periods of this game's nim-sequence.
    pub fn bound(&self) -> Bound {
        Bound {
            max_removal: self.max_removal(),
            max_parts: self.max_parts(),
        }
    }
}

impl std::fmt::Display for HeapCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:x}.", self.digits[0])?;
        for d in &self.digits[1..] {
            write!(f, "{d:x}")?;
        }
        Ok(())
    }
}

/// A nim-sequence kept in the narrowest array its values allow: a byte per value while
/// every value is below 256, then two bytes, then four.
#[derive(Clone, Debug)]
pub enum NimSequence {
    /// Every value below 256.
    Bytes(Vec<u8>),
    /// Every value below 65536.
    Words(Vec<u16>),
    /// Any value.
    Wide(Vec<u32>),
}

impl Default for NimSequence {
    fn default() -> Self {
        NimSequence::Bytes(Vec::new())
    }
}

impl NimSequence {
    /// The number of values.
    pub fn len(&self) -> usize {
        match self {
            NimSequence::Bytes(v) => v.len(),
            NimSequence::Words(v) => v.len(),
            NimSequence::Wide(v) => v.len(),
        }
    }

    /// Whether there is no value yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Value `n`, if computed.
    pub fn get(&self, n: usize) -> Option<u32> {
        match self {
            NimSequence::Bytes(v) => v.get(n).map(|&x| x as u32),
            NimSequence::Words(v) => v.get(n).map(|&x| x as u32),
            NimSequence::Wide(v) => v.get(n).copied(),
        }
    }

    /// Appends the values of heaps `from..=to` (those computed) to `out`.
    pub fn copy_range(&self, from: usize, to: usize, out: &mut Vec<u32>) {
        let Some(last) = self.len().checked_sub(1) else {
            return;
        };
        let to = to.min(last);
        if from > to {
            return;
        }
        match self {
            NimSequence::Bytes(v) => out.extend(v[from..=to].iter().map(|&x| x as u32)),
            NimSequence::Words(v) => out.extend(v[from..=to].iter().map(|&x| x as u32)),
            NimSequence::Wide(v) => out.extend_from_slice(&v[from..=to]),
        }
    }

    /// Bytes held per value.
    pub fn width(&self) -> usize {
        match self {
            NimSequence::Bytes(_) => 1,
            NimSequence::Words(_) => 2,
            NimSequence::Wide(_) => 4,
        }
    }

    /// Widens the array so that it can hold `value`.
    fn widen_for(&mut self, value: u32) {
        if value > u16::MAX as u32 {
            if let NimSequence::Bytes(_) | NimSequence::Words(_) = self {
                let wide = (0..self.len()).filter_map(|i| self.get(i)).collect();
                *self = NimSequence::Wide(wide);
            }
        } else if value > u8::MAX as u32 {
            if let NimSequence::Bytes(v) = self {
                *self = NimSequence::Words(v.iter().map(|&x| x as u16).collect());
            }
        }
    }

    /// The first period of the values (see [`find_period`]).
    pub fn find_period(&self, bound: Option<Bound>) -> Option<Period> {
        match self {
            NimSequence::Bytes(v) => find_period(v, bound),
            NimSequence::Words(v) => find_period(v, bound),
            NimSequence::Wide(v) => find_period(v, bound),
        }
    }

    /// The values as `u32`s.
    pub fn to_vec(&self) -> Vec<u32> {
        (0..self.len()).filter_map(|i| self.get(i)).collect()
    }
}

/// One cell type of a [`NimSequence`].
trait Cell: Copy + Send + Sync {
    fn value(self) -> u32;
    fn from_value(v: u32) -> Option<Self>;
    /// The cells as bytes, when they are bytes (for the vectorised naive loop).
    fn bytes(_cells: &[Self]) -> Option<&[u8]> {
        None
    }
    /// The first `i` with `low[i] ^ high[high.len() - 1 - i] == target`, if any.
    fn find_pair(low: &[Self], high: &[Self], target: u32) -> Option<usize>;
}

impl Cell for u8 {
    #[inline(always)]
    fn value(self) -> u32 {
        self as u32
    }
    #[inline(always)]
    fn from_value(v: u32) -> Option<Self> {
        u8::try_from(v).ok()
    }
    #[inline(always)]
    fn bytes(cells: &[Self]) -> Option<&[u8]> {
        Some(cells)
    }
    #[inline(always)]
    fn find_pair(low: &[Self], high: &[Self], target: u32) -> Option<usize> {
        // Two bytes' nim-sum is a byte.
        let target = u8::try_from(target).ok()?;
        heap_simd::find_reversed_xor_u8(low, high, target)
    }
}

impl Cell for u16 {
    #[inline(always)]
    fn value(self) -> u32 {
        self as u32
    }
    #[inline(always)]
    fn from_value(v: u32) -> Option<Self> {
        u16::try_from(v).ok()
    }
    #[inline(always)]
    fn find_pair(low: &[Self], high: &[Self], target: u32) -> Option<usize> {
        let target = u16::try_from(target).ok()?;
        heap_simd::find_reversed_xor_u16(low, high, target)
    }
}

impl Cell for u32 {
    #[inline(always)]
    fn value(self) -> u32 {
        self
    }
    #[inline(always)]
    fn from_value(v: u32) -> Option<Self> {
        Some(v)
    }
    #[inline(always)]
    fn find_pair(low: &[Self], high: &[Self], target: u32) -> Option<usize> {
        heap_simd::find_scalar(low, high, target)
    }
}

/// A set of values as bits.
#[derive(Clone, Debug, Default)]
struct Bits {
    words: Vec<u64>,
}

impl Bits {
    #[inline(always)]
    fn insert(&mut self, v: u64) {
        let w = (v >> 6) as usize;
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        self.words[w] |= 1 << (v & 63);
    }

    #[inline(always)]
    fn contains(&self, v: u64) -> bool {
        self.words
            .get((v >> 6) as usize)
            .is_some_and(|w| w >> (v & 63) & 1 != 0)
    }

    /// The members, ascending.
    fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        (self.words.iter().enumerate()).flat_map(|(i, &w)| {
            (0..64)
                .filter(move |b| w >> b & 1 != 0)
                .map(move |b| i as u64 * 64 + b)
        })
    }
}

/// The option values of one heap, while it is solved.
trait Marks: Send {
    /// Whether the marks are a register: marking a split then costs no more than comparing
    /// its nim-sum, and the check marks every split it looks at.
    const IN_REGISTER: bool = false;
    fn insert(&mut self, x: u32);
    /// Marks the values whose bits are set in `bits` (values below 64).
    fn insert_low(&mut self, bits: u64);
    fn mex(&self) -> u32;
    /// How many words of 64 values the marks hold.
    fn words(&self) -> usize;
    /// Marks the values whose bits are set in `words` (as many as [`Marks::words`]).
    fn merge(&mut self, words: &[u64]);
}

/// Marks of values below 64, in a register.
struct One(u64);

impl Marks for One {
    const IN_REGISTER: bool = true;
    #[inline(always)]
    fn insert(&mut self, x: u32) {
        self.0 |= 1 << (x & 63);
    }
    #[inline(always)]
    fn insert_low(&mut self, bits: u64) {
        self.0 |= bits;
    }
    #[inline(always)]
    fn mex(&self) -> u32 {
        self.0.trailing_ones()
    }
    fn words(&self) -> usize {
        1
    }
    fn merge(&mut self, words: &[u64]) {
        self.0 |= words[0];
    }
}

/// Marks of values below `64 * len` (`len` a power of two, at most 1024): every nim-sum of
/// values below 2^16 is below 2^16, so an index masked to the array's 1024 words is the
/// index itself, and no bounds check is needed.
struct Wide<'a> {
    words: &'a mut [u64; WIDE_WORDS],
    len: usize,
}

/// The words of [`Wide`] marks: values below 2^16.
const WIDE_WORDS: usize = 1024;

impl Marks for Wide<'_> {
    #[inline(always)]
    fn insert(&mut self, x: u32) {
        debug_assert!((x as usize) < self.len * 64);
        self.words[(x >> 6) as usize & (WIDE_WORDS - 1)] |= 1 << (x & 63);
    }
    #[inline(always)]
    fn insert_low(&mut self, bits: u64) {
        self.words[0] |= bits;
    }
    #[inline(always)]
    fn mex(&self) -> u32 {
        for (i, &w) in self.words[..self.len].iter().enumerate() {
            if w != u64::MAX {
                return (i as u32) * 64 + w.trailing_ones();
            }
        }
        self.len as u32 * 64
    }
    fn words(&self) -> usize {
        self.len
    }
    fn merge(&mut self, words: &[u64]) {
        for (w, &v) in self.words[..self.len].iter_mut().zip(words) {
            *w |= v;
        }
    }
}

/// Marks of values below `64 * words.len()`.
struct Many<'a>(&'a mut [u64]);

impl Marks for Many<'_> {
    #[inline(always)]
    fn insert(&mut self, x: u32) {
        self.0[(x >> 6) as usize] |= 1 << (x & 63);
    }
    #[inline(always)]
    fn insert_low(&mut self, bits: u64) {
        self.0[0] |= bits;
    }
    #[inline(always)]
    fn mex(&self) -> u32 {
        for (i, &w) in self.0.iter().enumerate() {
            if w != u64::MAX {
                return (i as u32) * 64 + w.trailing_ones();
            }
        }
        self.0.len() as u32 * 64
    }
    fn words(&self) -> usize {
        self.0.len()
    }
    fn merge(&mut self, words: &[u64]) {
        for (w, &v) in self.0.iter_mut().zip(words) {
            *w |= v;
        }
    }
}

/// Which way [`HeapEngine`] took the mex of split moves at its last step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SplitMethod {
    /// Every split was looked at.
    #[default]
    Naive,
    /// Splits with a rare heap were looked at, the rest only as needed (rare/common).
    RareCommon,
}

/// Heaps in a row on which the rare/common method looks at nearly every split before the
/// naive loop takes over for a while.
const FUTILE_STEPS: u32 = 8;

/// The nim-sequence of one heap game, computed bottom up and kept between calls.
///
/// The mex over moves that split a heap in two follows Flammenkamp's sparse-space method,
/// on labels as Beling's rc2 does. A heap's label is its value beside the parity of its
/// size (`value << 1 | n & 1`); the removals that split are taken in two classes by their
/// parity, and each class keeps a *common* set `C` of labels (chosen greedily from the most
/// frequent, so that no two common labels add, by nim-addition, to what a common candidate
/// would need) and calls the rest *rare*. Two heaps left by a removal of parity `d` from heap `n` have
/// labels adding to their option's value beside the parity of `n - d`, so every split that
/// could make a value outside `C ⊕ C` has a heap of rare label: only those are looked at
/// first, and the remaining splits only while the least missing value could come from two
/// common labels. Where the check has lately found its value rarely (one find in 256 splits
/// or more) and values pass 63, it searches them for that one value (vectorised: 16 or 32
/// splits at a time) and marks them only when a find needs the next least missing value;
/// elsewhere it marks each split it looks at. Which labels are common changes nothing but speed (of the greedy choice by
/// labels and the one by values, each class keeps the one with fewer rare heaps); when rare
/// heaps are not rare, every split is looked at (the naive method, vectorised while values
/// are below 16), and so it is for a while (an eighth as many heaps again) after the
/// rare/common method looked at nearly every split of 8 heaps in a row, as it does where
/// the least missing value comes late among the common heaps' splits: the engine never
/// does much worse than the definition.
#[derive(Clone, Debug)]
pub struct HeapEngine {
    code: HeapCode,
    values: NimSequence,
    stepper: Stepper,
    /// The first proven period, once found.
    period: Option<Period>,
    /// The length at which a period was last looked for.
    period_checked: usize,
    /// The threads that share the naive loop's splits, when there are several.
    pool: Option<std::sync::Arc<rayon::ThreadPool>>,
}

impl HeapEngine {
    /// An engine with no values yet.
    pub fn new(code: HeapCode) -> Self {
        let digits = code.digits().to_vec();
        let takes = (digits.iter().enumerate())
            .filter(|&(k, &d)| k > 0 && d & 3 != 0)
            .map(|(k, &d)| (k, d))
            .collect();
        let splits: Vec<usize> = (digits.iter().enumerate())
            .filter(|&(_, &d)| d & 4 != 0)
            .map(|(k, _)| k)
            .collect();
        let classes = [0, 1]
            .into_iter()
            .map(|parity| SplitClass {
                parity,
                removals: splits
                    .iter()
                    .copied()
                    .filter(|&k| k as u64 & 1 == parity)
                    .collect(),
                common: Bits::default(),
                sums: Bits::default(),
                common_len: 0,
                rare: Vec::new(),
            })
            .filter(|class| !class.removals.is_empty())
            .collect();
        let triples: Vec<usize> = (digits.iter().enumerate())
            .filter(|&(_, &d)| d & 8 != 0)
            .map(|(k, _)| k)
            .collect();
        // An option of heap `n` reads heap `n - k` (one heap left), at most `n - k - 1` (two)
        // or `n - k - 2` (three).
        let lookahead = (digits.iter().enumerate())
            .flat_map(|(k, &d)| {
                [(2, k), (4, k + 1), (8, k + 2)]
                    .into_iter()
                    .filter(move |&(bit, _)| d & bit != 0 && (bit != 2 || k > 0))
                    .map(|(_, reach)| reach)
            })
            .min()
            .unwrap_or(usize::MAX)
            .max(1);
        HeapEngine {
            code,
            values: NimSequence::default(),
            stepper: Stepper {
                takes,
                triples,
                classes,
                counts: Vec::new(),
                next_choice: 256,
                marks: Bits { words: vec![0] },
                wide: vec![0; WIDE_WORDS],
                progress: Vec::new(),
                recent_looked: 0,
                recent_hits: 0,
                futile: 0,
                naive_until: 0,
                parallel: false,
                lookahead,
                last_method: SplitMethod::Naive,
                stats: HeapStats::default(),
            },
            period: None,
            period_checked: 0,
            pool: None,
        }
    }

    /// Lets the engine use `threads` threads. Where each heap's options lie two heaps or
    /// more below it (as in 0.14, where no move leaves a heap one token smaller) and a heap
    /// takes long enough, the threads compute heaps at once as a wavefront; elsewhere a
    /// heap's naive split loop, where it is long, is shared between them. The values do not
    /// depend on it. One thread where a pool of threads cannot be started.
    pub fn set_threads(&mut self, threads: usize) {
        let now = self.pool.as_ref().map_or(1, |p| p.current_num_threads());
        if now == threads.max(1) {
            return;
        }
        self.pool = (threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .ok()
            })
            .flatten()
            .map(std::sync::Arc::new);
    }

    /// The game's code.
    pub fn code(&self) -> &HeapCode {
        &self.code
    }

    /// The values computed so far.
    pub fn values(&self) -> &NimSequence {
        &self.values
    }

    /// The value of heap `n`, if computed.
    pub fn get(&self, n: usize) -> Option<u32> {
        self.values.get(n)
    }

    /// The method of the last step.
    pub fn last_method(&self) -> SplitMethod {
        self.stepper.last_method
    }

    /// Bytes held, roughly.
    pub fn bytes(&self) -> usize {
        let rare: usize = self.stepper.classes.iter().map(|c| c.rare.capacity()).sum();
        self.values.len() * self.values.width() + rare * 4
    }

    /// Splits looked at so far, every way.
    fn work(&self) -> u64 {
        let s = &self.stepper.stats;
        s.naive_splits + s.rare_splits + s.checked_splits + self.values.len() as u64
    }

    /// The work done so far.
    pub fn stats(&self) -> HeapStats {
        self.stepper.stats
    }

    /// The number of heaps whose labels are rare under the current common sets (a heap
    /// counted once for each parity of removal that splits).
    pub fn rare_heaps(&self) -> usize {
        self.stepper.classes.iter().map(|c| c.rare.len()).sum()
    }

    /// Computes every value up to heap `n` (inclusive).
    pub fn extend_to(&mut self, n: usize) {
        let n = n.min(MAX_HEAP_TABLE - 1);
        if self.values.len() > n {
            return;
        }
        match self.pool.clone() {
            Some(pool) => {
                self.stepper.parallel = true;
                pool.install(|| self.extend_here(n));
                self.stepper.parallel = false;
            }
            None => self.extend_here(n),
        }
    }

    /// [`HeapEngine::extend_to`] on this thread (its split loops shared with the others of
    /// the pool it runs in, where `stepper.parallel`).
    fn extend_here(&mut self, n: usize) {
        while self.values.len() <= n {
            // A step whose value does not fit the array widens it and runs again.
            let stopped = match &mut self.values {
                NimSequence::Bytes(v) => Self::run(v, n, &mut self.stepper),
                NimSequence::Words(v) => Self::run(v, n, &mut self.stepper),
                NimSequence::Wide(v) => Self::run(v, n, &mut self.stepper),
            };
            if let Some(value) = stopped {
                self.values.widen_for(value);
            }
        }
    }

    /// Fills `g` up to heap `n`; `Some(value)` when a value does not fit `T`.
    ///
    /// In a pool of threads (`st.parallel`), where the code lets several heaps be computed
    /// at once ([`Stepper::lookahead`]) and a heap's step takes long enough to be worth it
    /// (blocks of heaps timed, see [`Pace`]), the threads compute heaps as a wavefront
    /// ([`run_wavefront`]), each with its own [`Stepper`] that records every value as the
    /// first one does.
    fn run<T: Cell>(g: &mut Vec<T>, n: usize, st: &mut Stepper) -> Option<u32> {
        g.reserve(n + 1 - g.len());
        let threads = if st.parallel && st.lookahead > 1 {
            rayon::current_num_threads()
        } else {
            1
        };
        let mut crew: Vec<Stepper> = Vec::new();
        let mut pace = Pace::new(g.len());
        let mut stopped = None;
        while g.len() <= n {
            if pace.grouped {
                if crew.is_empty() {
                    crew = vec![st.helper(); threads - 1];
                }
                let end = (g.len() + PACE_RECHECK * PACE_BLOCK).min(n + 1);
                // The wavefront's threads are busy: a step does not share its split loop.
                st.parallel = false;
                stopped = run_wavefront(g, end, st, &mut crew);
                st.parallel = true;
                pace = Pace::new(g.len());
                if stopped.is_some() {
                    break;
                }
                continue;
            }
            let value = st.step(g, g.len());
            let Some(cell) = T::from_value(value) else {
                stopped = Some(value);
                break;
            };
            g.push(cell);
            st.record(g, value);
            for helper in &mut crew {
                helper.record(g, value);
            }
            pace.stepped(g.len(), threads > 1);
        }
        for helper in &crew {
            st.stats.add(&helper.stats);
        }
        stopped
    }

    /// The first period that the game's bound proves in the values so far (looked for
    /// again only once the values have grown by half since the last look).
    pub fn proven_period(&mut self) -> Option<Period> {
        if self.period.is_none()
            && self.values.len() >= self.period_checked + self.period_checked / 2
        {
            self.period_checked = self.values.len().max(1);
            self.period = self.values.find_period(Some(self.code.bound()));
        }
        self.period
    }

    /// The largest heap whose value is held or computed within `budget` new values (and
    /// below [`MAX_HEAP_TABLE`]); `None` when no heap is.
    pub fn last_within(&self, budget: u64) -> Option<u64> {
        let held = self.values.len() as u64;
        let last = (held.saturating_add(budget).checked_sub(1))?;
        Some(last.min(MAX_HEAP_TABLE as u64 - 1))
    }

    /// The value of heap `n` for any `n`: computed when `n` is within `budget` new values,
    /// else from a proven period, looked for in a prefix that doubles up to `budget` values.
    /// `None` when neither is possible; the period used, if any, comes with the value.
    pub fn value(&mut self, n: u64, budget: u64) -> Option<(u32, Option<Period>)> {
        if self.last_within(budget).is_some_and(|last| n <= last) {
            self.extend_to(n as usize);
            return self.values.get(n as usize).map(|v| (v, None));
        }
        let len = self.values.len() as u64;
        let limit = (len + budget).min(MAX_HEAP_TABLE as u64) as usize;
        let mut target = (self.values.len() * 2).max(1024).min(limit);
        // A game with no period in sight is given up on after this much work (a few seconds)
        // rather than computed to the budget, which could take hours.
        let give_up = self.work().saturating_add(PERIOD_SEARCH_WORK);
        loop {
            if let Some(period) = self.proven_period() {
                let index =
                    period.preperiod as u64 + (n - period.preperiod as u64) % period.period as u64;
                self.extend_to(index as usize);
                return self.values.get(index as usize).map(|v| (v, Some(period)));
            }
            if self.values.len() >= limit || self.work() > give_up {
                return None;
            }
            self.extend_to(target - 1);
            target = (target * 2).min(limit);
        }
    }
}

/// The parts of [`HeapEngine`] a step reads and changes, beside the values.
#[derive(Clone, Debug)]
struct Stepper {
    /// `(k, digit)` for each removal `k >= 1` that may leave nothing or one heap.
    takes: Vec<(usize, u8)>,
    /// Each `k` whose move may split what is left into three heaps.
    triples: Vec<usize>,
    /// The removals that may split what is left into two heaps, by their parity.
    classes: Vec<SplitClass>,
    /// How often each label (see [`label`]) occurs.
    counts: Vec<u64>,
    /// When the common sets are chosen again.
    next_choice: usize,
    /// Scratch: the option values of the heap being solved; its length is the marks' width.
    marks: Bits,
    /// Splits the check looked at, and times it found its candidate, lately (halved every
    /// [`RECENT`] heaps): whether it searches or marks (see [`SEARCH_SPAN`]).
    recent_looked: u64,
    recent_hits: u64,
    /// Scratch: how far the check of a candidate looked at and marked each removal's splits.
    progress: Vec<(usize, usize)>,
    /// Scratch: the marks while values are below 2^16 (see [`Wide`]).
    wide: Vec<u64>,
    /// Heaps in a row whose splits the rare/common method looked at nearly all of.
    futile: u32,
    /// Heaps below this take the naive loop (see [`Stepper::judge_rare_common`]).
    naive_until: usize,
    /// Whether the step runs in a pool of threads that share its long split loops.
    parallel: bool,
    /// The fewest heaps below a heap that its options lie: each option of heap `n` is made
    /// of heaps `n - lookahead` and below, so heaps `n` to `n + lookahead - 1` may be
    /// computed at once (at least 1).
    lookahead: usize,
    /// The method of the last step (for tests and statistics).
    last_method: SplitMethod,
    /// Work done so far.
    stats: HeapStats,
}

/// Heaps a [`Pace`] block holds: the time of a block of steps on one thread says whether
/// a wavefront of threads is worth it.
/// (Tests take short blocks, and always a wavefront where one can run.)
const PACE_BLOCK: usize = if cfg!(test) { 16 } else { 1024 };

/// A heap's step, timed on one thread, from which heaps are computed as a wavefront of
/// threads (each heap's handover costs a fraction of a microsecond).
const WAVEFRONT_WORTH: std::time::Duration = if cfg!(test) {
    std::time::Duration::ZERO
} else {
    std::time::Duration::from_nanos(500)
};

/// Blocks of heaps a wavefront computes before a block on one thread is timed again.
const PACE_RECHECK: usize = if cfg!(test) { 4 } else { 32 };

/// Whether [`HeapEngine::run`] computes the next heaps as a wavefront: a block of
/// [`PACE_BLOCK`] heaps on one thread is timed, and where a heap's step took
/// [`WAVEFRONT_WORTH`] or more, the next [`PACE_RECHECK`] blocks are.
struct Pace {
    grouped: bool,
    start: std::time::Instant,
    from: usize,
}

impl Pace {
    fn new(from: usize) -> Self {
        Pace {
            grouped: false,
            start: std::time::Instant::now(),
            from,
        }
    }

    /// Notes that the values reach heap `len - 1`; `possible`: a wavefront could run.
    fn stepped(&mut self, len: usize, possible: bool) {
        if possible && len >= self.from + PACE_BLOCK {
            let per_heap = self.start.elapsed() / (len - self.from) as u32;
            self.grouped = per_heap >= WAVEFRONT_WORTH;
            self.from = len;
            self.start = std::time::Instant::now();
        }
    }
}

/// Computes heaps `g.len()` to `end - 1` on `1 + crew.len()` threads of the current pool
/// as a wavefront: each thread takes the next heap no thread has taken, waits until every
/// heap its options read is known (heaps `lookahead` and more below it), steps it with its
/// own stepper (first recording the values known since its last step), and hands its value
/// over; values are appended to `g` in order as they become known. Every stepper has
/// recorded all of `g` on return. `Some(value)` when a value does not fit `T` (`g` then
/// ends before its heap).
fn run_wavefront<T: Cell>(
    g: &mut Vec<T>,
    end: usize,
    st: &mut Stepper,
    crew: &mut [Stepper],
) -> Option<u32> {
    let start = g.len();
    let lookahead = st.lookahead;
    let seq = Appending::new(g, end);
    let next = AtomicUsize::new(start);
    let work = |stepper: &mut Stepper| -> usize {
        let _guard = StopOnUnwind(&seq);
        let mut recorded = start;
        loop {
            let m = next.fetch_add(1, Ordering::Relaxed);
            if m >= end {
                return recorded;
            }
            let Some(known) = seq.wait_for((m + 1).saturating_sub(lookahead)) else {
                return recorded;
            };
            for i in recorded..known.len() {
                stepper.record(&known[..=i], known[i].value());
            }
            recorded = known.len();
            seq.hand_in(m, stepper.step(known, m));
        }
    };
    let mut recorded = vec![start; crew.len()];
    let mut mine = start;
    rayon::scope(|s| {
        for (helper, recorded) in crew.iter_mut().zip(recorded.iter_mut()) {
            let work = &work;
            s.spawn(move |_| *recorded = work(helper));
        }
        mine = work(st);
    });
    let overflow = seq.finish();
    st.stats.wavefront_heaps += (g.len() - start) as u64;
    // Every stepper records the values it has not seen.
    for (stepper, from) in std::iter::once((st, mine)).chain(crew.iter_mut().zip(recorded)) {
        for i in from..g.len() {
            stepper.record(&g[..=i], g[i].value());
        }
    }
    overflow
}

/// A sequence that threads read while they hand in the values of the heaps after it, in
/// any order (in [`run_wavefront`]): the values are appended in order, one thread at a time
/// (under `finished`'s lock), past the values every thread sees, so no thread reads a
/// value while it is written.
struct Appending<'a, T> {
    /// Values handed in and not appended yet (a heap before them is still being stepped),
    /// and a value that did not fit a cell.
    finished: Mutex<Finished>,
    /// The sequence, its room reserved; its length is set from `len` by [`Appending::finish`].
    vec: &'a mut Vec<T>,
    /// The start of the sequence's buffer (room for `end` values).
    start: *mut T,
    end: usize,
    /// The values appended so far (the first `len` of the buffer hold values).
    len: AtomicUsize,
    /// No more values will be appended: a value did not fit, or a thread stopped.
    stopped: AtomicBool,
}

// SAFETY: threads share an `Appending` to read the first `len` values (written before
// `len` was raised, with `Release`, and read after it is loaded, with `Acquire`) and to
// append past them one at a time (`push` needs `finished`'s lock); no value is written
// after it is readable. `T` is a plain copyable cell.
unsafe impl<T: Cell> Sync for Appending<'_, T> {}

impl<'a, T: Cell> Appending<'a, T> {
    fn new(vec: &'a mut Vec<T>, end: usize) -> Self {
        vec.reserve(end.saturating_sub(vec.len()));
        let len = vec.len();
        Appending {
            finished: Mutex::new(Finished::default()),
            start: vec.as_mut_ptr(),
            vec,
            end,
            len: AtomicUsize::new(len),
            stopped: AtomicBool::new(false),
        }
    }

    /// The number of values appended so far.
    fn len(&self) -> usize {
        self.len.load(Ordering::Acquire)
    }

    /// The values appended so far, once there are at least `need`; `None` if the sequence
    /// stopped before it had them.
    fn wait_for(&self, need: usize) -> Option<&[T]> {
        let mut spins = 0u32;
        loop {
            let len = self.len();
            if len >= need {
                // SAFETY: the first `len` values are written and are never written again.
                return Some(unsafe { std::slice::from_raw_parts(self.start, len) });
            }
            if self.stopped.load(Ordering::Acquire) {
                return None;
            }
            spins += 1;
            if spins < 128 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// Hands in the value of heap `heap` (past the values appended): appends it, and any
    /// handed in before that follow it, once every heap before it is appended.
    fn hand_in(&self, heap: usize, value: u32) {
        let mut finished = lock(&self.finished);
        finished.values.push((heap, value));
        let next = |f: &Finished| f.values.iter().position(|&(i, _)| i == self.len());
        while let Some(at) = next(&finished) {
            let (_, value) = finished.values.swap_remove(at);
            if !self.push(value, &mut finished) {
                finished.overflow = Some(value);
                break;
            }
        }
    }

    /// Appends the value of the next heap; false (and the sequence stops) when it does not
    /// fit a cell. `_finished`: `finished`'s lock is held, so one thread appends at a time.
    fn push(&self, value: u32, _finished: &mut Finished) -> bool {
        let len = self.len.load(Ordering::Relaxed);
        let cell = match T::from_value(value) {
            Some(cell) if len < self.end => cell,
            _ => {
                self.stop();
                return false;
            }
        };
        // SAFETY: `len < end`, within the room reserved; no thread reads past `len`, and
        // only this thread (holding `finished`'s lock) writes.
        unsafe { self.start.add(len).write(cell) };
        self.len.store(len + 1, Ordering::Release);
        true
    }

    /// No more values: threads waiting for values stop.
    fn stop(&self) {
        self.stopped.store(true, Ordering::Release);
    }

    /// The sequence with the values appended; the value that did not fit a cell, if one
    /// did not.
    fn finish(self) -> Option<u32> {
        let len = self.len.load(Ordering::Acquire);
        // SAFETY: the first `len` values of the reserved room are written.
        unsafe { self.vec.set_len(len) };
        lock(&self.finished).overflow
    }
}

/// Stops an [`Appending`] when the thread holding it unwinds, so that threads waiting for
/// the values it was to find do not wait for ever.
struct StopOnUnwind<'s, 'a, T: Cell>(&'s Appending<'a, T>);

impl<T: Cell> Drop for StopOnUnwind<'_, '_, T> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

/// Locks `m`; a thread that panicked while holding it left it usable.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Values the wavefront's threads found and could not append yet (a heap before them is
/// still being stepped), and a value that does not fit the sequence's cells.
#[derive(Default)]
struct Finished {
    values: Vec<(usize, u32)>,
    overflow: Option<u32>,
}

/// A heap's label: its value and the parity of its size, `value << 1 | n & 1`.
///
/// The two heaps that a removal of `k` leaves of heap `n` have sizes adding to `n - k`:
/// their labels' nim-sum is the option's value beside the parity of `n - k`, which the
/// step knows. Common sets of labels rather than of values (Beling's rc2) let a value be
/// common among heaps of one parity while it is rare among the other's.
#[inline(always)]
fn label(value: u32, n: usize) -> u64 {
    (u64::from(value) << 1) | (n as u64 & 1)
}

/// The removals of one parity that may split a heap in two, and the rare/common split of
/// labels that serves them.
#[derive(Clone, Debug)]
struct SplitClass {
    /// The parity of the removals, 0 or 1.
    parity: u64,
    /// The removals, ascending.
    removals: Vec<usize>,
    /// The common labels, and every nim-sum of two of them.
    common: Bits,
    sums: Bits,
    /// How many labels are common (at most [`MAX_COMMON`]).
    common_len: usize,
    /// The heaps (from 1) whose labels are not common, in order.
    rare: Vec<u32>,
}

/// The most labels a common set holds: past a few hundred members the sums cost more than
/// they save.
const MAX_COMMON: usize = 1024;

impl SplitClass {
    /// Whether two heaps of common labels, left by one of these removals from heap `n`,
    /// could make the value `candidate`: their labels would add to `candidate`'s label
    /// with the parity of `n - k`, that is to `label(candidate, n) ^ parity`.
    #[inline(always)]
    fn common_could_make(&self, candidate: u32, n: usize) -> bool {
        self.sums.contains(label(candidate, n) ^ self.parity)
    }

    /// Whether label `x` may join the common set: no two common labels add to it as an
    /// option's would (`x ^ parity`), so that a common candidate never needs a check. The
    /// label of value 0 with this parity is never common (with any other member it would
    /// make every member's check needed).
    fn fits(&self, x: u64) -> bool {
        x != self.parity && self.common_len < MAX_COMMON && !self.sums.contains(x ^ self.parity)
    }

    /// Adds label `x` to the common set.
    fn add_common(&mut self, x: u64, members: &[u64]) {
        self.common.insert(x);
        self.sums.insert(0);
        for &c in members {
            self.sums.insert(c ^ x);
        }
        self.common_len += 1;
    }

    /// The common labels, ascending.
    fn members(&self) -> Vec<u64> {
        self.common.iter().collect()
    }
}

/// The work a [`HeapEngine`] did: split options looked at, by way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeapStats {
    /// Splits looked at by the naive method.
    pub naive_splits: u64,
    /// Splits with a rare heap looked at.
    pub rare_splits: u64,
    /// Splits looked at to rule a candidate in or out.
    pub checked_splits: u64,
    /// Times the common set was chosen.
    pub choices: u64,
    /// Times the check found its candidate among the splits.
    pub check_hits: u64,
    /// Heaps computed by a wavefront of threads (see [`HeapEngine::set_threads`]).
    pub wavefront_heaps: u64,
}

impl HeapStats {
    /// Adds another thread's splits to this (its choices of the common sets are this one's
    /// again: not counted).
    fn add(&mut self, other: &HeapStats) {
        self.naive_splits += other.naive_splits;
        self.rare_splits += other.rare_splits;
        self.checked_splits += other.checked_splits;
        self.check_hits += other.check_hits;
        self.wavefront_heaps += other.wavefront_heaps;
    }
}

impl Stepper {
    /// A stepper in the same state for another thread, with no work counted yet.
    fn helper(&self) -> Stepper {
        Stepper {
            stats: HeapStats::default(),
            parallel: false,
            ..self.clone()
        }
    }

    /// The value of heap `n`, from the values in `g`: every value the heap's options read
    /// (heaps `n` and before, `n - lookahead` at most; see [`Stepper::lookahead`]).
    #[inline]
    fn step<T: Cell>(&mut self, g: &[T], n: usize) -> u32 {
        let before = self.stats.rare_splits + self.stats.checked_splits;
        let (looked_before, hits_before) = (self.stats.checked_splits, self.stats.check_hits);
        // Every value so far is below 64 * words (a power of two), and so is every nim-sum
        // of them: one register holds the marks while that is 64.
        let len = self.marks.words.len();
        let value = if len == 1 {
            self.step_with(g, n, &mut One(0))
        } else if len <= WIDE_WORDS {
            let mut wide = std::mem::take(&mut self.wide);
            wide[..len].fill(0);
            let words: &mut [u64; WIDE_WORDS] = (&mut wide[..]).try_into().expect("1024 words");
            let value = self.step_with(g, n, &mut Wide { words, len });
            self.wide = wide;
            value
        } else {
            let mut words = std::mem::take(&mut self.marks.words);
            words.fill(0);
            let value = self.step_with(g, n, &mut Many(&mut words));
            self.marks.words = words;
            value
        };
        if self.last_method == SplitMethod::RareCommon {
            self.judge_rare_common(
                n,
                self.stats.rare_splits + self.stats.checked_splits - before,
            );
        }
        self.recent_looked += self.stats.checked_splits - looked_before;
        self.recent_hits += self.stats.check_hits - hits_before;
        if n.is_multiple_of(RECENT) {
            self.recent_looked /= 2;
            self.recent_hits /= 2;
        }
        value
    }

    /// Notes how many of heap `n`'s splits the rare/common method looked at (`looked`):
    /// where it looks at nearly all of them heap after heap (the least missing value comes
    /// late among the splits of common heaps), the naive loop, which looks at each for less,
    /// takes the next heaps (an eighth as many again as there are), and then the method is
    /// tried again.
    fn judge_rare_common(&mut self, n: usize, looked: u64) {
        let splits: u64 = (self.classes.iter())
            .flat_map(|class| class.removals.iter())
            .filter(|&&k| k + 2 <= n)
            .map(|&k| ((n - k) / 2) as u64)
            .sum();
        if looked.saturating_mul(8) >= splits.saturating_mul(7) {
            self.futile += 1;
            if self.futile >= FUTILE_STEPS {
                self.futile = 0;
                self.naive_until = n + (n / 8).max(64);
            }
        } else {
            self.futile = 0;
        }
    }

    #[inline(always)]
    fn step_with<T: Cell, M: Marks>(&mut self, g: &[T], n: usize, marks: &mut M) -> u32 {
        for &(k, d) in &self.takes {
            if k > n {
                break;
            }
            let rest = n - k;
            if rest == 0 {
                if d & 1 != 0 {
                    marks.insert(0);
                }
            } else if d & 2 != 0 {
                marks.insert(g[rest].value());
            }
        }
        for &k in &self.triples {
            if k + 3 > n {
                break;
            }
            let rest = n - k;
            for a in 1..=rest / 3 {
                for b in a..=(rest - a) / 2 {
                    marks.insert(g[a].value() ^ g[b].value() ^ g[rest - a - b].value());
                }
            }
        }
        // Per class: whether some of its splits are still to be looked at (each class's
        // splits are all looked at when its rare heaps are not rare).
        let mut open = [false; 2];
        self.last_method = SplitMethod::Naive;
        // Labels below 32: every value so far below 16, and the naive loop vectorised.
        let small = self.counts.len() <= 32;
        for (c, class) in self.classes.iter().enumerate() {
            // Rare heaps are worth it while they are few: fewer still beside the vectorised
            // loop, which looks at a split in a fraction of a rare heap's time.
            let rare_share = if small { 16 } else { 3 };
            if class.rare.len() * rare_share >= n || n < self.naive_until {
                self.stats.naive_splits +=
                    naive_splits(g, n, &class.removals, small, self.parallel, marks);
            } else {
                open[c] = true;
                self.last_method = SplitMethod::RareCommon;
                for &k in &class.removals {
                    if k + 2 > n {
                        break;
                    }
                    let rest = n - k;
                    let cut = class.rare.partition_point(|&i| (i as usize) < rest);
                    for &i in &class.rare[..cut] {
                        let i = i as usize;
                        marks.insert(g[i].value() ^ g[rest - i].value());
                    }
                    self.stats.rare_splits += cut as u64;
                }
            }
        }
        let mut candidate = marks.mex();
        if !open.iter().any(|&o| o) {
            return candidate;
        }
        // Two common heaps might make the candidate: look at that class's splits, the small
        // heaps of every removal first, until no class could make the candidate from two
        // common heaps (or every split is looked at).
        let classes = &self.classes;
        let needed = |candidate: u32, open: &[bool; 2]| -> Option<usize> {
            (0..classes.len()).find(|&c| open[c] && classes[c].common_could_make(candidate, n))
        };
        // Each removal's splits looked at (`.1`) and marked (`.0`), from heap 1 (classes in
        // turn): the check looks for the candidate without marking (a vectorised search for
        // one nim-sum); where it finds it, the next least missing value is the least
        // unmarked value that no looked-at split makes, and those splits are searched again
        // for each value tried, or marked once that has happened often enough.
        let offsets = [0, classes.first().map_or(0, |class| class.removals.len())];
        let progress = &mut self.progress;
        progress.clear();
        progress.resize(
            classes.iter().map(|class| class.removals.len()).sum(),
            (1, 1),
        );
        // The next small heap of each class.
        let mut next = [1usize; 2];
        // Searches of the splits looked at and not marked, since they were last marked.
        let mut searches = 0;
        // Search rather than mark where the marks are past a register and the candidate has
        // been found rarely (a search per find costs about as much as marking the splits).
        let search = !M::IN_REGISTER && self.recent_looked >= SEARCH_SPAN * self.recent_hits;
        loop {
            // A block of each class that could make the candidate, in turn: a witness in
            // either rules it out.
            let mut looked = false;
            for c in 0..classes.len() {
                if !(open[c] && classes[c].common_could_make(candidate, n)) {
                    continue;
                }
                let removals = &classes[c].removals;
                let removals = &removals[..removals.partition_point(|&k| k + 2 <= n)];
                let start = next[c];
                // Every split of the class looked at: it rules nothing out any more.
                if removals.first().is_none_or(|&k| start > (n - k) / 2) {
                    open[c] = false;
                    continue;
                }
                looked = true;
                // In blocks of small heaps, every removal's in turn: a witness is usually
                // near the ends.
                let block = if removals.len() == 1 && classes.len() == 1 {
                    n
                } else {
                    128
                };
                next[c] = start + block;
                for (j, &k) in removals.iter().enumerate() {
                    let rest = n - k;
                    let end = (start + block).min(rest / 2 + 1);
                    // The splits `(a, rest - a)` for `a` from `start` to `end`.
                    if !search {
                        for a in start..end {
                            let x = g[a].value() ^ g[rest - a].value();
                            marks.insert(x);
                            if x == candidate {
                                self.stats.check_hits += 1;
                                candidate = marks.mex();
                                if needed(candidate, &open).is_none() {
                                    self.stats.checked_splits += (a - start + 1) as u64;
                                    return candidate;
                                }
                            }
                        }
                        self.stats.checked_splits += end.saturating_sub(start) as u64;
                        continue;
                    }
                    let mut a = start;
                    while a < end {
                        let (low, high) = (&g[a..end], &g[rest + 1 - end..=rest - a]);
                        let Some(i) = T::find_pair(low, high, candidate) else {
                            self.stats.checked_splits += (end - a) as u64;
                            progress[offsets[c] + j].1 = end;
                            break;
                        };
                        self.stats.checked_splits += (i + 1) as u64;
                        self.stats.check_hits += 1;
                        a += i + 1;
                        progress[offsets[c] + j].1 = a;
                        // The least missing value past the candidate: the least unmarked
                        // value that no split looked at and not marked makes (searched
                        // again for each such value, until that costs more than marking
                        // them once).
                        marks.insert(candidate);
                        candidate = loop {
                            let next = marks.mex();
                            if searches >= MAX_SEARCHES {
                                mark_looked(g, n, classes, progress, marks);
                                searches = 0;
                                break marks.mex();
                            }
                            searches += 1;
                            if !looked_at_makes(g, n, classes, progress, next) {
                                break next;
                            }
                            marks.insert(next);
                        };
                        if needed(candidate, &open).is_none() {
                            return candidate;
                        }
                    }
                }
            }
            if !looked {
                return candidate;
            }
        }
    }

    /// Notes the value just pushed for heap `g.len() - 1`; chooses the common sets again
    /// when the sequence has doubled.
    fn record<T: Cell>(&mut self, g: &[T], value: u32) {
        let n = g.len() - 1;
        let x = label(value, n);
        if x as usize >= self.counts.len() {
            self.counts.resize(x as usize + 1, 0);
        }
        let first = self.counts[x as usize] == 0;
        self.counts[x as usize] += 1;
        // Marks cover every nim-sum of values so far: a power of two, in words.
        let words = ((value as usize + 1).next_power_of_two() / 64).max(1);
        if words > self.marks.words.len() {
            self.marks.words.resize(words, 0);
        }
        if n > 0 {
            for class in &mut self.classes {
                if class.common.contains(x) {
                    continue;
                }
                // A label never seen joins the common set where it fits (no heap before it
                // was rare for it).
                if first && class.fits(x) {
                    let members = class.members();
                    class.add_common(x, &members);
                } else {
                    class.rare.push(n as u32);
                }
            }
        }
        if g.len() >= self.next_choice && !self.classes.is_empty() {
            self.next_choice = g.len().saturating_mul(2);
            self.stats.choices += 1;
            self.choose_common(g);
        }
    }

    /// Chooses each class's common labels again, and lists its rare heaps again: of two
    /// greedy choices, most frequent first, the one that leaves fewer heaps rare. One
    /// chooses labels (a value may be common at one parity of heap only); the other chooses
    /// values, each common at both parities, which suits a sequence whose values do not
    /// follow the parity of the heap.
    fn choose_common<T: Cell>(&mut self, g: &[T]) {
        let mut labels: Vec<u64> = (0..self.counts.len() as u64)
            .filter(|&x| self.counts[x as usize] > 0)
            .collect();
        labels.sort_by_key(|&x| (std::cmp::Reverse(self.counts[x as usize]), x));
        let mut values: Vec<u64> = labels.iter().map(|&x| x >> 1).collect();
        values.sort_unstable();
        values.dedup();
        let count = |v: u64| {
            let at = |x: u64| self.counts.get(x as usize).copied().unwrap_or(0);
            at(v << 1) + at(v << 1 | 1)
        };
        values.sort_by_key(|&v| (std::cmp::Reverse(count(v)), v));
        for class in &mut self.classes {
            let by_label = class.greedy(labels.iter().map(|&x| vec![x]));
            let by_value = class.greedy(
                (values.iter())
                    .filter(|&&v| v != 0)
                    .map(|&v| vec![v << 1, v << 1 | 1]),
            );
            let rare = |chosen: &SplitClass| -> Vec<u32> {
                (g.iter().enumerate().skip(1))
                    .filter(|&(i, v)| !chosen.common.contains(label(v.value(), i)))
                    .map(|(i, _)| i as u32)
                    .collect()
            };
            let (label_rare, value_rare) = (rare(&by_label), rare(&by_value));
            *class = match label_rare.len() <= value_rare.len() {
                true => SplitClass {
                    rare: label_rare,
                    ..by_label
                },
                false => SplitClass {
                    rare: value_rare,
                    ..by_value
                },
            };
        }
    }
}

impl SplitClass {
    /// This class with a common set chosen greedily from `groups` in order: a group joins
    /// when each of its labels fits (the labels of one value, at both parities, fit
    /// together when each does: their nim-sum is a label of value 0, never common).
    fn greedy(&self, groups: impl Iterator<Item = Vec<u64>>) -> SplitClass {
        let mut chosen = SplitClass {
            parity: self.parity,
            removals: self.removals.clone(),
            common: Bits::default(),
            sums: Bits::default(),
            common_len: 0,
            rare: Vec::new(),
        };
        let mut members = Vec::new();
        for group in groups {
            if group.len() + chosen.common_len > MAX_COMMON
                || !group.iter().all(|&x| chosen.fits(x))
            {
                continue;
            }
            for x in group {
                chosen.add_common(x, &members);
                members.push(x);
            }
        }
        chosen
    }
}

/// The splits of heap `n` that the check looked at and did not mark yet, as pairs of
/// slices `(low, high)` whose pairs are `low[i]` and `high[high.len() - 1 - i]` (`progress`:
/// each removal's, classes in turn, marked to `.0` and looked at to `.1`).
fn looked_unmarked<'a, T: Cell>(
    g: &'a [T],
    n: usize,
    classes: &'a [SplitClass],
    progress: &'a [(usize, usize)],
) -> impl Iterator<Item = (&'a [T], &'a [T])> {
    let removals = classes.iter().flat_map(|class| class.removals.iter());
    (removals.zip(progress)).filter_map(move |(&k, &(marked, looked))| {
        if k + 2 > n || marked >= looked {
            return None;
        }
        let rest = n - k;
        Some((&g[marked..looked], &g[rest + 1 - looked..=rest - marked]))
    })
}

/// Marks the splits the check looked at and did not mark yet (see [`looked_unmarked`]).
fn mark_looked<T: Cell, M: Marks>(
    g: &[T],
    n: usize,
    classes: &[SplitClass],
    progress: &mut [(usize, usize)],
    marks: &mut M,
) {
    for (low, high) in looked_unmarked(g, n, classes, progress) {
        for (x, y) in low.iter().zip(high.iter().rev()) {
            marks.insert(x.value() ^ y.value());
        }
    }
    for entry in progress.iter_mut() {
        entry.0 = entry.0.max(entry.1);
    }
}

/// Whether a split the check looked at and did not mark has the nim-sum `value`.
fn looked_at_makes<T: Cell>(
    g: &[T],
    n: usize,
    classes: &[SplitClass],
    progress: &[(usize, usize)],
    value: u32,
) -> bool {
    looked_unmarked(g, n, classes, progress)
        .any(|(low, high)| T::find_pair(low, high, value).is_some())
}

/// The check searches for its candidate (rather than marking each split it looks at) where
/// it has lately looked at this many splits or more for each time it found it: a search
/// looks at many splits at once, but each find costs a search again.
const SEARCH_SPAN: u64 = 256;

/// Heaps between halvings of the check's recent counts.
const RECENT: usize = 1 << 14;

/// How many times the check searches the splits it looked at for a least missing value
/// before it marks them: a search takes 16 or 32 splits at a time, a mark one.
const MAX_SEARCHES: u32 = 16;

/// Marks the value of every split of heap `n` by removals `removals` (ascending);
/// returns the number of splits. `small`: every value so far is below 16 (bytes then take
/// the vectorised loop). `parallel`: in a pool of threads, which share a long loop's splits
/// (each marks its own, then they are merged: the marks, and so the value, are the same).
#[inline(always)]
fn naive_splits<T: Cell, M: Marks>(
    g: &[T],
    n: usize,
    removals: &[usize],
    small: bool,
    parallel: bool,
    marks: &mut M,
) -> u64 {
    let mut count = 0;
    for &k in removals {
        if k + 2 > n {
            break;
        }
        let rest = n - k;
        // Pairs `a + (rest - a)` for `a` from 1 while `rest - a > a`; with `rest` even, the
        // middle heap with itself (nim-sum 0) is the one more.
        let (low, high) = g[..rest].split_at(rest / 2 + 1);
        let low = &low[1..=high.len()];
        let shared = if small {
            PARALLEL_SMALL_SPLITS
        } else {
            PARALLEL_SPLITS
        };
        if parallel && low.len() >= shared {
            // `low[i]` pairs with `high[len - 1 - i]`: the first half of `low` with the last
            // of `high`.
            let half = low.len() / 2;
            let (low_first, low_last) = low.split_at(half);
            let (high_first, high_last) = high.split_at(high.len() - half);
            let mut other = vec![0u64; marks.words()];
            rayon::join(
                || mark_pairs(low_first, high_last, small, marks),
                || mark_pairs(low_last, high_first, small, &mut Many(&mut other)),
            );
            marks.merge(&other);
        } else {
            mark_pairs(low, high, small, marks);
        }
        if rest.is_multiple_of(2) {
            marks.insert(0);
        }
        count += (rest / 2) as u64;
    }
    count
}

/// Splits a heap's naive loop shares between threads from this many on: a split costs a
/// few nanoseconds, a handover a few microseconds.
/// (Tests share short loops too.)
const PARALLEL_SPLITS: usize = if cfg!(test) { 64 } else { 1 << 13 };

/// [`PARALLEL_SPLITS`] for the vectorised loop of byte values, 32 splits at a time.
const PARALLEL_SMALL_SPLITS: usize = if cfg!(test) { 100 } else { 1 << 16 };

/// Marks `low[i] ^ high[len - 1 - i]` for every `i` (slices of one length).
#[inline(always)]
fn mark_pairs<T: Cell, M: Marks>(low: &[T], high: &[T], small: bool, marks: &mut M) {
    match (T::bytes(low), T::bytes(high)) {
        (Some(low), Some(high)) if small => {
            marks.insert_low(u64::from(heap_simd::reversed_xor_marks(low, high)));
        }
        _ => {
            for (x, y) in low.iter().zip(high.iter().rev()) {
                marks.insert(x.value() ^ y.value());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::naive_sequence;

    /// Each code's engine values to heap `n` equal the definition's.
    fn assert_agree(codes: &[&str], n: usize) {
        for code in codes {
            let parsed = HeapCode::parse(code).unwrap();
            assert_eq!(
                engine_sequence(code, n),
                naive_sequence(&parsed, n),
                "{code}"
            );
        }
    }

    /// Engines whose naive loops are shared between threads compute the values of one
    /// thread, which are the definition's: codes whose heaps take the naive loop (values
    /// past a byte, and below 16 where the loop is vectorised) and the rare/common method.
    #[test]
    fn threads_share_the_naive_loop_as_one_thread_computes_it() {
        let mut naive = Vec::new();
        // Codes whose heaps read the heap just before (no wavefront: see below).
        for code in ["0.76", "4.7", "0.6", "0.37", "0.7"] {
            let parsed = HeapCode::parse(code).expect("a code");
            assert_eq!(HeapEngine::new(parsed.clone()).stepper.lookahead, 1);
            let n = 2500;
            let mut alone = HeapEngine::new(parsed.clone());
            alone.extend_to(n);
            for threads in [2, 3] {
                let mut shared = HeapEngine::new(parsed.clone());
                shared.set_threads(threads);
                // In steps, as a period search or a table asks for them.
                shared.extend_to(n / 3);
                shared.extend_to(n);
                assert_eq!(shared.values().to_vec(), alone.values().to_vec(), "{code}");
                assert_eq!(
                    shared.stats().naive_splits,
                    alone.stats().naive_splits,
                    "{code}"
                );
            }
            assert_eq!(
                alone.values().to_vec(),
                naive_sequence(&parsed, n),
                "{code}"
            );
            naive.push((code, alone.stats().naive_splits));
        }
        // Long naive loops were shared: the test is not only of the rare/common method.
        let long = naive
            .iter()
            .filter(|&&(_, splits)| splits > 500_000)
            .count();
        assert!(long >= 2, "{naive:?}");
    }

    fn engine_sequence(code: &str, n: usize) -> Vec<u32> {
        let mut e = HeapEngine::new(HeapCode::parse(code).expect("a code"));
        e.extend_to(n);
        e.values().to_vec()
    }

    /// Where a heap's options lie `lookahead` heaps below it or more, threads compute
    /// heaps at once, each with its own stepper: the values are the definition's, and the
    /// wavefront did run (tests time no block: it runs wherever it can).
    #[test]
    fn a_wavefront_of_threads_computes_the_values_one_thread_does() {
        for (code, lookahead) in [
            ("0.14", 3),
            ("0.137", 2),
            ("0.106", 3),
            ("0.156", 3),
            ("0.04", 3),
            ("0.8f", 2),
            ("0.0404", 3),
        ] {
            let parsed = HeapCode::parse(code).expect("a code");
            assert_eq!(
                HeapEngine::new(parsed.clone()).stepper.lookahead,
                lookahead,
                "{code}"
            );
            let n = 1000;
            let expected = naive_sequence(&parsed, n);
            for threads in [2, 3] {
                let mut engine = HeapEngine::new(parsed.clone());
                engine.set_threads(threads);
                // In steps, as a period search or a table asks for them.
                engine.extend_to(n / 3);
                engine.extend_to(n);
                assert_eq!(
                    engine.values().to_vec(),
                    expected,
                    "{code} on {threads} threads"
                );
                assert!(engine.stats().wavefront_heaps > n as u64 / 2, "{code}");
            }
        }
    }

    /// A wavefront whose value does not fit the sequence's cells stops there, and the
    /// engine widens its cells and goes on: 0.cccc's values pass 255 at heap 513.
    #[test]
    fn a_wavefront_stops_where_values_outgrow_their_cells() {
        let parsed = HeapCode::parse("0.cccc").expect("a code");
        let n = 560;
        let expected = naive_sequence(&parsed, n);
        assert!(expected.iter().any(|&v| v > 255), "the values stay bytes");
        let mut engine = HeapEngine::new(parsed);
        engine.set_threads(2);
        engine.extend_to(n);
        assert_eq!(engine.values().to_vec(), expected);
        assert!(engine.stats().wavefront_heaps > 0);
    }

    #[test]
    fn codes_parse_with_d0_and_hexadecimal_digits() {
        assert_eq!(HeapCode::parse("0.77").unwrap().digits(), [0, 7, 7]);
        assert_eq!(HeapCode::parse(".156").unwrap().digits(), [0, 1, 5, 6]);
        assert_eq!(HeapCode::parse("4.070").unwrap().digits(), [4, 0, 7]);
        assert_eq!(HeapCode::parse("0.8F").unwrap().digits(), [0, 8, 15]);
        assert_eq!(HeapCode::parse("4.07").unwrap().to_string(), "4.07");
        assert!(HeapCode::parse("1.07")
            .unwrap_err()
            .contains("0, 4, 8 or c"));
        assert!(HeapCode::parse("077").is_err());
        assert!(HeapCode::parse("0.").is_err());
        assert!(HeapCode::parse("0.7g").unwrap_err().contains("`g`"));
        let bound = HeapCode::parse("0.8").unwrap().bound();
        assert_eq!((bound.max_removal, bound.max_parts), (1, 3));
    }

    #[test]
    fn kayles_and_dawson() {
        // OEIS A002186 and A002187.
        assert_eq!(
            engine_sequence("0.77", 20),
            [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1]
        );
        assert_eq!(
            engine_sequence("0.07", 20),
            [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3]
        );
    }

    #[test]
    fn small_values_take_the_vectorised_naive_loop_and_agree() {
        // Dawson's Kayles: values below 16, no useful common set. Its period 34 (Guy and
        // Smith; Winning Ways, ch. 4) starts after its last exceptional value, heap 52
        // (Dawson's chess 0.137's 51, one heap up: OEIS A002187).
        let code = HeapCode::parse("0.07").unwrap();
        let mut e = HeapEngine::new(code.clone());
        e.extend_to(5000);
        assert_eq!(e.last_method(), SplitMethod::Naive);
        assert_eq!(e.values().to_vec(), naive_sequence(&code, 5000));
        let period = e.proven_period().expect("0.07 is periodic");
        assert_eq!((period.preperiod, period.period), (53, 34));
    }

    #[test]
    fn d0_and_hexadecimal_codes_agree_with_the_definition() {
        for code in ["4.1", "4.07", "4.7", "8.1", "0.8", "c.3", "0.f", "4.156"] {
            let parsed = HeapCode::parse(code).unwrap();
            assert_eq!(
                engine_sequence(code, 300),
                naive_sequence(&parsed, 300),
                "{code}"
            );
        }
    }

    #[test]
    fn the_rare_common_split_is_used_and_agrees() {
        let code = HeapCode::parse("0.156").unwrap();
        let mut e = HeapEngine::new(code.clone());
        e.extend_to(8000);
        assert_eq!(e.last_method(), SplitMethod::RareCommon);
        assert!(e.rare_heaps() < 500, "{} rare heaps", e.rare_heaps());
        assert_eq!(e.values().to_vec(), naive_sequence(&code, 8000));
        let period = e.proven_period().expect("0.156 is periodic");
        assert_eq!((period.preperiod, period.period), (3479, 349));
    }

    #[test]
    fn a_rare_common_split_that_looks_at_every_split_gives_way_to_the_naive_loop() {
        // 0.126's least missing value comes late among the splits of common heaps: the
        // rare/common method looks at nearly every split, and the naive loop takes over.
        let code = HeapCode::parse("0.126").unwrap();
        let mut e = HeapEngine::new(code.clone());
        e.extend_to(3000);
        let stats = e.stats();
        assert!(stats.rare_splits > 0, "{stats:?}");
        assert!(
            stats.naive_splits > 4 * (stats.rare_splits + stats.checked_splits),
            "{stats:?}"
        );
        assert_eq!(e.values().to_vec(), naive_sequence(&code, 3000));
        // (Codes whose sparse split pays keep it: `the_rare_common_split_is_used_and_agrees`.)
        assert_agree(&["0.007", "0.114", "0.342", "0.764"], 4000);
    }

    #[test]
    fn labels_with_the_heap_parity_keep_0_106_sparse() {
        // 0.106's values follow the parity of the heap: as values alone nearly every heap
        // is rare (the naive method, 180 times slower at 10^6); as labels, a handful.
        let code = HeapCode::parse("0.106").unwrap();
        let mut e = HeapEngine::new(code.clone());
        e.extend_to(20_000);
        assert_eq!(e.last_method(), SplitMethod::RareCommon);
        assert!(e.rare_heaps() < 100, "{} rare heaps", e.rare_heaps());
        assert_eq!(e.values().to_vec(), naive_sequence(&code, 20_000));
        // Removals of both parities split (two classes, each with its own common set).
        assert_agree(&["0.66", "0.4444", "0.1646", "0.0477"], 6000);
    }

    #[test]
    fn the_check_searches_splits_and_marks_them_late_as_defined() {
        // Values past 63 take the search (marks past a register): 0.146 passes 255 (values
        // two bytes each), 0.36 stays within a byte. 0.156's values stay below 64: its check
        // marks every split it looks at.
        for (code, n, width, wide) in [
            ("0.146", 6000, 2, true),
            ("0.36", 5000, 1, true),
            ("0.156", 4000, 1, false),
        ] {
            let code = HeapCode::parse(code).unwrap();
            let mut e = HeapEngine::new(code.clone());
            e.extend_to(n);
            assert_eq!(e.values().width(), width, "{code}");
            let values = e.values().to_vec();
            assert_eq!(values.iter().any(|&v| v >= 64), wide, "{code}");
            assert!(e.stats().checked_splits > 0, "{code}: {:?}", e.stats());
            assert_eq!(values, naive_sequence(&code, n), "{code}");
        }
    }

    #[test]
    fn values_widen_past_a_byte() {
        // Removing 1 to m tokens: g(n) = n mod (m + 1).
        let mut e = HeapEngine::new(HeapCode::parse("0.333333333333").unwrap());
        e.extend_to(3000);
        assert_eq!(e.values().width(), 1);
        let code = HeapCode::parse(&format!("0.{}", "3".repeat(300))).unwrap();
        let mut e = HeapEngine::new(code.clone());
        e.extend_to(1000);
        assert_eq!(e.values().width(), 2);
        // Values from 64 to 127: marks of two words.
        let code_100 = HeapCode::parse(&format!("0.{}", "3".repeat(100))).unwrap();
        assert_eq!(
            engine_sequence(&code_100.to_string(), 600),
            naive_sequence(&code_100, 600)
        );
        assert_eq!(e.get(300), Some(300));
        assert_eq!(e.values().to_vec(), naive_sequence(&code, 1000));
    }

    #[test]
    fn kayles_answers_any_heap_from_its_proven_period() {
        let mut e = HeapEngine::new(HeapCode::parse("0.77").unwrap());
        let (value, period) = e
            .value(1_000_000_000_000_000_000, 1 << 20)
            .expect("a value");
        let period = period.expect("from the period");
        assert_eq!((period.preperiod, period.period), (71, 12));
        // 10^18 = 71 + 12q + r with r = (10^18 - 71) % 12 = 5: g(76) = 1.
        assert_eq!(value, 1);
        assert!(e.values().len() < 4096);
        // 0.007 has no known period: none is guessed.
        let mut e = HeapEngine::new(HeapCode::parse("0.007").unwrap());
        assert_eq!(e.value(u64::MAX / 2, 1 << 14), None);
    }
}
