//! Turns checked queries into the runtime's query plans by evaluating their targets.

use crate::ast::QueryKind;
use crate::interp::{EvalError, Interpreter};
use crate::ir::{IQuery, Val};
use cgdl_runtime::report::{Ask, HeapTerms, Plan};
use cgdl_runtime::{Expr, ValueKind};

fn game(v: Val) -> Result<Expr<u32>, EvalError> {
    match v {
        Val::Game(g) => Ok((*g).clone()),
        other => Err(EvalError {
            message: format!("{other} is not a position"),
            span: None,
        }),
    }
}

use cgdl_runtime::native::QueryShape;
use cgdl_runtime::report::Stream;

/// The number of elements of a query's domain and the elements, lazily for a range.
fn elements(v: Val) -> Result<(u64, Box<dyn Iterator<Item = Val>>), EvalError> {
    Ok(match v {
        Val::Range(lo, hi) => {
            let range = cgdl_runtime::native::Range::inclusive(lo, hi);
            (range.len(), Box::new(range.iter().map(Val::Int)))
        }
        Val::Set(s) => {
            let items: Vec<Val> = s.iter().cloned().collect();
            (items.len() as u64, Box::new(items.into_iter()))
        }
        Val::List(l) => (l.len() as u64, Box::new((*l).clone().into_iter())),
        other => return Err(EvalError::plain(format!("{other} is not a domain"))),
    })
}

/// The elements of a grid's side, refusing more than the limit.
fn side(v: Val) -> Result<Vec<Val>, EvalError> {
    let (len, items) = elements(v)?;
    QueryShape::GridSide.check(len).map_err(EvalError::plain)?;
    Ok(items.collect())
}

/// A query's stream: for each element of `dom`, its label and the position of `q`'s
/// target with the element bound, evaluated as the driver asks for them.
fn stream<'a, T: 'a>(
    interp: &'a Interpreter<'_>,
    q: &'a IQuery,
    dom: Val,
    shape: QueryShape,
    label: fn(&Val) -> T,
) -> Result<Stream<'a, (T, Expr<u32>)>, EvalError> {
    let (len, items) = elements(dom)?;
    shape.check(len).map_err(EvalError::plain)?;
    let mut env = vec![Val::Int(0); q.locals.len()];
    let rows = items.map(move |v| {
        let shown = label(&v);
        env[0] = v;
        interp
            .eval(&q.target, &mut env)
            .and_then(game)
            .map(|pos| (shown, pos))
            .map_err(|e| interp.error_text(&e))
    });
    Ok(Stream::new(rows))
}

/// Builds the plan of one query.
pub fn plan<'a>(interp: &'a Interpreter<'_>, q: &'a IQuery) -> Result<Plan<'a, u32>, EvalError> {
    let asks: Vec<Ask> = q.values.iter().filter_map(|v| Ask::parse(v)).collect();
    let mut env = vec![Val::Int(0); q.locals.len()];
    let query = q.text.clone();
    match q.kind {
        QueryKind::Value => Ok(Plan::Value {
            query,
            target: game(interp.eval(&q.target, &mut env)?)?,
            asks,
        }),
        QueryKind::Table if q.binders.len() == 1 => {
            let (var, dom) = &q.binders[0];
            let dom = interp.eval(dom, &mut env)?;
            let rows = stream(interp, q, dom, QueryShape::Rows, Val::to_string)?;
            Ok(Plan::Table {
                query,
                var: var.name.to_string(),
                rows,
                asks,
            })
        }
        QueryKind::Table => {
            let (rv, rdom) = &q.binders[0];
            let (cv, cdom) = &q.binders[1];
            let rows = side(interp.eval(rdom, &mut env)?)?;
            // A column domain that reads the row's name is evaluated for each row.
            let ragged = cdom.reads_any(std::slice::from_ref(rv));
            let (cols, row_columns) = if ragged {
                let mut each = Vec::with_capacity(rows.len());
                for r in &rows {
                    env[0] = r.clone();
                    let mut cols = side(interp.eval(cdom, &mut env)?)?;
                    for c in &mut cols {
                        *c = std::mem::replace(c, Val::Int(0)).normalize();
                    }
                    each.push(cols);
                }
                let (cols, columns) =
                    cgdl_runtime::native::ragged_columns(&each).map_err(EvalError::plain)?;
                (cols, Some(columns))
            } else {
                let cols = match rows.first() {
                    Some(_) => side(interp.eval(cdom, &mut env)?)?,
                    None => Vec::new(),
                };
                cgdl_runtime::native::check_grid(rows.len(), cols.len())
                    .map_err(EvalError::plain)?;
                (cols, None)
            };
            let mut cells = Vec::new();
            for (i, r) in rows.iter().enumerate() {
                env[0] = r.clone();
                let mut row = Vec::new();
                let all: Vec<usize>;
                let columns = match &row_columns {
                    Some(columns) => &columns[i],
                    None => {
                        all = (0..cols.len()).collect();
                        &all
                    }
                };
                for &c in columns {
                    env[1] = cols[c].clone();
                    row.push(game(interp.eval(&q.target, &mut env)?)?);
                }
                cells.push(row);
            }
            Ok(Plan::Grid {
                query,
                vars: (rv.name.to_string(), cv.name.to_string()),
                row_labels: rows.iter().map(Val::to_string).collect(),
                col_labels: cols.iter().map(Val::to_string).collect(),
                cells,
                row_columns,
                asks,
            })
        }
        QueryKind::Quotient => {
            let (_, dom) = &q.binders[0];
            let dom = interp.eval(dom, &mut env)?;
            let digits = (q.heap_terms(interp.program()))
                .map(|(_, digits)| digits)
                .unwrap_or_default();
            let (first, last) = match dom {
                Val::Range(first, last) if first <= last => (first, last),
                _ => (1, 0),
            };
            Ok(Plan::Quotient {
                query,
                digits,
                first: first.max(0) as u64,
                last: last.max(0) as u64,
            })
        }
        QueryKind::Period => {
            let (_, dom) = &q.binders[0];
            let dom = interp.eval(dom, &mut env)?;
            let label = |v: &Val| match v {
                Val::Int(n) => *n,
                _ => 0,
            };
            let heaps = match (q.heap_terms(interp.program()), &dom) {
                (Some((game, digits)), &Val::Range(first, last)) if first <= last => {
                    Some(HeapTerms {
                        game,
                        digits,
                        first,
                        last,
                    })
                }
                _ => None,
            };
            let terms = stream(interp, q, dom, QueryShape::Terms, label)?;
            let kind = q
                .values
                .first()
                .and_then(|v| ValueKind::from_name(v))
                .unwrap_or(ValueKind::Grundy);
            Ok(Plan::Period {
                query,
                kind,
                terms,
                bound: q.period_bound(interp.program()),
                heaps,
            })
        }
    }
}
