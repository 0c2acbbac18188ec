//! A pass over generated code that reads it as a reviewer would: it drops the parentheses
//! emission added for safety where Rust does not need them (around a name, a call, a
//! function argument, a condition...), merges a block that ends a block into it, and turns
//! a function body `Ok(f(x)?)` into `f(x)`. The code then reads as written by hand and
//! compiles without `unused_parens`.

use syn::visit_mut::{self, VisitMut};
use syn::{Block, Expr, ItemFn, Local, Stmt};

/// Drops needless parentheses throughout `file`.
pub(super) fn tidy(file: &mut syn::File) {
    Tidy.visit_file_mut(file);
}

struct Tidy;

/// Whether `e` needs no parentheses in any position: a name, literal, call or other
/// postfix or delimited expression.
fn atomic(e: &Expr) -> bool {
    match e {
        Expr::Path(_)
        | Expr::Lit(_)
        | Expr::Macro(_)
        | Expr::Paren(_)
        | Expr::Tuple(_)
        | Expr::Array(_)
        | Expr::Block(_)
        | Expr::Struct(_) => true,
        Expr::Call(c) => atomic(&c.func),
        Expr::MethodCall(m) => atomic(&m.receiver),
        Expr::Field(f) => atomic(&f.base),
        Expr::Index(i) => atomic(&i.expr),
        Expr::Try(t) => atomic(&t.expr),
        _ => false,
    }
}

/// Whether `e` is an `if`, `match` or block, which ends a statement where it begins one.
fn block_like(e: &Expr) -> bool {
    matches!(
        e,
        Expr::If(_)
            | Expr::Match(_)
            | Expr::Block(_)
            | Expr::Unsafe(_)
            | Expr::Loop(_)
            | Expr::ForLoop(_)
            | Expr::While(_)
    )
}

/// Whether `e`, written without parentheses, begins with a block-like expression.
fn starts_block_like(e: &Expr) -> bool {
    match e {
        e if block_like(e) => true,
        Expr::Binary(b) => starts_block_like(&b.left),
        Expr::Cast(c) => starts_block_like(&c.expr),
        Expr::MethodCall(m) => starts_block_like(&m.receiver),
        Expr::Field(f) => starts_block_like(&f.base),
        Expr::Index(i) => starts_block_like(&i.expr),
        Expr::Try(t) => starts_block_like(&t.expr),
        Expr::Call(c) => starts_block_like(&c.func),
        Expr::Range(r) => r.start.as_deref().is_some_and(starts_block_like),
        Expr::Assign(a) => starts_block_like(&a.left),
        _ => false,
    }
}

/// Replaces `(inner)` by `inner` when `ok(inner)`.
fn unwrap_if(e: &mut Expr, ok: impl Fn(&Expr) -> bool) {
    while let Expr::Paren(p) = e {
        if !ok(&p.expr) {
            return;
        }
        let inner = std::mem::replace(&mut *p.expr, Expr::PLACEHOLDER);
        *e = inner;
    }
}

/// An expression that stands alone (an argument, a condition, a value assigned): any
/// expression but a struct literal may drop its parentheses.
fn unwrap_alone(e: &mut Expr) {
    unwrap_if(e, |_| true);
}

impl VisitMut for Tidy {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        visit_mut::visit_expr_mut(self, e);
        unwrap_if(e, atomic);
        match e {
            Expr::Call(c) => c.args.iter_mut().for_each(unwrap_alone),
            Expr::MethodCall(m) => m.args.iter_mut().for_each(unwrap_alone),
            Expr::Array(a) => a.elems.iter_mut().for_each(unwrap_alone),
            Expr::Tuple(t) => t.elems.iter_mut().for_each(unwrap_alone),
            Expr::If(i) => {
                unwrap_alone(&mut i.cond);
                // `else { if c { a } else { b } }` is `else if c { a } else { b }`.
                if let Some((_, other)) = &mut i.else_branch {
                    if let Expr::Block(b) = &mut **other {
                        if let [Stmt::Expr(Expr::If(_), None)] = b.block.stmts.as_slice() {
                            if b.label.is_none() && b.attrs.is_empty() {
                                if let Some(Stmt::Expr(inner, None)) = b.block.stmts.pop() {
                                    **other = inner;
                                }
                            }
                        }
                    }
                }
            }
            Expr::Match(m) => {
                unwrap_alone(&mut m.expr);
                for arm in &mut m.arms {
                    unwrap_alone(&mut arm.body);
                }
            }
            Expr::Index(i) => unwrap_alone(&mut i.index),
            Expr::Assign(a) => unwrap_alone(&mut a.right),
            Expr::Closure(c) => unwrap_alone(&mut c.body),
            Expr::Return(r) => {
                if let Some(v) = &mut r.expr {
                    unwrap_alone(v);
                }
            }
            Expr::Binary(b)
                if matches!(b.op, syn::BinOp::AddAssign(_) | syn::BinOp::SubAssign(_)) =>
            {
                unwrap_alone(&mut b.right)
            }
            Expr::Unary(u) => unwrap_if(&mut u.expr, atomic),
            Expr::ForLoop(f) => unwrap_if(&mut f.expr, |x| !matches!(x, Expr::Struct(_))),
            _ => {}
        }
    }

    fn visit_block_mut(&mut self, block: &mut Block) {
        visit_mut::visit_block_mut(self, block);
        // `{ a; { b; c } }` is `{ a; b; c }`: the inner block's names are visible only to
        // its own statements, which are the last ones either way.
        while let Some(Stmt::Expr(Expr::Block(inner), None)) = block.stmts.last() {
            if inner.label.is_some() || !inner.attrs.is_empty() {
                break;
            }
            let Some(Stmt::Expr(Expr::Block(inner), None)) = block.stmts.pop() else {
                break;
            };
            block.stmts.extend(inner.block.stmts);
        }
    }

    fn visit_item_fn_mut(&mut self, item: &mut ItemFn) {
        visit_mut::visit_item_fn_mut(self, item);
        // A tail `Ok(e?)` is `e`, which has the function's own result type (after a
        // table's lookup, too).
        if let Some(Stmt::Expr(Expr::Call(call), None)) = item.block.stmts.last_mut() {
            let is_ok = matches!(&*call.func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Ok"));
            if is_ok && call.args.len() == 1 {
                if let Some(Expr::Try(t)) = call.args.first() {
                    let inner = (*t.expr).clone();
                    if let Some(last) = item.block.stmts.last_mut() {
                        *last = Stmt::Expr(inner, None);
                    }
                }
            }
        }
    }

    fn visit_local_mut(&mut self, local: &mut Local) {
        visit_mut::visit_local_mut(self, local);
        if let Some(init) = &mut local.init {
            if init.diverge.is_none() {
                unwrap_alone(&mut init.expr);
            }
        }
    }

    fn visit_stmt_mut(&mut self, stmt: &mut Stmt) {
        visit_mut::visit_stmt_mut(self, stmt);
        if let Stmt::Expr(e, _) = stmt {
            unwrap_if(e, |inner| block_like(inner) || !starts_block_like(inner));
        }
    }
}
