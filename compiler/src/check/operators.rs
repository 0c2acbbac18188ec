//! Operators resolved by type, calls of games, variants, compounds and functions, and the
//! built-in functions.

use super::*;

impl Checker<'_> {
    /// `1..N - {3}` parses as `1..(N - {3})`, which has no meaning (a number minus a
    /// set); it is read as `(1..N) - {3}`, as written. Likewise for `|` and `&`, and for
    /// a set operator on a range's left (`{0} | 1..N`).
    fn range_then_set_op(
        &self,
        (op, l, r): (BinOp, &ast::Expr, &ast::Expr),
        span: Span,
        scope: &Scope,
    ) -> Option<ast::Expr> {
        if !matches!(op, BinOp::RangeIncl | BinOp::RangeExcl) {
            return None;
        }
        let set_op = |e: &ast::Expr| match &e.kind {
            ExprKind::Binary(o @ (BinOp::Sub | BinOp::Union | BinOp::Inter), x, y) => {
                Some((*o, x.clone(), y.clone()))
            }
            _ => None,
        };
        let node = |kind, a: &ast::Expr, b: &ast::Expr| ast::Expr {
            kind,
            span: Span::new(a.span.start, b.span.end),
        };
        if let Some((o, x, y)) = set_op(r) {
            if self.is_set(&y, scope) {
                let range = node(ExprKind::Binary(op, Box::new(l.clone()), x.clone()), l, &x);
                return Some(ast::Expr {
                    kind: ExprKind::Binary(o, Box::new(range), y),
                    span,
                });
            }
        }
        if let Some((o, x, y)) = set_op(l) {
            if self.is_set(&x, scope) {
                let range = node(ExprKind::Binary(op, y.clone(), Box::new(r.clone())), &y, r);
                return Some(ast::Expr {
                    kind: ExprKind::Binary(o, x, Box::new(range)),
                    span,
                });
            }
        }
        None
    }

    /// E0801 when a compound other than a sum has a partizan component.
    fn impartial_component(&mut self, kind: Compound, name: &str, part: &IExpr, span: Span) {
        if kind != Compound::Sum && self.mentions_partizan(part) {
            self.error(
                Diagnostic::new(
                    ErrorCode::Partizan,
                    format!("`{name}` combines impartial games; this component is partizan"),
                    span,
                )
                .label("a position of a game with left or right moves")
                .help("partizan positions combine only by sums: `+` or `sum(...)`"),
            );
        }
    }

    /// `sum(e for clauses)` and the other compounds over a comprehension.
    pub(super) fn compound_compr(
        &mut self,
        name: &ast::Ident,
        elem: &ast::Expr,
        clauses: &[ast::Clause],
        scope: &mut Scope,
    ) -> (IExpr, Ty) {
        let n = name.name.as_str();
        let Some(kind) = Compound::from_name(n).filter(|_| COMPOUNDS.contains(&n)) else {
            self.error(
                Diagnostic::new(
                    ErrorCode::UnknownCallee,
                    format!("`{n}(... for ...)`: only a compound takes a comprehension"),
                    name.span,
                )
                .label("not a compound")
                .help("write sum, union, selective, conjunctive, continued or wtia, or a set `{ e for x in D }`"),
            );
            return (IExpr::from(IExprKind::End), Ty::Game);
        };
        if self.in_const {
            self.not_const(name.span, "a compound");
            return (IExpr::from(IExprKind::End), Ty::Game);
        }
        let mark = scope.mark();
        let clauses = self.clauses(clauses, scope, "a comprehension's condition");
        let ir = self.expect(elem, &Ty::Game, scope, &format!("a component of `{n}`"));
        scope.reset(mark);
        self.impartial_component(kind, n, &ir, elem.span);
        (
            IExpr::from(IExprKind::CompoundOf {
                kind,
                elem: Box::new(ir),
                clauses,
            }),
            Ty::Game,
        )
    }

    /// Whether `e` is plainly a set, from its form and the names it uses (it is checked
    /// once, later, in its place).
    fn is_set(&self, e: &ast::Expr, scope: &Scope) -> bool {
        let set = |ty: &Ty| matches!(ty, Ty::Set(_));
        match &e.kind {
            ExprKind::Set(_) | ExprKind::Compr(..) => true,
            ExprKind::Name(n) => match scope.lookup(n) {
                Some(var) => set(&var.ty),
                None => {
                    (self.consts.get(n)).is_some_and(|(_, ty, _)| set(ty))
                        || self.aliases.contains_key(n)
                        || self.type_ids.contains_key(n)
                }
            },
            ExprKind::Call(f, _) => (self.fn_ids.get(&f.name))
                .and_then(|&id| self.fn_sigs.get(id))
                .is_some_and(|sig| set(&sig.ret)),
            ExprKind::Binary(BinOp::RangeIncl | BinOp::RangeExcl, ..) => true,
            ExprKind::Binary(BinOp::Sub | BinOp::Union | BinOp::Inter, x, _) => {
                self.is_set(x, scope)
            }
            _ => false,
        }
    }

    pub(super) fn binary(
        &mut self,
        op: BinOp,
        l: &ast::Expr,
        r: &ast::Expr,
        span: Span,
        scope: &mut Scope,
    ) -> (IExpr, Ty) {
        if let Some(e) = self.range_then_set_op((op, l, r), span, scope) {
            return self.expr(&e, scope);
        }
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
                        Diagnostic::new(
                            ErrorCode::TypeMismatch,
                            format!("cannot compare {lt} with {rt}"),
                            span,
                        )
                        .help("both sides of `==` and `!=` must have the same type"),
                    );
                }
                let o = if op == BinOp::Eq { Op::Eq } else { Op::Ne };
                (if both_int { signed_mk(o) } else { mk(o) }, Ty::Bool)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let o = match op {
                    BinOp::Lt => Op::Lt,
                    BinOp::Le => Op::Le,
                    BinOp::Gt => Op::Gt,
                    _ => Op::Ge,
                };
                if both_int {
                    return (signed_mk(o), Ty::Bool);
                }
                // Other values are ordered as Rust derives it: tuples lexicographically,
                // tags by declaration then payload, `false` before `true`, sets as their
                // sorted elements.
                match lt.join(&rt) {
                    Some(t) if orderable(&t) => {}
                    Some(t) => self.mismatch(
                        span,
                        &sym,
                        "numbers, booleans, tuples, tagged values or sets",
                        &t,
                    ),
                    None => self.error(
                        Diagnostic::new(
                            ErrorCode::TypeMismatch,
                            format!("cannot compare {lt} with {rt}"),
                            span,
                        )
                        .help(format!("both sides of {sym} must have the same type")),
                    ),
                }
                (mk(o), Ty::Bool)
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

    pub(super) fn call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        scope: &mut Scope,
    ) -> (IExpr, Ty) {
        let any = (IExpr::from(IExprKind::Lit(Val::Int(0))), Ty::Any);
        let n = name.name.as_str();
        if self.in_const && self.declared.contains(n) {
            self.not_const(span, "a position or function call");
            return any;
        }
        if let Some(variant) = self.variants.get(n).cloned() {
            if variant.fields.len() != args.len() {
                self.arity(name, span, variant.fields.len(), args.len(), "value");
                return (
                    IExpr::from(IExprKind::Lit(Val::Int(0))),
                    Ty::Union(variant.ty.clone()),
                );
            }
            let mut irs = Vec::new();
            for (i, (a, f)) in args.iter().zip(&variant.fields).enumerate() {
                irs.push(self.field_value(a, f, &format!("value {} of `{n}`", i + 1), scope));
            }
            let ty = Ty::Union(variant.ty.clone());
            return (
                IExpr::from(IExprKind::Variant { variant, args: irs }).at(span),
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
                    IExpr::from(IExprKind::Pos {
                        game: gid,
                        args: Vec::new(),
                        fits: false,
                    })
                    .at(span),
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
                IExpr::from(IExprKind::Pos {
                    game: gid,
                    args: irs,
                    fits: false,
                })
                .at(span),
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
                    Diagnostic::new(
                        ErrorCode::Arity,
                        format!("`{n}` needs at least one component"),
                        span,
                    )
                    .help(format!("write `{n}(A, B, ...)`")),
                );
            }
            let irs: Vec<IExpr> = args
                .iter()
                .map(|a| self.expect(a, &Ty::Game, scope, &format!("a component of `{n}`")))
                .collect();
            for (a, ir) in args.iter().zip(&irs) {
                self.impartial_component(c, n, ir, a.span);
            }
            return (
                IExpr::from(IExprKind::Compound {
                    kind: c,
                    parts: irs,
                }),
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
                return (IExpr::from(IExprKind::Lit(Val::Int(0))), ret);
            }
            let irs: Vec<IExpr> = args
                .iter()
                .zip(&params)
                .map(|(a, t)| self.expect(a, t, scope, &format!("an argument of `{n}`")))
                .collect();
            // A constant argument outside its parameter's type is an error now.
            let declared: Vec<FieldTy> = self.program.fns[fid]
                .params
                .iter()
                .map(|(_, t)| t.clone())
                .collect();
            for ((ir, t), a) in irs.iter().zip(&declared).zip(args) {
                if let IExprKind::Lit(v) = ir.kind() {
                    if !t.admits(&v.clone().normalize()) {
                        self.error(
                            Diagnostic::new(
                                ErrorCode::OutOfRange,
                                format!("{v} is out of range for an argument of `{n}` ({t})"),
                                a.span,
                            )
                            .label("out of range")
                            .help(format!("this argument of `{n}` takes values in {t}")),
                        );
                    }
                }
            }
            if let Some(caller) = self.current_fn {
                self.calls[caller].push((fid, name.span));
            }
            return (
                IExpr::from(IExprKind::Call {
                    func: fid,
                    args: irs,
                    ret: ret.clone(),
                    in_table: false,
                }),
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
                ErrorCode::UnknownCallee,
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
    pub(super) fn field_value(
        &mut self,
        a: &ast::Expr,
        t: &FieldTy,
        what: &str,
        scope: &mut Scope,
    ) -> IExpr {
        let (ir, ty) = self.expr(a, scope);
        let fits = fills(&ty, t);
        if !fits {
            self.error(
                Diagnostic::new(
                    ErrorCode::TypeMismatch,
                    format!("type mismatch: {what} is {t}, found {ty}"),
                    a.span,
                )
                .label(format!("this is {ty}"))
                .help(format!("give {what} a value of type {t}")),
            );
        }
        if let (IExprKind::Lit(v), true) = (ir.kind(), fits) {
            if !t.admits(&v.clone().normalize()) && ty != Ty::Any {
                self.error(
                    Diagnostic::new(
                        ErrorCode::OutOfRange,
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

    pub(super) fn arity(
        &mut self,
        name: &ast::Ident,
        span: Span,
        want: usize,
        got: usize,
        what: &str,
    ) {
        let _ = span;
        self.error(
            Diagnostic::new(
                ErrorCode::Arity,
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

    pub(super) fn builtin(
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
                    ErrorCode::Arity,
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
                    return (IExpr::from(IExprKind::Lit(Val::Int(0))), Ty::Any);
                }
                if args.len() == 1 {
                    return match &tys[0] {
                        Ty::Set(t) | Ty::List(t) => (
                            IExpr::from(IExprKind::Builtin { func: b, args: irs }).at(span),
                            (**t).clone(),
                        ),
                        other => {
                            self.mismatch(args[0].span, &format!("`{n}`"), "a set or list", other);
                            (IExpr::from(IExprKind::Lit(Val::Int(0))), Ty::Any)
                        }
                    };
                }
                if tys.iter().all(Ty::is_int) {
                    let all_nat = tys.iter().all(|t| t.fits(&Ty::Nat));
                    return (
                        IExpr::from(IExprKind::Builtin { func: b, args: irs }).at(span),
                        if all_nat { Ty::Nat } else { Ty::Int },
                    );
                }
                // Ordered values of one type (tuples, tags, booleans, sets).
                let joined = (tys.iter().skip(1)).try_fold(tys[0].clone(), |t, u| t.join(u));
                match joined {
                    Some(t) if orderable(&t) => (
                        IExpr::from(IExprKind::Builtin { func: b, args: irs }).at(span),
                        t,
                    ),
                    _ => {
                        for (t, a) in tys.iter().zip(args) {
                            if !t.is_int() {
                                self.mismatch(a.span, &format!("`{n}`"), "a number", t);
                            }
                        }
                        (IExpr::from(IExprKind::Lit(Val::Int(0))), Ty::Any)
                    }
                }
            }
            "abs" => {
                if args.len() != 1 {
                    bad_arity(self, "one number");
                } else if !tys[0].is_int() {
                    self.mismatch(args[0].span, "`abs`", "a number", &tys[0]);
                }
                let irs = irs.into_iter().map(signed).collect();
                (
                    IExpr::from(IExprKind::Builtin {
                        func: Builtin::Abs,
                        args: irs,
                    })
                    .at(span),
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
                    IExpr::from(IExprKind::Builtin {
                        func: Builtin::Len,
                        args: irs,
                    })
                    .at(span),
                    Ty::Nat,
                )
            }
        }
    }
}

/// `e` with its `nat` subtractions made `int` ones, through the arithmetic that carries
/// their value out (`+`, `-`, `*`, negation and `if` branches): for a context that wants an
/// `int`, such as `abs(a - b)` or `a - b >= c`, where a negative difference is no error.
pub(super) fn signed(e: IExpr) -> IExpr {
    let span = e.span();
    e.take_apart(|kind| match kind {
        IExprKind::Bin {
            op: op @ (Op::NatSub | Op::Sub | Op::Add | Op::Mul),
            lhs,
            rhs,
        } => {
            let op = if op == Op::NatSub { Op::Sub } else { op };
            Ok(IExpr::bin(op, signed(*lhs), signed(*rhs), span))
        }
        IExprKind::Neg { arg } => Ok(IExpr::from(IExprKind::Neg {
            arg: Box::new(signed(*arg)),
        })
        .at(span)),
        IExprKind::If {
            cond,
            then,
            otherwise,
        } => Ok(IExpr::from(IExprKind::If {
            cond,
            then: Box::new(signed(*then)),
            otherwise: Box::new(signed(*otherwise)),
        })),
        other => Err(other),
    })
    .unwrap_or_else(|e| e)
}

/// Whether values of `t` are ordered (for `<`, `min`, sorting): numbers, booleans, tuples,
/// tagged values and sets of ordered values; not lists (native code keeps them as handles)
/// or positions.
fn orderable(t: &Ty) -> bool {
    match t {
        Ty::Nat | Ty::Int | Ty::Bool | Ty::Union(_) | Ty::Any => true,
        Ty::Tuple(ts) => ts.iter().all(orderable),
        Ty::Set(t) => orderable(t),
        Ty::List(_) | Ty::Game => false,
    }
}

/// Whether a value of static type `ty` may fill a field (or payload value) of type `t`:
/// where `t` has the type, and where an `int` stands for a `nat` or a range, alone or as a
/// tuple's component (`King((x.0 + dr, x.1 + dc))`): those integers are checked against
/// their types where the value is built, in both back ends, as a `nat` field's are.
fn fills(ty: &Ty, t: &FieldTy) -> bool {
    match (ty, t) {
        (Ty::Int, FieldTy::Nat | FieldTy::Range(..)) => true,
        (Ty::Tuple(parts), FieldTy::Tuple(fields)) if parts.len() == fields.len() => {
            parts.iter().zip(fields).all(|(p, f)| fills(p, f))
        }
        _ => ty.fits(&t.ty()),
    }
}
