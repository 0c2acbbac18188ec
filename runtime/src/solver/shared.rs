//! Nimber searches on several threads: helper threads take options of the positions the
//! asking thread is deciding, ask them what the asking thread will ask, and every thread
//! shares what it finds.
//!
//! What is shared are facts about positions (least images) that hold whoever found them
//! and however: a position's exact Grundy value, and values (below 128) it does not have.
//! A thread reads them where its own memo does not know a position; nothing else passes
//! between the threads. A fact a thread reads is what it would have found itself, so the
//! answer is the one a single thread computes, whatever the timing — only the work each
//! thread does depends on it.
//!
//! The asking thread searches alone at first: helpers are woken only when its search has
//! opened [`WAKE_AFTER`] positions (a short search is done before they would help). From
//! then on, each position it decides in the top 12 levels is a *split point*: its options
//! still to ask (at the top, one of each kind up to symmetry), in the asking thread's
//! order, and the values it asks them about now. A helper takes the first option no thread
//! has taken at the shallowest split point and asks it about those values (what the asking
//! thread asks it later is a part of them, so the helper's facts answer it); the asking
//! thread passes over options a helper has taken and comes back to them last, when their
//! facts are usually shared already. A split point ends when the asking thread leaves the
//! position; a helper working under it stops at its next position. Where a helper finds
//! that an option of the top position has the value the asking thread looks for, the
//! asking thread stops what it is doing there and goes on to the next value. Facts are
//! shared only once the helpers are woken: a search that stays short runs as one thread
//! does.

use super::nimber::Values;
use super::*;
use crate::partizan::share::{FormHelpers, SharedForms};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Positions the asking thread opens alone before it wakes its helpers, by default.
pub const WAKE_AFTER: u64 = 2048;

/// Positions a helper counts on its own before it adds them to the count of the whole
/// search (progress and `--max-positions` see a helper's positions this late at most).
const HELPER_COUNT_BATCH: u64 = 256;

/// Positions this deep or deeper are not split points (their searches are short).
const SPLIT_DEPTH: usize = 12;

/// The stack each helper thread gets: its searches recurse as deep as the asking thread's.
const HELPER_STACK: usize = 256 << 20;

/// What is known of one position (a least image).
#[derive(Clone, Copy, Default)]
struct Fact {
    /// The exact Grundy value, plus one (0: not known).
    value: u32,
    /// Values below 128 the position does not have, as bits.
    not: u128,
    /// Threads whose outcome search is deciding the position now ([`super::outcome_share`]).
    busy: u8,
}

impl Fact {
    /// The position's normal-play outcome where this tells it: P where its value is 0, N
    /// where it is another or not 0.
    fn outcome(self) -> Option<u32> {
        match (self.value, self.not & 1) {
            (1, _) => Some(OUTCOME_P),
            (0, 0) => None,
            _ => Some(OUTCOME_N),
        }
    }
}

/// A position the asking thread is deciding, whose options helpers may take.
struct Split<P> {
    node: P,
    depth: usize,
    /// Whether the asking thread is still deciding it.
    alive: AtomicBool,
    state: Mutex<SplitState>,
}

struct SplitState {
    /// Indices of the node's options to ask, in the asking thread's order.
    order: Vec<usize>,
    /// Which of `order` a thread has taken.
    taken: Vec<bool>,
    /// The values the asking thread asks the options about now.
    ask: Values,
}

/// The helpers' side of the handover: whether a search is on, and how many helpers are in
/// it.
struct Board<P> {
    on: bool,
    /// The work on, while `on`.
    work: Work<P>,
    /// Helpers searching now.
    busy: usize,
    /// Helpers are to leave.
    closing: bool,
}

/// What the helpers are woken for.
#[derive(Clone, Copy)]
pub(super) enum Work<P> {
    /// To take the asking thread's split points of a nimber search.
    Splits,
    /// To search the outcome of this position (a least image) beside the asking thread, by
    /// the ordinary search ([`super::outcome_share`]).
    Outcome(P),
    /// To compute the canonical form of this position beside the asking thread
    /// ([`crate::partizan::share`]).
    Forms(P),
}

/// The facts a search's threads share, and the handover between the asking thread and its
/// helpers. One value serves one solver and its helpers ([`search_with_helpers`]).
pub struct SearchShare<P> {
    /// Positions the asking thread opens alone before it wakes the helpers.
    pub(super) wake_after: u64,
    facts: dashmap::DashMap<P, Fact, rustc_hash::FxBuildHasher>,
    /// The canonical forms the threads computed ([`crate::partizan::share`]).
    forms: SharedForms<P>,
    /// The outcomes decided by a shared outcome search, of positions with a key; made when
    /// its helpers are first woken.
    pub(super) outcomes: std::sync::OnceLock<OutcomeTable>,
    /// The asking thread's split points, the shallowest first.
    path: Mutex<Vec<Arc<Split<P>>>>,
    /// Helpers stop their search at their next position.
    pub(super) stop: AtomicBool,
    /// Positions the helpers opened, not yet counted by the asking thread.
    helpers_solved: AtomicU64,
    /// The asking thread's count of positions (the helpers' counted in) as it last took
    /// theirs ([`SearchShare::take_helped`]).
    asker_solved: AtomicU64,
    /// `--max-positions`, for the whole process: a helper that finds every thread's count
    /// past it stops the helpers ([`SearchShare::count_helped`]).
    max_positions: u64,
    board: Mutex<Board<P>>,
    changed: Condvar,
}

/// Locks `m`; a thread that panicked while holding it left it usable.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<P: Copy + Eq + std::hash::Hash> SearchShare<P> {
    fn new(wake_after: u64, max_positions: u64) -> Self {
        SearchShare {
            wake_after,
            asker_solved: AtomicU64::new(0),
            max_positions,
            // Many shards: two threads seldom wait on one shard's lock.
            facts: dashmap::DashMap::with_hasher_and_shard_amount(Default::default(), 512),
            forms: SharedForms::default(),
            outcomes: std::sync::OnceLock::new(),
            path: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
            helpers_solved: AtomicU64::new(0),
            board: Mutex::new(Board {
                on: false,
                work: Work::Splits,
                busy: 0,
                closing: false,
            }),
            changed: Condvar::new(),
        }
    }

    /// A helper counts `n` more positions it solved. Where every thread's count is past
    /// the position limit, the helpers stop: the asking thread, which meets the limit when
    /// it next takes their count, stops the solve with the limit's error. So the limit holds
    /// for the whole process whatever the threads' timing: past it by at most the positions
    /// each thread opens between two counts (a helper's batch, the asking thread's 1,024).
    pub(super) fn count_helped(&self, n: u64) {
        let unfolded = self.helpers_solved.fetch_add(n, Ordering::Relaxed) + n;
        let all = self.asker_solved.load(Ordering::Relaxed) + unfolded;
        if all >= self.max_positions {
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The positions the helpers counted since the last call, taken by the asking thread,
    /// whose count is `solved` before them.
    pub(super) fn take_helped(&self, solved: u64) -> u64 {
        let helped = self.helpers_solved.swap(0, Ordering::Relaxed);
        self.asker_solved.store(solved + helped, Ordering::Relaxed);
        helped
    }

    fn fact(&self, p: P) -> Option<Fact> {
        self.facts.get(&p).map(|f| *f)
    }

    fn learn(&self, p: P, value: Option<u32>, not: u128) {
        let mut fact = self.facts.entry(p).or_default();
        match value {
            Some(v) => fact.value = v.saturating_add(1),
            None => fact.not |= not,
        }
    }

    /// Wakes the helpers for `work`.
    pub(super) fn post(&self, work: Work<P>) {
        let mut board = lock(&self.board);
        self.stop.store(false, Ordering::Relaxed);
        board.on = true;
        board.work = work;
        self.changed.notify_all();
    }

    /// Positions a thread of a shared outcome search opens between two looks at what the
    /// others decided ([`super::outcome_share`]): every one where the helpers are woken at
    /// once (the searches are short, as in tests), else [`super::outcome_share::POLL_EVERY`].
    pub(super) fn poll_every(&self) -> u64 {
        match self.wake_after {
            0 => 1,
            _ => super::outcome_share::POLL_EVERY,
        }
    }

    /// The outcome of `p` where a thread has found it.
    pub(super) fn outcome(&self, p: P) -> Option<u32> {
        self.fact(p).and_then(Fact::outcome)
    }

    /// Whether another thread's outcome search is deciding `p` now.
    pub(super) fn is_busy(&self, p: P) -> bool {
        self.facts.get(&p).is_some_and(|f| f.busy > 0)
    }

    /// One more (`by` 1) or one fewer (`by` -1) thread is deciding `p`.
    pub(super) fn mark_busy(&self, p: P, by: i8) {
        let mut fact = self.facts.entry(p).or_default();
        fact.busy = fact.busy.saturating_add_signed(by);
    }

    /// One thread decided `p` (an outcome), and is no longer deciding it where `marked`.
    pub(super) fn decided(&self, p: P, outcome: u32, marked: bool) {
        let mut fact = self.facts.entry(p).or_default();
        match outcome {
            OUTCOME_P => fact.value = 1,
            _ => fact.not |= 1,
        }
        if marked {
            fact.busy = fact.busy.saturating_sub(1);
        }
    }

    /// Stops the helpers' search and waits until every helper has left it.
    fn recall(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let mut board = lock(&self.board);
        board.on = false;
        board.work = Work::Splits;
        while board.busy > 0 {
            board = self.changed.wait(board).unwrap_or_else(|e| e.into_inner());
        }
        lock(&self.path).clear();
    }

    /// Sends the helpers away (they leave [`SearchShare::serve`]).
    fn close(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let mut board = lock(&self.board);
        board.closing = true;
        board.on = false;
        self.changed.notify_all();
    }

    /// The first option no thread has taken at the shallowest split point, taken: the
    /// split point, the option's index and the values to ask it about.
    fn take_work(&self) -> Option<(Arc<Split<P>>, usize, Values)> {
        let path = lock(&self.path);
        let mut by_depth: Vec<&Arc<Split<P>>> = path.iter().collect();
        by_depth.sort_by_key(|split| split.depth);
        for split in by_depth {
            let mut state = lock(&split.state);
            if let Some(at) = state.taken.iter().position(|&t| !t) {
                state.taken[at] = true;
                return Some((split.clone(), state.order[at], state.ask));
            }
        }
        None
    }

    /// A helper's life: waits for a search, works on it with a solver of its own (which
    /// keeps its memo from one search to the next), until [`SearchShare::close`].
    fn serve<R: Rules<Pos = P>>(self: &Arc<Self>, rules: &R, budget: (u64, Option<u64>)) {
        let mut solver = Solver::new(rules);
        solver.set_threads(1);
        solver.set_max_positions(budget.0);
        solver.set_max_memory(budget.1);
        solver.sharing = Some(Sharing::new(self.clone(), true));
        loop {
            let work = {
                let mut board = lock(&self.board);
                loop {
                    if board.closing {
                        return;
                    }
                    if board.on {
                        // Taken while the board is held: a recall waits for it.
                        board.busy += 1;
                        break board.work;
                    }
                    board = self.changed.wait(board).unwrap_or_else(|e| e.into_inner());
                }
            };
            match work {
                Work::Splits => {}
                Work::Outcome(root) => solver.help_outcome(root),
                // An error (a stop among them) ends the helper's part only: the asking
                // thread meets any error itself where it needs that position.
                Work::Forms(root) => drop(solver.partizan().position(root)),
            }
            while !self.stop.load(Ordering::Relaxed) {
                if !matches!(work, Work::Splits) {
                    // Decided, or stopped: the asking thread recalls the helpers soon.
                    std::thread::sleep(std::time::Duration::from_micros(20));
                    continue;
                }
                match self.take_work() {
                    Some((split, i, ask)) => solver.assist(split, i, ask),
                    // Nothing to take: the asking thread makes split points as it goes.
                    None => std::thread::sleep(std::time::Duration::from_micros(20)),
                }
            }
            // Counted before the helper is no longer busy: the asking thread, once the
            // helpers are recalled, counts them.
            let solved = solver.budget.solved;
            if let Some(s) = &mut solver.sharing {
                s.report(solved);
            }
            let mut board = lock(&self.board);
            board.busy -= 1;
            self.changed.notify_all();
        }
    }
}

impl<P: Copy + Eq + std::hash::Hash> FormHelpers<P> for SearchShare<P> {
    fn shared(&self) -> &SharedForms<P> {
        &self.forms
    }

    fn wake(&self, root: P) {
        self.post(Work::Forms(root));
    }

    fn recall(&self) {
        SearchShare::recall(self);
    }

    fn count_helped(&self, n: u64) {
        SearchShare::count_helped(self, n);
    }

    fn take_helped(&self, solved: u64) -> u64 {
        SearchShare::take_helped(self, solved)
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn wake_after(&self) -> u64 {
        self.wake_after
    }
}

/// A solver's part in a shared search.
pub(super) struct Sharing<P> {
    pub(super) share: Arc<SearchShare<P>>,
    /// Whether the solver is a helper (else it is the asking thread).
    pub(super) helper: bool,
    /// The asking thread's search: its root, and the positions opened before it.
    pub(super) asked: Option<(P, u64)>,
    /// Whether the helpers were woken for it.
    pub(super) posted: bool,
    /// Where an outcome search shares its work, the positions solved when it next looks
    /// at what the other threads did ([`super::outcome_share`]).
    pub(super) next_poll: u64,
    /// The split point a helper works under.
    under: Option<Arc<Split<P>>>,
    /// A helper: its positions solved (its budget's count) as it last added them to
    /// [`SearchShare::helpers_solved`] ([`Sharing::report`]).
    reported: u64,
    /// The value the asking thread asks the root's options about now.
    pub(super) looking_for: Option<u32>,
    /// Whether facts are shared: for a helper always, for the asking thread once it has
    /// woken its helpers (before, it keeps its facts to itself, as one thread does).
    pub(super) live: bool,
}

impl<P: Copy + Eq + std::hash::Hash> Sharing<P> {
    /// A helper adds the positions it solved since it last did (`solved` now) to the
    /// search's count. It does so [`HELPER_COUNT_BATCH`] positions at a time, at an outcome
    /// search's polls and when its work ends, not at every position: a write to the shared
    /// counter pulls its cache line from the asking thread's core.
    pub(super) fn report(&mut self, solved: u64) {
        self.share.count_helped(solved - self.reported);
        self.reported = solved;
    }
}

impl<P> Sharing<P> {
    fn new(share: Arc<SearchShare<P>>, helper: bool) -> Self {
        Sharing {
            share,
            helper,
            asked: None,
            posted: false,
            next_poll: 0,
            under: None,
            reported: 0,
            looking_for: None,
            live: helper,
        }
    }
}

/// The asking thread's handle on a split point it made ([`Solver::split_enter`]): the split
/// point ends when the handle is dropped (the asking thread leaves the position, however).
pub(super) struct SplitHandle<P> {
    share: Arc<SearchShare<P>>,
    split: Arc<Split<P>>,
    /// For each option of the node, its place in the split point's order (options that
    /// are the same up to symmetry share one).
    place: Vec<u32>,
    /// Options passed over once because a helper had them.
    deferred: Vec<usize>,
}

/// How many threads a solver's nimber searches, and its long outcome searches of games that
/// do not split, use ([`search_with_helpers`]).
#[derive(Clone, Copy, Debug)]
pub struct Helpers {
    /// The threads in all, the asking thread included (1: no helpers).
    pub threads: usize,
    /// Positions a search opens alone before it wakes its helpers (a shorter search is
    /// over before they would help).
    pub wake_after: u64,
}

impl Helpers {
    /// `threads` threads in all, woken after [`WAKE_AFTER`] positions.
    pub fn new(threads: usize) -> Helpers {
        Helpers {
            threads,
            wake_after: WAKE_AFTER,
        }
    }
}

impl<P> Drop for SplitHandle<P> {
    fn drop(&mut self) {
        self.split.alive.store(false, Ordering::Relaxed);
        let mut path = lock(&self.share.path);
        if let Some(at) = path.iter().rposition(|x| Arc::ptr_eq(x, &self.split)) {
            path.remove(at);
        }
    }
}

/// Runs `work` with `solver` sharing its nimber searches with `helpers.threads - 1` helper
/// threads (fewer where threads cannot be started; none where it is 1, or where the
/// solver is not in [`Mode::Fast`]), and answers what `work` does. The values found are
/// those one thread finds; see the module's documentation.
///
/// ```
/// use cgdl_runtime::solver::shared::{search_with_helpers, Helpers};
/// use cgdl_runtime::{Options, RuleError, Rules, Solver};
///
/// /// Kayles: take one or two adjacent pins of a row, leaving the two rows beside them.
/// struct Kayles;
/// impl Rules for Kayles {
///     type Pos = u32;
///     fn options(&self, n: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
///         for take in 1..=n.min(2) {
///             for left in 0..=(n - take) / 2 {
///                 out.sum([left, n - take - left].into_iter().filter(|&k| k > 0));
///             }
///         }
///         Ok(())
///     }
///     fn splits(&self, _: u32) -> bool {
///         true
///     }
/// }
///
/// let mut solver = Solver::new(&Kayles);
/// let values = search_with_helpers(&mut solver, Helpers::new(2), |solver| {
///     (0..12u32).map(|n| solver.grundy(n)).collect::<Result<Vec<_>, _>>()
/// });
/// // Kayles' nim-sequence (OEIS A002186; Winning Ways).
/// assert_eq!(values.ok(), Some(vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]));
/// ```
pub fn search_with_helpers<'r, R, T>(
    solver: &mut Solver<'r, R>,
    helpers: Helpers,
    work: impl FnOnce(&mut Solver<'r, R>) -> T,
) -> T
where
    R: Rules + Sync,
    R::Pos: Send + Sync,
{
    let threads = helpers.threads.min(crate::kernel::MAX_THREADS);
    if threads <= 1 || solver.mode != Mode::Fast {
        return work(solver);
    }
    let budget = (solver.budget.max_positions, solver.budget.max_memory);
    let share = Arc::new(SearchShare::new(helpers.wake_after, budget.0));
    let rules = solver.rules;
    std::thread::scope(|scope| {
        // Sends the helpers away however `work` ends (a panic included), so that the
        // scope can end.
        struct Closing<'a, P: Copy + Eq + std::hash::Hash>(&'a SearchShare<P>);
        impl<P: Copy + Eq + std::hash::Hash> Drop for Closing<'_, P> {
            fn drop(&mut self) {
                self.0.close();
            }
        }
        let _closing = Closing(&share);
        for helper in 1..threads {
            let share = share.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("cgdl-helper-{helper}"))
                .stack_size(HELPER_STACK)
                .spawn_scoped(scope, move || share.serve(rules, budget));
            if spawned.is_err() {
                break;
            }
        }
        solver.sharing = Some(Sharing::new(share.clone(), false));
        let answer = work(solver);
        solver.sharing = None;
        answer
    })
}

impl<R: Rules> Solver<'_, R> {
    /// At the top of a nimber search: the asking thread notes the search (its helpers are
    /// woken once it proves long). Whether this call is the top of a shared search.
    pub(super) fn share_begin(&mut self, root: Pos<R>) -> bool {
        let solved = self.budget.solved;
        match &mut self.sharing {
            Some(s) if !s.helper && s.asked.is_none() => {
                s.asked = Some((root, solved));
                s.posted = false;
                true
            }
            _ => false,
        }
    }

    /// At the end of a search [`Solver::share_begin`] began: stops the helpers and counts
    /// the positions they opened.
    pub(super) fn share_end(&mut self) {
        let Some(s) = &mut self.sharing else {
            return;
        };
        s.asked = None;
        s.looking_for = None;
        if std::mem::take(&mut s.posted) {
            s.share.recall();
        }
        self.budget.solved += s.share.take_helped(self.budget.solved);
    }

    /// What the threads sharing this search know of `p` (a least image): its value, and
    /// values it does not have.
    pub(super) fn shared_fact(&self, p: Pos<R>) -> (Option<u32>, u128) {
        match (self.sharing.as_ref())
            .filter(|s| s.live)
            .and_then(|s| s.share.fact(p))
        {
            Some(f) => (f.value.checked_sub(1), f.not),
            None => (None, 0),
        }
    }

    /// Tells the threads sharing this search what was found of `p`.
    pub(super) fn share_fact(&self, p: Pos<R>, value: Option<u32>, not: u128) {
        if let Some(s) = self.sharing.as_ref().filter(|s| s.live) {
            if value.is_some() || not != 0 {
                s.share.learn(p, value, not);
            }
        }
    }

    /// Whether a search opening one more position should stop: a helper whose search is
    /// over or whose split point the asking thread has left, or the asking thread where a
    /// helper has decided what it asks of the root (`looking_for`: the value its options
    /// are asked about). Wakes the helpers once the asking thread's search proves long.
    pub(super) fn share_stops(&mut self) -> bool {
        let solved = self.budget.solved;
        let Some(s) = &mut self.sharing else {
            return false;
        };
        if s.helper {
            if solved - s.reported >= HELPER_COUNT_BATCH {
                s.report(solved);
            }
            return s.share.stop.load(Ordering::Relaxed)
                || s.under
                    .as_ref()
                    .is_some_and(|u| !u.alive.load(Ordering::Relaxed));
        }
        let Some((root, started)) = s.asked else {
            return false;
        };
        if !s.posted {
            if self.budget.solved - started >= s.share.wake_after {
                s.posted = true;
                s.live = true;
                s.share.post(Work::Splits);
            }
            return false;
        }
        if self.budget.solved & 0x3FF != 0 {
            return false;
        }
        self.budget.solved += s.share.take_helped(self.budget.solved);
        // Decided by a helper: the root's value, or whether it is the value looked for
        // now (the search then looks for the next).
        match (s.share.fact(root), s.looking_for) {
            (Some(f), Some(r)) => f.value != 0 || f.not >> r & 1 != 0,
            (Some(f), None) => f.value != 0,
            (None, _) => false,
        }
    }

    /// Whether a helper found an option of the root with value `r`.
    pub(super) fn swept(&self, r: u32) -> bool {
        match self.sharing.as_ref().and_then(|s| s.asked) {
            Some((root, _)) if r < 128 => self.shared_fact(root).1 >> r & 1 != 0,
            _ => false,
        }
    }

    /// Makes `node` (a least image at `depth`, with options `opts` of which `left` are to
    /// be asked, in order) a split point, where the asking thread's helpers are at work.
    pub(super) fn split_enter(
        &self,
        node: Pos<R>,
        depth: usize,
        opts: &Options<Pos<R>>,
        left: &[usize],
    ) -> Option<SplitHandle<Pos<R>>> {
        let s = self.sharing.as_ref()?;
        if s.helper || !s.posted || depth >= SPLIT_DEPTH || left.len() < 2 {
            return None;
        }
        let (order, place) = match depth {
            // Symmetric options are common at the top only.
            0 => self.distinct_options(opts, left),
            _ => {
                let mut place = vec![u32::MAX; opts.len()];
                for (at, &i) in left.iter().enumerate() {
                    place[i] = at as u32;
                }
                (left.to_vec(), place)
            }
        };
        if order.len() < 2 {
            return None;
        }
        let split = Arc::new(Split {
            node,
            depth,
            alive: AtomicBool::new(true),
            state: Mutex::new(SplitState {
                taken: vec![false; order.len()],
                order,
                ask: Values::EMPTY,
            }),
        });
        lock(&s.share.path).push(split.clone());
        Some(SplitHandle {
            share: s.share.clone(),
            split,
            place,
            deferred: Vec::new(),
        })
    }

    /// Whether the asking thread asks option `i` of a split point about `ask` now: it
    /// takes the option, or passes over it (once) where a helper has taken it.
    pub(super) fn split_take(
        &self,
        handle: &mut Option<SplitHandle<Pos<R>>>,
        i: usize,
        ask: Values,
    ) -> bool {
        let Some(h) = handle else {
            return true;
        };
        if h.deferred.contains(&i) {
            return true;
        }
        let Some(&place) = h.place.get(i) else {
            return true;
        };
        let mut state = lock(&h.split.state);
        state.ask = ask;
        match state.taken.get_mut(place as usize) {
            Some(taken) if *taken => {
                drop(state);
                h.deferred.push(i);
                false
            }
            Some(taken) => {
                *taken = true;
                true
            }
            None => true,
        }
    }

    /// A helper asks option `i` of a split point about `ask`, sharing what it finds; at the
    /// top position, an option found to have the one value asked tells the asking thread
    /// that the top position does not have it.
    fn assist(&mut self, split: Arc<Split<Pos<R>>>, i: usize, ask: Values) {
        if ask.is_empty() {
            return;
        }
        if let Some(s) = &mut self.sharing {
            s.under = Some(split.clone());
        }
        if let Ok(bufs) = self.open(split.node, split.depth) {
            let found = self.option_in(&bufs.opts, i, ask, split.depth);
            if let (Ok(Some(v)), 0) = (found, split.depth) {
                if Values::single(v) == Some(ask) {
                    self.share_fact(split.node, None, 1 << v);
                }
            }
            self.close(split.node, bufs, None, 0);
        }
        if let Some(s) = &mut self.sharing {
            s.under = None;
        }
    }
}

/// The outcomes the threads of a shared outcome search decided, of positions with a
/// [`Rules::key`] below 2^62, in a table of fixed size that threads read and write without
/// locks. An entry is one word, the key and the outcome, so that a thread never reads half
/// of another's write; a full bucket has an entry replaced. The table forgets outcomes, and
/// never gives a position another's.
pub(super) struct OutcomeTable {
    words: Box<[AtomicU64]>,
}

/// Entries in a bucket: one is replaced where all are taken.
const BUCKET: usize = 4;

impl OutcomeTable {
    /// A table of `2^log2` entries.
    pub(super) fn new(log2: u32) -> OutcomeTable {
        OutcomeTable {
            words: (0..1usize << log2).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Whether a key can be kept.
    pub(super) fn holds(key: u64) -> bool {
        key < 1 << 62
    }

    /// The bucket of `key` (its first entry), and a hash bit or two to choose in it.
    fn bucket(&self, key: u64) -> (usize, usize) {
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let at = (h >> 32) as usize & (self.words.len() - 1) & !(BUCKET - 1);
        (at, (h >> 16) as usize % BUCKET)
    }

    /// The outcome of the position of `key` (held: [`OutcomeTable::holds`]), where kept.
    pub(super) fn get(&self, key: u64) -> Option<u32> {
        let (at, _) = self.bucket(key);
        self.words[at..at + BUCKET].iter().find_map(|w| {
            let w = w.load(Ordering::Relaxed);
            match (w >> 2 == key, w & 3) {
                (true, 1) => Some(OUTCOME_P),
                (true, 2) => Some(OUTCOME_N),
                _ => None,
            }
        })
    }

    /// Whether the position of `key` is marked busy.
    pub(super) fn is_busy(&self, key: u64) -> bool {
        let (at, _) = self.bucket(key);
        (self.words[at..at + BUCKET].iter()).any(|w| w.load(Ordering::Relaxed) == key << 2 | 3)
    }

    /// Marks the position of `key` busy (where its outcome is not kept), or no longer busy.
    pub(super) fn set_busy(&self, key: u64, on: bool) {
        let (at, pick) = self.bucket(key);
        let bucket = &self.words[at..at + BUCKET];
        let mark = key << 2 | 3;
        if on {
            let free = bucket.iter().find(|w| {
                let w = w.load(Ordering::Relaxed);
                w == 0 || w >> 2 == key
            });
            match free {
                Some(w) if w.load(Ordering::Relaxed) & 3 != 0 => {}
                Some(w) => w.store(mark, Ordering::Relaxed),
                None => bucket[pick].store(mark, Ordering::Relaxed),
            }
        } else {
            for w in bucket {
                let _ = w.compare_exchange(mark, 0, Ordering::Relaxed, Ordering::Relaxed);
            }
        }
    }

    /// Keeps `outcome` (`OUTCOME_P` or `OUTCOME_N`) for the position of `key` (held).
    pub(super) fn put(&self, key: u64, outcome: u32) {
        let word = key << 2 | if outcome == OUTCOME_P { 1 } else { 2 };
        let (at, pick) = self.bucket(key);
        let bucket = &self.words[at..at + BUCKET];
        let free = bucket.iter().find(|w| {
            let w = w.load(Ordering::Relaxed);
            w == 0 || w >> 2 == key
        });
        free.unwrap_or(&bucket[pick]).store(word, Ordering::Relaxed);
    }
}
