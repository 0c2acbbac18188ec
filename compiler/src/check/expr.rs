//! Expressions: names, literals, tuples, sets and lists, `if`, `let`, quantifiers,
//! comprehensions and `match`.

use super::*;

impl Checker<'_> {
    pub(super) fn expr(&mut self, e: &ast::Expr, scope: &mut Scope) -> (IExpr, Ty) {
        let errors = self.diags.len();
        let (ir, ty) = self.expr_unchecked(e, scope);
        // The IR tells every expression's type (`IExpr::ty`): the one found here wherever
        // the expression checked without error, or `nat` for an `int` it found where the
        // value is surely not negative (a constant of type `int` that is not, or arithmetic
        // on such).
        if cfg!(debug_assertions) && self.diags.len() == errors && !ty.has_any() {
            let read = ir.ty();
            assert!(
                read.fits(&ty) && !read.has_any(),
                "internal error: the IR reads type {read} where the checker found {ty}: {ir:?}"
            );
        }
        (ir, ty)
    }

    fn expr_unchecked(&mut self, e: &ast::Expr, scope: &mut Scope) -> (IExpr, Ty) {
        let any = (IExpr::from(IExprKind::Lit(Val::Int(0))), Ty::Any);
        match &e.kind {
            ExprKind::IntTooLarge => {
                self.error(
                    Diagnostic::new(ErrorCode::OutOfRange, "this number is too large", e.span)
                        .help("numbers lie between -9223372036854775807 and 9223372036854775807"),
                );
                any
            }
            ExprKind::Int(n) => (
                IExpr::from(IExprKind::Lit(Val::Int(*n))),
                if *n >= 0 { Ty::Nat } else { Ty::Int },
            ),
            ExprKind::Bool(b) => (IExpr::from(IExprKind::Lit(Val::Bool(*b))), Ty::Bool),
            ExprKind::End => (IExpr::from(IExprKind::End), Ty::Game),
            ExprKind::Name(n) => {
                if let Some(var) = scope.lookup(n) {
                    let ty = var.ty.clone();
                    return (IExpr::from(IExprKind::Var(var)), ty);
                }
                if let Some((v, ty, _)) = self.consts.get(n) {
                    return (IExpr::from(IExprKind::Lit(v.clone())), ty.clone());
                }
                if let Some(variant) = self.variants.get(n).cloned() {
                    if variant.fields.is_empty() {
                        let ty = Ty::Union(variant.ty.clone());
                        return (
                            IExpr::from(IExprKind::Variant {
                                variant,
                                args: Vec::new(),
                            })
                            .at(e.span),
                            ty,
                        );
                    }
                    self.error(
                        Diagnostic::new(
                            ErrorCode::Arity,
                            format!("`{n}` needs {} value(s)", variant.fields.len()),
                            e.span,
                        )
                        .help(format!("write a value of this variant as `{n}(...)`")),
                    );
                    return any;
                }
                if let Some(&id) = self.type_ids.get(n) {
                    let union = FieldTy::Union(UnionRef {
                        id,
                        name: n.as_str().into(),
                    });
                    return self.type_as_set(n, union, e.span);
                }
                if let Some(ty) = self.aliases.get(n).cloned() {
                    return self.type_as_set(n, ty, e.span);
                }
                if let Some(&gid) = self.game_ids.get(n) {
                    if self.program.games[gid].fields.is_empty() {
                        return (
                            IExpr::from(IExprKind::Pos {
                                game: gid,
                                args: Vec::new(),
                                fits: false,
                            })
                            .at(e.span),
                            Ty::Game,
                        );
                    }
                    let arity = self.program.games[gid].fields.len();
                    self.error(
                        Diagnostic::new(
                            ErrorCode::Arity,
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
                    Diagnostic::new(
                        ErrorCode::UnknownName,
                        format!("unknown name `{n}`"),
                        e.span,
                    )
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
                            IExpr::from(IExprKind::Neg { arg: Box::new(ir) }).at(e.span),
                            Ty::Int,
                        )
                    }
                    UnOp::Not => {
                        if !ty.fits(&Ty::Bool) {
                            self.mismatch(inner.span, "`not`", "bool", &ty);
                        }
                        (IExpr::from(IExprKind::Not(Box::new(ir))), Ty::Bool)
                    }
                }
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, e.span, scope),
            ExprKind::Call(name, args) => self.call(name, args, e.span, scope),
            ExprKind::Field(inner, idx) => {
                let (ir, ty) = self.expr(inner, scope);
                match ty {
                    Ty::Tuple(ts) if *idx < ts.len() => (
                        IExpr::from(IExprKind::Field {
                            tuple: Box::new(ir),
                            index: *idx,
                        }),
                        ts[*idx].clone(),
                    ),
                    Ty::Any => (
                        IExpr::from(IExprKind::Field {
                            tuple: Box::new(ir),
                            index: *idx,
                        }),
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
                            Diagnostic::new(ErrorCode::TypeMismatch, message, e.span)
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
                        hi_ir = IExpr::from(IExprKind::Bin {
                            op: Op::Add,
                            lhs: Box::new(hi_ir),
                            rhs: Box::new(IExpr::from(IExprKind::Lit(Val::Int(1)))),
                        })
                        .at(idx.span);
                    }
                    if !matches!(lt, Ty::List(_) | Ty::Any) {
                        self.mismatch(list.span, "a slice", "a list", &lt);
                    }
                    return (
                        IExpr::from(IExprKind::Slice {
                            list: Box::new(l),
                            lo: Some(Box::new(lo_ir)),
                            hi: Some(Box::new(hi_ir)),
                        })
                        .at(e.span),
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
                    IExpr::from(IExprKind::Index {
                        list: Box::new(l),
                        index: Box::new(i),
                    })
                    .at(e.span),
                    elem,
                )
            }
            ExprKind::Closure(kind, seed, var, next) => {
                let (what, step) = match kind {
                    ClosureKind::Reach => ("`closure`", "`closure`'s step"),
                    ClosureKind::Components => ("`components`", "`components`'s step"),
                };
                let (seed_ir, seed_ty) = self.expr(seed, scope);
                let elem = match seed_ty {
                    Ty::Set(t) => *t,
                    Ty::Any => Ty::Any,
                    other => {
                        let expected = match kind {
                            ClosureKind::Reach => "a set as its seed",
                            ClosureKind::Components => "a set to divide",
                        };
                        self.mismatch(seed.span, what, expected, &other);
                        Ty::Any
                    }
                };
                let mark = scope.mark();
                let var = self.bind(scope, var, elem.clone());
                let want = Ty::Set(Box::new(elem));
                let next_ir = self.expect(next, &want, scope, step);
                scope.reset(mark);
                let ty = match kind {
                    ClosureKind::Reach => want,
                    ClosureKind::Components => Ty::List(Box::new(want)),
                };
                (
                    IExpr::from(IExprKind::Closure {
                        kind: *kind,
                        seed: Box::new(seed_ir),
                        var,
                        next: Box::new(next_ir),
                    }),
                    ty,
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
                    IExpr::from(IExprKind::Slice {
                        list: Box::new(l),
                        lo,
                        hi,
                    })
                    .at(e.span),
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
                    IExpr::from(IExprKind::With {
                        list: Box::new(l),
                        index: Box::new(i),
                        value: Box::new(v),
                    })
                    .at(e.span),
                    lt,
                )
            }
            ExprKind::Tuple(items) => {
                let (irs, tys): (Vec<_>, Vec<_>) =
                    items.iter().map(|i| self.expr(i, scope)).unzip();
                (IExpr::from(IExprKind::Tuple(irs)), Ty::Tuple(tys))
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
                                ErrorCode::TypeMismatch,
                                format!("elements differ in type: {elem} and {ty}"),
                                i.span,
                            )
                            .help("every element of a set or list has the same type"),
                        ),
                    }
                    irs.push(ir);
                }
                if matches!(e.kind, ExprKind::Set(_)) {
                    (IExpr::from(IExprKind::Set(irs)), Ty::Set(Box::new(elem)))
                } else {
                    (IExpr::from(IExprKind::List(irs)), Ty::List(Box::new(elem)))
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
                                ErrorCode::TypeMismatch,
                                format!("`if` branches differ in type: {at} and {bt}"),
                                b.span,
                            )
                            .help("both branches must have the same type"),
                        );
                        Ty::Any
                    }
                };
                (
                    IExpr::from(IExprKind::If {
                        cond: Box::new(c),
                        then: Box::new(a_ir),
                        otherwise: Box::new(b_ir),
                    }),
                    ty,
                )
            }
            ExprKind::Let(pat, value, body) => {
                let (v, vt) = self.expr(value, scope);
                let mark = scope.mark();
                let mut lets = Vec::new();
                let var = self.bind_pattern(pat, vt, scope, &mut lets);
                let (b, bt) = self.expr(body, scope);
                let b = wrap_lets(lets, b);
                scope.reset(mark);
                (
                    IExpr::from(IExprKind::Let {
                        var,
                        value: Box::new(v),
                        body: Box::new(b),
                    }),
                    bt,
                )
            }
            ExprKind::Quant(kind, pat, dom, body) => {
                let mark = scope.mark();
                let bound = self.binder(pat, dom, scope);
                let b = self.expect(body, &Ty::Bool, scope, "a quantifier's condition");
                let b = wrap_lets(bound.lets, b);
                scope.reset(mark);
                let ty = if *kind == QuantKind::Count {
                    Ty::Nat
                } else {
                    Ty::Bool
                };
                (
                    IExpr::from(IExprKind::Quant {
                        kind: *kind,
                        vars: bound.vars,
                        domain: Box::new(bound.domain),
                        body: Box::new(b),
                    }),
                    ty,
                )
            }
            ExprKind::Match(scrutinee, arms) => self.match_expr(scrutinee, arms, e.span, scope),
            ExprKind::CompoundCompr(name, elem, clauses) => {
                self.compound_compr(name, elem, clauses, scope)
            }
            ExprKind::Compr(elem, clauses) => {
                let mark = scope.mark();
                let clauses = self.clauses(clauses, scope, "a comprehension's condition");
                let (el, et) = self.expr(elem, scope);
                scope.reset(mark);
                (
                    IExpr::from(IExprKind::Compr {
                        elem: Box::new(el),
                        clauses,
                    }),
                    Ty::Set(Box::new(et)),
                )
            }
        }
    }

    /// `match e { Tag(x, ...) => a, ..., _ => b }`: every variant of `e`'s type has an arm
    /// (or `_` covers the rest), each at most once; payload names are new binders.
    pub(super) fn match_expr(
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
                        ErrorCode::TypeMismatch,
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
            // The parts of tuple patterns in the payload, named around the arm's body.
            let mut arm_lets = Vec::new();
            if let Some((tag, names)) = &arm.pattern {
                match self.variants.get(&tag.name).cloned() {
                    Some(v) if uref.as_ref().is_none_or(|u| u.id == v.ty.id) => {
                        if names.len() != v.fields.len() {
                            self.arity(tag, tag.span, v.fields.len(), names.len(), "name");
                        }
                        if iarms.iter().any(|a| a.variant == v.variant) {
                            self.error(
                                Diagnostic::new(
                                    ErrorCode::DuplicateArm,
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
                            .map(|(pat, t)| self.bind_pattern(pat, t.ty(), scope, &mut arm_lets))
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
                                ErrorCode::TypeMismatch,
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
                                ErrorCode::UnknownName,
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
                    Diagnostic::new(ErrorCode::DuplicateArm, "a second `_` arm", arm.span)
                        .label("never reached")
                        .help("keep one `_` arm, last"),
                );
            }
            let (body, bty) = self.expr(&arm.body, scope);
            let body = wrap_lets(arm_lets, body);
            scope.reset(mark);
            result = match result {
                None => Some(bty),
                Some(t) => match t.join(&bty) {
                    Some(j) => Some(j),
                    None => {
                        self.error(
                            Diagnostic::new(
                                ErrorCode::TypeMismatch,
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
                        ErrorCode::MissingArm,
                        format!("this `match` has no arm for {}", missing.join(", ")),
                        span,
                    )
                    .label("not every variant is covered")
                    .help("add an arm for each missing variant, or a last arm `_ => ...`"),
                );
            }
        }
        (
            IExpr::from(IExprKind::Match {
                scrutinee: Box::new(sir),
                ty: uref.map_or(0, |u| u.id),
                arms: iarms,
                default,
            }),
            result.unwrap_or(Ty::Any),
        )
    }

    pub(super) fn mismatch(&mut self, span: Span, what: &str, want: &str, found: &Ty) {
        if *found == Ty::Any {
            return;
        }
        self.error(
            Diagnostic::new(
                ErrorCode::TypeMismatch,
                format!("type mismatch: {what} needs {want}, found {found}"),
                span,
            )
            .label(format!("this is {found}"))
            .help(format!("write {want} here")),
        );
    }
}

/// `body` inside a `let` for each of `lets`, the first outermost.
fn wrap_lets(lets: Vec<(Var, IExpr)>, body: IExpr) -> IExpr {
    (lets.into_iter().rev()).fold(body, |body, (var, value)| {
        IExpr::from(IExprKind::Let {
            var,
            value: Box::new(value),
            body: Box::new(body),
        })
    })
}
