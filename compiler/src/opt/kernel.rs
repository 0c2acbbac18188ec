//! A game's moves as a bottom-up Grundy kernel reads them ([`Game::kernel_moves`]): where
//! the game is impartial and every move's result is, under `if`s and `let`s, `end`, a
//! position of the game itself or a sum of two, each leaf is lowered to what the kernel
//! does with it ([`KernelResult`]): mark 0, or the value of an earlier position, or the
//! two values' nim sum. Native code fills a table of the values in index order where the
//! game's positions index densely; the kernel declines (and the solver searches as the
//! rules say) at any option that is not an earlier position. An analysis: it rewrites no
//! move. After every pass that rewrites moves (it copies their final form).

use crate::ir::*;

/// Runs the pass: each impartial game of move rules in kernel form gets its kernel moves.
pub fn run(program: &mut Program, _source: &str) {
    for (gid, game) in program.games.iter_mut().enumerate() {
        let GameKind::Rules(moves) = &game.kind else {
            continue;
        };
        if game.partizan || moves.is_empty() {
            continue;
        }
        game.kernel_moves = (moves.iter())
            .map(|m| {
                Some(KernelMove {
                    clauses: m.clauses.clone(),
                    result: result(gid, &m.result)?,
                })
            })
            .collect();
    }
}

/// `e` as a kernel result of game `gid`, when it is one.
fn result(gid: usize, e: &IExpr) -> Option<KernelResult> {
    let position = |e: &IExpr| match e.kind() {
        IExprKind::Pos { game, args, .. } if *game == gid => Some(args.clone()),
        _ => None,
    };
    Some(match e.kind() {
        IExprKind::End => KernelResult::End,
        IExprKind::Pos { .. } => KernelResult::Position(position(e)?),
        IExprKind::Bin {
            op: Op::GameSum,
            lhs,
            rhs,
            ..
        } => KernelResult::Sum(position(lhs)?, position(rhs)?),
        IExprKind::If {
            cond,
            then,
            otherwise,
        } => KernelResult::If {
            cond: (**cond).clone(),
            then: Box::new(result(gid, then)?),
            otherwise: Box::new(result(gid, otherwise)?),
        },
        IExprKind::Let { var, value, body } => KernelResult::Let {
            var: var.clone(),
            value: (**value).clone(),
            body: Box::new(result(gid, body)?),
        },
        _ => return None,
    })
}
