//! The ordinary outcome search on several threads: every thread searches the same position,
//! each passing over the options another thread is deciding now, and all share what they
//! decide (the method of J.-C. Weill's ABDADA, *The ABDADA distributed minimax search
//! algorithm*, ICCA Journal 19 (1996), for a search whose answers are only P and N).
//!
//! Used for the outcome of a position of a game that does not split (those of games that do
//! go to the nimber search, [`super::shared`]). The asking thread searches alone at first
//! and wakes its helpers once its search has opened [`OUTCOME_WAKE_AFTER`] positions (or at
//! once, where the helpers are told to wake at once, as in tests). From then on, every
//! outcome a thread decides fewer than [`SHARE_DEPTH`] moves deep is shared (in a table
//! without locks, [`super::shared::OutcomeTable`], for positions with a key; positions
//! without one share only the top [`SPLIT_DEPTH`] levels'), and a thread that meets an
//! option its own memo does not know looks it up there. In the top [`SPLIT_DEPTH`] levels, each position a
//! thread is deciding is marked *busy*, and at a position one of whose options was found
//! losing (likely a P-position, all of whose options are needed: the search's younger
//! options wait until the eldest is searched, as Feldmann's young brothers do) a thread
//! passes over an option another thread is deciding, once, and comes back to it after the
//! others, when its outcome is usually shared. Every [`POLL_EVERY`] positions a thread looks
//! whether a position it is deciding was decided by another thread, and if so leaves it
//! with that outcome. A helper's search of the position is the asking thread's: the helper
//! ends when the asking thread does.
//!
//! A shared outcome is one a thread's own search found, with the same rules and the same
//! checks (declared symmetries included: a position's orbit is checked before its options
//! are used), so it is what the asking thread would find itself: the answer is the one a
//! single thread finds, whatever the timing. Only the work each thread does depends on it.

use super::shared::{OutcomeTable, SearchShare};
use super::*;
use std::sync::atomic::Ordering;

/// Positions this deep or deeper are not marked busy, and no option this deep is passed
/// over: their searches are short.
///
/// (Measured on natural dots 5 × 6 with two threads: 12 took 30.5 s, 16 took 26–30 s, 20
/// took 29.5 s, 24 took 67 s, and marks only in the top 8 levels 70–80 s.)
const SPLIT_DEPTH: usize = 16;

/// Outcomes of positions this deep or deeper are kept to the thread that decides them: the
/// shared table holds the shallower ones, whose searches are the longer.
const SHARE_DEPTH: usize = 64;

/// Positions the asking thread's outcome search opens alone before it wakes its helpers
/// (where they are not woken at once).
///
/// (Measured on two threads: natural dots 5 × 5 with its symmetries, 884,307 positions on
/// one thread in 0.69 s, opened 1.69 million in 1.51 s with helpers woken after 100,000, and
/// 884,307 in 0.71–0.79 s woken after 1,000,000; natural dots 5 × 6 without them, 15.6
/// million positions, took 16.2–16.3 s woken after 100,000 and 16.9–17.1 s after
/// 1,000,000.)
pub const OUTCOME_WAKE_AFTER: u64 = 1_000_000;

/// Positions a thread opens between two looks at what the other threads decided.
pub(super) const POLL_EVERY: u64 = 256;

/// The shared outcome table's entries (8 bytes each): 2^23, 64 MiB, or an eighth of the
/// memory limit where that is less.
const TABLE_LOG2: u32 = 23;

/// What the other threads know of an option a thread does not know.
enum Others {
    /// Its outcome.
    Known(u32),
    /// Another thread is deciding it now.
    Busy,
    /// Nothing.
    Unknown,
}

impl<R: Rules> Solver<'_, R> {
    /// The share of a search the threads share now (the asking thread's after it has woken
    /// its helpers, a helper's always).
    #[inline]
    fn live_share(&self) -> Option<&SearchShare<Pos<R>>> {
        self.sharing.as_ref().filter(|s| s.live).map(|s| &*s.share)
    }

    /// At the top of an outcome search by the asking thread (in [`Mode::Fast`], of a
    /// position whose game does not split and is not partizan): notes the search, whose
    /// helpers are woken once it proves long. Whether the search is shared (then
    /// [`Solver::outcome_share_end`] ends it).
    pub(super) fn outcome_share_begin(&mut self, task: Task<Pos<R>>) -> bool {
        let (ValueKind::Outcome, Node::Leaf(root), Mode::Fast) = (task.kind, task.node, self.mode)
        else {
            return false;
        };
        if self.rules.is_partizan(root) {
            return false;
        }
        let solved = self.budget.solved;
        match &mut self.sharing {
            Some(s) if !s.helper && s.asked.is_none() => {
                s.asked = Some((root, solved));
                s.posted = false;
                s.next_poll = solved + s.share.poll_every();
                true
            }
            _ => false,
        }
    }

    /// At the end of a search [`Solver::outcome_share_begin`] began: stops the helpers, and
    /// counts the positions they opened.
    pub(super) fn outcome_share_end(&mut self) {
        self.share_end();
        if let Some(s) = &mut self.sharing {
            // Until the next shared search, facts stay this thread's own.
            s.live = s.helper;
        }
    }

    /// A helper's part in the asking thread's outcome search of `root` (a least image): the
    /// same search, passing over what the other thread decides now, until `root` is
    /// decided or the helpers are recalled.
    pub(super) fn help_outcome(&mut self, root: Pos<R>) {
        if let Some(share) = self.live_share() {
            if self.shared_outcome(share, root, 0).is_some() {
                return;
            }
        }
        let task = Task {
            kind: ValueKind::Outcome,
            node: Node::Leaf(root),
        };
        if !matches!(self.look_up(ValueKind::Outcome, root), Ok(Step::Need(_))) {
            return;
        }
        if let Some(s) = &mut self.sharing {
            s.next_poll = self.budget.solved + s.share.poll_every();
        }
        self.budget.start_value();
        // An error ends the helper's search only: whatever it decided before is shared, and
        // the asking thread meets the error itself where its search needs that position.
        let _ = self.search(task);
    }

    /// The outcome of `p` (a least image, `depth` moves deep) where a thread decided it.
    #[inline]
    fn shared_outcome(&self, share: &SearchShare<Pos<R>>, p: Pos<R>, depth: usize) -> Option<u32> {
        match self.rules.key(p) {
            Some(key) if OutcomeTable::holds(key) && depth < SHARE_DEPTH => {
                share.outcomes.get()?.get(key)
            }
            _ if depth < SPLIT_DEPTH => share.outcome(p),
            _ => None,
        }
    }

    /// An option's `step` (`depth` moves deep) with what the other threads know of it: its
    /// value where another thread decided it (written into `step`, and kept in this
    /// thread's memo too); whether another thread is deciding it now.
    ///
    /// (Until helpers are woken, this is one test, inlined: a call that moved the step cost
    /// a one-thread search of natural dots 5 × 5 a tenth of its samples.)
    #[inline(always)]
    pub(super) fn consult_others(&mut self, step: &mut Step<Pos<R>>, depth: usize) -> bool {
        self.live_share().is_some() && self.consult_others_shared(step, depth)
    }

    fn consult_others_shared(&mut self, step: &mut Step<Pos<R>>, depth: usize) -> bool {
        let Step::Need(task) = *step else {
            return false;
        };
        match self.what_others_know(task, depth) {
            Others::Known(v) => {
                self.store(task, v);
                *step = Step::Value(v);
                false
            }
            Others::Busy => true,
            Others::Unknown => false,
        }
    }

    /// What the other threads know of the option whose task is `task`, `depth` moves deep.
    #[inline]
    fn what_others_know(&self, task: Task<Pos<R>>, depth: usize) -> Others {
        let (Some(share), Node::Leaf(p), ValueKind::Outcome) =
            (self.live_share(), task.node, task.kind)
        else {
            return Others::Unknown;
        };
        match self.shared_outcome(share, p, depth) {
            Some(v) => Others::Known(v),
            None if depth < SPLIT_DEPTH && self.busy(share, p) => Others::Busy,
            None => Others::Unknown,
        }
    }

    fn busy(&self, share: &SearchShare<Pos<R>>, p: Pos<R>) -> bool {
        match (self.rules.key(p), share.outcomes.get()) {
            (Some(key), Some(t)) if OutcomeTable::holds(key) => t.is_busy(key),
            _ => share.is_busy(p),
        }
    }

    fn set_busy(&self, share: &SearchShare<Pos<R>>, p: Pos<R>, on: bool) {
        match (self.rules.key(p), share.outcomes.get()) {
            (Some(key), Some(t)) if OutcomeTable::holds(key) => t.set_busy(key, on),
            _ => share.mark_busy(p, if on { 1 } else { -1 }),
        }
    }

    /// Whether a thread passes over an option `depth` moves deep that another thread is
    /// deciding (where one of its position's options was found losing).
    #[inline]
    pub(super) fn passes_over(&self, depth: usize) -> bool {
        depth < SPLIT_DEPTH
    }

    /// Marks the frame just pushed busy, where the threads share its outcome.
    #[inline]
    pub(super) fn mark_top(&mut self) {
        if self.stack.len() <= SPLIT_DEPTH && self.live_share().is_some() {
            self.mark(self.stack.len() - 1);
        }
    }

    /// Marks the outcome search's frame at `depth` busy (the threads share the search).
    fn mark(&mut self, depth: usize) {
        let Some(share) = self.live_share() else {
            return;
        };
        if let (ValueKind::Outcome, Node::Leaf(p)) =
            (self.stack[depth].task.kind, self.stack[depth].task.node)
        {
            self.set_busy(share, p, true);
            self.stack[depth].marked = true;
        }
    }

    /// Shares the outcome `value` of a frame just decided (and popped), and unmarks it.
    #[inline]
    pub(super) fn share_decided(&self, frame: &Frame<Pos<R>>, value: u32) {
        let (ValueKind::Outcome, Node::Leaf(p), Some(share)) =
            (frame.task.kind, frame.task.node, self.live_share())
        else {
            return;
        };
        match self.rules.key(p) {
            Some(key) if OutcomeTable::holds(key) && self.stack.len() < SHARE_DEPTH => {
                if let Some(table) = share.outcomes.get() {
                    table.put(key, value);
                }
                if frame.marked {
                    self.set_busy(share, p, false);
                }
            }
            _ if frame.marked || self.stack.len() < SPLIT_DEPTH => {
                share.decided(p, value, frame.marked)
            }
            _ => {}
        }
    }

    /// A frame left undecided (an error, or another thread decided a position below which
    /// it was) is no longer busy.
    pub(super) fn unmark(&self, frame: &Frame<Pos<R>>) {
        if let (true, Node::Leaf(p), Some(s)) = (frame.marked, frame.task.node, &self.sharing) {
            self.set_busy(&s.share, p, false);
        }
    }

    /// Every [`POLL_EVERY`] positions of a shared outcome search: the asking thread wakes its
    /// helpers once its search proves long, and counts the positions they opened; a thread
    /// leaves the shallowest position it is deciding that another thread has decided (a
    /// recalled helper leaves them all).
    #[inline]
    pub(super) fn outcome_poll(&mut self) {
        match &self.sharing {
            Some(s) if self.budget.solved >= s.next_poll => self.outcome_poll_now(),
            _ => {}
        }
    }

    #[cold]
    fn outcome_poll_now(&mut self) {
        let solved = self.budget.solved;
        let memory = self.budget.max_memory;
        let Some(s) = &mut self.sharing else {
            return;
        };
        let every = s.share.poll_every();
        s.next_poll = solved + every;
        if s.helper {
            s.report(solved);
            if s.share.stop.load(Ordering::Relaxed) {
                self.unwind_to(0, None);
                return;
            }
        } else {
            let Some((root, started)) = s.asked else {
                return;
            };
            if !s.posted {
                // An outcome search proves long later than a nimber search: waking the
                // helpers costs a table and their start.
                let wake = match s.share.wake_after {
                    0 => 0,
                    w => w.max(OUTCOME_WAKE_AFTER),
                };
                if solved - started >= wake {
                    s.posted = true;
                    s.live = true;
                    let log2 = match memory {
                        Some(limit) => TABLE_LOG2.min((limit / 64).max(2).ilog2()),
                        None => TABLE_LOG2,
                    };
                    s.share.outcomes.get_or_init(|| OutcomeTable::new(log2));
                    s.share.post(super::shared::Work::Outcome(root));
                    // The positions being decided now are busy: the helpers start elsewhere.
                    for depth in 0..self.stack.len().min(SPLIT_DEPTH) {
                        self.mark(depth);
                    }
                }
                return;
            }
            self.budget.solved += s.share.take_helped(solved);
        }
        let Some(share) = self.live_share() else {
            return;
        };
        let decided = (0..self.stack.len()).find_map(|depth| {
            match (self.stack[depth].task.kind, self.stack[depth].task.node) {
                (ValueKind::Outcome, Node::Leaf(p)) => {
                    self.shared_outcome(share, p, depth).map(|v| (depth, v))
                }
                _ => None,
            }
        });
        if let Some((depth, value)) = decided {
            self.unwind_to(depth, Some(value));
        }
    }

    /// Leaves the frames from `depth` up, undecided, but for the one at `depth` where
    /// `value` is its outcome (found by another thread).
    fn unwind_to(&mut self, depth: usize, value: Option<u32>) {
        while self.stack.len() > depth {
            let Some(frame) = self.stack.pop() else {
                break;
            };
            self.held_options -= frame.held;
            self.unmark(&frame);
            let keep = match value {
                Some(v) if self.stack.len() == depth => v,
                _ => UNKNOWN,
            };
            self.store(frame.task, keep);
            self.recycle(frame.bufs);
        }
        self.budget.descent_options = 0;
    }
}
