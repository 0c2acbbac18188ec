//! Compounds: their fast rules (theorems) and their own moves (for exact search).

use crate::expr::{Compound, Expr};
use crate::rules::{RuleError, MAX_OPTIONS};
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

/// The most components, over all the options of one compound position, that its
/// enumeration may build (each is a copy of a component: 16 to 32 bytes).
pub const MAX_COMPOUND_OPTION_PARTS: u64 = 1 << 24;

/// How many options `compound` has when its components have `counts` options each
/// (saturating): the move rules of [`compound_options`], counted.
pub(crate) fn option_count(compound: Compound, counts: &[usize]) -> u64 {
    let movable = counts.iter().filter(|&&c| c > 0);
    let all_movable = counts.iter().all(|&c| c > 0);
    let product = |extra: u64| {
        movable
            .clone()
            .fold(1u64, |acc, &c| acc.saturating_mul(c as u64 + extra))
    };
    let any_movable = movable.clone().next().is_some();
    match compound {
        Compound::Sum => movable
            .clone()
            .fold(0u64, |acc, &c| acc.saturating_add(c as u64)),
        Compound::Wtia if all_movable => movable
            .clone()
            .fold(0u64, |acc, &c| acc.saturating_add(c as u64)),
        Compound::Conjunctive if all_movable => product(0),
        Compound::Continued if any_movable => product(0),
        Compound::Union => product(1) - 1,
        Compound::Selective if all_movable => (product(1) - 1).saturating_sub(product(0)),
        Compound::Selective => product(1) - 1,
        Compound::Wtia | Compound::Conjunctive | Compound::Continued => 0,
    }
}

/// The options of `compound(children)`, given each child's options; canonical when `sort`,
/// else with components in the children's order. Move rules: Lenhardt (2007), §3. An error
/// where there are more than [`MAX_OPTIONS`] of them, or more than
/// [`MAX_COMPOUND_OPTION_PARTS`] components in all (a union of 40 movable components has
/// 2^40 options): building them would exhaust memory.
pub(crate) fn compound_options<P: Clone + Ord>(
    compound: Compound,
    children: &[Expr<P>],
    child_opts: &[Vec<Expr<P>>],
    sort: bool,
) -> Result<Vec<Expr<P>>, RuleError> {
    let counts: Vec<usize> = child_opts.iter().map(Vec::len).collect();
    let count = option_count(compound, &counts);
    if count > MAX_OPTIONS as u64
        || count.saturating_mul(children.len() as u64) > MAX_COMPOUND_OPTION_PARTS
    {
        return Err(RuleError::new(format!(
            "a {} of {} components has {} options; building them would exhaust memory",
            compound.name(),
            children.len(),
            if count == u64::MAX {
                "too many".to_string()
            } else {
                count.to_string()
            }
        )));
    }
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
            // Fewer than 2^22 options were counted, so fewer than 22 components move.
            let m = movable.len();
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
    debug_assert_eq!(out.len() as u64, count);
    Ok(out)
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
