//! Finite sets for generated code. The element type chooses the storage: a set of integers
//! whose elements all lie in `0..128` (board lines, cells, small heaps) is one 128-bit word
//! and never touches the allocator; every other set is a sorted vector. Either way a set
//! iterates in increasing order and compares like its sorted list of elements, as the
//! interpreter's sets do.

use super::Domain;
use std::cmp::Ordering;
use std::fmt::Debug;
use std::hash::Hash;

/// A type that can be an element of a [`Set`]; `Store` is how such sets are kept.
pub trait Elem: Ord + Clone + Hash + Debug {
    /// The storage of a set of this element type.
    type Store: Store<Self>;
}

/// The storage behind a [`Set`]: sorted, without duplicates, in one canonical form per set
/// (so that derived equality and hashing are set equality and hashing).
pub trait Store<T>: Clone + Eq + Hash + Debug {
    /// Iterates by reference, in increasing order.
    type Iter<'a>: Iterator<Item = T>
    where
        Self: 'a;
    /// Iterates by value, in increasing order.
    type IntoIter: Iterator<Item = T>;
    /// Collects elements in any order, with repeats.
    type Builder: Default;

    /// Adds an element to a builder.
    fn push(builder: &mut Self::Builder, x: T);
    /// The set a builder holds.
    fn build(builder: Self::Builder) -> Self;
    /// Whether `x` is an element.
    fn contains(&self, x: &T) -> bool;
    /// The number of elements.
    fn len(&self) -> usize;
    /// Whether there are no elements.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The elements in increasing order.
    fn iter(&self) -> Self::Iter<'_>;
    /// The elements in increasing order, consuming the set.
    fn into_iter(self) -> Self::IntoIter;
    /// `self | other`
    fn union(&self, other: &Self) -> Self;
    /// `self & other`
    fn inter(&self, other: &Self) -> Self;
    /// `self - other`
    fn diff(&self, other: &Self) -> Self;
    /// The smallest (`largest == false`) or largest element.
    fn extreme(&self, largest: bool) -> Option<T>;
    /// Lexicographic order of the sorted element lists.
    fn compare(&self, other: &Self) -> Ordering
    where
        T: Ord,
    {
        self.iter().cmp(other.iter())
    }
}

/// A sorted vector without duplicates: the storage of sets of any element type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VecStore<T>(Vec<T>);

impl<T: Ord + Clone + Hash + Debug> Store<T> for VecStore<T> {
    type Iter<'a>
        = std::iter::Cloned<std::slice::Iter<'a, T>>
    where
        T: 'a;
    type IntoIter = std::vec::IntoIter<T>;
    type Builder = Vec<T>;

    fn push(builder: &mut Vec<T>, x: T) {
        builder.push(x);
    }
    fn build(mut items: Vec<T>) -> Self {
        items.sort();
        items.dedup();
        VecStore(items)
    }
    fn contains(&self, x: &T) -> bool {
        self.0.binary_search(x).is_ok()
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn iter(&self) -> Self::Iter<'_> {
        self.0.iter().cloned()
    }
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
    fn union(&self, other: &Self) -> Self {
        Self::build(self.0.iter().chain(&other.0).cloned().collect())
    }
    fn inter(&self, other: &Self) -> Self {
        VecStore(
            self.0
                .iter()
                .filter(|x| other.contains(x))
                .cloned()
                .collect(),
        )
    }
    fn diff(&self, other: &Self) -> Self {
        VecStore(
            self.0
                .iter()
                .filter(|x| !other.contains(x))
                .cloned()
                .collect(),
        )
    }
    fn extreme(&self, largest: bool) -> Option<T> {
        if largest {
            self.0.last().cloned()
        } else {
            self.0.first().cloned()
        }
    }
    fn compare(&self, other: &Self) -> Ordering {
        self.0.cmp(&other.0)
    }
}

/// 128 bits as two 64-bit halves: bit `i` is bit `i % 64` of half `i / 64`. Kept as two
/// words rather than a `u128` so that sets move through general registers and 8-byte
/// stores (a `u128` is copied with 16-byte vector moves, which stall when they read what
/// two 8-byte stores just wrote).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Word {
    low: u64,
    high: u64,
}

impl Word {
    /// The word of a `u128`.
    #[inline]
    pub fn from_u128(bits: u128) -> Word {
        Word {
            low: bits as u64,
            high: (bits >> 64) as u64,
        }
    }

    /// The word as a `u128`.
    #[inline]
    pub fn to_u128(self) -> u128 {
        u128::from(self.high) << 64 | u128::from(self.low)
    }

    /// Just bit `i` (`i < 128`), without branches.
    #[inline]
    fn bit(i: u32) -> Word {
        let b = 1u64 << (i & 63);
        let high = u64::from(i >> 6);
        Word {
            low: b & high.wrapping_sub(1),
            high: b & high.wrapping_neg(),
        }
    }

    #[inline]
    fn has(self, i: u32) -> bool {
        let half = if i < 64 { self.low } else { self.high };
        half >> (i & 63) & 1 == 1
    }

    #[inline]
    fn or(self, o: Word) -> Word {
        Word {
            low: self.low | o.low,
            high: self.high | o.high,
        }
    }

    #[inline]
    fn and(self, o: Word) -> Word {
        Word {
            low: self.low & o.low,
            high: self.high & o.high,
        }
    }

    #[inline]
    fn and_not(self, o: Word) -> Word {
        Word {
            low: self.low & !o.low,
            high: self.high & !o.high,
        }
    }

    #[inline]
    fn is_empty(self) -> bool {
        self.low | self.high == 0
    }

    #[inline]
    fn count(self) -> u32 {
        self.low.count_ones() + self.high.count_ones()
    }

    /// The lowest set bit (128 when empty).
    #[inline]
    fn least(self) -> u32 {
        if self.low != 0 {
            self.low.trailing_zeros()
        } else {
            64 + self.high.trailing_zeros()
        }
    }

    /// The highest set bit (of a nonempty word).
    #[inline]
    fn most(self) -> u32 {
        if self.high != 0 {
            127 - self.high.leading_zeros()
        } else {
            63 - self.low.leading_zeros()
        }
    }
}

/// The storage of integer sets: a 128-bit word when every element is in `0..128` (always
/// then, so the form is canonical), else a sorted vector.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntStore {
    /// Bit `i` set: `i` is an element.
    Small(Word),
    /// Some element is negative or at least 128.
    Large(Vec<i64>),
}

/// Collects integers: small ones as bits, the others in a vector (allocated only then).
#[derive(Default)]
pub struct IntBuilder {
    bits: Word,
    large: Vec<i64>,
}

#[inline]
fn small(x: i64) -> Option<u32> {
    u32::try_from(x).ok().filter(|&i| i < 128)
}

/// The elements of a word (bit `i` set: `i` is an element), in increasing order.
#[derive(Clone, Debug)]
pub struct BitIter(pub Word);

impl BitIter {
    /// The elements of a `u128`.
    pub fn of(bits: u128) -> BitIter {
        BitIter(Word::from_u128(bits))
    }
}

impl Iterator for BitIter {
    type Item = i64;
    #[inline]
    fn next(&mut self) -> Option<i64> {
        let w = &mut self.0;
        if w.low != 0 {
            let i = w.low.trailing_zeros();
            w.low &= w.low - 1;
            Some(i64::from(i))
        } else if w.high != 0 {
            let i = w.high.trailing_zeros();
            w.high &= w.high - 1;
            Some(64 + i64::from(i))
        } else {
            None
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

/// Iterates an [`IntStore`] by reference.
#[derive(Clone, Debug)]
pub enum IntIter<'a> {
    /// A word's elements.
    Bits(BitIter),
    /// A vector's elements.
    Slice(std::slice::Iter<'a, i64>),
}

impl Iterator for IntIter<'_> {
    type Item = i64;
    #[inline]
    fn next(&mut self) -> Option<i64> {
        match self {
            IntIter::Bits(b) => b.next(),
            IntIter::Slice(s) => s.next().copied(),
        }
    }
}

/// Iterates an [`IntStore`] by value.
#[derive(Clone, Debug)]
pub enum IntIntoIter {
    /// A word's elements.
    Bits(BitIter),
    /// A vector's elements.
    Vec(std::vec::IntoIter<i64>),
}

impl Iterator for IntIntoIter {
    type Item = i64;
    #[inline]
    fn next(&mut self) -> Option<i64> {
        match self {
            IntIntoIter::Bits(b) => b.next(),
            IntIntoIter::Vec(v) => v.next(),
        }
    }
}

#[derive(Clone, Copy)]
enum SetOp {
    Union,
    Inter,
    Diff,
}

/// A set operation with a large operand (kept out of line, so that the word case inlines).
#[cold]
#[inline(never)]
fn large_op(a: &IntStore, b: &IntStore, op: SetOp) -> IntStore {
    let set: Set<i64> = match op {
        SetOp::Union => a.iter().chain(b.iter()).collect(),
        SetOp::Inter => a.iter().filter(|x| b.contains(x)).collect(),
        SetOp::Diff => a.iter().filter(|x| !b.contains(x)).collect(),
    };
    set.0
}

#[cold]
#[inline(never)]
fn build_large(builder: IntBuilder) -> IntStore {
    let mut all = builder.large;
    all.extend(BitIter(builder.bits));
    all.sort_unstable();
    all.dedup();
    IntStore::Large(all)
}

impl Store<i64> for IntStore {
    type Iter<'a> = IntIter<'a>;
    type IntoIter = IntIntoIter;
    type Builder = IntBuilder;

    #[inline(always)]
    fn push(builder: &mut IntBuilder, x: i64) {
        match small(x) {
            Some(i) => builder.bits = builder.bits.or(Word::bit(i)),
            None => builder.large.push(x),
        }
    }
    #[inline(always)]
    fn build(builder: IntBuilder) -> Self {
        if builder.large.is_empty() {
            IntStore::Small(builder.bits)
        } else {
            build_large(builder)
        }
    }
    #[inline]
    fn contains(&self, x: &i64) -> bool {
        match self {
            IntStore::Small(bits) => small(*x).is_some_and(|i| bits.has(i)),
            IntStore::Large(v) => v.binary_search(x).is_ok(),
        }
    }
    #[inline]
    fn len(&self) -> usize {
        match self {
            IntStore::Small(bits) => bits.count() as usize,
            IntStore::Large(v) => v.len(),
        }
    }
    #[inline]
    fn iter(&self) -> IntIter<'_> {
        match self {
            IntStore::Small(bits) => IntIter::Bits(BitIter(*bits)),
            IntStore::Large(v) => IntIter::Slice(v.iter()),
        }
    }
    #[inline]
    fn into_iter(self) -> IntIntoIter {
        match self {
            IntStore::Small(bits) => IntIntoIter::Bits(BitIter(bits)),
            IntStore::Large(v) => IntIntoIter::Vec(v.into_iter()),
        }
    }
    #[inline]
    fn union(&self, other: &Self) -> Self {
        match (self, other) {
            (IntStore::Small(a), IntStore::Small(b)) => IntStore::Small(a.or(*b)),
            _ => large_op(self, other, SetOp::Union),
        }
    }
    #[inline]
    fn inter(&self, other: &Self) -> Self {
        match (self, other) {
            (IntStore::Small(a), IntStore::Small(b)) => IntStore::Small(a.and(*b)),
            _ => large_op(self, other, SetOp::Inter),
        }
    }
    #[inline]
    fn diff(&self, other: &Self) -> Self {
        match (self, other) {
            (IntStore::Small(a), IntStore::Small(b)) => IntStore::Small(a.and_not(*b)),
            _ => large_op(self, other, SetOp::Diff),
        }
    }
    fn extreme(&self, largest: bool) -> Option<i64> {
        match self {
            IntStore::Small(bits) if bits.is_empty() => None,
            IntStore::Small(bits) if largest => Some(i64::from(bits.most())),
            IntStore::Small(bits) => Some(i64::from(bits.least())),
            IntStore::Large(v) if largest => v.last().copied(),
            IntStore::Large(v) => v.first().copied(),
        }
    }
}

impl Elem for i64 {
    type Store = IntStore;
}

macro_rules! vec_elem {
    ($($t:ty),*) => { $(impl Elem for $t { type Store = VecStore<$t>; })* };
}
vec_elem!(bool, ());

macro_rules! tuple_elem {
    ($($name:ident),+) => {
        impl<$($name: Elem),+> Elem for ($($name,)+) {
            type Store = VecStore<($($name,)+)>;
        }
    };
}
tuple_elem!(A);
tuple_elem!(A, B);
tuple_elem!(A, B, C);
tuple_elem!(A, B, C, D);
tuple_elem!(A, B, C, D, E);
tuple_elem!(A, B, C, D, E, F);
tuple_elem!(A, B, C, D, E, F, G);
tuple_elem!(A, B, C, D, E, F, G, H);

impl<T: Elem> Elem for Set<T> {
    type Store = VecStore<Set<T>>;
}

impl<T: Elem> Elem for Vec<T> {
    type Store = VecStore<Vec<T>>;
}

/// A finite set, iterated in increasing order.
pub struct Set<T: Elem>(T::Store);

impl<T: Elem> Set<T> {
    /// The set of the given elements (a set literal), without allocating for small
    /// integer sets.
    #[inline(always)]
    pub fn from_array<const N: usize>(items: [T; N]) -> Set<T> {
        items.into_iter().collect()
    }

    /// Whether `x` is an element.
    #[inline]
    pub fn contains(&self, x: &T) -> bool {
        self.0.contains(x)
    }

    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The elements in increasing order.
    #[inline]
    pub fn iter(&self) -> <T::Store as Store<T>>::Iter<'_> {
        self.0.iter()
    }

    /// The elements in increasing order, as a vector.
    pub fn to_vec(&self) -> Vec<T> {
        self.0.iter().collect()
    }

    /// `a | b`
    #[inline]
    pub fn union(&self, other: &Set<T>) -> Set<T> {
        Set(self.0.union(&other.0))
    }

    /// `a & b`
    #[inline]
    pub fn inter(&self, other: &Set<T>) -> Set<T> {
        Set(self.0.inter(&other.0))
    }

    /// `a - b`
    #[inline]
    pub fn diff(&self, other: &Set<T>) -> Set<T> {
        Set(self.0.diff(&other.0))
    }
}

impl Set<i64> {
    /// Whether every element lies in `lo..=hi` (a field type's check).
    #[inline]
    pub fn within(&self, lo: i64, hi: i64) -> bool {
        match &self.0 {
            IntStore::Small(bits) if bits.is_empty() => true,
            IntStore::Small(bits) => lo <= i64::from(bits.least()) && i64::from(bits.most()) <= hi,
            IntStore::Large(v) => v.iter().all(|&x| lo <= x && x <= hi),
        }
    }

    /// The set as a word whose bit `i` stands for `lo + i`, when every element lies in
    /// `lo..lo + 128` (as a field type's check has made sure).
    #[inline]
    pub fn to_bits(&self, lo: i64) -> u128 {
        match &self.0 {
            // The elements at or above `lo`, shifted down: the inverse of `from_bits`.
            IntStore::Small(bits) if (0..128).contains(&lo) => bits.to_u128() >> lo,
            _ => self.iter().fold(0, |b, x| b | 1 << (x - lo)),
        }
    }

    /// The set `{lo + i : bit i of bits is set}`.
    #[inline]
    pub fn from_bits(bits: u128, lo: i64) -> Set<i64> {
        if bits == 0 {
            Set(IntStore::Small(Word::default()))
        } else if (0..128).contains(&lo) && bits.leading_zeros() >= lo as u32 {
            Set(IntStore::Small(Word::from_u128(bits << lo)))
        } else {
            BitIter::of(bits).map(|i| lo + i).collect()
        }
    }
}

impl<T: Elem> FromIterator<T> for Set<T> {
    #[inline(always)]
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut b = SetBuilder::new();
        for x in items {
            b.push(x);
        }
        b.build()
    }
}

impl<T: Elem> IntoIterator for Set<T> {
    type Item = T;
    type IntoIter = <T::Store as Store<T>>::IntoIter;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<T: Elem> Clone for Set<T> {
    #[inline]
    fn clone(&self) -> Self {
        Set(self.0.clone())
    }
}

impl<T: Elem> Default for Set<T> {
    fn default() -> Self {
        SetBuilder::new().build()
    }
}

impl<T: Elem> Debug for Set<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<T: Elem> PartialEq for Set<T> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<T: Elem> Eq for Set<T> {}

impl<T: Elem> Hash for Set<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<T: Elem> PartialOrd for Set<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Elem> Ord for Set<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.compare(&other.0)
    }
}

/// Builds a set element by element (comprehensions).
pub struct SetBuilder<T: Elem>(<T::Store as Store<T>>::Builder);

impl<T: Elem> SetBuilder<T> {
    /// No elements yet.
    #[inline]
    pub fn new() -> Self {
        SetBuilder(Default::default())
    }

    /// Adds an element (repeats are dropped when the set is built).
    #[inline]
    pub fn push(&mut self, x: T) {
        T::Store::push(&mut self.0, x);
    }

    /// The set.
    #[inline]
    pub fn build(self) -> Set<T> {
        Set(T::Store::build(self.0))
    }
}

impl<T: Elem> Default for SetBuilder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Elem> Domain<T> for Set<T> {
    type Iter<'a>
        = <T::Store as Store<T>>::Iter<'a>
    where
        T: 'a;
    type IntoIter = <T::Store as Store<T>>::IntoIter;
    #[inline]
    fn elements(&self) -> Self::Iter<'_> {
        self.0.iter()
    }
    #[inline]
    fn into_elements(self) -> Self::IntoIter {
        self.0.into_iter()
    }
    #[inline]
    fn has(&self, x: &T) -> bool {
        self.0.contains(x)
    }
    fn to_set(&self) -> Set<T> {
        self.clone()
    }
    #[inline]
    fn count(&self) -> i64 {
        self.0.len() as i64
    }
    fn extreme(&self, largest: bool) -> Option<T> {
        self.0.extreme(largest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// An empty field of a range that starts below 0 or at 128 or more unpacks to the empty
    /// set (the word is not shifted by `lo`).
    #[test]
    fn empty_words_unpack_for_any_lo() {
        for lo in [-200, -1, 0, 127, 128, 200, i64::MAX] {
            assert!(Set::from_bits(0, lo).is_empty(), "lo = {lo}");
        }
        // One element past 127 leaves the word form.
        assert_eq!(Set::from_bits(0b10, 127).to_vec(), vec![128]);
        assert_eq!(Set::from_bits(0b11, -1).to_vec(), vec![-1, 0]);
    }

    proptest! {
        /// Integer sets (bits or vector) behave as sorted, deduplicated lists.
        #[test]
        fn int_sets_match_sorted_lists(
            a in proptest::collection::vec(-3i64..140, 0..12),
            b in proptest::collection::vec(-3i64..140, 0..12),
        ) {
            let list = |v: &[i64]| {
                let mut v = v.to_vec();
                v.sort();
                v.dedup();
                v
            };
            let (la, lb) = (list(&a), list(&b));
            let (sa, sb) = (a.iter().copied().collect::<Set<i64>>(), b.iter().copied().collect::<Set<i64>>());
            prop_assert_eq!(sa.to_vec(), la.clone());
            prop_assert_eq!(sa.len(), la.len());
            let union: Vec<i64> = list(&[a.clone(), b.clone()].concat());
            prop_assert_eq!(sa.union(&sb).to_vec(), union);
            let inter: Vec<i64> = la.iter().copied().filter(|x| lb.contains(x)).collect();
            prop_assert_eq!(sa.inter(&sb).to_vec(), inter.clone());
            prop_assert_eq!(sa.inter(&sb), inter.into_iter().collect::<Set<i64>>());
            let diff: Vec<i64> = la.iter().copied().filter(|x| !lb.contains(x)).collect();
            prop_assert_eq!(sa.diff(&sb), diff.into_iter().collect::<Set<i64>>());
            prop_assert_eq!(sa.cmp(&sb), la.cmp(&lb));
            prop_assert_eq!(sa == sb, la == lb);
            prop_assert_eq!(Domain::extreme(&sa, false), la.first().copied());
            prop_assert_eq!(Domain::extreme(&sa, true), la.last().copied());
            for x in -3..140 {
                prop_assert_eq!(sa.contains(&x), la.contains(&x));
            }
            prop_assert_eq!(sa.clone().into_iter().collect::<Vec<_>>(), la);
        }

        /// A word shifted by `lo` is the set of `lo + i` for its bits `i`.
        #[test]
        fn sets_from_bits(
            bits in prop_oneof![Just(0u128), Just(u128::MAX), any::<u128>()],
            lo in -200i64..200,
        ) {
            let want: Vec<i64> = BitIter::of(bits).map(|i| lo + i).collect();
            prop_assert_eq!(Set::from_bits(bits, lo).to_vec(), want.clone());
            prop_assert_eq!(Set::from_bits(bits, lo), want.into_iter().collect::<Set<i64>>());
        }

        /// `within` and `to_bits` agree with their definitions.
        #[test]
        fn field_checks_and_packing(
            a in proptest::collection::vec(-3i64..140, 0..12),
            lo in -5i64..20,
            width in 0i64..130,
        ) {
            let set = a.iter().copied().collect::<Set<i64>>();
            let hi = lo + width;
            prop_assert_eq!(set.within(lo, hi), a.iter().all(|&x| lo <= x && x <= hi));
            if width < 128 && set.within(lo, hi) {
                let want = a.iter().fold(0u128, |b, &x| b | 1 << (x - lo));
                prop_assert_eq!(set.to_bits(lo), want);
            }
        }
    }
}
