//! Games: the `Pos` enum, a checked maker per game, its options (one function per move),
//! how a position is written, and the typed API (`Kayles::new(7)`).

use super::layout::{bit_words, is_copy, union_plain, Packed};
use super::packed_sets::MoveReads;
use super::{CodegenError, Gen};
use crate::ast::MoveSide;
use crate::ir::*;
use cgdl_runtime::native::CODE_WORDS;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{quote, ToTokens};
use std::collections::{BTreeSet, HashSet};
use std::rc::Rc;

/// Whether values of type `t` copy without allocating in generated code (numbers, tuples,
/// plain unions, and sets kept as bits), so that a table lookup is cheaper than most bodies.
fn cheap_copy(program: &Program, t: &FieldTy) -> bool {
    match t {
        FieldTy::Nat | FieldTy::Int | FieldTy::Bool | FieldTy::Range(..) => true,
        FieldTy::Tuple(ts) => ts.iter().all(|t| cheap_copy(program, t)),
        FieldTy::Union(u) => union_plain(program, u.id),
        FieldTy::Set(inner) => match &**inner {
            FieldTy::Range(lo, hi) => 0 <= *lo && *hi < 128,
            FieldTy::Union(u) => bit_words(program, u.id).is_some(),
            t => t.board().is_some(),
        },
        FieldTy::List(_) => false,
    }
}

/// How a helper function is tabulated ([`Gen::table_plan`]).
pub(super) struct TablePlan {
    /// The types of the arguments in the table.
    pub(super) types: Vec<FieldTy>,
    /// Its values there, in rank order (`None` where it fails).
    pub(super) values: crate::opt::evaluate::BoxValues,
    /// Its values are sets of numbers below 128, kept as words.
    small_sets: bool,
    /// Its values are sets of a tagged type kept as this many words of bits, each value
    /// the bit of its rank (the values of the type, in order).
    union_words: Option<(usize, Vec<Val>)>,
    /// Its values are sets of pairs of numbers in `0..16` (board cells), kept as the
    /// runtime's code words (bit `16 a + b` for `(a, b)`).
    pub(super) pair_sets: bool,
    /// The table is a constant array (numbers, `bool`s, such sets).
    constant: bool,
}

impl Gen<'_> {
    /// The Rust names of a game's fields.
    pub(super) fn field_names(&self, game: &Game) -> Vec<Ident> {
        game.fields
            .iter()
            .map(|f| self.names.local(&f.name))
            .collect()
    }

    /// `Pos::Game(parts...)`, or `Pos::Game` for a game without fields: a position built
    /// from stored values, or a pattern binding them.
    pub(super) fn pos_pattern(&self, gid: usize, parts: &[impl quote::ToTokens]) -> TokenStream {
        let v = &self.names.games[gid].variant;
        if parts.is_empty() {
            quote!(Pos::#v)
        } else {
            quote!(Pos::#v(#(#parts),*))
        }
    }

    /// The arm of `Rules::rejoin` for game `gid`, where the splits pass rewrote it and its
    /// one field is a set packed as bits: the parts' bits joined.
    pub(super) fn rejoin_arm(&self, gid: usize, game: &Game) -> Option<TokenStream> {
        if !game.split {
            return None;
        }
        let bits = match self.layout.games[gid].fields.as_slice() {
            [Packed::Bits(_, wide) | Packed::Ranks(_, wide) | Packed::Domain(_, wide)] => {
                super::layout::bits_type(*wide)
            }
            _ => return None,
        };
        let rt = &self.rt;
        let v = &self.names.games[gid].variant;
        Some(quote! {
            Pos::#v(_) => {
                let mut whole = 0;
                for part in parts {
                    match part {
                        Pos::#v(bits) => whole |= bits.0,
                        #[allow(unreachable_patterns)]
                        _ => return ::std::option::Option::None,
                    }
                }
                ::std::option::Option::Some(Pos::#v(#rt::native::#bits(whole)))
            }
        })
    }

    /// A pattern matching every position of a game.
    pub(super) fn any_pos(&self, gid: usize, game: &Game) -> TokenStream {
        let v = &self.names.games[gid].variant;
        if game.fields.is_empty() {
            quote!(Pos::#v)
        } else {
            quote!(Pos::#v(..))
        }
    }

    /// The variant of `Pos` for a game.
    pub(super) fn pos_variant(&self, gid: usize, game: &Game) -> TokenStream {
        let v = &self.names.games[gid].variant;
        let tys = (game.fields.iter().zip(&self.layout.games[gid].fields))
            .map(|(f, packing)| self.stored_ty(&f.ty, packing));
        let doc = format!(" A position of `{}`.", game.name);
        if game.fields.is_empty() {
            quote!(#[doc = #doc] #v)
        } else {
            quote!(#[doc = #doc] #v(#(#tys),*))
        }
    }

    /// The `static` interners of a game's list fields, and the domains of its set fields
    /// packed by one (the values, and a value's index among them).
    pub(super) fn interners(&self, gid: usize, game: &Game) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let statics = (game.fields.iter().enumerate())
            .filter(|&(i, _)| matches!(self.layout.games[gid].fields[i], Packed::List))
            .map(|(i, f)| {
                let lists = &self.names.games[gid].lists[i];
                let elem = match &f.ty {
                    FieldTy::List(inner) => self.value_ty(inner),
                    other => self.value_ty(other),
                };
                let doc = format!(" The lists of field `{}` of `{}`.", f.name, game.name);
                quote! {
                    #[doc = #doc]
                    static #lists: #rt::native::ListInterner<#elem> = #rt::native::ListInterner::new();
                }
            });
        let mut domains = Vec::new();
        for (i, f) in game.fields.iter().enumerate() {
            let (Packed::Domain(values, _), FieldTy::Set(inner)) =
                (&self.layout.games[gid].fields[i], &f.ty)
            else {
                continue;
            };
            let (table, index) = &self.names.games[gid].domains[i];
            let elem = self.value_ty(inner);
            let literals = (values.iter())
                .map(|v| self.literal(v))
                .collect::<Result<Vec<_>, _>>()?;
            let n = values.len();
            let arms = literals.iter().enumerate().map(|(k, v)| {
                let k = Literal::u32_unsuffixed(k as u32);
                quote!(#v => ::std::option::Option::Some(#k),)
            });
            let doc = format!(
                " The values the elements of field `{}` of `{}` take (its domain): bit `k` of \
                 the field is value `k`.",
                f.name, game.name
            );
            let index_doc = format!(" The index of `x` in [`{table}`], if it is there.");
            domains.push(quote! {
                #[doc = #doc]
                static #table: [#elem; #n] = [#(#literals),*];
                #[doc = #index_doc]
                #[inline]
                fn #index(x: &#elem) -> ::std::option::Option<u32> {
                    match *x {
                        #(#arms)*
                        _ => ::std::option::Option::None,
                    }
                }
            });
        }
        Ok(quote!(#(#statics)* #(#domains)*))
    }

    /// The arm of `Rules::options` for a game.
    pub(super) fn options_arm(&self, gid: usize, game: &Game) -> TokenStream {
        let rt = &self.rt;
        let fields = self.field_names(game);
        let pattern = self.pos_pattern(gid, &fields);
        let v = &self.names.games[gid].variant;
        match &game.kind {
            GameKind::Subtraction(set) => {
                let set = set.iter().map(|&s| super::int(s));
                let n = &fields[0];
                quote!(#pattern => {
                    #rt::rules::subtraction_options(#n, &[#(#set),*], Pos::#v, out);
                    ::std::result::Result::Ok(())
                })
            }
            GameKind::Octal(digits) => {
                let digits = digits.iter().map(|&d| Literal::u8_suffixed(d));
                let n = &fields[0];
                quote!(#pattern => #rt::rules::heap_options(#n, &[#(#digits),*], Pos::#v, out),)
            }
            GameKind::Rules(_) if game.partizan => {
                let name = Literal::string(&game.name);
                let any = self.any_pos(gid, game);
                quote!(#any => ::std::result::Result::Err(#rt::partizan::partizan_options(#name)),)
            }
            GameKind::Rules(_) => {
                let options = &self.names.games[gid].options;
                quote!(#pattern => #options(#(#fields,)* out),)
            }
        }
    }

    /// The arm of `Rules::side_options` for a partizan game.
    pub(super) fn partizan_arm(&self, gid: usize, game: &Game) -> TokenStream {
        let fields = self.field_names(game);
        let pattern = self.pos_pattern(gid, &fields);
        let options = &self.names.games[gid].options;
        quote!(#pattern => #options(#(#fields,)* side, out),)
    }

    /// The arm of `Rules::write_pos` for a game.
    pub(super) fn write_arm(&self, gid: usize, game: &Game) -> TokenStream {
        let rt = &self.rt;
        let fields = self.field_names(game);
        let pattern = self.pos_pattern(gid, &fields);
        let name = Literal::string(&game.name);
        if game.fields.is_empty() {
            return quote!(#pattern => out.write_str(#name),);
        }
        // A game made to solve another on its set's complement is written as that one.
        let (name, complement) = match (&game.complement_of, self.complemented(gid, &fields[0])) {
            (Some(c), Some(complement)) => (
                Literal::string(&self.program.games[c.game].name),
                Some(complement),
            ),
            _ => (name, None),
        };
        let shows = fields.iter().enumerate().map(|(i, s)| {
            let value = self.unpack(gid, i, s);
            let sep = (i > 0).then(|| quote!(out.write_str(", ")?;));
            quote!(#sep out.write_str(&#rt::native::Show::shown(&(#value)))?;)
        });
        quote!(#pattern => {
            #complement
            out.write_str(#name)?;
            out.write_str("(")?;
            #(#shows)*
            out.write_str(")")
        })
    }

    /// Where game `gid` was made to solve another on its set's complement
    /// (`opt::complement`): `let s = ...;`, its stored set `s` made the other's (the bits of
    /// the set's type that `s` does not hold).
    fn complemented(&self, gid: usize, s: &Ident) -> Option<TokenStream> {
        let rt = &self.rt;
        let c = self.program.games[gid].complement_of.as_ref()?;
        let [Packed::Bits(_, wide) | Packed::Ranks(_, wide)] = &self.layout.games[gid].fields[..]
        else {
            return None;
        };
        let Val::Set(all) = &c.all else {
            return None;
        };
        let bits = super::layout::bits_type(*wide);
        let mask = Literal::u128_unsuffixed(u128::MAX >> (128 - all.len().min(128)));
        Some(quote!(let #s = #rt::native::#bits(#mask & !#s.0);))
    }

    /// The game made to solve game `gid` on its set's complement, where there is one: its
    /// id, and its stored set made `gid`'s set as [`Gen::complemented`] does.
    fn complement_game(&self, gid: usize, s: &Ident) -> Option<(usize, TokenStream)> {
        let free = self.program.complement_game(gid)?;
        Some((free, self.complemented(free, s)?))
    }

    /// `make_<game>(fields..., at)`: builds a position, checking every field's type.
    pub(super) fn maker(&self, gid: usize, game: &Game) -> TokenStream {
        let rt = &self.rt;
        let make = &self.names.games[gid].make;
        let fields = self.field_names(game);
        let mut params = Vec::new();
        let mut checks = Vec::new();
        let mut stored = Vec::new();
        for (i, (f, x)) in game.fields.iter().zip(&fields).enumerate() {
            let ty = self.value_ty(&f.ty);
            params.push(quote!(#x: #ty));
            if let Some(bad) = self.rejects(&f.ty, quote!(#x)) {
                let (field, name, ty) = (
                    Literal::string(&f.name),
                    Literal::string(&game.name),
                    Literal::string(&f.ty.to_string()),
                );
                checks.push(quote! {
                    if #bad {
                        return ::std::result::Result::Err(
                            #rt::native::field_error(#field, #name, #ty, &#x, at));
                    }
                });
            }
            stored.push(self.pack(gid, i, quote!(#x)));
        }
        let lists = (self.layout.games[gid].fields.iter())
            .any(|p| matches!(p, Packed::List | Packed::Domain(..)));
        let at = if checks.is_empty() && !lists {
            quote!(_at)
        } else {
            quote!(at)
        };
        let build = self.pos_pattern(gid, &stored);
        let doc = format!(
            " A position of `{}`, or why a field is outside its type.",
            game.name
        );
        quote! {
            #[doc = #doc]
            #[inline]
            fn #make(#(#params,)* #at: &str) -> ::std::result::Result<Pos, #rt::RuleError> {
                #(#checks)*
                ::std::result::Result::Ok(#build)
            }
        }
    }

    /// The fields a move reads, in field order.
    fn fields_used(&self, game: &Game, m: &Move) -> Vec<usize> {
        let mut used: HashSet<Rc<str>> = HashSet::new();
        m.for_each_read(&mut |v| {
            used.insert(v.name.clone());
        });
        (0..game.fields.len())
            .filter(|&i| used.contains(game.fields[i].name.as_str()))
            .collect()
    }

    /// `<game>_options` and one function per move, for a game of move rules; with `open`,
    /// `<game>_options_open` and its moves: the options of a position that the probe
    /// ([`Gen::ends_probe`]) has found without a move to `end`. There every test that
    /// decides between `end` and another result is known to fail, and is left out.
    pub(super) fn options_fns(
        &self,
        gid: usize,
        game: &Game,
        open: bool,
    ) -> Result<TokenStream, super::CodegenError> {
        let rt = &self.rt;
        let GameKind::Rules(moves) = &game.kind else {
            return Ok(quote!());
        };
        let names = &self.names.games[gid];
        let fields = self.field_names(game);
        let uses: Vec<Vec<usize>> = moves.iter().map(|m| self.fields_used(game, m)).collect();
        let mut move_fns = Vec::new();
        let mut calls = Vec::new();
        let options = match open {
            false => &names.options,
            true => &names.options_open,
        };
        let open_moves = game.open_moves.as_deref().filter(|_| open);
        // The fields that some move reads through their stored bits, and as values
        // (`packed_sets.rs`).
        let mut with_bits = BTreeSet::new();
        let mut with_values = BTreeSet::new();
        for (k, (m, used)) in moves.iter().zip(&uses).enumerate() {
            // A move whose open result is its result has the same options either way: the
            // open options call its function.
            let open_result = (open_moves.and_then(|ms| ms.get(k)))
                .map(|o| &o.result)
                .filter(|r| **r != m.result);
            let own = open_result.is_some();
            let fname = match own {
                false => &names.moves[k],
                true => &names.moves_open[k],
            };
            // The fields not copied are held by reference.
            let borrowed = (used.iter())
                .map(|&i| &game.fields[i])
                .filter(|f| !is_copy(self.program, &f.ty.ty()))
                .map(|f| Rc::from(f.name.as_str()))
                .collect();
            let result = open_result.unwrap_or(&m.result);
            // The body, made first: it finds what the function takes. (A move whose
            // function the options without `end` share takes what it took there.)
            let shared = (open && !own)
                .then(|| self.moves_read.borrow().get(&(gid, k)).cloned())
                .flatten();
            let (body, reads) = match shared {
                Some(reads) => (None, reads),
                None => {
                    *self.borrowed.borrow_mut() = borrowed;
                    *self.move_bits.borrow_mut() = Some(self.bits_scope(gid, &m.clauses, result));
                    *self.move_reads.borrow_mut() = Some(MoveReads::default());
                    self.reading(|f| m.for_each_read(f));
                    let emitted = self.emit(result);
                    let body =
                        emitted.and_then(|inner| self.clauses(&m.clauses, &|| Ok(inner.clone())));
                    self.borrowed.borrow_mut().clear();
                    *self.move_bits.borrow_mut() = None;
                    let reads = self.move_reads.borrow_mut().take().unwrap_or_default();
                    if !open {
                        self.moves_read.borrow_mut().insert((gid, k), reads.clone());
                    }
                    (Some(body?), reads)
                }
            };
            let mut params = Vec::new();
            let mut args = Vec::new();
            for &i in &reads.field_bits {
                let bits = &names.bits[i];
                let ty = self.stored_ty(&game.fields[i].ty, &self.layout.games[gid].fields[i]);
                params.push(quote!(#bits: #ty));
                args.push(quote!(#bits));
                with_bits.insert(i);
            }
            let values = (0..game.fields.len()).filter(|&i| reads.values.contains(&VarId::new(i)));
            for i in values {
                let (f, x) = (&game.fields[i], &fields[i]);
                let ty = self.value_ty(&f.ty);
                if is_copy(self.program, &f.ty.ty()) {
                    params.push(quote!(#x: #ty));
                    args.push(quote!(#x));
                } else {
                    params.push(quote!(#x: &#ty));
                    args.push(quote!(&#x));
                }
                with_values.insert(i);
            }
            let name = Literal::string(&m.name);
            let call = quote! {
                #fname(#(#args,)* out).map_err(|e| #rt::rules::move_error(#name, || show_pos(this), e))?;
            };
            calls.push(match m.side {
                MoveSide::Both => call,
                MoveSide::Left => quote!(if side == #rt::partizan::Side::Left { #call }),
                MoveSide::Right => quote!(if side == #rt::partizan::Side::Right { #call }),
            });
            // The options without `end` call a shared move's function; they make none.
            let (false, Some(body)) = (open && !own, body) else {
                continue;
            };
            let doc = format!(" The options of move `{}` of `{}`.", m.name, game.name);
            let doc = match own {
                false => doc,
                true => format!("{doc} (no move is to `end`)"),
            };
            let lints = super::user_code_lints(&["ptr_arg"]);
            move_fns.push(quote! {
                #[doc = #doc]
                #lints
                fn #fname(#(#params,)* out: &mut #rt::Options<Pos>) -> ::std::result::Result<(), #rt::RuleError> {
                    #body
                    ::std::result::Result::Ok(())
                }
            });
        }
        // Packed fields that a move reads are unpacked once; without moves, no field is read.
        let mut params = Vec::new();
        let mut unpacked = Vec::new();
        for (i, (f, x)) in game.fields.iter().zip(&fields).enumerate() {
            let packing = &self.layout.games[gid].fields[i];
            params.push({
                let ty = self.stored_ty(&f.ty, packing);
                let x = if moves.is_empty() {
                    quote!(_)
                } else {
                    quote!(#x)
                };
                quote!(#x: #ty)
            });
            if with_bits.contains(&i) {
                let bits = &names.bits[i];
                unpacked.push(quote!(let #bits = #x;));
            }
            if !matches!(packing, Packed::Plain) && with_values.contains(&i) {
                let value = self.unpack(gid, i, x);
                unpacked.push(quote!(let #x = #value;));
            }
        }
        let this = (!moves.is_empty()).then(|| {
            let pos = self.pos_pattern(gid, &fields);
            quote!(let this = #pos;)
        });
        let doc = if game.partizan {
            params.push(quote!(side: #rt::partizan::Side));
            format!(" The options of `side` from a position of `{}`.", game.name)
        } else {
            format!(" The options of a position of `{}`.", game.name)
        };
        let doc = match open {
            false => doc,
            true => format!(
                " The options of a position of `{}` that has no move to `end`.",
                game.name
            ),
        };
        Ok(quote! {
            #[doc = #doc]
            fn #options(#(#params,)* out: &mut #rt::Options<Pos>) -> ::std::result::Result<(), #rt::RuleError> {
                #this
                #(#unpacked)*
                #(#calls)*
                ::std::result::Result::Ok(())
            }
            #(#move_fns)*
        })
    }

    /// A helper function; its non-`Copy` parameters are borrowed.
    pub(super) fn function(&self, id: usize, f: &Function) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let name = &self.names.fns[id];
        let mut borrowed = HashSet::new();
        let params: Vec<TokenStream> = (f.params.iter())
            .map(|(p, t)| {
                let x = self.names.local(p);
                let ty = self.value_ty(t);
                if is_copy(self.program, &t.ty()) {
                    quote!(#x: #ty)
                } else {
                    borrowed.insert(p.clone());
                    quote!(#x: &#ty)
                }
            })
            .collect();
        *self.borrowed.borrow_mut() = borrowed;
        self.reading(|visit| f.body.for_each_read(visit));
        let body = self.value(&f.body);
        self.borrowed.borrow_mut().clear();
        let body = body?;
        let ret = self.value_ty(&f.ret);
        // Each argument is checked against its parameter's type, as the interpreter checks
        // it (a field is checked alike where a position is built).
        let checks: Vec<TokenStream> = (f.params.iter())
            .filter(|(_, t)| !t.admits_its_static_type())
            .filter_map(|(p, t)| {
                let x = self.names.local(p);
                let fits = self.admits(t, quote!(#x))?;
                // A set or list comes by reference.
                let shown = match is_copy(self.program, &t.ty()) {
                    true => quote!(&#x),
                    false => quote!(#x),
                };
                let (param, func, ty) = (
                    proc_macro2::Literal::string(p),
                    proc_macro2::Literal::string(&f.name),
                    proc_macro2::Literal::string(&t.to_string()),
                );
                Some(quote! {
                    if !(#fits) {
                        return ::std::result::Result::Err(#rt::native::argument_error(#param, #func, #ty, #shown));
                    }
                })
            })
            .collect();
        let (table, lookup) = self.function_table(id, f, &params)?;
        let doc = format!(" The function `{}`.", f.name);
        let lints = super::user_code_lints(&["ptr_arg"]);
        let reads = self.reads.borrow();
        let unused = (f.params.iter().any(|(p, _)| !reads.contains(p)))
            .then(|| quote!(#[allow(unused_variables)]));
        // A function may be called only while building (by a symmetry whose maps are
        // computed then), or only through its table (`<f>_table`).
        let dead = quote!(#[allow(dead_code)]);
        if table.is_empty() {
            return Ok(quote! {
                #[doc = #doc]
                #unused
                #lints
                #dead
                fn #name(#(#params),*) -> ::std::result::Result<#ret, #rt::RuleError> {
                    #(#checks)*
                    ::std::result::Result::Ok(#body)
                }
            });
        }
        // The lookup is inlined where the function is called; the body, for arguments the
        // table does not answer, is not.
        let body_name = &self.names.fn_bodies[id];
        let args = f.params.iter().map(|(p, _)| self.names.local(p));
        let body_doc = format!(
            " The function `{}` where its table does not answer.",
            f.name
        );
        Ok(quote! {
            #[doc = #doc]
            #lints
            #dead
            #[inline]
            fn #name(#(#params),*) -> ::std::result::Result<#ret, #rt::RuleError> {
                #table
                #body_name(#(#args),*)
            }
            #[doc = #body_doc]
            #unused
            #lints
            #dead
            #[inline(never)]
            fn #body_name(#(#params),*) -> ::std::result::Result<#ret, #rt::RuleError> {
                #(#checks)*
                ::std::result::Result::Ok(#body)
            }
            #lookup
        })
    }

    /// The table of a function that has one ([`Function::table`], `opt/tables.rs`) and
    /// whose values are cheap to copy: every value, and a lookup that answers from it
    /// whenever the arguments lie in their types. (Arguments outside them, and arguments whose value is
    /// an error, take the function's body.) Empty when the function has no table.
    fn function_table(
        &self,
        id: usize,
        f: &Function,
        params: &[TokenStream],
    ) -> Result<(TokenStream, TokenStream), CodegenError> {
        let Some(plan) = self.table_plan(id) else {
            return Ok((quote!(), quote!()));
        };
        let TablePlan {
            types,
            values,
            small_sets,
            union_words,
            pair_sets,
            constant,
        } = plan;
        let whole = FieldTy::Tuple(types.clone());
        let items = (values.iter())
            .map(|v| match v {
                Some(v @ Val::Set(members)) if small_sets && f.ret.admits(v) => {
                    let word = (members.iter())
                        .map(|m| match m {
                            Val::Int(i) => 1u128 << i,
                            _ => 0,
                        })
                        .fold(0u128, |a, b| a | b);
                    Ok(Some(Literal::u128_suffixed(word).into_token_stream()))
                }
                Some(v @ Val::Set(members)) if f.ret.admits(v) && union_words.is_some() => {
                    let Some((w, elems)) = &union_words else {
                        unreachable!("checked in the guard")
                    };
                    let mut words = vec![0u64; *w];
                    for m in members.iter() {
                        let Some(rank) = elems.iter().position(|e| e == m) else {
                            return Ok(None);
                        };
                        words[rank / 64] |= 1 << (rank % 64);
                    }
                    let words = words.iter().map(|&x| Literal::u64_suffixed(x));
                    Ok(Some(quote!([#(#words),*])))
                }
                Some(v @ Val::Set(members)) if pair_sets && f.ret.admits(v) => {
                    let mut words = [0u64; CODE_WORDS];
                    for code in members.iter().filter_map(cell_code) {
                        words[code / 64] |= 1 << (code % 64);
                    }
                    let words = words.iter().map(|&x| Literal::u64_suffixed(x));
                    Ok(Some(quote!([#(#words),*])))
                }
                Some(v) if f.ret.admits(v) => Ok(Some(self.literal(v)?)),
                _ => Ok(None),
            })
            .collect::<Result<Vec<_>, CodegenError>>()?;
        let complete = items.iter().cloned().collect::<Option<Vec<TokenStream>>>();
        let entries: Vec<TokenStream> = (items.into_iter())
            .map(|v| match v {
                Some(v) => quote!(::std::option::Option::Some(#v)),
                None => quote!(::std::option::Option::None),
            })
            .collect();
        let ret = self.value_ty(&f.ret);
        let names: Vec<Ident> = f.params.iter().map(|(p, _)| self.names.local(p)).collect();
        let fits: Vec<TokenStream> = (types.iter().zip(&names))
            .filter_map(|(t, x)| self.admits(t, quote!(#x)))
            .collect();
        let fits = if fits.is_empty() {
            quote!(true)
        } else {
            quote!(#((#fits))&&*)
        };
        let rank = self.rank(&whole, quote!((#(#names,)*)));
        let len = entries.len();
        let copied = if is_copy(self.program, &f.ret.ty()) {
            quote!(*v)
        } else {
            quote!(v.clone())
        };
        if constant {
            let rt_path = &self.rt;
            let (entry, make) = match (small_sets, &union_words) {
                (true, _) => (quote!(u128), quote!(#rt_path::native::Set::from_word(v))),
                _ if pair_sets => {
                    let w = Literal::usize_unsuffixed(CODE_WORDS);
                    (
                        quote!([u64; #w]),
                        quote!(#rt_path::native::Set::from_code_words(v)),
                    )
                }
                (_, Some((w, _))) => {
                    let w = Literal::usize_unsuffixed(*w);
                    (
                        quote!([u64; #w]),
                        quote!(#rt_path::native::Set::from_words(v)),
                    )
                }
                _ => (quote!(#ret), quote!(v)),
            };
            // Where the function succeeds at every argument of the box, the entries are
            // the values themselves, in a lookup of their own: code that knows its
            // arguments lie in the box calls it directly ([`Gen::has_lookup`]).
            if let Some(values) = complete {
                let lookup = &self.names.fn_tables[id];
                let doc = format!(
                    " The table of `{}`: its value at arguments that lie in {}.",
                    f.name, whole
                );
                let lints = super::user_code_lints(&["ptr_arg"]);
                let read = match (small_sets, &union_words) {
                    (false, None) if !pair_sets => quote!(TABLE[(#rank) as usize]),
                    _ => quote!(let v = TABLE[(#rank) as usize]; #make),
                };
                return Ok((
                    quote! {
                        if #fits {
                            return ::std::result::Result::Ok(#lookup(#(#names),*));
                        }
                    },
                    quote! {
                        #[doc = #doc]
                        #lints
                        #[allow(dead_code)]
                        #[inline(always)]
                        fn #lookup(#(#params),*) -> #ret {
                            static TABLE: [#entry; #len] = [#(#values),*];
                            #read
                        }
                    },
                ));
            }
            return Ok((
                quote! {
                    static TABLE: [::std::option::Option<#entry>; #len] = [#(#entries),*];
                    if #fits {
                        if let ::std::option::Option::Some(v) = TABLE[(#rank) as usize] {
                            return ::std::result::Result::Ok(#make);
                        }
                    }
                },
                quote!(),
            ));
        }
        Ok((
            quote! {
                type Entry = ::std::option::Option<#ret>;
                static TABLE: ::std::sync::LazyLock<[Entry; #len]> =
                    ::std::sync::LazyLock::new(|| [#(#entries),*]);
                if #fits {
                    if let ::std::option::Option::Some(v) = &TABLE[(#rank) as usize] {
                        return ::std::result::Result::Ok(#copied);
                    }
                }
            },
            quote!(),
        ))
    }

    /// Whether and how function `id` is tabulated: over its parameters' finite types, or
    /// the ranges its calls give them ([`crate::ir::param_ranges`]), at most
    /// [`crate::opt::knowledge::TABLE_LIMIT`] arguments, with values cheap to copy.
    pub(super) fn table_plan(&self, id: usize) -> Option<TablePlan> {
        let f = &self.program.fns[id];
        // A set of numbers copies cheaply when every value in the table is bits (checked
        // below, once the values are known).
        let small_sets =
            matches!(&f.ret, FieldTy::Set(t) if matches!(**t, FieldTy::Nat | FieldTy::Int));
        if f.params.is_empty() || !(cheap_copy(self.program, &f.ret) || small_sets) {
            return None;
        }
        let table = f.table.as_ref()?;
        let (types, values) = (table.types.clone(), table.values.clone());
        let bits = |v: &Val| match v {
            Val::Set(s) => (s.iter()).all(|x| matches!(x, Val::Int(i) if (0..128).contains(i))),
            _ => false,
        };
        if small_sets && !values.iter().flatten().all(bits) {
            return None;
        }
        let union_words = match &f.ret {
            FieldTy::Set(t) => match &**t {
                FieldTy::Union(u) => bit_words(self.program, u.id).and_then(|w| {
                    let elems = t.values(&self.program.types, w * 64)?;
                    Some((w, elems))
                }),
                _ => None,
            },
            _ => None,
        };
        let pair_sets = matches!(&f.ret, FieldTy::Set(t) if matches!(&**t,
                FieldTy::Tuple(parts) if parts.len() == 2 && parts.iter().all(|p|
                    matches!(p, FieldTy::Nat | FieldTy::Int | FieldTy::Range(..)))))
            && (values.iter().flatten()).all(|v| match v {
                Val::Set(s) => s.iter().all(|x| cell_code(x).is_some()),
                _ => false,
            });
        // Small sets of numbers, of tagged values and of cells are words and numbers are
        // numbers: a constant table. Other values are built once, on first use.
        let constant = small_sets
            || union_words.is_some()
            || pair_sets
            || matches!(
                f.ret,
                FieldTy::Nat | FieldTy::Int | FieldTy::Range(..) | FieldTy::Bool
            );
        Some(TablePlan {
            types,
            values,
            small_sets,
            union_words,
            pair_sets,
            constant,
        })
    }

    /// Whether function `id`'s table is constant: a call proven to lie in it (`in_table`,
    /// which says the table is complete) then reads its lookup (`<f>_table`). (Found once
    /// per function: every call asks.)
    pub(super) fn has_lookup(&self, id: usize) -> bool {
        if let Some(&known) = self.lookups.borrow().get(&id) {
            return known;
        }
        let found = self.table_plan(id).is_some_and(|plan| plan.constant);
        self.lookups.borrow_mut().insert(id, found);
        found
    }

    /// The arm of `Rules::options_open` for a game of move rules.
    pub(super) fn options_open_arm(&self, gid: usize, game: &Game) -> TokenStream {
        let fields = self.field_names(game);
        let pattern = self.pos_pattern(gid, &fields);
        let options = &self.names.games[gid].options_open;
        quote!(#pattern => #options(#(#fields,)* out),)
    }

    /// The typed API of one game: a struct named after it with `new`/`try_new`, one
    /// accessor per field, `pos`/`from_pos`, `Display`, `+` and conversion to `Expr`.
    pub(super) fn game_type(&self, gid: usize, game: &Game) -> TokenStream {
        let rt = &self.rt;
        let names = &self.names.games[gid];
        let (ty, v, make) = (&names.ty, &names.variant, &names.make);
        let any = self.any_pos(gid, game);
        let fields = self.field_names(game);
        // With one game, every position is one of its own.
        let many = self.program.games.len() > 1;
        let mut params = Vec::new();
        let mut args = Vec::new();
        let mut accessors = Vec::new();
        let mut signature = Vec::new();
        for (i, (f, x)) in game.fields.iter().zip(&fields).enumerate() {
            let value_ty = self.value_ty(&f.ty);
            match &f.ty {
                FieldTy::Set(inner) => {
                    let elem = self.value_ty(inner);
                    params.push(quote!(#x: impl ::std::iter::IntoIterator<Item = #elem>));
                    args.push(quote!(#x.into_iter().collect::<#rt::native::Set<_>>()));
                }
                _ => {
                    params.push(quote!(#x: #value_ty));
                    args.push(quote!(#x));
                }
            }
            signature.push(format!("{}: {}", f.name, f.ty));
            if let Some(method) = super::names::accessor_name(&f.name) {
                let value = self.unpack(gid, i, x);
                let doc = format!(" The field `{}: {}`.", f.name, f.ty);
                let binds =
                    (0..game.fields.len()).map(|j| if j == i { quote!(#x) } else { quote!(_) });
                let other = many.then(
                    || quote!(_ => ::std::unreachable!("a typed position holds its own game"),),
                );
                // A position of the game that solves this one on its set's complement.
                let free = self.complement_game(gid, x).map(|(free, complement)| {
                    let fv = &self.names.games[free].variant;
                    quote!(Pos::#fv(#x) => {
                        #complement
                        #value
                    })
                });
                accessors.push(quote! {
                    #[doc = #doc]
                    #[allow(non_snake_case)]
                    pub fn #method(self) -> #value_ty {
                        match self.pos {
                            Pos::#v(#(#binds),*) => #value,
                            #free
                            #other
                        }
                    }
                });
            }
        }
        let doc = format!(
            " A position of the game `{}({})`.",
            game.name,
            signature.join(", ")
        );
        let other = many.then(|| quote!(_ => ::std::option::Option::None,));
        let free = self.program.complement_game(gid).map(|free| {
            let fv = &self.names.games[free].variant;
            quote!(Pos::#fv(..) => ::std::option::Option::Some(#ty { pos }),)
        });
        let new_doc = format!(
            " `{}(...)`. Panics if a field is outside its declared type; [`{}::try_new`] \
             returns the error instead.",
            game.name, ty
        );
        let camel = super::names::camel_case_allowance([ty]);
        quote! {
            #[doc = #doc]
            #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
            #camel
            pub struct #ty {
                pos: Pos,
            }

            #[allow(dead_code, clippy::new_without_default)]
            impl #ty {
                #[doc = #new_doc]
                #[track_caller]
                pub fn new(#(#params),*) -> #ty {
                    match #make(#(#args,)* "") {
                        ::std::result::Result::Ok(pos) => #ty { pos },
                        ::std::result::Result::Err(e) => ::std::panic!("{}", e),
                    }
                }

                /// The position, or an error naming the field outside its declared type.
                pub fn try_new(#(#params),*) -> ::std::result::Result<#ty, #rt::RuleError> {
                    #make(#(#args,)* "").map(|pos| #ty { pos })
                }

                /// The untyped position.
                pub fn pos(self) -> Pos {
                    self.pos
                }

                /// This game's position, if `pos` is one.
                pub fn from_pos(pos: Pos) -> ::std::option::Option<#ty> {
                    match pos {
                        #any => ::std::option::Option::Some(#ty { pos }),
                        #free
                        #other
                    }
                }

                #(#accessors)*
            }

            impl ::std::convert::From<#ty> for #rt::Expr<Pos> {
                fn from(game: #ty) -> #rt::Expr<Pos> {
                    #rt::Expr::Pos(game.pos)
                }
            }

            impl ::std::convert::From<&#ty> for #rt::Expr<Pos> {
                fn from(game: &#ty) -> #rt::Expr<Pos> {
                    #rt::Expr::Pos(game.pos)
                }
            }

            impl<T: #rt::IntoExpr<Pos>> ::std::ops::Add<T> for #ty {
                type Output = #rt::Expr<Pos>;
                fn add(self, rhs: T) -> #rt::Expr<Pos> {
                    #rt::Expr::Pos(self.pos) + rhs
                }
            }

            impl ::std::fmt::Display for #ty {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    #rt::Rules::write_pos(&Universe, self.pos, f)
                }
            }
        }
    }
}
