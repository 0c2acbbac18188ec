//! Tests of `cgdl_compiler::codes`.

use cgdl_compiler::codes::ErrorCode;
use std::collections::BTreeSet;

/// docs/LANGUAGE.md's table of codes lists exactly the codes the compiler gives.
#[test]
fn the_language_reference_lists_every_code() {
    let docs = include_str!("../../../docs/LANGUAGE.md");
    let listed: BTreeSet<&str> = docs
        .lines()
        .filter_map(|line| line.strip_prefix("| E"))
        .filter_map(|rest| rest.get(..4))
        .collect();
    let codes: BTreeSet<&str> = ErrorCode::ALL.iter().map(|c| &c.as_str()[1..]).collect();
    assert_eq!(
        listed, codes,
        "docs/LANGUAGE.md's code table and ErrorCode differ"
    );
}

#[test]
fn codes_are_distinct() {
    let codes: BTreeSet<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(codes.len(), ErrorCode::ALL.len());
}
