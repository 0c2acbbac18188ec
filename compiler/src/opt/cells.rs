//! Operations on a set of board cells that native code does on the set's bits (a cell
//! `(r, c)` has the code `16 r + c`), lowered to [`IExprKind::Cells`] with the expression as
//! written inside:
//!
//! - a translation, `{ (x.0 - r0, x.1 - c0) for x in s }` (or `{ (r - r0, c - c0) for (r, c)
//!   in s }`, either part possibly unmoved, each amount a name bound outside or a
//!   constant), is one shift of the bits where no part goes below 0 (where one would, the
//!   subtraction fails: native code runs the comprehension as written and fails as it does);
//! - a map of the board, `{ (R - 1 - x.0, x.1) for x in s }` (each part as it is or
//!   subtracted from a name bound outside or a constant, the two parts exchanged or not: a
//!   mirror, a transpose or a turn), moves the rows and reverses their bits, with no list
//!   built and sorted, where no subtraction goes below 0;
//! - the least or largest of one part, `min({ x.0 for x in s })`, is read off the first or
//!   last bit, or off the columns' union.
//!
//! An analysis in effect: the interpreter evaluates the expression as written, and native
//! code runs it wherever the bits do not answer, so every value and every error is the
//! program's. After the sharing pass, which names the sets these read (`s - {x}` becomes a
//! `let`); after the symmetry pass, which reads the declared maps' images as written (the
//! images pass reads through the marks).

use crate::ir::*;

/// Runs the pass on every rule expression of `program`, and on the declared symmetries'
/// images (those the solver checks evaluate them at each position it expands).
pub fn run(program: &mut Program, _source: &str) {
    program.for_each_rule_expr_mut(&mut |e| e.rewrite_up(&mut expr));
    for game in &mut program.games {
        for s in &mut game.symmetries {
            s.result.rewrite_up(&mut expr);
        }
    }
}

/// Rewrites `e`, whose parts are rewritten.
fn expr(e: &mut IExpr) {
    if let Some((set, kind)) = moved(e).or_else(|| mapped(e)).or_else(|| extreme(e)) {
        let written = std::mem::replace(e, IExpr::from(IExprKind::End));
        *e = IExpr::from(IExprKind::Cells(Box::new(CellOp { set, kind, written })));
    }
}

/// A comprehension's single binder over a set of cells (pairs of natural numbers) named by
/// a variable: the names it binds (one, or the pattern's two) and the set.
struct OverCells<'e> {
    vars: &'e [Var],
    set: &'e Var,
}

impl<'e> OverCells<'e> {
    fn of(clauses: &'e [IClause]) -> Option<OverCells<'e>> {
        let [IClause::Bind(vars, set)] = clauses else {
            return None;
        };
        let set = set.as_var()?;
        let Ty::Set(cell) = &set.ty else { return None };
        let Ty::Tuple(parts) = &**cell else {
            return None;
        };
        let pairs = parts.len() == 2 && parts.iter().all(|t| *t == Ty::Nat);
        (pairs && matches!(vars.len(), 1 | 2)).then_some(OverCells { vars, set })
    }

    /// Whether `e` is part `i` of the element bound: `x.i`, or the pattern's `i`th name.
    fn is_part(&self, e: &IExpr, i: usize) -> bool {
        match (e.kind(), self.vars) {
            (IExprKind::Field { tuple, index }, [x]) => {
                *index == i && matches!(tuple.kind(), IExprKind::Var(v) if v.slot == x.slot)
            }
            (IExprKind::Var(v), [_, _]) => v.slot == self.vars[i].slot,
            _ => false,
        }
    }

    /// Which part of the element `e` is, if it is one.
    fn part(&self, e: &IExpr) -> Option<usize> {
        (0..2).find(|&i| self.is_part(e, i))
    }
}

/// A comprehension `{ (first, second) for x in s }` over a set of cells named by a
/// variable: the binder, and the element's two items.
fn pair_over_cells(e: &IExpr) -> Option<(OverCells<'_>, &IExpr, &IExpr)> {
    let IExprKind::Compr { elem, clauses } = e.kind() else {
        return None;
    };
    let (Some(over), IExprKind::Tuple(items)) = (OverCells::of(clauses), elem.kind()) else {
        return None;
    };
    let [first, second] = items.as_slice() else {
        return None;
    };
    Some((over, first, second))
}

impl OverCells<'_> {
    /// `e` as an amount: a name bound outside the comprehension, or a constant (folded).
    fn amount(&self, e: &IExpr) -> Option<IExpr> {
        match e.kind() {
            IExprKind::Var(v) if !self.vars.iter().any(|x| x.slot == v.slot) => Some(e.clone()),
            IExprKind::Lit(Val::Int(_)) => Some(e.clone()),
            _ => Some(IExpr::from(IExprKind::Lit(Val::Int(constant(e)?)))),
        }
    }
}

/// `{ elem for clauses }` as a translation of a set of cells named by a variable by amounts
/// named by variables or constants.
fn moved(e: &IExpr) -> Option<(Var, CellOpKind)> {
    let (over, first, second) = pair_over_cells(e)?;
    // What part `i` is moved down by.
    let amount = |i: usize, item: &IExpr| match item.as_bin() {
        Some((Op::NatSub, lhs, rhs)) if over.is_part(lhs, i) => over.amount(rhs),
        _ if over.is_part(item, i) => Some(IExpr::from(IExprKind::Lit(Val::Int(0)))),
        _ => None,
    };
    let by = [amount(0, first)?, amount(1, second)?];
    Some((over.set.clone(), CellOpKind::Moved { by: Box::new(by) }))
}

/// `{ elem for clauses }` as a map of the board taking each cell of a set named by a
/// variable to a cell whose parts are its parts, exchanged or not, each as it is or
/// subtracted from a name bound outside or a constant; not the map that keeps every cell
/// (a translation by 0).
fn mapped(e: &IExpr) -> Option<(Var, CellOpKind)> {
    let (over, first, second) = pair_over_cells(e)?;
    // Which part of the element an item reads, and the `k` it is subtracted from.
    let read = |item: &IExpr| -> Option<(usize, Option<IExpr>)> {
        if let Some(i) = over.part(item) {
            return Some((i, None));
        }
        let (Op::NatSub, k, v) = item.as_bin()? else {
            return None;
        };
        Some((over.part(v)?, Some(over.amount(k)?)))
    };
    let ((i, first), (j, second)) = (read(first)?, read(second)?);
    if i == j || (i == 0 && first.is_none() && second.is_none()) {
        return None;
    }
    let flips = Box::new([first, second]);
    Some((
        over.set.clone(),
        CellOpKind::Mapped {
            swapped: i == 1,
            flips,
        },
    ))
}

/// `e`'s value where it is a constant integer: literals under `+`, `-` and `*` (`R - 1`
/// with `R` a constant is `5 - 1`), where no step overflows or, subtracting naturals, goes
/// below 0 (those would fail as written).
fn constant(e: &IExpr) -> Option<i64> {
    match e.kind() {
        IExprKind::Lit(Val::Int(k)) => Some(*k),
        IExprKind::Bin { op, lhs, rhs, .. } => {
            let (a, b) = (constant(lhs)?, constant(rhs)?);
            match op {
                Op::Add => a.checked_add(b),
                Op::Sub => a.checked_sub(b),
                Op::NatSub => a.checked_sub(b).filter(|v| *v >= 0),
                Op::Mul => a.checked_mul(b),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `min({ elem for clauses })` (or `max`) where `elem` is one part of each cell of a set
/// named by a variable.
fn extreme(e: &IExpr) -> Option<(Var, CellOpKind)> {
    let IExprKind::Builtin {
        func: func @ (Builtin::Min | Builtin::Max),
        args,
        ..
    } = e.kind()
    else {
        return None;
    };
    let [compr] = args.as_slice() else {
        return None;
    };
    let IExprKind::Compr { elem, clauses } = compr.kind() else {
        return None;
    };
    let over = OverCells::of(clauses)?;
    let part = over.part(elem)?;
    let largest = *func == Builtin::Max;
    Some((over.set.clone(), CellOpKind::Extreme { part, largest }))
}
