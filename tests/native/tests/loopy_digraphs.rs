//! Loopy games in both back ends: random digraphs (`loopy_digraphs.rs`, compiled by build.rs) as
//! games, each position's generalized Grundy value, outcome and remoteness, and the values
//! of sums of two graphs' positions; partizan digraphs' outcomes and their sums';
//! natively, interpreted, in fast and exact mode, against
//! the definitions computed here by brute force: the labelling one vertex at a time, the
//! outcomes as a fixpoint (of a partizan game, over the player to move too), remoteness
//! level by level, and the sums' values from the sum's own product graph (no sum rule).

#[path = "../loopy_digraphs.rs"]
mod graphs;

use cgdl_compiler::interp::Interpreter;
use cgdl_native_tests::loopy_digraphs as native;
use cgdl_runtime::report::{run_plan, Answer, Plan};
use cgdl_runtime::{Mode, Rules, Solver};
use serde_json::{json, Value as Json};

/// A generalized Grundy value: `Ok(n)`, or `Err(K)` for `∞(K)`.
type Gsg = Result<u32, Vec<u32>>;

/// Smith's labelling, by its definition: at stage m, label m any unlabelled vertex none of
/// whose followers is labelled m and each of whose unlabelled or ∞ followers has a follower
/// labelled m, one at a time until none qualifies; then ∞ every unlabelled vertex with no
/// follower labelled m.
fn gsg_by_definition(succ: &[Vec<u32>]) -> Vec<Gsg> {
    let n = succ.len();
    // None: unlabelled; Some(None): ∞; Some(Some(m)): m.
    let mut label: Vec<Option<Option<u32>>> = vec![None; n];
    let has = |label: &[Option<Option<u32>>], u: usize, m: u32| {
        succ[u].iter().any(|&w| label[w as usize] == Some(Some(m)))
    };
    let mut m = 0;
    while label.iter().any(Option::is_none) {
        while let Some(u) = (0..n).find(|&u| {
            label[u].is_none()
                && !has(&label, u, m)
                && succ[u].iter().all(|&w| match label[w as usize] {
                    None | Some(None) => has(&label, w as usize, m),
                    Some(Some(_)) => true,
                })
        }) {
            label[u] = Some(Some(m));
        }
        for u in 0..n {
            if label[u].is_none() && !has(&label, u, m) {
                label[u] = Some(None);
            }
        }
        m += 1;
    }
    (0..n)
        .map(|u| match label[u] {
            Some(Some(v)) => Ok(v),
            _ => {
                let mut k: Vec<u32> = succ[u]
                    .iter()
                    .filter_map(|&w| label[w as usize].flatten())
                    .collect();
                k.sort_unstable();
                k.dedup();
                Err(k)
            }
        })
        .collect()
}

/// Outcomes and remoteness level by level: at level r, a vertex not yet decided is P when
/// every follower is N (remoteness below r, the greatest r - 1; no followers at r = 0),
/// and N when some follower is P at remoteness r - 1. The rest are draws.
fn outcomes_by_levels(succ: &[Vec<u32>]) -> Vec<(&'static str, Option<u32>)> {
    let mut out: Vec<(&str, Option<u32>)> = vec![("D", None); succ.len()];
    for r in 0..=2 * succ.len() as u32 + 1 {
        let before = out.clone();
        for (u, followers) in succ.iter().enumerate() {
            if before[u].1.is_some() {
                continue;
            }
            let all_n_below = followers
                .iter()
                .all(|&w| before[w as usize].0 == "N" && before[w as usize].1 < Some(r));
            let greatest = followers.iter().filter_map(|&w| before[w as usize].1).max();
            if all_n_below
                && (r == 0 || greatest == Some(r - 1))
                && (r == 0) == followers.is_empty()
            {
                out[u] = ("P", Some(r));
            } else if r > 0
                && followers
                    .iter()
                    .any(|&w| before[w as usize] == ("P", Some(r - 1)))
            {
                out[u] = ("N", Some(r));
            }
        }
    }
    out
}

/// A partizan position's outcome as printed (`L`, `R`, `N`, `P`, `D`, or `X/Y`: who wins
/// with Left moving first, and with Right), by a fixpoint over (vertex, player to move): a
/// player wins with a move to a state the other loses, and loses where every move (or no
/// move) leads to a state the other wins; what never settles is a draw.
fn partizan_outcomes(left: &[Vec<u32>], right: &[Vec<u32>]) -> Vec<String> {
    let n = left.len();
    let mut wins: Vec<[Option<bool>; 2]> = vec![[None, None]; n];
    loop {
        let before = wins.clone();
        for v in 0..n {
            for (side, moves) in [&left[v], &right[v]].into_iter().enumerate() {
                let next = |w: &u32| before[*w as usize][1 - side];
                if before[v][side].is_none() {
                    if moves.iter().any(|w| next(w) == Some(false)) {
                        wins[v][side] = Some(true);
                    } else if moves.iter().all(|w| next(w) == Some(true)) {
                        wins[v][side] = Some(false);
                    }
                }
            }
        }
        if wins == before {
            break;
        }
    }
    let who = |w: Option<bool>, mover: &'static str, other: &'static str| match w {
        Some(true) => mover,
        Some(false) => other,
        None => "D",
    };
    wins.iter()
        .map(|w| match (who(w[0], "L", "R"), who(w[1], "R", "L")) {
            ("L", "R") => "N".to_string(),
            ("R", "L") => "P".to_string(),
            (a, b) if a == b => a.to_string(),
            (a, b) => format!("{a}/{b}"),
        })
        .collect()
}

fn gsg_json(g: &Gsg) -> Json {
    match g {
        Ok(n) => json!(n),
        Err(k) => json!({ "infinite": k }),
    }
}

fn outcome_of(g: &Gsg) -> &'static str {
    match g {
        Ok(0) => "P",
        Ok(_) => "N",
        Err(k) if k.contains(&0) => "N",
        Err(_) => "D",
    }
}

/// The sum of two graphs: a move in either part; vertex (u, v) is `u * |b| + v`.
fn sum_graph(a: &[Vec<u32>], b: &[Vec<u32>]) -> Vec<Vec<u32>> {
    let nb = b.len() as u32;
    let mut succ = Vec::new();
    for u in 0..a.len() as u32 {
        for v in 0..nb {
            let mut s: Vec<u32> = a[u as usize].iter().map(|&w| w * nb + v).collect();
            s.extend(b[v as usize].iter().map(|&w| u * nb + w));
            succ.push(s);
        }
    }
    succ
}

/// What the queries must answer: per graph, its table's rows, then the sum's two grids.
fn expected() -> Vec<Json> {
    let mut out = Vec::new();
    for i in 0..graphs::GRAPHS {
        let g = graphs::graph(i);
        let values = gsg_by_definition(&g);
        let levels = outcomes_by_levels(&g);
        let rows: Vec<Json> = (0..g.len())
            .map(|v| {
                let remoteness = match levels[v].1 {
                    Some(r) => json!(r),
                    None => json!("D"),
                };
                assert_eq!(outcome_of(&values[v]), levels[v].0, "graph {i}, vertex {v}");
                json!([v.to_string(), gsg_json(&values[v]), levels[v].0, remoteness])
            })
            .collect();
        out.push(json!(rows));
        let h = graphs::graph((i + 1) % graphs::GRAPHS);
        let sum = gsg_by_definition(&sum_graph(&g, &h));
        let grid = |f: &dyn Fn(&Gsg) -> Json| -> Json {
            (0..g.len())
                .map(|a| (0..h.len()).map(|b| f(&sum[a * h.len() + b])).collect())
                .collect::<Vec<Vec<Json>>>()
                .into()
        };
        out.push(json!([
            ["grundy", grid(&gsg_json)],
            ["outcome", grid(&|x| json!(outcome_of(x)))]
        ]));
    }
    for i in 0..graphs::GRAPHS {
        let (left, right) = graphs::partizan(i);
        let outcomes = partizan_outcomes(&left, &right);
        let rows: Vec<Json> = (0..left.len())
            .map(|v| json!([v.to_string(), outcomes[v]]))
            .collect();
        out.push(json!(rows));
        let n = left.len();
        let sum = partizan_outcomes(&sum_graph(&left, &left), &sum_graph(&right, &right));
        let cells: Vec<Vec<Json>> = (0..n)
            .map(|a| (0..n).map(|b| json!(sum[a * n + b])).collect())
            .collect();
        out.push(json!([["outcome", cells]]));
    }
    out
}

/// The part of an answer that `expected` gives.
fn answered(answer: Answer) -> Json {
    match answer {
        Answer::Table { rows, .. } => json!(rows),
        Answer::Grid { grids, .. } => json!(grids),
        other => panic!("a table or a grid, not {other:?}"),
    }
}

fn solve_all<'a, R: Rules>(
    rules: &'a R,
    plans: impl Iterator<Item = Plan<'a, R::Pos>>,
    mode: Mode,
) -> Vec<Json> {
    plans
        .map(|plan| {
            let mut solver = Solver::with_mode(rules, mode);
            answered(run_plan(&mut solver, plan).expect("a loopy game's values"))
        })
        .collect()
}

#[test]
fn loopy_digraphs_and_their_sums_in_both_back_ends() {
    assert_eq!(graphs::source(), native::SOURCE);
    let want = expected();
    assert_eq!(native::QUERIES.len(), want.len());
    let program = cgdl_compiler::compile_str(native::SOURCE).expect("the file checks");
    let interp = Interpreter::new(&program, native::SOURCE);
    for mode in [Mode::Fast, Mode::Exact] {
        let native_plans = (0..want.len()).map(|i| native::plan(i).expect("a plan"));
        let got = solve_all(&native::Universe, native_plans, mode);
        for (i, (got, want)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                got,
                want,
                "natively ({mode:?}), query {i}: {:?}",
                native::QUERIES[i]
            );
        }
        let interp_plans = program
            .queries
            .iter()
            .map(|q| cgdl_compiler::queries::plan(&interp, q).expect("a plan"));
        let got = solve_all(&interp, interp_plans, mode);
        for (i, (got, want)) in got.iter().zip(&want).enumerate() {
            assert_eq!(got, want, "interpreted ({mode:?}), query {i}");
        }
    }
    // The graphs have every kind of value: draws, ∞ with 0 in K, and finite values.
    let text = serde_json::to_string(&want).expect("JSON");
    for needle in [
        "\"D\"",
        "{\"infinite\":[]}",
        "{\"infinite\":[0",
        "\"P\"",
        "\"L/D\"",
        "\"D/R\"",
    ] {
        assert!(
            text.contains(needle),
            "no {needle} among the expected values"
        );
    }
}
