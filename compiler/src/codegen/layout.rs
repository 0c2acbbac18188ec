//! How positions are stored, decided once per file: each field's packing in `Pos`, the
//! mixed-radix digits of bounded games, and the dense index and memo key built on them.

use super::{int, unsupported, CodegenError, Gen};
use crate::ir::*;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote, ToTokens as _};
use std::rc::Rc;

/// Bounded games whose positions number at most this get a dense index (and all of the
/// file's bounded games together stay under it).
pub(super) const BOUNDED_LIMIT: u128 = 1 << 28;

/// How a field is stored in `Pos`.
#[derive(Clone, Debug)]
pub(super) enum Packed {
    /// As its value type.
    Plain,
    /// A `set<lo..hi>` packed into `Bits64` (at most 64 values) or `Bits` (at most 128),
    /// with `lo`, and whether it needs 128 bits.
    Bits(i64, bool),
    /// A range stored in a narrower integer type (`u8` for `0..=200`), widened to `i64`
    /// when read.
    Narrow(Ident),
    /// A `set<T>` of a finite type of at most 128 values (a tagged union, a tuple such as a
    /// board cell), packed into `Bits64` or `Bits` by the values' ranks: the element type,
    /// and whether it needs 128 bits.
    Ranks(FieldTy, bool),
    /// A `set<T>` of a type of too many values to rank, whose elements the domains pass
    /// found among few values ([`Game::domains`]): packed into `Bits64` or `Bits` by their
    /// indices in that list (each element checked when packed), and whether it needs 128
    /// bits.
    Domain(Rc<[Val]>, bool),
    /// A `list<T>` interned: stored as a `ListId` into the field's `ListInterner`.
    List,
}

/// The storage of one game.
pub(super) struct GameLayout {
    /// Each field's packing.
    pub fields: Vec<Packed>,
    /// The game's shape for dense indexing and the Grundy kernel.
    pub shape: Shape,
}

/// Which positions of a game index densely.
pub(super) enum Shape {
    /// One `nat` field: heap `n` has index `n`.
    Heap,
    /// Every field a range or `bool`, at most [`BOUNDED_LIMIT`] positions: the mixed-radix
    /// index of [`Digits`].
    Bounded(Digits),
    /// Anything else.
    Other,
}

/// The storage of every game of a file.
pub(super) struct Layout {
    /// Games by id.
    pub games: Vec<GameLayout>,
}

impl Layout {
    /// Decides the storage of `program`'s games, or names the field native code cannot
    /// store.
    pub fn new(program: &Program) -> Result<Layout, CodegenError> {
        let games = (program.games.iter())
            .map(|game| {
                let fields = (game.fields.iter().enumerate())
                    .map(|(i, f)| match game.domains.get(i).cloned().flatten() {
                        Some(domain) if domain_packs(program, &f.ty) => {
                            let wide = domain.len() > 64;
                            Ok(Packed::Domain(domain, wide))
                        }
                        _ => packing(program, game, &f.ty),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let shape = if matches!(game.fields.as_slice(), [f] if f.ty == FieldTy::Nat) {
                    Shape::Heap
                } else {
                    match Digits::of(game) {
                        Some(d) if d.size < BOUNDED_LIMIT && !game.fields.is_empty() => {
                            Shape::Bounded(d)
                        }
                        _ => Shape::Other,
                    }
                };
                Ok(GameLayout { fields, shape })
            })
            .collect::<Result<Vec<_>, CodegenError>>()?;
        Ok(Layout { games })
    }
}

/// Whether a tagged union's payloads are plain values (numbers, bools, tuples and such
/// unions): then its Rust enum is `Copy` and may be a field of a position.
pub(super) fn union_plain(program: &Program, id: usize) -> bool {
    fn plain(program: &Program, t: &FieldTy, depth: usize) -> bool {
        match t {
            FieldTy::Set(_) | FieldTy::List(_) => false,
            FieldTy::Tuple(ts) => ts.iter().all(|t| plain(program, t, depth)),
            FieldTy::Union(u) => {
                depth < 64
                    && (program.types[u.id].variants.iter())
                        .all(|v| v.fields.iter().all(|t| plain(program, t, depth + 1)))
            }
            _ => true,
        }
    }
    (program.types[id].variants.iter()).all(|v| v.fields.iter().all(|t| plain(program, t, 0)))
}

/// The number of 64-bit words of a set of the tagged union `id` when its sets are bits of
/// its values' ranks (the runtime's `BitStore`: a plain union of at most `MAX_CODES`
/// values), else `None` (its sets are sorted vectors).
pub(super) fn bit_words(program: &Program, id: usize) -> Option<usize> {
    let whole = FieldTy::Union(UnionRef {
        id,
        name: program.types[id].name.as_str().into(),
    });
    let n = count_values(program, &whole)?;
    (n <= u128::from(cgdl_runtime::native::MAX_CODES) && union_plain(program, id))
        .then(|| n.div_ceil(64).max(1) as usize)
}

/// Whether values of type `t` are `Copy` in generated code.
pub(super) fn is_copy(program: &Program, t: &Ty) -> bool {
    match t {
        Ty::Nat | Ty::Int | Ty::Bool => true,
        Ty::Tuple(ts) => ts.iter().all(|t| is_copy(program, t)),
        Ty::Union(u) => union_plain(program, u.id),
        Ty::Set(_) | Ty::List(_) | Ty::Game | Ty::Any => false,
    }
}

fn packing(program: &Program, game: &Game, t: &FieldTy) -> Result<Packed, CodegenError> {
    match t {
        FieldTy::Set(inner) => match &**inner {
            FieldTy::Range(lo, hi) if hi - lo < 128 => Ok(Packed::Bits(*lo, hi - lo >= 64)),
            t if finite_plain(program, t) => match count_values(program, t) {
                Some(n) if n <= 128 => Ok(Packed::Ranks(t.clone(), n > 64)),
                _ => Err(set_field(game)),
            },
            _ => Err(set_field(game)),
        },
        FieldTy::Union(u) if !union_plain(program, u.id) => Err(unsupported(format!(
            "sets or lists inside the variants of `{}` (a field of `{}`)",
            u.name, game.name
        ))),
        FieldTy::List(inner) => match packing(program, game, inner)? {
            Packed::Plain | Packed::Narrow(_) => Ok(Packed::List),
            _ => Err(unsupported(format!(
                "sets or lists inside list fields (in `{}`)",
                game.name
            ))),
        },
        FieldTy::Tuple(ts) => {
            for t in ts {
                if !matches!(
                    packing(program, game, t)?,
                    Packed::Plain | Packed::Narrow(_)
                ) {
                    return Err(unsupported(format!(
                        "sets or lists inside tuple fields (in `{}`)",
                        game.name
                    )));
                }
            }
            Ok(Packed::Plain)
        }
        FieldTy::Range(lo, hi) => Ok(narrow_int(*lo, *hi).map_or(Packed::Plain, Packed::Narrow)),
        _ => Ok(Packed::Plain),
    }
}

/// Whether a set of type `t` is packed by its domain where it has one (the domains pass
/// finds them for types too large to rank): its elements are plain values, compared in a
/// `match`.
fn domain_packs(program: &Program, t: &FieldTy) -> bool {
    fn plain(program: &Program, t: &FieldTy) -> bool {
        match t {
            FieldTy::Nat | FieldTy::Int | FieldTy::Range(..) | FieldTy::Bool => true,
            FieldTy::Union(u) => union_plain(program, u.id),
            FieldTy::Tuple(ts) => ts.iter().all(|t| plain(program, t)),
            FieldTy::Set(_) | FieldTy::List(_) => false,
        }
    }
    matches!(t, FieldTy::Set(inner) if plain(program, inner))
}

/// Whether `t` is a range, `bool`, a plain tagged union or a tuple of those.
fn finite_plain(program: &Program, t: &FieldTy) -> bool {
    match t {
        FieldTy::Range(..) | FieldTy::Bool => true,
        FieldTy::Union(u) => union_plain(program, u.id),
        FieldTy::Tuple(ts) => ts.iter().all(|t| finite_plain(program, t)),
        _ => false,
    }
}

fn set_field(game: &Game) -> CodegenError {
    unsupported(format!(
        "the set field of `{}` (a set field is packed when its elements are a range or a \
         finite type of at most 128 values, or when its moves take them from at most 128 \
         values)",
        game.name
    ))
}

/// The narrowest integer type holding every value of `lo..=hi`, when narrower than `i64`.
fn narrow_int(lo: i64, hi: i64) -> Option<Ident> {
    const TYPES: [(&str, i64, i64); 6] = [
        ("u8", 0, u8::MAX as i64),
        ("i8", i8::MIN as i64, i8::MAX as i64),
        ("u16", 0, u16::MAX as i64),
        ("i16", i16::MIN as i64, i16::MAX as i64),
        ("u32", 0, u32::MAX as i64),
        ("i32", i32::MIN as i64, i32::MAX as i64),
    ];
    TYPES
        .iter()
        .find(|&&(_, min, max)| min <= lo && hi <= max)
        .map(|&(name, _, _)| format_ident!("{}", name))
}

/// The runtime's packed-set type: `Bits` (128 values) when `wide`, else `Bits64`.
pub(super) fn bits_type(wide: bool) -> Ident {
    format_ident!("{}", if wide { "Bits" } else { "Bits64" })
}

/// The machine word of a packed set or key: `u128` when `wide`, else `u64`.
pub(super) fn word_type(wide: bool) -> Ident {
    format_ident!("{}", if wide { "u128" } else { "u64" })
}

/// `w` as a literal of [`word_type`] (`w` fits it where not `wide`).
pub(super) fn word_literal(w: u128, wide: bool) -> Literal {
    match wide {
        true => Literal::u128_suffixed(w),
        false => Literal::u64_suffixed(w as u64),
    }
}

/// How many values a finite type has (`None` for an infinite or unpackable one).
pub(super) fn count_values(program: &Program, t: &FieldTy) -> Option<u128> {
    match t {
        FieldTy::Range(lo, hi) => Some((hi - lo) as u128 + 1),
        FieldTy::Bool => Some(2),
        FieldTy::Tuple(ts) => ts
            .iter()
            .try_fold(1u128, |n, t| n.checked_mul(count_values(program, t)?)),
        FieldTy::Union(u) => program.types[u.id].variants.iter().try_fold(0u128, |n, v| {
            let size = v
                .fields
                .iter()
                .try_fold(1u128, |m, t| m.checked_mul(count_values(program, t)?))?;
            n.checked_add(size)
        }),
        _ => None,
    }
}

/// How native code prints a game's [`Digits`]: its rows, indices, range checks and
/// decoding.
pub(super) trait DigitsCode {
    /// The positions that share the value of the last field (its place value): a row of
    /// the board the positions make; 0 with fewer than two fields (no rows).
    fn row(&self) -> usize;
    /// The index (a `usize` expression) of the fields' values `values` (`i64` or `bool`
    /// expressions), which must be in range.
    fn index(&self, values: impl Iterator<Item = TokenStream>) -> TokenStream;
    /// Whether the named values are in their fields' ranges.
    fn in_range(&self, names: &[Ident]) -> TokenStream;
    /// Statements binding `fields` to the values of the position with index `cur`.
    fn decode(&self, fields: &[Ident]) -> TokenStream;
}

impl DigitsCode for Digits {
    fn row(&self) -> usize {
        match self.fields.len() {
            0 | 1 => 0,
            _ => self.places().last().map_or(0, |(_, scale)| scale as usize),
        }
    }

    fn index(&self, values: impl Iterator<Item = TokenStream>) -> TokenStream {
        let terms: Vec<TokenStream> = (self.places().zip(values))
            .map(|((f, scale), v)| {
                let digit = match f {
                    Some((0, _)) | None => quote!(#v as usize),
                    Some((lo, _)) => {
                        let lo = int(*lo);
                        quote!((#v - #lo) as usize)
                    }
                };
                if scale == 1 {
                    digit
                } else {
                    let scale = Literal::usize_unsuffixed(scale as usize);
                    quote!((#digit) * #scale)
                }
            })
            .collect();
        if terms.is_empty() {
            quote!(0usize)
        } else {
            quote!(#(#terms)+*)
        }
    }

    fn in_range(&self, names: &[Ident]) -> TokenStream {
        let checks: Vec<TokenStream> = (self.fields.iter().zip(names))
            .filter_map(|(f, a)| {
                let (lo, hi) = (*f)?;
                let (lo, hi) = (int(lo), int(hi));
                Some(quote!((#lo..=#hi).contains(&#a)))
            })
            .collect();
        if checks.is_empty() {
            quote!(true)
        } else {
            quote!(#(#checks)&&*)
        }
    }

    fn decode(&self, fields: &[Ident]) -> TokenStream {
        let lets = self.places().zip(fields).map(|((f, scale), s)| {
            let digit = if scale == 1 {
                quote!(cur)
            } else {
                let scale = Literal::usize_unsuffixed(scale as usize);
                quote!(cur / #scale)
            };
            match f {
                Some((lo, _)) => {
                    let radix = Literal::usize_unsuffixed(Digits::radix(f) as usize);
                    let value = quote!((#digit % #radix) as i64);
                    if *lo == 0 {
                        quote!(let #s: i64 = #value;)
                    } else {
                        let lo = int(*lo);
                        quote!(let #s: i64 = #lo + #value;)
                    }
                }
                None => quote!(let #s: bool = #digit % 2 == 1;),
            }
        });
        quote!(#(#lets)*)
    }
}

impl Gen<'_> {
    /// The Rust type a field is stored as in `Pos`.
    pub(super) fn stored_ty(&self, t: &FieldTy, packing: &Packed) -> TokenStream {
        let rt = &self.rt;
        match packing {
            Packed::Bits(_, wide) | Packed::Ranks(_, wide) | Packed::Domain(_, wide) => {
                let bits = bits_type(*wide);
                quote!(#rt::native::#bits)
            }
            Packed::Narrow(ty) => quote!(#ty),
            Packed::List => quote!(#rt::native::ListId),
            Packed::Plain => self.value_ty(t),
        }
    }

    /// The value of field `field` of game `gid`, stored in `stored`.
    pub(super) fn unpack(&self, gid: usize, field: usize, stored: &Ident) -> TokenStream {
        match &self.layout.games[gid].fields[field] {
            Packed::Bits(lo, _) => {
                let lo = int(*lo);
                quote!(#stored.unpack(#lo))
            }
            Packed::Narrow(_) => quote!(#stored as i64),
            Packed::Ranks(t, _) => match (t, t.board()) {
                (FieldTy::Union(u), _) => {
                    let ty = &self.names.unions[u.id].ty;
                    let words = bit_words(self.program, u.id).unwrap_or(1);
                    let words = Literal::usize_unsuffixed(words);
                    quote!(#stored.unpack_codes::<#ty, #words>())
                }
                (_, Some((r0, rows, c0, cols))) => {
                    quote!(#stored.unpack_cells(#r0, #rows, #c0, #cols))
                }
                _ => {
                    let value = self.unrank(t, quote!(r));
                    quote!(#stored.unpack_by(|r| #value))
                }
            },
            Packed::Domain(..) => {
                let (table, _) = &self.names.games[gid].domains[field];
                quote!(#stored.unpack_by(|r| #table[r as usize]))
            }
            Packed::List => {
                let lists = &self.names.games[gid].lists[field];
                quote!(#lists.get(#stored))
            }
            Packed::Plain => quote!(#stored),
        }
    }

    /// The stored form of `value`, a value of field `field` of game `gid` (the inverse of
    /// `unpack`). A list is interned, and a set packed by its domain checked, which needs
    /// `at` in scope and may return an error.
    pub(super) fn pack(&self, gid: usize, field: usize, value: TokenStream) -> TokenStream {
        let rt = &self.rt;
        match &self.layout.games[gid].fields[field] {
            Packed::Domain(_, wide) => {
                let bits = bits_type(*wide);
                let (_, index) = &self.names.games[gid].domains[field];
                let game = &self.program.games[gid];
                let (name, field) = (
                    Literal::string(&game.name),
                    Literal::string(&game.fields[field].name),
                );
                quote!(match #rt::native::#bits::pack_within(&#value, #index) {
                    ::std::result::Result::Ok(bits) => bits,
                    ::std::result::Result::Err(x) => {
                        return ::std::result::Result::Err(
                            #rt::native::domain_error(#field, #name, &x, at));
                    }
                })
            }
            Packed::Bits(lo, wide) => {
                let (lo, bits) = (int(*lo), bits_type(*wide));
                quote!(#rt::native::#bits::pack(&#value, #lo))
            }
            Packed::Narrow(ty) => quote!(#value as #ty),
            Packed::Ranks(t, wide) => {
                let bits = bits_type(*wide);
                match (t, t.board()) {
                    (FieldTy::Union(_), _) => quote!(#rt::native::#bits::pack_codes(&#value)),
                    (_, Some((r0, rows, c0, cols))) => {
                        quote!(#rt::native::#bits::pack_cells(&#value, #r0, #rows, #c0, #cols))
                    }
                    _ => {
                        let rank = self.rank(t, quote!(x));
                        quote!(#rt::native::#bits::pack_by(&#value, |&x| #rank))
                    }
                }
            }
            Packed::List => {
                let lists = &self.names.games[gid].lists[field];
                quote!(#lists.intern(&#value, at)?)
            }
            Packed::Plain => value,
        }
    }

    /// `dense_index`: bounded games (every field a range or `bool`) get a mixed-radix index
    /// in `0..B`; games with one `nat` field (heaps) interleave above it, `B + n * K + j`
    /// for the `j`-th of `K` such games; other games use the hash map.
    pub(super) fn dense_index(&self) -> Option<TokenStream> {
        let heap_games: Vec<usize> = (0..self.program.games.len())
            .filter(|&g| matches!(self.layout.games[g].shape, Shape::Heap))
            .collect();
        let mut arms = Vec::new();
        let mut offset: u128 = 0;
        let mut others = Vec::new();
        let mut heaps = Vec::new();
        for (gid, game) in self.program.games.iter().enumerate() {
            let any = self.any_pos(gid, game);
            let fields = self.field_names(game);
            let pattern = self.pos_pattern(gid, &fields);
            match &self.layout.games[gid].shape {
                Shape::Bounded(digits) if offset + digits.size < BOUNDED_LIMIT => {
                    let values = fields
                        .iter()
                        .enumerate()
                        .map(|(i, f)| self.unpack(gid, i, f));
                    let index = digits.index(values);
                    let index = if offset == 0 {
                        index
                    } else {
                        let off = Literal::usize_unsuffixed(offset as usize);
                        quote!(#off + #index)
                    };
                    arms.push(quote!(#pattern => ::std::option::Option::Some(#index),));
                    offset += digits.size;
                }
                Shape::Heap => {
                    let k = Literal::usize_unsuffixed(heap_games.len());
                    let j = heap_games.iter().position(|&g| g == gid).unwrap_or(0);
                    let n = &fields[0];
                    heaps.push((pattern, k, j, n.clone()));
                }
                _ => others.push(quote!(#any => ::std::option::Option::None,)),
            }
        }
        // Heaps start past every bounded game's index.
        for (pattern, k, j, n) in heaps {
            let base = Literal::usize_unsuffixed(offset as usize + j);
            arms.push(quote!(#pattern => usize::try_from(#n)
                .ok()
                .and_then(|n| n.checked_mul(#k))
                .and_then(|n| n.checked_add(#base)),));
        }
        (!arms.is_empty()).then(|| quote!(match pos { #(#arms)* #(#others)* }))
    }

    /// `key`: a game whose fields all have finitely many values (ranges, `bool`s, finite
    /// tuples and unions, sets of at most 64 values) packs into a mixed-radix number, offset
    /// past the earlier such games, while all of them together stay below `u64::MAX` (the
    /// runtime's key table keeps that value for empty entries). Other games have no key.
    pub(super) fn key_fn(&self) -> Option<TokenStream> {
        self.keys(false)
    }

    /// `wide_key`: the same packing into 128 bits (below `u128::MAX`) for the games without
    /// a `key` (a set of up to 127 cells), or `None` when no game has one.
    pub(super) fn wide_key_fn(&self) -> Option<TokenStream> {
        self.keys(true)
    }

    /// Each game's key fields and offset where `key` packs it (`wide`: `wide_key`, over the
    /// games without a `key`): the games in order, each while its keys fit after the earlier
    /// ones' below the word's largest value.
    fn key_plan(&self, wide: bool) -> Vec<Option<(Vec<KeyField>, u128)>> {
        let narrow = if wide {
            self.key_plan(false)
        } else {
            Vec::new()
        };
        let max = if wide { u128::MAX } else { u64::MAX as u128 };
        let mut offset: u128 = 0;
        (self.program.games.iter().enumerate())
            .map(|(gid, game)| {
                if narrow.get(gid).is_some_and(Option::is_some) {
                    return None;
                }
                let fields = self.key_fields(gid, game, wide)?;
                let size = (fields.iter()).try_fold(1u128, |size, f| size.checked_mul(f.radix))?;
                let end = offset.checked_add(size).filter(|&end| end <= max)?;
                Some((fields, std::mem::replace(&mut offset, end)))
            })
            .collect()
    }

    /// The body of `key` (`wide`: of `wide_key`), or `None` when it packs no game.
    fn keys(&self, wide: bool) -> Option<TokenStream> {
        let plan = self.key_plan(wide);
        if plan.iter().all(Option::is_none) {
            return None;
        }
        let arms = (self.program.games.iter().enumerate().zip(plan)).map(|((gid, game), keyed)| {
            let Some((fields, offset)) = keyed else {
                let any = self.any_pos(gid, game);
                return quote!(#any => ::std::option::Option::None,);
            };
            let mut parts = key_terms(&fields, wide);
            if offset > 0 || parts.is_empty() {
                let offset = word_literal(offset, wide);
                parts.insert(0, offset.into_token_stream());
            }
            let pattern = self.pos_pattern(gid, &self.field_names(game));
            quote!(#pattern => ::std::option::Option::Some(#(#parts)+*),)
        });
        Some(quote!(match pos { #(#arms)* }))
    }

    /// The key fields of a game that has a key (`wide`: a wide key), in order, or `None`.
    fn key_fields(&self, gid: usize, game: &Game, wide: bool) -> Option<Vec<KeyField>> {
        let rt = &self.rt;
        let (word, max_set) = (word_type(wide), if wide { 127 } else { 64 });
        let max = if wide { u128::MAX } else { u64::MAX as u128 };
        let mut fields = Vec::new();
        let mut scale: u128 = 1;
        let names = self.field_names(game);
        for (i, f) in game.fields.iter().enumerate() {
            let s = &names[i];
            // A `Bits64` or `Bits` holds its set as the bits of a `u64` or `u128`.
            let set_digit = |n: usize, stored_wide: bool| {
                let bits = bits_type(stored_wide);
                let (digit, stored) = match (stored_wide, wide) {
                    (false, true) => (
                        quote!(u128::from(#s.0)),
                        quote!(#rt::native::#bits(d as u64)),
                    ),
                    (false, false) => (quote!(#s.0), quote!(#rt::native::#bits(d as u64))),
                    (true, _) => (quote!(#s.0), quote!(#rt::native::#bits(d))),
                };
                (n <= max_set).then_some((digit, 1u128 << n, stored))
            };
            let (digit, radix, decode) = match (&self.layout.games[gid].fields[i], &f.ty) {
                (Packed::Bits(_, w) | Packed::Ranks(_, w), FieldTy::Set(inner)) => set_digit(
                    usize::try_from(count_values(self.program, inner)?).ok()?,
                    *w,
                )?,
                (Packed::Domain(values, w), _) => set_digit(values.len(), *w)?,
                (packing @ (Packed::Plain | Packed::Narrow(_)), t) => {
                    match count_values(self.program, t) {
                        Some(n) if n <= u32::MAX as u128 => {
                            let rank = self.rank(t, self.unpack(gid, i, s));
                            let value = self.unrank(t, quote!(d as u32));
                            let stored = match packing {
                                Packed::Narrow(ty) => quote!((#value) as #ty),
                                _ => value,
                            };
                            (quote!((#rank) as #word), n, stored)
                        }
                        _ => return None,
                    }
                }
                _ => return None,
            };
            fields.push(KeyField {
                digit,
                place: scale,
                radix,
                decode,
            });
            scale = match scale.checked_mul(radix) {
                Some(next) if next <= max => next,
                _ => return None,
            };
        }
        Some(fields)
    }

    /// `position_of_code`: the inverse of the runtime's default `Rules::code` over the keys
    /// `key` and `wide_key` pack (a key below 2^64; a wide key below 2^127 with bit 127
    /// set), or `None` when no game has a key.
    pub(super) fn position_of_code_fn(&self) -> Option<TokenStream> {
        let mut branches = Vec::new();
        for wide in [false, true] {
            let plan = self.key_plan(wide);
            let arms = (self.program.games.iter().enumerate().zip(plan)).filter_map(
                |((gid, game), keyed)| {
                    let (fields, offset) = keyed?;
                    let size: u128 = fields.iter().map(|f| f.radix).product();
                    let (offset, end) = (
                        Literal::u128_suffixed(offset),
                        Literal::u128_suffixed(offset + size),
                    );
                    let names = self.field_names(game);
                    // The digits from the least significant; the last is what is left.
                    let last = fields.len().saturating_sub(1);
                    let decoded = fields.iter().zip(&names).enumerate().map(|(i, (f, name))| {
                        let decode = &f.decode;
                        let radix = Literal::u128_suffixed(f.radix);
                        let digit = match i == last {
                            true => quote!(let d = rest;),
                            false => quote!(let d = rest % #radix; rest /= #radix;),
                        };
                        quote!(#digit let #name = #decode;)
                    });
                    let rest = match fields.len() {
                        0 => quote!(),
                        1 => quote!(let rest = key - #offset;),
                        _ => quote!(let mut rest = key - #offset;),
                    };
                    let pos = self.pos_pattern(gid, &names);
                    Some(quote! {
                        if (#offset..#end).contains(&key) {
                            #rest
                            #(#decoded)*
                            return ::std::option::Option::Some(#pos);
                        }
                    })
                },
            );
            let arms: Vec<TokenStream> = arms.collect();
            if arms.is_empty() {
                continue;
            }
            branches.push(match wide {
                false => quote! {
                    if code >> 64 == 0 {
                        let key = code;
                        #(#arms)*
                    }
                },
                true => quote! {
                    if code >> 127 == 1 {
                        let key = code & !(1u128 << 127);
                        #(#arms)*
                    }
                },
            });
        }
        (!branches.is_empty()).then(|| {
            quote! {
                #[allow(clippy::identity_op, clippy::modulo_one)]
                fn position_of_code(&self, code: u128) -> ::std::option::Option<Pos> {
                    #(#branches)*
                    ::std::option::Option::None
                }
            }
        })
    }

    /// `measures`: each game's set fields' sizes and number fields' values, one slot each
    /// (another game's slots 0), for a tiered solve's rank; `None` when no game has one.
    pub(super) fn measures_fn(&self) -> Option<TokenStream> {
        let mut slot = 0usize;
        let mut arms = Vec::new();
        for (gid, game) in self.program.games.iter().enumerate() {
            let names = self.field_names(game);
            let mut writes = Vec::new();
            for (i, f) in game.fields.iter().enumerate() {
                let s = &names[i];
                let measure = match (&self.layout.games[gid].fields[i], &f.ty) {
                    (Packed::Bits(..) | Packed::Ranks(..) | Packed::Domain(..), _) => {
                        quote!(#s.0.count_ones() as i64)
                    }
                    (Packed::Narrow(_), _) => quote!(#s as i64),
                    (Packed::Plain, FieldTy::Range(..) | FieldTy::Nat | FieldTy::Int) => {
                        quote!(#s as i64)
                    }
                    _ => continue,
                };
                let at = Literal::usize_unsuffixed(slot);
                writes.push(quote!(out[#at] = #measure;));
                slot += 1;
            }
            if !writes.is_empty() {
                let pattern = self.pos_pattern(gid, &names);
                arms.push(quote!(#pattern => { #(#writes)* }));
            }
        }
        (slot > 0).then(|| {
            let n = Literal::usize_unsuffixed(slot);
            let rest = (arms.len() < self.program.games.len()).then(|| quote!(_ => {}));
            quote! {
                #[allow(unused_variables, clippy::unnecessary_cast, clippy::single_match)]
                fn measures(&self, pos: Pos, out: &mut ::std::vec::Vec<i64>) {
                    out.clear();
                    out.resize(#n, 0);
                    match pos {
                        #(#arms)*
                        #rest
                    }
                }
            }
        })
    }
}

/// One field of a keyed game: its digit (a `u64` expression, `u128` in a wide key), the
/// digit's place value and radix, and the stored field from digit `d` (a `u128`).
pub(super) struct KeyField {
    digit: TokenStream,
    place: u128,
    radix: u128,
    decode: TokenStream,
}

/// The terms of a key: each field's digit times its place value.
fn key_terms(fields: &[KeyField], wide: bool) -> Vec<TokenStream> {
    (fields.iter())
        .map(|f| {
            let digit = &f.digit;
            if f.place == 1 {
                digit.clone()
            } else {
                let place = word_literal(f.place, wide);
                quote!((#digit) * #place)
            }
        })
        .collect()
}
