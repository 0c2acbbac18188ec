//! The ranges that helper functions' integer parameters take where the games' moves call
//! them, found by abstract interpretation over intervals: `sides(rows, cols, b)` called with
//! `rows` and `cols` fields of type `2..=5` and `b` an element of `boxes_of(...)`, whose
//! values lie in `0..=15`. Native code tabulates a function over these ranges as over
//! finite parameter types. A range here is a guess, not a proof: a table answers only the
//! arguments inside it and the function's body answers the rest, so a wrong range costs
//! speed, never a value.

use super::{FieldTy, GameKind, IClause, IExpr, IExprKind, Op, Program, Val, VarId};
use crate::ast::QuantKind;
use crate::ir::Builtin;

/// An interval `lo..=hi` (`lo <= hi`).
pub type Interval = (i64, i64);

/// What is known of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Abs {
    /// Nothing.
    Unknown,
    /// An integer in the interval.
    Int(Interval),
    /// A set (or range) of integers, each in the interval (`None`: the empty set).
    Set(Option<Interval>),
}

fn hull(a: Interval, b: Interval) -> Interval {
    (a.0.min(b.0), a.1.max(b.1))
}

impl Abs {
    fn join(self, other: Abs) -> Abs {
        match (self, other) {
            (Abs::Int(a), Abs::Int(b)) => Abs::Int(hull(a, b)),
            (Abs::Set(a), Abs::Set(b)) => Abs::Set(match (a, b) {
                (Some(a), Some(b)) => Some(hull(a, b)),
                (a, b) => a.or(b),
            }),
            _ => Abs::Unknown,
        }
    }

    /// An element of this set or range.
    fn element(self) -> Abs {
        match self {
            Abs::Set(Some(i)) => Abs::Int(i),
            _ => Abs::Unknown,
        }
    }

    fn int(self) -> Option<Interval> {
        match self {
            Abs::Int(i) => Some(i),
            _ => None,
        }
    }
}

/// The interval of `a op b` from the corners (for monotone operations on each argument).
fn corners(a: Interval, b: Interval, op: impl Fn(i64, i64) -> Option<i64>) -> Abs {
    let vals = [op(a.0, b.0), op(a.0, b.1), op(a.1, b.0), op(a.1, b.1)];
    let mut out: Option<Interval> = None;
    for v in vals {
        let Some(v) = v else { return Abs::Unknown };
        out = Some(out.map_or((v, v), |o| hull(o, (v, v))));
    }
    out.map_or(Abs::Unknown, Abs::Int)
}

/// Notes what slot `slot` holds (a slot past the frame is ignored).
fn set(env: &mut [Abs], slot: VarId, value: Abs) {
    if let Some(s) = env.get_mut(slot.index()) {
        *s = value;
    }
}

fn of_type(t: &FieldTy) -> Abs {
    match t {
        FieldTy::Range(lo, hi) if lo <= hi => Abs::Int((*lo, *hi)),
        FieldTy::Bool => Abs::Int((0, 1)),
        FieldTy::Set(inner) => match &**inner {
            FieldTy::Range(lo, hi) if lo <= hi => Abs::Set(Some((*lo, *hi))),
            _ => Abs::Unknown,
        },
        _ => Abs::Unknown,
    }
}

fn of_val(v: &Val) -> Abs {
    match v {
        Val::Int(i) => Abs::Int((*i, *i)),
        Val::Range(lo, hi) if lo <= hi => Abs::Set(Some((*lo, *hi))),
        Val::Range(..) => Abs::Set(None),
        Val::Set(s) => s.iter().fold(Abs::Set(None), |acc, v| match v {
            Val::Int(i) => acc.join(Abs::Set(Some((*i, *i)))),
            _ => Abs::Unknown,
        }),
        _ => Abs::Unknown,
    }
}

/// The values a function takes over a box of arguments, when they are all numbers or all
/// sets of numbers: their hull.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueRange {
    /// Numbers, in the interval.
    Int(Interval),
    /// Sets of numbers, each element in the interval (`None`: every set is empty).
    Set(Option<Interval>),
}

/// Evaluates function `id` at every argument of the parameter types given, when it can
/// (a small box, within a budget): the hull of its values, exact where the abstract
/// interpretation of its body loses the relations between its parts.
pub type Evaluate<'a> = dyn FnMut(usize, &[FieldTy]) -> Option<ValueRange> + 'a;

/// The abstract interpreter: what each function's parameters are called with, and what
/// each returns, as far as one round has found.
struct Analysis {
    /// Per function, per parameter: the join of every argument seen (`None`: no call yet).
    params: Vec<Vec<Option<Abs>>>,
    /// Per function: its result under `params` (from the last round).
    results: Vec<Abs>,
}

impl Analysis {
    fn call(&mut self, func: usize, args: Vec<Abs>) -> Abs {
        for (slot, a) in self.params[func].iter_mut().zip(args) {
            *slot = Some(slot.map_or(a, |s| s.join(a)));
        }
        self.results[func]
    }

    fn clauses(&mut self, clauses: &[IClause], env: &mut [Abs]) {
        for c in clauses {
            match c {
                IClause::Bind(vars, domain) => {
                    let d = self.eval(domain, env);
                    match vars.as_slice() {
                        [v] => set(env, v.slot, d.element()),
                        vs => vs.iter().for_each(|v| set(env, v.slot, Abs::Unknown)),
                    }
                }
                IClause::Cond(e) => {
                    self.eval(e, env);
                }
                IClause::Let(v, e) => {
                    let x = self.eval(e, env);
                    set(env, v.slot, x);
                }
            }
        }
    }

    fn eval(&mut self, e: &IExpr, env: &mut [Abs]) -> Abs {
        match e.kind() {
            IExprKind::Lit(v) => of_val(v),
            IExprKind::Var(v) => env.get(v.slot.index()).copied().unwrap_or(Abs::Unknown),
            IExprKind::Bin { op, lhs, rhs, .. } => {
                let (a, b) = (self.eval(lhs, env), self.eval(rhs, env));
                bin(*op, a, b)
            }
            IExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.eval(cond, env);
                let t = self.eval(then, env);
                t.join(self.eval(otherwise, env))
            }
            IExprKind::Let { var, value, body } => {
                let x = self.eval(value, env);
                set(env, var.slot, x);
                self.eval(body, env)
            }
            IExprKind::Set(es) => {
                let mut acc = Abs::Set(None);
                for x in es {
                    let x = self.eval(x, env);
                    acc = match x.int() {
                        Some(i) => acc.join(Abs::Set(Some(i))),
                        None => Abs::Unknown,
                    };
                }
                acc
            }
            IExprKind::Compr { elem, clauses } => {
                self.clauses(clauses, env);
                match self.eval(elem, env).int() {
                    Some(i) => Abs::Set(Some(i)),
                    None => Abs::Unknown,
                }
            }
            IExprKind::Call { func, args, .. } => {
                let args = args.iter().map(|a| self.eval(a, env)).collect();
                self.call(*func, args)
            }
            IExprKind::Builtin { func, args, .. } => {
                let vals: Vec<Abs> = args.iter().map(|a| self.eval(a, env)).collect();
                match (func, vals.as_slice()) {
                    (Builtin::Min, [Abs::Int(a), Abs::Int(b)]) => {
                        Abs::Int((a.0.min(b.0), a.1.min(b.1)))
                    }
                    (Builtin::Max, [Abs::Int(a), Abs::Int(b)]) => {
                        Abs::Int((a.0.max(b.0), a.1.max(b.1)))
                    }
                    (Builtin::Min | Builtin::Max, [s]) => s.element(),
                    (Builtin::Len, [Abs::Set(Some((lo, hi)))]) => hi
                        .checked_sub(*lo)
                        .and_then(|d| d.checked_add(1))
                        .map_or(Abs::Unknown, |n| Abs::Int((0, n))),
                    _ => Abs::Unknown,
                }
            }
            IExprKind::Quant {
                kind,
                vars,
                domain,
                body,
            } => {
                let d = self.eval(domain, env);
                match vars.as_slice() {
                    [v] => set(env, v.slot, d.element()),
                    vs => vs.iter().for_each(|v| set(env, v.slot, Abs::Unknown)),
                }
                self.eval(body, env);
                match (kind, d) {
                    (QuantKind::Count, Abs::Set(Some((lo, hi)))) => hi
                        .checked_sub(lo)
                        .and_then(|d| d.checked_add(1))
                        .map_or(Abs::Unknown, |n| Abs::Int((0, n))),
                    (QuantKind::Count, Abs::Set(None)) => Abs::Int((0, 0)),
                    (QuantKind::Count, _) => Abs::Unknown,
                    _ => Abs::Int((0, 1)),
                }
            }
            IExprKind::Cells(op) => self.eval(&op.written, env),
            IExprKind::Parts(op) => self.eval(&op.written, env),
            IExprKind::Inverted(q) => {
                self.eval(&q.looked_for, env);
                set(env, q.var.slot, of_type(&q.domain));
                if let Some(rest) = &q.rest {
                    self.eval(rest, env);
                }
                match q.kind {
                    QuantKind::Count => Abs::Int((0, q.table.domain_values.len() as i64)),
                    _ => Abs::Int((0, 1)),
                }
            }
            IExprKind::Neg { arg, .. } => match self.eval(arg, env) {
                Abs::Int((lo, hi)) => match (hi.checked_neg(), lo.checked_neg()) {
                    (Some(a), Some(b)) => Abs::Int((a, b)),
                    _ => Abs::Unknown,
                },
                _ => Abs::Unknown,
            },
            IExprKind::Not(x) | IExprKind::Field { tuple: x, .. } => {
                self.eval(x, env);
                Abs::Unknown
            }
            IExprKind::Index { list, index, .. } => {
                self.eval(list, env);
                self.eval(index, env);
                Abs::Unknown
            }
            IExprKind::Tuple(es) | IExprKind::List(es) => {
                es.iter().for_each(|x| {
                    self.eval(x, env);
                });
                Abs::Unknown
            }
            IExprKind::Pos { args, .. } | IExprKind::Variant { args, .. } => {
                args.iter().for_each(|x| {
                    self.eval(x, env);
                });
                Abs::Unknown
            }
            IExprKind::Compound { parts, .. } => {
                parts.iter().for_each(|x| {
                    self.eval(x, env);
                });
                Abs::Unknown
            }
            IExprKind::CompoundOf { elem, clauses, .. } => {
                self.clauses(clauses, env);
                self.eval(elem, env);
                Abs::Unknown
            }
            IExprKind::Extreme(x) => {
                self.clauses(&x.clauses, env);
                match self.eval(&x.elem, env) {
                    // The least or largest element is one of them.
                    Abs::Int(r) => Abs::Int(r),
                    _ => Abs::Unknown,
                }
            }
            IExprKind::Leaves(leaves) => match &**leaves {
                super::Leaves::Pair { a, b, .. } => {
                    self.eval(a, env);
                    self.eval(b, env);
                    Abs::Unknown
                }
                super::Leaves::Each { elem, clauses } => {
                    self.clauses(clauses, env);
                    self.eval(elem, env);
                    Abs::Unknown
                }
            },
            IExprKind::Closure {
                seed, var, next, ..
            } => {
                self.eval(seed, env);
                set(env, var.slot, Abs::Unknown);
                self.eval(next, env);
                Abs::Unknown
            }
            IExprKind::Slice { list, lo, hi, .. } => {
                self.eval(list, env);
                for b in [lo, hi].into_iter().flatten() {
                    self.eval(b, env);
                }
                Abs::Unknown
            }
            IExprKind::With {
                list, index, value, ..
            } => {
                self.eval(list, env);
                self.eval(index, env);
                self.eval(value, env);
                Abs::Unknown
            }
            IExprKind::Match {
                scrutinee,
                arms,
                default,
                ..
            } => {
                self.eval(scrutinee, env);
                let mut out: Option<Abs> = None;
                for arm in arms {
                    arm.vars.iter().for_each(|v| set(env, v.slot, Abs::Unknown));
                    let r = self.eval(&arm.body, env);
                    out = Some(out.map_or(r, |o| o.join(r)));
                }
                if let Some(d) = default {
                    let r = self.eval(d, env);
                    out = Some(out.map_or(r, |o| o.join(r)));
                }
                out.unwrap_or(Abs::Unknown)
            }
            IExprKind::AllOf { .. } | IExprKind::End => Abs::Unknown,
        }
    }
}

/// What `a op b` is known to be.
fn bin(op: Op, a: Abs, b: Abs) -> Abs {
    match (op, a, b) {
        (Op::Add, Abs::Int(a), Abs::Int(b)) => corners(a, b, i64::checked_add),
        (Op::Sub, Abs::Int(a), Abs::Int(b)) => corners(a, b, i64::checked_sub),
        (Op::NatSub, Abs::Int(a), Abs::Int(b)) => {
            corners(a, b, |x, y| x.checked_sub(y).map(|d| d.max(0)))
        }
        (Op::Mul, Abs::Int(a), Abs::Int(b)) => corners(a, b, i64::checked_mul),
        // Division and remainder by a positive divisor only.
        (Op::Div, Abs::Int(a), Abs::Int(b)) if b.0 > 0 => corners(a, b, i64::checked_div),
        (Op::Rem, Abs::Int(a), Abs::Int(b)) if b.0 > 0 && a.0 >= 0 => {
            Abs::Int((0, a.1.min(b.1 - 1)))
        }
        (Op::RangeIncl, Abs::Int(a), Abs::Int(b)) if a.0 <= b.1 => Abs::Set(Some((a.0, b.1))),
        (Op::RangeExcl, Abs::Int(a), Abs::Int(b)) if a.0 < b.1 => Abs::Set(Some((a.0, b.1 - 1))),
        (Op::RangeIncl | Op::RangeExcl, Abs::Int(_), Abs::Int(_)) => Abs::Set(None),
        (Op::SetUnion, Abs::Set(_), Abs::Set(_)) => a.join(b),
        (Op::SetInter, Abs::Set(x), Abs::Set(y)) => match (x, y) {
            (Some(x), Some(y)) if x.0.max(y.0) <= x.1.min(y.1) => {
                Abs::Set(Some((x.0.max(y.0), x.1.min(y.1))))
            }
            _ => Abs::Set(None),
        },
        (Op::SetInter, Abs::Set(_), _) => a,
        (Op::SetInter, _, Abs::Set(_)) => b,
        (Op::SetDiff | Op::Remove, Abs::Set(_), _) => a,
        (Op::Insert, Abs::Set(_), Abs::Int(x)) => a.join(Abs::Set(Some(x))),
        (Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::In | Op::NotIn, _, _)
        | (Op::And | Op::Or, _, _) => Abs::Int((0, 1)),
        _ => Abs::Unknown,
    }
}

/// For each helper function, the interval each integer parameter takes at the games' call
/// sites (`None` for a parameter of another type, one called with anything, or a function
/// the games never call). `evaluate` gives a function's values over a box exactly where it
/// can (it is asked again for the same box each round: it should remember its answers);
/// elsewhere the body is interpreted over intervals.
pub fn param_ranges(program: &Program, evaluate: &mut Evaluate) -> Vec<Vec<Option<Interval>>> {
    let fns = &program.fns;
    let mut a = Analysis {
        params: fns.iter().map(|f| vec![None; f.params.len()]).collect(),
        results: vec![Abs::Unknown; fns.len()],
    };
    // Rounds until nothing changes (each link of a chain of calls takes one). Each round
    // starts afresh: the calls the moves make, and those each body makes with last round's
    // arguments, under last round's results; so a first round's guess (a result not known
    // yet) does not stay. Past the last round the ranges are still only guesses, which is
    // all a table needs.
    for _ in 0..16 {
        let before = (a.params.clone(), a.results.clone());
        let fresh: Vec<Vec<Option<Abs>>> = fns.iter().map(|f| vec![None; f.params.len()]).collect();
        let seen = std::mem::replace(&mut a.params, fresh);
        for game in &program.games {
            let GameKind::Rules(moves) = &game.kind else {
                continue;
            };
            for m in moves {
                let mut env = vec![Abs::Unknown; game.locals.len()];
                for (slot, f) in game.fields.iter().enumerate() {
                    env[slot] = of_type(&f.ty);
                }
                a.clauses(&m.clauses, &mut env);
                a.eval(&m.result, &mut env);
            }
        }
        // Each called function's body, with the arguments seen last round.
        let mut results = Vec::with_capacity(fns.len());
        for (id, f) in fns.iter().enumerate() {
            let called = &seen[id];
            if called.iter().any(Option::is_none) && !f.params.is_empty() {
                results.push(Abs::Unknown);
                continue;
            }
            let mut env = vec![Abs::Unknown; f.locals.len()];
            for (slot, ((_, t), arg)) in f.params.iter().zip(called).enumerate() {
                env[slot] = match of_type(t) {
                    Abs::Unknown => arg.unwrap_or(Abs::Unknown),
                    declared => declared,
                };
            }
            // The box of arguments: integers over their intervals, other types whole.
            let types: Option<Vec<FieldTy>> = (f.params.iter().zip(&env))
                .map(|((_, t), arg)| match (t, arg) {
                    (FieldTy::Nat | FieldTy::Int, Abs::Int((lo, hi))) => {
                        Some(FieldTy::Range(*lo, *hi))
                    }
                    (FieldTy::Nat | FieldTy::Int, _) => None,
                    (t, _) => Some(t.clone()),
                })
                .collect();
            // The body is interpreted anyway, for the calls it makes.
            let mut result = a.eval(&f.body, &mut env);
            match types.and_then(|types| evaluate(id, &types)) {
                Some(ValueRange::Int(i)) => result = Abs::Int(i),
                Some(ValueRange::Set(i)) => result = Abs::Set(i),
                None => {}
            }
            results.push(result);
        }
        a.results = results;
        if (a.params.clone(), a.results.clone()) == before {
            break;
        }
    }
    (a.params.iter().zip(fns))
        .map(|(ps, f)| {
            (ps.iter().zip(&f.params))
                .map(|(p, (_, t))| match (p, t) {
                    (Some(Abs::Int((lo, hi))), FieldTy::Nat) => {
                        Some(((*lo).max(0), *hi)).filter(|(lo, hi)| lo <= hi)
                    }
                    (Some(Abs::Int(i)), FieldTy::Int) => Some(*i),
                    _ => None,
                })
                .collect()
        })
        .collect()
}
