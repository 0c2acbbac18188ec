//! Binders over a type filtered by a set: `x in T, ..., x in s`, with `s` a set field of
//! the game of element type `T`, binds `x in s` and drops the test. Cram written as
//! `move across((r, c) in Cell, ((r, c) in empty), (r, c + 1) in empty)` then reads as
//! `move across((r, c) in empty, (r, c + 1) in empty)`, which the passes after this one
//! (translations, found symmetries, sums of parts) understand, and which runs over the set's
//! elements only. The clauses between must not fail where `x` is not in `s` (they are no
//! longer evaluated there): no helper call, and arithmetic only on constants and names bound
//! over ranges, whose bounds keep it in `i64` (`c + 1 < C` of `(r, c) in Cell`).

use crate::ir::*;
use crate::opt::structure::conjuncts;

/// Runs the pass on every move of every game with a set field of a finite type.
pub fn run(program: &mut Program, _source: &str) {
    for game in &mut program.games {
        let GameKind::Rules(moves) = &mut game.kind else {
            continue;
        };
        for (i, field) in game.fields.iter().enumerate() {
            let FieldTy::Set(t) = &field.ty else {
                continue;
            };
            let Some(all) = t.values(&program.types, MAX_ELEMENTS) else {
                continue;
            };
            let Some((name, ty)) = game.locals.get(VarId::new(i)) else {
                continue;
            };
            let f = Var {
                slot: VarId::new(i),
                name: name.clone(),
                ty: ty.clone(),
            };
            for m in moves.iter_mut() {
                // Clauses between that cannot fail: no call, and arithmetic only on names
                // bound over ranges, whose results lie in `i64` (a binder's domain too).
                let bounds = bounds(&m.clauses);
                bind_members(&mut m.clauses, &f, &all, &|c| {
                    c.expr().props().calls.is_empty() && cannot_fail(c.expr(), &bounds)
                });
            }
        }
    }
}

/// The least and greatest values of names a move binds over ranges, by slot and, for a
/// tuple's component, its index.
type Bounds = std::collections::HashMap<(VarId, Option<usize>), (i128, i128)>;

/// The bounds of the names `clauses` bind over a type of ranges or tuples of them (each
/// name's value lies in them wherever it is read: names are never bound twice).
fn bounds(clauses: &[IClause]) -> Bounds {
    let mut out = Bounds::new();
    let range = |t: &FieldTy| match t {
        FieldTy::Range(lo, hi) => Some((i128::from(*lo), i128::from(*hi))),
        _ => None,
    };
    for c in clauses {
        let IClause::Bind(vars, domain) = c else {
            continue;
        };
        let IExprKind::AllOf { ty, .. } = domain.kind() else {
            continue;
        };
        match (vars.as_slice(), ty) {
            ([v], FieldTy::Tuple(ts)) => {
                for (i, t) in ts.iter().enumerate() {
                    out.extend(range(t).map(|b| ((v.slot, Some(i)), b)));
                }
            }
            ([v], t) => out.extend(range(t).map(|b| ((v.slot, None), b))),
            (vs, FieldTy::Tuple(ts)) if vs.len() == ts.len() => {
                for (v, t) in vs.iter().zip(ts) {
                    out.extend(range(t).map(|b| ((v.slot, None), b)));
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether evaluating `e` cannot fail, its calls aside: each node cannot fail whatever its
/// operands, or is arithmetic whose operands' bounds keep it in `i64` (and `nat`'s
/// subtraction above 0).
fn cannot_fail(e: &IExpr, bounds: &Bounds) -> bool {
    let here = e.kind().cannot_fail_here() || interval(e, bounds).is_some();
    let mut inside = true;
    e.for_each_child(&mut |c| inside &= cannot_fail(c, bounds));
    here && inside
}

/// The least and greatest values of integer expression `e`, where `bounds` tell them and
/// no step of it leaves `i64` (or, for `nat`'s subtraction, goes below 0).
fn interval(e: &IExpr, bounds: &Bounds) -> Option<(i128, i128)> {
    let fits = |(lo, hi): (i128, i128)| {
        (lo >= i128::from(i64::MIN) && hi <= i128::from(i64::MAX)).then_some((lo, hi))
    };
    match e.kind() {
        IExprKind::Lit(Val::Int(v)) => Some((i128::from(*v), i128::from(*v))),
        IExprKind::Var(v) => bounds.get(&(v.slot, None)).copied(),
        IExprKind::Field { tuple, index } => {
            let v = tuple.as_var()?;
            bounds.get(&(v.slot, Some(*index))).copied()
        }
        IExprKind::Neg { arg } => {
            let (lo, hi) = interval(arg, bounds)?;
            fits((-hi, -lo))
        }
        IExprKind::Bin { op, lhs, rhs } => {
            let ((a, b), (c, d)) = (interval(lhs, bounds)?, interval(rhs, bounds)?);
            match op {
                Op::Add => fits((a + c, b + d)),
                Op::Sub => fits((a - d, b - c)),
                Op::NatSub => fits((a - d, b - c)).filter(|&(lo, _)| lo >= 0),
                Op::Mul => {
                    let products = [a * c, a * d, b * c, b * d];
                    let lo = products.iter().min().copied()?;
                    let hi = products.iter().max().copied()?;
                    fits((lo, hi))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The most values of a set's element type this pass compares a binder's domain with.
const MAX_ELEMENTS: usize = 1 << 12;

/// Each binder over every value `all` of the type of the set field `f`, `x in T`, followed
/// by clauses that `sure` accepts (conditions, `let`s, other binders) and then a test `x in
/// f`, made a binder over the set, `x in f` (the test dropped): the same instances in the
/// same order (a type's values and a set's elements are both listed in increasing order).
/// The clauses between are no longer evaluated where `x` is not in `f`: `sure` must accept
/// only clauses that cannot fail there.
pub fn bind_members(
    clauses: &mut Vec<IClause>,
    f: &Var,
    all: &[Val],
    sure: &dyn Fn(&IClause) -> bool,
) {
    // One condition a conjunct.
    let mut split = Vec::new();
    for c in clauses.drain(..) {
        match c {
            IClause::Cond(cond) if cond.as_bin().is_some_and(|(op, ..)| op == Op::And) => split
                .extend(
                    conjuncts(&cond)
                        .into_iter()
                        .map(|e| IClause::Cond(e.clone())),
                ),
            c => split.push(c),
        }
    }
    *clauses = split;
    let mut i = 0;
    while i < clauses.len() {
        let IClause::Bind(vars, domain) = &clauses[i] else {
            i += 1;
            continue;
        };
        let every = match domain.kind() {
            IExprKind::AllOf {
                values: Val::Set(vs),
                ..
            } => vs.len() == all.len() && vs.iter().zip(all).all(|(a, b)| a == b),
            _ => false,
        };
        let element = match vars.as_slice() {
            [v] => IExpr::from(IExprKind::Var(v.clone())),
            vs => IExpr::from(IExprKind::Tuple(
                vs.iter()
                    .map(|v| IExpr::from(IExprKind::Var(v.clone())))
                    .collect(),
            )),
        };
        let test = (every)
            .then(|| {
                let is_test = |c: &IClause| match c {
                    IClause::Cond(e) => match e.kind() {
                        IExprKind::Bin {
                            op: Op::In,
                            lhs,
                            rhs,
                        } => rhs.is_var(f.slot) && **lhs == element,
                        _ => false,
                    },
                    _ => false,
                };
                let j =
                    (i + 1..clauses.len()).find(|&j| is_test(&clauses[j]) || !sure(&clauses[j]))?;
                is_test(&clauses[j]).then_some(j)
            })
            .flatten();
        if let Some(j) = test {
            clauses.remove(j);
            let IClause::Bind(_, domain) = &mut clauses[i] else {
                unreachable!("a binder")
            };
            *domain = IExpr::from(IExprKind::Var(f.clone())).at(domain.span());
        }
        i += 1;
    }
}
