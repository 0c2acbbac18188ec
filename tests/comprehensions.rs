//! Comprehension compounds: `sum(E for x in D where c)` and the other compounds over a
//! comprehension mean the compound of the components written out, in the clauses' order.

mod common;

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
