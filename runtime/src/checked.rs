//! Declared symmetries checked as the solver runs ([`Rules::checked_symmetries`]).
//!
//! The solver keeps a position as the least position of its orbit under a game's declared
//! maps, where the maps permute the orbit (`rules::checked_least_image_fixing`). Before it
//! expands such a least position, it checks that every position of the orbit has the same
//! options, each option taken as the solver sees it: its positions replaced by their least
//! images. By induction on the game (every option is checked the same way when it is
//! expanded), each position the solver replaced is then isomorphic to the one it was
//! replaced by, so every value is the value of the position as written. A map that is not a
//! symmetry is reported at the first position where the options differ, naming the map:
//! it never changes an answer.

use crate::error::SolveError;
use crate::expr::Expr;
use crate::rules::{permuted_orbit, Options, Rules, Side};

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

fn same<P: Eq>(a: &Seen<P>, b: &Seen<P>) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.0 == y.0 && x.1 == y.1)
}

/// Checks that every position of `pos`'s orbit under its game's checked symmetries has the
/// options of `pos` (both sides' for a partizan game); the error names the first map, on
/// the way from `pos`, that maps a position to one with other options.
pub(crate) fn check_orbit<R: Rules>(
    rules: &R,
    pos: R::Pos,
    partizan: bool,
) -> Result<(), SolveError> {
    let maps = rules.checked_symmetries(pos);
    if maps == 0 {
        return Ok(());
    }
    let Some(orbit) = permuted_orbit(pos, maps, |p, k| rules.symmetry_image(p, k)) else {
        // Nothing is replaced by `pos` but itself.
        return Ok(());
    };
    if orbit.len() == 1 {
        return Ok(());
    }
    let mut seen = Vec::with_capacity(orbit.len());
    for &(q, _, _) in &orbit {
        seen.push(seen_options(rules, q, partizan)?);
    }
    let Some(bad) = (1..orbit.len()).find(|&i| !same(&seen[0], &seen[i])) else {
        return Ok(());
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
    let detail = match (
        missing(&seen[from], &seen[to]),
        missing(&seen[to], &seen[from]),
    ) {
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
    let (a, b) = (orbit[from].0, orbit[to].0);
    Err(SolveError::NotASymmetry {
        symmetry: rules.symmetry_name(a, orbit[to].2),
        position: show(&Expr::Pos(a)),
        image: show(&Expr::Pos(b)),
        detail,
    })
}
