//! Compounds: their fast rules (theorems) and their own moves (for exact search).

use crate::expr::{Compound, Expr};
use crate::value::{ValueKind, OUTCOME_N, OUTCOME_P, W_SL, W_SW};

/// The child value kind a fast rule for `kind` of a `compound` needs, if there is a rule.
pub(crate) fn fast_rule(kind: ValueKind, compound: Compound) -> Option<ValueKind> {
    use Compound::*;
    use ValueKind::*;
    match (kind, compound) {
        (Grundy, Sum) | (Outcome, Sum) | (Outcome, Selective) => Some(Grundy),
        (Outcome, Union) => Some(Outcome),
        (Outcome, Conjunctive) | (Remoteness, Conjunctive) => Some(Remoteness),
        (Outcome, Continued) | (Suspense, Continued) => Some(Suspense),
        (Outcome, Wtia) | (WNumber, Wtia) => Some(WNumber),
        (MisereOutcome, Wtia) | (MisereWNumber, Wtia) => Some(MisereWNumber),
        _ => None,
    }
}

fn outcome(p: bool) -> u32 {
    if p {
        OUTCOME_P
    } else {
        OUTCOME_N
    }
}

/// ⊕w over encoded w-numbers: SL absorbs, then SW, else xor.
pub(crate) fn w_combine(vals: &[u32]) -> u32 {
    if vals.contains(&W_SL) {
        W_SL
    } else if vals.contains(&W_SW) {
        W_SW
    } else {
        vals.iter().fold(0, |a, &b| a ^ b)
    }
}

/// Applies the fast rule for `kind` of `compound` to the children's values (of the kind
/// [`fast_rule`] names). Sources: R. Lenhardt, "Composite mathematical games" (2007), §3 and §5.
pub(crate) fn combine(kind: ValueKind, compound: Compound, vals: &[u32]) -> u32 {
    use Compound::*;
    use ValueKind::*;
    let xor = || vals.iter().fold(0, |a, &b| a ^ b);
    match (kind, compound) {
        (Grundy, Sum) => xor(),
        (Outcome, Sum) => outcome(xor() == 0),
        (Outcome, Union) => outcome(vals.iter().all(|&o| o == OUTCOME_P)),
        (Outcome, Selective) => outcome(vals.windows(2).all(|w| w[0] == w[1])),
        (Remoteness, Conjunctive) => vals.iter().copied().min().unwrap_or(0),
        (Outcome, Conjunctive) => outcome(vals.iter().copied().min().unwrap_or(0) % 2 == 0),
        (Suspense, Continued) => vals.iter().copied().max().unwrap_or(0),
        (Outcome, Continued) => outcome(vals.iter().copied().max().unwrap_or(0) % 2 == 0),
        (WNumber, Wtia) => w_combine(vals),
        (Outcome, Wtia) => {
            let w = w_combine(vals);
            outcome(w == W_SL || w == 0)
        }
        (MisereWNumber, Wtia) => {
            if vals.contains(&W_SW) {
                W_SW
            } else {
                xor()
            }
        }
        (MisereOutcome, Wtia) => outcome(!vals.contains(&W_SW) && xor() == 0),
        _ => unreachable!("combine is only called where fast_rule has a rule"),
    }
}

/// The options of `compound(children)`, given each child's options; canonical when `sort`,
/// else with components in the children's order. Move rules: Lenhardt (2007), §3.
pub(crate) fn compound_options<P: Clone + Ord>(
    compound: Compound,
    children: &[Expr<P>],
    child_opts: &[Vec<Expr<P>>],
    sort: bool,
) -> Vec<Expr<P>> {
    let make = |next: Vec<Expr<P>>| {
        if sort {
            Expr::compound(compound, next)
        } else {
            Expr::compound_in_order(compound, next)
        }
    };
    let n = children.len();
    let movable: Vec<usize> = (0..n).filter(|&i| !child_opts[i].is_empty()).collect();
    let mut out = Vec::new();
    let one_at_a_time = |out: &mut Vec<Expr<P>>| {
        for &i in &movable {
            for o in &child_opts[i] {
                let mut next = children.to_vec();
                next[i] = o.clone();
                out.push(make(next));
            }
        }
    };
    match compound {
        Compound::Sum => one_at_a_time(&mut out),
        Compound::Wtia => {
            if movable.len() == n {
                one_at_a_time(&mut out);
            }
        }
        Compound::Conjunctive => {
            if movable.len() == n {
                product(children, child_opts, &movable, &make, &mut out);
            }
        }
        Compound::Continued => {
            if !movable.is_empty() {
                product(children, child_opts, &movable, &make, &mut out);
            }
        }
        Compound::Union | Compound::Selective => {
            let m = movable.len();
            assert!(
                m < 63,
                "a union or selective compound of {m} movable components"
            );
            for mask in 1u64..(1u64 << m) {
                let subset: Vec<usize> = (0..m)
                    .filter(|b| mask >> b & 1 == 1)
                    .map(|b| movable[b])
                    .collect();
                if compound == Compound::Selective && subset.len() == n {
                    continue;
                }
                product(children, child_opts, &subset, &make, &mut out);
            }
        }
    }
    out
}

/// Every way of moving in all components of `subset` at once.
fn product<P: Clone + Ord>(
    children: &[Expr<P>],
    child_opts: &[Vec<Expr<P>>],
    subset: &[usize],
    make: &dyn Fn(Vec<Expr<P>>) -> Expr<P>,
    out: &mut Vec<Expr<P>>,
) {
    let mut choice = vec![0usize; subset.len()];
    loop {
        let mut next = children.to_vec();
        for (k, &i) in subset.iter().enumerate() {
            next[i] = child_opts[i][choice[k]].clone();
        }
        out.push(make(next));
        // Advance the odometer.
        let mut k = 0;
        loop {
            if k == subset.len() {
                return;
            }
            choice[k] += 1;
            if choice[k] < child_opts[subset[k]].len() {
                break;
            }
            choice[k] = 0;
            k += 1;
        }
    }
}
