//! The parts of a set of board cells by a table: `components(s, x => f(x))`, where `f` maps
//! each board cell to a set of board cells and has a complete table ([`Function::table`]),
//! becomes an [`IExprKind::Parts`] holding `f`'s table as cells ([`CellSteps`]); and a sum of
//! positions over those parts, `sum(G(part) for part in components(...))` (or `G(h(part))`),
//! where `G`'s one field is a set of the cells of a board whose every cell the table holds,
//! holds the board's table of joined cells by rank too, so that each part is found on the
//! field's bits and goes straight to the sum. Numbers stand for cells alike (`set<0..30>`,
//! the cells of a board numbered row by row: [`Ranked`]), ranked from the range's least.
//!
//! Both back ends read the tables. The step is the function and its table holds its
//! values, so every value is the program's: a cell the table does not hold takes the step
//! as written, and a set with a cell outside the board is divided as written. After the
//! tables pass, whose tables this reads, and the open-moves pass, whose moves it rewrites
//! too.

use crate::ast::ClosureKind;
use crate::ir::*;
use cgdl_runtime::Compound;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Runs the pass on every rule expression of `program`.
pub fn run(program: &mut Program, _source: &str) {
    let known = Known {
        steps: (0..program.fns.len())
            .map(|id| cell_steps(program, id).map(Rc::new))
            .collect(),
        boards: (program.games.iter())
            .map(|g| match g.fields.as_slice() {
                [Field {
                    ty: FieldTy::Set(t),
                    ..
                }] => Ranked::of(t),
                _ => None,
            })
            .collect(),
        corners: (program.fns.iter())
            .map(super::translations::corner_fn)
            .collect(),
    };
    program.for_each_rule_expr_mut(&mut |e| known.expr(e));
}

/// Function `id`'s table as cells, when it has one parameter, maps board cells to sets of
/// board cells (or numbers of a range of at most 128 to sets of them), and its table holds
/// a value at every argument.
fn cell_steps(program: &Program, id: usize) -> Option<CellSteps> {
    let f = &program.fns[id];
    let table = f.table.as_ref()?;
    let ([(_, param)], FieldTy::Set(elem)) = (f.params.as_slice(), &f.ret) else {
        return None;
    };
    let cells = param.board().is_some() && elem.board().is_some();
    let numbers = |t: &FieldTy| matches!(Ranked::of(t), Some(Ranked::Range(..)));
    if !(cells || numbers(param) && numbers(elem)) {
        return None;
    }
    let args = FieldTy::Tuple(table.types.clone()).values(&program.types, table.values.len())?;
    let mut by_cell = BTreeMap::new();
    for (arg, value) in args.iter().zip(table.values.iter()) {
        let (Val::Tuple(arg), Some(Val::Set(step))) = (arg, value) else {
            return None;
        };
        let [cell] = arg.as_ref() else { return None };
        let codes = (step.iter()).all(|y| cell_code(y).is_some());
        let coded = !cells || (cell_code(cell).is_some() && codes);
        if !coded || !f.ret.admits(&Val::Set(step.clone())) {
            return None;
        }
        by_cell.insert(cell.clone(), step.clone());
    }
    Some(CellSteps { func: id, by_cell })
}

/// What the pass reads of the program: each function's table as cells, each game's board
/// (the cells of its one field, a set of them).
struct Known {
    steps: Vec<Option<Rc<CellSteps>>>,
    boards: Vec<Option<Ranked>>,
    /// Whether each function moves its one argument, a set of cells, to the corner.
    corners: Vec<bool>,
}

impl Known {
    /// Rewrites `e`'s parts, then `e`.
    fn expr(&self, e: &mut IExpr) {
        e.for_each_child_mut(&mut |c| self.expr(c));
        if let Some((kind, steps)) = self.sets(e).or_else(|| self.sum(e)) {
            let written = std::mem::replace(e, IExpr::from(IExprKind::End));
            *e = IExpr::from(IExprKind::Parts(Box::new(PartsOp {
                kind,
                steps,
                written,
            })));
        }
    }

    /// `components(s, x => f(x))` with `f` a table of cells.
    fn sets(&self, e: &IExpr) -> Option<(PartsKind, Rc<CellSteps>)> {
        let IExprKind::Closure {
            kind: ClosureKind::Components,
            var,
            next,
            ..
        } = e.kind()
        else {
            return None;
        };
        let IExprKind::Call { func, args, .. } = next.kind() else {
            return None;
        };
        let [x] = args.as_slice() else {
            return None;
        };
        let x = x.as_var()?;
        let steps = self.steps[*func].clone()?;
        (x.slot == var.slot).then_some((PartsKind::Sets, steps))
    }

    /// `sum(G(arg) for part in P)`, `P` the parts of a set by a table (already lowered),
    /// `G`'s one field a set of the cells of a board every one of whose cells the table
    /// holds, and `arg` the part or computed from it.
    fn sum(&self, e: &IExpr) -> Option<(PartsKind, Rc<CellSteps>)> {
        let IExprKind::CompoundOf {
            kind: Compound::Sum,
            elem,
            clauses,
        } = e.kind()
        else {
            return None;
        };
        let (IExprKind::Pos { game, args, .. }, [IClause::Bind(vars, parts)]) =
            (elem.kind(), clauses.as_slice())
        else {
            return None;
        };
        let IExprKind::Parts(inner) = parts.kind() else {
            return None;
        };
        let ([part], [arg], PartsKind::Sets) = (vars.as_slice(), args.as_slice(), &inner.kind)
        else {
            return None;
        };
        let direct = matches!(arg.kind(), IExprKind::Var(v) if v.slot == part.slot);
        if !direct && !arg.reads_any(vars) {
            return None;
        }
        let board = self.boards[*game]?;
        let corner = matches!(arg.kind(), IExprKind::Call { func, args, .. }
            if self.corners[*func]
                && matches!(args.as_slice(), [a] if a.as_var().is_some_and(|v| v.slot == part.slot)))
            && matches!(board, Ranked::Board((0, _, 0, _)));
        // Each cell's steps by rank, and the steps into it (symmetric, as `components`
        // joins a step either way); a step out of the board joins nothing here.
        let rank = |v: &Val| board.rank(v);
        // The parts are found on at most 128 bits (`Ranked::of`).
        let count = board.count();
        let mut joined = vec![0u128; count];
        let mut held = vec![false; count];
        for (cell, step) in &inner.steps.by_cell {
            let Some(from) = rank(cell) else { continue };
            held[from] = true;
            for to in step.iter().filter_map(rank) {
                joined[from] |= 1 << to;
                joined[to] |= 1 << from;
            }
        }
        if held.contains(&false) {
            return None;
        }
        let kind = PartsKind::Sum {
            game: *game,
            part: part.clone(),
            direct,
            corner,
            board,
            joined: joined.into(),
        };
        Some((kind, inner.steps.clone()))
    }
}
