//! Declared symmetries that permute a game's fields, proven from its moves: `symmetry ab =>
//! H(b, a, c)` of a game of three heaps `H(a, b, c)` is a symmetry when its moves, with the
//! fields renamed by the map, are its moves with the map applied to their results.
//!
//! **Why that proves it.** Let the map be `σ(p)_i = p_π(i)` (the declared image is
//! `G(f_π(0), f_π(1), ...)`, each field once, the fields it moves of one type). A move `m`
//! evaluated at `σ(p)` is `m` with each field `f_i` read as `f_π(i)`, evaluated at `p`.
//! Where that is, name for name, a move `m'` whose every position of the game `G(x)` in its
//! result is made `σ(G(x))`, the options of `σ(p)` by `m` are the images under `σ` of the
//! options of `p` by `m'`. With the moves so paired one to one (each player's with his
//! own), the options of `σ(p)` are the images of the options of `p`, and by induction every
//! position has its image's values (a sum's value is its parts', each mapped alike).
//!
//! **How it is compared.** Each move is one expression, a comprehension of its result over
//! its clauses, whose own names are renamed in order and spans forgotten
//! ([`crate::ir::Shape`]); runs of conditions that cannot fail are compared as sets
//! (`k <= a, k <= b` against `k <= b, k <= a`: their order changes no value and no error).
//! The moves must then be equal. Made only for games without set fields (whose symmetries
//! the symmetry pass finds and proves itself).

use crate::ir::Shape;
use crate::ir::*;

/// Where game `gid` has no set field and rules of moves: whether `sym`, one of its declared
/// maps, permutes its fields and its moves permute alike (how it was proven), or why not.
/// `None` for other games.
pub fn prove(program: &Program, gid: usize, sym: &Symmetry) -> Option<Result<String, String>> {
    let game = &program.games[gid];
    let GameKind::Rules(moves) = &game.kind else {
        return None;
    };
    if game.fields.iter().any(|f| matches!(f.ty, FieldTy::Set(_))) {
        return None;
    }
    let Some(pi) = game.field_permutation(gid, &sym.result) else {
        return Some(Err(
            "its image is not the game's fields in another order (each of the type of the \
             field whose place it takes)"
                .to_string(),
        ));
    };
    if pi.iter().enumerate().all(|(i, &j)| i == j) {
        return Some(Ok("it is the identity".to_string()));
    }
    let renamed: Vec<(crate::ast::MoveSide, IExpr)> = (moves.iter())
        .map(|m| (m.side, canonical(&rename_fields(game, m, &pi))))
        .collect();
    let mapped: Vec<(crate::ast::MoveSide, IExpr)> = (moves.iter())
        .map(|m| (m.side, canonical(&map_results(m, gid, &pi))))
        .collect();
    let mut used = vec![false; mapped.len()];
    for ((side, m), written) in renamed.iter().zip(moves) {
        let Some(j) =
            (0..mapped.len()).find(|&j| !used[j] && mapped[j].0 == *side && mapped[j].1 == *m)
        else {
            return Some(Err(format!(
                "move `{}` with the fields permuted is none of the moves with the map applied \
                 to its results",
                written.name
            )));
        };
        used[j] = true;
    }
    Some(Ok(
        "its moves are permuted as it permutes the fields".to_string()
    ))
}

/// The field in slot `i` of `game`, as a name.
fn field(game: &Game, i: usize) -> Option<Var> {
    let (name, ty) = game.locals.get(VarId::new(i))?;
    Some(Var {
        slot: VarId::new(i),
        name: name.clone(),
        ty: ty.clone(),
    })
}

/// Move `m` with each field `f_i` read as `f_π(i)`.
fn rename_fields(game: &Game, m: &Move, pi: &[usize]) -> Move {
    let mut m = m.clone();
    m.for_each_expr_mut(&mut |e| {
        e.for_each_node_mut(&mut |e| {
            let read = match e.kind() {
                IExprKind::Var(v) if v.slot.index() < pi.len() => Some(v.slot.index()),
                _ => None,
            };
            if let Some(f) = read.and_then(|i| field(game, pi[i])) {
                *e = IExpr::from(IExprKind::Var(f)).at(e.span());
            }
        })
    });
    m
}

/// Move `m` with each position of game `gid` in its result, `G(x)`, made `G(x_π(0), ...)`.
fn map_results(m: &Move, gid: usize, pi: &[usize]) -> Move {
    let mut m = m.clone();
    m.result.for_each_node_mut(&mut |e| {
        if let IExprKind::Pos { game, args, .. } = e.kind_mut() {
            if *game == gid && args.len() == pi.len() {
                let permuted: Vec<IExpr> = pi.iter().map(|&j| args[j].clone()).collect();
                *args = permuted;
            }
        }
    });
    m
}

/// Move `m` as one expression with its own names renamed and its spans forgotten, each run
/// of conditions that cannot fail in a fixed order.
fn canonical(m: &Move) -> IExpr {
    let whole = IExpr::from(IExprKind::Compr {
        elem: Box::new(m.result.clone()),
        clauses: m.clauses.clone(),
    });
    let mut e = Shape::of(&whole).expr().clone();
    if let IExprKind::Compr { clauses, .. } = e.kind_mut() {
        let sure = |c: &IClause| match c {
            IClause::Cond(x) => !x.props().fallible && x.props().calls.is_empty(),
            _ => false,
        };
        let mut i = 0;
        while i < clauses.len() {
            let run = (i..clauses.len())
                .take_while(|&j| sure(&clauses[j]))
                .count();
            clauses[i..i + run].sort_by_cached_key(|c| format!("{:?}", c.expr()));
            i += run.max(1);
        }
    }
    e
}
