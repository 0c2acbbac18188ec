//! Loopy games in both back ends: random digraphs (`loopy_digraphs.rs`, compiled by build.rs) as
//! games, each position's generalized Grundy value, outcome and remoteness, and the values
//! of sums of two graphs' positions; partizan digraphs' outcomes and their sums';
//! natively, interpreted, in fast and exact mode, against
//! the definitions computed here by brute force: the labelling one vertex at a time, the
//! outcomes as a fixpoint (of a partizan game, over the player to move too), remoteness
//! level by level, and the sums' values from the sum's own product graph (no sum rule).
//! The same brute force checks the runtime's graph labellings on random digraphs.

#[path = "../loopy_digraphs.rs"]
mod graphs;

use cgdl_compiler::interp::Interpreter;
use cgdl_native_tests::loopy_digraphs as native;
use cgdl_runtime::loopy;
use cgdl_runtime::report::{run_plan, Answer, Plan};
use cgdl_runtime::{Mode, Outcome, Rules, Solver};
use proptest::prelude::*;
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

/// The runtime's value as the brute force writes it.
fn written(g: &loopy::Gsg) -> Gsg {
    match g {
        loopy::Gsg::Finite(n) => Ok(*n),
        loopy::Gsg::Infinite(k) => Err(k.clone()),
    }
}

/// A digraph of at most `max` vertices, each with up to three followers.
fn digraph(max: usize) -> impl Strategy<Value = Vec<Vec<u32>>> {
    (1..=max).prop_flat_map(|n| {
        proptest::collection::vec(proptest::collection::vec(0..n as u32, 0..4), n)
    })
}

// The runtime's graph labellings (`cgdl_runtime::loopy`) against the same brute force, on
// many small random digraphs.
proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn labelling_matches_the_definition(succ in digraph(9)) {
        let got: Vec<Gsg> = loopy::gsg(&succ).iter().map(written).collect();
        prop_assert_eq!(got, gsg_by_definition(&succ));
    }

    #[test]
    fn outcomes_and_remoteness_agree_with_the_levels(succ in digraph(9)) {
        let levels = outcomes_by_levels(&succ);
        let by_values: Vec<String> =
            loopy::gsg(&succ).iter().map(|g| g.outcome().to_string()).collect();
        let by_retrograde: Vec<(String, Option<u32>)> = loopy::retrograde(&succ)
            .into_iter()
            .map(|(o, r)| (o.to_string(), r))
            .collect();
        let want: Vec<(String, Option<u32>)> =
            levels.iter().map(|&(o, r)| (o.to_string(), r)).collect();
        let outcomes: Vec<String> = want.iter().map(|w| w.0.clone()).collect();
        prop_assert_eq!(by_values, outcomes);
        prop_assert_eq!(by_retrograde, want);
    }

    #[test]
    fn sums_follow_smiths_rule(a in digraph(5), b in digraph(5)) {
        let (ga, gb) = (loopy::gsg(&a), loopy::gsg(&b));
        let sum = gsg_by_definition(&sum_graph(&a, &b));
        for u in 0..a.len() {
            for v in 0..b.len() {
                prop_assert_eq!(written(&ga[u].add(&gb[v])), sum[u * b.len() + v].clone());
            }
        }
    }

    #[test]
    fn partizan_outcomes_follow_their_definition(left in digraph(8), seed in any::<u64>()) {
        let n = left.len() as u64;
        let mut x = seed | 1;
        let right: Vec<Vec<u32>> = (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (0..x % 3).map(|i| ((x >> (8 * i + 8)) % n) as u32).collect()
            })
            .collect();
        let got: Vec<String> = loopy::partizan_retrograde(&left, &right)
            .into_iter()
            .map(|(a, b)| Outcome::of_winners(a, b).to_string())
            .collect();
        prop_assert_eq!(got, partizan_outcomes(&left, &right));
        // Where both players have the same moves, the outcome is the impartial one.
        let same = partizan_outcomes(&left, &left);
        let impartial: Vec<String> =
            outcomes_by_levels(&left).iter().map(|o| o.0.to_string()).collect();
        prop_assert_eq!(same, impartial);
    }

    #[test]
    fn remoteness_is_smiths_recursion_where_the_graph_ends(n in 1usize..9, seed in any::<u64>()) {
        // Edges only to smaller vertices: a game that ends, whose remoteness is Smith's
        // recursion (the least even option's plus one, else the greatest odd one's).
        let mut x = seed | 1;
        let succ: Vec<Vec<u32>> = (0..n as u32)
            .map(|v| {
                (0..v)
                    .filter(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        x % 3 == 0
                    })
                    .collect()
            })
            .collect();
        let mut r: Vec<u32> = Vec::new();
        for s in &succ {
            let vals: Vec<u32> = s.iter().map(|&w| r[w as usize]).collect();
            let even = vals.iter().copied().filter(|r| r % 2 == 0).min();
            r.push(match (s.is_empty(), even) {
                (true, _) => 0,
                (false, Some(e)) => e + 1,
                (false, None) => vals.iter().copied().max().unwrap_or(0) + 1,
            });
        }
        let got: Vec<Option<u32>> = loopy::retrograde(&succ).iter().map(|x| x.1).collect();
        prop_assert_eq!(got, r.into_iter().map(Some).collect::<Vec<_>>());
    }
}
