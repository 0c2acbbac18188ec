//! The end probe (`opt/probe.rs` finds it: the game's [`Game::end_probe`]) as a function
//! of the position's fields, and the arm of `Rules::ends_now` that calls it; and what the
//! generator knows of the names in scope while it emits a move's result or a probe.

use super::{CodegenError, Gen};
use crate::ir::*;
use crate::opt::knowledge::field_scope;
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
        let scope = field_scope(game);
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
        *self.known.borrow_mut() = Some(scope);
        let value = self.value(cond);
        *self.known.borrow_mut() = None;
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

    /// `f()` with what is known of the names in scope (while a move's result or a probe is
    /// generated) extended by the name a quantifier binds over `domain`.
    pub(super) fn knowing_binder<T>(
        &self,
        vars: &[Var],
        domain: &IExpr,
        f: impl FnOnce() -> T,
    ) -> T {
        let known = (self.known.borrow().as_ref())
            .and_then(|scope| self.knowledge.binder_type(vars, domain, scope));
        self.knowing(known, f)
    }

    /// `f()` with what is known of the names in scope extended by a `let`.
    pub(super) fn knowing_let<T>(&self, var: &Var, value: &IExpr, f: impl FnOnce() -> T) -> T {
        let known = (self.known.borrow().as_ref())
            .and_then(|scope| Some((var.name.clone(), self.knowledge.values_of(value, scope)?)));
        self.knowing(known, f)
    }

    fn knowing<T>(&self, known: Option<(Rc<str>, FieldTy)>, f: impl FnOnce() -> T) -> T {
        let Some((name, ty)) = known else {
            return f();
        };
        let before = (self.known.borrow_mut().as_mut()).and_then(|s| s.insert(name.clone(), ty));
        let out = f();
        if let Some(scope) = self.known.borrow_mut().as_mut() {
            match before {
                Some(t) => scope.insert(name, t),
                None => scope.remove(&name),
            };
        }
        out
    }
}
