//! Set algebra on a board field's stored bits. A move's result that keeps part of a set
//! field of board cells, `field & T`, `field - T` or `field - {x}`, stored into a field
//! packed the same way, is the stored bits `and` the bits of `T` (or of their complement),
//! not the value packed again: Chomp's bite `left & mask(x)` is one `and` of two words and
//! no `pext`.
//!
//! The bits of `T` are those of its cells on the board: of a constant set, known here; of
//! a function's complete table of cell sets, a table of its values' bits; of cells written
//! out, each cell's bit at run time. Cells off the board count for nothing, as they do in
//! the value: `field` holds none of them. `T` is evaluated where the value would be, with
//! the same errors, so no value and no error changes.

use super::layout::{bits_type, Packed};
use super::{CodegenError, Gen};
use crate::ir::*;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use std::collections::BTreeSet;

/// A stored field computed from a field's bits ([`Gen::bits_arg`]).
pub(super) struct BitsArg<'e> {
    /// The moving game's field whose bits are read.
    field: usize,
    /// Whether `T`'s cells are kept (`&`) or removed (`-`).
    keep: bool,
    /// `T`.
    operand: Operand<'e>,
    /// The board: first row, rows, first column, columns.
    board: (u32, u32, u32, u32),
    /// Whether the bits are 128 (`Bits`) rather than 64 (`Bits64`).
    wide: bool,
}

/// How the bits of `T` are found.
enum Operand<'e> {
    /// A constant set: its bits.
    Constant(u128),
    /// A call of a function whose table of cell sets is complete, at arguments that lie in
    /// it.
    Lookup { func: usize, args: &'e [IExpr] },
    /// Cells given one by one (a set written out, or the one of `- {x}`).
    Cells(Vec<&'e IExpr>),
}

impl Gen<'_> {
    /// The form of `arg`, the value of field `field` of a position of game `target` made by
    /// a move of game `from`, on `from`'s stored bits; `None` where it has none.
    pub(super) fn bits_arg<'e>(
        &self,
        from: usize,
        target: usize,
        field: usize,
        arg: &'e IExpr,
    ) -> Option<BitsArg<'e>> {
        self.bits_of(from, &self.layout.games[target].fields[field], arg)
    }

    /// The form of set `e`, stored as `packing`, on the stored bits of a field of game
    /// `from`; `None` where it has none.
    pub(super) fn bits_of<'e>(
        &self,
        from: usize,
        packing: &Packed,
        e: &'e IExpr,
    ) -> Option<BitsArg<'e>> {
        self.bits_form(from, Some(packing), e)
    }

    /// The form of set `e` on the stored bits of a field of game `from`, packed as
    /// `packing` (or as that field is, with `None`); `None` where it has none.
    fn bits_form<'e>(
        &self,
        from: usize,
        packing: Option<&Packed>,
        e: &'e IExpr,
    ) -> Option<BitsArg<'e>> {
        let IExprKind::Bin { op, lhs, rhs } = e.kind() else {
            return None;
        };
        // The field read, its board and width, and the other operand (`&` either way round).
        let field_of = |e: &IExpr| match e.kind() {
            IExprKind::Var(v) if v.slot.index() < self.program.games[from].fields.len() => {
                let source = &self.layout.games[from].fields[v.slot.index()];
                let Packed::Ranks(t, wide) = source else {
                    return None;
                };
                let board = t.board()?;
                let fits = match packing {
                    Some(Packed::Ranks(s, w)) => s.board() == Some(board) && w == wide,
                    Some(_) => false,
                    None => true,
                };
                fits.then_some((v.slot.index(), board, *wide))
            }
            _ => None,
        };
        let ((field, board, wide), other, keep) = match op {
            Op::SetInter => match field_of(lhs) {
                Some(f) => (f, &**rhs, true),
                None => (field_of(rhs)?, &**lhs, true),
            },
            Op::SetDiff => (field_of(lhs)?, &**rhs, false),
            Op::Remove => {
                let (field, board, wide) = field_of(lhs)?;
                let operand = Operand::Cells(vec![&**rhs]);
                return Some(BitsArg {
                    field,
                    keep: false,
                    operand,
                    board,
                    wide,
                });
            }
            _ => return None,
        };
        let operand = match other.kind() {
            IExprKind::Lit(Val::Set(members))
            | IExprKind::AllOf {
                values: Val::Set(members),
                ..
            } => Operand::Constant(cell_bits(board, members.iter())),
            IExprKind::Set(cells) => Operand::Cells(cells.iter().collect()),
            IExprKind::Call {
                func,
                args,
                in_table: true,
                ..
            } if self.cell_table(*func).is_some() => Operand::Lookup { func: *func, args },
            _ => return None,
        };
        Some(BitsArg {
            field,
            keep,
            operand,
            board,
            wide,
        })
    }

    /// The loop over the cells of `dom`, a binder's domain, binding `pattern` to each in
    /// order, on the moving game's stored bits (`None` where they do not serve).
    pub(super) fn for_each_cell(
        &self,
        pattern: &TokenStream,
        dom: &IExpr,
        body: &TokenStream,
    ) -> Result<Option<TokenStream>, CodegenError> {
        let Some(from) = *self.move_bits.borrow() else {
            return Ok(None);
        };
        let Some(b) = self.bits_form(from, None, dom) else {
            return Ok(None);
        };
        let set = self.bits_value(from, &b)?;
        let (r0, _, c0, cols) = b.board;
        Ok(Some(
            quote!(for #pattern in #set.cells(#r0, #c0, #cols) { #body }),
        ))
    }

    /// The values of function `func` when its table is complete and of cell sets, in rank
    /// order, with the types of its arguments.
    fn cell_table(&self, func: usize) -> Option<(Vec<FieldTy>, Vec<Val>)> {
        if !self.has_lookup(func) {
            return None;
        }
        let plan = self.table_plan(func)?;
        if !plan.pair_sets {
            return None;
        }
        let values = plan.values.iter().cloned().collect::<Option<Vec<Val>>>()?;
        Some((plan.types, values))
    }

    /// The fields of game `gid` whose stored bits a move of `clauses` and `result` reads:
    /// those of every position it makes that [`Gen::bits_arg`] rewrites.
    pub(super) fn bits_read(
        &self,
        gid: usize,
        clauses: &[IClause],
        result: &IExpr,
    ) -> BTreeSet<usize> {
        let mut read = BTreeSet::new();
        for c in clauses {
            self.note_bits_read(gid, c.expr(), &mut read);
        }
        self.note_bits_read(gid, result, &mut read);
        read
    }

    fn note_bits_read(&self, gid: usize, e: &IExpr, read: &mut BTreeSet<usize>) {
        // Every set that a position's field or a binder's domain may take from the bits
        // (more than either takes does no harm: the parameter is then unused).
        if let Some(b) = self.bits_form(gid, None, e) {
            read.insert(b.field);
        }
        e.for_each_child(&mut |c| self.note_bits_read(gid, c, read));
    }

    /// Whether the fields of position `e` are packed in place, without the maker's checks
    /// ([`Gen::position`]).
    pub(super) fn packs_directly(&self, e: &IExpr) -> bool {
        let IExprKind::Pos { game, fits, .. } = e.kind() else {
            return false;
        };
        // (A list field is interned and a domain checked, which may fail: those keep the
        // maker.)
        let checked = (self.layout.games[*game].fields.iter())
            .any(|p| matches!(p, Packed::List | Packed::Domain(..)));
        *fits && !checked
    }

    /// The stored value of `b`.
    pub(super) fn bits_value(&self, from: usize, b: &BitsArg) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let bits_ty = bits_type(b.wide);
        let word = |w: u128| match b.wide {
            true => Literal::u128_suffixed(w),
            false => Literal::u64_suffixed(w as u64),
        };
        let (r0, rows, c0, cols) = b.board;
        let mask = match &b.operand {
            Operand::Constant(w) => {
                let w = word(*w);
                quote!(#w)
            }
            Operand::Cells(cells) => {
                let cells = (cells.iter())
                    .map(|c| {
                        let c = self.value(c)?;
                        Ok(quote!(#rt::native::#bits_ty::pack_cell(#c, #r0, #rows, #c0, #cols).0))
                    })
                    .collect::<Result<Vec<_>, CodegenError>>()?;
                quote!((#(#cells)|*))
            }
            Operand::Lookup { func, args } => {
                let Some((types, values)) = self.cell_table(*func) else {
                    unreachable!("a lookup has a table (`bits_arg`)")
                };
                let params = &self.program.fns[*func].params;
                let args = (args.iter().zip(params))
                    .map(|(a, (_, t))| self.argument(a, &t.ty()))
                    .collect::<Result<Vec<_>, _>>()?;
                let words = (values.iter()).map(|v| match v {
                    Val::Set(members) => word(cell_bits(b.board, members.iter())),
                    _ => unreachable!("a table of cell sets (`cell_table`)"),
                });
                let len = values.len();
                let entry = match b.wide {
                    true => quote!(u128),
                    false => quote!(u64),
                };
                let rank = self.rank(&FieldTy::Tuple(types), quote!(key));
                quote!({
                    let key = (#(#args,)*);
                    static TABLE: [#entry; #len] = [#(#words),*];
                    TABLE[(#rank) as usize]
                })
            }
        };
        let bits = &self.names.games[from].bits[b.field];
        Ok(match b.keep {
            true => quote!(#rt::native::#bits_ty(#bits.0 & #mask)),
            false => quote!(#rt::native::#bits_ty(#bits.0 & !#mask)),
        })
    }
}

/// The bits of the cells among `members` that lie on `board`.
fn cell_bits<'v>(board: (u32, u32, u32, u32), members: impl Iterator<Item = &'v Val>) -> u128 {
    members
        .filter_map(|m| board_rank(board, m))
        .fold(0, |w, rank| w | 1 << rank)
}
