//! Misère quotients of heap games (T. E. Plambeck and A. N. Siegel, *Misère quotients for
//! impartial games*, JCTA 115 (2008); A. N. Siegel, *Combinatorial Game Theory*, ch. V).
//!
//! The positions of a heap game up to heap `n` are the sums of its heaps of at most `n`
//! tokens: words `h1 + h2 + ...` (commutative, repeats allowed), closed under moving. Two
//! sums `G` and `H` are *indistinguishable* when `G + X` and `H + X` have the same misère
//! outcome for every sum `X`; the classes form a commutative monoid, the *quotient* `Q`,
//! and the classes of the misère P-positions its *P-portion*. The map from each heap to
//! its class (the *pretending function*) then gives the misère outcome of any sum at once:
//! the product of its heaps' classes is in the P-portion or not.
//!
//! The quotient is found heap by heap. A *candidate* is a finite commutative monoid `M`,
//! a subset `P` of it and a map `Φ` from the heaps to `M`. It is *correct* when for every
//! sum `w`, `w` is a misère P-position exactly when `Φ(w)` is in `P`. By the definition
//! (`w` is P when it has a move and every move is to an N-position), that holds for every
//! `w` when it holds at each `w` given its options, and the options of `w` enter only
//! through `x = Φ(w)` and the set `O(w)` of their images: a heap `h` added to `w` makes
//! `x Φ(h)` and `O(w) Φ(h) ∪ x T(h)`, where `T(h)` is the images of `h`'s own options.
//! So a candidate is verified exactly by a search over the finitely many pairs
//! `(x, O)` that sums reach ([`verify`]), each checked against the definition:
//! `x ∈ P` exactly when `O` is not empty and holds no element of `P`.
//!
//! A correct candidate's quotient is its image (the submonoid the heaps generate) with
//! elements merged that no product tells apart ([`Candidate::reduce`], partition
//! refinement). A new heap either takes an element of the current quotient (*conservative*,
//! tried for each element, each verified), or becomes a new generator: the quotient times
//! a cyclic monoid (`g⁴ = g²`), its P-portion *marked* ([`mark`]: each element takes the
//! outcome the definition gives its first sum, in an order where every option comes
//! first), reduced and verified. Where a sum then fails the definition, the heaps in it are
//! made generators of their own, with powers up to the failing sum's, and the quotient of
//! the others kept (as Siegel's MisereSolver recalibrates), until a candidate verifies or
//! the budget is spent. Every answer comes from a verified candidate: the budget only
//! decides whether there is one.

use crate::rules::{OptRef, Options, RuleError};
use std::collections::{BTreeMap, HashMap};

/// The largest heap whose misère quotient the solver finds to answer a sum.
pub const MAX_HEAP: usize = 4096;

/// A finite commutative monoid: elements `0..size`, `0` the identity, a multiplication
/// table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Monoid {
    size: usize,
    table: Vec<u32>,
}

impl Monoid {
    /// The trivial monoid.
    fn trivial() -> Monoid {
        Monoid {
            size: 1,
            table: vec![0],
        }
    }

    /// The number of elements.
    pub fn size(&self) -> usize {
        self.size
    }

    /// `x y`.
    #[inline]
    pub fn mul(&self, x: u32, y: u32) -> u32 {
        self.table[x as usize * self.size + y as usize]
    }
}

/// A finite commutative monoid given by its multiplication: an explicit table, or a
/// product of a quotient and cyclic monoids, computed as asked.
trait Algebra {
    /// `x y`.
    fn mul(&self, x: u32, y: u32) -> u32;
}

impl Algebra for Monoid {
    #[inline]
    fn mul(&self, x: u32, y: u32) -> u32 {
        Monoid::mul(self, x, y)
    }
}

/// A monoid times cyclic monoids: element `b R + c` for `b` of the monoid and `c` the
/// mixed-radix number of the cyclic parts' exponents (`R` their sizes' product).
struct Product {
    base: Monoid,
    /// Each cyclic part: its index and period (`g^(index + period) = g^index`).
    parts: Vec<(usize, usize)>,
    /// The product of the parts' sizes.
    radix: u32,
}

impl Product {
    fn new(base: Monoid, parts: Vec<(usize, usize)>) -> Product {
        let radix = parts.iter().map(|&(i, p)| (i + p) as u32).product();
        Product { base, parts, radix }
    }

    /// The number of elements.
    fn size(&self) -> usize {
        self.base.size() * self.radix as usize
    }

    /// `b` of the base, as an element.
    fn of_base(&self, b: u32) -> u32 {
        b * self.radix
    }

    /// Part `k`'s generator, as an element.
    fn generator(&self, k: usize) -> u32 {
        (self.parts[k + 1..].iter())
            .map(|&(i, p)| (i + p) as u32)
            .product()
    }
}

impl Algebra for Product {
    fn mul(&self, x: u32, y: u32) -> u32 {
        let (bx, mut cx) = (x / self.radix, x % self.radix);
        let (by, mut cy) = (y / self.radix, y % self.radix);
        let mut c = 0u32;
        let mut scale = 1u32;
        for &(index, period) in self.parts.iter().rev() {
            let size = (index + period) as u32;
            let (a, b) = ((cx % size) as usize, (cy % size) as usize);
            cx /= size;
            cy /= size;
            let e = match a + b {
                k if k < index + period => k,
                k => index + (k - index) % period,
            };
            c += e as u32 * scale;
            scale *= size;
        }
        self.base.mul(bx, by) * self.radix + c
    }
}

/// A set of elements of a monoid, as bits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Set(Vec<u64>);

impl Set {
    fn empty(size: usize) -> Set {
        Set(vec![0; size.div_ceil(64)])
    }
    fn insert(&mut self, x: u32) {
        self.0[x as usize / 64] |= 1 << (x % 64);
    }
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (self.0.iter().enumerate()).flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    i as u32 * 64 + b
                })
            })
        })
    }
    fn meets(&self, other: &Set) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
}

/// A sum of heaps: each heap size's count.
pub type Word = BTreeMap<usize, u32>;

/// The options of each heap, each as the heap sizes it leaves (empty: no heap left).
pub type HeapOptions = Vec<Vec<Vec<usize>>>;

/// A candidate quotient: a monoid, its P-portion, and each heap's element.
#[derive(Clone, Debug)]
pub struct Candidate {
    monoid: Monoid,
    p: Vec<bool>,
    phi: Vec<u32>,
    /// For each element, the sum that marked it (its rank total and heaps): where the
    /// candidate fails at another sum of the element, the two tell what it confuses.
    first: Vec<(u64, Word)>,
}

/// What searching for a quotient may spend: steps of marking and verification (a state
/// visited, a sum marked), and the largest monoid built.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Steps.
    pub steps: u64,
    /// Elements of the largest monoid tried.
    pub max_elements: usize,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            steps: 50_000_000,
            max_elements: 1 << 20,
        }
    }
}

/// The budget spent, or an inconsistency.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuotientError {
    /// More steps, or a larger monoid, than the budget allows, at this heap.
    Budget {
        /// The heap being added when the budget ran out.
        heap: usize,
    },
}

/// Steps spent, against a budget.
struct Spend {
    left: u64,
    heap: usize,
}

impl Spend {
    #[inline]
    fn step(&mut self, n: u64) -> Result<(), QuotientError> {
        match self.left.checked_sub(n) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => Err(QuotientError::Budget { heap: self.heap }),
        }
    }
}

/// Each heap's *rank*: the most moves a game of that heap alone can last, so that a sum's
/// options all have a smaller sum of ranks (the order marking follows).
fn ranks(options: &HeapOptions) -> Vec<u64> {
    let mut rank = vec![0u64; options.len()];
    for h in 0..options.len() {
        rank[h] = (options[h].iter())
            .map(|parts| 1 + parts.iter().map(|&k| rank[k]).sum::<u64>())
            .max()
            .unwrap_or(0);
    }
    rank
}

impl Candidate {
    /// The images of heap `h`'s options.
    fn transitions(&self, options: &HeapOptions, h: usize) -> Vec<u32> {
        let mut out: Vec<u32> = (options[h].iter())
            .map(|parts| (parts.iter()).fold(0, |x, &k| self.monoid.mul(x, self.phi[k])))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The element of a sum.
    pub fn image(&self, heaps: impl IntoIterator<Item = usize>) -> u32 {
        heaps
            .into_iter()
            .fold(0, |x, h| self.monoid.mul(x, self.phi[h]))
    }

    /// Whether the sum of `heaps` is a misère P-position (every heap at most the
    /// candidate's largest).
    pub fn is_p(&self, heaps: impl IntoIterator<Item = usize>) -> bool {
        self.p[self.image(heaps) as usize]
    }

    /// The quotient.
    pub fn monoid(&self) -> &Monoid {
        &self.monoid
    }

    /// Whether each element is in the P-portion.
    pub fn p_portion(&self) -> &[bool] {
        &self.p
    }

    /// The heaps the candidate covers: `0..len`.
    pub fn heaps(&self) -> usize {
        self.phi.len()
    }

    /// The quotient of a correct candidate: its image with the elements no product tells
    /// apart merged ([`reduce`]); `None` past [`MAX_QUOTIENT`] elements.
    fn reduce(&self) -> Option<Candidate> {
        reduce(&self.monoid, &|x| self.p[x as usize], &self.phi, &|x| {
            self.first.get(x as usize).cloned()
        })
    }
}

/// The candidate of the image of `phi` in `alg` (the submonoid the heaps generate), with
/// P-portion `p` and first sums `first`, its elements that no product tells apart merged
/// (classes by partition refinement, from P and not P, split by each heap's element until
/// stable), numbered in order of discovery.
fn reduce(
    alg: &dyn Algebra,
    p: &dyn Fn(u32) -> bool,
    phi: &[u32],
    first: &dyn Fn(u32) -> Option<(u64, Word)>,
) -> Option<Candidate> {
    let mut gens: Vec<u32> = phi.to_vec();
    gens.sort_unstable();
    gens.dedup();
    // The image, in breadth-first order from the identity.
    let mut index: HashMap<u32, usize> = HashMap::from([(0, 0)]);
    let mut image = vec![0u32];
    let mut steps: Vec<Vec<usize>> = Vec::new();
    let mut at = 0;
    while at < image.len() {
        let x = image[at];
        at += 1;
        let mut row = Vec::with_capacity(gens.len());
        for &g in &gens {
            let y = alg.mul(x, g);
            let len = image.len();
            let i = *index.entry(y).or_insert(len);
            if i == len {
                image.push(y);
            }
            row.push(i);
        }
        steps.push(row);
    }
    let n = image.len();
    let mut class: Vec<usize> = image.iter().map(|&x| usize::from(p(x))).collect();
    let mut count = class.iter().max().map_or(0, |c| c + 1);
    loop {
        let mut keys: HashMap<Vec<usize>, usize> = HashMap::new();
        let mut next = vec![0usize; n];
        for i in 0..n {
            let mut key = Vec::with_capacity(gens.len() + 1);
            key.push(class[i]);
            key.extend(steps[i].iter().map(|&j| class[j]));
            let len = keys.len();
            next[i] = *keys.entry(key).or_insert(len);
        }
        class = next;
        // Refinement only splits classes: as many classes as before, none split.
        if keys.len() == count {
            break;
        }
        count = keys.len();
    }
    // Classes renumbered by first appearance (the identity's class is 0).
    let mut number: HashMap<usize, u32> = HashMap::new();
    let mut reps = Vec::new();
    for (i, &c) in class.iter().enumerate() {
        if let std::collections::hash_map::Entry::Vacant(e) = number.entry(c) {
            e.insert(reps.len() as u32);
            reps.push(i);
        }
    }
    let size = reps.len();
    if size > MAX_QUOTIENT {
        return None;
    }
    let of = |x: u32| number[&class[index[&x]]];
    // A class's products are its first member's, as a product of that member and the
    // generators' words: every element of the image is one, reached breadth first.
    let mut table = vec![0u32; size * size];
    for (a, &i) in reps.iter().enumerate() {
        for (b, &j) in reps.iter().enumerate() {
            table[a * size + b] = of(alg.mul(image[i], image[j]));
        }
    }
    // Each class's first sum: its members' least.
    let mut firsts: Vec<Option<(u64, Word)>> = vec![None; size];
    for &x in &image {
        let Some(f) = first(x) else { continue };
        let slot = &mut firsts[of(x) as usize];
        if slot.as_ref().is_none_or(|g| f.0 < g.0) {
            *slot = Some(f);
        }
    }
    Some(Candidate {
        monoid: Monoid { size, table },
        p: reps.iter().map(|&i| p(image[i])).collect(),
        phi: phi.iter().map(|&x| of(x)).collect(),
        first: firsts.into_iter().map(Option::unwrap_or_default).collect(),
    })
}

/// The most elements of a quotient kept (its multiplication table is their square).
const MAX_QUOTIENT: usize = 4096;

/// What marking finds of each element it reaches: whether it is in the P-portion, and
/// the sum that marked it.
type Marks = HashMap<u32, (bool, u64, Word)>;

/// The P-portion of `alg` under `phi` (heaps `0..phi.len()`, with `trans` their options'
/// images) that the definition gives each element's first sum, the sums taken in order of
/// their ranks' total (every option of a sum comes before it): a sum is P when it has a
/// move and no move is to a P-position. Only the elements sums reach are marked.
fn mark(
    alg: &dyn Algebra,
    phi: &[u32],
    trans: &[Vec<u32>],
    rank: &[u64],
    max_elements: usize,
    spend: &mut Spend,
) -> Result<Marks, QuotientError> {
    // Each marked element's options' images (sorted).
    let mut options: HashMap<u32, Vec<u32>> = HashMap::from([(0, Vec::new())]);
    let mut marks: Marks = HashMap::from([(0, (false, 0, Word::new()))]);
    // (rank total, parent element, heap): the parent's first sum plus that heap.
    let mut queue: std::collections::BinaryHeap<std::cmp::Reverse<(u64, u32, u32)>> =
        std::collections::BinaryHeap::new();
    let push = |queue: &mut std::collections::BinaryHeap<_>, x: u32, w: u64| {
        for h in 1..phi.len() {
            if !trans[h].is_empty() {
                queue.push(std::cmp::Reverse((w + rank[h], x, h as u32)));
            }
        }
    };
    push(&mut queue, 0, 0);
    while let Some(std::cmp::Reverse((w, parent, h))) = queue.pop() {
        spend.step(1)?;
        let h = h as usize;
        let x = alg.mul(parent, phi[h]);
        if marks.contains_key(&x) {
            continue;
        }
        if marks.len() >= max_elements {
            return Err(QuotientError::Budget {
                heap: phi.len() - 1,
            });
        }
        let mut o: Vec<u32> = (options[&parent].iter())
            .map(|&y| alg.mul(y, phi[h]))
            .chain(trans[h].iter().map(|&t| alg.mul(parent, t)))
            .collect();
        o.sort_unstable();
        o.dedup();
        // Every option of the sum has a smaller total: it was marked.
        let is_p = !o.is_empty() && o.iter().all(|y| marks.get(y).is_some_and(|m| !m.0));
        let mut word = marks[&parent].2.clone();
        *word.entry(h).or_default() += 1;
        marks.insert(x, (is_p, w, word));
        options.insert(x, o);
        push(&mut queue, x, w);
    }
    Ok(marks)
}

/// Whether the candidate is correct for every sum of heaps `0..phi.len()`: `None`, or a
/// sum where it fails the definition, one of the least rank total (so that every sum of a
/// lesser total, its options among them, is right).
fn verify(
    c: &Candidate,
    trans: &[Vec<u32>],
    rank: &[u64],
    spend: &mut Spend,
) -> Result<Option<Word>, QuotientError> {
    let n = c.monoid.size();
    // The empty sum has no move: it is N.
    if c.p[0] {
        return Ok(Some(Word::new()));
    }
    let mut pset = Set::empty(n);
    for (x, &is_p) in c.p.iter().enumerate() {
        if is_p {
            pset.insert(x as u32);
        }
    }
    // Each state: its element, its options' images, the least total it was reached with
    // and how (its parent state and heap).
    let mut states: Vec<(u32, Set, u64, usize, usize)> = vec![(0, Set::empty(n), 0, usize::MAX, 0)];
    let mut index: HashMap<(u32, Set), usize> = HashMap::from([((0, Set::empty(n)), 0)]);
    let mut done = vec![false];
    let mut queue = std::collections::BinaryHeap::from([std::cmp::Reverse((0u64, 0usize))]);
    let word = |states: &[(u32, Set, u64, usize, usize)], mut at: usize| -> Word {
        let mut w = Word::new();
        while states[at].3 != usize::MAX {
            *w.entry(states[at].4).or_default() += 1;
            at = states[at].3;
        }
        w
    };
    while let Some(std::cmp::Reverse((w, s))) = queue.pop() {
        if done[s] || w > states[s].2 {
            continue;
        }
        done[s] = true;
        let (x, o) = (states[s].0, states[s].1.clone());
        let p_by_definition = !o.is_empty() && !o.meets(&pset);
        if s != 0 && p_by_definition != c.p[x as usize] {
            return Ok(Some(word(&states, s)));
        }
        for h in 1..c.phi.len() {
            if trans[h].is_empty() {
                continue;
            }
            spend.step(1)?;
            let y = c.monoid.mul(x, c.phi[h]);
            let mut o2 = Set::empty(n);
            for z in o.iter() {
                o2.insert(c.monoid.mul(z, c.phi[h]));
            }
            for &t in &trans[h] {
                o2.insert(c.monoid.mul(x, t));
            }
            let w2 = w + rank[h];
            let key = (y, o2);
            match index.get(&key) {
                Some(&id) if done[id] || states[id].2 <= w2 => {}
                Some(&id) => {
                    states[id].2 = w2;
                    states[id].3 = s;
                    states[id].4 = h;
                    queue.push(std::cmp::Reverse((w2, id)));
                }
                None => {
                    let id = states.len();
                    states.push((key.0, key.1.clone(), w2, s, h));
                    done.push(false);
                    index.insert(key, id);
                    queue.push(std::cmp::Reverse((w2, id)));
                }
            }
        }
    }
    Ok(None)
}

/// A misère quotient of a heap game up to a heap, as found.
#[derive(Clone, Debug)]
pub struct Quotient {
    /// The quotient, its P-portion and each heap's element (heaps `0..=max`).
    pub candidate: Candidate,
    /// The heaps that became generators when they were added (the presentation changed).
    pub expansions: Vec<usize>,
}

/// Finds the misère quotient of the heap game whose heap `h` has options `options[h]`
/// (each option the heap sizes it leaves, all below `h`, or `h` split), for heaps
/// `0..options.len()`, within `budget`.
pub fn quotient(options: &HeapOptions, budget: Budget) -> Result<Quotient, QuotientError> {
    let rank = ranks(options);
    let mut spend = Spend {
        left: budget.steps,
        heap: 0,
    };
    let mut c = Candidate {
        monoid: Monoid::trivial(),
        p: vec![false],
        phi: vec![0],
        first: vec![(0, Word::new())],
    };
    let mut expansions = Vec::new();
    for h in 1..options.len() {
        spend.heap = h;
        c = extend(&c, options, h, &rank, budget, &mut spend, &mut expansions)?;
    }
    Ok(Quotient {
        candidate: c,
        expansions,
    })
}

/// The quotient for heaps `0..=h`, from `c`'s for heaps below `h`.
fn extend(
    c: &Candidate,
    options: &HeapOptions,
    h: usize,
    rank: &[u64],
    budget: Budget,
    spend: &mut Spend,
    expansions: &mut Vec<usize>,
) -> Result<Candidate, QuotientError> {
    let sub: HeapOptions = options[..=h].to_vec();
    // A heap without a move is the empty game.
    if options[h].is_empty() {
        let mut next = c.clone();
        next.phi.push(0);
        return Ok(next);
    }
    // Conservative: an element of the quotient that the heap is indistinguishable from.
    let t = c.transitions(options, h);
    let heap_is_p = !t.iter().any(|&x| c.p[x as usize]);
    let mut trial = c.clone();
    trial.phi.push(0);
    let mut trans: Vec<Vec<u32>> = (0..h).map(|k| c.transitions(options, k)).collect();
    trans.push(t.clone());
    for x in 0..c.monoid.size() as u32 {
        if c.p[x as usize] != heap_is_p {
            continue;
        }
        trial.phi[h] = x;
        if verify(&trial, &trans, rank, spend)?.is_none() {
            return Ok(trial);
        }
    }
    // A new generator: the quotient times `g` with `g⁴ = g²`, then recalibrated where a
    // sum fails.
    expansions.push(h);
    let mut generators: BTreeMap<usize, usize> = BTreeMap::from([(h, 2)]);
    let mut built = build(c, &generators, &sub, rank, budget, spend)?;
    for _round in 0..MAX_RECALIBRATIONS {
        let cand = &built.cand;
        let trans: Vec<Vec<u32>> = (0..=h).map(|k| cand.transitions(&sub, k)).collect();
        let Some(failure) = verify(cand, &trans, rank, spend)? else {
            return Ok(built.cand);
        };
        // Every sum of a lesser total than the failing one is right, its options among
        // them: so the failing sum's element in the product was marked by another sum,
        // of another outcome, that the product confuses with it. Where the two differ in
        // a generator, both counts are past its index: it needs more powers; where they
        // differ in another heap, the quotient so far confuses them: that heap becomes a
        // generator.
        let other = built.first_in_product(&failure).unwrap_or_default();
        if std::env::var_os("CGDL_DEBUG_MISERE").is_some() {
            eprintln!(
                "heap {h}: |Q| = {} with generators {generators:?} fails at {failure:?} (taken for {other:?})",
                cand.monoid.size()
            );
        }
        let exponent = |w: &Word, k: usize| w.get(&k).copied().unwrap_or(0) as usize;
        let heaps: std::collections::BTreeSet<usize> = (failure.keys().chain(other.keys()))
            .copied()
            .filter(|&k| !sub[k].is_empty())
            .collect();
        let before = generators.clone();
        for &k in &heaps {
            let (a, b) = (exponent(&failure, k), exponent(&other, k));
            if a == b {
                continue;
            }
            let index = match generators.get(&k) {
                Some(&index) => index.max(a.max(b)),
                None => (a.min(b) + 1).max(power_index(&cand.monoid, cand.phi[k])),
            };
            generators.insert(k, index);
        }
        if generators == before {
            // Nothing to tell apart where the product confuses them (it should not be):
            // every heap of the two gets more powers.
            for &k in &heaps {
                *generators.entry(k).or_insert(0) += 2;
            }
        }
        built = build(c, &generators, &sub, rank, budget, spend)?;
    }
    Err(QuotientError::Budget { heap: h })
}

/// Where the powers of `x` start to repeat: the least `i` with `x^i = x^j` for some
/// `j > i`.
fn power_index(monoid: &Monoid, x: u32) -> usize {
    let mut powers = vec![0u32];
    loop {
        let next = monoid.mul(powers[powers.len() - 1], x);
        if let Some(i) = powers.iter().position(|&y| y == next) {
            return i;
        }
        powers.push(next);
    }
}

/// How many times adding one heap may recalibrate the candidate.
const MAX_RECALIBRATIONS: usize = 256;

/// A candidate as [`build`] made it: reduced, and the product it was marked in, with each
/// heap's element there and what marking found.
struct Built {
    cand: Candidate,
    product: Product,
    phi: Vec<u32>,
    marks: Marks,
}

impl Built {
    /// The sum that marked the element of `word` in the product.
    fn first_in_product(&self, word: &Word) -> Option<Word> {
        let x = (word.iter())
            .flat_map(|(&k, &e)| std::iter::repeat_n(k, e as usize))
            .fold(0, |x, k| self.product.mul(x, self.phi[k]));
        self.marks.get(&x).map(|m| m.2.clone())
    }
}

/// The candidate of `base`'s monoid (the heaps not in `generators` keep their elements,
/// the rest of it cut away) times a cyclic monoid for each heap of `generators`
/// (`g^(index + period) = g^index`), its P-portion marked, reduced.
fn build(
    base: &Candidate,
    generators: &BTreeMap<usize, usize>,
    options: &HeapOptions,
    rank: &[u64],
    budget: Budget,
    spend: &mut Spend,
) -> Result<Built, QuotientError> {
    let h = options.len() - 1;
    // The quotient so far, cut to what the heaps that are no generators make.
    let mut kept = base.clone();
    kept.phi.resize(h + 1, 0);
    for &k in generators.keys() {
        kept.phi[k] = 0;
    }
    let kept = kept.reduce().ok_or(QuotientError::Budget { heap: h })?;
    // Powers of period 2, longer ones where a generator needs many (as MisereSolver
    // chooses them).
    let parts: Vec<(usize, usize)> = (generators.values())
        .map(|&index| (index, 2usize.max(2 * (index.saturating_sub(4) / 2))))
        .collect();
    let product = Product::new(kept.monoid.clone(), parts);
    if product.size() > u32::MAX as usize / 2 {
        return Err(QuotientError::Budget { heap: h });
    }
    let mut phi: Vec<u32> = kept.phi.iter().map(|&b| product.of_base(b)).collect();
    for (i, &k) in generators.keys().enumerate() {
        phi[k] = product.generator(i);
    }
    let transitions = |k: usize| -> Vec<u32> {
        let mut out: Vec<u32> = (options[k].iter())
            .map(|parts| (parts.iter()).fold(0, |x, &j| product.mul(x, phi[j])))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    };
    let trans: Vec<Vec<u32>> = (0..=h).map(transitions).collect();
    let marks = mark(&product, &phi, &trans, rank, budget.max_elements, spend)?;
    let cand = reduce(
        &product,
        &|x| marks.get(&x).is_some_and(|m| m.0),
        &phi,
        &|x| marks.get(&x).map(|m| (m.1, m.2.clone())),
    )
    .ok_or(QuotientError::Budget { heap: h })?;
    Ok(Built {
        cand,
        product,
        phi,
        marks,
    })
}

/// The options of heaps `0..=max` of the game with code `digits` (an octal or hexadecimal
/// code, [`crate::heap`]), each as the heap sizes it leaves, by [`crate::rules::heap_options`]
/// (the options both back ends give).
pub fn code_options(digits: &[u8], max: usize) -> Result<HeapOptions, RuleError> {
    let mut out = Vec::with_capacity(max + 1);
    let mut opts = Options::new();
    for n in 0..=max {
        opts.clear();
        crate::rules::heap_options(n as i64, digits, |k| k as usize, &mut opts)?;
        let mut heap: Vec<Vec<usize>> = (opts.refs.iter())
            .map(|r| match *r {
                OptRef::Leaves { start, len } => {
                    let mut parts: Vec<usize> = (opts.leaf_slice(start, len).iter())
                        .copied()
                        .filter(|&k| k > 0)
                        .collect();
                    parts.sort_unstable();
                    parts
                }
                OptRef::End | OptRef::Expr(_) => Vec::new(),
            })
            .collect();
        heap.sort();
        heap.dedup();
        out.push(heap);
    }
    Ok(out)
}

/// A misère quotient as the papers write it: generators (heaps' elements, named `a`, `b`,
/// ...), relations among them, the P-portion, and each heap's element, each element as its
/// normal form (the least word of it: fewest letters, then first in the generators'
/// order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presentation {
    /// Each generator's name and the heap whose element it is.
    pub generators: Vec<(String, usize)>,
    /// Relations `word = word` that, with commutativity, present the quotient.
    pub relations: Vec<(String, String)>,
    /// The P-portion's elements, as words.
    pub p_portion: Vec<String>,
    /// Each heap's element, as a word.
    pub heaps: Vec<String>,
    /// The quotient's order.
    pub order: usize,
}

/// The presentation of `c`: a generator for each heap whose element the earlier
/// generators do not make, the normal form of each element (words of fewest letters found
/// first, then in the generators' order), and the relations `m = nf(m)` for each word `m`
/// that is no normal form while every word it becomes with one letter less is one (these
/// with commutativity rewrite every word to its normal form).
pub fn presentation(c: &Candidate) -> Presentation {
    let m = &c.monoid;
    // Generators, in heap order.
    let mut gens: Vec<(u32, usize)> = Vec::new();
    let mut made: std::collections::HashSet<u32> = std::collections::HashSet::from([0]);
    for (h, &x) in c.phi.iter().enumerate() {
        if made.contains(&x) {
            continue;
        }
        gens.push((x, h));
        // The submonoid the generators make so far.
        let mut frontier: Vec<u32> = made.iter().copied().collect();
        while let Some(y) = frontier.pop() {
            for &(g, _) in &gens {
                let z = m.mul(y, g);
                if made.insert(z) {
                    frontier.push(z);
                }
            }
        }
    }
    // Normal forms: exponent vectors by degree, then in order.
    let k = gens.len();
    let mut nf: HashMap<u32, Vec<u32>> = HashMap::from([(0, vec![0; k])]);
    let mut degree: Vec<(Vec<u32>, u32)> = vec![(vec![0; k], 0)];
    let mut words_in_order: Vec<(u32, Vec<u32>)> = vec![(0, vec![0; k])];
    while !degree.is_empty() {
        let mut next: Vec<(Vec<u32>, u32)> = Vec::new();
        for (w, x) in &degree {
            for (i, &(g, _)) in gens.iter().enumerate() {
                // Each commutative word once: letters in the generators' order.
                if w[i + 1..].iter().any(|&e| e > 0) {
                    continue;
                }
                let mut v = w.clone();
                v[i] += 1;
                next.push((v, m.mul(*x, g)));
            }
        }
        // In the generators' order: the first letter's exponent largest first.
        next.sort_by(|a, b| b.0.cmp(&a.0));
        degree = Vec::new();
        for (v, x) in next {
            if let std::collections::hash_map::Entry::Vacant(e) = nf.entry(x) {
                e.insert(v.clone());
                words_in_order.push((x, v.clone()));
                degree.push((v, x));
            }
        }
    }
    let name = |i: usize| -> String {
        let letters = b"abcdefghijklmnopqrstuvwxyz";
        match i < letters.len() {
            true => (letters[i] as char).to_string(),
            false => format!("g{i}"),
        }
    };
    let write = |v: &[u32]| -> String {
        let parts: Vec<String> = (v.iter().enumerate())
            .filter(|(_, &e)| e > 0)
            .map(|(i, &e)| match e {
                1 => name(i),
                _ => format!("{}^{e}", name(i)),
            })
            .collect();
        match parts.is_empty() {
            true => "1".to_string(),
            false => parts.join(" "),
        }
    };
    let element_of = |v: &[u32]| -> u32 {
        (v.iter().enumerate()).fold(0, |x, (i, &e)| (0..e).fold(x, |y, _| m.mul(y, gens[i].0)))
    };
    let is_normal = |v: &[u32]| nf.get(&element_of(v)).is_some_and(|w| w.as_slice() == v);
    // Relations: the least words that are no normal form.
    let mut relations = Vec::new();
    let mut seen: std::collections::HashSet<Vec<u32>> = std::collections::HashSet::new();
    for (_, w) in &words_in_order {
        for i in 0..k {
            let mut v = w.clone();
            v[i] += 1;
            if is_normal(&v) || !seen.insert(v.clone()) {
                continue;
            }
            let minimal = (0..k).filter(|&j| v[j] > 0).all(|j| {
                let mut u = v.clone();
                u[j] -= 1;
                is_normal(&u)
            });
            if minimal {
                relations.push((write(&v), write(&nf[&element_of(&v)])));
            }
        }
    }
    let mut p_portion: Vec<&Vec<u32>> = (words_in_order.iter())
        .filter(|(x, _)| c.p[*x as usize])
        .map(|(_, v)| v)
        .collect();
    p_portion.sort_by_key(|v| (v.iter().sum::<u32>(), std::cmp::Reverse((*v).clone())));
    Presentation {
        generators: gens
            .iter()
            .enumerate()
            .map(|(i, &(_, h))| (name(i), h))
            .collect(),
        relations,
        p_portion: p_portion.into_iter().map(|v| write(v)).collect(),
        heaps: c.phi.iter().map(|x| write(&nf[x])).collect(),
        order: m.size(),
    }
}
