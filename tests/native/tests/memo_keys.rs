//! The 64-bit memo keys of generated positions (`Rules::key`): one key per position, never
//! the key table's empty mark, and none for games whose positions do not fit.

use cgdl_native_tests::memo_keys::{Piece, Universe, A, B, C, D, E, F, G};
use cgdl_runtime::Rules;
use std::collections::HashMap;

/// The subset of `0..n` whose members are the set bits of `bits`.
fn members(bits: u32, n: u32) -> impl Iterator<Item = u32> + Clone {
    (0..n).filter(move |i| bits >> i & 1 == 1)
}

#[test]
fn every_position_of_a_packable_game_has_its_own_key() {
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
    let count = 6 * 2 * 8 + 256 * 3 * 2 + 256 + 1;
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
