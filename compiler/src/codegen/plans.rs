//! Queries: each query of the file as a runtime query plan, its rows made lazily.

use super::layout::is_copy;
use super::{CodegenError, Gen};
use crate::ast::QueryKind;
use crate::ir::*;
use cgdl_runtime::ValueKind;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

impl Gen<'_> {
    /// A query's stream: for each element `x` of `dom`, `label` and the position `target`,
    /// made lazily as the driver asks for them; the domain's size is limited as `shape` says.
    fn stream(
        &self,
        x: &Ident,
        dom: &TokenStream,
        label: TokenStream,
        target: &TokenStream,
        shape: TokenStream,
    ) -> TokenStream {
        let rt = &self.rt;
        quote!({
            let dom = #dom;
            #rt::native::QueryShape::#shape
                .check(#rt::native::Domain::count(&dom) as u64)
                .map_err(#rt::RuleError::new)?;
            #rt::report::Stream::new(#rt::native::Domain::into_elements(dom).map(move |#x| {
                let item = (|| ::std::result::Result::<_, #rt::RuleError>::Ok((#label, #target)))();
                item.map_err(|e| e.to_string())
            }))
        })
    }

    /// One query as a plan.
    fn plan(&self, q: &IQuery) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let text = Literal::string(&q.text);
        let asks = q.values.iter().map(|v| ask(rt, v));
        let asks = quote!(::std::vec![#(#asks),*]);
        // A grid's names are borrowed from its rows and columns.
        if q.kind == QueryKind::Table && q.binders.len() == 2 {
            let mut borrowed = self.borrowed.borrow_mut();
            for (var, _) in &q.binders {
                if !is_copy(self.program, &var.ty) {
                    borrowed.insert(var.name.clone());
                }
            }
        }
        self.reading(|f| {
            q.binders.iter().for_each(|(_, dom)| dom.for_each_read(f));
            q.target.for_each_read(f);
        });
        let target = self.value(&q.target);
        self.borrowed.borrow_mut().clear();
        let target = target?;
        Ok(match q.kind {
            QueryKind::Value => quote! {
                #rt::report::Plan::Value { query: #text.to_string(), target: #target, asks: #asks }
            },
            QueryKind::Table if q.binders.len() == 1 => {
                let (var, dom) = &q.binders[0];
                let x = self.var(var);
                let dom = self.domain(dom)?;
                let name = Literal::string(&var.name);
                let rows = self.stream(
                    &x,
                    &dom,
                    quote!(#rt::native::Show::shown(&#x)),
                    &target,
                    quote!(Rows),
                );
                quote!(#rt::report::Plan::Table {
                    query: #text.to_string(), var: #name.to_string(), rows: #rows, asks: #asks
                })
            }
            QueryKind::Table => {
                let (rv, rdom) = &q.binders[0];
                let (cv, cdom_ir) = &q.binders[1];
                let r = self.var(rv);
                let (rdom, cdom) = (self.domain(rdom)?, self.domain(cdom_ir)?);
                let (rname, cname) = (Literal::string(&rv.name), Literal::string(&cv.name));
                let each = |var: &Var, all: TokenStream| {
                    let x = self.binder(var);
                    if is_copy(self.program, &var.ty) {
                        quote!(&#x in &#all)
                    } else {
                        quote!(#x in &#all)
                    }
                };
                let (each_row, each_col) =
                    (each(rv, quote!(grid_rows)), each(cv, quote!(grid_cols)));
                // A column domain that reads the row's name is evaluated for each row: the
                // grid's columns are all of theirs, in order (`rt::native::ragged_columns`).
                let mut uses_row = false;
                cdom_ir.for_each_read(&mut |v| uses_row |= v.name == rv.name);
                if uses_row {
                    let c = self.var(cv);
                    let bind_row = match is_copy(self.program, &rv.ty) {
                        true => quote!(let #r = *grid_row_value;),
                        false => quote!(let #r = grid_row_value;),
                    };
                    let bind_col = match is_copy(self.program, &cv.ty) {
                        true => quote!(let #c = grid_cols[grid_col];),
                        false => quote!(let #c = &grid_cols[grid_col];),
                    };
                    return Ok(quote!({
                        let grid_rows = #rt::native::query_elements(&#rdom, #rt::native::QueryShape::GridSide)?;
                        let mut grid_cols_of = ::std::vec::Vec::with_capacity(grid_rows.len());
                        for grid_row_value in &grid_rows {
                            #bind_row
                            grid_cols_of.push(#rt::native::query_elements(&#cdom, #rt::native::QueryShape::GridSide)?);
                        }
                        let (grid_cols, grid_columns) =
                            #rt::native::ragged_columns(&grid_cols_of).map_err(#rt::RuleError::new)?;
                        let mut grid_cells = ::std::vec::Vec::with_capacity(grid_rows.len());
                        for (grid_row_value, columns) in grid_rows.iter().zip(&grid_columns) {
                            #bind_row
                            let mut grid_row = ::std::vec::Vec::with_capacity(columns.len());
                            for &grid_col in columns {
                                #bind_col
                                grid_row.push(#target);
                            }
                            grid_cells.push(grid_row);
                        }
                        #rt::report::Plan::Grid {
                            query: #text.to_string(),
                            vars: (#rname.to_string(), #cname.to_string()),
                            row_labels: grid_rows.iter().map(#rt::native::Show::shown).collect(),
                            col_labels: grid_cols.iter().map(#rt::native::Show::shown).collect(),
                            cells: grid_cells,
                            row_columns: ::std::option::Option::Some(grid_columns),
                            asks: #asks,
                        }
                    }));
                }
                quote!({
                    let grid_rows = #rt::native::query_elements(&#rdom, #rt::native::QueryShape::GridSide)?;
                    let grid_cols = match grid_rows.first() {
                        ::std::option::Option::Some(_) => {
                            #rt::native::query_elements(&#cdom, #rt::native::QueryShape::GridSide)?
                        }
                        ::std::option::Option::None => ::std::vec::Vec::new(),
                    };
                    #rt::native::check_grid(grid_rows.len(), grid_cols.len()).map_err(#rt::RuleError::new)?;
                    let mut grid_cells = ::std::vec::Vec::new();
                    for #each_row {
                        let mut grid_row = ::std::vec::Vec::new();
                        for #each_col {
                            grid_row.push(#target);
                        }
                        grid_cells.push(grid_row);
                    }
                    #rt::report::Plan::Grid {
                        query: #text.to_string(),
                        vars: (#rname.to_string(), #cname.to_string()),
                        row_labels: grid_rows.iter().map(#rt::native::Show::shown).collect(),
                        col_labels: grid_cols.iter().map(#rt::native::Show::shown).collect(),
                        cells: grid_cells,
                        row_columns: ::std::option::Option::None,
                        asks: #asks,
                    }
                })
            }
            QueryKind::Quotient => {
                let (_, dom) = &q.binders[0];
                let dom = self.domain(dom)?;
                let digits = (q.heap_terms(self.program))
                    .map(|(_, digits)| digits)
                    .unwrap_or_default()
                    .into_iter()
                    .map(Literal::u8_suffixed);
                quote!({
                    let quotient_dom = #dom;
                    let (first, last) = #rt::native::Domain::consecutive(&quotient_dom).unwrap_or((1, 0));
                    #rt::report::Plan::Quotient {
                        query: #text.to_string(),
                        digits: ::std::vec![#(#digits),*],
                        first: first.max(0) as u64,
                        last: last.max(0) as u64,
                    }
                })
            }
            QueryKind::Period => {
                let (var, dom) = &q.binders[0];
                let x = self.var(var);
                let dom = self.domain(dom)?;
                let kind = value_kind(
                    rt,
                    q.values
                        .first()
                        .and_then(|v| ValueKind::from_name(v))
                        .unwrap_or(ValueKind::Grundy),
                );
                let bound = match q.period_bound(self.program) {
                    Some(b) => {
                        let t = Literal::usize_unsuffixed(b.max_removal);
                        let j = Literal::usize_unsuffixed(b.max_parts);
                        quote!(::std::option::Option::Some(#rt::Bound { max_removal: #t, max_parts: #j }))
                    }
                    None => quote!(::std::option::Option::None),
                };
                let heaps = match q.heap_terms(self.program) {
                    Some((game, digits)) => {
                        let game = Literal::usize_unsuffixed(game);
                        let digits = digits.iter().map(|&d| Literal::u8_suffixed(d));
                        quote!(#rt::native::Domain::consecutive(&period_dom).map(|(first, last)| {
                            #rt::report::HeapTerms {
                                game: #game,
                                digits: ::std::vec![#(#digits),*],
                                first,
                                last,
                            }
                        }))
                    }
                    None => quote!(::std::option::Option::None),
                };
                let terms =
                    self.stream(&x, &quote!(period_dom), quote!(#x), &target, quote!(Terms));
                quote!({
                    let period_dom = #dom;
                    let heaps = #heaps;
                    #rt::report::Plan::Period {
                        query: #text.to_string(), kind: #kind, terms: #terms, bound: #bound, heaps,
                    }
                })
            }
        })
    }

    /// `QUERIES`, `plan(i)` and `plans()`.
    pub(super) fn plans(&self) -> Result<TokenStream, CodegenError> {
        let rt = &self.rt;
        let plans = (self.program.queries.iter())
            .map(|q| self.plan(q))
            .collect::<Result<Vec<_>, _>>()?;
        let infos = self.program.queries.iter().map(|q| {
            let text = Literal::string(&q.text);
            let loc = Literal::string(&self.program.locate(self.source, q.span.start));
            quote!((#text, #loc))
        });
        let indices = (0..plans.len()).map(Literal::usize_unsuffixed);
        let lints = super::user_code_lints(&["redundant_closure_call"]);
        Ok(quote! {
            /// Each query's text and `line:col`.
            pub const QUERIES: &[(&str, &str)] = &[#(#infos),*];

            /// Query `i` as a plan for the runtime's query driver.
            #lints
            pub fn plan(i: usize) -> ::std::result::Result<#rt::report::Plan<'static, Pos>, #rt::RuleError> {
                match i {
                    #(#indices => ::std::result::Result::Ok(#plans),)*
                    _ => ::std::result::Result::Err(#rt::RuleError::new("no such query")),
                }
            }

            /// Every query as a plan.
            #[allow(dead_code)]
            pub fn plans() -> ::std::result::Result<::std::vec::Vec<#rt::report::Plan<'static, Pos>>, #rt::RuleError> {
                (0..QUERIES.len()).map(plan).collect()
            }
        })
    }
}

fn value_kind(rt: &TokenStream, k: ValueKind) -> TokenStream {
    match k {
        ValueKind::Outcome => quote!(#rt::ValueKind::Outcome),
        ValueKind::MisereOutcome => quote!(#rt::ValueKind::MisereOutcome),
        ValueKind::Grundy => quote!(#rt::ValueKind::Grundy),
        ValueKind::WNumber => quote!(#rt::ValueKind::WNumber),
        ValueKind::MisereWNumber => quote!(#rt::ValueKind::MisereWNumber),
        ValueKind::Remoteness => quote!(#rt::ValueKind::Remoteness),
        ValueKind::Suspense => quote!(#rt::ValueKind::Suspense),
    }
}

fn ask(rt: &TokenStream, name: &str) -> TokenStream {
    match ValueKind::from_name(name) {
        Some(k) => {
            let k = value_kind(rt, k);
            quote!(#rt::report::Ask::Value(#k))
        }
        None => match cgdl_runtime::partizan::PartizanKind::from_name(name) {
            Some(k) => {
                let k = quote::format_ident!("{k:?}");
                quote!(#rt::report::Ask::Partizan(#rt::partizan::PartizanKind::#k))
            }
            None if name == "options" => quote!(#rt::report::Ask::Options),
            None if name == "misere_form" => quote!(#rt::report::Ask::MisereForm),
            None => quote!(#rt::report::Ask::Moves),
        },
    }
}
