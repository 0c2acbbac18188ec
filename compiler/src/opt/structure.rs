//! The structure of a game's rules: what a permutation of the elements of its set fields
//! must preserve to be a symmetry of the game.
//!
//! A game whose fields are sets of one finite type `T` (and *context* fields of few values,
//! such as a board's size) is *generic* in `T` when its moves reach elements only through
//! equality, membership, set algebra, `len`, quantifiers and comprehensions, `closure` and
//! `components`, and *tables*: expressions that read only the context, constants and the
//! names that clauses bind, which can be evaluated for every choice of those names. Then
//! a permutation `π` of `T` that maps every table onto itself maps the options of each
//! position onto the options of its image: it is a symmetry of the game, proven.
//!
//! The analysis cuts each move into a *skeleton* of generic operations with *holes*: the
//! tables. Each binding construct (a move, a quantifier, a comprehension, a closure's step)
//! turns into a *relation*: for every choice of its binders that its pure conditions
//! allow, the tuple of the values of the holes that read them (and of the relations of the
//! constructs inside it that read them). A binder that only tables read disappears into
//! them (`exists b in Box: l in sides(b) ...` is a quantifier over the sets `sides(b)`); a
//! binder over a set field ranges over all of `T`, its domain a generic guard. Where the
//! skeleton is the same under a permutation of a construct's components (`{x, y}` in
//! `empty - {x, y}`, `x in s and y in s`), the relation is closed under that permutation,
//! so that a condition choosing one order (`rank(a) < rank(b)`), or a term naming one of a
//! pair (`(r, c + 1)`), does not hide a symmetry; moves with the same skeleton form one
//! relation (a domino across and one down). The game's *structure* is, for each context,
//! the values of its top-level relations and holes ([`SVal`]): a permutation that maps
//! each onto itself is a symmetry ([`Structure::preserved`]).

use crate::ast::{ClosureKind, QuantKind};
use crate::interp::{self, Interpreter};
use crate::ir::*;
use rustc_hash::FxHashMap as HashMap;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// What a permutation of the elements does to a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// An element of `T` (or a value of its type outside it, which stays).
    Elem,
    /// A set of elements.
    ElemSet,
    /// Nothing: numbers, booleans, other games' positions.
    Inv,
}

/// A value of the structure, with the elements of `T` as their ranks.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SVal {
    /// An element, by rank.
    Elem(u32),
    /// A value no permutation changes.
    Fixed(Val),
    /// A set, sorted.
    Set(Vec<SVal>),
    /// A tuple of a relation.
    Tuple(Vec<SVal>),
    /// A relation: tuples with their multiplicities, sorted.
    Bag(Vec<(SVal, u32)>),
}

impl SVal {
    /// The value with each element `e` replaced by `p[e]`.
    pub fn permuted(&self, p: &[u32]) -> SVal {
        match self {
            SVal::Elem(e) => SVal::Elem(p[*e as usize]),
            SVal::Fixed(v) => SVal::Fixed(v.clone()),
            SVal::Set(xs) => {
                let mut ys: Vec<SVal> = xs.iter().map(|x| x.permuted(p)).collect();
                ys.sort();
                SVal::Set(ys)
            }
            SVal::Tuple(xs) => SVal::Tuple(xs.iter().map(|x| x.permuted(p)).collect()),
            SVal::Bag(xs) => bag(xs.iter().map(|(x, n)| (x.permuted(p), *n))),
        }
    }
}

/// A bag of `items`, merged and sorted.
fn bag(items: impl IntoIterator<Item = (SVal, u32)>) -> SVal {
    let mut counts: BTreeMap<SVal, u32> = BTreeMap::new();
    for (x, n) in items {
        *counts.entry(x).or_default() += n;
    }
    SVal::Bag(counts.into_iter().collect())
}

/// What the analysis knows of a generic expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    ElemSet,
    /// A list of sets of elements (`components`).
    ElemSetList,
    Inv,
    /// A set of invariant values (`{ rank(y) for y in s }`).
    InvSet,
    Pos,
}

/// A skeleton: the generic operations of a rule, holes named.
#[derive(Clone, Debug)]
enum Skel {
    /// Component `.1` of construct `.0`.
    Comp(usize, usize),
    /// Top-level hole.
    Top(usize),
    /// A field of the game.
    Field(usize),
    /// A generic local (a `let`, a binder over sets of sets), by slot.
    Local(VarId),
    /// An operation; `commutes` when its operands may be taken in any order.
    Op(&'static str, bool, Vec<Skel>),
    /// A construct: its id and its skeleton.
    Nested(usize, Vec<Skel>),
}

/// One step of a construct's enumeration.
#[derive(Clone, Debug)]
enum Step {
    /// A binder over a set field's elements: every element of `T`.
    Opaque(Vec<Var>),
    /// A binder over a table's values.
    Bind(Vec<Var>, IExpr),
    /// A `let` of a table's value.
    Let(Var, IExpr),
    /// A condition that is a table: tuples where it fails are left out.
    Filter(IExpr),
}

/// One component of a construct's tuples.
#[derive(Clone, Debug)]
enum Component {
    /// The element an opaque binder takes.
    Binder(Vec<Var>),
    /// A hole's value.
    Hole(IExpr, Role),
    /// A construct inside, whose relation reads this construct's binders.
    Nested(usize),
}

#[derive(Clone, Debug, Default)]
struct Construct {
    steps: Vec<Step>,
    components: Vec<Component>,
    /// Multiplicities count (a `count`, a compound over a comprehension).
    bag: bool,
    /// Components that must be elements: a tuple where one is outside `T` yields nothing
    /// (it is tested for membership in a set that holds only elements).
    guarded: BTreeSet<usize>,
    /// The skeleton: guards, then the body.
    skel: Vec<Skel>,
    /// The enclosing construct.
    parent: Option<usize>,
    /// The constructs it reads the binders of (outside it).
    deps: BTreeSet<usize>,
    /// Permutations of its components under which the skeleton is the same.
    symmetries: Vec<Vec<usize>>,
}

/// A top-level part of the structure: its value in a context.
#[derive(Clone, Debug)]
enum Top {
    /// A table of the context alone.
    Hole(IExpr, Role),
    /// A construct that reads no binder outside it.
    Construct(usize),
    /// Moves with one skeleton: their relations, each with the permutation of its
    /// components onto the first's.
    Moves(Vec<(usize, Vec<usize>)>),
}

/// How a local name is known.
#[derive(Clone, Debug)]
enum VarInfo {
    /// A table of these constructs' binders (none: of the context).
    Pure(BTreeSet<usize>),
    /// Generic.
    Generic(Class, bool),
}

/// The structure of one game: its elements, contexts, and what to evaluate.
#[derive(Clone, Debug)]
pub struct Structure {
    /// The values of `T`, in rank order.
    pub elements: Vec<Val>,
    rank: HashMap<Val, u32>,
    /// The set fields.
    pub set_fields: Vec<usize>,
    /// The context fields, and each one's values.
    pub context: Vec<(usize, Vec<Val>)>,
    fields: usize,
    frame: usize,
    constructs: Vec<Construct>,
    tops: Vec<Top>,
    /// `let`s of the context alone, evaluated first.
    globals: Vec<Step>,
}

/// The most elements a structure's type may have.
pub const MAX_ELEMENTS: usize = 1024;
/// The most contexts (choices of the context fields' values).
pub const MAX_CONTEXTS: usize = 4096;
/// The most components a construct's skeleton is searched for symmetries over.
const MAX_PERMUTED: usize = 6;

impl Structure {
    /// The structure of game `gid`, or why it has none (its rules are not generic in the
    /// elements of its set fields).
    pub fn of(program: &Program, gid: usize) -> Result<Structure, String> {
        let game = &program.games[gid];
        let GameKind::Rules(moves) = &game.kind else {
            return Err("not a game of rules".into());
        };
        let mut element_ty = None;
        let mut set_fields = Vec::new();
        let mut context = Vec::new();
        for (i, f) in game.fields.iter().enumerate() {
            match &f.ty {
                FieldTy::Set(inner) => {
                    if element_ty.get_or_insert_with(|| (**inner).clone()) != &**inner {
                        return Err("set fields of two element types".into());
                    }
                    set_fields.push(i);
                }
                ty @ (FieldTy::Range(..) | FieldTy::Bool) => {
                    let values =
                        (ty.values(&program.types, 256)).ok_or("a field with many values")?;
                    context.push((i, values));
                }
                _ => return Err(format!("field `{}` is neither a set nor a context", f.name)),
            }
        }
        let element_ty = element_ty.ok_or("no set field")?;
        let elements =
            (element_ty.values(&program.types, MAX_ELEMENTS)).ok_or("too many elements")?;
        let contexts: usize = context.iter().map(|(_, v)| v.len()).product();
        if contexts > MAX_CONTEXTS {
            return Err("too many contexts".into());
        }
        let rank = (elements.iter().enumerate())
            .map(|(i, v)| (v.clone(), i as u32))
            .collect();
        let mut walker = Walker {
            program,
            gid,
            vars: HashMap::default(),
            constructs: Vec::new(),
            stack: Vec::new(),
            tops: Vec::new(),
            top_keys: HashMap::default(),
            globals: Vec::new(),
            frame: game.locals.len(),
            inlined: 0,
        };
        for (i, f) in game.fields.iter().enumerate() {
            let info = match f.ty {
                FieldTy::Set(_) => VarInfo::Generic(Class::ElemSet, true),
                _ => VarInfo::Pure(BTreeSet::new()),
            };
            walker.vars.insert(VarId::new(i), info);
        }
        let mut move_constructs = Vec::new();
        for m in moves {
            let id = walker.construct(None, false);
            walker.stack.push(id);
            let guards = walker.clauses(id, &m.clauses)?;
            let mut skel = vec![Skel::Op("guards", true, guards)];
            let result = walker.walk(&m.result)?;
            skel.push(walker.as_class(result, &m.result, Class::Pos)?);
            let side = match m.side {
                crate::ast::MoveSide::Left => "left",
                crate::ast::MoveSide::Right => "right",
                crate::ast::MoveSide::Both => "both",
            };
            skel.push(Skel::Op(side, false, Vec::new()));
            walker.stack.pop();
            walker.finish(id, skel)?;
            move_constructs.push(id);
        }
        // Moves with one skeleton are one relation.
        let mut classes: Vec<Vec<(usize, Vec<usize>)>> = Vec::new();
        'moves: for &id in &move_constructs {
            for class in &mut classes {
                if let Some(p) = walker.same_skeleton(class[0].0, id) {
                    class.push((id, p));
                    continue 'moves;
                }
            }
            let identity = (0..walker.constructs[id].components.len()).collect();
            classes.push(vec![(id, identity)]);
        }
        walker.tops.extend(classes.into_iter().map(Top::Moves));
        let frame = walker.frame;
        Ok(Structure {
            elements,
            rank,
            set_fields,
            context,
            fields: game.fields.len(),
            frame,
            constructs: walker.constructs,
            tops: walker.tops,
            globals: walker.globals,
        })
    }

    /// The constructs and tops, for debugging.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        for (k, c) in self.constructs.iter().enumerate() {
            let comps: Vec<String> = (c.components.iter())
                .map(|x| match x {
                    Component::Binder(_) => "binder".to_string(),
                    Component::Hole(_, r) => format!("hole {r:?}"),
                    Component::Nested(k) => format!("rel K{k}"),
                })
                .collect();
            let _ = write!(
                out,
                "\n  K{k} (parent {:?}, deps {:?}, {} steps, guarded {:?}): [{}] symmetries {:?}",
                c.parent,
                c.deps,
                c.steps.len(),
                c.guarded,
                comps.join(", "),
                c.symmetries
            );
        }
        for t in &self.tops {
            let _ = write!(
                out,
                "\n  top {}",
                match t {
                    Top::Hole(_, r) => format!("hole {r:?}"),
                    Top::Construct(k) => format!("K{k}"),
                    Top::Moves(m) => format!("moves {m:?}"),
                }
            );
        }
        out
    }

    /// The rank of element `v`, if it is one.
    pub fn rank_of(&self, v: &Val) -> Option<u32> {
        self.rank.get(v).copied()
    }

    /// The structure's values in context `rank`: each top-level relation and table.
    pub fn evaluate(&self, interp: &Interpreter, rank: usize) -> Result<Vec<SVal>, String> {
        let mut env = vec![Val::Int(0); self.frame.max(self.fields)];
        for ((f, _), v) in self.context.iter().zip(self.context.choice(rank)) {
            env[*f] = v;
        }
        for step in &self.globals {
            if let Step::Let(var, value) = step {
                let v = interp.eval(value, &mut env).map_err(|e| e.message)?;
                interp::bind(std::slice::from_ref(var), v, &mut env).map_err(|e| e.message)?;
            }
        }
        let mut out = Vec::with_capacity(self.tops.len());
        for top in &self.tops {
            out.push(match top {
                Top::Hole(e, role) => {
                    let v = interp.eval(e, &mut env).map_err(|e| e.message)?;
                    self.value(v, *role)
                }
                Top::Construct(k) => self.relation(interp, *k, &mut env)?,
                Top::Moves(members) => {
                    let mut tuples = Vec::new();
                    for (k, p) in members {
                        let SVal::Bag(items) = self.relation(interp, *k, &mut env)? else {
                            unreachable!("relations are bags")
                        };
                        for (t, n) in items {
                            let SVal::Tuple(xs) = t else {
                                unreachable!("relations hold tuples")
                            };
                            let mut ys = xs.clone();
                            for (i, x) in xs.into_iter().enumerate() {
                                ys[p[i]] = x;
                            }
                            tuples.push((SVal::Tuple(ys), n));
                        }
                    }
                    let first = &self.constructs[members[0].0];
                    close(tuples, &first.symmetries, first.bag)
                }
            });
        }
        Ok(out)
    }

    /// `v` as the structure sees a value of role `role`.
    fn value(&self, v: Val, role: Role) -> SVal {
        let v = v.normalize();
        match role {
            Role::Inv => SVal::Fixed(v),
            Role::Elem => match self.rank.get(&v) {
                Some(&r) => SVal::Elem(r),
                None => SVal::Fixed(v),
            },
            Role::ElemSet => match v {
                Val::Set(s) => {
                    let mut xs: Vec<SVal> = (s.iter())
                        .map(|x| self.value(x.clone(), Role::Elem))
                        .collect();
                    xs.sort();
                    SVal::Set(xs)
                }
                other => SVal::Fixed(other),
            },
        }
    }

    /// The relation of construct `k` with the names outside it bound in `env`.
    fn relation(&self, interp: &Interpreter, k: usize, env: &mut Vec<Val>) -> Result<SVal, String> {
        let c = &self.constructs[k];
        let mut tuples = Vec::new();
        self.enumerate(interp, c, 0, env, &mut tuples)?;
        Ok(close(
            tuples.into_iter().map(|t| (t, 1)).collect(),
            &c.symmetries,
            c.bag,
        ))
    }

    fn enumerate(
        &self,
        interp: &Interpreter,
        c: &Construct,
        at: usize,
        env: &mut Vec<Val>,
        out: &mut Vec<SVal>,
    ) -> Result<(), String> {
        let err = |e: interp::EvalError| e.message;
        let Some(step) = c.steps.get(at) else {
            let mut tuple = Vec::with_capacity(c.components.len());
            for (i, comp) in c.components.iter().enumerate() {
                let v = match comp {
                    Component::Binder(vars) => {
                        let v = match vars.as_slice() {
                            [x] => env[x.slot.index()].clone(),
                            xs => {
                                Val::Tuple(xs.iter().map(|x| env[x.slot.index()].clone()).collect())
                            }
                        };
                        self.value(v, Role::Elem)
                    }
                    Component::Hole(e, role) => {
                        self.value(interp.eval(e, env).map_err(err)?, *role)
                    }
                    Component::Nested(k) => self.relation(interp, *k, env)?,
                };
                if c.guarded.contains(&i) && !matches!(v, SVal::Elem(_)) {
                    return Ok(());
                }
                tuple.push(v);
            }
            out.push(SVal::Tuple(tuple));
            return Ok(());
        };
        match step {
            Step::Opaque(vars) => {
                for v in &self.elements {
                    interp::bind(vars, v.clone(), env).map_err(err)?;
                    self.enumerate(interp, c, at + 1, env, out)?;
                }
            }
            Step::Bind(vars, dom) => {
                let dom = interp.eval(dom, env).map_err(err)?;
                let mut values = Vec::new();
                interp::for_each(&dom, |v| {
                    values.push(v);
                    Ok(true)
                })
                .map_err(err)?;
                for v in values {
                    interp::bind(vars, v, env).map_err(err)?;
                    self.enumerate(interp, c, at + 1, env, out)?;
                }
            }
            Step::Let(var, value) => {
                let v = interp.eval(value, env).map_err(err)?;
                interp::bind(std::slice::from_ref(var), v, env).map_err(err)?;
                self.enumerate(interp, c, at + 1, env, out)?;
            }
            Step::Filter(cond) => {
                let v = interp.eval(cond, env).map_err(err)?;
                if interp::truth(&v).map_err(err)? {
                    self.enumerate(interp, c, at + 1, env, out)?;
                }
            }
        }
        Ok(())
    }

    /// Whether permutation `p` of the elements (with the contexts mapped by `to`: context
    /// `c` to `to[c]`) maps the structure onto itself: each value in context `c`, permuted
    /// by `p[c]`, is the value in context `to[c]`. `values[c]` is the structure in context
    /// `c` ([`Structure::evaluate`]).
    pub fn preserved(values: &[Vec<SVal>], to: &[usize], p: &[Vec<u32>]) -> bool {
        (0..values.len()).all(|c| {
            let target = &values[to[c]];
            values[c].len() == target.len()
                && (values[c].iter().zip(target)).all(|(v, w)| &v.permuted(&p[c]) == w)
        })
    }
}

/// The relation of `tuples`, closed under the permutations of components `symmetries`
/// (where its multiplicities do not count), as a bag.
fn close(tuples: Vec<(SVal, u32)>, symmetries: &[Vec<usize>], counted: bool) -> SVal {
    if counted {
        return bag(tuples);
    }
    let mut all: BTreeSet<SVal> = BTreeSet::new();
    for (t, _) in tuples {
        let SVal::Tuple(xs) = &t else {
            all.insert(t);
            continue;
        };
        for s in symmetries {
            all.insert(SVal::Tuple(s.iter().map(|&i| xs[i].clone()).collect()));
        }
        all.insert(t);
    }
    bag(all.into_iter().map(|t| (t, 1)))
}

/// What the walk found an expression to be.
enum W {
    /// A table of these constructs' binders.
    Pure(BTreeSet<usize>),
    /// Generic: its class, whether it surely holds only elements (a set), its skeleton.
    Gen(Class, bool, Skel),
}

struct Walker<'p> {
    program: &'p Program,
    gid: usize,
    /// Each visible local name by slot.
    vars: HashMap<VarId, VarInfo>,
    constructs: Vec<Construct>,
    /// The constructs around the current point, outermost first.
    stack: Vec<usize>,
    tops: Vec<Top>,
    top_keys: HashMap<(Role, Shape), usize>,
    globals: Vec<Step>,
    /// Slots in use (functions inlined get slots past the game's).
    frame: usize,
    /// Calls inlined so far (a bound on the work).
    inlined: usize,
}

/// The names `e` reads that it does not bind itself.
fn free_reads(e: &IExpr) -> Vec<Var> {
    let mut bound: BTreeSet<std::rc::Rc<str>> = BTreeSet::new();
    e.for_each_bind(&mut |b| {
        bound.insert(b.name.clone());
    });
    let mut out = Vec::new();
    e.for_each_read(&mut |v| {
        if !bound.contains(&v.name) {
            out.push(v.clone());
        }
    });
    out
}

/// The names `e` binds (quantifiers, comprehensions, lets, closures, match arms).
/// Whether `e` builds a position of game `gid` (such an expression is never a table: its
/// set arguments are mapped).
fn builds(e: &IExpr, gid: usize) -> bool {
    let mut found = matches!(e.kind(), IExprKind::Pos { game, .. } if *game == gid);
    if !found {
        e.for_each_child(&mut |c| found |= builds(c, gid));
    }
    found
}

/// The skeleton operation of a binary operator.
fn op_name(op: Op) -> (&'static str, bool) {
    match op {
        Op::Or => ("or", true),
        Op::And => ("and", true),
        Op::Eq => ("==", true),
        Op::Ne => ("!=", true),
        Op::Lt => ("<", false),
        Op::Le => ("<=", false),
        Op::Gt => (">", false),
        Op::Ge => (">=", false),
        Op::In => ("in", false),
        Op::NotIn => ("not in", false),
        Op::RangeIncl => ("..=", false),
        Op::RangeExcl => ("..", false),
        Op::Add => ("+", true),
        Op::NatSub => ("-n", false),
        Op::Sub => ("-", false),
        Op::Mul => ("*", true),
        Op::Div => ("/", false),
        Op::Rem => ("%", false),
        Op::SetUnion => ("|", true),
        Op::SetInter => ("&", true),
        Op::SetDiff => ("\\", false),
        Op::Insert => ("insert", false),
        Op::Remove => ("remove", false),
        Op::Concat => ("++", false),
        Op::GameSum => ("sum", true),
    }
}

/// The most calls with generic arguments the walk inlines.
const MAX_INLINED: usize = 256;

impl Walker<'_> {
    fn construct(&mut self, parent: Option<usize>, bag: bool) -> usize {
        self.constructs.push(Construct {
            parent,
            bag,
            ..Construct::default()
        });
        self.constructs.len() - 1
    }

    /// The constructs `vars` (read by a table) are tables of: the union of their deps.
    fn deps_of(&self, e: &IExpr) -> Option<BTreeSet<usize>> {
        if builds(e, self.gid) {
            return None;
        }
        let mut deps = BTreeSet::new();
        for v in free_reads(e) {
            match self.vars.get(&v.slot) {
                Some(VarInfo::Pure(d)) => deps.extend(d.iter().copied()),
                _ => return None,
            }
        }
        Some(deps)
    }

    /// The innermost construct of `deps` on the stack (`None`: the context alone).
    fn owner(&self, deps: &BTreeSet<usize>) -> Option<usize> {
        self.stack.iter().rev().find(|k| deps.contains(k)).copied()
    }

    /// Registers a table as a hole of role `role`; its skeleton.
    fn hole(&mut self, e: &IExpr, deps: BTreeSet<usize>, role: Role) -> Skel {
        match self.owner(&deps) {
            None => {
                let k = (role, Shape::of(e));
                let n = match self.top_keys.get(&k) {
                    Some(&n) => n,
                    None => {
                        self.tops.push(Top::Hole(e.clone(), role));
                        self.top_keys.insert(k, self.tops.len() - 1);
                        self.tops.len() - 1
                    }
                };
                Skel::Top(n)
            }
            Some(k) => {
                // The element a binder takes, rebuilt from its names, is the binder.
                for (i, comp) in self.constructs[k].components.iter().enumerate() {
                    if let Component::Binder(vars) = comp {
                        let same = match (e.kind(), vars.as_slice()) {
                            (IExprKind::Var(v), [x]) => v.slot == x.slot && v.name == x.name,
                            (IExprKind::Tuple(es), xs) if es.len() == xs.len() && xs.len() > 1 => {
                                es.iter().zip(xs).all(|(e, x)| {
                                    matches!(e.kind(), IExprKind::Var(v) if v.slot == x.slot && v.name == x.name)
                                })
                            }
                            _ => false,
                        };
                        if same && role == Role::Elem {
                            return Skel::Comp(k, i);
                        }
                    }
                }
                let c = &mut self.constructs[k];
                c.deps.extend(deps.iter().copied().filter(|&d| d != k));
                c.components.push(Component::Hole(e.clone(), role));
                Skel::Comp(k, c.components.len() - 1)
            }
        }
    }

    /// Adds a step that reads `deps` to the innermost construct of them (a global step
    /// where there is none).
    fn step(&mut self, deps: &BTreeSet<usize>, step: Step) {
        match self.owner(deps) {
            None => self.globals.push(step),
            Some(k) => {
                let c = &mut self.constructs[k];
                c.deps.extend(deps.iter().copied().filter(|&d| d != k));
                c.steps.push(step);
            }
        }
    }

    /// A condition of construct `id` that is a table: it filters the construct's own
    /// tuples, whatever binders it reads.
    fn filter(&mut self, id: usize, deps: &BTreeSet<usize>, cond: &IExpr) {
        let c = &mut self.constructs[id];
        c.deps.extend(deps.iter().copied().filter(|&d| d != id));
        c.steps.push(Step::Filter(cond.clone()));
    }

    /// The skeleton of `w` (the walk of `e`) where a value of class `class` is wanted: a
    /// table becomes a hole of the matching role.
    fn as_class(&mut self, w: W, e: &IExpr, class: Class) -> Result<Skel, String> {
        match w {
            W::Pure(deps) => {
                let role = match class {
                    Class::ElemSet => Role::ElemSet,
                    Class::Inv | Class::InvSet | Class::Pos => Role::Inv,
                    Class::ElemSetList => return Err("a table of sets of elements".into()),
                };
                Ok(self.hole(e, deps, role))
            }
            W::Gen(c, _, s) if c == class => Ok(s),
            W::Gen(c, _, _) => Err(format!("{c:?} where {class:?} is wanted")),
        }
    }

    /// The skeleton of an element: a table of role `Elem`.
    fn as_elem(&mut self, w: W, e: &IExpr) -> Result<Skel, String> {
        match w {
            W::Pure(deps) => Ok(self.hole(e, deps, Role::Elem)),
            W::Gen(..) => Err("a generic element".into()),
        }
    }

    /// Walks `e` where its value is an invariant (a condition, a number).
    fn inv(&mut self, e: &IExpr) -> Result<Skel, String> {
        let w = self.walk(e)?;
        self.as_class(w, e, Class::Inv)
    }

    fn walk(&mut self, e: &IExpr) -> Result<W, String> {
        if let Some(deps) = self.deps_of(e) {
            return Ok(W::Pure(deps));
        }
        let gen = |c: Class, s: Skel| Ok(W::Gen(c, false, s));
        match e.kind() {
            IExprKind::Var(v) => match self.vars.get(&v.slot) {
                Some(VarInfo::Generic(c, inside)) => Ok(W::Gen(
                    *c,
                    *inside,
                    if v.slot.index() < self.program.games[self.gid].fields.len() {
                        Skel::Field(v.slot.index())
                    } else {
                        Skel::Local(v.slot)
                    },
                )),
                _ => Err(format!("unknown name `{}`", v.name)),
            },
            IExprKind::Neg { arg, .. } => {
                let s = self.inv(arg)?;
                gen(Class::Inv, Skel::Op("neg", false, vec![s]))
            }
            IExprKind::Not(arg) => {
                let s = self.inv(arg)?;
                gen(Class::Inv, Skel::Op("not", false, vec![s]))
            }
            IExprKind::Bin { op, lhs, rhs, .. } => self.binary(*op, lhs, rhs),
            IExprKind::Set(items) => {
                let walked: Vec<W> = items
                    .iter()
                    .map(|i| self.walk(i))
                    .collect::<Result<_, _>>()?;
                let inv = walked.iter().any(|w| matches!(w, W::Gen(Class::Inv, ..)));
                let mut skels = Vec::new();
                let mut inside = true;
                for (w, item) in walked.into_iter().zip(items) {
                    if inv {
                        skels.push(self.as_class(w, item, Class::Inv)?);
                    } else {
                        let s = self.as_elem(w, item)?;
                        inside &= matches!(&s, Skel::Comp(k, i)
                            if matches!(self.constructs[*k].components[*i], Component::Binder(_)));
                        skels.push(s);
                    }
                }
                let class = if inv { Class::InvSet } else { Class::ElemSet };
                Ok(W::Gen(class, inside && !inv, Skel::Op("set", true, skels)))
            }
            IExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                let c = self.inv(cond)?;
                let (a, b) = (self.walk(then)?, self.walk(otherwise)?);
                let class = match (&a, &b) {
                    (W::Gen(x, ..), _) | (_, W::Gen(x, ..)) => *x,
                    _ => Class::Inv,
                };
                let inside = matches!((&a, &b), (W::Gen(_, true, _), W::Gen(_, true, _)));
                let (a, b) = (
                    self.as_class(a, then, class)?,
                    self.as_class(b, otherwise, class)?,
                );
                Ok(W::Gen(class, inside, Skel::Op("if", false, vec![c, a, b])))
            }
            IExprKind::Let { var, value, body } => match self.walk(value)? {
                W::Pure(deps) => {
                    self.step(&deps, Step::Let(var.clone(), (**value).clone()));
                    self.vars.insert(var.slot, VarInfo::Pure(deps));
                    self.walk(body)
                }
                W::Gen(c, inside, s) => {
                    self.vars.insert(var.slot, VarInfo::Generic(c, inside));
                    let body = self.walk(body)?;
                    let W::Gen(bc, binside, bs) = body else {
                        return Ok(body);
                    };
                    Ok(W::Gen(
                        bc,
                        binside,
                        Skel::Op("let", false, vec![Skel::Local(var.slot), s, bs]),
                    ))
                }
            },
            IExprKind::Quant {
                kind,
                vars,
                domain,
                body,
            } => {
                let id = self.construct(self.stack.last().copied(), *kind == QuantKind::Count);
                self.stack.push(id);
                let mut guards = self.bind(id, vars, domain)?;
                // `exists` and `count` keep the elements where every condition holds: the
                // conjuncts that are tables filter the relation.
                let conjuncts = match kind {
                    QuantKind::Forall => vec![&**body],
                    _ => conjuncts(body),
                };
                for c in conjuncts {
                    match self.walk(c)? {
                        W::Pure(deps) if *kind != QuantKind::Forall => self.filter(id, &deps, c),
                        w => {
                            let s = self.as_class(w, c, Class::Inv)?;
                            self.guard(id, &s);
                            guards.push(s);
                        }
                    }
                }
                let mut skel = vec![Skel::Op("guards", true, guards)];
                let name = match kind {
                    QuantKind::Exists => "exists",
                    QuantKind::Forall => "forall",
                    QuantKind::Count => "count",
                };
                skel.push(Skel::Op(name, false, Vec::new()));
                self.stack.pop();
                let id = self.finish(id, skel)?;
                gen(Class::Inv, id)
            }
            IExprKind::Compr { elem, clauses } => {
                let id = self.construct(self.stack.last().copied(), false);
                self.stack.push(id);
                let guards = self.clauses(id, clauses)?;
                let mut skel = vec![Skel::Op("guards", true, guards)];
                let w = self.walk(elem)?;
                let (class, s) = match w {
                    W::Gen(Class::Inv, _, s) => (Class::InvSet, s),
                    W::Gen(..) => return Err("a comprehension of generic values".into()),
                    W::Pure(deps) => {
                        // Elements, unless the element is a number or a boolean.
                        let role = match self.is_elem_typed(elem) {
                            true => Role::Elem,
                            false => Role::Inv,
                        };
                        let s = self.hole(elem, deps, role);
                        let class = match role {
                            Role::Elem => Class::ElemSet,
                            _ => Class::InvSet,
                        };
                        (class, s)
                    }
                };
                skel.push(s);
                self.stack.pop();
                let id = self.finish(id, skel)?;
                gen(class, id)
            }
            IExprKind::CompoundOf {
                kind,
                elem,
                clauses,
            } => {
                let id = self.construct(self.stack.last().copied(), true);
                self.stack.push(id);
                let guards = self.clauses(id, clauses)?;
                let mut skel = vec![Skel::Op("guards", true, guards)];
                let w = self.walk(elem)?;
                skel.push(self.as_class(w, elem, Class::Pos)?);
                skel.push(Skel::Op(kind.name(), false, Vec::new()));
                self.stack.pop();
                let id = self.finish(id, skel)?;
                gen(Class::Pos, id)
            }
            IExprKind::Closure {
                kind,
                seed,
                var,
                next,
            } => {
                let seed_w = self.walk(seed)?;
                let seed_inside = matches!(seed_w, W::Gen(_, true, _));
                let seed_s = self.as_class(seed_w, seed, Class::ElemSet)?;
                let id = self.construct(self.stack.last().copied(), false);
                self.stack.push(id);
                let vars = vec![var.clone()];
                self.constructs[id].steps.push(Step::Opaque(vars.clone()));
                self.constructs[id].components.push(Component::Binder(vars));
                self.vars
                    .insert(var.slot, VarInfo::Pure(BTreeSet::from([id])));
                let next_w = self.walk(next)?;
                let next_s = self.as_class(next_w, next, Class::ElemSet)?;
                let name = match kind {
                    ClosureKind::Reach => "closure",
                    ClosureKind::Components => "components",
                };
                self.stack.pop();
                let body = self.finish(id, vec![next_s, Skel::Op(name, false, Vec::new())])?;
                let class = match kind {
                    ClosureKind::Reach => Class::ElemSet,
                    ClosureKind::Components => Class::ElemSetList,
                };
                Ok(W::Gen(
                    class,
                    seed_inside,
                    Skel::Op(name, false, vec![seed_s, body]),
                ))
            }
            IExprKind::Call { func, args, .. } => self.inline(*func, args),
            IExprKind::Builtin { func, args, .. } => {
                let walked: Vec<W> = args
                    .iter()
                    .map(|a| self.walk(a))
                    .collect::<Result<_, _>>()?;
                let name = match func {
                    Builtin::Len => "len",
                    Builtin::Min => "min",
                    Builtin::Max => "max",
                    Builtin::Abs => "abs",
                };
                let mut skels = Vec::new();
                for (w, a) in walked.into_iter().zip(args) {
                    let class = match (&w, func) {
                        (W::Gen(Class::ElemSet, ..), Builtin::Len) => Class::ElemSet,
                        (W::Gen(Class::InvSet, ..), _) => Class::InvSet,
                        (W::Gen(Class::ElemSet, ..), _) => {
                            return Err("the least or largest element".into())
                        }
                        _ => Class::Inv,
                    };
                    skels.push(self.as_class(w, a, class)?);
                }
                gen(Class::Inv, Skel::Op(name, false, skels))
            }
            IExprKind::Pos { game, args, .. } => {
                let game_ref = &self.program.games[*game];
                if *game != self.gid {
                    return Err(format!("a position of `{}`", game_ref.name));
                }
                let mut skels = Vec::new();
                for (i, (a, f)) in args.iter().zip(&game_ref.fields).enumerate() {
                    match &f.ty {
                        FieldTy::Set(_) => {
                            let w = self.walk(a)?;
                            skels.push(self.as_class(w, a, Class::ElemSet)?);
                        }
                        // A context field is kept as it is.
                        _ => match a.kind() {
                            IExprKind::Var(v) if v.slot == VarId::new(i) => {
                                skels.push(Skel::Field(i))
                            }
                            _ => return Err("a position of another context".into()),
                        },
                    }
                }
                gen(Class::Pos, Skel::Op("pos", false, skels))
            }
            IExprKind::End => gen(Class::Pos, Skel::Op("end", false, Vec::new())),
            IExprKind::Compound { kind, parts } => {
                let mut skels = Vec::new();
                for p in parts {
                    let w = self.walk(p)?;
                    skels.push(self.as_class(w, p, Class::Pos)?);
                }
                gen(Class::Pos, Skel::Op(kind.name(), true, skels))
            }
            _ => Err("an operation on elements that is not generic".into()),
        }
    }

    /// Whether the values of `e` have the element type (by the names it reads, or its
    /// shape): a table that is a tuple or a tagged value is an element, a number is one
    /// only where the element type is a range.
    fn is_elem_typed(&self, e: &IExpr) -> bool {
        let game = &self.program.games[self.gid];
        let Some(FieldTy::Set(t)) = (game.fields.iter())
            .map(|f| &f.ty)
            .find(|t| matches!(t, FieldTy::Set(_)))
        else {
            return false;
        };
        match (&**t, e.kind()) {
            (FieldTy::Tuple(_), IExprKind::Tuple(_))
            | (FieldTy::Union(_), IExprKind::Variant { .. }) => true,
            (FieldTy::Range(..) | FieldTy::Nat | FieldTy::Int, _) => false,
            (_, IExprKind::Var(v)) => matches!(&v.ty, Ty::Tuple(_) | Ty::Union(_)),
            _ => false,
        }
    }

    fn binary(&mut self, op: Op, lhs: &IExpr, rhs: &IExpr) -> Result<W, String> {
        let (a, b) = (self.walk(lhs)?, self.walk(rhs)?);
        let (name, commutes) = op_name(op);
        let skel = |x, y| Skel::Op(name, commutes, vec![x, y]);
        match op {
            Op::In | Op::NotIn => {
                let (x, s) = match b {
                    W::Gen(Class::ElemSet, _, s) => (self.as_elem(a, lhs)?, s),
                    W::Gen(Class::InvSet, _, s) => (self.as_class(a, lhs, Class::Inv)?, s),
                    W::Pure(deps) => match a {
                        W::Gen(Class::Inv, _, x) => (x, self.hole(rhs, deps, Role::Inv)),
                        _ => return Err("a generic element in a table".into()),
                    },
                    W::Gen(c, ..) => return Err(format!("membership in {c:?}")),
                };
                Ok(W::Gen(Class::Inv, false, skel(x, s)))
            }
            Op::Eq | Op::Ne => {
                let class = match (&a, &b) {
                    (W::Gen(c, ..), _) | (_, W::Gen(c, ..)) => *c,
                    _ => Class::Inv,
                };
                let x = match class {
                    Class::ElemSet | Class::InvSet | Class::Inv | Class::Pos => {
                        (self.as_class(a, lhs, class)?, self.as_class(b, rhs, class)?)
                    }
                    Class::ElemSetList => return Err("comparing lists of sets".into()),
                };
                Ok(W::Gen(Class::Inv, false, skel(x.0, x.1)))
            }
            Op::SetUnion | Op::SetInter | Op::SetDiff => {
                let class = match (&a, &b) {
                    (W::Gen(c, ..), _) | (_, W::Gen(c, ..)) => *c,
                    _ => Class::ElemSet,
                };
                if !matches!(class, Class::ElemSet | Class::InvSet) {
                    return Err(format!("set algebra on {class:?}"));
                }
                let (ia, ib) = (
                    matches!(a, W::Gen(_, true, _)),
                    matches!(b, W::Gen(_, true, _)),
                );
                let inside = match op {
                    Op::SetUnion => ia && ib,
                    Op::SetInter => ia || ib,
                    _ => ia,
                };
                let (x, y) = (self.as_class(a, lhs, class)?, self.as_class(b, rhs, class)?);
                Ok(W::Gen(class, inside && class == Class::ElemSet, skel(x, y)))
            }
            Op::GameSum => {
                let (x, y) = (
                    self.as_class(a, lhs, Class::Pos)?,
                    self.as_class(b, rhs, Class::Pos)?,
                );
                Ok(W::Gen(Class::Pos, false, skel(x, y)))
            }
            Op::RangeIncl | Op::RangeExcl | Op::Concat => Err("a generic range or list".into()),
            _ => {
                let (x, y) = (
                    self.as_class(a, lhs, Class::Inv)?,
                    self.as_class(b, rhs, Class::Inv)?,
                );
                Ok(W::Gen(Class::Inv, false, skel(x, y)))
            }
        }
    }

    /// Marks the components a guard `x in S` needs to be elements (`S` surely holds only
    /// elements).
    fn guard(&mut self, id: usize, s: &Skel) {
        if let Skel::Op("in", _, args) = s {
            if let [Skel::Comp(k, i), set] = args.as_slice() {
                if *k == id && self.surely_elements(set) {
                    self.constructs[id].guarded.insert(*i);
                }
            }
        }
    }

    /// Whether a set's skeleton surely holds elements only: a set field, or set algebra
    /// keeping to one.
    fn surely_elements(&self, s: &Skel) -> bool {
        match s {
            Skel::Field(_) => true,
            Skel::Local(slot) => matches!(self.vars.get(slot), Some(VarInfo::Generic(_, true))),
            Skel::Op("|", _, xs) => xs.iter().all(|x| self.surely_elements(x)),
            Skel::Op("&", _, xs) => xs.iter().any(|x| self.surely_elements(x)),
            Skel::Op("\\", _, xs) => xs.first().is_some_and(|x| self.surely_elements(x)),
            _ => false,
        }
    }

    /// Walks the clauses of construct `id` (a move's, a comprehension's): binders become
    /// steps (and components), conditions filters or guards; returns the guards' skeletons.
    fn clauses(&mut self, id: usize, clauses: &[IClause]) -> Result<Vec<Skel>, String> {
        let mut skel = Vec::new();
        for c in clauses {
            match c {
                IClause::Bind(vars, dom) => skel.extend(self.bind(id, vars, dom)?),
                IClause::Let(var, value) => match self.walk(value)? {
                    W::Pure(deps) => {
                        self.step(&deps, Step::Let(var.clone(), value.clone()));
                        self.vars.insert(var.slot, VarInfo::Pure(deps));
                    }
                    W::Gen(class, inside, s) => {
                        self.vars.insert(var.slot, VarInfo::Generic(class, inside));
                        skel.push(Skel::Op("let", false, vec![Skel::Local(var.slot), s]));
                    }
                },
                IClause::Cond(cond) => match self.walk(cond)? {
                    W::Pure(deps) => self.filter(id, &deps, cond),
                    w => {
                        let s = self.as_class(w, cond, Class::Inv)?;
                        self.guard(id, &s);
                        skel.push(s);
                    }
                },
            }
        }
        Ok(skel)
    }

    /// A binder of construct `id` over `dom`: a step, and the guard of an opaque binder.
    fn bind(&mut self, id: usize, vars: &[Var], dom: &IExpr) -> Result<Vec<Skel>, String> {
        match self.walk(dom)? {
            W::Pure(deps) => {
                let mut deps = deps;
                deps.insert(id);
                let c = &mut self.constructs[id];
                c.deps.extend(deps.iter().copied().filter(|&d| d != id));
                c.steps.push(Step::Bind(vars.to_vec(), dom.clone()));
                for v in vars {
                    self.vars
                        .insert(v.slot, VarInfo::Pure(BTreeSet::from([id])));
                }
                Ok(Vec::new())
            }
            W::Gen(Class::ElemSet, inside, s) => {
                let c = &mut self.constructs[id];
                c.steps.push(Step::Opaque(vars.to_vec()));
                c.components.push(Component::Binder(vars.to_vec()));
                let i = c.components.len() - 1;
                if inside {
                    c.guarded.insert(i);
                }
                for v in vars {
                    self.vars
                        .insert(v.slot, VarInfo::Pure(BTreeSet::from([id])));
                }
                Ok(vec![Skel::Op("in", false, vec![Skel::Comp(id, i), s])])
            }
            W::Gen(Class::ElemSetList, inside, s) if vars.len() == 1 => {
                self.vars
                    .insert(vars[0].slot, VarInfo::Generic(Class::ElemSet, inside));
                Ok(vec![Skel::Op(
                    "for",
                    false,
                    vec![Skel::Local(vars[0].slot), s],
                )])
            }
            W::Gen(Class::InvSet, _, s) if vars.len() == 1 => {
                self.vars
                    .insert(vars[0].slot, VarInfo::Generic(Class::Inv, false));
                Ok(vec![Skel::Op(
                    "for",
                    false,
                    vec![Skel::Local(vars[0].slot), s],
                )])
            }
            W::Gen(c, ..) => Err(format!("a binder over {c:?}")),
        }
    }

    /// Ends construct `id` with skeleton `skel`: finds its symmetries, and registers its
    /// relation as a component of the innermost construct whose binders it reads (or at
    /// the top). Returns the skeleton that stands for it.
    fn finish(&mut self, id: usize, skel: Vec<Skel>) -> Result<Skel, String> {
        // The constructs it reads, besides those inside it.
        let inside = self.descendants(id);
        let deps: BTreeSet<usize> = (inside.iter())
            .flat_map(|&k| self.constructs[k].deps.iter().copied())
            .filter(|d| !inside.contains(d))
            .collect();
        self.constructs[id].deps = deps.clone();
        self.constructs[id].skel = skel.clone();
        if !self.constructs[id].bag {
            self.constructs[id].symmetries = self.symmetries(id);
        }
        let is_move = self.constructs[id].parent.is_none() && self.stack.is_empty();
        if !is_move {
            match self.owner(&deps) {
                None => self.tops.push(Top::Construct(id)),
                Some(k) => {
                    let c = &mut self.constructs[k];
                    c.components.push(Component::Nested(id));
                    let i = c.components.len() - 1;
                    return Ok(Skel::Nested(
                        id,
                        vec![Skel::Comp(k, i), Skel::Op("body", false, skel)],
                    ));
                }
            }
        }
        Ok(Skel::Nested(id, skel))
    }

    /// `id` and the constructs inside it.
    fn descendants(&self, id: usize) -> BTreeSet<usize> {
        let mut out = BTreeSet::from([id]);
        for (k, c) in self.constructs.iter().enumerate() {
            let mut up = c.parent;
            while let Some(p) = up {
                if p == id {
                    out.insert(k);
                    break;
                }
                up = self.constructs[p].parent;
            }
        }
        out
    }

    /// The permutations of construct `id`'s components (among components of one kind)
    /// that leave its skeleton as it is.
    fn symmetries(&self, id: usize) -> Vec<Vec<usize>> {
        let n = self.constructs[id].components.len();
        if !(2..=MAX_PERMUTED).contains(&n) {
            return Vec::new();
        }
        let identity: Vec<usize> = (0..n).collect();
        let text = self.text(id, &identity);
        let kinds: Vec<String> = (self.constructs[id].components.iter())
            .map(|c| match c {
                Component::Binder(_) => "elem".to_string(),
                Component::Hole(_, r) => format!("{r:?}").replace("Elem", "elem"),
                Component::Nested(k) => format!(
                    "rel{}",
                    self.text(
                        *k,
                        &(0..self.constructs[*k].components.len()).collect::<Vec<_>>()
                    )
                ),
            })
            .collect();
        let mut out = Vec::new();
        for p in permutations(n) {
            if p == identity || (0..n).any(|i| kinds[i] != kinds[p[i]]) {
                continue;
            }
            if self.text(id, &p) == text {
                out.push(p);
            }
        }
        out
    }

    /// Whether moves `a` and `b` have one skeleton: the permutation of `b`'s components
    /// onto `a`'s.
    fn same_skeleton(&self, a: usize, b: usize) -> Option<Vec<usize>> {
        let n = self.constructs[a].components.len();
        if n != self.constructs[b].components.len() || n > MAX_PERMUTED {
            return None;
        }
        let identity: Vec<usize> = (0..n).collect();
        let text = self.text(a, &identity);
        permutations(n).into_iter().find(|p| {
            self.text(b, p) == text
                && (0..n).all(|i| {
                    let (x, y) = (
                        &self.constructs[a].components[p[i]],
                        &self.constructs[b].components[i],
                    );
                    std::mem::discriminant(x) == std::mem::discriminant(y)
                })
        })
    }

    /// The text of construct `id`'s skeleton, its own components renamed by `p` (component
    /// `i` printed as `$p[i]`), names and constructs inside it numbered in order.
    fn text(&self, id: usize, p: &[usize]) -> String {
        let mut names = Names::default();
        let parts: Vec<String> = (self.constructs[id].skel.iter())
            .map(|s| self.print(s, id, p, &mut names))
            .collect();
        parts.join(";")
    }

    fn print(&self, s: &Skel, base: usize, p: &[usize], names: &mut Names) -> String {
        match s {
            Skel::Comp(k, i) if *k == base => format!("${}", p[*i]),
            Skel::Comp(k, i) => {
                let label = names.construct(*k);
                format!("#{label}.{i}")
            }
            Skel::Top(t) => format!("@{t}"),
            Skel::Field(f) => format!("f{f}"),
            Skel::Local(slot) => format!("L{}", names.local(*slot)),
            Skel::Op(name, commutes, args) => {
                let mut parts: Vec<String> =
                    args.iter().map(|a| self.print(a, base, p, names)).collect();
                if *commutes {
                    parts.sort();
                }
                format!("{name}({})", parts.join(","))
            }
            Skel::Nested(k, parts) => {
                let label = names.construct(*k);
                let parts: Vec<String> = parts
                    .iter()
                    .map(|a| self.print(a, base, p, names))
                    .collect();
                let mut text = format!("K{label}[");
                for c in &self.constructs[*k].components {
                    let _ = write!(
                        text,
                        "{},",
                        match c {
                            Component::Binder(_) => "b",
                            Component::Hole(_, Role::Elem) => "e",
                            Component::Hole(_, Role::ElemSet) => "s",
                            Component::Hole(_, Role::Inv) => "i",
                            Component::Nested(_) => "r",
                        }
                    );
                }
                let _ = write!(text, "]({})", parts.join(","));
                text
            }
        }
    }

    /// A call: a table where its arguments are tables (then `walk` found it pure); else its
    /// body, with the arguments for the parameters, walked in its place.
    fn inline(&mut self, func: usize, args: &[IExpr]) -> Result<W, String> {
        self.inlined += 1;
        if self.inlined > MAX_INLINED {
            return Err("too many calls to follow".into());
        }
        let f = &self.program.fns[func];
        let offset = self.frame;
        self.frame += f.locals.len();
        let body = substitute(&f.body, args, offset);
        self.walk(&body)
    }
}

/// Numbers for names and constructs, in the order a print meets them.
#[derive(Default)]
struct Names {
    locals: HashMap<VarId, usize>,
    constructs: HashMap<usize, usize>,
}

impl Names {
    fn local(&mut self, slot: VarId) -> usize {
        let n = self.locals.len();
        *self.locals.entry(slot).or_insert(n)
    }
    fn construct(&mut self, k: usize) -> usize {
        let n = self.constructs.len();
        *self.constructs.entry(k).or_insert(n)
    }
}

/// The conjuncts of a condition (`a and b and c`), in order.
pub(crate) fn conjuncts(e: &IExpr) -> Vec<&IExpr> {
    match e.kind() {
        IExprKind::Bin {
            op: Op::And,
            lhs,
            rhs,
            ..
        } => {
            let mut out = conjuncts(lhs);
            out.extend(conjuncts(rhs));
            out
        }
        _ => vec![e],
    }
}

/// Every permutation of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for k in 0..n {
        let mut next = Vec::new();
        for p in &out {
            for at in 0..=k {
                let mut q: Vec<usize> = p.clone();
                q.insert(at, k);
                next.push(q);
            }
        }
        out = next;
    }
    out
}

/// A function's body with parameter `i` replaced by `args[i]` and its own slots moved
/// past `offset` (so that they clash with no name of the rule it is inlined into).
pub fn substitute(body: &IExpr, args: &[IExpr], offset: usize) -> IExpr {
    let mut e = body.clone();
    // Each node after its parts: an argument put in a parameter's place is not renamed.
    e.rewrite_up(&mut |e| match e.as_var() {
        Some(v) if v.slot.index() < args.len() => *e = args[v.slot.index()].clone(),
        Some(_) => {
            if let IExprKind::Var(v) = e.kind_mut() {
                v.slot = v.slot.offset(offset);
            }
        }
        None => e.for_each_own_bind_mut(&mut |v| v.slot = v.slot.offset(offset)),
    });
    e
}
