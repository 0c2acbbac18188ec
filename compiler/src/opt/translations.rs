//! The translation pass: whether a game on a board has the same values wherever its
//! position lies on the board, proven from its rules.
//!
//! A game whose one field is a set of cells of a box (`set<(0..R, 0..C)>`, or of `0..N`)
//! is *translation-invariant* when moving a position by a vector `t` (every cell `x` to
//! `x + t`, all of them staying on the board) moves its options by `t` too, or leaves
//! them unchanged. The pass proves it by classifying each expression of the rules:
//!
//! - *sets*: the field, and sets made from sets by `-`, `&`, `|`, comprehensions and
//!   `closure` over them, `{a, b}` of elements; each lies within the position, so it moves
//!   with it;
//! - *elements*: a binder over a set, `min` and `max` of a set (translation keeps the
//!   order of cells: tuples compare part by part);
//! - *invariants*: values that do not move: constants, `x in s`, `==` and `<` of elements,
//!   `len`, arithmetic on invariants, and *tables*: an expression that reads only elements
//!   (`next_to(a, b)`), checked at every choice of them to give the same value (or fail
//!   alike) wherever a unit step keeps them on the board; and a *move to the corner*,
//!   `{ (x.0 - r0, x.1 - c0) for x in s }` with `r0`, `c0` the least of each part of `s`,
//!   which is the same set wherever `s` lies;
//! - *positions*: the game's own positions of sets or invariants (the same values, by
//!   induction on the game tree), other games' positions of invariants, their sums.
//!
//! Anything else (a cell named by a constant, a quantifier over the whole board, a part
//! of a cell read outside a table) ends the proof: the game is left as it is.
//!
//! Where the rules move their sets to the corner, the pass keeps them also with each move
//! to the corner dropped ([`Translation::stripped`]): both have the same values (each
//! move to the corner only translates a set that is never empty). The symmetry pass
//! finds the symmetries of that form, which a move to the corner hides; the solver keeps a
//! position as the least of its images each moved to the corner.

use crate::interp::{within_budget, Interpreter};
use crate::ir::*;
use std::collections::HashSet;

/// Steps (interpreter steps of the tables' checks) the pass may spend on one game.
const BUDGET: u64 = 20_000_000;
/// The most choices of a table's elements the pass evaluates.
const MAX_TABLE: usize = 200_000;
/// How deep calls of helper functions are followed.
const MAX_DEPTH: usize = 8;

/// What the pass proved of a translation-invariant game.
#[derive(Clone, Debug)]
pub struct Translation {
    /// The board's size in each part of a cell (cells are `0..size` in each).
    pub dims: Vec<i64>,
    /// The rules with every move to the corner dropped (the set itself in its place),
    /// where the rules have one and each moves a set that is never empty: the same values.
    pub stripped: Option<Vec<Move>>,
}

/// Runs the pass on every game of `program`.
pub fn run(program: &mut Program, source: &str) {
    let found: Vec<Option<Translation>> = {
        let interp = Interpreter::new(program, source);
        (0..program.games.len())
            .map(|gid| analyse(program, &interp, gid))
            .collect()
    };
    for (game, t) in program.games.iter_mut().zip(found) {
        game.translation = t;
    }
}

/// The sizes of a box's parts: `0..n`, or a tuple of them.
fn box_dims(ty: &FieldTy) -> Option<Vec<i64>> {
    let part = |t: &FieldTy| match t {
        FieldTy::Range(0, hi) if *hi >= 0 => Some(hi + 1),
        _ => None,
    };
    let dims = match ty {
        FieldTy::Tuple(parts) if !parts.is_empty() => {
            parts.iter().map(part).collect::<Option<Vec<_>>>()?
        }
        other => vec![part(other)?],
    };
    let cells = dims.iter().try_fold(1i64, |n, d| n.checked_mul(*d))?;
    (cells <= 128).then_some(dims)
}

/// Whether game `gid` is translation-invariant, and its rules without moves to the
/// corner.
pub fn analyse(program: &Program, interp: &Interpreter, gid: usize) -> Option<Translation> {
    let game = &program.games[gid];
    let GameKind::Rules(moves) = &game.kind else {
        return None;
    };
    let [field] = game.fields.as_slice() else {
        return None;
    };
    let FieldTy::Set(elem) = &field.ty else {
        return None;
    };
    let dims = box_dims(elem)?;
    let mut proof = Proof {
        program,
        interp,
        gid,
        dims: dims.clone(),
        depth: 0,
        corners: false,
        why: None,
    };
    let (proven, spent) = within_budget(BUDGET, || {
        moves
            .iter()
            .all(|m| proof.one_move(m, game.locals.len()).is_some())
    });
    if std::env::var_os("CGDL_DEBUG_TRANSLATION").is_some() {
        eprintln!(
            "{}: translations {} (spent {spent}) {}",
            game.name,
            if proven { "proven" } else { "not proven" },
            proof.why.as_deref().unwrap_or("")
        );
    }
    if !proven || spent {
        return None;
    }
    let stripped = proof.corners.then(|| strip_moves(program, moves)).flatten();
    Some(Translation { dims, stripped })
}

/// Where a name a table reads takes its value from: the index of its cell among the cells
/// the table reads, and the part of that cell (`None`: the whole cell).
type Assign = (usize, Option<usize>);

/// What a value does when the position moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// It stays the same.
    Inv,
    /// A cell of the position: it moves with it.
    Elem,
    /// A point of the board's lattice that moves with the position, perhaps off the board
    /// (`a + 1`, `(r, c + 1)`: a table of cells that moves with them).
    Moved,
    /// A set of such points (`{a, a + 1}`).
    MovedSet,
    /// A set of cells of the position: it moves with it.
    Set,
    /// A list or set of such sets (`components`): each moves with it.
    Sets,
    /// A position expression whose values stay the same.
    Pos,
    /// The least of part `.0` of the cells of the set in slot `.1` (only for a move to the
    /// corner).
    Least(usize, VarId),
    /// Part `.0` of a cell of the position that a pattern (`(r, c) in s`) takes apart, the
    /// pattern named by the slot `.1` of its first name (read only by tables).
    Part(usize, VarId),
}

/// The classes of the names of one frame (a move's, or a helper function's).
struct Env {
    classes: Vec<Option<Class>>,
    frame: usize,
}

impl Env {
    fn new(frame: usize) -> Env {
        Env {
            classes: vec![None; frame],
            frame,
        }
    }

    fn set(&mut self, v: &Var, class: Class) -> Option<()> {
        *self.classes.get_mut(v.slot.index())? = Some(class);
        Some(())
    }

    fn of(&self, v: &Var) -> Option<Class> {
        *self.classes.get(v.slot.index())?
    }
}

struct Proof<'a> {
    program: &'a Program,
    interp: &'a Interpreter<'a>,
    gid: usize,
    dims: Vec<i64>,
    depth: usize,
    /// Whether some move to the corner was met.
    corners: bool,
    /// The innermost expression where the proof failed (for `CGDL_DEBUG_TRANSLATION`).
    why: Option<String>,
}

impl Proof<'_> {
    fn one_move(&mut self, m: &Move, frame: usize) -> Option<()> {
        let mut env = Env::new(frame);
        env.classes[0] = Some(Class::Set);
        self.clauses(&m.clauses, &mut env)?;
        match self.class(&m.result, &mut env)? {
            Class::Pos => Some(()),
            _ => None,
        }
    }

    /// Classifies a binder's names over a domain of class `dom`.
    fn bind(&self, vars: &[Var], dom: Class, env: &mut Env) -> Option<()> {
        match (dom, vars) {
            (Class::Set, [x]) => env.set(x, Class::Elem),
            (Class::Set, parts) if parts.len() == self.dims.len() && parts.len() > 1 => {
                (parts.iter().enumerate())
                    .try_for_each(|(i, v)| env.set(v, Class::Part(i, parts[0].slot)))
            }
            (Class::MovedSet, [x]) => env.set(x, Class::Moved),
            (Class::Sets, [x]) => env.set(x, Class::Set),
            (Class::Inv, _) => vars.iter().try_for_each(|v| env.set(v, Class::Inv)),
            _ => None,
        }
    }

    fn clauses(&mut self, clauses: &[IClause], env: &mut Env) -> Option<()> {
        for (i, c) in clauses.iter().enumerate() {
            match c {
                IClause::Bind(vars, dom) => {
                    let dom = self.class(dom, env)?;
                    self.bind(vars, dom, env)?;
                }
                IClause::Cond(e) => {
                    if let Some(IClause::Cond(next)) = clauses.get(i + 1) {
                        if self.board_guard(e, next, env) {
                            continue;
                        }
                    }
                    (self.class(e, env)? == Class::Inv).then_some(())?;
                }
                IClause::Let(v, e) => {
                    let c = self.class(e, env)?;
                    env.set(v, c)?;
                }
            }
        }
        Some(())
    }

    /// The class of `e`, or `None` where the proof fails.
    fn class(&mut self, e: &IExpr, env: &mut Env) -> Option<Class> {
        let c = self.class_of(e, env);
        if c.is_none() && self.why.is_none() {
            self.why = Some(format!("{e:?}"));
        }
        c
    }

    fn class_of(&mut self, e: &IExpr, env: &mut Env) -> Option<Class> {
        if let Some(c) = self.table(e, env)? {
            return Some(c);
        }
        use Class::*;
        let all_inv = |this: &mut Self, es: &[IExpr], env: &mut Env| -> Option<Class> {
            for x in es {
                (this.class(x, env)? == Inv).then_some(())?;
            }
            Some(Inv)
        };
        match e.kind() {
            IExprKind::Lit(_) | IExprKind::AllOf { .. } => Some(Inv),
            IExprKind::Var(v) => env.of(v),
            IExprKind::Neg { arg, .. }
            | IExprKind::Not(arg)
            | IExprKind::Field { tuple: arg, .. } => (self.class(arg, env)? == Inv).then_some(Inv),
            IExprKind::Bin {
                op: Op::And,
                lhs,
                rhs,
                ..
            } if self.board_guard(lhs, rhs, env) => (self.class(rhs, env)? == Inv).then_some(Inv),
            IExprKind::Bin { op, lhs, rhs, .. } => {
                let l = self.class(lhs, env)?;
                // A set of the position less (or within) a set of cells that reads one cell,
                // `alive - neighbours(v)`: it moves with them where membership does.
                if let (Op::SetDiff | Op::SetInter, Set, Some(v)) = (op, l, self.one_read(rhs)) {
                    if env.of(&v) == Some(Elem) && self.relation(rhs, &v, env).is_some() {
                        return Some(Set);
                    }
                }
                let r = self.class(rhs, env)?;
                match (op, l, r) {
                    (Op::GameSum, Pos, Pos) => Some(Pos),
                    (Op::GameSum, _, _) => None,
                    (_, Inv, Inv) => Some(Inv),
                    // Within a set of the position: a set of the position.
                    (Op::SetInter | Op::SetDiff, Set, Set | MovedSet)
                    | (Op::SetInter, MovedSet, Set)
                    | (Op::SetUnion, Set, Set) => Some(Set),
                    (Op::SetUnion | Op::SetInter | Op::SetDiff, _, _) => {
                        (points(l) && points(r)).then_some(MovedSet)
                    }
                    (Op::In | Op::NotIn, Elem | Moved, Set | MovedSet) => Some(Inv),
                    (Op::Eq | Op::Ne, Elem | Moved, Elem | Moved)
                    | (Op::Eq | Op::Ne, Set | MovedSet, Set | MovedSet) => Some(Inv),
                    // Translation keeps the order of cells (tuples compare part by part).
                    (Op::Lt | Op::Le | Op::Gt | Op::Ge, Elem | Moved, Elem | Moved) => Some(Inv),
                    _ => None,
                }
            }
            IExprKind::Tuple(es) | IExprKind::List(es) => all_inv(self, es, env),
            IExprKind::Set(es) => {
                if es.is_empty() {
                    return Some(Set);
                }
                let classes = es
                    .iter()
                    .map(|x| self.class(x, env))
                    .collect::<Option<Vec<_>>>()?;
                if classes.iter().all(|c| *c == Elem) {
                    Some(Set)
                } else if classes.iter().all(|c| matches!(c, Elem | Moved)) {
                    Some(MovedSet)
                } else {
                    classes.iter().all(|c| *c == Inv).then_some(Inv)
                }
            }
            IExprKind::Index { list, index, .. } => {
                all_inv(self, &[(**list).clone(), (**index).clone()], env)
            }
            IExprKind::Slice { list, lo, hi, .. } => {
                (self.class(list, env)? == Inv).then_some(())?;
                for b in [lo, hi].into_iter().flatten() {
                    (self.class(b, env)? == Inv).then_some(())?;
                }
                Some(Inv)
            }
            IExprKind::With {
                list, index, value, ..
            } => {
                for x in [list, index, value] {
                    (self.class(x, env)? == Inv).then_some(())?;
                }
                Some(Inv)
            }
            IExprKind::Variant { args, .. } => all_inv(self, args, env),
            IExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                (self.class(cond, env)? == Inv).then_some(())?;
                let (a, b) = (self.class(then, env)?, self.class(otherwise, env)?);
                match (a, b) {
                    _ if a == b => Some(a),
                    (Elem | Moved, Elem | Moved) => Some(Moved),
                    (Set | MovedSet, Set | MovedSet) => Some(MovedSet),
                    _ => None,
                }
            }
            IExprKind::Let { var, value, body } => {
                let c = match least_part(value, env, self.dims.len()) {
                    Some(least) => least,
                    None => self.class(value, env)?,
                };
                env.set(var, c)?;
                self.class(body, env)
            }
            IExprKind::Quant {
                vars, domain, body, ..
            } => {
                let dom = self.class(domain, env)?;
                self.bind(vars, dom, env)?;
                (self.class(body, env)? == Inv).then_some(Inv)
            }
            IExprKind::Compr { elem, clauses } => {
                if is_corner(elem, clauses, env, self.dims.len()) {
                    self.corners = true;
                    return Some(Inv);
                }
                self.clauses(clauses, env)?;
                match self.class(elem, env)? {
                    Elem => Some(Set),
                    Moved => Some(MovedSet),
                    Inv => Some(Inv),
                    _ => None,
                }
            }
            IExprKind::CompoundOf { elem, clauses, .. } => {
                self.clauses(clauses, env)?;
                (self.class(elem, env)? == Pos).then_some(Pos)
            }
            // (Lowered after this pass.)
            IExprKind::Leaves(_) | IExprKind::Extreme(_) => None,
            IExprKind::Closure {
                kind,
                seed,
                var,
                next,
            } => match self.class(seed, env)? {
                // `components` keeps each step within its seed: its step may be any
                // relation of two cells that moves with them.
                Set if *kind == crate::ast::ClosureKind::Components
                    && self.reads_only(next, var) =>
                {
                    env.set(var, Elem)?;
                    self.relation(next, var, env)?;
                    Some(Sets)
                }
                Set => {
                    env.set(var, Elem)?;
                    (self.class(next, env)? == Set).then_some(())?;
                    Some(match kind {
                        crate::ast::ClosureKind::Reach => Set,
                        crate::ast::ClosureKind::Components => Sets,
                    })
                }
                Inv => {
                    env.set(var, Inv)?;
                    (self.class(next, env)? == Inv).then_some(Inv)
                }
                _ => None,
            },
            IExprKind::Builtin { func, args, .. } => {
                let classes = args
                    .iter()
                    .map(|x| self.class(x, env))
                    .collect::<Option<Vec<_>>>()?;
                match (func, classes.as_slice()) {
                    (_, cs) if cs.iter().all(|c| *c == Inv) => Some(Inv),
                    (Builtin::Min | Builtin::Max, [Set]) => Some(Elem),
                    (Builtin::Min | Builtin::Max, [MovedSet]) => Some(Moved),
                    (Builtin::Min | Builtin::Max, cs) if cs.iter().all(|c| *c == Elem) => {
                        Some(Elem)
                    }
                    (Builtin::Min | Builtin::Max, cs)
                        if cs.iter().all(|c| matches!(c, Elem | Moved)) =>
                    {
                        Some(Moved)
                    }
                    (Builtin::Len, [Set | Sets | MovedSet]) => Some(Inv),
                    _ => None,
                }
            }
            IExprKind::Call { func, args, .. } => self.call(*func, args, env),
            IExprKind::Pos { game, args, .. } => {
                for a in args {
                    match self.class(a, env)? {
                        Inv => {}
                        Set if *game == self.gid => {}
                        _ => return None,
                    }
                }
                Some(Pos)
            }
            IExprKind::End => Some(Pos),
            // Made by a later pass: unknown here.
            IExprKind::Inverted(_) | IExprKind::Cells(_) | IExprKind::Parts(_) => None,
            IExprKind::Compound { parts, .. } => {
                for p in parts {
                    (self.class(p, env)? == Pos).then_some(())?;
                }
                Some(Pos)
            }
            IExprKind::Match {
                scrutinee,
                arms,
                default,
                ..
            } => {
                (self.class(scrutinee, env)? == Inv).then_some(())?;
                let mut out: Option<Class> = None;
                let bodies = arms
                    .iter()
                    .map(|a| {
                        for v in &a.vars {
                            env.set(v, Inv)?;
                        }
                        Some(&a.body)
                    })
                    .collect::<Option<Vec<_>>>()?;
                for body in bodies.into_iter().chain(default.as_deref()) {
                    let c = self.class(body, env)?;
                    match out {
                        None => out = Some(c),
                        Some(o) if o == c => {}
                        Some(_) => return None,
                    }
                }
                out
            }
        }
    }

    /// A call of a helper: a move of its argument to the corner, or its body classified
    /// with its parameters' classes.
    fn call(&mut self, func: usize, args: &[IExpr], env: &mut Env) -> Option<Class> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        let f = &self.program.fns[func];
        let mut inner = Env::new(f.locals.len());
        for (i, a) in args.iter().enumerate() {
            let c = self.class(a, env)?;
            *inner.classes.get_mut(i)? = Some(c);
        }
        self.depth += 1;
        let out = self.class(&f.body, &mut inner);
        self.depth -= 1;
        out
    }

    /// Where `e` reads only cells (its free names all elements), that it is the same
    /// function of them wherever they lie: evaluated at every choice of them, the same
    /// value (or an error alike) after a unit step in each part that keeps them on the
    /// board. `Ok(Some(Inv))` for such a table, `Ok(None)` where `e` is not one (it reads
    /// something else, or its values are not numbers or booleans), `None` where it is one
    /// that moves.
    fn table(&mut self, e: &IExpr, env: &Env) -> Option<Option<Class>> {
        if matches!(e.kind(), IExprKind::Var(_) | IExprKind::Lit(_)) {
            return Some(None);
        }
        let mut binds: HashSet<VarId> = HashSet::new();
        e.for_each_bind(&mut |v| {
            binds.insert(v.slot);
        });
        let reads = Self::free_reads(&[e]);
        if reads.is_empty()
            || binds
                .iter()
                .any(|s| env.classes.get(s.index()).copied().flatten().is_some())
        {
            return Some(None);
        }
        let Some((sources, assign)) = Self::sources(&reads, env) else {
            return Some(None);
        };
        let cells = cells(&self.dims);
        let count = cells.len().checked_pow(sources as u32)?;
        if count > MAX_TABLE {
            return None;
        }
        let index: std::collections::HashMap<&Val, usize> =
            cells.iter().enumerate().map(|(i, c)| (c, i)).collect();
        let k = self.dims.len();
        let point = |v: &Val| match v {
            Val::Int(_) => k == 1,
            Val::Tuple(parts) => parts.len() == k && parts.iter().all(|p| matches!(p, Val::Int(_))),
            _ => false,
        };
        let mut values: Vec<Option<Val>> = Vec::with_capacity(count);
        let mut frame = vec![Val::Bool(false); env.frame];
        for n in 0..count {
            Self::choose(&cells, n, sources, &reads, &assign, &mut frame);
            let value = self.interp.eval(e, &mut frame).ok();
            match &value {
                None | Some(Val::Int(_) | Val::Bool(_)) => {}
                Some(v) if point(v) => {}
                Some(_) if n == 0 => return Some(None),
                Some(_) => return None,
            }
            values.push(value);
        }
        // Each unit step of every cell at once, where all stay on the board: the same
        // value (an invariant), or the value moved by the same step (a point).
        let (mut same, mut moves) = (true, true);
        for n in 0..count {
            for part in 0..k {
                let mut rest = n;
                let mut to = 0;
                let mut scale = 1;
                let mut inside = true;
                for _ in 0..sources {
                    let cell = &cells[rest % cells.len()];
                    rest /= cells.len();
                    match self.step(cell, part).and_then(|c| index.get(&c).copied()) {
                        Some(i) => to += i * scale,
                        None => inside = false,
                    }
                    scale *= cells.len();
                }
                if !inside {
                    continue;
                }
                same &= values[n] == values[to];
                moves &= match (&values[n], &values[to]) {
                    (None, None) => true,
                    (Some(a), Some(b)) => point(a) && self.step(a, part).as_ref() == Some(b),
                    _ => false,
                };
                if !same && !moves {
                    return None;
                }
            }
        }
        match (same, moves) {
            (true, _) => Some(Some(Class::Inv)),
            _ => Some(Some(Class::Moved)),
        }
    }

    /// The names `es` read (not those they bind), each once.
    fn free_reads(es: &[&IExpr]) -> Vec<Var> {
        let mut reads: Vec<Var> = Vec::new();
        for e in es {
            let mut binds: HashSet<VarId> = HashSet::new();
            e.for_each_bind(&mut |v| {
                binds.insert(v.slot);
            });
            e.for_each_read(&mut |v| {
                if !binds.contains(&v.slot) && !reads.iter().any(|r| r.slot == v.slot) {
                    reads.push(v.clone());
                }
            });
        }
        reads
    }

    /// The cells that `reads` name: each a name bound to a cell, or a pattern's parts.
    /// For each read, its cell's index among them and its part, if one; `None` where some
    /// read is not a cell or a part of one.
    fn sources(reads: &[Var], env: &Env) -> Option<(usize, Vec<Assign>)> {
        let mut sources: Vec<VarId> = Vec::new();
        let mut assign = Vec::with_capacity(reads.len());
        for v in reads {
            let (id, part) = match env.of(v) {
                Some(Class::Elem) => (v.slot, None),
                Some(Class::Part(i, id)) => (id, Some(i)),
                _ => return None,
            };
            let at = match sources.iter().position(|&s| s == id) {
                Some(at) => at,
                None => {
                    sources.push(id);
                    sources.len() - 1
                }
            };
            assign.push((at, part));
        }
        Some((sources.len(), assign))
    }

    /// Sets `frame`'s `reads` to choice `n` of their cells (`assign` from [`Proof::sources`]).
    fn choose(
        cells: &[Val],
        n: usize,
        count: usize,
        reads: &[Var],
        assign: &[Assign],
        frame: &mut [Val],
    ) {
        let mut rest = n;
        let mut chosen = Vec::with_capacity(count);
        for _ in 0..count {
            chosen.push(&cells[rest % cells.len()]);
            rest /= cells.len();
        }
        for (v, &(at, part)) in reads.iter().zip(assign) {
            frame[v.slot.index()] = match (part, chosen[at]) {
                (Some(i), Val::Tuple(parts)) => parts[i].clone(),
                (_, cell) => cell.clone(),
            };
        }
    }

    /// Whether condition `guard`, followed by `cond`, says only that a point `cond` looks
    /// for in a set of the position lies on the board (`a.0 + 1 < R` before `(a.0 + 1, a.1)
    /// in free`): at every choice of the cells they read, `guard` holds exactly where that
    /// point is on the board. Both together then say what `cond` alone says (a point off
    /// the board is in no set of the position), which moves with the position.
    fn board_guard(&self, guard: &IExpr, cond: &IExpr, env: &Env) -> bool {
        let IExprKind::Bin {
            op: Op::In,
            lhs: point,
            rhs,
            ..
        } = cond.kind()
        else {
            return false;
        };
        if !matches!(rhs.kind(), IExprKind::Var(v) if env.of(v) == Some(Class::Set)) {
            return false;
        }
        let reads = Self::free_reads(&[guard, point]);
        let Some((count, assign)) = Self::sources(&reads, env) else {
            return false;
        };
        let cells = cells(&self.dims);
        let board: HashSet<&Val> = cells.iter().collect();
        let Some(choices) = cells.len().checked_pow(count as u32) else {
            return false;
        };
        if reads.is_empty() || choices > MAX_TABLE {
            return false;
        }
        let mut frame = vec![Val::Bool(false); env.frame];
        (0..choices).all(|n| {
            Self::choose(&cells, n, count, &reads, &assign, &mut frame);
            match self.interp.eval(guard, &mut frame) {
                Ok(Val::Bool(true)) => self
                    .interp
                    .eval(point, &mut frame)
                    .is_ok_and(|p| board.contains(&p)),
                Ok(Val::Bool(false)) => self
                    .interp
                    .eval(point, &mut frame)
                    .map_or(true, |p| !board.contains(&p)),
                _ => false,
            }
        })
    }

    /// The one name `e` reads (not counting those it binds), if it reads just one.
    fn one_read(&self, e: &IExpr) -> Option<Var> {
        match Self::free_reads(&[e]).as_slice() {
            [v] => Some(v.clone()),
            _ => None,
        }
    }

    /// Whether `e` reads no name but `var`.
    fn reads_only(&self, e: &IExpr, var: &Var) -> bool {
        Self::free_reads(&[e]).iter().all(|v| v.slot == var.slot)
    }

    /// Where `next` is a set of cells that reads only the cell `var`: that `y in next(v)`
    /// is the same wherever `v` and `y` lie (unit steps that keep both on the board), and
    /// that it fails alike.
    fn relation(&self, next: &IExpr, var: &Var, env: &Env) -> Option<()> {
        let cells = cells(&self.dims);
        let index: std::collections::HashMap<&Val, usize> =
            cells.iter().enumerate().map(|(i, c)| (c, i)).collect();
        let mut frame = vec![Val::Bool(false); env.frame];
        let mut steps: Vec<Option<std::collections::BTreeSet<Val>>> = Vec::new();
        for c in &cells {
            frame[var.slot.index()] = c.clone();
            steps.push(match self.interp.eval(next, &mut frame) {
                Ok(Val::Set(items)) => Some((*items).clone()),
                Ok(Val::Range(lo, hi)) => Some((lo..=hi).map(Val::Int).collect()),
                Ok(_) => return None,
                Err(_) => None,
            });
        }
        for (v, from) in cells.iter().enumerate() {
            for part in 0..self.dims.len() {
                let Some(to) = self.step(from, part).and_then(|c| index.get(&c).copied()) else {
                    continue;
                };
                match (&steps[v], &steps[to]) {
                    (None, None) => {}
                    (Some(a), Some(b)) => {
                        for y in &cells {
                            let Some(y1) = self.step(y, part).filter(|c| index.contains_key(c))
                            else {
                                continue;
                            };
                            if a.contains(y) != b.contains(&y1) {
                                return None;
                            }
                        }
                    }
                    _ => return None,
                }
            }
        }
        Some(())
    }

    /// `cell` one step further in `part`.
    fn step(&self, cell: &Val, part: usize) -> Option<Val> {
        match cell {
            Val::Int(v) => Some(Val::Int(v + 1)),
            Val::Tuple(parts) => {
                let mut parts: Vec<Val> = parts.to_vec();
                let Val::Int(v) = parts.get(part)? else {
                    return None;
                };
                parts[part] = Val::Int(v + 1);
                Some(Val::Tuple(parts.into()))
            }
            _ => None,
        }
    }
}

/// The cells of a board of `dims` parts, in order: numbers for one part, else tuples.
pub fn cells(dims: &[i64]) -> Vec<Val> {
    let total: i64 = dims.iter().product();
    (0..total)
        .map(|mut n| {
            let mut parts = vec![0i64; dims.len()];
            for (i, d) in dims.iter().enumerate().rev() {
                parts[i] = n % d;
                n /= d;
            }
            match parts.as_slice() {
                [one] => Val::Int(*one),
                _ => Val::Tuple(parts.into_iter().map(Val::Int).collect()),
            }
        })
        .collect()
}

/// Whether values of class `c` are points (or sets of points) that move with the position.
fn points(c: Class) -> bool {
    matches!(c, Class::Set | Class::MovedSet | Class::Elem | Class::Moved)
}

/// Part `i` of the cell a binder names: `x.i`, or the pattern's `i`th name (`x` itself
/// for a set of numbers).
fn part_of(e: &IExpr, vars: &[Var], k: usize) -> Option<usize> {
    match (e.kind(), vars) {
        (IExprKind::Field { tuple, index }, [x]) if k > 1 => {
            matches!(tuple.kind(), IExprKind::Var(v) if v.slot == x.slot).then_some(*index)
        }
        (IExprKind::Var(v), [x]) if k == 1 && v.slot == x.slot => Some(0),
        (IExprKind::Var(v), names) if names.len() == k && k > 1 => {
            names.iter().position(|x| x.slot == v.slot)
        }
        _ => None,
    }
}

/// `min({ x.i for x in s })` (`min(s)` for a set of numbers) of a set `s` named by a
/// variable, cells of `k` parts: part `i` of the least cells of `s`.
fn least_part(e: &IExpr, env: &Env, k: usize) -> Option<Class> {
    let IExprKind::Builtin {
        func: Builtin::Min,
        args,
        ..
    } = e.kind()
    else {
        return None;
    };
    let [arg] = args.as_slice() else { return None };
    match arg.kind() {
        IExprKind::Var(s) if k == 1 && env.of(s) == Some(Class::Set) => {
            Some(Class::Least(0, s.slot))
        }
        IExprKind::Compr { elem, clauses } => {
            let [IClause::Bind(vars, s)] = clauses.as_slice() else {
                return None;
            };
            let s = s.as_var()?;
            (env.of(s) == Some(Class::Set)).then_some(())?;
            Some(Class::Least(part_of(elem, vars, k)?, s.slot))
        }
        _ => None,
    }
}

/// Whether `{ elem for clauses }` moves a set named by a variable (cells of `k` parts) to
/// the corner: each part of each cell less the least of that part (or left as it is).
fn is_corner(elem: &IExpr, clauses: &[IClause], env: &Env, k: usize) -> bool {
    let [IClause::Bind(vars, s)] = clauses else {
        return false;
    };
    let Some(s) = s.as_var() else {
        return false;
    };
    if env.of(s) != Some(Class::Set) {
        return false;
    }
    let items: Vec<&IExpr> = match (elem.kind(), k) {
        (IExprKind::Tuple(items), _) if items.len() == k && k > 1 => items.iter().collect(),
        (_, 1) => vec![elem],
        _ => return false,
    };
    let mut moved = false;
    for (i, item) in items.into_iter().enumerate() {
        match item.kind() {
            IExprKind::Bin {
                op: Op::NatSub | Op::Sub,
                lhs,
                rhs,
                ..
            } if part_of(lhs, vars, k) == Some(i) => {
                let IExprKind::Var(m) = rhs.kind() else {
                    return false;
                };
                if env.of(m) != Some(Class::Least(i, s.slot)) {
                    return false;
                }
                moved = true;
            }
            _ if part_of(item, vars, k) == Some(i) => {}
            _ => return false,
        }
    }
    moved
}

/// Whether helper `f` moves its one parameter, a set of cells, to the corner: `let`s of
/// the least of each part, then the set moved by them.
pub fn corner_fn(f: &Function) -> bool {
    let [(_, FieldTy::Set(elem))] = f.params.as_slice() else {
        return false;
    };
    let k = match &**elem {
        FieldTy::Tuple(parts) => parts.len(),
        _ => 1,
    };
    let mut env = Env::new(f.locals.len().max(1));
    env.classes[0] = Some(Class::Set);
    let mut body = &f.body;
    while let IExprKind::Let {
        var,
        value,
        body: rest,
    } = body.kind()
    {
        let Some(least) = least_part(as_written(value), &env, k) else {
            return false;
        };
        if env.set(var, least).is_none() {
            return false;
        }
        body = rest;
    }
    let IExprKind::Compr { elem, clauses } = as_written(body).kind() else {
        return false;
    };
    is_corner(elem, clauses, &env, k)
}

/// A cell operation (`opt::cells`, which runs after this pass but before others that ask
/// [`corner_fn`]) as written; any other expression as it is.
fn as_written(e: &IExpr) -> &IExpr {
    match e.kind() {
        IExprKind::Cells(op) => &op.written,
        _ => e,
    }
}

/// Where `e` (an expression of a body of `frame` slots, a set of cells of `k` parts) moves a
/// set to the corner, that set before the move: a call of a helper that moves its argument
/// to the corner (`shift(s)`), or a set named by a `let`, then `let`s of the least of each
/// of its parts, then the set moved by them. `None` for anything else.
pub fn corner_argument(program: &Program, frame: usize, k: usize, e: &IExpr) -> Option<IExpr> {
    match e.kind() {
        IExprKind::Call { func, args, .. } if corner_fn(&program.fns[*func]) => {
            let [arg] = args.as_slice() else { return None };
            Some(arg.clone())
        }
        IExprKind::Let { var, value, body } => {
            let mut env = Env::new(frame);
            env.set(var, Class::Set)?;
            let mut body = &**body;
            while let IExprKind::Let {
                var,
                value,
                body: rest,
            } = body.kind()
            {
                let least = least_part(value, &env, k)?;
                env.set(var, least)?;
                body = rest;
            }
            let IExprKind::Compr { elem, clauses } = body.kind() else {
                return None;
            };
            let [IClause::Bind(_, s)] = clauses.as_slice() else {
                return None;
            };
            (s.as_var()?.slot == var.slot && is_corner(elem, clauses, &env, k))
                .then(|| (**value).clone())
        }
        _ => None,
    }
}

/// The moves with each call of a helper that moves its argument to the corner replaced by
/// the argument, where the argument is never empty; `None` where one may be empty or a
/// move to the corner is written in the rules themselves.
fn strip_moves(program: &Program, moves: &[Move]) -> Option<Vec<Move>> {
    let mut out = moves.to_vec();
    for m in &mut out {
        let mut fine = true;
        let mut nonempty: HashSet<VarId> = HashSet::new();
        for c in &mut m.clauses {
            match c {
                IClause::Bind(vars, dom) => {
                    strip(program, dom, &nonempty, &mut fine);
                    if matches!(
                        dom.kind(),
                        IExprKind::Closure {
                            kind: crate::ast::ClosureKind::Components,
                            ..
                        }
                    ) {
                        nonempty.extend(vars.iter().map(|v| v.slot));
                    }
                }
                IClause::Cond(e) | IClause::Let(_, e) => strip(program, e, &nonempty, &mut fine),
            }
        }
        strip(program, &mut m.result, &nonempty, &mut fine);
        if !fine {
            return None;
        }
    }
    Some(out)
}

/// Replaces each call of a helper that moves its argument to the corner in `e` by the
/// argument, where that is a name bound to a part of `components` (`nonempty`); clears
/// `fine` where the argument may be empty.
fn strip(program: &Program, e: &mut IExpr, nonempty: &HashSet<VarId>, fine: &mut bool) {
    if let IExprKind::Call { func, args, .. } = e.kind() {
        if corner_fn(&program.fns[*func]) {
            match args.as_slice() {
                [arg] if arg.as_var().is_some_and(|v| nonempty.contains(&v.slot)) => {
                    *e = arg.clone()
                }
                _ => *fine = false,
            }
            return;
        }
    }
    let mut inner = nonempty.clone();
    if let IExprKind::Compr { clauses, .. } | IExprKind::CompoundOf { clauses, .. } = e.kind() {
        for c in clauses.iter() {
            let IClause::Bind(vars, domain) = c else {
                continue;
            };
            if let IExprKind::Closure { kind, .. } = domain.kind() {
                if *kind == crate::ast::ClosureKind::Components {
                    inner.extend(vars.iter().map(|v| v.slot));
                }
            }
        }
    }
    e.for_each_child_mut(&mut |c| strip(program, c, &inner, fine));
}
