//! Regions however they are written: a sum over representatives of closures becomes a sum
//! over `components`.
//!
//! A move that splits a board into its regions may write each region as the closure of
//! one of its cells, and keep one term per region by a representative test:
//!
//! ```text
//! fn region(cells: set<Cell>, x: Cell) -> set<Cell> =
//!     closure({x}, v => { y for y in cells where next_to(v, y) })
//! sum(Cram(region(rest, x)) for x in rest where rank(x) == min({ rank(y) for y in region(rest, x) }))
//! ```
//!
//! Where the step relates cells symmetrically (`next_to(v, y)` is `next_to(y, v)` for every
//! pair, checked by evaluating it), the closure of `x` within `rest` is the part of `rest`
//! holding `x`, and where the test keeps exactly one cell of each part (the least, or the one
//! of least `rank`, `rank` taking a different value at each element), the sum is the sum over
//! `components(rest, v => { y for y in T where next_to(v, y) })` (elements of a step outside
//! the set are ignored, so the step may range over the whole type), each part once. The
//! sum's terms are the same; the runtime's region fast path then finds the parts on the
//! set's bits. The rewrite is made only where the step and `rank` succeed at every element
//! (so that nothing the rule skips can fail).

use super::structure::substitute;
use crate::ast::ClosureKind;
use crate::interp::{within_budget, Interpreter};
use crate::ir::*;
use cgdl_runtime::Compound;
use std::collections::BTreeSet;
use std::rc::Rc;

/// The most elements a region's type may have.
const MAX_ELEMENTS: usize = 256;
/// Steps the checks of one rewrite may take.
const BUDGET: u64 = 4_000_000;

/// Runs the pass on every move of `program`.
pub fn run(program: &mut Program, source: &str) {
    for gid in 0..program.games.len() {
        let GameKind::Rules(moves) = &program.games[gid].kind else {
            continue;
        };
        let mut moves = moves.clone();
        let mut locals = program.games[gid].locals.clone();
        let mut changed = false;
        {
            let interp = Interpreter::new(program, source);
            let field_types: Vec<FieldTy> = program.games[gid]
                .fields
                .iter()
                .map(|f| f.ty.clone())
                .collect();
            for m in &mut moves {
                let mut names = BTreeSet::new();
                m.for_each_var(&mut |v| {
                    names.insert(v.name.clone());
                });
                let mut pass = Pass {
                    program,
                    interp: &interp,
                    field_types: &field_types,
                    locals: &mut locals,
                    names,
                    lets: Default::default(),
                    changed: false,
                };
                for c in &mut m.clauses {
                    match c {
                        IClause::Bind(_, e) | IClause::Cond(e) => pass.expr(e),
                        IClause::Let(var, e) => {
                            pass.expr(e);
                            pass.lets.insert(var.slot, e.clone());
                        }
                    }
                }
                pass.expr(&mut m.result);
                changed |= pass.changed;
            }
        }
        if changed {
            let game = &mut program.games[gid];
            game.kind = GameKind::Rules(moves);
            game.locals = locals;
        }
    }
}

struct Pass<'p, 'a> {
    program: &'p Program,
    interp: &'a Interpreter<'p>,
    field_types: &'a [FieldTy],
    /// The game's names: names the rewrite binds get new slots.
    locals: &'a mut Locals,
    /// The names the move uses (a new name must differ from each).
    names: BTreeSet<Rc<str>>,
    /// The values of the move's `let`s, by slot.
    lets: std::collections::HashMap<VarId, IExpr>,
    changed: bool,
}

/// A closure of one element within a set: `closure({x}, v => step)`.
struct Region {
    /// The element.
    x: Var,
    /// The set it is within.
    set: IExpr,
    /// The step's name and the elements one step from it, over the whole type.
    var: Var,
    next: IExpr,
}

enum StepKind {
    /// `{ y for y in set where cond }`: `y` and the condition.
    Filter(Var, IExpr),
    /// `f(v) & set` or `set & f(v)`: the table `f(v)`.
    Table(IExpr),
}

impl Pass<'_, '_> {
    fn expr(&mut self, e: &mut IExpr) {
        if let IExprKind::Let { var, value, .. } = e.kind() {
            self.lets.insert(var.slot, (**value).clone());
        }
        e.for_each_child_mut(&mut |c| self.expr(c));
        if let Some(rewritten) = self.rewrite(e) {
            *e = rewritten;
            self.changed = true;
        }
    }

    /// The expression with calls of helper functions replaced by their bodies (fresh slots
    /// for their own names), as far as `depth` nested calls.
    fn inlined(&mut self, e: &IExpr, depth: usize) -> IExpr {
        let mut out = e.clone();
        if depth > 0 {
            if let IExprKind::Call { func, args, .. } = out.kind() {
                let f = &self.program.fns[*func];
                let offset = self.locals.append(&f.locals);
                out = substitute(&f.body, args, offset);
                return self.inlined(&out, depth - 1);
            }
        }
        out
    }

    /// `e` as the closure of one element within a set, where it is one (the names inlined
    /// for an `e` that is not are forgotten).
    fn region(&mut self, e: &IExpr) -> Option<Region> {
        self.or_forget(|pass| pass.try_region(e))
    }

    fn try_region(&mut self, e: &IExpr) -> Option<Region> {
        let IExprKind::Closure {
            kind: ClosureKind::Reach,
            seed,
            var,
            next,
        } = self.inlined(e, 2).into_kind()
        else {
            return None;
        };
        let IExprKind::Set(items) = seed.kind() else {
            return None;
        };
        let [x] = items.as_slice() else {
            return None;
        };
        let x = x.as_var()?;
        let (set, relation) = match next.kind() {
            IExprKind::Compr { elem, clauses } => match clauses.as_slice() {
                [IClause::Bind(ys, set), IClause::Cond(cond)] => {
                    match (elem.kind(), ys.as_slice()) {
                        (IExprKind::Var(y), [y2]) if y.name == y2.name => {
                            (set.clone(), StepKind::Filter(y2.clone(), cond.clone()))
                        }
                        _ => return None,
                    }
                }
                _ => return None,
            },
            IExprKind::Bin {
                op: Op::SetInter,
                lhs,
                rhs,
                ..
            } => {
                // `f(v) & set`: the table is the side that reads `v`.
                if lhs.reads_any(std::slice::from_ref(&var))
                    && !rhs.reads_any(std::slice::from_ref(&var))
                {
                    ((**rhs).clone(), StepKind::Table((**lhs).clone()))
                } else if rhs.reads_any(std::slice::from_ref(&var))
                    && !lhs.reads_any(std::slice::from_ref(&var))
                {
                    ((**lhs).clone(), StepKind::Table((**rhs).clone()))
                } else {
                    return None;
                }
            }
            _ => return None,
        };
        let next = match &relation {
            StepKind::Filter(y, cond) => IExpr::from(IExprKind::Compr {
                elem: Box::new(IExpr::from(IExprKind::Var(y.clone()))),
                clauses: vec![
                    IClause::Bind(vec![y.clone()], self.all_of(&set)?),
                    IClause::Cond(cond.clone()),
                ],
            }),
            StepKind::Table(t) => t.clone(),
        };
        Some(Region {
            x: x.clone(),
            set,
            var,
            next,
        })
    }

    /// The element type of a set (a game's set field, or set algebra keeping to one), as
    /// the set of all its values.
    fn all_of(&self, set: &IExpr) -> Option<IExpr> {
        let t = self.element_type(set)?;
        let values = t.values(&self.program.types, MAX_ELEMENTS)?;
        Some(IExpr::from(IExprKind::AllOf {
            ty: t,
            values: Val::Set(Rc::new(values.into_iter().collect())),
        }))
    }

    fn element_type(&self, set: &IExpr) -> Option<FieldTy> {
        match set.kind() {
            IExprKind::Var(v) if v.slot.index() < self.field_types.len() => {
                match &self.field_types[v.slot.index()] {
                    FieldTy::Set(t) => Some((**t).clone()),
                    _ => None,
                }
            }
            IExprKind::Var(v) => self.element_type(self.lets.get(&v.slot)?),
            IExprKind::Bin {
                op: Op::SetDiff | Op::SetInter,
                lhs,
                ..
            } => self.element_type(lhs),
            _ => None,
        }
    }

    /// The sum over representatives of closures, as a sum over components (the names
    /// inlined for a rewrite given up are forgotten).
    fn rewrite(&mut self, e: &IExpr) -> Option<IExpr> {
        self.or_forget(|pass| pass.try_rewrite(e))
    }

    /// `attempt`'s result; where it gives up, the names it bound are forgotten.
    fn or_forget<T>(&mut self, attempt: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        let mark = self.locals.len();
        let out = attempt(self);
        if out.is_none() {
            self.locals.truncate(mark);
        }
        out
    }

    fn try_rewrite(&mut self, e: &IExpr) -> Option<IExpr> {
        let IExprKind::CompoundOf {
            kind: Compound::Sum,
            elem,
            clauses,
        } = e.kind()
        else {
            return None;
        };
        let [IClause::Bind(xs, domain), IClause::Cond(test)] = clauses.as_slice() else {
            return None;
        };
        let [x] = xs.as_slice() else {
            return None;
        };
        // The term's closure of `x` (innermost first: `corner(region(rest, x))`).
        let mut candidates = Vec::new();
        find_closures(elem, x, &mut candidates);
        let (closure_expr, region) = candidates.into_iter().find_map(|c| {
            let region = self.region(&c)?;
            (region.x.name == x.name && Shape::of(&region.set) == Shape::of(domain))
                .then_some((c, region))
        })?;
        // The representative test names the same closure.
        let elements = self.representative(test, x, &closure_expr)?;
        let t = self.element_type(domain)?;
        let values = t.values(&self.program.types, MAX_ELEMENTS)?;
        if !self.symmetric(&region, &values) || !elements.injective(self, &values) {
            return None;
        }
        // The rewrite: `sum(term[part / closure] for part in components(domain, v => next))`.
        let name = self.fresh("part");
        let part = self.locals.bind(name, Ty::Set(Box::new(t.ty())));
        let term = replace(elem, &closure_expr, &IExprKind::Var(part.clone()).into());
        if term.reads_any(std::slice::from_ref(x)) {
            return None;
        }
        let components = IExprKind::Closure {
            kind: ClosureKind::Components,
            seed: Box::new(domain.clone()),
            var: region.var.clone(),
            next: Box::new(region.next.clone()),
        };
        Some(IExpr::from(IExprKind::CompoundOf {
            kind: Compound::Sum,
            elem: Box::new(term),
            clauses: vec![IClause::Bind(vec![part], IExpr::from(components))],
        }))
    }

    /// A name the move does not use.
    fn fresh(&mut self, base: &str) -> Rc<str> {
        let name: Rc<str> = (0..)
            .map(|k| match k {
                0 => base.to_string(),
                k => format!("{base}_{k}"),
            })
            .find(|n| !self.names.contains(n.as_str()))
            .unwrap_or_default()
            .into();
        self.names.insert(name.clone());
        name
    }

    /// What the representative test compares: `x == min(region)` (the element itself) or
    /// `h(x) == min({ h(y) for y in region })` (a function of it, which must then take a
    /// different value at each element).
    fn representative(&self, test: &IExpr, x: &Var, closure: &IExpr) -> Option<Representative> {
        let IExprKind::Bin {
            op: Op::Eq,
            lhs,
            rhs,
            ..
        } = test.kind()
        else {
            return None;
        };
        let is_min = |e: &IExpr| {
            matches!(
                e.kind(),
                IExprKind::Builtin {
                    func: Builtin::Min,
                    ..
                }
            )
        };
        let (own, least): (&IExpr, &IExpr) = if is_min(rhs) {
            (lhs, rhs)
        } else if is_min(lhs) {
            (rhs, lhs)
        } else {
            return None;
        };
        let IExprKind::Builtin { args, .. } = least.kind() else {
            return None;
        };
        let [arg] = args.as_slice() else {
            return None;
        };
        if matches!(own.kind(), IExprKind::Var(v) if v.name == x.name)
            && Shape::of(arg) == Shape::of(closure)
        {
            return Some(Representative::Element);
        }
        // `h(x) == min({ h(y) for y in region })`.
        let IExprKind::Compr { elem, clauses } = arg.kind() else {
            return None;
        };
        let [IClause::Bind(ys, dom)] = clauses.as_slice() else {
            return None;
        };
        let [y] = ys.as_slice() else {
            return None;
        };
        if Shape::of(dom) != Shape::of(closure) {
            return None;
        }
        let renamed = replace(
            elem,
            &IExprKind::Var(y.clone()).into(),
            &IExprKind::Var(x.clone()).into(),
        );
        if Shape::of(&renamed) != Shape::of(own) {
            return None;
        }
        // `h` reads nothing but `x` (and constants).
        let mut only_x = true;
        own.for_each_read(&mut |v| only_x &= v.name == x.name);
        only_x.then(|| Representative::Function(x.clone(), own.clone()))
    }

    /// Whether the step relates every two elements as it relates them the other way round,
    /// and succeeds everywhere.
    fn symmetric(&self, region: &Region, values: &[Val]) -> bool {
        within_budget(BUDGET, || {
            let mut env = vec![Val::Int(0); self.locals.len()];
            let mut steps = Vec::with_capacity(values.len());
            for v in values {
                env[region.var.slot.index()] = v.clone();
                match self.interp.eval(&region.next, &mut env) {
                    Ok(Val::Set(s)) => steps.push(s),
                    Ok(Val::Range(..)) | Ok(_) | Err(_) => return false,
                }
            }
            (values.iter().enumerate()).all(|(i, a)| {
                (steps[i].iter()).all(|b| match values.iter().position(|w| w == b) {
                    Some(j) => steps[j].contains(a),
                    None => true,
                })
            })
        })
        .0
    }
}

/// What a representative test compares.
enum Representative {
    /// The elements themselves.
    Element,
    /// A function of the element (`rank(x)`): the name and the expression.
    Function(Var, IExpr),
}

impl Representative {
    /// Whether it takes a different value at each element (and succeeds at each).
    fn injective(&self, pass: &Pass, values: &[Val]) -> bool {
        let Representative::Function(x, h) = self else {
            return true;
        };
        within_budget(BUDGET, || {
            let mut env = vec![Val::Int(0); pass.locals.len()];
            let mut seen = BTreeSet::new();
            for v in values {
                env[x.slot.index()] = v.clone();
                match pass.interp.eval(h, &mut env) {
                    Ok(image) => {
                        if !seen.insert(image.normalize()) {
                            return false;
                        }
                    }
                    Err(_) => return false,
                }
            }
            true
        })
        .0
    }
}

/// The closures, and calls that may be closures, in `e` that read `x`, innermost first.
fn find_closures(e: &IExpr, x: &Var, found: &mut Vec<IExpr>) {
    e.for_each_child(&mut |c| find_closures(c, x, found));
    if matches!(e.kind(), IExprKind::Call { .. } | IExprKind::Closure { .. })
        && e.reads_any(std::slice::from_ref(x))
    {
        found.push(e.clone());
    }
}

/// `e` with every occurrence of `what` (by its [`Shape`]) replaced by `with`.
fn replace(e: &IExpr, what: &IExpr, with: &IExpr) -> IExpr {
    let target = Shape::of(what);
    let mut out = e.clone();
    // Each node after its parts: a part of an occurrence is smaller than it, so never one
    // itself, and what replaced an occurrence is not looked into again.
    out.rewrite_up(&mut |e| {
        if e.props().hash == what.props().hash && Shape::of(e) == target {
            *e = with.clone();
        }
    });
    out
}
