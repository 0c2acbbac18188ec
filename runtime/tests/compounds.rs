//! Property tests: on random small acyclic games, every compound's fast rule agrees with an
//! exact search over the compound's own positions.

use cgdl_runtime::{Compound, Expr, Mode, Options, RuleError, Rules, Solver, Value, ValueKind};
use cgdl_runtime::{Outcome, SolveError, WNumber};

/// The most positions an exact search of one case may solve.
const EXACT_POSITIONS: u64 = 200_000;
/// The most positions the memo routes' reference solver may solve in one case. A few nested
/// compounds solve hundreds of thousands of positions, at up to 60 µs each, three times
/// over: 10 to 35 s of a test that otherwise takes 1 s. Past this bound a case is skipped
/// (about one in 400).
const ROUTE_POSITIONS: u64 = 10_000;
use proptest::prelude::*;

/// One option of a random game's node.
#[derive(Clone, Debug)]
enum Opt {
    End,
    Node(u8),
    Sum(u8, u8),
}

/// A random acyclic game: node `i`'s options only name nodes below `i`.
#[derive(Clone, Debug)]
struct Graph {
    nodes: Vec<Vec<Opt>>,
}

impl Rules for Graph {
    type Pos = u8;
    fn options(&self, pos: u8, out: &mut Options<u8>) -> Result<(), RuleError> {
        for opt in &self.nodes[pos as usize] {
            match *opt {
                Opt::End => out.end(),
                Opt::Node(j) => out.position(j),
                Opt::Sum(a, b) => out.sum([a, b]),
            }
        }
        Ok(())
    }
    fn dense_index(&self, pos: u8) -> Option<usize> {
        Some(pos as usize)
    }
}

/// Where a solver's memo keeps a [`Graph`]'s positions.
#[derive(Clone, Copy, Debug)]
enum Route {
    /// The key table; node 0's key is `u64::MAX`, which the solver must hash instead.
    Keyed,
    /// The hash map.
    Hashed,
}

/// A graph whose positions the memo keeps by `route` instead of by dense index.
struct Routed<'g> {
    graph: &'g Graph,
    route: Route,
}

impl Rules for Routed<'_> {
    type Pos = u8;
    fn options(&self, pos: u8, out: &mut Options<u8>) -> Result<(), RuleError> {
        self.graph.options(pos, out)
    }
    fn key(&self, pos: u8) -> Option<u64> {
        match self.route {
            Route::Keyed if pos == 0 => Some(u64::MAX),
            // Spread over the key space, as packed positions are.
            Route::Keyed => Some(u64::from(pos) << 40 | 7),
            Route::Hashed => None,
        }
    }
}

fn graph() -> impl Strategy<Value = Graph> {
    (2usize..8).prop_flat_map(|n| {
        let nodes: Vec<_> = (0..n)
            .map(|i| {
                let opt = if i == 0 {
                    Just(Opt::End).boxed()
                } else {
                    let i = i as u8;
                    prop_oneof![
                        1 => Just(Opt::End),
                        4 => (0..i).prop_map(Opt::Node),
                        1 => (0..i, 0..i).prop_map(|(a, b)| Opt::Sum(a, b)),
                    ]
                    .boxed()
                };
                // Node 0 is terminal; others have 0..=3 options.
                let count = if i == 0 { 0..1 } else { 0..4 };
                proptest::collection::vec(opt, count)
            })
            .collect();
        nodes.prop_map(|nodes| Graph { nodes })
    })
}

fn kind() -> impl Strategy<Value = Compound> {
    proptest::sample::select(Compound::ALL.to_vec())
}

/// A compound of 2–3 components; a component may itself be a compound of two leaves.
fn expr(n: u8) -> impl Strategy<Value = Expr<u8>> {
    let leaf = (0..n).prop_map(Expr::Pos);
    let inner =
        (kind(), 0..n, 0..n).prop_map(|(k, a, b)| Expr::compound(k, [Expr::Pos(a), Expr::Pos(b)]));
    let part = prop_oneof![3 => leaf, 1 => inner];
    (kind(), proptest::collection::vec(part, 2..=3)).prop_map(|(k, parts)| Expr::compound(k, parts))
}

fn game_and_expr() -> impl Strategy<Value = (Graph, Expr<u8>)> {
    graph().prop_flat_map(|g| {
        let n = g.nodes.len() as u8;
        (Just(g), expr(n))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn fast_rules_agree_with_exact_search((game, e) in game_and_expr()) {
        let mut fast = Solver::with_mode(&game, Mode::Fast);
        let mut exact = Solver::with_mode(&game, Mode::Exact);
        // The exact search of nested compounds of sums grows exponentially: a case past
        // this bound (a few in a thousand) is skipped, so that the test's time stays small.
        exact.set_max_positions(EXACT_POSITIONS);
        for kind in ValueKind::ALL {
            let f = fast.value(kind, &e).unwrap();
            let x = match exact.value(kind, &e) {
                Ok(x) => x,
                Err(SolveError::TooManyPositions { .. }) => return Ok(()),
                Err(other) => panic!("{other}"),
            };
            prop_assert_eq!(f, x, "{} of {}", kind, e);
        }
        let w = exact.wnumber(&e).unwrap();
        let g = exact.grundy(&e).unwrap();
        prop_assert_eq!(matches!(w, WNumber::SL | WNumber::Num(0)), g == 0, "w {} g {}", w, g);
        prop_assert_eq!(exact.outcome(&e).unwrap() == Outcome::P, g == 0);
        // Misère w-number decides misère outcome on every game (not just WTIA).
        let wm = exact.misere_wnumber(&e).unwrap();
        let mo = exact.misere_outcome(&e).unwrap();
        prop_assert_eq!(wm == WNumber::Num(0), mo == Outcome::P, "w_m {} misère {}", wm, mo);
        // Winning moves are exactly the options that are P.
        let wins = fast.winning_moves(&e).unwrap();
        prop_assert_eq!(wins.is_empty(), fast.outcome(&e).unwrap() == Outcome::P);
    }

    /// Every memo route (dense array, key table, hash map) gives the same values.
    #[test]
    fn memo_routes_agree((game, e) in game_and_expr()) {
        let keyed = Routed { graph: &game, route: Route::Keyed };
        let hashed = Routed { graph: &game, route: Route::Hashed };
        let mut dense = Solver::new(&game);
        let mut by_key = Solver::new(&keyed);
        let mut by_hash = Solver::new(&hashed);
        // The other two solve the positions the bounded one solves.
        dense.set_max_positions(ROUTE_POSITIONS);
        let within = |v: Result<Value, SolveError>| match v {
            Ok(v) => Some(v),
            Err(SolveError::TooManyPositions { .. }) => None,
            Err(other) => panic!("{other}"),
        };
        for kind in ValueKind::ALL {
            let Some(want) = within(dense.value(kind, &e)) else { return Ok(()) };
            prop_assert_eq!(by_key.value(kind, &e).unwrap(), want.clone(), "{} of {}", kind, e);
            prop_assert_eq!(by_hash.value(kind, &e).unwrap(), want, "{} of {}", kind, e);
            for p in 0..game.nodes.len() as u8 {
                let Some(want) = within(dense.value_of(kind, p)) else { return Ok(()) };
                prop_assert_eq!(by_key.value_of(kind, p).unwrap(), want.clone());
                prop_assert_eq!(by_hash.value_of(kind, p).unwrap(), want);
            }
        }
    }

    #[test]
    fn leaf_wnumbers_follow_their_definition(game in graph()) {
        // Without sums: w = SL when terminal, SW when an option is terminal (an `end`, at
        // which the search stops, or a node without moves), else the mex of the options'
        // w-numbers that are neither.
        let game = Graph {
            nodes: (game.nodes.iter())
                .map(|opts| {
                    (opts.iter())
                        .map(|o| match *o {
                            Opt::Sum(a, _) => Opt::Node(a),
                            ref o => o.clone(),
                        })
                        .collect()
                })
                .collect(),
        };
        let mut w: Vec<WNumber> = Vec::new();
        for opts in &game.nodes {
            let value = if opts.is_empty() {
                WNumber::SL
            } else {
                let of = |o: &Opt| match *o {
                    Opt::Node(j) => w[j as usize],
                    _ => WNumber::SL,
                };
                if opts.iter().any(|o| of(o) == WNumber::SL) {
                    WNumber::SW
                } else {
                    let plain: Vec<u32> = (opts.iter())
                        .filter_map(|o| match of(o) {
                            WNumber::Num(k) => Some(k),
                            _ => None,
                        })
                        .collect();
                    WNumber::Num((0..).find(|k| !plain.contains(k)).unwrap_or(0))
                }
            };
            w.push(value);
        }
        let mut solver = Solver::new(&game);
        for (p, expected) in w.iter().enumerate() {
            prop_assert_eq!(solver.wnumber(Expr::Pos(p as u8)).unwrap(), *expected, "node {}", p);
        }
    }

    #[test]
    fn leaf_values_follow_their_definitions(game in graph()) {
        // Remoteness and suspense decide the outcome (Smith): P iff even.
        let mut solver = Solver::new(&game);
        for p in 0..game.nodes.len() as u8 {
            let o = solver.outcome(Expr::Pos(p)).unwrap();
            for kind in [ValueKind::Remoteness, ValueKind::Suspense] {
                let Value::Number(r) = solver.value_of(kind, p).unwrap() else {
                    unreachable!()
                };
                prop_assert_eq!(r % 2 == 0, o == Outcome::P, "{} of {}", kind, p);
            }
        }
    }
}

/// A position whose move makes a sum holding it again grows without end: the search stops
/// with an error naming the line of play, not by exhausting memory.
#[test]
fn compounds_that_grow_without_end_are_reported() {
    // Node 1 moves to 0, or to 1 + 1.
    let game = Graph {
        nodes: vec![vec![], vec![Opt::Node(0), Opt::Sum(1, 1)]],
    };
    let mut solver = Solver::new(&game);
    // Normal play has a rule for sums, which finds the cycle 1 -> 1 + 1 at once; the graph
    // of a loopy game is then enumerated, and grows (1 + 1 + 1, ...) to the compound limit.
    // Misère play searches the sum's own positions.
    assert!(matches!(
        solver.grundy(Expr::Pos(1)),
        Err(SolveError::LargeCompound { components, limit: 48 }) if components > 48
    ));
    match solver.misere_outcome(Expr::Pos(1)) {
        Err(SolveError::Unending { limit, line, .. }) => {
            assert!(
                matches!(*limit, SolveError::LargeCompound { components, .. } if components > 256),
                "{limit}"
            );
            assert!(line.1.iter().all(|p| p.len() < 150), "{:?}", line.1);
        }
        other => panic!("{other:?}"),
    }
}

/// A union of 30 movable components has 2^30 - 1 options: an error, before any is built.
#[test]
fn compounds_with_too_many_options_are_an_error() {
    let game = Graph {
        nodes: vec![vec![], vec![Opt::Node(0)]],
    };
    let mut solver = Solver::new(&game);
    let union = Expr::compound(Compound::Union, (0..30).map(|_| Expr::Pos(1)));
    // The outcome of a union has a rule; its remoteness is searched.
    assert_eq!(solver.outcome(&union).unwrap(), Outcome::N);
    match solver.remoteness(&union) {
        Err(SolveError::Rule(e)) => {
            assert!(e.to_string().contains("1073741823 options"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    // Ten components (1,023 options) are searched.
    let small = Expr::compound(Compound::Union, (0..10).map(|_| Expr::Pos(1)));
    assert_eq!(solver.remoteness(&small).unwrap(), 1);
}
