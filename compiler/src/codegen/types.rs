//! Values' Rust types: the type of each declared type, the check that a value fits its
//! declared type, and each tagged union as a Rust enum with its makers and ordinals.

use super::layout::{bit_words, count_values, union_plain};
use super::{int, Gen};
use crate::ir::*;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

impl Gen<'_> {
    /// The Rust value type of a declared type.
    pub(super) fn value_ty(&self, t: &FieldTy) -> TokenStream {
        let rt = &self.rt;
        match t {
            FieldTy::Nat | FieldTy::Int | FieldTy::Range(..) => quote!(i64),
            FieldTy::Bool => quote!(bool),
            FieldTy::Tuple(ts) => {
                let ts = ts.iter().map(|t| self.value_ty(t));
                quote!((#(#ts,)*))
            }
            FieldTy::Set(t) => {
                let t = self.value_ty(t);
                quote!(#rt::native::Set<#t>)
            }
            FieldTy::List(t) => {
                let t = self.value_ty(t);
                quote!(::std::vec::Vec<#t>)
            }
            FieldTy::Union(u) => {
                let ident = &self.names.unions[u.id].ty;
                quote!(#ident)
            }
        }
    }

    /// A Rust condition that `v` (a value of field type `t`) fits, or `None` when every
    /// value of its Rust type does.
    pub(super) fn admits(&self, t: &FieldTy, v: TokenStream) -> Option<TokenStream> {
        match t {
            FieldTy::Nat => Some(quote!(#v >= 0)),
            FieldTy::Int | FieldTy::Bool => None,
            FieldTy::Range(lo, hi) => {
                let (lo, hi) = (int(*lo), int(*hi));
                Some(quote!((#lo..=#hi).contains(&#v)))
            }
            FieldTy::Tuple(ts) => {
                let parts: Vec<TokenStream> = (ts.iter().enumerate())
                    .filter_map(|(i, t)| {
                        let i = syn::Index::from(i);
                        self.admits(t, quote!(#v.#i))
                    })
                    .collect();
                (!parts.is_empty()).then(|| quote!(#((#parts))&&*))
            }
            FieldTy::Set(inner) => match &**inner {
                FieldTy::Range(lo, hi) => {
                    let (lo, hi) = (int(*lo), int(*hi));
                    Some(quote!(#v.within(#lo, #hi)))
                }
                FieldTy::Nat => Some(quote!(#v.within(0, i64::MAX))),
                t if t.board().is_some() => {
                    let (r0, rows, c0, cols) = t.board()?;
                    Some(quote!(#v.cells_within(#r0, #rows, #c0, #cols)))
                }
                _ => {
                    let each = self.admits(inner, quote!(e))?;
                    Some(quote!(#v.iter().all(|e| #each)))
                }
            },
            FieldTy::List(inner) => {
                let each = self.admits(inner, quote!(e))?;
                Some(quote!(#v.iter().all(|&e| #each)))
            }
            // A union's payload was checked when the value was built.
            FieldTy::Union(_) => None,
        }
    }

    /// A Rust condition that `v` (a value of field type `t`) does not fit, or `None` when
    /// every value of its Rust type does.
    pub(super) fn rejects(&self, t: &FieldTy, v: TokenStream) -> Option<TokenStream> {
        match t {
            FieldTy::Nat => Some(quote!(#v < 0)),
            _ => self.admits(t, v).map(|ok| quote!(!(#ok))),
        }
    }

    /// A tagged union as a Rust enum (variants named by their tags where Rust allows),
    /// with `Show`, a checked maker per variant and, for finite types, `ordinal` and
    /// `from_ordinal` (the rank of a value in the type's order, for packed sets).
    pub(super) fn union_type(&self, id: usize) -> TokenStream {
        let rt = &self.rt;
        let ty = &self.program.types[id];
        let names = &self.names.unions[id];
        let name = &names.ty;
        let mut variants = Vec::new();
        let mut shows = Vec::new();
        let mut makers = Vec::new();
        for (vi, v) in ty.variants.iter().enumerate() {
            let tag = &names.variants[vi];
            let text = Literal::string(&v.name);
            let binds = payload_names(v.fields.len());
            let maker = &names.makers[vi];
            if v.fields.is_empty() {
                variants.push(quote!(#tag));
                let push = match v.name.chars().collect::<Vec<_>>().as_slice() {
                    [c] => quote!(out.push(#c)),
                    _ => quote!(out.push_str(#text)),
                };
                shows.push(quote!(#name::#tag => #push,));
                makers.push(quote! {
                    #[allow(dead_code)]
                    fn #maker(_at: &str) -> ::std::result::Result<#name, #rt::RuleError> {
                        ::std::result::Result::Ok(#name::#tag)
                    }
                });
                continue;
            }
            let params = v.fields.iter().zip(&binds).map(|(t, s)| {
                let t = self.value_ty(t);
                quote!(#s: #t)
            });
            let checks: Vec<TokenStream> = (v.fields.iter().zip(&binds).enumerate())
                .filter_map(|(i, (t, s))| {
                    let bad = self.rejects(t, quote!(#s))?;
                    let (i, tag, t) = (
                        i + 1,
                        Literal::string(&v.name),
                        Literal::string(&t.to_string()),
                    );
                    Some(quote! {
                        if #bad {
                            return ::std::result::Result::Err(
                                #rt::native::payload_error(#i, #tag, #t, &#s, at));
                        }
                    })
                })
                .collect();
            let at = if checks.is_empty() {
                quote!(_at)
            } else {
                quote!(at)
            };
            let tys = v.fields.iter().map(|t| self.value_ty(t));
            variants.push(quote!(#tag(#(#tys),*)));
            let push_tag = match v.name.chars().collect::<Vec<_>>().as_slice() {
                [c] => quote!(out.push(#c);),
                _ => quote!(out.push_str(#text);),
            };
            let parts = binds.iter().enumerate().map(|(i, s)| {
                let sep = (i > 0).then(|| quote!(out.push_str(", ");));
                quote!(#sep #rt::native::Show::show(#s, out);)
            });
            shows.push(quote!(#name::#tag(#(#binds),*) => {
                #push_tag
                out.push('(');
                #(#parts)*
                out.push(')');
            }));
            makers.push(quote! {
                #[allow(dead_code)]
                #[inline]
                fn #maker(#(#params,)* #at: &str) -> ::std::result::Result<#name, #rt::RuleError> {
                    #(#checks)*
                    ::std::result::Result::Ok(#name::#tag(#(#binds),*))
                }
            });
        }
        let derive = if union_plain(self.program, id) {
            quote!(#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)])
        } else {
            quote!(#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)])
        };
        let doc = format!(" Values of the type `{}`.", ty.name);
        let whole = FieldTy::Union(UnionRef {
            id,
            name: ty.name.as_str().into(),
        });
        let count = count_values(self.program, &whole).filter(|&n| n <= u32::MAX as u128);
        let ordinals = match count {
            Some(_) => self.ordinals(id),
            None => quote!(),
        };
        // A small plain type keeps its sets as bits of its ranks.
        let elem = match (count, bit_words(self.program, id)) {
            (Some(n), Some(words)) => {
                let words = Literal::usize_unsuffixed(words);
                let n = Literal::u32_suffixed(n as u32);
                quote! {
                    impl #rt::native::Elem for #name {
                        type Store = #rt::native::BitStore<#name, #words>;
                        const CODES: u32 = #n;
                        #[inline(always)]
                        fn code(&self) -> ::std::option::Option<u32> {
                            ::std::option::Option::Some(self.ordinal())
                        }
                        #[inline(always)]
                        fn decode(code: u32) -> #name {
                            #name::from_ordinal(code)
                        }
                    }
                }
            }
            _ => quote! {
                impl #rt::native::Elem for #name {
                    type Store = #rt::native::VecStore<#name>;
                }
            },
        };
        let camel =
            super::names::camel_case_allowance(std::iter::once(name).chain(&names.variants));
        quote! {
            #[doc = #doc]
            #derive
            #[allow(dead_code)]
            #camel
            pub enum #name { #(#variants),* }

            #elem

            impl #rt::native::Show for #name {
                fn show(&self, out: &mut ::std::string::String) {
                    match self { #(#shows)* }
                }
            }

            #ordinals
            #(#makers)*
        }
    }

    /// `ordinal` and `from_ordinal` of a finite tagged union.
    fn ordinals(&self, id: usize) -> TokenStream {
        let ty = &self.program.types[id];
        let names = &self.names.unions[id];
        let name = &names.ty;
        let mut rank_arms = Vec::new();
        let mut unrank = Vec::new();
        let mut offset: u128 = 0;
        for (vi, v) in ty.variants.iter().enumerate() {
            let tag = &names.variants[vi];
            let binds = payload_names(v.fields.len());
            let size = (v.fields.iter())
                .map(|t| count_values(self.program, t).unwrap_or(1))
                .product::<u128>();
            let off = Literal::u32_suffixed(offset as u32);
            let end = Literal::u32_suffixed((offset + size) as u32);
            if v.fields.is_empty() {
                rank_arms.push(quote!(#name::#tag => #off,));
                unrank.push(quote!(if r < #end { return #name::#tag; }));
            } else {
                let rank =
                    self.rank_parts(v.fields.iter().zip(&binds).map(|(t, b)| (t, quote!(#b))));
                let tuple = FieldTy::Tuple(v.fields.clone());
                let r = if offset == 0 {
                    quote!(r)
                } else {
                    quote!(r - #off)
                };
                let built = self.unrank(&tuple, r);
                let rank = if offset == 0 {
                    rank
                } else {
                    quote!(#off + #rank)
                };
                rank_arms.push(quote!(#name::#tag(#(#binds),*) => #rank,));
                unrank.push(quote!(if r < #end {
                    let (#(#binds,)*) = #built;
                    return #name::#tag(#(#binds),*);
                }));
            }
            offset += size;
        }
        quote! {
            #[allow(dead_code)]
            impl #name {
                /// The rank of this value in the type's order.
                pub fn ordinal(&self) -> u32 {
                    match *self { #(#rank_arms)* }
                }
                /// The value of rank `r` (`r` below the number of values).
                pub fn from_ordinal(r: u32) -> #name {
                    #(#unrank)*
                    ::std::unreachable!("ordinal {} is out of range", r)
                }
            }
        }
    }

    /// The rank (a `u32` expression) of `v`, a value of the finite type `t`, in `t`'s order.
    pub(super) fn rank(&self, t: &FieldTy, v: TokenStream) -> TokenStream {
        match t {
            FieldTy::Range(0, _) | FieldTy::Bool => quote!(#v as u32),
            FieldTy::Range(lo, _) => {
                let lo = int(*lo);
                quote!((#v - #lo) as u32)
            }
            FieldTy::Union(_) => quote!(#v.ordinal()),
            FieldTy::Tuple(ts) => self.rank_parts(ts.iter().enumerate().map(|(i, t)| {
                let i = syn::Index::from(i);
                (t, quote!(#v.#i))
            })),
            _ => quote!(0u32),
        }
    }

    /// The rank of a tuple given by its parts: the first part most significant.
    fn rank_parts<'t>(
        &self,
        parts: impl Iterator<Item = (&'t FieldTy, TokenStream)>,
    ) -> TokenStream {
        let mut acc: Option<TokenStream> = None;
        for (t, v) in parts {
            let part = self.rank(t, v);
            acc = Some(match acc {
                None => part,
                // A part of one value adds nothing to the rank.
                Some(acc) => match count_values(self.program, t).unwrap_or(1) as u32 {
                    1 => acc,
                    size => {
                        let size = Literal::u32_suffixed(size);
                        quote!((#acc) * #size + (#part))
                    }
                },
            });
        }
        acc.unwrap_or_else(|| quote!(0u32))
    }

    /// The value of type `t` whose rank is `r` (a `u32` expression).
    pub(super) fn unrank(&self, t: &FieldTy, r: TokenStream) -> TokenStream {
        match t {
            FieldTy::Range(0, _) => quote!((#r) as i64),
            FieldTy::Range(lo, _) => {
                let lo = int(*lo);
                quote!(#lo + (#r) as i64)
            }
            FieldTy::Bool => quote!((#r) != 0),
            FieldTy::Union(u) => {
                let name = &self.names.unions[u.id].ty;
                quote!(#name::from_ordinal(#r))
            }
            FieldTy::Tuple(ts) => {
                let sizes: Vec<u128> = (ts.iter())
                    .map(|t| count_values(self.program, t).unwrap_or(1))
                    .collect();
                let parts = ts.iter().enumerate().map(|(i, t)| {
                    let below: u128 = sizes[i + 1..].iter().product();
                    let size = Literal::u32_suffixed(sizes[i] as u32);
                    let shifted = if below == 1 {
                        quote!(rank)
                    } else {
                        let below = Literal::u32_suffixed(below as u32);
                        quote!((rank / #below))
                    };
                    if *t == FieldTy::Bool {
                        return quote!(!#shifted.is_multiple_of(2));
                    }
                    // A part of one value is that value, whatever the rank.
                    if sizes[i] == 1 {
                        return self.unrank(t, quote!(0u32));
                    }
                    self.unrank(t, quote!(#shifted % #size))
                });
                quote!({ let rank: u32 = #r; (#(#parts,)*) })
            }
            _ => quote!(()),
        }
    }
}

/// `x1, x2, ...`: the names a payload's values are bound to where no user code sees them.
fn payload_names(n: usize) -> Vec<Ident> {
    (1..=n).map(|i| format_ident!("x{}", i)).collect()
}
