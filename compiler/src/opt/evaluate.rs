//! Helper functions evaluated while compiling, by the reference interpreter: the values of a
//! function over a box of arguments, for its table (native code's), for the ranges of the
//! functions it feeds ([`crate::ir::param_ranges`]) and for what the optimizer knows of
//! calls (`opt/knowledge.rs`). Each box is evaluated once, whoever asks first.

use crate::interp::{within_budget, Interpreter, CONST_BUDGET};
use crate::ir::*;
use std::cell::RefCell;
use std::rc::Rc;

/// The values of one function at every argument of a box, in the box's rank order (`None`
/// where the function fails).
pub type BoxValues = Rc<[Option<Val>]>;

/// One evaluation: `(function, parameter types, most arguments)`, and what it gave.
type Evaluated = ((usize, Vec<FieldTy>, usize), Option<BoxValues>);

/// A function's values over boxes of arguments, each computed once.
pub struct Evaluations<'p> {
    interp: Interpreter<'p>,
    done: RefCell<Vec<Evaluated>>,
}

impl<'p> Evaluations<'p> {
    /// Nothing evaluated yet, for `program` checked from `source`.
    pub fn new(program: &'p Program, source: &'p str) -> Self {
        Evaluations {
            interp: Interpreter::new(program, source),
            done: RefCell::new(Vec::new()),
        }
    }

    /// The values of function `id` at every argument whose parts have the types `types`:
    /// `None` past `limit` arguments, or past the budget a constant has (a function too
    /// costly to evaluate while building keeps its body alone).
    pub fn values(&self, id: usize, types: &[FieldTy], limit: usize) -> Option<BoxValues> {
        let known = (self.done.borrow().iter())
            .find(|((f, t, l), _)| *f == id && t == types && *l == limit)
            .map(|(_, v)| v.clone());
        if let Some(values) = known {
            return values;
        }
        let values = self.evaluate(id, types, limit);
        (self.done.borrow_mut()).push(((id, types.to_vec(), limit), values.clone()));
        values
    }

    fn evaluate(&self, id: usize, types: &[FieldTy], limit: usize) -> Option<BoxValues> {
        let whole = FieldTy::Tuple(types.to_vec());
        let args = whole.values(&self.interp.program().types, limit)?;
        let (values, spent) = within_budget(CONST_BUDGET, || {
            (args.iter())
                .map(|arg| {
                    let Val::Tuple(vals) = arg else {
                        unreachable!("the values of a tuple type are tuples")
                    };
                    let call = IExpr::from(IExprKind::Call {
                        in_table: false,
                        ret: self.interp.program().fns[id].ret.ty(),
                        func: id,
                        args: vals
                            .iter()
                            .map(|v| IExprKind::Lit(v.clone()).into())
                            .collect(),
                    });
                    (self.interp.eval(&call, &mut Vec::new()).ok()).map(Val::normalize)
                })
                .collect::<BoxValues>()
        });
        (!spent).then_some(values)
    }

    /// The image of each of `values` under `elem` with `x` bound to it and the other slots
    /// as in `env` (`None` where it fails), within a constant's budget (`None` past it).
    pub fn map(
        &self,
        elem: &IExpr,
        x: &Var,
        env: &[Val],
        values: &[Val],
    ) -> Option<Vec<Option<Val>>> {
        let (images, spent) = within_budget(CONST_BUDGET, || {
            (values.iter())
                .map(|v| {
                    let mut env = env.to_vec();
                    if env.len() <= x.slot.index() {
                        env.resize(x.slot.index() + 1, Val::Int(0));
                    }
                    env[x.slot.index()] = v.clone();
                    (self.interp.eval(elem, &mut env).ok()).map(Val::normalize)
                })
                .collect::<Vec<_>>()
        });
        (!spent).then_some(images)
    }

    /// The value of `e` in `env` (`None` where it fails), within a constant's budget
    /// (`None` past it).
    pub fn eval(&self, e: &IExpr, env: &[Val]) -> Option<Option<Val>> {
        let (value, spent) = within_budget(CONST_BUDGET, || {
            (self.interp.eval(e, &mut env.to_vec()).ok()).map(Val::normalize)
        });
        (!spent).then_some(value)
    }

    /// The hull of function `id`'s values over the arguments of types `types` (at most
    /// `limit`), when they are all numbers or all sets of numbers.
    pub fn range(&self, id: usize, types: &[FieldTy], limit: usize) -> Option<ValueRange> {
        let values = self.values(id, types, limit)?;
        let widen = |acc: Option<Interval>, i: i64| {
            Some(acc.map_or((i, i), |(lo, hi)| (lo.min(i), hi.max(i))))
        };
        let (mut ints, mut elems) = (None, None);
        let (mut sets, mut numbers) = (false, false);
        for v in values.iter().flatten() {
            match v {
                Val::Int(i) => {
                    numbers = true;
                    ints = widen(ints, *i);
                }
                Val::Set(s) => {
                    sets = true;
                    for x in s.iter() {
                        let Val::Int(i) = x else { return None };
                        elems = widen(elems, *i);
                    }
                }
                _ => return None,
            }
        }
        match (numbers, sets) {
            (true, false) => ints.map(ValueRange::Int),
            (false, true) => Some(ValueRange::Set(elems)),
            _ => None,
        }
    }
}
