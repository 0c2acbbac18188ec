//! Tests of `cgdl_compiler::ir::heap`.

use cgdl_compiler::compile_str;

fn code_of(source: &str) -> Option<Vec<u8>> {
    let program = compile_str(source).expect("a valid program");
    program.games[0].heap_code.clone()
}

#[test]
fn explicit_heap_rules_have_their_octal_codes() {
    // Kayles (0.77), Dawson's Kayles (0.07), subtraction {1, 2, 3} (0.333), 0.156's
    // splits without the empty heap, and k < n (0.6: no move empties the heap).
    let cases: [(&str, &[u8]); 11] = [
        ("game D(n: nat) {\n    move knock(k in 2..=2, k <= n, a in 0..=(n - k) / 2) => D(n - k - a) + D(a)\n}\n", &[0, 0, 7]),
        ("game K(n: nat) {\n    move knock(k in 1..=2, k <= n, left in 0..=(n - k) / 2) => K(left) + K(n - k - left)\n}\n", &[0, 7, 7]),
        ("game D(n: nat) {\n    move knock(n >= 2, a in 0..=(n - 2) / 2) => D(n - 2 - a) + D(a)\n}\n", &[0, 0, 7]),
        ("game S(n: nat) {\n    move take(k in 1..=3, n >= k) => S(n - k)\n}\n", &[0, 3, 3, 3]),
        ("game G(n: nat) {\n    move a(k in 1..2, k <= n) => G(n - k)\n    move b(k in 2..=3, k < n, x in 1..=(n - k) / 2) => G(x) + G(n - k - x)\n}\n", &[0, 3, 4, 4]),
        ("game T(n: nat) {\n    move t(k in 1..=1, k < n) => T(n - k)\n}\n", &[0, 2]),
        // Removal sets, a constant's set, and moves that take the whole heap (0.15).
        ("game S(n: nat) {\n    move take(k in {1, 3, 4}, k <= n) => S(n - k)\n}\n", &[0, 3, 0, 3, 3]),
        ("const K = {2, 3}\ngame S(n: nat) {\n    move take(k in K, k < n) => S(n - k)\n}\n", &[0, 0, 2, 2]),
        ("game T(n: nat) {\n    move t(k in 1..=1, k < n, a in 1..=(n - k) / 3, b in a..=(n - k - a) / 2) => T(b) + T(n - k - a - b) + T(a)\n}\n", &[0, 8]),
        ("game T(n: nat) {\n    move t(k in {2}, k <= n, a in 0..=(n - k) / 3, b in a..=(n - k - a) / 2) => T(a) + T(b) + T(n - k - a - b)\n}\n", &[0, 0, 15]),
        ("game F(n: nat) {\n    move all(n == 1) => end\n    move split(k in {2}, k < n, a in 1..=(n - k) / 2) => F(a) + F(n - k - a)\n    move two(k in 2..=2, k == n) => F(0)\n}\n", &[0, 1, 5]),
    ];
    for (source, digits) in cases {
        assert_eq!(code_of(source).as_deref(), Some(digits), "{source}");
    }
}

#[test]
fn other_rules_are_not_heap_games() {
    for source in [
        // Removals that depend on n, a condition beside the removal, two fields.
        "game G(n: nat) {\n    move take(k in 1..=n) => G(n - k)\n}\n",
        "game G(n: nat) {\n    move take(k in 1..=2, k <= n, n % 2 == 0) => G(n - k)\n}\n",
        "game G(n: nat) {\n    move take(k in {1, n}, k <= n) => G(n - k)\n}\n",
        "game G(n: nat) {\n    move take(k in {0, 1}, k <= n) => G(n - k)\n}\n",
        "game G(n: nat) {\n    move all(n == 2) => G(1)\n}\n",
        "game G(n: nat) {\n    move t(k in 1..=1, k < n, a in 1..=(n - k) / 3, b in 1..=(n - k - a) / 2) => G(a) + G(b) + G(n - k - a - b)\n}\n",
        "game G(n: nat) {\n    move t(k in 1..=1, k < n, a in 1..=(n - k) / 3, b in a..=(n - k - a) / 2) => G(a) + G(a) + G(n - k - a - b)\n}\n",
        "game G(n: nat) {\n    move all(k in 1..=2, k == n, n > 1) => end\n}\n",
        "game G(n: nat) {\n    move take(k in 1..=2, k <= n) => G(n - k + 1)\n}\n",
        "game G(n: nat) {\n    move take(k in 0..=2, k <= n) => G(n - k)\n}\n",
        "game G(n: nat) {\n    move take(n >= 2) => G(n - 1)\n}\n",
        "game G(n: nat) {\n    move take(n >= 0) => G(n - 0)\n}\n",
        "game G(n: nat) {\n    move s(k in 1..=2, k <= n, a in 0..=(n - k) / 2) => G(a) + G(n - a)\n}\n",
        "game G(a: nat, b: nat) {\n    move take(k in 1..=2, k <= a) => G(a - k, b)\n}\n",
    ] {
        assert_eq!(code_of(source), None, "{source}");
    }
}
