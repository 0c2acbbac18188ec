//! One `Solver` answers `outcome` for partizan games too: the outcome class of the
//! canonical form (`L`, `R`, `P` or `N`), natively and interpreted, for positions and sums.

use cgdl_compiler::{compile_str, queries, Interpreter};
use cgdl_native_tests::domineering::{Domineering, Universe};
use cgdl_runtime::report::run_plan;
use cgdl_runtime::{Expr, Outcome, Solver};

/// The free cells of an r × c rectangle.
fn rect(r: i64, c: i64) -> Vec<(i64, i64)> {
    (0..r).flat_map(|i| (0..c).map(move |j| (i, j))).collect()
}

#[test]
fn outcomes_of_domineering_are_classes() {
    let mut solver = Solver::new(&Universe);
    // Winning Ways: 2×1 is 1 (Left, down), 1×2 is -1, 2×2 is {1|-1}, 2×3 is {2|-1/2}.
    for ((r, c), class) in [
        ((0, 0), Outcome::P),
        ((2, 1), Outcome::L),
        ((1, 2), Outcome::R),
        ((2, 2), Outcome::N),
        ((2, 3), Outcome::N),
        ((3, 1), Outcome::L),
    ] {
        let pos = Domineering::new(rect(r, c)).pos();
        assert_eq!(solver.outcome(Expr::Pos(pos)), Ok(class), "{r}×{c}");
    }
    // 2×1 + 1×2 = 1 - 1 = 0: the second player wins.
    let sum = Expr::sum([
        Expr::Pos(Domineering::new(rect(2, 1)).pos()),
        Expr::Pos(Domineering::new(rect(1, 2)).pos()),
    ]);
    assert_eq!(solver.outcome(sum), Ok(Outcome::P));
}

#[test]
fn the_interpreter_answers_alike() {
    let source = "const R = 3\nconst C = 3\ntype Cell = (0..R, 0..C)\n\
        game D(free: set<Cell>) {\n\
          left move down(a in free, a.0 + 1 < R, (a.0 + 1, a.1) in free) => D(free - {a, (a.0 + 1, a.1)})\n\
          right move across(a in free, a.1 + 1 < C, (a.0, a.1 + 1) in free) => D(free - {a, (a.0, a.1 + 1)})\n\
        }\n\
        value outcome of D({(0, 0), (1, 0)})\n\
        value outcome of D({(0, 0), (0, 1)})\n\
        value outcome of D({(0, 0), (0, 1), (1, 0), (1, 1)})\n";
    let program = compile_str(source).expect("the source checks");
    let interp = Interpreter::new(&program, source);
    let outcomes: Vec<String> = (program.queries.iter())
        .map(|q| {
            let plan = queries::plan(&interp, q).expect("a plan");
            let answer = run_plan(&mut Solver::new(&interp), plan).expect("an answer");
            serde_json::to_value(&answer).expect("JSON").to_string()
        })
        .collect();
    for (answer, class) in outcomes.iter().zip(["\"L\"", "\"R\"", "\"N\""]) {
        assert!(
            answer.contains(&format!("[\"outcome\",{class}]")),
            "{answer}"
        );
    }
}
