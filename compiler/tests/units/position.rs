//! Tests of `cgdl_compiler::position`.

use cgdl_compiler::position::*;

const NIM: &str = "game Heap(n: nat) {\n    move take(k in 1..=n) => Heap(n - k)\n}\n";

#[test]
fn a_position_is_one_expression() {
    for bad in [
        "Heap(3) value grundy of Heap(2)",
        "Heap(3) game Zed() {}",
        "Heap(3) const X = 1",
        "Heap(3)\ntable grundy of Heap(n) for n in 0..3",
        "Heap(3) /*",
        "",
    ] {
        assert!(compile_position(NIM, bad).is_err(), "{bad:?} was accepted");
    }
    let ok = compile_position(NIM, "Heap(3) + Heap(2) // a comment").expect("checks");
    assert_eq!(ok.program.queries.len(), 1);
}

#[test]
fn places_are_inside_the_position() {
    let diags = match compile_position(NIM, "Heap(2) + Hep(1)") {
        Err(d) => d,
        Ok(_) => panic!("an unknown game was accepted"),
    };
    assert_eq!(diags[0].span.start, 10, "{diags:?}");
    let ok = compile_position(NIM, "Heap(1) +\n  Heap(2)").expect("checks");
    let at = ok.source.rfind("Heap(2)").expect("in the text");
    assert_eq!(ok.program.locate(&ok.source, at), "<position>:2:3");
    assert_eq!(ok.program.locate(&ok.source, 4), "1:5");
}
