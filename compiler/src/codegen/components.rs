//! `components(S, x => step)`: the set divided by the step called per element, or by a
//! table of a board's cells where `opt/parts.rs` lowered it to [`IExprKind::Parts`] — as a set
//! of cells, by the table's code words (`CodeSteps`); as the parts of a sum of positions
//! whose one field is a set of cells packed by rank, on the bits of the field itself
//! (`RankSteps`): the parts go to the sum as they are found, never built as sets (unless
//! the field is computed from them).

use super::layout::Packed;
use super::{CodegenError, Gen};
use crate::ir::*;
use cgdl_runtime::native::CODE_WORDS;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

impl Gen<'_> {
    /// `components(seed, var => next)`, by the table `steps` where there is one.
    pub(super) fn components(
        &self,
        seed: &IExpr,
        var: &Var,
        next: &IExpr,
        steps: Option<&CellSteps>,
    ) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let whole = match seed.kind() {
            IExprKind::Var(v) => self.var_ref(v),
            _ => {
                let v = self.value(seed)?;
                quote!(&#v)
            }
        };
        // `var` ranges over the elements of the set divided.
        let next = self.value(next)?;
        let x = self.binder(var);
        let step = quote!(|#x| {
            let step = #next;
            ::std::result::Result::Ok(step)
        });
        // The table's code words are for board cells; numbers take the step as written
        // (the function's own table).
        let coded = steps.filter(|s| {
            (s.by_cell.iter()).all(|(x, step)| {
                cell_code(x).is_some() && step.iter().all(|y| cell_code(y).is_some())
            })
        });
        let Some(steps) = coded else {
            return Ok(quote!(#rt::native::components(#whole, #step)?));
        };
        let entries = steps.by_cell.iter().map(|(cell, step)| {
            let mut words = [0u64; CODE_WORDS];
            for c in step.iter().filter_map(cell_code) {
                words[c / 64] |= 1 << (c % 64);
            }
            let Some(code) = cell_code(cell) else {
                unreachable!("the parts pass keeps the cells that have codes")
            };
            let (code, words) = (
                Literal::u32_unsuffixed(code as u32),
                words.iter().map(|&w| Literal::u64_unsuffixed(w)),
            );
            quote!((#code, [#(#words),*]))
        });
        Ok(quote!({
            static STEPS: ::std::sync::LazyLock<#rt::native::CodeSteps> =
                ::std::sync::LazyLock::new(|| #rt::native::CodeSteps::new(&[#(#entries),*]));
            #rt::native::components_by_codes(#whole, &STEPS, #step)?
        }))
    }

    /// The value of a division into parts ([`IExprKind::Parts`]).
    pub(super) fn parts_value(&self, op: &PartsOp) -> Result<TokenStream, CodegenError> {
        match op.kind {
            PartsKind::Sets => {
                let (seed, var, next) = op.closure();
                self.components(seed, var, next, Some(&op.steps))
            }
            PartsKind::Sum { .. } => self.value(&op.written),
        }
    }

    /// What a move whose result is a sum over the parts of a set of cells
    /// ([`PartsKind::Sum`]) adds to the options: where the game's field is packed by rank
    /// on the board of the table and every element of the set divided lies in the board,
    /// each part found on the set's bits; elsewhere, the sum as written.
    pub(super) fn sum_of_parts(&self, op: &PartsOp) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let PartsKind::Sum {
            game,
            part,
            direct,
            corner,
            board,
            joined,
        } = &op.kind
        else {
            unreachable!("a sum of parts is of kind `Sum`")
        };
        let IExprKind::CompoundOf { elem, clauses, .. } = op.written.kind() else {
            unreachable!("a sum of parts is a sum")
        };
        // (Made only where it is used: making it may add constants.)
        let general = || self.emit_sum_leaves(elem, clauses);
        // Every form of the sum collects its leaves between `open_sum` and `close_sum`.
        let in_sum = |body: TokenStream| {
            quote! {
                {
                    let start = out.open_sum();
                    #body
                    out.close_sum(start);
                }
                out.check()?;
            }
        };
        let wide = match (&self.layout.games[*game].fields[0], board) {
            (Packed::Ranks(t, wide), Ranked::Board(b)) if t.board() == Some(*b) => *wide,
            (Packed::Bits(lo, wide), Ranked::Range(from, _)) if lo == from => *wide,
            _ => return Ok(in_sum(general()?)),
        };
        // Whether the set divided lies among the ranked elements, its bits by rank, and a
        // part's bits as the set of elements.
        let (within, pack, unpack) = match *board {
            Ranked::Board((r0, rows, c0, cols)) => (
                quote!(whole.cells_within(#r0, #rows, #c0, #cols)),
                quote!(pack_cells(&whole, #r0, #rows, #c0, #cols)),
                quote!(unpack_cells(#r0, #rows, #c0, #cols)),
            ),
            Ranked::Range(lo, hi) => (
                quote!(whole.within(#lo, #hi)),
                quote!(pack(&whole, #lo)),
                quote!(unpack(#lo)),
            ),
        };
        // The set divided, on the moving game's bits where they serve: it then lies in the
        // board (a part of a field on the same board).
        let seed = op.closure().0;
        let from_bits = self.bits_of(&self.layout.games[*game].fields[0], seed);
        let ranks_of_bits = match (from_bits, board) {
            (Some(b), Ranked::Board(_)) => Some(self.bits_value(&b)?),
            _ => None,
        };
        let steps = joined.iter().map(|&w| Literal::u128_unsuffixed(w));
        let v = &self.names.games[*game].variant;
        let (bits, word, ranks) = match wide {
            true => (quote!(Bits), quote!(part), quote!(ranks.0)),
            false => (
                quote!(Bits64),
                quote!(part as u64),
                quote!(u128::from(ranks.0)),
            ),
        };
        let each_part = if *direct {
            quote! {
                #rt::native::rank_components(#ranks, &STEPS, |part| {
                    out.leaf(Pos::#v(#rt::native::#bits(#word)))
                });
            }
        } else if let (true, Ranked::Board((_, rows, _, cols))) = (*corner, board) {
            // The part (never empty) moved to the corner on its bits: the board's ranks are
            // the field's, from its first cell `(0, 0)`.
            let moved = match wide {
                true => quote!(#rt::native::to_corner(part, #rows, #cols)),
                false => quote!(#rt::native::to_corner64(part as u64, #rows, #cols)),
            };
            quote! {
                #rt::native::rank_components(#ranks, &STEPS, |part| {
                    out.leaf(Pos::#v(#rt::native::#bits(#moved)))
                });
            }
        } else {
            let name = self.binder(part);
            let leaf = self.position(elem)?;
            quote! {
                #rt::native::try_rank_components(#ranks, &STEPS, |part| {
                    let #name = #rt::native::#bits(#word).#unpack;
                    out.leaf(#leaf);
                    ::std::result::Result::Ok(())
                })?;
            }
        };
        // The ranks of the set divided: its bits where they serve, else packed when it lies
        // among the ranked elements, else the sum as written.
        let divide = match ranks_of_bits {
            Some(ranks) => quote! {
                let ranks = #ranks;
                #each_part
            },
            None => {
                let (whole, general) = (self.value(seed)?, general()?);
                quote! {
                    let whole = #whole;
                    if #within {
                        let ranks = #rt::native::#bits::#pack;
                        #each_part
                    } else {
                        #general
                    }
                }
            }
        };
        Ok(in_sum(quote! {
            static STEPS: ::std::sync::LazyLock<#rt::native::RankSteps> =
                ::std::sync::LazyLock::new(|| #rt::native::RankSteps::new(&[#(#steps),*]));
            #divide
        }))
    }
}
