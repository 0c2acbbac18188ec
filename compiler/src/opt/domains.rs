//! The domains pass: the few values a set field's elements take, where its element type
//! has too many values to pack a set of them as bits (a line written as the pair of dots
//! it joins: 625 pairs on a 5 × 5 board, 40 of them lines) or infinitely many.
//!
//! A set field's elements come from the positions the program builds: each move's result
//! (`Dots(drawn | {l})` with `l in LINES`), each query, each declared symmetry's image. The
//! pass follows the values each such argument's elements can take, from constants, names
//! bound to elements of constant sets, the field itself (what the game's positions already
//! hold, found by iterating to a fixed point), set algebra, comprehensions and calls of
//! functions of finitely many arguments (evaluated at each). Where every place that builds
//! a position of the game is followed and the values are few, the field's domain is that
//! list ([`Game::domains`]), and native code keeps the field as bits of those values'
//! indices. Where one place is not followed the field has no domain; nor where the moves
//! put no element in the set (what it holds then comes from the program using the game:
//! its queries, or the positions an embedding program makes, which the file cannot know).
//!
//! A domain never changes a value: native code checks each element it packs against the
//! list, and a position outside it (one given on the command line) is an error naming the
//! field, never a different position.

use crate::interp::{within_budget, Interpreter};
use crate::ir::*;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// The most values a domain holds (a packed set is at most 128 bits).
pub const MAX_DOMAIN: usize = 128;
/// The most values the pass follows for one expression, and the most arguments at which
/// it evaluates one call or expression.
const MAX_VALUES: usize = 4096;
/// Steps the evaluations for one game may take.
const BUDGET: u64 = 4_000_000;
/// Rounds of the fixed point (each adds values, or the fixed point is reached).
const MAX_ROUNDS: usize = 16;

/// Runs the pass on every game of `program`.
pub fn run(program: &mut Program, source: &str) {
    let found: Vec<Vec<Option<Rc<[Val]>>>> = {
        let interp = Interpreter::new(program, source);
        (0..program.games.len())
            .map(|gid| domains(program, &interp, gid))
            .collect()
    };
    for (game, domains) in program.games.iter_mut().zip(found) {
        game.domains = domains;
    }
}

/// Whether a set of `t` cannot be packed as bits of its values' ranks: more than
/// [`MAX_DOMAIN`] values, or infinitely many.
fn needs_domain(program: &Program, t: &FieldTy) -> bool {
    t.values(&program.types, MAX_DOMAIN).is_none()
}

/// Each field's domain, for one game.
fn domains(program: &Program, interp: &Interpreter, gid: usize) -> Vec<Option<Rc<[Val]>>> {
    let game = &program.games[gid];
    let wanted: Vec<usize> = (game.fields.iter().enumerate())
        .filter(|(_, f)| matches!(&f.ty, FieldTy::Set(t) if needs_domain(program, t)))
        .map(|(i, _)| i)
        .collect();
    let mut out = vec![None; game.fields.len()];
    if wanted.is_empty() || !matches!(game.kind, GameKind::Rules(_)) {
        return out;
    }
    // Out of steps, a call's failure is not an error at run time: then no domain.
    // The queries' values are added to the rules' fixed point (the values only grow).
    let (found, spent) = within_budget(BUDGET, || {
        let start = vec![BTreeSet::new(); wanted.len()];
        let rules = fixed_point(program, interp, gid, &wanted, start, false)?;
        let all = fixed_point(program, interp, gid, &wanted, rules.clone(), true)?;
        Some((rules, all))
    });
    if let (Some((rules, found)), false) = (found, spent) {
        for ((i, values), from_rules) in wanted.into_iter().zip(found).zip(rules) {
            let FieldTy::Set(t) = &game.fields[i].ty else {
                continue;
            };
            // A set whose moves put nothing in it holds what the program using the game
            // gives it (a query, or a position an embedding program makes): no domain.
            if from_rules.is_empty() {
                continue;
            }
            // Elements outside the type are refused before they are packed.
            let values: Vec<Val> = values.into_iter().filter(|v| t.admits(v)).collect();
            if values.len() <= MAX_DOMAIN {
                out[i] = Some(values.into());
            }
        }
    }
    out
}

/// The values of the `wanted` fields' elements, grown from `known` until every place that
/// builds a position of the game (the queries' only `with_queries`) adds nothing; `None`
/// where a place is not followed.
fn fixed_point(
    program: &Program,
    interp: &Interpreter,
    gid: usize,
    wanted: &[usize],
    mut known: Vec<BTreeSet<Val>>,
    with_queries: bool,
) -> Option<Vec<BTreeSet<Val>>> {
    let frame = frame_size(program);
    for _ in 0..MAX_ROUNDS {
        let mut walk = Walk {
            program,
            interp,
            gid,
            wanted,
            known: &known,
            found: known.clone(),
            failed: false,
            frame,
            with_queries,
        };
        walk.program_sites();
        if walk.failed || walk.found.iter().any(|s| s.len() > MAX_DOMAIN) {
            return None;
        }
        if walk.found == known {
            return Some(known);
        }
        known = walk.found;
    }
    None
}

/// The most slots a game's moves, a function or a query needs.
fn frame_size(program: &Program) -> usize {
    let games = program.games.iter().map(|g| g.locals.len());
    let fns = program.fns.iter().map(|f| f.locals.len());
    let queries = program.queries.iter().map(|q| q.locals.len());
    games.chain(fns).chain(queries).max().unwrap_or(0)
}

/// What is known of the names in scope, by slot.
#[derive(Clone, Default)]
struct Env {
    /// The values a name can take.
    values: HashMap<VarId, Rc<BTreeSet<Val>>>,
    /// The values the elements of a set-valued name can take.
    elements: HashMap<VarId, Rc<BTreeSet<Val>>>,
}

/// One round: every expression of the program, with the positions of the game it builds.
struct Walk<'a, 'p> {
    program: &'a Program,
    interp: &'a Interpreter<'p>,
    gid: usize,
    wanted: &'a [usize],
    /// The values found so far (what the game's own fields hold).
    known: &'a [BTreeSet<Val>],
    /// The values found this round.
    found: Vec<BTreeSet<Val>>,
    /// Whether some place that builds a position was not followed.
    failed: bool,
    /// Slots enough for any expression of the program.
    frame: usize,
    /// Whether the queries' positions count.
    with_queries: bool,
}

impl Walk<'_, '_> {
    fn program_sites(&mut self) {
        let program = self.program;
        for (g, game) in program.games.iter().enumerate() {
            let mut env = Env::default();
            if g == self.gid {
                for (k, &i) in self.wanted.iter().enumerate() {
                    env.elements
                        .insert(VarId::new(i), Rc::new(self.known[k].clone()));
                }
            }
            if let GameKind::Rules(moves) = &game.kind {
                for m in moves {
                    let env = self.clauses(&m.clauses, env.clone());
                    self.visit(&m.result, &env);
                }
            }
            for s in &game.symmetries {
                self.visit(&s.result, &env);
            }
        }
        for f in &program.fns {
            self.visit(&f.body, &Env::default());
        }
        let queries: &[IQuery] = if self.with_queries {
            &program.queries
        } else {
            &[]
        };
        for q in queries {
            let mut env = Env::default();
            for (var, domain) in &q.binders {
                self.visit(domain, &env);
                if let Some(values) = self.elements(domain, &env) {
                    env.values.insert(var.slot, Rc::new(values));
                }
            }
            self.visit(&q.target, &env);
        }
    }

    /// The scope after `clauses` (each visited).
    fn clauses(&mut self, clauses: &[IClause], mut env: Env) -> Env {
        for clause in clauses {
            self.visit(clause.expr(), &env);
            match clause {
                IClause::Bind(vars, domain) => self.bind(vars, domain, &mut env),
                IClause::Let(var, value) => self.bind_let(var, value, &mut env),
                IClause::Cond(_) => {}
            }
        }
        env
    }

    /// Binds `vars` to each element of `domain` (a tuple's components when several).
    fn bind(&self, vars: &[Var], domain: &IExpr, env: &mut Env) {
        let Some(elements) = self.elements(domain, env) else {
            for v in vars {
                env.values.remove(&v.slot);
                env.elements.remove(&v.slot);
            }
            return;
        };
        match vars {
            [v] => {
                env.elements.remove(&v.slot);
                env.values.insert(v.slot, Rc::new(elements));
            }
            _ => {
                for (k, v) in vars.iter().enumerate() {
                    env.elements.remove(&v.slot);
                    let parts: Option<BTreeSet<Val>> = (elements.iter())
                        .map(|e| match e {
                            Val::Tuple(parts) => parts.get(k).cloned(),
                            _ => None,
                        })
                        .collect();
                    match parts {
                        Some(parts) => env.values.insert(v.slot, Rc::new(parts)),
                        None => env.values.remove(&v.slot),
                    };
                }
            }
        }
    }

    fn bind_let(&self, var: &Var, value: &IExpr, env: &mut Env) {
        env.values.remove(&var.slot);
        env.elements.remove(&var.slot);
        if matches!(var.ty, Ty::Set(_)) {
            if let Some(e) = self.elements(value, env) {
                env.elements.insert(var.slot, Rc::new(e));
            }
        } else if let Some(v) = self.values(value, env) {
            env.values.insert(var.slot, Rc::new(v));
        }
    }

    /// Visits every position of the game that `e` builds (and everything inside).
    fn visit(&mut self, e: &IExpr, env: &Env) {
        match e.kind() {
            IExprKind::Pos { game, args, .. } => {
                if *game == self.gid {
                    for (k, &i) in self.wanted.iter().enumerate() {
                        match args.get(i).and_then(|a| self.elements(a, env)) {
                            Some(values) => self.found[k].extend(values),
                            None => self.failed = true,
                        }
                    }
                }
                for a in args {
                    self.visit(a, env);
                }
            }
            IExprKind::Let { var, value, body } => {
                self.visit(value, env);
                let mut inner = env.clone();
                self.bind_let(var, value, &mut inner);
                self.visit(body, &inner);
            }
            IExprKind::Compr { elem, clauses } | IExprKind::CompoundOf { elem, clauses, .. } => {
                let inner = self.clauses(clauses, env.clone());
                self.visit(elem, &inner);
            }
            IExprKind::Quant {
                vars, domain, body, ..
            } => {
                self.visit(domain, env);
                let mut inner = env.clone();
                self.bind(vars, domain, &mut inner);
                self.visit(body, &inner);
            }
            IExprKind::Closure {
                seed, var, next, ..
            } => {
                self.visit(seed, env);
                let mut inner = env.clone();
                inner.values.remove(&var.slot);
                inner.elements.remove(&var.slot);
                self.visit(next, &inner);
            }
            IExprKind::Match {
                scrutinee,
                arms,
                default,
                ..
            } => {
                self.visit(scrutinee, env);
                for arm in arms {
                    let mut inner = env.clone();
                    for v in &arm.vars {
                        inner.values.remove(&v.slot);
                        inner.elements.remove(&v.slot);
                    }
                    self.visit(&arm.body, &inner);
                }
                if let Some(d) = default {
                    self.visit(d, env);
                }
            }
            IExprKind::Inverted(q) => {
                self.visit(&q.looked_for, env);
                let mut inner = env.clone();
                inner.values.remove(&q.var.slot);
                inner.elements.remove(&q.var.slot);
                if let Some(rest) = &q.rest {
                    self.visit(rest, &inner);
                }
            }
            other => other.for_each_child(&mut |c| self.visit(c, env)),
        }
    }

    /// The values the elements of the set `e` can take, where they are followed.
    fn elements(&self, e: &IExpr, env: &Env) -> Option<BTreeSet<Val>> {
        let out = match e.kind() {
            IExprKind::Lit(Val::Set(s))
            | IExprKind::AllOf {
                values: Val::Set(s),
                ..
            } => (**s).clone(),
            IExprKind::Lit(Val::Range(lo, hi)) => {
                if i128::from(*hi) - i128::from(*lo) >= MAX_VALUES as i128 {
                    return None;
                }
                (*lo..=*hi).map(Val::Int).collect()
            }
            IExprKind::Var(v) => (**env.elements.get(&v.slot)?).clone(),
            IExprKind::Set(items) => {
                let mut out = BTreeSet::new();
                for item in items {
                    out.extend(self.values(item, env)?);
                }
                out
            }
            IExprKind::Bin { op, lhs, rhs, .. } => match op {
                Op::SetUnion => {
                    let mut out = self.elements(lhs, env)?;
                    out.extend(self.elements(rhs, env)?);
                    out
                }
                Op::SetInter => match (self.elements(lhs, env), self.elements(rhs, env)) {
                    (Some(a), Some(b)) => a.intersection(&b).cloned().collect(),
                    (a, b) => a.or(b)?,
                },
                Op::SetDiff => self.elements(lhs, env)?,
                _ => return None,
            },
            IExprKind::If {
                then, otherwise, ..
            } => {
                let mut out = self.elements(then, env)?;
                out.extend(self.elements(otherwise, env)?);
                out
            }
            IExprKind::Let { var, value, body } => {
                let mut inner = env.clone();
                self.bind_let(var, value, &mut inner);
                self.elements(body, &inner)?
            }
            // A set of cells marked for native code (`opt::cells`), as written.
            IExprKind::Cells(op) => self.elements(&op.written, env)?,
            IExprKind::Compr { elem, clauses } => {
                let mut inner = env.clone();
                for clause in clauses {
                    match clause {
                        IClause::Bind(vars, domain) => self.bind(vars, domain, &mut inner),
                        IClause::Let(var, value) => self.bind_let(var, value, &mut inner),
                        IClause::Cond(_) => {}
                    }
                }
                self.values(elem, &inner)?
            }
            IExprKind::Call { .. } => {
                let mut out = BTreeSet::new();
                for v in self.results(e, env)? {
                    match v {
                        Val::Set(s) => out.extend(s.iter().cloned()),
                        _ => return None,
                    }
                }
                out
            }
            _ => return None,
        };
        (out.len() <= MAX_VALUES).then_some(out)
    }

    /// The values the element expression `e` can take, where they are followed.
    fn values(&self, e: &IExpr, env: &Env) -> Option<BTreeSet<Val>> {
        if let Some(out) = self.evaluated(e, env) {
            return Some(out);
        }
        let out = match e.kind() {
            IExprKind::Lit(v) => BTreeSet::from([v.clone()]),
            IExprKind::Var(v) => (**env.values.get(&v.slot)?).clone(),
            IExprKind::Tuple(items) => (self.product(items, env)?.into_iter())
                .map(|parts| Val::Tuple(parts.into()))
                .collect(),
            // (A payload outside its type is an error at run time: it builds nothing.)
            IExprKind::Variant { variant, args, .. } => (self.product(args, env)?.into_iter())
                .filter_map(|parts| variant.build(parts).ok())
                .collect(),
            IExprKind::Field { tuple, index } => (self.values(tuple, env)?.iter())
                .map(|t| match t {
                    Val::Tuple(parts) => parts.get(*index).cloned(),
                    _ => None,
                })
                .collect::<Option<_>>()?,
            IExprKind::If {
                then, otherwise, ..
            } => {
                let mut out = self.values(then, env)?;
                out.extend(self.values(otherwise, env)?);
                out
            }
            IExprKind::Let { var, value, body } => {
                let mut inner = env.clone();
                self.bind_let(var, value, &mut inner);
                self.values(body, &inner)?
            }
            IExprKind::Call { .. } => self.results(e, env)?,
            _ => return None,
        };
        (out.len() <= MAX_VALUES).then_some(out)
    }

    /// The values of `e` evaluated at every choice of the values of the names it reads,
    /// where it reads only names whose values are followed, and not too many choices (a
    /// failing evaluation is an error at run time: it builds nothing).
    fn evaluated(&self, e: &IExpr, env: &Env) -> Option<BTreeSet<Val>> {
        let mut slots: Vec<VarId> = Vec::new();
        let mut parts: Vec<Vec<Val>> = Vec::new();
        let mut followed = true;
        e.for_each_read(&mut |v| {
            if slots.contains(&v.slot) {
                return;
            }
            match env.values.get(&v.slot) {
                Some(values) => {
                    slots.push(v.slot);
                    parts.push(values.iter().cloned().collect());
                }
                None => followed = false,
            }
        });
        if !followed || slots.iter().any(|&slot| slot.index() >= self.frame) {
            return None;
        }
        let mut frame = vec![Val::Int(0); self.frame];
        let mut out = BTreeSet::new();
        for values in choices(&parts, MAX_VALUES)? {
            for (&slot, v) in slots.iter().zip(values) {
                frame[slot.index()] = v;
            }
            if let Ok(v) = self.interp.eval(e, &mut frame) {
                out.insert(v.normalize());
            }
        }
        Some(out)
    }

    /// Every choice of a value of each of `items`, where their values are followed.
    fn product(&self, items: &[IExpr], env: &Env) -> Option<Vec<Vec<Val>>> {
        let parts = (items.iter())
            .map(|item| Some(self.values(item, env)?.into_iter().collect()))
            .collect::<Option<Vec<Vec<Val>>>>()?;
        choices(&parts, MAX_VALUES)
    }

    /// The results of the call `e` at every argument its arguments can take (a failing
    /// call builds nothing).
    fn results(&self, e: &IExpr, env: &Env) -> Option<BTreeSet<Val>> {
        let IExprKind::Call { func, args, .. } = e.kind() else {
            return None;
        };
        let f = self.program.fns.get(*func)?;
        let mut out = BTreeSet::new();
        let mut frame = vec![Val::Int(0); f.locals.len()];
        for arguments in self.product(args, env)? {
            for (slot, v) in arguments.into_iter().enumerate() {
                frame[slot] = v;
            }
            // A failing call is an error at run time (unless the steps ran out: then the
            // whole pass gives up, see `domains`).
            if let Ok(v) = self.interp.eval(&f.body, &mut frame) {
                out.insert(v.normalize());
            }
        }
        Some(out)
    }
}
