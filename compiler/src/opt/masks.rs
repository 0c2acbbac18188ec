//! Conditions on an element as tables: a filter over a set field becomes an intersection
//! with a table of masks.
//!
//! A comprehension `{ y for y in S where P(y, x) }` whose set `S` holds only elements of a
//! finite type `T` (a set field of a game, and set algebra keeping to it), and whose
//! conditions read `y` and names of finite types only (`x`, a cell; a board's size), is
//! `S & mask(x)` with `fn mask(x) = { y for y in T where P(y, x) }`. Likewise a binder
//! `b in S` followed by such conditions (`b in cells, next_to(a, b), rank(a) < rank(b)`)
//! ranges over `S & mask(a)` and the conditions go. The new function's parameters have
//! finite types, so native code computes it for every argument while it builds and looks
//! it up: Chomp's bite `{ y for y in left where y.0 < x.0 or y.1 < x.1 }` is one table load
//! and one `and` instead of a loop over the board.
//!
//! The rewrite keeps every value: the set is the same. It keeps every error too: it is
//! made only where every condition succeeds for every element of `T` and every value of
//! the names it reads (checked by evaluating the new function at each argument), so that
//! evaluating them for elements the rule skips fails nowhere.

use crate::interp::{within_budget, Interpreter};
use crate::ir::*;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// The most arguments a mask function may have (native code tabulates up to this many).
const MAX_ARGUMENTS: usize = 1024;
/// The most elements of `T`.
const MAX_ELEMENTS: usize = 1024;
/// Steps the check of one mask function may take.
const BUDGET: u64 = 4_000_000;

/// Runs the pass on every move of `program`.
pub fn run(program: &mut Program, source: &str) {
    for gid in 0..program.games.len() {
        let GameKind::Rules(moves) = &program.games[gid].kind else {
            continue;
        };
        let mut moves = moves.clone();
        let game = &program.games[gid];
        let mut scope = Scope::default();
        for (i, f) in game.fields.iter().enumerate() {
            scope.types.insert(VarId::new(i), f.ty.clone());
            if matches!(f.ty, FieldTy::Set(_)) {
                scope.within.insert(VarId::new(i));
            }
        }
        let mut added = Vec::new();
        for m in &mut moves {
            let mut pass = Pass {
                program,
                source,
                scope: scope.clone(),
                added: &mut added,
            };
            pass.clauses(&mut m.clauses);
            pass.expr(&mut m.result);
        }
        if added.is_empty() {
            continue;
        }
        program.fns.extend(added);
        program.games[gid].kind = GameKind::Rules(moves);
    }
}

/// What is known of the names in scope.
#[derive(Clone, Debug, Default)]
struct Scope {
    /// Each name's declared or inferred finite type, by slot.
    types: HashMap<VarId, FieldTy>,
    /// Names whose sets surely hold elements of their type only (a game's set fields, and
    /// names bound to set algebra keeping to them).
    within: BTreeSet<VarId>,
}

struct Pass<'p, 'a> {
    program: &'p Program,
    source: &'p str,
    scope: Scope,
    /// The mask functions made, to be added after the program's (indices follow).
    added: &'a mut Vec<Function>,
}

impl Pass<'_, '_> {
    /// The element type of a set expression that surely holds only elements of it.
    fn within(&self, e: &IExpr) -> Option<FieldTy> {
        match e.kind() {
            IExprKind::Var(v) if self.scope.within.contains(&v.slot) => {
                match self.scope.types.get(&v.slot)? {
                    FieldTy::Set(t) => Some((**t).clone()),
                    _ => None,
                }
            }
            IExprKind::Bin {
                op: Op::SetInter,
                lhs,
                rhs,
                ..
            } => self.within(lhs).or_else(|| self.within(rhs)),
            IExprKind::Bin {
                op: Op::SetDiff,
                lhs,
                ..
            } => self.within(lhs),
            IExprKind::Bin {
                op: Op::SetUnion,
                lhs,
                rhs,
                ..
            } => {
                let t = self.within(lhs)?;
                (self.within(rhs)? == t).then_some(t)
            }
            IExprKind::AllOf { ty, .. } => Some(ty.clone()),
            // A mask this pass made holds elements of its type only.
            IExprKind::Call { func, .. } if *func >= self.program.fns.len() => {
                match &self.function(*func)?.ret {
                    FieldTy::Set(t) => Some((**t).clone()),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The finite type of the elements of a domain, where it is known.
    fn element_type(&self, e: &IExpr) -> Option<FieldTy> {
        match e.kind() {
            IExprKind::Var(v) => match self.scope.types.get(&v.slot)? {
                FieldTy::Set(t) => Some((**t).clone()),
                _ => None,
            },
            IExprKind::AllOf { ty, .. } => Some(ty.clone()),
            IExprKind::Bin {
                op: Op::SetInter | Op::SetDiff | Op::SetUnion,
                lhs,
                ..
            } => self.element_type(lhs),
            IExprKind::Call { func, .. } => match &self.function(*func)?.ret {
                FieldTy::Set(t) => Some((**t).clone()),
                _ => None,
            },
            _ => None,
        }
    }

    fn function(&self, id: usize) -> Option<&Function> {
        let n = self.program.fns.len();
        match id < n {
            true => self.program.fns.get(id),
            false => self.added.get(id - n),
        }
    }

    /// Records the names a binder over `dom` binds, with their types where known.
    fn bind(&mut self, vars: &[Var], dom: &IExpr) {
        let t = self.element_type(dom);
        match (vars, t) {
            ([v], Some(t)) => {
                self.scope.types.insert(v.slot, t);
            }
            (vs, Some(FieldTy::Tuple(ts))) if vs.len() == ts.len() => {
                for (v, t) in vs.iter().zip(ts) {
                    self.scope.types.insert(v.slot, t);
                }
            }
            _ => {
                for v in vars {
                    self.scope.types.remove(&v.slot);
                }
            }
        }
        for v in vars {
            self.scope.within.remove(&v.slot);
        }
    }

    fn clauses(&mut self, clauses: &mut Vec<IClause>) {
        let mut i = 0;
        while i < clauses.len() {
            match &mut clauses[i] {
                IClause::Bind(vars, dom) => {
                    self.expr(dom);
                    let (vars, dom) = (vars.clone(), dom.clone());
                    self.bind(&vars, &dom);
                    // The conditions right after the binder that are tables of it.
                    let conds: Vec<IExpr> = (clauses[i + 1..].iter())
                        .map_while(|c| match c {
                            IClause::Cond(p) => Some(p.clone()),
                            _ => None,
                        })
                        .collect();
                    let taken = (1..=conds.len())
                        .rev()
                        .find_map(|k| self.mask(&vars, &dom, &conds[..k]).map(|m| (k, m)));
                    if let Some((k, masked)) = taken {
                        clauses[i] = IClause::Bind(vars, masked);
                        clauses.drain(i + 1..i + 1 + k);
                    }
                }
                IClause::Cond(c) => self.expr(c),
                IClause::Let(var, value) => {
                    self.expr(value);
                    let (var, value) = (var.clone(), value.clone());
                    match self.within(&value) {
                        Some(t) => {
                            self.scope.types.insert(var.slot, FieldTy::Set(Box::new(t)));
                            self.scope.within.insert(var.slot);
                        }
                        None => {
                            self.scope.types.remove(&var.slot);
                            self.scope.within.remove(&var.slot);
                        }
                    }
                }
            }
            i += 1;
        }
    }

    fn expr(&mut self, e: &mut IExpr) {
        // Inner expressions first, each in the scope of its binders.
        let saved = self.scope.clone();
        match e.kind_mut() {
            IExprKind::Compr { elem, clauses } | IExprKind::CompoundOf { elem, clauses, .. } => {
                self.clauses(clauses);
                self.expr(elem);
            }
            IExprKind::Quant {
                vars, domain, body, ..
            } => {
                self.expr(domain);
                let (vars, domain) = (vars.clone(), (**domain).clone());
                self.bind(&vars, &domain);
                self.expr(body);
            }
            IExprKind::Let { var, value, body } => {
                self.expr(value);
                match self.within(value) {
                    Some(t) => {
                        self.scope.types.insert(var.slot, FieldTy::Set(Box::new(t)));
                        self.scope.within.insert(var.slot);
                    }
                    None => {
                        self.scope.types.remove(&var.slot);
                        self.scope.within.remove(&var.slot);
                    }
                }
                self.expr(body);
            }
            IExprKind::Closure {
                seed, var, next, ..
            } => {
                self.expr(seed);
                match self.element_type(seed) {
                    Some(t) => self.scope.types.insert(var.slot, t),
                    None => self.scope.types.remove(&var.slot),
                };
                self.scope.within.remove(&var.slot);
                self.expr(next);
            }
            other => other.for_each_child_mut(&mut |c| self.expr(c)),
        }
        self.scope = saved;
        // Then this one: a comprehension over a set of `T` with table conditions.
        let IExprKind::Compr { elem, clauses } = e.kind() else {
            return;
        };
        // `{ y for y in S }` over a set of `T` is `S` (its conditions became masks).
        if let [IClause::Bind(vars, dom)] = clauses.as_slice() {
            if is_pattern(elem, vars) && self.within(dom).is_some() {
                *e = dom.clone();
                return;
            }
        }
        let [IClause::Bind(vars, dom), conds @ ..] = clauses.as_slice() else {
            return;
        };
        let conds: Option<Vec<IExpr>> = (conds.iter())
            .map(|c| match c {
                IClause::Cond(p) => Some(p.clone()),
                _ => None,
            })
            .collect();
        let Some(conds) = conds.filter(|c| !c.is_empty() && is_pattern(elem, vars)) else {
            return;
        };
        let (vars, dom) = (vars.clone(), dom.clone());
        let outer = self.scope.clone();
        self.bind(&vars, &dom);
        let masked = self.mask(&vars, &dom, &conds);
        self.scope = outer;
        if let Some(masked) = masked {
            *e = masked;
        }
    }

    /// `dom & mask(args)` for a binder `vars in dom` and conditions `conds` that are tables
    /// of `vars` and names of finite types; `None` where they are not, or where a condition
    /// fails at some element and argument.
    fn mask(&mut self, vars: &[Var], dom: &IExpr, conds: &[IExpr]) -> Option<IExpr> {
        let t = self.within(dom)?;
        let elements = t.values(&self.program.types, MAX_ELEMENTS)?;
        // The names the conditions read besides the binder's: the mask's parameters.
        let bound: BTreeSet<Rc<str>> = vars.iter().map(|v| v.name.clone()).collect();
        let mut inner = Vec::new();
        for c in conds {
            collect_bound(c, &mut inner);
        }
        let inner: BTreeSet<Rc<str>> = inner.into_iter().map(|v| v.name).collect();
        let mut params: Vec<Var> = Vec::new();
        for c in conds {
            let mut fine = true;
            c.for_each_read(&mut |v| {
                if bound.contains(&v.name) || inner.contains(&v.name) {
                    return;
                }
                match self.scope.types.get(&v.slot) {
                    Some(ty) if finite(ty) => {
                        if !params.iter().any(|p| p.name == v.name) {
                            params.push(v.clone());
                        }
                    }
                    _ => fine = false,
                }
            });
            if !fine || calls_positions(c) {
                return None;
            }
        }
        let param_tys: Vec<FieldTy> = params
            .iter()
            .map(|p| self.scope.types[&p.slot].clone())
            .collect();
        let mut combos = 1usize;
        let mut param_values = Vec::new();
        for ty in &param_tys {
            let values = ty.values(&self.program.types, MAX_ARGUMENTS)?;
            combos = combos.checked_mul(values.len())?;
            param_values.push(values);
        }
        if combos > MAX_ARGUMENTS {
            return None;
        }
        // The body: `{ pattern for pattern in T where conds }`, its names in new slots.
        let mut locals = Locals::default();
        let mut slots: HashMap<VarId, VarId> = HashMap::new();
        for p in &params {
            slots.insert(p.slot, locals.bind(p.name.clone(), p.ty.clone()).slot);
        }
        let mut relocated_vars = vars.to_vec();
        for v in &mut relocated_vars {
            relocate_var(v, &mut slots, &mut locals);
        }
        let mut relocated_conds = conds.to_vec();
        for c in &mut relocated_conds {
            relocate(c, &mut slots, &mut locals);
        }
        let all = IExprKind::AllOf {
            ty: t.clone(),
            values: Val::Set(Rc::new(elements.into_iter().collect())),
        };
        let elem = match relocated_vars.as_slice() {
            [v] => IExprKind::Var(v.clone()),
            vs => IExprKind::Tuple(
                vs.iter()
                    .map(|v| IExprKind::Var(v.clone()).into())
                    .collect(),
            ),
        };
        let mut clauses = vec![IClause::Bind(relocated_vars, IExpr::from(all))];
        clauses.extend(relocated_conds.into_iter().map(IClause::Cond));
        let body = IExprKind::Compr {
            elem: Box::new(IExpr::from(elem)),
            clauses,
        };
        let function = Function {
            name: self.fresh_name(),
            params: params
                .iter()
                .zip(&param_tys)
                .map(|(p, t)| (p.name.clone(), t.clone()))
                .collect(),
            ret: FieldTy::Set(Box::new(t)),
            locals,
            body: IExpr::from(body),
            table: None,
        };
        // Every argument: the conditions must succeed for every element.
        if !self.total(&function, &param_values) {
            return None;
        }
        // Without parameters the mask is a constant.
        if params.is_empty() {
            let interp = Interpreter::new(self.program, self.source);
            let mut env = vec![Val::Int(0); function.locals.len()];
            let value = within_budget(BUDGET, || interp.eval(&function.body, &mut env)).0;
            let value = value.ok()?.normalize();
            return Some(match dom.kind() {
                IExprKind::AllOf { .. } => IExpr::from(IExprKind::Lit(value)),
                _ => IExpr::bin(
                    Op::SetInter,
                    dom.clone(),
                    IExpr::from(IExprKind::Lit(value)),
                    crate::ast::Span::default(),
                ),
            });
        }
        let id = self.program.fns.len() + self.added.len();
        self.added.push(function);
        let ret = self.added[id - self.program.fns.len()].ret.ty();
        let call = IExprKind::Call {
            in_table: false,
            func: id,
            args: params
                .into_iter()
                .map(|v| IExprKind::Var(v).into())
                .collect(),
            ret,
        };
        Some(match dom.kind() {
            IExprKind::AllOf { .. } => IExpr::from(call),
            _ => IExpr::bin(
                Op::SetInter,
                dom.clone(),
                IExpr::from(call),
                crate::ast::Span::default(),
            ),
        })
    }

    /// A function name no other name of the program has.
    fn fresh_name(&self) -> String {
        let taken = |n: &str| self.program.name_taken(n) || self.added.iter().any(|f| f.name == n);
        (1..)
            .map(|k| format!("mask_{k}"))
            .find(|n| !taken(n))
            .unwrap_or_default()
    }

    /// Whether `f`'s body succeeds at every combination of `values`.
    fn total(&self, f: &Function, values: &[Vec<Val>]) -> bool {
        let interp = Interpreter::new(self.program, self.source);
        within_budget(BUDGET, || {
            let mut env = vec![Val::Int(0); f.locals.len()];
            let mut index = vec![0usize; values.len()];
            loop {
                for (k, &i) in index.iter().enumerate() {
                    env[k] = values[k][i].clone();
                }
                if interp.eval(&f.body, &mut env).is_err() {
                    return false;
                }
                // The next combination.
                let mut k = 0;
                loop {
                    if k == index.len() {
                        return true;
                    }
                    index[k] += 1;
                    if index[k] < values[k].len() {
                        break;
                    }
                    index[k] = 0;
                    k += 1;
                }
            }
        })
        .0
    }
}

/// Whether `t` is finite and small enough to be a mask's parameter.
fn finite(t: &FieldTy) -> bool {
    match t {
        FieldTy::Bool | FieldTy::Range(..) | FieldTy::Union(_) => true,
        FieldTy::Tuple(ts) => ts.iter().all(finite),
        _ => false,
    }
}

/// Whether `e` builds a position (never a table).
fn calls_positions(e: &IExpr) -> bool {
    let mut found = matches!(
        e.kind(),
        IExprKind::Pos { .. }
            | IExprKind::End
            | IExprKind::Compound { .. }
            | IExprKind::CompoundOf { .. }
    );
    if !found {
        e.for_each_child(&mut |c| found |= calls_positions(c));
    }
    found
}

/// Whether `elem` is the binder's pattern (`y` for `y in S`, `(r, c)` for `(r, c) in S`).
fn is_pattern(elem: &IExpr, vars: &[Var]) -> bool {
    match (elem.kind(), vars) {
        (IExprKind::Var(v), [x]) => v.slot == x.slot && v.name == x.name,
        (IExprKind::Tuple(es), xs) if es.len() == xs.len() && xs.len() > 1 => es
            .iter()
            .zip(xs)
            .all(|(e, x)| matches!(e.kind(), IExprKind::Var(v) if v.slot == x.slot && v.name == x.name)),
        _ => false,
    }
}

/// The names `e` binds.
fn collect_bound(e: &IExpr, out: &mut Vec<Var>) {
    match e.kind() {
        IExprKind::Let { var, .. } | IExprKind::Closure { var, .. } => out.push(var.clone()),
        IExprKind::Quant { vars, .. } => out.extend(vars.iter().cloned()),
        IExprKind::Compr { clauses, .. } | IExprKind::CompoundOf { clauses, .. } => {
            for c in clauses {
                match c {
                    IClause::Bind(vars, _) => out.extend(vars.iter().cloned()),
                    IClause::Let(var, _) => out.push(var.clone()),
                    IClause::Cond(_) => {}
                }
            }
        }
        IExprKind::Match { arms, .. } => {
            for arm in arms {
                out.extend(arm.vars.iter().cloned());
            }
        }
        _ => {}
    }
    e.for_each_child(&mut |c| collect_bound(c, out));
}

/// Moves the name `v` to the slot `slots` gives its slot, a new one of `locals` for a
/// name not seen yet.
fn relocate_var(v: &mut Var, slots: &mut HashMap<VarId, VarId>, locals: &mut Locals) {
    v.slot =
        *(slots.entry(v.slot)).or_insert_with(|| locals.bind(v.name.clone(), v.ty.clone()).slot);
}

/// Moves every name of `e` (read or bound) as [`relocate_var`] does.
fn relocate(e: &mut IExpr, slots: &mut HashMap<VarId, VarId>, locals: &mut Locals) {
    e.for_each_var_mut(&mut |v, _| relocate_var(v, slots, locals));
}
