//! A search's frames: the position being solved, its options and their values so far, and
//! the statistics that order an outcome search's options.

use crate::rules::Options;
use crate::value::ValueKind;

/// What a search solves: a position, or a compound of positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Node<P> {
    /// A position of a game.
    Leaf(P),
    /// A compound the solver interned (its index).
    Expr(u32),
}

/// One value of one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Task<P> {
    pub(super) kind: ValueKind,
    pub(super) node: Node<P>,
}

/// Frame cursor after an outcome search found a winning option.
pub(super) const SHORT_CIRCUIT: usize = usize::MAX;

/// A frame's buffers, boxed so that a frame is small to push and pop, and pooled.
pub(super) struct Buffers<P> {
    pub(super) opts: Options<P>,
    /// The options' values in order, as they are solved; for an outcome search, each
    /// option's value when the memo was scanned (see `Solver::scan_known`).
    pub(super) vals: Vec<u32>,
    /// An outcome search's order of the options (indices), where a symmetry fixes some
    /// option not yet known (see `Solver::symmetric_first`); empty: their own order.
    pub(super) order: Vec<u32>,
    /// Each option's fixing symmetries ([`crate::Rules::least_image_fixing`]) where
    /// `order` is not empty.
    pub(super) fixing: Vec<u64>,
    /// Per option, where it is one position and it was found, the position the memo keeps
    /// it under (its least image under the game's symmetries, or itself where the memo
    /// holds its value under it as listed): found once, when the options are listed (with
    /// the memo's entries for all of them asked of the memory system at once), or in an
    /// outcome search as the scan reaches the option.
    pub(super) images: Vec<Option<P>>,
    /// Per option, its value where the memo held one under the option as it is (see
    /// `Solver::find_images`), else `UNKNOWN`; empty where the images were found otherwise.
    pub(super) found: Vec<u32>,
}

impl<P> Default for Buffers<P> {
    fn default() -> Self {
        Buffers {
            opts: Options::default(),
            vals: Vec::new(),
            order: Vec::new(),
            fixing: Vec::new(),
            images: Vec::new(),
            found: Vec::new(),
        }
    }
}

impl<P> Buffers<P> {
    /// The option at `cursor` in the search's order.
    #[inline]
    pub(super) fn at(&self, cursor: usize) -> usize {
        match self.order.get(cursor) {
            Some(&i) => i as usize,
            None => cursor,
        }
    }

    /// Puts the option at `cursor` once more at the end of the search's order (another
    /// thread is deciding it: this one comes back to it last).
    pub(super) fn defer(&mut self, cursor: usize) {
        if self.order.is_empty() {
            self.order.extend(0..self.opts.refs.len() as u32);
        }
        let i = self.at(cursor) as u32;
        self.order.push(i);
    }
}

/// How often the options that each symmetry fixes turned out to be winning replies (P),
/// and how often they were tried: bit `e` of [`crate::Rules::least_image_fixing`]'s answer
/// is entry `e`. (Games of one universe share the entries: the statistics only order
/// moves.)
#[derive(Clone, Debug)]
pub(crate) struct SymmetryStats {
    wins: [u32; 64],
    tries: [u32; 64],
}

impl Default for SymmetryStats {
    fn default() -> Self {
        SymmetryStats {
            wins: [0; 64],
            tries: [0; 64],
        }
    }
}

impl SymmetryStats {
    /// How likely an option fixed by the symmetries `fixing` is a winning reply, in
    /// millionths: the chance that one of them makes it so, were they independent, each
    /// symmetry's rate counted from one win in two tries before any is seen (so an untried
    /// symmetry is tried, and a position that more symmetries fix comes first).
    pub(crate) fn promise(&self, fixing: u64) -> u32 {
        let mut missed = 1.0f64;
        let mut bits = fixing;
        while bits != 0 {
            let e = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let rate = (f64::from(self.wins[e]) + 1.0) / (f64::from(self.tries[e]) + 2.0);
            missed *= 1.0 - rate;
        }
        ((1.0 - missed) * 1e6) as u32
    }

    /// Records that an option fixed by `fixing` was (`won`) or was not a winning reply.
    pub(crate) fn record(&mut self, fixing: u64, won: bool) {
        let mut bits = fixing;
        while bits != 0 {
            let e = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            // Halve both counts now and then, so that the rates follow the search.
            if self.tries[e] == u32::MAX / 2 {
                self.tries[e] /= 2;
                self.wins[e] /= 2;
            }
            self.tries[e] += 1;
            self.wins[e] += u32::from(won);
        }
    }
}

/// A position being solved: its options, and how far the search is through them.
pub(super) struct Frame<P> {
    pub(super) task: Task<P>,
    /// The options, and the values of those already solved.
    pub(super) bufs: Box<Buffers<P>>,
    /// The options were dropped while the frame waited for a child (to keep memory
    /// proportional to the depth, not depth × options); enumerate them again on resume.
    pub(super) dropped: bool,
    /// An outcome search has looked its options up in the memo (see `Solver::scan_known`).
    pub(super) scanned: bool,
    /// The options it keeps while it waits, counted in `Solver::held_options`.
    pub(super) held: usize,
    pub(super) cursor: usize,
    /// The threads sharing an outcome search know this thread is deciding it
    /// ([`super::outcome_share`]).
    pub(super) marked: bool,
    /// An outcome search found one of its options losing (N): the position is likely P,
    /// all of whose options are needed, and where threads sharing the search split.
    pub(super) refuted: bool,
}

/// A waiting frame keeps its options while the waiting frames together hold at most this
/// many; past it, a frame with more than [`KEEP_OPTIONS_WHILE_WAITING`] drops its options
/// until it resumes (and lists them again then).
pub(super) const HELD_OPTIONS_WHILE_WAITING: usize = 1 << 16;
/// A waiting frame with at most this many options always keeps them.
pub(super) const KEEP_OPTIONS_WHILE_WAITING: usize = 64;
/// Option buffers kept for reuse.
pub(super) const POOL_LIMIT: usize = 64;
