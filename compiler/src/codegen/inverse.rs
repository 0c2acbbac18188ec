//! Inverted quantifiers (`opt/inverse.rs` makes them) as loops over a static table: for
//! each value of the element type, by rank, the ranks of the domain's values whose set
//! holds it.

use super::{CodegenError, Gen};
use crate::ast::QuantKind;
use crate::ir::*;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

impl Gen<'_> {
    /// The loop of an inverted quantifier.
    pub(super) fn inverted(&self, q: &Inverted) -> Result<TokenStream, CodegenError> {
        let rows = q.table.rows.iter().map(|bs| {
            let bs = bs.iter().map(|&r| Literal::u32_suffixed(r));
            quote!(&[#(#bs),*])
        });
        let len = Literal::usize_unsuffixed(q.table.rows.len());
        let value = self.value(&q.looked_for)?;
        let fits = self.admits(&q.elem, quote!(looked_for));
        let rank = self.rank(&q.elem, quote!(looked_for));
        let b = std::slice::from_ref(&q.var);
        // Only the rest is tested (`x in f(b)` holds); `b` is bound when it reads it.
        let (each_rank, bind) = if q.rest.as_ref().is_some_and(|rest| rest.reads_any(b)) {
            let pattern = self.binder(&q.var);
            let each = self.unrank(&q.domain, quote!(rank));
            (quote!(&rank), quote!(let #pattern = #each;))
        } else {
            (quote!(_), quote!())
        };
        let test = match &q.rest {
            Some(rest) => self.value(rest)?,
            None => quote!(true),
        };
        let (init, step) = match q.kind {
            QuantKind::Exists => (quote!(false), quote!(if #test { found = true; break; })),
            _ => (quote!(0i64), quote!(if #test { found += 1; })),
        };
        let guard = fits.map_or_else(|| quote!(true), |f| quote!(#f));
        Ok(quote!({
            // For each value of the element type (by rank), the domain's values (by rank)
            // whose set holds it.
            static INVERSE: [&[u32]; #len] = [#(#rows),*];
            let mut found = #init;
            let looked_for = #value;
            if #guard {
                for #each_rank in INVERSE[(#rank) as usize] {
                    #bind
                    #step
                }
            }
            found
        }))
    }
}
