//! How a declared map's image gives each field of its game: kept, rebuilt element by
//! element (`{ f(x) for x in s where c(x) }`), or some other expression. One reading for
//! the two passes that use it: [`crate::opt::symmetry`] proves maps of this form, and
//! [`crate::opt::images`] tabulates them; each then asks what it needs of the parts.
//!
//! A helper, not a pass: it changes nothing.

use crate::ir::*;

/// How a declared image gives one field.
pub enum FieldImage<'e> {
    /// The field itself.
    Kept,
    /// `{ elem for vars in field where filters }`: the field's own elements, each filter
    /// reading only the bound names and the names the caller allows.
    Elements {
        /// The image of one element.
        elem: &'e IExpr,
        /// The names bound to each element.
        vars: &'e [Var],
        /// The conditions an element must meet to have an image.
        filters: Vec<&'e IExpr>,
    },
    /// Any other expression.
    Other,
}

/// Each field's argument in `result` and how it gives the field, where `result` is a
/// position of game `gid`; `context(slot)` tells which names besides the bound ones a
/// filter may read (a filter reading another makes the argument [`FieldImage::Other`]).
pub fn field_images<'e>(
    gid: usize,
    result: &'e IExpr,
    context: &dyn Fn(VarId) -> bool,
) -> Option<Vec<(&'e IExpr, FieldImage<'e>)>> {
    let IExprKind::Pos { game, args, .. } = result.kind() else {
        return None;
    };
    if *game != gid {
        return None;
    }
    // A map of cells marked for native code (`opt::cells`) is read as written.
    let written = |arg: &'e IExpr| match arg.kind() {
        IExprKind::Cells(op) => &op.written,
        _ => arg,
    };
    let image = |i: usize, arg: &'e IExpr| match written(arg).kind() {
        IExprKind::Var(v) if v.slot == VarId::new(i) => FieldImage::Kept,
        IExprKind::Compr { elem, clauses } => {
            let Some((IClause::Bind(vars, field), rest)) = clauses.split_first() else {
                return FieldImage::Other;
            };
            if field.as_var().is_none_or(|f| f.slot != VarId::new(i)) {
                return FieldImage::Other;
            }
            match element_filters(rest, vars, context) {
                Some(filters) => FieldImage::Elements {
                    elem,
                    vars,
                    filters,
                },
                None => FieldImage::Other,
            }
        }
        _ => FieldImage::Other,
    };
    Some(
        (args.iter().enumerate())
            .map(|(i, arg)| (arg, image(i, arg)))
            .collect(),
    )
}

/// The conditions among an image's clauses after its binder, where each reads only the
/// bound names `vars` and names `context` allows, so that it can be evaluated at each
/// element alone; `None` where some clause is not such a condition.
fn element_filters<'e>(
    clauses: &'e [IClause],
    vars: &[Var],
    context: &dyn Fn(VarId) -> bool,
) -> Option<Vec<&'e IExpr>> {
    let mut out = Vec::with_capacity(clauses.len());
    for clause in clauses {
        let IClause::Cond(condition) = clause else {
            return None;
        };
        let mut fine = true;
        condition.for_each_read(&mut |v| {
            fine &= vars.iter().any(|x| x.slot == v.slot) || context(v.slot);
        });
        if !fine {
            return None;
        }
        out.push(condition);
    }
    Some(out)
}
