//! The symmetries the compiler finds (`opt::symmetry`) against the definition: a
//! permutation of the elements of a game's set field is a symmetry when, for every
//! position, the options of its image are the images of its options. On boards up to
//! 3 × 4 the test finds every such permutation by a search over permutations (each
//! assignment checked on the positions it already decides), and the group the compiler
//! found has exactly as many elements (every element it uses is checked against the game's
//! structure, so it is a subgroup: equal orders make the groups equal). Then every position
//! of the board has the same value in the program as optimized, with the symmetries, as in
//! the program as written without them (`Mode::Exact`), and each position's least image
//! is its own least image.

use cgdl_compiler::interp::Interpreter;
use cgdl_compiler::ir::Val;
use cgdl_runtime::partizan::Side;
use cgdl_runtime::{Expr, Mode, Options, Rules, Solver, ValueKind};
use std::collections::HashMap;
use std::rc::Rc;

/// A game over a board of `R` × `C`, with its source's constants set.
fn source(template: &str, r: usize, c: usize) -> String {
    format!("const R = {r}\nconst C = {c}\n{template}")
}

const CRAM: &str = "type Cell = (0..R, 0..C)
game Cram(empty: set<Cell>) {
    move across((r, c) in empty, (r, c + 1) in empty) => Cram(empty - {(r, c), (r, c + 1)})
    move down((r, c) in empty, (r + 1, c) in empty) => Cram(empty - {(r, c), (r + 1, c)})
}";

const DOMINEERING: &str = "type Cell = (0..R, 0..C)
game Domineering(free: set<Cell>) {
    left move down(a in free, (a.0 + 1, a.1) in free) => Domineering(free - {a, (a.0 + 1, a.1)})
    right move across(a in free, (a.0, a.1 + 1) in free) => Domineering(free - {a, (a.0, a.1 + 1)})
}";

const DOTS: &str = "type Line = H(0..R, 0..(C - 1)) | V(0..(R - 1), 0..C)
type Box = (0..(R - 1), 0..(C - 1))
fn sides(b: Box) -> set<Line> = {H(b.0, b.1), H(b.0 + 1, b.1), V(b.0, b.1), V(b.0, b.1 + 1)}
game Dots(drawn: set<Line>) {
    move draw(l in Line, l not in drawn) =>
        if exists b in Box: l in sides(b) and len(sides(b) & drawn) == 3 then end
        else Dots(drawn | {l})
}";

const NODE_KAYLES: &str = "type V = (0..R, 0..C)
fn neighbours(v: V) -> set<V> = { w for w in V where abs(w.0 - v.0) + abs(w.1 - v.1) == 1 }
game NodeKayles(alive: set<V>) {
    move pick(v in alive) => NodeKayles(alive - {v} - neighbours(v))
}";

/// Take the two ends of three cells in a row, or a cell at the end of its row: the rows
/// are independent, and each can be turned end for end, a group of 3! × 2³ = 48, more
/// than the solver follows (it keeps a subgroup).
const ENDS: &str = "type Cell = (0..R, 0..C)
game Ends(s: set<Cell>) {
    move take(a in s, (a.0, a.1 + 1) in s, (a.0, a.1 + 2) in s) => Ends(s - {a, (a.0, a.1 + 2)})
    move edge(a in s, a.1 == 0 or a.1 == C - 1) => Ends(s - {a})
}";

/// [`ENDS`] without its moves at the ends of rows: the same wherever a position lies, its
/// least images are moved to the corner too.
const ENDS_ANYWHERE: &str = "type Cell = (0..R, 0..C)
game Ends(s: set<Cell>) {
    move take(a in s, (a.0, a.1 + 1) in s, (a.0, a.1 + 2) in s) => Ends(s - {a, (a.0, a.1 + 2)})
}";

const CHOMP: &str = "type Cell = (0..R, 0..C)
game Chomp(left: set<Cell>) {
    move bite(x in left, x != (0, 0)) => Chomp({ y for y in left where y.0 < x.0 or y.1 < x.1 })
}";

/// One game of a compiled program, with positions as bit masks over its elements.
struct Board<'p> {
    interp: Interpreter<'p>,
    elements: Vec<Val>,
    rank: HashMap<Val, usize>,
    partizan: bool,
}

impl Board<'_> {
    fn pos(&self, mask: u32) -> u32 {
        let set = (0..self.elements.len())
            .filter(|&i| mask >> i & 1 == 1)
            .map(|i| self.elements[i].clone())
            .collect();
        self.interp.intern(0, vec![Val::Set(Rc::new(set))].into())
    }

    fn mask(&self, pos: u32) -> u32 {
        let (_, fields) = self.interp.position(pos);
        let Val::Set(s) = &fields[0] else {
            panic!("a set field")
        };
        s.iter().map(|v| 1 << self.rank[v]).sum()
    }

    /// The options of `mask`: each side's, each an `end` (`None`) or a position's mask.
    fn options(&self, mask: u32) -> Vec<(bool, Option<u32>)> {
        let sides = match self.partizan {
            true => vec![Side::Left, Side::Right],
            false => vec![Side::Left],
        };
        let mut out = Vec::new();
        for side in sides {
            let mut opts = Options::new();
            self.interp
                .side_options(self.pos(mask), side, &mut opts)
                .expect("options");
            for i in 0..opts.len() {
                out.push((
                    side == Side::Right,
                    match opts.get(i) {
                        Expr::End => None,
                        Expr::Pos(p) => Some(self.mask(p)),
                        other => panic!("a plain option, not {other:?}"),
                    },
                ));
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The image of `mask` under `p` (`p[i]` the image of element `i`).
fn image(p: &[usize], mask: u32) -> u32 {
    (0..p.len())
        .filter(|&i| mask >> i & 1 == 1)
        .map(|i| 1 << p[i])
        .sum()
}

/// How many permutations of the board's elements are symmetries of the game, by a search
/// that assigns images element by element and checks each position whose elements and
/// options' elements are all assigned.
fn brute_force_order(board: &Board) -> u64 {
    let n = board.elements.len();
    let all: Vec<Vec<(bool, Option<u32>)>> = (0..1u32 << n).map(|m| board.options(m)).collect();
    let fits = |p: &[usize], assigned: u32| -> bool {
        // Positions within the assigned elements.
        let mut s = assigned;
        loop {
            let mine = &all[s as usize];
            let mapped = image(p, s);
            let theirs = &all[mapped as usize];
            let decided = |o: &(bool, Option<u32>)| o.1.is_none_or(|m| m & !assigned == 0);
            let mut mine_decided: Vec<(bool, Option<u32>)> = (mine.iter())
                .filter(|o| decided(o))
                .map(|&(side, o)| (side, o.map(|m| image(p, m))))
                .collect();
            mine_decided.sort_unstable();
            let target = image(p, assigned);
            let mut theirs_decided: Vec<(bool, Option<u32>)> = (theirs.iter())
                .filter(|o| o.1.is_none_or(|m| m & !target == 0))
                .copied()
                .collect();
            theirs_decided.sort_unstable();
            if mine_decided != theirs_decided || mine.len() != theirs.len() {
                return false;
            }
            if s == 0 {
                return true;
            }
            s = (s - 1) & assigned;
        }
    };
    fn search(
        k: usize,
        n: usize,
        p: &mut Vec<usize>,
        used: &mut Vec<bool>,
        fits: &dyn Fn(&[usize], u32) -> bool,
    ) -> u64 {
        if k == n {
            return 1;
        }
        let mut count = 0;
        for x in 0..n {
            if used[x] {
                continue;
            }
            p[k] = x;
            used[x] = true;
            // Unassigned elements go nowhere yet: only masks within the first k + 1 count.
            if fits(p, (1u32 << (k + 1)) - 1) {
                count += search(k + 1, n, p, used, fits);
            }
            used[x] = false;
        }
        count
    }
    let mut p = vec![0; n];
    let mut used = vec![false; n];
    search(0, n, &mut p, &mut used, &fits)
}

/// Checks the game of `source` on its board: the found group's order against the brute
/// force, and each position's values with and without the symmetries. Returns the order.
fn check(name: &str, source: &str) -> u128 {
    let program = cgdl_compiler::compile_str(source).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let game = &program.games[0];
    let found = game.found.as_ref();
    let order = found.map_or(1, |f| f.groups[0].order);
    let elements = match found {
        Some(f) => f.elements.clone(),
        None => match &game.fields[0].ty {
            cgdl_compiler::ir::FieldTy::Set(t) => t.values(&program.types, 64).expect("few"),
            _ => panic!("a set field"),
        },
    };
    let rank = elements
        .iter()
        .enumerate()
        .map(|(i, v)| (v.clone(), i))
        .collect();
    // The definition is the game as written: the optimizer may make its options sums
    // (`opt::splits`).
    let file = cgdl_compiler::parser::parse_file(source).expect("parses");
    let written = cgdl_compiler::check_as_written(&file, source).expect("checks");
    let board = Board {
        interp: Interpreter::new(&written, source),
        elements,
        rank,
        partizan: game.partizan,
    };
    assert_eq!(
        u128::from(brute_force_order(&board)),
        order,
        "{name}: the group's order"
    );
    let n = board.elements.len();
    let optimized = Board {
        interp: Interpreter::new(&program, source),
        elements: board.elements.clone(),
        rank: board.rank.clone(),
        partizan: game.partizan,
    };
    let mut fast = Solver::new(&optimized.interp);
    let mut exact = Solver::with_mode(&board.interp, Mode::Exact);
    for mask in 0..1u32 << n {
        // A least image is its own least image: the solver looks values up under it.
        let image = optimized.interp.least_image(optimized.pos(mask));
        let again = optimized.interp.least_image(image);
        assert_eq!(again, image, "{name}: {mask:b}'s least image");
        let (p, q) = (Expr::Pos(optimized.pos(mask)), Expr::Pos(board.pos(mask)));
        if board.partizan {
            let (a, b) = (fast.canonical(&p), exact.canonical(&q));
            assert_eq!(a.expect("form"), b.expect("form"), "{name}: {mask:b}");
        } else {
            for kind in [
                ValueKind::Grundy,
                ValueKind::Remoteness,
                ValueKind::MisereOutcome,
            ] {
                let (a, b) = (fast.value(kind, &p), exact.value(kind, &q));
                assert_eq!(
                    a.expect("value"),
                    b.expect("value"),
                    "{name}: {mask:b} {kind:?}"
                );
            }
        }
    }
    order
}

#[test]
fn found_groups_are_the_games_symmetries() {
    // Groups the literature knows: a square's 8 symmetries, a rectangle's 4, Chomp's
    // diagonal, Domineering's 4 that keep each player's dominoes, and on 3 × 3 dots the
    // square's 8 times the swaps of each corner box's two outer sides.
    for (name, game, (r, c), order) in [
        ("Cram", CRAM, (2, 2), 8),
        ("Cram", CRAM, (3, 4), 4),
        ("Chomp", CHOMP, (3, 3), 2),
        ("Domineering", DOMINEERING, (3, 3), 4),
        ("Dots", DOTS, (3, 3), 8 * 16),
        ("Ends", ENDS, (3, 4), 48),
        ("Ends anywhere", ENDS_ANYWHERE, (3, 4), 48),
    ] {
        assert_eq!(check(name, &source(game, r, c)), order, "{name} {r}x{c}");
    }
    for (r, c) in [(1, 3), (2, 3), (3, 3)] {
        check(&format!("Cram {r}x{c}"), &source(CRAM, r, c));
        check(&format!("Node Kayles {r}x{c}"), &source(NODE_KAYLES, r, c));
    }
    for (r, c) in [(2, 2), (2, 3), (3, 4)] {
        check(&format!("Chomp {r}x{c}"), &source(CHOMP, r, c));
    }
    for (r, c) in [(2, 2), (2, 3)] {
        check(&format!("Domineering {r}x{c}"), &source(DOMINEERING, r, c));
    }
    for (r, c) in [(2, 2), (2, 3), (3, 2)] {
        check(&format!("Dots {r}x{c}"), &source(DOTS, r, c));
    }
}

/// Cram as issue 34 writes it (`scripts/variants/cram_corner.cgdl`, its constants and
/// query left out): regions as closures chosen by their least cell, each moved to the
/// corner by a helper, a domino's cells ordered by `<`.
fn cram_corner() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scripts/variants/cram_corner.cgdl"
    );
    let text = std::fs::read_to_string(path).expect("the variant");
    (text.lines())
        .filter(|l| !l.starts_with("const ") && !l.starts_with("value "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Cram on a line of cells, the parts moved to the start (Dawson's-Kayles-like: a domino
/// takes two adjacent cells).
const STRIP_CORNER: &str = "type Cell = 0..(R * C)
fn part(cells: set<Cell>, x: Cell) -> set<Cell> =
    closure({x}, v => { y for y in cells where abs(y - v) == 1 })
fn start(s: set<Cell>) -> set<Cell> = let m = min(s) in { x - m for x in s }
game Strip(cells: set<Cell>) {
    move place(a in cells, a + 1 in cells) =>
        let rest = cells - {a, a + 1} in
        sum(Strip(start(part(rest, x))) for x in rest where x == min(part(rest, x)))
}";

/// Cram as `examples/cram.cgdl` writes it without its symmetry lines: cells taken apart by
/// patterns, regions as `components`.
const CRAM_COMPONENTS: &str = "type Cell = (0..R, 0..C)
fn neighbours(x: Cell) -> set<Cell> = { y for y in Cell where abs(y.0 - x.0) + abs(y.1 - x.1) == 1 }
game Cram(empty: set<Cell>) {
    move across((r, c) in empty, (r, c + 1) in empty) =>
        sum(Cram(part) for part in components(empty - {(r, c), (r, c + 1)}, x => neighbours(x)))
    move down((r, c) in empty, (r + 1, c) in empty) =>
        sum(Cram(part) for part in components(empty - {(r, c), (r + 1, c)}, x => neighbours(x)))
}";

/// Domineering as `examples/domineering.cgdl` writes it: each domino's second cell guarded
/// by a test that it is on the board.
const DOMINEERING_GUARDED: &str = "type Cell = (0..R, 0..C)
game Domineering(free: set<Cell>) {
    left move down(a in free, a.0 + 1 < R, (a.0 + 1, a.1) in free) =>
        Domineering(free - {a, (a.0 + 1, a.1)})
    right move across(a in free, a.1 + 1 < C and (a.0, a.1 + 1) in free) =>
        Domineering(free - {a, (a.0, a.1 + 1)})
}";

/// Rules that read where a cell lies, each of which the translation pass must refuse.
const NOT_TRANSLATION_INVARIANT: [&str; 5] = [
    // A guard stricter than the board: no domino down from the last two rows.
    "type Cell = (0..R, 0..C)
game Cram(free: set<Cell>) {
    move down(a in free, a.0 + 2 < R, (a.0 + 1, a.1) in free) => Cram(free - {a, (a.0 + 1, a.1)})
}",
    // A cell named by a constant (Chomp's poisoned corner).
    CHOMP,
    // A condition on where a cell lies.
    "type Cell = (0..R, 0..C)
game Edge(cells: set<Cell>) {
    move take(a in cells, a.0 + a.1 < 2) => Edge(cells - {a})
}",
    // A comprehension over the whole board: a cell with at most two neighbours on it.
    "type Cell = (0..R, 0..C)
fn next_to(x: Cell, y: Cell) -> bool = abs(x.0 - y.0) + abs(x.1 - y.1) == 1
game Corner(cells: set<Cell>) {
    move take(a in cells, len({ y for y in Cell where next_to(a, y) }) <= 2) =>
        Corner(cells - {a})
}",
    // A set of the board's cells joined to the position.
    "type Cell = (0..R, 0..C)
game Grow(cells: set<Cell>) {
    move take(a in cells, len(cells) > 1) => Grow((cells - {a}) | {(0, 0)})
}",
];

/// Whether every position of game 0 of `program` (a set of cells of a box, its found
/// elements or its type's values) has the same Grundy value, by exact search, as each of
/// its translates one step away on the board; and the solver's values (with the found
/// symmetries and moves to the corner) equal exact search's everywhere.
fn values_move_with_the_position(
    name: &str,
    program: &cgdl_compiler::ir::Program,
    text: &str,
) -> bool {
    let game = &program.games[0];
    let elements = match (&game.found, &game.fields[0].ty) {
        (Some(f), _) => f.elements.clone(),
        (None, cgdl_compiler::ir::FieldTy::Set(t)) => t.values(&program.types, 64).expect("few"),
        _ => panic!("a set field"),
    };
    let interp = Interpreter::new(program, text);
    let pos = |mask: u32| {
        let set = (0..elements.len())
            .filter(|&i| mask >> i & 1 == 1)
            .map(|i| elements[i].clone())
            .collect();
        Expr::Pos(interp.intern(0, vec![Val::Set(Rc::new(set))].into()))
    };
    // A cell's parts (one for a line of cells: its number).
    let parts = |v: &Val| -> Vec<i64> {
        match v {
            Val::Int(n) => vec![*n],
            Val::Tuple(p) => p
                .iter()
                .map(|x| match x {
                    Val::Int(n) => *n,
                    _ => panic!("a number"),
                })
                .collect(),
            _ => panic!("a cell"),
        }
    };
    let index: HashMap<Vec<i64>, usize> = (elements.iter().enumerate())
        .map(|(i, v)| (parts(v), i))
        .collect();
    let mut fast = Solver::new(&interp);
    let mut exact = Solver::with_mode(&interp, Mode::Exact);
    let n = elements.len();
    // A position's Grundy value, or its canonical form for a partizan game.
    let value = |solver: &mut Solver<'_, Interpreter>, p: &Expr<u32>| -> String {
        match game.partizan {
            true => solver.canonical(p).expect("form"),
            false => solver
                .value(ValueKind::Grundy, p)
                .expect("value")
                .to_string(),
        }
    };
    let mut alike = true;
    for mask in 0..1u32 << n {
        let p = pos(mask);
        let want = value(&mut exact, &p);
        assert_eq!(value(&mut fast, &p), want, "{name}: {mask:b}");
        for part in 0..parts(&elements[0]).len() {
            let moved: Option<u32> = (0..n)
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| {
                    let mut cell = parts(&elements[i]);
                    cell[part] += 1;
                    index.get(&cell).map(|&j| 1u32 << j)
                })
                .sum();
            if let Some(m) = moved {
                alike &= value(&mut exact, &pos(m)) == want;
            }
        }
    }
    alike
}

/// The translation pass against its definition, on boards up to 3 × 4: each game it
/// proves has, at every position, the values of the position moved a step anywhere on the
/// board, and the solver (symmetries found on the rules without their moves to the
/// corner, images moved to the corner) answers as exact search; rules that read where a
/// cell lies, whose values do change when a position moves, are refused.
#[test]
fn translations_are_proven_only_where_values_move_with_the_position() {
    let corner = cram_corner();
    for (name, game) in [
        ("Cram corner", corner.as_str()),
        ("Strip", STRIP_CORNER),
        ("Node Kayles", NODE_KAYLES),
        ("Cram", CRAM),
        ("Cram components", CRAM_COMPONENTS),
        ("Domineering", DOMINEERING_GUARDED),
    ] {
        for (r, c) in [(1, 4), (2, 3), (3, 3), (3, 4)] {
            let name = format!("{name} {r}x{c}");
            let text = source(game, r, c);
            let program = cgdl_compiler::compile_str(&text).unwrap_or_else(|d| panic!("{d:?}"));
            let g = &program.games[0];
            assert!(g.translation.is_some(), "{name}: proven");
            assert!(
                g.found.as_ref().is_some_and(|f| f.to_corner),
                "{name}: to the corner"
            );
            assert!(
                values_move_with_the_position(&name, &program, &text),
                "{name}"
            );
        }
    }
    for (k, game) in NOT_TRANSLATION_INVARIANT.iter().enumerate() {
        let text = source(game, 3, 3);
        let program = cgdl_compiler::compile_str(&text).unwrap_or_else(|d| panic!("{d:?}"));
        assert!(program.games[0].translation.is_none(), "rules {k}: refused");
        assert!(
            !values_move_with_the_position(&format!("rules {k}"), &program, &text),
            "rules {k}: some value changes when its position moves"
        );
    }
}
