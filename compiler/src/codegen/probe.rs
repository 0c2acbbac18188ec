//! The probe for a move that ends the game (the runtime's `Rules::ends_now`): one boolean
//! condition per game, "some move's option is `end`", derived from its move rules.
//!
//! An outcome search treats a position with such a move as N at once, and the solver asks
//! the probe before it looks a position up, so a probe is only worth having when it costs
//! far less than enumerating the moves. The condition is the moves' clauses turned into
//! quantifiers, with one rewrite that makes it cheap: a move `l in D` whose `end` needs
//! `exists b in E: A(l, b) and B(b)` becomes `exists b in E: B(b) and exists l in D: A(l, b)`
//! (for degenerate dots: "a box with three sides drawn", a dozen popcounts, instead of a
//! loop over every undrawn line).
//!
//! Exchanging quantifiers changes the order of evaluation, so the probe is generated only
//! when nothing in the game's moves can fail: every part is one that [`Gen::sure`] accepts,
//! and the moves have at most `MAX_OPTIONS` options. Then the probe answers exactly what
//! enumerating the options up to the first `end` would, errors included (there are none).

use super::{CodegenError, Gen};
use crate::ast::{ClosureKind, QuantKind};
use crate::ir::*;
use cgdl_runtime::rules::MAX_OPTIONS;
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::HashMap;
use std::rc::Rc;

/// The finite types of the names in scope whose every value is known to lie in the type
/// (fields, and names bound over a type's values).
pub(super) type Scope = HashMap<Rc<str>, FieldTy>;

impl Gen<'_> {
    /// The arm of `Rules::ends_now` and the probe function of a game, when its moves can end
    /// the game outright and the probe is exact (see the module's documentation).
    pub(super) fn ends_probe(
        &self,
        gid: usize,
        game: &Game,
    ) -> Result<Option<(TokenStream, TokenStream)>, CodegenError> {
        let rt = &self.rt;
        let GameKind::Rules(moves) = &game.kind else {
            return Ok(None);
        };
        if game.partizan || !moves.iter().any(|m| ends_outright(&m.result)) {
            return Ok(None);
        }
        let Some(cond) = self.ends_condition(game, moves) else {
            return Ok(None);
        };
        let scope = field_scope(game);
        let cond = narrow(self.exchange(cond, &scope));
        let fields = self.field_names(game);
        let mut unpacked = Vec::new();
        let mut params = Vec::new();
        let mut reads = Vec::new();
        cond.for_each_read(&mut |v| reads.push(v.name.clone()));
        let mut borrowed = std::collections::HashSet::new();
        for (i, (f, x)) in game.fields.iter().zip(&fields).enumerate() {
            let packing = &self.layout.games[gid].fields[i];
            let ty = self.stored_ty(&f.ty, packing);
            if !reads.iter().any(|r| **r == *f.name) {
                params.push(quote!(_: #ty));
                continue;
            }
            params.push(quote!(#x: #ty));
            if !matches!(packing, super::layout::Packed::Plain) {
                let value = self.unpack(gid, i, x);
                unpacked.push(quote!(let #x = #value;));
            }
            if !super::layout::is_copy(self.program, &f.ty.ty()) {
                unpacked.push(quote!(let #x = &#x;));
                borrowed.insert(Rc::from(f.name.as_str()));
            }
        }
        *self.borrowed.borrow_mut() = borrowed;
        self.reading(|f| cond.for_each_read(f));
        *self.known.borrow_mut() = Some(scope);
        let value = self.value(&cond);
        *self.known.borrow_mut() = None;
        self.borrowed.borrow_mut().clear();
        let value = value?;
        let name = &self.names.games[gid].ends;
        let doc = format!(
            " Whether a position of `{}` has a move to `end`.",
            game.name
        );
        let lints = super::user_code_lints(&["ptr_arg"]);
        let function = quote! {
            #[doc = #doc]
            #lints
            fn #name(#(#params),*) -> ::std::result::Result<bool, #rt::RuleError> {
                #(#unpacked)*
                ::std::result::Result::Ok(#value)
            }
        };
        let pattern = self.pos_pattern(gid, &fields);
        let arm = quote!(#pattern => ::std::option::Option::Some(#name(#(#fields),*)),);
        Ok(Some((arm, function)))
    }

    /// What is known of the names a move's result sees: the fields' types, and a finite
    /// type holding each binder's and `let`'s values where [`Gen::values_of`] finds one.
    /// (Sound whatever the clauses do: a name bound at all holds a value of its domain.)
    pub(super) fn move_scope(&self, game: &Game, m: &Move) -> Scope {
        let mut scope = field_scope(game);
        for clause in &m.clauses {
            match clause {
                IClause::Bind(vars, dom) => scope = self.with_binder(vars, dom, &scope),
                IClause::Let(var, value) => scope = self.with_let(var, value, &scope),
                IClause::Cond(_) => {}
            }
        }
        scope
    }

    /// `f()` with what is known of the names in scope (while a move's result or a probe is
    /// generated) extended by the name a quantifier binds over `domain`.
    pub(super) fn knowing_binder<T>(
        &self,
        vars: &[Var],
        domain: &IExpr,
        f: impl FnOnce() -> T,
    ) -> T {
        let known =
            (self.known.borrow().as_ref()).and_then(|scope| self.binder_type(vars, domain, scope));
        self.knowing(known, f)
    }

    /// `f()` with what is known of the names in scope extended by a `let`.
    pub(super) fn knowing_let<T>(&self, var: &Var, value: &IExpr, f: impl FnOnce() -> T) -> T {
        let known = (self.known.borrow().as_ref())
            .and_then(|scope| Some((var.name.clone(), self.values_of(value, scope)?)));
        self.knowing(known, f)
    }

    fn knowing<T>(&self, known: Option<(Rc<str>, FieldTy)>, f: impl FnOnce() -> T) -> T {
        let Some((name, ty)) = known else {
            return f();
        };
        let before = (self.known.borrow_mut().as_mut()).and_then(|s| s.insert(name.clone(), ty));
        let out = f();
        if let Some(scope) = self.known.borrow_mut().as_mut() {
            match before {
                Some(t) => scope.insert(name, t),
                None => scope.remove(&name),
            };
        }
        out
    }

    /// Whether every value `arg` can take lies in the finite type `t`, given `scope`.
    pub(super) fn values_within(&self, arg: &IExpr, t: &FieldTy, scope: &Scope) -> bool {
        self.values_of(arg, scope).is_some_and(|v| within(&v, t))
    }

    /// Whether every field value of position `args` of game `gid` surely lies in its
    /// field's type, given `scope`.
    pub(super) fn position_fits(&self, gid: usize, args: &[IExpr], scope: &Scope) -> bool {
        (self.program.games[gid].fields.iter())
            .zip(args)
            .all(|(f, a)| self.lies_in(a, &f.ty, scope))
    }

    /// "Some move of the game is to `end`" as one condition over the fields, when every
    /// move is sure and the moves have at most `MAX_OPTIONS` options together.
    fn ends_condition(&self, game: &Game, moves: &[Move]) -> Option<IExpr> {
        let fields = field_scope(game);
        let mut options = 0usize;
        let mut any: Option<IExpr> = None;
        for m in moves {
            let mut count = 1usize;
            let mut scope = fields.clone();
            for clause in &m.clauses {
                match clause {
                    IClause::Bind(vars, dom) => {
                        count = count.saturating_mul(self.domain_size(dom, &scope)?);
                        if !self.sure(dom, &scope) {
                            return None;
                        }
                        scope = self.with_binder(vars, dom, &scope);
                    }
                    IClause::Cond(c) => {
                        if !self.sure(c, &scope) {
                            return None;
                        }
                    }
                    IClause::Let(var, value) => {
                        if !self.sure(value, &scope) {
                            return None;
                        }
                        scope = self.with_let(var, value, &scope);
                    }
                }
            }
            let ends = self.ends_of(&m.result, &scope)?;
            options = options.saturating_add(count);
            let ends = (m.clauses.iter().rev()).fold(ends, |body, clause| match clause {
                IClause::Bind(vars, dom) => IExpr::Quant {
                    kind: QuantKind::Exists,
                    vars: vars.clone(),
                    domain: Box::new(dom.clone()),
                    body: Box::new(body),
                },
                IClause::Cond(c) => and(c.clone(), body),
                IClause::Let(var, value) => IExpr::Let {
                    var: var.clone(),
                    value: Box::new(value.clone()),
                    body: Box::new(body),
                },
            });
            any = Some(match any {
                None => ends,
                Some(before) => or(before, ends),
            });
        }
        (options <= MAX_OPTIONS).then_some(any).flatten()
    }

    /// "This result is `end`", when every part of the result is sure.
    fn ends_of(&self, result: &IExpr, scope: &Scope) -> Option<IExpr> {
        Some(match result {
            IExpr::End => truth(true),
            IExpr::If {
                cond,
                then,
                otherwise,
            } => {
                if !self.sure(cond, scope) {
                    return None;
                }
                let (a, b) = (self.ends_of(then, scope)?, self.ends_of(otherwise, scope)?);
                match (is_truth(&a), is_truth(&b)) {
                    (_, Some(false)) => and((**cond).clone(), a),
                    (Some(false), _) => and(IExpr::Not(cond.clone()), b),
                    _ => IExpr::If {
                        cond: cond.clone(),
                        then: Box::new(a),
                        otherwise: Box::new(b),
                    },
                }
            }
            IExpr::Let { var, value, body } => {
                if !self.sure(value, scope) {
                    return None;
                }
                let inner = self.with_let(var, value, scope);
                IExpr::Let {
                    var: var.clone(),
                    value: value.clone(),
                    body: Box::new(self.ends_of(body, &inner)?),
                }
            }
            IExpr::Pos { game, args, .. } => {
                let fields = &self.program.games[*game].fields;
                let fits = (fields.iter().zip(args))
                    .all(|(f, a)| self.sure(a, scope) && self.lies_in(a, &f.ty, scope));
                if !fits {
                    return None;
                }
                truth(false)
            }
            _ => return None,
        })
    }

    /// Whether evaluating `e` cannot fail: no arithmetic (which may overflow), no field of
    /// a position or payload that its value might not fit, only calls of functions that
    /// succeed at every argument their arguments' known values allow (each evaluated while
    /// the solver is built; see [`Gen::call_types`]).
    fn sure(&self, e: &IExpr, scope: &Scope) -> bool {
        match e {
            IExpr::Lit(_) | IExpr::AllOf { .. } | IExpr::Var(_) => true,
            IExpr::Not(x) | IExpr::Field { tuple: x, .. } => self.sure(x, scope),
            IExpr::Bin { op, lhs, rhs, .. } => {
                op.cannot_fail() && self.sure(lhs, scope) && self.sure(rhs, scope)
            }
            IExpr::Tuple(es) | IExpr::Set(es) => es.iter().all(|x| self.sure(x, scope)),
            IExpr::If {
                cond,
                then,
                otherwise,
            } => [cond, then, otherwise].iter().all(|x| self.sure(x, scope)),
            IExpr::Let { var, value, body } => {
                self.sure(value, scope) && self.sure(body, &self.with_let(var, value, scope))
            }
            IExpr::Quant {
                vars, domain, body, ..
            } => {
                if !self.sure(domain, scope) || self.domain_size(domain, scope).is_none() {
                    return false;
                }
                self.sure(body, &self.with_binder(vars, domain, scope))
            }
            IExpr::Variant { variant, args, .. } => (variant.fields.iter().zip(args))
                .all(|(t, a)| self.sure(a, scope) && self.lies_in(a, t, scope)),
            IExpr::Builtin {
                func: Builtin::Len,
                args,
                ..
            } => args.iter().all(|x| self.sure(x, scope)),
            IExpr::Call { func, args } => {
                let f = &self.program.fns[*func];
                args.iter().all(|a| self.sure(a, scope))
                    && (self.call_types(*func, args, scope))
                        .and_then(|types| {
                            (self.evaluations).values(*func, &types, super::game::TABLE_LIMIT)
                        })
                        .is_some_and(|vs| {
                            vs.iter()
                                .all(|v| v.as_ref().is_some_and(|v| f.ret.admits(v)))
                        })
            }
            _ => false,
        }
    }

    /// `scope` with the name a quantifier or a move binds over `domain`, when a type holds
    /// its elements.
    fn with_binder(&self, vars: &[Var], domain: &IExpr, scope: &Scope) -> Scope {
        let mut inner = scope.clone();
        inner.extend(self.binder_type(vars, domain, scope));
        inner
    }

    /// The one name bound over `domain` and a finite type holding its elements.
    fn binder_type(
        &self,
        vars: &[Var],
        domain: &IExpr,
        scope: &Scope,
    ) -> Option<(Rc<str>, FieldTy)> {
        match vars {
            [v] => Some((v.name.clone(), self.domain_type(domain, scope)?)),
            _ => None,
        }
    }

    /// `scope` with the name a `let` binds, when its values are known.
    fn with_let(&self, var: &Var, value: &IExpr, scope: &Scope) -> Scope {
        let mut inner = scope.clone();
        if let Some(t) = self.values_of(value, scope) {
            inner.insert(var.name.clone(), t);
        }
        inner
    }

    /// Finite types that hold every argument of a call of function `func` and lie in its
    /// parameters' types: the arguments' known values (`rows` of a field of type `2..=5`
    /// for a `nat` parameter), or the parameter's own finite type when the argument surely
    /// lies in it.
    fn call_types(&self, func: usize, args: &[IExpr], scope: &Scope) -> Option<Vec<FieldTy>> {
        let f = &self.program.fns[func];
        (f.params.iter().zip(args))
            .map(|((_, param), arg)| match self.values_of(arg, scope) {
                Some(t) if within(&t, param) => Some(t),
                _ => self.lies_in(arg, param, scope).then(|| param.clone()),
            })
            .collect()
    }

    /// A finite type holding every value `e` takes where its evaluation succeeds (so also
    /// for parts that may fail: a move's result, a `let`), when one is known: a name's type in scope, a constant, a range from its bounds, a set
    /// built from others, the hull of a function's values over its arguments' types.
    fn values_of(&self, e: &IExpr, scope: &Scope) -> Option<FieldTy> {
        let set = |t: FieldTy| Some(FieldTy::Set(Box::new(t)));
        match e {
            IExpr::Var(v) => scope.get(&v.name).cloned(),
            IExpr::Lit(Val::Int(i)) => Some(FieldTy::Range(*i, *i)),
            IExpr::Lit(Val::Bool(_)) => Some(FieldTy::Bool),
            IExpr::Lit(Val::Range(lo, hi)) => set(FieldTy::Range(*lo, (*hi).max(*lo))),
            IExpr::AllOf { ty, .. } => set(ty.clone()),
            IExpr::Bin {
                op: op @ (Op::RangeIncl | Op::RangeExcl),
                lhs,
                rhs,
                ..
            } => {
                let (FieldTy::Range(lo, _), FieldTy::Range(_, hi)) =
                    (self.values_of(lhs, scope)?, self.values_of(rhs, scope)?)
                else {
                    return None;
                };
                let hi = if *op == Op::RangeExcl {
                    hi.checked_sub(1)?
                } else {
                    hi
                };
                set(FieldTy::Range(lo, hi.max(lo)))
            }
            IExpr::Bin {
                op: Op::SetUnion,
                lhs,
                rhs,
                ..
            } => join(self.values_of(lhs, scope)?, self.values_of(rhs, scope)?),
            IExpr::Bin {
                op: Op::SetInter,
                lhs,
                rhs,
                ..
            } => (self.values_of(lhs, scope)).or_else(|| self.values_of(rhs, scope)),
            IExpr::Bin {
                op: Op::SetDiff,
                lhs,
                ..
            } => self.values_of(lhs, scope),
            IExpr::Set(es) => {
                let mut elems = es.iter().map(|x| self.values_of(x, scope));
                let first = elems.next().unwrap_or(Some(FieldTy::Range(0, 0)))?;
                set(elems.try_fold(first, |acc, t| join(acc, t?))?)
            }
            IExpr::Call { func, args } => {
                let types = self.call_types(*func, args, scope)?;
                match (self.evaluations).range(*func, &types, super::game::TABLE_LIMIT) {
                    Some(ValueRange::Int((lo, hi))) => Some(FieldTy::Range(lo, hi)),
                    Some(ValueRange::Set(Some((lo, hi)))) => set(FieldTy::Range(lo, hi)),
                    Some(ValueRange::Set(None)) => set(FieldTy::Range(0, 0)),
                    // Not numbers: the declared result type, where every value of its
                    // static type lies in it (a tagged type, sets of one).
                    None => {
                        let ret = &self.program.fns[*func].ret;
                        holds_any(ret).then(|| ret.clone())
                    }
                }
            }
            _ => None,
        }
    }

    /// Whether the value of `arg` surely lies in the type `t` (see [`lies_in`]), or its
    /// known values do.
    fn lies_in(&self, arg: &IExpr, t: &FieldTy, scope: &Scope) -> bool {
        lies_in(arg, t, scope) || self.values_of(arg, scope).is_some_and(|v| within(&v, t))
    }

    /// A finite type holding every element of a domain, when known: a type's name, a
    /// field of set type, a range or a function's sets (see [`Gen::values_of`]).
    fn domain_type(&self, dom: &IExpr, scope: &Scope) -> Option<FieldTy> {
        if let IExpr::Closure {
            kind: ClosureKind::Components,
            seed,
            ..
        } = dom
        {
            // Each part is a subset of the set divided.
            return Some(FieldTy::Set(Box::new(self.domain_type(seed, scope)?)));
        }
        match self.values_of(dom, scope)? {
            FieldTy::Set(t) => Some(*t),
            _ => None,
        }
    }

    /// At most how many elements a domain has.
    fn domain_size(&self, dom: &IExpr, scope: &Scope) -> Option<usize> {
        match dom {
            IExpr::AllOf {
                values: Val::Set(s),
                ..
            } => Some(s.len()),
            _ => {
                let t = self.domain_type(dom, scope)?;
                Some(t.values(&self.program.types, MAX_OPTIONS + 1)?.len())
            }
        }
    }
}

/// Whether the value of `arg` surely lies in the type `t`: every value of its static type
/// does, or it is built from names and constants that lie in `t`.
fn lies_in(arg: &IExpr, t: &FieldTy, scope: &Scope) -> bool {
    if holds_any(t) {
        return true;
    }
    match (arg, t) {
        (IExpr::Var(v), _) => scope.get(&v.name) == Some(t),
        (IExpr::Lit(v), _) => t.admits(v),
        (IExpr::AllOf { ty, .. }, FieldTy::Set(inner)) => **inner == *ty,
        (IExpr::Set(es), FieldTy::Set(inner)) => es.iter().all(|e| lies_in(e, inner, scope)),
        (
            IExpr::Bin {
                op: Op::SetUnion,
                lhs,
                rhs,
                ..
            },
            FieldTy::Set(_),
        ) => lies_in(lhs, t, scope) && lies_in(rhs, t, scope),
        (
            IExpr::Bin {
                op: Op::SetDiff,
                lhs,
                ..
            },
            FieldTy::Set(_),
        ) => lies_in(lhs, t, scope),
        (
            IExpr::Bin {
                op: Op::SetInter,
                lhs,
                rhs,
                ..
            },
            FieldTy::Set(_),
        ) => lies_in(lhs, t, scope) || lies_in(rhs, t, scope),
        _ => false,
    }
}

/// Whether a field of type `t` holds every value of its static type (no range to check).
fn holds_any(t: &FieldTy) -> bool {
    match t {
        FieldTy::Bool | FieldTy::Union(_) => true,
        FieldTy::Set(t) => holds_any(t),
        FieldTy::Tuple(ts) => ts.iter().all(holds_any),
        _ => false,
    }
}

/// A move's result where no move of the position is to `end`: each `if` one of whose
/// branches is `end` is the other branch (its test is known to choose that one).
pub(super) fn without_end(result: &IExpr) -> IExpr {
    match result {
        IExpr::If {
            cond,
            then,
            otherwise,
        } => match (without_end(then), without_end(otherwise)) {
            (IExpr::End, rest) | (rest, IExpr::End) => rest,
            (then, otherwise) => IExpr::If {
                cond: cond.clone(),
                then: Box::new(then),
                otherwise: Box::new(otherwise),
            },
        },
        IExpr::Let { var, value, body } => IExpr::Let {
            var: var.clone(),
            value: value.clone(),
            body: Box::new(without_end(body)),
        },
        other => other.clone(),
    }
}

/// Whether a move's result can be `end` itself (through `if` and `let`).
pub(super) fn ends_outright(result: &IExpr) -> bool {
    match result {
        IExpr::End => true,
        IExpr::If {
            then, otherwise, ..
        } => ends_outright(then) || ends_outright(otherwise),
        IExpr::Let { body, .. } => ends_outright(body),
        _ => false,
    }
}

fn truth(b: bool) -> IExpr {
    IExpr::Lit(Val::Bool(b))
}

fn is_truth(e: &IExpr) -> Option<bool> {
    match e {
        IExpr::Lit(Val::Bool(b)) => Some(*b),
        _ => None,
    }
}

fn bin(op: Op, lhs: IExpr, rhs: IExpr) -> IExpr {
    IExpr::Bin {
        op,
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
        span: crate::ast::Span { start: 0, end: 0 },
    }
}

/// `a and b`, without a `true` operand.
fn and(a: IExpr, b: IExpr) -> IExpr {
    match (is_truth(&a), is_truth(&b)) {
        (Some(true), _) => b,
        (_, Some(true)) => a,
        _ => bin(Op::And, a, b),
    }
}

fn or(a: IExpr, b: IExpr) -> IExpr {
    bin(Op::Or, a, b)
}

/// The operands of a chain of `and`s.
fn conjuncts(e: IExpr, out: &mut Vec<IExpr>) {
    match e {
        IExpr::Bin {
            op: Op::And,
            lhs,
            rhs,
            ..
        } => {
            conjuncts(*lhs, out);
            conjuncts(*rhs, out);
        }
        other => out.push(other),
    }
}

fn and_all(parts: Vec<IExpr>) -> IExpr {
    parts.into_iter().reduce(and).unwrap_or_else(|| truth(true))
}

/// The names of a game's fields, each with its type (every value of a field lies in it).
fn field_scope(game: &Game) -> Scope {
    (game.fields.iter())
        .map(|f| (Rc::from(f.name.as_str()), f.ty.clone()))
        .collect()
}

/// Whether every value of the finite type `a` lies in the type `b`.
fn within(a: &FieldTy, b: &FieldTy) -> bool {
    match (a, b) {
        _ if a == b => true,
        (FieldTy::Range(lo, hi), FieldTy::Range(c, d)) => c <= lo && hi <= d,
        (FieldTy::Range(lo, _), FieldTy::Nat) => *lo >= 0,
        (FieldTy::Range(..) | FieldTy::Nat, FieldTy::Int) => true,
        (FieldTy::Set(a), FieldTy::Set(b)) => within(a, b),
        (FieldTy::Tuple(a), FieldTy::Tuple(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| within(a, b))
        }
        _ => false,
    }
}

/// A type holding the values of both `a` and `b`, when one is known.
fn join(a: FieldTy, b: FieldTy) -> Option<FieldTy> {
    match (a, b) {
        (a, b) if a == b => Some(a),
        (FieldTy::Range(lo, hi), FieldTy::Range(c, d)) => {
            Some(FieldTy::Range(lo.min(c), hi.max(d)))
        }
        (FieldTy::Set(a), FieldTy::Set(b)) => Some(FieldTy::Set(Box::new(join(*a, *b)?))),
        _ => None,
    }
}

/// The most values the type of a loop added by [`Gen::exchange`] may have: it runs over
/// every value the inner domain's elements can take, so a wide one costs more than it saves.
const EXCHANGE_LIMIT: usize = 256;

impl Gen<'_> {
    /// `exists x in D: P(x) and (exists y in E: A(x, y) and B(y))` →
    /// `exists y in E: B(y) and (exists x in D: P(x) and A(x, y))`, where `E` and `B` do not
    /// read `x`: the test of `B` runs once per `y` instead of once per pair. Where `E` reads
    /// `x` (the boxes of a line, `boxes_of(rows, cols, l)`) but `B` still does not, `y` runs
    /// over a finite type `U` holding every element of `E` (see [`Gen::values_of`]):
    /// `exists y in U: B(y) and (exists x in D: P(x) and y in E and A(x, y))`. Applied inside
    /// out. Both are exact only because nothing in the condition can fail (every part is
    /// [sure](Gen::sure) over the types in `scope`, `U` included).
    fn exchange(&self, e: IExpr, scope: &Scope) -> IExpr {
        match e {
            IExpr::Quant {
                kind: QuantKind::Exists,
                vars,
                domain,
                body,
            } => {
                let inner_scope = self.with_binder(&vars, &domain, scope);
                let mut parts = Vec::new();
                conjuncts(self.exchange(*body, &inner_scope), &mut parts);
                // The inner quantifier to move out, and the domain it then runs over.
                let candidate = |p: &IExpr| -> Option<IExpr> {
                    let IExpr::Quant {
                        kind: QuantKind::Exists,
                        vars: inner_vars,
                        domain: inner_domain,
                        body: inner_body,
                    } = p
                    else {
                        return None;
                    };
                    let mut inner_parts = Vec::new();
                    conjuncts((**inner_body).clone(), &mut inner_parts);
                    if inner_parts.iter().all(|q| q.reads_any(&vars)) {
                        return None;
                    }
                    if !inner_domain.reads_any(&vars) {
                        return Some((**inner_domain).clone());
                    }
                    let [_] = inner_vars.as_slice() else {
                        return None;
                    };
                    let ty = self.domain_type(inner_domain, &inner_scope)?;
                    let values = ty.values(&self.program.types, EXCHANGE_LIMIT)?;
                    Some(match ty {
                        FieldTy::Range(lo, hi) => bin(
                            Op::RangeIncl,
                            IExpr::Lit(Val::Int(lo)),
                            IExpr::Lit(Val::Int(hi)),
                        ),
                        ty => IExpr::AllOf {
                            ty,
                            values: Val::Set(Rc::new(values.into_iter().collect())),
                        },
                    })
                };
                let found = parts
                    .iter()
                    .enumerate()
                    .find_map(|(j, p)| candidate(p).map(|outer| (j, outer)));
                let Some((j, outer_domain)) = found else {
                    return IExpr::Quant {
                        kind: QuantKind::Exists,
                        vars,
                        domain,
                        body: Box::new(and_all(parts)),
                    };
                };
                let IExpr::Quant {
                    vars: inner_vars,
                    domain: inner_domain,
                    body: inner_body,
                    ..
                } = parts.remove(j)
                else {
                    unreachable!("the candidate is a quantifier")
                };
                let mut inner_parts = Vec::new();
                conjuncts(*inner_body, &mut inner_parts);
                let (with_x, without_x): (Vec<IExpr>, Vec<IExpr>) =
                    inner_parts.into_iter().partition(|q| q.reads_any(&vars));
                if inner_domain.reads_any(&vars) {
                    // `y in E`, tested where `E` is known.
                    let [y] = inner_vars.as_slice() else {
                        unreachable!("the candidate binds one name")
                    };
                    parts.push(bin(Op::In, IExpr::Var(y.clone()), *inner_domain));
                }
                parts.extend(with_x);
                let moved = IExpr::Quant {
                    kind: QuantKind::Exists,
                    vars,
                    domain,
                    body: Box::new(and_all(parts)),
                };
                IExpr::Quant {
                    kind: QuantKind::Exists,
                    vars: inner_vars,
                    domain: Box::new(outer_domain),
                    body: Box::new(and(and_all(without_x), moved)),
                }
            }
            IExpr::Bin {
                op: Op::Or,
                lhs,
                rhs,
                span,
            } => IExpr::Bin {
                op: Op::Or,
                lhs: Box::new(self.exchange(*lhs, scope)),
                rhs: Box::new(self.exchange(*rhs, scope)),
                span,
            },
            other => other,
        }
    }
}

/// `exists x in D: P(x) and x in S and Q(x)` → `exists x in S: x in D and P(x) and Q(x)`,
/// where `S` does not read `x`: the loop runs over the few elements of `S` (the sides of a
/// box) instead of the whole domain (every line). `x in D` is left out where `D` is the
/// type's every value. Exact in a probe, whose parts cannot fail (the order of evaluation
/// is not observable). Applied everywhere in the condition.
fn narrow(e: IExpr) -> IExpr {
    match e {
        IExpr::Quant {
            kind: QuantKind::Exists,
            vars,
            domain,
            body,
        } => {
            let mut parts = Vec::new();
            conjuncts(narrow(*body), &mut parts);
            let member = match vars.as_slice() {
                [x] => parts.iter().position(|p| match p {
                    IExpr::Bin {
                        op: Op::In,
                        lhs,
                        rhs,
                        ..
                    } => {
                        matches!(&**lhs, IExpr::Var(v) if v.name == x.name) && !rhs.reads_any(&vars)
                    }
                    _ => false,
                }),
                _ => None,
            };
            let Some(j) = member else {
                return IExpr::Quant {
                    kind: QuantKind::Exists,
                    vars,
                    domain,
                    body: Box::new(and_all(parts)),
                };
            };
            let IExpr::Bin { lhs, rhs, .. } = parts.remove(j) else {
                unreachable!("the position found a membership")
            };
            let whole_type = matches!(&*domain, IExpr::AllOf { ty, .. } if holds_any(ty));
            if !whole_type {
                parts.insert(0, bin(Op::In, *lhs, *domain));
            }
            IExpr::Quant {
                kind: QuantKind::Exists,
                vars,
                domain: rhs,
                body: Box::new(and_all(parts)),
            }
        }
        IExpr::Bin {
            op: op @ (Op::Or | Op::And),
            lhs,
            rhs,
            span,
        } => IExpr::Bin {
            op,
            lhs: Box::new(narrow(*lhs)),
            rhs: Box::new(narrow(*rhs)),
            span,
        },
        IExpr::Let { var, value, body } => IExpr::Let {
            var,
            value,
            body: Box::new(narrow(*body)),
        },
        IExpr::If {
            cond,
            then,
            otherwise,
        } => IExpr::If {
            cond,
            then: Box::new(narrow(*then)),
            otherwise: Box::new(narrow(*otherwise)),
        },
        other => other,
    }
}
