//! Misère canonical forms (`cgdl_runtime::misere_form`) against the definition: two games
//! have one form exactly when no game added to both tells them apart, and a form's misère
//! outcome and sums are those of its games, by brute force over explicit game trees.

use cgdl_runtime::misere_form::{FormId, MisereForms};
use std::collections::HashMap;

/// Explicit impartial games: game `i`'s options are `games[i]` (indices below `i`).
#[derive(Default)]
struct Trees {
    games: Vec<Vec<usize>>,
    outcomes: HashMap<Vec<usize>, bool>,
}

impl Trees {
    fn add(&mut self, options: Vec<usize>) -> usize {
        self.games.push(options);
        self.games.len() - 1
    }

    /// Whether the sum of `parts` (game indices) is a misère P-position, by the definition:
    /// it has a move, and every move is to an N-position.
    fn is_p(&mut self, parts: &[usize]) -> bool {
        let mut key = parts.to_vec();
        key.sort_unstable();
        if let Some(&p) = self.outcomes.get(&key) {
            return p;
        }
        let mut has_move = false;
        let mut p = true;
        'all: for i in 0..key.len() {
            for k in 0..self.games[key[i]].len() {
                has_move = true;
                let mut next = key.clone();
                next[i] = self.games[key[i]][k];
                if self.is_p(&next) {
                    p = false;
                    break 'all;
                }
            }
        }
        let p = has_move && p;
        self.outcomes.insert(key, p);
        p
    }

    /// The form of game `i`, its options' first.
    fn form(&self, forms: &mut MisereForms, i: usize, memo: &mut HashMap<usize, FormId>) -> FormId {
        if let Some(&g) = memo.get(&i) {
            return g;
        }
        let options: Vec<FormId> = (self.games[i].clone().into_iter())
            .map(|o| self.form(forms, o, memo))
            .collect();
        let g = forms.simplest(options).expect("no limit");
        memo.insert(i, g);
        g
    }
}

/// The distinct forms of games born by day `n` (every set of forms born by day `n - 1`).
fn born_by(forms: &mut MisereForms, day: usize) -> Vec<FormId> {
    let mut born = vec![FormId::ZERO];
    for _ in 0..day {
        let mut next: Vec<FormId> = (0u32..1 << born.len())
            .map(|set| {
                let options = (0..born.len()).filter(|&k| set >> k & 1 == 1);
                forms
                    .simplest(options.map(|k| born[k]).collect())
                    .expect("no limit")
            })
            .collect();
        next.sort_unstable();
        next.dedup();
        born = next;
    }
    born
}

/// The numbers of misère games born by days 0 to 4: 1, 2, 3, 5, 22 (Conway, *On Numbers
/// and Games*, ch. 12; Siegel, *Combinatorial Game Theory*, V.1, where day 5 has 4171780).
#[test]
fn games_born_by_day_four_are_twenty_two() {
    let mut forms = MisereForms::new();
    let counts: Vec<usize> = (0..=4).map(|day| born_by(&mut forms, day).len()).collect();
    assert_eq!(counts, [1, 2, 3, 5, 22]);
    // Born by day 2: 0, * and *2; {*} is 0 (its move to * is reversible through 0).
    let star = forms.nim(1).expect("no limit");
    assert_eq!(forms.simplest(vec![star]), Ok(FormId::ZERO));
    let day2: Vec<String> = (born_by(&mut forms, 2).into_iter())
        .map(|g| forms.display(g))
        .collect();
    assert_eq!(day2, ["0", "*", "*2"]);
}

/// Every game tree born by day 3 (the 2^16 sets of the 16 trees born by day 2 would be
/// many; the 16 trees of day 3 over day 2's 4): two have one form exactly when every `X`
/// among the trees and their sums of two gives both sums one misère outcome.
#[test]
fn one_form_exactly_when_no_game_tells_apart() {
    let mut trees = Trees::default();
    let zero = trees.add(vec![]);
    let star = trees.add(vec![zero]);
    let day2 = [
        zero,
        star,
        trees.add(vec![star]),
        trees.add(vec![zero, star]),
    ];
    let day3: Vec<usize> = (0u32..16)
        .map(|set| {
            trees.add(
                (0..4)
                    .filter(|&k| set >> k & 1 == 1)
                    .map(|k| day2[k])
                    .collect(),
            )
        })
        .collect();
    let mut forms = MisereForms::new();
    let mut memo = HashMap::new();
    let form: Vec<FormId> = day3
        .iter()
        .map(|&t| trees.form(&mut forms, t, &mut memo))
        .collect();
    let mut tests: Vec<Vec<usize>> = vec![vec![]];
    for (a, &x) in day3.iter().enumerate() {
        tests.push(vec![x]);
        for &y in &day3[a..] {
            tests.push(vec![x, y]);
        }
    }
    for i in 0..day3.len() {
        for j in i + 1..day3.len() {
            let apart = tests.iter().any(|x| {
                let with_i: Vec<usize> = x.iter().copied().chain([day3[i]]).collect();
                let with_j: Vec<usize> = x.iter().copied().chain([day3[j]]).collect();
                trees.is_p(&with_i) != trees.is_p(&with_j)
            });
            assert_eq!(
                form[i] == form[j],
                !apart,
                "trees {i} and {j}: forms {} and {}",
                forms.display(form[i]),
                forms.display(form[j])
            );
        }
    }
}

fn nim(forms: &mut MisereForms, n: u32) -> FormId {
    forms.nim(n).expect("no limit")
}

/// Nim heaps are in simplest form, and misère Nim's outcomes are Bouton's: a sum of heaps
/// is P exactly when its nim-sum is 0 with a heap above 1, or 1 with none.
#[test]
fn nim_heaps_and_their_sums() {
    let mut forms = MisereForms::new();
    for n in 0..8u32 {
        let heap = forms.nim(n).expect("no limit");
        assert_eq!(forms.options(heap).len(), n as usize);
    }
    for a in 0..6u32 {
        for b in 0..6u32 {
            for c in 0..4u32 {
                let (ga, gb, gc) = (nim(&mut forms, a), nim(&mut forms, b), nim(&mut forms, c));
                let sum = forms.add(ga, gb).expect("no limit");
                let sum = forms.add(sum, gc).expect("no limit");
                let big = [a, b, c].iter().any(|&h| h > 1);
                let bouton = match big {
                    true => a ^ b ^ c == 0,
                    false => a ^ b ^ c == 1,
                };
                assert_eq!(forms.is_misere_p(sum), bouton, "*{a} + *{b} + *{c}");
            }
        }
    }
    // *2 + *2 is not 0 in misère play (it is in normal play).
    let two = nim(&mut forms, 2);
    let sum = forms.add(two, two).expect("no limit");
    assert_eq!(forms.display(sum), "{*2, *3}");
}

/// A table of forms stops at its work limit with an error, and is whole after it.
#[test]
fn the_work_limit_stops_a_sum() {
    let mut forms = MisereForms::new();
    let heaps: Vec<FormId> = (0..12).map(|n| nim(&mut forms, n)).collect();
    forms.set_limits(50, None);
    forms.start_value();
    let mut total = Ok(FormId::ZERO);
    for &h in &heaps {
        total = total.and_then(|t| forms.add(t, h));
    }
    assert_eq!(total, Err(cgdl_runtime::misere_form::FormLimit::Work(50)));
    forms.set_limits(u64::MAX, None);
    let sum = forms.add(heaps[2], heaps[2]).expect("no limit");
    assert_eq!(forms.display(sum), "{*2, *3}");
}

mod random {
    use super::*;
    use proptest::prelude::*;

    /// A random game tree: each game's options are a few games made before it.
    fn trees() -> impl Strategy<Value = Vec<Vec<usize>>> {
        proptest::collection::vec(
            proptest::collection::vec(any::<prop::sample::Index>(), 0..4),
            1..14,
        )
        .prop_map(|games| {
            (games.iter().enumerate())
                .map(|(i, options)| match i {
                    0 => Vec::new(),
                    _ => options.iter().map(|o| o.index(i)).collect(),
                })
                .collect()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// The form of a sum of three trees has the sum's misère outcome, by a search.
        #[test]
        fn sums_keep_their_outcomes(
            games in trees(),
            picks in proptest::collection::vec(any::<prop::sample::Index>(), 1..=3),
        ) {
            let mut trees = Trees::default();
            for options in &games {
                trees.add(options.clone());
            }
            let parts: Vec<usize> = picks.iter().map(|p| p.index(games.len())).collect();
            let mut forms = MisereForms::new();
            let mut memo = HashMap::new();
            let mut total = FormId::ZERO;
            for &t in &parts {
                let g = trees.form(&mut forms, t, &mut memo);
                total = forms.add(total, g).expect("no limit");
            }
            prop_assert_eq!(forms.is_misere_p(total), trees.is_p(&parts));
        }
    }
}
