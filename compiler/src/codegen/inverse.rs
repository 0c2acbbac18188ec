//! Quantifiers inverted at build time: `exists b in Box: l in sides(b) and ...` (or
//! `count`) looks at every box for each line, though only the one or two boxes whose sides
//! hold `l` can pass. When the domain is a finite type and `sides` can be computed for
//! each of its values while the solver is built, the loop runs over a table instead: for
//! each value `l` can take, the boxes `b` (in the domain's order) with `l in sides(b)`.
//! The rest of the condition is tested for each of them: `l in sides(b)` holds for them by
//! construction, and for the boxes left out it is false, so the rest is never evaluated
//! there; every `sides(b)` is known to succeed, and to be the same at run time (functions
//! are pure). So the quantifier's value, the first witness and any error are those of the
//! plain loop.

use super::{CodegenError, Gen};
use crate::ast::QuantKind;
use crate::ir::*;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// The most values a domain, or the type of the element looked for, may have.
const INVERSE_LIMIT: usize = 4096;

impl Gen<'_> {
    /// The quantifier `kind vars in domain: body` as a loop over an inverted table, when
    /// `body` is `x in f(b)` or `x in f(b) and rest` as the module describes; else `None`.
    pub(super) fn inverted_quantifier(
        &self,
        kind: QuantKind,
        vars: &[Var],
        domain: &IExpr,
        body: &IExpr,
    ) -> Result<Option<TokenStream>, CodegenError> {
        let ([b], IExpr::AllOf { ty: dom_ty, .. }) = (vars, domain) else {
            return Ok(None);
        };
        if kind == QuantKind::Forall {
            return Ok(None);
        }
        let (test, rest) = match body {
            IExpr::Bin {
                op: Op::And,
                lhs,
                rhs,
                ..
            } => (&**lhs, Some(&**rhs)),
            e => (e, None),
        };
        let IExpr::Bin {
            op: Op::In,
            lhs: x,
            rhs: set,
            ..
        } = test
        else {
            return Ok(None);
        };
        let IExpr::Call { func, args } = &**set else {
            return Ok(None);
        };
        if !matches!(args.as_slice(), [IExpr::Var(v)] if v.slot == b.slot && v.name == b.name) {
            return Ok(None);
        }
        if x.reads_any(std::slice::from_ref(b)) {
            return Ok(None);
        }
        let f = &self.program.fns[*func];
        let FieldTy::Set(elem_ty) = &f.ret else {
            return Ok(None);
        };
        let Some(elems) = elem_ty.values(&self.program.types, INVERSE_LIMIT) else {
            return Ok(None);
        };
        // `f` at every value of the domain, in its order: each must succeed.
        let Some(sets) =
            self.evaluations
                .values(*func, std::slice::from_ref(dom_ty), INVERSE_LIMIT)
        else {
            return Ok(None);
        };
        // An empty domain keeps the plain loop, which never evaluates `x`.
        let Some(sets) =
            (sets.iter().cloned().collect::<Option<Vec<Val>>>()).filter(|sets| !sets.is_empty())
        else {
            return Ok(None);
        };
        let mut inverse: Vec<Vec<u32>> = vec![Vec::new(); elems.len()];
        for (rank, set) in sets.iter().enumerate() {
            let Val::Set(members) = set else {
                return Ok(None);
            };
            for m in members.iter() {
                // A member outside the element type (a failed type check) keeps the loop.
                let Some(i) = elems.iter().position(|e| e == m) else {
                    return Ok(None);
                };
                inverse[i].push(rank as u32);
            }
        }
        let rows = inverse.iter().map(|bs| {
            let bs = bs.iter().map(|&r| Literal::u32_suffixed(r));
            quote!(&[#(#bs),*])
        });
        let len = Literal::usize_unsuffixed(elems.len());
        let value = self.value(x)?;
        let fits = self.admits(elem_ty, quote!(looked_for));
        let rank = self.rank(elem_ty, quote!(looked_for));
        // Only the rest is tested (`x in f(b)` holds); `b` is bound when it reads it.
        let (each_rank, bind) = if rest.is_some_and(|rest| rest.reads_any(std::slice::from_ref(b)))
        {
            let pattern = self.binder(b);
            let each = self.unrank(dom_ty, quote!(rank));
            (quote!(&rank), quote!(let #pattern = #each;))
        } else {
            (quote!(_), quote!())
        };
        let test = match rest {
            Some(rest) => self.value(rest)?,
            None => quote!(true),
        };
        let (init, step) = match kind {
            QuantKind::Exists => (quote!(false), quote!(if #test { found = true; break; })),
            _ => (quote!(0i64), quote!(if #test { found += 1; })),
        };
        let guard = fits.map_or_else(|| quote!(true), |f| quote!(#f));
        Ok(Some(quote!({
            // For each value of the element type (by rank), the domain's values (by rank)
            // whose set holds it.
            static INVERSE: [&[u32]; #len] = [#(#rows),*];
            let mut found = #init;
            let looked_for = #value;
            if #guard {
                for #each_rank in INVERSE[(#rank) as usize] {
                    #bind
                    #step
                }
            }
            found
        })))
    }
}
