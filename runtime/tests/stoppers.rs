//! Stoppers' simplest forms against definitions: on short (acyclic) graphs the order and
//! the forms are the canonical forms' of `Forms`; on loopy ones the form plays like the game
//! in every sum with a small stopper (outcomes by retrograde analysis of the sum's graph),
//! simplifying twice changes nothing, and the published forms come out.
//!
//! Games that are not stoppers: the sided orders are the stoppers' order on stoppers and
//! preorders everywhere; a side found plays like the game beside every small stopper (Left's
//! wins those of the offside, Right's those of the onside); the published sided values
//! (CGSuite's) come out, and Bach's carousel, whose sides are not stoppers, has none.

use cgdl_runtime::loopy::partizan_retrograde;
use cgdl_runtime::partizan::sides::{self, side, SideError, Sided};
use cgdl_runtime::partizan::stopper::{order, simplest, write, FormError, Graph};
use cgdl_runtime::partizan::{Forms, GameId};
use cgdl_runtime::Winner;
use proptest::prelude::*;

fn graph(left: &[&[u32]], right: &[&[u32]]) -> Graph {
    Graph {
        left: left.iter().map(|ws| ws.to_vec()).collect(),
        right: right.iter().map(|ws| ws.to_vec()).collect(),
    }
}

/// The form of vertex `v`, written.
fn form(g: &Graph, v: u32) -> Result<String, FormError> {
    let simple = simplest(g, v)?;
    Ok(write(&simple, &mut Forms::new()))
}

/// Vertices: 0 = 0, 1 = *, 2 = on, 3 = off, 4 = over, 5 = under, 6 = upon, 7..=10 Siegel's
/// irreducible 4-cycle `a{0||||0|||a|*||*}` (CGT, figure VI.3.2), 11 = {pass|pass}.
fn named() -> Graph {
    graph(
        &[
            &[],
            &[0],
            &[2],
            &[],
            &[0],
            &[5],
            &[6],
            &[0],
            &[0],
            &[10],
            &[7],
            &[11],
        ],
        &[
            &[],
            &[0],
            &[],
            &[3],
            &[4],
            &[0],
            &[1],
            &[8],
            &[9],
            &[1],
            &[1],
            &[11],
        ],
    )
}

#[test]
fn named_stoppers_and_a_published_irreducible_cycle() {
    let g = named();
    let names = ["0", "*", "on", "off", "over", "under", "upon"];
    for (v, name) in names.iter().enumerate() {
        assert_eq!(form(&g, v as u32).as_deref(), Ok(*name), "vertex {v}");
    }
    // Siegel's example is its own simplest form: all four vertices stay.
    assert_eq!(
        form(&g, 7).as_deref(),
        Ok("a{0|{0|{{a|*}|*}}}"),
        "the 4-cycle"
    );
    assert_eq!(simplest(&g, 7).map(|s| s.len()), Ok(6));
    // {pass|pass} (Left and Right pass forever) is dud's form, not a stopper.
    assert_eq!(form(&g, 11), Err(FormError::NotAStopper(vec![11, 11, 11])));
}

/// The sum of vertex `a` of `g` and vertex `b` of `h`, as a graph rooted at 0 (pairs
/// numbered `a * h.len() + b`).
fn sum(g: &Graph, h: &Graph) -> Graph {
    let (n, m) = (g.len(), h.len());
    let mut s = Graph::default();
    for a in 0..n {
        for b in 0..m {
            let at = |a: u32, b: u32| a * m as u32 + b;
            for (side, g_side, h_side) in [(0, &g.left, &h.left), (1, &g.right, &h.right)] {
                let mut ws: Vec<u32> = g_side[a].iter().map(|&a2| at(a2, b as u32)).collect();
                ws.extend(h_side[b].iter().map(|&b2| at(a as u32, b2)));
                match side {
                    0 => s.left.push(ws),
                    _ => s.right.push(ws),
                }
            }
        }
    }
    s
}

/// Outcomes of the sum of `g`'s root and each vertex of `x`.
fn outcomes_beside(g: &Graph, x: &Graph) -> Vec<(String, String)> {
    let s = sum(g, x);
    let labels = partizan_retrograde(&s.left, &s.right);
    (0..x.len())
        .map(|b| {
            let (l, r) = labels[b];
            (format!("{l:?}"), format!("{r:?}"))
        })
        .collect()
}

#[test]
fn upon_star_reverses_through_star() {
    // upon + * = {0, pass|0} (Winning Ways, ch. 11): Left's move to upon reverses through
    // *, and Right's move to upon is dominated by his move to 0.
    let g = sum(&named(), &named());
    let upon_star = 6 * named().len() as u32 + 1;
    assert_eq!(form(&g, upon_star).as_deref(), Ok("{0, pass|0}"));
    // on + on = on; over + 1 = {1|pass}.
    assert_eq!(form(&g, 2 * 12 + 2).as_deref(), Ok("on"));
    let one = graph(&[&[1], &[]], &[&[], &[]]);
    let over = graph(&[&[1], &[]], &[&[0], &[]]);
    assert_eq!(form(&sum(&over, &one), 0).as_deref(), Ok("{1|pass}"));
}

/// A random graph of `n` vertices, most Left edges down and most Right edges up.
fn random_graph(max: usize) -> impl Strategy<Value = Graph> {
    (2..=max).prop_flat_map(|n| {
        let edges = prop::collection::vec((0..n as u32, 0..n as u32, 0u8..8), 0..3 * n);
        edges.prop_map(move |edges| {
            let mut g = Graph {
                left: vec![Vec::new(); n],
                right: vec![Vec::new(); n],
            };
            for (v, w, kind) in edges {
                let (lo, hi) = (v.min(w), v.max(w));
                match kind {
                    // Down edges make games that end; the others close cycles.
                    0..=2 if lo != hi => g.left[hi as usize].push(lo),
                    3..=5 if lo != hi => g.right[hi as usize].push(lo),
                    0..=2 | 6 => g.left[v as usize].push(w),
                    _ => g.right[v as usize].push(w),
                }
            }
            for side in [&mut g.left, &mut g.right] {
                for ws in side.iter_mut() {
                    ws.sort_unstable();
                    ws.dedup();
                }
            }
            g
        })
    })
}

/// `g` with edges cut until no play alternates forever: every vertex a stopper, with
/// cycles where only one player moves, or both but not in turn.
fn stopper(mut g: Graph) -> Graph {
    'cut: loop {
        for root in 0..g.len() as u32 {
            if let Some(cycle) = g.alternating_cycle(root) {
                // The cycle's last move, whoever's it was.
                let (from, to) = (cycle[cycle.len() - 2] as usize, cycle[cycle.len() - 1]);
                g.left[from].retain(|&w| w != to);
                g.right[from].retain(|&w| w != to);
                continue 'cut;
            }
        }
        return g;
    }
}

/// Only edges down: every vertex a short game.
fn acyclic(g: &Graph) -> Graph {
    let keep = |sides: &[Vec<u32>]| -> Vec<Vec<u32>> {
        (sides.iter().enumerate())
            .map(|(v, ws)| ws.iter().copied().filter(|&w| (w as usize) < v).collect())
            .collect()
    };
    Graph {
        left: keep(&g.left),
        right: keep(&g.right),
    }
}

/// Each vertex's canonical form, from the leaves up (edges lead down).
fn forms_of(g: &Graph, forms: &mut Forms) -> Vec<GameId> {
    let mut ids: Vec<GameId> = Vec::new();
    for v in 0..g.len() {
        let l = g.left[v].iter().map(|&w| ids[w as usize]).collect();
        let r = g.right[v].iter().map(|&w| ids[w as usize]).collect();
        let id = forms.canonical(l, r);
        ids.push(id);
    }
    ids
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// On short games the order is the canonical forms' and the form is the canonical one.
    #[test]
    fn short_games_have_their_canonical_forms(g in random_graph(8)) {
        let g = acyclic(&g);
        let mut forms = Forms::new();
        let ids = forms_of(&g, &mut forms);
        let o = order(&g);
        for a in 0..g.len() {
            for b in 0..g.len() {
                prop_assert_eq!(o.le(a as u32, b as u32), forms.le(ids[a], ids[b]), "{} <= {}", a, b);
            }
            let written = form(&g, a as u32).expect("a short game is a stopper");
            prop_assert_eq!(written, forms.display(ids[a]));
        }
    }

    /// A stopper's form plays like it beside every small stopper, and is its own form.
    #[test]
    fn forms_play_like_their_games(g in random_graph(7), x in random_graph(5)) {
        let (g, x) = (stopper(g), stopper(x));
        for root in 0..g.len() as u32 {
            let simple = simplest(&g, root).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
            let original = g.from_root(root);
            let (played, simplified) = (outcomes_beside(&original, &x), outcomes_beside(&simple, &x));
            prop_assert_eq!(played, simplified, "root {}", root);
            let written = write(&simple, &mut Forms::new());
            prop_assert_eq!(form(&simple, 0), Ok(written));
        }
    }
}

/// The value of vertex `v` written: its form, or its sides.
fn value(g: &Graph, v: u32) -> Result<String, SideError> {
    let mut forms = Forms::new();
    match simplest(g, v) {
        Ok(simple) => Ok(write(&simple, &mut forms)),
        Err(_) => {
            let (on, off) = (side(g, v, Sided::On)?, side(g, v, Sided::Off)?);
            Ok(sides::write(&on, &off, &mut forms))
        }
    }
}

#[test]
fn published_sided_values() {
    // CGSuite's SidedValueTestCase: dud, tis = a{{|a}|} = 1 & 0, {0|{dud|},*} = ^ & v*.
    let dud = graph(&[&[0]], &[&[0]]);
    assert_eq!(value(&dud, 0).as_deref(), Ok("dud"));
    let tis = graph(&[&[1], &[]], &[&[], &[0]]);
    assert_eq!(value(&tis, 0).as_deref(), Ok("1 & 0"));
    // 0: the game, 1: 0, 2: {dud|}, 3: *, 4: dud.
    let g = graph(
        &[&[1], &[], &[4], &[1], &[4]],
        &[&[2, 3], &[], &[], &[1], &[4]],
    );
    assert_eq!(value(&g, 0).as_deref(), Ok("^ & v*"));
    // on + off = dud (Winning Ways); {pass|pass} in the named graph too.
    let s = sum(&named(), &named());
    assert_eq!(value(&s, 2 * 12 + 3).as_deref(), Ok("dud"));
    assert_eq!(value(&named(), 11).as_deref(), Ok("dud"));
    // Bach's carousel a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}: its sides are not stoppers (CGSuite:
    // a SidedValue, not stopper-sided). 0: a, 1: {1|1,Y}, 2: Y = {*,Z|*}, 3: Z = {1*|1*,a},
    // 4: 0, 5: 1, 6: *, 7: 1*.
    let bach = graph(
        &[&[4, 1], &[5], &[6, 3], &[7], &[], &[4], &[4], &[5]],
        &[&[4], &[5, 2], &[6], &[7, 0], &[], &[], &[4], &[5]],
    );
    assert!(matches!(
        side(&bach, 0, Sided::On),
        Err(SideError::NotFound(_))
    ));
    assert!(matches!(
        side(&bach, 0, Sided::Off),
        Err(SideError::NotFound(_))
    ));
}

/// Whether `winner` is `who`, for both starts.
fn wins(outcome: (Winner, Winner), who: Winner) -> (bool, bool) {
    (outcome.0 == who, outcome.1 == who)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// On stoppers both sided orders are the stoppers' order; on any graph each is a
    /// preorder, with on above and off below every vertex.
    #[test]
    fn sided_orders_extend_the_stoppers_order(g in random_graph(7)) {
        let st = stopper(g.clone());
        let o = order(&st);
        for sided in [Sided::On, Sided::Off] {
            let so = sides::order(&st, sided);
            for a in 0..st.len() as u32 {
                for b in 0..st.len() as u32 {
                    prop_assert_eq!(so.le(a, b), o.le(a, b), "{:?} {} <= {}", sided, a, b);
                }
            }
            // Any graph, beside on (vertex n) and off (n + 1).
            let n = g.len() as u32;
            let extremes = graph(&[&[0], &[]], &[&[], &[1]]);
            let h = g.beside(&extremes);
            let so = sides::order(&h, sided);
            for a in 0..n {
                prop_assert!(so.le(a, a));
                prop_assert!(so.le(a, n) && so.le(n + 1, a), "{:?} off <= {} <= on", sided, a);
                for b in 0..n {
                    for c in 0..n {
                        if so.le(a, b) && so.le(b, c) {
                            prop_assert!(so.le(a, c), "{:?} {} <= {} <= {}", sided, a, b, c);
                        }
                    }
                }
            }
        }
    }

    /// Where a game's sides are found, each plays like it beside every small stopper: Left
    /// wins the sum (retrograde, either player first) exactly where he wins the offside's
    /// sum, Right exactly where he wins the onside's. The onside is at least the offside, and
    /// each side is its own side.
    #[test]
    fn sides_play_like_their_games(g in random_graph(6), x in random_graph(4)) {
        let x = stopper(x);
        for root in 0..g.len() as u32 {
            let (on, off) = match (side(&g, root, Sided::On), side(&g, root, Sided::Off)) {
                (Ok(on), Ok(off)) => (on, off),
                (Err(SideError::NotFound(_)), _) | (_, Err(SideError::NotFound(_))) => continue,
                (a, b) => return Err(TestCaseError::fail(format!("{a:?} {b:?}"))),
            };
            let original = g.from_root(root);
            let both = on.beside(&off);
            prop_assert!(order(&both).le(on.len() as u32, 0), "offside <= onside");
            let sums = [&original, &on, &off].map(|h| {
                let s = sum(h, &x);
                partizan_retrograde(&s.left, &s.right)
            });
            // The sums' first vertices: each root beside each vertex b of x.
            let [games, onsides, offsides] = &sums;
            let firsts = games.iter().zip(onsides).zip(offsides).take(x.len());
            for (b, ((&game, &onside), &offside)) in firsts.enumerate() {
                prop_assert_eq!(wins(game, Winner::Left), wins(offside, Winner::Left), "root {} x {}", root, b);
                prop_assert_eq!(wins(game, Winner::Right), wins(onside, Winner::Right), "root {} x {}", root, b);
            }
            for (form, sided) in [(&on, Sided::On), (&off, Sided::Off)] {
                let again = side(form, 0, sided).map(|f| write(&f, &mut Forms::new()));
                prop_assert_eq!(again, Ok(write(form, &mut Forms::new())));
            }
        }
    }
}
