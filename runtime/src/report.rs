//! The query driver: plans of what to solve (built by the interpreter or generated code),
//! run against a solver, and rendered as aligned text or JSON.

use crate::expr::Expr;
use crate::period::find_period;
use crate::rules::Rules;
use crate::solver::{SolveError, Solver};
use crate::value::{Value, ValueKind, WNumber};
use serde::Serialize;
use serde_json::json;

/// One thing a query asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// A value.
    Value(ValueKind),
    /// The winning moves.
    Moves,
}

impl Ask {
    /// Parses a value name (`grundy`, `moves`, ...).
    pub fn parse(name: &str) -> Option<Ask> {
        if name == "moves" {
            return Some(Ask::Moves);
        }
        ValueKind::from_name(name).map(Ask::Value)
    }

    /// The name as written.
    pub fn name(self) -> &'static str {
        match self {
            Ask::Value(k) => k.name(),
            Ask::Moves => "moves",
        }
    }
}

/// What to solve for one query.
#[derive(Clone, Debug)]
pub enum Plan<P> {
    /// `value asks of target`
    Value {
        /// The query as written.
        query: String,
        /// The position expression.
        target: Expr<P>,
        /// The values asked for.
        asks: Vec<Ask>,
    },
    /// A table with one free name: one row per value of `var`.
    Table {
        /// The query as written.
        query: String,
        /// The free name.
        var: String,
        /// Each row's value of `var` and position expression.
        rows: Vec<(String, Expr<P>)>,
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
        /// `cells[r][c]`.
        cells: Vec<Vec<Expr<P>>>,
        /// The values asked for (one grid each).
        asks: Vec<Ask>,
    },
    /// The period of a value along a sequence of positions.
    Period {
        /// The query as written.
        query: String,
        /// The value.
        kind: ValueKind,
        /// The first index of the sequence.
        first: i64,
        /// The positions, in order.
        terms: Vec<Expr<P>>,
        /// The largest removal (Guy–Smith), when known.
        max_removal: Option<usize>,
    },
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
        /// One grid per value: `[name, cells]`.
        grids: Vec<(String, Vec<Vec<serde_json::Value>>)>,
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

/// A value as JSON: numbers as numbers, P/N/SL/SW as strings.
pub fn value_json(v: Value) -> serde_json::Value {
    match v {
        Value::Number(n) | Value::W(WNumber::Num(n)) => json!(n),
        other => json!(other.to_string()),
    }
}

fn answer_one<R: Rules>(
    solver: &mut Solver<'_, R>,
    ask: Ask,
    target: &Expr<R::Pos>,
) -> Result<serde_json::Value, SolveError> {
    Ok(match ask {
        Ask::Value(kind) => value_json(solver.value(kind, target)?),
        Ask::Moves => {
            let moves = solver.winning_moves(target)?;
            json!(moves
                .iter()
                .map(|m| solver.display_sorted(m))
                .collect::<Vec<_>>())
        }
    })
}

/// Solves a plan.
pub fn run_plan<R: Rules>(
    solver: &mut Solver<'_, R>,
    plan: &Plan<R::Pos>,
) -> Result<Answer, SolveError> {
    Ok(match plan {
        Plan::Value {
            query,
            target,
            asks,
        } => {
            let mut values = Vec::new();
            for &a in asks {
                values.push((a.name().to_string(), answer_one(solver, a, target)?));
            }
            Answer::Value {
                query: query.clone(),
                position: solver.display(target),
                values,
            }
        }
        Plan::Table {
            query,
            var,
            rows,
            asks,
        } => {
            let mut out = Vec::new();
            for (label, target) in rows {
                let mut row = vec![json!(label)];
                for &a in asks {
                    row.push(answer_one(solver, a, target)?);
                }
                out.push(row);
            }
            let mut columns = vec![var.clone()];
            columns.extend(asks.iter().map(|a| a.name().to_string()));
            Answer::Table {
                query: query.clone(),
                columns,
                rows: out,
            }
        }
        Plan::Grid {
            query,
            vars,
            row_labels,
            col_labels,
            cells,
            asks,
        } => {
            let mut grids = Vec::new();
            for &a in asks {
                let mut grid = Vec::new();
                for row in cells {
                    let mut out = Vec::new();
                    for target in row {
                        out.push(answer_one(solver, a, target)?);
                    }
                    grid.push(out);
                }
                grids.push((a.name().to_string(), grid));
            }
            Answer::Grid {
                query: query.clone(),
                vars: vars.clone(),
                row_labels: row_labels.clone(),
                col_labels: col_labels.clone(),
                grids,
            }
        }
        Plan::Period {
            query,
            kind,
            first,
            terms,
            max_removal,
        } => {
            let mut sequence = Vec::with_capacity(terms.len());
            for t in terms {
                match solver.value(*kind, t)? {
                    Value::Number(n) => sequence.push(n),
                    other => sequence.push(match other {
                        Value::W(WNumber::Num(n)) => n,
                        _ => 0,
                    }),
                }
            }
            let found = find_period(&sequence, *max_removal);
            Answer::Period {
                query: query.clone(),
                value: kind.name().to_string(),
                terms: sequence.len(),
                preperiod: found.map(|p| first + p.preperiod as i64),
                period: found.map(|p| p.period),
                proven: found.is_some_and(|p| p.proven),
                sequence,
            }
        }
    })
}

/// How one answered value prints: `P`, `3`, `SL`, moves joined by `; ` (`none` if empty).
pub fn cell_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(items) if items.is_empty() => "none".to_string(),
        serde_json::Value::Array(items) => {
            items.iter().map(cell_text).collect::<Vec<_>>().join("; ")
        }
        other => other.to_string(),
    }
}

/// Right-aligns `rows` into columns separated by two spaces.
fn align(rows: &[Vec<String>]) -> String {
    let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..width)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(c, s)| format!("{s:>w$}", w = widths[c]))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// Renders an answer as text.
pub fn render_text(answer: &Answer) -> String {
    match answer {
        Answer::Value { query, values, .. } => {
            let mut out = format!("{query}\n");
            let w = values.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
            for (name, v) in values {
                out.push_str(&format!("  {name:<w$}  {}\n", cell_text(v)));
            }
            out
        }
        Answer::Table {
            query,
            columns,
            rows,
        } => {
            let mut table = vec![columns.clone()];
            table.extend(rows.iter().map(|r| r.iter().map(cell_text).collect()));
            format!("{query}\n{}", align(&table))
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
    }
}
