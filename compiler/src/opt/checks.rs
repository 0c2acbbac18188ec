//! Checks that surely pass, proven once for both back ends: in a move (its clauses and its
//! result), an end probe and a function's body, a call whose arguments surely lie in its
//! function's complete table (every argument of the box has a value:
//! [`FnTable::complete`]) is marked `in_table`, and a position whose values surely lie in
//! its fields' types is marked `fits`. Native code then reads the table and packs the
//! position without checking; the interpreter checks anyway, and a check that fails where
//! the proof said it could not is an internal error, never a value.
//!
//! What is known of each name comes from [`Knowledge`]: the fields' types, and a finite type
//! holding the values of each binder (over its domain) and `let` (its value) around the
//! expression, where one is found. Names bound by closures, `match` arms and the nodes
//! earlier passes made are not known (a name is never bound where another of its name is
//! visible, so a name in the scope is the one read). A function's body knows its
//! parameters' types (each argument is checked on entry). Kernels, symmetries and queries
//! keep their checks. An analysis in effect: it sets the two marks and rewrites nothing.

use crate::ir::*;
use crate::opt::knowledge::{field_scope, Knowledge, Scope};

/// Runs the pass over every game's moves, open moves and end probe, and every function's
/// body.
pub fn run(program: &mut Program, source: &str) {
    // Proven on copies while the knowledge reads the program, then put in place.
    let (proven, bodies): (Vec<Proven>, Vec<IExpr>) = {
        let knowledge = Knowledge::new(program, source);
        let prover = Prover {
            knowledge: &knowledge,
            program,
        };
        let games = program.games.iter().map(|g| prover.game(g)).collect();
        // A body sees its parameters' types: both back ends check each argument on entry.
        let bodies = (program.fns.iter())
            .map(|f| {
                let scope = (f.params.iter())
                    .map(|(p, t)| (p.clone(), t.clone()))
                    .collect();
                let mut body = f.body.clone();
                prover.walk(&mut body, &scope);
                body
            })
            .collect();
        (games, bodies)
    };
    for (f, body) in program.fns.iter_mut().zip(bodies) {
        f.body = body;
    }
    for (game, proven) in program.games.iter_mut().zip(proven) {
        if let GameKind::Rules(moves) = &mut game.kind {
            for (m, marked) in moves.iter_mut().zip(proven.moves) {
                (m.clauses, m.result) = marked;
            }
        }
        if let Some(open) = &mut game.open_moves {
            for (m, marked) in open.iter_mut().zip(proven.open_moves) {
                (m.clauses, m.result) = marked;
            }
        }
        if let Some(probe) = proven.probe {
            game.end_probe = Some(probe);
        }
    }
}

/// A game's moves' and open moves' clauses and results, and its end probe, marked.
struct Proven {
    moves: Vec<(Vec<IClause>, IExpr)>,
    open_moves: Vec<(Vec<IClause>, IExpr)>,
    probe: Option<IExpr>,
}

struct Prover<'k, 'p> {
    knowledge: &'k Knowledge<'p>,
    program: &'p Program,
}

impl Prover<'_, '_> {
    fn game(&self, game: &Game) -> Proven {
        let moves = match &game.kind {
            GameKind::Rules(moves) => moves.as_slice(),
            _ => &[],
        };
        let fields = field_scope(game);
        // Each clause sees the names the ones before it bind, and the result all of them.
        // An open move's result stands where its move's does (native code runs it inside
        // the move's clauses): it sees what that one sees.
        let marked = |m: &Move, result_scope: Option<&Scope>| {
            let mut clauses = m.clauses.clone();
            let scope = self.clauses(&mut clauses, &fields);
            let mut result = m.result.clone();
            self.walk(&mut result, result_scope.unwrap_or(&scope));
            ((clauses, result), scope)
        };
        let (moves, scopes): (Vec<_>, Vec<Scope>) = moves.iter().map(|m| marked(m, None)).unzip();
        let open_moves = (game.open_moves.iter().flatten())
            .zip(&scopes)
            .map(|(open, scope)| marked(open, Some(scope)).0)
            .collect();
        let probe = game.end_probe.as_ref().map(|cond| {
            let mut cond = cond.clone();
            self.walk(&mut cond, &fields);
            cond
        });
        Proven {
            moves,
            open_moves,
            probe,
        }
    }

    /// Marks the calls and positions of `e` that surely pass their checks, the names of
    /// `scope` known.
    fn walk(&self, e: &mut IExpr, scope: &Scope) {
        let knowledge = self.knowledge;
        match e.kind_mut() {
            IExprKind::Call {
                func,
                args,
                in_table,
                ..
            } => {
                args.iter_mut().for_each(|a| self.walk(a, scope));
                let f = &self.program.fns[*func];
                *in_table = f.table.as_ref().is_some_and(|t| {
                    t.complete(&f.ret)
                        && (args.iter().zip(&t.types))
                            .all(|(a, ty)| knowledge.values_within(a, ty, scope))
                });
            }
            IExprKind::Pos { game, args, fits } => {
                args.iter_mut().for_each(|a| self.walk(a, scope));
                *fits = knowledge.position_fits(*game, args, scope);
            }
            IExprKind::Let { var, value, body } => {
                self.walk(value, scope);
                self.walk(body, &knowledge.with_let(var, value, scope));
            }
            IExprKind::Quant {
                vars, domain, body, ..
            } => {
                self.walk(domain, scope);
                self.walk(body, &knowledge.with_binder(vars, domain, scope));
            }
            IExprKind::Compr { elem, clauses } | IExprKind::CompoundOf { elem, clauses, .. } => {
                let inner = self.clauses(clauses, scope);
                self.walk(elem, &inner);
            }
            IExprKind::Extreme(x) => {
                let inner = self.clauses(&mut x.clauses, scope);
                self.walk(&mut x.elem, &inner);
            }
            IExprKind::Leaves(leaves) => match &mut **leaves {
                Leaves::Each { elem, clauses } => {
                    let inner = self.clauses(clauses, scope);
                    self.walk(elem, &inner);
                }
                Leaves::Pair { a, b, .. } => {
                    self.walk(a, scope);
                    self.walk(b, scope);
                }
            },
            // `components`: the name ranges over the elements of the set divided.
            IExprKind::Closure {
                kind: crate::ast::ClosureKind::Components,
                seed,
                var,
                next,
            } => {
                self.walk(seed, scope);
                let inner = knowledge.with_binder(std::slice::from_ref(var), seed, scope);
                self.walk(next, &inner);
            }
            IExprKind::Parts(op) => self.walk(&mut op.written, scope),
            _ => e.for_each_child_mut(&mut |c| self.walk(c, scope)),
        }
    }

    /// Marks `clauses` in order, each seeing the names the ones before it bind; the scope
    /// after them all.
    fn clauses(&self, clauses: &mut [IClause], scope: &Scope) -> Scope {
        let mut scope = scope.clone();
        for clause in clauses {
            match clause {
                IClause::Cond(c) => self.walk(c, &scope),
                IClause::Bind(vars, domain) => {
                    self.walk(domain, &scope);
                    scope = self.knowledge.with_binder(vars, domain, &scope);
                }
                IClause::Let(var, value) => {
                    self.walk(value, &scope);
                    scope = self.knowledge.with_let(var, value, &scope);
                }
            }
        }
        scope
    }
}
