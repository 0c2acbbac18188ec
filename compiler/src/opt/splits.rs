//! Sums the rules do not name: a game on a set whose every move looks at a few of its
//! elements and takes some of them away is the sum of the set's parts.
//!
//! Cram written as a newcomer writes it,
//!
//! ```text
//! game Cram(empty: set<Cell>) {
//!     move across((r, c) in empty, (r, c + 1) in empty) => Cram(empty - {(r, c), (r, c + 1)})
//!     move down((r, c) in empty, (r + 1, c) in empty) => Cram(empty - {(r, c), (r + 1, c)})
//! }
//! ```
//!
//! has the values of the same game whose moves' results are `sum(Cram(part) for part in
//! components(rest, x => neighbours(x)))`, and the second is solved part by part. This pass
//! finds that from the rules, and rewrites the results so.
//!
//! **When it holds.** A game `G` has one field `s`, a set of a finite type `T`, and every
//! result of every move is `G(s - E1 - E2 ...)`, each `Ei` a set that does not read `s`
//! (under `let`s: a name bound to the set less some elements, `let rest = s - {a} in
//! G(rest - {b})`, stands for it where the result uses it so, and nowhere else). A
//! move reads `s` only where it binds an element of it (`x in s` as a binder) or tests one
//! (`e in s` as a condition, or a conjunct of one); every other binder's domain, condition
//! and `let` does not read `s`. Such a move, with its names chosen (an *instance*), is a move
//! of the position `s` exactly when its *footprint* `F`, the elements it binds from `s` or
//! tests, all lie in `s` (and its other conditions hold, which do not depend on `s`). Join
//! every two elements that lie together in `F ∪ E` of some instance. Then `G(s)` is the sum
//! of `G(P)` over the parts `P` of `s` under the joins, by induction on `s`: an instance
//! available in `s` has its footprint in one part `P` (its elements are joined), so it is
//! available in `G(P)` and in no other part, and it takes away only elements joined to its
//! footprint, so only elements of `P`; what it leaves is the other parts as they were, and
//! the parts of `P - E`. So the game trees are the same, move for move: every value
//! (outcomes, Grundy values, canonical forms, misère play, remoteness) is kept, and so is
//! the order of each position's options. Output writes an option as the rules do: the
//! runtime's `Rules::rejoin` (`Game::split_by` in both back ends) joins its parts back
//! into one position.
//!
//! **How it is checked.** The instances are listed by evaluating the move with `s` the
//! whole of `T` (conditions that do not read `s` hold or fail whatever `s` is); each must
//! have a footprint and take away some of it (so the game ends), and every evaluation must
//! succeed (so that no position can fail where the rewritten rules would not: with a
//! smaller `s`, a move evaluates a part of what was evaluated here). The joins are kept as
//! a helper function, `joined_g(x)` (`g` the game's name), the elements joined to `x`,
//! whose table the tables pass computes; the parts pass then divides a set of board cells
//! on its bits. Nothing is rewritten where some result already is a sum, or
//! where an element is joined to half the others or more (sets would seldom fall into parts,
//! and finding the parts costs each option).

use super::structure::conjuncts;
use crate::interp::{truth, within_budget, EvalError, Interpreter};
use crate::ir::*;
use cgdl_runtime::Compound;
use std::collections::BTreeSet;
use std::rc::Rc;

/// The most elements of `T`.
const MAX_ELEMENTS: usize = 256;
/// Steps the listing of one game's instances may take.
const BUDGET: u64 = 4_000_000;

/// Runs the pass on every game of `program`.
pub fn run(program: &mut Program, source: &str) {
    for gid in 0..program.games.len() {
        let Some(Found {
            t,
            all,
            joins,
            halved,
        }) = joins(program, source, gid)
        else {
            continue;
        };
        let func = program.fns.len();
        let function = joined_fn(program, &program.games[gid].name, &t, all, &joins);
        let game = &mut program.games[gid];
        let GameKind::Rules(moves) = &mut game.kind else {
            unreachable!("the pass read the game's moves")
        };
        let part = game
            .locals
            .bind(game.locals.fresh_name("part"), Ty::Set(Box::new(t.ty())));
        let at = game
            .locals
            .bind(game.locals.fresh_name("joined_at"), t.ty());
        for (m, halved) in moves.iter_mut().zip(halved) {
            if let Some(less) = halved {
                m.clauses.insert(2, IClause::Cond(less));
            }
            let position = position_of(&mut m.result);
            let IExprKind::Pos { args, .. } = position.kind() else {
                unreachable!("the results are positions of the game")
            };
            let rest = args[0].clone();
            let span = position.span();
            let step = IExpr::from(IExprKind::Call {
                func,
                args: vec![IExpr::from(IExprKind::Var(at.clone()))],
                ret: Ty::Set(Box::new(t.ty())),
                in_table: false,
            });
            let components = IExpr::from(IExprKind::Closure {
                kind: crate::ast::ClosureKind::Components,
                seed: Box::new(rest),
                var: at.clone(),
                next: Box::new(step),
            });
            let term = IExpr::from(IExprKind::Pos {
                game: gid,
                args: vec![IExpr::from(IExprKind::Var(part.clone()))],
                fits: false,
            });
            *position = IExpr::from(IExprKind::CompoundOf {
                kind: Compound::Sum,
                elem: Box::new(term),
                clauses: vec![IClause::Bind(vec![part.clone()], components)],
            })
            .at(span);
        }
        game.split = true;
        program.fns.push(function);
    }
}

/// For `cgdl check`: a line for each game this pass rewrote.
pub fn describe(program: &Program) -> Vec<String> {
    (program.games.iter())
        .filter(|g| g.split)
        .map(|g| {
            format!(
                "{}: a sum of the parts its moves join (found)",
                program.label(g)
            )
        })
        .collect()
}

/// `fn joined_g(x: T) -> set<T> = { y for y in T where (x, y) in JOINS }`.
fn joined_fn(
    program: &Program,
    game: &str,
    t: &FieldTy,
    all: Vec<Val>,
    joins: &BTreeSet<Val>,
) -> Function {
    // Snake case, as native code names functions.
    let game = game.to_lowercase();
    let name = (0..)
        .map(|k| match k {
            0 => format!("joined_{game}"),
            k => format!("joined_{game}_{k}"),
        })
        .find(|n| !program.name_taken(n))
        .unwrap_or_default();
    let mut locals = Locals::default();
    let x = locals.bind("x".into(), t.ty());
    let y = locals.bind("y".into(), t.ty());
    let all = IExpr::from(IExprKind::AllOf {
        ty: t.clone(),
        values: Val::Set(Rc::new(all.into_iter().collect())),
    });
    let pair = IExpr::from(IExprKind::Tuple(vec![
        IExpr::from(IExprKind::Var(x)),
        IExpr::from(IExprKind::Var(y.clone())),
    ]));
    let joined = IExpr::bin(
        Op::In,
        pair,
        IExpr::from(IExprKind::Lit(Val::Set(Rc::new(joins.clone())))),
        Default::default(),
    );
    Function {
        name,
        params: vec![("x".into(), t.clone())],
        ret: FieldTy::Set(Box::new(t.clone())),
        locals,
        body: IExpr::from(IExprKind::Compr {
            elem: Box::new(IExpr::from(IExprKind::Var(y.clone()))),
            clauses: vec![IClause::Bind(vec![y], all), IClause::Cond(joined)],
        }),
        table: None,
    }
}

/// How a move reads the game's set field.
enum Clause {
    /// `names in s`: binds an element of the set (part of the footprint).
    Member(Vec<Var>),
    /// A clause that does not read the set.
    Other(IClause),
    /// A condition whose conjuncts are tests `e in s` (footprint) or conditions that do not
    /// read the set, in order.
    Conds(Vec<Conjunct>),
}

enum Conjunct {
    Member(IExpr),
    Test(IExpr),
}

/// A move of the right shape: its clauses, and the sets its result takes away.
struct Shape {
    clauses: Vec<Clause>,
    removed: Vec<IExpr>,
    /// Where the move's first two clauses bind two elements of the set and no later clause
    /// binds anything: the two elements, as expressions of the names bound.
    pair: Option<(IExpr, IExpr)>,
}

/// What the pass makes of a game: its set's element type and every value of it, the pairs
/// of joined elements (both ways), and for each move `a < b` where its instances come in
/// pairs `(a, b)` and `(b, a)` that take away the same elements (each option listed twice).
struct Found {
    t: FieldTy,
    all: Vec<Val>,
    joins: BTreeSet<Val>,
    halved: Vec<Option<IExpr>>,
}

/// Where game `gid` is the sum of its set's parts: what to make of it.
fn joins(program: &Program, source: &str, gid: usize) -> Option<Found> {
    let game = &program.games[gid];
    let GameKind::Rules(moves) = &game.kind else {
        return None;
    };
    let [Field {
        ty: FieldTy::Set(t),
        name,
    }] = game.fields.as_slice()
    else {
        return None;
    };
    if moves.is_empty() || game.heap_code.is_some() {
        return None;
    }
    let all: Vec<Val> = t.values(&program.types, MAX_ELEMENTS)?;
    let (_, field_ty) = game.locals.get(VarId::new(0))?;
    let field = Var {
        slot: VarId::new(0),
        name: name.as_str().into(),
        ty: field_ty.clone(),
    };
    let shapes = (moves.iter())
        .map(|m| shape(m, gid, &field))
        .collect::<Option<Vec<_>>>()?;
    let interp = Interpreter::new(program, source);
    let universe: BTreeSet<Val> = all.iter().cloned().collect();
    let mut joins = BTreeSet::new();
    let mut pairs = vec![Pairs::default(); shapes.len()];
    let (listed, spent) = within_budget(BUDGET, || {
        let mut env = vec![Val::Int(0); game.locals.len()];
        env[0] = Val::Set(Rc::new(universe.clone()));
        let mut lister = Lister {
            interp: &interp,
            universe: &universe,
            joins: &mut joins,
            pairs: Pairs::default(),
        };
        shapes.iter().zip(&mut pairs).try_for_each(|(s, pairs)| {
            lister.pairs = Pairs::default();
            lister.clauses(s, 0, &mut env, &mut Vec::new())?;
            *pairs = std::mem::take(&mut lister.pairs);
            Ok::<(), Refused>(())
        })
    });
    if spent || !matches!(listed, Ok(())) {
        return None;
    }
    // Where an element is joined to half the others or more, sets seldom fall into parts,
    // and every option would pay for finding them (Chomp's bite joins a cell to its whole
    // quadrant).
    let mut degree = std::collections::BTreeMap::new();
    for pair in &joins {
        if let Val::Tuple(ab) = pair {
            *degree.entry(&ab[0]).or_insert(0usize) += 1;
        }
    }
    if degree.values().any(|&d| 2 * d >= all.len()) {
        return None;
    }
    let halved = (shapes.iter().zip(&pairs))
        .map(|(shape, pairs)| {
            let (a, b) = shape.pair.clone()?;
            pairs
                .symmetric()
                .then(|| IExpr::bin(Op::Lt, a, b, Default::default()))
        })
        .collect();
    Some(Found {
        t: (**t).clone(),
        all,
        joins,
        halved,
    })
}

/// A move's instances by the two elements it binds first ([`Shape::pair`]): each one's
/// footprint (where it is available) and what it takes away of the type's elements.
/// (Each pair is listed once: no clause after the two binds anything.)
#[derive(Clone, Default)]
struct Pairs {
    taken: std::collections::BTreeMap<(Val, Val), (BTreeSet<Val>, BTreeSet<Val>)>,
}

impl Pairs {
    /// Whether every instance `(a, b)` has `a != b` and a twin `(b, a)` with the same
    /// footprint (so the two are available in the same sets) that takes away the same
    /// elements: its option is the twin's, so `a < b` keeps one of each.
    fn symmetric(&self) -> bool {
        !self.taken.is_empty()
            && (self.taken.iter()).all(|((a, b), taken)| {
                a != b && self.taken.get(&(b.clone(), a.clone())) == Some(taken)
            })
    }
}

/// `m` as this pass reads it, where it has the shape (see the module's doc).
fn shape(m: &Move, gid: usize, field: &Var) -> Option<Shape> {
    // The set, and names of the result's `let`s whose values read it (`let rest = s - {a}
    // in G(rest)`): a name that stands for `s - E`.
    let mut tainted = vec![field.clone()];
    let reads = |e: &IExpr, tainted: &[Var]| e.reads_any(tainted);
    let is_field = |e: &IExpr| e.as_var().is_some_and(|v| v.slot == field.slot);
    let mut clauses = Vec::new();
    for c in &m.clauses {
        clauses.push(match c {
            IClause::Bind(vars, domain) if is_field(domain) => Clause::Member(vars.clone()),
            IClause::Cond(cond) if reads(cond, &tainted) => {
                let mut tests = Vec::new();
                for e in conjuncts(cond) {
                    tests.push(match e.kind() {
                        IExprKind::Bin {
                            op: Op::In,
                            lhs,
                            rhs,
                        } if is_field(rhs) && !reads(lhs, &tainted) => {
                            Conjunct::Member((**lhs).clone())
                        }
                        _ if reads(e, &tainted) => return None,
                        _ => Conjunct::Test(e.clone()),
                    });
                }
                Clause::Conds(tests)
            }
            c if reads(c.expr(), &tainted) => return None,
            c => Clause::Other(c.clone()),
        });
    }
    // The result's `let`s: those that do not read the set are evaluated as the move's own;
    // those that do must be the set less some elements.
    let mut standing_for = std::collections::HashMap::new();
    let mut body = &m.result;
    while let IExprKind::Let {
        var,
        value,
        body: inner,
    } = body.kind()
    {
        match reads(value, &tainted) {
            true => {
                standing_for.insert(var.slot, (**value).clone());
                tainted.push(var.clone());
            }
            false => clauses.push(Clause::Other(IClause::Let(var.clone(), (**value).clone()))),
        }
        body = inner;
    }
    let IExprKind::Pos { game, args, .. } = body.kind() else {
        return None;
    };
    if *game != gid {
        return None;
    }
    let mut removed = Vec::new();
    let mut rest = args[0].clone();
    loop {
        rest = match rest.kind() {
            IExprKind::Var(v) if v.slot == field.slot => break,
            // Each such name once, on the way to the set: one that stood for anything else
            // would be evaluated on a part where the rules evaluate it on the whole set.
            IExprKind::Var(v) => standing_for.remove(&v.slot)?,
            IExprKind::Bin {
                op: Op::SetDiff,
                lhs,
                rhs,
            } if !reads(rhs, &tainted) => {
                removed.push((**rhs).clone());
                (**lhs).clone()
            }
            _ => return None,
        };
    }
    if !standing_for.is_empty() {
        return None;
    }
    let element = |vars: &[Var]| match vars {
        [v] => IExpr::from(IExprKind::Var(v.clone())),
        vs => IExpr::from(IExprKind::Tuple(
            vs.iter()
                .map(|v| IExpr::from(IExprKind::Var(v.clone())))
                .collect(),
        )),
    };
    let pair = match clauses.as_slice() {
        [Clause::Member(a), Clause::Member(b), rest @ ..]
            if !(rest.iter())
                .any(|c| matches!(c, Clause::Member(_) | Clause::Other(IClause::Bind(..)))) =>
        {
            Some((element(a), element(b)))
        }
        _ => None,
    };
    Some(Shape {
        clauses,
        removed,
        pair,
    })
}

/// The position a move's result names, under its `let`s.
fn position_of(result: &mut IExpr) -> &mut IExpr {
    match result.kind() {
        IExprKind::Let { .. } => match result.kind_mut() {
            IExprKind::Let { body, .. } => position_of(body),
            _ => unreachable!("a `let`"),
        },
        _ => result,
    }
}

/// Lists a move's instances with the set the whole type, joining the elements of each.
struct Lister<'a, 'p> {
    interp: &'a Interpreter<'p>,
    universe: &'a BTreeSet<Val>,
    joins: &'a mut BTreeSet<Val>,
    /// The instances of the move listed now, where it binds a pair.
    pairs: Pairs,
}

/// Why listing stopped: an evaluation failed, or an instance has no footprint.
type Refused = Option<EvalError>;

impl Lister<'_, '_> {
    fn clauses(
        &mut self,
        shape: &Shape,
        i: usize,
        env: &mut Vec<Val>,
        footprint: &mut Vec<Val>,
    ) -> Result<(), Refused> {
        let Some(clause) = shape.clauses.get(i) else {
            return self.instance(shape, env, footprint);
        };
        match clause {
            Clause::Member(vars) => {
                for x in self.universe.iter() {
                    crate::interp::bind(vars, x.clone(), env).map_err(Some)?;
                    footprint.push(x.clone());
                    let r = self.clauses(shape, i + 1, env, footprint);
                    footprint.pop();
                    r?;
                }
                Ok(())
            }
            Clause::Conds(conjuncts) => {
                let depth = footprint.len();
                let mut holds = true;
                for c in conjuncts {
                    match c {
                        Conjunct::Member(e) => {
                            let x = self.eval(e, env)?.normalize();
                            if !self.universe.contains(&x) {
                                holds = false;
                                break;
                            }
                            footprint.push(x);
                        }
                        Conjunct::Test(e) => {
                            if !truth(&self.eval(e, env)?).map_err(Some)? {
                                holds = false;
                                break;
                            }
                        }
                    }
                }
                let r = match holds {
                    true => self.clauses(shape, i + 1, env, footprint),
                    false => Ok(()),
                };
                footprint.truncate(depth);
                r
            }
            Clause::Other(IClause::Bind(vars, domain)) => {
                let domain = self.eval(domain, env)?;
                let mut inner = Ok(());
                crate::interp::for_each(&domain, |x| {
                    crate::interp::bind(vars, x, env)?;
                    inner = self.clauses(shape, i + 1, env, footprint);
                    Ok(inner.is_ok())
                })
                .map_err(Some)?;
                inner
            }
            Clause::Other(IClause::Cond(e)) => match truth(&self.eval(e, env)?).map_err(Some)? {
                true => self.clauses(shape, i + 1, env, footprint),
                false => Ok(()),
            },
            Clause::Other(IClause::Let(var, e)) => {
                env[var.slot.index()] = self.eval(e, env)?;
                self.clauses(shape, i + 1, env, footprint)
            }
        }
    }

    fn eval(&self, e: &IExpr, env: &mut Vec<Val>) -> Result<Val, Refused> {
        self.interp.eval(e, env).map_err(Some)
    }

    /// One instance: joins every two elements of its footprint and of what it takes away.
    fn instance(
        &mut self,
        shape: &Shape,
        env: &mut Vec<Val>,
        footprint: &[Val],
    ) -> Result<(), Refused> {
        if footprint.is_empty() {
            return Err(None);
        }
        // What it takes away of the type's elements (a set never holds others).
        let mut taken = BTreeSet::new();
        for e in &shape.removed {
            match self.eval(e, env)?.normalize() {
                Val::Set(s) => {
                    taken.extend(s.iter().filter(|x| self.universe.contains(*x)).cloned())
                }
                _ => return Err(None),
            }
        }
        // A move that keeps its footprint could be played again and again: such a game is
        // left as written (its cycles are reported as the rules make them).
        if !footprint.iter().any(|x| taken.contains(x)) {
            return Err(None);
        }
        let mut touched: BTreeSet<Val> = footprint.iter().cloned().collect();
        touched.extend(taken.iter().cloned());
        if shape.pair.is_some() {
            let key = (footprint[0].clone(), footprint[1].clone());
            let seen = footprint.iter().cloned().collect();
            self.pairs.taken.insert(key, (seen, taken));
        }
        // The footprint's elements together, and each element taken away to each of the
        // footprint's (a star: an element taken away lies in the footprint's part).
        for a in footprint {
            for b in &touched {
                if a != b {
                    self.joins
                        .insert(Val::Tuple(Rc::new([a.clone(), b.clone()])));
                    self.joins
                        .insert(Val::Tuple(Rc::new([b.clone(), a.clone()])));
                }
            }
        }
        Ok(())
    }
}
