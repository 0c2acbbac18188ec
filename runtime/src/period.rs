//! Periods of sequences such as nim-sequences g(0), g(1), ...

use serde::Serialize;

/// A period found in a finite prefix of a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Period {
    /// The first index from which the sequence repeats.
    pub preperiod: usize,
    /// The period.
    pub period: usize,
    /// Whether the Guy–Smith condition proves periodicity for all n (needs the largest
    /// number of tokens removed, `t`).
    pub proven: bool,
}

/// What a game's rules say about how far values reach back, for a period proof: the
/// largest number of tokens a move removes (`t`) and the most heaps a move leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Bound {
    /// The largest number of tokens any move removes.
    pub max_removal: usize,
    /// The most heaps any move leaves (1: subtraction games; 2: octal games; 3: hexadecimal
    /// games that may leave three heaps).
    pub max_parts: usize,
}

impl Bound {
    /// A take-and-break game whose moves leave at most two heaps (Guy–Smith).
    pub fn guy_smith(max_removal: usize) -> Self {
        Bound {
            max_removal,
            max_parts: 2,
        }
    }

    /// The end of the range `n0 <= n < end` over which `g(n + p) == g(n)` proves the
    /// period `p` from `n0`.
    ///
    /// With `j = max_parts >= 2` it is `j*n0 + (j-1)*p + t`: past it, every split of
    /// `n + p - k` into `j` heaps has a heap of at least `n0 + p`, which may be shortened by
    /// `p` (Guy & Smith 1956 for `j = 2`; Winning Ways, ch. 4). With one heap (a
    /// subtraction-like game) `g(n)` depends on the `t` values before it, so `n0 + t + 1`
    /// suffices (the `+ 1` keeps the move that empties the heap outside the induction).
    pub fn proof_end(&self, preperiod: usize, period: usize) -> Option<usize> {
        let t = self.max_removal;
        let j = self.max_parts.max(1);
        if j == 1 {
            return preperiod.checked_add(t)?.checked_add(1);
        }
        j.checked_mul(preperiod)?
            .checked_add((j - 1).checked_mul(period)?)?
            .checked_add(t)
    }
}

/// Finds the shortest period `p` (and, for it, the shortest preperiod `n0`) such that
/// `seq[n + p] == seq[n]` for every `n >= n0` the prefix shows.
///
/// With a [`Bound`] (for the Grundy values of a take-and-break game counted from heap 0),
/// only periods that the bound proves are accepted: `g(n + p) == g(n)` for all
/// `n0 <= n < bound.proof_end(n0, p)` (for octal games `2*n0 + p + t`, the Guy–Smith
/// periodicity theorem: Guy & Smith 1956; Winning Ways, ch. 4). Without one, a period is
/// accepted as apparent (`proven: false`) once the periodic part covers at least three
/// periods and half the prefix. `None` when no period qualifies.
pub fn find_period<T: Copy + Eq>(seq: &[T], bound: Option<Bound>) -> Option<Period> {
    let len = seq.len();
    for p in 1..len {
        // The smallest n0 such that seq[n] == seq[n + p] for all n0 <= n < len - p.
        let mut n0 = len - p;
        while n0 > 0 && seq[n0 - 1] == seq[n0 - 1 + p] {
            n0 -= 1;
        }
        match bound {
            Some(bound) => {
                // Need n + p < len for every n < the proof's end.
                if bound
                    .proof_end(n0, p)
                    .and_then(|end| end.checked_add(p))
                    .is_some_and(|needed| needed <= len)
                {
                    return Some(Period {
                        preperiod: n0,
                        period: p,
                        proven: true,
                    });
                }
            }
            None => {
                let periodic = len - n0;
                if periodic >= 3 * p && 2 * periodic >= len {
                    return Some(Period {
                        preperiod: n0,
                        period: p,
                        proven: false,
                    });
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pure_and_preperiodic() {
        let seq: Vec<u32> = (0..40).map(|n| n % 3).collect();
        assert_eq!(
            find_period(&seq, Some(Bound::guy_smith(2))),
            Some(Period {
                preperiod: 0,
                period: 3,
                proven: true
            })
        );
        let mut seq = vec![7, 7, 5];
        seq.extend((0..60).map(|n| [1, 2][n % 2]));
        let found = find_period(&seq, None).expect("a period");
        assert_eq!((found.preperiod, found.period, found.proven), (3, 2, false));
    }

    #[test]
    fn too_short_to_prove() {
        // Period 4 from 10, but only 20 terms: 2*10 + 2*4 + 1 > 20.
        let mut seq: Vec<u32> = (0..10).map(|n| 100 + n).collect();
        seq.extend((0..10).map(|n| n % 4));
        assert_eq!(find_period(&seq, Some(Bound::guy_smith(1))), None);
        assert_eq!(find_period::<u32>(&[], Some(Bound::guy_smith(1))), None);
    }
}
