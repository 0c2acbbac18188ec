//! Random small CGDL programs for the native == interpreter property test.
//!
//! Each program has a heap game `A(n: nat)`, a bounded game `B(a, b)`, a set game
//! `C(s: set<0..8>)`, a board game `D(cells: set<Cell>, tags: set<T>)` over a tuple type
//! `Cell` and a tagged type `T` (sets kept as bits natively, split by `components`, functions over finite types
//! computed into tables while building), and a game `E` on the same board whose `end`
//! conditions native code answers by a probe (its quantifiers exchanged), whose moves are drawn from templates (take, split, finish, shrink
//! through a helper, compounds in results, conditional results, moves from `B` into `A`, set
//! algebra on sets with negative and large elements), with random constants, and a random
//! set of queries (tables of every value kind, grids, compound values, periods). Every move
//! lowers a measure (`A` by `n`; `B` by `(b, a)` in lexicographic order, and `B` may move
//! into `A` but not back; `C` by its size; `D` by its cells, then its tags; `E` fills its board), so the games are acyclic; some programs deliberately build a field value
//! outside its type, so that run-time errors are compared too.
//!
//! Sampling uses proptest's strategies with a fixed seed, so build.rs and the test see the
//! same programs on every machine.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// How many programs the property test compiles.
pub const COUNT: u64 = 24;

struct Sample {
    runner: TestRunner,
}

impl Sample {
    fn new(seed: u64) -> Sample {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
        bytes[8..16].copy_from_slice(&0x9e37_79b9_7f4a_7c15u64.to_le_bytes());
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
        Sample {
            runner: TestRunner::new_with_rng(Config::default(), rng),
        }
    }

    fn draw<S: Strategy>(&mut self, strategy: S) -> S::Value {
        match strategy.new_tree(&mut self.runner) {
            Ok(tree) => tree.current(),
            Err(e) => panic!("sampling a program: {e}"),
        }
    }

    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        self.draw(lo..=hi)
    }

    fn chance(&mut self, p: f64) -> bool {
        self.draw(proptest::bool::weighted(p))
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.int(0, items.len() as i64 - 1) as usize]
    }

    /// A non-empty subset of `items`, in order.
    fn subset<'a>(&mut self, items: &[&'a str]) -> Vec<&'a str> {
        let mut chosen: Vec<&str> = items.iter().copied().filter(|_| self.chance(0.4)).collect();
        if chosen.is_empty() {
            chosen.push(self.pick(items));
        }
        chosen
    }
}

const COMPOUNDS: &[&str] = &["union", "selective", "conjunctive", "continued", "wtia"];
const VALUES: &[&str] = &[
    "outcome",
    "misere_outcome",
    "grundy",
    "wnumber",
    "misere_wnumber",
    "remoteness",
    "suspense",
];

/// A heap `A(...)` strictly smaller than `n`, given `rest` (an expression `< n`).
fn smaller(s: &mut Sample, rest: &str) -> String {
    match s.int(0, 3) {
        0 => format!("A({rest})"),
        1 => format!("A(shrink({rest}))"),
        2 => format!("A(({rest}) / {})", s.int(1, 3)),
        _ => format!("A(min({rest}, {}))", s.int(0, 6)),
    }
}

fn heap_move(s: &mut Sample, i: usize) -> String {
    match s.int(0, 5) {
        0 => {
            let lo = s.int(1, 2);
            let hi = lo + s.int(0, 3);
            let extra = if s.chance(0.4) {
                format!(", (n - k) % {} != {}", s.int(2, 4), s.int(0, 1))
            } else {
                String::new()
            };
            let target = smaller(s, "n - k");
            format!("    move take{i}(k in {lo}..={hi}, k <= n{extra}) => {target}")
        }
        1 => {
            let lo = s.int(1, 2);
            let hi = lo + s.int(0, 2);
            format!(
                "    move split{i}(k in {lo}..={hi}, k <= n, left in 0..=(n - k) / 2) => \
                 A(left) + A(n - k - left)"
            )
        }
        2 => format!(
            "    move finish{i}(n >= {}, n % {} == {}) => end",
            s.int(0, 3),
            s.int(1, 3),
            s.int(0, 1)
        ),
        3 => {
            let kind = s.pick(COMPOUNDS);
            format!(
                "    move pair{i}(k in 1..={}, k <= n) => {kind}(A(n - k), A(k - 1))",
                s.int(1, 3)
            )
        }
        4 => {
            let m = s.int(2, 3);
            let a = smaller(s, "n - k");
            format!(
                "    move choose{i}(k in 1..={}, k <= n) => \
                 if (n - k) % {m} == 0 then {a} else A((n - k) / {m})",
                s.int(1, 3)
            )
        }
        _ => {
            let c = s.int(1, 4);
            format!(
                "    move halve{i}(k in {{1, {c}}}, k <= n) => let r = n - k in A(r) + A(r / 2)"
            )
        }
    }
}

/// A move of `B`; heaps of `A` it makes stay at most `largest`.
fn bounded_move(s: &mut Sample, i: usize, ra: i64, rb: i64, errors: bool, largest: i64) -> String {
    match s.int(0, 4) {
        0 => format!(
            "    move left{i}(k in 1..={}, k <= a) => B(a - k, b)",
            s.int(1, 3)
        ),
        1 => {
            // Lowers b; a may grow, within its range unless this program tests errors.
            let grown = if errors {
                "a + k".to_string()
            } else {
                format!("min(a + k, {ra})")
            };
            format!("    move down{i}(k in 1..=b) => B({grown}, b - k)")
        }
        2 => format!(
            "    move spill{i}(b >= 1) => B(a, b - 1) + A(min(a + {}, {largest}))",
            s.int(0, 2)
        ),
        3 => {
            let kind = s.pick(COMPOUNDS);
            format!("    move race{i}(k in 1..=min(a, b)) => {kind}(B(a - k, b), A(k))")
        }
        _ => format!(
            "    move jump{i}((da, db) in [(1, 0), (0, 1), (2, 1)], da <= a, db <= b, \
             a + b > {}) => B(a - da, b - db)",
            s.int(0, rb.min(ra))
        ),
    }
}

/// A move of `C`, a game on a set; its sets of `spread` reach elements that are negative or
/// at least 128 (so native code leaves its one-word sets), and every move removes an element.
fn set_move(s: &mut Sample, i: usize) -> String {
    match s.int(0, 3) {
        0 => format!(
            "    move drop{i}(e in s, e % {} != 1) => C(s - {{e}})",
            s.int(2, 3)
        ),
        1 => format!(
            "    move far{i}(e in s, max(spread(s)) - min(spread(s)) >= {}) => \
             C({{ f for f in s where f * 40 + OFFSET in spread(s - {{e}}) }})",
            s.int(0, 200)
        ),
        2 => format!(
            "    move cut{i}(e in s, len(spread(s) - spread({{0, 2, 4}})) > {}, \
             (e * 40 + OFFSET) in spread(s) & spread({{e, {}}})) => C(s - {{e}}) + A({})",
            s.int(0, 3),
            s.int(0, 8),
            s.int(0, 3)
        ),
        // `max` and `min` of comprehensions (native code folds them); with `>` the first
        // one is empty, an error, when `e` is the largest element.
        _ => format!(
            "    move peak{i}(e in s, max({{ f - e for f in s where f {} e }}) \
             + min({{ {} - g for g in spread(s) }}) >= {}) => C(s - {{e}})",
            if s.chance(0.15) { ">" } else { ">=" },
            s.int(0, 9),
            s.int(-300, 10)
        ),
    }
}

/// `D`, a game on a board of `Cell`s that collects tags of a tagged type `T`: `near` and
/// `tag` take finite types (native code tabulates them; `near` reaches cells off the board,
/// and with `errors` `tag` builds a payload outside its type for some cells), and its
/// queries take `Cell` and `T` as sets.
/// (`more` draws the parts added later, so that `s` draws what it drew before.)
fn board_game(s: &mut Sample, more: &mut Sample, errors: bool) -> String {
    let (rows, cols) = (s.int(1, 2), s.int(2, 3));
    let (a, b) = (s.int(1, 2), s.int(1, 2));
    let mut out = format!("type Cell = (0..{rows}, 0..{cols})\n");
    out += &format!("type T = P(0..{a}, bool) | Q | S(0..={b})\n");
    out += &format!(
        "fn near(x: Cell) -> set<Cell> = {{(x.0, x.1 + 1), (x.0 + {}, x.1)}}\n",
        s.int(0, 1)
    );
    let payload = if errors {
        "x.0 + x.1".to_string()
    } else {
        format!("(x.0 + x.1) % {}", b + 1)
    };
    out += &format!(
        "fn tag(x: Cell) -> T = if x.0 == x.1 then Q else if x.0 < x.1 then P(x.1 % {a}, x.0 > 0) \
         else S({payload})\n"
    );
    out += &format!(
        "fn around(x: Cell) -> set<Cell> = {{ y for y in Cell where y.0 + y.1 == x.0 + x.1 + {} }}\n",
        more.int(0, 1)
    );
    out += "game D(cells: set<Cell>, tags: set<T>) {\n";
    out += &format!(
        "    move take(x in cells, len(near(x) & cells) <= {}) => D(cells - near(x) - {{x}}, tags | {{tag(x)}})\n",
        s.int(0, 2)
    );
    out += &format!(
        "    move drop(t in tags, t != Q, len(tags) >= {}) => D(cells, tags - {{t}})\n",
        s.int(1, 3)
    );
    // Nested tuple patterns, over a comprehension of two generators and a `let`.
    out += &format!(
        "    move pair(((r1, c1), (r2, c2)) in {{ (x, y) for x in cells, y in near(x) & cells, \
         let d = x.0 + y.1 where x != y and d >= {} }}, r1 + c2 <= {}) => \
         D(cells - {{(r1, c1), (r2, c2)}}, tags)\n",
        more.int(0, 1),
        more.int(1, 3)
    );
    // Quantifiers that native code inverts (`around` has every value in its type): only
    // the `y` whose `around(y)` holds `x` are looked at.
    out += &format!(
        "    move mark(x in cells, (exists y in Cell: x in around(y) and y in cells and y != x), \
         (count z in Cell: x in around(z) and len(around(z) & cells) >= {}) <= 2, \
         (count w in Cell: x in around(w)) <= {}) => D(cells - {{x}}, tags)\n",
        more.int(1, 2),
        more.int(1, 3)
    );
    // A closure over a set of tuples (bits natively), whose steps may fail (`near` leaves
    // the board): both back ends must visit the same cells first.
    out += &format!(
        "    move reach(x in cells, len(closure({{x}}, y => near(y) & cells)) >= {}) => D(cells - {{x}}, tags)\n",
        more.int(1, 3)
    );
    // The parts of a set of tuples under a step that is not symmetric and leaves the
    // board: a condition on them, and a sum of one game per part.
    out += &format!(
        "    move split(x in cells, len(components(cells - {{x}}, y => near(y))) >= {}) => \
         sum(D(p, tags) for p in components(cells - {{x}}, y => near(y)))\n",
        more.int(1, 3)
    );
    // Set algebra on the field itself, which native code does on its stored bits
    // (`codegen/packed_sets.rs`): binders over the field less a cell and within cells
    // written out (one off a small board), results that keep or remove a table's cells or
    // cells written out (some off the board).
    out += &format!(
        "    move keep(x in cells - {{(0, 0)}}, x not in around(x), len(cells) >= {}) => \
         D(around(x) & cells, tags)\n",
        more.int(2, 4)
    );
    out += &format!(
        "    move cut((r, c) in cells & {{(0, 0), (0, 1), (1, 2)}}, (r, c + 1) in cells, r + c <= {}) => \
         D(cells - {{(r, c + 1), (r + 1, c)}}, tags)\n",
        more.int(0, 2)
    );
    out += "    move shave(x in cells, len(around(x) & cells) > 0) => \
            let rest = cells - around(x) in D(rest, tags | {tag(x)})\n";
    // A set bound with its bits and read only where they do not serve.
    out += &format!(
        "    move thin(x in cells, len(around(x) & cells) > 0) => let rest = cells - {{x}} in \
         if len(rest) >= {} then D(cells - around(x), tags) else D(cells - around(x), tags | {{tag(x)}})\n",
        more.int(1, 3)
    );
    // A set read both as a value and through its bits (its value then made from them):
    // which cells the value holds decides the result (`min(rest | {x})`), not only how many.
    out += &format!(
        "    move trim(x in cells & around((1, 1))) => let rest = cells - {{x}} in \
         if len(rest | around((0, 0))) >= {} then D(rest, tags) \
         else D(rest & around(min(rest | {{x}})), tags)\n",
        more.int(2, 5)
    );
    if s.chance(0.5) {
        out += &format!(
            "    move finish((r, c) in cells, (r, c + 1) in cells, r >= {}) => end\n",
            s.int(0, 1)
        );
    }
    out += "}\n";
    // A game whose `end` conditions native code turns into a probe (`Rules::ends_now`),
    // with its quantifiers exchanged: nothing in its moves can fail.
    out += "game E(cells: set<Cell>, tags: set<T>) {\n";
    out += &format!(
        "    move close(x in Cell, x not in cells) => if exists y in Cell: x in around(y) and \
         len(around(y) & cells) == {} then end else E(cells | {{x}}, tags)\n",
        more.int(1, 2)
    );
    out += &format!(
        "    move flip(t in T, t not in tags) => if len(tags) >= {} and t != Q then end \
         else E(cells, tags | {{t}})\n",
        more.int(1, 3)
    );
    out += "}\n";
    out += "value outcome, wnumber, grundy of E({}, {})\n";
    out += "table outcome of E({x}, {}) for x in Cell\n";
    out += &format!("value {} of D(Cell, {{}})\n", s.subset(VALUES).join(", "));
    out += &format!(
        "table {} of D({{x}}, T - {{tag(x)}}) for x in Cell\n",
        s.subset(VALUES).join(", ")
    );
    out
}

/// The text of program number `seed`.
pub fn program(seed: u64) -> String {
    let s = &mut Sample::new(seed);
    let errors = s.chance(0.2);
    let ra = s.int(1, 4);
    let rb = s.int(1, 4);
    let mut out = format!("// Generated program {seed}.\n");
    out += &format!(
        "fn shrink(x: nat) -> nat = if x > {c} then x - {c} else x / 2\n",
        c = s.int(1, 3)
    );
    out += "game A(n: nat) {\n";
    let mut heap_moves = String::new();
    for i in 0..s.int(1, 3) as usize {
        heap_moves += &heap_move(s, i);
        heap_moves += "\n";
    }
    // A heap move into a sum or a compound makes `A(n)` a compound of smaller heaps, whose
    // exact search (for the values without a fast rule: suspense, misère values, ...) grows
    // exponentially in `n`, or like a tower for nested compounds: keep those heaps small.
    let compounds = COMPOUNDS
        .iter()
        .any(|k| heap_moves.contains(&format!("{k}(")));
    let sums = heap_moves.contains(" + ");
    let largest = match (compounds, sums) {
        (true, _) => 4,
        (false, true) => 8,
        (false, false) => 14,
    };
    out += &heap_moves;
    out += "}\n";
    out += &format!("game B(a: 0..={ra}, b: 0..={rb}) {{\n");
    for i in 0..s.int(1, 3) as usize {
        out += &bounded_move(s, i, ra, rb, errors, largest);
        out += "\n";
    }
    out += "}\n";
    out += &format!("const OFFSET = {}\n", s.pick(&["3", "-100", "-130"]));
    out += "fn spread(x: set<nat>) -> set<int> = { e * 40 + OFFSET for e in x }\n";
    out += "game C(s: set<0..8>) {\n";
    for i in 0..s.int(1, 2) as usize {
        out += &set_move(s, i);
        out += "\n";
    }
    out += "}\n";
    let more = &mut Sample::new(seed ^ 0x5eed);
    out += &board_game(s, more, errors);
    // `0..5 - {k}` is `(0..5) - {k}`. (Four elements at most: `C`'s moves may leave
    // sums, whose exact values are costly.)
    out += &format!(
        "value {} of C(0..5 - {{{}}} & {{ e for e in 0..8, f in 0..2 where e % 2 == f }})\n",
        more.subset(VALUES).join(", "),
        more.int(0, 4)
    );
    out += &format!(
        "value {} of C({{0, 1, 3, 6}}) + C({{2, 7}})\n",
        s.subset(VALUES).join(", ")
    );
    out += &format!(
        "table {} of A(n) for n in 0..={}\n",
        s.subset(VALUES).join(", "),
        s.int(4, largest)
    );
    out += &format!(
        "table {} of B(a, b) for a in 0..={ra}, b in 0..={rb}\n",
        s.subset(VALUES).join(", ")
    );
    let (x, y) = (s.int(0, largest.min(9)), s.int(0, largest.min(9)));
    let (p, q) = (s.int(0, ra), s.int(0, rb));
    out += &format!("value outcome, grundy, moves of A({x}) + A({y}) + B({p}, {q})\n");
    let kind = s.pick(COMPOUNDS);
    out += &format!(
        "value {}, moves of {kind}(A({x}), B({p}, {q}))\n",
        s.subset(VALUES).join(", ")
    );
    if s.chance(0.5) && !compounds {
        out += &format!("period grundy of A(n) for n in 0..={}\n", s.int(20, 80));
    }
    out
}
