//! Loopy partizan games that are *stoppers*: their simplest forms (Siegel, *Combinatorial
//! Game Theory*, ch. VI; Conway's *on*, *off*, *over*).
//!
//! A game graph gives each vertex its Left and Right options (indices). A vertex is a
//! stopper when no play from it or from a follower alternates forever (no cycle of Left,
//! Right, Left, ... moves is reachable). For stoppers `G ≤ H` exactly when Left, moving second in `H − G`,
//! never runs out of moves (infinite play counts as Left surviving): one retrograde pass over
//! pairs of vertices decides it for every pair at once ([`order`]).
//!
//! A stopper's simplest form is unique (Siegel, Theorem VI.3.17): remove dominated options,
//! bypass reversible ones and fuse equal vertices until none is left ([`simplest`]). The
//! result is written as CGSuite writes it: short followers in their canonical forms, `on`,
//! `off`, `over`, `under` and `upon` by name, `pass` for a move back to the game being
//! written and a label `a{...}` for a move back to a larger one.

use super::difference::Difference;
use super::forms::{Forms, GameId};

/// A game graph: each vertex's Left and Right options, as indices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    /// Left's options of each vertex.
    pub left: Vec<Vec<u32>>,
    /// Right's options of each vertex.
    pub right: Vec<Vec<u32>>,
}

/// Largest graph [`order`] compares (its table has one entry per pair of vertices).
pub const MAX_ORDER_VERTICES: usize = 4096;

impl Graph {
    /// How many vertices.
    pub fn len(&self) -> usize {
        self.left.len()
    }

    /// Whether the graph has no vertex.
    pub fn is_empty(&self) -> bool {
        self.left.is_empty()
    }

    fn options(&self, v: usize, left: bool) -> &[u32] {
        match left {
            true => &self.left[v],
            false => &self.right[v],
        }
    }

    /// A play from `root` or a follower of it that alternates forever, as the vertices of
    /// its cycle (first repeated), or `None` when `root` is a stopper.
    pub fn alternating_cycle(&self, root: u32) -> Option<Vec<u32>> {
        // State 2v: Left to move at v; 2v + 1: Right to move. Depth-first, iteratively.
        let n = self.len();
        let mut colour = vec![0u8; 2 * n]; // 0 new, 1 on the path, 2 done
        let starts = self.reachable(root).into_iter();
        for start in starts.flat_map(|v| [2 * v as usize, 2 * v as usize + 1]) {
            if colour[start] != 0 {
                continue;
            }
            let mut path: Vec<(usize, usize)> = vec![(start, 0)];
            colour[start] = 1;
            while let Some(&mut (state, ref mut next)) = path.last_mut() {
                let options = self.options(state / 2, state % 2 == 0);
                match options.get(*next) {
                    Some(&w) => {
                        *next += 1;
                        let to = 2 * w as usize + usize::from(state % 2 == 0);
                        match colour[to] {
                            0 => {
                                colour[to] = 1;
                                path.push((to, 0));
                            }
                            1 => {
                                let at = path.iter().position(|&(s, _)| s == to).unwrap_or(0);
                                let mut cycle: Vec<u32> =
                                    path[at..].iter().map(|&(s, _)| (s / 2) as u32).collect();
                                cycle.push(w);
                                return Some(cycle);
                            }
                            _ => {}
                        }
                    }
                    None => {
                        colour[state] = 2;
                        path.pop();
                    }
                }
            }
        }
        None
    }

    /// The vertices reachable from `root`, `root` first.
    fn reachable(&self, root: u32) -> Vec<u32> {
        let mut seen = vec![false; self.len()];
        let mut order = vec![root];
        seen[root as usize] = true;
        let mut i = 0;
        while i < order.len() {
            let v = order[i] as usize;
            for &w in self.left[v].iter().chain(&self.right[v]) {
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    order.push(w);
                }
            }
            i += 1;
        }
        order
    }

    /// The subgraph reachable from `root`, renumbered with `root` as 0.
    pub fn from_root(&self, root: u32) -> Graph {
        let order = self.reachable(root);
        let mut index = vec![u32::MAX; self.len()];
        for (i, &v) in order.iter().enumerate() {
            index[v as usize] = i as u32;
        }
        let map = |ws: &[u32]| ws.iter().map(|&w| index[w as usize]).collect::<Vec<_>>();
        Graph {
            left: order.iter().map(|&v| map(&self.left[v as usize])).collect(),
            right: order
                .iter()
                .map(|&v| map(&self.right[v as usize]))
                .collect(),
        }
    }

    /// The graph of `self` beside `other` (other's vertices numbered after self's).
    pub fn beside(&self, other: &Graph) -> Graph {
        let shift = self.len() as u32;
        let moved = |sides: &[Vec<u32>]| -> Vec<Vec<u32>> {
            sides
                .iter()
                .map(|ws| ws.iter().map(|w| w + shift).collect())
                .collect()
        };
        let mut g = self.clone();
        g.left.extend(moved(&other.left));
        g.right.extend(moved(&other.right));
        g
    }
}

/// The order of a graph's stoppers: `le(g, h)` is `G ≤ H` for vertices `g` and `h`.
pub struct Order {
    n: usize,
    /// Per pair `g * n + h`: whether Right, moving first in `H − G`, can leave Left without
    /// a move.
    right_wins: Vec<bool>,
}

impl Order {
    /// `G ≤ H`.
    pub fn le(&self, g: u32, h: u32) -> bool {
        !self.right_wins[g as usize * self.n + h as usize]
    }

    /// `G = H`.
    pub fn eq(&self, g: u32, h: u32) -> bool {
        self.le(g, h) && self.le(h, g)
    }
}

/// Compares every pair of vertices of `graph`, whose vertices must all be stoppers.
///
/// The states are pairs `(g, h)` of `H − G` with a player to move. Left moves in `H` to a
/// Left option of `h` or in `−G` to a Right option of `g`; Right to a Right option of `h` or
/// a Left option of `g`. Right wins a state where Left must move and cannot, one where Right
/// moves to a state he wins, and one where every Left move leads to a state he wins: the
/// least such set, by counting down each Left state's moves.
pub fn order(graph: &Graph) -> Order {
    let n = graph.len();
    let diff = Difference::new(graph, graph);
    let states = 2 * diff.pairs();
    // Left-to-move states: how many of Left's moves do not yet lead to a Right win (only
    // those states' counts are read).
    let mut left_moves: Vec<u32> = (0..states)
        .map(|s| match Difference::left_to_move(s) {
            true => diff.moves(s).count() as u32,
            false => 0,
        })
        .collect();
    let mut right_wins = vec![false; states];
    let mut queue: Vec<usize> = (0..states)
        .filter(|&s| Difference::left_to_move(s) && left_moves[s] == 0)
        .collect();
    queue.iter().for_each(|&s| right_wins[s] = true);
    while let Some(t) = queue.pop() {
        for (s, _) in diff.moves_into(t) {
            if right_wins[s] {
                continue;
            }
            // Right wins where he can move to a Right win, or where Left's moves all lead
            // to one.
            let wins = match Difference::left_to_move(s) {
                false => true,
                true => {
                    left_moves[s] -= 1;
                    left_moves[s] == 0
                }
            };
            if wins {
                right_wins[s] = true;
                queue.push(s);
            }
        }
    }
    Order {
        n,
        right_wins: (0..n * n).map(|p| right_wins[2 * p + 1]).collect(),
    }
}

/// Why a stopper's form cannot be given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormError {
    /// Play from the game can alternate forever: the vertices of such a cycle.
    NotAStopper(Vec<u32>),
    /// The graph has more than half [`MAX_ORDER_VERTICES`] vertices.
    TooLarge(usize),
    /// The simplified form did not compare equal to the game (a defect, never a value).
    Unverified,
}

/// The simplest form of the stopper at vertex `root` of `graph`, with its root as vertex 0.
///
/// The result is checked: its root must compare equal to `root` in the graph of both.
pub fn simplest(graph: &Graph, root: u32) -> Result<Graph, FormError> {
    if let Some(cycle) = graph.alternating_cycle(root) {
        return Err(FormError::NotAStopper(cycle));
    }
    let mut g = graph.from_root(root);
    // The check compares the game beside its form: twice the vertices at most.
    if 2 * g.len() > MAX_ORDER_VERTICES {
        return Err(FormError::TooLarge(g.len()));
    }
    let ord = order(&g);
    // The reductions keep every vertex's value, so one order serves them all. Each round
    // that changes something removes an option or replaces one by options further along an
    // alternating play (finite in a stopper); the bound only guards against a defect.
    let mut rounds = 0;
    loop {
        rounds += 1;
        if rounds > 4 * g.len() + 16 {
            return Err(FormError::Unverified);
        }
        let mut changed = false;
        for v in 0..g.len() {
            changed |= bypass_reversible(&mut g, &ord, v, true);
            changed |= bypass_reversible(&mut g, &ord, v, false);
            changed |= remove_dominated(&mut g, &ord, v);
        }
        if !changed {
            break;
        }
    }
    // Fuse equal vertices: each to the first equal to it.
    let n = g.len();
    let mut to: Vec<u32> = (0..n as u32).collect();
    for v in 0..n as u32 {
        if let Some(w) = (0..v).find(|&w| to[w as usize] == w && ord.eq(v, w)) {
            to[v as usize] = w;
        }
    }
    for side in [&mut g.left, &mut g.right] {
        for ws in side.iter_mut() {
            for w in ws.iter_mut() {
                *w = to[*w as usize];
            }
            ws.sort_unstable();
            ws.dedup();
        }
    }
    let simple = g.from_root(0);
    // The check: the form is a stopper, and it and the game, side by side, are equal.
    let original = graph.from_root(root);
    let both = original.beside(&simple);
    let form_root = original.len() as u32;
    if both.alternating_cycle(form_root).is_some() || !order(&both).eq(0, form_root) {
        return Err(FormError::Unverified);
    }
    Ok(simple)
}

/// Bypasses the reversible options of one side of `v`: a Left option `A` with a Right
/// option `B ≤ G` is replaced by `B`'s Left options (Right's the same way, mirrored).
fn bypass_reversible(g: &mut Graph, order: &Order, v: usize, left: bool) -> bool {
    let mut changed = false;
    // A stopper's chains of reversal are alternating plays, so shorter than 2n moves each.
    let mut budget = 2 * g.len() * (g.options(v, left).len() + 1) + 16;
    let mut i = 0;
    while i < g.options(v, left).len() && budget > 0 {
        budget -= 1;
        let a = g.options(v, left)[i];
        let reverses = g
            .options(a as usize, !left)
            .iter()
            .copied()
            .find(|&b| match left {
                true => order.le(b, v as u32),
                false => order.le(v as u32, b),
            });
        match reverses {
            Some(b) => {
                let replacement: Vec<u32> = g.options(b as usize, left).to_vec();
                let ws = match left {
                    true => &mut g.left[v],
                    false => &mut g.right[v],
                };
                ws.remove(i);
                for w in replacement {
                    if !ws.contains(&w) {
                        ws.push(w);
                    }
                }
                changed = true;
            }
            None => i += 1,
        }
    }
    changed
}

/// Removes dominated options of `v`: a Left option no better than another, a Right option
/// no better for Right than another (of equal ones, the first stays).
fn remove_dominated(g: &mut Graph, order: &Order, v: usize) -> bool {
    let mut changed = false;
    for left in [true, false] {
        let ws = g.options(v, left).to_vec();
        let better = |x: u32, y: u32| match left {
            true => order.le(x, y),
            false => order.le(y, x),
        };
        let kept: Vec<u32> = ws
            .iter()
            .enumerate()
            .filter(|&(i, &x)| {
                !ws.iter().enumerate().any(|(j, &y)| {
                    j != i && x != y && better(x, y) && (!better(y, x) || j < i)
                        || (x == y && j < i)
                })
            })
            .map(|(_, &x)| x)
            .collect();
        if kept.len() != ws.len() {
            changed = true;
            match left {
                true => g.left[v] = kept,
                false => g.right[v] = kept,
            }
        }
    }
    changed
}

/// Writes the stopper whose simplest form is `g` (root 0) as CGSuite writes it.
///
/// Vertices from which no cycle is reachable are short games, written in canonical form
/// through `forms`; `on = {pass|}`, `off = {|pass}`, `over = {0|pass}`, `under = {pass|0}`
/// and `upon = {pass|*}` by name; any other vertex as `{L, ...|R, ...}`, where `pass` is a
/// move back to the vertex being written and a label (`a{...}`) marks a vertex that a move
/// deeper inside it returns to.
pub fn write(g: &Graph, forms: &mut Forms) -> String {
    let n = g.len();
    // Short vertices: those whose followers are all short, found from the leaves up.
    let mut short: Vec<Option<GameId>> = vec![None; n];
    loop {
        let mut grew = false;
        for v in 0..n {
            if short[v].is_some() {
                continue;
            }
            let ids = |ws: &[u32]| -> Option<Vec<GameId>> {
                ws.iter().map(|&w| short[w as usize]).collect()
            };
            if let (Some(l), Some(r)) = (ids(&g.left[v]), ids(&g.right[v])) {
                short[v] = Some(forms.canonical(l, r));
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    let mut writer = Writer {
        g,
        forms,
        short,
        stack: Vec::new(),
        labels: vec![None; n],
        next_label: 0,
    };
    let mut out = String::new();
    writer.write(0, &mut out);
    out
}

/// The stoppers written by name.
const NAMES: [&str; 5] = ["on", "off", "over", "under", "upon"];

struct Writer<'a> {
    g: &'a Graph,
    forms: &'a mut Forms,
    short: Vec<Option<GameId>>,
    /// The vertices being written, outermost first, with where each one's text begins.
    stack: Vec<(u32, usize)>,
    labels: Vec<Option<String>>,
    next_label: u32,
}

impl Writer<'_> {
    fn is_zero(&self, v: u32) -> bool {
        self.short[v as usize] == Some(GameId::ZERO)
    }

    fn is_star(&mut self, v: u32) -> bool {
        let star = self.forms.star(1);
        self.short[v as usize] == Some(star)
    }

    fn name(&mut self, v: u32) -> Option<&'static str> {
        let (l, r) = (&self.g.left[v as usize], &self.g.right[v as usize]);
        let (l, r) = (l.as_slice(), r.as_slice());
        match (l, r) {
            ([a], []) if *a == v => Some("on"),
            ([], [b]) if *b == v => Some("off"),
            ([a], [b]) if *b == v && self.is_zero(*a) => Some("over"),
            ([a], [b]) if *a == v && self.is_zero(*b) => Some("under"),
            ([a], [b]) if *a == v && self.is_star(*b) => Some("upon"),
            _ => None,
        }
    }

    /// The options `ws` written, in a fixed order: short games, then names, then `pass`
    /// and labels, then braces; alphabetically within each.
    fn options(&mut self, ws: &[u32]) -> Vec<String> {
        let mut texts: Vec<(u8, String)> = ws
            .iter()
            .map(|&w| {
                let mut text = String::new();
                self.write(w, &mut text);
                let class = match () {
                    _ if self.short[w as usize].is_some() => 0,
                    _ if NAMES.contains(&text.as_str()) => 1,
                    _ if text == "pass" => 2,
                    _ if text.contains('{') => 4,
                    _ => 3, // a label
                };
                (class, text)
            })
            .collect();
        texts.sort();
        texts.into_iter().map(|(_, text)| text).collect()
    }

    fn write(&mut self, v: u32, out: &mut String) {
        if let Some(id) = self.short[v as usize] {
            self.forms.write(id, out);
            return;
        }
        if let Some(name) = self.name(v) {
            out.push_str(name);
            return;
        }
        if let Some(&(top, _)) = self.stack.last() {
            if top == v {
                out.push_str("pass");
                return;
            }
        }
        if self.stack.iter().any(|&(w, _)| w == v) {
            let label = match &self.labels[v as usize] {
                Some(name) => name.clone(),
                None => {
                    let name = label_name(self.next_label);
                    self.next_label += 1;
                    self.labels[v as usize] = Some(name.clone());
                    name
                }
            };
            out.push_str(&label);
            return;
        }
        self.stack.push((v, out.len()));
        out.push('{');
        let (left, right) = (
            self.g.left[v as usize].clone(),
            self.g.right[v as usize].clone(),
        );
        let left = self.options(&left);
        out.push_str(&left.join(", "));
        out.push('|');
        let right = self.options(&right);
        out.push_str(&right.join(", "));
        out.push('}');
        let (_, at) = self.stack.pop().unwrap_or((v, 0));
        if let Some(name) = self.labels[v as usize].take() {
            out.insert_str(at, &name);
        }
    }
}

/// The label for the `i`th vertex that needs one: `a`, `b`, ... `z`, `a1`, `b1`, ...
fn label_name(i: u32) -> String {
    let letter = char::from(b'a' + (i % 26) as u8);
    match i / 26 {
        0 => letter.to_string(),
        k => format!("{letter}{k}"),
    }
}
