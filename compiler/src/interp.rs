//! The reference interpreter: the executable definition of the language. It evaluates the
//! IR and implements the runtime's [`Rules`] for every game of a program, so each value and
//! compound of the runtime works on interpreted games.

use crate::ast::{ClosureKind, QuantKind, Span};
use crate::ir::*;
use cgdl_runtime::native::{checked, field_message, list_index, slice_range};
use cgdl_runtime::partizan::{partizan_options, Side};
use cgdl_runtime::rules::move_error;
use cgdl_runtime::{Expr, Options, RuleError, Rules};
use rustc_hash::FxHashMap;
use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::fmt;
use std::rc::Rc;

/// An error while evaluating an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    /// What went wrong.
    pub message: String,
    /// Where, when known.
    pub span: Option<Span>,
}

impl EvalError {
    fn at(message: impl Into<String>, span: Span) -> EvalError {
        EvalError {
            message: message.into(),
            span: Some(span),
        }
    }

    pub(crate) fn plain(message: impl Into<String>) -> EvalError {
        EvalError {
            message: message.into(),
            span: None,
        }
    }
}

/// How many steps (loop iterations, elements built) a constant may take when the file is
/// checked: enough for any table a game reads, far below what would hang the checker or
/// exhaust memory.
pub const CONST_BUDGET: u64 = 4_000_000;

thread_local! {
    /// Steps left for the constant being evaluated at check time; `None` at run time,
    /// where the solver's own limits apply.
    static BUDGET: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Spends `n` steps of a constant's budget.
fn spend(n: u64) -> Result<(), EvalError> {
    BUDGET.with(|b| match b.get() {
        None => Ok(()),
        Some(left) if left >= n => {
            b.set(Some(left - n));
            Ok(())
        }
        Some(_) => {
            b.set(Some(0));
            Err(EvalError::plain(format!(
                "constant too large to evaluate at compile time (over {CONST_BUDGET} steps)"
            )))
        }
    })
}

/// The number of elements that turning `v`'s ranges into sets would build.
fn range_elements(v: &Val) -> u64 {
    match v {
        Val::Range(lo, hi) => cgdl_runtime::native::Range::inclusive(*lo, *hi).len(),
        Val::Tuple(vs) => vs.iter().map(range_elements).fold(0, u64::saturating_add),
        Val::Tag(t) => t
            .fields
            .iter()
            .map(range_elements)
            .fold(0, u64::saturating_add),
        _ => 0,
    }
}

/// `v` with its ranges turned into sets, paid for from a constant's budget.
fn normalized(v: Val) -> Result<Val, EvalError> {
    let elements = range_elements(&v);
    if elements > MAX_RANGE_SET {
        return Err(EvalError::plain(format!(
            "a range of {elements} numbers is too large to hold as a set (at most {MAX_RANGE_SET})"
        )));
    }
    spend(elements)?;
    Ok(v.normalize())
}

/// The most numbers a range may have where it is held as a set (a field, an element, a
/// tuple's part): as many as a position may have options.
const MAX_RANGE_SET: u64 = 1 << 22;

/// Evaluates a constant expression (no positions, no function calls) within
/// [`CONST_BUDGET`] steps.
pub fn eval_const(e: &IExpr) -> Result<Val, EvalError> {
    within_budget(CONST_BUDGET, || {
        eval(e, &mut Vec::new(), None).and_then(normalized)
    })
    .0
}

/// Runs `work` (evaluations at build time: constants, a function's table) within `steps`
/// steps in all; also says whether they ran out (then an evaluation failed for that reason).
pub fn within_budget<T>(steps: u64, work: impl FnOnce() -> T) -> (T, bool) {
    let outer = BUDGET.with(|b| b.replace(Some(steps)));
    let result = work();
    let spent = BUDGET.with(|b| b.replace(outer)) == Some(0);
    (result, spent)
}

#[derive(Default)]
struct PosTable {
    keys: Vec<(usize, Rc<[Val]>)>,
    ids: FxHashMap<(usize, Rc<[Val]>), u32>,
}

/// The interpreter over one checked program: a universe of its games, with positions
/// interned to dense `u32` ids.
pub struct Interpreter<'p> {
    program: &'p Program,
    source: &'p str,
    table: RefCell<PosTable>,
    /// Results of function calls: a function is pure, so a call with the same arguments
    /// has the same value (errors are not kept, and are raised again). Emptied when full.
    calls: RefCell<FxHashMap<(usize, Vec<Val>), Val>>,
    /// Set where the run hands over to the native solver when it is ready: a position's
    /// options are then refused, which stops the solve.
    handoff: Option<cgdl_runtime::driver::Handoff>,
    /// Least images of positions under their games' checked maps, found once a position.
    checked_images: RefCell<cgdl_runtime::rules::ImageCache<u32>>,
}

/// The most function results [`Interpreter`] keeps before it forgets them all.
const MAX_KEPT_CALLS: usize = 1 << 18;

/// The least image of a position of `fields` (in context `context`) under its context's
/// group of `found`, with its twins made least, and the maps that fix it; `None` where the
/// group is trivial and nothing moves to the corner.
fn found_least_fields(
    found: &FoundSymmetries,
    rank: &std::collections::HashMap<&Val, u32>,
    context: usize,
    fields: &[Val],
) -> Option<(Vec<Val>, u64)> {
    let group = found.groups.get(context)?;
    if group.order <= 1 && !found.to_corner && found.across.iter().all(|a| a.is_empty()) {
        return None;
    }
    // Each set field as its elements' ranks (a value outside the type stays, as it is).
    let image = |map: Option<&[u32]>| -> Vec<Val> {
        (fields.iter())
            .map(|f| match f {
                Val::Set(items) => {
                    let mut ranks: Vec<u32> = Vec::new();
                    let mut outside: Vec<Val> = Vec::new();
                    for v in items.iter() {
                        match rank.get(v) {
                            Some(&r) => ranks.push(map.map_or(r, |m| m[r as usize])),
                            None => outside.push(v.clone()),
                        }
                    }
                    for class in &group.twins {
                        let held = class.iter().filter(|r| ranks.contains(r)).count();
                        ranks.retain(|r| !class.contains(r));
                        ranks.extend(&class[..held]);
                    }
                    let set: BTreeSet<Val> = (ranks.iter())
                        .map(|&r| found.elements[r as usize].clone())
                        .chain(outside)
                        .collect();
                    match found.to_corner {
                        true => Val::Set(Rc::new(to_corner(&set))),
                        false => Val::Set(Rc::new(set)),
                    }
                }
                other => other.clone(),
            })
            .collect()
    };
    let own = image(None);
    let (mut least, mut fixing) = (own.clone(), 0u64);
    for (e, map) in group.maps.iter().enumerate() {
        let candidate = image(Some(map));
        if candidate < least {
            least = candidate;
        } else if candidate == own && e < 64 {
            fixing |= 1 << e;
        }
    }
    Some((least, fixing))
}

/// A set of cells (numbers, or tuples of numbers) moved to the corner: each part of each
/// cell less the least of that part over the set.
fn to_corner(set: &BTreeSet<Val>) -> BTreeSet<Val> {
    let part = |v: &Val, i: usize| match v {
        Val::Int(n) => *n,
        Val::Tuple(parts) => match parts.get(i) {
            Some(Val::Int(n)) => *n,
            _ => 0,
        },
        _ => 0,
    };
    let k = match set.iter().next() {
        Some(Val::Tuple(parts)) => parts.len(),
        _ => 1,
    };
    let least: Vec<i64> = (0..k)
        .map(|i| set.iter().map(|v| part(v, i)).min().unwrap_or(0))
        .collect();
    set.iter()
        .map(|v| match v {
            Val::Int(n) => Val::Int(n - least[0]),
            Val::Tuple(parts) => Val::Tuple(
                (parts.iter().zip(&least))
                    .map(|(p, l)| match p {
                        Val::Int(n) => Val::Int(n - l),
                        other => other.clone(),
                    })
                    .collect(),
            ),
            other => other.clone(),
        })
        .collect()
}

impl<'p> Interpreter<'p> {
    /// An interpreter for `program`, whose source text (for line:col in errors) is `source`.
    pub fn new(program: &'p Program, source: &'p str) -> Self {
        Interpreter {
            program,
            source,
            table: RefCell::new(PosTable::default()),
            calls: RefCell::default(),
            handoff: None,
            checked_images: RefCell::default(),
        }
    }

    /// Stops solving (every position's options are an error) once `handoff` says so: the
    /// native solver is ready to take over the query being solved.
    pub fn hand_over_with(&mut self, handoff: cgdl_runtime::driver::Handoff) {
        self.handoff = Some(handoff);
    }

    /// The error that stops a solve handed over to the native solver.
    fn handed_over(&self) -> Result<(), RuleError> {
        match &self.handoff {
            Some(h) if h.stop_now() => Err(RuleError::new("handed over to the native solver")),
            _ => Ok(()),
        }
    }

    /// The program.
    pub fn program(&self) -> &'p Program {
        self.program
    }

    /// The image of a position of game `gid` with `fields` under its declared map `k`, read
    /// off the game's symmetry tables (`opt/images.rs`) where they hold every element of
    /// its sets and say the map applies; `None` elsewhere (the map as written then says).
    fn tabled_image(&self, gid: usize, fields: &[Val], k: usize) -> Option<u32> {
        let tables = self.program.games[gid].symmetry_tables.as_ref()?;
        let table = tables.maps.get(k)?.as_ref()?;
        let (to, images) = table
            .entries
            .get(tables.context.rank_in(fields)?)?
            .as_ref()?;
        let mut image = fields.to_vec();
        for ((f, _), v) in tables.context.iter().zip(tables.context.choice(*to)) {
            image[*f] = v;
        }
        for (i, images) in images.iter().enumerate() {
            let Some(images) = images else { continue };
            let Val::Set(set) = &fields[i] else {
                return None;
            };
            let mapped = (set.iter())
                .map(|x| images.get(x)?.clone())
                .collect::<Option<BTreeSet<Val>>>()?;
            image[i] = Val::Set(Rc::new(mapped));
        }
        Some(self.intern(gid, image.into()))
    }

    /// Interns the position `game(fields)`.
    pub fn intern(&self, game: usize, fields: Rc<[Val]>) -> u32 {
        let mut t = self.table.borrow_mut();
        if let Some(&id) = t.ids.get(&(game, fields.clone())) {
            return id;
        }
        let id = t.keys.len() as u32;
        t.keys.push((game, fields.clone()));
        t.ids.insert((game, fields), id);
        id
    }

    /// The game and field values of an interned position.
    pub fn position(&self, id: u32) -> (usize, Rc<[Val]>) {
        self.table.borrow().keys[id as usize].clone()
    }

    /// Position `id`'s game and field values as the rules write it: a position of a game
    /// the compiler made to solve another on its set's complement (`opt::complement`) is
    /// that game's, with the set's complement.
    pub fn position_as_written(&self, id: u32) -> (usize, Rc<[Val]>) {
        let (gid, fields) = self.position(id);
        match (&self.program.games[gid].complement_of, fields.first()) {
            (Some(c), Some(Val::Set(free))) => {
                let Val::Set(all) = &c.all else {
                    return (gid, fields);
                };
                let filled: BTreeSet<Val> = all.difference(free).cloned().collect();
                (c.game, Rc::from(vec![Val::Set(Rc::new(filled))]))
            }
            _ => (gid, fields),
        }
    }

    /// Evaluates a closed expression (a query target with its free names in `env`).
    pub fn eval(&self, e: &IExpr, env: &mut Vec<Val>) -> Result<Val, EvalError> {
        eval(e, env, Some(self))
    }

    /// Describes where `span` is, as `line:col`.
    pub fn locate(&self, span: Span) -> String {
        self.program.locate(self.source, span.start)
    }

    /// An evaluation error as the CLI prints it: the message, then `(at line:col)` when
    /// the error has a place.
    pub fn error_text(&self, e: &EvalError) -> String {
        match e.span {
            Some(span) => format!("{} (at {})", e.message, self.locate(span)),
            None => e.message.clone(),
        }
    }

    fn make_pos(&self, game: usize, args: Vec<Val>, span: Span) -> Result<Val, EvalError> {
        let g = &self.program.games[game];
        for (f, v) in g.fields.iter().zip(&args) {
            if !f.ty.admits(v) {
                let message = field_message(&f.name, &g.name, &f.ty.to_string(), &v.to_string());
                return Err(EvalError::at(message, span));
            }
        }
        let id = self.intern(game, args.into());
        Ok(Val::Game(Rc::new(Expr::Pos(id))))
    }

    /// `pos`'s least image under its game's found symmetries (where it has some, else `pos`
    /// and no maps): the image the solver keeps values under before any map it checks.
    fn found_base(&self, game: &Game, pos: u32) -> (u32, u64) {
        match &game.found {
            Some(found) => self.found_least_image(pos, found),
            None => (pos, 0),
        }
    }

    /// The least image of `pos` under the symmetries the compiler found for its game (see
    /// [`FoundSymmetries`]): over the identity and each map of its context's group, the
    /// image with its twins made least, least by the order of the fields' values, and the
    /// maps that fix it; and the same of each image under the maps across (each in its own
    /// context), where less.
    fn found_least_image(&self, pos: u32, found: &FoundSymmetries) -> (u32, u64) {
        let (gid, fields) = self.position(pos);
        let Some(context) = found.context.rank_in(&fields) else {
            return (pos, 0);
        };
        let rank: std::collections::HashMap<&Val, u32> = (found.elements.iter())
            .enumerate()
            .map(|(i, v)| (v, i as u32))
            .collect();
        let Some((mut least, fixing)) = found_least_fields(found, &rank, context, &fields) else {
            return (pos, 0);
        };
        for (to, map) in found.across.get(context).into_iter().flatten() {
            let mut image: Vec<Val> = fields.to_vec();
            for ((f, _), v) in found.context.iter().zip(found.context.choice(*to)) {
                image[*f] = v;
            }
            for f in image.iter_mut() {
                if let Val::Set(items) = f {
                    let mapped: BTreeSet<Val> = (items.iter())
                        .map(|v| match rank.get(v) {
                            Some(&r) => found.elements[map[r as usize] as usize].clone(),
                            None => v.clone(),
                        })
                        .collect();
                    *f = Val::Set(Rc::new(mapped));
                }
            }
            let candidate =
                (found_least_fields(found, &rank, *to, &image)).map_or(image, |(least, _)| least);
            if candidate < least {
                least = candidate;
            }
        }
        (self.intern(gid, least.into()), fixing)
    }

    fn move_options(
        &self,
        game: &Game,
        moves: &[Move],
        side: Option<Side>,
        pos: u32,
        fields: &[Val],
        out: &mut Options<u32>,
    ) -> Result<(), RuleError> {
        let mut env = vec![Val::Int(0); game.locals.len()];
        env[..fields.len()].clone_from_slice(fields);
        for m in moves.iter().filter(|m| m.side.belongs_to(side)) {
            self.clauses(&m.clauses, &m.result, &mut env, out)
                .map_err(|e| {
                    if out.stopped_at_end() {
                        return RuleError::Stopped;
                    }
                    let from = || {
                        let mut from = String::new();
                        let _ = self.write_pos(pos, &mut from);
                        from
                    };
                    let at = e
                        .span
                        .map(|s| format!(" (at {})", self.locate(s)))
                        .unwrap_or_default();
                    move_error(&m.name, from, RuleError::new(format!("{}{at}", e.message)))
                })?;
        }
        Ok(())
    }

    fn clauses(
        &self,
        clauses: &[IClause],
        result: &IExpr,
        env: &mut Vec<Val>,
        out: &mut Options<u32>,
    ) -> Result<(), EvalError> {
        choices(
            clauses,
            env,
            Some(self),
            &mut |env| match self.eval(result, env)? {
                Val::Game(e) => {
                    out.expr((*e).clone());
                    out.check().map_err(|e| EvalError::plain(e.to_string()))
                }
                other => Err(EvalError::plain(format!(
                    "a move produced {other}, not a position"
                ))),
            },
        )
    }
}

/// Calls `each` once for every choice that `clauses` (a move's or a comprehension's)
/// allow, with their names bound in `env`.
fn choices(
    clauses: &[IClause],
    env: &mut Vec<Val>,
    cx: Option<&Interpreter>,
    each: &mut dyn FnMut(&mut Vec<Val>) -> Result<(), EvalError>,
) -> Result<(), EvalError> {
    let Some((first, rest)) = clauses.split_first() else {
        return each(env);
    };
    match first {
        IClause::Cond(c) => {
            if truth(&eval(c, env, cx)?)? {
                choices(rest, env, cx, each)?;
            }
        }
        IClause::Let(var, value) => {
            let value = eval(value, env, cx)?;
            ensure(env, var.slot);
            bind(std::slice::from_ref(var), value, env)?;
            choices(rest, env, cx, each)?;
        }
        IClause::Bind(vars, dom) => {
            let dom = eval(dom, env, cx)?;
            for var in vars {
                ensure(env, var.slot);
            }
            for_each(&dom, |v| {
                bind(vars, v, env)?;
                choices(rest, env, cx, each)?;
                Ok(true)
            })?;
        }
    }
    Ok(())
}

pub(crate) fn truth(v: &Val) -> Result<bool, EvalError> {
    match v {
        Val::Bool(b) => Ok(*b),
        other => Err(EvalError::plain(format!(
            "expected a boolean, found {other}"
        ))),
    }
}

fn int(v: &Val) -> Result<i64, EvalError> {
    match v {
        Val::Int(n) => Ok(*n),
        other => Err(EvalError::plain(format!(
            "expected a number, found {other}"
        ))),
    }
}

pub(crate) fn bind(vars: &[Var], v: Val, env: &mut [Val]) -> Result<(), EvalError> {
    if let [var] = vars {
        env[var.slot.index()] = v;
        return Ok(());
    }
    match v {
        Val::Tuple(vs) if vs.len() == vars.len() => {
            for (var, x) in vars.iter().zip(vs.iter()) {
                env[var.slot.index()] = x.clone();
            }
            Ok(())
        }
        other => Err(EvalError::plain(format!(
            "cannot bind {other} to a pattern of {} names",
            vars.len()
        ))),
    }
}

/// Calls `f` on each element of a domain until it returns `Ok(false)`.
pub(crate) fn for_each(
    dom: &Val,
    mut f: impl FnMut(Val) -> Result<bool, EvalError>,
) -> Result<(), EvalError> {
    match dom {
        Val::Range(lo, hi) => {
            for n in *lo..=*hi {
                spend(1)?;
                if !f(Val::Int(n))? {
                    break;
                }
            }
        }
        Val::Set(vs) => {
            for v in vs.iter() {
                spend(1)?;
                if !f(v.clone())? {
                    break;
                }
            }
        }
        Val::List(vs) => {
            for v in vs.iter() {
                spend(1)?;
                if !f(v.clone())? {
                    break;
                }
            }
        }
        other => return Err(EvalError::plain(format!("{other} is not a domain"))),
    }
    Ok(())
}

fn set_of(v: Val) -> Result<Rc<BTreeSet<Val>>, EvalError> {
    match normalized(v)? {
        Val::Set(s) => Ok(s),
        other => Err(EvalError::plain(format!("expected a set, found {other}"))),
    }
}

fn contains(dom: &Val, x: &Val) -> Result<bool, EvalError> {
    Ok(match dom {
        Val::Range(lo, hi) => matches!(x, Val::Int(n) if lo <= n && n <= hi),
        Val::Set(s) => s.contains(x),
        Val::List(l) => l.contains(x),
        other => return Err(EvalError::plain(format!("{other} is not a set"))),
    })
}

fn eval(e: &IExpr, env: &mut Vec<Val>, cx: Option<&Interpreter>) -> Result<Val, EvalError> {
    let span = &e.span();
    Ok(match e.kind() {
        IExprKind::Lit(v) | IExprKind::AllOf { values: v, .. } => v.clone(),
        IExprKind::Var(var) => env[var.slot.index()].clone(),
        IExprKind::Neg { arg } => {
            let n = int(&eval(arg, env, cx)?)?;
            Val::Int(checked::neg(n).map_err(|e| EvalError::at(e.to_string(), *span))?)
        }
        IExprKind::Not(x) => Val::Bool(!truth(&eval(x, env, cx)?)?),
        IExprKind::Bin { op, lhs: l, rhs: r } => {
            // Short-circuit logic first.
            if matches!(op, Op::And | Op::Or) {
                let a = truth(&eval(l, env, cx)?)?;
                return Ok(Val::Bool(match op {
                    Op::And => a && truth(&eval(r, env, cx)?)?,
                    _ => a || truth(&eval(r, env, cx)?)?,
                }));
            }
            let a = eval(l, env, cx)?;
            let b = eval(r, env, cx)?;
            binary(*op, a, b, *span)?
        }
        IExprKind::Field { tuple, index: i } => match eval(tuple, env, cx)? {
            Val::Tuple(vs) if *i < vs.len() => vs[*i].clone(),
            other => return Err(EvalError::plain(format!("{other} has no field .{i}"))),
        },
        IExprKind::Index { list, index } => {
            let list = eval(list, env, cx)?;
            let i = int(&eval(index, env, cx)?)?;
            match list {
                Val::List(vs) => match list_index(i, vs.len()) {
                    Ok(j) => vs[j].clone(),
                    Err(message) => return Err(EvalError::at(message, *span)),
                },
                other => return Err(EvalError::at(format!("{other} is not a list"), *span)),
            }
        }
        IExprKind::Tuple(items) => Val::Tuple(
            items
                .iter()
                .map(|i| eval(i, env, cx).and_then(normalized))
                .collect::<Result<Vec<_>, _>>()?
                .into(),
        ),
        IExprKind::Set(items) => Val::Set(Rc::new(
            items
                .iter()
                .map(|i| eval(i, env, cx).and_then(normalized))
                .collect::<Result<_, _>>()?,
        )),
        IExprKind::List(items) => Val::List(Rc::new(
            items
                .iter()
                .map(|i| eval(i, env, cx).and_then(normalized))
                .collect::<Result<_, _>>()?,
        )),
        IExprKind::If {
            cond,
            then,
            otherwise,
        } => {
            if truth(&eval(cond, env, cx)?)? {
                eval(then, env, cx)?
            } else {
                eval(otherwise, env, cx)?
            }
        }
        IExprKind::Let { var, value, body } => {
            let v = eval(value, env, cx)?;
            ensure(env, var.slot);
            env[var.slot.index()] = v;
            eval(body, env, cx)?
        }
        IExprKind::Quant {
            kind,
            vars,
            domain,
            body,
        } => {
            let dom = eval(domain, env, cx)?;
            for var in vars {
                ensure(env, var.slot);
            }
            let mut count = 0i64;
            let mut result = *kind == QuantKind::Forall;
            for_each(&dom, |v| {
                bind(vars, v, env)?;
                let b = truth(&eval(body, env, cx)?)?;
                match kind {
                    QuantKind::Exists if b => {
                        result = true;
                        return Ok(false);
                    }
                    QuantKind::Forall if !b => {
                        result = false;
                        return Ok(false);
                    }
                    QuantKind::Count if b => count += 1,
                    _ => {}
                }
                Ok(true)
            })?;
            if *kind == QuantKind::Count {
                Val::Int(count)
            } else {
                Val::Bool(result)
            }
        }
        IExprKind::Cells(op) => eval(&op.written, env, cx)?,
        IExprKind::Inverted(q) => {
            let looked_for = normalized(eval(&q.looked_for, env, cx)?)?;
            ensure(env, q.var.slot);
            let mut count = 0i64;
            if let Some(&rank) = q.table.elem_rank.get(&looked_for) {
                for &b in &q.table.rows[rank] {
                    env[q.var.slot.index()] = q.table.domain_values[b as usize].clone();
                    let holds = match &q.rest {
                        Some(rest) => truth(&eval(rest, env, cx)?)?,
                        None => true,
                    };
                    if holds {
                        count += 1;
                        if q.kind != QuantKind::Count {
                            break;
                        }
                    }
                }
            }
            match q.kind {
                QuantKind::Count => Val::Int(count),
                _ => Val::Bool(count > 0),
            }
        }
        IExprKind::Compr { elem, clauses } => {
            let mut out = BTreeSet::new();
            choices(clauses, env, cx, &mut |env| {
                out.insert(normalized(eval(elem, env, cx)?)?);
                Ok(())
            })?;
            Val::Set(Rc::new(out))
        }
        IExprKind::Closure {
            kind: ClosureKind::Components,
            seed,
            var,
            next,
        } => {
            let whole = set_of(eval(seed, env, cx)?)?;
            ensure(env, var.slot);
            let parts = components(&whole, &mut |y| {
                env[var.slot.index()] = y.clone();
                set_of(eval(next, env, cx)?)
            })?;
            Val::List(Rc::new(
                parts.into_iter().map(|p| Val::Set(Rc::new(p))).collect(),
            ))
        }
        IExprKind::Parts(op) => parts(op, env, cx)?,
        IExprKind::Closure {
            seed, var, next, ..
        } => {
            let mut seen: BTreeSet<Val> = set_of(eval(seed, env, cx)?)?.iter().cloned().collect();
            let mut work: Vec<Val> = seen.iter().cloned().collect();
            ensure(env, var.slot);
            while let Some(x) = work.pop() {
                env[var.slot.index()] = x;
                for y in set_of(eval(next, env, cx)?)?.iter() {
                    spend(1)?;
                    if seen.insert(y.clone()) {
                        work.push(y.clone());
                    }
                }
            }
            Val::Set(Rc::new(seen))
        }
        IExprKind::Slice { list, lo, hi } => {
            let Val::List(items) = eval(list, env, cx)? else {
                return Err(EvalError::at("only lists can be sliced", *span));
            };
            let lo = lo.as_ref().map(|b| int(&eval(b, env, cx)?)).transpose()?;
            let hi = hi.as_ref().map(|b| int(&eval(b, env, cx)?)).transpose()?;
            match slice_range(lo, hi, items.len()) {
                Ok(range) => Val::List(Rc::new(items[range].to_vec())),
                Err(message) => return Err(EvalError::at(message, *span)),
            }
        }
        IExprKind::With { list, index, value } => {
            let Val::List(items) = eval(list, env, cx)? else {
                return Err(EvalError::at("`with` needs a list", *span));
            };
            let i = int(&eval(index, env, cx)?)?;
            let v = normalized(eval(value, env, cx)?)?;
            let j = list_index(i, items.len()).map_err(|m| EvalError::at(m, *span))?;
            let mut items = (*items).clone();
            items[j] = v;
            Val::List(Rc::new(items))
        }
        IExprKind::Call {
            func,
            args,
            in_table,
            ..
        } => {
            let cx = cx.ok_or_else(|| EvalError::plain("function call in a constant"))?;
            let f = &cx.program.fns[*func];
            // Native code reads the table unchecked where `in_table` says the arguments lie
            // in it: where they do not, the proof was wrong.
            let unproven = || {
                EvalError::at(
                    format!(
                        "internal error: a call of `{}` proven to lie in its table does not",
                        f.name
                    ),
                    *span,
                )
            };
            let mut frame = Vec::with_capacity(f.locals.len());
            for (a, (name, ty)) in args.iter().zip(&f.params) {
                let v = eval(a, env, Some(cx))?;
                // An argument is checked against its parameter's type, as a field is.
                if !ty.admits_its_static_type() && !ty.admits(&v.clone().normalize()) {
                    if *in_table {
                        return Err(unproven());
                    }
                    return Err(EvalError::plain(cgdl_runtime::native::argument_message(
                        name,
                        &f.name,
                        &ty.to_string(),
                        &v.normalize().to_string(),
                    )));
                }
                frame.push(v);
            }
            if let Some(v) = (f.table.as_ref()).and_then(|t| t.by_args.get(&frame)) {
                return Ok(v.clone());
            }
            if *in_table {
                return Err(unproven());
            }
            let key = (*func, frame);
            if let Some(v) = cx.calls.borrow().get(&key) {
                return Ok(v.clone());
            }
            let mut frame = key.1.clone();
            frame.resize(f.locals.len(), Val::Int(0));
            let v = eval(&f.body, &mut frame, Some(cx))?;
            let mut calls = cx.calls.borrow_mut();
            if calls.len() >= MAX_KEPT_CALLS {
                calls.clear();
            }
            calls.insert(key, v.clone());
            v
        }
        IExprKind::Builtin { func, args } => {
            let vals = args
                .iter()
                .map(|a| eval(a, env, cx))
                .collect::<Result<Vec<_>, _>>()?;
            builtin(*func, vals, *span)?
        }
        IExprKind::Pos { game, args, fits } => {
            let cx = cx.ok_or_else(|| EvalError::plain("position in a constant"))?;
            let vals = args
                .iter()
                .map(|a| eval(a, env, Some(cx)).and_then(normalized))
                .collect::<Result<Vec<_>, _>>()?;
            // Native code packs a position proven to fit without checks: a value that does
            // not fit is the proof's error, not the rules'.
            (cx.make_pos(*game, vals, *span)).map_err(|e| match fits {
                true => EvalError::at(
                    format!(
                        "internal error: a position proven to fit does not: {}",
                        e.message
                    ),
                    *span,
                ),
                false => e,
            })?
        }
        IExprKind::Variant { variant, args } => {
            let vals = args
                .iter()
                .map(|a| eval(a, env, cx).and_then(normalized))
                .collect::<Result<Vec<_>, _>>()?;
            variant
                .build(vals)
                .map_err(|message| EvalError::at(message, *span))?
        }
        IExprKind::Match {
            scrutinee,
            arms,
            default,
            ..
        } => {
            let Val::Tag(tag) = eval(scrutinee, env, cx)? else {
                return Err(EvalError::plain(
                    "match on a value that is not a tagged union",
                ));
            };
            match arms.iter().find(|arm| arm.variant == tag.variant) {
                Some(arm) => {
                    for (var, v) in arm.vars.iter().zip(tag.fields.iter()) {
                        ensure(env, var.slot);
                        env[var.slot.index()] = v.clone();
                    }
                    eval(&arm.body, env, cx)?
                }
                None => match default {
                    Some(d) => eval(d, env, cx)?,
                    None => return Err(EvalError::plain("no match arm for this variant")),
                },
            }
        }
        IExprKind::End => Val::Game(Rc::new(Expr::End)),
        IExprKind::CompoundOf {
            kind,
            elem,
            clauses,
        } => compound_of(*kind, elem, clauses, env, cx)?,
        IExprKind::Leaves(leaves) => match &**leaves {
            Leaves::Pair { a, b, span } => {
                let (a, b) = (eval(a, env, cx)?, eval(b, env, cx)?);
                binary(Op::GameSum, a, b, *span)?
            }
            Leaves::Each { elem, clauses } => {
                compound_of(cgdl_runtime::Compound::Sum, elem, clauses, env, cx)?
            }
        },
        // By definition: `min` (`max`) of the comprehension's set.
        IExprKind::Extreme(x) => {
            let mut set = BTreeSet::new();
            choices(&x.clauses, env, cx, &mut |env| {
                set.insert(normalized(eval(&x.elem, env, cx)?)?);
                Ok(())
            })?;
            let func = match x.largest {
                true => Builtin::Max,
                false => Builtin::Min,
            };
            builtin(func, vec![Val::Set(Rc::new(set))], *span)?
        }
        IExprKind::Compound { kind, parts } => {
            let mut children = Vec::with_capacity(parts.len());
            for p in parts {
                children.push(position_of(eval(p, env, cx)?)?);
            }
            Val::Game(Rc::new(Expr::compound_in_order(*kind, children)))
        }
    })
}

/// The compound of kind `kind` with a position `elem` for each choice of `clauses`.
fn compound_of(
    kind: cgdl_runtime::Compound,
    elem: &IExpr,
    clauses: &[IClause],
    env: &mut Vec<Val>,
    cx: Option<&Interpreter>,
) -> Result<Val, EvalError> {
    let mut children = Vec::new();
    choices(clauses, env, cx, &mut |env| {
        children.push(position_of(eval(elem, env, cx)?)?);
        spend(1)
    })?;
    Ok(Val::Game(Rc::new(Expr::compound_in_order(kind, children))))
}

/// A set value's elements.
type Set = Rc<BTreeSet<Val>>;

/// The position a value is, or why it is not one.
fn position_of(v: Val) -> Result<Expr<u32>, EvalError> {
    match v {
        Val::Game(g) => Ok((*g).clone()),
        other => Err(EvalError::plain(format!("{other} is not a position"))),
    }
}

/// The parts of `whole` by `step` (`components(whole, x => step(x))`), in the order of
/// their least elements: part by part from the least element left, wave by wave through
/// what the steps reach (each wave in increasing order); a step into an earlier part joins
/// it to this one.
fn components(
    whole: &BTreeSet<Val>,
    step: &mut dyn FnMut(&Val) -> Result<Set, EvalError>,
) -> Result<Vec<BTreeSet<Val>>, EvalError> {
    let mut parts: Vec<BTreeSet<Val>> = Vec::new();
    let mut left: BTreeSet<Val> = whole.clone();
    while let Some(x) = left.pop_first() {
        let mut part = BTreeSet::from([x.clone()]);
        let mut wave = vec![x];
        while !wave.is_empty() {
            let mut reached = BTreeSet::new();
            for y in wave {
                let step = step(&y)?;
                spend(step.len() as u64)?;
                reached.extend(step.iter().filter(|z| whole.contains(*z)).cloned());
            }
            if reached
                .iter()
                .any(|z| !part.contains(z) && !left.contains(z))
            {
                spend(parts.len() as u64)?;
                let (joined, apart): (Vec<_>, Vec<_>) =
                    parts.into_iter().partition(|p| !p.is_disjoint(&reached));
                joined.into_iter().for_each(|p| part.extend(p));
                parts = apart;
            }
            wave = reached.into_iter().filter(|z| left.remove(z)).collect();
            part.extend(wave.iter().cloned());
        }
        parts.push(part);
    }
    parts.sort_by(|a, b| a.first().cmp(&b.first()));
    Ok(parts)
}

/// The value of a set divided by a table of its cells' steps ([`PartsOp`]).
fn parts(op: &PartsOp, env: &mut Vec<Val>, cx: Option<&Interpreter>) -> Result<Val, EvalError> {
    let (seed, var, next) = op.closure();
    let whole = set_of(eval(seed, env, cx)?)?;
    let PartsKind::Sum {
        part,
        board,
        joined,
        ..
    } = &op.kind
    else {
        // The list of parts, each step from the table where it holds the cell.
        ensure(env, var.slot);
        let parts = components(&whole, &mut |y| match op.steps.by_cell.get(y) {
            Some(step) => Ok(step.clone()),
            None => {
                env[var.slot.index()] = y.clone();
                set_of(eval(next, env, cx)?)
            }
        })?;
        return Ok(Val::List(Rc::new(
            parts.into_iter().map(|p| Val::Set(Rc::new(p))).collect(),
        )));
    };
    // A set within the board is divided by the board's table, its cells by rank.
    let Some(ranks) = (whole.iter())
        .map(|x| board.rank(x))
        .collect::<Option<Vec<usize>>>()
    else {
        return eval(&op.written, env, cx);
    };
    let IExprKind::CompoundOf { elem, .. } = op.written.kind() else {
        unreachable!("the sum of parts is a sum")
    };
    // The set's own cells by rank: the parts share them (the positions made keep them).
    let mut cells_by_rank: Vec<Option<&Val>> = vec![None; 128];
    for (x, &r) in whole.iter().zip(&ranks) {
        cells_by_rank[r] = Some(x);
    }
    let whole_bits: u128 = ranks.iter().fold(0, |bits, &r| bits | 1 << r);
    ensure(env, part.slot);
    let mut children = Vec::new();
    // The regions as native code finds them: the runtime's search of the board's table.
    let steps = cgdl_runtime::native::RankSteps::new(joined);
    cgdl_runtime::native::try_rank_components(whole_bits, &steps, |found| {
        spend(u64::from(found.count_ones()))?;
        let cells = (0..128).filter_map(|r| cells_by_rank[r].filter(|_| found >> r & 1 == 1));
        env[part.slot.index()] = Val::Set(Rc::new(cells.cloned().collect()));
        children.push(position_of(eval(elem, env, cx)?)?);
        spend(1)
    })?;
    Ok(Val::Game(Rc::new(Expr::compound_in_order(
        cgdl_runtime::Compound::Sum,
        children,
    ))))
}

/// The most positions the interpreter's Grundy kernel lays out: a game of ranges and `bool`s
/// ([`Digits`]) of fewer positions. (Not a heap's one `nat` field, as native code does: the
/// interpreter interns every position its table holds, which its solver cannot forget under
/// `--max-memory`, and a heap's table grows with the largest heap asked.)
const DENSE_LIMIT: u128 = 1 << 18;

/// The digits of `game` where the interpreter's kernel lays its positions out densely.
fn dense_digits(game: &Game) -> Option<Digits> {
    Digits::of(game).filter(|d| !d.fields.is_empty() && d.size < DENSE_LIMIT)
}

/// A game's positions as the cells of its Grundy kernel: each cell's value from its kernel
/// moves' options, read from the earlier cells.
struct DenseGame<'i, 'p> {
    interp: &'i Interpreter<'p>,
    gid: usize,
    digits: Digits,
    moves: &'p [KernelMove],
}

impl cgdl_runtime::kernel::DenseCells for DenseGame<'_, '_> {
    type Pos = u32;
    const ROW: usize = 0;

    fn pos(&self, cur: usize) -> u32 {
        self.interp
            .intern(self.gid, self.digits.values_at(cur).into())
    }

    fn value<G: cgdl_runtime::kernel::EarlierValues + ?Sized>(
        &self,
        cur: usize,
        g: &G,
        marks: &mut cgdl_runtime::kernel::Marks,
    ) -> Option<u32> {
        let fields = self.digits.values_at(cur);
        let game = &self.interp.program.games[self.gid];
        let mut env = vec![Val::Int(0); game.locals.len()];
        env[..fields.len()].clone_from_slice(&fields);
        marks.clear();
        // Any error, or an option that is not an earlier cell, declines (the search then
        // reports or handles it as the rules say).
        let decline = || EvalError::plain("the kernel declines");
        for m in self.moves {
            let mut mark = |env: &mut Vec<Val>| -> Result<(), EvalError> {
                let v = self.result(&m.result, env, g).ok_or_else(decline)?;
                marks.mark(v);
                Ok(())
            };
            choices(&m.clauses, &mut env, Some(self.interp), &mut |env| {
                mark(env)
            })
            .ok()?;
        }
        Some(marks.mex())
    }
}

impl DenseGame<'_, '_> {
    /// The value a kernel result marks, or `None` where the kernel declines.
    fn result<G: cgdl_runtime::kernel::EarlierValues + ?Sized>(
        &self,
        result: &KernelResult,
        env: &mut Vec<Val>,
        g: &G,
    ) -> Option<u32> {
        let earlier = |args: &[IExpr], env: &mut Vec<Val>| -> Option<u32> {
            let fields = (args.iter())
                .map(|a| self.interp.eval(a, env).ok())
                .collect::<Option<Vec<Val>>>()?;
            g.earlier(self.digits.index_of(&fields)?)
        };
        match result {
            KernelResult::End => Some(0),
            KernelResult::Position(args) => earlier(args, env),
            KernelResult::Sum(a, b) => Some(earlier(a, env)? ^ earlier(b, env)?),
            KernelResult::If {
                cond,
                then,
                otherwise,
            } => match self.interp.eval(cond, env).ok()? {
                Val::Bool(true) => self.result(then, env, g),
                Val::Bool(false) => self.result(otherwise, env, g),
                _ => None,
            },
            KernelResult::Let { var, value, body } => {
                let v = self.interp.eval(value, env).ok()?;
                ensure(env, var.slot);
                env[var.slot.index()] = v;
                self.result(body, env, g)
            }
        }
    }
}

fn ensure(env: &mut Vec<Val>, slot: VarId) {
    if env.len() <= slot.index() {
        env.resize(slot.index() + 1, Val::Int(0));
    }
}

fn binary(op: Op, a: Val, b: Val, span: Span) -> Result<Val, EvalError> {
    Ok(match op {
        Op::Eq => Val::Bool(normalized(a)? == normalized(b)?),
        Op::Ne => Val::Bool(normalized(a)? != normalized(b)?),
        Op::Lt | Op::Le | Op::Gt | Op::Ge => {
            // Numbers by value; other values in the order Rust derives (tuples
            // lexicographically, tags by declaration then payload, sets by their sorted
            // elements), as native code compares them.
            let order = match (&a, &b) {
                (Val::Int(x), Val::Int(y)) => x.cmp(y),
                _ => normalized(a)?.cmp(&normalized(b)?),
            };
            Val::Bool(match op {
                Op::Lt => order.is_lt(),
                Op::Le => order.is_le(),
                Op::Gt => order.is_gt(),
                _ => order.is_ge(),
            })
        }
        Op::In => Val::Bool(contains(&b, &normalized(a)?)?),
        Op::NotIn => Val::Bool(!contains(&b, &normalized(a)?)?),
        Op::RangeIncl => Val::Range(int(&a)?, int(&b)?),
        Op::RangeExcl => match int(&b)?.checked_sub(1) {
            Some(hi) => Val::Range(int(&a)?, hi),
            None => Val::EMPTY_RANGE,
        },
        Op::Add | Op::Sub | Op::NatSub | Op::Mul | Op::Div | Op::Rem => {
            let (x, y) = (int(&a)?, int(&b)?);
            let result = match op {
                Op::Add => checked::add(x, y),
                Op::Sub => checked::sub(x, y),
                Op::NatSub => checked::nat_sub(x, y),
                Op::Mul => checked::mul(x, y),
                Op::Div => checked::div(x, y),
                _ => checked::rem(x, y),
            };
            Val::Int(result.map_err(|e| EvalError::at(e.to_string(), span))?)
        }
        Op::SetUnion => {
            let (x, y) = (set_of(a)?, set_of(b)?);
            spend((x.len() + y.len()) as u64)?;
            Val::Set(Rc::new(x.union(&*y).cloned().collect()))
        }
        Op::SetInter => Val::Set(Rc::new(
            set_of(a)?.intersection(&*set_of(b)?).cloned().collect(),
        )),
        Op::SetDiff => Val::Set(Rc::new(
            set_of(a)?.difference(&*set_of(b)?).cloned().collect(),
        )),
        // By definition: the union with (difference from) the set of the one element.
        Op::Insert | Op::Remove => {
            let one = Val::Set(Rc::new(BTreeSet::from([normalized(b)?])));
            let op = match op {
                Op::Insert => Op::SetUnion,
                _ => Op::SetDiff,
            };
            binary(op, a, one, span)?
        }
        Op::Concat => match (a, b) {
            (Val::List(x), Val::List(y)) => {
                spend((x.len() + y.len()) as u64)?;
                Val::List(Rc::new(x.iter().chain(y.iter()).cloned().collect()))
            }
            _ => return Err(EvalError::at("`++` needs two lists", span)),
        },
        Op::GameSum => match (a, b) {
            (Val::Game(x), Val::Game(y)) => Val::Game(Rc::new(Expr::compound_in_order(
                cgdl_runtime::Compound::Sum,
                [(*x).clone(), (*y).clone()],
            ))),
            _ => return Err(EvalError::at("`+` of positions needs two positions", span)),
        },
        Op::Or | Op::And => unreachable!("handled with short-circuit"),
    })
}

fn builtin(b: Builtin, mut vals: Vec<Val>, span: Span) -> Result<Val, EvalError> {
    Ok(match b {
        Builtin::Abs => {
            Val::Int(checked::abs(int(&vals[0])?).map_err(|e| EvalError::at(e.to_string(), span))?)
        }
        Builtin::Len => match vals.pop() {
            // As native code counts a range: without its elements, at most i64::MAX.
            Some(Val::Range(lo, hi)) => Val::Int(
                i64::try_from(cgdl_runtime::native::Range::inclusive(lo, hi).len())
                    .unwrap_or(i64::MAX),
            ),
            Some(Val::Set(s)) => Val::Int(s.len() as i64),
            Some(Val::List(l)) => Val::Int(l.len() as i64),
            _ => return Err(EvalError::at("`len` needs a set or list", span)),
        },
        Builtin::Min | Builtin::Max => {
            let items: Vec<Val> = if vals.len() == 1 {
                match vals.pop() {
                    Some(Val::Range(lo, hi)) if lo <= hi => {
                        vec![Val::Int(if b == Builtin::Min { lo } else { hi })]
                    }
                    Some(Val::Set(s)) => s.iter().cloned().collect(),
                    Some(Val::List(l)) => (*l).clone(),
                    _ => Vec::new(),
                }
            } else {
                vals.into_iter().map(normalized).collect::<Result<_, _>>()?
            };
            let pick = if b == Builtin::Min {
                items.into_iter().min()
            } else {
                items.into_iter().max()
            };
            pick.ok_or_else(|| {
                EvalError::at(
                    format!(
                        "`{}` of an empty set",
                        if b == Builtin::Min { "min" } else { "max" }
                    ),
                    span,
                )
            })?
        }
    })
}

impl Rules for Interpreter<'_> {
    type Pos = u32;

    fn options(&self, pos: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        self.handed_over()?;
        let (gid, fields) = self.position(pos);
        let game = &self.program.games[gid];
        let heap = || match fields.first() {
            Some(Val::Int(n)) => Ok(*n),
            _ => Err(RuleError::new(format!("{} needs a heap size", game.name))),
        };
        match &game.kind {
            GameKind::Rules(_) if game.partizan => return Err(partizan_options(&game.name)),
            GameKind::Rules(moves) => self.move_options(game, moves, None, pos, &fields, out)?,
            GameKind::Subtraction(set) => {
                let h = |k: i64| self.intern(gid, vec![Val::Int(k)].into());
                cgdl_runtime::rules::subtraction_options(heap()?, set, h, out);
            }
            GameKind::Octal(digits) => {
                let h = |k: i64| self.intern(gid, vec![Val::Int(k)].into());
                cgdl_runtime::rules::heap_options(heap()?, digits, h, out)?;
            }
        }
        Ok(())
    }

    /// The game's end probe (`opt/probe.rs`), where the optimizer found one.
    fn ends_now(&self, pos: u32) -> Option<Result<bool, RuleError>> {
        let (gid, fields) = self.position(pos);
        let game = &self.program.games[gid];
        let probe = game.end_probe.as_ref()?;
        if let Err(e) = self.handed_over() {
            return Some(Err(e));
        }
        let mut env = vec![Val::Int(0); game.locals.len()];
        env[..fields.len()].clone_from_slice(&fields);
        Some(match self.eval(probe, &mut env) {
            Ok(v) => truth(&v).map_err(|e| RuleError::new(self.error_text(&e))),
            Err(e) => Err(RuleError::new(self.error_text(&e))),
        })
    }

    /// The game's open moves (`opt/open.rs`), where it has them.
    fn options_open(&self, pos: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        let (gid, fields) = self.position(pos);
        let game = &self.program.games[gid];
        match &game.open_moves {
            Some(moves) if !game.partizan => {
                self.handed_over()?;
                self.move_options(game, moves, None, pos, &fields, out)
            }
            _ => self.options(pos, out),
        }
    }

    fn least_image(&self, pos: u32) -> u32 {
        self.least_image_fixing(pos).0
    }

    fn has_symmetries(&self) -> bool {
        (self.program.games.iter()).any(|g| !g.symmetries.is_empty() || g.found.is_some())
    }

    fn has_proven_symmetries(&self) -> bool {
        (self.program.games.iter()).any(|g| g.has_proven_symmetries())
    }

    fn least_image_fixing(&self, pos: u32) -> (u32, u64) {
        let game = &self.program.games[self.position(pos).0];
        let base = self.found_base(game, pos);
        let maps = game.symmetries.len();
        if maps == 0 {
            return base;
        }
        let image = |p, k| self.symmetry_image(p, k);
        match game.checks_symmetries() {
            // The maps the solver checks, over the found symmetries' least image: once a
            // position (the maps are evaluated as written).
            true => {
                let (base, fixing) = base;
                let mut cache = self.checked_images.borrow_mut();
                let least = cache.image(base, |b| {
                    cgdl_runtime::rules::checked_least_image_fixing(b, maps, image).0
                });
                (least, fixing)
            }
            false => cgdl_runtime::rules::least_image_fixing(pos, maps, image),
        }
    }

    fn proven_least_image_fixing(&self, pos: u32) -> (u32, u64) {
        let game = &self.program.games[self.position(pos).0];
        match game.checks_symmetries() {
            true => self.found_base(game, pos),
            false => self.least_image_fixing(pos),
        }
    }

    fn checked_symmetries(&self, pos: u32) -> usize {
        let game = &self.program.games[self.position(pos).0];
        match game.checks_symmetries() {
            true => game.symmetries.len(),
            false => 0,
        }
    }

    /// The image of `pos` under declared map `k`, as the solver sees it: where the game has
    /// found symmetries too, the image's least image under them.
    fn symmetry_image(&self, pos: u32, k: usize) -> Option<u32> {
        let (gid, fields) = self.position(pos);
        let game = &self.program.games[gid];
        let image = match self.tabled_image(gid, &fields, k) {
            Some(image) => image,
            None => {
                let mut env = vec![Val::Int(0); game.locals.len()];
                env[..fields.len()].clone_from_slice(&fields);
                // A map whose image fails (a field outside its type) is not applied.
                match self.eval(&game.symmetries.get(k)?.result, &mut env) {
                    Ok(Val::Game(e)) => match *e {
                        Expr::Pos(q) => q,
                        _ => return None,
                    },
                    _ => return None,
                }
            }
        };
        Some(self.found_base(game, image).0)
    }

    fn symmetry_name(&self, pos: u32, k: usize) -> String {
        let game = &self.program.games[self.position(pos).0];
        match game.symmetries.get(k) {
            Some(s) => s.name.clone(),
            None => format!("#{k}"),
        }
    }

    fn forget_positions(&self) -> bool {
        *self.table.borrow_mut() = PosTable::default();
        *self.checked_images.borrow_mut() = Default::default();
        true
    }

    fn is_partizan(&self, pos: u32) -> bool {
        self.program.games[self.position(pos).0].partizan
    }

    fn splits(&self, pos: u32) -> bool {
        self.program.splits(self.position(pos).0)
    }

    fn rejoin(&self, of: u32, parts: &[u32]) -> Option<u32> {
        let (gid, _) = self.position(of);
        // Only a game the splits pass rewrote.
        if !self.program.games[gid].split {
            return None;
        }
        let mut whole = BTreeSet::new();
        for &p in parts {
            match self.position(p) {
                (g, fields) if g == gid => match &fields[0] {
                    Val::Set(s) => whole.extend(s.iter().cloned()),
                    _ => return None,
                },
                _ => return None,
            }
        }
        Some(self.intern(gid, vec![Val::Set(Rc::new(whole))].into()))
    }

    fn side_options(&self, pos: u32, side: Side, out: &mut Options<u32>) -> Result<(), RuleError> {
        self.handed_over()?;
        let (gid, fields) = self.position(pos);
        let game = &self.program.games[gid];
        match &game.kind {
            GameKind::Rules(moves) => self.move_options(game, moves, Some(side), pos, &fields, out),
            _ => self.options(pos, out),
        }
    }

    fn dense_index(&self, pos: u32) -> Option<usize> {
        Some(pos as usize)
    }

    fn heap_of(&self, pos: u32) -> Option<(&[u8], u64)> {
        let (gid, fields) = self.position(pos);
        let game = &self.program.games[gid];
        match (&game.heap_code, fields.first()) {
            (Some(digits), Some(&Val::Int(n))) if fields.len() == 1 => {
                Some((digits.as_slice(), u64::try_from(n).ok()?))
            }
            _ => None,
        }
    }

    fn grundy_kernel(
        &self,
        pos: u32,
        known: &dyn Fn(u32) -> Option<u32>,
        out: &mut Vec<(u32, u32)>,
        budget: u64,
        tables: &mut cgdl_runtime::KernelTables,
    ) -> cgdl_runtime::KernelAnswer {
        let (gid, fields) = self.position(pos);
        let game = &self.program.games[gid];
        // A heap game's Grundy values come from the runtime's heap engine.
        if let (Some(digits), Some(Val::Int(n))) = (&game.heap_code, fields.first()) {
            return cgdl_runtime::kernel::heap_kernel(gid, digits, *n, budget, tables);
        }
        // Moves in kernel form (`opt/kernel.rs`) over positions that index densely: a table
        // filled in index order.
        let (Some(moves), Some(digits)) = (&game.kernel_moves, dense_digits(game)) else {
            return cgdl_runtime::KernelAnswer::Declined;
        };
        let Some(target) = digits.index_of(&fields) else {
            return cgdl_runtime::KernelAnswer::Declined;
        };
        let cells = DenseGame {
            interp: self,
            gid,
            digits,
            moves,
        };
        cgdl_runtime::kernel::fill_dense_serial(&cells, gid, target, known, out, budget, tables)
    }

    fn write_pos(&self, pos: u32, out: &mut dyn fmt::Write) -> fmt::Result {
        let (gid, fields) = self.position_as_written(pos);
        out.write_str(&self.program.games[gid].name)?;
        if fields.is_empty() {
            return Ok(());
        }
        write_list(out, "(", fields.iter(), ")")
    }
}
