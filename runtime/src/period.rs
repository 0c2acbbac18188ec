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

/// Finds the shortest period `p` (and, for it, the shortest preperiod `n0`) such that
/// `seq[n + p] == seq[n]` for every `n >= n0` the prefix shows.
///
/// With `max_removal = Some(t)` (the largest number of tokens any move removes, for a
/// take-and-break game), only periods proven by the Guy–Smith condition are accepted:
/// `g(n + p) == g(n)` for all `n0 <= n < 2*n0 + p + t` (the Guy–Smith periodicity theorem: Guy & Smith 1956; Winning Ways, ch. 4). Without it, a
/// period is accepted as apparent (`proven: false`) once the periodic part covers at least
/// three periods and half the prefix. `None` when no period qualifies.
pub fn find_period(seq: &[u32], max_removal: Option<usize>) -> Option<Period> {
    let len = seq.len();
    for p in 1..len {
        // The smallest n0 such that seq[n] == seq[n + p] for all n0 <= n < len - p.
        let mut n0 = len - p;
        while n0 > 0 && seq[n0 - 1] == seq[n0 - 1 + p] {
            n0 -= 1;
        }
        match max_removal {
            Some(t) => {
                // Need n + p < len for every n < 2*n0 + p + t.
                if 2 * n0 + 2 * p + t <= len {
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
            find_period(&seq, Some(2)),
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
        assert_eq!(find_period(&seq, Some(1)), None);
        assert_eq!(find_period(&[], Some(1)), None);
    }
}
