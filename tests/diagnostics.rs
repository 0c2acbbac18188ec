//! Invalid programs: each one's rendered diagnostics are snapshot-tested (insta), and each
//! must report the expected error codes.

use cgdl::compiler::{compile_str, diagnostics::render_all};

/// (name, expected codes in order, source)
const CASES: &[(&str, &[&str], &str)] = &[
    (
        "match_not_exhaustive",
        &["E0205"],
        "type Side = Left | Right | Top\nfn flip(s: Side) -> Side = match s { Left => Right, Right => Left }\n",
    ),
    (
        "match_unknown_variant",
        &["E0101"],
        "type Side = Left | Right\nfn flip(s: Side) -> Side = match s { Left => Right, Rigth => Left }\n",
    ),
    (
        "match_duplicate_arm",
        &["E0206"],
        "type Side = Left | Right\nfn flip(s: Side) -> Side = match s { Left => Right, Left => Left, _ => Left }\n",
    ),
    (
        "variant_wrong_arity",
        &["E0201"],
        "type Line = H(0..3, 0..2) | V(0..2, 0..3)\nconst FIRST = H(0)\n",
    ),
    (
        "variant_out_of_range",
        &["E0203"],
        "type Line = H(0..3, 0..2) | V(0..2, 0..3)\nconst FIRST = V(2, 0)\n",
    ),
    (
        "type_infinite_domain",
        &["E0301"],
        "type Pile = Heap(nat) | Empty\ngame G(n: nat) {\n    move take(p in Pile, n > 0) => G(n - 1)\n}\n",
    ),
    (
        "alias_unknown_type",
        &["E0301", "E0103", "E0101"],
        "type Cell = (0..3, 0..3)\ntype Row = 0..3\ngame G(c: Cel) {\n    move m(x in Nat) => G(c)\n}\ntype Heap = nat\nconst ALL = len(Heap)\n",
    ),
    (
        "alias_defined_twice",
        &["E0104"],
        "type Cell = (0..3, 0..3)\ntype Cell = At(0..3)\n",
    ),
    (
        "syntax_missing_arrow",
        &["E0001"],
        "game G(n: nat) {\n    move take(k in 1..=n) G(n - k)\n}\n",
    ),
    (
        "syntax_unclosed_brace",
        &["E0001"],
        "game G(n: nat) {\n    move take(k in 1..=n) => G(n - k)\n",
    ),
    (
        "syntax_bad_query",
        &["E0001"],
        "game G(n: nat) { move take(k in 1..=n) => G(n - k) }\nvalue grundy G(3)\n",
    ),
    (
        "unknown_game",
        &["E0102"],
        "game Kayles(n: nat) {\n    move knock(k in 1..=2, k <= n) => Kayles(n - k)\n}\nvalue grundy of Kayle(3)\n",
    ),
    (
        "unknown_name",
        &["E0101"],
        "game G(n: nat) {\n    move take(k in 1..=m) => G(n - k)\n}\n",
    ),
    (
        "unknown_type",
        &["E0103"],
        "game G(n: natural) {\n    move take(k in 1..=n) => G(n - k)\n}\n",
    ),
    (
        "unknown_function",
        &["E0102"],
        "game G(n: nat) {\n    move take(k in 1..=n, allowed(k)) => G(n - k)\n}\n",
    ),
    (
        "wrong_arity_game",
        &["E0201"],
        "game G(n: nat) {\n    move take(k in 1..=n) => G(n - k, k)\n}\n",
    ),
    (
        "wrong_arity_fn",
        &["E0201"],
        "fn half(n: nat) -> nat = n / 2\ngame G(n: nat) {\n    move take(k in 1..=half(n, 1)) => G(n - k)\n}\n",
    ),
    (
        "type_mismatch_condition",
        &["E0202"],
        "game G(n: nat) {\n    move take(k in 1..=n, k + 1) => G(n - k)\n}\n",
    ),
    (
        "type_mismatch_result",
        &["E0202"],
        "game G(n: nat) {\n    move take(k in 1..=n) => n - k\n}\n",
    ),
    (
        "type_mismatch_field",
        &["E0202"],
        "game G(n: nat) {\n    move take(k in 1..=n) => G(n - k)\n}\nvalue grundy of G(true)\n",
    ),
    (
        "type_mismatch_if_branches",
        &["E0202"],
        "game G(n: nat) {\n    move take(k in 1..=n) => if k == n then end else 0\n}\n",
    ),
    (
        "out_of_range_literal",
        &["E0203"],
        "game Horse(r: 0..8, c: 0..8) {\n    move up(r > 1) => Horse(r - 2, c)\n}\nvalue outcome of Horse(9, 0)\n",
    ),
    (
        "shadowed_binder",
        &["E0105"],
        "game G(n: nat) {\n    move take(n in 1..=3) => G(n - 1)\n}\n",
    ),
    (
        "shadowed_let",
        &["E0105"],
        "game G(n: nat) {\n    move take(k in 1..=n) => let k = 1 in G(n - k)\n}\n",
    ),
    (
        "infinite_domain",
        &["E0301"],
        "game G(n: nat) {\n    move take(k in nat, k <= n) => G(n - k)\n}\n",
    ),
    (
        "number_as_domain",
        &["E0301"],
        "game G(n: nat) {\n    move take(k in n) => G(n - k)\n}\n",
    ),
    (
        "recursive_fn",
        &["E0401"],
        "fn f(n: nat) -> nat = if n == 0 then 0 else f(n - 1)\ngame G(n: nat) {\n    move take(k in 1..=f(n)) => G(n - k)\n}\n",
    ),
    (
        "mutually_recursive_fns",
        &["E0401"],
        "fn even(n: nat) -> bool = if n == 0 then true else odd(n - 1)\nfn odd(n: nat) -> bool = if n == 0 then false else even(n - 1)\n",
    ),
    (
        "division_by_zero_in_constant",
        &["E0501"],
        "const K = 4\nconst Q = K / (K - 4)\n",
    ),
    (
        "unknown_value",
        &["E0601"],
        "game G(n: nat) {\n    move take(k in 1..=n) => G(n - k)\n}\nvalue grundy, nimber of G(3)\n",
    ),
    (
        "duplicate_game",
        &["E0104"],
        "game G(n: nat) {\n    move take(k in 1..=n) => G(n - k)\n}\ngame G = subtraction {1, 2}\n",
    ),
    (
        "bad_octal_code",
        &["E0701", "E0701"],
        "game K = octal \"0.7g\"\ngame D = octal \"2.07\"\n",
    ),
    (
        "table_with_three_names",
        &["E0602"],
        "game W(a: nat, b: nat) {\n    move left(k in 1..=a) => W(a - k, b)\n}\ntable grundy of W(a, b) for a in 0..3, b in 0..3, c in 0..3\n",
    ),
    (
        "period_over_a_gap",
        &["E0602", "E0602"],
        "game S = subtraction {1, 2}\nperiod grundy of S(n) for n in {1, 5, 9}\nperiod grundy of S(n) for n in [3, 2]\nperiod grundy of S(n) for n in {2, 1, 3}\n",
    ),
    (
        "deep_nesting",
        &["E0002"],
        "const A = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1\n",
    ),
    (
        "quotient_of_no_heap_game",
        &["E0602"],
        "game Heap(n: nat) { move take(k in 1..=n) => Heap(n - k) }\nquotient of Heap(n) for n in 0..=10\n",
    ),
    (
        "period_of_outcome",
        &["E0602"],
        "game S = subtraction {1, 2}\nperiod outcome of S(n) for n in 0..=100\n",
    ),
    (
        "empty_range_type",
        &["E0204"],
        "game G(n: 5..2) {\n    move down(n > 5) => G(n - 1)\n}\n",
    ),
    (
        "nonpositive_subtraction",
        &["E0203"],
        "game S = subtraction {0, 2}\n",
    ),
    (
        "position_in_constant",
        &["E0502"],
        "game S = subtraction {1, 2}\nconst START = S(10)\n",
    ),
    (
        "draw_unknown_kind",
        &["E0101"],
        "game G(n: nat) {\n    draw tokns(n)\n    move take(k in 1..=n) => G(n - k)\n}\n",
    ),
    (
        "draw_wrong_field",
        &["E0202", "E0101", "E0104"],
        "type Cell = (0..3, 0..3)\ngame G(n: nat, cells: set<Cell>) {\n    draw board(n)\n    move take(k in 1..=n) => G(n - k, cells)\n}\ngame H(cells: set<Cell>) {\n    draw board(cels)\n    draw text\n    move take(x in cells) => H(cells - {x})\n}\n",
    ),
    (
        "every_error_reported",
        &["E0103", "E0101", "E0601"],
        "game G(n: nut) {\n    move take(k in 1..=m) => G(n - k)\n}\nvalue grundyy of G(3)\n",
    ),
];

#[test]
fn invalid_programs_have_clear_diagnostics() {
    assert!(CASES.len() >= 25);
    for (name, codes, source) in CASES {
        let diags = match compile_str(source) {
            Ok(_) => panic!("{name}: expected errors"),
            Err(d) => d,
        };
        let got: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(&got, codes, "{name}");
        let rendered = render_all(&diags, &format!("{name}.cgdl"), source);
        insta::assert_snapshot!(*name, rendered);
    }
}
