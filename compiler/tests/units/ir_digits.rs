//! Tests of `cgdl_compiler::ir::digits`.

use cgdl_compiler::ir::*;

/// Every index of a game of a range, a `bool` and another range is the index of its
/// fields, in order, the first field least significant.
#[test]
fn indices_and_fields_are_inverse() {
    let digits = Digits {
        fields: vec![Some((-1, 1)), None, Some((2, 5))],
        size: 24,
    };
    for index in 0..24 {
        let values = digits.values_at(index);
        assert_eq!(digits.index_of(&values), Some(index));
    }
    let first = [Val::Int(0), Val::Bool(false), Val::Int(2)];
    assert_eq!(digits.index_of(&first), Some(1));
    let second = [Val::Int(-1), Val::Bool(true), Val::Int(2)];
    assert_eq!(digits.index_of(&second), Some(3));
    let outside = [Val::Int(2), Val::Bool(true), Val::Int(2)];
    assert_eq!(digits.index_of(&outside), None);
}
