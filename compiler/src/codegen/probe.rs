//! The end probe (`opt/probe.rs` finds it: the game's [`Game::end_probe`]) as a function
//! of the position's fields, and the arm of `Rules::ends_now` that calls it.

use super::{CodegenError, Gen};
use crate::ir::*;
use proc_macro2::TokenStream;
use quote::quote;
use std::rc::Rc;

impl Gen<'_> {
    /// The arm of `Rules::ends_now` and the probe function of a game, when it has a probe.
    pub(super) fn ends_probe(
        &self,
        gid: usize,
        game: &Game,
    ) -> Result<Option<(TokenStream, TokenStream)>, CodegenError> {
        let rt = &self.rt;
        let Some(cond) = &game.end_probe else {
            return Ok(None);
        };
        let fields = self.field_names(game);
        let mut unpacked = Vec::new();
        let mut params = Vec::new();
        let mut reads = Vec::new();
        cond.for_each_read(&mut |v| reads.push(v.name.clone()));
        let mut borrowed = std::collections::HashSet::new();
        for (i, (f, x)) in game.fields.iter().zip(&fields).enumerate() {
            let packing = &self.layout.games[gid].fields[i];
            let ty = self.stored_ty(&f.ty, packing);
            if !reads.iter().any(|r| **r == *f.name) {
                params.push(quote!(_: #ty));
                continue;
            }
            params.push(quote!(#x: #ty));
            if !matches!(packing, super::layout::Packed::Plain) {
                let value = self.unpack(gid, i, x);
                unpacked.push(quote!(let #x = #value;));
            }
            if !super::layout::is_copy(self.program, &f.ty.ty()) {
                unpacked.push(quote!(let #x = &#x;));
                borrowed.insert(Rc::from(f.name.as_str()));
            }
        }
        *self.borrowed.borrow_mut() = borrowed;
        self.reading(|f| cond.for_each_read(f));
        let value = self.value(cond);
        self.borrowed.borrow_mut().clear();
        let value = value?;
        let name = &self.names.games[gid].ends;
        let doc = format!(
            " Whether a position of `{}` has a move to `end`.",
            game.name
        );
        let lints = super::user_code_lints(&["ptr_arg"]);
        let function = quote! {
            #[doc = #doc]
            #lints
            fn #name(#(#params),*) -> ::std::result::Result<bool, #rt::RuleError> {
                #(#unpacked)*
                ::std::result::Result::Ok(#value)
            }
        };
        let pattern = self.pos_pattern(gid, &fields);
        let arm = quote!(#pattern => ::std::option::Option::Some(#name(#(#fields),*)),);
        Ok(Some((arm, function)))
    }
}
