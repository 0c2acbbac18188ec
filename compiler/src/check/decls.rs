//! Declarations: names taken once, tagged unions and their values, constants, field types.

use super::*;

impl Checker<'_> {
    /// Whether a name is taken by a game, a function, a constant, a type or a variant.
    pub(super) fn taken(&self, name: &str) -> bool {
        self.consts.contains_key(name)
            || self.declared.contains(name)
            || self.type_ids.contains_key(name)
            || self.aliases.contains_key(name)
            || self.variants.contains_key(name)
    }

    /// E0104: `name` is defined again.
    pub(super) fn duplicate(&mut self, name: &ast::Ident, help: impl Into<String>) {
        self.error(
            Diagnostic::new(
                ErrorCode::Duplicate,
                format!("`{}` is defined more than once", name.name),
                name.span,
            )
            .label("defined again here")
            .help(help),
        );
    }

    /// `type Name = Tag(T, ...) | ...`: payload types may use earlier constants and types.
    pub(super) fn type_decl(&mut self, t: &ast::TypeDecl) {
        const SHARED: &str =
            "games, functions, constants, types and variants share one namespace; rename one";
        if self.taken(&t.name.name) {
            self.duplicate(&t.name, SHARED);
            return;
        }
        // Another name for a type: `type Cell = (0..R, 0..C)`, or `type Heap = nat` (a lone
        // tag that names a type).
        let named = match t.variants.as_slice() {
            [v] if v.fields.is_empty() && self.names_type(&v.name.name) => {
                Some(ast::TypeExpr::Named(v.name.clone()))
            }
            _ => None,
        };
        if let Some(alias) = t.alias.as_ref().or(named.as_ref()) {
            let ty = self.field_ty(alias);
            self.aliases.insert(t.name.name.clone(), ty);
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

    /// Whether `name` names a type: a built-in one or one declared so far.
    fn names_type(&self, name: &str) -> bool {
        matches!(name, "nat" | "int" | "bool")
            || self.type_ids.contains_key(name)
            || self.aliases.contains_key(name)
    }

    /// Every value of a field type, in order, when it is finite and has at most
    /// `MAX_TYPE_VALUES` values.
    pub(super) fn all_values(&self, t: &FieldTy) -> Option<Vec<Val>> {
        t.values(&self.program.types, MAX_TYPE_VALUES)
    }

    /// A type's name as a value: the set of all its values.
    pub(super) fn type_as_set(&mut self, name: &str, ty: FieldTy, span: Span) -> (IExpr, Ty) {
        match self.all_values(&ty) {
            Some(vals) => {
                let elem = ty.ty();
                (
                    IExpr::from(IExprKind::AllOf {
                        ty,
                        values: Val::Set(Rc::new(vals.into_iter().collect())),
                    }),
                    Ty::Set(Box::new(elem)),
                )
            }
            None => {
                self.error(
                    Diagnostic::new(
                        ErrorCode::InfiniteDomain,
                        format!(
                            "type `{name}` is infinite or too large (over {MAX_TYPE_VALUES} values) to be a domain"
                        ),
                        span,
                    )
                    .label("not a finite domain")
                    .help("a type is a domain when it is finite: a range, bool, a tuple of such types, or a tagged type whose payloads are such types"),
                );
                (IExpr::from(IExprKind::Lit(Val::EMPTY_RANGE)), Ty::Any)
            }
        }
    }

    pub(super) fn constant(&mut self, name: &ast::Ident, e: &ast::Expr) {
        if self.consts.contains_key(&name.name)
            || self.type_ids.contains_key(&name.name)
            || self.aliases.contains_key(&name.name)
            || self.variants.contains_key(&name.name)
        {
            self.duplicate(name, "rename one of the constants");
            return;
        }
        let Some((ir, ty)) = self.const_expr(e) else {
            self.consts
                .insert(name.name.clone(), (Val::Int(0), Ty::Any, name.span));
            return;
        };
        match eval_const(&ir) {
            Ok(v) => {
                self.consts.insert(name.name.clone(), (v, ty, name.span));
            }
            Err(err) => {
                self.error(
                    Diagnostic::new(
                        ErrorCode::ConstEval,
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

    /// Checks `e` as a constant expression (no names but constants, no positions or
    /// calls), or `None` when it has errors (reported).
    fn const_expr(&mut self, e: &ast::Expr) -> Option<(IExpr, Ty)> {
        self.in_const = true;
        let errors_before = self.diags.len();
        let checked = self.expr(e, &mut Scope::new());
        self.in_const = false;
        (self.diags.len() == errors_before).then_some(checked)
    }

    /// Evaluates a constant integer expression (type bounds, subtraction sets).
    pub(super) fn const_int(&mut self, e: &ast::Expr) -> Option<i64> {
        let (ir, ty) = self.const_expr(e)?;
        if !ty.is_int() {
            self.error(
                Diagnostic::new(
                    ErrorCode::TypeMismatch,
                    format!("expected a number, found {ty}"),
                    e.span,
                )
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
                        ErrorCode::ConstEval,
                        format!("cannot evaluate constant: {}", err.message),
                        err.span.unwrap_or(e.span),
                    )
                    .help("bounds must evaluate without errors when the file is checked"),
                );
                None
            }
        }
    }

    pub(super) fn field_ty(&mut self, t: &ast::TypeExpr) -> FieldTy {
        match t {
            ast::TypeExpr::Named(id) => match id.name.as_str() {
                "nat" => FieldTy::Nat,
                "int" => FieldTy::Int,
                "bool" => FieldTy::Bool,
                other if self.type_ids.contains_key(other) => FieldTy::Union(UnionRef {
                    id: self.type_ids[other],
                    name: other.into(),
                }),
                other if self.aliases.contains_key(other) => self.aliases[other].clone(),
                other => {
                    let known = ["nat", "int", "bool"].into_iter();
                    let declared = self.type_ids.keys().chain(self.aliases.keys());
                    let help = suggest(other, known.chain(declared.map(String::as_str)))
                        .unwrap_or_else(|| {
                            "types are nat, int, bool, ranges lo..hi, tuples, set<T>, list<T> \
                             and declared types"
                                .to_string()
                        });
                    self.error(
                        Diagnostic::new(
                            ErrorCode::UnknownType,
                            format!("unknown type `{other}`"),
                            id.span,
                        )
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
                                Diagnostic::new(
                                    ErrorCode::EmptyRangeType,
                                    "this range type is empty",
                                    *span,
                                )
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

    pub(super) fn game_fields(&mut self, g: &ast::GameDecl) -> Vec<Field> {
        match &g.body {
            ast::GameBody::Rules { params, .. } => {
                let mut names: Vec<&str> = Vec::new();
                let mut fields = Vec::new();
                for p in params {
                    if names.contains(&p.name.name.as_str()) {
                        self.error(
                            Diagnostic::new(
                                ErrorCode::Shadowing,
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
}
