//! The heap-game engine against the literature and against the definition.

use cgdl_runtime::heap::{HeapCode, HeapEngine, SplitMethod};
use cgdl_runtime::rules::naive_sequence;
use proptest::prelude::*;

/// Flammenkamp's table of octal games: 0.156 has period 349 from 3479, 0.16 period 149459
/// from 105351; both are found and proven by the Guy–Smith condition.
#[test]
fn octal_periods_from_the_literature_are_found_and_proven() {
    for (code, preperiod, period) in [("0.156", 3479, 349), ("0.16", 105351, 149459)] {
        let mut engine = HeapEngine::new(HeapCode::parse(code).expect("a code"));
        // Enough values for the proof: 2*n0 + 2*p + t.
        engine.extend_to(2 * preperiod + 2 * period + 3);
        let found = engine.proven_period().expect("a proven period");
        assert_eq!(
            (found.preperiod, found.period, found.proven),
            (preperiod, period, true),
            "{code}"
        );
        assert_eq!(engine.last_method(), SplitMethod::RareCommon, "{code}");
    }
}

/// Kayles: period 12 from 71 (Guy & Smith), so heap 10^18 is read off the period.
#[test]
fn kayles_of_a_quintillion() {
    let mut engine = HeapEngine::new(HeapCode::parse("0.77").expect("a code"));
    let (value, period) = engine.value(10u64.pow(18), 1 << 20).expect("a value");
    let period = period.expect("read off a period");
    assert_eq!((value, period.preperiod, period.period), (1, 71, 12));
}

/// A code of up to six digits (hexadecimal digits included, and a d0 of 0, 4, 8 or c).
fn code() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["0", "4", "8", "c"]),
        prop::collection::vec(0u8..16, 1..6),
    )
        .prop_map(|(d0, digits)| {
            let rest: String = digits.iter().map(|d| format!("{d:x}")).collect();
            format!("{d0}.{rest}")
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The engine (rare/common splits, compact values) computes exactly the mex of every
    /// option's value, for any code.
    #[test]
    fn the_engine_agrees_with_the_definition(code in code(), extra in 0usize..2) {
        let parsed = HeapCode::parse(&code).expect("a code");
        // Long enough that the common set is chosen a few times (at 256, 512, 1024).
        let n = if parsed.max_parts() == 3 { 150 } else { 1500 + extra * 500 };
        let mut engine = HeapEngine::new(parsed.clone());
        engine.extend_to(n);
        prop_assert_eq!(engine.values().to_vec(), naive_sequence(&parsed, n), "{}", code);
    }
}
