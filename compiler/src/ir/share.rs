//! Common subexpressions and loop-invariant work, computed once: a pass over the checked
//! IR that both back ends read (the interpreter and native code run the same program).
//!
//! A *costly* expression (a quantifier, a comprehension, a closure, set algebra, a call of
//! a function that takes a set or a list, or anything holding one) that a move (its clauses
//! and result, seen as one comprehension) or a function's body computes more than once,
//! becomes a `let` at the innermost expression holding every occurrence (a `let` clause
//! where they stand in different clauses):
//!
//! ```text
//! if most_sides(drawn, l) == 4 then end else if most_sides(drawn, l) == 3 then Threat ...
//! let shared_1 = most_sides(drawn, l) in if shared_1 == 4 then end else if shared_1 == 3 ...
//! ```
//!
//! and one that cannot fail and reads none of a loop's names leaves the loop:
//!
//! ```text
//! exists b in Box: len(sides(b) & (drawn | {l})) == 4
//! let shared_1 = drawn | {l} in exists b in Box: len(sides(b) & shared_1) == 4
//! ```
//!
//! The rewrite keeps every value and every error, and computes nothing the rule as written
//! skips, except once per entry to a loop it leaves. A value is shared only where every
//! way through the rule computes it (one that can fail: where its first occurrence was
//! computed, before anything else that can fail, so it fails when and as it did); one
//! that cannot fail leaves loops, never a condition. Cheap expressions (arithmetic, a table
//! function of a box or a line) are left where they are: native code keeps them in
//! registers, and the code generator's fast paths read their shapes. Position expressions
//! are never moved, and symmetries and queries are left as written.

use super::*;
use std::collections::HashMap;

/// How many rewrites one expression may take (each shares one expression).
const MAX_REWRITES: usize = 64;

/// Shares the costly common subexpressions and hoists the costly loop-invariant ones of
/// every move and function of `program` (see the module's documentation).
pub fn share(program: &mut Program) {
    let mut names = NameSupply::new(program);
    let cx = Context {
        costly_fns: (program.fns.iter())
            .map(|f| {
                (f.params.iter()).any(|(_, t)| matches!(t, FieldTy::Set(_) | FieldTy::List(_)))
            })
            .collect(),
        sure: Sureness::new(program),
    };
    for f in &mut program.fns {
        cx.rewrite(&mut f.body, &mut f.locals, &mut names);
    }
    for game in &mut program.games {
        let GameKind::Rules(moves) = &mut game.kind else {
            continue;
        };
        for mv in moves {
            // A move is a comprehension of its options: its clauses, then its result.
            let mut whole = IExpr::from(IExprKind::Compr {
                elem: Box::new(std::mem::replace(
                    &mut mv.result,
                    IExpr::from(IExprKind::End),
                )),
                clauses: std::mem::take(&mut mv.clauses),
            });
            cx.rewrite(&mut whole, &mut game.locals, &mut names);
            // `let`s around the whole move are its first clauses.
            let mut lets = Vec::new();
            let mut whole = whole.into_kind();
            while let IExprKind::Let { var, value, body } = whole {
                lets.push(IClause::Let(var, *value));
                whole = body.into_kind();
            }
            let IExprKind::Compr { elem, clauses } = whole else {
                unreachable!("the pass keeps a move's comprehension")
            };
            lets.extend(clauses);
            (mv.result, mv.clauses) = (*elem, lets);
        }
    }
}

/// Fresh names for shared values: `shared_1`, `shared_2`, ..., none a name of the file.
struct NameSupply {
    taken: std::collections::HashSet<Rc<str>>,
    /// The names it gave.
    made: std::collections::HashSet<Rc<str>>,
    next: usize,
}

impl NameSupply {
    fn new(program: &Program) -> Self {
        let mut taken = std::collections::HashSet::new();
        let mut note = |v: &Var| {
            taken.insert(v.name.clone());
        };
        for g in &program.games {
            if let GameKind::Rules(moves) = &g.kind {
                moves.iter().for_each(|m| m.for_each_var(&mut note));
            }
            (g.symmetries.iter()).for_each(|s| s.result.for_each_var(&mut note));
        }
        for f in &program.fns {
            f.body.for_each_var(&mut note);
        }
        for q in &program.queries {
            q.target.for_each_var(&mut note);
            for (v, d) in &q.binders {
                note(v);
                d.for_each_var(&mut note);
            }
        }
        for g in &program.games {
            taken.extend(g.fields.iter().map(|f| Rc::from(f.name.as_str())));
        }
        for f in &program.fns {
            taken.extend(f.params.iter().map(|(n, _)| n.clone()));
        }
        NameSupply {
            taken,
            made: std::collections::HashSet::new(),
            next: 1,
        }
    }

    fn fresh(&mut self) -> Rc<str> {
        loop {
            let name: Rc<str> = Rc::from(format!("shared_{}", self.next));
            self.next += 1;
            if self.taken.insert(name.clone()) {
                self.made.insert(name.clone());
                return name;
            }
        }
    }
}

/// Which functions cannot fail on any argument of their parameters' types.
struct Sureness {
    fns: Vec<bool>,
}

impl Sureness {
    fn new(program: &Program) -> Self {
        // Functions are not recursive: each is decided after the ones it calls.
        fn decide(program: &Program, i: usize, memo: &mut Vec<Option<bool>>) -> bool {
            if let Some(known) = memo[i] {
                return known;
            }
            memo[i] = Some(false);
            let f = &program.fns[i];
            let body = f.body.props();
            // A function whose result type is a range checks its result, and one whose
            // parameter has a bound checks its argument.
            let known = !matches!(f.ret, FieldTy::Range(..))
                && f.params.iter().all(|(_, t)| t.admits_its_static_type())
                && !body.fallible
                && body.calls.iter().all(|&j| decide(program, j, memo));
            memo[i] = Some(known);
            known
        }
        let mut memo = vec![None; program.fns.len()];
        let fns = (0..program.fns.len())
            .map(|i| decide(program, i, &mut memo))
            .collect();
        Sureness { fns }
    }

    /// Whether evaluating an expression with the facts `props` cannot fail, whatever the
    /// values of the names it reads (of their types).
    fn sure(&self, props: &Props) -> bool {
        !props.fallible && (props.calls.iter()).all(|&f| self.fns.get(f).copied().unwrap_or(false))
    }
}

/// What the pass reads while it rewrites.
struct Context {
    /// Functions whose calls are costly (they take a set or a list: no table answers them).
    costly_fns: Vec<bool>,
    sure: Sureness,
}

/// One occurrence of a candidate: the path of child indexes from the root to it.
type Path = Vec<usize>;

/// A child's place in its parent: whether it is computed whenever the parent is, whether
/// it is computed once per element of a loop, and the names the parent binds around it.
struct Place {
    /// Computed exactly once whenever the parent is.
    always: bool,
    /// Computed once per element of a loop of the parent.
    in_loop: bool,
    /// Computed only when a condition holds (a branch, the right of `and`/`or`, a match
    /// arm, a comprehension's clauses after a condition).
    guarded: bool,
    binds: Vec<Var>,
}

impl Context {
    /// The type of a shared expression's name: the expression's, where the IR tells it
    /// (not `_`, as for the elements of `{}`).
    fn ty_of(&self, e: &IExpr) -> Option<Ty> {
        Some(e.ty()).filter(|t| !t.has_any())
    }

    /// Rewrites `root` until nothing more is shared; true when it changed. New names take
    /// new slots of `locals`.
    fn rewrite(&self, root: &mut IExpr, locals: &mut Locals, names: &mut NameSupply) -> bool {
        let mut changed = false;
        for _ in 0..MAX_REWRITES {
            let Some((target, occurrences)) = self.find(root) else {
                break;
            };
            let Some(ty) = self.ty_of(expr_at(root, &occurrences[0])) else {
                break; // (a candidate has a known type)
            };
            let var = locals.bind(names.fresh(), ty);
            let mut value = None;
            for o in &occurrences {
                let old = std::mem::replace(
                    expr_at_mut(root, o),
                    IExpr::from(IExprKind::Var(var.clone())),
                );
                value.get_or_insert(old);
            }
            let Some(value) = value else { break };
            match target {
                Target::Wrap(at) => {
                    let node = expr_at_mut(root, &at);
                    let body = std::mem::replace(node, IExpr::from(IExprKind::End));
                    *node = IExpr::from(IExprKind::Let {
                        var,
                        value: Box::new(value),
                        body: Box::new(body),
                    });
                }
                Target::Clause(at, k) => match expr_at_mut(root, &at).kind_mut() {
                    IExprKind::Compr { clauses, .. } | IExprKind::CompoundOf { clauses, .. } => {
                        clauses.insert(k, IClause::Let(var, value))
                    }
                    _ => unreachable!("a clause target is a comprehension"),
                },
            }
            changed = true;
        }
        if changed {
            drop_aliases(root, &names.made);
        }
        changed
    }

    /// The next expression to share: where its `let` goes, and its occurrences (paths from
    /// the root), the first in evaluation order first.
    fn find(&self, root: &IExpr) -> Option<(Target, Vec<Path>)> {
        let mut round = Round::default();
        self.collect(root, &mut Vec::new(), &mut round);
        // Groups by structural hash, outermost first.
        let mut candidates = std::mem::take(&mut round.candidates);
        candidates.sort_by_key(|(index, ..)| *index);
        let mut groups: HashMap<u64, Vec<Path>> = HashMap::new();
        let mut order = Vec::new();
        for (_, hash, path) in candidates {
            let group = groups.entry(hash).or_default();
            if group.is_empty() {
                order.push(hash);
            }
            group.push(path);
        }
        // Each group's expressions of one shape (a hash is almost surely one shape; names
        // hash by what they are called, and two bindings may share a name).
        let classes = order.into_iter().flat_map(|hash| {
            let group = groups.remove(&hash).unwrap_or_default();
            if group.len() < 2 {
                return vec![group];
            }
            let mut classes: Vec<(Shape, Vec<Path>)> = Vec::new();
            for path in group {
                let shape = Shape::of(expr_at(root, &path));
                match classes.iter_mut().find(|(s, _)| *s == shape) {
                    Some((_, class)) => class.push(path),
                    None => classes.push((shape, vec![path])),
                }
            }
            classes.into_iter().map(|(_, class)| class).collect()
        });
        for occurrences in classes {
            if let Some(target) = self.placement(root, &occurrences, &round) {
                return Some((target, occurrences));
            }
            // Not shared: each occurrence may still leave its loops.
            if round.sure(&occurrences[0]) && occurrences.len() > 1 {
                let reads = expr_at(root, &occurrences[0]).props().reads.clone();
                for o in occurrences {
                    if let Some(target) = hoist(root, &o, &reads) {
                        return Some((target, vec![o]));
                    }
                }
            }
        }
        None
    }

    /// One walk over `e` (at `path`): notes its candidates (pre-order) and whether each
    /// node cannot fail, from the facts on the nodes ([`IExpr::props`]).
    fn collect(&self, e: &IExpr, path: &mut Path, round: &mut Round) {
        let index = round.visited;
        round.visited += 1;
        let props = e.props();
        let sure = self.sure.sure(props);
        let costly = props.loops
            || (props.calls.iter()).any(|&f| self.costly_fns.get(f).copied().unwrap_or(false));
        round.sure.insert(path.clone(), sure);
        let candidate = !matches!(
            e.kind(),
            IExprKind::Var(_) | IExprKind::Lit(_) | IExprKind::AllOf { .. }
        ) && costly
            && !props.position
            && self.ty_of(e).is_some();
        if candidate {
            round.candidates.push((index, props.hash, path.clone()));
        }
        let mut i = 0;
        e.for_each_child(&mut |c| {
            path.push(i);
            self.collect(c, path, round);
            path.pop();
            i += 1;
        });
    }

    /// Whether the expression at `o` is computed whenever the node at `o[..from]` is, after
    /// nothing that can fail: computed there instead, it fails exactly when and as it did.
    fn computed_first(&self, root: &IExpr, from: usize, o: &Path, round: &Round) -> bool {
        let steps = places(root, &o[..from].to_vec(), o);
        steps.iter().all(|p| p.always)
            && (from..o.len()).all(|d| (0..o[d]).all(|j| round.sure(&[&o[..d], &[j][..]].concat())))
    }

    /// Where the `let` of the expression at `occurrences` goes, if sharing it is worth it
    /// and keeps every value.
    fn placement(&self, root: &IExpr, occurrences: &[Path], round: &Round) -> Option<Target> {
        let first = expr_at(root, &occurrences[0]);
        let reads = first.props().reads.clone();
        let reads_any = |vars: &[Var]| first.reads_any(vars);
        let sure = round.sure(&occurrences[0]);
        if occurrences.len() == 1 {
            // Hoisting only: out of the outermost loop it does not depend on.
            return if sure {
                hoist(root, &occurrences[0], &reads)
            } else {
                None
            };
        }
        // The deepest node holding every occurrence but none of them.
        let mut at = common_prefix(occurrences);
        if occurrences.iter().any(|o| o.len() == at.len()) {
            at.pop()?;
        }
        // No name the expression reads may be bound between the `let` and an occurrence;
        // one that can fail goes where one occurrence was computed first.
        let below = |o: &Path, from: usize| places(root, &o[..from].to_vec(), o);
        if let Some(clauses) = clauses_of(expr_at(root, &at)) {
            // In different clauses (or a clause and the element): a `let` clause before
            // the first of them.
            let j = occurrences.iter().map(|o| o[at.len()]).min()?;
            for o in occurrences {
                let between = (clauses[j..o[at.len()].min(clauses.len())].iter())
                    .any(|c| reads_any(&clause_binds(c)));
                if between || below(o, at.len() + 1).iter().any(|p| reads_any(&p.binds)) {
                    return None;
                }
            }
            if !sure {
                let always = |o: &&Path| {
                    o[at.len()] == j && self.computed_first(root, at.len() + 1, o, round)
                };
                return (occurrences.iter().any(|o| always(&o))).then(|| before_clause(at, j));
            }
            // Computed whenever clause `j` is, then out of the binders before it, up to a
            // binder it reads or a condition.
            let in_j: Vec<&[usize]> = (occurrences.iter())
                .filter(|o| o[at.len()] == j)
                .map(|o| &o[at.len() + 1..])
                .collect();
            if !anticipated(expr_at(root, &[&at[..], &[j]].concat()), &in_j) {
                return None;
            }
            let stop = (0..j).rev().find(|&i| {
                reads_any(&clause_binds(&clauses[i])) || matches!(clauses[i], IClause::Cond(..))
            });
            let k = stop.map_or(0, |i| i + 1);
            let outer = if stop.is_none() {
                hoist(root, &at, &reads)
            } else {
                None
            };
            return Some(outer.unwrap_or_else(|| before_clause(at, k)));
        }
        if (occurrences.iter()).any(|o| below(o, at.len()).iter().any(|p| reads_any(&p.binds))) {
            return None;
        }
        if !sure {
            let always = |o: &Path| self.computed_first(root, at.len(), o, round);
            return occurrences.iter().any(always).then_some(Target::Wrap(at));
        }
        // Computed whenever the common node is; then out of the loops around it, where it
        // is invariant.
        let relative: Vec<&[usize]> = occurrences.iter().map(|o| &o[at.len()..]).collect();
        if !anticipated(expr_at(root, &at), &relative) {
            return None;
        }
        Some(hoist(root, &at, &reads).unwrap_or(Target::Wrap(at)))
    }
}

/// Removes each shared `let` whose value is another name (left where a value moved out of
/// a loop was then shared with its other occurrences), reading that name instead.
fn drop_aliases(e: &mut IExpr, shared: &std::collections::HashSet<Rc<str>>) {
    let alias = |var: &Var, value: &IExpr| match value.kind() {
        IExprKind::Var(v) if shared.contains(&var.name) => Some(v.clone()),
        _ => None,
    };
    if let IExprKind::Let { var, value, body } = e.kind_mut() {
        if let Some(to) = alias(var, value) {
            let from = var.clone();
            let mut body = std::mem::replace(&mut **body, IExpr::from(IExprKind::End));
            rename(&mut body, &from, &to);
            *e = body;
            return drop_aliases(e, shared);
        }
    }
    if let IExprKind::Compr { clauses, elem } | IExprKind::CompoundOf { clauses, elem, .. } =
        e.kind_mut()
    {
        while let Some(i) = (clauses.iter())
            .position(|c| matches!(c, IClause::Let(var, value) if alias(var, value).is_some()))
        {
            let IClause::Let(from, to) = clauses.remove(i) else {
                unreachable!("the position found an alias")
            };
            let IExprKind::Var(to) = to.into_kind() else {
                unreachable!("the position found an alias")
            };
            for c in &mut clauses[i..] {
                let (IClause::Bind(_, x) | IClause::Cond(x) | IClause::Let(_, x)) = c;
                rename(x, &from, &to);
            }
            rename(elem, &from, &to);
        }
    }
    let mut n = 0;
    e.for_each_child(&mut |_| n += 1);
    for i in 0..n {
        drop_aliases(child_mut(e, i), shared);
    }
}

/// Reads `to` wherever `e` reads `from`.
fn rename(e: &mut IExpr, from: &Var, to: &Var) {
    if let IExprKind::Var(v) = e.kind_mut() {
        if v.slot == from.slot && v.name == from.name {
            *v = to.clone();
        }
        return;
    }
    let mut n = 0;
    e.for_each_child(&mut |_| n += 1);
    for i in 0..n {
        rename(child_mut(e, i), from, to);
    }
}

/// Where a shared value's `let` goes.
enum Target {
    /// Around the node at the path.
    Wrap(Path),
    /// As a `let` clause before clause `k` of the comprehension (or move) at the path.
    Clause(Path, usize),
}

/// A `let` before clause `k` of the comprehension at `at`: around it when `k` is 0 (so
/// that its clauses keep the shapes the code generator reads, as in `sum(G(part) for part
/// in components(...))`).
fn before_clause(at: Path, k: usize) -> Target {
    if k == 0 {
        Target::Wrap(at)
    } else {
        Target::Clause(at, k)
    }
}

/// The clauses of a comprehension (or of a move, which the pass sees as one).
fn clauses_of(e: &IExpr) -> Option<&[IClause]> {
    match e.kind() {
        IExprKind::Compr { clauses, .. } | IExprKind::CompoundOf { clauses, .. } => Some(clauses),
        _ => None,
    }
}

/// The names a clause binds.
fn clause_binds(c: &IClause) -> Vec<Var> {
    let mut binds = Vec::new();
    c.for_each_own_bind(&mut |v| binds.push(v.clone()));
    binds
}

/// Where an expression that cannot fail, standing at `to`, goes to leave the outermost
/// loop around it that it does not depend on (reading none of its names, nor those of a
/// binder between): around a quantifier or a closure, or as a `let` clause before a
/// comprehension's first binder it does not read. It crosses loops only, no condition:
/// computed once per entry to the loop instead of once per element (or once where the
/// loop has no element), never where a condition skipped it.
fn hoist(root: &IExpr, to: &Path, reads: &[(VarId, Rc<str>)]) -> Option<Target> {
    let reads_any = |vars: &[Var]| {
        (vars.iter()).any(|v| reads.binary_search(&(v.slot, v.name.clone())).is_ok())
    };
    let steps = places(root, &Vec::new(), to);
    let nodes = nodes_along(root, to);
    let mut best = None;
    for depth in (0..steps.len()).rev() {
        let node = nodes[depth];
        if let Some(clauses) = clauses_of(node) {
            let before = &clauses[..to[depth].min(clauses.len())];
            let last = (0..before.len())
                .rev()
                .find(|&i| reads_any(&clause_binds(&before[i])));
            // Not before a condition: the value would be computed where it was not.
            let guard = (0..before.len())
                .rev()
                .find(|&i| matches!(before[i], IClause::Cond(..)));
            let k = last.max(guard).map_or(0, |i| i + 1);
            if before[k..].iter().any(|c| matches!(c, IClause::Bind(..))) {
                best = Some(before_clause(to[..depth].to_vec(), k));
            }
            if k > 0 {
                break;
            }
            continue;
        }
        let p = &steps[depth];
        if reads_any(&p.binds) || p.guarded {
            break;
        }
        if p.in_loop {
            best = Some(Target::Wrap(to[..depth].to_vec()));
        }
    }
    best
}

/// What one walk over an expression learns: its candidates, by structural hash, in
/// pre-order, and whether each node (by address) cannot fail.
#[derive(Default)]
struct Round {
    /// Nodes visited so far (each candidate's pre-order index).
    visited: usize,
    /// Each candidate: its pre-order index, structural hash and path.
    candidates: Vec<(usize, u64, Path)>,
    /// Whether the node at each path cannot fail.
    sure: HashMap<Path, bool>,
}

impl Round {
    /// Whether the node at `path` cannot fail.
    fn sure(&self, path: &[usize]) -> bool {
        self.sure.get(path).copied().unwrap_or(false)
    }
}

fn common_prefix(paths: &[Path]) -> Path {
    let mut prefix = paths[0].clone();
    for p in &paths[1..] {
        let n = prefix.iter().zip(p).take_while(|(a, b)| a == b).count();
        prefix.truncate(n);
    }
    prefix
}

/// The places of each step from the node at `from` down to the node at `to` (`from` a
/// prefix of `to`).
fn places(root: &IExpr, from: &Path, to: &Path) -> Vec<Place> {
    let mut node = root;
    let mut out = Vec::new();
    for (depth, &i) in to.iter().enumerate() {
        if depth >= from.len() {
            out.push(place(node, i));
        }
        node = child(node, i);
    }
    out
}

/// The nodes on the way from `root` along `path`: `nodes[d]` is the node at `path[..d]`.
fn nodes_along<'e>(root: &'e IExpr, path: &[usize]) -> Vec<&'e IExpr> {
    let mut nodes = vec![root];
    for &i in path {
        let last = nodes[nodes.len() - 1];
        nodes.push(child(last, i));
    }
    nodes
}

fn child(e: &IExpr, i: usize) -> &IExpr {
    let mut k = 0;
    let mut found = None;
    e.for_each_child(&mut |c| {
        if k == i {
            found = Some(c);
        }
        k += 1;
    });
    found.expect("a path follows existing children")
}

fn expr_at<'e>(root: &'e IExpr, path: &[usize]) -> &'e IExpr {
    path.iter().fold(root, |e, &i| child(e, i))
}

fn expr_at_mut<'e>(root: &'e mut IExpr, path: &[usize]) -> &'e mut IExpr {
    let mut node = root;
    for &i in path {
        node = child_mut(node, i);
    }
    node
}

/// Child `i` of `e`, in [`IExpr::for_each_child`]'s order.
fn child_mut(e: &mut IExpr, i: usize) -> &mut IExpr {
    let mut kids: Vec<&mut IExpr> = Vec::new();
    e.for_each_child_mut(&mut |c| kids.push(c));
    kids.into_iter()
        .nth(i)
        .expect("a path follows existing children")
}

/// The place of child `i` of `e` (see [`Place`]).
fn place(e: &IExpr, i: usize) -> Place {
    let plain = |always: bool| Place {
        always,
        in_loop: false,
        guarded: !always,
        binds: Vec::new(),
    };
    let looped = |binds: Vec<Var>| Place {
        always: false,
        in_loop: true,
        guarded: false,
        binds,
    };
    match e.kind() {
        IExprKind::Bin {
            op: Op::And | Op::Or,
            ..
        } => plain(i == 0),
        IExprKind::If { .. } => plain(i == 0),
        IExprKind::Let { var, .. } if i == 1 => Place {
            binds: vec![var.clone()],
            ..plain(true)
        },
        IExprKind::Quant { vars, .. } if i == 1 => looped(vars.clone()),
        IExprKind::Inverted(q) if i == 1 => looped(vec![q.var.clone()]),
        IExprKind::Closure { var, .. } if i == 1 => looped(vec![var.clone()]),
        IExprKind::Compr { clauses, .. } | IExprKind::CompoundOf { clauses, .. } => {
            let before = &clauses[..i.min(clauses.len())];
            let binds = before.iter().flat_map(clause_binds).collect();
            let in_loop = before.iter().any(|c| matches!(c, IClause::Bind(..)));
            let guarded = before.iter().any(|c| matches!(c, IClause::Cond(..)));
            Place {
                always: !in_loop && !guarded,
                in_loop,
                guarded,
                binds,
            }
        }
        IExprKind::Match { arms, .. } if i > 0 => Place {
            binds: arms.get(i - 1).map(|a| a.vars.clone()).unwrap_or_default(),
            ..plain(false)
        },
        _ => plain(true),
    }
}

/// Whether every evaluation of `e` computes one of the expressions at `occurrences`
/// (paths from `e`): then computing it once where `e` starts costs nothing more.
fn anticipated(e: &IExpr, occurrences: &[&[usize]]) -> bool {
    if occurrences.iter().any(|o| o.is_empty()) {
        return true;
    }
    let within = |i: usize| {
        let below: Vec<&[usize]> = (occurrences.iter())
            .filter(|o| o[0] == i)
            .map(|o| &o[1..])
            .collect();
        !below.is_empty() && anticipated(child(e, i), &below)
    };
    match e.kind() {
        IExprKind::If { .. } => within(0) || (within(1) && within(2)),
        IExprKind::Match { arms, default, .. } => {
            let branches = arms.len() + usize::from(default.is_some());
            within(0) || (1..=branches).all(within)
        }
        _ => {
            let mut n = 0;
            e.for_each_child(&mut |_| n += 1);
            (0..n).any(|i| place(e, i).always && within(i))
        }
    }
}
