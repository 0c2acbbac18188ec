//! Operations on a set of board cells (`opt/cells.rs` lowers them to [`IExprKind::Cells`]) on
//! the set's bits (a cell `(r, c)` has the code `16 r + c`), each with the expression as
//! written where the set is not bits or the bits do not answer: a translation is one shift
//! of the words where no part goes below 0; a mirror, transpose or turn moves the rows
//! and reverses their bits; the least or largest of one part is the first or last bit, or the union of the
//! rows.

use super::{CodegenError, Gen};
use crate::ir::*;
use proc_macro2::TokenStream;
use quote::quote;

impl Gen<'_> {
    /// The code of a cell operation.
    pub(super) fn cells(&self, op: &CellOp) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let whole = self.domain_ref(&IExprKind::Var(op.set.clone()).into())?;
        // An amount: a constant, or a name bound outside.
        let amount = |e: &IExpr| match e.kind() {
            IExprKind::Lit(Val::Int(k)) => Ok(quote!(#k)),
            _ => self.value(e),
        };
        match &op.kind {
            CellOpKind::Moved { by } => {
                let (dr, dc) = (amount(&by[0])?, amount(&by[1])?);
                let written = self.value(&op.written)?;
                Ok(quote! {
                    match #rt::native::Set::translated_down(#whole, #dr, #dc) {
                        ::std::option::Option::Some(moved) => moved,
                        ::std::option::Option::None => #written,
                    }
                })
            }
            CellOpKind::Mapped { swapped, flips } => {
                let flip = |k: &Option<IExpr>| match k {
                    Some(k) => {
                        let k = amount(k)?;
                        Ok::<_, CodegenError>(quote!(::std::option::Option::Some(#k)))
                    }
                    None => Ok(quote!(::std::option::Option::None)),
                };
                let (first, second) = (flip(&flips[0])?, flip(&flips[1])?);
                let written = self.value(&op.written)?;
                Ok(quote! {
                    match #rt::native::Set::cells_mapped(#whole, #swapped, [#first, #second]) {
                        ::std::option::Option::Some(mapped) => mapped,
                        ::std::option::Option::None => #written,
                    }
                })
            }
            CellOpKind::Extreme { part, largest } => {
                let IExprKind::Extreme(written) = op.written.kind() else {
                    unreachable!("the extreme of a part is written as one (`opt/elements.rs`)")
                };
                let folded = self.folded_extreme(written)?;
                let at = self.at(op.written.span());
                Ok(quote! {
                    #rt::native::found_extreme(
                        match #rt::native::Set::part_extreme(#whole, #part, #largest) {
                            ::std::option::Option::Some(found) => found,
                            ::std::option::Option::None => #folded,
                        },
                        #largest,
                        #at
                    )?
                })
            }
        }
    }
}
