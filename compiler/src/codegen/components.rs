//! `components(S, x => f(x))` where `f` is a table of a board's cells (`neighbours`): the
//! set is divided by the table, not by calling `f` per element. As a set of cells, by the
//! table's code words (`CodeSteps`); and where a move's result is the sum of a game whose
//! one field is the set of cells of each part (`sum(Cram(part) for part in
//! components(...))`), on the bits of the field itself (`RankSteps`): the parts go to the
//! options as they are found, never built as sets (unless the field is computed from them).

use super::game::{pair_code, TABLE_LIMIT};
use super::layout::{cells, Packed};
use super::{CodegenError, Gen};
use crate::ast::ClosureKind;
use crate::ir::*;
use cgdl_runtime::native::CODE_WORDS;
use cgdl_runtime::Compound;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

impl Gen<'_> {
    /// The values of function `id` at each argument, when it maps board cells to sets of
    /// board cells: one parameter, pairs of numbers in `0..16`, a complete constant table.
    fn cell_steps(&self, id: usize) -> Option<Vec<(Val, Vec<Val>)>> {
        let types = self.lookup_box(id)?;
        let plan = self.table_plan(id)?;
        if !plan.pair_sets || types.len() != 1 {
            return None;
        }
        let args = FieldTy::Tuple(types).values(&self.program.types, TABLE_LIMIT)?;
        let mut steps = Vec::with_capacity(args.len());
        for (arg, value) in args.iter().zip(plan.values.iter()) {
            let (Val::Tuple(arg), Some(Val::Set(step))) = (arg, value) else {
                return None;
            };
            steps.push((arg.first()?.clone(), step.iter().cloned().collect()));
        }
        Some(steps)
    }

    /// Function `id`'s table as the runtime's `CodeSteps` (an expression building it), when
    /// it maps board cells to sets of board cells.
    pub(super) fn code_steps(&self, id: usize) -> Option<TokenStream> {
        let rt = &self.rt;
        let mut entries = Vec::new();
        for (arg, step) in self.cell_steps(id)? {
            let code = pair_code(&arg)?;
            let mut words = [0u64; CODE_WORDS];
            for y in &step {
                let c = pair_code(y)?;
                words[c / 64] |= 1 << (c % 64);
            }
            let code = Literal::u32_unsuffixed(code as u32);
            let words = words.iter().map(|&w| Literal::u64_unsuffixed(w));
            entries.push(quote!((#code, [#(#words),*])));
        }
        Some(quote!(#rt::native::CodeSteps::new(&[#(#entries),*])))
    }

    /// The options of a move whose result is `sum(G(part) for part in components(S, x =>
    /// f(x)))`, `G` a game whose one field is a set of board cells packed by rank and `f` a
    /// table of those cells: where every element of `S` is such a cell, each part is found
    /// on the field's bits by the table (its steps made symmetric, as `components` takes
    /// them) and goes straight to the options; elsewhere, as written. Where the field is
    /// computed from the part (`G(corner(part))`), each part is made a set of cells for
    /// that computation. `None` when the result is not of this form.
    pub(super) fn rank_components(&self, e: &IExpr) -> Result<Option<TokenStream>, CodegenError> {
        let rt = &self.rt;
        let IExpr::CompoundOf {
            kind: Compound::Sum,
            elem,
            clauses,
        } = e
        else {
            return Ok(None);
        };
        let (IExpr::Pos { game, args, .. }, [IClause::Bind(vars, domain)]) =
            (&**elem, clauses.as_slice())
        else {
            return Ok(None);
        };
        let (
            [part],
            [arg],
            IExpr::Closure {
                kind: ClosureKind::Components,
                seed,
                var,
                next,
            },
        ) = (vars.as_slice(), args.as_slice(), domain)
        else {
            return Ok(None);
        };
        let IExpr::Call { func, args: call } = &**next else {
            return Ok(None);
        };
        // The part itself is the field (`G(part)`), or the field is computed from it
        // (`G(corner(part))`: the part is made a set of cells for it).
        let direct = matches!(arg, IExpr::Var(v) if v.slot == part.slot);
        let ([IExpr::Var(x)], true) = (call.as_slice(), direct || arg.reads_any(vars)) else {
            return Ok(None);
        };
        let (Packed::Ranks(t, wide), true) =
            (&self.layout.games[*game].fields[0], x.slot == var.slot)
        else {
            return Ok(None);
        };
        let Some((r0, rows, c0, cols)) = cells(t) else {
            return Ok(None);
        };
        let Some(steps) = self.cell_steps(*func) else {
            return Ok(None);
        };
        // Each cell's steps by rank, and the steps into it (symmetric, as `components`
        // joins a step either way); a step out of the board's cells joins nothing here.
        let count = (rows * cols) as usize;
        let rank = |v: &Val| -> Option<usize> {
            let Val::Tuple(p) = v else { return None };
            let (Val::Int(r), Val::Int(c)) = (p.first()?, p.get(1)?) else {
                return None;
            };
            let (r, c) = (r - i64::from(r0), c - i64::from(c0));
            ((0..i64::from(rows)).contains(&r) && (0..i64::from(cols)).contains(&c))
                .then(|| (r * i64::from(cols) + c) as usize)
        };
        let mut table = vec![0u128; count];
        let mut defined = vec![false; count];
        for (arg, step) in &steps {
            let Some(from) = rank(arg) else { continue };
            defined[from] = true;
            for to in step.iter().filter_map(rank) {
                table[from] |= 1 << to;
                table[to] |= 1 << from;
            }
        }
        if defined.contains(&false) {
            return Ok(None);
        }
        let whole = self.value(seed)?;
        let general = self.emit_sum_leaves(elem, clauses)?;
        let steps = table.iter().map(|&w| Literal::u128_unsuffixed(w));
        let v = &self.names.games[*game].variant;
        let (bits, word) = match wide {
            true => (quote!(Bits), quote!(part)),
            false => (quote!(Bits64), quote!(part as u64)),
        };
        let each_part = if direct {
            quote! {
                #rt::native::rank_components(u128::from(ranks.0), &STEPS, |part| {
                    out.leaf(Pos::#v(#rt::native::#bits(#word)))
                });
            }
        } else {
            let name = self.binder(part);
            let leaf = self.knowing_binder(vars, domain, || self.position(elem))?;
            quote! {
                #rt::native::try_rank_components(u128::from(ranks.0), &STEPS, |part| {
                    let #name = #rt::native::#bits(#word).unpack_cells(#r0, #rows, #c0, #cols);
                    out.leaf(#leaf);
                    ::std::result::Result::Ok(())
                })?;
            }
        };
        Ok(Some(quote! {
            {
                static STEPS: ::std::sync::LazyLock<#rt::native::RankSteps> =
                    ::std::sync::LazyLock::new(|| #rt::native::RankSteps::new(&[#(#steps),*]));
                let start = out.open_sum();
                let whole = #whole;
                if whole.cells_within(#r0, #rows, #c0, #cols) {
                    let ranks = #rt::native::#bits::pack_cells(&whole, #r0, #rows, #c0, #cols);
                    #each_part
                } else {
                    #general
                }
                out.close_sum(start);
            }
            out.check()?;
        }))
    }
}
