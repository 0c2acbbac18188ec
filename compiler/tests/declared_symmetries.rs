//! Declared symmetries over normalised representations (`opt::symmetry`): random correct
//! declarations are proven, never checked; random wrong ones are never proven, and the
//! interpreter reports them wherever one maps a position it reaches to a position of
//! another value (native code does alike: `tests/native/tests/checked_symmetries.rs`).
//!
//! A case is a game on an `R` × `C` board written in one of several idioms (regions as
//! `components`, regions as closures chosen by their least cell and moved to the corner by
//! a helper or by `let`s, whole boards as results, Node Kayles, Chomp), and maps of the
//! board declared in one of several forms (a comprehension, a helper per cell, the image
//! moved to the corner by the helper or by `let`s where the game moves its regions there,
//! a helper of the whole set, one of two images chosen by an `if`, a guard every cell
//! passes).
//! The correct maps are the board's motions (mirrors, and on a square board its turns and
//! diagonals; Chomp keeps only its diagonal); the wrong ones turn a row or a column
//! cyclically, or swap two cells.

use cgdl_compiler::compile_str;
use cgdl_compiler::ir::Program;
use proptest::prelude::*;

/// A game's rules on an `R` × `C` board (its constants and cell type come first).
#[derive(Clone, Copy, Debug)]
enum Idiom {
    /// Cram, its regions split by `components` (the example's moves).
    Components,
    /// Cram, each region a closure chosen by its least cell, moved to the corner by `fn
    /// shift` (the corpus variant `cram_corner`).
    ClosureShift,
    /// The same, the move to the corner written with `let`s in a helper of its own.
    ClosureLets,
    /// Cram, the whole rest of the board as the result.
    Plain,
    /// Node Kayles on the board's grid.
    NodeKayles,
    /// Chomp (its poisoned corner keeps only the diagonal, on a square board).
    Chomp,
}

impl Idiom {
    fn rules(self) -> &'static str {
        match self {
            Idiom::Components => {
                "fn neighbours(x: Cell) -> set<Cell> = { y for y in Cell where abs(y.0 - x.0) + abs(y.1 - x.1) == 1 }
game G(cells: set<Cell>) {
    move across((r, c) in cells, (r, c + 1) in cells) =>
        sum(G(part) for part in components(cells - {(r, c), (r, c + 1)}, x => neighbours(x)))
    move down((r, c) in cells, (r + 1, c) in cells) =>
        sum(G(part) for part in components(cells - {(r, c), (r + 1, c)}, x => neighbours(x)))
"
            }
            Idiom::ClosureShift | Idiom::ClosureLets => {
                "fn next_to(x: Cell, y: Cell) -> bool = abs(x.0 - y.0) + abs(x.1 - y.1) == 1
fn region(cells: set<Cell>, x: Cell) -> set<Cell> =
    closure({x}, v => { y for y in cells where next_to(v, y) })
game G(cells: set<Cell>) {
    move place(a in cells, b in cells, next_to(a, b), a < b) =>
        let rest = cells - {a, b} in
        sum(G(shift(region(rest, x))) for x in rest where x == min(region(rest, x)))
"
            }
            Idiom::Plain => {
                "game G(cells: set<Cell>) {
    move across((r, c) in cells, (r, c + 1) in cells) => G(cells - {(r, c), (r, c + 1)})
    move down((r, c) in cells, (r + 1, c) in cells) => G(cells - {(r, c), (r + 1, c)})
"
            }
            Idiom::NodeKayles => {
                "fn neighbours(v: Cell) -> set<Cell> = { w for w in Cell where abs(w.0 - v.0) + abs(w.1 - v.1) == 1 }
game G(cells: set<Cell>) {
    move pick(v in cells) => G(cells - {v} - neighbours(v))
"
            }
            Idiom::Chomp => {
                "game G(cells: set<Cell>) {
    move bite(x in cells, x != (0, 0)) => G({ y for y in cells where y.0 < x.0 or y.1 < x.1 })
"
            }
        }
    }

    /// Whether the game is proven the same wherever a region lies (an image may then be
    /// moved to the corner).
    fn moves(self) -> bool {
        !matches!(self, Idiom::Chomp)
    }
}

/// The helpers every case may use: a move to the corner by `fn shift`, and the same
/// written as `let`s in `fn corner`.
const HELPERS: &str = "fn shift(cells: set<Cell>) -> set<Cell> =
    let r0 = min({ x.0 for x in cells }) in
    let c0 = min({ x.1 for x in cells }) in
    { (x.0 - r0, x.1 - c0) for x in cells }
";

/// A map of the board's cells, as the image of a cell `x` (an expression of `x.0`, `x.1`,
/// `R` and `C`).
fn motion(k: usize) -> &'static str {
    [
        "(R - 1 - x.0, x.1)",         // rows mirrored
        "(x.0, C - 1 - x.1)",         // columns mirrored
        "(R - 1 - x.0, C - 1 - x.1)", // the half turn
        "(x.1, x.0)",                 // the diagonal (square boards)
        "(C - 1 - x.1, R - 1 - x.0)", // the other diagonal
        "(x.1, R - 1 - x.0)",         // a quarter turn
        "(C - 1 - x.1, x.0)",         // the other quarter turn
    ][k]
}

/// The correct maps of an idiom's board: all the motions of a square board, the three
/// that keep a rectangle's sides; Chomp's diagonal alone.
fn correct_maps(idiom: Idiom, square: bool) -> Vec<usize> {
    match (idiom, square) {
        (Idiom::Chomp, true) => vec![3],
        (Idiom::Chomp, false) => Vec::new(),
        (_, true) => (0..7).collect(),
        (_, false) => vec![0, 1, 2],
    }
}

/// How a declared map is written.
#[derive(Clone, Copy, Debug)]
enum Form {
    /// `G({ image(x) for x in cells })`.
    Comprehension,
    /// `G({ f(x) for x in cells })` with a helper `fn f(x: Cell) -> Cell`.
    Helper,
    /// `G(shift({ image(x) for x in cells }))`: the image moved to the corner.
    Shifted,
    /// `let m = { image(x) for x in cells } in let r0 = ... in let c0 = ... in G({ (x.0 -
    /// r0, x.1 - c0) for x in m })`.
    Lets,
    /// `G(name_set(cells))` with a helper `fn name_set(s: set<Cell>) -> set<Cell> = {
    /// image(x) for x in s }`.
    SetHelper,
    /// `if len(cells) % 2 == 0 then G({ image(x) for x in cells }) else G(cells)`: a map
    /// that is one of two symmetries, whatever chooses.
    Branches,
    /// `G({ image(x) for x in cells where x.0 < R and x.1 < C })`: a guard every cell
    /// passes.
    Guarded,
    /// `G(shift({ image(x) for x in cells where x.0 < R }))`: a guarded image moved to the
    /// corner.
    GuardedShifted,
}

/// The declaration of map `image` named `name` (and a helper it needs, if any).
fn declare(name: &str, image: &str, form: Form) -> (String, String) {
    let each = format!("{{ {image} for x in cells }}");
    match form {
        Form::Comprehension => (format!("    symmetry {name} => G({each})\n"), String::new()),
        Form::Guarded => (
            format!(
                "    symmetry {name} => G({{ {image} for x in cells where x.0 < R and x.1 < C }})\n"
            ),
            String::new(),
        ),
        Form::GuardedShifted => (
            format!("    symmetry {name} => G(shift({{ {image} for x in cells where x.0 < R }}))\n"),
            String::new(),
        ),
        Form::Helper => (
            format!("    symmetry {name} => G({{ {name}_cell(x) for x in cells }})\n"),
            format!("fn {name}_cell(x: Cell) -> Cell = {image}\n"),
        ),
        Form::Shifted => (
            format!("    symmetry {name} => G(shift({each}))\n"),
            String::new(),
        ),
        Form::SetHelper => (
            format!("    symmetry {name} => G({name}_set(cells))\n"),
            format!(
                "fn {name}_set(s: set<Cell>) -> set<Cell> = {{ {} for x in s }}\n",
                image
            ),
        ),
        Form::Branches => (
            format!(
                "    symmetry {name} => if len(cells) % 2 == 0 then G({each}) else G(cells)\n"
            ),
            String::new(),
        ),
        Form::Lets => (
            format!(
                "    symmetry {name} => let m = {each} in\n        \
                 let r0 = min({{ y.0 for y in m }}) in let c0 = min({{ y.1 for y in m }}) in\n        \
                 G({{ (y.0 - r0, y.1 - c0) for y in m }})\n"
            ),
            String::new(),
        ),
    }
}

/// A case's source: the board, the helpers, the rules with each map declared, and the
/// query of the whole board.
fn case(idiom: Idiom, rows: usize, cols: usize, maps: &[(String, Form)]) -> String {
    let mut helpers = String::new();
    let mut symmetries = String::new();
    for (k, (image, form)) in maps.iter().enumerate() {
        let (line, helper) = declare(&format!("m{k}"), image, *form);
        symmetries.push_str(&line);
        helpers.push_str(&helper);
    }
    let rules = match idiom {
        Idiom::ClosureLets => idiom.rules().replace("G(shift(", "G(corner("),
        _ => idiom.rules().to_string(),
    };
    format!(
        "const R = {rows}\nconst C = {cols}\ntype Cell = (0..R, 0..C)\n{HELPERS}\
         fn corner(s: set<Cell>) -> set<Cell> =\n    let a = min({{ x.0 for x in s }}) in\n    \
         let b = min({{ x.1 for x in s }}) in\n    {{ (x.0 - a, x.1 - b) for x in s }}\n\
         {helpers}{rules}{symmetries}}}\nvalue grundy of G(Cell)\n"
    )
}

fn idiom() -> impl Strategy<Value = Idiom> {
    prop_oneof![
        Just(Idiom::Components),
        Just(Idiom::ClosureShift),
        Just(Idiom::ClosureLets),
        Just(Idiom::Plain),
        Just(Idiom::NodeKayles),
        Just(Idiom::Chomp),
    ]
}

fn form(moves: bool) -> impl Strategy<Value = Form> {
    let mut kept = vec![
        Form::Comprehension,
        Form::Helper,
        Form::SetHelper,
        Form::Branches,
        Form::Guarded,
    ];
    if moves {
        kept.extend([Form::Shifted, Form::Lets, Form::GuardedShifted]);
    }
    proptest::sample::select(kept)
}

/// Which declared maps the compiler proved and which it checks: (proven, checked).
fn verdicts(program: &Program) -> (usize, usize) {
    let game = &program.games[0];
    let checked = game.symmetries.iter().filter(|s| !s.proven).count();
    (
        game.held_by_found.len() + game.symmetries.len() - checked,
        checked,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// Every correct declaration, in any form, is proven: none is left to the solver's
    /// checks; and where every map is proven, the found symmetries take them in.
    #[test]
    fn correct_declarations_are_proven(
        idiom in idiom(),
        (rows, cols) in (2usize..=5, 2usize..=5).prop_filter("a board of at most 25 cells",
            |(r, c)| r * c <= 25),
        choice in proptest::collection::vec((0usize..7, 0usize..4), 1..4),
        forms in proptest::collection::vec(form(true), 3),
    ) {
        let square = rows == cols;
        let correct = correct_maps(idiom, square);
        prop_assume!(!correct.is_empty());
        let maps: Vec<(String, Form)> = (choice.iter().zip(&forms))
            .map(|(&(k, _), &f)| {
                let f = match (idiom.moves(), f) {
                    (false, Form::Shifted | Form::Lets | Form::GuardedShifted) => Form::SetHelper,
                    (_, f) => f,
                };
                (motion(correct[k % correct.len()]).to_string(), f)
            })
            .collect();
        let source = case(idiom, rows, cols, &maps);
        let program = compile_str(&source).map_err(|e| TestCaseError::fail(format!("{e:?}\n{source}")))?;
        prop_assert_eq!(verdicts(&program), (maps.len(), 0), "{}", source);
        prop_assert!(program.games[0].symmetries.is_empty(), "{}", source);
        prop_assert!(program.games[0].found.is_some(), "{}", source);
    }

    /// A map that turns a row or a column cyclically, or swaps two cells, is no symmetry
    /// (a swap of two cells the rules cannot tell apart aside): never proven, and on a
    /// board of at most 9 cells the interpreter's answer is never a wrong value.
    #[test]
    fn wrong_declarations_are_never_proven_and_are_errors(
        idiom in idiom(),
        (rows, cols) in (2usize..=3, 2usize..=3),
        wrong in 0usize..4,
        cells in (0usize..9, 0usize..9),
        form in form(true),
        with_correct in any::<bool>(),
    ) {
        let (a, b) = (cells.0 % (rows * cols), cells.1 % (rows * cols));
        let image = match wrong {
            0 => "((x.0 + 1) % R, x.1)".to_string(),
            1 => "(x.0, (x.1 + 1) % C)".to_string(),
            _ => {
                prop_assume!(a != b);
                let cell = |i: usize| format!("({}, {})", i / cols, i % cols);
                format!(
                    "if x == {} then {} else if x == {} then {} else x",
                    cell(a), cell(b), cell(b), cell(a)
                )
            }
        };
        let form = match (idiom.moves(), form) {
            (false, Form::Shifted | Form::Lets | Form::GuardedShifted) => Form::Comprehension,
            (_, f) => f,
        };
        let mut maps = vec![(image, form)];
        if with_correct && !correct_maps(idiom, rows == cols).is_empty() {
            maps.push((motion(correct_maps(idiom, rows == cols)[0]).to_string(), Form::Comprehension));
        }
        let source = case(idiom, rows, cols, &maps);
        let program = compile_str(&source).map_err(|e| TestCaseError::fail(format!("{e:?}\n{source}")))?;
        let game = &program.games[0];
        let wrong_proven = game.held_by_found.iter().any(|(name, _)| name == "m0")
            || game.symmetries.iter().any(|s| s.name == "m0" && s.proven);
        // A swap of two cells that the rules cannot tell apart is a symmetry: only then may
        // it be proven.
        let wrong_value = common::maps_some_position_to_another_value(&program, &source, "m0");
        prop_assert!(!(wrong_proven && wrong_value), "{}", source);
        let answers = crate::passes::answers(&program, &source);
        // (The error names the map of the step where the check failed: with a correct map
        // declared too, that may be the correct one, on the way to an image of the wrong.)
        let named = |r: &Result<cgdl_runtime::report::Answer, String>| {
            matches!(r, Err(e) if e.contains("is not a symmetry of the game"))
        };
        // Never a wrong value: the error, or the exact answer. The error where the map, a
        // permutation of the board's positions (written element by element, alone: its
        // orbits are then permuted, so the solver keeps positions under it and checks
        // them), maps a position the search reaches to one of another value. (A map moved
        // to the corner may take two positions to one: where it does not permute an
        // orbit it supplies no value there, and goes unchecked. The checks compare
        // options, which a map may change while it keeps every value: then the error may
        // come too.)
        let permutes = matches!(form, Form::Comprehension | Form::Helper | Form::SetHelper | Form::Guarded)
            && maps.len() == 1;
        if wrong_value && permutes {
            prop_assert!(named(&answers[0]), "{}\n{:?}", source, answers);
        } else if !named(&answers[0]) {
            prop_assert_eq!(&answers[0], &common::exact_answer(&source), "{}", source);
        }
    }
}

/// What the wrong-declaration test asks of a program, apart from the property itself.
mod common {
    use cgdl_compiler::interp::Interpreter;
    use cgdl_compiler::ir::{FieldTy, Program, Val};
    use cgdl_runtime::{Expr, Mode, Options, Rules, Solver, ValueKind};
    use std::collections::HashSet;

    /// The answer to the program's first query by an exact search (no symmetry), as
    /// written.
    pub fn exact_answer(source: &str) -> Result<cgdl_runtime::report::Answer, String> {
        let file = cgdl_compiler::parser::parse_file(source).expect("parses");
        let written = cgdl_compiler::check_as_written(&file, source).expect("checks");
        let interp = Interpreter::new(&written, source);
        let plan = cgdl_compiler::queries::plan(&interp, &written.queries[0])
            .map_err(|e| interp.error_text(&e))?;
        let mut solver = Solver::with_mode(&interp, Mode::Exact);
        cgdl_runtime::report::run_plan(&mut solver, plan).map_err(|e| e.to_string())
    }

    /// Whether the declared map `name` of the program's game maps some position reachable
    /// from the whole board to a position of another Grundy value (both by an exact search,
    /// which uses no symmetry), the map evaluated as written.
    pub fn maps_some_position_to_another_value(
        program: &Program,
        source: &str,
        name: &str,
    ) -> bool {
        let written = {
            let file = cgdl_compiler::parser::parse_file(source).expect("parses");
            cgdl_compiler::check_as_written(&file, source).expect("checks")
        };
        let Some(k) = written.games[0]
            .symmetries
            .iter()
            .position(|s| s.name == name)
        else {
            return false;
        };
        let _ = program;
        let interp = Interpreter::new(&written, source);
        let FieldTy::Set(cell) = &written.games[0].fields[0].ty else {
            panic!("the game's field is a set of cells")
        };
        let cells = cell.values(&written.types, 64).expect("cells");
        let root = interp.intern(
            0,
            vec![Val::Set(std::rc::Rc::new(cells.into_iter().collect()))].into(),
        );
        let mut exact = Solver::with_mode(&interp, Mode::Exact);
        let (mut seen, mut work) = (HashSet::new(), vec![root]);
        while let Some(p) = work.pop() {
            if !seen.insert(p) {
                continue;
            }
            if let Some(q) = interp.symmetry_image(p, k) {
                let value = |s: &mut Solver<'_, Interpreter<'_>>, x| {
                    s.value(ValueKind::Grundy, Expr::Pos(x))
                        .expect("exact value")
                };
                if value(&mut exact, p) != value(&mut exact, q) {
                    return true;
                }
            }
            let mut opts = Options::new();
            interp.options(p, &mut opts).expect("options");
            for i in 0..opts.len() {
                work.extend(opts.get(i).leaves().into_iter().copied());
            }
        }
        false
    }
}

/// The answers of `source`'s queries by the interpreter, and the positions its solver
/// solved.
fn answers(source: &str) -> (Vec<String>, u64) {
    use cgdl_compiler::interp::Interpreter;
    let program = compile_str(source).expect("the file checks");
    let interp = Interpreter::new(&program, source);
    let mut solver = cgdl_runtime::Solver::new(&interp);
    let answers = (program.queries.iter())
        .map(|q| {
            let plan = cgdl_compiler::queries::plan(&interp, q).expect("a plan");
            let answer = cgdl_runtime::report::run_plan(&mut solver, plan).expect("an answer");
            serde_json::to_string(&answer).expect("JSON")
        })
        .collect();
    (answers, solver.positions_solved())
}

/// That query `query` of `program` (interpreted) stops with the error of a declared map that
/// is no symmetry, never a value.
fn assert_not_a_symmetry(program: &cgdl_compiler::ir::Program, query: usize) {
    let interp = cgdl_compiler::interp::Interpreter::new(program, "");
    let mut solver = cgdl_runtime::Solver::new(&interp);
    let plan = cgdl_compiler::queries::plan(&interp, &program.queries[query]).expect("a plan");
    match cgdl_runtime::report::run_plan(&mut solver, plan) {
        Err(cgdl_runtime::SolveError::NotASymmetry { .. }) => {}
        other => panic!("a wrong map answered: {other:?}"),
    }
}

/// Maps the solver checks (the swaps of three heaps written so that no pass can prove them:
/// a heap's size plus nothing) are kept for the orbit of each position it expands: every
/// value is the value without them, the search solves fewer positions, and a map that is no
/// symmetry (a heap turned end over end) is an error, never a value.
#[test]
fn checked_maps_share_values_across_orbits() {
    let game = |maps: &str| {
        format!(
            "const M = 7
game H(a: 0..100000, b: 0..100000, c: 0..100000) {{
    move one(k in 1..M, k <= a) => H(a - k, b, c)
    move two(k in 1..M, k <= b) => H(a, b - k, c)
    move three(k in 1..M, k <= c) => H(a, b, c - k)
    move pair(k in 1..M, k <= a, k <= b, k < 3) => H(a - k, b - k, c)
    move outer(k in 1..M, k <= a, k <= c, k < 3) => H(a - k, b, c - k)
    move inner(k in 1..M, k <= b, k <= c, k < 3) => H(a, b - k, c - k)
{maps}}}
table outcome of H(a, b, 6) for a in 0..M, b in 0..M
value outcome of H(6, 5, 4)
"
        )
    };
    let swaps = "    symmetry ab => H(b + 0, a, c)\n    symmetry bc => H(a, c + 0, b)\n";
    let program = compile_str(&game(swaps)).expect("the file checks");
    let report = cgdl_compiler::opt::symmetry::describe(&program).join("\n");
    assert!(
        report.contains("checked as the solver runs"),
        "the swaps are checked: {report}"
    );
    let (with, solved_with) = answers(&game(swaps));
    let (without, solved_without) = answers(&game(""));
    assert_eq!(with, without);
    assert!(
        solved_with * 2 < solved_without,
        "{solved_with} positions with the swaps, {solved_without} without"
    );
    let wrong = "    symmetry ab => H(b + 0, a, c)\n    symmetry turn => H(6 - a, b, c)\n";
    let program = compile_str(&game(wrong)).expect("the file checks");
    assert_not_a_symmetry(&program, 1);
}

/// Swaps of fields proven from the moves (`opt::fields`): the three heaps' swaps are proven,
/// answer as the file without them and solve far fewer positions; a swap the moves do not
/// respect (one heap's moves differ), or a map that is not a permutation, is left to be
/// checked, and the wrong swap is an error, never a value.
#[test]
fn swaps_of_fields_the_moves_permute_are_proven() {
    let game = |extra: &str, maps: &str| {
        format!(
            "const M = 7
game H(a: 0..100000, b: 0..100000, c: 0..100000) {{
    move one(k in 1..M, k <= a) => H(a - k, b, c)
    move two(k in 1..M, k <= b) => H(a, b - k, c)
    move three(k in 1..M, k <= c{extra}) => H(a, b, c - k)
    move pair(k in 1..M, k <= a, k <= b, k < 3) => H(a - k, b - k, c)
    move outer(k in 1..M, k <= c, k <= a, k < 3) => H(a - k, b, c - k)
    move inner(k in 1..M, k <= b, k <= c, k < 3) => H(a, b - k, c - k)
{maps}}}
table outcome, grundy of H(a, b, 6) for a in 0..M, b in 0..M
value outcome, remoteness of H(6, 5, 4)
"
        )
    };
    let swaps = "    symmetry ab => H(b, a, c)\n    symmetry bc => H(a, c, b)\n";
    let program = compile_str(&game("", swaps)).expect("the file checks");
    assert!(program.games[0].symmetries.iter().all(|s| s.proven));
    let report = cgdl_compiler::opt::symmetry::describe(&program).join("\n");
    assert!(
        report.contains("proven: its moves are permuted as it permutes the fields"),
        "{report}"
    );
    let (with, solved_with) = answers(&game("", swaps));
    let (without, solved_without) = answers(&game("", ""));
    assert_eq!(with, without);
    assert!(
        solved_with * 3 < solved_without,
        "{solved_with} positions with the swaps, {solved_without} without"
    );
    // The third heap takes at most 5: `bc` is no symmetry, `ab` still is.
    let lopsided = game(", k < 6", swaps);
    let program = compile_str(&lopsided).expect("the file checks");
    let proven: Vec<bool> = program.games[0]
        .symmetries
        .iter()
        .map(|s| s.proven)
        .collect();
    assert_eq!(proven, [true, false]);
    let note = &program.games[0].symmetries[1].note;
    assert!(
        note.contains("move `two` with the fields permuted"),
        "{note}"
    );
    assert_not_a_symmetry(&program, 1);
    // Not a permutation of the fields: a heap's size moved.
    let program = compile_str(&game("", "    symmetry shift => H(b, a, c + 0)\n")).expect("checks");
    let map = &program.games[0].symmetries[0];
    assert!(!map.proven);
    assert!(
        map.note.contains("not the game's fields in another order"),
        "{}",
        map.note
    );
}
