//! The memoized solver: every value of every position expression, by fast compound rules
//! or by exact search, with an explicit stack (no recursion over positions).

use crate::compound::{combine, compound_options, fast_rule};
pub use crate::error::{HeapBound, SolveError};
use crate::expr::{Compound, Expr, IntoExpr};
use crate::kernel::{KernelAnswer, KernelTables};
use crate::memo::{EndedCache, LeafMemo, Slot, DENSE_LIMIT, KEY_TABLE_EMPTY, WIDE_TABLE_EMPTY};
use crate::partizan::{Class, PartizanSolver};
pub use crate::reporter::{Progress, ProgressReport, PROGRESS_EVERY};
use crate::reporter::{Reporter, SharedReporter};
use crate::rules::{OptRef, Options, RuleError, Rules};
use crate::value::{
    mex, Outcome, Value, ValueKind, WNumber, IN_PROGRESS, OUTCOME_N, OUTCOME_P, UNKNOWN, W_SL, W_SW,
};
use rustc_hash::FxHashMap;

use crate::checked::check_orbit;
mod budget;
mod frame;
mod loopy;
mod nimber;
mod outcome_share;
pub mod shared;

pub use outcome_share::OUTCOME_WAKE_AFTER;

use budget::Budget;
use frame::{
    Buffers, Frame, Node, SymmetryStats, Task, HELD_OPTIONS_WHILE_WAITING,
    KEEP_OPTIONS_WHILE_WAITING, POOL_LIMIT, SHORT_CIRCUIT,
};

/// An option, and its text as [`Solver::options_as_written`] writes it.
pub type WrittenOption<P> = (Expr<P>, String);

/// How compounds are evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Use each compound's theorem (xor, ⊕w, min remoteness, ...) where one applies.
    #[default]
    Fast,
    /// Search every compound's own position graph; the definition, used as an oracle.
    Exact,
}

pub use crate::memo::ENDED_CACHE;

/// Default bound on the number of positions one solver evaluates.
pub const DEFAULT_MAX_POSITIONS: u64 = 500_000_000;
/// The deepest line of play the solver follows: deeper, a game is taken not to be
/// well-founded (its moves grow without end) and solving stops with
/// [`SolveError::Unending`].
pub const MAX_DEPTH: usize = 2_000_000;

/// A line of play at least this deep, holding at least half of the positions solved when a
/// limit stops the search, is reported as probably unending.
const UNENDING_DEPTH: usize = 10_000;
/// How many options, per position of the `--max-positions` limit, may be enumerated along
/// one line of play (deeper than 10,000 moves) before a position on it is finished.
pub const DESCENT_WORK: u64 = 4;
/// The most components a compound position searched move by move (no fast rule gives its
/// value) may have: past it, the moves likely grow without end (a move makes a compound
/// that holds the game again), and a search of so large a compound could not finish.
pub const MAX_SEARCHED_COMPONENTS: usize = 256;
/// The most components a position of a loopy game's graph may have: the graph of a game
/// whose moves make compounds that hold it again (`G -> G + G`) grows without end, and is
/// enumerated up to here (every smaller compound of its positions) before that is reported.
pub const MAX_GRAPH_COMPONENTS: usize = 48;
/// Memory is measured each time compound options of this many components in all were
/// built (as it is every few thousand positions).
const MEASURE_EVERY_PARTS: u64 = 1 << 20;

enum Step<P> {
    Value(u32),
    Need(Task<P>),
}

/// What the memo tells about an outcome search's options before it descends.
enum Scan<P> {
    /// Some option is known to be P: the position is N.
    Winning,
    /// Every option is known, and none is P: the position is P.
    AllLosing,
    /// No option is known to be P; option `i` is the first unknown one, and needs `task`.
    Unknown(usize, Task<P>),
}

enum Fail<P> {
    Cycle(Task<P>),
    Error(SolveError),
}

impl<P> From<RuleError> for Fail<P> {
    fn from(e: RuleError) -> Self {
        Fail::Error(SolveError::Rule(e))
    }
}

/// A solver over one universe of games. One solver is one memo: every query asked of it
/// shares the values already computed.
pub struct Solver<'r, R: Rules> {
    rules: &'r R,
    mode: Mode,
    /// The limits, and what the solve has spent.
    budget: Budget,
    leaf_memo: Vec<LeafMemo<R::Pos>>,
    exprs: Vec<Expr<R::Pos>>,
    expr_ids: FxHashMap<Expr<R::Pos>, u32>,
    expr_memo: Vec<Vec<u32>>,
    stack: Vec<Frame<R::Pos>>,
    /// The options that waiting frames with more than [`KEEP_OPTIONS_WHILE_WAITING`] keep.
    held_options: usize,
    /// How many of those they may keep ([`HELD_OPTIONS_WHILE_WAITING`]; tests lower it).
    held_limit: usize,
    /// Spare buffers; boxed, as frames hold them.
    #[allow(clippy::vec_box)]
    pool: Vec<Box<Buffers<R::Pos>>>,
    progress: Option<SharedReporter<'r>>,
    kernel_tables: KernelTables,
    /// The proven period the last heap value was read off, until taken.
    period_used: Option<crate::period::Period>,
    /// Whether a kernel's engine keeps the values it answers (a heap code's): then the
    /// value of one position is asked of the kernel before the memo.
    kernel_keeps: bool,
    /// The kernel's answers, a buffer kept between calls.
    kernel_found: Vec<(R::Pos, u32)>,
    /// Keys of positions an outcome search found N by an `end` option, in a small
    /// direct-mapped cache instead of the memo (see [`ENDED_CACHE`]).
    ended: EndedCache,
    /// Canonical forms of partizan positions, made when first asked for.
    partizan: Option<PartizanSolver<'r, R>>,
    /// Misère canonical forms, made when first asked for.
    misere_forms: Option<crate::misere_form::MisereFormSolver<'r, R>>,
    /// Values below 128 that a nimber search found a position (a least image) not to have,
    /// as bits, while its value is not known ([`nimber`]).
    not_values: FxHashMap<R::Pos, u128>,
    /// The positions a nimber search is deciding, from the first down to the current one.
    searching: rustc_hash::FxHashSet<R::Pos>,
    /// Which symmetries' fixed options turned out winning replies (move ordering only).
    symmetry_stats: SymmetryStats,
    /// The misère quotients found, by code: each for heaps up to its length, or where the
    /// budget ran out, the heap it ran out at.
    misere_quotients: FxHashMap<Vec<u8>, Result<crate::misere::Candidate, usize>>,
    /// Whether some game of the rules declares symmetries ([`Rules::has_symmetries`], asked
    /// once): only then do searches ask which symmetries fix an option.
    symmetric: bool,
    /// Positions whose orbits under checked symmetries have other positions and were found
    /// to have their options ([`Rules::checked_symmetries`]; emptied when large), with the
    /// orbit's other positions: they are given the position's values ([`Solver::store`]).
    /// (An orbit of one position is checked again where the position is expanded again:
    /// that costs about what remembering it would.)
    checked_orbits: FxHashMap<R::Pos, crate::checked::Orbit<R::Pos>>,
    /// What the checks of the checked symmetries have cost so far, and whether their
    /// budget is spent and the maps dropped ([`ChecksAccount`]).
    checks: ChecksAccount,
    /// How many values the memos keep under a position as it was listed besides its least
    /// image ([`Solver::store_alias`]).
    aliases: u64,
    /// The least images found last, by a hash of the position (see [`Solver::image_fixing`]).
    image_cache: Vec<std::cell::Cell<Option<CachedImage<Pos<R>>>>>,
    /// The values of the positions of loopy games' graphs solved so far ([`loopy`]).
    loopy: FxHashMap<Expr<Pos<R>>, loopy::Entry>,
    /// The outcomes of the positions of loopy partizan games' graphs solved so far.
    loopy_partizan: FxHashMap<Expr<Pos<R>>, Outcome>,
    /// Loopy partizan positions' forms (or why they have none), once asked for.
    loopy_forms: FxHashMap<Expr<Pos<R>>, Result<String, SolveError>>,
    /// The threads this solver's nimber searches share facts with ([`shared`]).
    sharing: Option<shared::Sharing<Pos<R>>>,
}

/// How many positions whose orbits have other positions [`Solver`] remembers as checked
/// against their symmetries, each with its orbit (about 80 bytes), before it forgets them
/// (and checks again where it meets them again).
const CHECKED_LIMIT: usize = 1 << 18;

/// What a solver's checked symmetries ([`Rules::checked_symmetries`]) have cost. Checking
/// a position lists the options of each other position of its orbit, and images each of
/// them, which is what solving those positions would cost (and images the position under
/// every map, where its orbit is itself alone): each value the maps give saves at most the
/// work that gave it. So the checks are a budget, spent on the solve's first positions:
/// [`ChecksAccount::BASE`] positions listed, and one more for every
/// [`ChecksAccount::SHARE`] positions solved. Past it the maps are dropped: they cost at most
/// a small share of the search, a game of a few hundred positions is checked throughout,
/// and a wrong map met early is reported, never a value.
///
/// Dropping maps never changes a value: a position the maps gave a value to was checked,
/// and every position its value came from too, before they were dropped; a position solved
/// afterwards is solved as if no map were declared, and no orbit checked earlier is given a
/// value afterwards (the solver forgets the orbits when it drops the maps).
#[derive(Debug, Default)]
struct ChecksAccount {
    /// Positions whose options the checks listed (or whose images they took).
    listed: u64,
    /// The positions solved when the maps were dropped, once they are.
    dropped: Option<u64>,
}

impl ChecksAccount {
    /// Positions the checks may list whatever the solve's size.
    const BASE: u64 = 1024;
    /// The checks may list one more position for every this many positions solved.
    const SHARE: u64 = 16;

    /// Counts a check of an orbit of `orbit` positions, `solved` positions into the solve,
    /// and whether the budget is now spent (the maps are dropped).
    fn record(&mut self, orbit: usize, solved: u64) -> bool {
        self.listed += orbit as u64;
        if self.listed > Self::BASE + solved / Self::SHARE {
            self.dropped = Some(solved);
        }
        self.dropped.is_some()
    }
}

/// How many times the memos may forget their oldest values while one value is solved: a
/// solve whose positions are needed again and again would otherwise go on without end.
pub const MEMO_CLEARS_PER_VALUE: u32 = 16;

type Pos<R> = <R as Rules>::Pos;

/// What [`Solver::try_image_fixing`] finds of an option: its step, the image it was looked
/// up under (none where it ends now) and the bits of the symmetries that fix it.
type ImageStep<P> = (Step<P>, Option<P>, u64);

impl<'r, R: Rules> Solver<'r, R> {
    /// A solver using the fast compound rules.
    pub fn new(rules: &'r R) -> Self {
        Self::with_mode(rules, Mode::Fast)
    }

    /// A solver with the given evaluation mode.
    pub fn with_mode(rules: &'r R, mode: Mode) -> Self {
        Solver {
            rules,
            mode,
            budget: Budget::new(),
            leaf_memo: ValueKind::ALL.iter().map(|_| LeafMemo::new()).collect(),
            exprs: Vec::new(),
            expr_ids: FxHashMap::default(),
            expr_memo: ValueKind::ALL.iter().map(|_| Vec::new()).collect(),
            stack: Vec::new(),
            held_options: 0,
            held_limit: HELD_OPTIONS_WHILE_WAITING,
            pool: Vec::new(),
            progress: None,
            kernel_tables: {
                let mut tables = KernelTables::default();
                tables.set_threads(crate::kernel::default_threads());
                tables
            },
            period_used: None,
            kernel_keeps: false,
            kernel_found: Vec::new(),
            ended: EndedCache::default(),
            partizan: None,
            misere_forms: None,
            not_values: FxHashMap::default(),
            searching: Default::default(),
            symmetry_stats: SymmetryStats::default(),
            misere_quotients: FxHashMap::default(),
            symmetric: rules.has_symmetries(),
            checked_orbits: Default::default(),
            checks: ChecksAccount::default(),
            aliases: 0,
            image_cache: match rules.has_symmetries() {
                true => (0..IMAGE_CACHE).map(|_| Default::default()).collect(),
                false => Vec::new(),
            },
            loopy: FxHashMap::default(),
            loopy_partizan: FxHashMap::default(),
            loopy_forms: FxHashMap::default(),
            sharing: None,
        }
    }

    /// Between a query's rows (no position held): where the process holds more than half
    /// its memory limit and the rules keep positions in a table of their own
    /// ([`Rules::forget_positions`]), forgets every position and every value, so that a long
    /// table runs within the limit as it does where positions are values (the memos then
    /// forget their oldest values as they fill).
    pub(crate) fn relieve_memory(&mut self) {
        let (Some(limit), Some(held)) = (self.budget.max_memory, crate::memory::resident_bytes())
        else {
            return;
        };
        if !self.stack.is_empty() || held <= limit / 2 || !self.rules.forget_positions() {
            return;
        }
        self.leaf_memo = ValueKind::ALL.iter().map(|_| LeafMemo::new()).collect();
        self.exprs = Vec::new();
        self.expr_ids = FxHashMap::default();
        self.expr_memo = ValueKind::ALL.iter().map(|_| Vec::new()).collect();
        self.ended = EndedCache::default();
        self.not_values = FxHashMap::default();
        self.searching = Default::default();
        self.checked_orbits = Default::default();
        self.loopy = FxHashMap::default();
        self.loopy_partizan = FxHashMap::default();
        self.loopy_forms = FxHashMap::default();
        self.partizan = None;
        self.misere_forms = None;
        self.budget.cleared += 1;
        crate::memory::return_freed();
        self.measure_memory();
    }

    /// Fails with [`SolveError::OutOfMemory`] where the process holds more than the memory
    /// limit (the query driver asks between the terms of a long query).
    pub(crate) fn check_memory(&mut self) -> Result<(), SolveError> {
        match self.measure_memory() {
            Some(limit) => Err(SolveError::OutOfMemory { limit }),
            None => Ok(()),
        }
    }

    /// Measures the memory held against the limit; the limit when the process holds more.
    fn measure_memory(&mut self) -> Option<u64> {
        self.budget.measure_memory()
    }

    /// The limit on positions solved ([`Solver::set_max_positions`]).
    pub fn max_positions(&self) -> u64 {
        self.budget.max_positions
    }

    /// Bounds the number of positions this solver evaluates (a guard against huge state
    /// spaces); past it, solving fails with [`SolveError::TooManyPositions`].
    pub fn set_max_positions(&mut self, limit: u64) {
        self.budget.max_positions = limit;
        if let Some(p) = &mut self.partizan {
            p.set_max_positions(limit);
        }
    }

    /// Bounds the memory this process may hold while solving (checked every few thousand
    /// positions); past it, solving fails with [`SolveError::OutOfMemory`]. The default is
    /// three quarters of the machine's memory; `None` removes the bound.
    ///
    /// A memo never doubles past the bound: when storing a value would make one of its
    /// tables grow beyond the memory left, and that table holds at least an eighth of the
    /// bound, the memos forget the values stored longest ago first, about half of them (the
    /// marks of the positions being solved are kept)
    /// and the solve goes on, solving again whatever it needs again. Values stay exact; a
    /// solve that needs more than the bound takes longer, and [`Solver::memo_clears`] counts
    /// how often that happened. One value may make the memos forget [`MEMO_CLEARS_PER_VALUE`]
    /// times; past that, or for a table too small to be worth thinning, the solve stops
    /// with [`SolveError::OutOfMemory`] without letting the table double.
    pub fn set_max_memory(&mut self, limit: Option<u64>) {
        self.budget.max_memory = limit;
        self.measure_memory();
    }

    /// Lets the solver use `threads` threads (at least one; the default is every core the
    /// process may run on) for the kernels (dense tables, heap engines). Answers do not
    /// depend on it: where work is split between threads, each value is the one a single
    /// thread computes. Nimber searches use helper threads within
    /// [`shared::search_with_helpers`], which needs rules that threads can share.
    pub fn set_threads(&mut self, threads: usize) {
        self.kernel_tables.set_threads(threads);
    }

    /// The threads the solver may use.
    pub fn threads(&self) -> usize {
        self.kernel_tables.threads()
    }

    /// How often the memos forgot their oldest values to stay under the memory limit.
    pub fn memo_clears(&self) -> u64 {
        self.budget.cleared
    }

    /// The proven period that a heap's Grundy value was last read from (a heap too large to
    /// compute: see [`crate::kernel::heap_kernel`]), if one was since the last call.
    pub fn take_period_used(&mut self) -> Option<crate::period::Period> {
        self.period_used.take()
    }

    /// Calls `report` with what the solve has done, a few times a second while it runs
    /// (the first time once [`PROGRESS_EVERY`] has passed).
    pub fn set_progress(&mut self, report: impl FnMut(&Progress) + 'r) {
        self.progress = Some(std::rc::Rc::new(std::cell::RefCell::new(Reporter::new(
            Box::new(report),
        ))));
    }

    /// Reports progress if it is time to.
    #[cold]
    #[inline(never)]
    fn report_progress(&mut self) {
        if let Some(p) = &self.progress {
            p.borrow_mut().tick(self.budget.solved, self.budget.cleared);
        }
    }

    /// The evaluation mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The rules this solver plays.
    pub fn rules(&self) -> &'r R {
        self.rules
    }

    /// How many positions were solved when the declared maps that the solver checks were
    /// dropped, their checks' budget spent ([`ChecksAccount`]), where they were.
    pub fn checked_maps_dropped(&self) -> Option<u64> {
        self.checks.dropped
    }

    /// How many (position, value kind) pairs have been evaluated so far, canonical forms
    /// of partizan positions among them.
    pub fn positions_solved(&self) -> u64 {
        let forms = self.partizan.as_ref().map_or(0, |p| p.positions_solved());
        self.budget.solved + forms
    }

    /// The value `kind` of a position expression.
    pub fn value(
        &mut self,
        kind: ValueKind,
        expr: impl IntoExpr<Pos<R>>,
    ) -> Result<Value, SolveError> {
        let expr = expr.into_expr().canonical();
        // A heap of a code whose engine keeps every value it computed: asked of the engine
        // directly (a period query asks this of a million heaps, one after another).
        if let (true, ValueKind::Grundy, Mode::Fast, Expr::Pos(p)) =
            (self.kernel_keeps, kind, self.mode, &expr)
        {
            match self.kernel_value(*p, false) {
                Ok(Some(v)) => return Ok(kind.decode(v)),
                Ok(None) => {}
                Err(fail) => return Err(self.abort(fail)),
            }
        }
        if let Some(value) = self.known_loopy(kind, &expr) {
            return Ok(value);
        }
        // A sum of heaps of one take-and-break code: its misère outcome from the code's
        // misère quotient (the search is the definition, and the way where there is none).
        let quotient = match (kind, self.mode) {
            (ValueKind::MisereOutcome, Mode::Fast) => self.misere_by_quotient(&expr),
            _ => Ok(None),
        };
        match quotient {
            Ok(Some(outcome)) => return Ok(Value::Outcome(outcome)),
            Ok(None) => {}
            Err(heap) => {
                return match self.raw_value(kind, &expr) {
                    Ok(raw) => Ok(kind.decode(raw)),
                    Err(
                        e @ (SolveError::TooManyPositions { .. } | SolveError::OutOfMemory { .. }),
                    ) => Err(SolveError::NoMisereQuotient {
                        heap,
                        search: Box::new(e),
                    }),
                    Err(e) => Err(e),
                };
            }
        }
        match self.raw_value(kind, &expr) {
            Ok(raw) => Ok(kind.decode(raw)),
            // A position can repeat: the values that loopy games have come from the graph.
            Err(SolveError::Cycle { positions }) => self.loopy_value(kind, &expr, positions),
            Err(e) => Err(e),
        }
    }

    /// The misère outcome of `expr`, a position or a sum of positions that are all heaps of
    /// one take-and-break code ([`Rules::heap_of`]), from the code's misère quotient up to
    /// its largest heap ([`crate::misere`]): `Ok(None)` where `expr` is no such sum, `Err`
    /// with the heap where the quotient's budget (a tenth of `--max-positions` in steps)
    /// ran out.
    fn misere_by_quotient(&mut self, expr: &Expr<Pos<R>>) -> Result<Option<Outcome>, usize> {
        let leaves: Vec<Pos<R>> = match expr {
            Expr::Pos(p) => vec![*p],
            Expr::Compound(Compound::Sum, parts)
                if parts.iter().all(|e| matches!(e, Expr::Pos(_))) =>
            {
                expr.leaves().into_iter().copied().collect()
            }
            _ => return Ok(None),
        };
        let rules = self.rules;
        let Some((digits, _)) = leaves.first().and_then(|&p| rules.heap_of(p)) else {
            return Ok(None);
        };
        let mut heaps = Vec::with_capacity(leaves.len());
        for &p in &leaves {
            match rules.heap_of(p) {
                Some((d, n)) if d == digits => heaps.push(n),
                _ => return Ok(None),
            }
        }
        let max = heaps.iter().copied().max().unwrap_or(0);
        let Ok(max) = usize::try_from(max) else {
            return Ok(None);
        };
        if max > crate::misere::MAX_HEAP {
            return Ok(None);
        }
        let known = self.misere_quotients.get(digits);
        let covered = match known {
            Some(Ok(c)) => c.heaps() > max,
            // A quotient that ran out of budget below this heap runs out again.
            Some(Err(at)) if *at <= max => return Err(*at),
            _ => false,
        };
        if !covered {
            // Up to twice the largest heap asked of it so far, so that growing sums are not
            // each a new quotient.
            let asked = known.and_then(|k| k.as_ref().ok()).map_or(0, |c| c.heaps());
            // `max` is at most MAX_HEAP (above).
            let to = max
                .max(asked.saturating_mul(2))
                .min(crate::misere::MAX_HEAP);
            let options = match crate::misere::code_options(digits, to) {
                Ok(o) => o,
                Err(_) => return Ok(None),
            };
            let budget = crate::misere::Budget {
                steps: (self.budget.max_positions / 10).max(1_000_000),
                ..crate::misere::Budget::default()
            };
            let found = crate::misere::quotient(&options, budget)
                .map(|q| q.candidate)
                .map_err(|crate::misere::QuotientError::Budget { heap }| heap);
            self.misere_quotients.insert(digits.to_vec(), found);
        }
        match &self.misere_quotients[digits] {
            Ok(c) if c.heaps() > max => {
                let p = c.is_p(heaps.iter().map(|&n| n as usize));
                Ok(Some(if p { Outcome::P } else { Outcome::N }))
            }
            Ok(_) => Ok(None),
            Err(heap) => Err(*heap),
        }
    }

    /// The value `kind` of one position.
    pub fn value_of(&mut self, kind: ValueKind, pos: Pos<R>) -> Result<Value, SolveError> {
        self.value(kind, Expr::Pos(pos))
    }

    /// Normal-play outcome. Stops at the first winning option. Of a partizan game (or a sum
    /// with a partizan part) the outcome class of its canonical form: `L`, `R`, `P` or `N`;
    /// of a loopy impartial game `P`, `N` or `D` (a draw).
    pub fn outcome(&mut self, expr: impl IntoExpr<Pos<R>>) -> Result<Outcome, SolveError> {
        let expr = expr.into_expr();
        if crate::partizan::is_partizan(self.rules, &expr) {
            let expr = expr.canonical();
            if let Some(&o) = self.loopy_partizan.get(&expr) {
                return Ok(o);
            }
            let p = self.partizan();
            let g = match p.value(&expr) {
                Ok(g) => g,
                // A position can repeat: the outcome comes from the graph.
                Err(SolveError::Cycle { .. }) => return self.loopy_partizan_outcome(&expr),
                Err(e) => return Err(e),
            };
            let p = self.partizan();
            return Ok(match p.class(g) {
                Class::L => Outcome::L,
                Class::R => Outcome::R,
                Class::P => Outcome::P,
                Class::N => Outcome::N,
            });
        }
        match self.value(ValueKind::Outcome, expr)? {
            Value::Outcome(o) => Ok(o),
            _ => unreachable!("outcome values decode as outcomes"),
        }
    }

    /// Misère-play outcome.
    pub fn misere_outcome(&mut self, expr: impl IntoExpr<Pos<R>>) -> Result<Outcome, SolveError> {
        match self.value(ValueKind::MisereOutcome, expr)? {
            Value::Outcome(o) => Ok(o),
            _ => unreachable!("outcome values decode as outcomes"),
        }
    }

    /// Takes `value` as the Grundy value of the position `pos`, found elsewhere (by a tiered
    /// solve): the solver then answers its Grundy value, and its outcome in fast mode,
    /// without a search. It must be the value of the definition. It is kept under the
    /// position's image under the proven symmetries ([`Solver::image`]); nothing is kept
    /// in exact mode (which keeps no Grundy values of positions for outcomes).
    pub fn know_grundy(&mut self, pos: Pos<R>, value: u32) {
        if self.mode != Mode::Fast {
            return;
        }
        let node = Node::Leaf(self.image(pos));
        self.store(
            Task {
                kind: ValueKind::Grundy,
                node,
            },
            value,
        );
    }

    /// Grundy value.
    pub fn grundy(&mut self, expr: impl IntoExpr<Pos<R>>) -> Result<u32, SolveError> {
        self.number(ValueKind::Grundy, expr)
    }

    /// Remoteness.
    pub fn remoteness(&mut self, expr: impl IntoExpr<Pos<R>>) -> Result<u32, SolveError> {
        self.number(ValueKind::Remoteness, expr)
    }

    /// Suspense.
    pub fn suspense(&mut self, expr: impl IntoExpr<Pos<R>>) -> Result<u32, SolveError> {
        self.number(ValueKind::Suspense, expr)
    }

    /// w-number.
    pub fn wnumber(&mut self, expr: impl IntoExpr<Pos<R>>) -> Result<WNumber, SolveError> {
        self.w(ValueKind::WNumber, expr)
    }

    /// Misère w-number.
    pub fn misere_wnumber(&mut self, expr: impl IntoExpr<Pos<R>>) -> Result<WNumber, SolveError> {
        self.w(ValueKind::MisereWNumber, expr)
    }

    fn number(&mut self, kind: ValueKind, expr: impl IntoExpr<Pos<R>>) -> Result<u32, SolveError> {
        match self.value(kind, expr)? {
            Value::Number(n) => Ok(n),
            other => Err(SolveError::NotANumber {
                kind,
                value: other.to_string(),
            }),
        }
    }

    fn w(&mut self, kind: ValueKind, expr: impl IntoExpr<Pos<R>>) -> Result<WNumber, SolveError> {
        match self.value(kind, expr)? {
            Value::W(w) => Ok(w),
            _ => unreachable!("w kinds decode as w-numbers"),
        }
    }

    /// The solver of canonical forms (partizan values), sharing this solver's rules,
    /// limits and progress display.
    pub fn partizan(&mut self) -> &mut PartizanSolver<'r, R> {
        let (rules, limit) = (self.rules, self.budget.max_positions);
        let symmetric = self.mode == Mode::Fast && self.symmetric;
        let p = (self.partizan).get_or_insert_with(|| PartizanSolver::new(rules, limit));
        p.share(self.budget.max_memory, self.progress.clone(), symmetric);
        // Threads sharing this solver's searches share its forms too.
        match &self.sharing {
            Some(s) => {
                let keeper: std::sync::Arc<dyn crate::partizan::share::FormHelpers<Pos<R>> + 'r> =
                    s.share.clone();
                p.set_threads(Some(keeper), s.helper);
            }
            None => p.set_threads(None, false),
        }
        p
    }

    /// The canonical form of a position expression, written as CGSuite writes it.
    /// A loopy position that is a stopper has its simplest form, written as CGSuite writes
    /// loopy games (`on`, `over`, `{0|pass}`, `a{0|{*|a}}`); one that is not, its onside and
    /// offside (`1 & 0`, `dud`), where they are found (see [`crate::partizan::sides`]).
    pub fn canonical(&mut self, expr: impl IntoExpr<Pos<R>>) -> Result<String, SolveError> {
        let expr = expr.into_expr().canonical();
        let p = self.partizan();
        match p.value(&expr) {
            Ok(g) => Ok(p.forms().display(g)),
            Err(SolveError::Cycle { .. }) => self.loopy_canonical(&expr),
            Err(e) => Err(e),
        }
    }

    /// The misère canonical form of a position expression of impartial games
    /// ([`crate::misere_form`]): two positions are misère equal exactly when their forms
    /// are written alike.
    pub fn misere_form(&mut self, expr: impl IntoExpr<Pos<R>>) -> Result<String, SolveError> {
        let expr = expr.into_expr().canonical();
        let (rules, limit, memory) = (
            self.rules,
            self.budget.max_positions,
            self.budget.max_memory,
        );
        let forms = (self.misere_forms)
            .get_or_insert_with(|| crate::misere_form::MisereFormSolver::new(rules, limit, memory));
        forms.forms().start_value();
        let g = forms.value(&expr)?;
        Ok(forms.forms().display(g))
    }

    /// The options of a position expression (the compound's own moves), canonical.
    pub fn options(
        &mut self,
        expr: impl IntoExpr<Pos<R>>,
    ) -> Result<Vec<Expr<Pos<R>>>, SolveError> {
        let expr = expr.into_expr().canonical();
        self.expr_options(&expr, true).map_err(Self::no_cycle)
    }

    fn no_cycle(fail: Fail<Pos<R>>) -> SolveError {
        match fail {
            Fail::Error(e) => e,
            Fail::Cycle(_) => unreachable!("option enumeration does not solve"),
        }
    }

    /// The options of a position expression in the order of the rules (a compound's: its
    /// parts' in the order given), as expressions.
    pub fn options_in_order(
        &mut self,
        expr: impl IntoExpr<Pos<R>>,
    ) -> Result<Vec<Expr<Pos<R>>>, SolveError> {
        let expr = expr.into_expr();
        self.expr_options(&expr, false).map_err(Self::no_cycle)
    }

    /// The options of a position expression in the order of the rules, each with its text
    /// as the expression is written: of a sum, the components in their order with the one
    /// that moves replaced in place by its option (`H(9) + H(2) + H(1)` after a move in
    /// `H(3)` of `H(9) + H(3) + H(1)`); any other position as [`Solver::display`] writes it.
    pub fn options_as_written(
        &mut self,
        expr: impl IntoExpr<Pos<R>>,
    ) -> Result<Vec<WrittenOption<Pos<R>>>, SolveError> {
        let expr = expr.into_expr();
        self.written_options(
            &expr,
            &mut |s, e| s.expr_options(e, false).map_err(Self::no_cycle),
            |parts| Expr::compound_in_order(Compound::Sum, parts),
        )
    }

    /// One side's options of a partizan position expression in the order of the rules,
    /// each with its text as [`Solver::options_as_written`] writes an impartial one's: a
    /// sum's parts in their order with the one that moves replaced in place by its option
    /// (itself written as the rules write it).
    pub fn side_options_as_written(
        &mut self,
        expr: &Expr<Pos<R>>,
        side: crate::partizan::Side,
    ) -> Result<Vec<WrittenOption<Pos<R>>>, SolveError> {
        self.written_options(expr, &mut |s, e| s.partizan().options(e, side), Expr::sum)
    }

    /// The options `options_of` gives of `expr` (of each part of a sum, the sum made by
    /// `sum` with the part replaced), each with its text as [`Solver::options_as_written`]
    /// writes it.
    fn written_options<F, S>(
        &mut self,
        expr: &Expr<Pos<R>>,
        options_of: &mut F,
        sum: S,
    ) -> Result<Vec<WrittenOption<Pos<R>>>, SolveError>
    where
        F: FnMut(&mut Self, &Expr<Pos<R>>) -> Result<Vec<Expr<Pos<R>>>, SolveError>,
        S: Fn(Vec<Expr<Pos<R>>>) -> Expr<Pos<R>>,
    {
        let Expr::Compound(Compound::Sum, parts) = expr else {
            let options = options_of(self, expr)?;
            return Ok((options.into_iter())
                .map(|o| {
                    let text = self.display_as_written(expr, &o);
                    (o, text)
                })
                .collect());
        };
        let texts: Vec<String> = parts.iter().map(|p| self.display(p)).collect();
        let mut out = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            for o in options_of(self, part)? {
                let moved = self.display_as_written(part, &o);
                let text: Vec<&str> = (texts.iter().enumerate())
                    .map(|(j, t)| if j == i { moved.as_str() } else { t.as_str() })
                    .filter(|t| *t != "end")
                    .collect();
                let text = match text.is_empty() {
                    true => "end".to_string(),
                    false => text.join(" + "),
                };
                let mut next = parts.to_vec();
                next[i] = o;
                out.push((sum(next), text));
            }
        }
        Ok(out)
    }

    /// The winning moves, written as [`Solver::options_as_written`] writes them.
    pub fn winning_moves_as_written(
        &mut self,
        expr: impl IntoExpr<Pos<R>>,
    ) -> Result<Vec<String>, SolveError> {
        let options = self.options_as_written(expr)?;
        self.winning(options)
    }

    /// The winning moves (normal play): the options whose outcome is P, each position once,
    /// with compound components in the order `expr` gives them.
    pub fn winning_moves(
        &mut self,
        expr: impl IntoExpr<Pos<R>>,
    ) -> Result<Vec<Expr<Pos<R>>>, SolveError> {
        let options = self.options_in_order(expr)?;
        self.winning(options.into_iter().map(|o| (o.clone(), o)))
    }

    /// What goes with each option whose outcome is P, each position once: two moves to
    /// one position (9 → 0 and 5 → 4 in `conjunctive(Heap(9), Heap(5))`, and 9 → 4 and
    /// 5 → 0) are one option.
    fn winning<T>(
        &mut self,
        options: impl IntoIterator<Item = (Expr<Pos<R>>, T)>,
    ) -> Result<Vec<T>, SolveError> {
        let mut wins = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (option, what) in options {
            if seen.insert(option.clone().canonical()) && self.outcome(&option)? == Outcome::P {
                wins.push(what);
            }
        }
        Ok(wins)
    }

    /// Writes an expression with the rules' position syntax, the components of each
    /// compound in the order of their text, so that every back end (and the CLI) writes a
    /// position the same way.
    pub fn display(&self, expr: &Expr<Pos<R>>) -> String {
        let mut s = String::new();
        let _ = expr.write_sorted(&mut s, &|p, w| self.rules.write_pos(*p, w));
        s
    }

    /// [`Solver::display`] of an option of `of` as the rules write it: where `of` is one
    /// position, the parts of a set that the compiler made the option a sum of (none:
    /// `end`) written as the one position of their union ([`Rules::rejoin`]).
    pub fn display_as_written(&self, of: &Expr<Pos<R>>, option: &Expr<Pos<R>>) -> String {
        let of = match of {
            Expr::Pos(p) => Some(*p),
            _ => None,
        };
        let parts: Option<Vec<Pos<R>>> = match option {
            Expr::End => Some(Vec::new()),
            Expr::Compound(Compound::Sum, parts) => (parts.iter())
                .map(|p| match p {
                    Expr::Pos(q) => Some(*q),
                    _ => None,
                })
                .collect(),
            _ => None,
        };
        if let Some(whole) = of
            .zip(parts)
            .and_then(|(of, ps)| self.rules.rejoin(of, &ps))
        {
            return self.display(&Expr::Pos(whole));
        }
        self.display(option)
    }

    fn display_node(&self, node: Node<Pos<R>>) -> String {
        match node {
            Node::Leaf(p) => self.display(&Expr::Pos(p)),
            Node::Expr(id) => self.display(&self.exprs[id as usize]),
        }
    }

    fn raw_value(&mut self, kind: ValueKind, expr: &Expr<Pos<R>>) -> Result<u32, SolveError> {
        self.budget.start_value();
        let mut solved = None;
        loop {
            match self.try_expr(kind, expr) {
                Ok(Step::Value(v)) => return Ok(v),
                // A task solved and still needed (not for want of memory) is kept under
                // another key than it is looked up under (the rules' least image of a
                // least image differs): an error, where solving it again would never end.
                Ok(Step::Need(task)) if solved == Some(task) && !self.budget.memory_exhausted => {
                    return Err(SolveError::Rule(RuleError::new(
                        "internal error: a solved position is not found again under its \
                         least image (the rules' least image is not the same for every \
                         position of an orbit)",
                    )))
                }
                Ok(Step::Need(task)) => {
                    self.run(task)?;
                    solved = Some(task);
                }
                Err(fail) => return Err(self.abort(fail)),
            }
        }
    }

    /// Solves `task` and everything it depends on. The Grundy value of a position of a
    /// game that splits into sums ([`Rules::splits`]) is found by nimber search
    /// ([`nimber`]) where no kernel answers for it, and so is its outcome (whether the
    /// value is 0); otherwise, and where that search gives up, by the ordinary search (the
    /// mex of every option's value, or the outcome search).
    fn run(&mut self, task: Task<Pos<R>>) -> Result<(), SolveError> {
        if let (Mode::Fast, Node::Leaf(p)) = (self.mode, task.node) {
            if self.rules.splits(p) && !self.rules.is_partizan(p) {
                // Where the kernel or the search gives up, the ordinary search takes over,
                // and reports what went wrong.
                match task.kind {
                    ValueKind::Grundy => match self.try_kernel(task) {
                        Ok(true) => return Ok(()),
                        Ok(false) if self.nimber_search(p).is_some() => return Ok(()),
                        _ => {}
                    },
                    ValueKind::Outcome => {
                        let outcome = match self.kernel_value(p, true) {
                            Ok(Some(g)) => Some(if g == 0 { OUTCOME_P } else { OUTCOME_N }),
                            Ok(None) => self.outcome_search(p),
                            Err(_) => None,
                        };
                        if let Some(outcome) = outcome {
                            self.store(task, outcome);
                            return Ok(());
                        }
                    }
                    _ => {}
                }
            }
        }
        // The outcome of a game that does not split: threads share the ordinary search.
        let shared = self.sharing.is_some() && self.outcome_share_begin(task);
        let searched = self.search(task);
        if shared {
            self.outcome_share_end();
        }
        searched
    }

    /// The ordinary search of `task`, and of everything it depends on.
    fn search(&mut self, task: Task<Pos<R>>) -> Result<(), SolveError> {
        if let Err(fail) = self.start(task) {
            return Err(self.abort(fail));
        }
        loop {
            if self.sharing.is_some() {
                self.outcome_poll();
            }
            let Some(mut frame) = self.stack.pop() else {
                break;
            };
            self.held_options -= std::mem::take(&mut frame.held);
            let stepped = self.step(&mut frame);
            match stepped {
                Ok(None) => self.finish(frame),
                Ok(Some(need)) => {
                    let options = frame.bufs.opts.len();
                    if options <= KEEP_OPTIONS_WHILE_WAITING {
                        // Kept, and not counted.
                    } else if self.held_options + options <= self.held_limit {
                        frame.held = options;
                        self.held_options += options;
                    } else {
                        frame.bufs.opts = Options::default();
                        frame.bufs.opts.set_memory_limit(self.budget.max_memory);
                        frame.bufs.images = Vec::new();
                        frame.bufs.found = Vec::new();
                        frame.dropped = true;
                    }
                    self.stack.push(frame);
                    if let Err(fail) = self.start(need) {
                        return Err(self.abort(fail));
                    }
                }
                Err(fail) => {
                    self.stack.push(frame);
                    return Err(self.abort(fail));
                }
            }
        }
        Ok(())
    }

    /// Turns an internal failure into an error, unwinding the stack and clearing the
    /// in-progress marks so that the solver stays usable.
    fn abort(&mut self, fail: Fail<Pos<R>>) -> SolveError {
        let error = match fail {
            Fail::Error(e) => e,
            Fail::Cycle(task) => {
                let from = self
                    .stack
                    .iter()
                    .position(|f| f.task.kind == task.kind && f.task.node == task.node)
                    .unwrap_or(0);
                let mut positions: Vec<String> = self.stack[from..]
                    .iter()
                    .map(|f| self.display_node(f.task.node))
                    .collect();
                positions.push(self.display_node(task.node));
                SolveError::Cycle { positions }
            }
        };
        let error = match error {
            limit @ (SolveError::TooDeep { .. }
            | SolveError::LongDescent { .. }
            | SolveError::LargeCompound { .. }) => self.unending(limit),
            limit @ (SolveError::TooManyPositions { .. } | SolveError::OutOfMemory { .. })
                if self.stack.len() >= UNENDING_DEPTH
                    && self.stack.len() as u64 * 2 >= self.budget.solved =>
            {
                self.unending(limit)
            }
            other => other,
        };
        while let Some(frame) = self.stack.pop() {
            self.unmark(&frame);
            self.store(frame.task, UNKNOWN);
        }
        self.held_options = 0;
        self.budget.descent_options = 0;
        error
    }

    /// `limit`, with the line of play on the stack: the game likely has no end.
    fn unending(&self, limit: SolveError) -> SolveError {
        let show = |frames: &[Frame<Pos<R>>]| -> Vec<String> {
            frames
                .iter()
                .map(|f| shorten(self.display_node(f.task.node)))
                .collect()
        };
        let depth = self.stack.len();
        SolveError::Unending {
            limit: Box::new(limit),
            depth,
            line: (
                show(&self.stack[..depth.min(3)]),
                show(&self.stack[depth.saturating_sub(2).max(depth.min(3))..]),
            ),
        }
    }

    /// Tries the rules' Grundy kernel for a leaf task; true when it solved the task, an
    /// error when the kernel found the task beyond any search.
    fn try_kernel(&mut self, task: Task<Pos<R>>) -> Result<bool, Fail<Pos<R>>> {
        let Node::Leaf(p) = task.node else {
            return Ok(false);
        };
        if self.mode != Mode::Fast || !matches!(task.kind, ValueKind::Grundy | ValueKind::Outcome) {
            return Ok(false);
        }
        Ok(self.kernel_value(p, true)?.is_some())
    }

    /// The Grundy value of `p` from the rules' kernel, kept in the memo with every value it
    /// computed on the way (not `p`'s own when `memoize` is false and an engine keeps it:
    /// a heap code's answers it again at once); `None` when the kernel declines, an error
    /// when it found `p` beyond any search.
    fn kernel_value(&mut self, p: Pos<R>, memoize: bool) -> Result<Option<u32>, Fail<Pos<R>>> {
        // A kernel values positions from their options, each as it is: every value it keeps
        // is the position's own. (The values a declared map the solver checks supplies are
        // kept by the ordinary search alone, which checks the map first.)
        let grundy = ValueKind::Grundy.slot();
        let mut found = std::mem::take(&mut self.kernel_found);
        found.clear();
        let (budget, bound) = self.kernel_budget();
        let answer = {
            let memo = &self.leaf_memo[grundy];
            let rules = self.rules;
            let known = |q: Pos<R>| match memo.get(slot_of(rules, q), q) {
                UNKNOWN | IN_PROGRESS => None,
                v => Some(v),
            };
            rules.grundy_kernel(p, &known, &mut found, budget, &mut self.kernel_tables)
        };
        let (kept, computed) = match answer {
            KernelAnswer::Declined => {
                self.kernel_found = found;
                return Ok(None);
            }
            KernelAnswer::TooLarge { heap, computed } => {
                self.kernel_found = found;
                let bound = match heap >= 1 << 32 {
                    true => HeapBound::Largest,
                    false => bound,
                };
                // The process already holds its memory limit (the kernel had no room for
                // one value): that is the limit's error, not this heap's size.
                if let (HeapBound::Memory(limit), 0) = (bound, budget) {
                    return Err(Fail::Error(SolveError::OutOfMemory { limit }));
                }
                return Err(Fail::Error(SolveError::HeapTooLarge {
                    heap,
                    computed,
                    bound,
                }));
            }
            // Each new value of a table kernel is in `found`.
            KernelAnswer::Computed => (None, found.len() as u64),
            KernelAnswer::Kept {
                value,
                period,
                computed,
            } => {
                self.kernel_keeps = true;
                if period.is_some() {
                    self.period_used = period;
                }
                (Some(value), computed)
            }
        };
        self.budget.solved += computed;
        if let (Some(value), true) = (kept, memoize) {
            found.push((p, value));
        }
        for &(q, g) in &found {
            let slot = self.slot(q);
            if self.leaf_memo[grundy].get(slot, q) == UNKNOWN {
                self.leaf_memo[grundy].set(slot, q, g);
            }
        }
        self.kernel_found = found;
        if computed > 0x3FFF {
            self.measure_memory();
        }
        if kept.is_some() {
            return Ok(kept);
        }
        let slot = self.slot(p);
        Ok(match self.leaf_memo[grundy].get(slot, p) {
            UNKNOWN | IN_PROGRESS => None,
            v => Some(v),
        })
    }

    /// How many new values a kernel may compute, and which limit that is.
    fn kernel_budget(&self) -> (u64, HeapBound) {
        // Each new value is held twice for a moment (in `found`, then in the memo), and in
        // its table; where threads fill a table, in theirs too, beside a copy of at most as
        // many values held before.
        let per_value = 2 * std::mem::size_of::<(Pos<R>, u32)>() as u64 + 24;
        let positions = self.budget.max_positions.saturating_sub(self.budget.solved);
        let memory = self.budget.free_memory / per_value;
        let bound = match positions <= memory {
            true => HeapBound::Positions(self.budget.max_positions),
            false => HeapBound::Memory(self.budget.max_memory.unwrap_or(u64::MAX)),
        };
        (positions.min(memory), bound)
    }

    /// The Grundy values of heaps `from..=to` of heap game `game`, whose code has digits
    /// `digits`, from the engine that game's kernel asks ([`crate::kernel::heap_kernel`]),
    /// appended to `out` without making the positions: a period query whose terms are that
    /// game's heaps reads them so. As many as the engine computes within the budget, from
    /// `from` on; how many. None where the ordinary path must answer instead: an exact
    /// solve, or a solver that checks symmetries. The values computed count as positions
    /// solved, as through the kernel; the memory limit holds, and progress is reported,
    /// every 2^16 heaps.
    pub(crate) fn heap_grundies(
        &mut self,
        game: usize,
        digits: &[u8],
        (from, to): (u64, u64),
        out: &mut Vec<u32>,
    ) -> Result<u64, SolveError> {
        if self.mode != Mode::Fast || self.symmetric {
            return Ok(0);
        }
        let mut next = from;
        while next <= to {
            let (budget, _) = self.kernel_budget();
            let engine = self.kernel_tables.heap(game, digits);
            let len = engine.values().len() as u64;
            // The heaps the kernel would compute within the budget, 2^16 at a time.
            let Some(last) = engine.last_within(budget) else {
                break;
            };
            let reach = to.min(next.saturating_add(0xFFFF)).min(last);
            if reach < next {
                break;
            }
            engine.extend_to(reach as usize);
            engine
                .values()
                .copy_range(next as usize, reach as usize, out);
            self.budget.solved += engine.values().len() as u64 - len;
            next = reach + 1;
            if let Some(limit) = self.measure_memory() {
                return Err(SolveError::OutOfMemory { limit });
            }
            if self.progress.is_some() {
                self.report_progress();
            }
        }
        Ok(next - from)
    }

    fn start(&mut self, task: Task<Pos<R>>) -> Result<(), Fail<Pos<R>>> {
        if self.try_kernel(task)? {
            return Ok(());
        }
        self.budget
            .count_position(self.stack.len())
            .map_err(Fail::Error)?;
        if self.budget.solved & 0x3FF == 0 && self.progress.is_some() {
            self.report_progress();
        }
        let mut bufs = self.pool.pop().unwrap_or_default();
        bufs.opts.set_memory_limit(self.budget.max_memory);
        match self.expand(task, &mut bufs.opts) {
            Ok(false) => {}
            Ok(true) => {
                self.recycle(bufs);
                return Ok(());
            }
            Err(fail) => {
                let fail = match (bufs.opts.out_of_memory(), self.budget.max_memory) {
                    (true, Some(limit)) => Fail::Error(SolveError::OutOfMemory { limit }),
                    _ => fail,
                };
                self.recycle(bufs);
                return Err(fail);
            }
        }
        self.budget.descent_options += bufs.opts.len() as u64;
        if self.budget.descent_options > self.budget.max_positions.saturating_mul(DESCENT_WORK)
            && self.stack.len() >= UNENDING_DEPTH
        {
            let options = self.budget.descent_options;
            self.recycle(bufs);
            return Err(Fail::Error(SolveError::LongDescent { options }));
        }
        self.store(task, IN_PROGRESS);
        self.stack.push(Frame {
            task,
            bufs,
            dropped: false,
            scanned: false,
            held: 0,
            cursor: 0,
            marked: false,
            refuted: false,
        });
        if self.sharing.is_some() {
            self.mark_top();
        }
        Ok(())
    }

    /// Writes the options of `task`'s node into `opts`, or decides the task on the way
    /// (`Ok(true)`: its value is stored). A normal-play outcome is N as soon as one move
    /// ends the game: the enumeration stops there, and the position needs no frame. (Both
    /// back ends stop at the same move: the first `end` in the order of the rules.)
    #[inline(never)]
    fn expand(
        &mut self,
        task: Task<Pos<R>>,
        opts: &mut Options<Pos<R>>,
    ) -> Result<bool, Fail<Pos<R>>> {
        if let (Mode::Fast, Node::Leaf(p), true) = (self.mode, task.node, self.symmetric) {
            self.check_symmetries(p).map_err(Fail::Error)?;
        }
        // An option that is `end` (terminal) decides a position's outcome (N) and w-number
        // (SW) at once; the other values, and compounds, need every option.
        let decided = match (task.kind, task.node) {
            (ValueKind::Outcome, Node::Leaf(_)) => Some(OUTCOME_N),
            (ValueKind::WNumber, Node::Leaf(_)) => Some(W_SW),
            _ => None,
        };
        // The rules' probe for a move to `end`, where they have one: a position it finds
        // with such a move is decided as if enumerated to that move; one without has its
        // options enumerated without the tests for `end`. (An outcome search probed the
        // option it descends into already, but it expands the option's least image, which
        // the probe must answer for itself: a declared symmetry is trusted for values, not
        // for the shape of the moves.)
        let probe = match (self.mode, task.node) {
            (Mode::Fast, Node::Leaf(p)) => {
                (self.rules.ends_now(p).transpose()).map_err(Fail::from)?
            }
            _ => None,
        };
        let (enumerated, ended) = match (probe, task.node) {
            (Some(true), _) if decided.is_some() => (Ok(()), true),
            (Some(false), Node::Leaf(p)) => {
                let open = self.rules.options_open(p, opts).map_err(Fail::from);
                (open, false)
            }
            _ => {
                opts.set_stop_at_end(decided.is_some());
                let enumerated = self.enumerate(task.node, opts);
                let ended = opts.stopped_at_end();
                opts.set_stop_at_end(false);
                (enumerated, ended)
            }
        };
        if let (true, Some(value)) = (ended, decided) {
            // An outcome with a memo key goes to the small cache (see `ENDED_CACHE`).
            let key = match (task.kind, task.node) {
                (ValueKind::Outcome, Node::Leaf(p)) => match self.slot(p) {
                    Slot::Key(k) => Some(k),
                    _ => None,
                },
                _ => None,
            };
            match key {
                Some(k) => self.ended.insert(k),
                None => self.store(task, value),
            }
            return Ok(true);
        }
        enumerated.map(|()| false)
    }

    /// Checks, once, that every position of `p`'s orbit under its game's checked symmetries
    /// has `p`'s options (see [`checked`]), before `p` is expanded. Once the checks'
    /// budget is spent, the maps are dropped ([`ChecksAccount`]): no position is checked,
    /// or given a value by them, afterwards.
    pub(crate) fn check_symmetries(&mut self, p: Pos<R>) -> Result<(), SolveError> {
        if self.checks.dropped.is_some()
            || self.rules.checked_symmetries(p) == 0
            || self.checked_orbits.contains_key(&p)
        {
            return Ok(());
        }
        let others = check_orbit(self.rules, p, false)?;
        if self.checks.record(others.len() + 1, self.budget.solved) {
            self.checked_orbits = FxHashMap::default();
            // With no proven symmetries, positions are now kept as themselves.
            self.symmetric = self.rules.has_proven_symmetries();
            return Ok(());
        }
        if !others.is_empty() {
            if self.checked_orbits.len() >= CHECKED_LIMIT {
                self.checked_orbits.clear();
            }
            self.checked_orbits.insert(p, others);
        }
        Ok(())
    }

    /// Writes the options of `node` into `opts`.
    fn enumerate(
        &mut self,
        node: Node<Pos<R>>,
        opts: &mut Options<Pos<R>>,
    ) -> Result<(), Fail<Pos<R>>> {
        match node {
            Node::Leaf(p) => self.rules.options(p, opts).map_err(Fail::from),
            Node::Expr(id) => {
                let expr = self.exprs[id as usize].clone();
                let components = expr.leaf_count();
                if components > MAX_SEARCHED_COMPONENTS {
                    return Err(Fail::Error(SolveError::LargeCompound {
                        components,
                        limit: MAX_SEARCHED_COMPONENTS,
                    }));
                }
                let mut list = self.expr_options(&expr, true)?;
                // Equal options (moves in equal components) are one option.
                list.sort_unstable();
                list.dedup();
                self.budget.expr_parts += list.iter().map(|o| o.leaf_count() as u64).sum::<u64>();
                if self.budget.expr_parts >= MEASURE_EVERY_PARTS {
                    self.budget.expr_parts = 0;
                    if let Some(limit) = self.measure_memory() {
                        return Err(Fail::Error(SolveError::OutOfMemory { limit }));
                    }
                }
                for o in list {
                    opts.expr(o);
                }
                Ok(())
            }
        }
    }

    fn recycle(&mut self, mut bufs: Box<Buffers<Pos<R>>>) {
        if self.pool.len() < POOL_LIMIT {
            bufs.opts.clear();
            bufs.vals.clear();
            bufs.order.clear();
            bufs.fixing.clear();
            bufs.images.clear();
            bufs.found.clear();
            self.pool.push(bufs);
        }
    }

    fn finish(&mut self, frame: Frame<Pos<R>>) {
        self.budget.descent_options = 0;
        let kind = frame.task.kind;
        let value = if frame.cursor == SHORT_CIRCUIT {
            OUTCOME_N
        } else {
            reduce(kind, frame.bufs.opts.is_empty(), &frame.bufs.vals)
        };
        if self.sharing.is_some() {
            self.share_decided(&frame, value);
        }
        self.store(frame.task, value);
        self.recycle(frame.bufs);
    }

    /// Advances a frame over its options. `Ok(None)`: every needed option value is in
    /// `vals`, or (`cursor == SHORT_CIRCUIT`) an outcome search found a P option.
    fn step(&mut self, frame: &mut Frame<Pos<R>>) -> Result<Option<Task<Pos<R>>>, Fail<Pos<R>>> {
        let kind = frame.task.kind;
        if frame.dropped {
            let listed = self.enumerate(frame.task.node, &mut frame.bufs.opts);
            if let (Err(_), true, Some(limit)) = (
                &listed,
                frame.bufs.opts.out_of_memory(),
                self.budget.max_memory,
            ) {
                return Err(Fail::Error(SolveError::OutOfMemory { limit }));
            }
            listed?;
            frame.dropped = false;
        }
        let outcome_kind = matches!(kind, ValueKind::Outcome | ValueKind::MisereOutcome);
        if frame.bufs.images.len() != frame.bufs.opts.len() {
            match outcome_kind {
                // An outcome search often stops at its first winning move: it finds each
                // image as it scans (`scan_known`), or as it tries the option.
                true => frame.bufs.images.resize(frame.bufs.opts.len(), None),
                false => self.find_images(kind, &mut frame.bufs),
            }
        }
        if outcome_kind && !frame.scanned {
            frame.scanned = true;
            // A winning move whose value is already known (`end`, or memoized): take it
            // before descending into any other option. Otherwise the options before the
            // first unknown one are known losing moves, which an outcome does not need.
            match self.scan_known(kind, &mut frame.bufs)? {
                Scan::Winning => {
                    frame.cursor = SHORT_CIRCUIT;
                    return Ok(None);
                }
                Scan::AllLosing => {
                    frame.cursor = frame.bufs.opts.len();
                    return Ok(None);
                }
                // Options that a symmetry fixes first: the loop below takes them in order.
                Scan::Unknown(_, _) if !frame.bufs.order.is_empty() => frame.cursor = 0,
                // Threads share the search: the loop below passes over an option another
                // thread is deciding.
                Scan::Unknown(i, _) if self.sharing.is_some() => {
                    frame.cursor = i;
                    frame.refuted = frame.bufs.vals.iter().any(|&v| v != UNKNOWN);
                }
                Scan::Unknown(i, task) => {
                    frame.cursor = i;
                    return Ok(Some(task));
                }
            }
        }
        // A value that needs every option, in the options' own order: the known ones in a
        // loop of lookups alone.
        let plain = !outcome_kind && frame.bufs.order.is_empty() && frame.bufs.fixing.is_empty();
        // (An option passed over once, for another thread was deciding it, is put at the
        // end of the order: past the options' count.)
        while frame.cursor < frame.bufs.opts.len().max(frame.bufs.order.len()) {
            if plain {
                self.known_options(kind, frame);
                if frame.cursor >= frame.bufs.opts.len() {
                    break;
                }
            }
            let i = frame.bufs.at(frame.cursor);
            if outcome_kind && frame.bufs.vals[i] != UNKNOWN {
                // Known to be a losing move when the scan looked.
                frame.cursor += 1;
                continue;
            }
            let mut step = self.try_opt(kind, &frame.bufs, i)?;
            let busy = self.consult_others(&mut step, self.stack.len() + 1);
            // A thread passes over (once) an option another thread is deciding, near the
            // top of the search.
            if busy
                && frame.refuted
                && frame.cursor < frame.bufs.opts.len()
                && self.passes_over(self.stack.len() + 1)
            {
                frame.bufs.defer(frame.cursor);
                frame.cursor += 1;
                continue;
            }
            match step {
                Step::Need(task) => return Ok(Some(task)),
                Step::Value(v) => {
                    frame.cursor += 1;
                    if let Some(&fixing) = frame.bufs.fixing.get(i) {
                        if fixing != 0 {
                            self.symmetry_stats.record(fixing, v == OUTCOME_P);
                        }
                    }
                    if outcome_kind {
                        if v == OUTCOME_P {
                            // A winning move: no need to look further.
                            frame.cursor = SHORT_CIRCUIT;
                            return Ok(None);
                        }
                        frame.refuted = true;
                    } else {
                        frame.bufs.vals.push(v);
                    }
                }
            }
        }
        Ok(None)
    }

    /// Takes the options from the cursor on whose values the memo holds, up to the first
    /// it does not, for a value that needs every option (not an outcome): what the loop of
    /// [`Solver::step`] does with each (its value after the others'), in a loop of memo
    /// lookups alone. An option that is a sum or an expression, or whose value is not
    /// known, is left to that loop.
    #[inline]
    fn known_options(&mut self, kind: ValueKind, frame: &mut Frame<Pos<R>>) {
        let bufs = &mut frame.bufs;
        while let (Some(&OptRef::Leaves { len: 1, start }), Some(&Some(image))) = (
            bufs.opts.refs.get(frame.cursor),
            bufs.images.get(frame.cursor),
        ) {
            let found = match bufs.found.get(frame.cursor) {
                Some(&v) if v != UNKNOWN => v,
                _ => self.leaf_memo[kind.slot()].get(self.slot(image), image),
            };
            match found {
                UNKNOWN | IN_PROGRESS => return,
                v => {
                    let p = bufs.opts.leaves[start as usize];
                    if p != image {
                        self.store_alias(kind, p, v);
                    }
                    bufs.vals.push(v);
                    frame.cursor += 1;
                }
            }
        }
    }

    /// What the memo already tells about the options of an outcome search. Also records in
    /// `bufs.vals` each option's value as the scan found it (`UNKNOWN` when it was not
    /// known), so that the search does not look the known ones up again.
    fn scan_known(
        &mut self,
        kind: ValueKind,
        bufs: &mut Buffers<Pos<R>>,
    ) -> Result<Scan<Pos<R>>, Fail<Pos<R>>> {
        let opts = &bufs.opts;
        // The lookups are independent: start them all before waiting on any (a large memo
        // is bound by memory latency, not by the work of a lookup).
        let memo = &self.leaf_memo[kind.slot()];
        for r in &opts.refs {
            if let OptRef::Leaves { start, len: 1 } = *r {
                memo.prefetch(self.slot(opts.leaves[start as usize]));
            }
        }
        bufs.vals.clear();
        bufs.order.clear();
        bufs.fixing.clear();
        let (mut first_unknown, mut any_fixed) = (None, false);
        let symmetric = self.mode == Mode::Fast && self.symmetric;
        for i in 0..bufs.opts.len() {
            let (mut step, fixing) = match bufs.opts.refs[i] {
                OptRef::Leaves { start, len: 1 } if symmetric => {
                    let (step, image, fixing) =
                        self.try_image_fixing(kind, bufs.opts.leaves[start as usize])?;
                    if image.is_some() {
                        bufs.images[i] = image;
                    }
                    (step, fixing)
                }
                _ => (self.try_opt(kind, bufs, i)?, 0),
            };
            if symmetric {
                bufs.fixing.push(fixing);
            }
            self.consult_others(&mut step, self.stack.len() + 1);
            match step {
                Step::Value(OUTCOME_P) => return Ok(Scan::Winning),
                Step::Value(v) => bufs.vals.push(v),
                Step::Need(task) => {
                    bufs.vals.push(UNKNOWN);
                    any_fixed |= fixing != 0;
                    if first_unknown.is_none() {
                        first_unknown = Some((i, task));
                    }
                }
            }
        }
        if any_fixed {
            self.symmetric_first(bufs);
        } else {
            bufs.fixing.clear();
        }
        Ok(match first_unknown {
            Some((i, task)) => Scan::Unknown(i, task),
            None => Scan::AllLosing,
        })
    }

    /// Orders an outcome search's options: first those a symmetry fixes, the most promising
    /// first ([`SymmetryStats::promise`]), then the others in their own order. A position
    /// that a symmetry fixes is often P (Tweedledum and Tweedledee: the second player
    /// answers each move with its mirror image), and which symmetry's fixed positions are
    /// is learnt as the search goes (on a board, the half turn's usually, not a mirror's,
    /// whose axis holds moves of its own).
    fn symmetric_first(&self, bufs: &mut Buffers<Pos<R>>) {
        let stats = &self.symmetry_stats;
        let mut fixed: Vec<(u32, u32)> = (0..bufs.fixing.len())
            .filter(|&i| bufs.fixing[i] != 0 && bufs.vals[i] == UNKNOWN)
            .map(|i| (stats.promise(bufs.fixing[i]), i as u32))
            .collect();
        // The most promising first; equals in their own order.
        fixed.sort_by_key(|&(promise, i)| (std::cmp::Reverse(promise), i));
        bufs.order.extend(fixed.iter().map(|&(_, i)| i));
        let rest = (0..bufs.fixing.len() as u32).filter(|&i| {
            let i = i as usize;
            !(bufs.fixing[i] != 0 && bufs.vals[i] == UNKNOWN)
        });
        bufs.order.extend(rest);
    }

    /// Keeps `value` as `task`'s. A position's value is kept for the other positions of
    /// its orbit under its game's checked maps as well ([`Rules::checked_symmetries`]),
    /// where none is kept yet: the solver checked, before it expanded the position, that
    /// each of them has its options ([`Solver::check_symmetries`]), so each has its value.
    /// The maps are so evaluated once a position expanded, not once an option.
    fn store(&mut self, task: Task<Pos<R>>, value: u32) {
        self.store_one(task, value);
        if let (Node::Leaf(p), false) = (task.node, self.checked_orbits.is_empty()) {
            if value != UNKNOWN && value != IN_PROGRESS {
                self.store_orbit(task.kind, p, value);
            }
        }
    }

    /// Keeps `value` of kind `kind`, found for `p`, for the other positions of `p`'s
    /// checked orbit that have none (see [`Solver::store`]).
    fn store_orbit(&mut self, kind: ValueKind, p: Pos<R>, value: u32) {
        let Some(others) = self.checked_orbits.get(&p).cloned() else {
            return;
        };
        for q in others {
            if self.leaf_memo[kind.slot()].get(self.slot(q), q) == UNKNOWN {
                let node = Node::Leaf(q);
                self.store_one(Task { kind, node }, value);
            }
        }
    }

    /// Keeps `value`, found under `p`'s least image, under `p` as it was listed too, so that
    /// the next lookup of `p` as listed needs no image ([`Solver::find_images`]): a
    /// symmetric position is met in each of its forms again and again, and its least image
    /// costs more than a lookup. An alias is a cache and never changes a value (the memo
    /// keeps a position's own value under each key). At most one alias is kept for each
    /// position solved, so aliases at most double a memo, and none that would grow a table
    /// past the memory limit's room: an alias never makes a memo forget a value.
    fn store_alias(&mut self, kind: ValueKind, p: Pos<R>, value: u32) {
        if self.aliases >= self.budget.solved {
            return;
        }
        let at = self.slot(p);
        let grows = self.leaf_memo[kind.slot()].growth_bytes(at);
        if let (true, Some(_)) = (grows > 0, self.budget.max_memory) {
            self.measure_memory();
            if grows > self.budget.free_memory {
                return;
            }
        }
        self.leaf_memo[kind.slot()].set(at, p, value);
        self.aliases += 1;
    }

    fn store_one(&mut self, task: Task<Pos<R>>, value: u32) {
        let slot = task.kind.slot();
        match task.node {
            Node::Leaf(p) => {
                let at = self.slot(p);
                // A memo table that would double past the limit forgets its oldest values
                // instead, when it is a good part of what the solve may hold (else forgetting
                // would not help: the limit is reached, and reported, as before).
                let grows = self.leaf_memo[slot].growth_bytes(at);
                if let (true, Some(limit)) = (grows > 0, self.budget.max_memory) {
                    self.measure_memory();
                    if grows > self.budget.free_memory {
                        if self.budget.forgetting_helps(grows, limit) {
                            self.forget_oldest_values();
                        } else {
                            // The solve stops at its next position; the table does not
                            // double past the limit meanwhile if it has room.
                            self.budget.memory_exhausted = true;
                            if self.leaf_memo[slot].set_without_growing(at, p, value) {
                                return;
                            }
                        }
                    }
                }
                self.leaf_memo[slot].set(at, p, value);
            }
            Node::Expr(id) => {
                let memo = &mut self.expr_memo[slot];
                if memo.len() <= id as usize {
                    memo.resize(self.exprs.len().max(id as usize + 1), UNKNOWN);
                }
                memo[id as usize] = value;
            }
        }
    }

    /// Makes every memo forget the values it stored longest ago (about half of a key
    /// table's; all of the others'), keeping the marks of the positions on the stack (being
    /// solved): a memo that would outgrow the memory limit keeps what its search most
    /// likely needs next instead. Frames keep the option values they have; anything else
    /// is solved again when needed.
    #[cold]
    fn forget_oldest_values(&mut self) {
        for memo in &mut self.leaf_memo {
            memo.forget_oldest();
        }
        self.ended.clear();
        self.not_values = FxHashMap::default();
        // Orbits checked again where met again: a position's values are then shared anew.
        self.checked_orbits = FxHashMap::default();
        self.budget.cleared += 1;
        self.budget.clears_left -= 1;
        for i in 0..self.stack.len() {
            let task = self.stack[i].task;
            if let Node::Leaf(p) = task.node {
                let at = self.slot(p);
                self.leaf_memo[task.kind.slot()].set(at, p, IN_PROGRESS);
            }
        }
    }

    #[inline]
    fn slot(&self, p: Pos<R>) -> Slot {
        slot_of(self.rules, p)
    }

    /// The position the memo keeps `p`'s values under: its least image under the
    /// symmetries the compiler proved ([`Rules::proven_least_image_fixing`]). Declared maps
    /// that the solver checks are not evaluated here, once an option: a value found for a
    /// position is kept for the other positions of its orbit under them as well, once it
    /// is found (see [`Solver::store`]).
    #[inline(always)]
    pub(crate) fn image(&self, p: Pos<R>) -> Pos<R> {
        self.image_fixing(p).0
    }

    /// [`Solver::image`], with the bits of [`Rules::least_image_fixing`]. The answers are
    /// cached in a table of [`IMAGE_CACHE`] entries, each holding the position it answers
    /// for (the one hashed there last), so a cached answer is the rules' answer: a nimber
    /// search asks the image of an option when it looks it up, orders it and descends into
    /// it, and a board's images (a bit permutation for each map) cost more than the hash.
    #[inline(always)]
    pub(crate) fn image_fixing(&self, p: Pos<R>) -> (Pos<R>, u64) {
        if self.image_cache.is_empty() {
            return self.rules.proven_least_image_fixing(p);
        }
        use std::hash::{Hash, Hasher};
        let mut hasher = rustc_hash::FxHasher::default();
        p.hash(&mut hasher);
        let entry = &self.image_cache[(hasher.finish() >> (64 - IMAGE_CACHE_BITS)) as usize];
        if let Some((q, image, fixing)) = entry.get() {
            if q == p {
                return (image, fixing);
            }
        }
        let (image, fixing) = self.rules.proven_least_image_fixing(p);
        entry.set(Some((p, image, fixing)));
        (image, fixing)
    }

    #[inline]
    fn try_leaf(&self, kind: ValueKind, p: Pos<R>) -> Result<Step<Pos<R>>, Fail<Pos<R>>> {
        if self.ends_now(kind, p)? {
            return Ok(Step::Value(OUTCOME_N));
        }
        // A position is solved and kept as its least image under the game's symmetries
        // (an exact search uses none).
        let p = match self.mode {
            Mode::Fast => self.image(p),
            Mode::Exact => p,
        };
        self.look_up(kind, p)
    }

    /// [`Solver::try_leaf`] of `p`, whose least image (or, in `Mode::Exact`, itself) is
    /// `image`.
    #[inline]
    fn try_image(
        &self,
        kind: ValueKind,
        p: Pos<R>,
        image: Pos<R>,
    ) -> Result<Step<Pos<R>>, Fail<Pos<R>>> {
        if self.ends_now(kind, p)? {
            return Ok(Step::Value(OUTCOME_N));
        }
        self.look_up(kind, image)
    }

    /// As [`Self::try_image`] where `p`'s image is not yet known: finds it, and the bits of
    /// the symmetries that fix `p` ([`Rules::least_image_fixing`]), only where `p` does not
    /// end now (`None` and no bits where it does).
    fn try_image_fixing(
        &self,
        kind: ValueKind,
        p: Pos<R>,
    ) -> Result<ImageStep<Pos<R>>, Fail<Pos<R>>> {
        if self.ends_now(kind, p)? {
            return Ok((Step::Value(OUTCOME_N), None, 0));
        }
        let (image, fixing) = self.image_fixing(p);
        Ok((self.look_up(kind, image)?, Some(image), fixing))
    }

    /// Whether an outcome search knows `p` is N without looking it up: a position with a
    /// move to `end` is N, and the rules' probe, where they have one, says so before any
    /// image or lookup (such positions are never memoized, so looking one up would be a
    /// miss in a large table).
    #[inline]
    fn ends_now(&self, kind: ValueKind, p: Pos<R>) -> Result<bool, Fail<Pos<R>>> {
        if kind == ValueKind::Outcome && self.mode == Mode::Fast {
            if let Some(ends) = self.rules.ends_now(p) {
                return ends.map_err(Fail::from);
            }
        }
        Ok(false)
    }

    /// The value `kind` of `p` (a least image) where the memo knows it, else the task
    /// that solves it.
    #[inline]
    fn look_up(&self, kind: ValueKind, p: Pos<R>) -> Result<Step<Pos<R>>, Fail<Pos<R>>> {
        let slot = self.slot(p);
        // The small cache of positions decided by `end` first: such a position is never in
        // the memo, where looking for it is a miss in a large table.
        if kind == ValueKind::Outcome {
            if let Slot::Key(k) = slot {
                if self.ended.contains(k) {
                    return Ok(Step::Value(OUTCOME_N));
                }
            }
        }
        let v = self.leaf_memo[kind.slot()].get(slot, p);
        let task = Task {
            kind,
            node: Node::Leaf(p),
        };
        match v {
            UNKNOWN => {
                let grundy = &self.leaf_memo[ValueKind::Grundy.slot()];
                if kind == ValueKind::Outcome && self.mode == Mode::Fast && !grundy.is_empty() {
                    let g = grundy.get(slot, p);
                    if g != UNKNOWN && g != IN_PROGRESS {
                        return Ok(Step::Value(if g == 0 { OUTCOME_P } else { OUTCOME_N }));
                    }
                }
                Ok(Step::Need(task))
            }
            IN_PROGRESS => Err(Fail::Cycle(task)),
            v => Ok(Step::Value(v)),
        }
    }

    /// Writes each option's image (see [`Buffers::images`]), and asks the memory system
    /// for every image's memo entry before any is looked up (a large memo is bound by
    /// memory latency, not by the work of a lookup). With symmetries, each option is looked
    /// up as listed first, and its value, where found, kept in [`Buffers::found`]: the
    /// least image is found only for the others (see [`Solver::store_alias`]).
    fn find_images(&self, kind: ValueKind, bufs: &mut Buffers<Pos<R>>) {
        let symmetric = self.mode == Mode::Fast && self.symmetric;
        bufs.images.clear();
        bufs.found.clear();
        let memo = &self.leaf_memo[kind.slot()];
        if symmetric {
            // Every key the memo holds a value under is a position whose value it is (a
            // least image, an alias, or a position of a checked orbit): an option found as
            // listed needs no image. Most options of a large search are known.
            for r in &bufs.opts.refs {
                if let OptRef::Leaves { start, len: 1 } = *r {
                    memo.prefetch(self.slot(bufs.opts.leaves[start as usize]));
                }
            }
            for r in &bufs.opts.refs {
                let mut found = UNKNOWN;
                let image = match *r {
                    OptRef::Leaves { start, len: 1 } => {
                        let p = bufs.opts.leaves[start as usize];
                        match memo.get(self.slot(p), p) {
                            UNKNOWN | IN_PROGRESS => {
                                let image = self.image(p);
                                memo.prefetch(self.slot(image));
                                Some(image)
                            }
                            v => {
                                found = v;
                                Some(p)
                            }
                        }
                    }
                    _ => None,
                };
                bufs.images.push(image);
                bufs.found.push(found);
            }
            return;
        }
        for r in &bufs.opts.refs {
            let image = match *r {
                OptRef::Leaves { start, len: 1 } => {
                    let p = bufs.opts.leaves[start as usize];
                    let image = match symmetric {
                        true => self.image(p),
                        false => p,
                    };
                    memo.prefetch(self.slot(image));
                    Some(image)
                }
                _ => None,
            };
            bufs.images.push(image);
        }
    }

    /// The value `kind` of option `i`: from its image where it was found, or the task that
    /// solves it. Inlined into the loop over options: a call returned the step through
    /// memory, written in words and read back at once in a wider load, which the processor
    /// cannot forward from its stores (a stall for every option).
    #[inline(always)]
    fn try_opt(
        &mut self,
        kind: ValueKind,
        bufs: &Buffers<Pos<R>>,
        i: usize,
    ) -> Result<Step<Pos<R>>, Fail<Pos<R>>> {
        let opts = &bufs.opts;
        match opts.refs[i] {
            OptRef::End => Ok(Step::Value(kind.terminal())),
            OptRef::Leaves { start, len: 1 } => {
                let p = opts.leaves[start as usize];
                match bufs.images[i] {
                    Some(image) => self.try_image(kind, p, image),
                    None => self.try_leaf(kind, p),
                }
            }
            OptRef::Leaves { start, len } => {
                let leaves = opts.leaf_slice(start, len);
                if self.mode == Mode::Fast && matches!(kind, ValueKind::Grundy | ValueKind::Outcome)
                {
                    let mut x = 0;
                    for &p in leaves {
                        match self.try_leaf(ValueKind::Grundy, p)? {
                            Step::Value(g) => x ^= g,
                            need => return Ok(need),
                        }
                    }
                    Ok(Step::Value(match kind {
                        ValueKind::Grundy => x,
                        _ if x == 0 => OUTCOME_P,
                        _ => OUTCOME_N,
                    }))
                } else {
                    let expr = Expr::sum_of(leaves.iter().copied());
                    self.try_expr(kind, &expr)
                }
            }
            OptRef::Expr(k) => self.try_expr(kind, &opts.exprs[k as usize]),
        }
    }

    fn try_expr(
        &mut self,
        kind: ValueKind,
        expr: &Expr<Pos<R>>,
    ) -> Result<Step<Pos<R>>, Fail<Pos<R>>> {
        match expr {
            Expr::End => Ok(Step::Value(kind.terminal())),
            Expr::Pos(p) => self.try_leaf(kind, *p),
            Expr::Compound(c, children) => {
                if self.mode == Mode::Fast {
                    if let Some(child_kind) = fast_rule(kind, *c) {
                        let mut vals = Vec::with_capacity(children.len());
                        for child in children.iter() {
                            match self.try_expr(child_kind, child)? {
                                Step::Value(v) => vals.push(v),
                                need => return Ok(need),
                            }
                        }
                        return Ok(Step::Value(combine(kind, *c, &vals)));
                    }
                }
                let id = self.intern(expr);
                let task = Task {
                    kind,
                    node: Node::Expr(id),
                };
                match self.expr_memo[kind.slot()]
                    .get(id as usize)
                    .copied()
                    .unwrap_or(UNKNOWN)
                {
                    UNKNOWN => Ok(Step::Need(task)),
                    IN_PROGRESS => Err(Fail::Cycle(task)),
                    v => Ok(Step::Value(v)),
                }
            }
        }
    }

    fn intern(&mut self, expr: &Expr<Pos<R>>) -> u32 {
        if let Some(&id) = self.expr_ids.get(expr) {
            return id;
        }
        let id = self.exprs.len() as u32;
        self.exprs.push(expr.clone());
        self.expr_ids.insert(expr.clone(), id);
        id
    }

    fn expr_options(
        &mut self,
        expr: &Expr<Pos<R>>,
        sort: bool,
    ) -> Result<Vec<Expr<Pos<R>>>, Fail<Pos<R>>> {
        match expr {
            Expr::End => Ok(Vec::new()),
            Expr::Pos(p) => {
                let mut opts = Options::new();
                self.rules.options(*p, &mut opts)?;
                Ok(opts.to_exprs())
            }
            Expr::Compound(c, children) => {
                let mut child_opts = Vec::with_capacity(children.len());
                for child in children.iter() {
                    child_opts.push(self.expr_options(child, sort)?);
                }
                Ok(compound_options(*c, children, &child_opts, sort)?)
            }
        }
    }
}

/// A position as an error message shows it: its first 100 characters, and how long it is
/// where it is longer (a compound that grew without end).
fn shorten(text: String) -> String {
    const SHOWN: usize = 100;
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}... ({} characters)", &text[..cut], text.chars().count()),
        None => text,
    }
}

/// The bits of the hash that pick an entry of [`Solver::image_fixing`]'s cache.
const IMAGE_CACHE_BITS: u32 = 10;
/// Entries of [`Solver::image_fixing`]'s cache.
const IMAGE_CACHE: usize = 1 << IMAGE_CACHE_BITS;

/// An entry of [`Solver::image_fixing`]'s cache: a position, its least image and the bits
/// of the symmetries that fix it.
type CachedImage<P> = (P, P, u64);

/// Where the memo keeps `p`: the flat array, the key table or the hash map.
#[inline]
fn slot_of<R: Rules>(rules: &R, p: R::Pos) -> Slot {
    match rules.dense_index(p) {
        Some(i) if i < DENSE_LIMIT => Slot::Dense(i),
        _ => match rules.key(p) {
            Some(k) if k != KEY_TABLE_EMPTY => Slot::Key(k),
            _ => match rules.wide_key(p) {
                Some(k) if k != WIDE_TABLE_EMPTY => Slot::Wide(k),
                _ => Slot::Hashed,
            },
        },
    }
}

/// The value of a searched position from its options' values (`vals`, one per option, in
/// order; outcome kinds only reach here when no option is P).
fn reduce(kind: ValueKind, terminal: bool, vals: &[u32]) -> u32 {
    if terminal {
        return kind.terminal();
    }
    match kind {
        ValueKind::Outcome | ValueKind::MisereOutcome => OUTCOME_P,
        ValueKind::Grundy => mex(vals),
        ValueKind::Remoteness => {
            let even = vals.iter().copied().filter(|r| r % 2 == 0).min();
            match even {
                Some(r) => r + 1,
                None => vals.iter().copied().max().unwrap_or(0) + 1,
            }
        }
        ValueKind::Suspense => {
            let even = vals.iter().copied().filter(|s| s % 2 == 0).max();
            match even {
                Some(s) => s + 1,
                None => vals.iter().copied().min().unwrap_or(0) + 1,
            }
        }
        ValueKind::WNumber => {
            if vals.contains(&W_SL) {
                W_SW
            } else {
                let plain: Vec<u32> = vals
                    .iter()
                    .copied()
                    .filter(|&w| w != W_SW && w != W_SL)
                    .collect();
                mex(&plain)
            }
        }
        ValueKind::MisereWNumber => {
            let plain: Vec<u32> = vals.iter().copied().filter(|&w| w != W_SW).collect();
            mex(&plain)
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A nim heap of `n` counters, whose moves take any number of them: `n` options, the
    /// largest remainder first (so a search descends `n` frames deep, each waiting with its
    /// options). Its Grundy value is `n`.
    pub(crate) struct Heap;

    impl Rules for Heap {
        type Pos = u32;

        fn options(&self, n: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
            for m in (0..n).rev() {
                out.position(m);
            }
            Ok(())
        }

        fn key(&self, n: u32) -> Option<u64> {
            Some(u64::from(n))
        }
    }

    /// Waiting frames that drop their options and list them again on resume answer as
    /// frames that keep them: every frame dropping (limit 0), some (the default, passed by
    /// a stack of 400 frames of up to 400 options), none.
    #[test]
    fn frames_that_drop_their_options_answer_as_frames_that_keep_them() {
        for limit in [0, HELD_OPTIONS_WHILE_WAITING, usize::MAX] {
            for kind in [ValueKind::Grundy, ValueKind::Outcome] {
                let mut solver = Solver::new(&Heap);
                solver.held_limit = limit;
                for n in [400, 0, 1, 64, 65, 399] {
                    let want = match kind {
                        ValueKind::Grundy => n,
                        _ if n == 0 => OUTCOME_P,
                        _ => OUTCOME_N,
                    };
                    let got = solver.raw_value(kind, &Expr::Pos(n));
                    assert_eq!(got.ok(), Some(want), "{kind:?} of {n}, limit {limit}");
                }
                assert_eq!(solver.held_options, 0);
            }
        }
    }

    /// Pairs under their swap, the least image of each found by its definition.
    struct Pairs;

    impl Rules for Pairs {
        type Pos = (u32, u32);

        fn options(&self, _: (u32, u32), _: &mut Options<(u32, u32)>) -> Result<(), RuleError> {
            Ok(())
        }

        fn has_symmetries(&self) -> bool {
            true
        }

        fn least_image_fixing(&self, (a, b): (u32, u32)) -> ((u32, u32), u64) {
            ((a.min(b), a.max(b)), u64::from(a == b))
        }
    }

    proptest::proptest! {
        /// The cache of least images answers as the rules do, whatever positions share its
        /// entries (far more positions than entries, each asked again and again).
        #[test]
        fn cached_images_are_the_rules(asked in proptest::collection::vec((0u32..200, 0u32..200), 1..3000)) {
            let solver = Solver::new(&Pairs);
            for p in asked.iter().chain(asked.iter().rev()) {
                proptest::prop_assert_eq!(solver.image_fixing(*p), Pairs.least_image_fixing(*p));
            }
        }
    }
}
