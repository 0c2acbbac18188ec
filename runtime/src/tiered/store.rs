//! Where a tiered solve's worker keeps the positions it owns, each with its rank and, once
//! its tier is solved, its value: in memory (a hash map), or spilled to disk (a key-value
//! store, fjall's LSM tree, that holds only its caches and write buffers in memory).
//!
//! On disk, two partitions: `held` maps a position's code (16 bytes, big-endian) to its
//! rank and value (8 + 4 bytes); `tiers` holds one key a position, its rank (8 bytes, the
//! sign bit flipped so that ranks sort as numbers) followed by its code, so that a tier's
//! positions are one prefix scan. The store's folder is removed when the worker ends.

use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

/// A value not known yet.
pub(super) const UNSOLVED: u32 = u32::MAX;

/// How much memory each worker's store on disk may use for its cache of blocks read.
const DISK_CACHE: u64 = 16 << 20;

/// How much memory each worker's store on disk may use for the writes not yet flushed.
const DISK_WRITE_BUFFER: u64 = 16 << 20;

/// A position a worker owns: its rank, and its value once solved.
#[derive(Clone, Copy)]
pub(super) struct Held {
    rank: i64,
    value: u32,
}

/// A worker's positions: see the module's documentation.
pub(super) enum Store {
    Memory {
        held: FxHashMap<u128, Held>,
        /// Each tier's positions, made from `held` once every position is reached.
        tiers: BTreeMap<i64, Vec<u128>>,
    },
    Disk(Disk),
}

/// A [`Store`] on disk.
pub(super) struct Disk {
    /// Kept for its partitions (and removed, with its folder, when dropped).
    _keyspace: fjall::Keyspace,
    held: fjall::PartitionHandle,
    tiers: fjall::PartitionHandle,
    /// The ranks of the positions held.
    ranks: BTreeSet<i64>,
    /// Codes known to be held, lately (a reached position comes back as an option of many
    /// others: most look-ups of the reach are of these), in two generations: when the
    /// newer holds half of [`RECENT_CODES`], the older is forgotten and the newer takes its
    /// place.
    recent: [FxHashSet<u128>; 2],
    /// The values of the tiers solved last, the latest last (a tier's options lie mostly
    /// in the tiers just above it), at most [`RECENT_VALUES`] values in all.
    recent_values: VecDeque<FxHashMap<u128, u32>>,
}

/// The most codes a store on disk keeps in memory as known to be held (16 bytes each,
/// and the hash set's room). (Tests keep few, so that they are forgotten and looked up.)
const RECENT_CODES: usize = if cfg!(test) { 64 } else { 1 << 20 };

/// The most values of the tiers solved last that a store on disk keeps in memory (20
/// bytes each, and the maps' room).
const RECENT_VALUES: usize = if cfg!(test) { 128 } else { 1 << 21 };

impl Disk {
    /// Notes that `code` is held.
    fn remember(&mut self, code: u128) {
        if self.recent[1].len() >= RECENT_CODES / 2 {
            self.recent[0] = std::mem::take(&mut self.recent[1]);
        }
        self.recent[1].insert(code);
    }

    /// Whether `code` is known to be held, lately.
    fn recently_held(&self, code: u128) -> bool {
        self.recent.iter().any(|r| r.contains(&code))
    }

    /// The codes of the positions of rank `rank`, from their prefix.
    fn tier_codes(&self, rank: i64) -> Result<Vec<u128>, String> {
        (self.tiers.prefix(rank_key(rank)))
            .map(|kv| {
                let (key, _) = kv.map_err(failed)?;
                (key.get(8..24).and_then(|code| code.try_into().ok()))
                    .map(u128::from_be_bytes)
                    .ok_or_else(damaged)
            })
            .collect()
    }

    /// How many values of recent tiers are kept.
    fn values_kept(&self) -> usize {
        self.recent_values.iter().map(|t| t.len()).sum()
    }
}

/// The error of an entry that does not read back.
fn damaged() -> String {
    "the tiered solve's store on disk holds a damaged entry".to_string()
}

/// A store's failure, said.
fn failed(e: fjall::Error) -> String {
    format!("the tiered solve's store on disk failed: {e}")
}

fn rank_key(rank: i64) -> [u8; 8] {
    ((rank as u64) ^ (1 << 63)).to_be_bytes()
}

fn tier_key(rank: i64, code: u128) -> [u8; 24] {
    let mut key = [0; 24];
    key[..8].copy_from_slice(&rank_key(rank));
    key[8..].copy_from_slice(&code.to_be_bytes());
    key
}

fn held_bytes(h: Held) -> [u8; 12] {
    let mut bytes = [0; 12];
    bytes[..8].copy_from_slice(&h.rank.to_be_bytes());
    bytes[8..].copy_from_slice(&h.value.to_be_bytes());
    bytes
}

fn held_of(bytes: &[u8]) -> Result<Held, String> {
    match (bytes.get(..8), bytes.get(8..12)) {
        (Some(rank), Some(value)) => Ok(Held {
            rank: i64::from_be_bytes(rank.try_into().unwrap_or_default()),
            value: u32::from_be_bytes(value.try_into().unwrap_or_default()),
        }),
        _ => Err(damaged()),
    }
}

impl Store {
    /// A store in memory.
    pub(super) fn memory() -> Store {
        Store::Memory {
            held: FxHashMap::default(),
            tiers: BTreeMap::new(),
        }
    }

    /// A store on disk, in a new folder `name` of `dir` (removed when the store is
    /// dropped).
    pub(super) fn disk(dir: &Path, name: &str) -> Result<Store, String> {
        if !dir.is_dir() {
            return Err(format!(
                "cannot spill the tiered solve into {}: no such folder (--spill names a \
                 folder that exists)",
                dir.display()
            ));
        }
        let folder = dir.join(name);
        if folder.exists() {
            return Err(format!(
                "{} exists: a tiered solve spills into a new folder of --spill's (another \
                 solve is using it, or one that was stopped left it: remove it then)",
                folder.display()
            ));
        }
        let keyspace = fjall::Config::new(&folder)
            .temporary(true)
            .cache_size(DISK_CACHE)
            .max_write_buffer_size(DISK_WRITE_BUFFER)
            .flush_workers(1)
            .compaction_workers(1)
            .open()
            .map_err(|e| {
                format!(
                    "cannot spill the tiered solve into {}: {e}",
                    folder.display()
                )
            })?;
        let open = |name| {
            (keyspace.open_partition(name, fjall::PartitionCreateOptions::default()))
                .map_err(failed)
        };
        let (held, tiers) = (open("held")?, open("tiers")?);
        Ok(Store::Disk(Disk {
            _keyspace: keyspace,
            held,
            tiers,
            ranks: BTreeSet::new(),
            recent: Default::default(),
            recent_values: VecDeque::new(),
        }))
    }

    /// Whether the positions are kept on disk.
    pub(super) fn on_disk(&self) -> bool {
        matches!(self, Store::Disk(_))
    }

    /// Whether the position `code` is held.
    pub(super) fn contains(&mut self, code: u128) -> Result<bool, String> {
        match self {
            Store::Memory { held, .. } => Ok(held.contains_key(&code)),
            Store::Disk(d) => {
                if d.recently_held(code) {
                    return Ok(true);
                }
                let held = d.held.contains_key(code.to_be_bytes()).map_err(failed)?;
                if held {
                    d.remember(code);
                }
                Ok(held)
            }
        }
    }

    /// Holds the position `code`, of rank `rank`, not solved yet.
    pub(super) fn insert(&mut self, code: u128, rank: i64) -> Result<(), String> {
        let h = Held {
            rank,
            value: UNSOLVED,
        };
        match self {
            Store::Memory { held, .. } => {
                held.insert(code, h);
                Ok(())
            }
            Store::Disk(d) => {
                (d.held)
                    .insert(code.to_be_bytes(), held_bytes(h))
                    .map_err(failed)?;
                d.tiers.insert(tier_key(rank, code), []).map_err(failed)?;
                d.ranks.insert(rank);
                d.remember(code);
                Ok(())
            }
        }
    }

    /// Every position is held: the tiers are made (in memory, from the positions).
    pub(super) fn reached(&mut self) {
        match self {
            Store::Memory { held, tiers } => {
                for (&code, h) in held.iter() {
                    tiers.entry(h.rank).or_default().push(code);
                }
            }
            // The codes are not looked up again.
            Store::Disk(d) => d.recent = Default::default(),
        }
    }

    /// The ranks of the positions held (after [`Store::reached`]).
    pub(super) fn ranks(&self) -> Vec<i64> {
        match self {
            Store::Memory { tiers, .. } => tiers.keys().copied().collect(),
            Store::Disk(d) => d.ranks.iter().copied().collect(),
        }
    }

    /// The positions of rank `rank`, to be solved now (after [`Store::reached`]; each tier
    /// is asked for once, from the highest rank down).
    pub(super) fn tier(&mut self, rank: i64) -> Result<Vec<u128>, String> {
        match self {
            Store::Memory { tiers, .. } => Ok(tiers.remove(&rank).unwrap_or_default()),
            Store::Disk(d) => {
                // This tier's values are kept as they are solved, in place of the oldest
                // tiers' where there is no room for both.
                let mut kept = d.values_kept();
                while kept > RECENT_VALUES / 2 {
                    kept -= d.recent_values.pop_front().map_or(0, |t| t.len());
                }
                d.recent_values.push_back(FxHashMap::default());
                d.tier_codes(rank)
            }
        }
    }

    /// The value of `code`: `None` where it is not held or not solved yet.
    pub(super) fn value(&self, code: u128) -> Result<Option<u32>, String> {
        let held = match self {
            Store::Memory { held, .. } => held.get(&code).copied(),
            Store::Disk(d) => {
                let kept = d.recent_values.iter().rev().find_map(|t| t.get(&code));
                if let Some(&value) = kept {
                    return Ok(Some(value));
                }
                match d.held.get(code.to_be_bytes()).map_err(failed)? {
                    Some(bytes) => Some(held_of(&bytes)?),
                    None => None,
                }
            }
        };
        Ok(held.map(|h| h.value).filter(|&v| v != UNSOLVED))
    }

    /// Sets the value of `code`, a position of rank `rank` that is held.
    pub(super) fn solved(&mut self, code: u128, rank: i64, value: u32) -> Result<(), String> {
        match self {
            Store::Memory { held, .. } => {
                if let Some(h) = held.get_mut(&code) {
                    h.value = value;
                }
                Ok(())
            }
            Store::Disk(d) => {
                if d.values_kept() < RECENT_VALUES {
                    if let Some(tier) = d.recent_values.back_mut() {
                        tier.insert(code, value);
                    }
                }
                (d.held)
                    .insert(code.to_be_bytes(), held_bytes(Held { rank, value }))
                    .map_err(failed)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both stores answer alike: positions of several ranks (negative ones too), their
    /// tiers in any order, values once solved.
    #[test]
    fn the_store_on_disk_answers_as_the_one_in_memory() {
        let temp = super::super::TempDir::new("store-test");
        let dir = &temp.0;
        let mut stores = [Store::memory(), Store::disk(dir, "w0").unwrap()];
        let positions: Vec<(u128, i64)> = (0..500u128)
            .map(|i| (((i * 0x9e37_79b9_7f4a_7c15) << 40) | i, (i % 7) as i64 - 3))
            .collect();
        for store in &mut stores {
            for &(code, rank) in &positions {
                assert!(!store.contains(code).unwrap());
                store.insert(code, rank).unwrap();
            }
            store.reached();
            assert_eq!(store.ranks(), (-3..=3).collect::<Vec<_>>());
        }
        for rank in -3..=3 {
            let mut tiers = stores.each_mut().map(|s| s.tier(rank).unwrap());
            tiers.iter_mut().for_each(|t| t.sort_unstable());
            let expected: Vec<u128> = (positions.iter())
                .filter(|p| p.1 == rank)
                .map(|p| p.0)
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            assert_eq!(tiers[0], expected);
            assert_eq!(tiers[1], expected);
        }
        for store in &mut stores {
            let (code, rank) = positions[17];
            assert_eq!(store.value(code).unwrap(), None);
            store.solved(code, rank, 5).unwrap();
            assert_eq!(store.value(code).unwrap(), Some(5));
            assert!(store.contains(code).unwrap());
            assert_eq!(store.value(12345).unwrap(), None);
        }
        assert!(
            Store::disk(dir, "w0").is_err(),
            "a folder in use is not spilled into again"
        );
        drop(stores);
        assert!(!dir.join("w0").exists(), "the store's folder is removed");
    }
}
