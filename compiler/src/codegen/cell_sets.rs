//! Comprehensions over a set of board cells read on the set's bits (a cell `(r, c)` has
//! the code `16 r + c`), each where the set is bits, else as written:
//!
//! - a translation, `{ (x.0 - r0, x.1 - c0) for x in s }` (or `{ (r - r0, c - c0) for (r, c)
//!   in s }`, either part possibly unmoved), is one shift of the bits by `16 r0 + c0` where
//!   no part goes below 0 (where one would, the subtraction fails: the comprehension runs
//!   as written and fails as it does);
//! - the least or largest of one part, `min({ x.0 for x in s })`, is read off the first or
//!   last bit, or off the columns' union.

use super::{CodegenError, Gen};
use crate::ir::*;
use proc_macro2::TokenStream;
use quote::quote;

/// A comprehension's single binder over a set of cells (pairs of natural numbers) named by
/// a variable: the names it binds (one, or the pattern's two) and the set.
struct OverCells<'e> {
    vars: &'e [Var],
    set: &'e IExpr,
}

impl<'e> OverCells<'e> {
    fn of(clauses: &'e [IClause]) -> Option<OverCells<'e>> {
        let [IClause::Bind(vars, set @ IExpr::Var(v))] = clauses else {
            return None;
        };
        let Ty::Set(cell) = &v.ty else { return None };
        let Ty::Tuple(parts) = &**cell else {
            return None;
        };
        let pairs = parts.len() == 2 && parts.iter().all(|t| *t == Ty::Nat);
        (pairs && matches!(vars.len(), 1 | 2)).then_some(OverCells { vars, set })
    }

    /// Whether `e` is part `i` of the element bound: `x.i`, or the pattern's `i`th name.
    fn is_part(&self, e: &IExpr, i: usize) -> bool {
        match (e, self.vars) {
            (IExpr::Field { tuple, index }, [x]) => {
                *index == i && matches!(&**tuple, IExpr::Var(v) if v.slot == x.slot)
            }
            (IExpr::Var(v), [_, _]) => v.slot == self.vars[i].slot,
            _ => false,
        }
    }

    /// Which part of the element `e` is, if it is one.
    fn part(&self, e: &IExpr) -> Option<usize> {
        (0..2).find(|&i| self.is_part(e, i))
    }
}

impl Gen<'_> {
    /// The code of the comprehension `{ elem for clauses }` when it translates a set of
    /// cells named by a variable by amounts named by variables or constants; `None` when
    /// it is not of that form.
    pub(super) fn translated_cells(
        &self,
        elem: &IExpr,
        clauses: &[IClause],
    ) -> Result<Option<TokenStream>, CodegenError> {
        let (Some(over), IExpr::Tuple(items)) = (OverCells::of(clauses), elem) else {
            return Ok(None);
        };
        if items.len() != 2 {
            return Ok(None);
        }
        // What part `i` is moved down by: a name bound outside, or a constant.
        let mut by = Vec::with_capacity(2);
        for (i, item) in items.iter().enumerate() {
            let amount = match item {
                IExpr::Bin {
                    op: Op::NatSub,
                    lhs,
                    rhs,
                    ..
                } if over.is_part(lhs, i) => match &**rhs {
                    IExpr::Var(v) if !over.vars.iter().any(|x| x.slot == v.slot) => {
                        self.value(rhs)?
                    }
                    IExpr::Lit(Val::Int(k)) => quote!(#k),
                    _ => return Ok(None),
                },
                other if over.is_part(other, i) => quote!(0i64),
                _ => return Ok(None),
            };
            by.push(amount);
        }
        let (rt, whole) = (&self.rt, self.domain_ref(over.set)?);
        let (dr, dc) = (&by[0], &by[1]);
        let general = self.clauses(clauses, &|| {
            let elem = self.value(elem)?;
            Ok(quote!(set.push(#elem);))
        })?;
        Ok(Some(quote! {
            match #rt::native::Set::translated_down(#whole, #dr, #dc) {
                ::std::option::Option::Some(moved) => moved,
                ::std::option::Option::None => {
                    let mut set = #rt::native::SetBuilder::new();
                    #general
                    set.build()
                }
            }
        }))
    }

    /// The least (or largest) of `{ elem for clauses }` when that is one part of each cell
    /// of a set named by a variable (`min({ x.0 for x in s })`), as an `Option` (`None` for
    /// the empty set), with `general` (the fold as written) where the set is not bits.
    pub(super) fn cell_part_extreme(
        &self,
        elem: &IExpr,
        clauses: &[IClause],
        largest: bool,
        general: TokenStream,
    ) -> Result<Option<TokenStream>, CodegenError> {
        let Some(over) = OverCells::of(clauses) else {
            return Ok(None);
        };
        let Some(part) = over.part(elem) else {
            return Ok(None);
        };
        let (rt, whole) = (&self.rt, self.domain_ref(over.set)?);
        Ok(Some(quote! {
            match #rt::native::Set::part_extreme(#whole, #part, #largest) {
                ::std::option::Option::Some(found) => found,
                ::std::option::Option::None => #general,
            }
        }))
    }
}
