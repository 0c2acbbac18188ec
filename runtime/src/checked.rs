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
//! changes an answer.

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
/// they differ or some option is a sum, which [`seen_options`] then compares.
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
    if !partizan && same_leaves(rules, orbit.iter().map(|&(q, _, _)| q))? {
        return Ok(others());
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
