//! The bottom-up Grundy kernel of a game whose positions index densely (a heap game, or a
//! bounded game in mixed radix): a table of values filled in index order.

use super::layout::{DigitsCode, Shape};
use super::{int, CodegenError, Gen};
use crate::ir::*;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

impl Gen<'_> {
    /// The arm of `Rules::grundy_kernel` and the kernel function of game `gid`, or `None`
    /// when the game has no kernel. The kernel declines (the generic solver takes over) as
    /// soon as an option is not an earlier position of the same game, a sum of two, or
    /// `end`: so it applies exactly when index order is a topological order of the
    /// positions it meets.
    pub(super) fn kernel(
        &self,
        gid: usize,
        game: &Game,
    ) -> Result<Option<(TokenStream, TokenStream)>, CodegenError> {
        let rt = &self.rt;
        let shape = &self.layout.games[gid].shape;
        if matches!(shape, Shape::Other) || game.partizan {
            return Ok(None);
        }
        let fields = self.field_names(game);
        let body = match (&game.kind, shape) {
            (GameKind::Subtraction(set), Shape::Heap) => {
                let set = set.iter().map(|&x| int(x));
                let n = &fields[0];
                quote! {
                    for s in [#(#set),*] {
                        if s <= #n {
                            match g.earlier((#n - s) as usize) {
                                ::std::option::Option::Some(value) => mark(value),
                                ::std::option::Option::None => return ::std::result::Result::Ok(false),
                            }
                        }
                    }
                }
            }
            (_, Shape::Heap) if game.heap_code.is_some() => {
                // A heap game (an octal code, or rules recognised as one): the runtime's
                // engine, with rare/common splits, compact values and proven periods.
                let digits = game
                    .heap_code
                    .iter()
                    .flatten()
                    .map(|&d| Literal::u8_suffixed(d));
                let n = &fields[0];
                let table = Literal::usize_unsuffixed(gid);
                let pattern = self.pos_pattern(gid, &fields);
                let arm = quote! {
                    #pattern => #rt::kernel::heap_kernel(#table, &[#(#digits),*], #n, budget, tables),
                };
                return Ok(Some((arm, TokenStream::new())));
            }
            // Moves in kernel form (`opt/kernel.rs`); a game without moves has none (every
            // position is 0 at once: no table is worth filling).
            (GameKind::Rules(moves), _) => {
                let Some(kernel_moves) = &game.kernel_moves else {
                    return Ok(None);
                };
                self.reading(|f| moves.iter().for_each(|m| m.for_each_read(f)));
                let mut parts = Vec::new();
                for m in kernel_moves {
                    let emit = self.kernel_emit(shape, &m.result)?;
                    parts.push(self.clauses(&m.clauses, &|| Ok(emit.clone()))?);
                }
                quote!(#(#parts)*)
            }
            _ => return Ok(None),
        };
        let stored: Vec<TokenStream> = (fields.iter().enumerate())
            .map(|(i, x)| self.pack(gid, i, quote!(#x)))
            .collect();
        let this = self.pos_pattern(gid, &stored);
        // The target's index, and each index's fields.
        let (target, decode) = match shape {
            Shape::Heap => {
                let n = &fields[0];
                (
                    quote! {
                        if !(0..1i64 << 27).contains(&#n) {
                            return #rt::KernelAnswer::Declined;
                        }
                        let target = #n as usize;
                    },
                    quote!(let #n = cur as i64;),
                )
            }
            Shape::Bounded(digits) => {
                let values = fields
                    .iter()
                    .enumerate()
                    .map(|(i, x)| self.unpack(gid, i, x));
                let index = digits.index(values);
                (quote!(let target: usize = #index;), digits.decode(&fields))
            }
            Shape::Other => return Ok(None),
        };
        let params = (game.fields.iter().zip(&fields).enumerate()).map(|(i, (f, x))| {
            let ty = self.stored_ty(&f.ty, &self.layout.games[gid].fields[i]);
            quote!(#x: #ty)
        });
        let name = &self.names.games[gid].kernel;
        let cells = &self.names.games[gid].cells;
        let pattern = self.pos_pattern(gid, &fields);
        let arm = quote!(#pattern => #name(#(#fields,)* known, out, budget, tables),);
        let table = Literal::usize_unsuffixed(gid);
        let doc = format!(" The Grundy kernel of `{}`.", game.name);
        let cells_doc = format!(" The cells of `{}`'s kernel, in index order.", game.name);
        // Threads fill a board a row at a time; a heap's options may reach back one cell.
        let row = match shape {
            Shape::Bounded(digits) => Literal::usize_unsuffixed(digits.row()),
            _ => Literal::usize_unsuffixed(0),
        };
        let lints = super::user_code_lints(&["redundant_closure_call"]);
        let kernel = quote! {
            #[doc = #doc]
            // A game's fields, then the kernel's own four.
            #[allow(clippy::too_many_arguments)]
            fn #name(
                #(#params,)*
                known: &dyn Fn(Pos) -> ::std::option::Option<u32>,
                out: &mut ::std::vec::Vec<(Pos, u32)>,
                budget: u64,
                tables: &mut #rt::KernelTables,
            ) -> #rt::KernelAnswer {
                #target
                #rt::kernel::fill_dense(&#cells, #table, target, known, out, budget, tables)
            }
            #[doc = #cells_doc]
            #[allow(non_camel_case_types)]
            struct #cells;
            #lints
            impl #rt::kernel::DenseCells for #cells {
                type Pos = Pos;
                const ROW: usize = #row;
                fn pos(&self, cur: usize) -> Pos {
                    #decode
                    #this
                }
                #[allow(unused_variables)]
                fn value<G: #rt::kernel::EarlierValues + ?Sized>(
                    &self,
                    cur: usize,
                    g: &G,
                    marks: &mut #rt::kernel::Marks,
                ) -> ::std::option::Option<u32> {
                    #decode
                    marks.clear();
                    let step = (|| -> ::std::result::Result<bool, #rt::RuleError> {
                        let mut mark = |x: u32| marks.mark(x);
                        #body
                        ::std::result::Result::Ok(true)
                    })();
                    match step {
                        ::std::result::Result::Ok(true) => ::std::option::Option::Some(marks.mex()),
                        _ => ::std::option::Option::None,
                    }
                }
            }
        };
        Ok(Some((arm, kernel)))
    }

    /// The value of an earlier position (its fields `args`), read from the kernel's table;
    /// the kernel declines for any other position.
    fn kernel_lookup(&self, shape: &Shape, args: &[IExpr]) -> Result<TokenStream, CodegenError> {
        // A field outside its type, or a position not earlier than `cur`, makes the kernel
        // decline; the generic solver then reports or handles it exactly as the interpreter.
        let decline = quote!(return ::std::result::Result::Ok(false));
        let lookup = |index: TokenStream| {
            quote!(match g.earlier(#index) {
                ::std::option::Option::Some(value) => value,
                ::std::option::Option::None => #decline,
            })
        };
        Ok(match shape {
            Shape::Heap => {
                // A negative heap has no index: the lookup fails and the kernel declines.
                let heap = self.value(&args[0])?;
                lookup(quote!(usize::try_from(#heap).unwrap_or(usize::MAX)))
            }
            Shape::Bounded(digits) => {
                let names: Vec<_> = (1..=args.len()).map(|i| format_ident!("x{}", i)).collect();
                let values = args
                    .iter()
                    .map(|a| self.value(a))
                    .collect::<Result<Vec<_>, _>>()?;
                let checks = digits.in_range(&names);
                let found = lookup(digits.index(names.iter().map(|a| quote!(#a))));
                quote!({
                    let (#(#names,)*) = (#(#values,)*);
                    if !(#checks) {
                        #decline;
                    }
                    #found
                })
            }
            Shape::Other => unreachable!("a kernel is made only where positions index densely"),
        })
    }

    /// What a move result marks in the kernel.
    fn kernel_emit(&self, shape: &Shape, e: &KernelResult) -> Result<TokenStream, CodegenError> {
        Ok(match e {
            KernelResult::End => quote!(mark(0);),
            KernelResult::Position(args) => {
                let h = self.kernel_lookup(shape, args)?;
                quote!(mark(#h);)
            }
            KernelResult::Sum(a, b) => {
                let (x, y) = (self.kernel_lookup(shape, a)?, self.kernel_lookup(shape, b)?);
                quote!({
                    let (lhs, rhs) = (#x, #y);
                    mark(lhs ^ rhs);
                })
            }
            KernelResult::If {
                cond,
                then,
                otherwise,
            } => {
                let (a, b) = (
                    self.kernel_emit(shape, then)?,
                    self.kernel_emit(shape, otherwise)?,
                );
                let c = self.value(cond)?;
                quote!(if #c { #a } else { #b })
            }
            KernelResult::Let { var, value, body } => {
                let body = self.kernel_emit(shape, body)?;
                let (x, v) = (self.binder(var), self.value(value)?);
                quote!({ let #x = #v; #body })
            }
        })
    }
}
