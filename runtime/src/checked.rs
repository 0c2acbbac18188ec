//! Declared symmetries checked as the solver runs ([`Rules::checked_symmetries`]).
//!
//! Before the solver expands a position of a game with checked maps, it checks that every
//! position of its orbit under the maps (where they permute it:
//! `rules::permuted_orbit`) has the same options, each option taken through its least
//! image under all the maps (`rules::checked_least_image_fixing`). The search of values
//! keeps values under positions' least images under the proven symmetries alone, and
//! keeps a position's value for the other positions of its checked orbit once it has it;
//! the partizan search keeps each position as the least of its orbit. By induction on the
//! game (every option whose value a search uses was expanded, its orbit checked the same
//! way), each position of a checked orbit is isomorphic to the one expanded, so every
//! value is the value of the position as written. A map that is not a symmetry is
//! reported at the first position where the options differ, naming the map: it never
//! changes an answer. Checking an orbit costs about what solving its other positions
//! would, so the impartial solver checks within a budget and then drops the maps
//! (`solver::ChecksAccount`); partizan searches check throughout.

use crate::error::SolveError;
use crate::expr::Expr;
use crate::rules::{permuted_orbit, OptRef, Options, Rules, Side};

/// A position's options as the solver sees them, sorted, each with the side that has it
/// (partizan games), and the option as the rules give it.
type Seen<P> = Vec<(Option<Side>, Expr<P>, Expr<P>)>;

/// The options of `pos` as the solver sees them: each leaf replaced by its least image.
fn seen_options<R: Rules>(
    rules: &R,
    pos: R::Pos,
    partizan: bool,
) -> Result<Seen<R::Pos>, SolveError> {
    let mut out = Vec::new();
    let sides: &[Option<Side>] = match partizan {
        true => &[Some(Side::Left), Some(Side::Right)],
        false => &[None],
    };
    let mut opts = Options::new();
    for &side in sides {
        opts.clear();
        match side {
            Some(side) => rules.side_options(pos, side, &mut opts),
            None => rules.options(pos, &mut opts),
        }
        .map_err(SolveError::Rule)?;
        for i in 0..opts.len() {
            let option = opts.get(i);
            let seen = option.clone().map_leaves(&mut |p| rules.least_image(p));
            out.push((side, seen, option));
        }
    }
    out.sort_by(|a, b| {
        (a.0.map(|s| s == Side::Right), &a.1).cmp(&(b.0.map(|s| s == Side::Right), &b.1))
    });
    out.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
    Ok(out)
}

/// Whether the impartial positions `orbit` all have the same options as the solver sees
/// them, where each option of each is a position or `end` (as [`seen_options`] compares
/// them: least images, sorted, without repeats, with no expression built): `false` where
/// they differ or some option is a sum. The definition [`same_lists`] computes from the
/// options listed once (the property test's oracle).
#[cfg(test)]
fn same_leaves<R: Rules>(
    rules: &R,
    orbit: impl Iterator<Item = R::Pos>,
) -> Result<bool, SolveError> {
    let mut opts = Options::new();
    let (mut first, mut other) = (Vec::new(), Vec::new());
    for (i, q) in orbit.enumerate() {
        opts.clear();
        rules.options(q, &mut opts).map_err(SolveError::Rule)?;
        let seen = if i == 0 { &mut first } else { &mut other };
        seen.clear();
        for r in &opts.refs {
            seen.push(match *r {
                OptRef::End => None,
                OptRef::Leaves { start, len: 1 } => {
                    Some(rules.least_image(opts.leaves[start as usize]))
                }
                _ => return Ok(false),
            });
        }
        seen.sort_unstable();
        seen.dedup();
        if i > 0 && other != first {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Each orbit position's options as leaves (`None` for `end`), in the orbit's order.
type LeafLists<P> = Vec<Vec<Option<P>>>;

/// The options of the orbit's positions as [`LeafLists`], each through its least image
/// under the proven symmetries alone, listed once for both tests of leaves; `None` where
/// some option is a sum (which neither compares: [`seen_options`] does).
fn leaf_lists<R: Rules>(
    rules: &R,
    orbit: &[(R::Pos, usize, usize)],
) -> Result<Option<LeafLists<R::Pos>>, SolveError> {
    let mut opts = Options::new();
    let mut lists = Vec::with_capacity(orbit.len());
    for &(q, _, _) in orbit {
        opts.clear();
        rules.options(q, &mut opts).map_err(SolveError::Rule)?;
        let mut list = Vec::with_capacity(opts.refs.len());
        for r in &opts.refs {
            list.push(match *r {
                OptRef::End => None,
                OptRef::Leaves { start, len: 1 } => {
                    let x = opts.leaves[start as usize];
                    Some(rules.proven_least_image_fixing(x).0)
                }
                _ => return Ok(None),
            });
        }
        lists.push(list);
    }
    Ok(Some(lists))
}

/// Whether every orbit position's options (`lists`, [`leaf_lists`]), each through its least
/// image under all the maps, sorted and without repeats, are the first position's: the
/// comparison [`seen_options`] makes, where no option is a sum (a position's least image is
/// that of its least image under the proven symmetries).
fn same_lists<R: Rules>(rules: &R, lists: &LeafLists<R::Pos>) -> bool {
    let seen = |list: &Vec<Option<R::Pos>>| {
        let mut seen: Vec<Option<R::Pos>> = list
            .iter()
            .map(|y| y.map(|y| rules.least_image(y)))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        seen
    };
    let first = seen(&lists[0]);
    lists[1..].iter().all(|list| seen(list) == first)
}

/// A cheaper test that implies [`same_lists`] of an impartial orbit (the entries of
/// [`permuted_orbit`]: each position with the entry and map it is the image of, and
/// `lists` its positions' options, [`leaf_lists`]): each position's options are its
/// parent's options each taken through the map, as sets, and each option of the orbit's
/// first position lies in an orbit the maps permute. `false` where that does not hold, or
/// some option is of a game whose maps the map cannot name ([`same_lists`] then decides).
///
/// **Why it implies [`same_lists`].** Let `C` be the least image under all the maps. Where
/// `y`'s orbit is permuted, `C` is one value on it, and every map takes `y` within it. The
/// options of the first position lie in permuted orbits; a child's options are images of
/// its parent's under one map, so (the orbit's entries coming after their parents) every
/// position's options lie in permuted orbits, and `C` of a child's options, option by
/// option, is `C` of its parent's. So every position's options, each through `C`, are the
/// first position's: what [`same_lists`] compares. The map's image of an option is the
/// image under its own game's map of that number, and `C` its orbit under its own game's
/// maps: the argument holds for each game alike.
fn mapped_leaves<R: Rules>(
    rules: &R,
    orbit: &[(R::Pos, usize, usize)],
    lists: &LeafLists<R::Pos>,
) -> bool {
    use rustc_hash::FxHashSet;
    // The first position's options lie in orbits the maps permute.
    for &y in lists[0].iter().flatten() {
        let maps = rules.checked_symmetries(y);
        let permuted = maps > 0
            && (rules.least_image(y) != y
                || permuted_orbit(y, maps, |p, k| rules.symmetry_image(p, k)).is_some());
        if !permuted {
            return false;
        }
    }
    let (mut listed, mut mapped) = (FxHashSet::default(), FxHashSet::default());
    for (i, &(_, parent, k)) in orbit.iter().enumerate().skip(1) {
        listed.clear();
        listed.extend(lists[i].iter().copied());
        mapped.clear();
        for &y in &lists[parent] {
            let image = match y {
                None => None,
                Some(y) if k < rules.checked_symmetries(y) => match rules.symmetry_image(y, k) {
                    Some(image) => Some(image),
                    None => return false,
                },
                Some(_) => return false,
            };
            if !listed.contains(&image) {
                return false;
            }
            mapped.insert(image);
        }
        if mapped.len() != listed.len() {
            return false;
        }
    }
    true
}

fn same<P: Eq>(a: &Seen<P>, b: &Seen<P>) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.0 == y.0 && x.1 == y.1)
}

/// The other positions of an orbit that was checked.
pub(crate) type Orbit<P> = smallvec::SmallVec<[P; 3]>;

/// Checks that every position of `pos`'s orbit under its game's checked symmetries has the
/// options of `pos` (both sides' for a partizan game), and gives the orbit's other
/// positions (none where the maps do not permute it); the error names the first map, on
/// the way from `pos`, that maps a position to one with other options.
pub(crate) fn check_orbit<R: Rules>(
    rules: &R,
    pos: R::Pos,
    partizan: bool,
) -> Result<Orbit<R::Pos>, SolveError> {
    let maps = rules.checked_symmetries(pos);
    if maps == 0 {
        return Ok(Orbit::new());
    }
    let Some(orbit) = permuted_orbit(pos, maps, |p, k| rules.symmetry_image(p, k)) else {
        // Nothing is replaced by `pos` but itself.
        return Ok(Orbit::new());
    };
    if orbit.len() == 1 {
        return Ok(Orbit::new());
    }
    let others = || orbit[1..].iter().map(|&(q, _, _)| q).collect();
    if !partizan {
        // Where some option is a sum, neither test of leaves applies.
        if let Some(lists) = leaf_lists(rules, &orbit)? {
            if mapped_leaves(rules, &orbit, &lists) || same_lists(rules, &lists) {
                return Ok(others());
            }
        }
    }
    let mut seen = Vec::with_capacity(orbit.len());
    for &(q, _, _) in &orbit {
        seen.push(seen_options(rules, q, partizan)?);
    }
    let Some(bad) = (1..orbit.len()).find(|&i| !same(&seen[0], &seen[i])) else {
        return Ok(others());
    };
    // The first step on the way from `pos` to `bad` whose two ends differ.
    let mut path = vec![bad];
    while path[path.len() - 1] != 0 {
        path.push(orbit[path[path.len() - 1]].1);
    }
    path.reverse();
    let (from, to) = (path.windows(2))
        .map(|w| (w[0], w[1]))
        .find(|&(a, b)| !same(&seen[a], &seen[b]))
        .unwrap_or((0, bad));
    let (a, b) = (orbit[from].0, orbit[to].0);
    Err(not_a_symmetry(
        rules,
        rules.symmetry_name(a, orbit[to].2),
        (a, &seen[from]),
        (b, &seen[to]),
    ))
}

/// The error for `symmetry`, which maps `a` to `b`, whose options (as the solver sees them)
/// differ.
fn not_a_symmetry<R: Rules>(
    rules: &R,
    symmetry: String,
    (a, seen_a): (R::Pos, &Seen<R::Pos>),
    (b, seen_b): (R::Pos, &Seen<R::Pos>),
) -> SolveError {
    let show = |e: &Expr<R::Pos>| {
        let mut s = String::new();
        let _ = e.write_sorted(&mut s, &|p, w| rules.write_pos(*p, w));
        s
    };
    let missing = |a: &Seen<R::Pos>, b: &Seen<R::Pos>| {
        a.iter()
            .find(|x| !b.iter().any(|y| x.0 == y.0 && x.1 == y.1))
            .cloned()
    };
    let side = |s: Option<Side>| match s {
        Some(Side::Left) => "a left option",
        Some(Side::Right) => "a right option",
        None => "an option",
    };
    let detail = match (missing(seen_a, seen_b), missing(seen_b, seen_a)) {
        (Some((s, _, option)), _) => format!(
            "{} of the first, {}, has no counterpart among the second's",
            side(s),
            show(&option)
        ),
        (None, Some((s, _, option))) => format!(
            "{} of the second, {}, has no counterpart among the first's",
            side(s),
            show(&option)
        ),
        (None, None) => "they are not the same".to_string(),
    };
    SolveError::NotASymmetry {
        symmetry,
        position: show(&Expr::Pos(a)),
        image: show(&Expr::Pos(b)),
        detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleError;
    use proptest::prelude::*;

    /// A game on the positions `0..n` with listed options (`n` standing for `end`) and
    /// declared maps, each a function of the positions (`None`: not applied there), all of
    /// them checked.
    #[derive(Debug)]
    struct Listed {
        options: Vec<Vec<u32>>,
        maps: Vec<Vec<Option<u32>>>,
    }

    impl Rules for Listed {
        type Pos = u32;
        fn options(&self, pos: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
            for &o in &self.options[pos as usize] {
                match o as usize == self.options.len() {
                    true => out.end(),
                    false => out.position(o),
                }
            }
            Ok(())
        }
        fn least_image(&self, pos: u32) -> u32 {
            self.least_image_fixing(pos).0
        }
        fn least_image_fixing(&self, pos: u32) -> (u32, u64) {
            crate::rules::checked_least_image_fixing(pos, self.maps.len(), |p, k| {
                self.symmetry_image(p, k)
            })
        }
        fn proven_least_image_fixing(&self, pos: u32) -> (u32, u64) {
            (pos, 0)
        }
        fn checked_symmetries(&self, _pos: u32) -> usize {
            self.maps.len()
        }
        fn symmetry_image(&self, pos: u32, k: usize) -> Option<u32> {
            self.maps[k][pos as usize]
        }
    }

    /// A game of `n` positions whose first map is an involution that the options mostly
    /// respect (each position's options the images of its partner's, where `kept`), the
    /// second a random partial function.
    fn listed() -> impl Strategy<Value = Listed> {
        (4usize..24)
            .prop_flat_map(|n| {
                (
                    Just(n),
                    prop::collection::vec(0..n, n),
                    prop::collection::vec(prop::collection::vec(0..=n as u32, 0..5), n),
                    prop::collection::vec(any::<bool>(), n),
                    prop::collection::vec(prop::option::weighted(0.9, 0..n as u32), n),
                    any::<bool>(),
                )
            })
            .prop_map(|(n, swaps, mut options, kept, second, two)| {
                // An involution: transpositions of `i` and `swaps[i]` while both are free.
                let mut sigma: Vec<u32> = (0..n as u32).collect();
                for (i, &j) in swaps.iter().enumerate() {
                    if sigma[i] == i as u32 && sigma[j] == j as u32 && i != j {
                        sigma.swap(i, j);
                    }
                }
                for i in 0..n {
                    let j = sigma[i] as usize;
                    if j > i && kept[i] {
                        let image = |o: u32| match o as usize == n {
                            true => o,
                            false => sigma[o as usize],
                        };
                        options[j] = options[i].iter().map(|&o| image(o)).collect();
                    }
                }
                let mut maps = vec![sigma.into_iter().map(Some).collect::<Vec<_>>()];
                if two {
                    maps.push(second);
                }
                Listed { options, maps }
            })
    }

    /// Each orbit of `game` (one a position whose maps permute it): whether the cheaper
    /// test passes it, whether the lists' comparison does, and whether the definition
    /// (`same_leaves`) does.
    fn verdicts(game: &Listed) -> Vec<(u32, bool, bool, bool)> {
        let mut out = Vec::new();
        for p in 0..game.options.len() as u32 {
            let maps = game.maps.len();
            let Some(orbit) = permuted_orbit(p, maps, |q, k| game.symmetry_image(q, k)) else {
                continue;
            };
            let same = same_leaves(game, orbit.iter().map(|&(q, _, _)| q)).expect("options");
            let lists = leaf_lists(game, &orbit).expect("options").expect("no sums");
            let mapped = mapped_leaves(game, &orbit, &lists);
            out.push((p, mapped, same_lists(game, &lists), same));
        }
        out
    }

    proptest! {
        /// The cheaper test of an orbit never passes one that the definition fails: where
        /// `mapped_leaves` holds, so does `same_leaves`.
        #[test]
        fn mapped_leaves_implies_the_same_leaves(game in listed()) {
            for (p, mapped, listed_same, same) in verdicts(&game) {
                // The comparison of the lists listed once is the definition's.
                prop_assert_eq!(listed_same, same, "{}", p);
                if mapped {
                    prop_assert!(same, "{}", p);
                }
            }
        }
    }

    /// The property above is not vacuous: over a fixed batch of its games, the cheaper test
    /// passes some orbits, and the definition passes some and fails some.
    #[test]
    fn the_generated_games_meet_every_verdict() {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let (mut mapped, mut same, mut differ) = (0, 0, 0);
        for _ in 0..200 {
            let game = listed().new_tree(&mut runner).expect("a game").current();
            for (_, m, _, s) in verdicts(&game) {
                mapped += usize::from(m);
                same += usize::from(s);
                differ += usize::from(!s);
            }
        }
        assert!(
            mapped > 0 && same > 0 && differ > 0,
            "cheaper test passed {mapped}, definition passed {same}, failed {differ}"
        );
    }

    /// A game whose involution every position's options respect passes the cheaper test at
    /// every orbit of two positions.
    #[test]
    fn a_true_symmetry_passes_the_cheaper_test() {
        // Positions 0..6: 0 and 1 mirror each other, 2 and 3, 4 and 5; 6 is `end`.
        let game = Listed {
            options: vec![vec![2, 4], vec![3, 5], vec![6], vec![6], vec![], vec![]],
            maps: vec![vec![1, 0, 3, 2, 5, 4].into_iter().map(Some).collect()],
        };
        for p in 0..6 {
            let orbit = permuted_orbit(p, 1, |q, k| game.symmetry_image(q, k)).expect("permuted");
            let lists = leaf_lists(&game, &orbit)
                .expect("options")
                .expect("no sums");
            assert!(mapped_leaves(&game, &orbit, &lists), "{p}");
        }
        // Position 1 losing an option: no longer.
        let mut broken = game;
        broken.options[1] = vec![3];
        let orbit = permuted_orbit(0, 1, |q, k| broken.symmetry_image(q, k)).expect("permuted");
        let lists = leaf_lists(&broken, &orbit)
            .expect("options")
            .expect("no sums");
        assert!(!mapped_leaves(&broken, &orbit, &lists));
        assert!(!same_lists(&broken, &lists));
    }
}
