//! Thermographs of canonical forms, and the stops, means, temperatures and birthdays read off
//! them (Berlekamp–Conway–Guy, *Winning Ways*, ch. 6; Siegel, *Combinatorial Game Theory*,
//! II.5).
//!
//! A wall is a continuous piecewise-linear function of the temperature `t >= -1`. G cooled
//! by `t` has left stop `LW(t)` and right stop `RW(t)`. For a number both walls are the
//! number. Otherwise the left scaffold `max over GL of RW_GL(t) - t` and the right scaffold
//! `min over GR of LW_GR(t) + t` are the walls up to the first `t` where the left one no
//! longer lies right of the right one: the temperature; above it both are the mast, the
//! mean. (Left walls slope 0 or -1 and right walls 0 or +1, so once the scaffolds meet they
//! never part: the mast starts at their first meeting.)

use super::dyadic::Dyadic;
use super::forms::{Forms, GameId};
use std::rc::Rc;

/// One linear piece of a wall: from `t` on, `v + slope * (t' - t)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    t: Dyadic,
    v: Dyadic,
    slope: i64,
}

/// A wall of a thermograph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wall {
    pieces: Vec<Piece>,
}

fn scale(x: Dyadic, k: i64) -> Dyadic {
    match k {
        0 => Dyadic::ZERO,
        1 => x,
        -1 => -x,
        _ => Dyadic::new(x.numerator() * k as i128, x.exponent()),
    }
}

/// `x / d` for `d` a power of two up to 2 (the slope differences walls have).
fn divide(x: Dyadic, d: i64) -> Dyadic {
    match d {
        1 => x,
        -1 => -x,
        2 => x.half(),
        -2 => -x.half(),
        _ => Dyadic::new(
            x.numerator(),
            x.exponent() + d.unsigned_abs().trailing_zeros(),
        ),
    }
}

const BASE: Dyadic = Dyadic::integer(-1);

impl Wall {
    /// The constant wall `x`.
    pub fn constant(x: Dyadic) -> Wall {
        Wall {
            pieces: vec![Piece {
                t: BASE,
                v: x,
                slope: 0,
            }],
        }
    }

    /// The wall's value at `t >= -1`.
    pub fn at(&self, t: Dyadic) -> Dyadic {
        let p = self.piece_at(t);
        p.v + scale(t - p.t, p.slope)
    }

    /// Where the wall bends, from `t = -1` up: each piece's start as `(t, value)`.
    pub fn corners(&self) -> Vec<(Dyadic, Dyadic)> {
        self.pieces.iter().map(|p| (p.t, p.v)).collect()
    }

    fn piece_at(&self, t: Dyadic) -> Piece {
        let i = self.pieces.partition_point(|p| p.t <= t);
        self.pieces[i.saturating_sub(1)]
    }

    /// The wall plus `sign * t`.
    fn tilted(&self, sign: i64) -> Wall {
        Wall {
            pieces: (self.pieces.iter())
                .map(|p| Piece {
                    t: p.t,
                    v: p.v + scale(p.t, sign),
                    slope: p.slope + sign,
                })
                .collect(),
        }
    }

    /// The pointwise maximum (`max`) or minimum of two walls.
    fn combine(&self, other: &Wall, max: bool) -> Wall {
        let mut cuts: Vec<Dyadic> = (self.pieces.iter().chain(&other.pieces))
            .map(|p| p.t)
            .collect();
        cuts.sort();
        cuts.dedup();
        let mut pieces = Vec::new();
        for (i, &start) in cuts.iter().enumerate() {
            let end = cuts.get(i + 1).copied();
            let (a, b) = (self.piece_at(start), other.piece_at(start));
            let (va, vb) = (self.at(start), other.at(start));
            let diff = va - vb;
            let slope_diff = a.slope - b.slope;
            // Which is chosen at the start (ties broken by what follows), and where the
            // other overtakes it inside the interval, if it does.
            let a_first = if max {
                diff > Dyadic::ZERO || (diff == Dyadic::ZERO && slope_diff >= 0)
            } else {
                diff < Dyadic::ZERO || (diff == Dyadic::ZERO && slope_diff <= 0)
            };
            let piece = |first: bool, t: Dyadic| {
                let (p, v) = if first {
                    (a, self.at(t))
                } else {
                    (b, other.at(t))
                };
                Piece {
                    t,
                    v,
                    slope: p.slope,
                }
            };
            pieces.push(piece(a_first, start));
            if diff != Dyadic::ZERO && slope_diff != 0 {
                let cross = start + divide(-diff, slope_diff);
                if cross > start && end.is_none_or(|e| cross < e) {
                    pieces.push(piece(!a_first, cross));
                }
            }
        }
        Wall { pieces }.merged()
    }

    /// The same wall with neighbouring pieces of one line joined.
    fn merged(mut self) -> Wall {
        self.pieces.dedup_by(|next, prev| next.slope == prev.slope);
        self
    }

    /// The wall up to `t`, the constant `mast` from there on.
    fn until(&self, t: Dyadic, mast: Dyadic) -> Wall {
        let mut pieces: Vec<Piece> = self.pieces.iter().copied().filter(|p| p.t < t).collect();
        pieces.push(Piece {
            t,
            v: mast,
            slope: 0,
        });
        Wall { pieces }.merged()
    }
}

/// A thermograph: left and right walls, and the temperature and mast value where they meet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thermograph {
    /// The left wall.
    pub left: Wall,
    /// The right wall.
    pub right: Wall,
    /// Where the walls meet (`-1/2^k` for a number `m/2^k`, by convention).
    pub temperature: Dyadic,
    /// The mast's value: the mean.
    pub mast: Dyadic,
}

/// The first `t >= -1` with `left(t) <= right(t)`, where `left - right` does not increase.
fn meeting(left: &Wall, right: &Wall) -> Dyadic {
    let mut cuts: Vec<Dyadic> = (left.pieces.iter().chain(&right.pieces))
        .map(|p| p.t)
        .collect();
    cuts.sort();
    cuts.dedup();
    for (i, &start) in cuts.iter().enumerate() {
        let diff = left.at(start) - right.at(start);
        if diff <= Dyadic::ZERO {
            return start;
        }
        let slope = left.piece_at(start).slope - right.piece_at(start).slope;
        if slope < 0 {
            let t = start + divide(diff, -slope);
            if cuts.get(i + 1).is_none_or(|&end| t <= end) {
                return t;
            }
        }
    }
    // Unreachable for walls of short games: past every cut the left wall falls and the
    // right one rises.
    cuts.last().copied().unwrap_or(BASE)
}

impl Forms {
    /// The thermograph of `g`.
    pub fn thermograph(&mut self, g: GameId) -> Rc<Thermograph> {
        if let Some(t) = self.thermographs.get(&g) {
            return t.clone();
        }
        let t = Rc::new(match self.as_number(g) {
            Some(x) => Thermograph {
                left: Wall::constant(x),
                right: Wall::constant(x),
                temperature: -Dyadic::new(1, x.exponent()),
                mast: x,
            },
            None => {
                let left = self.scaffold(self.left(g).to_vec(), true);
                let right = self.scaffold(self.right(g).to_vec(), false);
                let temperature = meeting(&left, &right);
                let (l, r) = (left.at(temperature), right.at(temperature));
                let mast = if l == r {
                    l
                } else {
                    Dyadic::simplest_between(Some(l), Some(r))
                };
                Thermograph {
                    left: left.until(temperature, mast),
                    right: right.until(temperature, mast),
                    temperature,
                    mast,
                }
            }
        });
        self.thermographs.insert(g, t.clone());
        t
    }

    /// The left scaffold (`max` of the left options' right walls, less `t`) or the right
    /// one (`min` of the right options' left walls, plus `t`). A canonical form that is not
    /// a number has options on both sides.
    fn scaffold(&mut self, options: Vec<GameId>, left: bool) -> Wall {
        let mut scaffold: Option<Wall> = None;
        for o in options {
            let t = self.thermograph(o);
            let wall = if left { &t.right } else { &t.left };
            scaffold = Some(match scaffold {
                Some(w) => w.combine(wall, left),
                None => wall.clone(),
            });
        }
        let tilt = if left { -1 } else { 1 };
        scaffold.map_or_else(|| Wall::constant(Dyadic::ZERO), |w| w.tilted(tilt))
    }

    /// The temperature of `g`.
    pub fn temperature(&mut self, g: GameId) -> Dyadic {
        self.thermograph(g).temperature
    }

    /// The mean value of `g`.
    pub fn mean(&mut self, g: GameId) -> Dyadic {
        self.thermograph(g).mast
    }

    /// The left stop: `g` itself for a number, else the best right stop of a left option.
    pub fn left_stop(&mut self, g: GameId) -> Dyadic {
        self.stop(g, true)
    }

    /// The right stop: `g` itself for a number, else the least left stop of a right option.
    pub fn right_stop(&mut self, g: GameId) -> Dyadic {
        self.stop(g, false)
    }

    fn stop(&mut self, g: GameId, left: bool) -> Dyadic {
        if let Some(x) = self.as_number(g) {
            return x;
        }
        if let Some(&s) = self.stops.get(&(g, left)) {
            return s;
        }
        let options = if left { self.left(g) } else { self.right(g) }.to_vec();
        let stops = options.into_iter().map(|o| self.stop(o, !left));
        // Not a number: options on both sides.
        let s = if left { stops.max() } else { stops.min() }.unwrap_or(Dyadic::ZERO);
        self.stops.insert((g, left), s);
        s
    }

    /// The birthday of `g`: 0 for 0, else one more than its options' latest.
    pub fn birthday(&mut self, g: GameId) -> u64 {
        if let Some(&b) = self.birthdays.get(&g) {
            return b;
        }
        let options: Vec<GameId> = self.left(g).iter().chain(self.right(g)).copied().collect();
        let b = options
            .into_iter()
            .map(|o| self.birthday(o) + 1)
            .max()
            .unwrap_or(0);
        self.birthdays.insert(g, b);
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(num: i128, exp: u32) -> Dyadic {
        Dyadic::new(num, exp)
    }

    #[test]
    fn temperatures_and_means_of_small_games() {
        let mut f = Forms::new();
        let one = f.number(Dyadic::integer(1));
        let half = f.number(d(1, 1));
        let zero = GameId::ZERO;
        let minus_one = f.number(Dyadic::integer(-1));
        // {1 | -1}: temperature 1, mean 0.
        let switch = f.canonical(vec![one], vec![minus_one]);
        assert_eq!((f.temperature(switch), f.mean(switch)), (d(1, 0), d(0, 0)));
        // {1/2 | 0}: temperature 1/4, mean 1/4.
        let g = f.canonical(vec![half], vec![zero]);
        assert_eq!((f.temperature(g), f.mean(g)), (d(1, 2), d(1, 2)));
        // Numbers: -1/2^k; infinitesimals: 0.
        assert_eq!(f.temperature(half), d(-1, 1));
        assert_eq!(f.temperature(one), d(-1, 0));
        let star = f.star(1);
        let up = f.up();
        assert_eq!(f.temperature(star), Dyadic::ZERO);
        assert_eq!(f.temperature(up), Dyadic::ZERO);
        // {2 | {1|-1}}: the right scaffold is LW_{1|-1}(t) + t, 1 up to t = 1 and t above.
        let two = f_number(&mut f, 2);
        let g = f.canonical(vec![two], vec![switch]);
        // LW_G(t) = 2 - t; RW_G(t) = 1 for t <= 1, t for t >= 1: they meet at t = 1, value 1.
        assert_eq!((f.temperature(g), f.mean(g)), (d(1, 0), d(1, 0)));
    }

    fn f_number(f: &mut Forms, n: i64) -> GameId {
        f.number(Dyadic::integer(n))
    }
}
