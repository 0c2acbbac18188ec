//! Games, moves and functions: binders and scopes, domains, and the call graph.

use super::*;

impl Checker<'_> {
    /// Binds a new name, reporting shadowing.
    pub(super) fn bind(&mut self, scope: &mut Scope, id: &ast::Ident, ty: Ty) -> Var {
        let shadows = scope.lookup(&id.name).is_some() || self.consts.contains_key(&id.name);
        if shadows {
            self.error(
                Diagnostic::new(
                    ErrorCode::Shadowing,
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

    pub(super) fn fn_body(&mut self, id: usize, f: &ast::FnDecl) {
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
                    ErrorCode::TypeMismatch,
                    format!("`{}` returns {ty}, but its type says {ret}", f.name.name),
                    f.body.span,
                )
                .help("change the declared result type or the body"),
            );
        }
        let func = &mut self.program.fns[id];
        func.body = body;
        func.locals = scope.into_locals();
    }

    pub(super) fn check_recursion(&mut self) {
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
                                ErrorCode::Recursion,
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

    pub(super) fn game_body(&mut self, id: usize, g: &ast::GameDecl) {
        let kind = match &g.body {
            ast::GameBody::Octal(code, span) => match parse_octal(code) {
                Ok(d) => GameKind::Octal(d),
                Err(why) => {
                    self.error(
                        Diagnostic::new(ErrorCode::BadOctal, format!("invalid octal code \"{code}\": {why}"), *span)
                            .help("write a code such as \"0.77\" (Kayles), \"4.07\" (d0 = 4 splits a heap) or \"0.8f\" (hexadecimal digits 8-f leave three heaps)"),
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
                                    ErrorCode::OutOfRange,
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
                        Diagnostic::new(
                            ErrorCode::OutOfRange,
                            "the subtraction set is empty",
                            *span,
                        )
                        .help("list the numbers of tokens a move may remove, e.g. {1, 3, 4}"),
                    );
                }
                GameKind::Subtraction(set.into_iter().collect())
            }
            ast::GameBody::Rules {
                moves,
                symmetries: syms,
                draws,
                ..
            } => {
                self.program.games[id].draw = self.draw_decls(id, draws);
                let fields = self.program.games[id].fields.clone();
                let mut scope = Scope::new();
                for f in &fields {
                    scope.push(&f.name, f.ty.ty());
                }
                let mut out = Vec::new();
                let partizan = self.program.games[id].partizan;
                for m in moves {
                    let checked = self.move_decl(m, &mut scope);
                    if !partizan && self.mentions_partizan(&checked.result) {
                        self.error(
                            Diagnostic::new(
                                ErrorCode::Partizan,
                                format!(
                                    "move `{}` of the impartial game `{}` leads to a partizan position",
                                    m.name.name, self.program.games[id].name
                                ),
                                m.span,
                            )
                            .label("a position of a game with left or right moves")
                            .help("an impartial game's positions stay impartial: give this game `left move` and `right move` rules too"),
                        );
                    }
                    out.push(checked);
                }
                let mut symmetries = Vec::new();
                for s in syms {
                    let mark = scope.mark();
                    let result =
                        self.expect(&s.result, &Ty::Game, &mut scope, "a symmetry's image");
                    scope.reset(mark);
                    if !self.same_game_positions(&result, id) {
                        self.error(
                            Diagnostic::new(
                                ErrorCode::TypeMismatch,
                                format!(
                                    "symmetry `{}` must map a position of `{}` to a position of `{}`",
                                    s.name.name, self.program.games[id].name, self.program.games[id].name
                                ),
                                s.result.span,
                            )
                            .label("not a position of this game")
                            .help(format!(
                                "write the image as `{}(...)` built from the fields",
                                self.program.games[id].name
                            )),
                        );
                    }
                    symmetries.push(Symmetry {
                        name: s.name.name.clone(),
                        result,
                        proven: false,
                        note: String::new(),
                    });
                }
                self.program.games[id].symmetries = symmetries;
                self.program.games[id].locals = scope.into_locals();
                GameKind::Rules(out)
            }
        };
        let game = &mut self.program.games[id];
        game.kind = kind;
        if game.locals.is_empty() {
            // A game without rules: its fields are its names.
            for f in &game.fields {
                game.locals.bind(f.name.as_str().into(), f.ty.ty());
            }
        }
        game.heap_code = crate::ir::heap_code(id, game);
    }

    /// Checks a game's `draw` declarations (at most one): a known kind, and a field of
    /// the type that kind draws.
    fn draw_decls(&mut self, id: usize, draws: &[ast::DrawDecl]) -> Option<Draw> {
        let mut checked = None;
        for (i, d) in draws.iter().enumerate() {
            if i > 0 {
                self.error(
                    Diagnostic::new(
                        ErrorCode::Duplicate,
                        format!("`{}` is drawn once", self.program.games[id].name),
                        d.span,
                    )
                    .label("a second `draw`")
                    .help("keep one `draw` declaration"),
                );
                continue;
            }
            let names = DrawKind::NAMES.iter().map(|(n, _)| *n);
            let Some(&(_, kind)) = DrawKind::NAMES.iter().find(|(n, _)| *n == d.kind.name) else {
                let mut diag = Diagnostic::new(
                    ErrorCode::UnknownName,
                    format!("`{}` is not a kind of picture", d.kind.name),
                    d.kind.span,
                )
                .label("not board, dots, tokens or text");
                if let Some(hint) = suggest(&d.kind.name, names) {
                    diag = diag.help(hint);
                }
                self.error(diag);
                continue;
            };
            let fields = &self.program.games[id].fields;
            let field = match (&d.field, kind) {
                (None, DrawKind::Text) => None,
                (Some(f), DrawKind::Text) => {
                    self.error(
                        Diagnostic::new(ErrorCode::Arity, "`draw text` takes no field", f.span)
                            .help("write `draw text`"),
                    );
                    continue;
                }
                (None, _) => {
                    self.error(
                        Diagnostic::new(
                            ErrorCode::Arity,
                            format!("`draw {}` needs the field it draws", d.kind.name),
                            d.span,
                        )
                        .help(format!("write `draw {}(FIELD)`", d.kind.name)),
                    );
                    continue;
                }
                (Some(f), _) => match fields.iter().position(|x| x.name == f.name) {
                    Some(i) => Some((i, f)),
                    None => {
                        let mut diag = Diagnostic::new(
                            ErrorCode::UnknownName,
                            format!(
                                "`{}` has no field `{}`",
                                self.program.games[id].name, f.name
                            ),
                            f.span,
                        )
                        .label("not a field of the game");
                        if let Some(hint) = suggest(&f.name, fields.iter().map(|x| x.name.as_str()))
                        {
                            diag = diag.help(hint);
                        }
                        self.error(diag);
                        continue;
                    }
                },
            };
            if let Some((i, f)) = field {
                let ty = &fields[i].ty;
                let fits = match kind {
                    DrawKind::Board => matches!(ty, FieldTy::Set(e)
                        if matches!(e.as_ref(), FieldTy::Tuple(p) if p.len() == 2
                            && p.iter().all(|t| matches!(t, FieldTy::Range(..))))),
                    DrawKind::Dots => match ty {
                        FieldTy::Set(e) => match e.as_ref() {
                            FieldTy::Union(u) => {
                                let names: Vec<&str> = (self.program.types[u.id].variants.iter())
                                    .map(|v| v.name.as_ref())
                                    .collect();
                                names.contains(&"H") && names.contains(&"V")
                            }
                            _ => false,
                        },
                        _ => false,
                    },
                    DrawKind::Tokens => {
                        matches!(ty, FieldTy::Nat | FieldTy::Int | FieldTy::Range(..))
                    }
                    DrawKind::Text => true,
                };
                if !fits {
                    let wanted = match kind {
                        DrawKind::Board => "a set of cells `(r, c)` of range types",
                        DrawKind::Dots => {
                            "a set of a tagged type with lines `H(r, c)` and `V(r, c)`"
                        }
                        _ => "a number",
                    };
                    self.error(
                        Diagnostic::new(
                            ErrorCode::TypeMismatch,
                            format!(
                                "`draw {}` draws {wanted}, not field `{}`",
                                d.kind.name, f.name
                            ),
                            f.span,
                        )
                        .label("a field of another type")
                        .help("name a field of that type, or write `draw text`"),
                    );
                    continue;
                }
            }
            checked = Some(Draw {
                kind,
                field: field.map(|(i, _)| i),
            });
        }
        checked
    }

    /// Whether every position `e` can make is one of game `id` (`if`, `let` and `match`
    /// choose among such positions).
    fn same_game_positions(&self, e: &IExpr, id: usize) -> bool {
        match e.kind() {
            IExprKind::Pos { game, .. } => *game == id,
            IExprKind::If {
                then, otherwise, ..
            } => self.same_game_positions(then, id) && self.same_game_positions(otherwise, id),
            IExprKind::Let { body, .. } => self.same_game_positions(body, id),
            _ => false,
        }
    }

    pub(super) fn move_decl(&mut self, m: &ast::MoveDecl, scope: &mut Scope) -> Move {
        let mark = scope.mark();
        let mut clauses = self.clauses(&m.clauses, scope, "a move condition");
        if let Some(g) = &m.guard {
            let ir = self.expect(g, &Ty::Bool, scope, "a `where` condition");
            clauses.push(IClause::Cond(ir));
        }
        let result = self.expect(&m.result, &Ty::Game, scope, "a move's result");
        scope.reset(mark);
        Move {
            side: m.side,
            name: m.name.name.clone(),
            clauses,
            result,
        }
    }

    /// Checks the clauses of a move or a comprehension, binding their names in `scope`
    /// (the caller resets it). A nested pattern adds a `let` for each inner name.
    pub(super) fn clauses(
        &mut self,
        clauses: &[ast::Clause],
        scope: &mut Scope,
        what: &str,
    ) -> Vec<IClause> {
        let mut out = Vec::new();
        for c in clauses {
            match c {
                ast::Clause::Bind(pat, dom) => {
                    let bound = self.binder(pat, dom, scope);
                    out.push(IClause::Bind(bound.vars, bound.domain));
                    out.extend(bound.lets.into_iter().map(|(v, e)| IClause::Let(v, e)));
                }
                ast::Clause::Cond(e) => {
                    let ir = self.expect(e, &Ty::Bool, scope, what);
                    out.push(IClause::Cond(ir));
                }
                ast::Clause::Let(pat, value) => {
                    let (ir, ty) = self.expr(value, scope);
                    let mut lets = Vec::new();
                    let var = self.bind_pattern(pat, ty, scope, &mut lets);
                    out.push(IClause::Let(var, ir));
                    out.extend(lets.into_iter().map(|(v, e)| IClause::Let(v, e)));
                }
            }
        }
        out
    }

    /// Checks `pattern in domain`, binding the pattern's names.
    pub(super) fn binder(
        &mut self,
        pat: &ast::Pattern,
        dom: &ast::Expr,
        scope: &mut Scope,
    ) -> Bound {
        let (domain, elem) = self.domain(dom, scope);
        let mut lets = Vec::new();
        let vars = match &pat.kind {
            ast::PatternKind::Name(id) => vec![self.bind(scope, id, elem)],
            ast::PatternKind::Tuple(parts) => {
                let tys = self.pattern_parts(pat, parts.len(), &elem);
                (parts.iter().zip(tys))
                    .map(|(p, ty)| self.bind_pattern(p, ty, scope, &mut lets))
                    .collect()
            }
        };
        Bound { vars, domain, lets }
    }

    /// The types of a tuple pattern's parts, for elements of type `elem`.
    fn pattern_parts(&mut self, pat: &ast::Pattern, n: usize, elem: &Ty) -> Vec<Ty> {
        match elem {
            Ty::Tuple(ts) if ts.len() == n => ts.clone(),
            Ty::Any => vec![Ty::Any; n],
            other => {
                self.error(
                    Diagnostic::new(
                        ErrorCode::TypeMismatch,
                        format!(
                            "a pattern of {n} parts needs {n}-tuples, found elements of type {other}"
                        ),
                        pat.span,
                    )
                    .help("match the pattern to the domain's elements"),
                );
                vec![Ty::Any; n]
            }
        }
    }

    /// Binds one part of a tuple pattern to a value of type `ty`. A name is bound as it
    /// stands; a nested tuple is bound to a name no one can write (its text), followed by
    /// a `let` for each of its parts.
    pub(super) fn bind_pattern(
        &mut self,
        pat: &ast::Pattern,
        ty: Ty,
        scope: &mut Scope,
        lets: &mut Vec<(Var, IExpr)>,
    ) -> Var {
        match &pat.kind {
            ast::PatternKind::Name(id) => self.bind(scope, id, ty),
            ast::PatternKind::Tuple(parts) => {
                let tys = self.pattern_parts(pat, parts.len(), &ty);
                let text = &self.source[pat.span.start..pat.span.end];
                let whole = scope.push(&text.split_whitespace().collect::<String>(), ty);
                for (index, (p, ty)) in parts.iter().zip(tys).enumerate() {
                    let part = IExprKind::Field {
                        tuple: Box::new(IExpr::from(IExprKind::Var(whole.clone()))),
                        index,
                    };
                    let mark = lets.len();
                    let var = self.bind_pattern(p, ty, scope, lets);
                    lets.insert(mark, (var, IExpr::from(part)));
                }
                whole
            }
        }
    }

    /// Checks a domain: a finite set, range or list. Returns its element type.
    pub(super) fn domain(&mut self, dom: &ast::Expr, scope: &mut Scope) -> (IExpr, Ty) {
        if let ExprKind::Name(n) = &dom.kind {
            if scope.lookup(n).is_none() && !self.consts.contains_key(n) {
                match n.as_str() {
                    "nat" | "int" => {
                        self.error(
                            Diagnostic::new(
                                ErrorCode::InfiniteDomain,
                                format!("`{n}` is infinite and cannot be a domain"),
                                dom.span,
                            )
                            .label("infinite domain")
                            .help("bind over a finite range instead, e.g. `k in 1..=n`"),
                        );
                        return (IExpr::from(IExprKind::Lit(Val::EMPTY_RANGE)), Ty::Any);
                    }
                    "bool" => {
                        let set = [Val::Bool(false), Val::Bool(true)].into_iter().collect();
                        return (
                            IExpr::from(IExprKind::Lit(Val::Set(Rc::new(set)))),
                            Ty::Bool,
                        );
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
                    (
                        ErrorCode::InfiniteDomain,
                        format!("a number is not a domain (found {other})"),
                    )
                } else {
                    (
                        ErrorCode::TypeMismatch,
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

    pub(super) fn expect(
        &mut self,
        e: &ast::Expr,
        want: &Ty,
        scope: &mut Scope,
        what: &str,
    ) -> IExpr {
        let (ir, ty) = self.expr(e, scope);
        if !ty.fits(want) {
            self.error(
                Diagnostic::new(
                    ErrorCode::TypeMismatch,
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

    pub(super) fn not_const(&mut self, span: Span, what: &str) {
        self.error(
            Diagnostic::new(
                ErrorCode::NotConstant,
                format!("{what} cannot appear in a constant"),
                span,
            )
            .help("constants use literals, operators and earlier constants"),
        );
    }
}

/// Parses a code such as "0.77", "4.07" or "0.8f" (hexadecimal) into digits d0, d1, ...
fn parse_octal(code: &str) -> Result<Vec<u8>, String> {
    cgdl_runtime::heap::HeapCode::parse(code).map(|c| c.digits().to_vec())
}
