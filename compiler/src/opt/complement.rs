//! Games written on the complement of their set: a game whose one field is the set of
//! *filled* cells, whose moves test cells `not in` it and fill some, is solved as the game
//! of its *free* cells, which every later pass understands (regions, translations, found
//! symmetries, sums of parts).
//!
//! Cram written with the filled cells,
//!
//! ```text
//! game Cram(filled: set<Cell>) {
//!     move across((r, c) in Cell, c + 1 < C, (r, c) not in filled, (r, c + 1) not in filled)
//!         => Cram(filled | {(r, c), (r, c + 1)})
//! }
//! ```
//!
//! has at each position `Cram(f)` the options of `Cram'(Cell - f)`, where `Cram'` is the
//! same game on the free cells: `x not in f` becomes `x in s`, and `Cram(f | E)` becomes
//! `Cram'(s - E)`. This pass adds that game beside the one written (it writes its
//! positions as the game written: `Cram'(s)` is shown as `Cram(Cell - s)`, in output and in
//! pictures), and makes each move of the written game go to it.
//!
//! **When it holds.** A game `G` has one field `f`, a set of a finite type `T` of at most
//! 128 values (a range, or tuples of ranges and `bool`: a board's cells), and its moves
//! read `f` only in two ways: a conjunct `e in f` or `e not in f` of a condition (`e` not
//! reading `f`), and the field of a position of `G` in a move's result, `G(f | E1 | E2 ...)`
//! (each `Ei` not reading `f`, and reading only names its clauses or its result's outer
//! `let`s bind). Then with `s = T - f`, `e not in f` is `e in s` and `e in f` is `e not in
//! s` wherever `e` lies in `T`, and `T - (f | E1 | ...)` is `s - E1 - ...` wherever each
//! `Ei` lies in `T` (otherwise `G(f | Ei)` is an error the rewritten game would not make).
//!
//! **How it is checked.** Every instance of every move is listed, with each test of `f`
//! taken as passed (so every path a position can take is listed, and more); each tested
//! `e` must lie in `T`, and each `Ei` evaluated where the instance's result is must lie in
//! `T`. An evaluation that fails (which might be on a path no position takes) leaves the
//! game as written, as does a listing over budget. The two games then take the same steps
//! at every position, test for test: values, errors and options in order are kept.

use super::structure::conjuncts;
use crate::interp::{truth, within_budget, EvalError, Interpreter};
use crate::ir::*;
use std::collections::BTreeSet;
use std::rc::Rc;

/// The most values of the set's element type (native code packs the set as bits).
const MAX_ELEMENTS: usize = 128;
/// Steps the listing of one game's instances may take.
const BUDGET: u64 = 4_000_000;

/// Runs the pass on every game of `program` written on a set's complement.
pub fn run(program: &mut Program, source: &str) {
    for gid in 0..program.games.len() {
        let Some(all) = complemented(program, source, gid) else {
            continue;
        };
        let free = program.games.len();
        let written = &program.games[gid];
        let name = (0..)
            .map(|k| match k {
                0 => format!("{}_free", written.name),
                k => format!("{}_free_{k}", written.name),
            })
            .find(|n| !program.name_taken(n))
            .unwrap_or_default();
        let GameKind::Rules(moves) = &written.kind else {
            unreachable!("the pass read the game's moves")
        };
        let FieldTy::Set(t) = &written.fields[0].ty else {
            unreachable!("the pass read the game's set field")
        };
        let universe = IExpr::from(IExprKind::AllOf {
            ty: (**t).clone(),
            values: Val::Set(Rc::new(all.iter().cloned().collect())),
        });
        let f = field_of(written);
        let mut free_moves = moves.clone();
        for m in &mut free_moves {
            for c in &mut m.clauses {
                if let IClause::Cond(cond) = c {
                    flip_tests(cond, &f);
                }
            }
            // The listing evaluated every clause at every element of the type without fail.
            super::members::bind_members(&mut m.clauses, &f, &all, &|_| true);
            redirect(&mut m.result, gid, &f, &mut |chain| {
                let removed = union_chain(&chain, &f).expect("checked by the listing");
                let mut rest = IExpr::from(IExprKind::Var(f.clone()));
                for e in removed {
                    rest = IExpr::bin(Op::SetDiff, rest, e.clone(), Default::default());
                }
                IExprKind::Pos {
                    game: free,
                    args: vec![rest],
                    fits: false,
                }
            });
        }
        let mut free_game = Game {
            name,
            kind: GameKind::Rules(free_moves),
            symmetries: Vec::new(),
            complement_of: Some(Complement {
                game: gid,
                all: Val::Set(Rc::new(all.into_iter().collect())),
            }),
            ..written.clone()
        };
        free_game.held_by_found.clear();
        let written = &mut program.games[gid];
        let GameKind::Rules(moves) = &mut written.kind else {
            unreachable!("the pass read the game's moves")
        };
        for m in moves {
            redirect(&mut m.result, gid, &f, &mut |chain| {
                let span = chain.span();
                IExprKind::Pos {
                    game: free,
                    args: vec![IExpr::bin(Op::SetDiff, universe.clone(), chain, span)],
                    fits: false,
                }
            });
        }
        program.games.push(free_game);
    }
}

/// For `cgdl check`: a line for each game this pass solves on its set's complement.
pub fn describe(program: &Program) -> Vec<String> {
    (program.games.iter())
        .filter_map(|g| {
            let c = g.complement_of.as_ref()?;
            Some(format!(
                "{}: solved as the game of its set's complement (found)",
                program.games[c.game].name
            ))
        })
        .collect()
}

/// The game's set field, in slot 0.
fn field_of(game: &Game) -> Var {
    let (name, ty) = game.locals.get(VarId::new(0)).expect("a game with a field");
    Var {
        slot: VarId::new(0),
        name: name.clone(),
        ty: ty.clone(),
    }
}

/// Whether `e` reads the field `f`.
fn reads(e: &IExpr, f: &Var) -> bool {
    e.reads_any(std::slice::from_ref(f))
}

/// Where `e` is `f | E1 | E2 ...` (in any grouping and order, `f` once): the sets `Ei`.
fn union_chain<'e>(e: &'e IExpr, f: &Var) -> Option<Vec<&'e IExpr>> {
    fn walk<'e>(e: &'e IExpr, f: &Var, fields: &mut usize, out: &mut Vec<&'e IExpr>) {
        match e.kind() {
            IExprKind::Var(v) if v.slot == f.slot => *fields += 1,
            IExprKind::Bin {
                op: Op::SetUnion,
                lhs,
                rhs,
            } if reads(lhs, f) || reads(rhs, f) => {
                walk(lhs, f, fields, out);
                walk(rhs, f, fields, out);
            }
            _ => out.push(e),
        }
    }
    let mut fields = 0;
    let mut removed = Vec::new();
    walk(e, f, &mut fields, &mut removed);
    (fields == 1 && !removed.iter().any(|x| reads(x, f))).then_some(removed)
}

/// `e in f` and `e not in f` turned around, in the conjuncts of `cond`.
fn flip_tests(cond: &mut IExpr, f: &Var) {
    if let IExprKind::Bin {
        op: op @ (Op::In | Op::NotIn),
        rhs,
        ..
    } = cond.kind_mut()
    {
        if rhs.is_var(f.slot) {
            *op = match op {
                Op::In => Op::NotIn,
                _ => Op::In,
            };
            return;
        }
    }
    if let IExprKind::Bin { op: Op::And, .. } = cond.kind() {
        cond.for_each_child_mut(&mut |c| flip_tests(c, f));
    }
}

/// Every position of game `gid` in `e` whose field reads the field `f` made the position
/// `make` gives for its field.
fn redirect(e: &mut IExpr, gid: usize, f: &Var, make: &mut dyn FnMut(IExpr) -> IExprKind) {
    if let IExprKind::Pos { game, args, .. } = e.kind() {
        if *game == gid && reads(&args[0], f) {
            let span = e.span();
            let arg = args[0].clone();
            *e = IExpr::from(make(arg)).at(span);
            return;
        }
    }
    e.for_each_child_mut(&mut |c| redirect(c, gid, f, make));
}

/// Where game `gid` is written on a set's complement (see the module's doc): every value
/// of the set's element type.
fn complemented(program: &Program, source: &str, gid: usize) -> Option<Vec<Val>> {
    let game = &program.games[gid];
    let GameKind::Rules(moves) = &game.kind else {
        return None;
    };
    let [Field {
        ty: FieldTy::Set(t),
        ..
    }] = game.fields.as_slice()
    else {
        return None;
    };
    if moves.is_empty() || game.heap_code.is_some() || !cells(t) {
        return None;
    }
    let all = t.values(&program.types, MAX_ELEMENTS)?;
    if all.len() > MAX_ELEMENTS {
        return None;
    }
    let f = field_of(game);
    // The shape: the field read only by tests that are conjuncts of conditions, and as the
    // field of the game's own positions in results.
    for m in moves {
        for c in &m.clauses {
            match c {
                IClause::Cond(cond) if reads(cond, &f) => {
                    for e in conjuncts(cond) {
                        if reads(e, &f) && test(e, &f).is_none() {
                            return None;
                        }
                    }
                }
                c if reads(c.expr(), &f) => return None,
                _ => {}
            }
        }
        if !results_read_as_written(&m.result, gid, &f, false) {
            return None;
        }
    }
    let interp = Interpreter::new(program, source);
    let universe: BTreeSet<Val> = all.iter().cloned().collect();
    let (listed, spent) = within_budget(BUDGET, || {
        let mut env = vec![Val::Int(0); game.locals.len()];
        env[0] = Val::Set(Rc::new(BTreeSet::new()));
        let lister = Lister {
            interp: &interp,
            universe: &universe,
            gid,
            field: &f,
        };
        for m in moves {
            if !lister.clauses(m, 0, &mut env)? {
                return Ok(false);
            }
        }
        Ok::<bool, EvalError>(true)
    });
    (!spent && matches!(listed, Ok(true))).then_some(all)
}

/// Whether `t` is a range, `bool`, or a tuple of them (a board's cells): packed as bits by
/// rank, each rank below the number of values.
fn cells(t: &FieldTy) -> bool {
    match t {
        FieldTy::Range(..) | FieldTy::Bool => true,
        FieldTy::Tuple(ts) => ts
            .iter()
            .all(|t| matches!(t, FieldTy::Range(..) | FieldTy::Bool)),
        _ => false,
    }
}

/// Where `e` is `x in f` or `x not in f` with `x` not reading the field: `x`.
fn test<'e>(e: &'e IExpr, f: &Var) -> Option<&'e IExpr> {
    match e.kind() {
        IExprKind::Bin {
            op: Op::In | Op::NotIn,
            lhs,
            rhs,
        } if rhs.is_var(f.slot) && !reads(lhs, f) => Some(lhs),
        _ => None,
    }
}

/// Whether `e` reads the field only as the field of a position of game `gid`, `G(f | E1
/// ...)`, whose sets `Ei` read no name bound inside `e` below its outer `let`s (`inner`:
/// below them).
fn results_read_as_written(e: &IExpr, gid: usize, f: &Var, inner: bool) -> bool {
    match e.kind() {
        IExprKind::Pos { game, args, .. } if *game == gid && reads(&args[0], f) => {
            let Some(removed) = union_chain(&args[0], f) else {
                return false;
            };
            !inner || removed.iter().all(|x| !reads_inner(x, e))
        }
        IExprKind::Var(v) if v.slot == f.slot => false,
        IExprKind::Let { value, body, .. } if !inner => {
            !reads(value, f) && results_read_as_written(body, gid, f, false)
        }
        _ => {
            let mut ok = true;
            e.for_each_child(&mut |c| ok &= results_read_as_written(c, gid, f, true));
            ok
        }
    }
}

/// Whether `x` reads a name that `within` binds (`x` a part of it).
fn reads_inner(x: &IExpr, within: &IExpr) -> bool {
    let mut bound = Vec::new();
    within.for_each_bind(&mut |v| bound.push(v.slot));
    let mut reads = false;
    x.for_each_read(&mut |v| reads |= bound.contains(&v.slot));
    reads
}

/// Lists a game's instances with every test of its set taken as passed.
struct Lister<'a, 'p> {
    interp: &'a Interpreter<'p>,
    universe: &'a BTreeSet<Val>,
    gid: usize,
    field: &'a Var,
}

/// `Ok(true)`: every tested element and every element a result adds lies in the type.
type Listed = Result<bool, EvalError>;

impl Lister<'_, '_> {
    fn clauses(&self, m: &Move, i: usize, env: &mut Vec<Val>) -> Listed {
        let Some(clause) = m.clauses.get(i) else {
            return self.result(&m.result, env);
        };
        match clause {
            IClause::Bind(vars, domain) => {
                let domain = self.interp.eval(domain, env)?;
                let mut inner = Ok(true);
                crate::interp::for_each(&domain, |x| {
                    crate::interp::bind(vars, x, env)?;
                    inner = self.clauses(m, i + 1, env);
                    Ok(matches!(inner, Ok(true)))
                })?;
                inner
            }
            IClause::Cond(cond) => {
                for e in conjuncts(cond) {
                    match test(e, self.field) {
                        Some(x) if reads(e, self.field) => {
                            if !self.within(&self.interp.eval(x, env)?) {
                                return Ok(false);
                            }
                        }
                        _ => {
                            if !truth(&self.interp.eval(e, env)?)? {
                                return Ok(true);
                            }
                        }
                    }
                }
                self.clauses(m, i + 1, env)
            }
            IClause::Let(var, e) => {
                env[var.slot.index()] = self.interp.eval(e, env)?;
                self.clauses(m, i + 1, env)
            }
        }
    }

    fn within(&self, x: &Val) -> bool {
        self.universe.contains(&x.clone().normalize())
    }

    /// The sets a result's positions of the game add, under its outer `let`s.
    fn result(&self, e: &IExpr, env: &mut Vec<Val>) -> Listed {
        if let IExprKind::Let { var, value, body } = e.kind() {
            env[var.slot.index()] = self.interp.eval(value, env)?;
            return self.result(body, env);
        }
        let mut added = Vec::new();
        positions(e, self.gid, self.field, &mut added);
        for x in added {
            match self.interp.eval(x, env)?.normalize() {
                Val::Set(s) if s.iter().all(|x| self.within(x)) => {}
                _ => return Ok(false),
            }
        }
        Ok(true)
    }
}

/// The sets `Ei` the positions `G(f | E1 ...)` of game `gid` in `e` add.
fn positions<'e>(e: &'e IExpr, gid: usize, f: &Var, out: &mut Vec<&'e IExpr>) {
    if let IExprKind::Pos { game, args, .. } = e.kind() {
        if *game == gid {
            if let Some(removed) = union_chain(&args[0], f) {
                out.extend(removed);
            }
            return;
        }
    }
    e.for_each_child(&mut |c| positions(c, gid, f, out));
}
