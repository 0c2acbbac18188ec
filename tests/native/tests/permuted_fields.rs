//! Declared symmetries that permute a game's fields (`permuted.cgdl`, proven by
//! `opt::fields`), natively: each position's least image is the least of its images under
//! the group the maps generate, by brute force, and every value with the symmetries is the
//! value of an exact search, which uses none.

use cgdl_native_tests::permuted::{Circle, Heaps, Pairs, Pos, Universe};
use cgdl_runtime::{Mode, Rules, Solver, ValueKind};
use std::collections::BTreeSet;

/// The orbit of `fields` under the permutations `maps` (`image[i] = fields[map[i]]`),
/// followed until it closes.
fn orbit(fields: &[i64], maps: &[&[usize]]) -> BTreeSet<Vec<i64>> {
    let mut seen = BTreeSet::from([fields.to_vec()]);
    let mut work = vec![fields.to_vec()];
    while let Some(p) = work.pop() {
        for map in maps {
            let q: Vec<i64> = map.iter().map(|&j| p[j]).collect();
            if seen.insert(q.clone()) {
                work.push(q);
            }
        }
    }
    seen
}

/// Checks each position of `positions` (its fields, and the position): its least image is
/// the least of its orbit under `maps`, the maps that fix it are those whose image is
/// itself, and its values are the exact search's.
fn check(maps: &[&[usize]], positions: &[(Vec<i64>, Pos)], make: &dyn Fn(&[i64]) -> Pos) {
    let mut fast = Solver::new(&Universe);
    let mut exact = Solver::with_mode(&Universe, Mode::Exact);
    let mut moved = 0;
    for (fields, p) in positions {
        let images = orbit(fields, maps);
        let least = images.iter().map(|f| make(f)).min().expect("an orbit");
        let (image, fixing) = Universe.least_image_fixing(*p);
        assert_eq!(image, least, "{fields:?}");
        for (k, map) in maps.iter().enumerate() {
            let fixed = map.iter().enumerate().all(|(i, &j)| fields[i] == fields[j]);
            assert_eq!(fixing >> k & 1 == 1, fixed, "{fields:?}: map {k}");
        }
        moved += usize::from(image != *p);
        for kind in [ValueKind::Grundy, ValueKind::Outcome, ValueKind::Remoteness] {
            let (a, b) = (fast.value_of(kind, *p), exact.value_of(kind, *p));
            assert_eq!(a.expect("value"), b.expect("value"), "{fields:?} {kind:?}");
        }
    }
    assert!(moved * 2 > positions.len(), "{moved} positions moved");
}

/// Every choice of `n` fields below `below`.
fn grid(n: usize, below: i64) -> Vec<Vec<i64>> {
    let mut all = vec![vec![]];
    for _ in 0..n {
        all = (all.into_iter())
            .flat_map(|f: Vec<i64>| (0..below).map(move |x| [f.clone(), vec![x]].concat()))
            .collect();
    }
    all
}

#[test]
fn every_swap_of_three_heaps_sorts_them() {
    let make = |f: &[i64]| Heaps::new(f[0], f[1], f[2]).pos();
    let positions: Vec<_> = grid(3, 9)
        .into_iter()
        .map(|f| (f.clone(), make(&f)))
        .collect();
    check(&[&[1, 0, 2], &[0, 2, 1]], &positions, &make);
}

#[test]
fn a_turn_of_three_heaps_keeps_the_least_of_three() {
    let make = |f: &[i64]| Circle::new(f[0], f[1], f[2]).pos();
    let positions: Vec<_> = grid(3, 9)
        .into_iter()
        .map(|f| (f.clone(), make(&f)))
        .collect();
    check(&[&[1, 2, 0]], &positions, &make);
}

#[test]
fn two_pairs_of_heaps_are_each_sorted() {
    let make = |f: &[i64]| Pairs::new(f[0], f[1], f[2], f[3]).pos();
    let positions: Vec<_> = grid(4, 6)
        .into_iter()
        .map(|f| (f.clone(), make(&f)))
        .collect();
    check(&[&[1, 0, 2, 3], &[0, 1, 3, 2]], &positions, &make);
}
