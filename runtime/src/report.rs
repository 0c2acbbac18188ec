//! The query driver: plans of what to solve (built by the interpreter or generated code),
//! run against a solver, and rendered as aligned text or JSON.

use crate::expr::Expr;
use crate::partizan::{self, Dyadic, PartizanKind, Side};
use crate::period::find_period;
use crate::rules::Rules;
use crate::solver::{SolveError, Solver};
use crate::value::{Outcome, Value, ValueKind, WNumber};
use serde::Serialize;
use serde_json::json;
use std::ops::ControlFlow;

/// One thing a query asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// A value.
    Value(ValueKind),
    /// The winning moves.
    Moves,
    /// Every option with its value (its Grundy value; a partizan position's options of each
    /// side with their canonical forms): for debugging rules.
    Options,
    /// The misère canonical form of an impartial position ([`crate::misere_form`]).
    MisereForm,
    /// A value of partizan games (canonical forms and what they give).
    Partizan(PartizanKind),
}

impl Ask {
    /// Every value a query may ask for, in the order help text lists them: the values of
    /// impartial games, `moves`, `options`, `misere_form`, then those of partizan games.
    pub fn all() -> Vec<Ask> {
        let mut out: Vec<Ask> = ValueKind::ALL.iter().map(|&k| Ask::Value(k)).collect();
        out.extend([Ask::Moves, Ask::Options, Ask::MisereForm]);
        out.extend(PartizanKind::ALL.iter().map(|&k| Ask::Partizan(k)));
        out
    }

    /// Every name, as help text lists them: `outcome, misere_outcome, ..., right_moves`.
    pub fn names() -> String {
        let names: Vec<&str> = Ask::all().into_iter().map(Ask::name).collect();
        names.join(", ")
    }

    /// Parses a value name (`grundy`, `moves`, ...).
    pub fn parse(name: &str) -> Option<Ask> {
        Ask::all().into_iter().find(|a| a.name() == name)
    }

    /// The name as written.
    pub fn name(self) -> &'static str {
        match self {
            Ask::Value(k) => k.name(),
            Ask::Moves => "moves",
            Ask::Options => "options",
            Ask::MisereForm => "misere_form",
            Ask::Partizan(k) => k.name(),
        }
    }
}

/// A query's rows or terms, made one at a time as the driver solves them: a long table or
/// sequence is never held whole. Its items fail with the message of a rule error met while
/// building a position.
pub struct Stream<'a, T> {
    items: Box<dyn Iterator<Item = Result<T, String>> + 'a>,
}

impl<'a, T> Stream<'a, T> {
    /// A stream of these items.
    pub fn new(items: impl Iterator<Item = Result<T, String>> + 'a) -> Self {
        Stream {
            items: Box::new(items),
        }
    }

    /// Passes over the next `count` items without looking at them; whether there were as
    /// many.
    fn skip(&mut self, count: usize) -> bool {
        count == 0 || self.items.nth(count - 1).is_some()
    }

    /// The next item, a rule error as a [`SolveError`].
    fn next_item(&mut self) -> Option<Result<T, SolveError>> {
        self.items
            .next()
            .map(|item| item.map_err(|e| SolveError::Rule(crate::rules::RuleError::new(e))))
    }
}

impl<T> std::fmt::Debug for Stream<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stream")
    }
}

/// What to solve for one query.
#[derive(Debug)]
pub enum Plan<'a, P> {
    /// `value asks of target`
    Value {
        /// The query as written.
        query: String,
        /// The position expression.
        target: Expr<P>,
        /// The values asked for.
        asks: Vec<Ask>,
    },
    /// A table with one free name: one row per value of `var`, made as it is solved.
    Table {
        /// The query as written.
        query: String,
        /// The free name.
        var: String,
        /// Each row's value of `var` (as shown) and position expression.
        rows: Stream<'a, (String, Expr<P>)>,
        /// The values asked for (one column each).
        asks: Vec<Ask>,
    },
    /// A table with two free names: one grid per value.
    Grid {
        /// The query as written.
        query: String,
        /// Row and column names.
        vars: (String, String),
        /// Row labels.
        row_labels: Vec<String>,
        /// Column labels.
        col_labels: Vec<String>,
        /// `cells[r][c]`: row `r`'s cell in column `c`, or, when `row_columns` is given,
        /// in column `row_columns[r][c]`.
        cells: Vec<Vec<Expr<P>>>,
        /// Where the columns depend on the row (`for a in 1..=4, b in 1..=a`): for each
        /// row, the column of each of its cells (an index into `col_labels`, increasing).
        /// `None`: every row has every column.
        row_columns: Option<Vec<Vec<usize>>>,
        /// The values asked for (one grid each).
        asks: Vec<Ask>,
    },
    /// The misère quotient of the heaps `first..=last` (from 0: every heap up to `last`)
    /// of a game given by a take-and-break code.
    Quotient {
        /// The query as written.
        query: String,
        /// The code's digits ([`crate::heap`]).
        digits: Vec<u8>,
        /// The first heap whose element is reported.
        first: u64,
        /// The last heap: the quotient is of every heap up to it.
        last: u64,
    },
    /// The period of a value along a sequence of positions.
    Period {
        /// The query as written.
        query: String,
        /// The value.
        kind: ValueKind,
        /// Each term's index and position, in order; the indices must be consecutive.
        terms: Stream<'a, (i64, Expr<P>)>,
        /// What proves a period of the Grundy values (Guy–Smith), when the rules say.
        bound: Option<crate::period::Bound>,
        /// Where the compiler proved that term `n` is heap `n` of a heap game.
        heaps: Option<HeapTerms>,
    },
}

impl<P: Copy + Ord> Plan<'_, P> {
    /// The positions of the query's targets (each row's, cell's or term's): what a tiered
    /// solve starts from. The first rule error met while building one is returned.
    pub fn positions(self) -> Result<Vec<P>, String> {
        let mut out = Vec::new();
        let mut take = |e: &Expr<P>| out.extend(e.leaves().into_iter().copied());
        match self {
            Plan::Value { target, .. } => take(&target),
            Plan::Table { rows, .. } => {
                for row in rows.items {
                    take(&row?.1);
                }
            }
            Plan::Grid { cells, .. } => cells.iter().flatten().for_each(take),
            Plan::Period { terms, .. } => {
                for term in terms.items {
                    take(&term?.1);
                }
            }
            Plan::Quotient { .. } => {}
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }
}

/// What the compiler proved of a period query's terms: they are the terms of indices
/// `first..=last`, in order, and the term of index `n >= 0` is heap `n` of heap game `game`
/// (the game's index in its file), whose code has digits `digits`, made without fail. The
/// driver then reads the Grundy values of terms from `first >= 0` on off the heap engine
/// that game's kernel asks ([`crate::kernel::heap_kernel`]), the same values by the same
/// engine, without making each position and starting a search for it; where the engine
/// cannot answer (a budget), it goes on term by term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapTerms {
    /// The game's index in its file: its engine's key.
    pub game: usize,
    /// The digits of its code.
    pub digits: Vec<u8>,
    /// The first term's index.
    pub first: i64,
    /// The last term's index.
    pub last: i64,
}

/// The answer to one query; serialises to the JSON schema of docs/LANGUAGE.md.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Answer {
    /// A `value` query.
    Value {
        /// The query as written.
        query: String,
        /// The position.
        position: String,
        /// `[name, value]` pairs in the order asked.
        values: Vec<(String, serde_json::Value)>,
        /// When a heap too large to compute was answered from a proven period: which.
        #[serde(skip_serializing_if = "Option::is_none")]
        periodic: Option<Periodic>,
    },
    /// A one-name table.
    Table {
        /// The query as written.
        query: String,
        /// Column headers: the free name, then the values.
        columns: Vec<String>,
        /// Rows: the free name's value, then each value.
        rows: Vec<Vec<serde_json::Value>>,
    },
    /// A two-name table.
    Grid {
        /// The query as written.
        query: String,
        /// Row name and column name.
        vars: (String, String),
        /// Row labels.
        row_labels: Vec<String>,
        /// Column labels.
        col_labels: Vec<String>,
        /// One grid per value: `[name, cells]`, `cells[r][c]` the value at row `r` and
        /// column `c`; where the columns depend on the row, a row has no cell (`null`) in
        /// the columns it lacks, and ends at its last cell.
        grids: Vec<(String, Vec<Vec<serde_json::Value>>)>,
    },
    /// A `quotient` query: the misère quotient as the papers write it.
    Quotient {
        /// The query as written.
        query: String,
        /// The last heap: the quotient is of the sums of every heap up to it.
        heaps: u64,
        /// The quotient's order.
        order: usize,
        /// Each generator: its name and the heap whose element it is.
        generators: Vec<(String, usize)>,
        /// The relations, `[left, right]`: with commutativity they present the quotient.
        relations: Vec<(String, String)>,
        /// The P-portion, each element as its normal form.
        p_portion: Vec<String>,
        /// The heaps where a new generator was needed (the presentation changed); the
        /// quotient has been the same since the last of them.
        changes: Vec<usize>,
        /// The first heap reported, and each heap's element from it on.
        first: u64,
        /// Each heap's element (the pretending function), from `first`.
        elements: Vec<String>,
    },
    /// A `period` query.
    Period {
        /// The query as written.
        query: String,
        /// The value.
        value: String,
        /// Terms computed.
        terms: usize,
        /// First index from which the sequence repeats (absent: no period found).
        preperiod: Option<i64>,
        /// The period.
        period: Option<usize>,
        /// Proven by the Guy–Smith condition.
        proven: bool,
        /// The sequence itself.
        sequence: Vec<u32>,
    },
}

/// The proven period a value was read from (`grundy 1 (periodic from 71, period 12)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Periodic {
    /// The preperiod: values repeat from this heap on.
    pub from: usize,
    /// The period.
    pub period: usize,
}

impl Periodic {
    /// The note written after a value read from this period.
    pub fn note(&self) -> String {
        format!("(periodic from {}, period {})", self.from, self.period)
    }

    /// Whether a value of this name is read from a period (the Grundy kernel's values).
    pub fn applies_to(name: &str) -> bool {
        matches!(name, "grundy" | "outcome")
    }
}

/// A value as JSON: numbers as numbers, P/N/SL/SW as strings.
pub fn value_json(v: Value) -> serde_json::Value {
    match v {
        Value::Number(n) | Value::W(WNumber::Num(n)) => json!(n),
        Value::Infinite(k) => json!(k),
        other => json!(other.to_string()),
    }
}

fn answer_one<R: Rules>(
    solver: &mut Solver<'_, R>,
    ask: Ask,
    target: &Expr<R::Pos>,
) -> Result<serde_json::Value, SolveError> {
    Ok(match ask {
        Ask::Value(ValueKind::Outcome) if partizan::is_partizan(solver.rules(), target) => {
            json!(solver.outcome(target.clone())?.to_string())
        }
        Ask::Partizan(kind) => partizan_json(solver, kind, target)?,
        Ask::Value(kind) => value_json(solver.value(kind, target)?),
        Ask::Moves => json!(solver.winning_moves_as_written(target.clone())?),
        Ask::Options => options_json(solver, target)?,
        Ask::MisereForm => json!(solver.misere_form(target.clone())?),
    })
}

/// Every option of `target` with its value, in the order of the rules, as texts
/// `POSITION = VALUE`: the Grundy value of an impartial option, each side's options with
/// their canonical forms (`left: POSITION = FORM`) for a partizan position.
fn options_json<R: Rules>(
    solver: &mut Solver<'_, R>,
    target: &Expr<R::Pos>,
) -> Result<serde_json::Value, SolveError> {
    let mut out = Vec::new();
    if partizan::is_partizan(solver.rules(), target) {
        for (side, name) in [(Side::Left, "left"), (Side::Right, "right")] {
            for (o, text) in solver.side_options_as_written(target, side)? {
                let form = solver.canonical(o)?;
                out.push(format!("{name}: {text} = {form}"));
            }
        }
    } else {
        for (o, text) in solver.options_as_written(target.clone())? {
            let g = solver.value(ValueKind::Grundy, &o)?;
            out.push(format!("{text} = {g}"));
        }
    }
    Ok(json!(out))
}

/// A number as JSON: an integer as a number, a fraction as its text (`"-3/2"`).
fn dyadic_json(x: Dyadic) -> serde_json::Value {
    match x.to_integer().and_then(|n| i64::try_from(n).ok()) {
        Some(n) => json!(n),
        None => json!(x.to_string()),
    }
}

fn partizan_json<R: Rules>(
    solver: &mut Solver<'_, R>,
    kind: PartizanKind,
    target: &Expr<R::Pos>,
) -> Result<serde_json::Value, SolveError> {
    if kind == PartizanKind::Canonical {
        return Ok(json!(solver.canonical(target.clone())?));
    }
    // The target's form, asked only by the kinds that read it.
    let mut form = |read: fn(&mut partizan::Forms, partizan::GameId) -> serde_json::Value| {
        let p = solver.partizan();
        let g = p.value(target)?;
        Ok::<_, SolveError>(read(p.forms(), g))
    };
    let side = match kind {
        PartizanKind::Canonical => return form(|f, g| json!(f.display(g))),
        PartizanKind::Temperature => return form(|f, g| dyadic_json(f.temperature(g))),
        PartizanKind::Mean => return form(|f, g| dyadic_json(f.mean(g))),
        PartizanKind::LeftStop => return form(|f, g| dyadic_json(f.left_stop(g))),
        PartizanKind::RightStop => return form(|f, g| dyadic_json(f.right_stop(g))),
        PartizanKind::Birthday => return form(|f, g| json!(f.birthday(g))),
        PartizanKind::LeftMoves => Side::Left,
        PartizanKind::RightMoves => Side::Right,
    };
    // The winning options, each once, written as the rules write them.
    let options = solver.side_options_as_written(target, side)?;
    Ok(json!(solver.partizan().winning(options, side)?))
}

/// A solved part of a query, in the order the driver prints it: a table comes as its
/// header, its rows and its end, so that no table is held whole; every other query comes
/// as one answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    /// A whole answer (a value, a grid or a period).
    Answer(Answer),
    /// A table begins.
    TableStart {
        /// The query as written.
        query: String,
        /// Column headers: the free name, then the values.
        columns: Vec<String>,
    },
    /// A table's next row: the free name's value, then each value.
    Row(Vec<serde_json::Value>),
    /// The table has ended.
    TableEnd,
}

/// Solves a plan, handing each part to `out` as soon as it is solved. Where `out` takes no
/// more (its reader has gone, say), it breaks, and the solve stops there: the result is
/// `Ok(Break)`; `Ok(Continue)` where every part was taken.
pub fn solve_plan<R: Rules>(
    solver: &mut Solver<'_, R>,
    plan: Plan<'_, R::Pos>,
    out: &mut dyn FnMut(Part) -> ControlFlow<()>,
) -> Result<ControlFlow<()>, SolveError> {
    // Hands a part to `out`; stops the solve where `out` breaks.
    macro_rules! emit {
        ($part:expr) => {
            if out($part).is_break() {
                return Ok(ControlFlow::Break(()));
            }
        };
    }
    match plan {
        Plan::Value {
            query,
            target,
            asks,
        } => {
            let mut values = Vec::new();
            solver.take_period_used();
            for a in asks {
                values.push((a.name().to_string(), answer_one(solver, a, &target)?));
            }
            let periodic = solver.take_period_used().map(|p| Periodic {
                from: p.preperiod,
                period: p.period,
            });
            emit!(Part::Answer(Answer::Value {
                query,
                position: solver.display(&target),
                values,
                periodic,
            }));
        }
        Plan::Table {
            query,
            var,
            mut rows,
            asks,
        } => {
            let mut columns = vec![var];
            columns.extend(asks.iter().map(|a| a.name().to_string()));
            emit!(Part::TableStart { query, columns });
            let mut count = 0u64;
            loop {
                // Between rows (before the next row's position is made) the solver may
                // forget positions it keeps in a table.
                count += 1;
                if count.is_multiple_of(1024) {
                    solver.relieve_memory();
                }
                let Some(item) = rows.next_item() else {
                    break;
                };
                let (label, target) = item?;
                let mut row = vec![json!(label)];
                for &a in &asks {
                    row.push(answer_one(solver, a, &target)?);
                }
                emit!(Part::Row(row));
            }
            emit!(Part::TableEnd);
        }
        Plan::Grid {
            query,
            vars,
            row_labels,
            col_labels,
            cells,
            row_columns,
            asks,
        } => {
            let mut grids = Vec::new();
            for a in asks {
                let mut grid = Vec::new();
                for (r, row) in cells.iter().enumerate() {
                    let mut out = Vec::new();
                    for (k, target) in row.iter().enumerate() {
                        let value = answer_one(solver, a, target)?;
                        match row_columns.as_ref().map(|columns| columns[r][k]) {
                            Some(c) => {
                                out.resize(c, serde_json::Value::Null);
                                out.push(value);
                            }
                            None => out.push(value),
                        }
                    }
                    grid.push(out);
                }
                grids.push((a.name().to_string(), grid));
            }
            emit!(Part::Answer(Answer::Grid {
                query,
                vars,
                row_labels,
                col_labels,
                grids,
            }));
        }
        Plan::Quotient {
            query,
            digits,
            first,
            last,
        } => {
            emit!(Part::Answer(quotient_answer(
                solver, query, &digits, first, last
            )?));
        }
        Plan::Period {
            query,
            kind,
            mut terms,
            bound,
            heaps,
        } => {
            let mut sequence = Vec::new();
            let mut first = None;
            // Heaps read off their engine while it answers; the rest (if any) term by term.
            if let (Some(h), ValueKind::Grundy) = (&heaps, kind) {
                if let (Ok(from), Ok(to)) = (u64::try_from(h.first), u64::try_from(h.last)) {
                    let read =
                        solver.heap_grundies(h.game, &h.digits, (from, to), &mut sequence)?;
                    let read_all = read == to - from + 1;
                    if read_all {
                        terms = Stream::new(std::iter::empty());
                    }
                    if read > 0 {
                        first = Some(h.first);
                        if !read_all && !terms.skip(sequence.len()) {
                            return Err(SolveError::Rule(crate::rules::RuleError::new(
                                "a period query's terms ended before their last index",
                            )));
                        }
                    }
                }
            }
            loop {
                // Between terms (before the next term's position is made) the solver may
                // forget positions it keeps in a table.
                if sequence.len() % 1024 == 1023 {
                    solver.relieve_memory();
                }
                let Some(item) = terms.next_item() else {
                    break;
                };
                let (n, target) = item?;
                let start = *first.get_or_insert(n);
                if start.checked_add(sequence.len() as i64) != Some(n) {
                    return Err(SolveError::Rule(crate::rules::RuleError::new(
                        "a period query needs a range of consecutive numbers",
                    )));
                }
                // The sequence and the values behind it grow with the terms: the memory
                // limit holds between terms too.
                if sequence.len() % 65_536 == 65_535 {
                    solver.check_memory()?;
                }
                sequence.push(match solver.value(kind, &target)? {
                    Value::Number(n) | Value::W(WNumber::Num(n)) => n,
                    // A loopy position's ∞ or a draw is no term of a number sequence.
                    other @ (Value::Infinite(_) | Value::Outcome(Outcome::D)) => {
                        return Err(SolveError::NotANumber {
                            kind,
                            value: other.to_string(),
                        })
                    }
                    _ => 0,
                });
            }
            let first = first.unwrap_or(0);
            // Guy–Smith proves periods of Grundy values of heaps counted from 0; remoteness,
            // suspense and misère values of sums do not follow from their components'.
            let provable = kind == ValueKind::Grundy && first == 0;
            let found = find_period(&sequence, bound.filter(|_| provable));
            emit!(Part::Answer(Answer::Period {
                query,
                value: kind.name().to_string(),
                terms: sequence.len(),
                preperiod: found.map(|p| first + p.preperiod as i64),
                period: found.map(|p| p.period),
                proven: found.is_some_and(|p| p.proven),
                sequence,
            }));
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// The misère quotient of heaps up to `last` of the code `digits`, within a tenth of the
/// solver's `--max-positions` in steps.
fn quotient_answer<R: Rules>(
    solver: &Solver<'_, R>,
    query: String,
    digits: &[u8],
    first: u64,
    last: u64,
) -> Result<Answer, SolveError> {
    let max = usize::try_from(last)
        .ok()
        .filter(|&m| m <= crate::misere::MAX_HEAP)
        .ok_or_else(|| {
            SolveError::Rule(crate::rules::RuleError::new(format!(
                "a quotient query covers heaps up to {}",
                crate::misere::MAX_HEAP
            )))
        })?;
    let options = crate::misere::code_options(digits, max).map_err(SolveError::Rule)?;
    let budget = crate::misere::Budget {
        steps: (solver.max_positions() / 10).max(1_000_000),
        ..crate::misere::Budget::default()
    };
    let found = crate::misere::quotient(&options, budget).map_err(
        |crate::misere::QuotientError::Budget { heap }| SolveError::QuotientBudget { heap },
    )?;
    let shown = crate::misere::presentation(&found.candidate);
    Ok(Answer::Quotient {
        query,
        heaps: last,
        order: shown.order,
        generators: shown.generators,
        relations: shown.relations,
        p_portion: shown.p_portion,
        changes: found.expansions,
        first,
        elements: shown.heaps.into_iter().skip(first as usize).collect(),
    })
}

/// Solves a plan and returns its whole answer (a table's rows collected).
pub fn run_plan<R: Rules>(
    solver: &mut Solver<'_, R>,
    plan: Plan<'_, R::Pos>,
) -> Result<Answer, SolveError> {
    let mut answer = None;
    // Every part is taken: the solve runs to its end.
    let _ended = solve_plan(solver, plan, &mut |part| {
        match part {
            Part::Answer(a) => answer = Some(a),
            Part::TableStart { query, columns } => {
                answer = Some(Answer::Table {
                    query,
                    columns,
                    rows: Vec::new(),
                })
            }
            Part::Row(row) => {
                if let Some(Answer::Table { rows, .. }) = &mut answer {
                    rows.push(row);
                }
            }
            Part::TableEnd => {}
        }
        ControlFlow::Continue(())
    })?;
    answer.ok_or_else(|| SolveError::Rule(crate::rules::RuleError::new("the query made no answer")))
}

/// How one answered value prints: `P`, `3`, `SL`, `∞{0,2}`, moves joined by `; ` (`none`
/// if empty); a grid's missing cell (`null`) is blank.
pub fn cell_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(items) if items.is_empty() => "none".to_string(),
        serde_json::Value::Array(items) => {
            items.iter().map(cell_text).collect::<Vec<_>>().join("; ")
        }
        // A loopy position's `{"infinite": [0, 2]}` as `∞{0,2}`.
        serde_json::Value::Object(_) => {
            match serde_json::from_value::<crate::value::Infinite>(v.clone()) {
                Ok(k) => k.to_string(),
                Err(_) => v.to_string(),
            }
        }
        other => other.to_string(),
    }
}

/// Right-aligns `rows` into columns separated by two spaces, each column at least as wide
/// as `widths` says; `widths` grows to the widest entry of each column.
fn align_to(rows: &[Vec<String>], widths: &mut Vec<usize>) -> String {
    for r in rows {
        if widths.len() < r.len() {
            widths.resize(r.len(), 0);
        }
        for (w, s) in widths.iter_mut().zip(r) {
            *w = (*w).max(s.chars().count());
        }
    }
    let mut out = String::new();
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .zip(widths.iter())
            .map(|(s, &w)| format!("{s:>w$}"))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// Right-aligns `rows` into columns separated by two spaces.
fn align(rows: &[Vec<String>]) -> String {
    align_to(rows, &mut Vec::new())
}

/// How many rows of a table are aligned together in text output. A table of at most this
/// many rows is aligned as one; a longer one is printed block by block as it is solved, and
/// its columns widen (never narrow) from one block to the next.
pub const TEXT_BLOCK_ROWS: usize = 65_536;

/// A table whose rows come slower than this is printed as they come: each row (or the rows
/// solved since the last print) as soon as it is solved, aligned to the widths so far.
pub const TEXT_ROW_WAIT: std::time::Duration = std::time::Duration::from_millis(250);

/// A table printed as text while it is solved, [`TEXT_BLOCK_ROWS`] rows at a time, or, when
/// it is live (printed to a terminal), sooner where its rows come slowly
/// ([`TEXT_ROW_WAIT`]): a slow table shows each row as it is solved. Output that is not live
/// does not depend on timing: the same rows give the same text.
#[derive(Debug)]
pub struct TextTable {
    widths: Vec<usize>,
    block: Vec<Vec<String>>,
    /// When the table last printed (or began).
    printed: std::time::Instant,
    live: bool,
}

impl TextTable {
    /// A table with these column headers; returns it with the text that comes first
    /// (the query line).
    pub fn start(query: &str, columns: &[String], live: bool) -> (TextTable, String) {
        let table = TextTable {
            widths: Vec::new(),
            block: vec![columns.to_vec()],
            printed: std::time::Instant::now(),
            live,
        };
        (table, format!("{query}\n"))
    }

    /// Adds a row; returns the text to print now: a finished block, or the rows so far
    /// where the last print is [`TEXT_ROW_WAIT`] ago.
    pub fn row(&mut self, row: &[serde_json::Value]) -> Option<String> {
        self.block.push(row.iter().map(cell_text).collect());
        let slow = self.live && self.printed.elapsed() >= TEXT_ROW_WAIT;
        (self.block.len() >= TEXT_BLOCK_ROWS || slow).then(|| self.flush())
    }

    /// The text of the rows not yet printed.
    pub fn finish(mut self) -> String {
        self.flush()
    }

    fn flush(&mut self) -> String {
        let text = align_to(&self.block, &mut self.widths);
        self.block.clear();
        self.printed = std::time::Instant::now();
        text
    }
}

/// A run's answers, written while its queries are solved: aligned text ([`TextDoc`]) or
/// JSON ([`JsonDoc`]). Each method returns the text to print next.
pub trait Document {
    /// The text of a solved part.
    fn part(&mut self, part: &Part) -> String;
    /// The text that ends a query that an error stopped midway (a table's rows so far).
    fn cut(&mut self) -> String;
    /// The closing text, after the last query.
    fn finish(&mut self) -> String;
}

/// The text output of a run: each answer as [`render_text`] writes it, a blank line between
/// queries, and tables printed while they are solved ([`TextTable`]; live where the output
/// is a terminal).
#[derive(Debug, Default)]
pub struct TextDoc {
    queries: usize,
    table: Option<TextTable>,
    live: bool,
}

impl TextDoc {
    /// A document whose tables print slow rows as they come when `live` (see [`TextTable`]).
    pub fn new(live: bool) -> TextDoc {
        TextDoc {
            live,
            ..TextDoc::default()
        }
    }

    /// The document after `queries` queries that another run wrote.
    pub fn after(mut self, queries: usize) -> TextDoc {
        self.queries = queries;
        self
    }

    /// The blank line before every query but the first.
    fn next_query(&mut self) -> &'static str {
        self.queries += 1;
        if self.queries == 1 {
            ""
        } else {
            "\n"
        }
    }
}

impl Document for TextDoc {
    fn part(&mut self, part: &Part) -> String {
        match part {
            Part::Answer(answer) => format!("{}{}", self.next_query(), render_text(answer)),
            Part::TableStart { query, columns } => {
                let sep = self.next_query();
                let (table, text) = TextTable::start(query, columns, self.live);
                self.table = Some(table);
                format!("{sep}{text}")
            }
            Part::Row(row) => self
                .table
                .as_mut()
                .and_then(|t| t.row(row))
                .unwrap_or_default(),
            Part::TableEnd => self.cut(),
        }
    }

    fn cut(&mut self) -> String {
        self.table.take().map(TextTable::finish).unwrap_or_default()
    }

    fn finish(&mut self) -> String {
        String::new()
    }
}

/// The JSON document of a run, `{"file": ..., "queries": [...]}`, written while the
/// queries are solved. Compact, it has one line per query; pretty, it is indented as
/// `serde_json::to_string_pretty` indents the whole document.
#[derive(Debug)]
pub struct JsonDoc {
    pretty: bool,
    queries: usize,
    rows: usize,
}

/// `value` as JSON, indented or on one line. The values this crate writes (answers,
/// analyses) are maps with string keys, numbers and strings, which always serialise.
pub fn json_text(value: &impl Serialize, pretty: bool) -> String {
    let text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    };
    text.unwrap_or_default()
}

/// `text` with every line indented by `by` spaces.
fn indent(text: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    text.lines()
        .map(|l| format!("{pad}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

impl JsonDoc {
    /// The document after `queries` queries that another run wrote (with the opening).
    pub fn after(mut self, queries: usize) -> JsonDoc {
        self.queries = queries;
        self
    }

    /// A document of `file`'s queries, and its opening text.
    pub fn start(file: &str, pretty: bool) -> (JsonDoc, String) {
        let file = json!(file);
        let text = if pretty {
            format!("{{\n  \"file\": {file},\n  \"queries\": [")
        } else {
            format!("{{\"file\":{file},\"queries\":[")
        };
        let doc = JsonDoc {
            pretty,
            queries: 0,
            rows: 0,
        };
        (doc, text)
    }

    fn json(&self, value: &impl Serialize) -> String {
        json_text(value, self.pretty)
    }

    /// The text of the next query's start (a separator and a new line).
    fn next_query(&mut self) -> &'static str {
        self.queries += 1;
        if self.queries == 1 {
            "\n"
        } else {
            ",\n"
        }
    }
}

impl Document for JsonDoc {
    fn part(&mut self, part: &Part) -> String {
        let depth = if self.pretty { 4 } else { 0 };
        match part {
            Part::Answer(answer) => {
                let sep = self.next_query();
                format!("{sep}{}", indent(&self.json(answer), depth))
            }
            Part::TableStart { query, columns } => {
                let sep = self.next_query();
                self.rows = 0;
                let header = Answer::Table {
                    query: query.clone(),
                    columns: columns.clone(),
                    rows: Vec::new(),
                };
                let text = indent(&self.json(&header), depth);
                // `rows` is the last field: cut its empty list and the closing brace.
                let cut = if self.pretty { "[]\n    }" } else { "[]}" };
                format!("{sep}{}", text.strip_suffix(cut).unwrap_or(&text))
            }
            Part::Row(row) => {
                self.rows += 1;
                let first = self.rows == 1;
                if self.pretty {
                    let sep = if first { "[\n" } else { ",\n" };
                    format!("{sep}{}", indent(&self.json(row), 8))
                } else {
                    format!("{}{}", if first { "[" } else { "," }, self.json(row))
                }
            }
            Part::TableEnd => match (self.pretty, self.rows) {
                (true, 0) => "[]\n    }".to_string(),
                (true, _) => "\n      ]\n    }".to_string(),
                (false, 0) => "[]}".to_string(),
                (false, _) => "]}".to_string(),
            },
        }
    }

    fn cut(&mut self) -> String {
        // The document stays cut off; its last line is ended before the error.
        "\n".to_string()
    }

    fn finish(&mut self) -> String {
        match (self.pretty, self.queries) {
            (true, 0) => "]\n}\n".to_string(),
            (true, _) => "\n  ]\n}\n".to_string(),
            (false, 0) => "]}\n".to_string(),
            (false, _) => "\n]}\n".to_string(),
        }
    }
}

/// Renders an answer as text.
pub fn render_text(answer: &Answer) -> String {
    match answer {
        Answer::Value {
            query,
            values,
            periodic,
            ..
        } => {
            let mut out = format!("{query}\n");
            let w = values.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
            for (name, v) in values {
                out.push_str(&format!("  {name:<w$}  {}", cell_text(v)));
                if let Some(p) = periodic.filter(|_| Periodic::applies_to(name)) {
                    out.push_str(&format!(" {}", p.note()));
                }
                out.push('\n');
            }
            out
        }
        Answer::Table {
            query,
            columns,
            rows,
        } => {
            let (mut table, mut out) = TextTable::start(query, columns, false);
            for row in rows {
                out.extend(table.row(row));
            }
            out.push_str(&table.finish());
            out
        }
        Answer::Grid {
            query,
            vars,
            row_labels,
            col_labels,
            grids,
        } => {
            let mut out = format!("{query}\n");
            for (name, grid) in grids {
                out.push_str(&format!("{name} (rows {}, columns {}):\n", vars.0, vars.1));
                let mut table = vec![std::iter::once(format!("{}\\{}", vars.0, vars.1))
                    .chain(col_labels.iter().cloned())
                    .collect::<Vec<_>>()];
                for (label, row) in row_labels.iter().zip(grid) {
                    table.push(
                        std::iter::once(label.clone())
                            .chain(row.iter().map(cell_text))
                            .collect(),
                    );
                }
                out.push_str(&align(&table));
            }
            out
        }
        Answer::Period {
            query,
            terms,
            preperiod,
            period,
            proven,
            ..
        } => {
            let verdict = match (preperiod, period) {
                (Some(pre), Some(p)) => format!(
                    "preperiod {pre}, period {p} ({})",
                    if *proven {
                        "proven by the Guy-Smith condition"
                    } else {
                        "apparent, not proven"
                    }
                ),
                _ => format!("no period found in {terms} terms"),
            };
            format!("{query}\n  {verdict}\n")
        }
        Answer::Quotient {
            query,
            heaps,
            order,
            generators,
            relations,
            p_portion,
            changes,
            first,
            elements,
        } => {
            let mut out = format!("{query}\n");
            let settled = match changes.last() {
                Some(h) => format!("the presentation last changed at heap {h}"),
                None => "no heap needed a generator".to_string(),
            };
            out.push_str(&format!(
                "  order {order}, P-portion of {} elements ({settled}; heaps to {heaps})\n",
                p_portion.len()
            ));
            let gens: Vec<String> = (generators.iter())
                .map(|(name, heap)| format!("{name} = heap {heap}"))
                .collect();
            out.push_str(&format!("  generators  {}\n", gens.join(", ")));
            let rels: Vec<String> = (relations.iter())
                .map(|(l, r)| format!("{l} = {r}"))
                .collect();
            out.push_str(&format!("  relations   {}\n", rels.join(", ")));
            out.push_str(&format!("  P-portion   {}\n", p_portion.join(", ")));
            let listed: Vec<String> = (elements.iter().enumerate())
                .map(|(i, e)| format!("{}: {e}", *first + i as u64))
                .collect();
            for (i, chunk) in listed.chunks(8).enumerate() {
                let label = if i == 0 { "heaps" } else { "" };
                out.push_str(&format!("  {label:<11} {}\n", chunk.join(", ")));
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that takes no more stops the solve where it breaks: no further row is made
    /// or solved, and the table is not ended. A reader that takes every part gets them all.
    #[test]
    fn a_reader_that_breaks_stops_the_solve() {
        for stop_after in [Some(3), None] {
            let made = std::cell::Cell::new(0);
            let rows = (0..1000u32).map(|n| {
                made.set(made.get() + 1);
                Ok((n.to_string(), Expr::Pos(n)))
            });
            let plan = Plan::Table {
                query: "table grundy of Heap(n) for n in 0..1000".into(),
                var: "n".into(),
                rows: Stream::new(rows),
                asks: vec![Ask::Value(ValueKind::Grundy)],
            };
            let mut parts = Vec::new();
            let mut solver = Solver::new(&crate::solver::tests::Heap);
            let ended = solve_plan(&mut solver, plan, &mut |part| {
                parts.push(part);
                let rows = parts.iter().filter(|p| matches!(p, Part::Row(_))).count();
                match stop_after {
                    Some(last) if rows == last => ControlFlow::Break(()),
                    _ => ControlFlow::Continue(()),
                }
            });
            let rows: Vec<_> = (parts.iter())
                .filter_map(|p| match p {
                    Part::Row(row) => Some(row.clone()),
                    _ => None,
                })
                .collect();
            let want = stop_after.unwrap_or(1000);
            assert_eq!(rows.len(), want);
            for (n, row) in rows.iter().enumerate() {
                assert_eq!(*row, vec![json!(n.to_string()), json!(n)]);
            }
            assert_eq!(made.get(), want);
            let table_ended = matches!(parts.last(), Some(Part::TableEnd));
            match stop_after {
                Some(_) => assert!(matches!(ended, Ok(ControlFlow::Break(()))) && !table_ended),
                None => assert!(matches!(ended, Ok(ControlFlow::Continue(()))) && table_ended),
            }
        }
    }

    /// A live table (a terminal) prints a slow row as it comes; one printed elsewhere waits
    /// for its block, so its text never depends on timing.
    #[test]
    fn only_live_tables_print_slow_rows_early() {
        let columns = ["n".to_string(), "grundy".to_string()];
        for live in [true, false] {
            let (mut table, _) = TextTable::start("table", &columns, live);
            assert_eq!(table.row(&[json!(0), json!(0)]), None);
            std::thread::sleep(TEXT_ROW_WAIT + std::time::Duration::from_millis(10));
            let printed = table.row(&[json!(1), json!(1)]);
            assert_eq!(printed.is_some(), live, "live: {live}");
            let rest = table.finish();
            let text = printed.unwrap_or_default() + &rest;
            assert_eq!(text, "n  grundy\n0       0\n1       1\n", "live: {live}");
        }
    }

    fn table(rows: usize) -> Answer {
        Answer::Table {
            query: "table grundy, outcome of G(n) for n in 0..N".into(),
            columns: vec!["n".into(), "grundy".into(), "outcome".into()],
            rows: (0..rows)
                .map(|i| vec![json!(i.to_string()), json!(i % 7), json!("N")])
                .collect(),
        }
    }

    fn answers() -> Vec<Answer> {
        vec![
            Answer::Value {
                query: "value grundy, moves of G(3)".into(),
                position: "G(3)".into(),
                values: vec![
                    ("grundy".into(), json!(3)),
                    ("moves".into(), json!(["G(0)", "\"quoted\"\nline"])),
                ],
                periodic: None,
            },
            table(3),
            table(0),
            Answer::Grid {
                query: "table outcome of H(a) + H(b) for a in 0..2, b in 0..2".into(),
                vars: ("a".into(), "b".into()),
                row_labels: vec!["0".into(), "1".into()],
                col_labels: vec!["0".into(), "1".into()],
                grids: vec![("outcome".into(), vec![vec![json!("P"), json!("N")]; 2])],
            },
            Answer::Period {
                query: "period grundy of G(n) for n in 0..4".into(),
                value: "grundy".into(),
                terms: 4,
                preperiod: None,
                period: None,
                proven: false,
                sequence: vec![0, 1, 2, 3],
            },
        ]
    }

    /// The parts the driver hands over for `answer`.
    fn parts(answer: &Answer) -> Vec<Part> {
        match answer {
            Answer::Table {
                query,
                columns,
                rows,
            } => std::iter::once(Part::TableStart {
                query: query.clone(),
                columns: columns.clone(),
            })
            .chain(rows.iter().cloned().map(Part::Row))
            .chain([Part::TableEnd])
            .collect(),
            other => vec![Part::Answer(other.clone())],
        }
    }

    fn streamed(answers: &[Answer], pretty: bool) -> String {
        let (mut doc, mut text) = JsonDoc::start("f.cgdl", pretty);
        for part in answers.iter().flat_map(parts) {
            text.push_str(&doc.part(&part));
        }
        text.push_str(&doc.finish());
        text
    }

    /// The streamed JSON document is the document serde writes for the whole answers:
    /// indented exactly as `to_string_pretty`, or compact with one line per query.
    #[test]
    fn streamed_json_is_the_whole_document() {
        #[derive(Serialize)]
        struct Doc<'a> {
            file: &'a str,
            queries: &'a [Answer],
        }
        for answers in [answers(), Vec::new(), vec![table(0)], vec![table(2)]] {
            let whole = Doc {
                file: "f.cgdl",
                queries: &answers,
            };
            let pretty = streamed(&answers, true);
            assert_eq!(
                pretty,
                format!("{}\n", serde_json::to_string_pretty(&whole).unwrap())
            );
            let compact = streamed(&answers, false);
            let parsed: serde_json::Value = serde_json::from_str(&compact).unwrap();
            assert_eq!(parsed, serde_json::to_value(&whole).unwrap());
            let lines: Vec<&str> = compact.lines().collect();
            if answers.is_empty() {
                assert_eq!(lines, [r#"{"file":"f.cgdl","queries":[]}"#]);
            } else {
                assert_eq!(lines.len(), answers.len() + 2, "{compact}");
                for (line, answer) in lines[1..].iter().zip(&answers) {
                    let line = line.strip_suffix(',').unwrap_or(line);
                    let value: serde_json::Value = serde_json::from_str(line).unwrap();
                    assert_eq!(value, serde_json::to_value(answer).unwrap());
                }
            }
        }
    }

    /// A table of at most one block is aligned as a whole; a longer one block by block,
    /// its columns only widening, every row printed once in order.
    #[test]
    fn text_tables_stream_in_blocks() {
        let small = table(20);
        let Answer::Table {
            query,
            columns,
            rows,
        } = &small
        else {
            unreachable!()
        };
        let mut whole = vec![columns.clone()];
        whole.extend(rows.iter().map(|r| r.iter().map(cell_text).collect()));
        assert_eq!(render_text(&small), format!("{query}\n{}", align(&whole)));

        let big = TEXT_BLOCK_ROWS * 2 + 5;
        let text = render_text(&table(big));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), big + 2);
        assert_eq!(lines[1], "    n  grundy  outcome");
        // The first block's labels are at most 5 digits wide; the last ones have 6.
        assert_eq!(lines[2], "    0       0        N");
        assert_eq!(
            lines[big + 1].split_whitespace().next(),
            Some(&*(big - 1).to_string())
        );
        let width = |l: &str| l.len();
        assert!(width(lines[3]) <= width(lines[big + 1]));
        for (i, line) in lines[2..].iter().enumerate() {
            assert_eq!(line.split_whitespace().next(), Some(&*i.to_string()));
        }
    }
}
