//! Set operations on one element, and extremes of comprehensions, as IR nodes of their own:
//! `s | {x}` becomes `s insert x` ([`Op::Insert`]) and `s - {x}` becomes `s remove x`
//! ([`Op::Remove`]), which add or remove the element without building a set for it;
//! `min({ e for ... })` and `max(...)` become an [`IExprKind::Extreme`], which folds the elements
//! without building the set. Each keeps its value and its errors (the operands are computed
//! in the same order; an extreme of no element fails where the `min` stands). The code
//! generator prints each node as it is, with no look inside an operand.
//!
//! The last pass, run over every expression the program holds (the kernels' and the
//! symmetries' included): the analyses of the passes before it read the operators as
//! written.

use crate::ir::*;

/// Runs the pass on every expression of `program`.
pub fn run(program: &mut Program, _source: &str) {
    program.for_each_expr_mut(&mut |e| e.rewrite_up(&mut lower));
}

/// Lowers `e`, whose parts are lowered.
fn lower(e: &mut IExpr) {
    let span = e.span();
    let extreme = match e.kind_mut() {
        IExprKind::Bin {
            op: op @ (Op::SetUnion | Op::SetDiff),
            rhs,
            ..
        } => {
            if let IExprKind::Set(one) = rhs.kind_mut() {
                if let [elem] = one.as_mut_slice() {
                    let elem = std::mem::replace(elem, IExpr::from(IExprKind::End));
                    *op = match op {
                        Op::SetUnion => Op::Insert,
                        _ => Op::Remove,
                    };
                    **rhs = elem;
                }
            }
            None
        }
        IExprKind::Builtin {
            func: func @ (Builtin::Min | Builtin::Max),
            args,
        } => match args.as_mut_slice() {
            [compr] => match compr.kind_mut() {
                IExprKind::Compr { elem, clauses } => Some(ExtremeOf {
                    largest: *func == Builtin::Max,
                    elem: std::mem::replace(&mut **elem, IExpr::from(IExprKind::End)),
                    clauses: std::mem::take(clauses),
                }),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    if let Some(extreme) = extreme {
        *e = IExpr::from(IExprKind::Extreme(Box::new(extreme))).at(span);
    }
}
