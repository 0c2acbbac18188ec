//! The ordinary outcome search on several threads (games that do not split): outcomes
//! against their definition on random games, and against one thread's on random games with
//! cycles, whatever the threads' timing.

use cgdl_runtime::solver::shared::{search_with_helpers, Helpers};
use cgdl_runtime::{Options, Outcome, RuleError, Rules, Solver};
use proptest::prelude::*;

/// A game on positions `0..n`: each position's moves (to positions, or to `end`, which the
/// player who moves there wins by). It does not split: its outcomes take the ordinary
/// search.
#[derive(Debug, Clone)]
struct Graph {
    moves: Vec<Vec<u32>>,
    /// Positions with a move to `end`.
    ends: Vec<bool>,
}

impl Rules for Graph {
    type Pos = u32;
    fn options(&self, i: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        for &j in &self.moves[i as usize] {
            out.position(j);
        }
        if self.ends[i as usize] {
            out.end();
        }
        Ok(())
    }
}

/// Each position's outcome by its definition (N where some move goes to `end` or to a P
/// position), in a game whose moves go to smaller positions only.
fn outcomes(game: &Graph) -> Vec<Outcome> {
    let mut out: Vec<Outcome> = Vec::new();
    for i in 0..game.moves.len() {
        let wins = game.ends[i] || game.moves[i].iter().any(|&j| out[j as usize] == Outcome::P);
        out.push(if wins { Outcome::N } else { Outcome::P });
    }
    out
}

/// A random game of `n` positions whose moves go to at most 40 smaller positions (searches
/// go deep), or (with `loops`) also up to 3 larger ones.
fn graph(n: usize, loops: bool) -> impl Strategy<Value = Graph> {
    let each = (0..n).map(move |i| {
        let below = prop::collection::vec(1..=(i as u32).clamp(1, 40), 0..5);
        let above = prop::collection::vec(1..=3u32, if loops { 0..2 } else { 0..1 });
        (below, above, prop::bool::weighted(0.02))
    });
    each.collect::<Vec<_>>().prop_map(move |each| {
        let (mut moves, mut ends) = (Vec::new(), Vec::new());
        for (i, (below, above, end)) in each.into_iter().enumerate() {
            let i = i as u32;
            let down = below.into_iter().filter(|&d| d <= i).map(|d| i - d);
            let up = above
                .into_iter()
                .map(|d| i + d)
                .filter(|&j| (j as usize) < n);
            moves.push(down.chain(up).collect());
            ends.push(end);
        }
        Graph { moves, ends }
    })
}

/// `asked`'s outcomes, one solver asked in turn, with `threads` threads woken at once (the
/// smallest searches here are shared).
fn ask(game: &Graph, threads: usize, asked: &[u32]) -> Vec<Option<Outcome>> {
    let mut solver = Solver::new(game);
    let helpers = Helpers {
        threads,
        wake_after: 0,
    };
    search_with_helpers(&mut solver, helpers, |solver| {
        asked.iter().map(|&i| solver.outcome(i).ok()).collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random games of 3,000 positions, outcomes asked in a random order of one solver with
    /// 2 or 3 threads (each search starting from what earlier ones found): those of the
    /// definition.
    #[test]
    fn threads_leave_outcomes_as_defined(
        game in graph(3000, false),
        threads in 2usize..=3,
        asked in prop::collection::vec(any::<prop::sample::Index>(), 1..8),
    ) {
        let expected = outcomes(&game);
        let asked: Vec<u32> = asked.iter().map(|i| i.index(expected.len()) as u32).collect();
        let found = ask(&game, threads, &asked);
        for (&i, o) in asked.iter().zip(found) {
            prop_assert_eq!(o, Some(expected[i as usize]), "position {}", i);
        }
    }

    /// Random games with cycles (draws among the outcomes): 2 or 3 threads answer as one.
    #[test]
    fn threads_answer_loopy_outcomes_as_one_thread(
        game in graph(400, true),
        threads in 2usize..=3,
        asked in prop::collection::vec(any::<prop::sample::Index>(), 1..6),
    ) {
        let asked: Vec<u32> = asked.iter().map(|i| i.index(game.moves.len()) as u32).collect();
        let alone = ask(&game, 1, &asked);
        prop_assert_eq!(ask(&game, threads, &asked), alone);
    }
}

/// A long chain of forced moves with a decision at every step: a search deep enough to be
/// shared at every level the threads share, by two threads and by one.
#[test]
fn threads_and_one_thread_agree_on_a_deep_game() {
    let n = 20_000u32;
    let game = Graph {
        moves: (0..n)
            .map(|i| match i {
                0 => Vec::new(),
                1 => vec![0],
                _ => vec![i - 1, i - 2, i / 2],
            })
            .collect(),
        ends: (0..n).map(|i| i % 97 == 13).collect(),
    };
    let expected = outcomes(&game);
    let asked = [n - 1, n / 2, 7];
    let found = ask(&game, 2, &asked);
    for (&i, o) in asked.iter().zip(found) {
        assert_eq!(o, Some(expected[i as usize]), "position {i}");
    }
}
