//! Why a solve fails: [`SolveError`], the one error every solver, the query driver and the
//! partizan and loopy solvers report. A leaf module: it reads only the rules' error, the
//! value kinds and the memory sizes.

use crate::rules::RuleError;
use crate::value::ValueKind;
use std::fmt;

/// Why a solve failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The rules raised an error (for example an out-of-range field value).
    Rule(RuleError),
    /// The move graph has a cycle; `positions` lists it, starting and ending at the
    /// repeated position.
    Cycle {
        /// The positions on the cycle, in move order.
        positions: Vec<String>,
    },
    /// More positions than the configured limit would be solved.
    TooManyPositions {
        /// The limit that was reached.
        limit: u64,
    },
    /// The process came to hold more memory than the configured limit.
    OutOfMemory {
        /// The limit, in bytes.
        limit: u64,
    },
    /// More options were enumerated along one line of play, without a position on it
    /// finished, than [`DESCENT_WORK`](crate::solver::DESCENT_WORK) times the position
    /// limit: each deeper position has more options (the moves likely grow without end).
    LongDescent {
        /// How many options were enumerated.
        options: u64,
    },
    /// A compound position searched move by move has more than
    /// [`MAX_SEARCHED_COMPONENTS`](crate::solver::MAX_SEARCHED_COMPONENTS) components, or a
    /// loopy game's graph holds one of more than [`MAX_GRAPH_COMPONENTS`].
    ///
    /// [`MAX_GRAPH_COMPONENTS`]: crate::solver::MAX_GRAPH_COMPONENTS
    LargeCompound {
        /// How many components it has.
        components: usize,
        /// The limit it passed.
        limit: usize,
    },
    /// A heap of a heap game is past the values that can be computed, and no period was
    /// proven among those computed that would give its value.
    HeapTooLarge {
        /// The heap asked for.
        heap: u64,
        /// How many values (heaps 0, 1, ...) were computed looking for a period.
        computed: usize,
        /// What stopped the computation: the position limit, the memory limit, or the
        /// largest heap computed (2^32).
        bound: HeapBound,
    },
    /// A declared symmetry that the solver checks ([`Rules::checked_symmetries`]) is not
    /// one: it maps `position` to `image`, whose options differ (up to the symmetries).
    ///
    /// [`Rules::checked_symmetries`]: crate::Rules::checked_symmetries
    NotASymmetry {
        /// The symmetry's name.
        symmetry: String,
        /// A position where it fails.
        position: String,
        /// Its image there.
        image: String,
        /// What differs: an option of one with no option of the other like it.
        detail: String,
    },
    /// A line of play went deeper than the solver follows ([`MAX_DEPTH`]).
    ///
    /// [`MAX_DEPTH`]: crate::solver::MAX_DEPTH
    TooDeep {
        /// The depth limit.
        limit: usize,
    },
    /// A value asked for as a number is not one: a loopy position's Grundy value `∞(K)`,
    /// or the remoteness of a draw (`D`); [`Solver::value`] gives it.
    ///
    /// [`Solver::value`]: crate::Solver::value
    NotANumber {
        /// The kind asked for.
        kind: ValueKind,
        /// The value, as written.
        value: String,
    },
    /// A `quotient` query: the misère quotient did not settle within its budget (a tenth
    /// of `--max-positions`, in steps) at heap `heap`.
    QuotientBudget {
        /// The heap being added when the budget ran out.
        heap: usize,
    },
    /// The misère outcome of a sum of heaps of a take-and-break code: the code's misère
    /// quotient did not settle within its budget (at heap `heap`), and the search of the
    /// sum, the definition, reached its limit (`search`).
    NoMisereQuotient {
        /// The heap being added when the quotient's budget ran out.
        heap: usize,
        /// The search's error.
        search: Box<SolveError>,
    },
    /// A loopy partizan position's form was asked for, and it is not a stopper (its players
    /// can move in turn forever: `positions`, a cycle of such play), and no stopper was
    /// found for one of its sides (`side`, "onside" or "offside").
    NotAStopper {
        /// Which side has no stopper found.
        side: &'static str,
        /// The cycle, starting and ending at the repeated position.
        positions: Vec<String>,
    },
    /// A loopy partizan position's form was asked for, and its graph has more positions
    /// than the stopper comparison takes (`limit`).
    LargeStopper {
        /// How many positions its graph has.
        positions: usize,
        /// The most positions whose stopper form is computed.
        limit: usize,
    },
    /// A check the solver makes of its own result failed: a defect, reported instead of a
    /// value that could be wrong.
    Unverified {
        /// What was checked.
        what: String,
    },
    /// A line of play went more than [`MAX_DEPTH`] moves deep, or a limit was reached
    /// while one line held most of the positions solved: the moves likely grow without end
    /// (the game is not well-founded).
    ///
    /// [`MAX_DEPTH`]: crate::solver::MAX_DEPTH
    Unending {
        /// The limit that stopped the search.
        limit: Box<SolveError>,
        /// How many moves deep the line went.
        depth: usize,
        /// Its first and last positions.
        line: (Vec<String>, Vec<String>),
    },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Rule(e) => e.fmt(f),
            SolveError::Cycle { positions } => write!(
                f,
                "the game is loopy: a position can repeat ({}); a loopy game's values are its \
                 outcome, an impartial one's grundy and remoteness, and a partizan one's \
                 canonical form (a stopper's, or its sides)",
                positions.join(" -> ")
            ),
            SolveError::NotAStopper { side, positions } => write!(
                f,
                "the game is loopy and not a stopper: Left and Right can move in turn forever \
                 ({}); cgdl finds no stopper equal to its {side} (it looks by removing such \
                 moves), so it gives no form; its outcome is defined",
                positions.join(" -> ")
            ),
            SolveError::LargeStopper { positions, limit } => write!(
                f,
                "the loopy game's graph has {positions} positions, more than the {limit} whose \
                 stopper form (or, for a game that is not a stopper, whose sides) cgdl \
                 computes; its outcome is defined"
            ),
            SolveError::Unverified { what } => write!(
                f,
                "internal error: a check of the result failed ({what}); no value is given"
            ),
            SolveError::QuotientBudget { heap } => write!(
                f,
                "the misère quotient did not settle within its budget (a tenth of \
                 --max-positions, in steps) at heap {heap}: its candidates grew past what the \
                 budget can verify (a wild game's quotient may grow without end)"
            ),
            SolveError::NoMisereQuotient { heap, search } => write!(
                f,
                "the misère quotient of this game did not settle within its budget (a tenth \
                 of --max-positions, in steps) at heap {heap}, and a search of the sum stopped: \
                 {search}"
            ),
            SolveError::TooManyPositions { limit } => write!(
                f,
                "the state space is too large: more than {limit} positions would be solved"
            ),
            SolveError::OutOfMemory { limit } => write!(
                f,
                "the state space is too large: the solve reached its memory limit of {} \
                 (--max-memory)",
                crate::memory::show_size(*limit)
            ),
            SolveError::LongDescent { options } => write!(
                f,
                "{options} options were enumerated along it without a position finished \
                 (a limit that grows with --max-positions)"
            ),
            SolveError::LargeCompound { components, limit } => write!(
                f,
                "a compound position of {components} components is searched move by move \
                 (no compound rule gives this value), past the limit of {limit}: a move likely \
                 makes a compound that holds the game again"
            ),
            SolveError::HeapTooLarge {
                heap,
                computed,
                bound,
            } => {
                let past = match bound {
                    HeapBound::Positions(n) => {
                        format!("past the position limit, {n} (--max-positions)")
                    }
                    HeapBound::Memory(n) => format!(
                        "past the memory limit of {} (--max-memory)",
                        crate::memory::show_size(*n)
                    ),
                    HeapBound::Largest => "past 2^32, the largest heap computed".to_string(),
                };
                write!(
                    f,
                    "heap {heap} is too large to compute ({past}), and no period was proven in \
                     the {computed} values computed from heap 0, so its value cannot be read \
                     off one"
                )
            }
            SolveError::NotASymmetry {
                symmetry,
                position,
                image,
                detail,
            } => write!(
                f,
                "symmetry `{symmetry}` is not a symmetry of the game: it maps {position} to \
                 {image}, whose options differ ({detail})"
            ),
            SolveError::NotANumber { kind, value } => write!(
                f,
                "the {kind} value is {value} (the game is loopy), not a number"
            ),
            SolveError::TooDeep { limit } => {
                write!(f, "a line of play went more than {limit} moves deep")
            }
            SolveError::Unending { limit, depth, line } => write!(
                f,
                "the game is not well-founded, or too deep to solve: a line of play went {depth} \
                 moves without ending ({} -> ... -> {}); {limit}",
                line.0.join(" -> "),
                line.1.join(" -> ")
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// What kept a heap game's values from reaching a heap ([`SolveError::HeapTooLarge`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeapBound {
    /// The position limit (`--max-positions`).
    Positions(u64),
    /// The memory limit (`--max-memory`), in bytes.
    Memory(u64),
    /// Heaps past 2^32 are never computed.
    Largest,
}

impl From<RuleError> for SolveError {
    fn from(e: RuleError) -> Self {
        SolveError::Rule(e)
    }
}
