//! Canonical forms of short partizan games, interned: every canonical form is one
//! [`GameId`], so equal games are one id, and sums, negatives and comparisons are memoized
//! on ids (Conway, *On Numbers and Games*; Siegel, *Combinatorial Game Theory*, ch. II).

use super::dyadic::Dyadic;
use rustc_hash::FxHashMap;
use std::fmt::{self, Write};
use std::rc::Rc;

/// A canonical form held by a [`Forms`] store.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct GameId(u32);

impl GameId {
    /// The game 0 (`{ | }`), id 0 in every store.
    pub const ZERO: GameId = GameId(0);

    fn index(self) -> usize {
        self.0 as usize
    }
}

/// One canonical form: its options (canonical, no dominated or reversible ones) and, for a
/// number, its value.
#[derive(Debug)]
struct Node {
    left: Box<[GameId]>,
    right: Box<[GameId]>,
    number: Option<Dyadic>,
}

/// A number plus a multiple of up plus a nimber (`1/2^*3`), as canonical forms print.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Nus {
    /// The number part.
    pub number: Dyadic,
    /// Ups (negative: downs).
    pub ups: i64,
    /// The nimber.
    pub star: u64,
}

/// The most ups a form is recognised with when printed (past it, braces).
const MAX_UPS: i64 = 64;

/// The store of canonical forms.
#[derive(Debug)]
pub struct Forms {
    nodes: Vec<Node>,
    by_options: FxHashMap<Box<[u32]>, GameId>,
    numbers: FxHashMap<Dyadic, GameId>,
    le: FxHashMap<(GameId, GameId), bool>,
    sums: FxHashMap<(GameId, GameId), GameId>,
    negatives: FxHashMap<GameId, GameId>,
    nus: FxHashMap<GameId, Option<Nus>>,
    nus_forms: FxHashMap<Nus, GameId>,
    pub(super) thermographs: FxHashMap<GameId, std::rc::Rc<super::thermo::Thermograph>>,
    pub(super) stops: FxHashMap<(GameId, bool), Dyadic>,
    pub(super) birthdays: FxHashMap<GameId, u64>,
    /// A number past [`Dyadic::within_limits`] was asked for (it was made 0 instead).
    too_large: bool,
}

impl Default for Forms {
    fn default() -> Self {
        Forms::new()
    }
}

/// The key a form is interned under: the number of left options, then left and right ids.
fn options_key(left: &[GameId], right: &[GameId]) -> Box<[u32]> {
    std::iter::once(left.len() as u32)
        .chain(left.iter().chain(right).map(|g| g.0))
        .collect()
}

impl Forms {
    /// A store holding 0.
    pub fn new() -> Forms {
        let mut forms = Forms {
            nodes: Vec::new(),
            by_options: FxHashMap::default(),
            numbers: FxHashMap::default(),
            le: FxHashMap::default(),
            sums: FxHashMap::default(),
            negatives: FxHashMap::default(),
            nus: FxHashMap::default(),
            nus_forms: FxHashMap::default(),
            thermographs: FxHashMap::default(),
            stops: FxHashMap::default(),
            birthdays: FxHashMap::default(),
            too_large: false,
        };
        let zero = forms.number(Dyadic::ZERO);
        debug_assert_eq!(zero, GameId::ZERO);
        forms
    }

    /// How many forms are held.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether only 0 is held (never: 0 is made first).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Whether a number past [`super::dyadic::MAX_BITS`] binary digits was needed since the
    /// last call (the forms made since are not to be trusted); clears the flag.
    pub fn take_too_large(&mut self) -> bool {
        std::mem::take(&mut self.too_large)
    }

    /// The left options of `g`.
    pub fn left(&self, g: GameId) -> &[GameId] {
        &self.nodes[g.index()].left
    }

    /// The right options of `g`.
    pub fn right(&self, g: GameId) -> &[GameId] {
        &self.nodes[g.index()].right
    }

    /// The value of `g` when it is a number.
    pub fn as_number(&self, g: GameId) -> Option<Dyadic> {
        self.nodes[g.index()].number
    }

    /// The form whose options are `left` and `right`, canonical already and not a number
    /// (a form another store made canonical: [`super::share`]).
    pub(super) fn intern_canonical(&mut self, left: Vec<GameId>, right: Vec<GameId>) -> GameId {
        self.intern(left, right, None)
    }

    fn intern(
        &mut self,
        mut left: Vec<GameId>,
        mut right: Vec<GameId>,
        number: Option<Dyadic>,
    ) -> GameId {
        // Options are sets: one order, so that one form has one key.
        left.sort_unstable();
        right.sort_unstable();
        let key = options_key(&left, &right);
        if let Some(&g) = self.by_options.get(&key) {
            return g;
        }
        let g = GameId(self.nodes.len() as u32);
        self.nodes.push(Node {
            left: left.into(),
            right: right.into(),
            number,
        });
        self.by_options.insert(key, g);
        g
    }

    /// The number `x` (its canonical form: `{x-1 | }` for an integer `x > 0`, `{ | x+1}` for
    /// `x < 0`, `{x - 2^-k | x + 2^-k}` for `m / 2^k`).
    pub fn number(&mut self, x: Dyadic) -> GameId {
        if let Some(&g) = self.numbers.get(&x) {
            return g;
        }
        if !x.within_limits() {
            self.too_large = true;
            return GameId::ZERO;
        }
        let (left, right) = match x.to_integer() {
            Some(0) => (vec![], vec![]),
            Some(n) if n > 0 => (vec![self.number(Dyadic::new(n - 1, 0))], vec![]),
            Some(n) => (vec![], vec![self.number(Dyadic::new(n + 1, 0))]),
            None => {
                let step = Dyadic::new(1, x.exponent());
                (vec![self.number(x - step)], vec![self.number(x + step)])
            }
        };
        let g = self.intern(left, right, Some(x));
        self.numbers.insert(x, g);
        g
    }

    /// The nimber `*n`: `{0, *, ..., *(n-1) | 0, *, ..., *(n-1)}`.
    pub fn star(&mut self, n: u64) -> GameId {
        let mut options = Vec::new();
        let mut star = GameId::ZERO;
        for _ in 0..n {
            options.push(star);
            star = self.intern(options.clone(), options.clone(), None);
        }
        star
    }

    /// Up, `{0 | *}`.
    pub fn up(&mut self) -> GameId {
        let star = self.star(1);
        self.intern(vec![GameId::ZERO], vec![star], None)
    }

    /// `G <= H`: no left option of G is `>= H` and no right option of H is `<= G`.
    pub fn le(&mut self, g: GameId, h: GameId) -> bool {
        if g == h {
            return true;
        }
        if let (Some(x), Some(y)) = (self.as_number(g), self.as_number(h)) {
            return x <= y;
        }
        if let Some(&known) = self.le.get(&(g, h)) {
            return known;
        }
        let result = super::deep(|| self.le_by_options(g, h));
        self.le.insert((g, h), result);
        result
    }

    fn le_by_options(&mut self, g: GameId, h: GameId) -> bool {
        !(0..self.left(g).len()).any(|i| {
            let gl = self.left(g)[i];
            self.le(h, gl)
        }) && !(0..self.right(h).len()).any(|i| {
            let hr = self.right(h)[i];
            self.le(hr, g)
        })
    }

    /// `G <= H` for a game G given by its options (not interned).
    fn le_options_game(&mut self, gl: &[GameId], gr: &[GameId], h: GameId) -> bool {
        !gl.iter().any(|&x| self.le(h, x))
            && !(0..self.right(h).len()).any(|i| {
                let hr = self.right(h)[i];
                self.le_game_options(hr, gl, gr)
            })
    }

    /// `H <= G` for a game G given by its options (not interned).
    fn le_game_options(&mut self, h: GameId, gl: &[GameId], gr: &[GameId]) -> bool {
        !gr.iter().any(|&x| self.le(x, h))
            && !(0..self.left(h).len()).any(|i| {
                let hl = self.left(h)[i];
                self.le_options_game(gl, gr, hl)
            })
    }

    /// Keeps the options of one side that no other dominates: for Left the ones not `<=`
    /// another (`better(a, b)`: a is at least as good as b), equal ones once.
    fn undominated(
        &mut self,
        mut options: Vec<GameId>,
        better: fn(&mut Forms, GameId, GameId) -> bool,
    ) -> Vec<GameId> {
        options.sort_unstable();
        options.dedup();
        let mut kept: Vec<GameId> = Vec::with_capacity(options.len());
        for (i, &x) in options.iter().enumerate() {
            let dominated = options
                .iter()
                .enumerate()
                .any(|(j, &y)| j != i && better(self, y, x));
            if !dominated {
                kept.push(x);
            }
        }
        kept
    }

    /// The canonical form of `{left | right}`, whose options are canonical: dominated
    /// options removed, reversible ones bypassed, until neither applies; a number is
    /// recognised as the simplest number between its options.
    pub fn canonical(&mut self, left: Vec<GameId>, right: Vec<GameId>) -> GameId {
        let mut left = self.undominated(left, |f, a, b| f.le(b, a));
        let mut right = self.undominated(right, |f, a, b| f.le(a, b));
        loop {
            let mut changed = false;
            // A left option GL with a right option GLR <= G is replaced by GLR's left options.
            let mut new_left = Vec::with_capacity(left.len());
            for &gl in &left {
                let glrs = self.right(gl).to_vec();
                let reverse =
                    (glrs.into_iter()).find(|&glr| self.le_game_options(glr, &left, &right));
                match reverse {
                    Some(glr) => {
                        new_left.extend_from_slice(self.left(glr));
                        changed = true;
                    }
                    None => new_left.push(gl),
                }
            }
            let mut new_right = Vec::with_capacity(right.len());
            for &gr in &right {
                let grls = self.left(gr).to_vec();
                let reverse =
                    (grls.into_iter()).find(|&grl| self.le_options_game(&left, &right, grl));
                match reverse {
                    Some(grl) => {
                        new_right.extend_from_slice(self.right(grl));
                        changed = true;
                    }
                    None => new_right.push(gr),
                }
            }
            if !changed {
                break;
            }
            left = self.undominated(new_left, |f, a, b| f.le(b, a));
            right = self.undominated(new_right, |f, a, b| f.le(a, b));
        }
        // All options numbers, every left one below every right one: a number.
        let numbers = |ids: &[GameId], f: &Forms| -> Option<Vec<Dyadic>> {
            ids.iter().map(|&g| f.as_number(g)).collect()
        };
        if let (Some(ls), Some(rs)) = (numbers(&left, self), numbers(&right, self)) {
            let lo = ls.iter().copied().max();
            let hi = rs.iter().copied().min();
            if lo.zip(hi).is_none_or(|(l, h)| l < h) {
                return self.number(Dyadic::simplest_between(lo, hi));
            }
        }
        self.intern(left, right, None)
    }

    /// `-G`: every option negated, left and right exchanged.
    pub fn neg(&mut self, g: GameId) -> GameId {
        if let Some(x) = self.as_number(g) {
            return self.number(-x);
        }
        if let Some(&n) = self.negatives.get(&g) {
            return n;
        }
        let left: Vec<GameId> = self.right(g).to_vec();
        let right: Vec<GameId> = self.left(g).to_vec();
        let left = left.into_iter().map(|x| self.neg(x)).collect();
        let right = right.into_iter().map(|x| self.neg(x)).collect();
        // The negative of a canonical form is canonical.
        let n = self.intern(left, right, None);
        self.negatives.insert(g, n);
        self.negatives.insert(n, g);
        n
    }

    /// `G + H`: `{GL + H, G + HL | GR + H, G + HR}`, canonical; numbers add as numbers.
    pub fn add(&mut self, g: GameId, h: GameId) -> GameId {
        if g == GameId::ZERO {
            return h;
        }
        if h == GameId::ZERO {
            return g;
        }
        if let (Some(x), Some(y)) = (self.as_number(g), self.as_number(h)) {
            return self.number(x + y);
        }
        let key = (g.min(h), g.max(h));
        if let Some(&s) = self.sums.get(&key) {
            return s;
        }
        let s = super::deep(|| self.add_by_options(g, h));
        self.sums.insert(key, s);
        s
    }

    fn add_by_options(&mut self, g: GameId, h: GameId) -> GameId {
        // Number translation: x + H = {x + HL | x + HR} for a number x and a non-number H,
        // so a number's own options are never added.
        let (gn, hn) = (self.as_number(g).is_some(), self.as_number(h).is_some());
        let mut left = Vec::new();
        let mut right = Vec::new();
        if !gn {
            for i in 0..self.left(g).len() {
                let gl = self.left(g)[i];
                left.push(self.add(gl, h));
            }
            for i in 0..self.right(g).len() {
                let gr = self.right(g)[i];
                right.push(self.add(gr, h));
            }
        }
        if !hn {
            for i in 0..self.left(h).len() {
                let hl = self.left(h)[i];
                left.push(self.add(g, hl));
            }
            for i in 0..self.right(h).len() {
                let hr = self.right(h)[i];
                right.push(self.add(g, hr));
            }
        }
        self.canonical(left, right)
    }

    /// `G - H`.
    pub fn sub(&mut self, g: GameId, h: GameId) -> GameId {
        let n = self.neg(h);
        self.add(g, n)
    }

    /// `u` ups (`u < 0`: downs).
    fn ups(&mut self, u: i64) -> GameId {
        let unit = if u >= 0 {
            self.up()
        } else {
            let up = self.up();
            self.neg(up)
        };
        (0..u.unsigned_abs()).fold(GameId::ZERO, |acc, _| self.add(acc, unit))
    }

    /// The canonical form of a number-up-star.
    pub fn nus_form(&mut self, n: Nus) -> GameId {
        if let Some(&g) = self.nus_forms.get(&n) {
            return g;
        }
        let x = self.number(n.number);
        let u = self.ups(n.ups);
        let s = self.star(n.star);
        let xu = self.add(x, u);
        let g = self.add(xu, s);
        self.nus_forms.insert(n, g);
        g
    }

    /// `g` as a number plus ups plus a nimber, when it is one.
    pub fn nus(&mut self, g: GameId) -> Option<Nus> {
        if let Some(x) = self.as_number(g) {
            return Some(Nus {
                number: x,
                ups: 0,
                star: 0,
            });
        }
        if let Some(&known) = self.nus.get(&g) {
            return known;
        }
        let options: Vec<GameId> = self.left(g).iter().chain(self.right(g)).copied().collect();
        let mut parts = Vec::new();
        for o in options {
            match self.nus(o) {
                Some(n) => parts.push(n),
                None => {
                    self.nus.insert(g, None);
                    return None;
                }
            }
        }
        // Candidates next to an option's value: one up more or less, a star more or less;
        // the one whose canonical form is `g` is its value.
        let mut candidates = Vec::new();
        for p in &parts {
            candidates.push(Nus {
                star: (0..)
                    .find(|&k| !parts.iter().any(|q| q.ups == 0 && q.star == k))
                    .unwrap_or(0),
                ..*p
            });
            for du in [-1, 0, 1] {
                for flip in [0, 1] {
                    let ups = p.ups + du;
                    if (du, flip) != (0, 0) && ups.abs() <= MAX_UPS {
                        candidates.push(Nus {
                            ups,
                            star: p.star ^ flip,
                            ..*p
                        });
                    }
                }
            }
        }
        let found = candidates
            .into_iter()
            .find(|&c| (c.ups != 0 || c.star != 0) && self.nus_form(c) == g);
        self.nus.insert(g, found);
        found
    }

    /// Writes `g` in the notation of CGSuite and `cgt`: `-3/2`, `*`, `*2`, `^`, `v2*`,
    /// `1/2^*`, and `{A, B|C}` otherwise, each side's options by birthday, then by text (so
    /// the text of a game does not depend on the order its forms were made in).
    pub fn write(&mut self, g: GameId, out: &mut String) {
        let mut texts = FxHashMap::default();
        out.push_str(&self.text(g, &mut texts));
    }

    /// The text of `g`, each game's text made once per call of [`Forms::write`] (a game
    /// shared by many ancestors is not written again for each of them).
    fn text(&mut self, g: GameId, texts: &mut FxHashMap<GameId, Rc<str>>) -> Rc<str> {
        if let Some(t) = texts.get(&g) {
            return t.clone();
        }
        let mut out = String::new();
        if let Some(n) = self.nus(g) {
            write_nus(n, &mut out);
        } else {
            let (left, right) = (self.left(g).to_vec(), self.right(g).to_vec());
            out.push('{');
            self.write_options(&left, texts, &mut out);
            out.push('|');
            self.write_options(&right, texts, &mut out);
            out.push('}');
        }
        let text: Rc<str> = out.into();
        texts.insert(g, text.clone());
        text
    }

    /// One side's options, by birthday, then by text, separated by commas.
    fn write_options(
        &mut self,
        options: &[GameId],
        texts: &mut FxHashMap<GameId, Rc<str>>,
        out: &mut String,
    ) {
        let mut written: Vec<(u64, Rc<str>)> = options
            .iter()
            .map(|&x| (self.birthday(x), self.text(x, texts)))
            .collect();
        written.sort();
        for (i, (_, text)) in written.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(text);
        }
    }

    /// `g` as written by [`Forms::write`].
    pub fn display(&mut self, g: GameId) -> String {
        let mut s = String::new();
        self.write(g, &mut s);
        s
    }
}

fn write_nus(n: Nus, out: &mut String) {
    if n.number == Dyadic::ZERO && n.ups == 0 && n.star == 0 {
        out.push('0');
        return;
    }
    if n.number != Dyadic::ZERO {
        let _ = write!(out, "{}", n.number);
    }
    match n.ups {
        0 => {}
        1 => out.push('^'),
        -1 => out.push('v'),
        u if u > 0 => {
            let _ = write!(out, "^{u}");
        }
        u => {
            let _ = write!(out, "v{}", -u);
        }
    }
    match n.star {
        0 => {}
        1 => out.push('*'),
        s => {
            let _ = write!(out, "*{s}");
        }
    }
}

impl fmt::Display for Nus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_nus(*self, &mut s);
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn int(f: &mut Forms, n: i64) -> GameId {
        f.number(Dyadic::integer(n))
    }

    /// `{0|-1/2, {0|-1}}` made with its options' forms in either order is written the same.
    #[test]
    fn text_does_not_depend_on_the_order_forms_were_made() {
        let texts: Vec<String> = [false, true]
            .into_iter()
            .map(|half_first| {
                let mut f = Forms::new();
                let minus_one = int(&mut f, -1);
                let make_half = |f: &mut Forms| f.canonical(vec![minus_one], vec![GameId::ZERO]);
                let make_other = |f: &mut Forms| f.canonical(vec![GameId::ZERO], vec![minus_one]);
                let (half, other) = match half_first {
                    true => (make_half(&mut f), make_other(&mut f)),
                    false => {
                        let other = make_other(&mut f);
                        (make_half(&mut f), other)
                    }
                };
                let g = f.canonical(vec![GameId::ZERO], vec![half, other]);
                f.display(g)
            })
            .collect();
        assert_eq!(texts, ["{0|-1/2, {0|-1}}", "{0|-1/2, {0|-1}}"]);
    }

    #[test]
    fn forms_print_as_cgsuite_writes_them() {
        let mut f = Forms::new();
        let zero = GameId::ZERO;
        let star = f.star(1);
        let up = f.up();
        let (one, minus_one) = (int(&mut f, 1), int(&mut f, -1));
        let cases: Vec<(GameId, &str)> = vec![
            (zero, "0"),
            (star, "*"),
            (up, "^"),
            (f.canonical(vec![zero, star], vec![zero]), "^*"),
            (f.canonical(vec![zero], vec![zero, star]), "v*"),
            (f.canonical(vec![star], vec![zero, star]), "v"),
            (f.add(up, up), "^2"),
            (f.star(3), "*3"),
            (f.canonical(vec![one], vec![one]), "1*"),
            (f.canonical(vec![one], vec![minus_one]), "{1|-1}"),
            (f.number(Dyadic::new(-3, 1)), "-3/2"),
            (f.canonical(vec![zero], vec![one]), "1/2"),
        ];
        for (g, text) in cases {
            assert_eq!(f.display(g), text);
        }
        // {2 | -1/2}: Domineering's 2×3 board (Winning Ways).
        let two = int(&mut f, 2);
        let minus_half = f.number(Dyadic::new(-1, 1));
        let g = f.canonical(vec![two], vec![minus_half]);
        assert_eq!(f.display(g), "{2|-1/2}");
        // * + * = 0, ^ + v = 0, * + *2 = *3.
        assert_eq!(f.add(star, star), zero);
        let down = f.neg(up);
        assert_eq!(f.display(down), "v");
        assert_eq!(f.add(up, down), zero);
        let s2 = f.star(2);
        let s3 = f.star(3);
        assert_eq!(f.add(star, s2), s3);
        // ^ + * = ^*, with canonical form {0, * | 0}.
        let upstar = f.add(up, star);
        assert_eq!(f.display(upstar), "^*");
        assert_eq!(f.left(upstar).len(), 2);
    }

    /// A game tree, for a brute-force definition of the order.
    #[derive(Clone, Debug)]
    struct Tree {
        left: Vec<Tree>,
        right: Vec<Tree>,
    }

    impl Tree {
        fn neg(&self) -> Tree {
            Tree {
                left: self.right.iter().map(Tree::neg).collect(),
                right: self.left.iter().map(Tree::neg).collect(),
            }
        }

        fn add(&self, other: &Tree) -> Tree {
            let mut left: Vec<Tree> = self.left.iter().map(|l| l.add(other)).collect();
            left.extend(other.left.iter().map(|l| self.add(l)));
            let mut right: Vec<Tree> = self.right.iter().map(|r| r.add(other)).collect();
            right.extend(other.right.iter().map(|r| self.add(r)));
            Tree { left, right }
        }

        /// Whether Left, moving first, wins (by search).
        fn left_first_wins(&self) -> bool {
            self.left.iter().any(|l| !l.right_first_wins())
        }

        fn right_first_wins(&self) -> bool {
            self.right.iter().any(|r| !r.left_first_wins())
        }

        fn form(&self, f: &mut Forms) -> GameId {
            let left = self.left.iter().map(|t| t.form(f)).collect();
            let right = self.right.iter().map(|t| t.form(f)).collect();
            f.canonical(left, right)
        }
    }

    fn tree() -> impl Strategy<Value = Tree> {
        let leaf = Just(Tree {
            left: vec![],
            right: vec![],
        });
        leaf.prop_recursive(3, 12, 3, |inner| {
            (
                prop::collection::vec(inner.clone(), 0..3),
                prop::collection::vec(inner, 0..3),
            )
                .prop_map(|(left, right)| Tree { left, right })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// G - H is a second-player win exactly when G and H have one canonical form; the
        /// sum's form is the form of the sum; the outcome read off the form is the searched
        /// one.
        #[test]
        fn canonical_forms_are_equality(g in tree(), h in tree()) {
            let mut f = Forms::new();
            let (a, b) = (g.form(&mut f), h.form(&mut f));
            let difference = g.add(&h.neg());
            let second_player_wins =
                !difference.left_first_wins() && !difference.right_first_wins();
            prop_assert_eq!(second_player_wins, a == b);
            let sum = g.add(&h);
            prop_assert_eq!(sum.form(&mut f), f.add(a, b));
            prop_assert_eq!(g.neg().form(&mut f), f.neg(a));
            prop_assert_eq!(f.le(GameId::ZERO, a), !g.right_first_wins());
            prop_assert_eq!(f.le(a, GameId::ZERO), !g.left_first_wins());
            // Printing is defined for every form.
            prop_assert!(!f.display(a).is_empty());
        }
    }
}
