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
//!
//! A `let` of such a set (`let rest = cells - {a, b} in ...`) binds its bits beside its
//! value, and the set's uses above serve from them too: `Cram(rest)`, the parts of `rest`.

use super::layout::{bits_type, word_literal, word_type, Packed};
use super::{CodegenError, Gen};
use crate::ir::*;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;
use std::collections::{BTreeSet, HashMap};

/// A board: first row, rows, first column, columns.
type Board = (u32, u32, u32, u32);

/// The sets whose bits a move's function has at hand ([`Gen::move_bits`]).
#[derive(Clone)]
pub(super) struct BitsScope {
    /// The moving game.
    from: usize,
    /// Its fields whose stored bits are parameters.
    fields: BTreeSet<usize>,
    /// Names bound by `let` to a set with bits: the bits' name, board and width.
    lets: HashMap<VarId, (Ident, Board, bool)>,
}

/// What the move function being generated reads ([`Gen::move_reads`]), found as its code
/// is made, so that it takes exactly what it reads: a field read only through its bits is
/// neither passed as a value nor unpacked.
#[derive(Clone, Default)]
pub(super) struct MoveReads {
    /// The names read as values, by slot (a game's fields are its first slots).
    pub(super) values: BTreeSet<VarId>,
    /// The moving game's fields read through their bits.
    pub(super) field_bits: BTreeSet<usize>,
    /// The names bound by `let` whose bits are read, by slot.
    let_bits: BTreeSet<VarId>,
}

/// Where a set's bits are.
#[derive(Clone)]
enum Source {
    /// A field of the moving game: its index, and its bits' name.
    Field(usize, Ident),
    /// A name bound by `let`: its slot, and its bits' name.
    Let(VarId, Ident),
}

/// A stored field computed from a field's bits ([`Gen::bits_arg`]).
pub(super) struct BitsArg<'e> {
    /// The set whose bits are read.
    source: Source,
    /// Whether `T`'s cells are kept (`&`) or removed (`-`).
    keep: bool,
    /// `T`.
    operand: Operand<'e>,
    /// The board.
    board: Board,
    /// Whether the bits are 128 (`Bits`) rather than 64 (`Bits64`).
    wide: bool,
}

/// The bits of a function's complete table of cell sets on a board, one static shared by
/// every move that reads them (`CELL_BITS_<k>`).
pub(super) struct BitsTable {
    /// The function, the board and whether the words are 128 bits wide.
    key: (usize, Board, bool),
    /// The entries, in rank order.
    words: Vec<Literal>,
}

impl BitsTable {
    /// The name of the `k`th table.
    fn name(k: usize) -> Ident {
        quote::format_ident!("CELL_BITS_{k}")
    }

    /// The static of the `k`th table.
    pub(super) fn item(&self, k: usize) -> TokenStream {
        let (name, words, len) = (Self::name(k), &self.words, self.words.len());
        let entry = word_type(self.key.2);
        quote! {
            static #name: [#entry; #len] = [#(#words),*];
        }
    }
}

/// How the bits of `T` are found.
enum Operand<'e> {
    /// No `T`: the set itself.
    All,
    /// A constant set: its bits.
    Constant(u128),
    /// A call of a function whose table of cell sets is complete, at arguments that lie in
    /// it.
    Lookup { func: usize, args: &'e [IExpr] },
    /// Cells given one by one (a set written out, or the one of `- {x}`).
    Cells(Vec<&'e IExpr>),
}

impl<'e> Operand<'e> {
    /// Cells given one by one: their bits when every one is written as a constant (which
    /// cannot fail).
    fn cells(board: Board, cells: Vec<&'e IExpr>) -> Self {
        fn constant(e: &IExpr) -> Option<Val> {
            match e.kind() {
                IExprKind::Lit(v) => Some(v.clone()),
                IExprKind::Tuple(es) => {
                    Some(Val::Tuple(es.iter().map(constant).collect::<Option<_>>()?))
                }
                _ => None,
            }
        }
        match cells
            .iter()
            .map(|c| constant(c))
            .collect::<Option<Vec<Val>>>()
        {
            Some(values) => Operand::Constant(cell_bits(board, values.iter())),
            None => Operand::Cells(cells),
        }
    }
}

impl Gen<'_> {
    /// The form of `arg`, the value of field `field` of a position of game `target`, on the
    /// bits in scope; `None` where it has none.
    pub(super) fn bits_arg<'e>(
        &self,
        target: usize,
        field: usize,
        arg: &'e IExpr,
    ) -> Option<BitsArg<'e>> {
        let packing = &self.layout.games[target].fields[field];
        self.set_bits(Some(packing), arg, true)
    }

    /// The form of set `e`, stored as `packing`, on the bits in scope; `None` where it has
    /// none.
    pub(super) fn bits_of<'e>(&self, packing: &Packed, e: &'e IExpr) -> Option<BitsArg<'e>> {
        self.set_bits(Some(packing), e, false)
    }

    /// The form of set `e` on the bits of `scope`, packed as `packing` (or as its source
    /// is, with `None`); `None` where it has none. A field read alone is a form only with
    /// `bare_fields` (a position's field: its bits as they are).
    fn bits_form<'e>(
        &self,
        scope: &BitsScope,
        packing: Option<&Packed>,
        e: &'e IExpr,
        bare_fields: bool,
    ) -> Option<BitsArg<'e>> {
        // The set read, its board and width.
        let source_of = |e: &IExpr| {
            let IExprKind::Var(v) = e.kind() else {
                return None;
            };
            let i = v.slot.index();
            let (source, board, wide) = match scope.lets.get(&v.slot) {
                Some((bits, board, wide)) => (Source::Let(v.slot, bits.clone()), *board, *wide),
                None if scope.fields.contains(&i) => {
                    let Packed::Ranks(t, wide) = &self.layout.games[scope.from].fields[i] else {
                        return None;
                    };
                    let bits = self.names.games[scope.from].bits[i].clone();
                    (Source::Field(i, bits), t.board()?, *wide)
                }
                None => return None,
            };
            let fits = match packing {
                Some(Packed::Ranks(s, w)) => s.board() == Some(board) && *w == wide,
                Some(_) => false,
                None => true,
            };
            fits.then_some((source, board, wide))
        };
        let whole = |(source, board, wide)| BitsArg {
            source,
            keep: true,
            operand: Operand::All,
            board,
            wide,
        };
        let (op, lhs, rhs) = match e.kind() {
            IExprKind::Bin { op, lhs, rhs } => (op, lhs, rhs),
            IExprKind::Var(v) if bare_fields || scope.lets.contains_key(&v.slot) => {
                return source_of(e).map(whole);
            }
            _ => return None,
        };
        // The other operand (`&` either way round).
        let ((source, board, wide), other, keep) = match op {
            Op::SetInter => match source_of(lhs) {
                Some(f) => (f, &**rhs, true),
                None => (source_of(rhs)?, &**lhs, true),
            },
            Op::SetDiff => (source_of(lhs)?, &**rhs, false),
            Op::Remove => {
                let (source, board, wide) = source_of(lhs)?;
                let operand = Operand::cells(board, vec![&**rhs]);
                return Some(BitsArg {
                    source,
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
            IExprKind::Set(cells) => Operand::cells(board, cells.iter().collect()),
            IExprKind::Call {
                func,
                args,
                in_table: true,
                ..
            } if self.cell_table(*func).is_some() => Operand::Lookup { func: *func, args },
            _ => return None,
        };
        Some(BitsArg {
            source,
            keep,
            operand,
            board,
            wide,
        })
    }

    /// The form of set `e` on the bits in scope ([`Gen::move_bits`]), packed as `packing`
    /// (or as its source is, with `None`); `None` where it has none. A field read alone is
    /// a form only with `bare_fields`.
    fn set_bits<'e>(
        &self,
        packing: Option<&Packed>,
        e: &'e IExpr,
        bare_fields: bool,
    ) -> Option<BitsArg<'e>> {
        let scope = self.move_bits.borrow();
        self.bits_form(scope.as_ref()?, packing, e, bare_fields)
    }

    /// The loop over the cells of `dom`, a binder's domain, binding `pattern` to each in
    /// order, on the bits in scope (`None` where they do not serve). (Ranks run in the
    /// order of the cells: row by row.)
    pub(super) fn for_each_cell(
        &self,
        pattern: &TokenStream,
        dom: &IExpr,
        body: &TokenStream,
    ) -> Result<Option<TokenStream>, CodegenError> {
        let Some(b) = self.set_bits(None, dom, true) else {
            return Ok(None);
        };
        let set = self.bits_value(&b)?;
        let (r0, _, c0, cols) = b.board;
        Ok(Some(
            quote!(for #pattern in #set.cells(#r0, #c0, #cols) { #body }),
        ))
    }

    /// `cell in set` on the bits in scope (`None` where they do not serve). As `Domain::has`
    /// does, the set is evaluated first.
    pub(super) fn cell_in_bits(
        &self,
        cell: &IExpr,
        set: &IExpr,
    ) -> Result<Option<TokenStream>, CodegenError> {
        let Some(b) = self.set_bits(None, set, true) else {
            return Ok(None);
        };
        let (bits, x) = (self.bits_value(&b)?, self.value(cell)?);
        let (r0, rows, c0, cols) = b.board;
        Ok(Some(quote!(#bits.has_cell(#x, #r0, #rows, #c0, #cols))))
    }

    /// `let x = value;` with the bits of `value` bound beside it where they are at hand,
    /// and `body` made with them in scope: each bound only where `body` reads it (the value
    /// where neither is, for its errors), and the value made from the bits where both are.
    pub(super) fn let_with_bits(
        &self,
        var: &Var,
        value: &IExpr,
        body: &dyn Fn() -> Result<TokenStream, CodegenError>,
    ) -> Result<TokenStream, CodegenError> {
        let x = self.binder(var);
        let Some(b) = self.set_bits(None, value, false) else {
            let v = self.value(value)?;
            let body = body()?;
            return Ok(quote!({ let #x = #v; #body }));
        };
        let bits = self.names.let_bits(&var.name);
        let entry = (bits.clone(), b.board, b.wide);
        let (body, read_value, read_bits) =
            self.with_let_bits(var.slot, entry, || self.reads_of(var.slot, body));
        let body = body?;
        // The bits evaluate what the value does, in order and with the same errors: where
        // they are read, the value is theirs unpacked (the set lies on the board), and
        // where only they are, there is no value.
        let (r0, rows, c0, cols) = b.board;
        Ok(match (read_value, read_bits) {
            (_, false) => {
                let v = self.value(value)?;
                quote!({ let #x = #v; #body })
            }
            (false, true) => {
                let stored = self.bits_value(&b)?;
                quote!({ let #bits = #stored; #body })
            }
            (true, true) => {
                let stored = self.bits_value(&b)?;
                quote!({
                    let #bits = #stored;
                    let #x = #bits.unpack_cells(#r0, #rows, #c0, #cols);
                    #body
                })
            }
        })
    }

    /// Runs `body` with the bits of the set bound to `slot` in scope (`entry`: their name,
    /// board and width), as they were afterwards.
    fn with_let_bits<T>(
        &self,
        slot: VarId,
        entry: (Ident, Board, bool),
        body: impl FnOnce() -> T,
    ) -> T {
        let mut scope = self.move_bits.borrow_mut();
        let before = scope.as_mut().and_then(|s| s.lets.insert(slot, entry));
        drop(scope);
        let out = body();
        if let Some(s) = self.move_bits.borrow_mut().as_mut() {
            match before {
                Some(old) => s.lets.insert(slot, old),
                None => s.lets.remove(&slot),
            };
        }
        out
    }

    /// Runs `body` and tells whether it read `slot`'s value and its bits
    /// ([`Gen::move_reads`]); the record keeps what it held and gains what `body` read.
    /// (Bits are in scope only while a move is made, when reads are recorded; where they
    /// are not recorded, both count as read.)
    fn reads_of<T>(&self, slot: VarId, body: impl FnOnce() -> T) -> (T, bool, bool) {
        let take = |r: &mut MoveReads| (r.values.remove(&slot), r.let_bits.remove(&slot));
        let before = self.move_reads.borrow_mut().as_mut().map(take);
        let out = body();
        let mut reads = self.move_reads.borrow_mut();
        let (Some(r), Some((value_before, bits_before))) = (reads.as_mut(), before) else {
            return (out, true, true);
        };
        let read = (r.values.contains(&slot), r.let_bits.contains(&slot));
        if value_before {
            r.values.insert(slot);
        }
        if bits_before {
            r.let_bits.insert(slot);
        }
        (out, read.0, read.1)
    }

    /// The sets whose bits a move of game `gid` of `clauses` and `result` has at hand: the
    /// fields that every set it may take from them reads (more than it takes does no harm:
    /// a parameter is then unused).
    pub(super) fn bits_scope(&self, gid: usize, clauses: &[IClause], result: &IExpr) -> BitsScope {
        let game = &self.program.games[gid];
        let all = BitsScope {
            from: gid,
            fields: (0..game.fields.len()).collect(),
            lets: HashMap::new(),
        };
        let mut read = BTreeSet::new();
        for c in clauses {
            self.note_bits_read(&all, c.expr(), &mut read);
        }
        self.note_bits_read(&all, result, &mut read);
        BitsScope {
            from: gid,
            fields: read,
            lets: HashMap::new(),
        }
    }

    fn note_bits_read(&self, all: &BitsScope, e: &IExpr, read: &mut BTreeSet<usize>) {
        let mut note = |b: Option<BitsArg>| {
            if let Some(BitsArg {
                source: Source::Field(i, _),
                ..
            }) = b
            {
                read.insert(i);
            }
        };
        note(self.bits_form(all, None, e, false));
        if let IExprKind::Pos { game, args, .. } = e.kind() {
            if self.packs_directly(e) {
                for (i, a) in args.iter().enumerate() {
                    let packing = &self.layout.games[*game].fields[i];
                    note(self.bits_form(all, Some(packing), a, true));
                }
            }
        }
        e.for_each_child(&mut |c| self.note_bits_read(all, c, read));
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
    pub(super) fn bits_value(&self, b: &BitsArg) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let bits_ty = bits_type(b.wide);
        let word = |w: u128| word_literal(w, b.wide);
        let (r0, rows, c0, cols) = b.board;
        if let Some(reads) = self.move_reads.borrow_mut().as_mut() {
            match &b.source {
                Source::Field(i, _) => reads.field_bits.insert(*i),
                Source::Let(slot, _) => reads.let_bits.insert(*slot),
            };
        }
        let (Source::Field(_, bits) | Source::Let(_, bits)) = &b.source;
        let mask = match &b.operand {
            Operand::All => return Ok(quote!(#bits)),
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
                let table = self.bits_table(*func, b.board, b.wide, &values);
                let rank = self.rank(&FieldTy::Tuple(types), quote!(key));
                quote!({
                    let key = (#(#args,)*);
                    #table[(#rank) as usize]
                })
            }
        };
        Ok(match b.keep {
            true => quote!(#rt::native::#bits_ty(#bits.0 & #mask)),
            false => quote!(#rt::native::#bits_ty(#bits.0 & !#mask)),
        })
    }
}

impl Gen<'_> {
    /// The name of the static of `values`, function `func`'s table of cell sets, as bits
    /// on `board`: made on first use.
    fn bits_table(&self, func: usize, board: Board, wide: bool, values: &[Val]) -> Ident {
        let key = (func, board, wide);
        let mut tables = self.bits_tables.borrow_mut();
        if let Some(k) = tables.iter().position(|t| t.key == key) {
            return BitsTable::name(k);
        }
        let words = (values.iter())
            .map(|v| {
                let Val::Set(members) = v else {
                    unreachable!("a table of cell sets (`cell_table`)")
                };
                word_literal(cell_bits(board, members.iter()), wide)
            })
            .collect();
        tables.push(BitsTable { key, words });
        BitsTable::name(tables.len() - 1)
    }
}

/// The bits of the cells among `members` that lie on `board`.
fn cell_bits<'v>(board: (u32, u32, u32, u32), members: impl Iterator<Item = &'v Val>) -> u128 {
    members
        .filter_map(|m| board_rank(board, m))
        .fold(0, |w, rank| w | 1 << rank)
}
