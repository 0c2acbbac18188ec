//! Finite sets for generated code. The element type chooses the storage: a set of integers
//! whose elements all lie in `0..128` (board lines, cells, small heaps) is one 128-bit word
//! and never touches the allocator; a set of values with small codes (a finite tagged type,
//! pairs of small numbers such as board cells) is a bit set of their codes; every other set
//! is a sorted vector. Either way a set iterates in increasing order and compares like its
//! sorted list of elements, as the interpreter's sets do.

use super::Domain;
use std::cmp::Ordering;
use std::fmt::Debug;
use std::hash::Hash;

/// A type that can be an element of a [`Set`]; `Store` is how such sets are kept.
///
/// Values may also have *codes*: numbers in `0..CODES` that increase with the value, so that
/// a set of values that all have codes is a bit set of them ([`CodeStore`]). A tuple's code
/// combines its parts' codes (the first part most significant) when it has at most
/// [`MAX_CODES`] of them.
pub trait Elem: Ord + Clone + Hash + Debug {
    /// The storage of a set of this element type.
    type Store: Store<Self>;
    /// How many codes values of this type use (0: none has a code).
    const CODES: u32 = 0;
    /// This value's code, below `CODES`, when it has one.
    #[inline(always)]
    fn code(&self) -> Option<u32> {
        None
    }
    /// The value whose code is `code` (a code some value has).
    fn decode(code: u32) -> Self {
        unreachable!("no value has the code {code}")
    }
}

/// The most codes a tuple's values use: a set of them is then [`CODE_WORDS`] words.
pub const MAX_CODES: u32 = 256;

/// The words of a set of tuples that have codes.
pub const CODE_WORDS: usize = (MAX_CODES / 64) as usize;

/// The codes an integer has as a part of a tuple: `0..16`, so that a pair of them (a board
/// cell of up to 16 × 16) has a code below [`MAX_CODES`].
pub const INT_CODES: u32 = 16;

/// The codes whose bits are set in `bits`, in increasing order.
#[inline]
pub fn code_bits_of(bits: [u64; CODE_WORDS]) -> impl Iterator<Item = u32> {
    (0..CODE_WORDS).flat_map(move |i| {
        let mut w = bits[i];
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let bit = w.trailing_zeros();
                w &= w - 1;
                i as u32 * 64 + bit
            })
        })
    })
}

/// `W` words as [`CODE_WORDS`] words (when `W` is at most that many).
#[inline(always)]
fn widened<const W: usize>(w: &[u64; W]) -> Option<[u64; CODE_WORDS]> {
    (W <= CODE_WORDS).then(|| std::array::from_fn(|i| if i < W { w[i] } else { 0 }))
}

/// [`CODE_WORDS`] words as `W` words, when no bit lies past them.
#[inline(always)]
fn narrowed<const W: usize>(bits: &[u64; CODE_WORDS]) -> Option<[u64; W]> {
    (bits.iter().skip(W).all(|&b| b == 0))
        .then(|| std::array::from_fn(|i| bits.get(i).copied().unwrap_or(0)))
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
    /// Whether adding one element and testing one are a few word operations (a set of
    /// values with codes), not a search and a copy.
    const BITS: bool = false;

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
    /// `self | {x}`
    fn with(&self, x: T) -> Self {
        let mut b = Self::Builder::default();
        Self::push(&mut b, x);
        self.union(&Self::build(b))
    }
    /// `self - {x}`
    fn without(&self, x: T) -> Self {
        let mut b = Self::Builder::default();
        Self::push(&mut b, x);
        self.diff(&Self::build(b))
    }
    /// The elements' codes as the bits of [`CODE_WORDS`] words, when the set is kept as
    /// such bits; `None` otherwise.
    #[inline(always)]
    fn code_bits(&self) -> Option<[u64; CODE_WORDS]> {
        None
    }
    /// The set of the values whose codes are the bits of `bits` (each a code some value
    /// has).
    fn from_code_bits(bits: [u64; CODE_WORDS]) -> Self
    where
        T: Elem,
    {
        let mut b = Self::Builder::default();
        for code in code_bits_of(bits) {
            Self::push(&mut b, T::decode(code));
        }
        Self::build(b)
    }
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
    pub const fn from_u128(bits: u128) -> Word {
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
    // Inlined, so that the new set stays in registers: returned through memory, its two
    // words were reloaded as one 16-byte vector, which stalls on the two 8-byte stores
    // (a third of the move rule's time in degenerate dots).
    #[inline(always)]
    fn with(&self, x: i64) -> Self {
        match (self, small(x)) {
            (IntStore::Small(a), Some(i)) => IntStore::Small(a.or(Word::bit(i))),
            _ => large_op(self, &IntStore::Large(vec![x]), SetOp::Union),
        }
    }
    #[inline(always)]
    fn without(&self, x: i64) -> Self {
        match (self, small(x)) {
            (IntStore::Small(a), Some(i)) => IntStore::Small(a.and_not(Word::bit(i))),
            _ => large_op(self, &IntStore::Large(vec![x]), SetOp::Diff),
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
    const CODES: u32 = INT_CODES;
    #[inline(always)]
    fn code(&self) -> Option<u32> {
        u32::try_from(*self).ok().filter(|&c| c < INT_CODES)
    }
    #[inline(always)]
    fn decode(code: u32) -> i64 {
        i64::from(code)
    }
}

impl Elem for bool {
    type Store = VecStore<bool>;
    const CODES: u32 = 2;
    #[inline(always)]
    fn code(&self) -> Option<u32> {
        Some(u32::from(*self))
    }
    #[inline(always)]
    fn decode(code: u32) -> bool {
        code != 0
    }
}

impl Elem for () {
    type Store = VecStore<()>;
}

/// The number of codes of a tuple whose parts have `parts` codes each: their product, or 0
/// when a part has none or the product is over [`MAX_CODES`].
pub const fn tuple_codes(parts: &[u32]) -> u32 {
    let mut product: u64 = 1;
    let mut i = 0;
    while i < parts.len() {
        product *= parts[i] as u64;
        if product > MAX_CODES as u64 {
            return 0;
        }
        i += 1;
    }
    product as u32
}

macro_rules! tuple_elem {
    ($($name:ident $idx:tt),+) => {
        impl<$($name: Elem),+> Elem for ($($name,)+) {
            type Store = CodeStore<($($name,)+), CODE_WORDS>;
            const CODES: u32 = tuple_codes(&[$($name::CODES),+]);
            #[inline(always)]
            fn code(&self) -> Option<u32> {
                if Self::CODES == 0 {
                    return None;
                }
                let mut code = 0;
                $(code = code * $name::CODES + self.$idx.code()?;)+
                Some(code)
            }
            #[inline(always)]
            #[allow(unused_assignments)]
            fn decode(code: u32) -> Self {
                let mut below = Self::CODES;
                ($({
                    below /= $name::CODES;
                    $name::decode(code / below % $name::CODES)
                },)+)
            }
        }
    };
}
tuple_elem!(A 0);
tuple_elem!(A 0, B 1);
tuple_elem!(A 0, B 1, C 2);
tuple_elem!(A 0, B 1, C 2, D 3);
tuple_elem!(A 0, B 1, C 2, D 3, E 4);
tuple_elem!(A 0, B 1, C 2, D 3, E 4, F 5);
tuple_elem!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple_elem!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

/// The storage of sets of values with codes: the bits of `W` words (bit `c` set: the value
/// of code `c` is an element) while every element has a code below `64 W`, else a sorted
/// vector. (A finite tagged type, whose values all have codes, has [`BitStore`].)
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CodeStore<T, const W: usize> {
    /// The elements' codes.
    Bits([u64; W]),
    /// Some element has no code in `0..64 W`.
    List(Vec<T>),
}

/// Collects values: those with codes as bits, the others in a vector.
pub struct CodeBuilder<T, const W: usize> {
    bits: [u64; W],
    list: Vec<T>,
}

impl<T, const W: usize> Default for CodeBuilder<T, W> {
    fn default() -> Self {
        CodeBuilder {
            bits: [0; W],
            list: Vec::new(),
        }
    }
}

/// The code of `x` as a bit of `W` words: `(word, mask)`.
#[inline(always)]
fn code_bit<T: Elem, const W: usize>(x: &T) -> Option<(usize, u64)> {
    let c = x.code()? as usize;
    (c < 64 * W).then(|| (c / 64, 1u64 << (c % 64)))
}

/// The elements of code words, in increasing order.
#[derive(Clone, Debug)]
pub struct CodeBits<T, const W: usize> {
    words: [u64; W],
    at: usize,
    _elem: std::marker::PhantomData<fn() -> T>,
}

impl<T: Elem, const W: usize> CodeBits<T, W> {
    fn new(words: [u64; W]) -> Self {
        CodeBits {
            words,
            at: 0,
            _elem: std::marker::PhantomData,
        }
    }
}

impl<T: Elem, const W: usize> Iterator for CodeBits<T, W> {
    type Item = T;
    #[inline]
    fn next(&mut self) -> Option<T> {
        while self.at < W {
            let w = &mut self.words[self.at];
            if *w != 0 {
                let i = w.trailing_zeros();
                *w &= *w - 1;
                return Some(T::decode(self.at as u32 * 64 + i));
            }
            self.at += 1;
        }
        None
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.words[self.at.min(W)..]
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum();
        (n, Some(n))
    }
}

/// Iterates a [`CodeStore`].
#[derive(Clone, Debug)]
pub enum CodeIter<'a, T, const W: usize> {
    /// Elements from their codes.
    Bits(CodeBits<T, W>),
    /// A vector's elements.
    Slice(std::slice::Iter<'a, T>),
}

impl<T: Elem, const W: usize> Iterator for CodeIter<'_, T, W> {
    type Item = T;
    #[inline]
    fn next(&mut self) -> Option<T> {
        match self {
            CodeIter::Bits(b) => b.next(),
            CodeIter::Slice(s) => s.next().cloned(),
        }
    }
}

/// Iterates a [`CodeStore`] by value.
#[derive(Clone, Debug)]
pub enum CodeIntoIter<T, const W: usize> {
    /// Elements from their codes.
    Bits(CodeBits<T, W>),
    /// A vector's elements.
    Vec(std::vec::IntoIter<T>),
}

impl<T: Elem, const W: usize> Iterator for CodeIntoIter<T, W> {
    type Item = T;
    #[inline]
    fn next(&mut self) -> Option<T> {
        match self {
            CodeIntoIter::Bits(b) => b.next(),
            CodeIntoIter::Vec(v) => v.next(),
        }
    }
}

/// A set operation with a vector operand (kept out of line, so that the bits case inlines).
#[cold]
#[inline(never)]
fn code_list_op<T: Elem, const W: usize>(
    a: &CodeStore<T, W>,
    b: &CodeStore<T, W>,
    op: SetOp,
) -> CodeStore<T, W> {
    let items: Vec<T> = match op {
        SetOp::Union => a.iter().chain(b.iter()).collect(),
        SetOp::Inter => a.iter().filter(|x| b.contains(x)).collect(),
        SetOp::Diff => a.iter().filter(|x| !b.contains(x)).collect(),
    };
    let mut builder = CodeBuilder::default();
    for x in items {
        <CodeStore<T, W> as Store<T>>::push(&mut builder, x);
    }
    <CodeStore<T, W> as Store<T>>::build(builder)
}

#[cold]
#[inline(never)]
fn build_code_list<T: Elem, const W: usize>(builder: CodeBuilder<T, W>) -> CodeStore<T, W> {
    let mut all = builder.list;
    all.extend(CodeBits::<T, W>::new(builder.bits));
    all.sort_unstable();
    all.dedup();
    CodeStore::List(all)
}

impl<T: Elem, const W: usize> CodeStore<T, W> {
    #[inline(always)]
    fn words_op(&self, other: &Self, op: SetOp) -> Self {
        match (self, other) {
            (CodeStore::Bits(a), CodeStore::Bits(b)) => {
                let mut out = [0u64; W];
                for i in 0..W {
                    out[i] = match op {
                        SetOp::Union => a[i] | b[i],
                        SetOp::Inter => a[i] & b[i],
                        SetOp::Diff => a[i] & !b[i],
                    };
                }
                CodeStore::Bits(out)
            }
            _ => code_list_op(self, other, op),
        }
    }
}

impl<T: Elem, const W: usize> Store<T> for CodeStore<T, W> {
    type Iter<'a>
        = CodeIter<'a, T, W>
    where
        T: 'a;
    type IntoIter = CodeIntoIter<T, W>;
    type Builder = CodeBuilder<T, W>;
    const BITS: bool = true;

    #[inline(always)]
    fn push(builder: &mut CodeBuilder<T, W>, x: T) {
        match code_bit::<T, W>(&x) {
            Some((i, bit)) => builder.bits[i] |= bit,
            None => builder.list.push(x),
        }
    }
    #[inline(always)]
    fn build(builder: CodeBuilder<T, W>) -> Self {
        if builder.list.is_empty() {
            CodeStore::Bits(builder.bits)
        } else {
            build_code_list(builder)
        }
    }
    #[inline]
    fn contains(&self, x: &T) -> bool {
        match self {
            CodeStore::Bits(w) => code_bit::<T, W>(x).is_some_and(|(i, bit)| w[i] & bit != 0),
            CodeStore::List(v) => v.binary_search(x).is_ok(),
        }
    }
    #[inline]
    fn len(&self) -> usize {
        match self {
            CodeStore::Bits(w) => w.iter().map(|x| x.count_ones() as usize).sum(),
            CodeStore::List(v) => v.len(),
        }
    }
    #[inline]
    fn is_empty(&self) -> bool {
        match self {
            CodeStore::Bits(w) => w.iter().all(|&x| x == 0),
            CodeStore::List(v) => v.is_empty(),
        }
    }
    #[inline]
    fn iter(&self) -> CodeIter<'_, T, W> {
        match self {
            CodeStore::Bits(w) => CodeIter::Bits(CodeBits::new(*w)),
            CodeStore::List(v) => CodeIter::Slice(v.iter()),
        }
    }
    #[inline]
    fn into_iter(self) -> CodeIntoIter<T, W> {
        match self {
            CodeStore::Bits(w) => CodeIntoIter::Bits(CodeBits::new(w)),
            CodeStore::List(v) => CodeIntoIter::Vec(v.into_iter()),
        }
    }
    #[inline]
    fn union(&self, other: &Self) -> Self {
        self.words_op(other, SetOp::Union)
    }
    #[inline]
    fn inter(&self, other: &Self) -> Self {
        self.words_op(other, SetOp::Inter)
    }
    #[inline]
    fn diff(&self, other: &Self) -> Self {
        self.words_op(other, SetOp::Diff)
    }
    #[inline(always)]
    fn code_bits(&self) -> Option<[u64; CODE_WORDS]> {
        match self {
            CodeStore::Bits(w) => widened(w),
            CodeStore::List(_) => None,
        }
    }
    fn from_code_bits(bits: [u64; CODE_WORDS]) -> Self {
        match narrowed::<W>(&bits) {
            Some(w) => CodeStore::Bits(w),
            None => CodeStore::List(code_bits_of(bits).map(T::decode).collect()),
        }
    }
    #[inline(always)]
    fn with(&self, x: T) -> Self {
        match (self, code_bit::<T, W>(&x)) {
            (CodeStore::Bits(w), Some((i, bit))) => {
                let mut w = *w;
                w[i] |= bit;
                CodeStore::Bits(w)
            }
            _ => {
                let mut b = CodeBuilder::default();
                Self::push(&mut b, x);
                self.union(&Self::build(b))
            }
        }
    }
    #[inline(always)]
    fn without(&self, x: T) -> Self {
        match (self, code_bit::<T, W>(&x)) {
            (CodeStore::Bits(w), Some((i, bit))) => {
                let mut w = *w;
                w[i] &= !bit;
                CodeStore::Bits(w)
            }
            _ => {
                let mut b = CodeBuilder::default();
                Self::push(&mut b, x);
                self.diff(&Self::build(b))
            }
        }
    }
    fn extreme(&self, largest: bool) -> Option<T> {
        match self {
            CodeStore::Bits(w) => extreme_code(w, largest).map(T::decode),
            CodeStore::List(v) if largest => v.last().cloned(),
            CodeStore::List(v) => v.first().cloned(),
        }
    }
}

/// The storage of sets of a type whose every value has a code below `64 W` (a finite tagged
/// type, whose codes are its values' ranks): just the bits, so such a set is `W` words, is
/// `Copy` and never allocates.
pub struct BitStore<T, const W: usize> {
    words: [u64; W],
    _elem: std::marker::PhantomData<fn() -> T>,
}

impl<T, const W: usize> BitStore<T, W> {
    #[inline(always)]
    fn of(words: [u64; W]) -> Self {
        BitStore {
            words,
            _elem: std::marker::PhantomData,
        }
    }
}

impl<T, const W: usize> Clone for BitStore<T, W> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, const W: usize> Copy for BitStore<T, W> {}
impl<T, const W: usize> PartialEq for BitStore<T, W> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.words == other.words
    }
}
impl<T, const W: usize> Eq for BitStore<T, W> {}
impl<T, const W: usize> Hash for BitStore<T, W> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.words.hash(state);
    }
}
impl<T, const W: usize> Debug for BitStore<T, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.words.iter()).finish()
    }
}

/// The code of `x`, which has one below `64 W`, as a bit of `W` words: `(word, mask)`.
#[inline(always)]
fn own_bit<T: Elem, const W: usize>(x: &T) -> (usize, u64) {
    let c = x.code().unwrap_or(0) as usize;
    (c / 64 % W, 1u64 << (c % 64))
}

impl<T: Elem, const W: usize> Store<T> for BitStore<T, W> {
    type Iter<'a>
        = CodeBits<T, W>
    where
        T: 'a;
    type IntoIter = CodeBits<T, W>;
    type Builder = BitStore<T, W>;
    const BITS: bool = true;

    #[inline(always)]
    fn push(builder: &mut BitStore<T, W>, x: T) {
        let (i, bit) = own_bit::<T, W>(&x);
        builder.words[i] |= bit;
    }
    #[inline(always)]
    fn build(builder: BitStore<T, W>) -> Self {
        builder
    }
    #[inline]
    fn contains(&self, x: &T) -> bool {
        let (i, bit) = own_bit::<T, W>(x);
        self.words[i] & bit != 0
    }
    #[inline]
    fn len(&self) -> usize {
        self.words.iter().map(|x| x.count_ones() as usize).sum()
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.words.iter().all(|&x| x == 0)
    }
    #[inline]
    fn iter(&self) -> CodeBits<T, W> {
        CodeBits::new(self.words)
    }
    #[inline]
    fn into_iter(self) -> CodeBits<T, W> {
        CodeBits::new(self.words)
    }
    #[inline]
    fn union(&self, other: &Self) -> Self {
        Self::of(std::array::from_fn(|i| self.words[i] | other.words[i]))
    }
    #[inline]
    fn inter(&self, other: &Self) -> Self {
        Self::of(std::array::from_fn(|i| self.words[i] & other.words[i]))
    }
    #[inline]
    fn diff(&self, other: &Self) -> Self {
        Self::of(std::array::from_fn(|i| self.words[i] & !other.words[i]))
    }
    #[inline(always)]
    fn code_bits(&self) -> Option<[u64; CODE_WORDS]> {
        widened(&self.words)
    }
    fn from_code_bits(bits: [u64; CODE_WORDS]) -> Self {
        // Every value of the type has a code below `64 W`.
        debug_assert!(narrowed::<W>(&bits).is_some());
        Self::of(std::array::from_fn(|i| bits.get(i).copied().unwrap_or(0)))
    }
    #[inline(always)]
    fn with(&self, x: T) -> Self {
        let (i, bit) = own_bit::<T, W>(&x);
        let mut words = self.words;
        words[i] |= bit;
        Self::of(words)
    }
    #[inline(always)]
    fn without(&self, x: T) -> Self {
        let (i, bit) = own_bit::<T, W>(&x);
        let mut words = self.words;
        words[i] &= !bit;
        Self::of(words)
    }
    fn extreme(&self, largest: bool) -> Option<T> {
        extreme_code(&self.words, largest).map(T::decode)
    }
}

impl<T, const W: usize> Default for BitStore<T, W> {
    #[inline(always)]
    fn default() -> Self {
        Self::of([0; W])
    }
}

/// The columns some cell of a set of cells has (bit `c`: column `c`): every row's 16 bits
/// of codes, or-ed.
fn columns_of(w: &[u64; CODE_WORDS]) -> u16 {
    let rows = w.iter().fold(0u64, |acc, &word| acc | word);
    (0..4).fold(0u16, |acc, k| acc | (rows >> (16 * k)) as u16)
}

/// The smallest or largest code of a bit set.
fn extreme_code<const W: usize>(w: &[u64; W], largest: bool) -> Option<u32> {
    let mut words = (0..W).filter(|&i| w[i] != 0);
    let i = if largest {
        words.next_back()?
    } else {
        words.next()?
    };
    let bit = if largest {
        63 - w[i].leading_zeros()
    } else {
        w[i].trailing_zeros()
    };
    Some(i as u32 * 64 + bit)
}

impl<T: Elem, const W: usize> Set<T>
where
    T: Elem<Store = BitStore<T, W>>,
{
    /// The set's bits (bit `c`: the value of code `c` is an element).
    #[inline(always)]
    pub fn words(&self) -> [u64; W] {
        self.0.words
    }

    /// The set of the values whose codes are the bits of `words` (each a value's code).
    #[inline(always)]
    pub fn from_words(words: [u64; W]) -> Self {
        Set(BitStore::of(words))
    }
}

/// Transposes a 16 × 16 matrix of bits, row `r` the lane `rows[r]` with column `c` its bit
/// `c`: bit `c` of row `r` becomes bit `r` of row `c` (blocks of 8, 4, 2 and 1 exchanged
/// in turn).
fn transpose(rows: &mut [u16; 16]) {
    let mut size = 8;
    let mut mask: u16 = 0x00ff;
    while size > 0 {
        for r in 0..16 {
            if r & size == 0 {
                let t = ((rows[r] >> size) ^ rows[r + size]) & mask;
                rows[r] ^= t << size;
                rows[r + size] ^= t;
            }
        }
        size /= 2;
        mask ^= mask << size;
    }
}

impl Set<(i64, i64)> {
    /// Whether every element is a cell `(r, c)` with `r` in `r0..r0 + rows` and `c` in
    /// `c0..c0 + cols` (all below 16): a field type's check, on the bits when the set is
    /// bits.
    #[inline]
    pub fn cells_within(&self, r0: u32, rows: u32, c0: u32, cols: u32) -> bool {
        match self.code_words() {
            Some(w) => {
                let mut allowed = [0u64; CODE_WORDS];
                let row = ((1u64 << cols) - 1) << c0;
                for r in r0..r0 + rows {
                    let code = r * INT_CODES;
                    allowed[(code / 64) as usize] |= row << (code % 64);
                }
                (0..CODE_WORDS).all(|i| w[i] & !allowed[i] == 0)
            }
            None => self.iter().all(|(r, c)| {
                (i64::from(r0)..i64::from(r0 + rows)).contains(&r)
                    && (i64::from(c0)..i64::from(c0 + cols)).contains(&c)
            }),
        }
    }

    /// The least (or, `largest`, the largest) of part `part` (0 or 1) of the elements, on
    /// the bits: `Some(None)` for the empty set, `None` where the set is not bits.
    #[inline]
    pub fn part_extreme(&self, part: usize, largest: bool) -> Option<Option<i64>> {
        let w = self.code_words()?;
        let found = if part == 0 {
            extreme_code(w, largest).map(|code| code / INT_CODES)
        } else {
            let columns = columns_of(w);
            (columns != 0).then(|| match largest {
                true => 15 - columns.leading_zeros(),
                false => columns.trailing_zeros(),
            })
        };
        Some(found.map(i64::from))
    }

    /// `{ (x.0 - dr, x.1 - dc) for x in self }` with natural subtraction, as a move of the
    /// set's bits: where the set is bits and every element has `x.0 >= dr` and `x.1 >= dc`,
    /// each code `16 r + c` becomes `16 (r - dr) + c - dc`, one shift of the words. `None`
    /// where that does not hold (the caller then computes it element by element, and fails
    /// where the comprehension fails).
    #[inline]
    pub fn translated_down(&self, dr: i64, dc: i64) -> Option<Set<(i64, i64)>> {
        let w = self.code_words()?;
        if dr < 0 || dc < 0 {
            return None;
        }
        // The least row and column: the move is one shift where neither goes below 0.
        let (Some(row), Some(column)) =
            (self.part_extreme(0, false)?, self.part_extreme(1, false)?)
        else {
            return Some(self.clone());
        };
        if dr > row || dc > column {
            return None;
        }
        let shift = (dr as usize) * INT_CODES as usize + dc as usize;
        let (words, bits) = (shift / 64, shift % 64);
        let moved: [u64; CODE_WORDS] = std::array::from_fn(|i| {
            let at = |j: usize| w.get(j).copied().unwrap_or(0);
            let low = at(i + words) >> bits;
            let high = if bits == 0 {
                0
            } else {
                at(i + words + 1) << (64 - bits)
            };
            low | high
        });
        Some(Set::from_code_words(moved))
    }

    /// `{ (f0(p0), f1(p1)) for x in self }`, where `(p0, p1)` is `(x.0, x.1)`, or
    /// `(x.1, x.0)` where `swapped`, and `fi(v)` is `v`, or `k - v` with natural
    /// subtraction where `flips[i]` is `Some(k)` (a mirror, a transpose or a turn of a
    /// board), on the set's bits: its 16 rows transposed, moved and reversed as words,
    /// with no list built and sorted. `None` where the set is not bits, or some `v`
    /// exceeds its `k`, or a `k` lies past the bits' 16 codes a part (the caller then
    /// computes it element by element, and fails where the comprehension fails).
    #[inline]
    pub fn cells_mapped(&self, swapped: bool, flips: [Option<i64>; 2]) -> Option<Set<(i64, i64)>> {
        let w = self.code_words()?;
        // Each `k` has a code and is not below the largest value of the part it is
        // subtracted from (`part_extreme` of the set as it is, before any exchange).
        // A part with no `k` is not read.
        let room = |k: Option<i64>, part: usize| match k {
            None => Some(None),
            Some(k) => match self.part_extreme(part, true)? {
                None => Some(None),
                Some(v) => ((0..16).contains(&k) && v <= k).then_some(Some(k)),
            },
        };
        let (p0, p1) = if swapped { (1, 0) } else { (0, 1) };
        let (flip_rows, flip_columns) = (room(flips[0], p0)?, room(flips[1], p1)?);
        // Row `r` is lane `r`: the 16 bits of codes `16 r..16 r + 16`.
        let mut rows: [u16; 16] = std::array::from_fn(|r| (w[r / 4] >> (16 * (r % 4))) as u16);
        if swapped {
            transpose(&mut rows);
        }
        let mut mapped = [0u64; CODE_WORDS];
        for (r, &row) in rows.iter().enumerate() {
            if row == 0 {
                continue;
            }
            let to = match flip_rows {
                Some(k) => k as usize - r,
                None => r,
            };
            let row = match flip_columns {
                Some(k) => row.reverse_bits() >> (15 - k),
                None => row,
            };
            mapped[to / 4] |= u64::from(row) << (16 * (to % 4));
        }
        Some(Set::from_code_words(mapped))
    }
}

impl<T: Elem, const W: usize> Set<T>
where
    T: Elem<Store = CodeStore<T, W>>,
{
    /// The set's code words, when every element has a code (always for a finite tagged
    /// type; for tuples of small parts, such as the cells of a board up to 16 × 16).
    #[inline]
    pub fn code_words(&self) -> Option<&[u64; W]> {
        match &self.0 {
            CodeStore::Bits(w) => Some(w),
            CodeStore::List(_) => None,
        }
    }

    /// The set of the values whose codes are the bits of `words` (each a value's code).
    #[inline]
    pub fn from_code_words(words: [u64; W]) -> Self {
        Set(CodeStore::Bits(words))
    }
}

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

    /// `a | {x}`
    #[inline(always)]
    pub fn with(&self, x: T) -> Set<T> {
        Set(self.0.with(x))
    }

    /// `a - {x}`
    #[inline(always)]
    pub fn without(&self, x: T) -> Set<T> {
        Set(self.0.without(x))
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

    /// The elements' codes as bits, when the set is kept so (see [`Store::code_bits`]).
    #[inline(always)]
    pub fn code_bits(&self) -> Option<[u64; CODE_WORDS]> {
        self.0.code_bits()
    }

    /// The set of the values whose codes are the bits of `bits`.
    #[inline]
    pub fn from_code_bits(bits: [u64; CODE_WORDS]) -> Set<T> {
        Set(T::Store::from_code_bits(bits))
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

    /// The set whose elements are the bits of `bits` (`{i : bit i is set}`): the form of a
    /// table of small sets of numbers in generated code.
    #[inline(always)]
    pub const fn from_word(bits: u128) -> Set<i64> {
        Set(IntStore::Small(Word::from_u128(bits)))
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

    /// A type of 100 values whose codes are their ranks, as generated code declares a tagged
    /// type (two words of bits).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    struct Ranked(u32);

    impl Elem for Ranked {
        type Store = BitStore<Ranked, 2>;
        const CODES: u32 = 100;
        fn code(&self) -> Option<u32> {
            Some(self.0)
        }
        fn decode(code: u32) -> Ranked {
            Ranked(code)
        }
    }

    /// Union, intersection, difference, order, `len`, `contains`, `min`/`max` and iteration
    /// of the sets of `a` and `b` are those of their sorted, deduplicated lists.
    fn check_like_lists<T: Elem + Copy>(
        a: &[T],
        b: &[T],
        probes: &[T],
    ) -> Result<(), TestCaseError> {
        let list = |v: &[T]| {
            let mut v = v.to_vec();
            v.sort();
            v.dedup();
            v
        };
        let (la, lb) = (list(a), list(b));
        let (sa, sb): (Set<T>, Set<T>) = (a.iter().copied().collect(), b.iter().copied().collect());
        prop_assert_eq!(sa.to_vec(), la.clone());
        prop_assert_eq!(sa.len(), la.len());
        prop_assert_eq!(sa.is_empty(), la.is_empty());
        prop_assert_eq!(sa.union(&sb).to_vec(), list(&[a, b].concat()));
        let inter: Vec<T> = la.iter().copied().filter(|x| lb.contains(x)).collect();
        prop_assert_eq!(sa.inter(&sb), inter.into_iter().collect::<Set<T>>());
        let diff: Vec<T> = la.iter().copied().filter(|x| !lb.contains(x)).collect();
        prop_assert_eq!(sa.diff(&sb), diff.into_iter().collect::<Set<T>>());
        prop_assert_eq!(sa.cmp(&sb), la.cmp(&lb));
        prop_assert_eq!(sa == sb, la == lb);
        prop_assert_eq!(Domain::extreme(&sa, false), la.first().copied());
        prop_assert_eq!(Domain::extreme(&sa, true), la.last().copied());
        for x in la.iter().chain(&lb).chain(probes) {
            prop_assert_eq!(sa.contains(x), la.contains(x));
            // `s | {x}` and `s - {x}`, as the union and difference with `{x}`.
            let one: Set<T> = [*x].into_iter().collect();
            prop_assert_eq!(sa.with(*x), sa.union(&one));
            prop_assert_eq!(sa.without(*x), sa.diff(&one));
        }
        prop_assert_eq!(sa.into_iter().collect::<Vec<_>>(), la);
        Ok(())
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
            // `s | {x}` and `s - {x}`, in canonical form (bits or vector) like any set.
            for x in [-3, 0, 5, 127, 128, 139].into_iter().chain(lb.iter().copied()) {
                let with: Vec<i64> = list(&[la.clone(), vec![x]].concat());
                prop_assert_eq!(sa.with(x), with.into_iter().collect::<Set<i64>>());
                let without: Vec<i64> = la.iter().copied().filter(|&y| y != x).collect();
                prop_assert_eq!(sa.without(x), without.into_iter().collect::<Set<i64>>());
            }
            prop_assert_eq!(sa.clone().into_iter().collect::<Vec<_>>(), la);
        }

        /// `translated_down` against its definition: where it answers, the set of the
        /// elements each moved by natural subtraction; it answers on every set of cells
        /// whose subtraction never goes below 0, and on no other. `part_extreme` against
        /// the least and largest of each part.
        #[test]
        fn cell_bits_are_the_definitions(
            cells in proptest::collection::vec((0i64..16, 0i64..16), 0..12),
            dr in 0i64..17,
            dc in 0i64..17,
        ) {
            let set: Set<(i64, i64)> = cells.iter().copied().collect();
            let fits = cells.iter().all(|&(r, c)| r >= dr && c >= dc);
            let moved = set.translated_down(dr, dc);
            prop_assert_eq!(moved.is_some(), fits);
            if let Some(moved) = moved {
                let by_elements: Set<(i64, i64)> =
                    cells.iter().map(|&(r, c)| (r - dr, c - dc)).collect();
                prop_assert_eq!(moved, by_elements);
            }
            // Each part's extremes, against the elements'.
            for part in 0..2 {
                let of = |largest: bool| {
                    let values = cells.iter().map(|&(r, c)| if part == 0 { r } else { c });
                    if largest { values.max() } else { values.min() }
                };
                prop_assert_eq!(set.part_extreme(part, false), Some(of(false)));
                prop_assert_eq!(set.part_extreme(part, true), Some(of(true)));
            }
            // A set that is not bits, or a negative move, is left to the caller.
            let wide = set.with((20, 0));
            prop_assert!(wide.translated_down(dr, dc).is_none());
            prop_assert!(wide.part_extreme(1, false).is_none());
            prop_assert!(set.translated_down(-1, dc).is_none());
        }

        /// `cells_mapped` against the comprehension it stands for, element by element
        /// with natural subtraction: it answers on every set whose subtractions never go
        /// below 0 and whose `k`s have codes, and on no other.
        #[test]
        fn mapped_cells_are_the_comprehension(
            cells in proptest::collection::vec((0i64..16, 0i64..16), 0..12),
            swapped in any::<bool>(),
            flips in [proptest::option::of(-1i64..18), proptest::option::of(-1i64..18)],
        ) {
            let set: Set<(i64, i64)> = cells.iter().copied().collect();
            let image = |&(r, c): &(i64, i64)| {
                let (p0, p1) = if swapped { (c, r) } else { (r, c) };
                let flip = |v: i64, k: Option<i64>| match k {
                    None => Some(v),
                    Some(k) => (v <= k).then_some(k - v),
                };
                Some((flip(p0, flips[0])?, flip(p1, flips[1])?))
            };
            let by_elements: Option<Set<(i64, i64)>> = cells.iter().map(image).collect();
            let coded = flips.iter().flatten().all(|&k| (0..16).contains(&k));
            let mapped = set.cells_mapped(swapped, flips);
            prop_assert_eq!(mapped.is_some(), by_elements.is_some() && (coded || cells.is_empty()));
            if let Some(mapped) = mapped {
                prop_assert_eq!(Some(mapped), by_elements);
            }
            prop_assert!(set.with((20, 0)).cells_mapped(swapped, flips).is_none());
        }

        /// Sets of pairs (bits of codes while every part is in `0..16`, else a vector) and
        /// sets of a type whose values all have codes (bits) behave as sorted lists.
        #[test]
        fn code_sets_match_sorted_lists(
            a in proptest::collection::vec((-1i64..18, 0i64..17), 0..12),
            b in proptest::collection::vec((-1i64..18, 0i64..17), 0..12),
            x in proptest::collection::vec(0u32..100, 0..12),
            y in proptest::collection::vec(0u32..100, 0..12),
        ) {
            check_like_lists(&a, &b, &[(-1, 3), (5, 5), (15, 15), (16, 0), (3, 16)])?;
            let ranked = |v: &[u32]| v.iter().map(|&r| Ranked(r)).collect::<Vec<_>>();
            check_like_lists(&ranked(&x), &ranked(&y), &[Ranked(0), Ranked(64), Ranked(99)])?;
        }
        /// A set of board cells packs into a position's field by the cells' ranks, and back.
        #[test]
        fn cells_pack_by_rank(
            cells in proptest::collection::vec((0u32..4, 0u32..5), 0..20),
            r0 in 0u32..12,
            c0 in 0u32..11,
            wide in any::<bool>(),
        ) {
            let set: Set<(i64, i64)> = (cells.iter())
                .map(|&(r, c)| (i64::from(r + r0), i64::from(c + c0)))
                .collect();
            let want = cells.iter().fold(0u128, |b, &(r, c)| b | 1 << (r * 5 + c));
            prop_assert!(set.cells_within(r0, 4, c0, 5));
            let outside = set.union(&Set::from_array([(i64::from(r0 + 4), i64::from(c0))]));
            prop_assert!(!outside.cells_within(r0, 4, c0, 5));
            let left = set.union(&Set::from_array([(i64::from(r0), i64::from(c0) - 1)]));
            prop_assert!(!left.cells_within(r0, 4, c0, 5));
            if wide {
                let packed = crate::native::Bits::pack_cells(&set, r0, 4, c0, 5);
                prop_assert_eq!(packed.0, want);
                prop_assert_eq!(packed.unpack_cells(r0, 4, c0, 5), set);
            } else {
                let packed = crate::native::Bits64::pack_cells(&set, r0, 4, c0, 5);
                prop_assert_eq!(u128::from(packed.0), want);
                prop_assert_eq!(packed.unpack_cells(r0, 4, c0, 5), set);
            }
        }

        /// Set algebra on packed cells is the algebra of the sets, packed: a cell's bit
        /// (none off the board) removes it, the packed cells read back in order, and a
        /// cell is in them as in the set.
        #[test]
        fn packed_cells_are_the_sets(
            cells in proptest::collection::vec((0u32..4, 0u32..5), 0..20),
            cell in (-2i64..8, -2i64..8),
            r0 in 0u32..3,
            c0 in 0u32..3,
        ) {
            use crate::native::{Bits, Bits64};
            let set: Set<(i64, i64)> = (cells.iter())
                .map(|&(r, c)| (i64::from(r + r0), i64::from(c + c0)))
                .collect();
            let removed = set.diff(&Set::from_array([cell]));
            let kept = set.inter(&Set::from_array([cell]));
            let packed = Bits::pack_cells(&set, r0, 4, c0, 5);
            let bit = Bits::pack_cell(cell, r0, 4, c0, 5);
            prop_assert_eq!(Bits(packed.0 & !bit.0), Bits::pack_cells(&removed, r0, 4, c0, 5));
            prop_assert_eq!(Bits(packed.0 & bit.0), Bits::pack_cells(&kept, r0, 4, c0, 5));
            let packed64 = Bits64::pack_cells(&set, r0, 4, c0, 5);
            let bit64 = Bits64::pack_cell(cell, r0, 4, c0, 5);
            prop_assert_eq!(Bits64(packed64.0 & !bit64.0), Bits64::pack_cells(&removed, r0, 4, c0, 5));
            let read: Vec<(i64, i64)> = packed.cells(r0, c0, 5).collect();
            prop_assert_eq!(&read, &set.iter().collect::<Vec<_>>());
            prop_assert_eq!(packed64.cells(r0, c0, 5).collect::<Vec<_>>(), read);
            prop_assert_eq!(packed.has_cell(cell, r0, 4, c0, 5), set.contains(&cell));
            prop_assert_eq!(packed64.has_cell(cell, r0, 4, c0, 5), set.contains(&cell));
        }

        /// A set of a type with codes packs into a position's field by its codes, and back.
        #[test]
        fn codes_pack(ranks in proptest::collection::vec(0u32..100, 0..20)) {
            let set: Set<Ranked> = ranks.iter().map(|&r| Ranked(r)).collect();
            let want = ranks.iter().fold(0u128, |b, &r| b | 1 << r);
            let packed = crate::native::Bits::pack_codes(&set);
            prop_assert_eq!(packed.0, want);
            prop_assert_eq!(packed.unpack_codes::<Ranked, 2>(), set);
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
