//! Rust names for everything the generated module declares or binds, chosen once per file:
//! the user's own names wherever Rust allows them, and never two things under one name.

use crate::ir::*;
use proc_macro2::Ident;
use quote::format_ident;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Names that a game's or a type's Rust name may not take: what the generated module
/// declares itself (`Pos`, `Universe`, the `T` of its generic impls), primitive types, and
/// the prelude's traits and types that the generated code names unqualified.
const RESERVED_TYPE_NAMES: &[&str] = &[
    "Pos",
    "Universe",
    "T",
    "Self",
    "self",
    "super",
    "crate",
    "bool",
    "char",
    "str",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "f32",
    "f64",
    "Fn",
    "FnMut",
    "FnOnce",
    "Copy",
    "Clone",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "Drop",
    "Iterator",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "Extend",
    "FromIterator",
    "Default",
    "Eq",
    "PartialEq",
    "Ord",
    "PartialOrd",
    "Hash",
    "Debug",
    "From",
    "Into",
    "TryFrom",
    "TryInto",
    "AsRef",
    "AsMut",
    "ToOwned",
    "ToString",
    "Option",
    "Result",
    "Some",
    "None",
    "Ok",
    "Err",
    "Vec",
    "String",
    "Box",
];

/// The names generated code binds itself, in scopes where the user's names are visible
/// too (so a user name equal to one of them is renamed), and the lower-case items of the
/// module besides the ones [`Names`] registers.
pub(super) const GENERATED_NAMES: &[&str] = &[
    // Parameters and locals of generated functions.
    "at",
    "out",
    "side",
    "pos",
    "this",
    "known",
    "budget",
    "tables",
    "g",
    "cur",
    "target",
    "seen",
    "low",
    "mark",
    "step",
    "value",
    "found",
    "set",
    "best",
    "work",
    "list",
    "dom",
    "rank",
    "looked_for",
    "grid_rows",
    "grid_cols",
    "grid_row",
    "grid_cells",
    "grid_cols_of",
    "grid_columns",
    "grid_col",
    "grid_row_value",
    "columns",
    "first_row",
    // The index of a declared symmetry.
    "map_index",
    // Items.
    "solver",
    "plan",
    "plans",
    "show_pos",
    "position_from_datum",
    "fields",
    "payload",
];

/// Rust's keywords, strict and reserved (none may name a local or a function).
const KEYWORDS: &[&str] = &[
    "as",
    "async",
    "await",
    "break",
    "const",
    "continue",
    "crate",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "Self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "gen",
    "macro",
    "override",
    "priv",
    "try",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    "union",
    "macro_rules",
    "raw",
    "safe",
];

/// The Rust name of a game's typed API or of a tagged union: its own name, with `_`
/// appended when Rust or the module reserves it. A name that is a reserved one followed by
/// underscores gets one more, so no two names meet (`Fn` → `Fn_`, `Fn_` → `Fn__`).
pub(super) fn rust_type_name(name: &str) -> Ident {
    let base = name.trim_end_matches('_');
    let reserved = base.is_empty()
        || RESERVED_TYPE_NAMES.contains(&base)
        || syn::parse_str::<Ident>(base).is_err();
    if reserved {
        format_ident!("{}_", name)
    } else {
        format_ident!("{}", name)
    }
}

/// The typed API's own methods, which no field accessor may shadow.
const API_METHODS: &[&str] = &["new", "try_new", "pos", "from_pos", "clone", "fmt", "add"];

/// The accessor method for a field, unless its name is a Rust keyword or one of the
/// typed API's own methods.
pub(super) fn accessor_name(field: &str) -> Option<Ident> {
    if API_METHODS.contains(&field) || ["Self", "self", "super", "crate"].contains(&field) {
        return None;
    }
    syn::parse_str::<Ident>(field).ok()
}

/// The Rust name of an enum variant (of `Pos` or of a tagged union): its tag, with `_`
/// appended when Rust reserves it (the rule of [`rust_type_name`], so no two meet).
pub(super) fn variant_ident(tag: &str) -> Ident {
    let base = tag.trim_end_matches('_');
    if base.is_empty()
        || ["Self", "self", "super", "crate"].contains(&base)
        || syn::parse_str::<Ident>(base).is_err()
    {
        format_ident!("{}_", tag)
    } else {
        format_ident!("{}", tag)
    }
}

/// `KingsHorses` → `kings_horses`: a lower-case form for function names.
fn snake(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        }
    }
    // A name no one can write (a nested pattern's text, `(r1,c1)`) keeps its letters.
    let out: String = out
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("_");
    let trimmed = out.trim_matches('_');
    if trimmed.is_empty() {
        "v".to_string()
    } else {
        trimmed.to_string()
    }
}

/// Whether `name` may stand verbatim as a Rust local or function name: a lower-case
/// identifier that is no keyword.
fn plain(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && !KEYWORDS.contains(&name)
        && syn::parse_str::<Ident>(name).is_ok()
}

/// The generated names of one game's functions.
pub(super) struct GameNames {
    /// The variant of `Pos`.
    pub variant: Ident,
    /// The typed API's struct.
    pub ty: Ident,
    /// `make_<game>`: builds a position, checking its fields.
    pub make: Ident,
    /// `<game>_options`.
    pub options: Ident,
    /// `<game>_<move>`, one per move rule.
    pub moves: Vec<Ident>,
    /// `<game>_options_open`: the options of a position that has no move to `end` (the
    /// runtime's `Rules::options_open`).
    pub options_open: Ident,
    /// `<game>_<move>_open`, one per move rule, for `options_open`.
    pub moves_open: Vec<Ident>,
    /// `<game>_ends_now`: whether a position has a move to `end` (the runtime's
    /// `Rules::ends_now`).
    pub ends: Ident,
    /// `<game>_grundy_kernel`.
    pub kernel: Ident,
    /// `<GAME>_CELLS`: the kernel's cells (the runtime's `DenseCells`).
    pub cells: Ident,
    /// `<game>_symmetry`: the image of a position under symmetry `k`.
    pub symmetry: Ident,
    /// `LISTS_<game>_<field>`: the interner of each list field (by field index).
    pub lists: Vec<Ident>,
    /// `DOMAIN_<game>_<field>` and `domain_<game>_<field>`: the values of each set field
    /// packed by its domain, and the index of a value among them (by field index).
    pub domains: Vec<(Ident, Ident)>,
    /// `<field>_bits`: a board field's stored bits, beside its value, in a move that
    /// reads them (`packed_sets.rs`), by field index.
    pub bits: Vec<Ident>,
}

/// The generated names of one tagged union.
pub(super) struct UnionNames {
    /// The enum.
    pub ty: Ident,
    /// Each variant's Rust name.
    pub variants: Vec<Ident>,
    /// `make_<type>_<variant>`: builds a value, checking its payload.
    pub makers: Vec<Ident>,
}

/// Every name of the generated module, chosen once.
pub(super) struct Names {
    /// Games by id.
    pub games: Vec<GameNames>,
    /// Tagged unions by id.
    pub unions: Vec<UnionNames>,
    /// Helper functions by id.
    pub fns: Vec<Ident>,
    /// The body of each helper function that has a table, by id: called on a miss.
    pub fn_bodies: Vec<Ident>,
    /// The lookup of each helper function whose table is complete, by id: for arguments
    /// known to lie in the table.
    pub fn_tables: Vec<Ident>,
    /// Each local name of the file (fields, binders, parameters) and its Rust name.
    locals: HashMap<Rc<str>, Ident>,
    /// Each local's bits where a `let` binds it to a set with bits (`packed_sets.rs`).
    let_bits: HashMap<Rc<str>, Ident>,
}

/// Lower-case names already given out: a new one takes `base`, or `base_2`, `base_3`, ...
struct Taken(HashSet<String>);

impl Taken {
    fn claim(&mut self, base: &str) -> Ident {
        let mut name = base.to_string();
        let mut k = 2;
        while self.0.contains(&name) {
            name = format!("{base}_{k}");
            k += 1;
        }
        self.0.insert(name.clone());
        format_ident!("{}", name)
    }
}

impl Names {
    /// Chooses the names of `program`'s module.
    pub fn new(program: &Program) -> Names {
        let mut taken = Taken(GENERATED_NAMES.iter().map(|s| s.to_string()).collect());
        taken.0.extend(KEYWORDS.iter().map(|s| s.to_string()));
        // The user's functions first: they keep their names where Rust allows.
        let fns = (program.fns.iter())
            .map(|f| {
                let base = if plain(&f.name) {
                    f.name.clone()
                } else {
                    format!("{}_fn", snake(&f.name))
                };
                taken.claim(&base)
            })
            .collect::<Vec<Ident>>();
        let fn_bodies = (fns.iter())
            .map(|f| taken.claim(&format!("{f}_body")))
            .collect();
        let fn_tables = (fns.iter())
            .map(|f| taken.claim(&format!("{f}_table")))
            .collect();
        // Locals keep their names unless an item or a generated name has it; renamed ones
        // get a suffix that no kept name has.
        let mut all_locals: Vec<Rc<str>> = Vec::new();
        collect_locals(program, &mut all_locals);
        all_locals.sort();
        all_locals.dedup();
        let mut locals = HashMap::new();
        let kept: Vec<&Rc<str>> = (all_locals.iter())
            .filter(|n| plain(n) && !taken.0.contains(&***n))
            .collect();
        for n in &kept {
            locals.insert((*n).clone(), taken.claim(n));
        }
        let games = (program.games.iter())
            .map(|g| {
                let s = snake(&g.name);
                GameNames {
                    variant: variant_ident(&g.name),
                    ty: rust_type_name(&g.name),
                    make: taken.claim(&format!("make_{s}")),
                    options: taken.claim(&format!("{s}_options")),
                    moves: match &g.kind {
                        GameKind::Rules(moves) => (moves.iter())
                            .map(|m| taken.claim(&format!("{s}_{}", snake(&m.name))))
                            .collect(),
                        _ => Vec::new(),
                    },
                    options_open: taken.claim(&format!("{s}_options_open")),
                    moves_open: match &g.kind {
                        GameKind::Rules(moves) => (moves.iter())
                            .map(|m| taken.claim(&format!("{s}_{}_open", snake(&m.name))))
                            .collect(),
                        _ => Vec::new(),
                    },
                    ends: taken.claim(&format!("{s}_ends_now")),
                    kernel: taken.claim(&format!("{s}_grundy_kernel")),
                    cells: taken.claim(&format!("{}_CELLS", s.to_ascii_uppercase())),
                    symmetry: taken.claim(&format!("{s}_symmetry")),
                    lists: (0..g.fields.len())
                        .map(|i| taken.claim(&format!("LISTS_{}_{i}", s.to_ascii_uppercase())))
                        .collect(),
                    domains: (0..g.fields.len())
                        .map(|i| {
                            let values = format!("DOMAIN_{}_{i}", s.to_ascii_uppercase());
                            (
                                taken.claim(&values),
                                taken.claim(&format!("domain_{s}_{i}")),
                            )
                        })
                        .collect(),
                    bits: (g.fields.iter())
                        .map(|f| taken.claim(&format!("{}_bits", snake(&f.name))))
                        .collect(),
                }
            })
            .collect();
        let unions = (program.types.iter())
            .map(|t| {
                let s = snake(&t.name);
                UnionNames {
                    ty: rust_type_name(&t.name),
                    variants: t.variants.iter().map(|v| variant_ident(&v.name)).collect(),
                    makers: (t.variants.iter())
                        .map(|v| taken.claim(&format!("make_{s}_{}", snake(&v.name))))
                        .collect(),
                }
            })
            .collect();
        for n in &all_locals {
            if !locals.contains_key(n) {
                let ident = taken.claim(&format!("{}_", snake(n)));
                locals.insert(n.clone(), ident);
            }
        }
        // Last, so that no name above changes: the bits beside each local a `let` may
        // bind (`packed_sets.rs`).
        let let_bits = (all_locals.iter())
            .map(|n| (n.clone(), taken.claim(&format!("{}_bits", snake(n)))))
            .collect();
        Names {
            games,
            unions,
            fns,
            fn_bodies,
            fn_tables,
            locals,
            let_bits,
        }
    }

    /// The name of the bits beside local `name` where a `let` binds it to a set with bits.
    pub fn let_bits(&self, name: &str) -> Ident {
        match self.let_bits.get(name) {
            Some(ident) => ident.clone(),
            None => unreachable!("local `{name}` was not collected"),
        }
    }

    /// The Rust name of a local.
    pub fn local(&self, name: &str) -> Ident {
        match self.locals.get(name) {
            Some(ident) => ident.clone(),
            None => unreachable!("local `{name}` was not collected"),
        }
    }
}

/// Every local name of the program: fields, parameters, binders, `let`s, arm payloads.
fn collect_locals(program: &Program, out: &mut Vec<Rc<str>>) {
    for g in &program.games {
        out.extend(g.fields.iter().map(|f| Rc::from(f.name.as_str())));
        if let GameKind::Rules(moves) = &g.kind {
            for m in moves {
                m.for_each_var(&mut |v| out.push(v.name.clone()));
            }
        }
        for s in &g.symmetries {
            s.result.for_each_var(&mut |v| out.push(v.name.clone()));
        }
    }
    for f in &program.fns {
        out.extend(f.params.iter().map(|(n, _)| n.clone()));
        f.body.for_each_var(&mut |v| out.push(v.name.clone()));
    }
    for q in &program.queries {
        for (var, dom) in &q.binders {
            out.push(var.name.clone());
            dom.for_each_var(&mut |v| out.push(v.name.clone()));
        }
        q.target.for_each_var(&mut |v| out.push(v.name.clone()));
    }
}

/// `#[allow(non_camel_case_types)]` when a type or variant name is not in upper camel case
/// (a game named `g`, a type `Self_`): the user's names stand.
pub(super) fn camel_case_allowance<'i>(
    idents: impl IntoIterator<Item = &'i Ident>,
) -> Option<proc_macro2::TokenStream> {
    let camel = |i: &Ident| {
        let s = i.to_string();
        s.starts_with(|c: char| c.is_ascii_uppercase()) && !s.contains('_')
    };
    let all = idents.into_iter().all(camel);
    (!all).then(|| quote::quote!(#[allow(non_camel_case_types)]))
}
