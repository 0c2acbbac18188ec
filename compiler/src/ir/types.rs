//! Types and values: the checker's static types, the declared types of fields and tagged
//! unions, and the interpreter's run-time values.

use cgdl_runtime::native::INT_CODES;
use std::collections::BTreeSet;
use std::fmt;
use std::rc::Rc;

/// Writes `items` between `open` and `close`, separated by `, `.
pub fn write_list<T: fmt::Display>(
    out: &mut dyn fmt::Write,
    open: &str,
    items: impl Iterator<Item = T>,
    close: &str,
) -> fmt::Result {
    out.write_str(open)?;
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.write_str(", ")?;
        }
        write!(out, "{item}")?;
    }
    out.write_str(close)
}

/// A static type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// A natural number (non-negative integer).
    Nat,
    /// An integer.
    Int,
    /// `true` / `false`.
    Bool,
    /// A tuple.
    Tuple(Vec<Ty>),
    /// A finite set.
    Set(Box<Ty>),
    /// A list.
    List(Box<Ty>),
    /// A position expression (a game position, a sum, a compound, `end`).
    Game,
    /// A declared tagged union.
    Union(UnionRef),
    /// Unknown (after an error, or the element type of `{}`): matches anything.
    Any,
}

impl Ty {
    /// Whether a value of type `self` may stand where `want` is expected.
    pub fn fits(&self, want: &Ty) -> bool {
        match (self, want) {
            (Ty::Any, _) | (_, Ty::Any) => true,
            (Ty::Nat, Ty::Int) => true,
            (Ty::Tuple(a), Ty::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.fits(y))
            }
            (Ty::Set(a), Ty::Set(b)) | (Ty::List(a), Ty::List(b)) => a.fits(b),
            (a, b) => a == b,
        }
    }

    /// Whether this is or holds `_` (the type after an error, or of the elements of `{}`).
    pub fn has_any(&self) -> bool {
        match self {
            Ty::Any => true,
            Ty::Tuple(ts) => ts.iter().any(Ty::has_any),
            Ty::Set(t) | Ty::List(t) => t.has_any(),
            _ => false,
        }
    }

    /// Whether this is `nat` or `int`.
    pub fn is_int(&self) -> bool {
        matches!(self, Ty::Nat | Ty::Int | Ty::Any)
    }

    /// The least type both fit (for `if` branches and literals).
    pub fn join(&self, other: &Ty) -> Option<Ty> {
        match (self, other) {
            (Ty::Any, t) | (t, Ty::Any) => Some(t.clone()),
            (Ty::Nat, Ty::Int) | (Ty::Int, Ty::Nat) => Some(Ty::Int),
            (Ty::Set(a), Ty::Set(b)) => a.join(b).map(|t| Ty::Set(Box::new(t))),
            (Ty::List(a), Ty::List(b)) => a.join(b).map(|t| Ty::List(Box::new(t))),
            (Ty::Tuple(a), Ty::Tuple(b)) if a.len() == b.len() => a
                .iter()
                .zip(b)
                .map(|(x, y)| x.join(y))
                .collect::<Option<Vec<_>>>()
                .map(Ty::Tuple),
            (a, b) if a == b => Some(a.clone()),
            _ => None,
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Nat => f.write_str("nat"),
            Ty::Int => f.write_str("int"),
            Ty::Bool => f.write_str("bool"),
            Ty::Game => f.write_str("position"),
            Ty::Union(u) => f.write_str(&u.name),
            Ty::Any => f.write_str("_"),
            Ty::Set(t) => write!(f, "set<{t}>"),
            Ty::List(t) => write!(f, "list<{t}>"),
            Ty::Tuple(ts) => write_list(f, "(", ts.iter(), ")"),
        }
    }
}

/// A declared field type: what values a position may hold (checked on construction).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldTy {
    /// `nat`
    Nat,
    /// `int`
    Int,
    /// `bool`
    Bool,
    /// `lo..=hi` (inclusive bounds after normalisation).
    Range(i64, i64),
    /// A tuple of field types.
    Tuple(Vec<FieldTy>),
    /// `set<T>`
    Set(Box<FieldTy>),
    /// `list<T>`
    List(Box<FieldTy>),
    /// A declared tagged union (its payloads are checked when a value is built).
    Union(UnionRef),
}

/// A declared tagged union, by id into [`Program::types`](super::Program::types), with its name for messages.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnionRef {
    /// Index into [`Program::types`](super::Program::types).
    pub id: usize,
    /// The type's name.
    pub name: Rc<str>,
}

/// A tagged union: `type Line = H(0..=R, 0..C) | V(0..R, 0..=C)`.
#[derive(Clone, Debug)]
pub struct UnionType {
    /// Its name.
    pub name: String,
    /// Its variants, in declaration order (the order values sort in).
    pub variants: Vec<Variant>,
}

/// One variant of a tagged union.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The tag.
    pub name: Rc<str>,
    /// The payload's types.
    pub fields: Vec<FieldTy>,
}

/// A value of a tagged union: its type and variant (which order it), the payload, and the
/// tag's name for display.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tagged {
    /// The type's id.
    pub ty: usize,
    /// The variant's index.
    pub variant: usize,
    /// The payload.
    pub fields: Vec<Val>,
    /// The tag, as written.
    pub name: Rc<str>,
    /// The type's name (after the fields above, which order values).
    pub union: Rc<str>,
}

impl FieldTy {
    /// A pair of ranges within `0..16` (the cells of a board), as `(r0, rows, c0, cols)`:
    /// sets of such pairs keep the cells' codes `16 r + c` ([`cell_code`]).
    pub fn board(&self) -> Option<(u32, u32, u32, u32)> {
        let small = |t: &FieldTy| match *t {
            FieldTy::Range(lo, hi) if 0 <= lo && hi < INT_CODES as i64 => {
                Some((lo as u32, (hi - lo + 1) as u32))
            }
            _ => None,
        };
        match self {
            FieldTy::Tuple(ts) if ts.len() == 2 => {
                let ((r0, rows), (c0, cols)) = (small(&ts[0])?, small(&ts[1])?);
                Some((r0, rows, c0, cols))
            }
            _ => None,
        }
    }

    /// The static type of values of this field type.
    pub fn ty(&self) -> Ty {
        match self {
            FieldTy::Nat => Ty::Nat,
            FieldTy::Int => Ty::Int,
            FieldTy::Bool => Ty::Bool,
            FieldTy::Range(lo, _) => {
                if *lo >= 0 {
                    Ty::Nat
                } else {
                    Ty::Int
                }
            }
            FieldTy::Tuple(ts) => Ty::Tuple(ts.iter().map(FieldTy::ty).collect()),
            FieldTy::Set(t) => Ty::Set(Box::new(t.ty())),
            FieldTy::List(t) => Ty::List(Box::new(t.ty())),
            FieldTy::Union(u) => Ty::Union(u.clone()),
        }
    }

    /// Every value of this type, in order (the order of ranks), when it is finite and has
    /// at most `limit` values. `types` are the program's tagged unions.
    pub fn values(&self, types: &[UnionType], limit: usize) -> Option<Vec<Val>> {
        Some(match self {
            FieldTy::Bool => vec![Val::Bool(false), Val::Bool(true)],
            FieldTy::Range(lo, hi) => {
                if i128::from(*hi) - i128::from(*lo) >= limit as i128 {
                    return None;
                }
                (*lo..=*hi).map(Val::Int).collect()
            }
            FieldTy::Tuple(ts) => {
                let parts = (ts.iter())
                    .map(|t| t.values(types, limit))
                    .collect::<Option<Vec<_>>>()?;
                (choices(&parts, limit)?.into_iter())
                    .map(|vs| Val::Tuple(vs.into()))
                    .collect()
            }
            FieldTy::Union(u) => {
                let mut out = Vec::new();
                for (index, v) in types[u.id].variants.iter().enumerate() {
                    let parts = (v.fields.iter())
                        .map(|t| t.values(types, limit))
                        .collect::<Option<Vec<_>>>()?;
                    for payload in choices(&parts, limit)? {
                        out.push(Val::Tag(Rc::new(Tagged {
                            ty: u.id,
                            variant: index,
                            fields: payload,
                            name: v.name.clone(),
                            union: types[u.id].name.as_str().into(),
                        })));
                        if out.len() > limit {
                            return None;
                        }
                    }
                }
                out
            }
            _ => return None,
        })
    }

    /// Whether every value of this field type's static type ([`FieldTy::ty`]) is of this
    /// field type: no range to check (a `nat`, whose static type is `nat`, an `int`, a
    /// `bool`, a tagged union, and tuples, sets and lists of those).
    pub fn admits_its_static_type(&self) -> bool {
        match self {
            FieldTy::Nat | FieldTy::Int | FieldTy::Bool | FieldTy::Union(_) => true,
            FieldTy::Range(..) => false,
            FieldTy::Tuple(ts) => ts.iter().all(FieldTy::admits_its_static_type),
            FieldTy::Set(t) | FieldTy::List(t) => t.admits_its_static_type(),
        }
    }

    /// Whether `v` is a value of this type.
    pub fn admits(&self, v: &Val) -> bool {
        match (self, v) {
            (FieldTy::Nat, Val::Int(n)) => *n >= 0,
            (FieldTy::Int, Val::Int(_)) => true,
            (FieldTy::Bool, Val::Bool(_)) => true,
            (FieldTy::Range(lo, hi), Val::Int(n)) => lo <= n && n <= hi,
            (FieldTy::Tuple(ts), Val::Tuple(vs)) => {
                ts.len() == vs.len() && ts.iter().zip(vs.iter()).all(|(t, v)| t.admits(v))
            }
            (FieldTy::Set(t), Val::Set(vs)) => vs.iter().all(|v| t.admits(v)),
            (FieldTy::List(t), Val::List(vs)) => vs.iter().all(|v| t.admits(v)),
            (FieldTy::Union(u), Val::Tag(t)) => t.ty == u.id,
            _ => false,
        }
    }
}

impl fmt::Display for FieldTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldTy::Nat => f.write_str("nat"),
            FieldTy::Int => f.write_str("int"),
            FieldTy::Bool => f.write_str("bool"),
            FieldTy::Range(lo, hi) => write!(f, "{lo}..={hi}"),
            FieldTy::Set(t) => write!(f, "set<{t}>"),
            FieldTy::List(t) => write!(f, "list<{t}>"),
            FieldTy::Union(u) => f.write_str(&u.name),
            FieldTy::Tuple(ts) => write_list(f, "(", ts.iter(), ")"),
        }
    }
}

/// Every combination of one value from each list, in lexicographic order, unless there are
/// more than `limit`.
pub(crate) fn choices(parts: &[Vec<Val>], limit: usize) -> Option<Vec<Vec<Val>>> {
    let count = (parts.iter()).try_fold(1usize, |n, p| n.checked_mul(p.len()))?;
    if count > limit {
        return None;
    }
    let mut out: Vec<Vec<Val>> = vec![Vec::new()];
    for part in parts {
        out = (out.into_iter())
            .flat_map(|prefix| {
                part.iter().map(move |v| {
                    let mut next = prefix.clone();
                    next.push(v.clone());
                    next
                })
            })
            .collect();
    }
    Some(out)
}

/// A run-time value of the interpreter.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Val {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A tuple.
    Tuple(Rc<[Val]>),
    /// A finite set.
    Set(Rc<BTreeSet<Val>>),
    /// A list.
    List(Rc<Vec<Val>>),
    /// An integer range `lo..=hi` (empty when `hi < lo`), as produced by `..` and `..=`;
    /// both ends are included so that a range may reach `i64::MAX`.
    Range(i64, i64),
    /// A position expression over interned positions.
    Game(Rc<cgdl_runtime::Expr<u32>>),
    /// A value of a tagged union.
    Tag(Rc<Tagged>),
}

impl Val {
    /// The empty range.
    pub const EMPTY_RANGE: Val = Val::Range(0, -1);

    /// The value with ranges turned into sets (how it is stored and compared).
    pub fn normalize(self) -> Val {
        match self {
            Val::Range(lo, hi) => Val::Set(Rc::new((lo..=hi).map(Val::Int).collect())),
            Val::Tuple(vs) => Val::Tuple(vs.iter().cloned().map(Val::normalize).collect()),
            Val::Tag(t)
                if t.fields
                    .iter()
                    .any(|v| matches!(v, Val::Range(..) | Val::Tuple(_))) =>
            {
                let mut t = (*t).clone();
                t.fields = t.fields.into_iter().map(Val::normalize).collect();
                Val::Tag(Rc::new(t))
            }
            other => other,
        }
    }
}

impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::Bool(b) => write!(f, "{b}"),
            Val::Int(n) => write!(f, "{n}"),
            Val::Range(lo, hi) => write!(f, "{lo}..={hi}"),
            Val::Tuple(vs) => write_list(f, "(", vs.iter(), ")"),
            Val::Set(vs) => write_list(f, "{", vs.iter(), "}"),
            Val::List(vs) => write_list(f, "[", vs.iter(), "]"),
            Val::Game(_) => f.write_str("<position>"),
            Val::Tag(t) => {
                f.write_str(&t.name)?;
                if t.fields.is_empty() {
                    return Ok(());
                }
                write_list(f, "(", t.fields.iter(), ")")
            }
        }
    }
}

/// The elements whose parts a division finds on bits ([`crate::ir::PartsKind::Sum`]): a
/// board's cells, row by row ([`FieldTy::board`]), or the numbers of a range, from its
/// least; at most 128 of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranked {
    /// The cells of a board `(r0, rows, c0, cols)`.
    Board((u32, u32, u32, u32)),
    /// The numbers `lo..=hi`.
    Range(i64, i64),
}

impl Ranked {
    /// The elements of a type that are ranked so: a board's cells, or a range's numbers, at
    /// most 128 of them.
    pub fn of(t: &FieldTy) -> Option<Ranked> {
        let ranked = match (t, t.board()) {
            (_, Some(board)) => Ranked::Board(board),
            (FieldTy::Range(lo, hi), None) => Ranked::Range(*lo, *hi),
            _ => return None,
        };
        (ranked.count() <= 128).then_some(ranked)
    }

    /// How many elements there are.
    pub fn count(&self) -> usize {
        match *self {
            Ranked::Board((_, rows, _, cols)) => (rows * cols) as usize,
            Ranked::Range(lo, hi) => (hi - lo + 1).max(0) as usize,
        }
    }

    /// The rank of `v`, when it is one of the elements.
    pub fn rank(&self, v: &Val) -> Option<usize> {
        match (*self, v) {
            (Ranked::Board(board), _) => board_rank(board, v),
            (Ranked::Range(lo, hi), Val::Int(x)) => {
                (lo..=hi).contains(x).then(|| (x - lo) as usize)
            }
            _ => None,
        }
    }
}

/// The rank of cell `v` on `board` (`(r0, rows, c0, cols)`, [`FieldTy::board`]), row by
/// row, when it lies on it.
pub fn board_rank((r0, rows, c0, cols): (u32, u32, u32, u32), v: &Val) -> Option<usize> {
    let Val::Tuple(p) = v else { return None };
    let [Val::Int(r), Val::Int(c)] = p.as_ref() else {
        return None;
    };
    let (r, c) = (r - i64::from(r0), c - i64::from(c0));
    ((0..i64::from(rows)).contains(&r) && (0..i64::from(cols)).contains(&c))
        .then(|| (r * i64::from(cols) + c) as usize)
}

/// The code the runtime gives a pair of numbers in `0..16` in a set of board cells (`16 a +
/// b`), as an index of its code words.
pub fn cell_code(v: &Val) -> Option<usize> {
    let Val::Tuple(parts) = v else {
        return None;
    };
    let part = |p: &Val| match p {
        Val::Int(i) if (0..INT_CODES as i64).contains(i) => Some(*i as usize),
        _ => None,
    };
    match &parts[..] {
        [a, b] => Some(part(a)? * INT_CODES as usize + part(b)?),
        _ => None,
    }
}
