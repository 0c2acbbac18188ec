//! Positions given at run time: `position_from_datum` makes a game's position from field
//! values the CLI computed (`cgdl eval`), and each tagged type reads its values, so that
//! one build of a file's solver answers any position of its games.

use super::Gen;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

impl Gen<'_> {
    /// `position_from_datum(game, fields)`: the game's position through its maker, which
    /// checks every field against its declared type.
    pub(super) fn position_from_datum(&self) -> TokenStream {
        let rt = &self.rt;
        let arms = (self.program.games.iter().enumerate()).map(|(gid, game)| {
            let make = &self.names.games[gid].make;
            let n = game.fields.len();
            let parts = (0..n).map(|i| quote!(#rt::native::FromDatum::from_datum(&fields[#i])?));
            quote!((#gid, #n) => #make(#(#parts,)* ""),)
        });
        quote! {
            /// The position of game number `game` of the file with these field values, as
            /// `cgdl eval` passes it.
            #[allow(dead_code)]
            pub fn position_from_datum(
                game: usize,
                fields: &[#rt::native::Datum],
            ) -> ::std::result::Result<Pos, #rt::RuleError> {
                match (game, fields.len()) {
                    #(#arms)*
                    _ => ::std::result::Result::Err(#rt::native::datum_error(
                        "a position of this file's games",
                        &#rt::native::Datum::Tuple(fields.to_vec()),
                    )),
                }
            }
        }
    }

    /// `FromDatum` for the tagged type `id`, through its variants' makers.
    pub(super) fn union_from_datum(&self, id: usize) -> TokenStream {
        let rt = &self.rt;
        let ty = &self.program.types[id];
        let names = &self.names.unions[id];
        let name = &names.ty;
        let arms = (ty.variants.iter().enumerate()).map(|(vi, v)| {
            let maker = &names.makers[vi];
            let n = v.fields.len();
            let parts = (0..n).map(|i| quote!(#rt::native::FromDatum::from_datum(&payload[#i])?));
            let fits = if n == 0 {
                quote!(payload.is_empty())
            } else {
                quote!(payload.len() == #n)
            };
            quote!(#rt::native::Datum::Variant(#vi, payload) if #fits => #maker(#(#parts,)* ""),)
        });
        let expected = Literal::string(&format!("a value of `{}`", ty.name));
        quote! {
            impl #rt::native::FromDatum for #name {
                fn from_datum(d: &#rt::native::Datum) -> ::std::result::Result<#name, #rt::RuleError> {
                    match d {
                        #(#arms)*
                        other => ::std::result::Result::Err(#rt::native::datum_error(#expected, other)),
                    }
                }
            }
        }
    }
}
