//! A game's moves where its end probe has said no move is to `end` (`Game::open_moves`):
//! each result whose `if` has `end` on one side is the other side (its test is known to
//! choose that one), so the tests that decide between `end` and another result are left
//! out. An analysis, after the sharing pass (so the open moves share what the moves share).
//! The runtime asks a game's open options (`Rules::options_open`) only of a position whose
//! probe said `false`: there every such test chooses the other side, and — nothing in a
//! game with a probe can fail (`opt/probe.rs`) — leaving it out changes no option.

use crate::ir::*;

/// Runs the pass: each game with an end probe gets its open moves.
pub fn run(program: &mut Program, _source: &str) {
    for game in &mut program.games {
        let (Some(_), GameKind::Rules(moves)) = (&game.end_probe, &game.kind) else {
            continue;
        };
        let open = (moves.iter())
            .map(|m| Move {
                result: without_end(&m.result),
                ..m.clone()
            })
            .collect();
        game.open_moves = Some(open);
    }
}

/// A move's result where no move of the position is to `end`: each `if` one of whose
/// branches is `end` is the other branch (its test is known to choose that one).
fn without_end(result: &IExpr) -> IExpr {
    match result.kind() {
        IExprKind::If {
            cond,
            then,
            otherwise,
        } => match (without_end(then), without_end(otherwise)) {
            (end, rest) | (rest, end) if matches!(end.kind(), IExprKind::End) => rest,
            (then, otherwise) => IExpr::from(IExprKind::If {
                cond: cond.clone(),
                then: Box::new(then),
                otherwise: Box::new(otherwise),
            }),
        },
        IExprKind::Let { var, value, body } => IExpr::from(IExprKind::Let {
            var: var.clone(),
            value: value.clone(),
            body: Box::new(without_end(body)),
        }),
        _ => result.clone(),
    }
}
