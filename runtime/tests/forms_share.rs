//! Canonical forms on several threads: random partizan games, with and without cycles,
//! answered by 2 or 3 threads as by one, whatever the threads' timing.

use cgdl_runtime::solver::shared::{search_with_helpers, Helpers};
use cgdl_runtime::{Options, RuleError, Rules, Side, Solver};
use proptest::prelude::*;

/// A partizan game on positions `0..n`: each position's left and right moves.
#[derive(Debug, Clone)]
struct Graph {
    left: Vec<Vec<u32>>,
    right: Vec<Vec<u32>>,
}

impl Rules for Graph {
    type Pos = u32;
    fn options(&self, _: u32, _: &mut Options<u32>) -> Result<(), RuleError> {
        Err(RuleError::new("a partizan game"))
    }
    fn is_partizan(&self, _: u32) -> bool {
        true
    }
    fn side_options(&self, i: u32, side: Side, out: &mut Options<u32>) -> Result<(), RuleError> {
        let moves = match side {
            Side::Left => &self.left[i as usize],
            Side::Right => &self.right[i as usize],
        };
        for &j in moves {
            out.position(j);
        }
        Ok(())
    }
}

/// A random game of `n` positions whose moves go to at most 30 smaller positions, or (with
/// `loops`) also, rarely, to a larger one.
fn graph(n: usize, loops: bool) -> impl Strategy<Value = Graph> {
    let side = move |i: usize| {
        let below = prop::collection::vec(1..=(i as u32).clamp(1, 30), 0..3);
        let above = prop::collection::vec(1..=3u32, 0..usize::from(loops) + 1);
        (below, above, prop::bool::weighted(0.01))
    };
    let each = (0..n).map(move |i| (side(i), side(i)));
    each.collect::<Vec<_>>().prop_map(move |each| {
        let moves = |i: u32, (below, above, up): (Vec<u32>, Vec<u32>, bool)| -> Vec<u32> {
            let down = below.into_iter().filter(|&d| d <= i).map(|d| i - d);
            let up = above
                .into_iter()
                .filter(|_| up)
                .map(|d| i + d)
                .filter(|&j| (j as usize) < n);
            down.chain(up).collect()
        };
        let (mut left, mut right) = (Vec::new(), Vec::new());
        for (i, (l, r)) in each.into_iter().enumerate() {
            left.push(moves(i as u32, l));
            right.push(moves(i as u32, r));
        }
        Graph { left, right }
    })
}

/// `asked`'s canonical forms (or errors), one solver asked in turn, with `threads` threads
/// woken at once (the smallest computations here are shared).
fn ask(game: &Graph, threads: usize, asked: &[u32]) -> Vec<Result<String, String>> {
    let mut solver = Solver::new(game);
    let helpers = Helpers {
        threads,
        wake_after: 0,
    };
    search_with_helpers(&mut solver, helpers, |solver| {
        let forms = asked
            .iter()
            .map(|&i| solver.canonical(i).map_err(|e| e.to_string()));
        forms.collect()
    })
}

/// The positions of `game` that `picks` choose.
fn positions(game: &Graph, picks: &[prop::sample::Index]) -> Vec<u32> {
    picks
        .iter()
        .map(|i| i.index(game.left.len()) as u32)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Random games of 1,500 positions, forms asked in a random order of one solver (each
    /// computation starting from what earlier ones found): 2 or 3 threads answer as one.
    #[test]
    fn threads_make_the_forms_of_one_thread(
        game in graph(1500, false),
        threads in 2usize..=3,
        asked in prop::collection::vec(any::<prop::sample::Index>(), 1..6),
    ) {
        let asked = positions(&game, &asked);
        let alone = ask(&game, 1, &asked);
        prop_assert!(alone.iter().all(Result::is_ok));
        prop_assert_eq!(ask(&game, threads, &asked), alone);
    }

    /// Random games with cycles (stoppers, sides, or no form): 2 or 3 threads answer as one.
    #[test]
    fn threads_answer_loopy_forms_as_one_thread(
        game in graph(150, true),
        threads in 2usize..=3,
        asked in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
    ) {
        let asked = positions(&game, &asked);
        let alone = ask(&game, 1, &asked);
        prop_assert_eq!(ask(&game, threads, &asked), alone);
    }
}

/// A long game (forms as deep as it is long), asked in two runs of threads over one solver
/// (the second's threads are new): as one thread answers.
#[test]
fn threads_of_two_runs_make_the_forms_of_one_thread() {
    let n = 3000u32;
    let game = Graph {
        left: (0..n)
            .map(|i| if i == 0 { vec![] } else { vec![i - 1] })
            .collect(),
        right: (0..n)
            .map(|i| match i {
                0 | 1 => vec![],
                _ if i % 7 == 3 => vec![i - 2, i / 3],
                _ => vec![i - 2],
            })
            .collect(),
    };
    let asked = [n - 1, n / 2, n - 2];
    let mut alone = Solver::new(&game);
    let expected: Vec<String> = asked
        .iter()
        .map(|&i| alone.canonical(i).expect("form"))
        .collect();
    let mut solver = Solver::new(&game);
    let helpers = || Helpers {
        threads: 2,
        wake_after: 0,
    };
    let first = search_with_helpers(&mut solver, helpers(), |s| s.canonical(asked[0]));
    assert_eq!(first.expect("form"), expected[0]);
    let rest: Vec<String> = search_with_helpers(&mut solver, helpers(), |s| {
        asked[1..]
            .iter()
            .map(|&i| s.canonical(i).expect("form"))
            .collect()
    });
    assert_eq!(rest, expected[1..]);
}
