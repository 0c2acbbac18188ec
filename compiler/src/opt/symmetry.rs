//! The symmetry pass: each game's symmetries, found in its rules and proven, and its
//! declared symmetries proven where they can be.
//!
//! For a game whose rules are generic in the elements of its set fields
//! ([`Structure`]), the permutations of the elements that map its structure onto itself
//! are symmetries of the game. The pass encodes the structure of each context as a
//! coloured graph (elements, and a vertex for each set, tuple and relation, joined to
//! what it holds), computes the graph's automorphism group ([`super::automorphism`]), and checks
//! each permutation it keeps against the structure itself: only a permutation that maps
//! every value onto itself is used. Elements that any permutation of their class keeps
//! (*twins*, such as the two outer sides of a board's corner box) are handled apart: a
//! position holding `k` of a class is taken to hold its first `k`, and the group is kept
//! as one permutation for each of its other elements ([`ContextGroup`]).
//!
//! A game that declares symmetries keeps them; each declared map that rebuilds the set
//! fields element by element (`{ f(x) for x in s }`) and computes the context from the
//! context is proven when, in every context, its permutation maps the structure onto the
//! structure of the image's context. A map not proven is checked by the solver as it runs.

use super::automorphism::{Graph, Perm};
use super::structure::{SVal, Structure};
use crate::interp::{within_budget, Interpreter};
use crate::ir::*;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

/// Steps (loop iterations and elements built) the pass may spend on one game's structure.
const BUDGET: u64 = 20_000_000;
/// The most permutations a context's group keeps besides the identity (the runtime
/// follows at most 16 images of a position).
const MAX_MAPS: usize = 15;
/// The largest group whose elements are listed to find its twins (see [`context_group`]).
const SMALL_GROUP: usize = 4096;
/// The largest group order counted element by element (for messages only).
const ORDER_COUNTED: usize = 10_000;

/// What the pass found for one game.
#[derive(Debug, Default)]
struct Findings {
    found: Option<FoundSymmetries>,
    proven: Vec<bool>,
}

/// Runs the pass on every game of `program`.
pub fn run(program: &mut Program, source: &str) {
    let mut findings: Vec<Findings> = {
        let interp = Interpreter::new(program, source);
        (0..program.games.len())
            .map(|gid| analyse(program, &interp, gid))
            .collect()
    };
    // A game proven the same wherever its position lies: its images are moved to the
    // corner, and where its rules move sets to the corner, its symmetries are those of its
    // rules without those moves (which have the same values).
    for (gid, f) in findings.iter_mut().enumerate() {
        let game = &program.games[gid];
        // Native code moves sets of cells of one or two parts to the corner.
        let Some(translation) = game.translation.as_ref().filter(|t| t.dims.len() <= 2) else {
            continue;
        };
        if !game.symmetries.is_empty() {
            continue;
        }
        if let (None, Some(stripped)) = (&f.found, &translation.stripped) {
            let mut plain = program.clone();
            plain.games[gid].kind = GameKind::Rules(stripped.clone());
            let interp = Interpreter::new(&plain, source);
            f.found = analyse(&plain, &interp, gid).found;
        }
        let found = f.found.get_or_insert_with(|| FoundSymmetries {
            elements: Vec::new(),
            context: Vec::new(),
            groups: vec![ContextGroup {
                twins: Vec::new(),
                maps: Vec::new(),
                order: 1,
            }],
            to_corner: false,
        });
        if found.elements.is_empty() {
            found.elements = super::translations::cells(&translation.dims);
        }
        found.to_corner = true;
    }
    for (game, f) in program.games.iter_mut().zip(findings) {
        game.found = f.found;
        for (s, proven) in game.symmetries.iter_mut().zip(f.proven) {
            s.proven = proven;
        }
    }
}

fn analyse(program: &Program, interp: &Interpreter, gid: usize) -> Findings {
    let game = &program.games[gid];
    let mut out = Findings {
        found: None,
        proven: vec![false; game.symmetries.len()],
    };
    let structure = match Structure::of(program, gid) {
        Ok(s) => s,
        Err(why) => {
            if std::env::var_os("CGDL_DEBUG_SYMMETRY").is_some() {
                eprintln!("{}: no structure: {why}", game.name);
            }
            return out;
        }
    };
    let (values, spent) = within_budget(BUDGET, || {
        (0..structure.context.count())
            .map(|c| structure.evaluate(interp, c))
            .collect::<Result<Vec<_>, _>>()
    });
    if std::env::var_os("CGDL_DEBUG_SYMMETRY").is_some() {
        eprintln!("{}: {}", game.name, structure.describe());
        if let Ok(v) = &values {
            for (c, v) in v.iter().enumerate().take(2) {
                eprintln!("  context {c}: {v:?}");
            }
        }
    }
    let Ok(values) = values else {
        return out;
    };
    if spent {
        return out;
    }
    if game.symmetries.is_empty() {
        let groups: Vec<ContextGroup> = (values.iter())
            .map(|v| context_group(structure.elements.len(), v))
            .collect();
        if groups.iter().any(|g| g.order > 1) {
            out.found = Some(FoundSymmetries {
                elements: structure.elements.clone(),
                context: structure.context.clone(),
                groups,
                to_corner: false,
            });
        }
    } else {
        for (k, s) in game.symmetries.iter().enumerate() {
            out.proven[k] = within_budget(BUDGET, || {
                declared_map(program, interp, gid, &structure, &s.result)
                    .is_some_and(|(to, perms)| Structure::preserved(&values, &to, &perms))
            })
            .0;
        }
    }
    out
}

/// The group of one context's structure `values` over `n` elements.
fn context_group(n: usize, values: &[SVal]) -> ContextGroup {
    let graph = encode(n, values);
    let (generators, complete) = graph.automorphisms();
    // Each generator as a permutation of the elements, kept only where it maps every
    // value of the structure onto itself.
    let preserves = |p: &[u32]| values.iter().all(|v| &v.permuted(p) == v);
    let generators: Vec<Perm> = (generators.into_iter())
        .map(|g| g[..n].to_vec())
        .filter(|p| preserves(p))
        .collect();
    // Twins: elements of one orbit that swapping keeps the structure. A generator that
    // swaps two elements says so at once; where the whole group is small and the search
    // found all of it, its swaps are all the twins (any other swap that kept the
    // structure would be in it), so no other pair need be tried.
    let swapped = orbits(
        n,
        &(generators.iter())
            .filter(|g| moved(g) == 2)
            .cloned()
            .collect::<Vec<_>>(),
    );
    let swaps: Option<std::collections::HashSet<(u32, u32)>> = complete
        .then(|| closure(n, &generators, SMALL_GROUP + 1))
        .filter(|group| group.len() <= SMALL_GROUP)
        .map(|group| {
            (group.iter())
                .filter(|g| moved(g) == 2)
                .filter_map(|g| {
                    let mut pair = (0..n).filter(|&x| g[x] != x as u32);
                    Some((pair.next()? as u32, pair.next()? as u32))
                })
                .collect()
        });
    let orbit = orbits(n, &generators);
    let mut class_of: Vec<usize> = (0..n).collect();
    let mut reps: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    for e in 0..n {
        let members = reps.entry(orbit[e]).or_default();
        let twin = members.iter().copied().find(|&r| {
            if swapped[r as usize] == swapped[e] {
                return true;
            }
            if let Some(swaps) = &swaps {
                return swaps.contains(&(r, e as u32));
            }
            let mut p: Vec<u32> = (0..n as u32).collect();
            p.swap(r as usize, e);
            preserves(&p)
        });
        match twin {
            Some(r) => class_of[e] = class_of[r as usize],
            None => members.push(e as u32),
        }
    }
    let mut classes: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    for (e, &class) in class_of.iter().enumerate() {
        classes.entry(class).or_default().push(e as u32);
    }
    let blocks: Vec<Vec<u32>> = classes.into_values().collect();
    let block_of = {
        let mut b = vec![0usize; n];
        for (i, members) in blocks.iter().enumerate() {
            for &e in members {
                b[e as usize] = i;
            }
        }
        b
    };
    // The group on the blocks, each element lifted to the permutation that keeps each
    // block's order.
    let on_blocks: Vec<Perm> = (generators.iter())
        .map(|g| {
            (blocks.iter())
                .map(|members| block_of[g[members[0] as usize] as usize] as u32)
                .collect()
        })
        .collect();
    let quotient = closure(blocks.len(), &on_blocks, MAX_MAPS + 1);
    let mut maps = Vec::new();
    for q in &quotient[1..] {
        let mut p = vec![0u32; n];
        for (b, members) in blocks.iter().enumerate() {
            for (x, &e) in members.iter().zip(&blocks[q[b] as usize]) {
                p[*x as usize] = e;
            }
        }
        if preserves(&p) {
            maps.push(p);
        }
    }
    let twins: Vec<Vec<u32>> = blocks.iter().filter(|b| b.len() > 1).cloned().collect();
    let factorial = |k: usize| (1..=k as u128).fold(1u128, |a, b| a.saturating_mul(b));
    // The group's order (a bound, past which it is not counted on).
    let group_order = match quotient.len() > MAX_MAPS {
        false => quotient.len() as u128,
        true => closure(blocks.len(), &on_blocks, ORDER_COUNTED).len() as u128,
    };
    // Elements that no value holds are twins of each other, but no position the rules
    // reach holds them: the order counts the others' permutations.
    let mut used = vec![false; n];
    for v in values {
        mark_elements(v, &mut used);
    }
    let order = (twins.iter())
        .filter(|t| used[t[0] as usize])
        .fold(group_order, |o, t| o.saturating_mul(factorial(t.len())));
    ContextGroup { twins, maps, order }
}

/// Marks the elements `v` holds.
fn mark_elements(v: &SVal, used: &mut [bool]) {
    match v {
        SVal::Elem(e) => used[*e as usize] = true,
        SVal::Fixed(_) => {}
        SVal::Set(xs) | SVal::Tuple(xs) => xs.iter().for_each(|x| mark_elements(x, used)),
        SVal::Bag(xs) => xs.iter().for_each(|(x, _)| mark_elements(x, used)),
    }
}

/// How many elements `p` moves.
fn moved(p: &[u32]) -> usize {
    (p.iter().enumerate())
        .filter(|&(x, &y)| x as u32 != y)
        .count()
}

/// The elements of the group `generators` generate on `0..n`, the identity first: all of
/// them, or the first `limit` found.
fn closure(n: usize, generators: &[Perm], limit: usize) -> Vec<Perm> {
    let identity: Perm = (0..n as u32).collect();
    let mut elements = vec![identity.clone()];
    let mut seen = std::collections::HashSet::from([identity]);
    let mut next = 0;
    while next < elements.len() && elements.len() < limit {
        let e = elements[next].clone();
        next += 1;
        for g in generators {
            let composed: Perm = e.iter().map(|&x| g[x as usize]).collect();
            if elements.len() < limit && seen.insert(composed.clone()) {
                elements.push(composed);
            }
        }
    }
    elements
}

/// Each element's orbit (its least member) under `generators`.
fn orbits(n: usize, generators: &[Perm]) -> Vec<usize> {
    let mut orbit: Vec<usize> = (0..n).collect();
    fn root(orbit: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while orbit[r] != r {
            r = orbit[r];
        }
        orbit[x] = r;
        r
    }
    for g in generators {
        for (x, &gx) in g.iter().enumerate() {
            let (a, b) = (root(&mut orbit, x), root(&mut orbit, gx as usize));
            if a != b {
                orbit[a.max(b)] = a.min(b);
            }
        }
    }
    (0..n).map(|x| root(&mut orbit, x)).collect()
}

/// The structure as a coloured graph: vertices `0..n` are the elements; each other value
/// (a fixed value, a set, a tuple, a relation) is one vertex, coloured by its kind (a fixed
/// value by itself) and joined to what it holds; each top-level value hangs from a vertex
/// of its own colour.
fn encode(n: usize, values: &[SVal]) -> Graph {
    let mut g = Graph::new();
    for _ in 0..n {
        g.vertex(0);
    }
    let mut made: HashMap<SVal, u32> = HashMap::default();
    let mut fixed: BTreeMap<Val, u64> = BTreeMap::new();
    fn vertex(
        g: &mut Graph,
        v: &SVal,
        made: &mut HashMap<SVal, u32>,
        fixed: &mut BTreeMap<Val, u64>,
    ) -> u32 {
        if let SVal::Elem(e) = v {
            return *e;
        }
        if let Some(&x) = made.get(v) {
            return x;
        }
        let x = match v {
            SVal::Elem(_) => unreachable!("elements are vertices 0..n"),
            SVal::Fixed(val) => {
                let next = fixed.len() as u64;
                let c = *fixed.entry(val.clone()).or_insert(next);
                g.vertex(1 << 40 | c)
            }
            SVal::Set(xs) => {
                let x = g.vertex(1);
                for item in xs {
                    let y = vertex(g, item, made, fixed);
                    g.edge(x, y, 1);
                }
                x
            }
            SVal::Tuple(xs) => {
                let x = g.vertex(2 | (xs.len() as u64) << 8);
                for (i, item) in xs.iter().enumerate() {
                    let y = vertex(g, item, made, fixed);
                    g.edge(x, y, 100 + i as u64);
                }
                x
            }
            SVal::Bag(items) => {
                let x = g.vertex(3);
                for (item, count) in items {
                    let y = vertex(g, item, made, fixed);
                    g.edge(x, y, 1 << 32 | u64::from(*count));
                }
                x
            }
        };
        made.insert(v.clone(), x);
        x
    }
    for (i, v) in values.iter().enumerate() {
        let top = g.vertex(2 << 40 | i as u64);
        let x = vertex(&mut g, v, &mut made, &mut fixed);
        g.edge(top, x, 2);
    }
    g
}

/// A declared map as permutations of the elements: for each context, the context of the
/// image and the permutation; `None` where the map is not element by element (or not a
/// permutation in some context).
fn declared_map(
    program: &Program,
    interp: &Interpreter,
    gid: usize,
    structure: &Structure,
    result: &IExpr,
) -> Option<(Vec<usize>, Vec<Vec<u32>>)> {
    let game = &program.games[gid];
    let IExprKind::Pos { game: g, args, .. } = result.kind() else {
        return None;
    };
    if *g != gid {
        return None;
    }
    let n = structure.elements.len();
    let frame = game.locals.len();
    let (mut to, mut perms) = (Vec::new(), Vec::new());
    for c in 0..structure.context.count() {
        let mut env = vec![Val::Int(0); frame];
        let choice = structure.context.choice(c);
        for ((f, _), v) in structure.context.iter().zip(&choice) {
            env[*f] = v.clone();
        }
        let mut image = choice.clone();
        let mut perm: Option<Vec<u32>> = None;
        for (i, arg) in args.iter().enumerate() {
            if let Some(k) = structure.context.iter().position(|(f, _)| *f == i) {
                image[k] = interp.eval(arg, &mut env).ok()?;
                continue;
            }
            let p: Vec<u32> = match arg.kind() {
                IExprKind::Var(v) if v.slot == VarId::new(i) => (0..n as u32).collect(),
                IExprKind::Compr { elem, clauses } => {
                    let [IClause::Bind(vars, field)] = clauses.as_slice() else {
                        return None;
                    };
                    let field = field.as_var()?;
                    if field.slot != VarId::new(i) {
                        return None;
                    }
                    let mut p = Vec::with_capacity(n);
                    for e in &structure.elements {
                        crate::interp::bind(vars, e.clone(), &mut env).ok()?;
                        let v = interp.eval(elem, &mut env).ok()?.normalize();
                        p.push(structure.rank_of(&v)?);
                    }
                    p
                }
                _ => return None,
            };
            match &perm {
                None => perm = Some(p),
                Some(q) if *q == p => {}
                Some(_) => return None,
            }
        }
        let p = perm.unwrap_or_else(|| (0..n as u32).collect());
        let mut hit = vec![false; n];
        for &x in &p {
            if std::mem::replace(&mut hit[x as usize], true) {
                return None;
            }
        }
        to.push(structure.context.rank_of(&image)?);
        perms.push(p);
    }
    Some((to, perms))
}

/// What the pass found and proved, a line per game with symmetries: `Dots: 8 symmetries
/// (found)`, `Cram: 2 declared symmetries (proven)`, or the declared maps the solver checks.
pub fn describe(program: &Program) -> Vec<String> {
    let mut out = Vec::new();
    for game in &program.games {
        if let Some(found) = &game.found {
            let order = found.order();
            let size = match found.groups.iter().all(|g| g.order == order) {
                true => format!("{order}"),
                false => format!("up to {order}"),
            };
            let note = match found.context.is_empty() {
                true => String::new(),
                false => ", by context".to_string(),
            };
            out.push(match (found.to_corner, order) {
                (true, 1) => format!("{}: translations (found)", game.name),
                (true, _) => format!(
                    "{}: {size} symmetries and translations (found{note})",
                    game.name
                ),
                (false, _) => format!("{}: {size} symmetries (found{note})", game.name),
            });
        }
        if !game.symmetries.is_empty() {
            let unproven: Vec<&str> = (game.symmetries.iter())
                .filter(|s| !s.proven)
                .map(|s| s.name.as_str())
                .collect();
            let n = game.symmetries.len();
            let declared = match n {
                1 => "1 declared symmetry".to_string(),
                _ => format!("{n} declared symmetries"),
            };
            out.push(match unproven.as_slice() {
                [] => format!("{}: {declared} (proven)", game.name),
                names => {
                    format!(
                    "{}: {declared}, not proven: {} (checked at each position the solver expands)",
                    game.name,
                    names.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
                )
                }
            });
        }
    }
    out
}
