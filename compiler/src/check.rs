//! The checker: AST → IR. Resolves names, checks arity, types and ranges, folds constants,
//! enforces clause scoping (no shadowing), finite domains and non-recursive `fn`s, and
//! validates queries. Every error in a file is reported, not only the first.

use crate::ast::{self, BinOp, ExprKind, QuantKind, QueryKind, Span, UnOp};
use crate::diagnostics::Diagnostic;
use crate::interp::eval_const;
use crate::ir::*;
use cgdl_runtime::{Compound, ValueKind};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// Checks a parsed file.
pub fn check(file: &ast::File, source: &str) -> Result<Program, Vec<Diagnostic>> {
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

struct FnSig {
    params: Vec<Ty>,
    ret: Ty,
}

struct Scope {
    names: Vec<(String, usize, Ty)>,
    next: usize,
    max: usize,
}

impl Scope {
    fn new() -> Scope {
        Scope {
            names: Vec::new(),
            next: 0,
            max: 0,
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
        let slot = self.next;
        self.next += 1;
        self.max = self.max.max(self.next);
        self.names.push((name.to_string(), slot, ty.clone()));
        Var {
            slot,
            name: name.into(),
            ty,
        }
    }

    fn mark(&self) -> (usize, usize) {
        (self.names.len(), self.next)
    }

    fn reset(&mut self, mark: (usize, usize)) {
        self.names.truncate(mark.0);
        self.next = mark.1;
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
                    self.program.games.push(Game {
                        name: g.name.name.clone(),
                        fields,
                        frame: 0,
                        kind: GameKind::Rules(Vec::new()),
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
                        frame: 0,
                        body: IExpr::Lit(Val::Int(0)),
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

    /// Whether a name is taken by a game, a function, a constant, a type or a variant.
    fn taken(&self, name: &str) -> bool {
        self.consts.contains_key(name)
            || self.declared.contains(name)
            || self.type_ids.contains_key(name)
            || self.variants.contains_key(name)
    }

    /// E0104: `name` is defined again.
    fn duplicate(&mut self, name: &ast::Ident, help: impl Into<String>) {
        self.error(
            Diagnostic::new(
                "E0104",
                format!("`{}` is defined more than once", name.name),
                name.span,
            )
            .label("defined again here")
            .help(help),
        );
    }

    /// `type Name = Tag(T, ...) | ...`: payload types may use earlier constants and types.
    fn type_decl(&mut self, t: &ast::TypeDecl) {
        const SHARED: &str =
            "games, functions, constants, types and variants share one namespace; rename one";
        if self.taken(&t.name.name) {
            self.duplicate(&t.name, SHARED);
            return;
        }
        let id = self.program.types.len();
        let uref = UnionRef {
            id,
            name: t.name.name.as_str().into(),
        };
        let mut variants = Vec::new();
        for (index, v) in t.variants.iter().enumerate() {
            let fields: Vec<FieldTy> = v.fields.iter().map(|f| self.field_ty(f)).collect();
            let name: Rc<str> = v.name.name.as_str().into();
            if self.taken(&v.name.name)
                || v.name.name == t.name.name
                || variants.iter().any(|w: &Variant| *w.name == *name)
            {
                self.duplicate(&v.name, SHARED);
                continue;
            }
            self.variants.insert(
                v.name.name.clone(),
                Rc::new(VariantRef {
                    ty: uref.clone(),
                    variant: index,
                    name: name.clone(),
                    fields: fields.clone(),
                }),
            );
            variants.push(Variant { name, fields });
        }
        self.type_ids.insert(t.name.name.clone(), id);
        self.program.types.push(UnionType {
            name: t.name.name.clone(),
            variants,
        });
    }

    /// Every value of a field type, in order, when it is finite and has at most
    /// `MAX_TYPE_VALUES` values.
    fn all_values(&self, t: &FieldTy) -> Option<Vec<Val>> {
        Some(match t {
            FieldTy::Bool => vec![Val::Bool(false), Val::Bool(true)],
            FieldTy::Range(lo, hi) => {
                if (hi - lo) as u128 >= MAX_TYPE_VALUES as u128 {
                    return None;
                }
                (*lo..=*hi).map(Val::Int).collect()
            }
            FieldTy::Tuple(ts) => {
                let parts = ts
                    .iter()
                    .map(|t| self.all_values(t))
                    .collect::<Option<Vec<_>>>()?;
                product(&parts)?
                    .into_iter()
                    .map(|vs| Val::Tuple(vs.into()))
                    .collect()
            }
            FieldTy::Union(u) => {
                let ty = &self.program.types[u.id];
                let mut out = Vec::new();
                for (index, v) in ty.variants.iter().enumerate() {
                    let parts = v
                        .fields
                        .iter()
                        .map(|t| self.all_values(t))
                        .collect::<Option<Vec<_>>>()?;
                    for payload in product(&parts)? {
                        out.push(Val::Tag(Rc::new(Tagged {
                            ty: u.id,
                            variant: index,
                            fields: payload,
                            name: v.name.clone(),
                        })));
                        if out.len() > MAX_TYPE_VALUES {
                            return None;
                        }
                    }
                }
                out
            }
            _ => return None,
        })
    }

    /// A tagged union's name as a value: the set of all its values.
    fn type_as_set(&mut self, name: &str, id: usize, span: Span) -> (IExpr, Ty) {
        let uref = UnionRef {
            id,
            name: name.into(),
        };
        match self.all_values(&FieldTy::Union(uref.clone())) {
            Some(vals) => (
                IExpr::Lit(Val::Set(Rc::new(vals.into_iter().collect()))),
                Ty::Set(Box::new(Ty::Union(uref))),
            ),
            None => {
                self.error(
                    Diagnostic::new(
                        "E0301",
                        format!(
                            "type `{name}` is infinite or too large (over {MAX_TYPE_VALUES} values) to be a domain"
                        ),
                        span,
                    )
                    .label("not a finite domain")
                    .help("a type is a domain when every payload is a range, a bool, a tuple of those or such a type"),
                );
                (IExpr::Lit(Val::EMPTY_RANGE), Ty::Any)
            }
        }
    }

    fn constant(&mut self, name: &ast::Ident, e: &ast::Expr) {
        if self.consts.contains_key(&name.name)
            || self.type_ids.contains_key(&name.name)
            || self.variants.contains_key(&name.name)
        {
            self.duplicate(name, "rename one of the constants");
            return;
        }
        self.in_const = true;
        let mut scope = Scope::new();
        let errors_before = self.diags.len();
        let (ir, ty) = self.expr(e, &mut scope);
        self.in_const = false;
        if self.diags.len() > errors_before {
            self.consts
                .insert(name.name.clone(), (Val::Int(0), Ty::Any, name.span));
            return;
        }
        match eval_const(&ir) {
            Ok(v) => {
                self.consts.insert(name.name.clone(), (v, ty, name.span));
            }
            Err(err) => {
                self.error(
                    Diagnostic::new(
                        "E0501",
                        format!("cannot evaluate constant `{}`: {}", name.name, err.message),
                        err.span.unwrap_or(e.span),
                    )
                    .help("a constant must evaluate without errors when the file is checked"),
                );
                self.consts
                    .insert(name.name.clone(), (Val::Int(0), Ty::Any, name.span));
            }
        }
    }

    /// Evaluates a constant integer expression (type bounds, subtraction sets).
    fn const_int(&mut self, e: &ast::Expr) -> Option<i64> {
        self.in_const = true;
        let mut scope = Scope::new();
        let errors_before = self.diags.len();
        let (ir, ty) = self.expr(e, &mut scope);
        self.in_const = false;
        if self.diags.len() > errors_before {
            return None;
        }
        if !ty.is_int() {
            self.error(
                Diagnostic::new("E0202", format!("expected a number, found {ty}"), e.span)
                    .help("bounds and subtraction sets are constant numbers"),
            );
            return None;
        }
        match eval_const(&ir) {
            Ok(Val::Int(n)) => Some(n),
            Ok(_) => None,
            Err(err) => {
                self.error(
                    Diagnostic::new(
                        "E0501",
                        format!("cannot evaluate constant: {}", err.message),
                        err.span.unwrap_or(e.span),
                    )
                    .help("bounds must evaluate without errors when the file is checked"),
                );
                None
            }
        }
    }

    fn field_ty(&mut self, t: &ast::TypeExpr) -> FieldTy {
        match t {
            ast::TypeExpr::Named(id) => match id.name.as_str() {
                "nat" => FieldTy::Nat,
                "int" => FieldTy::Int,
                "bool" => FieldTy::Bool,
                other if self.type_ids.contains_key(other) => FieldTy::Union(UnionRef {
                    id: self.type_ids[other],
                    name: other.into(),
                }),
                other => {
                    let help =
                        suggest(other, ["nat", "int", "bool"].into_iter()).unwrap_or_else(|| {
                            "types are nat, int, bool, ranges lo..hi, tuples, set<T> and list<T>"
                                .to_string()
                        });
                    self.error(
                        Diagnostic::new("E0103", format!("unknown type `{other}`"), id.span)
                            .label("not a type")
                            .help(help),
                    );
                    FieldTy::Int
                }
            },
            ast::TypeExpr::Range {
                lo,
                hi,
                inclusive,
                span,
            } => {
                let lo_v = self.const_int(lo);
                let hi_v = self.const_int(hi);
                match (lo_v, hi_v) {
                    (Some(l), Some(h)) => {
                        let h = if *inclusive { h } else { h - 1 };
                        if h < l {
                            self.error(
                                Diagnostic::new("E0204", "this range type is empty", *span)
                                    .help("write the lower bound first: lo..hi or lo..=hi"),
                            );
                        }
                        FieldTy::Range(l, h.max(l))
                    }
                    _ => FieldTy::Int,
                }
            }
            ast::TypeExpr::Tuple(ts, _) => {
                FieldTy::Tuple(ts.iter().map(|t| self.field_ty(t)).collect())
            }
            ast::TypeExpr::Set(t, _) => FieldTy::Set(Box::new(self.field_ty(t))),
            ast::TypeExpr::List(t, _) => FieldTy::List(Box::new(self.field_ty(t))),
        }
    }

    fn game_fields(&mut self, g: &ast::GameDecl) -> Vec<Field> {
        match &g.body {
            ast::GameBody::Rules { params, .. } => {
                let mut names: Vec<&str> = Vec::new();
                let mut fields = Vec::new();
                for p in params {
                    if names.contains(&p.name.name.as_str()) {
                        self.error(
                            Diagnostic::new(
                                "E0105",
                                format!("field `{}` is declared twice", p.name.name),
                                p.name.span,
                            )
                            .help("give each field its own name"),
                        );
                    }
                    names.push(&p.name.name);
                    fields.push(Field {
                        name: p.name.name.clone(),
                        ty: self.field_ty(&p.ty),
                    });
                }
                fields
            }
            _ => vec![Field {
                name: "n".to_string(),
                ty: FieldTy::Nat,
            }],
        }
    }

    /// Binds a new name, reporting shadowing.
    fn bind(&mut self, scope: &mut Scope, id: &ast::Ident, ty: Ty) -> Var {
        let shadows = scope.lookup(&id.name).is_some() || self.consts.contains_key(&id.name);
        if shadows {
            self.error(
                Diagnostic::new(
                    "E0105",
                    format!("`{}` is already bound here", id.name),
                    id.span,
                )
                .label("this binder would shadow an earlier name")
                .help(format!(
                    "pick a new name; to test membership of the existing `{0}`, write `({0} in ...)`",
                    id.name
                )),
            );
        }
        scope.push(&id.name, ty)
    }

    fn fn_body(&mut self, id: usize, f: &ast::FnDecl) {
        let mut scope = Scope::new();
        for (p, ty) in f.params.iter().zip(self.fn_sigs[id].params.clone()) {
            self.bind(&mut scope, &p.name, ty);
        }
        self.current_fn = Some(id);
        let (body, ty) = self.expr(&f.body, &mut scope);
        self.current_fn = None;
        let ret = self.fn_sigs[id].ret.clone();
        if !ty.fits(&ret) {
            self.error(
                Diagnostic::new(
                    "E0202",
                    format!("`{}` returns {ty}, but its type says {ret}", f.name.name),
                    f.body.span,
                )
                .help("change the declared result type or the body"),
            );
        }
        let func = &mut self.program.fns[id];
        func.body = body;
        func.frame = scope.max;
    }

    fn check_recursion(&mut self) {
        // Depth-first search for a cycle in the call graph.
        let n = self.calls.len();
        let mut state = vec![0u8; n];
        let mut reported = false;
        for start in 0..n {
            if state[start] != 0 || reported {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            state[start] = 1;
            while let Some(&mut (f, ref mut i)) = stack.last_mut() {
                if *i < self.calls[f].len() {
                    let (g, span) = self.calls[f][*i];
                    *i += 1;
                    if state[g] == 1 {
                        let name = self.program.fns[g].name.clone();
                        let caller = self.program.fns[f].name.clone();
                        self.error(
                            Diagnostic::new(
                                "E0401",
                                format!("`{caller}` calls `{name}` recursively"),
                                span,
                            )
                            .label("this call closes a cycle")
                            .help("fn helpers may not be recursive; express repetition with a comprehension, a quantifier or closure"),
                        );
                        reported = true;
                        break;
                    }
                    if state[g] == 0 {
                        state[g] = 1;
                        stack.push((g, 0));
                    }
                } else {
                    state[f] = 2;
                    stack.pop();
                }
            }
        }
    }

    fn game_body(&mut self, id: usize, g: &ast::GameDecl) {
        let kind = match &g.body {
            ast::GameBody::Octal(code, span) => match parse_octal(code) {
                Ok(d) => GameKind::Octal(d),
                Err(why) => {
                    self.error(
                        Diagnostic::new("E0701", format!("invalid octal code \"{code}\": {why}"), *span)
                            .help("write a code such as \"0.77\" (Kayles) or \"0.137\" (Dawson's chess): digits 0-7 after `0.`"),
                    );
                    GameKind::Octal(vec![0])
                }
            },
            ast::GameBody::Subtraction(elems, span) => {
                let mut set = BTreeSet::new();
                for e in elems {
                    if let Some(v) = self.const_int(e) {
                        if v <= 0 {
                            self.error(
                                Diagnostic::new(
                                    "E0203",
                                    format!("subtraction set element {v} is not positive"),
                                    e.span,
                                )
                                .help("every move must remove at least one token"),
                            );
                        }
                        set.insert(v);
                    }
                }
                if elems.is_empty() {
                    self.error(
                        Diagnostic::new("E0203", "the subtraction set is empty", *span)
                            .help("list the numbers of tokens a move may remove, e.g. {1, 3, 4}"),
                    );
                }
                GameKind::Subtraction(set.into_iter().collect())
            }
            ast::GameBody::Rules { moves, .. } => {
                let fields = self.program.games[id].fields.clone();
                let mut scope = Scope::new();
                for f in &fields {
                    scope.push(&f.name, f.ty.ty());
                }
                let mut out = Vec::new();
                for m in moves {
                    out.push(self.move_decl(m, &mut scope));
                }
                self.program.games[id].frame = scope.max;
                GameKind::Rules(out)
            }
        };
        self.program.games[id].kind = kind;
    }

    fn move_decl(&mut self, m: &ast::MoveDecl, scope: &mut Scope) -> Move {
        let mark = scope.mark();
        let mut clauses = Vec::new();
        for c in &m.clauses {
            match c {
                ast::Clause::Bind(pat, dom) => {
                    let (vars, ir) = self.binder(pat, dom, scope);
                    clauses.push(IClause::Bind(vars, ir));
                }
                ast::Clause::Cond(e) => {
                    let ir = self.expect(e, &Ty::Bool, scope, "a move condition");
                    clauses.push(IClause::Cond(ir));
                }
                ast::Clause::Let(name, value) => {
                    let (ir, ty) = self.expr(value, scope);
                    let var = self.bind(scope, name, ty);
                    clauses.push(IClause::Let(var, ir));
                }
            }
        }
        if let Some(g) = &m.guard {
            let ir = self.expect(g, &Ty::Bool, scope, "a `where` condition");
            clauses.push(IClause::Cond(ir));
        }
        let result = self.expect(&m.result, &Ty::Game, scope, "a move's result");
        scope.reset(mark);
        Move {
            name: m.name.name.clone(),
            clauses,
            result,
        }
    }

    /// Checks `pattern in domain`, binding the pattern's names.
    fn binder(
        &mut self,
        pat: &ast::Pattern,
        dom: &ast::Expr,
        scope: &mut Scope,
    ) -> (Vec<Var>, IExpr) {
        let (ir, elem) = self.domain(dom, scope);
        let tys: Vec<Ty> = if pat.tuple {
            match &elem {
                Ty::Tuple(ts) if ts.len() == pat.names.len() => ts.clone(),
                Ty::Any => vec![Ty::Any; pat.names.len()],
                other => {
                    self.error(
                        Diagnostic::new(
                            "E0202",
                            format!(
                                "a pattern of {} names needs a domain of {}-tuples, found elements of type {other}",
                                pat.names.len(),
                                pat.names.len()
                            ),
                            pat.span,
                        )
                        .help("match the pattern to the domain's elements"),
                    );
                    vec![Ty::Any; pat.names.len()]
                }
            }
        } else {
            vec![elem]
        };
        let vars = pat
            .names
            .iter()
            .zip(tys)
            .map(|(id, ty)| self.bind(scope, id, ty))
            .collect();
        (vars, ir)
    }

    /// Checks a domain: a finite set, range or list. Returns its element type.
    fn domain(&mut self, dom: &ast::Expr, scope: &mut Scope) -> (IExpr, Ty) {
        if let ExprKind::Name(n) = &dom.kind {
            if scope.lookup(n).is_none() && !self.consts.contains_key(n) {
                match n.as_str() {
                    "nat" | "int" => {
                        self.error(
                            Diagnostic::new(
                                "E0301",
                                format!("`{n}` is infinite and cannot be a domain"),
                                dom.span,
                            )
                            .label("infinite domain")
                            .help("bind over a finite range instead, e.g. `k in 1..=n`"),
                        );
                        return (IExpr::Lit(Val::EMPTY_RANGE), Ty::Any);
                    }
                    "bool" => {
                        let set = [Val::Bool(false), Val::Bool(true)].into_iter().collect();
                        return (IExpr::Lit(Val::Set(Rc::new(set))), Ty::Bool);
                    }
                    _ => {}
                }
            }
        }
        let (ir, ty) = self.expr(dom, scope);
        match ty {
            Ty::Set(t) | Ty::List(t) => (ir, *t),
            Ty::Any => (ir, Ty::Any),
            other => {
                let (code, msg) = if other.is_int() {
                    ("E0301", format!("a number is not a domain (found {other})"))
                } else {
                    (
                        "E0202",
                        format!("expected a set, range or list, found {other}"),
                    )
                };
                self.error(
                    Diagnostic::new(code, msg, dom.span)
                        .help("a domain is a range `1..=n`, a set `{1, 3}` or a list"),
                );
                (ir, Ty::Any)
            }
        }
    }

    fn expect(&mut self, e: &ast::Expr, want: &Ty, scope: &mut Scope, what: &str) -> IExpr {
        let (ir, ty) = self.expr(e, scope);
        if !ty.fits(want) {
            self.error(
                Diagnostic::new(
                    "E0202",
                    format!("type mismatch: {what} must be {want}, found {ty}"),
                    e.span,
                )
                .label(format!("this is {ty}"))
                .help(match want {
                    Ty::Game => "a position is written like a call, `Game(args)`, or `end`; combine positions with `+` or a compound".to_string(),
                    Ty::Bool => "use a comparison such as `k <= n`".to_string(),
                    _ => format!("write an expression of type {want}"),
                }),
            );
        }
        ir
    }

    fn not_const(&mut self, span: Span, what: &str) {
        self.error(
            Diagnostic::new("E0502", format!("{what} cannot appear in a constant"), span)
                .help("constants use literals, operators and earlier constants"),
        );
    }

    fn expr(&mut self, e: &ast::Expr, scope: &mut Scope) -> (IExpr, Ty) {
        let any = (IExpr::Lit(Val::Int(0)), Ty::Any);
        match &e.kind {
            ExprKind::Int(n) => {
                if *n == i64::MAX {
                    self.error(
                        Diagnostic::new("E0203", "this number is too large", e.span)
                            .help("numbers must fit in 63 bits"),
                    );
                    return any;
                }
                (
                    IExpr::Lit(Val::Int(*n)),
                    if *n >= 0 { Ty::Nat } else { Ty::Int },
                )
            }
            ExprKind::Bool(b) => (IExpr::Lit(Val::Bool(*b)), Ty::Bool),
            ExprKind::End => (IExpr::End, Ty::Game),
            ExprKind::Name(n) => {
                if let Some(var) = scope.lookup(n) {
                    let ty = var.ty.clone();
                    return (IExpr::Var(var), ty);
                }
                if let Some((v, ty, _)) = self.consts.get(n) {
                    return (IExpr::Lit(v.clone()), ty.clone());
                }
                if let Some(variant) = self.variants.get(n).cloned() {
                    if variant.fields.is_empty() {
                        let ty = Ty::Union(variant.ty.clone());
                        return (
                            IExpr::Variant {
                                variant,
                                args: Vec::new(),
                                span: e.span,
                            },
                            ty,
                        );
                    }
                    self.error(
                        Diagnostic::new(
                            "E0201",
                            format!("`{n}` needs {} value(s)", variant.fields.len()),
                            e.span,
                        )
                        .help(format!("write a value of this variant as `{n}(...)`")),
                    );
                    return any;
                }
                if let Some(&tid) = self.type_ids.get(n) {
                    return self.type_as_set(n, tid, e.span);
                }
                if let Some(&gid) = self.game_ids.get(n) {
                    if self.program.games[gid].fields.is_empty() {
                        return (
                            IExpr::Pos {
                                game: gid,
                                args: Vec::new(),
                                span: e.span,
                            },
                            Ty::Game,
                        );
                    }
                    let arity = self.program.games[gid].fields.len();
                    self.error(
                        Diagnostic::new(
                            "E0201",
                            format!("game `{n}` needs {arity} field value(s)"),
                            e.span,
                        )
                        .help(format!("write a position as `{n}(...)`")),
                    );
                    return any;
                }
                let names: Vec<String> = scope
                    .names
                    .iter()
                    .map(|(n, _, _)| n.clone())
                    .chain(self.consts.keys().cloned())
                    .collect();
                let help = suggest(n, names.iter().map(|s| s.as_str())).unwrap_or_else(|| {
                    "names come from fields, binders, `let` and `const`".to_string()
                });
                self.error(
                    Diagnostic::new("E0101", format!("unknown name `{n}`"), e.span)
                        .label("not found in this scope")
                        .help(help),
                );
                any
            }
            ExprKind::Unary(op, inner) => {
                let (ir, ty) = self.expr(inner, scope);
                match op {
                    UnOp::Neg => {
                        if !ty.is_int() {
                            self.mismatch(inner.span, "`-`", "a number", &ty);
                        }
                        (
                            IExpr::Neg {
                                arg: Box::new(ir),
                                span: e.span,
                            },
                            Ty::Int,
                        )
                    }
                    UnOp::Not => {
                        if !ty.fits(&Ty::Bool) {
                            self.mismatch(inner.span, "`not`", "bool", &ty);
                        }
                        (IExpr::Not(Box::new(ir)), Ty::Bool)
                    }
                }
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, e.span, scope),
            ExprKind::Call(name, args) => self.call(name, args, e.span, scope),
            ExprKind::Field(inner, idx) => {
                let (ir, ty) = self.expr(inner, scope);
                match ty {
                    Ty::Tuple(ts) if *idx < ts.len() => (
                        IExpr::Field {
                            tuple: Box::new(ir),
                            index: *idx,
                        },
                        ts[*idx].clone(),
                    ),
                    Ty::Any => (
                        IExpr::Field {
                            tuple: Box::new(ir),
                            index: *idx,
                        },
                        Ty::Any,
                    ),
                    other => {
                        // The parser marks an index too large for `usize` with usize::MAX.
                        let message = match idx.checked_add(1) {
                            Some(n) => format!(
                                "`.{idx}` needs a tuple with at least {n} elements, found {other}"
                            ),
                            None => {
                                let text = self.source.get(e.span.start..e.span.end).unwrap_or("");
                                let index = text.rsplit('.').next().unwrap_or("").trim();
                                format!("`.{index}` is too large to be a tuple field")
                            }
                        };
                        self.error(
                            Diagnostic::new("E0202", message, e.span)
                                .help("tuple fields count from 0"),
                        );
                        any
                    }
                }
            }
            ExprKind::Index(list, idx) => {
                let (l, lt) = self.expr(list, scope);
                if let ExprKind::Binary(op @ (BinOp::RangeExcl | BinOp::RangeIncl), lo, hi) =
                    &idx.kind
                {
                    // `xs[a..b]` is a slice.
                    let lo_ir = self.expect(lo, &Ty::Int, scope, "a slice bound");
                    let mut hi_ir = self.expect(hi, &Ty::Int, scope, "a slice bound");
                    if *op == BinOp::RangeIncl {
                        hi_ir = IExpr::Bin {
                            op: Op::Add,
                            lhs: Box::new(hi_ir),
                            rhs: Box::new(IExpr::Lit(Val::Int(1))),
                            span: idx.span,
                        };
                    }
                    if !matches!(lt, Ty::List(_) | Ty::Any) {
                        self.mismatch(list.span, "a slice", "a list", &lt);
                    }
                    return (
                        IExpr::Slice {
                            list: Box::new(l),
                            lo: Some(Box::new(lo_ir)),
                            hi: Some(Box::new(hi_ir)),
                            span: e.span,
                        },
                        lt,
                    );
                }
                let i = self.expect(idx, &Ty::Int, scope, "an index");
                let elem = match lt {
                    Ty::List(t) => *t,
                    Ty::Any => Ty::Any,
                    other => {
                        self.mismatch(list.span, "indexing", "a list", &other);
                        Ty::Any
                    }
                };
                (
                    IExpr::Index {
                        list: Box::new(l),
                        index: Box::new(i),
                        span: e.span,
                    },
                    elem,
                )
            }
            ExprKind::Closure(seed, var, next) => {
                let (seed_ir, seed_ty) = self.expr(seed, scope);
                let elem = match seed_ty {
                    Ty::Set(t) => *t,
                    Ty::Any => Ty::Any,
                    other => {
                        self.mismatch(seed.span, "`closure`", "a set as its seed", &other);
                        Ty::Any
                    }
                };
                let mark = scope.mark();
                let var = self.bind(scope, var, elem.clone());
                let want = Ty::Set(Box::new(elem));
                let next_ir = self.expect(next, &want, scope, "`closure`'s step");
                scope.reset(mark);
                (
                    IExpr::Closure {
                        seed: Box::new(seed_ir),
                        var,
                        next: Box::new(next_ir),
                    },
                    want,
                )
            }
            ExprKind::Slice(list, lo, hi) => {
                let (l, lt) = self.expr(list, scope);
                if !matches!(lt, Ty::List(_) | Ty::Any) {
                    self.mismatch(list.span, "a slice", "a list", &lt);
                }
                let lo = lo
                    .as_ref()
                    .map(|b| Box::new(self.expect(b, &Ty::Int, scope, "a slice bound")));
                let hi = hi
                    .as_ref()
                    .map(|b| Box::new(self.expect(b, &Ty::Int, scope, "a slice bound")));
                (
                    IExpr::Slice {
                        list: Box::new(l),
                        lo,
                        hi,
                        span: e.span,
                    },
                    lt,
                )
            }
            ExprKind::With(list, idx, value) => {
                let (l, lt) = self.expr(list, scope);
                let i = self.expect(idx, &Ty::Int, scope, "an index");
                let elem = match &lt {
                    Ty::List(t) => (**t).clone(),
                    Ty::Any => Ty::Any,
                    other => {
                        self.mismatch(list.span, "`with`", "a list", other);
                        Ty::Any
                    }
                };
                let v = self.expect(value, &elem, scope, "the new element");
                (
                    IExpr::With {
                        list: Box::new(l),
                        index: Box::new(i),
                        value: Box::new(v),
                        span: e.span,
                    },
                    lt,
                )
            }
            ExprKind::Tuple(items) => {
                let (irs, tys): (Vec<_>, Vec<_>) =
                    items.iter().map(|i| self.expr(i, scope)).unzip();
                (IExpr::Tuple(irs), Ty::Tuple(tys))
            }
            ExprKind::Set(items) | ExprKind::List(items) => {
                let mut elem = Ty::Any;
                let mut irs = Vec::new();
                for i in items {
                    let (ir, ty) = self.expr(i, scope);
                    match elem.join(&ty) {
                        Some(j) => elem = j,
                        None => self.error(
                            Diagnostic::new(
                                "E0202",
                                format!("elements differ in type: {elem} and {ty}"),
                                i.span,
                            )
                            .help("every element of a set or list has the same type"),
                        ),
                    }
                    irs.push(ir);
                }
                if matches!(e.kind, ExprKind::Set(_)) {
                    (IExpr::Set(irs), Ty::Set(Box::new(elem)))
                } else {
                    (IExpr::List(irs), Ty::List(Box::new(elem)))
                }
            }
            ExprKind::If(c, a, b) => {
                let c = self.expect(c, &Ty::Bool, scope, "an `if` condition");
                let (a_ir, at) = self.expr(a, scope);
                let (b_ir, bt) = self.expr(b, scope);
                let ty = match at.join(&bt) {
                    Some(t) => t,
                    None => {
                        self.error(
                            Diagnostic::new(
                                "E0202",
                                format!("`if` branches differ in type: {at} and {bt}"),
                                b.span,
                            )
                            .help("both branches must have the same type"),
                        );
                        Ty::Any
                    }
                };
                (
                    IExpr::If {
                        cond: Box::new(c),
                        then: Box::new(a_ir),
                        otherwise: Box::new(b_ir),
                    },
                    ty,
                )
            }
            ExprKind::Let(name, value, body) => {
                let (v, vt) = self.expr(value, scope);
                let mark = scope.mark();
                let var = self.bind(scope, name, vt);
                let (b, bt) = self.expr(body, scope);
                scope.reset(mark);
                (
                    IExpr::Let {
                        var,
                        value: Box::new(v),
                        body: Box::new(b),
                    },
                    bt,
                )
            }
            ExprKind::Quant(kind, pat, dom, body) => {
                let mark = scope.mark();
                let (vars, d) = self.binder(pat, dom, scope);
                let b = self.expect(body, &Ty::Bool, scope, "a quantifier's condition");
                scope.reset(mark);
                let ty = if *kind == QuantKind::Count {
                    Ty::Nat
                } else {
                    Ty::Bool
                };
                (
                    IExpr::Quant {
                        kind: *kind,
                        vars,
                        domain: Box::new(d),
                        body: Box::new(b),
                    },
                    ty,
                )
            }
            ExprKind::Match(scrutinee, arms) => self.match_expr(scrutinee, arms, e.span, scope),
            ExprKind::Compr(elem, pat, dom, cond) => {
                let mark = scope.mark();
                let (vars, d) = self.binder(pat, dom, scope);
                let c = cond
                    .as_ref()
                    .map(|c| Box::new(self.expect(c, &Ty::Bool, scope, "a `where` condition")));
                let (el, et) = self.expr(elem, scope);
                scope.reset(mark);
                (
                    IExpr::Compr {
                        elem: Box::new(el),
                        vars,
                        domain: Box::new(d),
                        cond: c,
                    },
                    Ty::Set(Box::new(et)),
                )
            }
        }
    }

    /// `match e { Tag(x, ...) => a, ..., _ => b }`: every variant of `e`'s type has an arm
    /// (or `_` covers the rest), each at most once; payload names are new binders.
    fn match_expr(
        &mut self,
        scrutinee: &ast::Expr,
        arms: &[ast::MatchArm],
        span: Span,
        scope: &mut Scope,
    ) -> (IExpr, Ty) {
        let (sir, sty) = self.expr(scrutinee, scope);
        let uref = match &sty {
            Ty::Union(u) => Some(u.clone()),
            Ty::Any => None,
            other => {
                self.error(
                    Diagnostic::new(
                        "E0202",
                        format!("type mismatch: `match` needs a value of a declared type, found {other}"),
                        scrutinee.span,
                    )
                    .label(format!("this is {other}"))
                    .help("match on a value of a `type Name = Tag(...) | ...`"),
                );
                None
            }
        };
        let mut iarms: Vec<IArm> = Vec::new();
        let mut default = None;
        // An arm naming no variant of the type was reported: do not also report a gap.
        let mut bad_arm = false;
        let mut result: Option<Ty> = None;
        for arm in arms {
            let mark = scope.mark();
            let mut variant_index = None;
            if let Some((tag, names)) = &arm.pattern {
                match self.variants.get(&tag.name).cloned() {
                    Some(v) if uref.as_ref().is_none_or(|u| u.id == v.ty.id) => {
                        if names.len() != v.fields.len() {
                            self.arity(tag, tag.span, v.fields.len(), names.len(), "name");
                        }
                        if iarms.iter().any(|a| a.variant == v.variant) {
                            self.error(
                                Diagnostic::new(
                                    "E0206",
                                    format!("`{}` has two arms", tag.name),
                                    tag.span,
                                )
                                .label("matched again here")
                                .help("give each variant one arm"),
                            );
                        }
                        let vars = names
                            .iter()
                            .zip(&v.fields)
                            .map(|(name, t)| self.bind(scope, name, t.ty()))
                            .collect();
                        variant_index = Some((v.variant, vars));
                    }
                    Some(v) => {
                        bad_arm = true;
                        let of = uref
                            .as_ref()
                            .map(|u| u.name.to_string())
                            .unwrap_or_default();
                        self.error(
                            Diagnostic::new(
                                "E0202",
                                format!(
                                    "type mismatch: `{}` is a variant of {}, not of {of}",
                                    tag.name, v.ty.name
                                ),
                                tag.span,
                            )
                            .label("another type's variant")
                            .help(format!("match arms name variants of {of}")),
                        );
                    }
                    None => {
                        bad_arm = true;
                        let help = suggest(&tag.name, self.variants.keys().map(|s| s.as_str()))
                            .unwrap_or_else(|| {
                                "declare variants with `type Name = Tag(...) | ...`".to_string()
                            });
                        self.error(
                            Diagnostic::new(
                                "E0101",
                                format!("unknown variant `{}`", tag.name),
                                tag.span,
                            )
                            .label("not a variant")
                            .help(help),
                        );
                    }
                }
            } else if default.is_some() {
                self.error(
                    Diagnostic::new("E0206", "a second `_` arm", arm.span)
                        .label("never reached")
                        .help("keep one `_` arm, last"),
                );
            }
            let (body, bty) = self.expr(&arm.body, scope);
            scope.reset(mark);
            result = match result {
                None => Some(bty),
                Some(t) => match t.join(&bty) {
                    Some(j) => Some(j),
                    None => {
                        self.error(
                            Diagnostic::new(
                                "E0202",
                                format!("type mismatch: this arm is {bty}, an earlier arm is {t}"),
                                arm.body.span,
                            )
                            .label(format!("this is {bty}"))
                            .help("every arm of a `match` has the same type"),
                        );
                        Some(t)
                    }
                },
            };
            match (variant_index, &arm.pattern) {
                (Some((variant, vars)), _) => iarms.push(IArm {
                    variant,
                    vars,
                    body,
                }),
                (None, None) => default = Some(Box::new(body)),
                _ => {}
            }
        }
        if let (Some(u), None, false) = (&uref, &default, bad_arm) {
            let missing: Vec<String> = self.program.types[u.id]
                .variants
                .iter()
                .enumerate()
                .filter(|(i, _)| !iarms.iter().any(|a| a.variant == *i))
                .map(|(_, v)| format!("`{}`", v.name))
                .collect();
            if !missing.is_empty() {
                self.error(
                    Diagnostic::new(
                        "E0205",
                        format!("this `match` has no arm for {}", missing.join(", ")),
                        span,
                    )
                    .label("not every variant is covered")
                    .help("add an arm for each missing variant, or a last arm `_ => ...`"),
                );
            }
        }
        (
            IExpr::Match {
                scrutinee: Box::new(sir),
                ty: uref.map_or(0, |u| u.id),
                arms: iarms,
                default,
            },
            result.unwrap_or(Ty::Any),
        )
    }

    fn mismatch(&mut self, span: Span, what: &str, want: &str, found: &Ty) {
        if *found == Ty::Any {
            return;
        }
        self.error(
            Diagnostic::new(
                "E0202",
                format!("type mismatch: {what} needs {want}, found {found}"),
                span,
            )
            .label(format!("this is {found}"))
            .help(format!("write {want} here")),
        );
    }

    fn binary(
        &mut self,
        op: BinOp,
        l: &ast::Expr,
        r: &ast::Expr,
        span: Span,
        scope: &mut Scope,
    ) -> (IExpr, Ty) {
        let (li, lt) = self.expr(l, scope);
        let (ri, rt) = self.expr(r, scope);
        let sym = format!("`{}`", op.symbol());
        let both_int = lt.is_int() && rt.is_int();
        let nat = lt.fits(&Ty::Nat) && rt.fits(&Ty::Nat) && lt != Ty::Any
            || (lt == Ty::Nat && rt == Ty::Any);
        let mk = |op: Op| IExpr::bin(op, li.clone(), ri.clone(), span);
        // Where the result is an `int` (a comparison, or arithmetic with a signed operand),
        // a `nat` subtraction inside an operand is `int` arithmetic: it cannot underflow.
        let signed_mk = |op: Op| IExpr::bin(op, signed(li.clone()), signed(ri.clone()), span);
        let int_ty = if nat { Ty::Nat } else { Ty::Int };
        let need_ints = |c: &mut Self| {
            if !lt.is_int() {
                c.mismatch(l.span, &sym, "a number", &lt);
            }
            if !rt.is_int() {
                c.mismatch(r.span, &sym, "a number", &rt);
            }
        };
        match op {
            BinOp::Or | BinOp::And => {
                for (t, s) in [(&lt, l.span), (&rt, r.span)] {
                    if !t.fits(&Ty::Bool) {
                        self.mismatch(s, &sym, "bool", t);
                    }
                }
                (mk(if op == BinOp::Or { Op::Or } else { Op::And }), Ty::Bool)
            }
            BinOp::Eq | BinOp::Ne => {
                if lt.join(&rt).is_none() {
                    self.error(
                        Diagnostic::new("E0202", format!("cannot compare {lt} with {rt}"), span)
                            .help("both sides of `==` and `!=` must have the same type"),
                    );
                }
                let o = if op == BinOp::Eq { Op::Eq } else { Op::Ne };
                (if both_int { signed_mk(o) } else { mk(o) }, Ty::Bool)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                need_ints(self);
                let o = match op {
                    BinOp::Lt => Op::Lt,
                    BinOp::Le => Op::Le,
                    BinOp::Gt => Op::Gt,
                    _ => Op::Ge,
                };
                (signed_mk(o), Ty::Bool)
            }
            BinOp::In | BinOp::NotIn => {
                match &rt {
                    Ty::Set(t) | Ty::List(t) => {
                        if lt.join(t).is_none() {
                            self.mismatch(l.span, &sym, &format!("an element of type {t}"), &lt);
                        }
                    }
                    Ty::Any => {}
                    other => self.mismatch(r.span, &sym, "a set, range or list", other),
                }
                (
                    mk(if op == BinOp::In { Op::In } else { Op::NotIn }),
                    Ty::Bool,
                )
            }
            BinOp::RangeIncl | BinOp::RangeExcl => {
                need_ints(self);
                let elem = if lt.fits(&Ty::Nat) { Ty::Nat } else { Ty::Int };
                (
                    mk(if op == BinOp::RangeIncl {
                        Op::RangeIncl
                    } else {
                        Op::RangeExcl
                    }),
                    Ty::Set(Box::new(elem)),
                )
            }
            BinOp::Add => {
                if lt.fits(&Ty::Game) && rt.fits(&Ty::Game) && (lt == Ty::Game || rt == Ty::Game) {
                    return (mk(Op::GameSum), Ty::Game);
                }
                need_ints(self);
                (if nat { mk(Op::Add) } else { signed_mk(Op::Add) }, int_ty)
            }
            BinOp::Sub => {
                if let (Ty::Set(_), _) | (_, Ty::Set(_)) = (&lt, &rt) {
                    let ty = lt.join(&rt).unwrap_or(Ty::Any);
                    if !matches!(ty, Ty::Set(_)) {
                        self.mismatch(span, &sym, "two sets", &rt);
                    }
                    return (mk(Op::SetDiff), ty);
                }
                need_ints(self);
                if nat && both_int {
                    (mk(Op::NatSub), Ty::Nat)
                } else {
                    (signed_mk(Op::Sub), Ty::Int)
                }
            }
            BinOp::Mul | BinOp::Div | BinOp::Rem => {
                need_ints(self);
                let o = match op {
                    BinOp::Mul => Op::Mul,
                    BinOp::Div => Op::Div,
                    _ => Op::Rem,
                };
                (if nat { mk(o) } else { signed_mk(o) }, int_ty)
            }
            BinOp::Union | BinOp::Inter => {
                let ty = match lt.join(&rt) {
                    Some(t @ Ty::Set(_)) | Some(t @ Ty::Any) => t,
                    _ => {
                        self.mismatch(span, &sym, "two sets of the same type", &rt);
                        Ty::Any
                    }
                };
                (
                    mk(if op == BinOp::Union {
                        Op::SetUnion
                    } else {
                        Op::SetInter
                    }),
                    ty,
                )
            }
            BinOp::Concat => {
                let ty = match lt.join(&rt) {
                    Some(t @ Ty::List(_)) | Some(t @ Ty::Any) => t,
                    _ => {
                        self.mismatch(span, &sym, "two lists of the same type", &rt);
                        Ty::Any
                    }
                };
                (mk(Op::Concat), ty)
            }
        }
    }

    fn call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        scope: &mut Scope,
    ) -> (IExpr, Ty) {
        let any = (IExpr::Lit(Val::Int(0)), Ty::Any);
        let n = name.name.as_str();
        if self.in_const && self.declared.contains(n) {
            self.not_const(span, "a position or function call");
            return any;
        }
        if let Some(variant) = self.variants.get(n).cloned() {
            if variant.fields.len() != args.len() {
                self.arity(name, span, variant.fields.len(), args.len(), "value");
                return (IExpr::Lit(Val::Int(0)), Ty::Union(variant.ty.clone()));
            }
            let mut irs = Vec::new();
            for (i, (a, f)) in args.iter().zip(&variant.fields).enumerate() {
                irs.push(self.field_value(a, f, &format!("value {} of `{n}`", i + 1), scope));
            }
            let ty = Ty::Union(variant.ty.clone());
            return (
                IExpr::Variant {
                    variant,
                    args: irs,
                    span,
                },
                ty,
            );
        }
        if let Some(&gid) = self.game_ids.get(n) {
            if self.in_const {
                self.not_const(span, "a position");
                return any;
            }
            let fields = self.program.games[gid].fields.clone();
            if fields.len() != args.len() {
                self.arity(name, span, fields.len(), args.len(), "field value");
                return (
                    IExpr::Pos {
                        game: gid,
                        args: Vec::new(),
                        span,
                    },
                    Ty::Game,
                );
            }
            let mut irs = Vec::new();
            for (a, f) in args.iter().zip(&fields) {
                irs.push(self.field_value(
                    a,
                    &f.ty,
                    &format!("field `{}` of `{n}`", f.name),
                    scope,
                ));
            }
            return (
                IExpr::Pos {
                    game: gid,
                    args: irs,
                    span,
                },
                Ty::Game,
            );
        }
        if let Some(c) = Compound::from_name(n).filter(|_| COMPOUNDS.contains(&n)) {
            if self.in_const {
                self.not_const(span, "a compound");
                return any;
            }
            if args.is_empty() {
                self.error(
                    Diagnostic::new("E0201", format!("`{n}` needs at least one component"), span)
                        .help(format!("write `{n}(A, B, ...)`")),
                );
            }
            let irs = args
                .iter()
                .map(|a| self.expect(a, &Ty::Game, scope, &format!("a component of `{n}`")))
                .collect();
            return (
                IExpr::Compound {
                    kind: c,
                    parts: irs,
                },
                Ty::Game,
            );
        }
        if BUILTINS.contains(&n) {
            return self.builtin(n, args, span, scope);
        }
        if let Some(&fid) = self.fn_ids.get(n) {
            if self.in_const {
                self.not_const(span, "a function call");
                return any;
            }
            let params = self.fn_sigs[fid].params.clone();
            let ret = self.fn_sigs[fid].ret.clone();
            if params.len() != args.len() {
                self.arity(name, span, params.len(), args.len(), "argument");
                return (IExpr::Lit(Val::Int(0)), ret);
            }
            let irs = args
                .iter()
                .zip(&params)
                .map(|(a, t)| self.expect(a, t, scope, &format!("an argument of `{n}`")))
                .collect();
            if let Some(caller) = self.current_fn {
                self.calls[caller].push((fid, name.span));
            }
            return (
                IExpr::Call {
                    func: fid,
                    args: irs,
                },
                ret,
            );
        }
        let candidates: Vec<String> = self
            .game_ids
            .keys()
            .chain(self.fn_ids.keys())
            .cloned()
            .chain(
                COMPOUNDS
                    .iter()
                    .chain(BUILTINS.iter())
                    .map(|s| s.to_string()),
            )
            .collect();
        let help = suggest(n, candidates.iter().map(|s| s.as_str())).unwrap_or_else(|| {
            "declare it with `game` or `fn`, or use a compound (sum, union, selective, conjunctive, continued, wtia)".to_string()
        });
        self.error(
            Diagnostic::new(
                "E0102",
                format!("unknown game or function `{n}`"),
                name.span,
            )
            .label("not declared")
            .help(help),
        );
        for a in args {
            self.expr(a, scope);
        }
        any
    }

    /// A value for a declared field type `t` (a game's field or a variant's payload),
    /// `what` naming the place: its type must fit, and a constant must be in range.
    fn field_value(&mut self, a: &ast::Expr, t: &FieldTy, what: &str, scope: &mut Scope) -> IExpr {
        let (ir, ty) = self.expr(a, scope);
        // An `int` may fill a `nat` field: its range is checked on construction.
        let int_for_nat = ty == Ty::Int && t.ty() == Ty::Nat;
        let fits = ty.fits(&t.ty()) || int_for_nat;
        if !fits {
            self.error(
                Diagnostic::new(
                    "E0202",
                    format!("type mismatch: {what} is {t}, found {ty}"),
                    a.span,
                )
                .label(format!("this is {ty}"))
                .help(format!("give {what} a value of type {t}")),
            );
        }
        if let (IExpr::Lit(v), true) = (&ir, fits) {
            if !t.admits(&v.clone().normalize()) && ty != Ty::Any {
                self.error(
                    Diagnostic::new(
                        "E0203",
                        format!("{v} is out of range for {what} ({t})"),
                        a.span,
                    )
                    .label("out of range")
                    .help(format!("{what} takes values in {t}")),
                );
            }
        }
        ir
    }

    fn arity(&mut self, name: &ast::Ident, span: Span, want: usize, got: usize, what: &str) {
        let _ = span;
        self.error(
            Diagnostic::new(
                "E0201",
                format!(
                    "`{}` takes {want} {what}{}, but {got} {} given",
                    name.name,
                    if want == 1 { "" } else { "s" },
                    if got == 1 { "was" } else { "were" }
                ),
                name.span,
            )
            .label("wrong number of arguments")
            .help(format!(
                "pass exactly {want} {what}{}",
                if want == 1 { "" } else { "s" }
            )),
        );
    }

    fn builtin(
        &mut self,
        n: &str,
        args: &[ast::Expr],
        span: Span,
        scope: &mut Scope,
    ) -> (IExpr, Ty) {
        let typed: Vec<(IExpr, Ty)> = args.iter().map(|a| self.expr(a, scope)).collect();
        let (irs, tys): (Vec<_>, Vec<_>) = typed.into_iter().unzip();
        let bad_arity = |c: &mut Self, want: &str| {
            c.error(
                Diagnostic::new(
                    "E0201",
                    format!("`{n}` takes {want}, but {} were given", args.len()),
                    span,
                )
                .help(format!("call `{n}` with {want}")),
            );
        };
        match n {
            "min" | "max" => {
                let b = if n == "min" {
                    Builtin::Min
                } else {
                    Builtin::Max
                };
                if args.is_empty() {
                    bad_arity(self, "one set or two or more numbers");
                    return (IExpr::Lit(Val::Int(0)), Ty::Any);
                }
                if args.len() == 1 {
                    return match &tys[0] {
                        Ty::Set(t) | Ty::List(t) => (
                            IExpr::Builtin {
                                func: b,
                                args: irs,
                                span,
                            },
                            (**t).clone(),
                        ),
                        other => {
                            self.mismatch(args[0].span, &format!("`{n}`"), "a set or list", other);
                            (IExpr::Lit(Val::Int(0)), Ty::Any)
                        }
                    };
                }
                let mut all_nat = true;
                for (t, a) in tys.iter().zip(args) {
                    if !t.is_int() {
                        self.mismatch(a.span, &format!("`{n}`"), "a number", t);
                    }
                    all_nat &= t.fits(&Ty::Nat);
                }
                (
                    IExpr::Builtin {
                        func: b,
                        args: irs,
                        span,
                    },
                    if all_nat { Ty::Nat } else { Ty::Int },
                )
            }
            "abs" => {
                if args.len() != 1 {
                    bad_arity(self, "one number");
                } else if !tys[0].is_int() {
                    self.mismatch(args[0].span, "`abs`", "a number", &tys[0]);
                }
                let irs = irs.into_iter().map(signed).collect();
                (
                    IExpr::Builtin {
                        func: Builtin::Abs,
                        args: irs,
                        span,
                    },
                    Ty::Nat,
                )
            }
            _ => {
                if args.len() != 1 {
                    bad_arity(self, "one set or list");
                } else if !matches!(tys[0], Ty::Set(_) | Ty::List(_) | Ty::Any) {
                    self.mismatch(args[0].span, "`len`", "a set or list", &tys[0]);
                }
                (
                    IExpr::Builtin {
                        func: Builtin::Len,
                        args: irs,
                        span,
                    },
                    Ty::Nat,
                )
            }
        }
    }

    fn query(&mut self, q: &ast::Query) {
        let mut values = Vec::new();
        for v in &q.values {
            if v.name != "moves" && ValueKind::from_name(&v.name).is_none() {
                let names = ValueKind::ALL
                    .iter()
                    .map(|k| k.name())
                    .chain(std::iter::once("moves"));
                let help = suggest(&v.name, names).unwrap_or_else(|| {
                    "values: outcome, misere_outcome, grundy, wnumber, misere_wnumber, remoteness, suspense, moves".to_string()
                });
                self.error(
                    Diagnostic::new("E0601", format!("unknown value `{}`", v.name), v.span)
                        .label("not a value")
                        .help(help),
                );
            }
            values.push(v.name.clone());
        }
        let mut scope = Scope::new();
        let mut binders = Vec::new();
        for (pat, dom) in &q.binders {
            if pat.tuple {
                self.error(
                    Diagnostic::new("E0602", "a query binds plain names, not tuples", pat.span)
                        .help("write `for r in 0..8, c in 0..8`"),
                );
            }
            let (mut vars, ir) = self.binder(pat, dom, &mut scope);
            binders.push((vars.swap_remove(0), ir));
        }
        match q.kind {
            QueryKind::Table if !(1..=2).contains(&q.binders.len()) => self.error(
                Diagnostic::new("E0602", "a table has one or two free names", q.span)
                    .help("one name gives rows; two names give a grid"),
            ),
            QueryKind::Period => {
                if q.binders.len() != 1 {
                    self.error(
                        Diagnostic::new(
                            "E0602",
                            "a period query has exactly one free name",
                            q.span,
                        )
                        .help("write `period grundy of G(n) for n in 0..=2000`"),
                    );
                }
                if let (Some((_, dom)), Some((_, ir))) = (q.binders.first(), binders.first()) {
                    if let Some(gap) = period_domain_gap(ir) {
                        self.error(
                            Diagnostic::new(
                                "E0602",
                                format!(
                                    "a period query ranges over consecutive numbers, but {gap}"
                                ),
                                dom.span,
                            )
                            .label("not consecutive")
                            .help("write a range, such as `for n in 0..=2000`"),
                        );
                    }
                }
                let numeric = ["grundy", "remoteness", "suspense"];
                if q.values.len() != 1 || !numeric.contains(&q.values[0].name.as_str()) {
                    self.error(
                        Diagnostic::new(
                            "E0602",
                            "a period query asks for one numeric value",
                            q.values.first().map(|v| v.span).unwrap_or(q.span),
                        )
                        .help("ask for grundy, remoteness or suspense"),
                    );
                }
            }
            _ => {}
        }
        let target = self.expect(&q.target, &Ty::Game, &mut scope, "a query's target");
        let text = strip_comments(self.text(q.span))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        self.program.queries.push(IQuery {
            kind: q.kind,
            values,
            target,
            text,
            binders,
            frame: scope.max,
            span: q.span,
        });
    }
}

/// `e` with its `nat` subtractions made `int` ones, through the arithmetic that carries
/// their value out (`+`, `-`, `*`, negation and `if` branches): for a context that wants an
/// `int`, such as `abs(a - b)` or `a - b >= c`, where a negative difference is no error.
fn signed(e: IExpr) -> IExpr {
    match e {
        IExpr::Bin {
            op: op @ (Op::NatSub | Op::Sub | Op::Add | Op::Mul),
            lhs,
            rhs,
            span,
        } => {
            let op = if op == Op::NatSub { Op::Sub } else { op };
            IExpr::bin(op, signed(*lhs), signed(*rhs), span)
        }
        IExpr::Neg { arg, span } => IExpr::Neg {
            arg: Box::new(signed(*arg)),
            span,
        },
        IExpr::If {
            cond,
            then,
            otherwise,
        } => IExpr::If {
            cond,
            then: Box::new(signed(*then)),
            otherwise: Box::new(signed(*otherwise)),
        },
        other => other,
    }
}

/// Where a period query's domain, when it is written out (a set or list of numbers, or a
/// constant), skips a number: `Some("5 follows 1")`. Ranges are consecutive; other domains
/// are checked when the query runs.
fn period_domain_gap(dom: &IExpr) -> Option<String> {
    let int = |v: &Val| match v {
        Val::Int(n) => Some(*n),
        _ => None,
    };
    let lit = |e: &IExpr| match e {
        IExpr::Lit(v) => int(v),
        _ => None,
    };
    let (mut ns, sorted): (Vec<i64>, bool) = match dom {
        IExpr::Lit(Val::Set(s)) => (s.iter().map(int).collect::<Option<_>>()?, true),
        IExpr::Lit(Val::List(l)) => (l.iter().map(int).collect::<Option<_>>()?, false),
        IExpr::Set(items) => (items.iter().map(lit).collect::<Option<_>>()?, true),
        IExpr::List(items) => (items.iter().map(lit).collect::<Option<_>>()?, false),
        _ => return None,
    };
    if sorted {
        ns.sort_unstable();
        ns.dedup();
    }
    ns.windows(2)
        .find(|w| w[0].checked_add(1) != Some(w[1]))
        .map(|w| format!("{} follows {}", w[1], w[0]))
}

/// Parses an octal code such as "0.77" into digits d0, d1, ...
/// Every combination of one value from each list, in lexicographic order, unless there are
/// more than `MAX_TYPE_VALUES`.
fn product(parts: &[Vec<Val>]) -> Option<Vec<Vec<Val>>> {
    let count = parts
        .iter()
        .try_fold(1usize, |n, p| n.checked_mul(p.len()))?;
    if count > MAX_TYPE_VALUES {
        return None;
    }
    let mut out: Vec<Vec<Val>> = vec![Vec::new()];
    for part in parts {
        out = out
            .into_iter()
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

fn parse_octal(code: &str) -> Result<Vec<u8>, String> {
    let rest = code
        .strip_prefix("0.")
        .or_else(|| code.strip_prefix('.'))
        .ok_or_else(|| "it must start with `0.`".to_string())?;
    if rest.is_empty() {
        return Err("no digits after `0.`".to_string());
    }
    let mut digits = vec![0u8];
    for ch in rest.chars() {
        match ch.to_digit(8) {
            Some(d) => digits.push(d as u8),
            None => return Err(format!("`{ch}` is not an octal digit (0-7)")),
        }
    }
    while digits.len() > 1 && digits.last() == Some(&0) {
        digits.pop();
    }
    Ok(digits)
}

/// The text with `//` and `/* */` comments removed (for echoing a query as written).
fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map(|i| &after[i..]).unwrap_or("");
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map(|i| &after[i + 2..]).unwrap_or("");
        } else if rest.starts_with('"') {
            let end = rest[1..].find('"').map(|i| i + 2).unwrap_or(rest.len());
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else {
            let ch = rest.chars().next().unwrap_or(' ');
            out.push(ch);
            rest = &rest[ch.len_utf8()..];
        }
    }
    out
}
