//! Expressions: each checked expression as a Rust expression over the user's names, with
//! the runtime's checked arithmetic, and a move's clauses as loops, `let`s and `if`s.

use super::layout::{count_values, is_copy};
use super::{int, unsupported, CodegenError, Gen};
use crate::ast::{ClosureKind, QuantKind};
use crate::ir::*;
use cgdl_runtime::Compound;
use proc_macro2::{Ident, TokenStream};
use quote::quote;

impl Gen<'_> {
    /// The Rust name of a local.
    pub(super) fn var(&self, v: &Var) -> Ident {
        if let Some(reads) = self.move_reads.borrow_mut().as_mut() {
            reads.values.insert(v.slot);
        }
        self.names.local(&v.name)
    }

    /// A binder's pattern: its name, or `_` when the function being generated never reads
    /// it.
    pub(super) fn binder(&self, v: &Var) -> TokenStream {
        if self.reads.borrow().contains(&v.name) {
            let x = self.names.local(&v.name);
            quote!(#x)
        } else {
            quote!(_)
        }
    }

    /// A reference to a local: the local itself where the function being generated holds
    /// it by reference, else `&local`.
    pub(super) fn var_ref(&self, v: &Var) -> TokenStream {
        let x = self.var(v);
        if self.borrowed.borrow().contains(&v.name) {
            quote!(#x)
        } else {
            quote!(&#x)
        }
    }

    /// `inner` (what a move does with one choice of its bindings) inside the loops, `let`s
    /// and conditions of its clauses, in order.
    pub(super) fn clauses(
        &self,
        clauses: &[IClause],
        inner: &dyn Fn() -> Result<TokenStream, CodegenError>,
    ) -> Result<TokenStream, CodegenError> {
        let Some((first, rest)) = clauses.split_first() else {
            return inner();
        };
        Ok(match first {
            IClause::Cond(c) => {
                let c = self.value(c)?;
                let inner = self.clauses(rest, inner)?;
                quote!(if #c { #inner })
            }
            IClause::Bind(vars, dom) => {
                let inner = self.clauses(rest, inner)?;
                self.for_each(vars, dom, inner)?
            }
            IClause::Let(var, value) => {
                self.let_with_bits(var, value, &|| self.clauses(rest, inner))?
            }
        })
    }

    /// `for` over a domain, binding `vars` (one name or a tuple pattern).
    pub(super) fn for_each(
        &self,
        vars: &[Var],
        dom: &IExpr,
        body: TokenStream,
    ) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let pattern = match vars {
            [v] => self.binder(v),
            _ => {
                let xs = vars.iter().map(|v| self.binder(v));
                quote!((#(#xs),*))
            }
        };
        // A literal range iterates directly: a countdown over the range's size is as fast
        // as an exclusive range (`lo..=hi` took Kayles to 100,000 from 7 s to 11 s) and it
        // still reaches i64::MAX.
        if let IExprKind::Bin {
            op: op @ (Op::RangeIncl | Op::RangeExcl),
            lhs,
            rhs,
            ..
        } = dom.kind()
        {
            let (lo, hi) = (self.value(lhs)?, self.value(rhs)?);
            let range = if *op == Op::RangeIncl {
                quote!(#rt::native::Range::inclusive(#lo, #hi).iter())
            } else {
                quote!(#rt::native::Range::exclusive(#lo, #hi).iter())
            };
            return Ok(quote!(for #pattern in #range { #body }));
        }
        // A type's values: its ranks in order, each made into its value.
        if let IExprKind::AllOf { ty, .. } = dom.kind() {
            if let Some(count) = count_values(self.program, ty).filter(|&n| n <= u32::MAX as u128) {
                let count = proc_macro2::Literal::u32_suffixed(count as u32);
                let value = self.unrank(ty, quote!(rank));
                return Ok(quote!(for rank in 0..#count { let #pattern = #value; #body }));
            }
        }
        // Set algebra on the moving game's field: over its stored bits.
        if let Some(looped) = self.for_each_cell(&pattern, dom, &body)? {
            return Ok(looped);
        }
        // A name or a constant set is borrowed (its elements are copied once; a large one
        // is read in its static); a computed domain is consumed.
        if matches!(dom.kind(), IExprKind::Var(_) | IExprKind::Lit(Val::Set(_))) {
            let d = self.domain_ref(dom)?;
            return Ok(quote!(for #pattern in #rt::native::Domain::elements(#d) { #body }));
        }
        let d = self.domain(dom)?;
        Ok(quote!(for #pattern in #rt::native::Domain::into_elements(#d) { #body }))
    }

    /// Code for a result expression: `if` and `let` as they are written, `leaf` for what they
    /// choose among (a move's options, a symmetry's image).
    pub(super) fn result_tree(
        &self,
        e: &IExpr,
        leaf: &dyn Fn(&IExpr) -> Result<TokenStream, CodegenError>,
    ) -> Result<TokenStream, CodegenError> {
        Ok(match e.kind() {
            IExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                let c = self.value(cond)?;
                let (a, b) = (
                    self.result_tree(then, leaf)?,
                    self.result_tree(otherwise, leaf)?,
                );
                quote!(if #c { #a } else { #b })
            }
            IExprKind::Let { var, value, body } => {
                self.let_with_bits(var, value, &|| self.result_tree(body, leaf))?
            }
            _ => leaf(e)?,
        })
    }

    /// Statements that add the options a result expression denotes.
    pub(super) fn emit(&self, e: &IExpr) -> Result<TokenStream, CodegenError> {
        self.result_tree(e, &|e| self.emit_leaf(e))
    }

    fn emit_leaf(&self, e: &IExpr) -> Result<TokenStream, CodegenError> {
        Ok(match e.kind() {
            IExprKind::End => quote!(out.end(); out.check()?;),
            IExprKind::Pos { .. } => {
                let p = self.position(e)?;
                quote!(out.position(#p); out.check()?;)
            }
            // A sum of positions (`opt/leaves.rs`): its terms go straight to `out`.
            IExprKind::Leaves(leaves) => match &**leaves {
                Leaves::Pair { a, b, .. } => {
                    let (a, b) = (self.position(a)?, self.position(b)?);
                    quote!(out.sum([#a, #b]); out.check()?;)
                }
                Leaves::Each { elem, clauses } => {
                    let looped = self.emit_sum_leaves(elem, clauses)?;
                    quote!({ let start = out.open_sum(); #looped out.close_sum(start); } out.check()?;)
                }
            },
            // The regions of a board by a table of its cells, on the field's bits.
            IExprKind::Parts(op) if matches!(op.kind, PartsKind::Sum { .. }) => {
                self.sum_of_parts(op)?
            }
            _ => {
                let v = self.value(e)?;
                quote!(out.expr(#v); out.check()?;)
            }
        })
    }

    /// The loops that add a leaf to the open sum for each choice of `clauses`.
    pub(super) fn emit_sum_leaves(
        &self,
        elem: &IExpr,
        clauses: &[IClause],
    ) -> Result<TokenStream, CodegenError> {
        self.clauses(clauses, &|| {
            let p = self.position(elem)?;
            Ok(quote!(out.leaf(#p);))
        })
    }

    /// The compound of kind `kind` with a part `elem` for each choice of `clauses`, as an
    /// `Expr`.
    fn compound_of(
        &self,
        kind: Compound,
        elem: &IExpr,
        clauses: &[IClause],
    ) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let looped = self.clauses(clauses, &|| {
            let elem = self.value(elem)?;
            Ok(quote!(list.push(#elem);))
        })?;
        let kind = super::compound(rt, kind);
        Ok(quote!({
            let mut list = ::std::vec::Vec::new();
            #looped
            #rt::Expr::compound_in_order(#kind, list)
        }))
    }

    /// A `Pos` from an `IExprKind::Pos`.
    pub(super) fn position(&self, e: &IExpr) -> Result<TokenStream, CodegenError> {
        let span = &e.span();
        let IExprKind::Pos { game, args, .. } = e.kind() else {
            return Err(unsupported("this position expression"));
        };
        let make = &self.names.games[*game].make;
        if self.packs_directly(e) {
            // Every value surely fits its field: packed without the maker's checks. A
            // field kept from the moving game's bits is bound to its stored form.
            let fields = self.field_names(&self.program.games[*game]);
            let mut values = Vec::new();
            let mut stored = Vec::new();
            for (i, (x, a)) in fields.iter().zip(args).enumerate() {
                match self.bits_arg(*game, i, a) {
                    Some(b) => {
                        values.push(self.bits_value(&b)?);
                        stored.push(quote!(#x));
                    }
                    None => {
                        values.push(self.value(a)?);
                        stored.push(self.pack(*game, i, quote!(#x)));
                    }
                }
            }
            let build = self.pos_pattern(*game, &stored);
            let bind = match (fields.as_slice(), values.as_slice()) {
                ([], _) => quote!(),
                // (`let n = n;` would be a redundant local.)
                ([x], [v]) if *x == v.to_string() => quote!(),
                ([x], [v]) => quote!(let #x = #v;),
                _ => quote!(let (#(#fields,)*) = (#(#values,)*);),
            };
            if bind.is_empty() {
                return Ok(build);
            }
            return Ok(quote!({
                #bind
                #build
            }));
        }
        let args = args
            .iter()
            .map(|a| self.value(a))
            .collect::<Result<Vec<_>, _>>()?;
        let at = self.at(*span);
        Ok(quote!(#make(#(#args,)* #at)?))
    }

    /// An expression used as a domain (`in`, binders): ranges stay ranges.
    pub(super) fn domain(&self, e: &IExpr) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        Ok(match e.kind() {
            IExprKind::Bin {
                op: op @ (Op::RangeIncl | Op::RangeExcl),
                lhs,
                rhs,
                ..
            } => {
                let (lo, hi) = (self.value(lhs)?, self.value(rhs)?);
                if *op == Op::RangeIncl {
                    quote!(#rt::native::Range::inclusive(#lo, #hi))
                } else {
                    quote!(#rt::native::Range::exclusive(#lo, #hi))
                }
            }
            IExprKind::Lit(Val::Range(lo, hi)) => {
                let (lo, hi) = (int(*lo), int(*hi));
                quote!(#rt::native::Range::inclusive(#lo, #hi))
            }
            _ => self.value(e)?,
        })
    }

    /// A reference to a domain that is only read (`in`, `len`, `min`, `max`, a loop over
    /// a name): a name without a copy.
    pub(super) fn domain_ref(&self, e: &IExpr) -> Result<TokenStream, CodegenError> {
        if let IExprKind::Lit(v) = e.kind() {
            if let Some(name) = self.constant_set(v)? {
                return Ok(quote!(&*#name));
            }
        }
        match e.kind() {
            IExprKind::Var(v) => Ok(self.var_ref(v)),
            _ => {
                let d = self.domain(e)?;
                Ok(quote!(&#d))
            }
        }
    }

    /// An argument of a function that takes a value of type `ty`: by reference when it is
    /// not `Copy`.
    pub(super) fn argument(&self, e: &IExpr, ty: &Ty) -> Result<TokenStream, CodegenError> {
        if is_copy(self.program, ty) {
            return self.value(e);
        }
        match e.kind() {
            IExprKind::Var(v) => Ok(self.var_ref(v)),
            _ => {
                let v = self.value(e)?;
                Ok(quote!(&#v))
            }
        }
    }

    /// The static that holds the constant set `v`, where it is large enough to be built
    /// once (`CONSTANT_SET_<k>`, made on first use) rather than where it is used.
    fn constant_set(&self, v: &Val) -> Result<Option<Ident>, CodegenError> {
        /// Sets of more elements than this are built once, as statics.
        const CONSTANT_SET_INLINE: usize = 8;
        let Val::Set(items) = v else {
            return Ok(None);
        };
        let (true, Some(ty)) = (items.len() > CONSTANT_SET_INLINE, self.element_type(v)) else {
            return Ok(None);
        };
        // (The table is borrowed apart: building the elements may add nested sets.)
        let known = self.constants.borrow().iter().position(|(w, _, _)| w == v);
        let k = match known {
            Some(k) => k,
            None => {
                let rt = &self.rt;
                let vs = (items.iter())
                    .map(|v| self.literal(v))
                    .collect::<Result<Vec<_>, CodegenError>>()?;
                let built = quote!(#rt::native::Set::from_array([#(#vs),*]));
                let mut constants = self.constants.borrow_mut();
                constants.push((v.clone(), ty, built));
                constants.len() - 1
            }
        };
        Ok(Some(quote::format_ident!("CONSTANT_SET_{k}")))
    }

    pub(super) fn literal(&self, v: &Val) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let all = |vs: &mut dyn Iterator<Item = &Val>| {
            vs.map(|v| self.literal(v))
                .collect::<Result<Vec<_>, CodegenError>>()
        };
        Ok(match v {
            Val::Int(n) => {
                let n = int(*n);
                quote!(#n)
            }
            Val::Bool(b) => quote!(#b),
            Val::Tuple(vs) => {
                let vs = all(&mut vs.iter())?;
                quote!((#(#vs,)*))
            }
            Val::Set(items) => match self.constant_set(v)? {
                // A large set is built once, as a static.
                Some(name) => quote!(::std::clone::Clone::clone(&*#name)),
                None => {
                    let vs = all(&mut items.iter())?;
                    quote!(#rt::native::Set::from_array([#(#vs),*]))
                }
            },
            Val::List(vs) => {
                let vs = all(&mut vs.iter())?;
                quote!(::std::vec![#(#vs),*])
            }
            Val::Range(lo, hi) => {
                let (lo, hi) = (int(*lo), int(*hi));
                quote!(#rt::native::Range::inclusive(#lo, #hi).to_set())
            }
            Val::Game(_) => return Err(unsupported("position constants")),
            Val::Tag(t) => {
                let names = &self.names.unions[t.ty];
                let (ty, tag) = (&names.ty, &names.variants[t.variant]);
                if t.fields.is_empty() {
                    quote!(#ty::#tag)
                } else {
                    let vs = all(&mut t.fields.iter())?;
                    quote!(#ty::#tag(#(#vs),*))
                }
            }
        })
    }

    /// The Rust type of the elements of a constant set (of numbers, booleans, tuples or
    /// tagged values), where its elements show it.
    fn element_type(&self, set: &Val) -> Option<TokenStream> {
        fn ty(g: &Gen, v: &Val) -> Option<TokenStream> {
            Some(match v {
                Val::Int(_) => quote!(i64),
                Val::Bool(_) => quote!(bool),
                Val::Tuple(vs) => {
                    let ts = vs.iter().map(|v| ty(g, v)).collect::<Option<Vec<_>>>()?;
                    quote!((#(#ts,)*))
                }
                Val::Tag(t) => {
                    let name = &g.names.unions[t.ty].ty;
                    quote!(#name)
                }
                _ => return None,
            })
        }
        match set {
            Val::Set(items) => ty(self, items.iter().next()?),
            _ => None,
        }
    }

    /// An expression as a value (ranges become sets).
    pub(super) fn value(&self, e: &IExpr) -> Result<TokenStream, CodegenError> {
        let span = &e.span();
        let rt = &self.rt;
        let n = |x: &IExpr| self.value(x);
        let all = |xs: &[IExpr]| xs.iter().map(n).collect::<Result<Vec<_>, _>>();
        Ok(match e.kind() {
            IExprKind::Lit(v) | IExprKind::AllOf { values: v, .. } => self.literal(v)?,
            IExprKind::Var(v) => {
                let x = self.var(v);
                if is_copy(self.program, &v.ty) {
                    quote!(#x)
                } else {
                    quote!(#x.clone())
                }
            }
            IExprKind::Neg { arg } => {
                let (x, at) = (n(arg)?, self.at(*span));
                quote!(#rt::native::neg(#x, #at)?)
            }
            IExprKind::Not(x) => {
                let x = n(x)?;
                quote!((!#x))
            }
            IExprKind::Bin { op, lhs, rhs } => self.binary(*op, lhs, rhs, *span, e)?,
            IExprKind::Field { tuple, index } => {
                let x = n(tuple)?;
                let i = syn::Index::from(*index);
                quote!((#x).#i)
            }
            IExprKind::Index { list, index } => {
                let (l, i, at) = (self.domain_ref(list)?, n(index)?, self.at(*span));
                quote!(#rt::native::index(#l, #i, #at)?)
            }
            IExprKind::Slice { list, lo, hi } => {
                let l = self.domain_ref(list)?;
                let bound = |b: &Option<Box<IExpr>>| -> Result<TokenStream, CodegenError> {
                    Ok(match b {
                        Some(b) => {
                            let b = n(b)?;
                            quote!(::std::option::Option::Some(#b))
                        }
                        None => quote!(::std::option::Option::None),
                    })
                };
                let (lo, hi, at) = (bound(lo)?, bound(hi)?, self.at(*span));
                quote!(#rt::native::slice(#l, #lo, #hi, #at)?)
            }
            IExprKind::With { list, index, value } => {
                let (l, i, v, at) = (n(list)?, n(index)?, n(value)?, self.at(*span));
                quote!(#rt::native::with(#l, #i, #v, #at)?)
            }
            IExprKind::Tuple(items) => {
                let items = all(items)?;
                quote!((#(#items,)*))
            }
            IExprKind::Set(items) => {
                let items = all(items)?;
                quote!(#rt::native::Set::from_array([#(#items),*]))
            }
            IExprKind::List(items) => {
                let items = all(items)?;
                quote!(::std::vec![#(#items),*])
            }
            IExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                let (c, a, b) = (n(cond)?, n(then)?, n(otherwise)?);
                quote!((if #c { #a } else { #b }))
            }
            IExprKind::Let { var, value, body } => {
                let (x, v) = (self.binder(var), n(value)?);
                let body = n(body)?;
                quote!({ let #x = #v; #body })
            }
            IExprKind::Quant {
                kind,
                vars,
                domain,
                body,
            } => {
                let b = n(body)?;
                let (init, step) = match kind {
                    QuantKind::Exists => (quote!(false), quote!(if #b { found = true; break; })),
                    QuantKind::Forall => (quote!(true), quote!(if !(#b) { found = false; break; })),
                    QuantKind::Count => (quote!(0i64), quote!(if #b { found += 1; })),
                };
                let looped = self.for_each(vars, domain, step)?;
                quote!({ let mut found = #init; #looped found })
            }
            IExprKind::Inverted(q) => self.inverted(q)?,
            IExprKind::Cells(op) => self.cells(op)?,
            IExprKind::Compr { elem, clauses } => {
                let looped = self.clauses(clauses, &|| {
                    let elem = n(elem)?;
                    Ok(quote!(set.push(#elem);))
                })?;
                quote!({ let mut set = #rt::native::SetBuilder::new(); #looped set.build() })
            }
            IExprKind::Closure {
                kind: ClosureKind::Components,
                seed,
                var,
                next,
            } => self.components(seed, var, next, None)?,
            IExprKind::Parts(op) => self.parts_value(op)?,
            IExprKind::Extreme(x) => {
                let (largest, at) = (x.largest, self.at(*span));
                let folded = self.folded_extreme(x)?;
                quote!(#rt::native::found_extreme(#folded, #largest, #at)?)
            }
            IExprKind::Closure {
                seed, var, next, ..
            } => {
                let (seed, next, x) = (n(seed)?, n(next)?, self.binder(var));
                quote!(#rt::native::closure(
                    (#seed).into_iter().collect::<#rt::native::Set<_>>(),
                    |#x| ::std::result::Result::Ok(#next),
                )?)
            }
            IExprKind::Call {
                func,
                args,
                in_table,
                ..
            } => {
                let name = &self.names.fns[*func];
                let params = &self.program.fns[*func].params;
                let unchecked = *in_table && self.has_lookup(*func);
                let args = (args.iter().zip(params))
                    .map(|(a, (_, t))| self.argument(a, &t.ty()))
                    .collect::<Result<Vec<_>, _>>()?;
                if unchecked {
                    // Every argument surely lies in the function's complete table.
                    let lookup = &self.names.fn_tables[*func];
                    quote!(#lookup(#(#args),*))
                } else {
                    quote!(#name(#(#args),*)?)
                }
            }
            IExprKind::Builtin { func, args } => self.builtin(*func, args, *span)?,
            IExprKind::Pos { .. } => {
                let p = self.position(e)?;
                quote!(#rt::Expr::Pos(#p))
            }
            IExprKind::Variant { variant, args } => {
                let maker = &self.names.unions[variant.ty.id].makers[variant.variant];
                let args = all(args)?;
                let at = self.at(*span);
                quote!(#maker(#(#args,)* #at)?)
            }
            IExprKind::Match {
                scrutinee,
                ty,
                arms,
                default,
            } => {
                let x = n(scrutinee)?;
                let names = &self.names.unions[*ty];
                let name = &names.ty;
                let mut out = Vec::new();
                for arm in arms {
                    let tag = &names.variants[arm.variant];
                    let body = n(&arm.body)?;
                    if arm.vars.is_empty() {
                        out.push(quote!(#name::#tag => #body,));
                    } else {
                        let binds = arm.vars.iter().map(|v| self.binder(v));
                        out.push(quote!(#name::#tag(#(#binds),*) => #body,));
                    }
                }
                if arms.len() < self.program.types[*ty].variants.len() {
                    let d = match default {
                        Some(d) => n(d)?,
                        None => return Err(unsupported("a `match` that misses a variant")),
                    };
                    out.push(quote!(_ => #d,));
                }
                quote!((match #x { #(#out)* }))
            }
            IExprKind::End => quote!(#rt::Expr::End),
            IExprKind::CompoundOf {
                kind,
                elem,
                clauses,
            } => self.compound_of(*kind, elem, clauses)?,
            IExprKind::Leaves(leaves) => match &**leaves {
                Leaves::Pair { a, b, .. } => {
                    let (a, b) = (n(a)?, n(b)?);
                    quote!(#rt::Expr::compound_in_order(#rt::Compound::Sum, [#a, #b]))
                }
                Leaves::Each { elem, clauses } => self.compound_of(Compound::Sum, elem, clauses)?,
            },
            IExprKind::Compound { kind, parts } => {
                let parts = all(parts)?;
                let kind = super::compound(rt, *kind);
                quote!(#rt::Expr::compound_in_order(#kind, [#(#parts),*]))
            }
        })
    }

    fn binary(
        &self,
        op: Op,
        lhs: &IExpr,
        rhs: &IExpr,
        span: crate::ast::Span,
        whole: &IExpr,
    ) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let at = self.at(span);
        Ok(match op {
            Op::In | Op::NotIn => {
                let test = match self.cell_in_bits(lhs, rhs)? {
                    Some(test) => test,
                    None => {
                        let (x, d) = (self.value(lhs)?, self.domain_ref(rhs)?);
                        quote!(#rt::native::Domain::has(#d, &#x))
                    }
                };
                if op == Op::In {
                    test
                } else {
                    quote!((!#test))
                }
            }
            Op::RangeIncl | Op::RangeExcl => {
                let d = self.domain(whole)?;
                quote!(#d.to_set())
            }
            Op::SetUnion | Op::SetInter | Op::SetDiff | Op::Insert | Op::Remove => {
                // The receiver is borrowed by the method call itself.
                let x = match lhs.kind() {
                    IExprKind::Var(v) => {
                        let x = self.var(v);
                        quote!(#x)
                    }
                    _ => self.value(lhs)?,
                };
                // A set operand by reference (a name is not cloned); one element by value.
                let y = match (op, rhs.kind()) {
                    (Op::Insert | Op::Remove, _) => self.value(rhs)?,
                    (_, IExprKind::Var(v)) => self.var_ref(v),
                    (_, _) => {
                        let v = self.value(rhs)?;
                        quote!(&#v)
                    }
                };
                match op {
                    Op::SetUnion => quote!((#x).union(#y)),
                    Op::SetInter => quote!((#x).inter(#y)),
                    Op::SetDiff => quote!((#x).diff(#y)),
                    Op::Insert => quote!((#x).with(#y)),
                    _ => quote!((#x).without(#y)),
                }
            }
            _ => {
                let (x, y) = (self.value(lhs)?, self.value(rhs)?);
                match op {
                    Op::Or => quote!((#x || #y)),
                    Op::And => quote!((#x && #y)),
                    Op::Eq => quote!((#x == #y)),
                    Op::Ne => quote!((#x != #y)),
                    Op::Lt => quote!((#x < #y)),
                    Op::Le => quote!((#x <= #y)),
                    Op::Gt => quote!((#x > #y)),
                    Op::Ge => quote!((#x >= #y)),
                    Op::Add => quote!(#rt::native::add(#x, #y, #at)?),
                    Op::Sub => quote!(#rt::native::sub(#x, #y, #at)?),
                    Op::NatSub => quote!(#rt::native::nat_sub(#x, #y, #at)?),
                    Op::Mul => quote!(#rt::native::mul(#x, #y, #at)?),
                    Op::Div => quote!(#rt::native::div(#x, #y, #at)?),
                    Op::Rem => quote!(#rt::native::rem(#x, #y, #at)?),
                    Op::Concat => quote!({ let mut list = #x; list.extend(#y); list }),
                    Op::GameSum => {
                        quote!(#rt::Expr::compound_in_order(#rt::Compound::Sum, [#x, #y]))
                    }
                    Op::In
                    | Op::NotIn
                    | Op::RangeIncl
                    | Op::RangeExcl
                    | Op::SetUnion
                    | Op::SetInter
                    | Op::SetDiff
                    | Op::Insert
                    | Op::Remove => {
                        unreachable!("handled above")
                    }
                }
            }
        })
    }

    /// The least (or largest) of `{ elem for clauses }` as an `Option` (`None` for no
    /// element): the extreme of a comprehension's elements is that of its set, so they are
    /// folded instead of building the set.
    pub(super) fn folded_extreme(&self, x: &ExtremeOf) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let largest = x.largest;
        let looped = self.clauses(&x.clauses, &|| {
            let elem = self.value(&x.elem)?;
            Ok(quote!(best = #rt::native::keep_extreme(best, #elem, #largest);))
        })?;
        Ok(quote!({
            let mut best = ::std::option::Option::None;
            #looped
            best
        }))
    }

    fn builtin(
        &self,
        func: Builtin,
        args: &[IExpr],
        span: crate::ast::Span,
    ) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let at = self.at(span);
        Ok(match func {
            Builtin::Abs => {
                let x = self.value(&args[0])?;
                quote!(#rt::native::abs(#x, #at)?)
            }
            Builtin::Len => {
                let x = self.domain_ref(&args[0])?;
                quote!(#rt::native::Domain::count(#x))
            }
            Builtin::Min | Builtin::Max => {
                let largest = func == Builtin::Max;
                if args.len() == 1 {
                    let d = self.domain_ref(&args[0])?;
                    quote!(#rt::native::extreme(#d, #largest, #at)?)
                } else {
                    let xs = args
                        .iter()
                        .map(|a| self.value(a))
                        .collect::<Result<Vec<_>, _>>()?;
                    let first = &xs[0];
                    let rest = &xs[1..];
                    if largest {
                        quote!(#first #(.max(#rest))*)
                    } else {
                        quote!(#first #(.min(#rest))*)
                    }
                }
            }
        })
    }
}
