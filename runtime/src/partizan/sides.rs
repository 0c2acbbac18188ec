//! Loopy partizan games that are not stoppers: their onsides and offsides (Conway, *On
//! Numbers and Games* ch. 16; *Winning Ways* ch. 11; Siegel, *Combinatorial Game Theory*
//! §VI.4–5).
//!
//! Where Left and Right can move in turn forever, a game `G` has two values: its *onside*
//! `G⁺`, where such play is counted for Left, and its *offside* `G⁻`, where it is counted for
//! Right; `G = G⁺ & G⁻`. They compare by survival with a rule for infinite play ([`order`]):
//! `G⁺ ≤ H⁺` when Left, moving second in `H − G`, never runs out of moves and wins every
//! infinite play with infinitely many moves in `H`; `G⁻ ≤ H⁻` the same with infinitely many
//! moves in `−G`. On stoppers both are the stoppers' order.
//!
//! A side is written as a stopper ([`side`]): moves on cycles of alternating play are
//! removed (the player whom such play does not favour first; all at once where that keeps
//! the side's value, else halves, down to single moves), each removal kept only where the
//! side's value stays (the order decides), until the game is a stopper; that stopper's
//! simplest form is the side, checked equal to the game's side. Where no removal keeps the
//! value (Bach's carousel, whose sides are not stoppers), there is no side to give.

use super::difference::Difference;
use super::stopper::{self, Graph};

/// Which side of a loopy game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sided {
    /// The onside `G⁺`: play that alternates forever counts for Left.
    On,
    /// The offside `G⁻`: it counts for Right.
    Off,
}

/// Largest graph (positions reachable from the game) whose sides [`side`] looks for: each
/// removal it tries compares the game beside the changed graph.
pub const MAX_SIDED_VERTICES: usize = 128;

/// The sided order of a graph's vertices: `le(g, h)` is `G⁺ ≤ H⁺` (or `G⁻ ≤ H⁻`).
pub struct SidedOrder {
    n: usize,
    /// Per pair `g * n + h`: whether Left, moving second in `H − G`, survives.
    left_survives: Vec<bool>,
}

impl SidedOrder {
    /// `G ≤ H` on this side.
    pub fn le(&self, g: u32, h: u32) -> bool {
        self.left_survives[g as usize * self.n + h as usize]
    }

    /// `G = H` on this side.
    pub fn eq(&self, g: u32, h: u32) -> bool {
        self.le(g, h) && self.le(h, g)
    }
}

/// Compares every pair of vertices of `graph` on one side.
pub fn order(graph: &Graph, side: Sided) -> SidedOrder {
    SidedOrder {
        n: graph.len(),
        left_survives: survives(graph, graph, side, None),
    }
}

/// For each vertex `g` of `gs` and `h` of `hs` (pair `g * |hs| + h`): whether `G ≤ H` on
/// this side, that is, whether Left, moving second in `H − G`, survives.
///
/// The states of `H − G` are pairs `(g, h)` with a player to move: Left moves in `H` to a
/// Left option of `h` or in `−G` to a Right option of `g`; Right to a Right option of `h` or
/// a Left option of `g`. A move in the side's own component (`H` for the onside, `−G` for
/// the offside) is *counted*. Left survives where he can keep moving and make counted moves
/// happen again and again: the greatest set `Z` such that from each of its states Left can
/// force, without running out of moves, a counted move into `Z` (a Büchi game; the least
/// fixed point inside, by counting down each Right state's moves, the greatest outside).
///
/// With `watch`, a pair whose answer alone is wanted: the solve stops as soon as Left is
/// found to lose there (the set `Z` only shrinks), and the other answers are then partial.
fn survives(gs: &Graph, hs: &Graph, side: Sided, watch: Option<usize>) -> Vec<bool> {
    let diff = Difference::new(gs, hs);
    let pairs = diff.pairs();
    let states = 2 * pairs;
    let counted_in_h = side == Sided::On;
    // A state's moves, and the moves into it, as (state, counted).
    let moves = |s: usize| {
        diff.moves(s)
            .map(move |(t, in_h)| (t, in_h == counted_in_h))
    };
    let into = |t: usize| {
        diff.moves_into(t)
            .map(move |(s, in_h)| (s, in_h == counted_in_h))
    };
    let mut z = vec![true; states];
    let mut y = vec![false; states];
    let mut pending = vec![0u32; states]; // a Right state's moves not yet good for Left
    let mut queue: Vec<usize> = Vec::new();
    loop {
        // Y: the states from which Left forces a counted move into Z.
        y.iter_mut().for_each(|b| *b = false);
        for s in 0..states {
            let in_y = match Difference::left_to_move(s) {
                true => moves(s).any(|(t, counted)| counted && z[t]),
                false => {
                    pending[s] = moves(s).filter(|&(t, counted)| !(counted && z[t])).count() as u32;
                    pending[s] == 0
                }
            };
            if in_y {
                y[s] = true;
                queue.push(s);
            }
        }
        while let Some(t) = queue.pop() {
            for (s, counted) in into(t) {
                if y[s] {
                    continue;
                }
                let joins = match Difference::left_to_move(s) {
                    true => true,
                    false => {
                        // A move already good (counted into Z) was never pending.
                        if !(counted && z[t]) {
                            pending[s] -= 1;
                        }
                        pending[s] == 0
                    }
                };
                if joins {
                    y[s] = true;
                    queue.push(s);
                }
            }
        }
        let lost = watch.is_some_and(|p| !y[2 * p + 1]);
        if y == z || lost {
            std::mem::swap(&mut y, &mut z);
            break;
        }
        std::mem::swap(&mut y, &mut z);
    }
    (0..pairs).map(|p| z[2 * p + 1]).collect()
}

/// Why a side cannot be given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SideError {
    /// No removal of a move keeps the side's value while play can still alternate forever:
    /// the side is not found as a stopper. The vertices of such a cycle.
    NotFound(Vec<u32>),
    /// The game's graph has more than [`MAX_SIDED_VERTICES`] vertices.
    TooLarge(usize),
    /// The side found did not compare equal to the game's (a defect, never a value).
    Unverified,
}

/// The onside or offside of the game at vertex `root` of `graph`, as the simplest form of a
/// stopper (root 0); checked equal to the game's side.
pub fn side(graph: &Graph, root: u32, sided: Sided) -> Result<Graph, SideError> {
    let original = graph.from_root(root);
    if original.len() > MAX_SIDED_VERTICES {
        return Err(SideError::TooLarge(original.len()));
    }
    let keeps_the_side = |trial: &Graph| -> bool {
        survives(&original, trial, sided, Some(0))[0]
            && survives(trial, &original, sided, Some(0))[0]
    };
    let mut g = original.clone();
    while let Some(cycle) = g.alternating_cycle(0) {
        // The player whom alternating play does not favour gives up moves first.
        let first = sided == Sided::Off;
        let removed = [first, !first].into_iter().find_map(|left| {
            let moves = alternating_moves(&g, left);
            let mut trial = g.clone();
            remove_keeping(&mut trial, left, &moves, &keeps_the_side).then_some(trial)
        });
        g = removed.ok_or(SideError::NotFound(cycle))?.from_root(0);
    }
    // `g` is now a stopper of at most MAX_SIDED_VERTICES vertices, well within the
    // stoppers' limit; any error of `simplest` here is a defect, reported as unverified.
    const _: () = assert!(2 * MAX_SIDED_VERTICES <= stopper::MAX_ORDER_VERTICES);
    let simple = stopper::simplest(&g, 0).map_err(|_| SideError::Unverified)?;
    match keeps_the_side(&simple) {
        true => Ok(simple),
        false => Err(SideError::Unverified),
    }
}

/// The value of a game with onside `on` and offside `off` (simplest forms, root 0), written
/// as CGSuite writes it: the one stopper where the two are equal, `dud` for `on & off`, and
/// `S & T` otherwise.
pub fn write(on: &Graph, off: &Graph, forms: &mut super::Forms) -> String {
    let both = on.beside(off);
    if stopper::order(&both).eq(0, on.len() as u32) {
        return stopper::write(on, forms);
    }
    let (on, off) = (stopper::write(on, forms), stopper::write(off, forms));
    match (on.as_str(), off.as_str()) {
        ("on", "off") => "dud".to_string(),
        _ => format!("{on} & {off}"),
    }
}

/// Removes from `g` as many of one side's `moves` as `keeps` allows, all at once where it
/// can, else each half in turn, down to single moves; whether any was removed.
fn remove_keeping(
    g: &mut Graph,
    left: bool,
    moves: &[(usize, u32)],
    keeps: &impl Fn(&Graph) -> bool,
) -> bool {
    if moves.is_empty() {
        return false;
    }
    let mut trial = g.clone();
    for &(v, w) in moves {
        match left {
            true => trial.left[v].retain(|&x| x != w),
            false => trial.right[v].retain(|&x| x != w),
        }
    }
    if keeps(&trial) {
        *g = trial;
        return true;
    }
    if moves.len() == 1 {
        return false;
    }
    let (a, b) = moves.split_at(moves.len() / 2);
    let first = remove_keeping(g, left, a, keeps);
    remove_keeping(g, left, b, keeps) || first
}

/// One side's moves (vertex, target) that lie on a cycle of alternating play: the move's
/// target, with the other player to move, leads back to its source.
fn alternating_moves(g: &Graph, left: bool) -> Vec<(usize, u32)> {
    let n = g.len();
    // State 2v: Left to move at v; 2v + 1: Right.
    let reaches = |from: usize, to: usize| -> bool {
        let mut seen = vec![false; 2 * n];
        let mut stack = vec![from];
        seen[from] = true;
        while let Some(s) = stack.pop() {
            if s == to {
                return true;
            }
            let (v, left_to_move) = (s / 2, s & 1 == 0);
            let ws = match left_to_move {
                true => &g.left[v],
                false => &g.right[v],
            };
            for &w in ws {
                let t = 2 * w as usize + usize::from(left_to_move);
                if !seen[t] {
                    seen[t] = true;
                    stack.push(t);
                }
            }
        }
        false
    };
    let mut found = Vec::new();
    for v in 0..n {
        let ws = match left {
            true => &g.left[v],
            false => &g.right[v],
        };
        let from = 2 * v + usize::from(!left);
        for &w in ws {
            let back = 2 * w as usize + usize::from(left);
            if !found.contains(&(v, w)) && reaches(back, from) {
                found.push((v, w));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dud_is_on_and_off() {
        let dud = Graph {
            left: vec![vec![0]],
            right: vec![vec![0]],
        };
        let on = Graph {
            left: vec![vec![0]],
            right: vec![vec![]],
        };
        let off = Graph {
            left: vec![vec![]],
            right: vec![vec![0]],
        };
        assert_eq!(side(&dud, 0, Sided::On), Ok(on));
        assert_eq!(side(&dud, 0, Sided::Off), Ok(off));
    }
}
