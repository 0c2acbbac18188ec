//! The checker: AST → IR. Resolves names, checks arity, types and ranges, folds constants,
//! enforces clause scoping (no shadowing), finite domains and non-recursive `fn`s, and
//! validates queries. Every error in a file is reported, not only the first.
//!
//! By job: this module holds the checker's state and its pass over the file's items;
//! `decls` checks declarations (types, constants, fields), `rules` games, moves and
//! functions, `expr` expressions, `operators` operators, calls and built-ins, and
//! `queries` queries.

mod decls;
mod expr;
mod operators;
mod queries;
mod rules;

use crate::ast::{self, BinOp, ClosureKind, ExprKind, QuantKind, QueryKind, Span, UnOp};
use crate::codes::ErrorCode;
use crate::diagnostics::Diagnostic;
use crate::interp::eval_const;
use crate::ir::*;
use cgdl_runtime::{Compound, ValueKind};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// Checks a parsed file, then computes each costly common subexpression once
/// ([`crate::ir::share`]): the program both back ends run.
pub fn check(file: &ast::File, source: &str) -> Result<Program, Vec<Diagnostic>> {
    let mut program = check_as_written(file, source)?;
    crate::opt::optimize(&mut program, source);
    Ok(program)
}

/// Checks a parsed file: the program as written, before [`crate::ir::share`] (for tests
/// that compare the two).
pub fn check_as_written(file: &ast::File, source: &str) -> Result<Program, Vec<Diagnostic>> {
    let mut c = Checker {
        source,
        diags: Vec::new(),
        consts: HashMap::new(),
        game_ids: HashMap::new(),
        fn_ids: HashMap::new(),
        fn_sigs: Vec::new(),
        program: Program::default(),
        current_fn: None,
        calls: Vec::new(),
        in_const: false,
        declared: std::collections::HashSet::new(),
        type_ids: HashMap::new(),
        aliases: HashMap::new(),
        variants: HashMap::new(),
    };
    c.run(file);
    if c.diags.is_empty() {
        Ok(c.program)
    } else {
        Err(c.diags)
    }
}

/// Parses and checks source text.
pub fn compile_str(source: &str) -> Result<Program, Vec<Diagnostic>> {
    let file = crate::parser::parse_file(source).map_err(|d| vec![d])?;
    check(&file, source)
}

/// A checked `pattern in domain`: the names bound to each element (one, or a tuple's
/// parts), the domain, and the `let`s that take nested tuples apart.
struct Bound {
    vars: Vec<Var>,
    domain: IExpr,
    lets: Vec<(Var, IExpr)>,
}

struct FnSig {
    params: Vec<Ty>,
    ret: Ty,
}

/// The names visible at a point of one body (a game, a function, a query), and every name
/// the body has bound so far: each binding gets its own slot, never reused, so a slot names
/// one binding of its body (the passes compare names by slot, and shapes up to the slots of
/// the names bound inside them).
struct Scope {
    names: Vec<(String, VarId, Ty)>,
    locals: Locals,
}

impl Scope {
    fn new() -> Scope {
        Scope {
            names: Vec::new(),
            locals: Locals::default(),
        }
    }

    fn lookup(&self, name: &str) -> Option<Var> {
        self.names
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|(n, slot, ty)| Var {
                slot: *slot,
                name: n.as_str().into(),
                ty: ty.clone(),
            })
    }

    fn push(&mut self, name: &str, ty: Ty) -> Var {
        let var = self.locals.bind(name.into(), ty.clone());
        self.names.push((name.to_string(), var.slot, ty));
        var
    }

    /// Every name the body has bound, by slot (the scope's end).
    fn into_locals(self) -> Locals {
        self.locals
    }

    fn mark(&self) -> usize {
        self.names.len()
    }

    /// Leaves a scope: its names are no longer visible (their slots stay theirs).
    fn reset(&mut self, mark: usize) {
        self.names.truncate(mark);
    }
}

struct Checker<'a> {
    source: &'a str,
    diags: Vec<Diagnostic>,
    consts: HashMap<String, (Val, Ty, Span)>,
    game_ids: HashMap<String, usize>,
    fn_ids: HashMap<String, usize>,
    fn_sigs: Vec<FnSig>,
    program: Program,
    current_fn: Option<usize>,
    /// Calls made by each fn body: (callee, call span).
    calls: Vec<Vec<(usize, Span)>>,
    in_const: bool,
    /// Names of every game and fn in the file (known before their signatures are).
    declared: std::collections::HashSet<String>,
    /// Tagged unions by name.
    type_ids: HashMap<String, usize>,
    /// Other names for types (`type Cell = (0..R, 0..C)`), by name.
    aliases: HashMap<String, FieldTy>,
    /// Every variant of every tagged union, by tag.
    variants: HashMap<String, Rc<VariantRef>>,
}

/// The most values a tagged union may have to be used as a domain.
const MAX_TYPE_VALUES: usize = 1 << 20;

const COMPOUNDS: [&str; 6] = [
    "sum",
    "union",
    "selective",
    "conjunctive",
    "continued",
    "wtia",
];
const BUILTINS: [&str; 4] = ["min", "max", "abs", "len"];

/// Levenshtein distance, for "did you mean" hints.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

fn suggest<'n>(name: &str, candidates: impl Iterator<Item = &'n str>) -> Option<String> {
    candidates
        .map(|c| (distance(name, c), c))
        .filter(|(d, c)| *d <= 2 && *d < c.len().max(2))
        .min()
        .map(|(_, c)| format!("did you mean `{c}`?"))
}

impl<'a> Checker<'a> {
    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn text(&self, span: Span) -> &str {
        self.source.get(span.start..span.end).unwrap_or("")
    }

    /// Whether `e` may make a position of a partizan game (directly, or through a
    /// function).
    fn mentions_partizan(&self, e: &IExpr) -> bool {
        let mut found = false;
        let mut seen_fns = std::collections::HashSet::new();
        let mut todo = vec![e];
        while let Some(e) = todo.pop() {
            match e.kind() {
                IExprKind::Pos { game, .. } if self.program.games[*game].partizan => found = true,
                IExprKind::Call { func, .. } if seen_fns.insert(*func) => {
                    todo.push(&self.program.fns[*func].body)
                }
                _ => {}
            }
            e.for_each_child(&mut |c| todo.push(c));
        }
        found
    }

    fn run(&mut self, file: &ast::File) {
        for item in &file.items {
            match item {
                ast::Item::Game(g) => self.declared.insert(g.name.name.clone()),
                ast::Item::Fn(f) => self.declared.insert(f.name.name.clone()),
                _ => false,
            };
        }
        // Pass 0: constants and types, in order (each may use those before it).
        for item in &file.items {
            match item {
                ast::Item::Const(name, e) => self.constant(name, e),
                ast::Item::Type(t) => self.type_decl(t),
                _ => {}
            }
        }
        // Pass 1: signatures of games and functions.
        let mut seen: HashMap<String, Span> = self
            .consts
            .iter()
            .map(|(n, (_, _, s))| (n.clone(), *s))
            .collect();
        for t in &file.items {
            if let ast::Item::Type(t) = t {
                seen.entry(t.name.name.clone()).or_insert(t.name.span);
                for v in &t.variants {
                    seen.entry(v.name.name.clone()).or_insert(v.name.span);
                }
            }
        }
        let mut game_decls = Vec::new();
        let mut fn_decls = Vec::new();
        for item in &file.items {
            let name = match item {
                ast::Item::Game(g) => &g.name,
                ast::Item::Fn(f) => &f.name,
                _ => continue,
            };
            if let Some(first) = seen.get(&name.name) {
                let (line, _) = crate::diagnostics::line_col(self.source, first.start);
                self.duplicate(
                    name,
                    format!("the first definition is on line {line}; rename one"),
                );
                continue;
            }
            seen.insert(name.name.clone(), name.span);
            match item {
                ast::Item::Game(g) => {
                    let fields = self.game_fields(g);
                    self.game_ids
                        .insert(g.name.name.clone(), self.program.games.len());
                    let partizan = matches!(&g.body, ast::GameBody::Rules { moves, .. }
                        if moves.iter().any(|m| m.side != ast::MoveSide::Both));
                    self.program.games.push(Game {
                        name: g.name.name.clone(),
                        fields,
                        locals: Locals::default(),
                        kind: GameKind::Rules(Vec::new()),
                        partizan,
                        symmetries: Vec::new(),
                        heap_code: None,
                        found: None,
                        held_by_found: Vec::new(),
                        symmetry_tables: None,
                        translation: None,
                        domains: Vec::new(),
                        end_probe: None,
                        open_moves: None,
                        kernel_moves: None,
                        draw: None,
                        split: false,
                        complement_of: None,
                    });
                    game_decls.push(g);
                }
                ast::Item::Fn(f) => {
                    let param_tys: Vec<FieldTy> =
                        f.params.iter().map(|p| self.field_ty(&p.ty)).collect();
                    let ret_ty = self.field_ty(&f.ret);
                    let params = param_tys.iter().map(FieldTy::ty).collect();
                    let ret = ret_ty.ty();
                    self.fn_ids.insert(f.name.name.clone(), self.fn_sigs.len());
                    self.fn_sigs.push(FnSig { params, ret });
                    self.program.fns.push(Function {
                        name: f.name.name.clone(),
                        params: (f.params.iter().map(|p| p.name.name.as_str().into()))
                            .zip(param_tys)
                            .collect(),
                        ret: ret_ty,
                        locals: Locals::default(),
                        body: IExpr::from(IExprKind::Lit(Val::Int(0))),
                        table: None,
                    });
                    self.calls.push(Vec::new());
                    fn_decls.push(f);
                }
                _ => {}
            }
        }
        // Pass 2: bodies.
        for (id, f) in fn_decls.iter().enumerate() {
            self.fn_body(id, f);
        }
        self.check_recursion();
        for (id, g) in game_decls.iter().enumerate() {
            self.game_body(id, g);
        }
        for item in &file.items {
            if let ast::Item::Query(q) = item {
                self.query(q);
            }
        }
    }
}
