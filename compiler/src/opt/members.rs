//! Binders over a type filtered by a set: `x in T, ..., x in s`, with `s` a set field of
//! the game of element type `T`, binds `x in s` and drops the test. Cram written as
//! `move across((r, c) in Cell, ((r, c) in empty), (r, c + 1) in empty)` then reads as
//! `move across((r, c) in empty, (r, c + 1) in empty)`, which the passes after this one
//! (translations, found symmetries, sums of parts) understand, and which runs over the set's
//! elements only.

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
                // Clauses between that cannot fail: no arithmetic, no call (a binder's
                // domain too).
                bind_members(&mut m.clauses, &f, &all, &|c| {
                    let props = c.expr().props();
                    !props.fallible && props.calls.is_empty()
                });
            }
        }
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
