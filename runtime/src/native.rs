//! Helpers that generated (native) solvers call: checked integer arithmetic with the
//! interpreter's error messages, finite sets, ranges, and value display.

use crate::rules::RuleError;
use std::fmt::Write as _;

mod datum;
mod set;
pub use datum::{datum_error, Datum, FromDatum, PositionDatum};
pub use set::{
    code_bits_of, tuple_codes, BitIter, BitStore, CodeBits, CodeBuilder, CodeIntoIter, CodeIter,
    CodeStore, Elem, IntBuilder, IntIntoIter, IntIter, IntStore, Set, SetBuilder, Store, VecStore,
    CODE_WORDS, INT_CODES, MAX_CODES,
};

/// An error while evaluating generated code: a message and, where known, `line:col`.
#[cold]
#[inline(never)]
pub fn error(message: impl Into<String>, at: &str) -> RuleError {
    let message = message.into();
    if at.is_empty() {
        RuleError::new(message)
    } else {
        RuleError::new(format!("{message} (at {at})"))
    }
}

/// Why checked integer arithmetic failed. Its text is the message both back ends give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithError {
    /// The result does not fit in 64 bits.
    Overflow,
    /// `a - b` on naturals with `b > a`.
    Underflow(i64, i64),
    /// `a / 0` or `a % 0` (the operator).
    DivisionByZero(i64, char),
}

impl std::fmt::Display for ArithError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArithError::Overflow => f.write_str("integer overflow"),
            ArithError::Underflow(a, b) => {
                write!(f, "natural underflow: {a} - {b} is negative")
            }
            ArithError::DivisionByZero(a, op) => write!(f, "division by zero: {a} {op} 0"),
        }
    }
}

/// The language's integer arithmetic, checked: what both back ends compute.
pub mod checked {
    use super::ArithError;

    /// `a + b`.
    #[inline]
    pub fn add(a: i64, b: i64) -> Result<i64, ArithError> {
        a.checked_add(b).ok_or(ArithError::Overflow)
    }

    /// `a - b` on integers.
    #[inline]
    pub fn sub(a: i64, b: i64) -> Result<i64, ArithError> {
        a.checked_sub(b).ok_or(ArithError::Overflow)
    }

    /// `a - b` on naturals: negative is an error.
    #[inline]
    pub fn nat_sub(a: i64, b: i64) -> Result<i64, ArithError> {
        if b > a {
            return Err(ArithError::Underflow(a, b));
        }
        Ok(a - b)
    }

    /// `a * b`.
    #[inline]
    pub fn mul(a: i64, b: i64) -> Result<i64, ArithError> {
        a.checked_mul(b).ok_or(ArithError::Overflow)
    }

    /// Floor division (the quotient of the non-negative remainder).
    #[inline]
    pub fn div(a: i64, b: i64) -> Result<i64, ArithError> {
        if b == 0 {
            return Err(ArithError::DivisionByZero(a, '/'));
        }
        // `i64::MIN / -1` is the one quotient that does not fit.
        a.checked_div_euclid(b).ok_or(ArithError::Overflow)
    }

    /// The non-negative remainder.
    #[inline]
    pub fn rem(a: i64, b: i64) -> Result<i64, ArithError> {
        if b == 0 {
            return Err(ArithError::DivisionByZero(a, '%'));
        }
        // `i64::MIN % -1` overflows in the machine, but the remainder is 0.
        Ok(a.checked_rem_euclid(b).unwrap_or(0))
    }

    /// `-a`.
    #[inline]
    pub fn neg(a: i64) -> Result<i64, ArithError> {
        a.checked_neg().ok_or(ArithError::Overflow)
    }

    /// `abs(a)`.
    #[inline]
    pub fn abs(a: i64) -> Result<i64, ArithError> {
        a.checked_abs().ok_or(ArithError::Overflow)
    }
}

#[cold]
#[inline(never)]
fn arith_error(e: ArithError, at: &str) -> RuleError {
    error(e.to_string(), at)
}

/// Generated code's arithmetic: [`checked`] with the error placed at `at`.
macro_rules! located {
    ($($(#[$doc:meta])* $name:ident($($arg:ident),*);)*) => {$(
        $(#[$doc])*
        #[inline]
        pub fn $name($($arg: i64,)* at: &str) -> Result<i64, RuleError> {
            match checked::$name($($arg),*) {
                Ok(v) => Ok(v),
                Err(e) => Err(arith_error(e, at)),
            }
        }
    )*};
}

located! {
    /// `a + b`, failing on overflow.
    add(a, b);
    /// `a - b` on integers, failing on overflow.
    sub(a, b);
    /// `a - b` on naturals, failing when negative.
    nat_sub(a, b);
    /// `a * b`, failing on overflow.
    mul(a, b);
    /// Floor division, failing on zero and on overflow.
    div(a, b);
    /// Non-negative remainder, failing on zero.
    rem(a, b);
    /// `-a`, failing on overflow.
    neg(a);
    /// `abs(a)`, failing on overflow.
    abs(a);
}

/// The message for a field value outside its declared type.
pub fn field_message(field: &str, game: &str, ty: &str, value: &str) -> String {
    format!("field `{field}` of {game} would be {value}, outside its type {ty}")
}

/// The message for a function's argument outside its parameter's type.
pub fn argument_message(param: &str, function: &str, ty: &str, value: &str) -> String {
    format!("argument `{param}` of `{function}` would be {value}, outside its type {ty}")
}

/// The error for a function's argument outside its parameter's type (out of line).
#[cold]
#[inline(never)]
pub fn argument_error<T: Show + ?Sized>(
    param: &str,
    function: &str,
    ty: &str,
    value: &T,
) -> RuleError {
    RuleError::new(argument_message(param, function, ty, &value.shown()))
}

/// The message for a variant's payload value (number `index`, from 1) outside its type.
pub fn payload_message(index: usize, tag: &str, ty: &str, value: &str) -> String {
    format!("value {index} of {tag} would be {value}, outside its type {ty}")
}

/// The error for a field value outside its declared type (kept out of line, so that the
/// checks that call it stay small enough to inline).
#[cold]
#[inline(never)]
pub fn field_error<T: Show + ?Sized>(
    field: &str,
    game: &str,
    ty: &str,
    value: &T,
    at: &str,
) -> RuleError {
    error(field_message(field, game, ty, &value.shown()), at)
}

/// The error for an element of a set field that native code packs by its domain (the few
/// values the compiler found its elements take) and that is none of them.
#[cold]
#[inline(never)]
pub fn domain_error<T: Show + ?Sized>(field: &str, game: &str, value: &T, at: &str) -> RuleError {
    error(
        format!(
            "{} in field `{field}` of `{game}` is none of the values the compiler found its \
             elements take, the only ones native code keeps; run this position with the \
             interpreter (`--interp`)",
            value.shown()
        ),
        at,
    )
}

/// The error for a variant's payload value outside its type.
#[cold]
#[inline(never)]
pub fn payload_error<T: Show + ?Sized>(
    index: usize,
    tag: &str,
    ty: &str,
    value: &T,
    at: &str,
) -> RuleError {
    error(payload_message(index, tag, ty, &value.shown()), at)
}

/// An integer range `lo..=hi`, empty when `hi < lo` (what `..` and `..=` produce). Both
/// ends are included so that a range may reach `i64::MAX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    lo: i64,
    hi: i64,
}

impl Range {
    /// `lo..=hi`.
    #[inline]
    pub fn inclusive(lo: i64, hi: i64) -> Range {
        Range { lo, hi }
    }

    /// `lo..hi`.
    #[inline]
    pub fn exclusive(lo: i64, hi: i64) -> Range {
        match hi.checked_sub(1) {
            Some(hi) => Range { lo, hi },
            None => Range { lo: 0, hi: -1 },
        }
    }

    /// How many elements (saturating at `u64::MAX` for the whole of `i64`); the interpreter
    /// counts its ranges with this too.
    #[inline]
    pub fn len(self) -> u64 {
        if self.lo <= self.hi {
            (self.hi.wrapping_sub(self.lo) as u64).saturating_add(1)
        } else {
            0
        }
    }

    /// Whether it has no elements.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.hi < self.lo
    }

    /// Its elements in increasing order.
    #[inline]
    pub fn iter(self) -> RangeIter {
        RangeIter {
            next: self.lo,
            left: self.len(),
        }
    }

    /// Its elements as a set.
    pub fn to_set(self) -> Set<i64> {
        self.iter().collect()
    }
}

/// The elements of a [`Range`]: a countdown, so that a range ending at `i64::MAX` ends
/// and the loop stays as simple as an exclusive one.
#[derive(Clone, Debug)]
pub struct RangeIter {
    next: i64,
    left: u64,
}

impl Iterator for RangeIter {
    type Item = i64;
    #[inline]
    fn next(&mut self) -> Option<i64> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let x = self.next;
        self.next = x.wrapping_add(1);
        Some(x)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.left).unwrap_or(usize::MAX);
        (n, usize::try_from(self.left).ok())
    }
}

/// Something a binder can range over and `in` can test: a range, a set or a list.
pub trait Domain<T> {
    /// Iterates by reference.
    type Iter<'a>: Iterator<Item = T>
    where
        Self: 'a;
    /// Iterates by value.
    type IntoIter: Iterator<Item = T>;
    /// The elements, in order (increasing for ranges and sets, list order for lists).
    fn elements(&self) -> Self::Iter<'_>;
    /// The elements, in order, consuming the domain (no copy for a set or a list).
    fn into_elements(self) -> Self::IntoIter;
    /// Membership.
    fn has(&self, x: &T) -> bool;
    /// The domain as a set (for set algebra, equality and storage).
    fn to_set(&self) -> Set<T>
    where
        T: Elem;
    /// The number of elements (`len`).
    fn count(&self) -> i64;
    /// The smallest (`largest == false`) or largest element, `None` when empty.
    fn extreme(&self, largest: bool) -> Option<T>;
    /// `(first, last)` where the elements are the numbers `first, first + 1, ..., last` in
    /// that order (a range that is not empty); `None` where that is not known.
    fn consecutive(&self) -> Option<(i64, i64)> {
        None
    }
}

impl Domain<i64> for Range {
    type Iter<'a> = RangeIter;
    type IntoIter = RangeIter;
    #[inline]
    fn elements(&self) -> RangeIter {
        self.iter()
    }
    #[inline]
    fn into_elements(self) -> RangeIter {
        self.iter()
    }
    #[inline]
    fn has(&self, x: &i64) -> bool {
        self.lo <= *x && *x <= self.hi
    }
    fn to_set(&self) -> Set<i64> {
        Range::to_set(*self)
    }
    fn count(&self) -> i64 {
        i64::try_from(self.len()).unwrap_or(i64::MAX)
    }
    fn extreme(&self, largest: bool) -> Option<i64> {
        match (self.lo <= self.hi, largest) {
            (false, _) => None,
            (true, false) => Some(self.lo),
            (true, true) => Some(self.hi),
        }
    }
    fn consecutive(&self) -> Option<(i64, i64)> {
        (self.lo <= self.hi).then_some((self.lo, self.hi))
    }
}

impl<T: Elem> Domain<T> for Vec<T> {
    type Iter<'a>
        = std::iter::Cloned<std::slice::Iter<'a, T>>
    where
        T: 'a;
    type IntoIter = std::vec::IntoIter<T>;
    fn elements(&self) -> Self::Iter<'_> {
        self.iter().cloned()
    }
    fn into_elements(self) -> Self::IntoIter {
        self.into_iter()
    }
    fn has(&self, x: &T) -> bool {
        self.contains(x)
    }
    fn to_set(&self) -> Set<T> {
        self.iter().cloned().collect()
    }
    fn count(&self) -> i64 {
        self.len() as i64
    }
    fn extreme(&self, largest: bool) -> Option<T> {
        if largest {
            self.iter().max().cloned()
        } else {
            self.iter().min().cloned()
        }
    }
}

/// `closure(seed, x => next)`: every element reached from `seed` by `next`, each visited
/// once, in the reference interpreter's order (a stack, seeded in increasing order), so that
/// a failing `next` fails at the same element. A set of values with codes keeps what it has
/// seen as bits; other sets in a search tree.
pub fn closure<T: Elem, N: IntoIterator<Item = T>>(
    seed: Set<T>,
    mut next: impl FnMut(T) -> Result<N, RuleError>,
) -> Result<Set<T>, RuleError> {
    let work: Vec<T> = seed.iter().collect();
    if <T::Store as Store<T>>::BITS {
        let mut seen = seed;
        let insert = |seen: &mut Set<T>, y: &T| {
            let new = !seen.contains(y);
            if new {
                *seen = seen.with(y.clone());
            }
            new
        };
        visit(work, &mut seen, insert, &mut next)?;
        return Ok(seen);
    }
    let mut seen: std::collections::BTreeSet<T> = work.iter().cloned().collect();
    visit(work, &mut seen, |seen, y| seen.insert(y.clone()), &mut next)?;
    Ok(seen.into_iter().collect())
}

/// `components(whole, x => next)`: the classes of the least equivalence on `whole` that
/// relates each `x` to the elements of `next(x)` in `whole`, ordered by their least
/// elements. `next` is asked of each element once, in the reference interpreter's order:
/// part by part from the least element not yet in one, then wave by wave through what the
/// steps reach, each wave in increasing order (so a failing `next` fails at the same
/// element). A step into an earlier part joins it to the part being found.
pub fn components<T: Elem>(
    whole: &Set<T>,
    mut next: impl FnMut(T) -> Result<Set<T>, RuleError>,
) -> Result<Vec<Set<T>>, RuleError> {
    if let Some(all) = whole.code_bits() {
        return components_of_codes(all, next);
    }
    let mut parts: Vec<Set<T>> = Vec::new();
    let mut left = whole.clone();
    loop {
        let least = left.iter().next();
        let Some(x) = least else {
            break;
        };
        left = left.without(x.clone());
        let mut part = Set::default().with(x);
        let mut wave = part.clone();
        loop {
            let mut reached = Set::default();
            for y in wave.iter() {
                reached = reached.union(&next(y)?);
            }
            let reached = reached.inter(whole);
            let new = reached.inter(&left);
            if !reached.diff(&part).diff(&new).is_empty() {
                // Steps into earlier parts: they are one with this part.
                parts.retain(|p| {
                    let apart = p.inter(&reached).is_empty();
                    if !apart {
                        part = part.union(p);
                    }
                    apart
                });
            }
            if new.is_empty() {
                break;
            }
            part = part.union(&new);
            left = left.diff(&new);
            wave = new;
        }
        parts.push(part);
    }
    parts.sort_by_key(|part| part.iter().next());
    Ok(parts)
}

/// The steps of [`components`] as a table of code words: where `next` is a function
/// computed for every element while building (a board's neighbours), the elements it is
/// defined at (`domain`) and, by each one's code, the codes of its step.
#[derive(Clone, Debug)]
pub struct CodeSteps {
    domain: [u64; CODE_WORDS],
    steps: Vec<[u64; CODE_WORDS]>,
}

impl CodeSteps {
    /// The table of the given `(code, step)` pairs; the domain is their codes.
    pub fn new(entries: &[(u32, [u64; CODE_WORDS])]) -> CodeSteps {
        let mut domain = [0u64; CODE_WORDS];
        let mut steps = vec![[0u64; CODE_WORDS]; 64 * CODE_WORDS];
        for &(code, step) in entries {
            domain[code as usize / 64] |= 1 << (code % 64);
            steps[code as usize] = step;
        }
        CodeSteps { domain, steps }
    }
}

/// [`components`] where `next` is the function `steps` tabulates: a set of codes within the
/// table's domain is divided by the table, one load and `or` per element; any other set by
/// `next`. The two are one function there, so the parts are the same.
pub fn components_by_codes<T: Elem>(
    whole: &Set<T>,
    steps: &CodeSteps,
    next: impl FnMut(T) -> Result<Set<T>, RuleError>,
) -> Result<Vec<Set<T>>, RuleError> {
    match whole.code_bits() {
        Some(all) if (all.iter().zip(&steps.domain)).all(|(a, d)| a & !d == 0) => {
            components_with_codes(all, |code| Ok(steps.steps[code as usize]))
        }
        _ => components(whole, next),
    }
}

/// The steps of [`components`] on a set of a board's cells kept by rank (row by row, as
/// a position's field): by each cell's rank, the ranks its step joins it to, either way.
#[derive(Clone, Debug)]
pub struct RankSteps {
    steps: Vec<u128>,
    /// Where the table is a board's grid, its shape: a part then spreads by shifts.
    grid: Option<Grid>,
}

impl RankSteps {
    /// The table: entry `r` the ranks joined to rank `r` (each symmetric: `s` in entry `r`
    /// when `r` is in entry `s`).
    pub fn new(steps: &[u128]) -> RankSteps {
        RankSteps {
            steps: steps.to_vec(),
            grid: Grid::of(steps),
        }
    }
}

/// A table that joins each cell of a `rows × cols` board, ranked row by row, to the cells
/// beside, above and below it, and to no other: the ranks one step from a set of them are
/// four shifts of its bits (the side shifts kept off the next row by masks), the same set
/// the table's entries give, whatever the set.
#[derive(Clone, Copy, Debug)]
struct Grid {
    cols: u32,
    /// The ranks not in the first column (a shift one rank up lands there only).
    not_first: u128,
    /// The ranks not in the last column.
    not_last: u128,
}

impl Grid {
    /// The grid `steps` is, if it is one (of any width that divides its size).
    fn of(steps: &[u128]) -> Option<Grid> {
        let n = steps.len();
        if n == 0 || n > 128 {
            return None;
        }
        let board = u128::MAX >> (128 - n);
        (1..=n as u32)
            .filter(|&cols| n.is_multiple_of(cols as usize))
            .map(|cols| Grid::of_width(n, cols))
            .find(|grid| (0..n).all(|r| grid.spread(1 << r) & board == steps[r]))
    }

    /// The grid of `n` ranks, `cols` a row.
    fn of_width(n: usize, cols: u32) -> Grid {
        let ranks_where = |keep: &dyn Fn(u32) -> bool| {
            (0..n as u32)
                .filter(|&r| keep(r % cols))
                .fold(0, |m, r| m | 1 << r)
        };
        Grid {
            cols,
            not_first: ranks_where(&|column| column != 0),
            not_last: ranks_where(&|column| column != cols - 1),
        }
    }

    /// The ranks one step from those of `w` (and perhaps ranks past the board's).
    #[inline(always)]
    fn spread(&self, w: u128) -> u128 {
        (w << 1 & self.not_first)
            | (w >> 1 & self.not_last)
            | w.checked_shl(self.cols).unwrap_or(0)
            | w.checked_shr(self.cols).unwrap_or(0)
    }
}

/// The parts of the set of ranks `whole` that `steps` join, in the order of their least
/// ranks, each given to `part` as it is found (as [`components`] finds them).
#[inline]
pub fn rank_components(whole: u128, steps: &RankSteps, mut part: impl FnMut(u128)) {
    let found = try_rank_components(whole, steps, |p| {
        part(p);
        Ok::<(), std::convert::Infallible>(())
    });
    match found {
        Ok(()) => {}
        Err(never) => match never {},
    }
}

/// [`rank_components`] where handling a part may fail: stops at the first failure.
#[inline]
pub fn try_rank_components<E>(
    whole: u128,
    steps: &RankSteps,
    mut part: impl FnMut(u128) -> Result<(), E>,
) -> Result<(), E> {
    // A grid of at most 64 cells spreads in one word.
    if let Some(grid) = steps.grid.filter(|_| steps.steps.len() <= 64) {
        return grid_components64(whole as u64, &grid, |p| part(u128::from(p)));
    }
    let mut left = whole;
    while left != 0 {
        let first = left & left.wrapping_neg();
        left &= !first;
        let (mut found, mut wave) = (first, first);
        while wave != 0 {
            let reached = match &steps.grid {
                Some(grid) => grid.spread(wave),
                None => {
                    let (mut reached, mut w) = (0, wave);
                    while w != 0 {
                        reached |= steps.steps[w.trailing_zeros() as usize];
                        w &= w - 1;
                    }
                    reached
                }
            };
            wave = reached & left;
            left &= !wave;
            found |= wave;
        }
        part(found)?;
    }
    Ok(())
}

/// [`try_rank_components`] on a grid of at most 64 cells: the same parts, in the same
/// order, spread in one word.
#[inline]
fn grid_components64<E>(
    whole: u64,
    grid: &Grid,
    mut part: impl FnMut(u64) -> Result<(), E>,
) -> Result<(), E> {
    let (not_first, not_last, cols) = (grid.not_first as u64, grid.not_last as u64, grid.cols);
    let mut left = whole;
    while left != 0 {
        let first = left & left.wrapping_neg();
        left &= !first;
        let (mut found, mut wave) = (first, first);
        while wave != 0 {
            let reached = (wave << 1 & not_first)
                | (wave >> 1 & not_last)
                | wave.checked_shl(cols).unwrap_or(0)
                | wave.checked_shr(cols).unwrap_or(0);
            wave = reached & left;
            left &= !wave;
            found |= wave;
        }
        part(found)?;
    }
    Ok(())
}

/// [`components`] of a set kept as the bits of its elements' codes, on those bits.
fn components_of_codes<T: Elem>(
    all: [u64; CODE_WORDS],
    mut next: impl FnMut(T) -> Result<Set<T>, RuleError>,
) -> Result<Vec<Set<T>>, RuleError> {
    components_with_codes(all, |code| {
        let step = next(T::decode(code))?;
        Ok(step.code_bits().unwrap_or_else(|| {
            let mut bits = [0; CODE_WORDS];
            for c in step.iter().filter_map(|y| y.code()) {
                if (c as usize) < 64 * CODE_WORDS {
                    bits[c as usize / 64] |= 1 << (c % 64);
                }
            }
            bits
        }))
    })
}

/// [`components`] of a set of codes, each element's step given as codes by `step`, on as
/// many words as the set's codes need (a 5 × 6 board's cells have codes below 128: two).
fn components_with_codes<T: Elem>(
    all: [u64; CODE_WORDS],
    step: impl FnMut(u32) -> Result<[u64; CODE_WORDS], RuleError>,
) -> Result<Vec<Set<T>>, RuleError> {
    match all.iter().rposition(|&w| w != 0) {
        None => Ok(Vec::new()),
        Some(0) => components_in_words::<T, 1>(all, step),
        Some(1) => components_in_words::<T, 2>(all, step),
        _ => components_in_words::<T, CODE_WORDS>(all, step),
    }
}

/// [`components_with_codes`] of a set whose codes lie in its first `W` words. The parts
/// are kept on the stack while they are few (a board's regions after a move), so that the
/// one allocation is the list returned.
#[inline(always)]
fn components_in_words<T: Elem, const W: usize>(
    whole: [u64; CODE_WORDS],
    mut step: impl FnMut(u32) -> Result<[u64; CODE_WORDS], RuleError>,
) -> Result<Vec<Set<T>>, RuleError> {
    type Words<const W: usize> = [u64; W];
    let all: Words<W> = std::array::from_fn(|i| whole[i]);
    let empty = |a: &Words<W>| a.iter().all(|&w| w == 0);
    let least = |a: &Words<W>| {
        (a.iter().enumerate())
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| i as u32 * 64 + w.trailing_zeros())
    };
    let mut parts: smallvec::SmallVec<[Words<W>; 8]> = smallvec::SmallVec::new();
    // Parts are found in the order of their least elements, unless a step joins a part to
    // an earlier one.
    let mut joined = false;
    let mut left = all;
    while let Some(first) = least(&left) {
        let mut part = [0; W];
        part[first as usize / 64] = 1 << (first % 64);
        left[first as usize / 64] &= !part[first as usize / 64];
        let mut wave = part;
        loop {
            let mut reached = [0; W];
            for (i, &word) in wave.iter().enumerate() {
                let mut w = word;
                while w != 0 {
                    let code = i as u32 * 64 + w.trailing_zeros();
                    w &= w - 1;
                    let to = step(code)?;
                    for j in 0..W {
                        reached[j] |= to[j];
                    }
                }
            }
            let mut new = [0; W];
            let mut earlier = 0;
            for j in 0..W {
                let r = reached[j] & all[j];
                new[j] = r & left[j];
                // Reached, but neither in this part nor left: in an earlier part.
                earlier |= r & !part[j] & !left[j];
            }
            if earlier != 0 {
                // Steps into earlier parts: they are one with this part.
                parts.retain(|p| {
                    let apart = (0..W).all(|j| p[j] & reached[j] == 0);
                    if !apart {
                        for j in 0..W {
                            part[j] |= p[j];
                        }
                    }
                    apart
                });
                joined = true;
            }
            if empty(&new) {
                break;
            }
            for j in 0..W {
                part[j] |= new[j];
                left[j] &= !new[j];
            }
            wave = new;
        }
        parts.push(part);
    }
    if joined {
        parts.sort_by_key(|part| least(part));
    }
    let mut out = Vec::with_capacity(parts.len());
    out.extend(parts.iter().map(|p| {
        let words: [u64; CODE_WORDS] = std::array::from_fn(|i| p.get(i).copied().unwrap_or(0));
        Set::from_code_bits(words)
    }));
    Ok(out)
}

/// Pops elements off `work`, pushing each element of `next` that `insert` records as new.
fn visit<T, S, N: IntoIterator<Item = T>>(
    mut work: Vec<T>,
    seen: &mut S,
    insert: impl Fn(&mut S, &T) -> bool,
    next: &mut impl FnMut(T) -> Result<N, RuleError>,
) -> Result<(), RuleError> {
    while let Some(x) = work.pop() {
        for y in next(x)? {
            if insert(seen, &y) {
                work.push(y);
            }
        }
    }
    Ok(())
}

/// The smallest or largest element of a domain (`min(S)`, `max(S)`).
#[inline]
pub fn extreme<T>(d: &impl Domain<T>, largest: bool, at: &str) -> Result<T, RuleError> {
    found_extreme(d.extreme(largest), largest, at)
}

/// The extreme of the elements seen so far and `x` (`min` or `max` of a comprehension,
/// folded over its elements instead of building the set).
#[inline]
pub fn keep_extreme<T: Ord>(best: Option<T>, x: T, largest: bool) -> Option<T> {
    Some(match best {
        Some(b) if (largest && b >= x) || (!largest && b <= x) => b,
        _ => x,
    })
}

/// The extreme found (see [`keep_extreme`]), or the error for an empty set.
#[inline]
pub fn found_extreme<T>(best: Option<T>, largest: bool, at: &str) -> Result<T, RuleError> {
    match best {
        Some(x) => Ok(x),
        None => Err(empty_extreme(largest, at)),
    }
}

#[cold]
#[inline(never)]
fn empty_extreme(largest: bool, at: &str) -> RuleError {
    error(
        format!("`{}` of an empty set", if largest { "max" } else { "min" }),
        at,
    )
}

/// Values as the interpreter prints them: `3`, `true`, `(1, 2)`, `{1, 2}`, `[1, 2]`.
pub trait Show {
    /// Writes the value.
    fn show(&self, out: &mut String);
    /// The value as text.
    fn shown(&self) -> String {
        let mut s = String::new();
        self.show(&mut s);
        s
    }
}

impl Show for i64 {
    fn show(&self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

impl Show for bool {
    fn show(&self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

impl<T: Show + Elem> Show for Set<T> {
    fn show(&self, out: &mut String) {
        out.push('{');
        for (i, x) in self.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            x.show(out);
        }
        out.push('}');
    }
}

impl<T: Show> Show for Vec<T> {
    fn show(&self, out: &mut String) {
        out.push('[');
        for (i, x) in self.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            x.show(out);
        }
        out.push(']');
    }
}

macro_rules! show_tuple {
    ($($name:ident $idx:tt),+) => {
        impl<$($name: Show),+> Show for ($($name,)+) {
            fn show(&self, out: &mut String) {
                out.push('(');
                $(
                    if $idx > 0 {
                        out.push_str(", ");
                    }
                    self.$idx.show(out);
                )+
                out.push(')');
            }
        }
    };
}
show_tuple!(A 0, B 1);
show_tuple!(A 0, B 1, C 2);
show_tuple!(A 0, B 1, C 2, D 3);

macro_rules! bits {
    ($(#[$doc:meta])* $name:ident, $word:ty, $width:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub $word);

        impl $name {
            #[doc = concat!("Packs `set`, whose elements the caller has checked lie in `lo..lo + ", $width, "`.")]
            #[inline]
            pub fn pack(set: &Set<i64>, lo: i64) -> $name {
                $name(set.to_bits(lo) as $word)
            }

            /// The elements, as a set.
            #[inline]
            pub fn unpack(self, lo: i64) -> Set<i64> {
                Set::from_bits(u128::from(self.0), lo)
            }

            #[doc = concat!("Packs `set`, whose elements have ordinals (ranks in their type's order) below ", $width, ".")]
            pub fn pack_by<T: Elem>(set: &Set<T>, ordinal: impl Fn(&T) -> u32) -> $name {
                $name(set.iter().fold(0, |b, x| b | 1 << ordinal(&x)))
            }

            /// Packs `set` by the indices `index` gives its elements (a field's domain: see
            /// `domain_error`), or the first element without one.
            #[inline]
            pub fn pack_within<T: Elem>(
                set: &Set<T>,
                index: impl Fn(&T) -> Option<u32>,
            ) -> Result<$name, T> {
                let mut bits = 0;
                for x in set.iter() {
                    match index(&x) {
                        Some(k) => bits |= 1 << k,
                        None => return Err(x.clone()),
                    }
                }
                Ok($name(bits))
            }

            /// The elements, as a set, from their ordinals; sorted, because ordinals follow
            /// the type's order.
            pub fn unpack_by<T: Elem>(self, from_ordinal: impl Fn(u32) -> T) -> Set<T> {
                set::BitIter::of(u128::from(self.0))
                    .map(|i| from_ordinal(i as u32))
                    .collect()
            }

            #[doc = concat!("Packs a set of a finite type's values, whose codes are their ranks (below ", $width, ").")]
            #[inline(always)]
            pub fn pack_codes<T, const W: usize>(set: &Set<T>) -> $name
            where
                T: Elem<Store = BitStore<T, W>>,
            {
                let w = set.words();
                let high = if W > 1 { u128::from(w[1]) << 64 } else { 0 };
                $name((high | u128::from(w[0])) as $word)
            }

            /// The inverse of `pack_codes`.
            #[inline(always)]
            pub fn unpack_codes<T, const W: usize>(self) -> Set<T>
            where
                T: Elem<Store = BitStore<T, W>>,
            {
                let bits = u128::from(self.0);
                Set::from_words(std::array::from_fn(|i| if i < 2 { (bits >> (64 * i)) as u64 } else { 0 }))
            }

            #[doc = concat!("Packs a set of cells `(r, c)`, `r` in `r0..r0 + rows`, `c` in `c0..c0 + cols` (all below 16), by their ranks `(r - r0) cols + c - c0` (below ", $width, ").")]
            #[inline]
            pub fn pack_cells(set: &Set<(i64, i64)>, r0: u32, rows: u32, c0: u32, cols: u32) -> $name {
                match set.code_words() {
                    Some(w) => $name(pack_cell_words(w, r0, rows, c0, cols) as $word),
                    None => Self::pack_by(set, |&(r, c)| {
                        (r as u32 - r0) * cols + (c as u32 - c0)
                    }),
                }
            }

            /// `pack_cells` of `{cell}` with the cells outside the rows and columns left
            /// out: the mask that `bits & !mask` removes the cell with from a packed set
            /// of those cells.
            #[inline(always)]
            pub fn pack_cell((r, c): (i64, i64), r0: u32, rows: u32, c0: u32, cols: u32) -> $name {
                let (r, c) = (r.wrapping_sub(i64::from(r0)), c.wrapping_sub(i64::from(c0)));
                match (0..i64::from(rows)).contains(&r) && (0..i64::from(cols)).contains(&c) {
                    true => $name(1 << (r as u32 * cols + c as u32)),
                    false => $name(0),
                }
            }

            /// Whether a set that `pack_cells` packed holds `cell`, without unpacking it (a
            /// cell outside the rows and columns is in none).
            #[inline(always)]
            pub fn has_cell(self, cell: (i64, i64), r0: u32, rows: u32, c0: u32, cols: u32) -> bool {
                self.0 & Self::pack_cell(cell, r0, rows, c0, cols).0 != 0
            }

            /// The cells of a set that `pack_cells` packed, in order, without unpacking it.
            #[inline(always)]
            pub fn cells(self, r0: u32, c0: u32, cols: u32) -> impl Iterator<Item = (i64, i64)> {
                set::BitIter::of(u128::from(self.0)).map(move |i| {
                    let i = i as u32;
                    (i64::from(i / cols + r0), i64::from(i % cols + c0))
                })
            }

            /// The inverse of `pack_cells`.
            #[inline]
            pub fn unpack_cells(self, r0: u32, rows: u32, c0: u32, cols: u32) -> Set<(i64, i64)> {
                Set::from_code_words(unpack_cell_words(u128::from(self.0), r0, rows, c0, cols))
            }
        }
    };
}

/// The code bits (`16 r + c`) of word `k` of a set of cells that lie in rows `r0..r0 +
/// rows` and columns `c0..c0 + cols`.
#[cfg_attr(not(target_feature = "bmi2"), allow(dead_code))]
#[inline(always)]
const fn cell_word_mask(k: usize, r0: u32, rows: u32, c0: u32, cols: u32) -> u64 {
    const ROWS_PER_WORD: u32 = 64 / INT_CODES;
    let row_bits = ((1u64 << cols) - 1) << c0;
    let mut mask = 0;
    let mut i = 0;
    while i < ROWS_PER_WORD {
        let r = k as u32 * ROWS_PER_WORD + i;
        if r >= r0 && r < r0 + rows {
            mask |= row_bits << (INT_CODES * i);
        }
        i += 1;
    }
    mask
}

/// The cells of code words `w` in rows `r0..r0 + rows` and columns `c0..c0 + cols`, by
/// their ranks `(r - r0) cols + c - c0`: one bit extraction per word where the processor
/// has one (BMI2), else row by row (the same bits).
#[inline(always)]
fn pack_cell_words(w: &[u64; CODE_WORDS], r0: u32, rows: u32, c0: u32, cols: u32) -> u128 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the processor has BMI2 (this code is compiled only where it does).
        unsafe { pack_cell_words_bmi2(w, r0, rows, c0, cols) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    pack_cell_words_by_rows(w, r0, rows, c0, cols)
}

/// [`pack_cell_words`] row by row.
#[cfg_attr(target_feature = "bmi2", allow(dead_code))]
#[inline(always)]
fn pack_cell_words_by_rows(w: &[u64; CODE_WORDS], r0: u32, rows: u32, c0: u32, cols: u32) -> u128 {
    let mut bits: u128 = 0;
    let mask = (1u64 << cols) - 1;
    for r in 0..rows {
        let code = (r0 + r) * INT_CODES + c0;
        let row = w[(code / 64) as usize] >> (code % 64) & mask;
        bits |= u128::from(row) << (r * cols);
    }
    bits
}

/// [`pack_cell_words`] by `pext`.
///
/// # Safety
/// The processor must have BMI2.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(not(target_feature = "bmi2"), allow(dead_code))]
#[target_feature(enable = "bmi2")]
#[inline]
unsafe fn pack_cell_words_bmi2(
    w: &[u64; CODE_WORDS],
    r0: u32,
    rows: u32,
    c0: u32,
    cols: u32,
) -> u128 {
    use std::arch::x86_64::_pext_u64;
    let (mut bits, mut at) = (0u128, 0);
    for (k, &word) in w.iter().enumerate() {
        let mask = cell_word_mask(k, r0, rows, c0, cols);
        if mask != 0 {
            bits |= u128::from(_pext_u64(word, mask)) << at;
            at += mask.count_ones();
        }
    }
    bits
}

/// The inverse of [`pack_cell_words`].
#[inline(always)]
fn unpack_cell_words(bits: u128, r0: u32, rows: u32, c0: u32, cols: u32) -> [u64; CODE_WORDS] {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the processor has BMI2 (this code is compiled only where it does).
        unsafe { unpack_cell_words_bmi2(bits, r0, rows, c0, cols) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    unpack_cell_words_by_rows(bits, r0, rows, c0, cols)
}

/// [`unpack_cell_words`] row by row.
#[cfg_attr(target_feature = "bmi2", allow(dead_code))]
#[inline(always)]
fn unpack_cell_words_by_rows(
    bits: u128,
    r0: u32,
    rows: u32,
    c0: u32,
    cols: u32,
) -> [u64; CODE_WORDS] {
    let mut w = [0u64; CODE_WORDS];
    let mask = (1u128 << cols) - 1;
    for r in 0..rows {
        let row = (bits >> (r * cols) & mask) as u64;
        let code = (r0 + r) * INT_CODES + c0;
        w[(code / 64) as usize] |= row << (code % 64);
    }
    w
}

/// [`unpack_cell_words`] by `pdep`.
///
/// # Safety
/// The processor must have BMI2.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(not(target_feature = "bmi2"), allow(dead_code))]
#[target_feature(enable = "bmi2")]
#[inline]
unsafe fn unpack_cell_words_bmi2(
    bits: u128,
    r0: u32,
    rows: u32,
    c0: u32,
    cols: u32,
) -> [u64; CODE_WORDS] {
    use std::arch::x86_64::_pdep_u64;
    let mut w = [0u64; CODE_WORDS];
    let mut at = 0;
    for (k, word) in w.iter_mut().enumerate() {
        let mask = cell_word_mask(k, r0, rows, c0, cols);
        if mask != 0 {
            *word = _pdep_u64((bits >> at) as u64, mask);
            at += mask.count_ones();
        }
    }
    w
}

/// A map of bit positions applied to a whole set at once (a symmetry of a board): one table
/// per byte of the set, holding the image of each of the byte's 256 values, so the image of
/// a set is one lookup and one `or` per byte.
///
/// Where the processor shuffles bits (AVX-512 BITALG, in a solver built for the machine it
/// runs on) and the map is one to one, the image is four bit shuffles instead.
#[derive(Clone, Debug)]
pub struct BitPermutation {
    bytes: Vec<[u128; 256]>,
    /// The same tables in 64 bits, where every bit goes below 64 (half the cache).
    narrow: Vec<[u64; 256]>,
    /// The map as bit shuffles, where it is one to one.
    #[cfg_attr(not(target_feature = "avx512bitalg"), allow(dead_code))]
    shuffle: Option<Box<BitShuffle>>,
}

/// A one-to-one map of bit positions below 128 as bit shuffles: output bit `64 h + j` is bit
/// `control[h][j]` of the input's low half where `from_low[h]` has bit `j`, of its high
/// half where `from_high[h]` has it, else 0.
#[derive(Clone, Debug)]
#[cfg_attr(not(target_feature = "avx512bitalg"), allow(dead_code))]
struct BitShuffle {
    control: [[u8; 64]; 2],
    from_low: [u64; 2],
    from_high: [u64; 2],
}

impl BitShuffle {
    /// The shuffles of the map taking bit `i` to bit `image[i]`, if it is one to one.
    fn new(image: &[u32]) -> Option<BitShuffle> {
        let mut shuffle = BitShuffle {
            control: [[0; 64]; 2],
            from_low: [0; 2],
            from_high: [0; 2],
        };
        if image.len() > 128 {
            return None;
        }
        for (i, &to) in image.iter().enumerate() {
            let (h, j) = ((to / 64) as usize, to % 64);
            if to >= 128 || (shuffle.from_low[h] | shuffle.from_high[h]) >> j & 1 == 1 {
                return None;
            }
            shuffle.control[h][j as usize] = (i % 64) as u8;
            match i < 64 {
                true => shuffle.from_low[h] |= 1 << j,
                false => shuffle.from_high[h] |= 1 << j,
            }
        }
        Some(shuffle)
    }

    /// The image of `bits`.
    ///
    /// # Safety
    /// The processor must have AVX-512 F and BITALG.
    #[cfg(target_arch = "x86_64")]
    #[cfg_attr(not(target_feature = "avx512bitalg"), allow(dead_code))]
    #[target_feature(enable = "avx512f,avx512bitalg")]
    #[inline]
    unsafe fn apply(&self, bits: u128) -> u128 {
        use std::arch::x86_64::{
            _mm512_bitshuffle_epi64_mask, _mm512_loadu_si512, _mm512_set1_epi64,
        };
        let low = _mm512_set1_epi64(bits as u64 as i64);
        let high = _mm512_set1_epi64((bits >> 64) as u64 as i64);
        let mut out = [0u64; 2];
        for (h, word) in out.iter_mut().enumerate() {
            // SAFETY: `control[h]` is 64 bytes; an unaligned load reads exactly those.
            let control = unsafe { _mm512_loadu_si512(self.control[h].as_ptr().cast()) };
            *word = (_mm512_bitshuffle_epi64_mask(low, control) & self.from_low[h])
                | (_mm512_bitshuffle_epi64_mask(high, control) & self.from_high[h]);
        }
        u128::from(out[0]) | u128::from(out[1]) << 64
    }
}

impl BitPermutation {
    /// The map taking bit `i` to bit `image[i]` (each below 128).
    pub fn new(image: &[u32]) -> BitPermutation {
        let mut bytes = vec![[0u128; 256]; image.len().div_ceil(8)];
        for (b, table) in bytes.iter_mut().enumerate() {
            for (v, out) in table.iter_mut().enumerate() {
                for bit in 0..8 {
                    if v >> bit & 1 == 1 {
                        if let Some(&to) = image.get(b * 8 + bit) {
                            *out |= 1u128 << to;
                        }
                    }
                }
            }
        }
        let narrow = match image.iter().all(|&to| to < 64) {
            true => (bytes.iter())
                .map(|table| table.map(|word| word as u64))
                .collect(),
            false => Vec::new(),
        };
        BitPermutation {
            bytes,
            narrow,
            shuffle: BitShuffle::new(image).map(Box::new),
        }
    }

    /// The image of the set `bits`.
    #[inline]
    pub fn apply(&self, bits: u128) -> u128 {
        #[cfg(all(target_arch = "x86_64", target_feature = "avx512bitalg"))]
        if let Some(shuffle) = &self.shuffle {
            // SAFETY: the processor has AVX-512 F and BITALG (this code is compiled only
            // where it does).
            return unsafe { shuffle.apply(bits) };
        }
        self.apply_by_tables(bits)
    }

    /// The image of the set `bits`, by the byte tables.
    #[inline]
    fn apply_by_tables(&self, bits: u128) -> u128 {
        // The bytes read from memory, not shifted out of 128 bits (several instructions a
        // byte); two accumulators, so the lookups do not wait on one chain of `or`s.
        let bytes = bits.to_le_bytes();
        let (mut even, mut odd) = (0, 0);
        let mut pairs = self.bytes.chunks_exact(2);
        for (b, tables) in (&mut pairs).enumerate() {
            even |= tables[0][bytes[2 * b] as usize];
            odd |= tables[1][bytes[2 * b + 1] as usize];
        }
        if let [last] = pairs.remainder() {
            even |= last[bytes[self.bytes.len() - 1] as usize];
        }
        even | odd
    }

    /// The image of the set `bits` of a map whose every bit goes below 64.
    #[inline]
    pub fn apply64(&self, bits: u64) -> u64 {
        // Shuffles, where `apply` uses them, beat the narrow tables too.
        let shuffled = cfg!(all(target_arch = "x86_64", target_feature = "avx512bitalg"))
            && self.shuffle.is_some();
        if shuffled || self.narrow.is_empty() {
            return self.apply(u128::from(bits)) as u64;
        }
        let mut out = 0;
        for (b, table) in self.narrow.iter().enumerate() {
            out |= table[(bits >> (8 * b)) as u8 as usize];
        }
        out
    }
}

/// The bit maps of a symmetry for each context (a choice of the values of the fields it
/// reads besides its sets, such as a board's size), in the generated code's rank order:
/// where the symmetry applies, the image's context and a map of each set field it maps.
/// A set field's map may be undefined at some elements: it applies to a set without them.
#[derive(Clone, Debug)]
pub struct ContextPermutations {
    entries: Vec<Option<ContextImage>>,
}

/// Where a symmetry applies in a context: the image's context, and each mapped set field's
/// domain (the elements its map is defined at) and map.
type ContextImage = (usize, Vec<(u128, BitPermutation)>);

/// A context's entry as generated code writes it (see [`ContextPermutations::new`]).
pub type ContextEntry<'a> = Option<(usize, &'a [&'a [u32]])>;

/// In [`ContextPermutations::new`]'s maps: an element the map is not defined at.
pub const UNDEFINED: u32 = u32::MAX;

impl ContextPermutations {
    /// The maps of every context: `None` where the symmetry does not apply, else the
    /// image's context and, for each mapped set field, the bit each bit goes to
    /// ([`UNDEFINED`] where the map is not defined).
    pub fn new(entries: &[ContextEntry]) -> ContextPermutations {
        let field = |map: &[u32]| {
            let domain = (map.iter().enumerate())
                .filter(|&(_, &to)| to != UNDEFINED)
                .fold(0u128, |d, (i, _)| d | 1 << i);
            let defined: Vec<u32> = map.iter().map(|&to| to.min(127)).collect();
            (domain, BitPermutation::new(&defined))
        };
        let entries = (entries.iter())
            .map(|e| e.map(|(to, maps)| (to, maps.iter().map(|m| field(m)).collect())))
            .collect();
        ContextPermutations { entries }
    }

    /// The image context and the images of the sets `sets` (one per mapped field) under
    /// the symmetry in context `context`, where it applies to them.
    #[inline]
    pub fn apply<const N: usize>(
        &self,
        context: usize,
        sets: [u128; N],
    ) -> Option<(usize, [u128; N])> {
        let (to, maps) = self.entries.get(context)?.as_ref()?;
        let mut images = [0; N];
        for ((image, set), (domain, map)) in images.iter_mut().zip(sets).zip(maps) {
            if set & !domain != 0 {
                return None;
            }
            *image = map.apply(set);
        }
        Some((*to, images))
    }
}

/// Classes of interchangeable elements (*twins*: any permutation of a class is a symmetry
/// of the game) for each context, as masks of a set field's bits: a set holding `k`
/// elements of a class is made to hold the class's first `k` (the least of its images
/// under the class's permutations), the normal form a game's found symmetries start from.
#[derive(Clone, Debug)]
pub struct TwinClasses {
    /// Each context's classes: the class's mask, and for each `k` its first `k` bits.
    contexts: Vec<Vec<(u128, Vec<u128>)>>,
}

impl TwinClasses {
    /// The classes of each context, each class its elements' bits (increasing).
    pub fn new(contexts: &[&[&[u32]]]) -> TwinClasses {
        let contexts = (contexts.iter())
            .map(|classes| {
                (classes.iter())
                    .map(|class| {
                        let mask = class.iter().fold(0u128, |m, &b| m | 1 << b);
                        let mut firsts = vec![0u128];
                        for &b in class.iter() {
                            let last = firsts[firsts.len() - 1];
                            firsts.push(last | 1 << b);
                        }
                        (mask, firsts)
                    })
                    .collect()
            })
            .collect();
        TwinClasses { contexts }
    }

    /// `bits` with each class of context `context` made least.
    #[inline]
    pub fn normalize(&self, context: usize, mut bits: u128) -> u128 {
        if let Some(classes) = self.contexts.get(context) {
            for (mask, firsts) in classes {
                let held = (bits & mask).count_ones() as usize;
                bits = (bits & !mask) | firsts[held];
            }
        }
        bits
    }

    /// [`TwinClasses::normalize`] of a 64-bit set.
    #[inline]
    pub fn normalize64(&self, context: usize, bits: u64) -> u64 {
        self.normalize(context, u128::from(bits)) as u64
    }
}

/// A set of cells of a board of `rows` × `cols` (bit `r * cols + c` for cell `(r, c)`; a
/// line of cells is one row) moved to the corner: its least row and least column made 0.
/// The solver keeps the positions of a game proven the same wherever they lie as their
/// least images so moved (the compiler's translation pass).
#[inline]
pub fn to_corner(bits: u128, rows: u32, cols: u32) -> u128 {
    if bits == 0 {
        return 0;
    }
    let row = bits.trailing_zeros() / cols;
    // Every row folded onto the first (rows stride `cols`, doubling).
    let mut columns = bits;
    let mut stride = cols;
    while stride < rows * cols {
        columns |= columns >> stride;
        stride *= 2;
    }
    bits >> (row * cols + columns.trailing_zeros() % cols)
}

/// [`to_corner`] of a 64-bit set.
#[inline]
pub fn to_corner64(bits: u64, rows: u32, cols: u32) -> u64 {
    if bits == 0 {
        return 0;
    }
    let row = bits.trailing_zeros() / cols;
    let mut columns = bits;
    let mut stride = cols;
    while stride < rows * cols {
        columns |= columns >> stride;
        stride *= 2;
    }
    bits >> (row * cols + columns.trailing_zeros() % cols)
}

bits!(
    /// A set of integers in `lo..lo + 128` packed into 128 bits (a `set<lo..hi>` field of
    /// a position; `lo` is known from the field's type), or a set of at most 128 values of
    /// a finite type, by their ordinals.
    Bits,
    u128,
    128
);
bits!(
    /// [`Bits`] for at most 64 values: a position with such a field is smaller.
    Bits64,
    u64,
    64
);

/// Where `xs[i]` is in a list of `len` elements, or the message when `i` is outside it (both
/// back ends index, slice and update lists through these).
#[inline]
pub fn list_index(i: i64, len: usize) -> Result<usize, String> {
    match usize::try_from(i) {
        Ok(j) if j < len => Ok(j),
        _ => Err(format!(
            "index {i} is out of range for a list of length {len}"
        )),
    }
}

/// The elements `xs[lo..hi]` of a list of `len` elements (bounds default to the ends), or
/// the message when the slice is outside it.
pub fn slice_range(
    lo: Option<i64>,
    hi: Option<i64>,
    len: usize,
) -> Result<std::ops::Range<usize>, String> {
    let lo = lo.unwrap_or(0);
    let hi = hi.unwrap_or(len as i64);
    if lo < 0 || hi < lo || hi > len as i64 {
        return Err(format!(
            "slice {lo}..{hi} is out of range for a list of length {len}"
        ));
    }
    Ok(lo as usize..hi as usize)
}

/// `xs[i]`, failing outside the list.
pub fn index<T: Clone>(xs: &[T], i: i64, at: &str) -> Result<T, RuleError> {
    match list_index(i, xs.len()) {
        Ok(j) => Ok(xs[j].clone()),
        Err(message) => Err(error(message, at)),
    }
}

/// `xs[lo..hi]` (bounds default to the ends), failing outside the list.
pub fn slice<T: Clone>(
    xs: &[T],
    lo: Option<i64>,
    hi: Option<i64>,
    at: &str,
) -> Result<Vec<T>, RuleError> {
    match slice_range(lo, hi, xs.len()) {
        Ok(range) => Ok(xs[range].to_vec()),
        Err(message) => Err(error(message, at)),
    }
}

/// `xs with [i] = v`, failing outside the list.
pub fn with<T>(mut xs: Vec<T>, i: i64, v: T, at: &str) -> Result<Vec<T>, RuleError> {
    match list_index(i, xs.len()) {
        Ok(j) => {
            xs[j] = v;
            Ok(xs)
        }
        Err(message) => Err(error(message, at)),
    }
}

/// What a query ranges over, for its size limit. A table's rows are solved and printed one
/// at a time, so its limit only refuses what could never be printed; a grid is held whole,
/// and a period query keeps one value per term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryShape {
    /// The rows of a one-name `table`: at most [`MAX_TABLE_ROWS`].
    Rows,
    /// The rows or the columns of a two-name `table` (a grid): at most [`MAX_GRID_SIDE`]
    /// each, and [`MAX_GRID_CELLS`] cells in all ([`check_grid`]).
    GridSide,
    /// The terms of a `period` query: at most [`MAX_PERIOD_TERMS`].
    Terms,
}

/// The most rows a one-name table may have.
pub const MAX_TABLE_ROWS: u64 = 100_000_000;
/// The most rows, or columns, a grid may have.
pub const MAX_GRID_SIDE: u64 = 1_000_000;
/// The most cells a grid (a `table` with two names) may have.
pub const MAX_GRID_CELLS: u64 = 4_000_000;
/// The most terms a `period` query may range over.
pub const MAX_PERIOD_TERMS: u64 = 10_000_000;

impl QueryShape {
    /// `Err` with the message both back ends print when a domain of `size` elements is
    /// too large for this shape.
    pub fn check(self, size: u64) -> Result<(), String> {
        let limit = match self {
            QueryShape::Rows => MAX_TABLE_ROWS,
            QueryShape::GridSide => MAX_GRID_SIDE,
            QueryShape::Terms => MAX_PERIOD_TERMS,
        };
        if size <= limit {
            return Ok(());
        }
        Err(match self {
            QueryShape::Rows => {
                format!("the domain has {size} elements; a table may have at most {limit} rows")
            }
            QueryShape::GridSide => format!(
                "the domain has {size} elements; a grid may have at most {limit} rows and {limit} columns"
            ),
            QueryShape::Terms => format!(
                "the domain has {size} elements; a period query may range over at most {limit} terms"
            ),
        })
    }
}

/// `Err` with the message both back ends print when a grid has too many cells.
pub fn check_grid(rows: usize, cols: usize) -> Result<(), String> {
    let cells = rows as u128 * cols as u128;
    if cells > u128::from(MAX_GRID_CELLS) {
        return Err(format!(
            "the grid has {rows} × {cols} = {cells} cells; a grid may have at most {MAX_GRID_CELLS}"
        ));
    }
    Ok(())
}

/// The columns of a grid whose column domain depends on the row, from each row's columns
/// in its domain's order: every column that some row has, once each and in increasing
/// order, and for each row the index among them of each of its columns (repeats dropped),
/// increasing. Fails past [`MAX_GRID_SIDE`] columns or [`MAX_GRID_CELLS`] cells.
pub fn ragged_columns<T: Ord + Clone>(
    rows: &[Vec<T>],
) -> Result<(Vec<T>, Vec<Vec<usize>>), String> {
    let mut all: Vec<T> = rows.iter().flatten().cloned().collect();
    all.sort();
    all.dedup();
    QueryShape::GridSide.check(all.len() as u64)?;
    let mut cells = 0u64;
    let mut columns = Vec::with_capacity(rows.len());
    for row in rows {
        let mut at: Vec<usize> = (row.iter())
            .map(|c| all.binary_search(c).unwrap_or_default())
            .collect();
        at.sort_unstable();
        at.dedup();
        cells += at.len() as u64;
        columns.push(at);
    }
    if cells > MAX_GRID_CELLS {
        return Err(format!(
            "the grid has {cells} cells; a grid may have at most {MAX_GRID_CELLS}"
        ));
    }
    Ok((all, columns))
}

/// The elements of a query's domain, refusing sizes past `shape`'s limit.
pub fn query_elements<T>(d: &impl Domain<T>, shape: QueryShape) -> Result<Vec<T>, RuleError> {
    shape
        .check(u64::try_from(d.count()).unwrap_or(0))
        .map_err(RuleError::new)?;
    Ok(d.elements().collect())
}

/// A list field of a position, as a handle into a [`ListInterner`]: positions stay `Copy`
/// while a list field holds any number of values. Equal lists get equal handles, so
/// comparing handles compares lists; the order of handles is the order lists were first
/// seen in, deterministic within a run (the interpreter orders positions the same way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ListId(pub u32);

/// The lists of one list field of a generated game, interned for the whole process
/// (a `static` in the generated module). It only grows: every distinct list that a solve
/// reaches stays until the process ends, like the solver's memo.
pub struct ListInterner<T> {
    tables: std::sync::Mutex<ListTables<T>>,
}

struct ListTables<T> {
    ids: std::collections::HashMap<std::sync::Arc<[T]>, u32, rustc_hash::FxBuildHasher>,
    lists: Vec<std::sync::Arc<[T]>>,
}

impl<T: Clone + Eq + std::hash::Hash> ListInterner<T> {
    /// An empty interner (usable in a `static`).
    pub const fn new() -> Self {
        ListInterner {
            tables: std::sync::Mutex::new(ListTables {
                ids: std::collections::HashMap::with_hasher(rustc_hash::FxBuildHasher),
                lists: Vec::new(),
            }),
        }
    }

    fn tables(&self) -> std::sync::MutexGuard<'_, ListTables<T>> {
        // A panic elsewhere while the lock was held leaves the tables consistent (every
        // update is a single push + insert), so a poisoned lock is still usable.
        self.tables
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The handle of `list`, interning it if it is new; fails past 2³² distinct lists.
    pub fn intern(&self, list: &[T], at: &str) -> Result<ListId, RuleError> {
        let mut tables = self.tables();
        if let Some(&id) = tables.ids.get(list) {
            return Ok(ListId(id));
        }
        let id = u32::try_from(tables.lists.len()).map_err(|_| {
            error(
                "more than 2^32 distinct lists in one list field: the state space is too large",
                at,
            )
        })?;
        let list: std::sync::Arc<[T]> = list.into();
        tables.lists.push(list.clone());
        tables.ids.insert(list, id);
        Ok(ListId(id))
    }

    /// The list behind a handle this interner gave out.
    pub fn get(&self, id: ListId) -> Vec<T> {
        self.tables().lists[id.0 as usize].to_vec()
    }
}

impl<T: Clone + Eq + std::hash::Hash> Default for ListInterner<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Cells packed and unpacked by `pext`/`pdep` (what solvers built for this machine
        /// run), against row by row (what the tests' build runs), on every box of up to
        /// 128 cells; a machine without BMI2 has only the latter.
        #[test]
        fn cells_pack_by_bit_extraction_as_row_by_row(
            r0 in 0u32..16,
            c0 in 0u32..16,
            rows in 1u32..17,
            cols in 1u32..17,
            words: [u64; CODE_WORDS],
            bits: u128,
        ) {
            prop_assume!(r0 + rows <= 16 && c0 + cols <= 16 && rows * cols <= 128);
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("bmi2") {
                let cells = rows * cols;
                let bits = if cells == 128 { bits } else { bits & ((1u128 << cells) - 1) };
                // SAFETY: the processor has BMI2 (just detected).
                let (packed, unpacked) = unsafe {
                    (
                        pack_cell_words_bmi2(&words, r0, rows, c0, cols),
                        unpack_cell_words_bmi2(bits, r0, rows, c0, cols),
                    )
                };
                prop_assert_eq!(packed, pack_cell_words_by_rows(&words, r0, rows, c0, cols));
                prop_assert_eq!(unpacked, unpack_cell_words_by_rows(bits, r0, rows, c0, cols));
            }
        }

        /// A one-to-one map of bits applied by bit shuffles (what solvers built for a
        /// machine with AVX-512 BITALG run) and by byte tables (what the tests' build runs),
        /// against the map bit by bit; maps of every length to 128, partial and whole.
        #[test]
        fn bit_maps_apply_by_shuffles_and_tables_as_bit_by_bit(
            targets in Just((0u32..128).collect::<Vec<u32>>()).prop_shuffle(),
            len in 1usize..=128,
            bits: u128,
        ) {
            let image = &targets[..len];
            let map = BitPermutation::new(image);
            let want = (0..len)
                .filter(|&i| bits >> i & 1 == 1)
                .fold(0u128, |out, i| out | 1 << image[i]);
            prop_assert_eq!(map.apply_by_tables(bits), want);
            prop_assert_eq!(map.apply(bits), want);
            prop_assert!(map.shuffle.is_some());
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bitalg")
            {
                let shuffle = map.shuffle.as_ref().expect("a one-to-one map has shuffles");
                // SAFETY: the processor has AVX-512 F and BITALG (just detected).
                prop_assert_eq!(unsafe { shuffle.apply(bits) }, want);
            }
        }

        /// A map that sends two bits to one has no shuffles (a shuffle gives each output
        /// bit one input bit); its tables `or` them.
        #[test]
        fn bit_maps_that_merge_bits_keep_to_tables(to in 0u32..128, other in 0u32..128, bits: u128) {
            let map = BitPermutation::new(&[to, other, to]);
            prop_assert!(map.shuffle.is_none());
            let want = [to, other, to]
                .iter()
                .enumerate()
                .filter(|&(i, _)| bits >> i & 1 == 1)
                .fold(0u128, |out, (_, &t)| out | 1 << t);
            prop_assert_eq!(map.apply(bits), want);
        }

        /// A set moved to the corner, against its cells each less the least row and the
        /// least column (boards of every shape up to 128 cells).
        #[test]
        fn to_corner_moves_each_cell_by_the_least_row_and_column(
            rows in 1u32..12,
            cols in 1u32..40,
            set: u128,
        ) {
            prop_assume!(rows * cols <= 128);
            let cells = rows * cols;
            let set = if cells == 128 { set } else { set & ((1u128 << cells) - 1) };
            let held: Vec<(u32, u32)> = (0..cells)
                .filter(|&b| set >> b & 1 == 1)
                .map(|b| (b / cols, b % cols))
                .collect();
            let r0 = held.iter().map(|x| x.0).min().unwrap_or(0);
            let c0 = held.iter().map(|x| x.1).min().unwrap_or(0);
            let want = held
                .iter()
                .fold(0u128, |out, (r, c)| out | 1 << ((r - r0) * cols + c - c0));
            prop_assert_eq!(to_corner(set, rows, cols), want);
            if cells <= 64 {
                prop_assert_eq!(u128::from(to_corner64(set as u64, rows, cols)), want);
            }
        }
    }

    proptest! {
        /// A permutation's image of a set, by its tables (128 and 64 bits), against the
        /// image of each element.
        #[test]
        fn bit_permutations_map_each_element(
            image in proptest::collection::vec(0u32..64, 1..64),
            set: u64,
        ) {
            let map = BitPermutation::new(&image);
            let set = set & (u64::MAX >> (64 - image.len()));
            let want = (0..image.len())
                .filter(|&i| set >> i & 1 == 1)
                .fold(0u64, |out, i| out | 1 << image[i]);
            prop_assert_eq!(map.apply(u128::from(set)), u128::from(want));
            prop_assert_eq!(map.apply64(set), want);
        }

        /// The same in 128 bits, with maps of any number of bytes (odd and even: the
        /// tables are read in pairs).
        #[test]
        fn wide_bit_permutations_map_each_element(
            image in proptest::collection::vec(0u32..128, 1..=128),
            set: u128,
        ) {
            let map = BitPermutation::new(&image);
            let set = set & (u128::MAX >> (128 - image.len()));
            let want = (0..image.len())
                .filter(|&i| set >> i & 1 == 1)
                .fold(0u128, |out, i| out | 1 << image[i]);
            prop_assert_eq!(map.apply(set), want);
        }

        /// `components_by_codes` divides a set by its table as `components` does by the
        /// function the table holds, inside the table's domain and outside it (row 6 is
        /// not in it).
        #[test]
        fn code_steps_divide_as_their_function(
            whole in proptest::collection::btree_set((0i64..8, 0i64..4), 0..16),
            steps in proptest::collection::vec(proptest::collection::vec((0i64..8, 0i64..4), 0..4), 32),
        ) {
            let step = |x: (i64, i64)| -> Set<(i64, i64)> {
                steps[(x.0 * 4 + x.1) as usize].iter().copied().collect()
            };
            let table: Vec<(u32, [u64; CODE_WORDS])> = (0..8i64)
                .filter(|&r| r != 6)
                .flat_map(|r| (0..4i64).map(move |c| (r, c)))
                .map(|x| {
                    let code = (x.0 * 16 + x.1) as u32;
                    (code, step(x).code_bits().expect("cells have codes"))
                })
                .collect();
            let table = CodeSteps::new(&table);
            let set: Set<(i64, i64)> = whole.iter().copied().collect();
            let by_table = components_by_codes(&set, &table, |x| Ok(step(x))).expect("no error");
            let by_steps = components(&set, |x| Ok(step(x))).expect("no error");
            prop_assert_eq!(by_table, by_steps);
        }

        /// A board's grid is recognised, and spread by shifts it joins the parts its
        /// entries join, in the same order; a grid with one step added or taken away is
        /// walked by its entries, with the same parts as the definition.
        #[test]
        fn grid_tables_join_what_their_entries_join(
            rows in 1usize..=12,
            cols in 1usize..=12,
            whole: u128,
            change in proptest::option::of((0usize..128, 0usize..128)),
        ) {
            let n = rows * cols;
            prop_assume!(n <= 128);
            let mut steps = vec![0u128; n];
            for r in 0..n {
                let (row, col) = (r / cols, r % cols);
                for (dr, dc) in [(0, 1), (1, 0)] {
                    let (r2, c2) = (row + dr, col + dc);
                    if r2 < rows && c2 < cols {
                        let s = r2 * cols + c2;
                        steps[r] |= 1 << s;
                        steps[s] |= 1 << r;
                    }
                }
            }
            let changed = change.filter(|&(a, b)| a < n && b < n && a != b);
            if let Some((a, b)) = changed {
                steps[a] ^= 1 << b;
                steps[b] ^= 1 << a;
            }
            let table = RankSteps::new(&steps);
            if changed.is_none() {
                prop_assert!(table.grid.is_some());
            }
            let whole = if n == 128 { whole } else { whole & ((1u128 << n) - 1) };
            let mut by_table = Vec::new();
            rank_components(whole, &table, |part| by_table.push(part));
            // The definition: the least rank left, and all the entries reach from it.
            let (mut left, mut parts) = (whole, Vec::new());
            while left != 0 {
                let mut part = left & left.wrapping_neg();
                loop {
                    let more = (0..n)
                        .filter(|&r| part >> r & 1 == 1)
                        .fold(part, |p, r| p | steps[r] & left);
                    if more == part {
                        break;
                    }
                    part = more;
                }
                left &= !part;
                parts.push(part);
            }
            prop_assert_eq!(by_table, parts);
        }

        /// `rank_components` on a board's ranks finds the parts `components` finds on its
        /// cells, in the same order, with the steps made symmetric.
        #[test]
        fn rank_components_are_components(
            rows in 1u32..=5,
            cols in 1u32..=6,
            whole: u32,
            steps in proptest::collection::vec(proptest::collection::vec((0u32..5, 0u32..6), 0..3), 30),
        ) {
            let rank = |(r, c): (u32, u32)| (r * cols + c) as usize;
            let on_board = |&(r, c): &(u32, u32)| r < rows && c < cols;
            let step = |x: (u32, u32)| -> Vec<(u32, u32)> {
                steps[rank(x) % steps.len()].iter().copied().filter(on_board).collect()
            };
            let board: Vec<(u32, u32)> = (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))).collect();
            let mut table = vec![0u128; board.len()];
            for &x in &board {
                for y in step(x) {
                    table[rank(x)] |= 1 << rank(y);
                    table[rank(y)] |= 1 << rank(x);
                }
            }
            let table = RankSteps::new(&table);
            let whole = u128::from(whole) & ((1u128 << board.len()) - 1);
            let mut by_ranks = Vec::new();
            rank_components(whole, &table, |part| by_ranks.push(part));
            let set: Set<(i64, i64)> = (board.iter())
                .filter(|&&x| whole >> rank(x) & 1 == 1)
                .map(|&(r, c)| (i64::from(r), i64::from(c)))
                .collect();
            let parts = components(&set, |(r, c)| {
                Ok(step((r as u32, c as u32)).into_iter().map(|(r, c)| (i64::from(r), i64::from(c))).collect())
            })
            .expect("no step fails");
            let by_cells: Vec<u128> = (parts.iter())
                .map(|p| p.iter().fold(0u128, |w, (r, c)| w | 1 << rank((r as u32, c as u32))))
                .collect();
            prop_assert_eq!(by_ranks, by_cells);
        }

        /// `components` against its definition: `x` and `y` share a part when a path of
        /// steps joins them, each step going either way and staying within the set. Cells
        /// of rows 0..8 are bits (rows 0..4 in one word, rows 4..8 in the second); row 40
        /// has no code, so its sets are vectors.
        #[test]
        fn components_are_the_classes_of_the_steps(
            whole in proptest::collection::btree_set((prop_oneof![0i64..4, 0i64..8, Just(40)], 0i64..4), 0..12),
            steps in proptest::collection::vec(proptest::collection::vec((0i64..8, 0i64..4), 0..3), 20),
        ) {
            let cells: Vec<(i64, i64)> = whole.iter().copied().collect();
            let step = |x: &(i64, i64)| -> Vec<(i64, i64)> {
                steps[((x.0 % 5) * 4 + x.1) as usize].clone()
            };
            // joined[i][j]: cells i and j are joined (reflexive, symmetric, transitive closure).
            let n = cells.len();
            let mut joined = vec![vec![false; n]; n];
            for i in 0..n {
                joined[i][i] = true;
                for y in step(&cells[i]) {
                    if let Some(j) = cells.iter().position(|c| *c == y) {
                        joined[i][j] = true;
                        joined[j][i] = true;
                    }
                }
            }
            for k in 0..n {
                for i in 0..n {
                    for j in 0..n {
                        joined[i][j] |= joined[i][k] && joined[k][j];
                    }
                }
            }
            // A part for each cell joined to no earlier one: the cells joined to it.
            let want: Vec<Vec<(i64, i64)>> = (joined.iter().enumerate())
                .filter(|(i, row)| !row[..*i].contains(&true))
                .map(|(_, row)| (0..n).filter(|&j| row[j]).map(|j| cells[j]).collect())
                .collect();
            let set: Set<(i64, i64)> = cells.iter().copied().collect();
            let mut asked: Vec<(i64, i64)> = Vec::new();
            let got = components(&set, |x| {
                asked.push(x);
                Ok(step(&x).into_iter().collect())
            })
            .expect("no step fails");
            let got: Vec<Vec<(i64, i64)>> = got.iter().map(Set::to_vec).collect();
            prop_assert_eq!(got, want);
            // Each element is asked for once.
            asked.sort();
            prop_assert_eq!(asked, cells);
        }
    }
}
