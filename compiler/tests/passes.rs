//! The optimizer's rewrites (`opt::masks`, `opt::regions`) against the program as written:
//! each program below is interpreted as written and as optimized, query by query, with the
//! same answers and the same errors; and each rewrite is made where it should be, and not
//! where a condition could fail or a step is not symmetric.

use cgdl_compiler::ir::{GameKind, IExpr, IExprKind, Program};
use cgdl_compiler::{check_as_written, compile_str, parser, queries, Interpreter};
use cgdl_runtime::report::{run_plan, Answer};
use cgdl_runtime::Solver;

/// Each query's answer (or error message), interpreted, for `program`.
pub(crate) fn answers(program: &Program, source: &str) -> Vec<Result<Answer, String>> {
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

/// Whether `e` or an expression inside it is one `pred` accepts.
fn holds(e: &IExpr, pred: &dyn Fn(&IExpr) -> bool) -> bool {
    let mut found = pred(e);
    e.for_each_child(&mut |c| found |= holds(c, pred));
    found
}

/// Whether some move of the game holds an expression `pred` accepts.
fn moves_hold(program: &Program, pred: &dyn Fn(&IExpr) -> bool) -> bool {
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
        e.kind(),
        IExprKind::Compr { .. }
    )));
    // A condition that may fail (division by `x.1`) stays as written.
    let failing = CHOMP.replace("y.0 < x.0 or y.1 < x.1", "y.0 < x.0 or 12 / x.1 > y.1");
    let (_, optimized) = both(&failing);
    assert_eq!(masks(&optimized), 0);
    assert!(moves_hold(&optimized, &|e| matches!(
        e.kind(),
        IExprKind::Compr { .. }
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
            e.kind(),
            IExprKind::Closure {
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

const DOTS: &str = "const R = 3
const C = 3
type Line = H(0..R, 0..(C - 1)) | V(0..(R - 1), 0..C)
type Box = (0..(R - 1), 0..(C - 1))
fn sides(b: Box) -> set<Line> = {H(b.0, b.1), H(b.0 + 1, b.1), V(b.0, b.1), V(b.0, b.1 + 1)}
game Dots(drawn: set<Line>) {
    move draw(l in Line, l not in drawn) =>
        if exists b in Box: l in sides(b) and len(sides(b) & drawn) == 3 then end
        else Dots(drawn | {l})
}
value outcome of Dots({})
table outcome of Dots({l}) for l in Line
value outcome, remoteness of Dots({H(0, 0), V(0, 0), H(1, 0)})
";

/// Whether some function's body holds an expression `pred` accepts.
fn fns_hold(program: &Program, pred: &dyn Fn(&IExpr) -> bool) -> bool {
    program.fns.iter().any(|f| holds(&f.body, pred))
}

#[test]
fn quantifiers_testing_a_function_of_a_finite_type_become_inverted_tables() {
    let is_inverted = |e: &IExpr| matches!(e.kind(), IExprKind::Inverted(_));
    let (written, optimized) = both(DOTS);
    assert!(!moves_hold(&written, &is_inverted));
    assert!(moves_hold(&optimized, &is_inverted));
    // `count`, in a function: a move that completes two boxes at once ends the game.
    let count = DOTS.replace(
        "if exists b in Box: l in sides(b) and len(sides(b) & drawn) == 3 then end",
        "if completes(l, drawn) == 2 then end",
    ) + "fn completes(l: Line, drawn: set<Line>) -> nat =
    count b in Box: l in sides(b) and len(sides(b) & drawn) == 3
value outcome, remoteness of Dots({H(0, 0), V(0, 0), H(1, 1), V(1, 2), H(2, 1), V(0, 1)})
";
    let (_, optimized) = both(&count);
    assert!(fns_hold(&optimized, &is_inverted));
    // `count` without a rest: how many boxes a line borders.
    let borders = count.replace(
        "count b in Box: l in sides(b) and len(sides(b) & drawn) == 3",
        "count b in Box: l in sides(b)",
    );
    let (_, optimized) = both(&borders);
    assert!(fns_hold(&optimized, &is_inverted));
    // `forall`, an element that reads the box, and a function that fails at some box
    // (`H(0, 2)` lies outside `Line`: the plain loop fails where it reaches that box, as
    // the program as written does) keep the loop.
    for (from, to) in [
        (
            "exists b in Box: l in sides(b) and",
            "not forall b in Box: l not in sides(b) or not",
        ),
        (
            "exists b in Box: l in sides(b)",
            "exists b in Box: H(b.0, 0) in sides(b) and l in sides(b)",
        ),
        (
            "H(b.0, b.1), H(b.0 + 1, b.1)",
            "H(b.0, b.1 * 2), H(b.0 + 1, b.1)",
        ),
    ] {
        let kept = DOTS.replace(from, to);
        assert_ne!(kept, DOTS, "{from}");
        let (_, optimized) = both(&kept);
        assert!(!moves_hold(&optimized, &is_inverted), "{to}");
    }
}

/// Whether the end probe of the game of `source` whose one field is a set answers what
/// enumerating the options does, on every value of the field, and the open moves give the
/// options where it says no move is to `end`.
fn probe_agrees_on_every_set(source: &str) {
    use cgdl_compiler::ir::{FieldTy, Val};
    use cgdl_runtime::{Expr, Options, Rules};
    let program = compile_str(source).expect("checks");
    let game = &program.games[0];
    assert!(game.end_probe.is_some(), "{source}");
    let FieldTy::Set(elem) = &game.fields[0].ty else {
        panic!("a set field")
    };
    let elems = elem.values(&program.types, 16).expect("a small type");
    let interp = Interpreter::new(&program, source);
    let (mut ended, mut open) = (0, 0);
    for bits in 0u32..1 << elems.len() {
        let set = (elems.iter().enumerate())
            .filter(|(i, _)| bits >> i & 1 == 1)
            .map(|(_, v)| v.clone())
            .collect();
        let pos = interp.intern(0, vec![Val::Set(std::rc::Rc::new(set))].into());
        let mut out = Options::new();
        interp.options(pos, &mut out).expect("options");
        let ends = out.to_exprs().contains(&Expr::End);
        let probe = interp.ends_now(pos).expect("a probe").expect("succeeds");
        assert_eq!(probe, ends, "{:?}", interp.position(pos));
        if !probe {
            // Without a move to `end`, the open moves give the same options.
            let mut open = Options::new();
            interp.options_open(pos, &mut open).expect("open options");
            assert_eq!(
                open.to_exprs(),
                out.to_exprs(),
                "{:?}",
                interp.position(pos)
            );
        }
        if ends {
            ended += 1;
        } else {
            open += 1;
        }
    }
    assert!(ended > 0 && open > 0, "{ended} and {open}");
}

#[test]
fn the_end_probe_and_the_open_moves_answer_what_the_options_do() {
    probe_agrees_on_every_set(DOTS);
    // Two ways to end: a box completed, or the top left line drawn beside the left one.
    probe_agrees_on_every_set(&DOTS.replace(
        "then end",
        "then end
        else if l == H(0, 0) and V(0, 0) in drawn then end",
    ));
    // A condition on a `let` of the move.
    probe_agrees_on_every_set(&DOTS.replace(
        "if exists b in Box: l in sides(b) and len(sides(b) & drawn) == 3 then end",
        "let after = drawn | {l} in
        if exists b in Box: l in sides(b) and sides(b) <= after then end",
    ));
    // Written without the probe (as the checker leaves it), the same answers; the open
    // moves leave out the test for `end`.
    let (written, optimized) = both(DOTS);
    assert!(written.games[0].end_probe.is_none());
    let open = optimized.games[0].open_moves.as_ref().expect("open moves");
    assert!(
        matches!(open[0].result.kind(), IExprKind::Pos { .. }),
        "{:?}",
        open[0].result
    );
}

#[test]
fn functions_over_small_boxes_get_tables_both_back_ends_read() {
    use cgdl_compiler::ir::{FieldTy, Val};
    let source = "fn back(k: 0..=5) -> nat = 3 - k
fn bonus(n: nat) -> nat = n * 3 + 1
game P(n: 0..=5) {
    move down(k in 0..n) => P(min(back(k), n - 1))
}
game G(s: set<0..=4>) {
    move take(x in s) => G(s - {x} - { y for y in s where y < bonus(count z in s: z > x) })
}
value grundy of P(4)
value grundy of P(5)
table grundy of G({ y for y in 0..=4 where y >= k }) for k in 0..=4
";
    let (written, optimized) = both(source);
    assert!(written.fns.iter().all(|f| f.table.is_none()));
    let table = |name: &str| {
        (optimized.fns.iter().find(|f| f.name == name))
            .and_then(|f| f.table.clone())
            .expect("a table")
    };
    // `back` fails at 4 and 5 (`3 - k` below zero): no value there, the body runs.
    let back = table("back");
    assert_eq!(back.types, [FieldTy::Range(0, 5)]);
    let int = |i| Some(Val::Int(i));
    assert_eq!(&*back.values, [int(3), int(2), int(1), int(0), None, None]);
    // `bonus` spans what its calls pass: a count of up to five elements.
    let bonus = table("bonus");
    assert_eq!(bonus.types, [FieldTy::Range(0, 5)]);
    assert_eq!(&*bonus.values, [1, 4, 7, 10, 13, 16].map(int));
    // The interpreter answers from the table: a wrong entry changes an answer.
    let mut wrong = optimized.clone();
    let f = (wrong.fns.iter_mut().find(|f| f.name == "back")).expect("back");
    let mut t = f.table.clone().expect("a table");
    std::rc::Rc::make_mut(&mut t.by_args).insert(vec![Val::Int(2)], Val::Int(3));
    f.table = Some(t);
    assert_ne!(answers(&wrong, source)[0], answers(&optimized, source)[0]);
}

#[test]
fn operations_on_sets_of_cells_are_marked_for_the_bits() {
    use cgdl_compiler::ir::CellOpKind;
    let variant = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scripts/variants/cram_corner.cgdl"
    ))
    .expect("the variant");
    let source = variant
        .replace("const R = 5", "const R = 3")
        .replace("const C = 6", "const C = 3");
    let (written, optimized) = both(&source);
    let kinds = |p: &Program| {
        let mut kinds = Vec::new();
        fn each(e: &IExpr, out: &mut Vec<String>) {
            if let IExprKind::Cells(op) = e.kind() {
                out.push(match &op.kind {
                    CellOpKind::Moved { by } => format!("moved {} {}", by.len(), op.set.name),
                    CellOpKind::Mapped { swapped, flips } => {
                        let flip = |k: &Option<IExpr>| match k.as_ref().map(|k| k.kind()) {
                            Some(IExprKind::Lit(v)) => format!("{v:?}"),
                            Some(IExprKind::Var(v)) => v.name.to_string(),
                            Some(_) => "other".to_string(),
                            None => "-".to_string(),
                        };
                        let (first, second) = (flip(&flips[0]), flip(&flips[1]));
                        format!("mapped {swapped} {first} {second} {}", op.set.name)
                    }
                    CellOpKind::Extreme { part, largest } => {
                        format!("extreme {part} {largest} {}", op.set.name)
                    }
                });
            }
            e.for_each_child(&mut |c| each(c, out));
        }
        for f in &p.fns {
            each(&f.body, &mut kinds);
        }
        for g in &p.games {
            for s in &g.symmetries {
                each(&s.result, &mut kinds);
            }
        }
        kinds
    };
    assert!(kinds(&written).is_empty());
    // `corner`: the least row, the least column, and the set moved by them.
    assert_eq!(
        kinds(&optimized),
        ["extreme 0 false s", "extreme 1 false s", "moved 2 s"]
    );
    // A part moved by an amount that reads the element is not a translation.
    let (_, optimized) = both(&source.replace("(x.0 - r0, x.1 - c0)", "(x.0 - r0, x.1 - x.0)"));
    assert_eq!(
        kinds(&optimized),
        ["extreme 0 false s", "extreme 1 false s"]
    );
    // An amount that is a constant written as arithmetic is folded.
    let (_, optimized) = both(&source.replace("(x.0 - r0, x.1 - c0)", "(x.0 - r0, x.1 - (1 - 1))"));
    assert_eq!(
        kinds(&optimized),
        ["extreme 0 false s", "extreme 1 false s", "moved 2 s"]
    );
    // Maps of the board in the declared symmetries (checked: joined with the empty set),
    // each `k` a constant folded or a name bound outside; a map that reads one part twice,
    // or subtracts from the element, is none.
    let declared = |images: &[&str]| {
        let mut file = source.replace("value grundy", "// value grundy");
        let maps: Vec<String> = (images.iter().enumerate())
            .map(|(i, image)| {
                format!("    symmetry m{i} => Cram(corner({{ {image} for x in cells }} | {{}}))\n")
            })
            .collect();
        file = file.replacen("\n}\n", &format!("\n{}}}\n", maps.concat()), 1);
        file.push_str("value grundy of Cram(Cell)\nvalue grundy of Cram(Cell - {(1, 1)})\n");
        both(&file).1
    };
    let optimized = declared(&[
        "(R - 1 - x.0, x.1)",
        "(x.0, C - 1 - x.1)",
        "(x.1, x.0)",
        "(x.1, R - 1 - x.0)",
        "(R - 1 - x.0, C - 1 - x.1)",
        "(x.0, x.0)",
        "(x.0, x.1 - x.0)",
    ]);
    assert_eq!(
        kinds(&optimized)[3..],
        [
            "mapped false Int(2) - cells",
            "mapped false - Int(2) cells",
            "mapped true - - cells",
            "mapped true - Int(2) cells",
            "mapped false Int(2) Int(2) cells",
        ]
    );
}

#[test]
fn components_by_a_table_of_cells_is_divided_by_the_table() {
    use cgdl_compiler::ir::PartsKind;
    use std::rc::Rc;
    let cram = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/cram.cgdl"
    ))
    .expect("the example");
    let kinds = |p: &Program| {
        let mut kinds = Vec::new();
        fn each(e: &IExpr, out: &mut Vec<String>) {
            if let IExprKind::Parts(op) = e.kind() {
                out.push(match &op.kind {
                    PartsKind::Sets => "sets".to_string(),
                    PartsKind::Sum { direct, board, .. } => format!("sum {direct} {board:?}"),
                });
            }
            e.for_each_child(&mut |c| each(c, out));
        }
        for g in &p.games {
            if let GameKind::Rules(moves) = &g.kind {
                moves.iter().for_each(|m| each(&m.result, &mut kinds));
            }
        }
        kinds
    };
    let (written, optimized) = both(&cram);
    assert!(kinds(&written).is_empty());
    // Each move's sum over the parts, on the 3 × 4 board; inside it the parts themselves.
    let sum = "sum true Board((0, 3, 0, 4))";
    assert_eq!(kinds(&optimized), [sum, "sets", sum, "sets"]);
    // The interpreter reads the board's table: one that joins nothing gives other values.
    let mut wrong = optimized.clone();
    fn unjoin(e: &mut IExpr) {
        if let IExprKind::Parts(op) = e.kind_mut() {
            if let PartsKind::Sum { joined, .. } = &mut op.kind {
                *joined = Rc::from(vec![0u128; joined.len()]);
            }
        }
        e.for_each_child_mut(&mut |c| unjoin(c));
    }
    for g in &mut wrong.games {
        if let GameKind::Rules(moves) = &mut g.kind {
            moves.iter_mut().for_each(|m| unjoin(&mut m.result));
        }
    }
    assert_ne!(answers(&wrong, &cram), answers(&optimized, &cram));
    // A field computed from the part (`Cram(h(part))`) keeps the sum, not directly.
    let computed = cram
        .replace("sum(Cram(part) for part", "sum(Cram(part - {}) for part")
        .replace("symmetry", "// symmetry");
    let (_, optimized) = both(&computed);
    assert_eq!(kinds(&optimized)[0], "sum false Board((0, 3, 0, 4))");
    // A step that does not cover the board (no neighbours for the last row) divides by the
    // table, but the sum over the parts is not on the board's bits.
    let partial = cram.replace(
        "fn neighbours(x: Cell) -> set<Cell> =",
        "type Inner = (0..2, 0..C)\nfn neighbours(x: Inner) -> set<Cell> =",
    );
    let (_, optimized) = both(&partial);
    assert_eq!(kinds(&optimized), ["sets"; 2]);
    // The interpreter reads the step's table: one where no cell steps anywhere gives other
    // values.
    let mut wrong = optimized.clone();
    fn unstep(e: &mut IExpr) {
        if let IExprKind::Parts(op) = e.kind_mut() {
            for step in Rc::make_mut(&mut op.steps).by_cell.values_mut() {
                *step = Rc::default();
            }
        }
        e.for_each_child_mut(&mut |c| unstep(c));
    }
    for g in &mut wrong.games {
        if let GameKind::Rules(moves) = &mut g.kind {
            moves.iter_mut().for_each(|m| unstep(&mut m.result));
        }
    }
    assert_ne!(answers(&wrong, &partial), answers(&optimized, &partial));
    // A step that is not a function of the element alone is called per element.
    let unlike = cram.replace("x => neighbours(x)", "x => neighbours(x) - {(0, 0)}");
    let (_, optimized) = both(&unlike);
    assert!(kinds(&optimized).is_empty());
    // Cells numbered row by row: the parts of a set of numbers, ranked from the least.
    let numbered = "const R = 3
const C = 4
type Cell = 0..(R * C)
fn neighbours(x: Cell) -> set<Cell> =
    { y for y in Cell where (abs(y - x) == 1 and y / C == x / C) or abs(y - x) == C }
game Cram(empty: set<Cell>) {
    move across(x in empty, x % C + 1 < C, x + 1 in empty) =>
        sum(Cram(part) for part in components(empty - {x, x + 1}, y => neighbours(y)))
    move down(x in empty, x + C in empty) =>
        sum(Cram(part) for part in components(empty - {x, x + C}, y => neighbours(y)))
}
value outcome, grundy of Cram(Cell)
table grundy of Cram({ x for x in Cell where x < n }) for n in 0..=12
table grundy of Cram({ x for x in Cell where (x * k) % 5 != 0 }) for k in 0..5
";
    let (written, optimized) = both(numbered);
    assert!(kinds(&written).is_empty());
    let sum = "sum true Range(0, 11)";
    assert_eq!(kinds(&optimized), [sum, "sets", sum, "sets"]);
    let as_cells = answers(&both(&cram).1, &cram);
    let by_number = answers(&optimized, numbered);
    assert_eq!(answers(&written, numbered), by_number);
    // Cram(Cell)'s values, as on the board of cells.
    let values = |a: &Result<cgdl_runtime::report::Answer, String>| match a {
        Ok(cgdl_runtime::report::Answer::Value { values, .. }) => values.clone(),
        other => panic!("a value: {other:?}"),
    };
    assert_eq!(values(&by_number[0]), values(&as_cells[0]));
    let mut wrong = optimized.clone();
    for g in &mut wrong.games {
        if let GameKind::Rules(moves) = &mut g.kind {
            moves.iter_mut().for_each(|m| unjoin(&mut m.result));
        }
    }
    assert_ne!(answers(&wrong, numbered), by_number);
}

#[test]
fn games_whose_options_are_their_own_positions_get_kernel_moves() {
    use cgdl_compiler::ir::KernelResult;
    fn shape(r: &KernelResult) -> String {
        match r {
            KernelResult::End => "end".into(),
            KernelResult::Position(args) => format!("pos{}", args.len()),
            KernelResult::Sum(..) => "sum".into(),
            KernelResult::If {
                then, otherwise, ..
            } => format!("if({}, {})", shape(then), shape(otherwise)),
            KernelResult::Let { body, .. } => format!("let({})", shape(body)),
        }
    }
    let kernel = |source: &str| {
        let (_, optimized) = both(source);
        (optimized.games[0].kernel_moves.as_ref())
            .map(|moves| moves.iter().map(|m| shape(&m.result)).collect::<Vec<_>>())
    };
    // Take one or two from a heap, or split what is left in two.
    let split = "game G(n: nat) {
    move take(k in 1..=2, k <= n) => G(n - k)
    move split(a in 1..n, b in 1..n, a + b == n - 1) => G(a) + G(b)
    move last(n == 1) => if n == 1 then end else G(0)
}
table grundy of G(n) for n in 0..12
";
    assert_eq!(
        kernel(split).expect("a kernel"),
        ["pos1", "sum", "if(end, pos1)"]
    );
    // A grid of two fields, with a `let`.
    let grid = "game Q(r: 0..8, c: 0..8) {
    move west(k in 1..=c) => let d = c - k in Q(r, d)
    move north(k in 1..=r) => Q(r - k, c)
}
value grundy of Q(7, 7)
";
    assert_eq!(kernel(grid).expect("a kernel"), ["let(pos2)", "pos2"]);
    // The interpreter fills its table from the kernel moves: ones whose every option is
    // `end` give other values.
    let (_, optimized) = both(grid);
    let mut wrong = optimized.clone();
    for m in wrong.games[0].kernel_moves.iter_mut().flatten() {
        m.result = KernelResult::End;
    }
    assert_ne!(answers(&wrong, grid), answers(&optimized, grid));
    // An option of another game, or a sum of more than two, is not in kernel form.
    let other = "game H(n: nat) { move take(k in 1..=n) => H(n - k) }
game G(n: nat) { move go(n > 0) => H(n - 1) }
value grundy of G(5)
";
    let (_, optimized) = both(other);
    assert!(optimized.games[0].kernel_moves.is_some());
    assert!(optimized.games[1].kernel_moves.is_none());
    let three = split.replace("G(a) + G(b)", "G(a) + G(b) + G(0)");
    assert_eq!(kernel(&three), None);
}

/// Each of `positions` (the fields of a position of game 0), with the image of each of the
/// game's declared maps as the interpreter gives it, as text.
fn images(
    program: &Program,
    source: &str,
    positions: &[Vec<cgdl_compiler::ir::Val>],
) -> Vec<String> {
    use cgdl_runtime::Rules;
    let interp = Interpreter::new(program, source);
    let mut out = Vec::new();
    for fields in positions {
        let pos = interp.intern(0, fields.clone().into());
        for k in 0..program.games[0].symmetries.len() {
            let image = interp.symmetry_image(pos, k).map(|p| {
                let (_, fields) = interp.position(p);
                format!("{fields:?}")
            });
            out.push(format!("{fields:?} #{k} -> {image:?}"));
        }
    }
    out
}

/// Every subset of `cells`, as a set value.
/// `program` with the first symmetry table of game 0 corrupted: in every context, each
/// element of set field `field` maps to itself.
fn fixing_all(program: &Program, field: usize) -> Program {
    let mut wrong = program.clone();
    let table = wrong.games[0].symmetry_tables.as_mut().expect("tables");
    let map = table.maps[0].as_mut().expect("a table");
    for (_, images) in map.entries.iter_mut().flatten() {
        if let Some(images) = &mut images[field] {
            for (x, image) in std::rc::Rc::make_mut(images).iter_mut() {
                *image = Some(x.clone());
            }
        }
    }
    wrong
}

fn subsets(cells: &[cgdl_compiler::ir::Val]) -> Vec<cgdl_compiler::ir::Val> {
    use cgdl_compiler::ir::Val;
    (0..1u32 << cells.len())
        .map(|bits| {
            let set = (0..cells.len())
                .filter(|i| bits >> i & 1 == 1)
                .map(|i| cells[i].clone());
            Val::Set(std::rc::Rc::new(set.collect()))
        })
        .collect()
}

#[test]
fn declared_symmetries_become_tables_the_interpreter_reads() {
    use cgdl_compiler::ir::Val;
    use std::rc::Rc;
    // Cram's mirror lines on a 3 × 4 board, and a turn of its columns that is no symmetry
    // (so the found group does not hold every map, and the maps stay): every set of cells,
    // each map's image.
    let cram = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/cram.cgdl"
    ))
    .expect("the example")
    .replace(
        "    symmetry columns",
        "    symmetry turn => Cram({ (x.0, (x.1 + 1) % C) for x in empty })\n    symmetry columns",
    );
    // (Not solved: the wrong map is reported where it would supply a value, which depends
    // on the symmetries the solver applies with it.)
    let file = parser::parse_file(&cram).expect("parses");
    let written = check_as_written(&file, &cram).expect("checks");
    let optimized = compile_str(&cram).expect("checks");
    // The turn does not commute with the mirrors: every map is checked alone.
    assert!(optimized.games[0].held_by_found.is_empty());
    assert!(optimized.games[0].found.is_none());
    assert_eq!(optimized.games[0].symmetries.len(), 3);
    assert!(written.games[0].symmetry_tables.is_none());
    let tables = optimized.games[0].symmetry_tables.as_ref().expect("tables");
    assert!(tables.context.is_empty());
    assert!(tables.maps.iter().all(Option::is_some));
    let cells: Vec<Val> = (0..3)
        .flat_map(|r| (0..4).map(move |c| Val::Tuple(Rc::new([Val::Int(r), Val::Int(c)]))))
        .collect();
    let positions: Vec<Vec<Val>> = subsets(&cells).into_iter().map(|s| vec![s]).collect();
    let expected = images(&written, &cram, &positions);
    assert_eq!(images(&optimized, &cram, &positions), expected);
    // The interpreter reads the tables: a map of every cell to itself gives other images.
    assert_ne!(
        images(&fixing_all(&optimized, 0), &cram, &positions),
        expected
    );

    // A reversal of the first `n` places of a row: the context is `n`; an element at `n`
    // or past it leaves the row (the map applies to sets without one), and `n` is kept.
    // (The rules read `x + 1`, so the compiler finds no symmetry of its own: the images
    // are the tables' alone. The map is no symmetry of them, and is reported alike.)
    let row = "game Row(n: 1..=4, s: set<0..5>) {
    move take(x in s, x < n, x + 1 not in s) => Row(n, s - {x})
    symmetry flip => Row(n, { n - 1 - x for x in s })
}
value grundy of Row(4, {0, 1, 3})
";
    let (written, optimized) = both(row);
    let tables = optimized.games[0].symmetry_tables.as_ref().expect("tables");
    assert_eq!(tables.context.len(), 1);
    let flip = tables.maps[0].as_ref().expect("a table");
    assert!(flip.entries.iter().all(Option::is_some));
    let elements: Vec<Val> = (0..=4).map(Val::Int).collect();
    let positions: Vec<Vec<Val>> = (1..=4)
        .flat_map(|n| {
            subsets(&elements)
                .into_iter()
                .map(move |s| vec![Val::Int(n), s])
        })
        .collect();
    let expected = images(&written, row, &positions);
    assert_eq!(images(&optimized, row, &positions), expected);
    // The interpreter reads the tables in each context: a map of every element to itself
    // gives other images.
    assert_ne!(
        images(&fixing_all(&optimized, 1), row, &positions),
        expected
    );

    // The same reversal behind a guard that reads the element and the context: tabled too,
    // an element the guard leaves out without an image (a set that holds it is mapped as
    // written).
    let guarded = row.replace(
        "{ n - 1 - x for x in s }",
        "{ n - 1 - x for x in s where x < n }",
    );
    let (written, optimized) = both(&guarded);
    let tables = optimized.games[0].symmetry_tables.as_ref().expect("tables");
    let flip = tables.maps[0].as_ref().expect("a table of the guarded map");
    for (n, entry) in (1..=4).zip(&flip.entries) {
        let (_, maps) = entry.as_ref().expect("an entry");
        let images = maps[1].as_ref().expect("the set's images");
        for x in 0..=4 {
            let want = (x < n).then(|| Val::Int(n - 1 - x));
            assert_eq!(images.get(&Val::Int(x)), Some(&want), "n = {n}, x = {x}");
        }
    }
    let expected = images(&written, &guarded, &positions);
    assert_eq!(images(&optimized, &guarded, &positions), expected);
    assert_ne!(
        images(&fixing_all(&optimized, 1), &guarded, &positions),
        expected
    );
}

#[test]
fn sums_of_positions_in_results_become_leaves() {
    use cgdl_compiler::ir::Leaves;
    fn kinds(e: &IExpr, out: &mut Vec<&'static str>) {
        if let IExprKind::Leaves(l) = e.kind() {
            out.push(match **l {
                Leaves::Pair { .. } => "pair",
                Leaves::Each { .. } => "each",
            });
        }
        e.for_each_child(&mut |c| kinds(c, out));
    }
    let leaves = |program: &Program| {
        let mut found = Vec::new();
        for g in &program.games {
            if let GameKind::Rules(moves) = &g.kind {
                moves.iter().for_each(|m| kinds(&m.result, &mut found));
            }
        }
        found
    };
    // Splits under an `if`, a sum over a comprehension, a sum of three (not two positions),
    // and a split whose part may not fit its field (an error either way).
    let source = "game G(n: 0..9) {
    move split(a in 1..n, b in 1..n, a + b == n - 1) => if a == 1 then G(a) + G(b) else G(b) + G(a)
    move many(k in 2..n) => sum(G(j) for j in 1..k where j % 2 == 1)
    move three(n == 8) => G(1) + (G(2) + G(3))
}
game H(n: nat) {
    move grow(n < 4) => G(n + 7) + G(1)
}
table grundy of G(n) for n in 0..9
value grundy of H(1)
value grundy of H(3)
";
    let (written, optimized) = both(source);
    assert!(leaves(&written).is_empty());
    let mut found = leaves(&optimized);
    found.sort();
    assert_eq!(found, ["each", "pair", "pair", "pair"]);
    // The interpreter reads the node: a pair made of its first term twice answers otherwise
    // (H's; G's table is filled from its kernel moves).
    let mut wrong = optimized.clone();
    if let GameKind::Rules(moves) = &mut wrong.games[1].kind {
        if let IExprKind::Leaves(l) = moves[0].result.kind_mut() {
            if let Leaves::Pair { a, b, .. } = &mut **l {
                *b = a.clone();
            }
        }
    }
    assert_ne!(answers(&wrong, source), answers(&optimized, source));
    // A term that is not a position is not a leaf.
    let mut bad = optimized.clone();
    if let GameKind::Rules(moves) = &mut bad.games[0].kind {
        if let IExprKind::If { then, .. } = moves[0].result.kind_mut() {
            if let IExprKind::Leaves(l) = then.kind_mut() {
                if let Leaves::Pair { a, .. } = &mut **l {
                    *a = IExpr::from(IExprKind::End);
                }
            }
        }
    }
    assert!(cgdl_compiler::ir::verify(&optimized).is_ok());
    assert!(cgdl_compiler::ir::verify(&bad).is_err());
}

#[test]
fn one_element_set_operations_and_extremes_become_nodes() {
    use cgdl_compiler::ir::Op;
    fn kinds(e: &IExpr, out: &mut Vec<&'static str>) {
        match e.kind() {
            IExprKind::Bin { op: Op::Insert, .. } => out.push("insert"),
            IExprKind::Bin { op: Op::Remove, .. } => out.push("remove"),
            IExprKind::Extreme(x) if x.largest => out.push("max"),
            IExprKind::Extreme(_) => out.push("min"),
            _ => {}
        }
        e.for_each_child(&mut |c| kinds(c, out));
    }
    // In the functions and the moves as ruled (the kernels' copies aside).
    let nodes = |program: &Program| {
        let mut found = Vec::new();
        program.fns.iter().for_each(|f| kinds(&f.body, &mut found));
        for g in &program.games {
            if let GameKind::Rules(moves) = &g.kind {
                for m in moves {
                    m.clauses.iter().for_each(|c| kinds(c.expr(), &mut found));
                    kinds(&m.result, &mut found);
                }
            }
        }
        found.sort();
        found
    };
    // One element added and removed, a set of two added (not one element), the least of
    // a comprehension in a condition and the largest in a function, which fails on a set
    // with no element (the second query: an error either way).
    let source = "fn top(s: set<0..5>) -> nat = max({ y + 1 for y in s })
game T(s: set<0..5>) {
    move add(x in 0..5, x not in s, len(s) < 3) => T(s | {x})
    move drop(len(s) > 1, min({ y + 1 for y in s }) > 1, x in s) => T(s - {x})
    move pair(len(s) == 0) => T(s | {1, 2})
}
game U(s: set<0..5>) {
    move m(len(s) < 2, top(s) < 9) => U(s | {len(s)})
}
value grundy of T({})
value grundy of U({})
value grundy of U({3})
";
    let (written, optimized) = both(source);
    assert!(nodes(&written).is_empty());
    assert_eq!(
        nodes(&optimized),
        ["insert", "insert", "max", "min", "remove"]
    );
    let answers_now = answers(&optimized, source);
    assert!(
        answers_now[0].is_ok() && answers_now[2].is_ok(),
        "{answers_now:?}"
    );
    assert!(answers_now[1]
        .as_ref()
        .is_err_and(|e| e.contains("`max` of an empty set")));
    // The interpreter reads the nodes: an element removed where it was added answers
    // otherwise.
    let mut wrong = optimized.clone();
    wrong.for_each_expr_mut(&mut |e| {
        fn flip(e: &mut IExpr) {
            if let IExprKind::Bin {
                op: op @ Op::Insert,
                ..
            } = e.kind_mut()
            {
                *op = Op::Remove;
            }
            e.for_each_child_mut(&mut flip);
        }
        flip(e)
    });
    assert_ne!(answers(&wrong, source), answers_now);
    // An extreme's element reads the names its clauses bind: without them, the program is
    // not well formed.
    let mut bad = optimized.clone();
    bad.fns[0].body = match bad.fns[0].body.kind() {
        IExprKind::Extreme(x) => {
            let mut x = x.clone();
            x.clauses.clear();
            IExpr::from(IExprKind::Extreme(x))
        }
        other => panic!("`top` is an extreme: {other:?}"),
    };
    assert!(cgdl_compiler::ir::verify(&optimized).is_ok());
    assert!(cgdl_compiler::ir::verify(&bad).is_err());
}

/// Whether some expression of the program's rules `pred` accepts.
fn rules_hold(program: &Program, pred: &dyn Fn(&IExpr) -> bool) -> bool {
    let mut found = false;
    program
        .clone()
        .for_each_rule_expr_mut(&mut |e| found |= holds(e, pred));
    found
}

/// Whether `e` is a call of the function named `name` whose `in_table` mark is `marked`.
fn call_of(program: &Program, e: &IExpr, name: &str, marked: bool) -> bool {
    matches!(e.kind(), IExprKind::Call { func, in_table, .. }
        if program.fns[*func].name == name && *in_table == marked)
}

/// `program` with `mark` applied to every node of its rules (what only a wrong proof would
/// mark).
fn forced(program: &Program, mark: &dyn Fn(&mut IExprKind)) -> Program {
    let mut forced = program.clone();
    forced.for_each_rule_expr_mut(&mut |e| e.rewrite_up(&mut |e| mark(e.kind_mut())));
    forced
}

/// Marks every call of `name` read from its table.
fn force_in_table(program: &Program, name: &str) -> Program {
    let id = (program.fns.iter().position(|f| f.name == name)).expect("the function");
    forced(program, &|e| {
        if let IExprKind::Call { func, in_table, .. } = e {
            *in_table |= *func == id;
        }
    })
}

#[test]
fn checks_that_surely_pass_are_marked_and_the_interpreter_keeps_them() {
    let source = "fn twice(k: 0..=4) -> nat = k * 2
fn back(k: 0..=3) -> nat = 2 - k
fn quad(k: 0..=2) -> nat = twice(k) * 2
game P(n: 0..=4) {
    move down(k in 0..n) => P(twice(k) / 2)
    move far(k in 0..n, twice(n) > 4) => P(twice(n) / 4)
    move beyond(k in 0..n, n == 2) => P(back(k + n))
    move to(k in 0..n, k > 1, quad(k / 2) < 100) => P(k)
}
value grundy of P(4)
table grundy of P(n) for n in 0..=4
";
    let (written, optimized) = both(source);
    let marked = |e: &IExpr| {
        matches!(
            e.kind(),
            IExprKind::Call { in_table: true, .. } | IExprKind::Pos { fits: true, .. }
        )
    };
    assert!(!rules_hold(&written, &marked));
    let in_moves =
        |name: &str, marked| moves_hold(&optimized, &|e| call_of(&optimized, e, name, marked));
    let in_fns =
        |name: &str, marked| fns_hold(&optimized, &|e| call_of(&optimized, e, name, marked));
    // `twice(k)` with `k` below `n` and `twice(n)` (in a clause too) lie in `twice`'s table
    // (`0..=4`), and so does `twice(k)` in `quad`'s body (`k` a parameter of type `0..=2`).
    assert!(in_moves("twice", true) && !in_moves("twice", false));
    assert!(in_fns("twice", true) && !in_fns("twice", false));
    // `back` fails at 3: its table is not whole, and no call of it is read there.
    assert!(in_moves("back", false) && !in_moves("back", true));
    // `P(k)` with `k` below `n` fits; the quotients are not known to.
    let fits = |program: &Program, fits: bool| {
        moves_hold(program, &|e| {
            matches!(e.kind(), IExprKind::Pos { args, fits: f, .. }
                if *f == fits && matches!(args[0].kind(), IExprKind::Var(_)))
        })
    };
    assert!(fits(&optimized, true) && !fits(&optimized, false));
    cgdl_compiler::ir::verify(&optimized).expect("well formed");
    // A mark the proof could not make is refused by the verifier, and the interpreter
    // checks it: `back(3)` (from `P(2)`) fails, and a read of its table there is an
    // internal error, not a value.
    let forced = force_in_table(&optimized, "back");
    let refused = cgdl_compiler::ir::verify(&forced).expect_err("not whole");
    assert!(refused.contains("has not whole"), "{refused}");
    let before = answers(&optimized, source);
    let after = answers(&forced, source);
    assert!(before[0]
        .as_ref()
        .is_err_and(|e| !e.contains("internal error")));
    assert!(
        after[0]
            .as_ref()
            .is_err_and(|e| e.contains("internal error")),
        "{after:?}"
    );
}

#[test]
fn a_position_marked_to_fit_that_does_not_is_an_internal_error() {
    let source = "game Q(n: 0..=3) {
    move up(k in 0..2) => Q(n + k)
}
value grundy of Q(3)
";
    let (_, optimized) = both(source);
    // `n + k` may be 4: not marked, and the rules' error is the answer.
    assert!(!moves_hold(&optimized, &|e| matches!(
        e.kind(),
        IExprKind::Pos { fits: true, .. }
    )));
    let error = answers(&optimized, source)
        .remove(0)
        .expect_err("Q(4) does not fit");
    assert!(!error.contains("internal error"), "{error}");
    let forced = forced(&optimized, &|e| {
        if let IExprKind::Pos { fits, .. } = e {
            *fits = true;
        }
    });
    let error = answers(&forced, source)
        .remove(0)
        .expect_err("still an error");
    assert!(error.contains("internal error"), "{error}");
}

#[test]
fn a_call_marked_to_lie_in_its_table_outside_its_parameters_is_an_internal_error() {
    let source = "fn f(x: 0..=2) -> nat = x
game R(n: 0..=3) {
    move m(k in 0..1) => R(min(f(n), 0))
}
value grundy of R(3)
";
    let (_, optimized) = both(source);
    // `n` may be 3, outside `f`'s parameter: not marked, and the argument's error stands.
    let marked = |e: &IExpr| matches!(e.kind(), IExprKind::Call { in_table: true, .. });
    assert!(!moves_hold(&optimized, &marked));
    let error = answers(&optimized, source)
        .remove(0)
        .expect_err("f(3) fails");
    let outside = cgdl_runtime::native::argument_message("x", "f", "0..=2", "3");
    assert!(error.contains(&outside), "{error}");
    let forced = force_in_table(&optimized, "f");
    let error = answers(&forced, source)
        .remove(0)
        .expect_err("still an error");
    assert!(error.contains("internal error"), "{error}");
}

/// Whether the splits pass rewrote game `game` (`cgdl check` then says so).
fn split(program: &Program, game: &str) -> bool {
    let line = format!("{game}: a sum of the parts its moves join (found)");
    let described = cgdl_compiler::opt::splits::describe(program).contains(&line);
    let marked = (program.games.iter()).any(|g| g.name == game && g.split);
    assert_eq!(described, marked);
    marked
}

#[test]
fn games_on_sets_whose_moves_touch_a_few_elements_become_sums_of_parts() {
    // Cram as a newcomer writes it: the whole rest of the board as each move's result.
    let cram = "const R = 3
const C = 4
type Cell = (0..R, 0..C)
game Cram(empty: set<Cell>) {
    move across((r, c) in empty, (r, c + 1) in empty) => Cram(empty - {(r, c), (r, c + 1)})
    move down((r, c) in empty, (r + 1, c) in empty) => Cram(empty - {(r, c), (r + 1, c)})
}
value grundy, outcome, remoteness, suspense of Cram(Cell)
value misere_outcome of Cram({ (0, c) for c in 0..C } | { (2, c) for c in 0..C })
value options, moves of Cram(Cell - {(0, 0), (1, 2)})
value options of Cram({(0, 0), (0, 1)}) + Cram({(2, 0), (2, 1), (2, 2)})
table grundy of Cram({ (r, c) for r in 0..R, c in 0..C where r * C + c < n }) for n in 0..=12
table grundy of Cram(Cell - { (r, c) for r in 0..R, c in 0..C where (r + c * k) % 5 == 0 }) for k in 0..5
";
    let (written, optimized) = both(cram);
    assert!(!split(&written, "Cram"));
    assert!(split(&optimized, "Cram"), "whole-board Cram is split");
    // The parts pass then divides each result on the board's bits.
    assert!(moves_hold(&optimized, &|e| matches!(
        e.kind(),
        IExprKind::Parts(_)
    )));

    // The rest of the board named by `let`s, and one domino for both directions.
    let named = "const R = 3
const C = 4
type Cell = (0..R, 0..C)
fn next_to(a: Cell, b: Cell) -> bool = abs(a.0 - b.0) + abs(a.1 - b.1) == 1
game Cram(empty: set<Cell>) {
    move place(a in empty, b in empty, next_to(a, b)) =>
        let other = b in
        let rest = empty - {a} in
        Cram(rest - {other})
}
value grundy of Cram(Cell)
table grundy of Cram(Cell - { (r, c) for r in 0..R, c in 0..C where (r + c * k) % 5 == 0 }) for k in 0..5
value outcome, remoteness, suspense of Cram(Cell - {(0, 0), (1, 1)})
";
    let (written, optimized) = both(named);
    assert!(split(&optimized, "Cram"));
    // Each domino is listed twice, as `(a, b)` and `(b, a)`, with the same option: the
    // optimized move keeps one of each (`a < b`, which the masks pass then folds into the
    // binder's mask).
    let options = |p: &Program| -> usize {
        let interp = Interpreter::new(p, named);
        let root = interp.intern(
            0,
            vec![cgdl_compiler::ir::Val::Set(std::rc::Rc::new(
                (0..3)
                    .flat_map(|r| (0..4).map(move |c| (r, c)))
                    .map(|(r, c)| {
                        cgdl_compiler::ir::Val::Tuple(
                            vec![
                                cgdl_compiler::ir::Val::Int(r),
                                cgdl_compiler::ir::Val::Int(c),
                            ]
                            .into(),
                        )
                    })
                    .collect(),
            ))]
            .into(),
        );
        let mut opts = cgdl_runtime::Options::new();
        cgdl_runtime::Rules::options(&interp, root, &mut opts).expect("options");
        opts.len()
    };
    // 17 dominoes on the 3 × 4 board.
    assert_eq!((options(&written), options(&optimized)), (34, 17));
    // The same table as the first file's last.
    let written_cram = answers(&both(cram).0, cram);
    assert_eq!(
        answers(&optimized, named)[1],
        written_cram[written_cram.len() - 1]
    );
    // Twins available in different sets are both kept: `(a, b)` also needs the cell of an
    // even column beside `a` (or `a`), `(b, a)` that beside `b`.
    let lopsided = "const R = 5
const C = 6
type Cell = (0..R, 0..C)
fn next_to(a: Cell, b: Cell) -> bool = abs(a.0 - b.0) + abs(a.1 - b.1) == 1
game Cram(empty: set<Cell>) {
    move place(a in empty, b in empty, next_to(a, b), (a.0, a.1 / 2 * 2) in empty) =>
        Cram(empty - {a, b})
}
value grundy, remoteness of Cram({ (r, c) for r in 0..3, c in 0..4 })
table grundy of Cram({ (r, c) for r in 0..3, c in 0..4 where (r + c * k) % 5 != 0 }) for k in 0..5
";
    let (written, optimized) = both(lopsided);
    assert!(split(&optimized, "Cram"));
    assert_eq!(options(&written), options(&optimized));

    // Partizan: Domineering, each side's dominoes joining their cells.
    let domineering = "type Cell = (0..3, 0..3)
game D(free: set<Cell>) {
    left move down(a in free, a.0 + 1 < 3, (a.0 + 1, a.1) in free) => D(free - {a, (a.0 + 1, a.1)})
    right move across(a in free, a.1 + 1 < 3, (a.0, a.1 + 1) in free) => D(free - {a, (a.0, a.1 + 1)})
}
value canonical, outcome of D(Cell)
value canonical, options of D(Cell - {(1, 1)})
value options of D({(0, 0), (1, 0)})
value canonical of D({(0, 0), (1, 0), (0, 2), (1, 2), (2, 1)})
";
    let (_, optimized) = both(domineering);
    assert!(split(&optimized, "D"));

    // Node Kayles: a vertex is joined to the neighbours it takes away, not they to each
    // other (two vertices that share a neighbour lie apart once it is gone).
    let node_kayles = "type V = (0..3, 0..4)
fn neighbours(v: V) -> set<V> = { w for w in V where abs(w.0 - v.0) + abs(w.1 - v.1) == 1 }
game NK(alive: set<V>) {
    move pick(v in alive) => NK(alive - {v} - neighbours(v))
}
value grundy of NK(V)
table grundy of NK(V - { (r, c) for r in 0..3, c in 0..4 where (r * 4 + c) % k == 1 }) for k in 2..7
";
    let (_, optimized) = both(node_kayles);
    assert!(split(&optimized, "NK"));
    let joins = optimized
        .fns
        .iter()
        .find(|f| f.name == "joined_nk")
        .and_then(|f| f.table.as_ref())
        .expect("the joins are tabulated");
    let degrees: Vec<usize> = (joins.values.iter())
        .map(|v| match v {
            Some(cgdl_compiler::ir::Val::Set(s)) => s.len(),
            other => panic!("a set of vertices, not {other:?}"),
        })
        .collect();
    assert_eq!(degrees.iter().max(), Some(&4), "the grid's own edges");

    // Kayles as a row of pins, a set of places: a pin, or two side by side, knocked down.
    // Its Grundy values are those of the octal game 0.77 (the heap engine's).
    let pins = "game Pins(up: set<0..12>) {
    move one(i in up) => Pins(up - {i})
    move two(i in up, i + 1 in up) => Pins(up - {i, i + 1})
}
game Kayles = octal \"0.77\"
table grundy of Pins({ i for i in 0..n }) for n in 0..=12
table grundy of Kayles(n) for n in 0..=12
value grundy of Pins({0, 1, 2, 4, 5, 7, 9, 10, 11}) + Kayles(1)
";
    let (_, optimized) = both(pins);
    assert!(split(&optimized, "Pins"));
    let answers = answers(&optimized, pins);
    let json = |a: &Result<Answer, String>| {
        let a = a.as_ref().expect("answers");
        serde_json::to_value(a).expect("JSON")
    };
    let values = |a: &serde_json::Value| -> Vec<serde_json::Value> {
        let rows = a.pointer("/rows").and_then(|r| r.as_array()).expect("rows");
        rows.iter()
            .map(|r| r.pointer("/1").cloned().expect("a value"))
            .collect()
    };
    assert_eq!(values(&json(&answers[0])), values(&json(&answers[1])));
    // Rows of 3, 2, 1 and 3 pins, plus a heap of 1: G(3) ^ G(2) ^ G(1) ^ G(3) ^ G(1),
    // each G(n) read off the octal engine's table.
    let kayles: Vec<u64> = (values(&json(&answers[1])).iter())
        .map(|v| v.as_u64().expect("a Grundy value"))
        .collect();
    assert_eq!(
        json(&answers[2])
            .pointer("/values/0/1")
            .and_then(|v| v.as_u64()),
        Some(kayles[3] ^ kayles[2] ^ kayles[1] ^ kayles[3] ^ kayles[1])
    );

    // Not split: a condition on the whole set, a move that adds, a test that an element is
    // not in the set, and a bite joined to most of the board.
    let refused = [
        cram.replace(
            "move across((r, c) in empty,",
            "move across((r, c) in empty, len(empty) > 3,",
        ),
        cram.replace(
            "Cram(empty - {(r, c), (r, c + 1)})",
            "Cram(empty - {(r, c), (r, c + 1)} | {(0, 0)})",
        ),
        cram.replace(
            "move down((r, c) in empty,",
            "move down((r, c) in empty, (0, 0) not in empty,",
        ),
        // A name for something else than the set less some elements.
        named.replace(
            "let other = b in",
            "let least = min(empty - {a}) in let other = b in",
        ),
        "const R = 3
const C = 4
type Cell = (0..R, 0..C)
fn quadrant(x: Cell) -> set<Cell> = { y for y in Cell where y.0 >= x.0 and y.1 >= x.1 }
game Chomp(left: set<Cell>) {
    move bite(x in left, x != (0, 0)) => Chomp(left - quadrant(x))
}
value grundy of Chomp(Cell)
"
        .to_string(),
    ];
    for source in &refused {
        let (_, optimized) = both(source);
        assert!(
            !split(&optimized, "Cram") && !split(&optimized, "Chomp"),
            "{source}"
        );
    }
}

/// A move of [`local_game`]: its side, the offsets from `a` it tests, a mask of which tested
/// cells it takes away, and whether it takes away `a`'s neighbours.
type LocalMove = (u8, Vec<(u8, u8)>, u8, bool);

/// The source of a random game on a 3 × 4 board whose moves each bind a cell `a` of the set,
/// test cells at offsets from it, and take away `a` with some of those cells and perhaps
/// cells beside them that they do not test.
fn local_game(moves: &[LocalMove], partizan: bool) -> String {
    local_game_written(moves, partizan, false)
}

/// [`local_game`] written on the filled cells: each tested cell `not in` the set (inside
/// the board: its offsets bounded), and each move's cells added to it; its first query
/// asks for the options too.
fn filled_local_game(moves: &[LocalMove], partizan: bool) -> String {
    local_game_written(moves, partizan, true)
}

/// [`local_game`], on the cells left or (`filled`) on the cells filled.
fn local_game_written(moves: &[LocalMove], partizan: bool, filled: bool) -> String {
    let field = if filled { "f" } else { "s" };
    let mut s = format!(
        "const R = 3\nconst C = 4\ntype Cell = (0..R, 0..C)\n\
         fn near(v: Cell) -> set<Cell> = {{ w for w in Cell where abs(w.0 - v.0) + abs(w.1 - v.1) == 1 }}\n\
         game G({field}: set<Cell>) {{\n",
    );
    for (i, (side, offsets, taken, near)) in moves.iter().enumerate() {
        let side = match (partizan, side % 2) {
            (false, _) => "",
            (true, 0) => "left ",
            (true, _) => "right ",
        };
        let cell = |&(dr, dc): &(u8, u8)| format!("(a.0 + {dr}, a.1 + {dc})");
        let tests: String = (offsets.iter())
            .map(|o @ (dr, dc)| match filled {
                false => format!(", {} in s", cell(o)),
                true => format!(", a.0 + {dr} < R, a.1 + {dc} < C, {} not in f", cell(o)),
            })
            .collect();
        let mut cells = vec!["a".to_string()];
        cells.extend(
            (offsets.iter().enumerate())
                .filter(|(k, _)| taken >> k & 1 == 1)
                .map(|(_, o)| cell(o)),
        );
        let cells = cells.join(", ");
        s.push_str(&match (filled, near) {
            (false, near) => {
                let near = if *near { " - near(a)" } else { "" };
                format!("    {side}move m{i}(a in s{tests}) => G(s - {{{cells}}}{near})\n")
            }
            (true, near) => {
                let near = if *near { " | near(a)" } else { "" };
                format!("    {side}move m{i}(a in Cell, a not in f{tests}) => G(f | {{{cells}}}{near})\n")
            }
        });
    }
    s.push_str("}\n");
    let value = if partizan {
        "canonical"
    } else {
        "grundy, remoteness, misere_outcome"
    };
    let removed = "{ (r, c) for r in 0..R, c in 0..C where (r * C + c) % k == 1 }";
    let (first, table) = match filled {
        false => (
            format!("value {value} of G(Cell)"),
            format!("G(Cell - {removed})"),
        ),
        true => (
            format!("value {value}, options of G({{}})"),
            format!("G({removed})"),
        ),
    };
    s.push_str(&format!(
        "{first}\ntable {value} of {table} for k in 2..7\n"
    ));
    s
}

/// One or two random moves of [`local_game`]'s form.
fn local_moves() -> impl proptest::strategy::Strategy<Value = Vec<LocalMove>> {
    proptest::collection::vec(
        (
            0u8..2,
            proptest::collection::vec((0u8..2, 0u8..3), 0..3),
            0u8..8,
            proptest::prelude::any::<bool>(),
        ),
        1..3,
    )
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 100, ..Default::default() })]

    /// Random games whose moves each touch a few cells: as optimized (a sum of parts where
    /// the splits pass finds one: about 60 % of them) they answer every query as written.
    #[test]
    fn local_games_answer_as_written_when_split(
        moves in local_moves(),
        partizan in proptest::prelude::any::<bool>(),
    ) {
        let source = local_game(&moves, partizan);
        both(&source);
    }
}

#[test]
fn local_games_of_the_property_test_are_split() {
    // Cram's two moves in the property test's form: the pass applies to its games.
    let source = local_game(
        &[(0, vec![(0, 1)], 1, false), (1, vec![(1, 0)], 1, false)],
        false,
    );
    let (_, optimized) = both(&source);
    assert!(split(&optimized, "G"), "{source}");
}

/// Whether game `game` of `program` is solved as the game of its set's complement.
fn complemented(program: &Program, game: &str) -> bool {
    let line = format!("{game}: solved as the game of its set's complement (found)");
    let described = cgdl_compiler::opt::complement::describe(program).contains(&line);
    let made = (program.games.iter())
        .any(|g| (g.complement_of.as_ref()).is_some_and(|c| program.games[c.game].name == game));
    assert_eq!(described, made);
    made
}

/// Each answer's values but its options (which name positions), and its table's rows.
fn values_but_options(answers: Vec<Result<Answer, String>>) -> Vec<String> {
    (answers.into_iter())
        .map(|a| {
            let json = serde_json::to_value(a.expect("answers")).expect("JSON");
            let values: Vec<&serde_json::Value> = (json.pointer("/values"))
                .and_then(|v| v.as_array())
                .into_iter()
                .flatten()
                .filter(|v| v.pointer("/0").and_then(|n| n.as_str()) != Some("options"))
                .collect();
            let rows = json.pointer("/rows").cloned().unwrap_or_default();
            format!("{values:?} {rows}")
        })
        .collect()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 60, ..Default::default() })]

    /// Random games of [`local_game`]'s form written on the filled cells: solved on the
    /// complement (every one of them), they answer every query as written, options too, and
    /// as the same game written on the free cells.
    #[test]
    fn filled_local_games_answer_as_written_on_the_complement(
        moves in local_moves(),
        partizan in proptest::prelude::any::<bool>(),
    ) {
        let source = filled_local_game(&moves, partizan);
        let (_, optimized) = both(&source);
        proptest::prop_assert!(complemented(&optimized, "G"), "{}", source);
        // The same values as the same game written on the free cells.
        let free = local_game(&moves, partizan);
        let free_program = compile_str(&free).expect("checks");
        proptest::prop_assert_eq!(
            values_but_options(answers(&optimized, &source)),
            values_but_options(answers(&free_program, &free))
        );
    }
}

#[test]
fn games_written_on_the_filled_cells_are_solved_on_the_free_ones() {
    // Cram with the filled cells: each domino's cells tested `not in` the set.
    let cram = "const R = 3
const C = 4
type Cell = (0..R, 0..C)
game Cram(filled: set<Cell>) {
    move across((r, c) in Cell, c + 1 < C, (r, c) not in filled, (r, c + 1) not in filled) =>
        Cram(filled | {(r, c), (r, c + 1)})
    move down((r, c) in Cell, r + 1 < R, (r, c) not in filled, (r + 1, c) not in filled) =>
        Cram(filled | {(r, c), (r + 1, c)})
}
value grundy, outcome, remoteness, suspense, options of Cram({})
value misere_outcome of Cram({ (1, c) for c in 0..C })
value options, moves of Cram({(0, 0), (1, 2)})
value options of Cram({(0, 0), (0, 1)}) + Cram({(2, 0), (2, 1), (2, 2)})
table grundy of Cram({ (r, c) for r in 0..R, c in 0..C where r * C + c >= n }) for n in 0..=12
";
    let (written, optimized) = both(cram);
    assert!(!complemented(&written, "Cram"));
    assert!(complemented(&optimized, "Cram"));
    // The game of the free cells is then a sum of its parts, like Cram on the free cells.
    let free = (optimized.games.iter())
        .find(|g| g.complement_of.is_some())
        .expect("the game of the free cells");
    assert!(free.split && free.found.is_some());
    // 1 × n strips are Dawson's Kayles (0.07, OEIS A002187), n = 0..=12:
    // 0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2.
    let strips = "const R = 1
const C = 12
type Cell = (0..R, 0..C)
game Cram(filled: set<Cell>) {
    move across((r, c) in Cell, c + 1 < C, (r, c) not in filled, (r, c + 1) not in filled) =>
        Cram(filled | {(r, c), (r, c + 1)})
}
table grundy of Cram({ (0, c) for c in n..C }) for n in 0..=12
";
    let (_, optimized) = both(strips);
    assert!(complemented(&optimized, "Cram"));
    let rows = serde_json::to_value(answers(&optimized, strips)[0].as_ref().expect("answers"))
        .expect("JSON");
    let values: Vec<u64> = (rows
        .pointer("/rows")
        .and_then(|r| r.as_array())
        .expect("rows"))
    .iter()
    .map(|r| r.pointer("/1").and_then(|v| v.as_u64()).expect("a value"))
    .collect();
    assert_eq!(values, [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2]);

    // Partizan (Domineering), a test that a cell is filled, and Node Kayles filling a
    // vertex's neighbours.
    let others = [
        "type Cell = (0..3, 0..3)
game D(f: set<Cell>) {
    left move down(a in Cell, a.0 + 1 < 3, a not in f, (a.0 + 1, a.1) not in f) => D(f | {a, (a.0 + 1, a.1)})
    right move across(a in Cell, a.1 + 1 < 3, a not in f, (a.0, a.1 + 1) not in f) => D(f | {a, (a.0, a.1 + 1)})
}
value canonical, outcome, options of D({})
value canonical, options of D({(1, 1)})
",
        "type Cell = (0..3, 0..4)
game Grow(f: set<Cell>) {
    move beside(a in Cell, a not in f, a.1 > 0, (a.0, a.1 - 1) in f) => Grow(f | {a})
}
value grundy, options of Grow({(0, 0), (2, 0)})
table grundy of Grow({ (r, 0) for r in 0..n }) for n in 0..=3
",
        "type V = (0..3, 0..4)
fn neighbours(v: V) -> set<V> = { w for w in V where abs(w.0 - v.0) + abs(w.1 - v.1) == 1 }
game NK(taken: set<V>) {
    move pick(v in V, v not in taken) => NK(taken | {v} | neighbours(v))
}
value grundy, options of NK({})
table grundy of NK({ (r, c) for r in 0..3, c in 0..4 where (r * 4 + c) % k == 1 }) for k in 2..7
",
    ];
    for source in others {
        let (_, optimized) = both(source);
        let name = &optimized.games[0].name;
        assert!(complemented(&optimized, name), "{source}");
    }

    // Left as written: a tested cell off the board (no bound: `(r, c + 1) not in filled` holds
    // there, so the move covers half a domino), a cell added off the board (an error as
    // written), and a set read otherwise (its size).
    let refused = [
        cram.replace("c + 1 < C, ", ""),
        cram.replace(
            "Cram(filled | {(r, c), (r, c + 1)})",
            "Cram(filled | {(r, c), (r, c + 2)})",
        ),
        cram.replace("c + 1 < C,", "c + 1 < C, len(filled) < 6,"),
    ];
    for source in &refused {
        let (_, optimized) = both(source);
        assert!(!complemented(&optimized, "Cram"), "{source}");
    }
}

#[test]
fn binders_over_a_type_tested_against_a_set_bind_the_set() {
    // `(r, c) in Cell` then `((r, c) in empty)`: the move binds `(r, c) in empty`, so the
    // translations pass finds that values do not change where a position lies.
    let cram = "const R = 3
const C = 4
type Cell = (0..R, 0..C)
game Cram(empty: set<Cell>) {
    move across((r, c) in Cell, ((r, c) in empty), (r, c + 1) in empty) => Cram(empty - {(r, c), (r, c + 1)})
    move down((r, c) in Cell, r >= 0, ((r, c) in empty), (r + 1, c) in empty) => Cram(empty - {(r, c), (r + 1, c)})
}
value grundy, outcome, options of Cram(Cell)
table grundy of Cram({ (r, c) for r in 0..R, c in 0..C where r * C + c < n }) for n in 0..=12
";
    let binds_the_set = |p: &Program| {
        let GameKind::Rules(moves) = &p.games[0].kind else {
            panic!("rules")
        };
        (moves.iter())
            .filter(|m| {
                matches!(&m.clauses[0], cgdl_compiler::ir::IClause::Bind(_, d) if d.is_var(cgdl_compiler::ir::VarId::new(0)))
            })
            .count()
    };
    let (written, optimized) = both(cram);
    assert_eq!(binds_the_set(&written), 0);
    assert!(optimized.games[0].translation.is_some());
    // Both moves: the condition between binder and test cannot fail.
    assert_eq!(binds_the_set(&optimized), 2);
    // Arithmetic on names bound over ranges stays in `i64`: a bound on the board between
    // the binder and the test (Cram as often written) is no obstacle.
    let guarded = cram.replace("r >= 0,", "r + 1 < R,");
    let (_, optimized) = both(&guarded);
    assert_eq!(binds_the_set(&optimized), 2);
    // A division could fail where the element is not in the set: that move is left as
    // written (its answers the same).
    let divided = cram.replace("r >= 0,", "10 / (c + 1) >= 1,");
    let (_, optimized) = both(&divided);
    assert_eq!(binds_the_set(&optimized), 1);
    // A test after another binder: both binders bind the set (the second through the
    // masks pass, `empty & mask(a)`).
    let pairs = "const R = 3
const C = 4
type Cell = (0..R, 0..C)
fn next_to(a: Cell, b: Cell) -> bool = abs(a.0 - b.0) + abs(a.1 - b.1) == 1
game Cram(empty: set<Cell>) {
    move place(a in Cell, b in Cell, a != b, (a in empty), (b in empty), next_to(a, b)) => Cram(empty - {a, b})
}
value grundy, outcome of Cram(Cell)
table grundy of Cram({ (r, c) for r in 0..R, c in 0..C where r * C + c < n }) for n in 0..=12
";
    let (_, optimized) = both(pairs);
    let GameKind::Rules(moves) = &optimized.games[0].kind else {
        panic!("rules")
    };
    let field = cgdl_compiler::ir::VarId::new(0);
    assert!(
        matches!(&moves[0].clauses[..2], [cgdl_compiler::ir::IClause::Bind(_, a), cgdl_compiler::ir::IClause::Bind(_, b)]
            if a.is_var(field) && holds(b, &|e| e.is_var(field))),
        "{:?}",
        moves[0].clauses
    );
}
