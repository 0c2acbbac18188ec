//! Misère quotients (`cgdl_runtime::misere`) against the definition: the misère outcome
//! of every sum of a few heaps, by a search of the sum, is what the quotient says.

use cgdl_runtime::heap::HeapCode;
use cgdl_runtime::misere::{code_options, quotient, Budget, HeapOptions};
use std::collections::HashMap;

/// Whether the sum of `heaps` (sorted) is a misère P-position, by the definition.
fn is_p(options: &HeapOptions, heaps: &[usize], memo: &mut HashMap<Vec<usize>, bool>) -> bool {
    if let Some(&p) = memo.get(heaps) {
        return p;
    }
    let mut has_move = false;
    let mut p = true;
    'all: for (i, &h) in heaps.iter().enumerate() {
        if i > 0 && heaps[i - 1] == h {
            continue;
        }
        for parts in &options[h] {
            has_move = true;
            let mut next: Vec<usize> = heaps[..i].iter().chain(&heaps[i + 1..]).copied().collect();
            next.extend(parts.iter().copied().filter(|&k| !options[k].is_empty()));
            next.sort_unstable();
            if is_p(options, &next, memo) {
                p = false;
                break 'all;
            }
        }
    }
    let p = has_move && p;
    memo.insert(heaps.to_vec(), p);
    p
}

/// Every sum of up to `parts` heaps of at most `max` tokens.
fn sums(max: usize, parts: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    let mut frontier = vec![Vec::new()];
    for _ in 0..parts {
        let mut next = Vec::new();
        for s in &frontier {
            let from = s.last().copied().unwrap_or(1);
            for h in from..=max {
                let mut t: Vec<usize> = s.clone();
                t.push(h);
                next.push(t);
            }
        }
        out.extend(next.iter().cloned());
        frontier = next;
    }
    out
}

fn check(code: &str, max: usize, parts: usize) {
    let digits = HeapCode::parse(code).expect("a code").digits().to_vec();
    let options = code_options(&digits, max).expect("options");
    let q = match quotient(&options, Budget::default()) {
        Ok(q) => q,
        Err(e) => panic!("{code}: {e:?}"),
    };
    let c = &q.candidate;
    // Every misère quotient of impartial games has even order (Plambeck and Siegel,
    // JCTA 115 (2008)).
    assert_eq!(c.monoid().size() % 2, 0, "{code}");
    let mut memo = HashMap::new();
    for s in sums(max, parts) {
        let want = is_p(&options, &s, &mut memo);
        assert_eq!(c.is_p(s.iter().copied()), want, "{code}: {s:?}");
    }
}

#[test]
fn quotients_give_the_misere_outcome_of_every_small_sum() {
    for code in [
        "0.3", "0.33", "0.333", "0.77", "0.07", "0.137", "0.75", "0.6", "0.51", "0.72", "0.34",
    ] {
        check(code, 14, 3);
        check(code, 8, 5);
    }
    for code in ["0.16", "0.26"] {
        check(code, 8, 5);
    }
}

/// Subtraction {1, 2} (0.33) is tame: its quotient is Conway's `T2`, `⟨a, b | a² = 1,
/// b³ = b⟩` of order 6, with P-portion `{a, b²}` (T. E. Plambeck, *Taming the wild in
/// impartial combinatorial games*, INTEGERS 5 (2005), §3): heap 1 is `a`, heap 2 is `b`.
#[test]
fn the_quotient_of_subtraction_one_two_is_t2() {
    let digits = HeapCode::parse("0.33").expect("a code").digits().to_vec();
    let options = code_options(&digits, 20).expect("options");
    let q = quotient(&options, Budget::default()).expect("a quotient");
    let c = &q.candidate;
    let m = c.monoid();
    assert_eq!(m.size(), 6);
    let (a, b) = (c.image([1]), c.image([2]));
    let one = c.image([]);
    assert_eq!(m.mul(a, a), one);
    assert_eq!(m.mul(m.mul(b, b), b), b);
    let p: Vec<bool> = (0..6).map(|x| c.p_portion()[x]).collect();
    assert_eq!(p.iter().filter(|&&x| x).count(), 2);
    assert!(p[a as usize] && p[m.mul(b, b) as usize]);
    assert_eq!(q.expansions, vec![1, 2]);
    let shown = cgdl_runtime::misere::presentation(c);
    assert_eq!(
        shown.generators,
        vec![("a".to_string(), 1), ("b".to_string(), 2)]
    );
    let relations: Vec<String> = shown
        .relations
        .iter()
        .map(|(l, r)| format!("{l} = {r}"))
        .collect();
    assert_eq!(relations, ["a^2 = 1", "b^3 = b"]);
    assert_eq!(shown.p_portion, ["a", "b^2"]);
}

/// The solver answers misère outcomes of sums of one code's heaps from its quotient: the
/// answers of the definition, on random sums of up to six heaps.
mod solver {
    use super::*;
    use cgdl_runtime::rules::{heap_options, Options, RuleError};
    use cgdl_runtime::{Expr, Outcome, Rules, Solver};
    use proptest::prelude::*;

    /// Heaps of one code, each position its size.
    struct Code(Vec<u8>);

    impl Rules for Code {
        type Pos = u64;
        fn options(&self, pos: u64, out: &mut Options<u64>) -> Result<(), RuleError> {
            heap_options(pos as i64, &self.0, |k| k as u64, out)
        }
        fn heap_of(&self, pos: u64) -> Option<(&[u8], u64)> {
            Some((&self.0, pos))
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        #[test]
        fn sums_of_heaps_take_their_outcome_from_the_quotient(
            code in proptest::sample::select(vec!["0.77", "0.07", "0.75", "0.6", "0.137", "0.34"]),
            heaps in proptest::collection::vec(1usize..=11, 1..=6),
        ) {
            let digits = HeapCode::parse(code).expect("a code").digits().to_vec();
            let options = code_options(&digits, 11).expect("options");
            let mut sorted = heaps.clone();
            sorted.sort_unstable();
            let want = is_p(&options, &sorted, &mut HashMap::new());
            let rules = Code(digits);
            let mut solver = Solver::new(&rules);
            let got = solver
                .misere_outcome(Expr::sum_of(heaps.iter().map(|&h| h as u64)))
                .expect("an outcome");
            prop_assert_eq!(got, if want { Outcome::P } else { Outcome::N }, "{} {:?}", code, heaps);
        }
    }
}

/// Sums of up to six heaps of at most 30 tokens against the definition, where its search
/// can do them: the tame codes 0.3, 0.33 and 0.333. (A sum of that size of Kayles or of
/// 0.75 takes the search seconds; the sums above stay smaller for those.)
mod six_heaps {
    use super::*;
    use proptest::prelude::*;
    use std::cell::RefCell;

    type Known = (
        HeapOptions,
        cgdl_runtime::misere::Quotient,
        HashMap<Vec<usize>, bool>,
    );

    thread_local! {
        /// Each code's options, quotient and searched sums, kept from case to case.
        static KNOWN: RefCell<HashMap<&'static str, Known>> = RefCell::new(HashMap::new());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

        #[test]
        fn up_to_six_heaps_of_thirty(
            code in proptest::sample::select(vec!["0.3", "0.33", "0.333"]),
            heaps in proptest::collection::vec(1usize..=30, 1..=6),
        ) {
            let mut heaps = heaps;
            heaps.sort_unstable();
            KNOWN.with(|known| {
                let mut known = known.borrow_mut();
                let (options, q, memo) = known.entry(code).or_insert_with(|| {
                    let digits = HeapCode::parse(code).expect("a code").digits().to_vec();
                    let options = code_options(&digits, 30).expect("options");
                    let q = quotient(&options, Budget::default()).expect("a quotient");
                    (options, q, HashMap::new())
                });
                let want = is_p(options, &heaps, memo);
                assert_eq!(q.candidate.is_p(heaps.iter().copied()), want, "{code}: {heaps:?}");
            });
        }
    }
}

/// Whether two quotients are isomorphic as bipartite monoids: a bijection of their elements
/// that keeps the identity, the products and the P-portion.
fn isomorphic(x: &cgdl_runtime::misere::Candidate, y: &cgdl_runtime::misere::Candidate) -> bool {
    let n = x.monoid().size();
    if y.monoid().size() != n {
        return false;
    }
    // Extends `map` (of elements `0..map.len()`) one element at a time, pruning by the
    // products whose factors and product are mapped already; a whole map is checked at
    // every product (a product past both factors was not seen while pruning).
    fn extend(
        x: &cgdl_runtime::misere::Candidate,
        y: &cgdl_runtime::misere::Candidate,
        map: &mut Vec<u32>,
        used: &mut Vec<bool>,
    ) -> bool {
        let n = x.monoid().size();
        let k = map.len();
        if k == n {
            return (0..n as u32).all(|i| {
                (0..n as u32).all(|j| {
                    y.monoid().mul(map[i as usize], map[j as usize])
                        == map[x.monoid().mul(i, j) as usize]
                })
            });
        }
        for to in 0..n as u32 {
            if used[to as usize] || x.p_portion()[k] != y.p_portion()[to as usize] {
                continue;
            }
            map.push(to);
            let keeps = (0..=k).all(|i| {
                let product = x.monoid().mul(i as u32, k as u32) as usize;
                product > k || y.monoid().mul(map[i], to) == map[product]
            });
            if keeps {
                used[to as usize] = true;
                if extend(x, y, map, used) {
                    return true;
                }
                used[to as usize] = false;
            }
            map.pop();
        }
        false
    }
    // The identity is element 0 of both.
    let mut used = vec![false; n];
    used[0] = true;
    x.p_portion()[0] == y.p_portion()[0] && extend(x, y, &mut vec![0], &mut used)
}

/// Siegel's classification of misère quotients whose P-portion has two elements (A. N.
/// Siegel, *The structure and classification of misère quotients*, arXiv:math/0703070
/// (2007), abstract): such a quotient, when finite, has order `2^n + 2` or `2^n + 4`; and
/// there is exactly one misère quotient of order 8. The quotient found of a game's heaps up
/// to a bound is the quotient of a closed set of games (the sums of those heaps), so each
/// must obey both. Checked over every two-digit octal code whose quotient of the heaps up
/// to 16 settles within a small budget (the wild ones that do not are left out).
#[test]
fn quotients_obey_siegels_classification() {
    let budget = Budget {
        steps: 300_000,
        max_elements: 1 << 12,
    };
    let mut two_p = Vec::new();
    let mut of_order_8: Vec<(String, cgdl_runtime::misere::Candidate)> = Vec::new();
    for d1 in 0..8u8 {
        for d2 in 0..8u8 {
            let code = format!("0.{d1}{d2}");
            let digits = HeapCode::parse(&code).expect("a code").digits().to_vec();
            let options = code_options(&digits, 16).expect("options");
            let Ok(q) = quotient(&options, budget) else {
                continue;
            };
            let c = q.candidate;
            let order = c.monoid().size();
            if c.p_portion().iter().filter(|&&x| x).count() == 2 {
                assert!(
                    (1..32).any(|n| order == (1 << n) + 2 || order == (1 << n) + 4),
                    "{code}: a quotient with |P| = 2 of order {order}"
                );
                two_p.push(code.clone());
            }
            if order == 8 {
                of_order_8.push((code, c));
            }
        }
    }
    // Not vacuous: T2 (0.33 and others), R8 (0.75, 0.15) and an order 10 (0.56) are among
    // them.
    assert!(two_p.len() >= 8, "{two_p:?}");
    let names: Vec<&str> = of_order_8.iter().map(|(code, _)| code.as_str()).collect();
    assert!(names.contains(&"0.75") && names.len() >= 2, "{names:?}");
    for (code, c) in &of_order_8[1..] {
        assert!(
            isomorphic(&of_order_8[0].1, c),
            "{} and {code}: two quotients of order 8 that differ",
            of_order_8[0].0
        );
    }
}
/// The isomorphism test above tells quotients apart: 0.04 and 0.34 both have order 12 and
/// three P-positions, but their elements' profiles differ (for each element: in P or not,
/// and how many elements it takes into P), which no isomorphism changes.
#[test]
fn isomorphism_tells_apart_quotients_of_one_order() {
    let budget = Budget {
        steps: 300_000,
        max_elements: 1 << 12,
    };
    let get = |code: &str| {
        let digits = HeapCode::parse(code).expect("a code").digits().to_vec();
        let options = code_options(&digits, 16).expect("options");
        quotient(&options, budget).expect("a quotient").candidate
    };
    let profile = |c: &cgdl_runtime::misere::Candidate| {
        let n = c.monoid().size() as u32;
        let mut elements: Vec<(bool, usize)> = (0..n)
            .map(|x| {
                let into_p = (0..n).filter(|&y| c.p_portion()[c.monoid().mul(x, y) as usize]);
                (c.p_portion()[x as usize], into_p.count())
            })
            .collect();
        elements.sort_unstable();
        elements
    };
    let (x, y) = (get("0.04"), get("0.34"));
    assert_eq!((x.monoid().size(), y.monoid().size()), (12, 12));
    assert_ne!(profile(&x), profile(&y));
    assert!(!isomorphic(&x, &y));
    assert!(isomorphic(&x, &x) && isomorphic(&get("0.33"), &get("0.22")));
}
