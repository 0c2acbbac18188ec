//! A move's result that is a sum of positions, under `if`s and `let`s: `a + b` of two
//! positions, or `sum(G(..) for ...)` of positions, becomes an [`IExprKind::Leaves`], whose terms
//! the options take as they are (native code adds each position to the option's sum, with
//! no `Expr` built). Its value is the sum, as written. After every pass that rewrites
//! moves; no later pass reads the node.

use crate::ir::*;
use cgdl_runtime::Compound;

/// Runs the pass on the results of every move and open move of `program`.
pub fn run(program: &mut Program, _source: &str) {
    for game in &mut program.games {
        let moves = match &mut game.kind {
            GameKind::Rules(moves) => Some(moves),
            _ => None,
        };
        for m in moves.into_iter().chain(game.open_moves.as_mut()).flatten() {
            result(&mut m.result);
        }
    }
}

/// Lowers the sums of positions of result `e`, through its `if`s and `let`s.
fn result(e: &mut IExpr) {
    match e.kind_mut() {
        IExprKind::If {
            then, otherwise, ..
        } => {
            result(then);
            result(otherwise);
        }
        IExprKind::Let { body, .. } => result(body),
        _ => {
            if let Some(leaves) = leaves(e) {
                *e = IExpr::from(IExprKind::Leaves(Box::new(leaves)));
            }
        }
    }
}

/// `e` as a sum of positions, when it is one.
fn leaves(e: &mut IExpr) -> Option<Leaves> {
    let position = |e: &IExpr| matches!(e.kind(), IExprKind::Pos { .. });
    let span = e.span();
    let whole = std::mem::replace(e, IExpr::from(IExprKind::End));
    let taken = whole.take_apart(|kind| match kind {
        IExprKind::Bin {
            op: Op::GameSum,
            lhs,
            rhs,
        } if position(&lhs) && position(&rhs) => Ok(Leaves::Pair {
            a: *lhs,
            b: *rhs,
            span,
        }),
        IExprKind::CompoundOf {
            kind: Compound::Sum,
            elem,
            clauses,
        } if position(&elem) => Ok(Leaves::Each {
            elem: *elem,
            clauses,
        }),
        other => Err(other),
    });
    taken.map_err(|whole| *e = whole).ok()
}
