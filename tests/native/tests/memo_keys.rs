//! The 64-bit memo keys of generated positions (`Rules::key`): one key per position, never
//! the key table's empty mark, and none for games whose positions do not fit.

use cgdl_native_tests::memo_keys::{Piece, Pos, Universe, A, B, C, D, E, F, G};
use cgdl_runtime::Rules;
use std::collections::HashMap;

/// The subset of `0..n` whose members are the set bits of `bits`.
fn members(bits: u32, n: u32) -> impl Iterator<Item = u32> + Clone {
    (0..n).filter(move |i| bits >> i & 1 == 1)
}

/// Every position of the games with a 64-bit key.
fn keyed_positions() -> Vec<Pos> {
    const PIECES: u32 = 8; // Pawn, Rook(0..=2), Pair(bool, 0..=1)
    let mut positions = Vec::new();
    for x in -2..=3 {
        for flag in [false, true] {
            for r in 0..PIECES {
                positions.push(A::new(x, flag, Piece::from_ordinal(r)).pos());
            }
        }
    }
    for bits in 0..1 << 8 {
        let s = members(bits, 8).map(|i| i64::from(i) - 3);
        for a in 0..=2 {
            for b in [false, true] {
                positions.push(B::new(s.clone(), (a, b)).pos());
            }
        }
    }
    for bits in 0..1 << PIECES {
        positions.push(C::new(members(bits, PIECES).map(Piece::from_ordinal)).pos());
    }
    positions.push(D::new().pos());
    positions
}

/// Positions of the games with a 128-bit key.
fn wide_keyed_positions() -> Vec<Pos> {
    let sets: [&[i64]; 5] = [&[], &[0], &[63], &[0, 63], &[5, 17, 40]];
    let mut positions: Vec<_> = sets
        .iter()
        .map(|s| G::new(s.iter().copied()).pos())
        .collect();
    positions.extend(sets.iter().map(|s| F::new(s.iter().copied()).pos()));
    positions.push(F::new([70]).pos());
    positions.push(F::new(0..=70).pos());
    positions
}

#[test]
fn every_position_of_a_packable_game_has_its_own_key() {
    const PIECES: usize = 8;
    let positions = keyed_positions();
    let mut owner = HashMap::new();
    for &p in &positions {
        let key = Universe
            .key(p)
            .unwrap_or_else(|| panic!("{p:?} has no key"));
        assert_ne!(key, u64::MAX, "{p:?} has the empty mark as its key");
        if let Some(q) = owner.insert(key, p) {
            panic!("{q:?} and {p:?} share the key {key}");
        }
    }
    // Mixed radix over the games in order: the keys are exactly 0..N.
    let count = 6 * 2 * PIECES + 256 * 3 * 2 + 256 + 1;
    assert_eq!(owner.len(), count);
    assert_eq!(owner.keys().max(), Some(&(count as u64 - 1)));
}

#[test]
fn games_that_do_not_fit_have_no_key() {
    // An unbounded field; a set of 71 values; 2^64 positions after the other games'.
    assert_eq!(Universe.key(E::new(5).pos()), None);
    assert_eq!(Universe.key(F::new([0, 70]).pos()), None);
    assert_eq!(Universe.key(G::new([0, 63]).pos()), None);
}

#[test]
fn games_without_a_key_that_fit_128_bits_have_a_wide_one() {
    // F (71 bits) and G (64 bits) pack into 128 bits together, each position its own key;
    // the games with a 64-bit key have no wide one, and an unbounded field neither.
    let mut owner = HashMap::new();
    for &p in &wide_keyed_positions() {
        let key = Universe
            .wide_key(p)
            .unwrap_or_else(|| panic!("{p:?} has no wide key"));
        assert_ne!(key, u128::MAX, "{p:?} has the empty mark as its key");
        if let Some(q) = owner.insert(key, p) {
            panic!("{q:?} and {p:?} share the wide key {key}");
        }
    }
    assert_eq!(Universe.wide_key(A::new(0, true, Piece::Pawn).pos()), None);
    assert_eq!(Universe.wide_key(E::new(5).pos()), None);
}

#[test]
fn every_position_with_a_key_reads_back_from_its_code() {
    // A tiered solve exchanges positions as codes (`Rules::code`): a 64-bit key as it is,
    // a wide key with bit 127 set.
    let mut owner = HashMap::new();
    for p in keyed_positions().into_iter().chain(wide_keyed_positions()) {
        let code = Universe
            .code(p)
            .unwrap_or_else(|| panic!("{p:?} has no code"));
        assert_eq!(Universe.position_of_code(code), Some(p), "code {code:#x}");
        if let Some(q) = owner.insert(code, p) {
            panic!("{q:?} and {p:?} share the code {code:#x}");
        }
    }
    assert_eq!(Universe.code(E::new(5).pos()), None);
    // Codes no position has read back as none.
    assert_eq!(Universe.position_of_code(u128::from(u64::MAX - 1)), None);
    assert_eq!(Universe.position_of_code(u128::MAX), None);
}

#[test]
fn measures_are_set_sizes_and_numbers() {
    let mut out = Vec::new();
    // A: x (a number); B: |s|; C: |s|; E: n; F: |s|; G: |s| (flags, tuples and pieces
    // are not measures).
    Universe.measures(A::new(-2, true, Piece::Pawn).pos(), &mut out);
    assert_eq!(out, [-2, 0, 0, 0, 0, 0]);
    Universe.measures(B::new([-3, 0, 4], (1, true)).pos(), &mut out);
    assert_eq!(out, [0, 3, 0, 0, 0, 0]);
    Universe.measures(E::new(7).pos(), &mut out);
    assert_eq!(out, [0, 0, 0, 7, 0, 0]);
    Universe.measures(F::new(0..=70).pos(), &mut out);
    assert_eq!(out, [0, 0, 0, 0, 71, 0]);
}
