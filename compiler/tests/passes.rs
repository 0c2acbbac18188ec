//! The optimizer's rewrites (`opt::masks`, `opt::regions`) against the program as written:
//! each program below is interpreted as written and as optimized, query by query, with the
//! same answers and the same errors; and each rewrite is made where it should be, and not
//! where a condition could fail or a step is not symmetric.

use cgdl_compiler::ir::{GameKind, IExpr, Program};
use cgdl_compiler::{check_as_written, compile_str, parser, queries, Interpreter};
use cgdl_runtime::report::{run_plan, Answer};
use cgdl_runtime::Solver;

fn answers(program: &Program, source: &str) -> Vec<Result<Answer, String>> {
    let interp = Interpreter::new(program, source);
    (program.queries.iter())
        .map(|q| {
            let plan = queries::plan(&interp, q).map_err(|e| interp.error_text(&e))?;
            let mut solver = Solver::new(&interp);
            run_plan(&mut solver, plan).map_err(|e| e.to_string())
        })
        .collect()
}

/// The program as written and as optimized, and their answers (asserted equal).
fn both(source: &str) -> (Program, Program) {
    let file = parser::parse_file(source).expect("parses");
    let written = check_as_written(&file, source).expect("checks");
    let optimized = compile_str(source).expect("checks");
    assert_eq!(
        answers(&written, source),
        answers(&optimized, source),
        "{source}"
    );
    (written, optimized)
}

/// Whether some move of the game holds an expression `pred` accepts.
fn moves_hold(program: &Program, pred: &dyn Fn(&IExpr) -> bool) -> bool {
    fn holds(e: &IExpr, pred: &dyn Fn(&IExpr) -> bool) -> bool {
        let mut found = pred(e);
        e.for_each_child(&mut |c| found |= holds(c, pred));
        found
    }
    program.games.iter().any(|g| match &g.kind {
        GameKind::Rules(moves) => moves
            .iter()
            .any(|m| holds(&m.result, pred) || m.clauses.iter().any(|c| holds(c.expr(), pred))),
        _ => false,
    })
}

fn masks(program: &Program) -> usize {
    program
        .fns
        .iter()
        .filter(|f| f.name.starts_with("mask_"))
        .count()
}

const CHOMP: &str = "const R = 3
const C = 4
type Cell = (0..R, 0..C)
game Chomp(left: set<Cell>) {
    move bite(x in left, x != (0, 0)) => Chomp({ y for y in left where y.0 < x.0 or y.1 < x.1 })
}
value grundy, remoteness of Chomp(Cell)
table grundy of Chomp({ (r, c) for r in 0..R, c in 0..C where r + c <= k }) for k in 0..5
";

const CRAM_CLOSURE: &str = "const R = 3
const C = 4
type Cell = (0..R, 0..C)
fn next_to(x: Cell, y: Cell) -> bool = abs(x.0 - y.0) + abs(x.1 - y.1) == 1
fn rank(x: Cell) -> nat = x.0 * C + x.1
fn region(cells: set<Cell>, x: Cell) -> set<Cell> =
    closure({x}, v => { y for y in cells where next_to(v, y) })
game Cram(cells: set<Cell>) {
    move place(a in cells, b in cells, next_to(a, b), rank(a) < rank(b)) =>
        let rest = cells - {a, b} in
        sum(Cram(region(rest, x)) for x in rest where rank(x) == min({ rank(y) for y in region(rest, x) }))
}
value grundy, outcome of Cram(Cell)
table grundy of Cram({ (r, c) for r in 0..R, c in 0..k }) for k in 0..=C
";

#[test]
fn conditions_on_elements_become_masks() {
    let (written, optimized) = both(CHOMP);
    assert_eq!(masks(&written), 0);
    // The bite's comprehension and the binder's condition.
    assert_eq!(masks(&optimized), 1, "{:?}", optimized.fns);
    assert!(!moves_hold(&optimized, &|e| matches!(
        e,
        IExpr::Compr { .. }
    )));
    // A condition that may fail (division by `x.1`) stays as written.
    let failing = CHOMP.replace("y.0 < x.0 or y.1 < x.1", "y.0 < x.0 or 12 / x.1 > y.1");
    let (_, optimized) = both(&failing);
    assert_eq!(masks(&optimized), 0);
    assert!(moves_hold(&optimized, &|e| matches!(
        e,
        IExpr::Compr { .. }
    )));
    // A condition that reads a name of no finite type (a number of the position) stays.
    let open = "game G(n: nat, s: set<0..6>) {\n\
                move m(x in s, k in 0..n, x + k < n) => G(n - 1, { y for y in s where y != x + k })\n\
                }\nvalue grundy of G(4, {0, 2, 3, 5})\n";
    let (_, optimized) = both(open);
    assert_eq!(masks(&optimized), 0);
}

#[test]
fn closures_with_representatives_become_components() {
    let is_components = |e: &IExpr| {
        matches!(
            e,
            IExpr::Closure {
                kind: cgdl_compiler::ast::ClosureKind::Components,
                ..
            }
        )
    };
    let (written, optimized) = both(CRAM_CLOSURE);
    assert!(!moves_hold(&written, &is_components));
    assert!(moves_hold(&optimized, &is_components));
    // The least cell itself as the representative.
    let least = CRAM_CLOSURE.replace(
        "rank(x) == min({ rank(y) for y in region(rest, x) })",
        "x == min(region(rest, x))",
    );
    let (_, optimized) = both(&least);
    assert!(moves_hold(&optimized, &is_components));
    // A step that is not symmetric (a closure to the right only) reaches only part of a
    // region: no rewrite, the same answers.
    let directed = CRAM_CLOSURE.replace(
        "closure({x}, v => { y for y in cells where next_to(v, y) })",
        "closure({x}, v => { y for y in cells where y.0 == v.0 and y.1 == v.1 + 1 })",
    );
    let (_, optimized) = both(&directed);
    assert!(!moves_hold(&optimized, &is_components));
    // A representative function that takes one value twice keeps two terms of a region.
    let twice = CRAM_CLOSURE.replace(
        "fn rank(x: Cell) -> nat = x.0 * C + x.1",
        "fn rank(x: Cell) -> nat = x.0",
    );
    let (_, optimized) = both(&twice);
    assert!(!moves_hold(&optimized, &is_components));
}

/// The values the domains pass finds a game's set field to take, as text (`None`: no
/// domain).
fn domain(source: &str, game: &str) -> Option<Vec<String>> {
    let program = compile_str(source).expect("checks");
    let g = (program.games.iter())
        .find(|g| g.name == game)
        .expect("the game");
    let values = g.domains.first()?.as_ref()?;
    Some(values.iter().map(ToString::to_string).collect())
}

const DOT_PAIRS: &str = "
type Dot = (0..4, 0..4)
const PAIRS = { ((r, c), (r, c + 1)) for r in 0..2, c in 0..1 } | { ((r, c), (r + 1, c)) for r in 0..1, c in 0..2 }
fn edges(b: Dot) -> set<(Dot, Dot)> =
    { ((b.0, b.1), (b.0, b.1 + 1)), ((b.0 + 1, b.1), (b.0 + 1, b.1 + 1)),
      ((b.0, b.1), (b.0 + 1, b.1)), ((b.0, b.1 + 1), (b.0 + 1, b.1 + 1)) }
game D(drawn: set<(Dot, Dot)>) {
    move draw(l in PAIRS, l not in drawn) =>
        if len(edges((0, 0)) & drawn) == 3 then end else D(drawn | {l})
}
value outcome of D({})
";

#[test]
fn set_fields_of_large_types_get_the_values_their_elements_take() {
    // The lines of a 2 × 2 board among 256 pairs of dots: PAIRS, and nothing else.
    let lines = [
        "((0, 0), (0, 1))",
        "((0, 0), (1, 0))",
        "((0, 1), (1, 1))",
        "((1, 0), (1, 1))",
    ];
    assert_eq!(
        domain(DOT_PAIRS, "D"),
        Some(lines.map(String::from).to_vec())
    );
    // A query's position adds its elements; so does a move that draws a function's values.
    let query = DOT_PAIRS.replace("D({})", "D({((3, 3), (3, 2))})");
    assert!(domain(&query, "D").is_some_and(|d| d.len() == 5 && d[4] == "((3, 3), (3, 2))"));
    let called = DOT_PAIRS.replace(
        "value outcome",
        "game E() { move m(b in {(1, 1), (2, 2)}) => D(edges(b)) }\nvalue outcome",
    );
    assert_eq!(domain(&called, "D").map(|d| d.len()), Some(4 + 8));
    // A symmetry's image (each line turned over the diagonal) adds the images.
    let mirrored = "game G(s: set<(0..99, 0..99)>) {
        move add(x in {(0, 1), (0, 2)}, x not in s) => G(s | {x})
        symmetry turn => G({ (x.1, x.0) for x in s })
    }
    value grundy of G({})";
    assert_eq!(
        domain(mirrored, "G"),
        Some(
            ["(0, 1)", "(0, 2)", "(1, 0)", "(2, 0)"]
                .map(String::from)
                .to_vec()
        )
    );
    // Numbers without a bound, added by the moves, and given by a query.
    let add = "game S(xs: set<nat>) { move add(x in {1, 5}, x not in xs) => S(xs | {x}) }
    value grundy of S({9})";
    assert_eq!(
        domain(add, "S"),
        Some(["1", "5", "9"].map(String::from).to_vec())
    );
    // A set that the moves only take from holds what it is given (a query's set here, any
    // set in an embedding program): no domain.
    let drop = "game S(xs: set<nat>) { move drop(x in xs) => S(xs - {x}) }
    value grundy of S({1, 5})";
    assert_eq!(domain(drop, "S"), None);
    // A set that grows by computed values is not followed: no domain.
    let grow = "game S(xs: set<nat>) { move grow(len(xs) < 3) => S(xs | {len(xs) + 100}) }
    value grundy of S({})";
    assert_eq!(domain(grow, "S"), None);
    // Nor one whose elements take more than 128 values.
    let many = "game S(xs: set<nat>) { move add(x in 0..200, x not in xs) => S(xs | {x}) }
    value grundy of S({})";
    assert_eq!(domain(many, "S"), None);
    // A set of a type of at most 128 values needs none: it packs by ranks.
    let small = "game S(xs: set<0..100>) { move add(x in 0..3, x not in xs) => S(xs | {x}) }
    value grundy of S({})";
    assert_eq!(domain(small, "S"), None);
}
