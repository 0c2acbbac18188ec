//! The solver's memo of leaf positions: a flat array for densely indexed positions, compact
//! tables for positions packed into 64-bit and 128-bit keys, and a hash map for the rest.

use crate::value::{IN_PROGRESS, UNKNOWN};
use rustc_hash::FxHashMap;
use std::hash::Hash;

/// Dense indices at or above this go to the other tables instead of the flat array.
pub(crate) const DENSE_LIMIT: usize = 1 << 28;

/// Entries of the cache of positions decided by an `end` option. Such a position is N
/// whatever else it allows, and finding that again costs only its moves up to the `end`:
/// keeping it out of the memo saves the memory of every board with a box ready to complete
/// (the general form of a hand-made `Threat` shortcut: degenerate dots written without one
/// held 1.6 GB on 4×5 dots, four times the tuned example). A lookup that misses solves the
/// position again, at once.
pub const ENDED_CACHE: usize = 1 << 16;

/// The keys of positions that an outcome search found N by an `end` option: a
/// direct-mapped cache of [`ENDED_CACHE`] keys (allocated when first used) beside the memo.
#[derive(Default)]
pub(crate) struct EndedCache {
    keys: Vec<u64>,
}

impl EndedCache {
    /// Where key `k` sits.
    #[inline]
    fn index(k: u64) -> usize {
        (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48) as usize & (ENDED_CACHE - 1)
    }

    /// Keeps `k`, in place of the key that shared its entry.
    pub(crate) fn insert(&mut self, k: u64) {
        if self.keys.is_empty() {
            self.keys = vec![KEY_TABLE_EMPTY; ENDED_CACHE];
        }
        self.keys[Self::index(k)] = k;
    }

    /// Whether `k` is kept.
    #[inline]
    pub(crate) fn contains(&self, k: u64) -> bool {
        self.keys.get(Self::index(k)) == Some(&k)
    }

    /// Forgets every key.
    pub(crate) fn clear(&mut self) {
        self.keys.fill(KEY_TABLE_EMPTY);
    }
}

/// Where a position's memo entry lives (see [`crate::Rules::dense_index`],
/// [`crate::Rules::key`] and [`crate::Rules::wide_key`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    Dense(usize),
    Key(u64),
    Wide(u128),
    Hashed,
}

/// A memo for one value kind over leaf positions.
pub(crate) struct LeafMemo<P> {
    dense: Vec<u32>,
    keyed: KeyTable<Entry<u64>>,
    /// Wide keys below `2^PACKED_KEY_BITS`, and where a value is too large for it, the
    /// mark that `wide` keeps it.
    packed: KeyTable<PackedEntry>,
    wide: KeyTable<Entry<u128>>,
    map: FxHashMap<P, u32>,
}

impl<P: Copy + Eq + Hash> LeafMemo<P> {
    pub(crate) fn new() -> Self {
        LeafMemo {
            dense: Vec::new(),
            keyed: KeyTable::default(),
            packed: KeyTable::default(),
            wide: KeyTable::default(),
            map: FxHashMap::default(),
        }
    }

    /// Whether nothing was ever stored.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.dense.is_empty()
            && self.keyed.is_empty()
            && self.packed.is_empty()
            && self.wide.is_empty()
            && self.map.is_empty()
    }

    /// The value stored for `p` (whose slot is `slot`), or `UNKNOWN`.
    #[inline(always)]
    pub(crate) fn get(&self, slot: Slot, p: P) -> u32 {
        match slot {
            Slot::Dense(i) => self.dense.get(i).copied().unwrap_or(UNKNOWN),
            Slot::Key(k) => self.keyed.get(k),
            Slot::Wide(k) if k <= PACKED_KEY_MASK => match self.packed.get(k) {
                PACKED_OVERFLOW => self.wide.get(k),
                v => v,
            },
            Slot::Wide(k) => self.wide.get(k),
            Slot::Hashed => self.map.get(&p).copied().unwrap_or(UNKNOWN),
        }
    }

    /// Asks the memory system for `slot`'s entry ahead of a [`LeafMemo::get`].
    #[inline]
    pub(crate) fn prefetch(&self, slot: Slot) {
        match slot {
            Slot::Key(k) => self.keyed.prefetch(k),
            Slot::Wide(k) if k <= PACKED_KEY_MASK => self.packed.prefetch(k),
            Slot::Wide(k) => self.wide.prefetch(k),
            _ => {}
        }
    }

    /// The bytes that storing a value at `slot` would allocate: 0, or the new size of the
    /// table that has to grow for it.
    pub(crate) fn growth_bytes(&self, slot: Slot) -> u64 {
        match slot {
            Slot::Dense(i) if i >= self.dense.len() => self.dense_len_for(i) as u64 * 4,
            Slot::Dense(_) => 0,
            Slot::Key(_) => self.keyed.growth_bytes(),
            Slot::Wide(k) if k <= PACKED_KEY_MASK => self.packed.growth_bytes(),
            Slot::Wide(_) => self.wide.growth_bytes(),
            Slot::Hashed if self.map.len() < self.map.capacity() => 0,
            // A hash map doubles; each entry takes its position, its value and a control byte.
            Slot::Hashed => {
                let entry = std::mem::size_of::<(P, u32)>() as u64 + 1;
                (self.map.capacity() as u64 * 2).max(4) * entry
            }
        }
    }

    /// The length the flat array grows to for index `i`.
    fn dense_len_for(&self, i: usize) -> usize {
        (i + 1).max(self.dense.len() * 2).min(DENSE_LIMIT)
    }

    /// Stores a value if its table has room without growing; false if it has not.
    pub(crate) fn set_without_growing(&mut self, slot: Slot, p: P, v: u32) -> bool {
        let room = match slot {
            Slot::Dense(i) => i < self.dense.len(),
            // Linear probing works up to a full table but one entry (a miss ends at a
            // vacant one).
            Slot::Key(_) => self.keyed.len + 1 < self.keyed.entries.len(),
            Slot::Wide(k) if k <= PACKED_KEY_MASK => {
                self.packed.len + 1 < self.packed.entries.len()
                    && (packed_code(v).is_some() || self.wide.len + 1 < self.wide.entries.len())
            }
            Slot::Wide(_) => self.wide.len + 1 < self.wide.entries.len(),
            Slot::Hashed => self.map.len() < self.map.capacity(),
        };
        if room {
            match slot {
                Slot::Key(k) => self.keyed.insert(k, v),
                Slot::Wide(k) if k <= PACKED_KEY_MASK => {
                    if packed_code(v).is_none() {
                        self.wide.insert(k, v);
                    }
                    self.packed.insert(k, v);
                }
                Slot::Wide(k) => self.wide.insert(k, v),
                _ => self.set(slot, p, v),
            }
        }
        room
    }

    /// Forgets the values stored longest ago in the key table, about half of them (the
    /// marks of positions being solved stay), and every value of the other tables; the
    /// tables keep their memory.
    pub(crate) fn forget_oldest(&mut self) {
        self.dense.fill(UNKNOWN);
        self.keyed.forget_oldest();
        self.packed.forget_oldest();
        self.wide.forget_oldest();
        self.map.clear();
    }

    pub(crate) fn set(&mut self, slot: Slot, p: P, v: u32) {
        match slot {
            Slot::Dense(i) => {
                if i >= self.dense.len() {
                    self.dense.resize(self.dense_len_for(i), UNKNOWN);
                }
                self.dense[i] = v;
            }
            Slot::Key(k) => self.keyed.set(k, v),
            Slot::Wide(k) if k <= PACKED_KEY_MASK => {
                // A value too large for its packed entry goes to the wide table, and the
                // packed entry says so.
                if packed_code(v).is_none() {
                    self.wide.set(k, v);
                }
                self.packed.set(k, v);
            }
            Slot::Wide(k) => self.wide.set(k, v),
            Slot::Hashed => {
                self.map.insert(p, v);
            }
        }
    }
}

/// One entry of a [`KeyTable`]: 16 bytes with a 64-bit key, four to a cache line (32
/// with a 128-bit key, two), aligned to its size so that no entry spans two lines.
#[derive(Clone, Copy, Debug)]
struct Entry<K: TableKey> {
    key: K,
    value: u32,
    /// When the entry was last written, in the table's writes.
    written: u32,
    _align: K::Align,
}

/// Alignments for [`Entry`]: a zero-sized field of one of these makes an entry's address a
/// multiple of its size.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(16))]
pub(crate) struct Align16;
/// See [`Align16`].
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(32))]
pub(crate) struct Align32;

// An entry's size is its alignment: a power of two, so that entries tile cache lines.
const _: () =
    assert!(std::mem::size_of::<Entry<u64>>() == 16 && std::mem::size_of::<Entry<u128>>() == 32);

/// The key of an empty entry; a position whose [`crate::Rules::key`] is this one is kept
/// in the hash map instead.
pub(crate) const KEY_TABLE_EMPTY: u64 = u64::MAX;
/// The same for [`crate::Rules::wide_key`].
pub(crate) const WIDE_TABLE_EMPTY: u128 = u128::MAX;
/// Fibonacci hashing: the top bits of `key × 2⁶⁴/φ` index the table.
const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;
const MIN_CAPACITY: usize = 1 << 10;

/// A key of a [`KeyTable`]: a packed position.
pub(crate) trait TableKey: Copy + Eq + std::fmt::Debug {
    /// The key of an empty entry.
    const EMPTY: Self;
    /// A zero-sized type whose alignment is the size of an entry with this key.
    type Align: Copy + std::fmt::Debug;
    /// Its value.
    const ALIGN: Self::Align;
    /// 64 bits spread over the whole range (the table indexes by the top ones).
    fn spread(self) -> u64;
}

impl TableKey for u64 {
    const EMPTY: u64 = KEY_TABLE_EMPTY;
    type Align = Align16;
    const ALIGN: Align16 = Align16;
    #[inline(always)]
    fn spread(self) -> u64 {
        self.wrapping_mul(MULTIPLIER)
    }
}

impl TableKey for u128 {
    const EMPTY: u128 = WIDE_TABLE_EMPTY;
    type Align = Align32;
    const ALIGN: Align32 = Align32;
    #[inline(always)]
    fn spread(self) -> u64 {
        // The high half multiplied apart, so that keys differing only there part too.
        let (lo, hi) = (self as u64, (self >> 64) as u64);
        (lo ^ hi.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31)).wrapping_mul(MULTIPLIER)
    }
}

/// An entry of a [`KeyTable`]: a key, its value and when it was written, or vacant.
pub(crate) trait TableEntry: Copy + std::fmt::Debug {
    /// The key.
    type Key: Copy + Eq + std::fmt::Debug;
    /// A vacant entry.
    const VACANT: Self;
    /// Whether the entry is vacant.
    fn is_vacant(&self) -> bool;
    /// Its key (of an entry not vacant).
    fn key(&self) -> Self::Key;
    /// Its value.
    fn value(&self) -> u32;
    /// When it was written, in its table's writes (0 where entries do not keep it).
    fn written(&self) -> u32;
    /// An entry of `key`, `value`, written at `written`.
    fn make(key: Self::Key, value: u32, written: u32) -> Self;
    /// 64 bits of `key` spread over the whole range (the table indexes by the top ones).
    fn spread(key: Self::Key) -> u64;
}

impl<K: TableKey> TableEntry for Entry<K> {
    type Key = K;
    const VACANT: Entry<K> = Entry {
        key: K::EMPTY,
        value: UNKNOWN,
        written: 0,
        _align: K::ALIGN,
    };
    #[inline(always)]
    fn is_vacant(&self) -> bool {
        self.key == K::EMPTY
    }
    #[inline(always)]
    fn key(&self) -> K {
        self.key
    }
    #[inline(always)]
    fn value(&self) -> u32 {
        self.value
    }
    #[inline(always)]
    fn written(&self) -> u32 {
        self.written
    }
    #[inline(always)]
    fn make(key: K, value: u32, written: u32) -> Self {
        Entry {
            key,
            value,
            written,
            _align: K::ALIGN,
        }
    }
    #[inline(always)]
    fn spread(key: K) -> u64 {
        key.spread()
    }
}

/// Wide keys below `2^PACKED_KEY_BITS` (a set of up to 100 board cells) go to a table of
/// [`PackedEntry`]: 16 bytes an entry, half a [`Entry<u128>`], so that twice as many fit in
/// each cache line and the processor's caches.
pub(crate) const PACKED_KEY_BITS: u32 = 100;
/// The bits of a packed entry's key.
const PACKED_KEY_MASK: u128 = (1 << PACKED_KEY_BITS) - 1;
/// The code of a vacant packed entry (every bit of the entry set); never a value's.
const PACKED_VACANT_CODE: u32 = (1 << (128 - PACKED_KEY_BITS)) - 1;
/// The code that says a key's value is too large for its packed entry and is kept in the
/// table of wide entries; [`TableEntry::value`] reads it as [`PACKED_OVERFLOW`].
const PACKED_OVERFLOW_CODE: u32 = PACKED_VACANT_CODE - 9;
/// A value that a packed entry keeps as [`PACKED_OVERFLOW_CODE`].
pub(crate) const PACKED_OVERFLOW: u32 = u32::MAX - 8;

/// The code a packed entry keeps `value` as: itself where it is small, the memo's marks
/// (`u32::MAX - j`, `j` below 8) below the vacant code; `None` for any other value.
#[inline(always)]
pub(crate) fn packed_code(value: u32) -> Option<u32> {
    match value {
        v if v < PACKED_OVERFLOW_CODE => Some(v),
        v if v > u32::MAX - 8 => Some(PACKED_VACANT_CODE - 1 - (u32::MAX - v)),
        _ => None,
    }
}

/// An entry of a key below `2^PACKED_KEY_BITS` and the code of its value
/// ([`packed_code`]) above it, in one 128-bit word; vacant where every bit is set (no value
/// has the vacant code). It keeps no time of writing: a table of them that must forget
/// forgets every value but the marks.
#[derive(Clone, Copy, Debug)]
#[repr(align(16))]
pub(crate) struct PackedEntry(u128);

impl TableEntry for PackedEntry {
    type Key = u128;
    const VACANT: PackedEntry = PackedEntry(u128::MAX);
    #[inline(always)]
    fn is_vacant(&self) -> bool {
        self.0 == u128::MAX
    }
    #[inline(always)]
    fn key(&self) -> u128 {
        self.0 & PACKED_KEY_MASK
    }
    #[inline(always)]
    fn value(&self) -> u32 {
        match (self.0 >> PACKED_KEY_BITS) as u32 {
            code if code < PACKED_OVERFLOW_CODE => code,
            PACKED_OVERFLOW_CODE => PACKED_OVERFLOW,
            code => u32::MAX - (PACKED_VACANT_CODE - 1 - code),
        }
    }
    #[inline(always)]
    fn written(&self) -> u32 {
        0
    }
    #[inline(always)]
    fn make(key: u128, value: u32, _written: u32) -> Self {
        let code = match value {
            PACKED_OVERFLOW => PACKED_OVERFLOW_CODE,
            v => packed_code(v).unwrap_or(PACKED_OVERFLOW_CODE),
        };
        PackedEntry(key | u128::from(code) << PACKED_KEY_BITS)
    }
    #[inline(always)]
    fn spread(key: u128) -> u64 {
        key.spread()
    }
}

const _: () = assert!(std::mem::size_of::<PackedEntry>() == 16);

/// An open-addressing table from 64-bit (or 128-bit) keys to values with linear probing: one entry
/// holds both key and value, so a lookup usually touches one cache line, and a lookup can
/// be prefetched. A general hash map keeps its control bytes apart from its entries and
/// offers no prefetch; position memos of tens of millions of entries are bound by memory
/// latency, which is what this table is for. Entries are never removed (a value can be
/// reset to `UNKNOWN`, which reads the same as a missing key).
pub(crate) struct KeyTable<E: TableEntry> {
    /// A power of two in length (or empty).
    entries: Vec<E>,
    len: usize,
    /// `64 - log2(entries.len())`.
    shift: u32,
    /// Values written so far (the clock of [`Entry::written`]).
    writes: u32,
}

impl<E: TableEntry> Default for KeyTable<E> {
    fn default() -> Self {
        KeyTable {
            entries: Vec::new(),
            len: 0,
            shift: 0,
            writes: 0,
        }
    }
}

impl<E: TableEntry> KeyTable<E> {
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn home(&self, key: E::Key) -> usize {
        (E::spread(key) >> self.shift) as usize
    }

    #[inline(always)]
    fn get(&self, key: E::Key) -> u32 {
        if self.entries.is_empty() {
            return UNKNOWN;
        }
        let mask = self.entries.len() - 1;
        let mut i = self.home(key);
        loop {
            let e = self.entries[i];
            if e.is_vacant() {
                return UNKNOWN;
            }
            if e.key() == key {
                return e.value();
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn prefetch(&self, key: E::Key) {
        let home = self.home(key);
        if let Some(e) = self.entries.get(home) {
            prefetch_read(e);
            // A miss reads on to the next empty entry, often on the next cache line.
            let per_line = (64 / std::mem::size_of::<E>()).max(1);
            if let Some(next) = self.entries.get((home | (per_line - 1)) + 1) {
                prefetch_read(next);
            }
        }
    }

    /// The bytes of the table that the next new key would make it grow to (0 if none).
    fn growth_bytes(&self) -> u64 {
        match self.full() {
            true => (self.grown_capacity() * std::mem::size_of::<E>()) as u64,
            false => 0,
        }
    }

    /// Whether one more key would fill the table past its load: half, while the table is
    /// under [`HALF_LOADED_TABLE`] bytes (a lookup of a missing key, the usual first lookup
    /// of a position, probes 2.5 entries on average at that load, 8.5 at three quarters),
    /// three quarters beyond (where memory counts more than probes in a line or two).
    fn full(&self) -> bool {
        let bytes = self.entries.len() * std::mem::size_of::<E>();
        match bytes < HALF_LOADED_TABLE {
            true => (self.len + 1) * 2 > self.entries.len(),
            false => (self.len + 1) * 4 > self.entries.len() * 3,
        }
    }

    /// The size the table grows to.
    fn grown_capacity(&self) -> usize {
        (self.entries.len() * 2).max(MIN_CAPACITY)
    }

    fn set(&mut self, key: E::Key, value: u32) {
        if self.full() {
            self.grow();
        }
        self.insert(key, value);
    }

    /// Stores a value without growing (the table has a vacant entry besides `key`'s).
    fn insert(&mut self, key: E::Key, value: u32) {
        let i = self.probe(key);
        if self.entries[i].is_vacant() {
            self.len += 1;
        }
        self.writes = self.writes.saturating_add(1);
        self.entries[i] = E::make(key, value, self.writes);
    }

    /// Forgets about half of the values, those written longest ago, but for the marks of
    /// positions being solved: a memo at its memory limit keeps what its search most
    /// likely needs next (a depth-first search comes back to what it solved last).
    fn forget_oldest(&mut self) {
        // The median time of writing, from a histogram of the times.
        const BUCKETS: usize = 256;
        let (mut first, mut last) = (u32::MAX, 0);
        for e in self.entries.iter().filter(|e| !e.is_vacant()) {
            first = first.min(e.written());
            last = last.max(e.written());
        }
        if first >= last {
            return self.clear_but_marks();
        }
        let width = u64::from(last - first) / BUCKETS as u64 + 1;
        let bucket = |w: u32| (u64::from(w - first) / width) as usize;
        let mut counts = [0usize; BUCKETS];
        for e in self.entries.iter().filter(|e| !e.is_vacant()) {
            counts[bucket(e.written())] += 1;
        }
        let (mut kept, mut from) = (0, BUCKETS);
        while from > 0 && kept * 2 < self.len {
            from -= 1;
            kept += counts[from];
        }
        self.retain(|e| bucket(e.written()) >= from || e.value() == IN_PROGRESS);
    }

    /// Forgets every value but the marks of positions being solved.
    fn clear_but_marks(&mut self) {
        self.retain(|e| e.value() == IN_PROGRESS);
    }

    /// Keeps the entries `keep` says to, in place: the others are emptied, and every entry
    /// left is moved to where a lookup from its home finds it now. The table's clusters are
    /// walked once, from an entry that was empty before (so that no cluster runs across the
    /// start of the walk, and each entry's way from its home is settled before it moves).
    fn retain(&mut self, keep: impl Fn(&E) -> bool) {
        let Some(start) = self.entries.iter().position(|e| e.is_vacant()) else {
            return;
        };
        for e in self.entries.iter_mut() {
            if !e.is_vacant() && !keep(e) {
                *e = E::VACANT;
                self.len -= 1;
            }
        }
        let mask = self.entries.len() - 1;
        for step in 1..=self.entries.len() {
            let i = (start + step) & mask;
            let e = self.entries[i];
            if e.is_vacant() {
                continue;
            }
            self.entries[i] = E::VACANT;
            let j = self.probe(e.key());
            self.entries[j] = e;
        }
    }

    /// The index of `key`'s entry, or of the empty entry where it would go.
    #[inline]
    fn probe(&self, key: E::Key) -> usize {
        let mask = self.entries.len() - 1;
        let mut i = self.home(key);
        while !self.entries[i].is_vacant() && self.entries[i].key() != key {
            i = (i + 1) & mask;
        }
        i
    }

    #[cold]
    fn grow(&mut self) {
        let capacity = self.grown_capacity();
        let old = std::mem::replace(&mut self.entries, vacant_entries(capacity));
        self.shift = 64 - capacity.trailing_zeros();
        for e in old.into_iter().filter(|e| !e.is_vacant()) {
            let i = self.probe(e.key());
            self.entries[i] = e;
        }
    }
}

/// `capacity` vacant entries, in memory that the system is asked to back with huge pages
/// when it is large: a lookup in a table of tens of megabytes is a TLB miss on ordinary
/// pages as well as a cache miss, and a prefetch waits for the page walk.
fn vacant_entries<E: TableEntry>(capacity: usize) -> Vec<E> {
    let mut entries: Vec<E> = Vec::with_capacity(capacity);
    advise_huge_pages(
        entries.as_mut_ptr().cast::<u8>(),
        capacity * std::mem::size_of::<E>(),
    );
    entries.resize(capacity, E::VACANT);
    entries
}

/// Key tables smaller than this grow at half load, larger ones at three quarters.
const HALF_LOADED_TABLE: usize = 256 << 20;

/// Tables smaller than this stay on ordinary pages.
const HUGE_PAGE_TABLE: usize = 4 << 20;

/// Asks the system to back the `len` bytes at `start` (an allocation not yet written) with
/// huge pages. Advice only: no effect on values, and none where it is refused.
fn advise_huge_pages(start: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    if len >= HUGE_PAGE_TABLE {
        const HUGE: usize = 2 << 20;
        // The whole huge pages inside the allocation.
        let first = (start as usize).next_multiple_of(HUGE);
        let end = (start as usize + len) / HUGE * HUGE;
        if end > first {
            // SAFETY: madvise with MADV_HUGEPAGE changes no memory contents and only
            // covers pages inside this allocation; its failure is ignored.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

#[inline(always)]
fn prefetch_read<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint with no effect on memory; SSE is part of x86_64.
    #[allow(unused_unsafe)]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// A small number spread over the whole range of keys, as packed positions are.
    fn spread(k: u64) -> u64 {
        k.wrapping_mul(0x1_0000_0001) % (u64::MAX - 1)
    }

    proptest! {
        /// The key table agrees with a standard map under any sequence of writes,
        /// including keys that collide in their home entry and growth past several sizes.
        #[test]
        fn key_table_matches_a_map(
            writes in prop::collection::vec((0u64..5000, 0u32..1000), 0..4000),
            probes in prop::collection::vec(0u64..6000, 0..200),
        ) {
            let mut table = KeyTable::<Entry<u64>>::default();
            let mut map = HashMap::new();
            for &(k, v) in &writes {
                let k = spread(k);
                table.set(k, v);
                map.insert(k, v);
            }
            prop_assert_eq!(table.len, map.len());
            for (&k, &v) in &map {
                prop_assert_eq!(table.get(k), v);
            }
            for &k in &probes {
                let k = spread(k);
                prop_assert_eq!(table.get(k), map.get(&k).copied().unwrap_or(UNKNOWN));
            }
        }
    }

    proptest! {
        /// The same with 128-bit keys, some apart only in their high half.
        #[test]
        fn wide_key_table_matches_a_map(
            writes in prop::collection::vec((0u64..3000, 0u64..4, 0u32..1000), 0..3000),
            probes in prop::collection::vec((0u64..4000, 0u64..5), 0..200),
        ) {
            let wide = |lo: u64, hi: u64| u128::from(hi) << 100 | u128::from(lo);
            let mut table = KeyTable::<Entry<u128>>::default();
            let mut map = HashMap::new();
            for &(lo, hi, v) in &writes {
                table.set(wide(lo, hi), v);
                map.insert(wide(lo, hi), v);
            }
            prop_assert_eq!(table.len, map.len());
            for (&k, &v) in &map {
                prop_assert_eq!(table.get(k), v);
            }
            for &(lo, hi) in &probes {
                let k = wide(lo, hi);
                prop_assert_eq!(table.get(k), map.get(&k).copied().unwrap_or(UNKNOWN));
            }
        }
    }

    proptest! {
        /// The leaf memo's wide keys, below and above `2^PACKED_KEY_BITS` (the packed and the
        /// wide tables), with small values, the memo's marks and values too large for a
        /// packed entry (kept in the wide table), agree with a standard map.
        #[test]
        fn wide_keys_in_the_leaf_memo_match_a_map(
            writes in prop::collection::vec((0u64..3000, 0u64..3, 0usize..12), 0..3000),
            probes in prop::collection::vec((0u64..4000, 0u64..3), 0..200),
        ) {
            let values = [
                0, 1, 7, 1000, PACKED_OVERFLOW_CODE - 1, PACKED_OVERFLOW_CODE, 1 << 30,
                PACKED_OVERFLOW, u32::MAX - 7, crate::value::W_SL, IN_PROGRESS, UNKNOWN,
            ];
            // High parts 0, 1 << 99 (still packed, every key bit in use) and 1 << 100 (wide).
            let wide = |lo: u64, hi: u64| [0, 1 << 99, 1 << 100][hi as usize] | u128::from(lo);
            let mut memo = LeafMemo::<u32>::new();
            let mut map = HashMap::new();
            for &(lo, hi, v) in &writes {
                memo.set(Slot::Wide(wide(lo, hi)), 0, values[v]);
                map.insert(wide(lo, hi), values[v]);
            }
            for (&k, &v) in &map {
                prop_assert_eq!(memo.get(Slot::Wide(k), 0), v);
            }
            for &(lo, hi) in &probes {
                let k = wide(lo, hi);
                prop_assert_eq!(memo.get(Slot::Wide(k), 0), map.get(&k).copied().unwrap_or(UNKNOWN));
            }
        }
    }

    /// Every value a packed entry codes is read back as itself; every code but the vacant
    /// one is some value's.
    #[test]
    fn packed_entries_keep_their_values() {
        let key = PACKED_KEY_MASK;
        for v in (0..2000)
            .chain(PACKED_OVERFLOW_CODE - 5..PACKED_OVERFLOW_CODE)
            .chain(u32::MAX - 7..=u32::MAX)
        {
            let e = PackedEntry::make(key, v, 0);
            assert!(!e.is_vacant());
            assert_eq!((e.key(), e.value()), (key, v), "value {v}");
        }
        for v in [PACKED_OVERFLOW_CODE, 1 << 28, PACKED_OVERFLOW, u32::MAX - 9] {
            assert_eq!(
                PackedEntry::make(key, v, 0).value(),
                PACKED_OVERFLOW,
                "value {v}"
            );
        }
    }

    proptest! {
        /// Forgetting the oldest values keeps the newer half (at least) and every mark of a
        /// position being solved, each with its value, forgets the rest, and leaves a table
        /// whose lookups find every key kept, whatever the collisions.
        #[test]
        fn forgetting_keeps_the_newest_values_and_the_marks(
            writes in prop::collection::vec((0u64..3000, 0u32..1000), 1..3000),
            marks in prop::collection::vec(0u64..3000, 0..20),
        ) {
            let mut table = KeyTable::<Entry<u64>>::default();
            // key -> (value, order of its last write)
            let mut map = HashMap::new();
            for (t, &(k, v)) in writes.iter().enumerate() {
                table.set(spread(k), v);
                map.insert(spread(k), (v, t));
            }
            for (t, &k) in marks.iter().enumerate() {
                table.set(spread(k), IN_PROGRESS);
                map.insert(spread(k), (IN_PROGRESS, writes.len() + t));
            }
            let (size, before) = (table.entries.len(), table.len);
            table.forget_oldest();
            prop_assert_eq!(table.entries.len(), size);
            let mut last_writes: Vec<usize> = map.values().map(|&(_, t)| t).collect();
            last_writes.sort_unstable();
            let median = last_writes[last_writes.len() / 2];
            let mut kept = 0;
            for (&k, &(v, t)) in &map {
                let found = table.get(k);
                prop_assert!(found == v || found == UNKNOWN);
                if found == v {
                    kept += 1;
                }
                if v == IN_PROGRESS || t > median {
                    prop_assert_eq!(found, v, "key {} written at {}", k, t);
                }
            }
            prop_assert_eq!(kept, table.len);
            // About half forgotten (by a histogram of 256 steps of time).
            prop_assert!(before < 8 || table.len < before, "{} of {}", table.len, before);
        }
    }

    #[test]
    fn reset_values_read_as_unknown_and_keep_chains() {
        let mut table = KeyTable::<Entry<u64>>::default();
        for k in 0..3000u64 {
            table.set(k, k as u32);
        }
        table.set(7, UNKNOWN);
        assert_eq!(table.get(7), UNKNOWN);
        for k in (0..3000u64).filter(|&k| k != 7) {
            assert_eq!(table.get(k), k as u32);
        }
        assert_eq!(table.get(u64::MAX - 1), UNKNOWN);
    }

    /// The ended cache keeps what it was given until a key of the same entry replaces it,
    /// and nothing after `clear`; a key it never had is not in it.
    #[test]
    fn the_ended_cache_keeps_the_last_key_of_each_entry() {
        let mut cache = EndedCache::default();
        assert!(!cache.contains(5));
        for k in 0..1000u64 {
            cache.insert(k);
        }
        for k in 0..1000u64 {
            let replaced = (k + 1..1000).any(|j| EndedCache::index(j) == EndedCache::index(k));
            assert_eq!(cache.contains(k), !replaced, "key {k}");
        }
        assert!(!cache.contains(1000));
        cache.clear();
        assert!((0..1000u64).all(|k| !cache.contains(k)));
    }
}
