//! The verifier: checks that a program is well formed, as the checker makes it and as every
//! pass must leave it. Every name read is bound around it (the same name in the same slot)
//! and not bound twice on one path, and is its slot's in its body's [`Locals`] (whose first
//! names are the body's fields, parameters or binders); every call names a function, passes
//! its parameters and holds its result type; every position names a game and gives its
//! fields; an inverted quantifier's table fits its domain and element type; a function's
//! table has a value slot per argument of its box. `opt::optimize` runs it after the checker
//! and after each pass in debug builds (the tests), so that a pass that breaks the IR is
//! named where it does.

use super::*;

/// Whether `program` is well formed; else what is wrong, and where.
pub fn verify(program: &Program) -> Result<(), String> {
    for (i, f) in program.fns.iter().enumerate() {
        let v = Verifier {
            program,
            locals: &f.locals,
        };
        v.first_names(f.params.iter().map(|(name, ty)| (name.clone(), ty.ty())))
            .map_err(|e| format!("function `{}`: {e}", f.name))?;
        let mut bound: Vec<(VarId, Rc<str>)> = (f.params.iter().enumerate())
            .map(|(slot, (name, _))| (VarId::new(slot), name.clone()))
            .collect();
        v.expr(&f.body, &mut bound)
            .map_err(|e| format!("function `{}`: {e}", f.name))?;
        if let Some(t) = &f.table {
            let args = FieldTy::Tuple(t.types.clone()).values(&program.types, t.values.len());
            if args.map(|a| a.len()) != Some(t.values.len()) || t.types.len() != f.params.len() {
                return Err(format!(
                    "function {i} `{}`: a table that is not its box",
                    f.name
                ));
            }
        }
    }
    for (gid, g) in program.games.iter().enumerate() {
        let v = Verifier {
            program,
            locals: &g.locals,
        };
        v.first_names(g.fields.iter().map(|f| (f.name.as_str().into(), f.ty.ty())))
            .map_err(|e| format!("game `{}`: {e}", g.name))?;
        let fields = || -> Vec<(VarId, Rc<str>)> {
            (g.fields.iter().enumerate())
                .map(|(slot, f)| (VarId::new(slot), Rc::from(f.name.as_str())))
                .collect()
        };
        let at = |what: &str, e: String| format!("game `{}`, {what}: {e}", g.name);
        if let GameKind::Rules(moves) = &g.kind {
            for m in moves {
                v.rule(&m.clauses, &m.result, &mut fields())
                    .map_err(|e| at(&format!("move `{}`", m.name), e))?;
            }
        }
        if let Some(moves) = g.translation.as_ref().and_then(|t| t.stripped.as_ref()) {
            for m in moves {
                v.rule(&m.clauses, &m.result, &mut fields())
                    .map_err(|e| at(&format!("move `{}` without corner moves", m.name), e))?;
            }
        }
        for s in &g.symmetries {
            v.expr(&s.result, &mut fields())
                .map_err(|e| at(&format!("symmetry `{}`", s.name), e))?;
        }
        for m in g.open_moves.iter().flatten() {
            v.rule(&m.clauses, &m.result, &mut fields())
                .map_err(|e| at(&format!("open move `{}`", m.name), e))?;
        }
        if let Some(t) = &g.symmetry_tables {
            let fits = t.maps.len() == g.symmetries.len()
                && t.context
                    .iter()
                    .all(|(f, values)| *f < g.fields.len() && !values.is_empty())
                && (t.maps.iter().flatten()).all(|m| {
                    m.entries.len() == t.context.count()
                        && (m.entries.iter().flatten()).all(|(to, images)| {
                            *to < t.context.count() && images.len() == g.fields.len()
                        })
                });
            if !fits {
                return Err(at(
                    "symmetry tables",
                    "they do not fit the game".to_string(),
                ));
            }
        }
        for m in g.kernel_moves.iter().flatten() {
            let bound = &mut fields();
            v.clauses(&m.clauses, bound)
                .and_then(|()| v.kernel_result(gid, &m.result, bound))
                .map_err(|e| at("kernel move", e))?;
        }
        if let Some(p) = &g.end_probe {
            v.expr(p, &mut fields()).map_err(|e| at("end probe", e))?;
        }
    }
    for q in &program.queries {
        let v = Verifier {
            program,
            locals: &q.locals,
        };
        v.first_names(
            q.binders
                .iter()
                .map(|(v, _)| (v.name.clone(), v.ty.clone())),
        )
        .map_err(|e| format!("query `{}`: {e}", q.text))?;
        let mut bound = Vec::new();
        for (var, domain) in &q.binders {
            v.expr(domain, &mut bound)
                .map_err(|e| format!("query `{}`: {e}", q.text))?;
            v.bind(std::slice::from_ref(var), &mut bound)
                .map_err(|e| format!("query `{}`: {e}", q.text))?;
        }
        v.expr(&q.target, &mut bound)
            .map_err(|e| format!("query `{}`: {e}", q.text))?;
    }
    Ok(())
}

struct Verifier<'p> {
    program: &'p Program,
    /// The names of the body being checked, by slot.
    locals: &'p Locals,
}

impl Verifier<'_> {
    /// A move: its clauses in order, then its result.
    fn rule(
        &self,
        clauses: &[IClause],
        result: &IExpr,
        bound: &mut Vec<(VarId, Rc<str>)>,
    ) -> Result<(), String> {
        let depth = bound.len();
        self.clauses(clauses, bound)?;
        self.expr(result, bound)?;
        bound.truncate(depth);
        Ok(())
    }

    /// A kernel move's result of game `gid`: its positions have the game's fields.
    fn kernel_result(
        &self,
        gid: usize,
        result: &KernelResult,
        bound: &mut Vec<(VarId, Rc<str>)>,
    ) -> Result<(), String> {
        let position = |args: &[IExpr], bound: &mut Vec<(VarId, Rc<str>)>| {
            if args.len() != self.program.games[gid].fields.len() {
                return Err(format!("a kernel position with {} fields", args.len()));
            }
            args.iter().try_for_each(|a| self.expr(a, bound))
        };
        match result {
            KernelResult::End => Ok(()),
            KernelResult::Position(args) => position(args, bound),
            KernelResult::Sum(a, b) => position(a, bound).and_then(|()| position(b, bound)),
            KernelResult::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond, bound)?;
                self.kernel_result(gid, then, bound)?;
                self.kernel_result(gid, otherwise, bound)
            }
            KernelResult::Let { var, value, body } => {
                let depth = bound.len();
                self.expr(value, bound)?;
                self.bind(std::slice::from_ref(var), bound)?;
                self.kernel_result(gid, body, bound)?;
                bound.truncate(depth);
                Ok(())
            }
        }
    }

    /// Clauses in order, each binding what follows it (the names stay bound).
    fn clauses(
        &self,
        clauses: &[IClause],
        bound: &mut Vec<(VarId, Rc<str>)>,
    ) -> Result<(), String> {
        for c in clauses {
            match c {
                IClause::Bind(vars, domain) => {
                    self.expr(domain, bound)?;
                    self.bind(vars, bound)?;
                }
                IClause::Cond(x) => self.expr(x, bound)?,
                IClause::Let(var, value) => {
                    self.expr(value, bound)?;
                    self.bind(std::slice::from_ref(var), bound)?;
                }
            }
        }
        Ok(())
    }

    fn expr(&self, e: &IExpr, bound: &mut Vec<(VarId, Rc<str>)>) -> Result<(), String> {
        if e.kept_props()
            .is_some_and(|kept| *kept != Props::of(e.kind()))
        {
            return Err(format!("facts kept on {e:?} that are not its own"));
        }
        let depth = bound.len();
        match e.kind() {
            IExprKind::Var(v) => {
                if !bound.iter().any(|(s, n)| *s == v.slot && *n == v.name) {
                    return Err(format!(
                        "`{}` (slot {}) read where it is not bound",
                        v.name, v.slot
                    ));
                }
                self.own_slot(v)?;
            }
            IExprKind::Let { var, value, body } => {
                self.expr(value, bound)?;
                self.bind(std::slice::from_ref(var), bound)?;
                self.expr(body, bound)?;
            }
            IExprKind::Quant {
                vars, domain, body, ..
            } => {
                self.expr(domain, bound)?;
                self.bind(vars, bound)?;
                self.expr(body, bound)?;
            }
            IExprKind::Compr { elem, clauses } | IExprKind::CompoundOf { elem, clauses, .. } => {
                self.clauses(clauses, bound)?;
                self.expr(elem, bound)?;
            }
            IExprKind::Extreme(x) => {
                self.clauses(&x.clauses, bound)?;
                self.expr(&x.elem, bound)?;
            }
            IExprKind::Closure {
                seed, var, next, ..
            } => {
                self.expr(seed, bound)?;
                self.bind(std::slice::from_ref(var), bound)?;
                self.expr(next, bound)?;
            }
            IExprKind::Match {
                scrutinee,
                arms,
                default,
                ..
            } => {
                self.expr(scrutinee, bound)?;
                for arm in arms {
                    self.bind(&arm.vars, bound)?;
                    self.expr(&arm.body, bound)?;
                    bound.truncate(depth);
                }
                if let Some(d) = default {
                    self.expr(d, bound)?;
                }
            }
            IExprKind::Inverted(q) => {
                if q.looked_for.reads_any(std::slice::from_ref(&q.var)) {
                    return Err(format!(
                        "an inverted quantifier looks for `{}` itself",
                        q.var.name
                    ));
                }
                let t = &q.table;
                let fits = q.kind != crate::ast::QuantKind::Forall
                    && t.rows.len() == t.elem_rank.len()
                    && (t.rows.iter().flatten()).all(|&r| (r as usize) < t.domain_values.len())
                    && t.func < self.program.fns.len();
                if !fits {
                    return Err(format!(
                        "an inverted quantifier over `{}` whose table does not fit",
                        q.var.name
                    ));
                }
                self.expr(&q.looked_for, bound)?;
                self.bind(std::slice::from_ref(&q.var), bound)?;
                if let Some(rest) = &q.rest {
                    self.expr(rest, bound)?;
                }
            }
            IExprKind::Cells(op) => {
                let shaped = match (&op.kind, op.written.kind()) {
                    (
                        CellOpKind::Moved { .. } | CellOpKind::Mapped { .. },
                        IExprKind::Compr { .. },
                    ) => true,
                    (CellOpKind::Extreme { .. }, IExprKind::Builtin { args, .. }) => {
                        matches!(args.as_slice(), [c] if matches!(c.kind(), IExprKind::Compr { .. }))
                    }
                    (CellOpKind::Extreme { largest, .. }, IExprKind::Extreme(x)) => {
                        x.largest == *largest
                    }
                    _ => false,
                };
                let set_bound = bound
                    .iter()
                    .any(|(s, n)| *s == op.set.slot && *n == op.set.name);
                if !shaped || !set_bound {
                    return Err(format!(
                        "a cell operation on `{}` that is not one",
                        op.set.name
                    ));
                }
                self.expr(&op.written, bound)?;
            }
            IExprKind::Parts(op) => {
                let shaped = match (&op.kind, op.written.kind()) {
                    (
                        PartsKind::Sets,
                        IExprKind::Closure {
                            kind: crate::ast::ClosureKind::Components,
                            ..
                        },
                    ) => true,
                    (
                        PartsKind::Sum {
                            game,
                            part,
                            board,
                            joined,
                            ..
                        },
                        IExprKind::CompoundOf { elem, clauses, .. },
                    ) => {
                        let one_part = match clauses.as_slice() {
                            [IClause::Bind(vars, domain)] => {
                                let sets = matches!(domain.kind(),
                                    IExprKind::Parts(inner) if inner.kind == PartsKind::Sets);
                                matches!(vars.as_slice(), [v] if v == part) && sets
                            }
                            _ => false,
                        };
                        let of_game =
                            matches!(elem.kind(), IExprKind::Pos { game: g, .. } if g == game);
                        one_part && of_game && joined.len() == board.count() && joined.len() <= 128
                    }
                    _ => false,
                };
                if !shaped || op.steps.func >= self.program.fns.len() {
                    return Err("a division into parts that is not one".to_string());
                }
                self.expr(&op.written, bound)?;
            }
            IExprKind::Leaves(leaves) => {
                let terms = match &**leaves {
                    Leaves::Pair { a, b, .. } => vec![a, b],
                    Leaves::Each { elem, .. } => vec![elem],
                };
                if !terms
                    .iter()
                    .all(|t| matches!(t.kind(), IExprKind::Pos { .. }))
                {
                    return Err("a sum of leaves with a term that is not a position".to_string());
                }
                match &**leaves {
                    Leaves::Each { elem, clauses } => {
                        self.clauses(clauses, bound)?;
                        self.expr(elem, bound)?;
                    }
                    Leaves::Pair { .. } => self.children(e, bound)?,
                }
            }
            IExprKind::Call {
                func,
                args,
                ret,
                in_table,
            } => {
                let params = self.program.fns.get(*func).map(|f| f.params.len());
                if params != Some(args.len()) {
                    return Err(format!(
                        "a call of function {func} with {} arguments",
                        args.len()
                    ));
                }
                let f = &self.program.fns[*func];
                if *in_table && !(f.table.as_ref()).is_some_and(|t| t.complete(&f.ret)) {
                    return Err(format!(
                        "a call of function {func} read from a table it has not whole"
                    ));
                }
                let declared = f.ret.ty();
                if *ret != declared {
                    return Err(format!(
                        "a call of function {func} giving {ret}, which returns {declared}"
                    ));
                }
                self.children(e, bound)?;
            }
            IExprKind::Pos { game, args, .. } => {
                let fields = self.program.games.get(*game).map(|g| g.fields.len());
                if fields != Some(args.len()) {
                    return Err(format!(
                        "a position of game {game} with {} fields",
                        args.len()
                    ));
                }
                self.children(e, bound)?;
            }
            IExprKind::Lit(v) => self.value(v)?,
            _ => self.children(e, bound)?,
        }
        bound.truncate(depth);
        Ok(())
    }

    /// A constant's tagged values (at any depth) are values of the program's unions: their
    /// type, variant, tag and type names and payload's length are the union's.
    fn value(&self, v: &Val) -> Result<(), String> {
        match v {
            Val::Tuple(vs) => vs.iter().try_for_each(|v| self.value(v)),
            Val::List(vs) => vs.iter().try_for_each(|v| self.value(v)),
            Val::Set(vs) => vs.iter().try_for_each(|v| self.value(v)),
            Val::Tag(t) => {
                let union = self.program.types.get(t.ty);
                let variant = union.and_then(|u| u.variants.get(t.variant));
                match (union, variant) {
                    (Some(u), Some(var))
                        if *u.name == *t.union
                            && var.name == t.name
                            && var.fields.len() == t.fields.len() =>
                    {
                        t.fields.iter().try_for_each(|v| self.value(v))
                    }
                    _ => Err(format!(
                        "the constant {v} is not variant {} of type {} (`{}`)",
                        t.variant, t.ty, t.union
                    )),
                }
            }
            _ => Ok(()),
        }
    }

    /// Each expression directly inside `e`, none of which binds a name.
    fn children(&self, e: &IExpr, bound: &mut Vec<(VarId, Rc<str>)>) -> Result<(), String> {
        let mut out = Ok(());
        e.for_each_child(&mut |c| {
            if out.is_ok() {
                out = self.expr(c, bound);
            }
        });
        out
    }
}

impl Verifier<'_> {
    /// Binds `vars`: none may be bound already on this path (the checker forbids shadowing,
    /// and a slot in use is not reused), and each is its slot's.
    fn bind(&self, vars: &[Var], bound: &mut Vec<(VarId, Rc<str>)>) -> Result<(), String> {
        for v in vars {
            if bound.iter().any(|(s, n)| *s == v.slot || *n == v.name) {
                return Err(format!(
                    "`{}` (slot {}) bound where its name or slot is in use",
                    v.name, v.slot
                ));
            }
            self.own_slot(v)?;
            bound.push((v.slot, v.name.clone()));
        }
        Ok(())
    }

    /// Whether the body's first names are `names` (its fields, parameters or binders), in
    /// order.
    fn first_names(&self, names: impl Iterator<Item = (Rc<str>, Ty)>) -> Result<(), String> {
        for (slot, (name, ty)) in names.enumerate() {
            if self.locals.get(VarId::new(slot)) != Some((&name, &ty)) {
                return Err(format!(
                    "`{name}: {ty}` is not the body's name in slot {slot}"
                ));
            }
        }
        Ok(())
    }

    /// Whether the body's names give `v`'s slot `v`'s name and type.
    fn own_slot(&self, v: &Var) -> Result<(), String> {
        match self.locals.get(v.slot) {
            Some((name, ty)) if *name == v.name && *ty == v.ty => Ok(()),
            other => Err(format!(
                "`{}: {}` in slot {}, which the body gives to {}",
                v.name,
                v.ty,
                v.slot,
                match other {
                    Some((name, ty)) => format!("`{name}: {ty}`"),
                    None => "no name".into(),
                }
            )),
        }
    }
}
