//! Loopy impartial games: values on a finite move graph that may have cycles.
//!
//! A position's *generalized Sprague–Grundy value* (Smith 1966; Fraenkel and Yesha 1986)
//! is a number, as in a game that ends, or `∞(K)` with `K` the set of its options' finite
//! values. Its outcome follows: `0` is P, another number N, `∞(K)` N when `0 ∈ K` and a
//! draw (D) otherwise. A sum's value follows from its parts': numbers add by xor,
//! `∞(K) + b = ∞(K ⊕ b)`, and `∞ + ∞ = ∞(∅)`.
//!
//! The graph functions here take each vertex's followers (`succ[v]`, indices) and label
//! every vertex at once; the solver enumerates a position's reachable graph and calls them.

use crate::value::{Infinite, Outcome, Value, Winner};

/// A generalized Sprague–Grundy value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Gsg {
    /// A number: the position is worth a nim heap of this size.
    Finite(u32),
    /// `∞(K)`: the finite values of its options, ascending.
    Infinite(Vec<u32>),
}

impl Gsg {
    /// The outcome: P for 0, N for another number or `∞(K)` with `0 ∈ K`, else D.
    pub fn outcome(&self) -> Outcome {
        match self {
            Gsg::Finite(0) => Outcome::P,
            Gsg::Finite(_) => Outcome::N,
            Gsg::Infinite(k) if k.first() == Some(&0) => Outcome::N,
            Gsg::Infinite(_) => Outcome::D,
        }
    }

    /// The value of the sum of positions worth `self` and `other` (Smith's rule).
    pub fn add(&self, other: &Gsg) -> Gsg {
        match (self, other) {
            (Gsg::Finite(a), Gsg::Finite(b)) => Gsg::Finite(a ^ b),
            (Gsg::Infinite(k), Gsg::Finite(b)) | (Gsg::Finite(b), Gsg::Infinite(k)) => {
                let mut k: Vec<u32> = k.iter().map(|a| a ^ b).collect();
                k.sort_unstable();
                Gsg::Infinite(k)
            }
            (Gsg::Infinite(_), Gsg::Infinite(_)) => Gsg::Infinite(Vec::new()),
        }
    }

    /// As a solver's [`Value`]: a number, or [`Value::Infinite`].
    pub fn to_value(&self) -> Value {
        match self {
            Gsg::Finite(n) => Value::Number(*n),
            Gsg::Infinite(k) => Value::Infinite(Infinite {
                infinite: k.clone(),
            }),
        }
    }
}

/// The generalized Sprague–Grundy value of every vertex of the graph `succ`.
///
/// Fraenkel and Yesha's labelling, stage by stage: at stage `m` a vertex not yet labelled
/// takes `m` when none of its followers has `m` and each follower not yet labelled (or
/// labelled `∞`) has a follower labelled `m` (it reverses out); then every vertex still
/// unlabelled with no follower labelled `m` is `∞`. Each stage is one pass over the edges
/// with counters, so the whole costs O(edges × (largest value + 2)).
pub fn gsg(succ: &[Vec<u32>]) -> Vec<Gsg> {
    let n = succ.len();
    let pred = predecessors(succ);
    // Finite labels; `INFINITE` once a vertex is ∞; `NONE` while unlabelled.
    const NONE: u32 = u32::MAX;
    const INFINITE: u32 = u32::MAX - 1;
    let mut label = vec![NONE; n];
    let mut unlabelled: Vec<u32> = (0..n as u32).collect();
    // Per stage: whether a vertex has a follower labelled m; how many of its followers
    // (by edge) are unlabelled or ∞ and have no follower labelled m.
    let mut covered = vec![false; n];
    let mut waiting = vec![0u32; n];
    let mut queue = Vec::new();
    let mut m = 0u32;
    while !unlabelled.is_empty() {
        covered.iter_mut().for_each(|c| *c = false);
        for &u in &unlabelled {
            let u = u as usize;
            waiting[u] = succ[u]
                .iter()
                .filter(|&&w| matches!(label[w as usize], NONE | INFINITE))
                .count() as u32;
            if waiting[u] == 0 {
                queue.push(u as u32);
            }
        }
        while let Some(u) = queue.pop() {
            let u = u as usize;
            if label[u] != NONE || covered[u] || waiting[u] != 0 {
                continue;
            }
            label[u] = m;
            for &p in &pred[u] {
                let p = p as usize;
                if covered[p] {
                    continue;
                }
                covered[p] = true;
                // `p` now has a follower labelled m: it cannot take m itself, and it no
                // longer keeps its own predecessors from taking m.
                if matches!(label[p], NONE | INFINITE) {
                    for &q in &pred[p] {
                        let q = q as usize;
                        if label[q] == NONE {
                            waiting[q] -= 1;
                            if waiting[q] == 0 && !covered[q] {
                                queue.push(q as u32);
                            }
                        }
                    }
                }
            }
        }
        unlabelled.retain(|&u| {
            let u = u as usize;
            if label[u] != NONE {
                return false;
            }
            if !covered[u] {
                label[u] = INFINITE;
                return false;
            }
            true
        });
        m += 1;
    }
    (0..n)
        .map(|u| match label[u] {
            INFINITE => {
                let mut k: Vec<u32> = succ[u]
                    .iter()
                    .map(|&w| label[w as usize])
                    .filter(|&l| l != INFINITE)
                    .collect();
                k.sort_unstable();
                k.dedup();
                Gsg::Infinite(k)
            }
            finite => Gsg::Finite(finite),
        })
        .collect()
}

/// Every vertex's outcome and remoteness by retrograde analysis: terminal vertices are P
/// at remoteness 0; a vertex with a P follower is N, one more than the least such
/// follower's remoteness; a vertex all of whose followers are N is P, one more than the
/// greatest; the rest are draws (D), with no remoteness.
pub fn retrograde(succ: &[Vec<u32>]) -> Vec<(Outcome, Option<u32>)> {
    let n = succ.len();
    let pred = predecessors(succ);
    let mut result: Vec<(Outcome, Option<u32>)> = vec![(Outcome::D, None); n];
    let mut left: Vec<u32> = succ.iter().map(|s| s.len() as u32).collect();
    let mut queue = std::collections::VecDeque::new();
    for (v, s) in succ.iter().enumerate() {
        if s.is_empty() {
            result[v] = (Outcome::P, Some(0));
            queue.push_back(v as u32);
        }
    }
    // First in, first out: vertices leave in order of remoteness, so the first P follower
    // found is the nearest, and the last N follower the farthest.
    while let Some(v) = queue.pop_front() {
        let (outcome, r) = result[v as usize];
        let next = r.map(|r| r + 1);
        for &u in &pred[v as usize] {
            let u = u as usize;
            if result[u].1.is_some() {
                continue;
            }
            match outcome {
                Outcome::P => {
                    result[u] = (Outcome::N, next);
                    queue.push_back(u as u32);
                }
                _ => {
                    left[u] -= 1;
                    if left[u] == 0 {
                        result[u] = (Outcome::P, next);
                        queue.push_back(u as u32);
                    }
                }
            }
        }
    }
    result
}

/// Every vertex's outcome in a loopy partizan game by retrograde analysis, where Left
/// moves along `left`'s edges and Right along `right`'s: who wins with Left moving first,
/// and with Right moving first. A player to move with no move loses; one with a move to a
/// position the other then loses wins; one whose every move leads to a position the other
/// wins loses; the rest are draws.
pub fn partizan_retrograde(left: &[Vec<u32>], right: &[Vec<u32>]) -> Vec<(Winner, Winner)> {
    let n = left.len();
    // State 2v: Left to move at v; 2v + 1: Right to move.
    let mut pred: Vec<Vec<u32>> = vec![Vec::new(); 2 * n];
    for v in 0..n {
        for &w in &left[v] {
            pred[2 * w as usize + 1].push(2 * v as u32);
        }
        for &w in &right[v] {
            pred[2 * w as usize].push(2 * v as u32 + 1);
        }
    }
    // Whether the player to move wins, once known.
    let mut wins: Vec<Option<bool>> = vec![None; 2 * n];
    let mut left_moves: Vec<u32> = (0..2 * n)
        .map(|s| match s % 2 {
            0 => left[s / 2].len() as u32,
            _ => right[s / 2].len() as u32,
        })
        .collect();
    let mut queue: Vec<u32> = Vec::new();
    for (s, &moves) in left_moves.iter().enumerate() {
        if moves == 0 {
            wins[s] = Some(false);
            queue.push(s as u32);
        }
    }
    while let Some(s) = queue.pop() {
        let lost = wins[s as usize] == Some(false);
        for &t in &pred[s as usize] {
            let t = t as usize;
            if wins[t].is_some() {
                continue;
            }
            if lost {
                wins[t] = Some(true);
                queue.push(t as u32);
            } else {
                left_moves[t] -= 1;
                if left_moves[t] == 0 {
                    wins[t] = Some(false);
                    queue.push(t as u32);
                }
            }
        }
    }
    let winner = |s: usize, mover: Winner, other: Winner| match wins[s] {
        Some(true) => mover,
        Some(false) => other,
        None => Winner::Draw,
    };
    (0..n)
        .map(|v| {
            (
                winner(2 * v, Winner::Left, Winner::Right),
                winner(2 * v + 1, Winner::Right, Winner::Left),
            )
        })
        .collect()
}

/// Each vertex's predecessors, one entry per edge.
pub(crate) fn predecessors(succ: &[Vec<u32>]) -> Vec<Vec<u32>> {
    let mut pred = vec![Vec::new(); succ.len()];
    for (v, s) in succ.iter().enumerate() {
        for &w in s {
            pred[w as usize].push(v as u32);
        }
    }
    pred
}

/// Hand-worked cases. The labelling, the outcomes and the sums against brute-force
/// definitions on random digraphs, and both back ends on compiled ones, are in
/// tests/native/tests/loopy_digraphs.rs.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases() {
        // A two-cycle: both draws, ∞ with no finite options.
        let g = gsg(&[vec![1], vec![0]]);
        assert_eq!(g, vec![Gsg::Infinite(vec![]), Gsg::Infinite(vec![])]);
        // A vertex with a move to an end and into the cycle: 0 ∈ K, so N.
        let g = gsg(&[vec![1, 2], vec![0], vec![]]);
        assert_eq!(g[2], Gsg::Finite(0));
        assert_eq!(g[0].outcome(), Outcome::N);
        // A self-loop beside a move to an end: the loop never reverses out, so ∞({0}), N.
        let g = gsg(&[vec![0, 1], vec![]]);
        assert_eq!(g[0], Gsg::Infinite(vec![0]));
        // Two vertices that move to each other and to an end: ∞({0}) both.
        let g = gsg(&[vec![], vec![0, 2], vec![0, 1]]);
        assert_eq!(g[1], Gsg::Infinite(vec![0]));
        assert_eq!(g[2], Gsg::Infinite(vec![0]));
        // A cycle that reverses out: a -> {t, b}, b -> {a, t, h} with h = 1. b's move to h
        // answers the move a -> b, so a = 1 and b = mex{1, 0, 1} = 2.
        let (t, h, a, b) = (0, 1, 2, 3);
        let g = gsg(&[vec![], vec![t], vec![t, b], vec![a, t, h]]);
        let finite = |v| Gsg::Finite(v);
        assert_eq!(g, vec![finite(0), finite(1), finite(1), finite(2)]);
    }
}
