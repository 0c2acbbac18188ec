//! Turns checked queries into the runtime's query plans by evaluating their targets.

use crate::ast::QueryKind;
use crate::interp::{EvalError, Interpreter};
use crate::ir::{IExpr, IQuery, Val};
use cgdl_runtime::report::{Ask, Plan};
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

fn elements(v: Val, shape: QueryShape) -> Result<Vec<Val>, EvalError> {
    let size = match &v {
        Val::Range(lo, hi) => cgdl_runtime::native::Range::inclusive(*lo, *hi).len(),
        Val::Set(s) => s.len() as u64,
        Val::List(l) => l.len() as u64,
        _ => 0,
    };
    shape.check(size).map_err(EvalError::plain)?;
    Ok(match v {
        Val::Range(lo, hi) => (lo..=hi).map(Val::Int).collect(),
        Val::Set(s) => s.iter().cloned().collect(),
        Val::List(l) => (*l).clone(),
        other => return Err(EvalError::plain(format!("{other} is not a domain"))),
    })
}

/// The largest removal of a take-and-break target `G(n)`, for the Guy–Smith proof.
fn max_removal(interp: &Interpreter, target: &IExpr) -> Option<usize> {
    match target {
        IExpr::Pos(gid, args, _) if matches!(args.as_slice(), [IExpr::Slot(0)]) => {
            interp.program().max_removal(*gid)
        }
        _ => None,
    }
}

/// Builds the plan of one query.
pub fn plan(interp: &Interpreter, q: &IQuery) -> Result<Plan<u32>, EvalError> {
    let asks: Vec<Ask> = q.values.iter().filter_map(|v| Ask::parse(v)).collect();
    let mut env = vec![Val::Int(0); q.frame.max(q.binders.len())];
    let query = q.text.clone();
    match q.kind {
        QueryKind::Value => Ok(Plan::Value {
            query,
            target: game(interp.eval(&q.target, &mut env)?)?,
            asks,
        }),
        QueryKind::Table if q.binders.len() == 1 => {
            let (var, dom) = &q.binders[0];
            let mut rows = Vec::new();
            for v in elements(interp.eval(dom, &mut env)?, QueryShape::Rows)? {
                env[0] = v.clone();
                rows.push((v.to_string(), game(interp.eval(&q.target, &mut env)?)?));
            }
            Ok(Plan::Table {
                query,
                var: var.clone(),
                rows,
                asks,
            })
        }
        QueryKind::Table => {
            let (rv, rdom) = &q.binders[0];
            let (cv, cdom) = &q.binders[1];
            let rows = elements(interp.eval(rdom, &mut env)?, QueryShape::GridSide)?;
            // The columns are evaluated with the first row bound; without rows, there are none.
            let cols = match rows.first() {
                Some(first) => {
                    env[0] = first.clone();
                    elements(interp.eval(cdom, &mut env)?, QueryShape::GridSide)?
                }
                None => Vec::new(),
            };
            cgdl_runtime::native::check_grid(rows.len(), cols.len()).map_err(EvalError::plain)?;
            let mut cells = Vec::new();
            for r in &rows {
                env[0] = r.clone();
                let mut row = Vec::new();
                for c in &cols {
                    env[1] = c.clone();
                    row.push(game(interp.eval(&q.target, &mut env)?)?);
                }
                cells.push(row);
            }
            Ok(Plan::Grid {
                query,
                vars: (rv.clone(), cv.clone()),
                row_labels: rows.iter().map(Val::to_string).collect(),
                col_labels: cols.iter().map(Val::to_string).collect(),
                cells,
                asks,
            })
        }
        QueryKind::Period => {
            let (_, dom) = &q.binders[0];
            let ns = elements(interp.eval(dom, &mut env)?, QueryShape::Terms)?;
            let first = match ns.first() {
                Some(Val::Int(n)) => *n,
                _ => 0,
            };
            let mut terms = Vec::new();
            for (i, n) in ns.iter().enumerate() {
                if *n != Val::Int(first + i as i64) {
                    return Err(EvalError {
                        message: "a period query needs a range of consecutive numbers".into(),
                        span: Some(q.span),
                    });
                }
                env[0] = n.clone();
                terms.push(game(interp.eval(&q.target, &mut env)?)?);
            }
            let kind = q
                .values
                .first()
                .and_then(|v| ValueKind::from_name(v))
                .unwrap_or(ValueKind::Grundy);
            Ok(Plan::Period {
                query,
                kind,
                first,
                terms,
                max_removal: max_removal(interp, &q.target),
            })
        }
    }
}
