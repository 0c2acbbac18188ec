//! The difference `H − G` of two vertices of game graphs, as a game of states whose moves
//! both orders of loopy games ([`super::stopper::order`], [`super::sides::order`]) solve.
//!
//! A state is a pair `(g, h)` with a player to move, numbered `2 · (g · |H| + h)` with Left
//! to move and one more with Right to move. Left moves in `H` to a Left option of `h` or in
//! `−G` to a Right option of `g`; Right moves in `H` to a Right option of `h` or in `−G` to a
//! Left option of `g`.

use super::stopper::Graph;
use crate::loopy::predecessors;

/// The states of `H − G` for every `g` of one graph and `h` of another, with their moves
/// both ways.
pub(super) struct Difference<'a> {
    gs: &'a Graph,
    hs: &'a Graph,
    /// Predecessors by Left moves and by Right moves, in `G`'s graph and in `H`'s.
    g_left_pred: Vec<Vec<u32>>,
    g_right_pred: Vec<Vec<u32>>,
    h_left_pred: Vec<Vec<u32>>,
    h_right_pred: Vec<Vec<u32>>,
}

impl<'a> Difference<'a> {
    pub(super) fn new(gs: &'a Graph, hs: &'a Graph) -> Self {
        Difference {
            gs,
            hs,
            g_left_pred: predecessors(&gs.left),
            g_right_pred: predecessors(&gs.right),
            h_left_pred: predecessors(&hs.left),
            h_right_pred: predecessors(&hs.right),
        }
    }

    /// Pairs `(g, h)`: the number of states is twice this.
    pub(super) fn pairs(&self) -> usize {
        self.gs.len() * self.hs.len()
    }

    /// Whether Left is to move at state `s`.
    pub(super) fn left_to_move(s: usize) -> bool {
        s & 1 == 0
    }

    /// The moves from state `s`: (the state moved to, whether the move is in `H`).
    pub(super) fn moves(&self, s: usize) -> impl Iterator<Item = (usize, bool)> + '_ {
        let (g, h) = self.pair(s);
        let (in_g, in_h) = match Self::left_to_move(s) {
            true => (&self.gs.right[g], &self.hs.left[h]),
            false => (&self.gs.left[g], &self.hs.right[h]),
        };
        self.steps(s, (g, h), in_g, in_h)
    }

    /// The moves into state `s`: (the state moved from, whether the move is in `H`).
    pub(super) fn moves_into(&self, s: usize) -> impl Iterator<Item = (usize, bool)> + '_ {
        let (g, h) = self.pair(s);
        // Into a Left-to-move state by a Right move, and the other way round.
        let (by_g, by_h) = match Self::left_to_move(s) {
            true => (&self.g_left_pred[g], &self.h_right_pred[h]),
            false => (&self.g_right_pred[g], &self.h_left_pred[h]),
        };
        self.steps(s, (g, h), by_g, by_h)
    }

    fn pair(&self, s: usize) -> (usize, usize) {
        let (pair, m) = (s / 2, self.hs.len());
        (pair / m, pair % m)
    }

    /// From `s`, which is the pair `(g, h)`, the states with the other player to move whose
    /// `g` is one of `gs` (the same `h`) or whose `h` is one of `hs` (the same `g`).
    fn steps<'b>(
        &self,
        s: usize,
        (g, h): (usize, usize),
        gs: &'b [u32],
        hs: &'b [u32],
    ) -> impl Iterator<Item = (usize, bool)> + 'b {
        let m = self.hs.len();
        let other = usize::from(Self::left_to_move(s));
        let from_g = gs
            .iter()
            .map(move |&g2| (2 * (g2 as usize * m + h) + other, false));
        let from_h = hs
            .iter()
            .map(move |&h2| (2 * (g * m + h2 as usize) + other, true));
        from_g.chain(from_h)
    }
}
