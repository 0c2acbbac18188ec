//! Tables of helper functions: a function whose parameters range over finite types, or over
//! the ranges its calls give them ([`crate::ir::param_ranges`]), with at most
//! [`TABLE_LIMIT`] arguments in all, is evaluated at every one of them while compiling
//! ([`Function::table`]). The interpreter answers a call from the table where its arguments
//! lie in it; native code keeps the table where its values are cheap to copy, and reads it
//! directly where the arguments surely lie in it.
//!
//! A table keeps every value and every error: functions are pure, so the value at an
//! argument is the body's value there; where the body fails the table holds nothing and the
//! body runs (and fails) at run time, as do arguments outside the box. An analysis: it
//! rewrites no expression.

use crate::ir::*;
use crate::opt::evaluate::Evaluations;
use crate::opt::knowledge::TABLE_LIMIT;
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Runs the pass: every function with a box of arguments gets its table.
pub fn run(program: &mut Program, source: &str) {
    let tables: Vec<Option<FnTable>> = {
        let evaluations = Evaluations::new(program, source);
        let ranges = param_ranges(program, &mut |id, types| {
            evaluations.range(id, types, TABLE_LIMIT)
        });
        (0..program.fns.len())
            .map(|id| table(program, &evaluations, &ranges, id))
            .collect()
    };
    for (f, t) in program.fns.iter_mut().zip(tables) {
        f.table = t;
    }
}

/// The table of function `id`, when its box has at most [`TABLE_LIMIT`] arguments and the
/// function's values there are computed within a constant's budget.
fn table(
    program: &Program,
    evaluations: &Evaluations,
    ranges: &[Vec<Option<Interval>>],
    id: usize,
) -> Option<FnTable> {
    let f = &program.fns[id];
    if f.params.is_empty() {
        return None;
    }
    // Integer parameters span the range their call sites give them.
    let types: Vec<FieldTy> = (f.params.iter().enumerate())
        .map(
            |(i, (_, t))| match ranges.get(id).and_then(|r| r.get(i).copied().flatten()) {
                Some((lo, hi)) if matches!(t, FieldTy::Nat | FieldTy::Int) => {
                    FieldTy::Range(lo, hi)
                }
                _ => t.clone(),
            },
        )
        .collect();
    let values = evaluations.values(id, &types, TABLE_LIMIT)?;
    let args = FieldTy::Tuple(types.clone()).values(&program.types, TABLE_LIMIT)?;
    let by_args = (args.iter().zip(values.iter()))
        .filter_map(|(arg, v)| {
            let Val::Tuple(parts) = arg else {
                unreachable!("the values of a tuple type are tuples")
            };
            Some((parts.to_vec(), v.clone()?))
        })
        .collect::<FxHashMap<Vec<Val>, Val>>();
    Some(FnTable {
        types,
        values,
        by_args: Rc::new(by_args),
    })
}
