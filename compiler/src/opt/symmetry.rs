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
use super::elementwise::{field_images, FieldImage};
use super::structure::{SVal, Structure};
use crate::interp::{within_budget, EvalError, Interpreter};
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

/// A declared map proven a symmetry: for each context, the context of its image and its
/// permutation of the elements; and how it was proven (for `cgdl check`).
#[derive(Debug)]
struct Proof {
    to: Vec<usize>,
    perms: Vec<Vec<u32>>,
    how: String,
    /// The elements the permutations permute, by rank, and the contexts, by rank.
    elements: Vec<Val>,
    context: Vec<ContextField>,
}

impl Proof {
    /// Whether it keeps every context (a found group holds only such maps).
    fn keeps_contexts(&self) -> bool {
        self.to.iter().enumerate().all(|(c, &to)| to == c)
    }
}

/// A game's structure ([`Structure`]) and its values in every context.
struct Analysis {
    structure: Structure,
    values: Vec<Vec<SVal>>,
}

/// The structure of game `gid` of `program` and its values, or why there is none.
fn analysis(program: &Program, interp: &Interpreter, gid: usize) -> Result<Analysis, String> {
    let game = &program.games[gid];
    let structure = Structure::of(program, gid).map_err(|why| {
        if std::env::var_os("CGDL_DEBUG_SYMMETRY").is_some() {
            eprintln!("{}: no structure: {why}", game.name);
        }
        format!("the rules are not generic in the elements of the sets ({why})")
    })?;
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
    if spent {
        return Err("the rules' tables take too long to evaluate".into());
    }
    let values = values.map_err(|why| format!("a table of the rules fails ({why})"))?;
    Ok(Analysis { structure, values })
}

/// The symmetries of `a`'s structure, the permutations `extra` (proven declared maps that
/// keep every context) among the generators of each context's group; `None` where every
/// group is trivial. Where images are moved to the corner (`corner`), the groups keep only
/// motions of the board (see [`context_group`]).
fn find(a: &Analysis, extra: &[&Proof], corner: bool) -> Option<FoundSymmetries> {
    let n = a.structure.elements.len();
    let cells = corner.then_some(a.structure.elements.as_slice());
    let groups: Vec<ContextGroup> = (a.values.iter().enumerate())
        .map(|(c, v)| {
            let extra: Vec<Perm> = extra.iter().map(|p| p.perms[c].clone()).collect();
            context_group(n, v, &extra, cells)
        })
        .collect();
    groups.iter().any(|g| g.order > 1).then(|| FoundSymmetries {
        elements: a.structure.elements.clone(),
        context: a.structure.context.clone(),
        groups,
        to_corner: false,
        across: Vec::new(),
    })
}

/// Each declared map of game `gid` proven against `a`, as the maps of its branches (where
/// the game is proven the same wherever its position lies, `corner` gives its cells'
/// parts: an image moved to the corner is proven as the image before that move, which has
/// the same values), or why not.
fn prove_declared(
    program: &Program,
    interp: &Interpreter,
    gid: usize,
    a: &Analysis,
    corner: Option<usize>,
) -> Vec<Result<Vec<Proof>, String>> {
    let game = &program.games[gid];
    (game.symmetries.iter())
        .map(|s| {
            let branches = image_branches(program, game, corner, &s.result);
            let several = branches.len() > 1;
            let mut proofs = Vec::new();
            for (image, moved) in &branches {
                let (map, spent) = within_budget(BUDGET, || {
                    declared_map(program, interp, gid, &a.structure, image)
                });
                let (to, perms) = match (map, spent) {
                    (_, true) => return Err("its image takes too long to evaluate".to_string()),
                    (Err(why), _) => return Err(why),
                    (Ok(map), _) => map,
                };
                if !Structure::preserved(&a.values, &to, &perms) {
                    return Err(format!(
                        "{}its permutation of the elements does not keep the rules' tables \
                         (it may still be a symmetry: the solver checks it)",
                        if several {
                            "in a branch of its `if`, "
                        } else {
                            ""
                        }
                    ));
                }
                let how = match moved {
                    true => {
                        "a permutation of the cells that keeps the rules, then a move to \
                        the corner (the game has the same values wherever a position lies)"
                    }
                    false => "a permutation of the elements that keeps the rules",
                };
                let how = match several {
                    true => format!("each branch of its `if` {how}"),
                    false => how.to_string(),
                };
                proofs.push(Proof {
                    to,
                    perms,
                    how,
                    elements: a.structure.elements.clone(),
                    context: a.structure.context.clone(),
                });
            }
            Ok(proofs)
        })
        .collect()
}

/// The images a declared image `result` may be, each with whether a move to the corner
/// was dropped from it (`corner_stripped`, where `corner` gives the cells' parts): each
/// branch of an `if` (a map whose image is always one of several symmetries' is a
/// symmetry, whatever chooses among them), a `let` put in the places that read it, a
/// helper applied to the set field inlined (`G(mirror(s))`).
fn image_branches(
    program: &Program,
    game: &Game,
    corner: Option<usize>,
    result: &IExpr,
) -> Vec<(IExpr, bool)> {
    if let Some(stripped) = corner.and_then(|k| corner_stripped(program, game, k, result)) {
        return vec![(inline_helpers(program, game, &stripped), true)];
    }
    match result.kind() {
        IExprKind::If {
            then, otherwise, ..
        } => {
            let mut out = image_branches(program, game, corner, then);
            out.extend(image_branches(program, game, corner, otherwise));
            out
        }
        IExprKind::Let { var, value, body } => {
            let mut body = (**body).clone();
            body.rewrite_up(&mut |e| {
                if e.as_var().is_some_and(|v| v.slot == var.slot) {
                    *e = (**value).clone();
                }
            });
            image_branches(program, game, corner, &body)
        }
        _ => vec![(inline_helpers(program, game, result), false)],
    }
}

/// `result` (a position) with each argument that calls a helper of one parameter inlined:
/// the helper's body with its parameter replaced by the argument, its own names moved past
/// the game's.
fn inline_helpers(program: &Program, game: &Game, result: &IExpr) -> IExpr {
    let mut out = result.clone();
    if let IExprKind::Pos { args, .. } = out.kind_mut() {
        for arg in args.iter_mut() {
            if let IExprKind::Call {
                func, args: call, ..
            } = arg.kind()
            {
                let f = &program.fns[*func];
                if f.params.len() == 1 && call.len() == 1 {
                    *arg = super::structure::substitute(&f.body, call, game.locals.len());
                }
            }
        }
    }
    out
}

/// The declared image `result` (a position of `game`, a game of one set field of cells of
/// `k` parts) with its move to the corner dropped, where it moves its set to the corner:
/// `G(shift(s))`, or `let`s of the least row and column of a set named by a `let` and the
/// set moved by them. `None` where it does not.
fn corner_stripped(program: &Program, game: &Game, k: usize, result: &IExpr) -> Option<IExpr> {
    let frame = game.locals.len();
    // `let`s around the position are taken inside it, around its one field.
    let mut lets = Vec::new();
    let mut e = result;
    while let IExprKind::Let { var, value, body } = e.kind() {
        lets.push((var, value));
        e = body;
    }
    let IExprKind::Pos { game: g, args, .. } = e.kind() else {
        return None;
    };
    let [arg] = args.as_slice() else { return None };
    let mut inner = arg.clone();
    for (var, value) in lets.into_iter().rev() {
        inner = IExpr::from(IExprKind::Let {
            var: var.clone(),
            value: value.clone(),
            body: Box::new(inner),
        });
    }
    let set = super::translations::corner_argument(program, frame, k, &inner)?;
    let mut out = e.clone();
    if let IExprKind::Pos { args, .. } = out.kind_mut() {
        args[0] = set;
    }
    debug_assert!(matches!(out.kind(), IExprKind::Pos { game, .. } if game == g));
    Some(out)
}

/// Whether the map of the elements `perms` (to contexts `to`) commutes with `found`'s
/// symmetries: in each context it takes each map of the group to a map of its image
/// context's group, each twin class onto a twin class, and where images move to the
/// corner, it is a motion of the board (a mirror or turn, then a step), which takes a
/// translation to a translation. The found least image is then a function of the map's
/// orbits, so the solver's checks over it see what they would see alone.
fn normalizes(found: &FoundSymmetries, to: &[usize], perms: &[Vec<u32>]) -> bool {
    if found.across.iter().any(|a| !a.is_empty()) {
        return false;
    }
    if found.to_corner && !perms.iter().all(|p| board_motion(&found.elements, p)) {
        return false;
    }
    (0..found.groups.len()).all(|c| {
        let (sigma, target) = (&perms[c], &found.groups[to[c]]);
        let mut inverse = vec![0u32; sigma.len()];
        for (x, &y) in sigma.iter().enumerate() {
            inverse[y as usize] = x as u32;
        }
        let group = &found.groups[c];
        let maps_taken = group.maps.iter().all(|g| {
            let conjugate: Vec<u32> = (0..sigma.len())
                .map(|x| sigma[g[inverse[x] as usize] as usize])
                .collect();
            holds(target, &conjugate)
        });
        let twins_taken = group.twins.iter().all(|class| {
            let mut image: Vec<u32> = class.iter().map(|&x| sigma[x as usize]).collect();
            image.sort_unstable();
            target.twins.iter().any(|t| {
                let mut t = t.clone();
                t.sort_unstable();
                t == image
            })
        });
        maps_taken && twins_taken
    })
}

/// Whether `p`, a permutation of the cells `elements` (numbers, or pairs of numbers), is a
/// motion of the board: each cell `x` taken to `A x + b` for one signed permutation `A` of
/// the parts and one step `b`.
fn board_motion(elements: &[Val], p: &[u32]) -> bool {
    let point = |v: &Val| -> Option<Vec<i64>> {
        match v {
            Val::Int(i) => Some(vec![*i]),
            Val::Tuple(parts) => parts
                .iter()
                .map(|x| match x {
                    Val::Int(i) => Some(*i),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    };
    let Some(points) = elements.iter().map(point).collect::<Option<Vec<_>>>() else {
        return false;
    };
    let Some(first) = points.first() else {
        return true;
    };
    let k = first.len();
    // Each signed permutation of the parts: the part each image part reads, and its sign.
    let orders: Vec<Vec<usize>> = match k {
        1 => vec![vec![0]],
        2 => vec![vec![0, 1], vec![1, 0]],
        _ => return false,
    };
    (orders.iter()).any(|order| {
        (0..1usize << k).any(|signs| {
            let linear = |x: &[i64]| -> Vec<i64> {
                (0..k)
                    .map(|i| match signs >> i & 1 {
                        0 => x[order[i]],
                        _ => -x[order[i]],
                    })
                    .collect()
            };
            let image0 = &points[p[0] as usize];
            let step: Vec<i64> = (linear(first).iter().zip(image0))
                .map(|(a, b)| b - a)
                .collect();
            (points.iter().enumerate()).all(|(x, cell)| {
                let moved: Vec<i64> = (linear(cell).iter().zip(&step))
                    .map(|(a, b)| a + b)
                    .collect();
                points[p[x] as usize] == moved
            })
        })
    })
}

/// Whether `p` is in `group`: the identity or one of its maps, up to the order within
/// each twin class (a map keeps it).
fn holds(group: &ContextGroup, p: &[u32]) -> bool {
    let mut class: HashMap<u32, usize> = HashMap::default();
    for (i, members) in group.twins.iter().enumerate() {
        for &e in members {
            class.insert(e, i);
        }
    }
    let same = |m: &dyn Fn(usize) -> u32| {
        (0..p.len()).all(|e| match class.get(&(e as u32)) {
            None => p[e] == m(e),
            Some(_) => class.get(&p[e]) == class.get(&m(e)) && class.contains_key(&p[e]),
        })
    };
    same(&|e| e as u32) || group.maps.iter().any(|m| same(&|e| m[e]))
}

/// The proven declared maps `proofs` that `found`'s groups do not hold, by context: from
/// each context, a map to each other context the maps reach (composed from them, the first
/// found), and each map that keeps the context where its group does not hold it.
fn across(found: &FoundSymmetries, proofs: &[&Proof]) -> Vec<Vec<(usize, Vec<u32>)>> {
    let n = found.elements.len();
    (0..found.groups.len())
        .map(|c| {
            let mut reached: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
            reached.insert(c, (0..n as u32).collect());
            let mut queue = std::collections::VecDeque::from([c]);
            while let Some(d) = queue.pop_front() {
                let here = reached[&d].clone();
                for p in proofs {
                    let e = p.to[d];
                    if reached.contains_key(&e) {
                        continue;
                    }
                    let composed: Vec<u32> = here.iter().map(|&x| p.perms[d][x as usize]).collect();
                    reached.insert(e, composed);
                    queue.push_back(e);
                }
            }
            let mut out: Vec<(usize, Vec<u32>)> =
                reached.into_iter().filter(|(e, _)| *e != c).collect();
            for p in proofs {
                if p.to[c] == c && !holds(&found.groups[c], &p.perms[c]) {
                    out.push((c, p.perms[c].clone()));
                }
            }
            out
        })
        .collect()
}

/// Runs the pass on every game of `program`.
pub fn run(program: &mut Program, source: &str) {
    let outcomes: Vec<Outcome> = {
        let interp = Interpreter::new(program, source);
        (0..program.games.len())
            .map(|gid| game_symmetries(program, &interp, source, gid))
            .collect()
    };
    // Maps that permute the fields of a game without sets, proven from its moves.
    let permuted: Vec<Vec<Option<Result<String, String>>>> = (0..program.games.len())
        .map(|gid| {
            (program.games[gid].symmetries.iter())
                .map(|s| super::fields::prove(program, gid, s))
                .collect()
        })
        .collect();
    for ((game, o), permuted) in program.games.iter_mut().zip(outcomes).zip(permuted) {
        game.found = o.found;
        for ((s, proof), permuted) in game.symmetries.iter_mut().zip(&o.proofs).zip(permuted) {
            s.proven = proof.is_ok() || matches!(permuted, Some(Ok(_)));
            // A game without sets: the permutation of its fields says why, not the sets.
            s.note = match (proof.as_ref().map(|p| p.first()), permuted.as_ref()) {
                (Ok(Some(p)), _) => format!("proven: {}", p.how),
                (Ok(None), _) => "proven".to_string(),
                (Err(_), Some(Ok(how))) => format!("proven: {how}"),
                (Err(_), Some(Err(why))) | (Err(why), None) => format!("not proven: {why}"),
            };
        }
        let (held, kept): (Vec<_>, Vec<_>) = (game.symmetries.drain(..))
            .zip(&o.held)
            .partition(|(_, &held)| held);
        game.held_by_found = held.into_iter().map(|(s, _)| (s.name, s.note)).collect();
        game.symmetries = kept.into_iter().map(|(s, _)| s).collect();
    }
}

/// What the pass concludes for one game.
struct Outcome {
    found: Option<FoundSymmetries>,
    /// Each declared map's proof (the maps of its branches), or why it has none.
    proofs: Vec<Result<Vec<Proof>, String>>,
    /// Whether the found group holds each declared map (proven).
    held: Vec<bool>,
}

fn game_symmetries(program: &Program, interp: &Interpreter, source: &str, gid: usize) -> Outcome {
    let game = &program.games[gid];
    // A game proven the same wherever its position lies: its images are moved to the
    // corner (native code moves sets of cells of one or two parts).
    let translation = game.translation.as_ref().filter(|t| t.dims.len() <= 2);
    let corner = translation.map(|t| t.dims.len());
    let own = analysis(program, interp, gid);
    let mut proofs: Vec<Result<Vec<Proof>, String>> = match &own {
        Ok(a) => prove_declared(program, interp, gid, a, corner),
        Err(why) => game.symmetries.iter().map(|_| Err(why.clone())).collect(),
    };
    // The proofs made on the analysis whose group is the found one.
    let mut chosen = own.ok();
    let mut found = chosen.as_ref().and_then(|a| {
        let extra: Vec<&Proof> = (proofs.iter().flatten().flatten())
            .filter(|p| p.keeps_contexts())
            .collect();
        find(a, &extra, translation.is_some())
    });
    // Where the rules move sets to the corner, their symmetries are those of the rules
    // without those moves (which have the same values): a move to the corner hides them.
    if let Some(stripped) = translation.and_then(|t| t.stripped.as_ref()) {
        if found.is_none() || proofs.iter().any(|p| p.is_err()) {
            let mut plain = program.clone();
            plain.games[gid].kind = GameKind::Rules(stripped.clone());
            let plain_interp = Interpreter::new(&plain, source);
            if let Ok(a) = analysis(&plain, &plain_interp, gid) {
                let plain_proofs = prove_declared(&plain, &plain_interp, gid, &a, corner);
                if found.is_none() {
                    let extra: Vec<&Proof> = (plain_proofs.iter().flatten().flatten())
                        .filter(|p| p.keeps_contexts())
                        .collect();
                    found = find(&a, &extra, true);
                    // Proofs on the rules as written are kept where the plain ones fail,
                    // but only the plain ones are in the found group.
                    for (p, q) in proofs.iter_mut().zip(plain_proofs) {
                        if q.is_ok() || p.is_err() {
                            *p = q;
                        }
                    }
                    chosen = Some(a);
                } else {
                    for (p, q) in proofs.iter_mut().zip(plain_proofs) {
                        if p.is_err() && q.is_ok() {
                            *p = q;
                        }
                    }
                }
            }
        }
    }
    if let Some(translation) = translation {
        let found = found.get_or_insert_with(|| FoundSymmetries {
            elements: Vec::new(),
            context: Vec::new(),
            groups: vec![ContextGroup {
                twins: Vec::new(),
                maps: Vec::new(),
                order: 1,
            }],
            to_corner: false,
            across: Vec::new(),
        });
        if found.elements.is_empty() {
            found.elements = super::translations::cells(&translation.dims);
        }
        found.to_corner = true;
    }
    // Every declared map proven: the found symmetries take them in (a map the groups do
    // not hold, one to another context, is applied before them), and the solver keeps
    // positions under the found symmetries alone.
    // The found symmetries take in every proven declared map (a map the groups do not
    // hold, one to another context, is applied before them), where they were proven on
    // the elements and contexts of the found ones; the solver keeps positions under the
    // found symmetries, and checks the maps not proven on top of them. Otherwise a game
    // that declares maps keeps to them.
    let proven: Vec<&Proof> = proofs.iter().flatten().flatten().collect();
    let absorbable = proven.is_empty()
        || chosen.as_ref().is_some_and(|a| {
            (found.as_ref()).is_none_or(|f| {
                f.elements == a.structure.elements && f.context == a.structure.context
            }) && (proven.iter())
                .all(|p| p.elements == a.structure.elements && p.context == a.structure.context)
        });
    // The maps not proven are checked over the found symmetries' least images, where each
    // commutes with them (or cannot be told: its image is not element by element); a map
    // element by element that does not is checked alone, as a game without found
    // symmetries is (over found ones, its orbits would not be permuted, and a wrong map
    // could go unreported).
    let commutes = |found: &FoundSymmetries| {
        (game.symmetries.iter().zip(&proofs))
            .filter(|(_, p)| p.is_err())
            .all(|(s, _)| {
                let Some(a) = chosen.as_ref() else {
                    return true;
                };
                image_branches(program, game, corner, &s.result)
                    .iter()
                    .all(|(image, _)| {
                        let (map, spent) = within_budget(BUDGET, || {
                            declared_map(program, interp, gid, &a.structure, image)
                        });
                        match (map, spent) {
                            (_, true) => false,
                            (Err(_), false) => true,
                            (Ok((to, perms)), false) => {
                                a.structure.elements == found.elements
                                    && a.structure.context == found.context
                                    && normalizes(found, &to, &perms)
                            }
                        }
                    })
            })
    };
    let absorbable = absorbable && found.as_ref().is_none_or(commutes);
    let held: Vec<bool> = match absorbable {
        true => proofs.iter().map(|p| p.is_ok()).collect(),
        false => vec![false; proofs.len()],
    };
    if !absorbable {
        found = None;
    } else if let Some(a) = chosen.as_ref().filter(|_| !proven.is_empty()) {
        let f = found.get_or_insert_with(|| FoundSymmetries {
            elements: a.structure.elements.clone(),
            context: a.structure.context.clone(),
            groups: (0..a.values.len())
                .map(|_| ContextGroup {
                    twins: Vec::new(),
                    maps: Vec::new(),
                    order: 1,
                })
                .collect(),
            to_corner: false,
            across: Vec::new(),
        });
        f.across = across(f, &proven);
    }
    Outcome {
        found,
        proofs,
        held,
    }
}

/// The group of one context's structure `values` over `n` elements. Where the elements are
/// `cells` whose images are moved to the corner, it keeps only motions of the board
/// ([`board_motion`]) and no twins: only such a map moves a translated position to a
/// translation of its image, so that a least image moved to the corner is its own least
/// image (a swap of two rows is not).
fn context_group(n: usize, values: &[SVal], extra: &[Perm], cells: Option<&[Val]>) -> ContextGroup {
    let graph = encode(n, values);
    let (found, complete) = graph.automorphisms();
    // Proven declared maps first, so that a group too large to list keeps them.
    let generators = extra.iter().cloned().chain(found);
    // Each generator as a permutation of the elements, kept only where it maps every
    // value of the structure onto itself.
    let preserves = |p: &[u32]| values.iter().all(|v| &v.permuted(p) == v);
    let generators: Vec<Perm> = generators
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
    // Each permutation of the blocks as one of the elements, each block's order kept.
    let lift = |q: &Perm| -> Perm {
        let mut p = vec![0u32; n];
        for (b, members) in blocks.iter().enumerate() {
            for (x, &e) in members.iter().zip(&blocks[q[b] as usize]) {
                p[*x as usize] = e;
            }
        }
        p
    };
    // The group on the blocks: all of it, or its first elements (the generators first).
    let elements = closure(blocks.len(), &on_blocks, ORDER_COUNTED);
    let quotient = subgroup(&elements, MAX_MAPS + 1, &|q| {
        let p = lift(q);
        preserves(&p) && cells.is_none_or(|cells| board_motion(cells, &p))
    });
    let maps: Vec<Perm> = quotient[1..].iter().map(lift).collect();
    let twins: Vec<Vec<u32>> = blocks.iter().filter(|b| b.len() > 1).cloned().collect();
    let factorial = |k: usize| (1..=k as u128).fold(1u128, |a, b| a.saturating_mul(b));
    // The group's order (a bound, past which it is not counted on).
    let group_order = elements.len() as u128;
    // Elements that no value holds are twins of each other, but no position the rules
    // reach holds them: the order counts the others' permutations.
    let mut used = vec![false; n];
    for v in values {
        mark_elements(v, &mut used);
    }
    let order = (twins.iter())
        .filter(|t| used[t[0] as usize])
        .fold(group_order, |o, t| o.saturating_mul(factorial(t.len())));
    let twins = match cells {
        Some(_) => Vec::new(),
        None => twins,
    };
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

/// How many of a large group's first elements [`subgroup`] tries.
const SUBGROUP_CANDIDATES: usize = 1024;

/// A subgroup of at most `limit` elements, the identity first, of a group whose first
/// elements (the identity first, then the generators) are `elements`, each of its own
/// elements one that `keeps`: the whole group where it is that small, else one grown from
/// the first [`SUBGROUP_CANDIDATES`] of `elements`, each taken where the subgroup it makes with those taken before is small
/// enough.
///
/// The solver's least image is the least over these maps (with twins made least), and
/// only the least over a group is the same for every position of an orbit: over any other
/// set of maps, the least image of a least image can be less again, and a value kept
/// under one is looked up under the other.
fn subgroup(elements: &[Perm], limit: usize, keeps: &dyn Fn(&Perm) -> bool) -> Vec<Perm> {
    if elements.len() <= limit && elements.iter().all(keeps) {
        return elements.to_vec();
    }
    let n = elements[0].len();
    let (mut taken, mut group) = (Vec::new(), vec![elements[0].clone()]);
    for g in elements.iter().take(SUBGROUP_CANDIDATES).skip(1) {
        // A larger subgroup holds this one at least twice over.
        if group.len() * 2 > limit {
            break;
        }
        if group.contains(g) {
            continue;
        }
        taken.push(g.clone());
        let grown = closure(n, &taken, limit + 1);
        match grown.len() <= limit && grown.iter().all(keeps) {
            true => group = grown,
            false => {
                taken.pop();
            }
        }
    }
    group
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
/// image and the permutation; or why the map is not one (not element by element, or not
/// a permutation in some context).
fn declared_map(
    program: &Program,
    interp: &Interpreter,
    gid: usize,
    structure: &Structure,
    result: &IExpr,
) -> Result<(Vec<usize>, Vec<Vec<u32>>), String> {
    let game = &program.games[gid];
    let not_elementwise = || {
        "its image is not built element by element (`{ f(x) for x in s }` of each set \
         field, the other fields from fields of few values)"
            .to_string()
    };
    let in_context = |v: VarId| structure.context.iter().any(|(f, _)| v == VarId::new(*f));
    let fields = field_images(gid, result, &in_context).ok_or_else(not_elementwise)?;
    let n = structure.elements.len();
    // Names of inlined helpers lie past the game's.
    let mut frame = game.locals.len();
    result.for_each_var(&mut |v| frame = frame.max(v.slot.index() + 1));
    let (mut to, mut perms) = (Vec::new(), Vec::new());
    for c in 0..structure.context.count() {
        let mut env = vec![Val::Int(0); frame];
        let choice = structure.context.choice(c);
        for ((f, _), v) in structure.context.iter().zip(&choice) {
            env[*f] = v.clone();
        }
        let mut image = choice.clone();
        let mut perm: Option<Vec<u32>> = None;
        let fails = |e: EvalError| {
            format!(
                "its image fails where {}: {}",
                context_text(game, &structure.context, &choice),
                e.message
            )
        };
        for (i, (arg, field)) in fields.iter().enumerate() {
            if let Some(k) = structure.context.iter().position(|(f, _)| *f == i) {
                image[k] = interp.eval(arg, &mut env).map_err(fails)?;
                continue;
            }
            let p: Vec<u32> = match field {
                FieldImage::Kept => (0..n as u32).collect(),
                FieldImage::Elements {
                    elem,
                    vars,
                    filters,
                } => {
                    let mut p = Vec::with_capacity(n);
                    for e in &structure.elements {
                        crate::interp::bind(vars, e.clone(), &mut env).map_err(fails)?;
                        // A filter that every element passes leaves every set whole.
                        for filter in filters {
                            match interp.eval(filter, &mut env).map_err(fails)? {
                                Val::Bool(true) => {}
                                _ => {
                                    return Err(format!(
                                        "its filter leaves out {e}, so it is no permutation \
                                         of the elements"
                                    ))
                                }
                            }
                        }
                        let v = interp.eval(elem, &mut env).map_err(fails)?.normalize();
                        let Some(rank) = structure.rank_of(&v) else {
                            return Err(format!(
                                "it maps {e} to {v}, which no set of the field holds"
                            ));
                        };
                        p.push(rank);
                    }
                    p
                }
                FieldImage::Other => return Err(not_elementwise()),
            };
            match &perm {
                None => perm = Some(p),
                Some(q) if *q == p => {}
                Some(_) => return Err("it maps the elements of two set fields differently".into()),
            }
        }
        let p = perm.unwrap_or_else(|| (0..n as u32).collect());
        let mut hit = vec![false; n];
        for (x, &y) in p.iter().enumerate() {
            if std::mem::replace(&mut hit[y as usize], true) {
                let first = p.iter().position(|&z| z == y).unwrap_or(x);
                return Err(format!(
                    "it maps {} and {} to the same element",
                    structure.elements[first], structure.elements[x]
                ));
            }
        }
        let Some(rank) = structure.context.rank_of(&image) else {
            return Err("its image's fields of few values leave their types".into());
        };
        to.push(rank);
        perms.push(p);
    }
    Ok((to, perms))
}

/// The context `choice` of `game`'s fields, as `rows = 3, cols = 4` (or `always` for none).
fn context_text(game: &Game, context: &[ContextField], choice: &[Val]) -> String {
    if context.is_empty() {
        return "it is applied".into();
    }
    (context.iter().zip(choice))
        .map(|((f, _), v)| format!("{} = {v}", game.fields[*f].name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the pass found and proved, a line per game with symmetries: `Dots: 8 symmetries
/// (found)`, `Cram: 2 declared symmetries (proven)`, or the declared maps the solver checks.
pub fn describe(program: &Program) -> Vec<String> {
    let mut out = Vec::new();
    for game in &program.games {
        let name = program.label(game);
        if let Some(found) = &game.found {
            let order = found.order();
            // The order saturates (40 twins alone are 40! > 2¹²⁸ permutations).
            let count = match order {
                u128::MAX => "more than 10^38".to_string(),
                _ => order.to_string(),
            };
            let size = match found.groups.iter().all(|g| g.order == order) {
                true => count,
                false => format!("up to {count}"),
            };
            let note = match found.context.is_empty() {
                true => String::new(),
                false => ", by context".to_string(),
            };
            out.push(match (found.to_corner, order) {
                (true, 1) => format!("{}: translations (found)", name),
                (true, _) => format!("{}: {size} symmetries and translations (found{note})", name),
                (false, _) => format!("{}: {size} symmetries (found{note})", name),
            });
        }
        let declared = |n: usize| match n {
            1 => "1 declared symmetry".to_string(),
            _ => format!("{n} declared symmetries"),
        };
        if !game.held_by_found.is_empty() {
            out.push(format!(
                "{}: {} (proven, among the found ones)",
                name,
                declared(game.held_by_found.len())
            ));
            for (name, note) in &game.held_by_found {
                out.push(format!("  `{name}`: {note}"));
            }
        }
        if !game.symmetries.is_empty() {
            let unproven: Vec<&str> = (game.symmetries.iter())
                .filter(|s| !s.proven)
                .map(|s| s.name.as_str())
                .collect();
            let n = game.symmetries.len();
            out.push(match unproven.as_slice() {
                [] => format!("{}: {} (proven)", name, declared(n)),
                names => format!(
                    "{}: {}, not proven: {} (checked as the solver runs)",
                    name,
                    declared(n),
                    names
                        .iter()
                        .map(|s| format!("`{s}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
            for s in &game.symmetries {
                let note = match s.proven {
                    true => s.note.clone(),
                    false => format!("checked; {}", s.note),
                };
                out.push(format!("  `{}`: {note}", s.name));
            }
        }
    }
    out
}
