//! Dyadic rationals `m / 2^k`: the numbers of short partizan games, their stops, means and
//! temperatures.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Neg, Sub};

/// A dyadic rational `num / 2^exp`, normalised (`num` odd or `exp == 0`).
///
/// Values that games reach stay far inside the range: [`Dyadic::within_limits`] bounds every
/// number a game store makes (see `Forms`), so the arithmetic below cannot overflow.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Dyadic {
    num: i128,
    exp: u32,
}

/// The largest magnitude (as a power of two) and the most binary places a number of a game
/// may have: past them a solve stops with an error instead of overflowing.
pub const MAX_BITS: u32 = 40;

impl Dyadic {
    /// Zero.
    pub const ZERO: Dyadic = Dyadic { num: 0, exp: 0 };

    /// The integer `n`.
    pub const fn integer(n: i64) -> Dyadic {
        Dyadic {
            num: n as i128,
            exp: 0,
        }
    }

    /// `num / 2^exp`, normalised.
    pub fn new(num: i128, exp: u32) -> Dyadic {
        let mut d = Dyadic { num, exp };
        d.normalise();
        d
    }

    fn normalise(&mut self) {
        if self.num == 0 {
            self.exp = 0;
            return;
        }
        let shift = self.num.trailing_zeros().min(self.exp);
        self.num >>= shift;
        self.exp -= shift;
    }

    /// The numerator (odd unless the value is an integer).
    pub fn numerator(self) -> i128 {
        self.num
    }

    /// `k` in `m / 2^k`.
    pub fn exponent(self) -> u32 {
        self.exp
    }

    /// The value as a float (for drawing).
    pub fn to_f64(self) -> f64 {
        self.num as f64 / (self.exp as f64).exp2()
    }

    /// The value as an integer, when it is one.
    pub fn to_integer(self) -> Option<i128> {
        (self.exp == 0).then_some(self.num)
    }

    /// Whether magnitude and places are within [`MAX_BITS`].
    pub fn within_limits(self) -> bool {
        self.exp <= MAX_BITS && self.num.unsigned_abs() >> (MAX_BITS + self.exp) == 0
    }

    /// Half of this value.
    pub fn half(self) -> Dyadic {
        Dyadic::new(self.num, self.exp + 1)
    }

    /// Both numerators over the larger denominator.
    fn aligned(self, other: Dyadic) -> (i128, i128, u32) {
        let exp = self.exp.max(other.exp);
        (
            self.num << (exp - self.exp),
            other.num << (exp - other.exp),
            exp,
        )
    }

    /// The largest integer at most this value.
    pub fn floor(self) -> i128 {
        self.num >> self.exp
    }

    /// The smallest integer at least this value.
    pub fn ceil(self) -> i128 {
        -((-self.num) >> self.exp)
    }

    /// The simplest number strictly between `lo` and `hi` (`None`: unbounded on that side),
    /// which must satisfy `lo < hi`: the integer of least magnitude if one lies between,
    /// else the dyadic of least denominator.
    pub fn simplest_between(lo: Option<Dyadic>, hi: Option<Dyadic>) -> Dyadic {
        // Integers strictly between: from floor(lo) + 1 to ceil(hi) - 1.
        let first = lo.map(|l| l.floor() + 1);
        let last = hi.map(|h| h.ceil() - 1);
        match (first, last) {
            (None, None) => return Dyadic::ZERO,
            (Some(a), None) => return Dyadic::new(a.max(0), 0),
            (None, Some(b)) => return Dyadic::new(b.min(0), 0),
            (Some(a), Some(b)) if a <= b => {
                return Dyadic::new(
                    if a > 0 {
                        a
                    } else if b < 0 {
                        b
                    } else {
                        0
                    },
                    0,
                )
            }
            _ => {}
        }
        // No integer between: both bounds lie in one unit interval.
        let (lo, hi) = (lo.unwrap_or(Dyadic::ZERO), hi.unwrap_or(Dyadic::ZERO));
        let mut exp = 1;
        loop {
            let scaled = |d: Dyadic| Dyadic::new(d.num << exp, d.exp);
            let candidate = scaled(lo).floor() + 1;
            let value = Dyadic::new(candidate, exp);
            if value < hi {
                return value;
            }
            exp += 1;
        }
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b, _) = self.aligned(*other);
        a.cmp(&b)
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Dyadic {
    type Output = Dyadic;
    fn add(self, other: Dyadic) -> Dyadic {
        let (a, b, exp) = self.aligned(other);
        Dyadic::new(a + b, exp)
    }
}

impl Sub for Dyadic {
    type Output = Dyadic;
    fn sub(self, other: Dyadic) -> Dyadic {
        self + -other
    }
}

impl Neg for Dyadic {
    type Output = Dyadic;
    fn neg(self) -> Dyadic {
        Dyadic {
            num: -self.num,
            exp: self.exp,
        }
    }
}

impl fmt::Display for Dyadic {
    /// `3`, `-3/2`, `1/4`: the notation CGSuite and `cgt` read.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exp == 0 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, 1u128 << self.exp)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(num: i128, exp: u32) -> Dyadic {
        Dyadic::new(num, exp)
    }

    #[test]
    fn arithmetic_and_order() {
        assert_eq!(d(1, 1) + d(1, 2), d(3, 2));
        assert_eq!(d(2, 2), d(1, 1));
        assert_eq!((d(1, 1) - d(1, 1)).exponent(), 0);
        assert!(d(-3, 1) < d(-1, 0));
        assert_eq!(d(-3, 1).to_string(), "-3/2");
        assert_eq!(d(-3, 1).floor(), -2);
        assert_eq!(d(-3, 1).ceil(), -1);
        assert_eq!(d(6, 0).to_string(), "6");
    }

    /// The simplest number between two bounds, against its definition: the first dyadic met
    /// by a search by birthday (integers outward from 0, then halves, quarters, ...).
    #[test]
    fn simplest_between_follows_the_definition() {
        let by_birthday = |lo: Option<Dyadic>, hi: Option<Dyadic>| {
            let inside = |x: Dyadic| lo.is_none_or(|l| l < x) && hi.is_none_or(|h| x < h);
            for n in 0..40i128 {
                for x in [n, -n] {
                    if inside(Dyadic::integer(x as i64)) {
                        return Dyadic::integer(x as i64);
                    }
                }
            }
            for exp in 1..20 {
                for num in -(40i128 << exp)..(40i128 << exp) {
                    let x = d(num, exp);
                    if x.exponent() == exp && inside(x) {
                        return x;
                    }
                }
            }
            unreachable!()
        };
        let points: Vec<Option<Dyadic>> = std::iter::once(None)
            .chain((-12..=12).map(|n| Some(d(n, 2))))
            .collect();
        for &lo in &points {
            for &hi in &points {
                if let (Some(l), Some(h)) = (lo, hi) {
                    if l >= h {
                        continue;
                    }
                }
                assert_eq!(
                    Dyadic::simplest_between(lo, hi),
                    by_birthday(lo, hi),
                    "{lo:?} {hi:?}"
                );
            }
        }
    }
}
