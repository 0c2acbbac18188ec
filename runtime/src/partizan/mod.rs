//! Partizan games: positions whose players have different moves. A position's value is its
//! canonical form ([`Forms`]); its outcome class, stops, mean, temperature and birthday are
//! read off that form, and sums add forms.

mod difference;
mod dyadic;
mod forms;
pub mod share;
pub mod sides;
pub mod stopper;
mod thermo;

pub use dyadic::{Dyadic, MAX_BITS};
pub use forms::{Forms, GameId, Nus};
pub use thermo::{Thermograph, Wall};

use crate::error::SolveError;
use crate::expr::{Compound, Expr};
use crate::reporter::SharedReporter;
use crate::rules::{OptRef, Options, RuleError, Rules};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};
use std::fmt;

pub use crate::rules::Side;

/// The outcome class of a partizan position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Class {
    /// Left wins whoever starts (`G > 0`).
    L,
    /// Right wins whoever starts (`G < 0`).
    R,
    /// The second player wins (`G = 0`).
    P,
    /// The first player wins (`G || 0`).
    N,
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A value defined for partizan positions (and for impartial ones, as partizan games whose
/// players have the same moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PartizanKind {
    /// The canonical form.
    Canonical,
    /// The temperature.
    Temperature,
    /// The mean value.
    Mean,
    /// The left stop.
    LeftStop,
    /// The right stop.
    RightStop,
    /// The birthday of the canonical form.
    Birthday,
    /// Left's winning moves (to options `>= 0`).
    LeftMoves,
    /// Right's winning moves (to options `<= 0`).
    RightMoves,
}

impl PartizanKind {
    /// Every kind.
    pub const ALL: [PartizanKind; 8] = [
        PartizanKind::Canonical,
        PartizanKind::Temperature,
        PartizanKind::Mean,
        PartizanKind::LeftStop,
        PartizanKind::RightStop,
        PartizanKind::Birthday,
        PartizanKind::LeftMoves,
        PartizanKind::RightMoves,
    ];

    /// The name in the language.
    pub fn name(self) -> &'static str {
        match self {
            PartizanKind::Canonical => "canonical",
            PartizanKind::Temperature => "temperature",
            PartizanKind::Mean => "mean",
            PartizanKind::LeftStop => "left_stop",
            PartizanKind::RightStop => "right_stop",
            PartizanKind::Birthday => "birthday",
            PartizanKind::LeftMoves => "left_moves",
            PartizanKind::RightMoves => "right_moves",
        }
    }

    /// Parses a name.
    pub fn from_name(name: &str) -> Option<PartizanKind> {
        PartizanKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Canonical forms of the positions of a universe of games, memoized per position.
pub struct PartizanSolver<'r, R: Rules> {
    rules: &'r R,
    forms: Forms,
    memo: FxHashMap<R::Pos, GameId>,
    /// Positions whose value is being computed, in move order (a repeat is a cycle).
    path: Vec<R::Pos>,
    /// The positions of `path`, to find a repeat at once.
    on_path: FxHashSet<R::Pos>,
    /// Spare option buffers.
    pool: Vec<Options<R::Pos>>,
    max_positions: u64,
    max_memory: Option<u64>,
    progress: Option<SharedReporter<'r>>,
    /// Keep positions as their least images under their games' symmetries (not in an exact
    /// solve), checking the maps that are not proven.
    symmetric: bool,
    /// The threads this solver shares its forms with ([`share`]), where it has some.
    threads: Option<Threads<'r, R::Pos>>,
}

/// A solver's part in computing forms on several threads ([`share`]).
struct Threads<'r, P> {
    keeper: std::sync::Arc<dyn FormHelpers<P> + 'r>,
    /// Whether this solver is a helper (else it is the asking thread).
    helper: bool,
    exchange: share::Exchange,
    /// The asking thread's computation now: the positions known at its start.
    started: Option<usize>,
    /// Whether the helpers were woken for it (from then on, forms are shared).
    woken: bool,
    /// The asking thread: positions the helpers finished, as last counted.
    helpers_solved: u64,
    /// A helper: the positions it finished that it counted for the asking thread.
    reported: u64,
    /// Positions whose forms this thread took from the others.
    imported: u64,
}

use share::FormHelpers;

impl<R: Rules> fmt::Debug for PartizanSolver<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PartizanSolver")
            .field("positions", &self.memo.len())
            .field("forms", &self.forms.len())
            .finish()
    }
}

/// Stack kept free before a deeper call, and grown by at a time (recursion on the heap).
const RED_ZONE: usize = 128 * 1024;
const STACK_GROWTH: usize = 4 * 1024 * 1024;

/// Runs `f` with room on the stack for a deep recursion.
pub(crate) fn deep<T>(f: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(RED_ZONE, STACK_GROWTH, f)
}

impl<'r, R: Rules> PartizanSolver<'r, R> {
    /// A solver over `rules` that evaluates at most `max_positions` positions.
    pub fn new(rules: &'r R, max_positions: u64) -> Self {
        PartizanSolver {
            rules,
            forms: Forms::new(),
            memo: FxHashMap::default(),
            path: Vec::new(),
            on_path: FxHashSet::default(),
            pool: Vec::new(),
            max_positions,
            max_memory: None,
            progress: None,
            symmetric: false,
            threads: None,
        }
    }

    /// Shares the forms this solver computes with other threads' solvers, through `keeper`:
    /// as the asking thread, which wakes helpers once a computation proves long, or as a
    /// helper (`helper`). `None`: on this thread alone.
    pub(crate) fn set_threads(
        &mut self,
        keeper: Option<std::sync::Arc<dyn FormHelpers<R::Pos> + 'r>>,
        helper: bool,
    ) {
        match (keeper, &mut self.threads) {
            (None, _) => self.threads = None,
            // The same threads, or new ones (the forms this thread exchanged stay valid).
            (Some(keeper), Some(t)) => {
                if !std::ptr::addr_eq(
                    std::sync::Arc::as_ptr(&t.keeper),
                    std::sync::Arc::as_ptr(&keeper),
                ) {
                    t.keeper = keeper;
                    t.helper = helper;
                }
            }
            (Some(keeper), None) => {
                self.threads = Some(Threads {
                    keeper,
                    helper,
                    exchange: share::Exchange::default(),
                    started: None,
                    woken: false,
                    helpers_solved: 0,
                    reported: 0,
                    imported: 0,
                })
            }
        }
    }

    /// Takes the memory limit, progress display and use of symmetries of the solver this
    /// one serves.
    pub(crate) fn share(
        &mut self,
        max_memory: Option<u64>,
        progress: Option<SharedReporter<'r>>,
        symmetric: bool,
    ) {
        self.max_memory = max_memory;
        self.progress = progress;
        self.symmetric = symmetric;
    }

    /// Every 1,024 positions: the progress display, and the memory limit.
    #[cold]
    fn checkpoint(&mut self) -> Result<(), SolveError> {
        self.count_helpers();
        let solved = self.positions_solved();
        if let Some(p) = &self.progress {
            p.borrow_mut().tick(solved, 0);
        }
        if let (Some(limit), Some(held)) = (self.max_memory, crate::memory::resident_bytes()) {
            if held > limit {
                return Err(SolveError::OutOfMemory { limit });
            }
        }
        Ok(())
    }

    /// Bounds the positions evaluated.
    pub fn set_max_positions(&mut self, limit: u64) {
        self.max_positions = limit;
    }

    /// The store of canonical forms.
    pub fn forms(&mut self) -> &mut Forms {
        &mut self.forms
    }

    /// Positions whose canonical form was computed, by this solver or its helpers.
    pub fn positions_solved(&self) -> u64 {
        let imported = self.threads.as_ref().map_or(0, |t| t.imported);
        self.memo.len() as u64 - imported + self.helpers_solved()
    }

    /// The canonical form of a position expression: `end` is 0, a sum the sum of its parts'.
    pub fn value(&mut self, expr: &Expr<R::Pos>) -> Result<GameId, SolveError> {
        match expr {
            Expr::End => Ok(GameId::ZERO),
            Expr::Pos(p) => self.position(*p),
            Expr::Compound(Compound::Sum, parts) => {
                let mut total = GameId::ZERO;
                for part in parts.iter() {
                    let g = self.value(part)?;
                    total = self.forms.add(total, g);
                }
                self.check_numbers()?;
                Ok(total)
            }
            Expr::Compound(kind, _) => Err(not_a_sum(*kind)),
        }
    }

    fn check_numbers(&mut self) -> Result<(), SolveError> {
        if self.forms.take_too_large() {
            return Err(SolveError::Rule(RuleError::new(format!(
                "a value needs more than {MAX_BITS} binary digits"
            ))));
        }
        Ok(())
    }

    /// The canonical form of one position.
    pub fn position(&mut self, pos: R::Pos) -> Result<GameId, SolveError> {
        // A position has the form of its least image under its game's symmetries.
        let pos = match self.symmetric {
            true => self.rules.least_image(pos),
            false => pos,
        };
        if let Some(&g) = self.memo.get(&pos) {
            return Ok(g);
        }
        if let Some(g) = self.shared_form(pos)? {
            return Ok(g);
        }
        if !self.on_path.insert(pos) {
            let at = self.path.iter().position(|&p| p == pos).unwrap_or(0);
            let mut positions: Vec<String> =
                self.path[at..].iter().map(|&p| self.show(p)).collect();
            positions.push(self.show(pos));
            return Err(SolveError::Cycle { positions });
        }
        // Positions being computed count too: a game that never ends is one long path.
        if self.positions_solved() + self.path.len() as u64 >= self.max_positions {
            self.on_path.remove(&pos);
            return Err(SolveError::TooManyPositions {
                limit: self.max_positions,
            });
        }
        let top = self.path.is_empty();
        if top {
            self.begin_top();
        }
        self.path.push(pos);
        let result = deep(|| self.solve(pos));
        self.path.pop();
        self.on_path.remove(&pos);
        if top {
            self.end_top();
        }
        let g = result?;
        self.memo.insert(pos, g);
        self.share_form(pos, g);
        if self.memo.len() & 0x3FF == 0 {
            self.checkpoint()?;
        }
        Ok(g)
    }

    fn solve(&mut self, pos: R::Pos) -> Result<GameId, SolveError> {
        if self.symmetric {
            crate::checked::check_orbit(self.rules, pos, true)?;
        }
        let mut sides = [Vec::new(), Vec::new()];
        // A helper takes Right's options first ([`Self::option_values`]).
        let order = match self.threads.as_ref().is_some_and(|t| t.helper) {
            true => [Side::Right, Side::Left],
            false => [Side::Left, Side::Right],
        };
        for side in order {
            let values = &mut sides[usize::from(side == Side::Right)];
            let mut out = self.pool.pop().unwrap_or_default();
            out.clear();
            let listed = self.rules.side_options(pos, side, &mut out);
            let result = listed
                .map_err(SolveError::Rule)
                .and_then(|()| self.option_values(&out, values));
            self.pool.push(out);
            result?;
        }
        let [left, right] = sides;
        let g = self.forms.canonical(left, right);
        self.check_numbers()?;
        Ok(g)
    }

    fn option_values(
        &mut self,
        out: &Options<R::Pos>,
        values: &mut Vec<GameId>,
    ) -> Result<(), SolveError> {
        // A helper takes the options last first (and Right's before Left's): the asking
        // thread takes them first first, and the two meet in the middle ([`share`]).
        let backwards = self.threads.as_ref().is_some_and(|t| t.helper);
        let n = out.refs.len();
        for k in 0..n {
            let i = if backwards { n - 1 - k } else { k };
            let r = &out.refs[i];
            let g = match *r {
                OptRef::End => GameId::ZERO,
                OptRef::Leaves { start, len } => {
                    let mut total = GameId::ZERO;
                    for &p in out.leaf_slice(start, len) {
                        let g = self.position(p)?;
                        total = self.forms.add(total, g);
                    }
                    total
                }
                OptRef::Expr(_) => self.value(&out.get(i))?,
            };
            values.push(g);
        }
        Ok(())
    }

    /// Positions the helpers finished (counted at checkpoints).
    fn helpers_solved(&self) -> u64 {
        self.threads.as_ref().map_or(0, |t| t.helpers_solved)
    }

    /// The form of `pos` (not in the memo) where another thread shared it, kept in the
    /// memo; a helper told to stop stops here.
    fn shared_form(&mut self, pos: R::Pos) -> Result<Option<GameId>, SolveError> {
        let Some(t) = &mut self.threads else {
            return Ok(None);
        };
        if t.helper {
            if t.keeper.stopped() {
                return Err(SolveError::Rule(RuleError::Stopped));
            }
        } else if !t.woken {
            // Alone so far: nothing is shared yet. A long computation wakes the helpers.
            if let (Some(started), Some(&root)) = (t.started, self.path.first()) {
                if (self.memo.len() - started) as u64 >= t.keeper.wake_after() {
                    t.woken = true;
                    t.keeper.wake(root);
                }
            }
            return Ok(None);
        }
        let Some(form) = t.keeper.shared().get(pos) else {
            return Ok(None);
        };
        let g = t.exchange.import(&mut self.forms, &form);
        t.imported += 1;
        self.memo.insert(pos, g);
        Ok(Some(g))
    }

    /// Shares the form of `pos`, where forms are shared now.
    fn share_form(&mut self, pos: R::Pos, g: GameId) {
        let Some(t) = &mut self.threads else {
            return;
        };
        if !t.helper && !t.woken {
            return;
        }
        let form = t.exchange.export(&self.forms, g);
        t.keeper.shared().put(pos, form);
    }

    /// The asking thread starts a computation.
    fn begin_top(&mut self) {
        if let Some(t) = self.threads.as_mut().filter(|t| !t.helper) {
            t.started = Some(self.memo.len());
        }
    }

    /// A computation ends: the asking thread recalls the helpers where it woke them.
    fn end_top(&mut self) {
        if let Some(t) = self.threads.as_mut().filter(|t| !t.helper) {
            t.started = None;
            if std::mem::take(&mut t.woken) {
                t.keeper.recall();
            }
        }
        self.count_helpers();
    }

    /// Counts the helpers' finished positions: a helper tells the asking thread those it
    /// finished since it last did; the asking thread adds up what they told.
    fn count_helpers(&mut self) {
        let finished = self.positions_solved();
        let Some(t) = &mut self.threads else {
            return;
        };
        if t.helper {
            t.keeper.count_helped(finished.saturating_sub(t.reported));
            t.reported = finished;
        } else {
            t.helpers_solved += t.keeper.take_helped(finished);
        }
    }

    fn show(&self, pos: R::Pos) -> String {
        let mut s = String::new();
        let _ = self.rules.write_pos(pos, &mut s);
        s
    }

    /// The outcome class of `g`.
    pub fn class(&mut self, g: GameId) -> Class {
        let at_least_zero = self.forms.le(GameId::ZERO, g);
        let at_most_zero = self.forms.le(g, GameId::ZERO);
        match (at_least_zero, at_most_zero) {
            (true, true) => Class::P,
            (true, false) => Class::L,
            (false, true) => Class::R,
            (false, false) => Class::N,
        }
    }

    /// The options of one side of a position expression, as expressions: a sum's are its
    /// parts' options with the other parts kept.
    pub fn options(
        &mut self,
        expr: &Expr<R::Pos>,
        side: Side,
    ) -> Result<Vec<Expr<R::Pos>>, SolveError> {
        Ok(match expr {
            Expr::End => Vec::new(),
            Expr::Pos(p) => {
                let mut out = Options::new();
                self.rules
                    .side_options(*p, side, &mut out)
                    .map_err(SolveError::Rule)?;
                out.to_exprs()
            }
            Expr::Compound(Compound::Sum, parts) => {
                let mut all = Vec::new();
                for (i, part) in parts.iter().enumerate() {
                    for o in self.options(part, side)? {
                        let mut rest = parts.to_vec();
                        rest[i] = o;
                        all.push(Expr::sum(rest));
                    }
                }
                all
            }
            Expr::Compound(kind, _) => return Err(not_a_sum(*kind)),
        })
    }

    /// The winning moves of `side` moving first: to options `>= 0` for Left, `<= 0` for
    /// Right. Each option once, in the order the rules give them.
    pub fn winning_moves(
        &mut self,
        expr: &Expr<R::Pos>,
        side: Side,
    ) -> Result<Vec<Expr<R::Pos>>, SolveError> {
        let options = self.options(expr, side)?;
        self.winning(options.into_iter().map(|o| (o.clone(), o)), side)
    }

    /// What goes with each of `side`'s options that wins for `side` ([`Self::wins`]), in
    /// order, each option once (the first of two equal options).
    pub fn winning<T>(
        &mut self,
        options: impl IntoIterator<Item = (Expr<R::Pos>, T)>,
        side: Side,
    ) -> Result<Vec<T>, SolveError> {
        let mut seen = std::collections::HashSet::new();
        let mut wins = Vec::new();
        for (option, what) in options {
            if !seen.contains(&option) && self.wins(&option, side)? {
                wins.push(what);
            }
            seen.insert(option);
        }
        Ok(wins)
    }

    /// Whether `option`, one of `side`'s options, wins for `side` (the other player moving
    /// next): `>= 0` for Left, `<= 0` for Right.
    pub fn wins(&mut self, option: &Expr<R::Pos>, side: Side) -> Result<bool, SolveError> {
        let g = self.value(option)?;
        Ok(match side {
            Side::Left => self.forms.le(GameId::ZERO, g),
            Side::Right => self.forms.le(g, GameId::ZERO),
        })
    }
}

/// The error of asking a canonical form of a compound other than a sum.
fn not_a_sum(kind: Compound) -> SolveError {
    SolveError::Rule(RuleError::new(format!(
        "canonical forms are defined for sums; a {} compound has none",
        kind.name()
    )))
}

/// The error of asking an impartial value of a position of partizan game `game` (both back
/// ends raise it; the checker rejects such queries first).
#[cold]
pub fn partizan_options(game: &str) -> RuleError {
    RuleError::new(format!(
        "`{game}` is a partizan game: its values are canonical, outcome, temperature, mean, \
         left_stop, right_stop, birthday, left_moves and right_moves"
    ))
}

/// Whether any position of `expr` is of a partizan game.
pub fn is_partizan<R: Rules>(rules: &R, expr: &Expr<R::Pos>) -> bool {
    match expr {
        Expr::End => false,
        Expr::Pos(p) => rules.is_partizan(*p),
        Expr::Compound(_, parts) => parts.iter().any(|e| is_partizan(rules, e)),
    }
}
