//! Literature values through the runtime, with games hand-written in Rust.

#[path = "games/mod.rs"]
mod games;

use cgdl_runtime::{
    find_period, Bound, Compound, Expr, Mode, Outcome, SolveError, Solver, Value, ValueKind,
    WNumber,
};
use games::*;
use serde_json::Value as Json;

fn seed_tables() -> Json {
    serde_json::from_str(include_str!("../../tests/data/seed_tables.json"))
        .expect("seed_tables.json parses")
}

/// A seed table entry as the solver's value type.
fn json_value(v: &Json) -> Value {
    match v {
        Json::String(s) if s == "P" => Value::Outcome(Outcome::P),
        Json::String(s) if s == "N" => Value::Outcome(Outcome::N),
        Json::String(s) if s == "SL" => Value::W(WNumber::SL),
        Json::String(s) if s == "SW" => Value::W(WNumber::SW),
        Json::Number(n) => Value::Number(n.as_u64().expect("small number") as u32),
        other => panic!("unexpected table entry {other}"),
    }
}

fn as_w(v: Value) -> Value {
    match v {
        Value::Number(n) => Value::W(WNumber::Num(n)),
        other => other,
    }
}

#[test]
fn lenhardt_limited_nim_table() {
    let tables = seed_tables();
    let table = &tables["lenhardt_limited_nim_134"];
    let rules = Subtraction { set: vec![1, 3, 4] };
    for mode in [Mode::Fast, Mode::Exact] {
        let mut solver = Solver::with_mode(&rules, mode);
        for (i, n) in table["n"].as_array().unwrap().iter().enumerate() {
            let n = n.as_u64().unwrap() as u32;
            let g = solver.value_of(ValueKind::Grundy, n).unwrap();
            assert_eq!(g, json_value(&table["grundy"][i]), "grundy({n})");
            let w = solver.value_of(ValueKind::WNumber, n).unwrap();
            assert_eq!(w, as_w(json_value(&table["wnumber"][i])), "w({n})");
            let wm = solver.value_of(ValueKind::MisereWNumber, n).unwrap();
            assert_eq!(
                wm,
                as_w(json_value(&table["misere_wnumber"][i])),
                "misère w({n})"
            );
        }
    }
}

#[test]
fn lenhardt_example_5_2_wtia_of_limited_nim() {
    let rules = Subtraction { set: vec![1, 3, 4] };
    let wtia = |heaps: [u32; 3]| Expr::compound(Compound::Wtia, heaps.map(Expr::Pos));
    for mode in [Mode::Fast, Mode::Exact] {
        let mut solver = Solver::with_mode(&rules, mode);
        // w(5) ⊕w w(8) ⊕w w(6) = 1 ⊕w 2 ⊕w 2 = 1: a win for the player to move.
        assert_eq!(solver.wnumber(wtia([5, 8, 6])).unwrap(), WNumber::Num(1));
        assert_eq!(solver.outcome(wtia([5, 8, 6])).unwrap(), Outcome::N);
        // SW ⊕w 2 ⊕w 3 = SW.
        assert_eq!(solver.wnumber(wtia([4, 6, 11])).unwrap(), WNumber::SW);
        assert_eq!(solver.outcome(wtia([4, 6, 11])).unwrap(), Outcome::N);
    }
}

/// How a seed-table entry prints: `P`, `SL`, `3`.
fn shown(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Checks an 8×8 grid of the seed tables against the solver.
fn check_grid(rules: &Board, key: &str, kind: ValueKind, mode: Mode) {
    let tables = seed_tables();
    let grid = &tables[key];
    let mut solver = Solver::with_mode(rules, mode);
    for r in 0..8 {
        for c in 0..8 {
            let got = solver.value_of(kind, (r, c)).unwrap().to_string();
            let want = shown(&grid[r as usize][c as usize]);
            assert_eq!(got, want, "{key} at row {r}, column {c} ({mode:?})");
        }
    }
}

#[test]
fn lenhardt_figure_2_queens_grundy() {
    check_grid(
        &Board::queen(),
        "lenhardt_fig2_queens_grundy",
        ValueKind::Grundy,
        Mode::Fast,
    );
}

#[test]
fn lenhardt_figures_4_5_6_9_horses() {
    let horse = Board::horse();
    for mode in [Mode::Fast, Mode::Exact] {
        check_grid(
            &horse,
            "lenhardt_fig4_horses_outcome",
            ValueKind::Outcome,
            mode,
        );
        check_grid(
            &horse,
            "lenhardt_fig5_horses_remoteness",
            ValueKind::Remoteness,
            mode,
        );
        check_grid(
            &horse,
            "lenhardt_fig6_horses_suspense",
            ValueKind::Suspense,
            mode,
        );
        check_grid(
            &horse,
            "lenhardt_fig9_horses_wnumber",
            ValueKind::WNumber,
            mode,
        );
    }
    // The misprint the brief notes: row 5, column 5 counting from 1 is 4, not 2.
    let mut solver = Solver::new(&horse);
    assert_eq!(solver.suspense(Expr::Pos((4, 4))).unwrap(), 4);
}

#[test]
fn queens_union_and_selective() {
    // Lenhardt 3.2/3.3: several queens; union is P iff every queen stands on a 0;
    // selective is P iff all queens' Grundy values are equal.
    let queen = Board::queen();
    let g = |r: i32, c: i32| -> u32 {
        let table = &seed_tables()["lenhardt_fig2_queens_grundy"];
        table[r as usize][c as usize].as_u64().unwrap() as u32
    };
    let squares = [(1, 2), (2, 1), (3, 4), (2, 2), (0, 0), (3, 3)];
    for mode in [Mode::Fast, Mode::Exact] {
        let mut solver = Solver::with_mode(&queen, mode);
        for &a in &squares {
            for &b in &squares {
                for kind in [Compound::Union, Compound::Selective] {
                    let e = Expr::compound(kind, [Expr::Pos(a), Expr::Pos(b)]);
                    let p = match kind {
                        Compound::Union => g(a.0, a.1) == 0 && g(b.0, b.1) == 0,
                        _ => g(a.0, a.1) == g(b.0, b.1),
                    };
                    let want = if p { Outcome::P } else { Outcome::N };
                    assert_eq!(solver.outcome(&e).unwrap(), want, "{kind:?} {a:?} {b:?}");
                }
            }
        }
    }
}

#[test]
fn bouton_nim_sums() {
    let mut solver = Solver::new(&Nim);
    let heaps = |hs: &[u32]| Expr::sum_of(hs.iter().copied());
    assert_eq!(solver.outcome(heaps(&[1, 2, 3])).unwrap(), Outcome::P);
    assert_eq!(solver.outcome(heaps(&[7, 4, 1])).unwrap(), Outcome::N);
    assert_eq!(solver.grundy(heaps(&[7, 4, 1])).unwrap(), 7 ^ 4 ^ 1);
    // 25 ^ 21 ^ 10 = 6: the only winning move takes 21 down to 21 ^ 6 = 19.
    let wins = solver.winning_moves(heaps(&[25, 21, 10])).unwrap();
    assert_eq!(wins, vec![heaps(&[25, 19, 10])]);
    assert!(solver.winning_moves(heaps(&[1, 2, 3])).unwrap().is_empty());
}

#[test]
fn misere_nim_every_small_position() {
    // Misère Nim (Bouton 1901; Winning Ways, ch. 13): P iff (some heap > 1 and xor = 0) or (all heaps <= 1 and xor = 1).
    let mut solver = Solver::new(&Nim);
    let mut checked = 0;
    for count in 1..=4usize {
        let total = 6usize.pow(count as u32);
        for code in 0..total {
            let heaps: Vec<u32> = (0..count)
                .map(|i| (code / 6usize.pow(i as u32) % 6) as u32)
                .collect();
            let xor = heaps.iter().fold(0, |a, b| a ^ b);
            let big = heaps.iter().any(|&h| h > 1);
            let p = (big && xor == 0) || (!big && xor == 1);
            let want = if p { Outcome::P } else { Outcome::N };
            let got = solver.misere_outcome(Expr::sum_of(heaps.clone())).unwrap();
            assert_eq!(got, want, "misère Nim {heaps:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 6 + 36 + 216 + 1296);
}

/// OEIS A002186, the nim-sequence of Kayles (0.77), first 40 values.
const KAYLES_40: [u32; 40] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2,
    1, 8, 6, 7, 4, 1, 2, 3,
];

#[test]
fn kayles_values_and_period() {
    let mut solver = Solver::new(&Kayles);
    let seq: Vec<u32> = (0..2000)
        .map(|n| solver.grundy(Expr::Pos(n)).unwrap())
        .collect();
    assert_eq!(seq[..40], KAYLES_40);
    // Zielonka §7: the last exceptional value is G(K70) = 6, then period 12.
    assert_eq!(seq[70], 6);
    let period = find_period(&seq, Some(Bound::guy_smith(2))).expect("Kayles is periodic");
    assert_eq!(
        (period.preperiod, period.period, period.proven),
        (71, 12, true)
    );
    // The hash-map memo agrees with the dense one.
    let mut hashed = Solver::new(&HashedKayles);
    for (n, &g) in seq.iter().enumerate().take(300) {
        assert_eq!(hashed.grundy(Expr::Pos(n as u32)).unwrap(), g);
    }
    // Exact search over the sums agrees on the first values.
    let mut exact = Solver::with_mode(&Kayles, Mode::Exact);
    for (n, &g) in seq.iter().enumerate().take(14) {
        assert_eq!(exact.grundy(Expr::Pos(n as u32)).unwrap(), g, "exact K{n}");
    }
}

#[test]
fn long_chain_does_not_overflow_the_stack() {
    let mut solver = Solver::new(&Chain);
    for kind in ValueKind::ALL {
        let v = solver.value_of(kind, 1_000_000).unwrap();
        let want = match kind {
            ValueKind::Outcome => Value::Outcome(Outcome::P),
            ValueKind::MisereOutcome => Value::Outcome(Outcome::N),
            ValueKind::Grundy => Value::Number(0),
            ValueKind::Remoteness | ValueKind::Suspense => Value::Number(1_000_000),
            ValueKind::WNumber => Value::W(WNumber::Num(0)),
            ValueKind::MisereWNumber => Value::W(WNumber::Num(1)),
        };
        assert_eq!(v, want, "{kind} of a 1,000,000 chain");
    }
    let take_three = Subtraction { set: vec![1, 2, 3] };
    let mut heap = Solver::new(&take_three);
    assert_eq!(heap.grundy(Expr::Pos(1_000_000)).unwrap(), 0);
}

/// A cycle 0 -> 1 -> 2 -> 0 with no way out: every position is a draw, `∞` with no finite
/// option; the values loopy games lack are errors that name the cycle.
#[test]
fn cycles_are_draws_and_other_values_name_them() {
    let mut solver = Solver::new(&Loopy);
    match solver.wnumber(Expr::Pos(0)) {
        Err(SolveError::Cycle { positions }) => assert_eq!(positions, ["0", "1", "2", "0"]),
        other => panic!("expected a cycle, got {other:?}"),
    }
    // The solver stays usable.
    let infinite = Value::Infinite(cgdl_runtime::Infinite { infinite: vec![] });
    assert_eq!(solver.value(ValueKind::Grundy, Expr::Pos(0)), Ok(infinite));
    assert_eq!(solver.outcome(Expr::Pos(1)), Ok(Outcome::D));
    let draw = Value::Outcome(Outcome::D);
    assert_eq!(solver.value(ValueKind::Remoteness, Expr::Pos(2)), Ok(draw));
    // Asked as a number, `∞` is an error.
    assert!(matches!(
        solver.grundy(Expr::Pos(2)),
        Err(SolveError::NotANumber {
            kind: ValueKind::Grundy,
            ..
        })
    ));
    assert!(matches!(
        solver.suspense(Expr::Pos(1)),
        Err(SolveError::Cycle { .. })
    ));
}

#[test]
fn rule_errors_and_limits_surface() {
    let mut solver = Solver::new(&Faulty);
    assert_eq!(solver.grundy(Expr::Pos(4)).unwrap(), 4);
    let err = solver.grundy(Expr::Pos(7)).unwrap_err();
    assert!(err.to_string().contains("Faulty(5)"), "{err}");
    let mut limited = Solver::new(&Chain);
    limited.set_max_positions(1000);
    assert_eq!(
        limited.grundy(Expr::Pos(5000)),
        Err(SolveError::TooManyPositions { limit: 1000 })
    );
}
