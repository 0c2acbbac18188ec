//! Comprehension compounds: `sum(E for x in D where c)` and the other compounds over a
//! comprehension mean the compound of the components written out, in the clauses' order.

use crate::common;

use cgdl::runtime::Mode;
use common::{both_back_ends, run_source, stdout, temp_file, value};
use proptest::prelude::*;

const HEAPS: &str = "game Heap(n: nat) { move take(k in 1..=n) => Heap(n - k) }\n\
                     game Pair(a: 0..4, b: 0..4) { move left(k in 1..=a) => Pair(a - k, b)\n\
                     move right(k in 1..=b) => Pair(a, b - k) }\n";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Every compound over a comprehension equals the compound written out, for each value
    /// (duplicates in a list domain are components too); a `where` drops components.
    #[test]
    fn comprehension_compounds_equal_the_compounds_written_out(
        heaps in prop::collection::vec(0i64..5, 1..4),
        kind in prop::sample::select(&["sum", "union", "selective", "conjunctive", "continued", "wtia"][..]),
        most in 0i64..5,
    ) {
        let list = heaps.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(", ");
        let kept: Vec<String> = (heaps.iter())
            .filter(|&&h| h <= most)
            .map(|h| format!("Heap({h})"))
            .collect();
        let written = match kept.len() {
            0 => "end".to_string(),
            1 if kind != "selective" => kept[0].clone(),
            _ => format!("{kind}({})", kept.join(", ")),
        };
        let values = "outcome, grundy, wnumber, remoteness, suspense, misere_outcome";
        let source = format!(
            "{HEAPS}value {values} of {kind}(Heap(h) for h in [{list}] where h <= {most})\n\
             value {values} of {written}\n"
        );
        let answers = run_source(&source, Mode::Fast);
        for name in values.split(", ") {
            prop_assert_eq!(value(&answers[0], name), value(&answers[1], name), "{}", name);
        }
    }
}

#[test]
fn an_empty_sum_is_the_terminal_position_and_binders_nest() {
    let source = format!(
        "{HEAPS}value outcome, grundy of sum(Heap(h) for h in 1..1)\n\
         value grundy of sum(Pair(a, b) for a in 0..4, b in 0..4 where a < b)\n\
         value grundy of sum(Heap(a) + Heap(b) for (a, b) in [(1, 2), (3, 3)])\n"
    );
    let answers = run_source(&source, Mode::Fast);
    assert_eq!(value(&answers[0], "outcome"), "P");
    assert_eq!(value(&answers[0], "grundy"), "0");
    // Pair(a, b) is Nim on two heaps: the xor of a xor b over a < b in 0..4:
    // (0^1)^(0^2)^(0^3)^(1^2)^(1^3)^(2^3) = 1^2^3^3^2^1 = 0.
    assert_eq!(value(&answers[1], "grundy"), "0");
    // (1 xor 2) xor (3 xor 3) = 3.
    assert_eq!(value(&answers[2], "grundy"), "3");
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn comprehension_compounds_run_natively_and_only_compounds_take_them() {
    let path = temp_file(
        "comprehension_compound.cgdl",
        &format!(
            "{HEAPS}value grundy, moves of sum(Heap(h) for h in [1, 2, 4] where h != 2)\n\
             value outcome of wtia(Heap(h) for h in 0..3)\n"
        ),
    );
    let outs = both_back_ends(&["run", path.to_str().expect("a UTF-8 path")]);
    for out in &outs {
        assert!(out.status.success(), "{}", common::stderr(out));
    }
    assert_eq!(stdout(&outs[0]), stdout(&outs[1]));
    assert!(
        stdout(&outs[0]).contains("grundy  5"),
        "{}",
        stdout(&outs[0])
    );
    let bad = temp_file(
        "comprehension_not_compound.cgdl",
        &format!("{HEAPS}value grundy of max(Heap(h) for h in 0..3)\n"),
    );
    let out = common::cgdl(&["check", bad.to_str().expect("a UTF-8 path")]);
    assert!(
        common::stderr(&out).contains("only a compound takes a comprehension"),
        "{}",
        common::stderr(&out)
    );
}

/// Issue 34: every type is ordered as Rust derives `Ord` (tuples lexicographically, tags by
/// declaration then payload, `false` before `true`, sets by their sorted elements), for
/// `<`, `<=`, `>`, `>=`, `min` and `max`, in both back ends alike: each pair of values of a
/// list is compared in a move, and the grid of outcomes is Rust's comparison of the same
/// values.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn every_type_is_ordered() {
    use std::collections::BTreeSet;
    #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
    enum Tag {
        A,
        B(i64),
        C(i64, bool),
    }
    let tuples = [(0, 1), (0, 2), (1, 0), (-1, 5), (0, 1)];
    let tags = [
        Tag::B(1),
        Tag::A,
        Tag::C(0, true),
        Tag::B(0),
        Tag::C(0, false),
    ];
    let sets: Vec<BTreeSet<i64>> = [vec![], vec![2], vec![1, 3], vec![1, 2, 3], vec![3]]
        .into_iter()
        .map(|v| v.into_iter().collect())
        .collect();
    let bools = [true, false, true, false, false];
    let source = "type Tag = A | B(0..3) | C(0..3, bool)\n\
        const TUPLES = [(0, 1), (0, 2), (1, 0), (-1, 5), (0, 1)]\n\
        const TAGS = [B(1), A, C(0, true), B(0), C(0, false)]\n\
        const SETS = [{}, {2}, {1, 3}, {1, 2, 3}, {3}]\n\
        const BOOLS = [true, false, true, false, false]\n\
        game Less(k: 0..4, i: 0..5, j: 0..5) {\n\
            move m(if k == 0 then TUPLES[i] < TUPLES[j]\n\
                   else if k == 1 then TAGS[i] <= TAGS[j] and TAGS[i] != TAGS[j]\n\
                   else if k == 2 then not (SETS[i] >= SETS[j])\n\
                   else BOOLS[j] > BOOLS[i]) => end\n\
            move least(k == 1, i != j, min(TAGS[i], TAGS[j]) == TAGS[i], max({TAGS[i], TAGS[j]}) == TAGS[j]) => Less(k, i, i)\n\
        }\n\
        table outcome of Less(0, i, j) for i in 0..5, j in 0..5\n\
        table outcome of Less(1, i, j) for i in 0..5, j in 0..5\n\
        table outcome of Less(2, i, j) for i in 0..5, j in 0..5\n\
        table outcome of Less(3, i, j) for i in 0..5, j in 0..5\n";
    let path = common::temp_file("ordered.cgdl", source);
    let path = path.to_str().expect("path");
    let [native, interp] = common::both_back_ends(&["run", path, "--format", "json"]);
    assert!(native.status.success(), "{}", common::stderr(&native));
    assert_eq!(common::stdout(&native), common::stdout(&interp));
    let doc: serde_json::Value = serde_json::from_str(&common::stdout(&native)).expect("JSON");
    let grid = |q: usize| -> Vec<Vec<bool>> {
        let rows = doc["queries"][q]["grids"][0][1]
            .as_array()
            .expect("cells")
            .clone();
        (rows.iter())
            .map(|r| {
                (r.as_array().expect("row").iter())
                    .map(|v| v == "N")
                    .collect()
            })
            .collect()
    };
    let expect = |less: &dyn Fn(usize, usize) -> bool| -> Vec<Vec<bool>> {
        (0..5)
            .map(|i| (0..5).map(|j| less(i, j)).collect())
            .collect()
    };
    assert_eq!(grid(0), expect(&|i, j| tuples[i] < tuples[j]));
    // A pair of tags in order also has the move to Less(1, i, i), which is P.
    assert_eq!(grid(1), expect(&|i, j| tags[i] < tags[j]));
    assert_eq!(grid(2), expect(&|i, j| sets[i] < sets[j]));
    assert_eq!(grid(3), expect(&|i, j| bools[i].cmp(&bools[j]).is_lt()));
}
