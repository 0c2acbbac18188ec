//! What a solve may spend, and what it has spent: positions, memory, the memos' thinning
//! and the work of one line of play.

use crate::error::SolveError;

/// A solver's limits and its counts against them.
pub(super) struct Budget {
    /// The most positions solved ([`super::Solver::set_max_positions`]).
    pub(super) max_positions: u64,
    /// The most memory the process holds ([`super::Solver::set_max_memory`]).
    pub(super) max_memory: Option<u64>,
    /// Bytes left under `max_memory` when last measured (every few thousand positions).
    pub(super) free_memory: u64,
    /// Bytes the process held when the solver was made (its code, the rules' tables): what
    /// a solve cannot free, so that the memos' share of the limit is counted above it.
    pub(super) held_at_start: u64,
    /// Positions solved so far.
    pub(super) solved: u64,
    /// How often the memos forgot their oldest values because one would have grown past
    /// the limit.
    pub(super) cleared: u64,
    /// How many more times the memos may forget while solving the current value.
    pub(super) clears_left: u32,
    /// A memo could neither grow nor forget within the memory limit: the solve stops.
    pub(super) memory_exhausted: bool,
    /// Options enumerated since a position was last finished.
    pub(super) descent_options: u64,
    /// Components built in compound options since memory was last measured.
    pub(super) expr_parts: u64,
}

impl Budget {
    /// The default limits, nothing spent.
    pub(super) fn new() -> Budget {
        let mut budget = Budget {
            max_positions: crate::DEFAULT_MAX_POSITIONS,
            max_memory: crate::memory::default_limit(),
            free_memory: u64::MAX,
            held_at_start: crate::memory::resident_bytes().unwrap_or(0),
            solved: 0,
            cleared: 0,
            clears_left: super::MEMO_CLEARS_PER_VALUE,
            memory_exhausted: false,
            descent_options: 0,
            expr_parts: 0,
        };
        budget.measure_memory();
        budget
    }

    /// Measures the memory held against `max_memory` (keeping what is left in
    /// `free_memory`); the limit when the process holds more.
    pub(super) fn measure_memory(&mut self) -> Option<u64> {
        let (limit, held) = match (self.max_memory, crate::memory::resident_bytes()) {
            (Some(limit), Some(held)) => (limit, held),
            _ => {
                self.free_memory = u64::MAX;
                return None;
            }
        };
        self.free_memory = limit.saturating_sub(held);
        (held > limit).then_some(limit)
    }

    /// Whether a memo that would grow by `grows` bytes past the limit should forget its
    /// oldest values instead: where the growth is a good part (a quarter) of what the solve
    /// may hold above what the process held at its start, forgetting makes room; else the
    /// limit is reached by something else, and reported.
    pub(super) fn forgetting_helps(&self, grows: u64, limit: u64) -> bool {
        let room = limit.saturating_sub(self.held_at_start);
        grows >= room / 4 && self.clears_left > 0
    }

    /// A new value is being solved: its allowance of the memos' thinning is whole again.
    pub(super) fn start_value(&mut self) {
        self.clears_left = super::MEMO_CLEARS_PER_VALUE;
        self.memory_exhausted = false;
    }

    /// Counts one more position solved, `depth` moves deep: an error where that passes the
    /// position limit or the memory limit (measured every 16,384 positions), or where a memo
    /// could not store within the memory limit.
    #[inline]
    pub(super) fn count_position(&mut self, depth: usize) -> Result<(), SolveError> {
        if depth >= super::MAX_DEPTH {
            return Err(SolveError::TooDeep {
                limit: super::MAX_DEPTH,
            });
        }
        if self.solved >= self.max_positions {
            return Err(SolveError::TooManyPositions {
                limit: self.max_positions,
            });
        }
        self.solved += 1;
        if self.memory_exhausted {
            self.memory_exhausted = false;
            if let Some(limit) = self.max_memory {
                return Err(SolveError::OutOfMemory { limit });
            }
        }
        if self.solved & 0x3FFF == 0 {
            if let Some(limit) = self.measure_memory() {
                return Err(SolveError::OutOfMemory { limit });
            }
        }
        Ok(())
    }
}
