//! Nimber search: the Grundy value of a position without the exact value of every
//! position below it.
//!
//! The search asks of a position only whether its value lies in a set of values it needs,
//! as P. Beling and M. Rogalski do (*On pruning search trees of impartial games*, Artificial
//! Intelligence 283 (2020); `igsolve`'s default method, "aspiration sets"):
//!
//! - At the top, the value of `p` is the least `r` for which no option has value `r`: for
//!   `r = 0, 1, …` each option not yet placed is asked whether its value is `r` (one witness
//!   is enough), and an option whose exact value turns up on the way is placed for good.
//! - `in_set(p, want)` gives `p`'s exact value, or says it is not in `want`. A position
//!   with `n` options has a value in `{0, …, n}`; each option takes one value out of these
//!   *potential* values (its own, or the largest where its own is not among them), so one
//!   is left at the end, the mex. Each option is asked only about the potential values but
//!   the largest, up to the largest wanted: where its value is not among them, the largest
//!   potential value goes, which the mex can then only be if it is not wanted. The search
//!   stops as soon as no wanted value is potential.
//!
//! A sum's value is the nim-sum of its parts' values: every part but one is solved exactly
//! and the last part whose value is not known is asked about the wanted values shifted by
//! the others' nim-sum. Options already known serve without a search, values a position was
//! found not to have (below 128) are remembered while its value is not known, and every
//! exact value found is kept in the Grundy memo (under the position's least image), which
//! the ordinary search shares. Where sets of 128 values do not reach (a position with 128
//! options or more, a nim-sum of 128 or more), the search finds the exact value instead, by
//! the method of J. Lemoine and S. Viennot (*Nimbers are inevitable*, TCS 462 (2012)):
//! `has(p, k)` decides whether `p`'s value is `k`, from the options' values below `k`.
//!
//! A search that meets a rule error, a position it is still deciding (a loopy game), a
//! compound option or the depth limit gives up, and the ordinary search, which reports
//! such things, takes over.

use super::*;
use smallvec::SmallVec;

/// How deep a nimber search recurses before it gives up.
const NIMBER_DEPTH: usize = 512;

/// A nimber search gave up (see the module's documentation).
pub(super) struct GiveUp;

/// Values seen among a position's options, to skip: a bit per value below 128.
#[derive(Default)]
struct Seen {
    low: u128,
    high: Vec<u32>,
}

impl Seen {
    fn add(&mut self, v: u32) {
        match v {
            0..=127 => self.low |= 1 << v,
            _ => self.high.push(v),
        }
    }
    fn has(&self, v: u32) -> bool {
        match v {
            0..=127 => self.low >> v & 1 == 1,
            _ => self.high.contains(&v),
        }
    }
}

/// A set of values below 128, as bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Values(u128);

impl Values {
    /// No value.
    pub(super) const EMPTY: Values = Values(0);

    /// `{0, …, n - 1}`, where `n` is at most 128.
    fn below(n: usize) -> Option<Values> {
        match n {
            128 => Some(Values(u128::MAX)),
            0..128 => Some(Values((1u128 << n) - 1)),
            _ => None,
        }
    }

    /// `{v}`, where `v` is below 128.
    pub(super) fn single(v: u32) -> Option<Values> {
        1u128.checked_shl(v).map(Values)
    }

    pub(super) fn is_empty(self) -> bool {
        self.0 == 0
    }

    fn has(self, v: u32) -> bool {
        v < 128 && self.0 >> v & 1 == 1
    }

    fn inter(self, other: Values) -> Values {
        Values(self.0 & other.0)
    }

    fn minus(self, other: Values) -> Values {
        Values(self.0 & !other.0)
    }

    /// The set without its largest value.
    fn without_largest(self) -> Values {
        match self.0 {
            0 => self,
            bits => Values(bits & !(1u128 << (127 - bits.leading_zeros()))),
        }
    }

    /// Every value up to the largest.
    fn up_to_largest(self) -> Values {
        match self.0 {
            0 => self,
            bits => Values(u128::MAX >> bits.leading_zeros()),
        }
    }

    /// The least value.
    fn least(self) -> Option<u32> {
        (self.0 != 0).then(|| self.0.trailing_zeros())
    }

    /// Each value nim-added to `x`, where `x` is below 128 (`None` otherwise).
    fn nim_added(self, x: u32) -> Option<Values> {
        if x >= 128 {
            return None;
        }
        let (mut bits, mut out) = (self.0, 0u128);
        while bits != 0 {
            let v = bits.trailing_zeros();
            out |= 1u128 << (v ^ x);
            bits &= bits - 1;
        }
        Some(Values(out))
    }
}

/// The values a position can still have while its options are asked one by one: one
/// value goes for each option, its own where it is among them, else the largest.
struct Potential(Values);

impl Potential {
    fn remove(&mut self, v: u32) {
        match self.0.has(v) {
            true => self.0 = Values(self.0 .0 & !(1u128 << v)),
            false => self.remove_largest(),
        }
    }

    fn remove_largest(&mut self) {
        self.0 = self.0.without_largest();
    }
}

impl<R: Rules> Solver<'_, R> {
    /// The Grundy value of `p` by nimber search, or `None` when the search gave up. Used
    /// for a Grundy value in `Mode::Fast` where no kernel answers (see `Solver::run`).
    pub(super) fn nimber_search(&mut self, p: Pos<R>) -> Option<u32> {
        let p = self.image(p);
        if let Some(v) = self.known_grundy(p) {
            return Some(v);
        }
        let shared = self.share_begin(p);
        let found = match self.open(p, 0) {
            Ok(bufs) => {
                let found = self.least_unmatched(p, &bufs.opts, false);
                self.close(p, bufs, found.as_ref().ok().copied(), 0);
                found.ok()
            }
            Err(GiveUp) => None,
        };
        if !shared {
            return found;
        }
        // A helper may have found the value first (the search then stopped).
        self.share_end();
        found.or_else(|| self.learn_shared(p).0)
    }

    /// The outcome of `p` by nimber search (P where its value is 0: where no option has
    /// value 0), or `None` when the search gave up. Used for an outcome in `Mode::Fast`
    /// where no kernel answers (see `Solver::run`).
    pub(super) fn outcome_search(&mut self, p: Pos<R>) -> Option<u32> {
        let zero = Values::single(0)?;
        let root = self.image(p);
        let shared = self.share_begin(root);
        let mut found = match shared && self.known_grundy(root).is_none() {
            // The options are asked whether they have value 0 as at the top of a nimber
            // search, where helpers can share the asking.
            true => self.open(root, 0).ok().and_then(|bufs| {
                let found = self.least_unmatched(root, &bufs.opts, true);
                let (value, not) = match found {
                    Ok(0) => (Some(0), 0),
                    Ok(_) => (None, 1),
                    Err(GiveUp) => (None, 0),
                };
                self.close(root, bufs, value, not);
                found.ok().map(|_| value)
            }),
            false => self.in_set(root, zero, 0).ok(),
        };
        if shared {
            self.share_end();
            // A helper may have decided it first (the search then stopped).
            if found.is_none() {
                found = match self.learn_shared(root) {
                    (Some(v), _) => Some(Some(v)),
                    (None, not) if not & 1 != 0 => Some(None),
                    (None, _) => None,
                };
            }
        }
        match found? {
            Some(0) => Some(OUTCOME_P),
            _ => Some(OUTCOME_N),
        }
    }

    /// The values of the options of `opts` already known, and the indices of the others in
    /// the order to search them, with the symmetries that fix each ([`Solver::order`]).
    fn known_and_left(&self, opts: &Options<Pos<R>>) -> (Seen, Vec<usize>, Vec<u64>) {
        let (mut seen, mut left) = (Seen::default(), Vec::new());
        for i in 0..opts.len() {
            match self.known_option(opts, i) {
                Some(v) => seen.add(v),
                None => left.push(i),
            }
        }
        let fixing = self.order(opts, &mut left);
        (seen, left, fixing)
    }

    /// The options of `left` that differ up to symmetry (the first of each kind, in
    /// order), and for each option of `opts`, the place of its kind among them.
    pub(super) fn distinct_options(
        &self,
        opts: &Options<Pos<R>>,
        left: &[usize],
    ) -> (Vec<usize>, Vec<u32>) {
        let mut kinds: FxHashMap<SmallVec<[Pos<R>; 4]>, u32> = FxHashMap::default();
        let (mut distinct, mut place) = (Vec::new(), vec![u32::MAX; opts.len()]);
        for &i in left {
            let mut parts: SmallVec<[Pos<R>; 4]> = match opts.refs[i] {
                OptRef::Leaves { start, len } => (opts.leaf_slice(start, len).iter())
                    .map(|&q| self.image(q))
                    .collect(),
                _ => SmallVec::new(),
            };
            parts.sort_unstable();
            let next = distinct.len() as u32;
            let kind = *kinds.entry(parts).or_insert(next);
            if kind == next {
                distinct.push(i);
            }
            place[i] = kind;
        }
        (distinct, place)
    }

    /// The value of a position with options `opts`: the least `r` no option has, each
    /// option asked only whether it has `r` until its exact value turns up.
    /// With `zero_only`, only whether that is 0: any other value answers 1.
    fn least_unmatched(
        &mut self,
        p: Pos<R>,
        opts: &Options<Pos<R>>,
        zero_only: bool,
    ) -> Result<u32, GiveUp> {
        let (mut seen, mut left, fixing) = self.known_and_left(opts);
        // Where threads share the search, the split point of the value asked about now.
        let mut split = None;
        let mut r = 0;
        'values: loop {
            if zero_only && r > 0 {
                return Ok(1);
            }
            if seen.has(r) {
                r += 1;
                continue;
            }
            let sharing = self.sharing.is_some();
            if sharing {
                // Each value asked about is a split point of its own.
                split = None;
                if let Some(s) = &mut self.sharing {
                    s.looking_for = (r < 128).then_some(r);
                }
            }
            let mut at = 0;
            while at < left.len() {
                if sharing && self.swept(r) {
                    // A helper found an option of value `r`.
                    r += 1;
                    continue 'values;
                }
                let i = left[at];
                let want = Values::single(r);
                if sharing && split.is_none() {
                    split = self.split_enter(p, 0, opts, &left[at..]);
                }
                if sharing && !self.split_take(&mut split, i, want.unwrap_or(Values::EMPTY)) {
                    // A helper asks it now: the others first.
                    left.remove(at);
                    left.push(i);
                    continue;
                }
                let found = match want {
                    Some(want) => self.option_in(opts, i, want, 1),
                    None => self.option_value(opts, i, 1).map(Some),
                };
                let found = match found {
                    Ok(found) => found,
                    // The search stopped where a helper found an option of value `r`.
                    Err(GiveUp) if sharing && self.swept(r) => {
                        r += 1;
                        continue 'values;
                    }
                    Err(GiveUp) => return Err(GiveUp),
                };
                match fixing.get(i) {
                    Some(&fixed) if fixed != 0 && r == 0 => {
                        self.symmetry_stats.record(fixed, found == Some(0))
                    }
                    _ => {}
                }
                match found {
                    Some(v) => {
                        left.remove(at);
                        if v == r {
                            r += 1;
                            continue 'values;
                        }
                        seen.add(v);
                    }
                    None => at += 1,
                }
            }
            return Ok(r);
        }
    }

    /// The value of `p` where it is in `want`; `None` says it is not.
    fn in_set(&mut self, p: Pos<R>, want: Values, depth: usize) -> Result<Option<u32>, GiveUp> {
        let p = self.image(p);
        if let Some(v) = self.known_grundy(p) {
            return Ok(Some(v));
        }
        let (shared, shared_not) = self.learn_shared(p);
        if let Some(v) = shared {
            return Ok(Some(v));
        }
        let not = Values(self.not_values.get(&p).copied().unwrap_or(0) | shared_not);
        let want = want.minus(not);
        if want.is_empty() {
            return Ok(None);
        }
        let bufs = self.open(p, depth)?;
        let found = self.in_set_of(p, &bufs.opts, want, depth);
        let value = found.as_ref().ok().copied().flatten();
        let not = if matches!(found, Ok(None)) { want.0 } else { 0 };
        self.close(p, bufs, value, not);
        found
    }

    /// [`Solver::in_set`] of a position with options `opts`.
    fn in_set_of(
        &mut self,
        p: Pos<R>,
        opts: &Options<Pos<R>>,
        want: Values,
        depth: usize,
    ) -> Result<Option<u32>, GiveUp> {
        let Some(all) = Values::below(opts.len() + 1) else {
            return self.nimber_of(opts, depth).map(Some);
        };
        let mut potential = Potential(all);
        let mut left = Vec::new();
        for i in 0..opts.len() {
            match self.known_option(opts, i) {
                Some(v) => potential.remove(v),
                None => left.push(i),
            }
            if potential.0.inter(want).is_empty() {
                return Ok(None);
            }
        }
        let fixing = self.order(opts, &mut left);
        // Where threads share the search, `p` may become a split point.
        let mut split = None;
        let sharing = self.sharing.is_some();
        let mut queue = std::borrow::Cow::Borrowed(&left[..]);
        let up_to = want.up_to_largest();
        let mut exact = true;
        let mut at = 0;
        while at < queue.len() {
            let i = queue[at];
            if potential.0.inter(want).is_empty() {
                return Ok(None);
            }
            let ask = potential.0.without_largest().inter(up_to);
            if sharing && !ask.is_empty() {
                if split.is_none() {
                    split = self.split_enter(p, depth, opts, &queue[at..]);
                }
                if !self.split_take(&mut split, i, ask) {
                    // A helper asks it now: the others first.
                    queue.to_mut().push(i);
                    at += 1;
                    continue;
                }
            }
            at += 1;
            let found = match ask.is_empty() {
                // Nothing to ask: whatever the option's value, the largest goes.
                true => None,
                false => self.option_in(opts, i, ask, depth)?,
            };
            match fixing.get(i) {
                Some(&fixed) if fixed != 0 && ask.has(0) => {
                    self.symmetry_stats.record(fixed, found == Some(0))
                }
                _ => {}
            }
            match found {
                Some(v) => potential.remove(v),
                None => {
                    potential.remove_largest();
                    exact = false;
                }
            }
        }
        // One value is left: the mex where every option's value was placed, or where it is
        // not above the values wanted (the options not placed took larger values only).
        let last = potential.0;
        match exact || !last.inter(up_to).is_empty() {
            true => Ok(last.least()),
            false => Ok(None),
        }
    }

    /// The value of option `i` where it is in `want`, `None` where it is not: a sum's parts
    /// but its last unknown one are solved, and that one is asked about `want` nim-added
    /// to their values.
    pub(super) fn option_in(
        &mut self,
        opts: &Options<Pos<R>>,
        i: usize,
        want: Values,
        depth: usize,
    ) -> Result<Option<u32>, GiveUp> {
        match opts.refs[i] {
            OptRef::End => Ok(Some(0)),
            OptRef::Leaves { start, len: 1 } => {
                self.in_set(opts.leaves[start as usize], want, depth + 1)
            }
            OptRef::Leaves { start, len } => {
                let (last, others) = self.last_and_others(opts.leaf_slice(start, len), depth)?;
                Ok(match want.nim_added(others) {
                    Some(shifted) => (self.in_set(last, shifted, depth + 1)?).map(|v| v ^ others),
                    None => Some(self.nimber(last, depth + 1)? ^ others),
                })
            }
            OptRef::Expr(_) => Err(GiveUp),
        }
    }

    /// The exact value of option `i`.
    fn option_value(
        &mut self,
        opts: &Options<Pos<R>>,
        i: usize,
        depth: usize,
    ) -> Result<u32, GiveUp> {
        match opts.refs[i] {
            OptRef::End => Ok(0),
            OptRef::Leaves { start, len } => (opts.leaf_slice(start, len).iter())
                .try_fold(0, |x, &q| Ok(x ^ self.nimber(q, depth + 1)?)),
            OptRef::Expr(_) => Err(GiveUp),
        }
    }

    /// Of a sum's parts `leaves`, the last whose value is not known (the last where all
    /// are), and the nim-sum of the others' values, found exactly.
    fn last_and_others(
        &mut self,
        leaves: &[Pos<R>],
        depth: usize,
    ) -> Result<(Pos<R>, u32), GiveUp> {
        let last = (leaves.iter())
            .rposition(|&q| self.known_grundy(self.image(q)).is_none())
            .unwrap_or(leaves.len() - 1);
        let mut others = 0;
        for (at, &q) in leaves.iter().enumerate() {
            if at != last {
                others ^= self.nimber(q, depth + 1)?;
            }
        }
        Ok((leaves[last], others))
    }

    fn known_grundy(&self, p: Pos<R>) -> Option<u32> {
        match self.leaf_memo[ValueKind::Grundy.slot()].get(self.slot(p), p) {
            UNKNOWN | IN_PROGRESS => None,
            v => Some(v),
        }
    }

    /// The Grundy value of option `i`, when known.
    fn known_option(&self, opts: &Options<Pos<R>>, i: usize) -> Option<u32> {
        match opts.refs[i] {
            OptRef::End => Some(0),
            OptRef::Leaves { start, len } => (opts.leaf_slice(start, len).iter())
                .try_fold(0, |x, &q| Some(x ^ self.known_grundy(self.image(q))?)),
            OptRef::Expr(_) => None,
        }
    }

    /// The options of `p` (a least image, not yet known), having counted it as solved and
    /// noted it as being decided (a position met again while it is being decided is a
    /// loop: the search gives up).
    pub(super) fn open(&mut self, p: Pos<R>, depth: usize) -> Result<Box<Buffers<Pos<R>>>, GiveUp> {
        if depth >= NIMBER_DEPTH
            || self.budget.solved >= self.budget.max_positions
            || self.searching.contains(&p)
        {
            return Err(GiveUp);
        }
        self.budget.solved += 1;
        if self.sharing.is_some() && self.share_stops() {
            return Err(GiveUp);
        }
        if self.budget.solved & 0x3FFF == 0 && self.measure_memory().is_some() {
            return Err(GiveUp);
        }
        if self.budget.solved & 0x3FF == 0 && self.progress.is_some() {
            self.report_progress();
        }
        // A symmetry that does not hold is reported by the ordinary search.
        if self.symmetric && self.check_symmetries(p).is_err() {
            return Err(GiveUp);
        }
        let mut bufs = self.pool.pop().unwrap_or_default();
        // Each level of the search holds its options: the memory limit holds while they
        // are listed (past it the search gives up, and the ordinary search reports it).
        bufs.opts.set_memory_limit(self.budget.max_memory);
        let fine = self.rules.options(p, &mut bufs.opts).is_ok()
            && !(bufs.opts.refs.iter()).any(|r| matches!(r, OptRef::Expr(_)));
        if !fine || self.budget.memory_exhausted {
            self.recycle(bufs);
            return Err(GiveUp);
        }
        self.searching.insert(p);
        Ok(bufs)
    }

    /// Ends the search of `p` opened by [`Solver::open`], keeping its value when found
    /// (a position left undecided takes no memo entry), else the values (bits below 128)
    /// it was found not to have.
    pub(super) fn close(
        &mut self,
        p: Pos<R>,
        bufs: Box<Buffers<Pos<R>>>,
        value: Option<u32>,
        not: u128,
    ) {
        self.searching.remove(&p);
        if self.sharing.is_some() {
            self.share_fact(p, value, not);
        }
        match value {
            Some(v) => {
                self.store(self.grundy_task(p), v);
                self.not_values.remove(&p);
            }
            None if not != 0 => *self.not_values.entry(p).or_default() |= not,
            None => {}
        }
        self.recycle(bufs);
    }

    /// What other threads found of `p` (a least image its own memo does not know): its
    /// value, kept in the memo, or values it does not have ([`Solver::shared_fact`]).
    fn learn_shared(&mut self, p: Pos<R>) -> (Option<u32>, u128) {
        let (value, not) = self.shared_fact(p);
        if let Some(v) = value {
            self.store(self.grundy_task(p), v);
            self.not_values.remove(&p);
        }
        (value, not)
    }

    fn grundy_task(&self, p: Pos<R>) -> Task<Pos<R>> {
        Task {
            kind: ValueKind::Grundy,
            node: Node::Leaf(p),
        }
    }

    /// The Grundy value of `p`.
    fn nimber(&mut self, p: Pos<R>, depth: usize) -> Result<u32, GiveUp> {
        let p = self.image(p);
        if let Some(v) = self.known_grundy(p) {
            return Ok(v);
        }
        if let (Some(v), _) = self.learn_shared(p) {
            return Ok(v);
        }
        let bufs = self.open(p, depth)?;
        // Every value wanted: the answer is exact.
        let found = match Values::below(bufs.opts.len() + 1) {
            Some(all) => (self.in_set_of(p, &bufs.opts, all, depth)).and_then(|v| v.ok_or(GiveUp)),
            None => self.nimber_of(&bufs.opts, depth),
        };
        self.close(p, bufs, found.as_ref().ok().copied(), 0);
        found
    }

    fn nimber_of(&mut self, opts: &Options<Pos<R>>, depth: usize) -> Result<u32, GiveUp> {
        let (seen, mut left, fixing) = self.known_and_left(opts);
        let mut v = 0;
        loop {
            if !seen.has(v) && !self.take_option(opts, &mut left, &fixing, v, depth)? {
                return Ok(v);
            }
            v += 1;
        }
    }

    /// Whether the Grundy value of `p` is `k`.
    fn has(&mut self, p: Pos<R>, k: u32, depth: usize) -> Result<bool, GiveUp> {
        let p = self.image(p);
        if let Some(v) = self.known_grundy(p) {
            return Ok(v == k);
        }
        let bit = 1u128.checked_shl(k).unwrap_or(0);
        if self.not_values.get(&p).is_some_and(|&not| not & bit != 0) {
            return Ok(false);
        }
        match self.learn_shared(p) {
            (Some(v), _) => return Ok(v == k),
            (None, not) if not & bit != 0 => return Ok(false),
            _ => {}
        }
        let bufs = self.open(p, depth)?;
        let found = self.has_of(&bufs.opts, k, depth);
        let value = match found {
            Ok((_, value)) => value,
            Err(_) => None,
        };
        let not = if matches!(found, Ok((false, None))) {
            bit
        } else {
            0
        };
        self.close(p, bufs, value, not);
        found.map(|(has, _)| has)
    }

    /// Whether a position with options `opts` has value `k`, and its value when found.
    fn has_of(
        &mut self,
        opts: &Options<Pos<R>>,
        k: u32,
        depth: usize,
    ) -> Result<(bool, Option<u32>), GiveUp> {
        let count = opts.len();
        if (count as u64) < k as u64 {
            // A position's value is at most its number of options.
            return Ok((false, None));
        }
        let (mut seen, mut left) = (Seen::default(), Vec::new());
        for i in 0..count {
            match self.known_option(opts, i) {
                Some(v) if v == k => return Ok((false, None)),
                Some(v) => seen.add(v),
                None => left.push(i),
            }
        }
        let fixing = self.order(opts, &mut left);
        for j in 0..k {
            if !seen.has(j) && !self.take_option(opts, &mut left, &fixing, j, depth)? {
                // No option has value `j`, the least such: that is the value.
                return Ok((false, Some(j)));
            }
        }
        for &i in &left {
            if self.option_has(opts, i, k, depth)? {
                return Ok((false, None));
            }
        }
        Ok((true, Some(k)))
    }

    /// Puts first the positions that a symmetry fixes, the most promising first (likely
    /// value 0: see `Solver::symmetric_first`), then the options likely easiest to decide:
    /// those whose parts are smallest. Returns each option's fixing symmetries (empty
    /// where none is fixed).
    fn order(&self, opts: &Options<Pos<R>>, left: &mut [usize]) -> Vec<u64> {
        let mut fixing = Vec::new();
        let asked = if self.symmetric { &left[..] } else { &[] };
        for &i in asked {
            if let OptRef::Leaves { start, len: 1 } = opts.refs[i] {
                let (_, fixed) = self
                    .rules
                    .proven_least_image_fixing(opts.leaves[start as usize]);
                if fixed != 0 {
                    fixing.resize(opts.len(), 0);
                    fixing[i] = fixed;
                }
            }
        }
        // Each option's difficulty, as `igsolve` weighs a move of Cram ("smaller components
        // first"): the sum over its parts of the square of each part's size (the rules'
        // measures: the elements of its sets and its numbers), so that the options whose
        // largest part is smallest come first, and of those, the ones of more parts.
        let mut measures = Vec::new();
        let mut difficulty = |i: usize| -> u64 {
            let OptRef::Leaves { start, len } = opts.refs[i] else {
                return 0;
            };
            (opts.leaf_slice(start, len).iter())
                .map(|&p| {
                    self.rules.measures(p, &mut measures);
                    let size = measures.iter().map(|m| m.unsigned_abs()).sum::<u64>();
                    size.saturating_mul(size)
                })
                .fold(0, u64::saturating_add)
        };
        let stats = &self.symmetry_stats;
        let mut keys: Vec<(std::cmp::Reverse<u32>, u64, usize)> = (left.iter())
            .map(|&i| {
                let promise = match fixing.get(i) {
                    Some(&fixed) if fixed != 0 => stats.promise(fixed),
                    _ => 0,
                };
                (std::cmp::Reverse(promise), difficulty(i), i)
            })
            .collect();
        // Ties by the options' positions, not by where the rules list them: two ways of
        // writing one game's moves search alike.
        let leaves = |i: usize| match opts.refs[i] {
            OptRef::Leaves { start, len } => opts.leaf_slice(start, len),
            _ => &[],
        };
        keys.sort_unstable_by(|a, b| {
            (a.0, a.1)
                .cmp(&(b.0, b.1))
                .then_with(|| leaves(a.2).cmp(leaves(b.2)))
                .then(a.2.cmp(&b.2))
        });
        for (slot, (_, _, i)) in left.iter_mut().zip(keys) {
            *slot = i;
        }
        fixing
    }

    /// Removes from `left` the first option with value `v`; whether there was one. An
    /// option that a symmetry fixes (`fixing`) asked for value 0 counts toward that
    /// symmetry's promise.
    fn take_option(
        &mut self,
        opts: &Options<Pos<R>>,
        left: &mut Vec<usize>,
        fixing: &[u64],
        v: u32,
        depth: usize,
    ) -> Result<bool, GiveUp> {
        for at in 0..left.len() {
            let found = self.option_has(opts, left[at], v, depth)?;
            match fixing.get(left[at]) {
                Some(&fixed) if fixed != 0 && v == 0 => self.symmetry_stats.record(fixed, found),
                _ => {}
            }
            if found {
                left.remove(at);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether option `i` has value `v`: a sum's value is that of its last part whose
    /// value is not known, against `v` and the others' values.
    fn option_has(
        &mut self,
        opts: &Options<Pos<R>>,
        i: usize,
        v: u32,
        depth: usize,
    ) -> Result<bool, GiveUp> {
        match opts.refs[i] {
            OptRef::End => Ok(v == 0),
            OptRef::Leaves { start, len: 1 } => self.has(opts.leaves[start as usize], v, depth + 1),
            OptRef::Leaves { start, len } => {
                let (last, others) = self.last_and_others(opts.leaf_slice(start, len), depth)?;
                self.has(last, v ^ others, depth + 1)
            }
            OptRef::Expr(_) => Err(GiveUp),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Potential, Values};
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn set(values: Values) -> BTreeSet<u32> {
        (0..128).filter(|&v| values.has(v)).collect()
    }

    proptest! {
        /// Each operation on sets of values against the same on a `BTreeSet`.
        #[test]
        fn values_are_sets(bits in any::<u128>(), other in any::<u128>(), x in 0u32..160, n in 0usize..140) {
            let (a, b) = (Values(bits), Values(other));
            let (sa, sb) = (set(a), set(b));
            prop_assert_eq!(set(a.inter(b)), &sa & &sb);
            prop_assert_eq!(set(a.minus(b)), &sa - &sb);
            let largest = sa.last().copied();
            let mut without = sa.clone();
            largest.map(|v| without.remove(&v));
            prop_assert_eq!(set(a.without_largest()), without);
            let up_to: BTreeSet<u32> = largest.map_or(BTreeSet::new(), |v| (0..=v).collect());
            prop_assert_eq!(set(a.up_to_largest()), up_to);
            prop_assert_eq!(a.least(), sa.first().copied());
            prop_assert_eq!(a.is_empty(), sa.is_empty());
            match a.nim_added(x) {
                Some(added) => prop_assert_eq!(set(added), sa.iter().map(|v| v ^ x).collect()),
                None => prop_assert!(x >= 128),
            }
            match Values::below(n) {
                Some(below) => prop_assert_eq!(set(below), (0..n as u32).collect()),
                None => prop_assert!(n > 128),
            }
            match Values::single(x) {
                Some(single) => prop_assert_eq!(set(single), BTreeSet::from([x])),
                None => prop_assert!(x >= 128),
            }
        }

        /// Taking one value out per option, the option's own or else the largest, leaves
        /// the mex of the options' values (the rule `in_set_of` is built on).
        #[test]
        fn one_value_per_option_leaves_the_mex(options in prop::collection::vec(0u32..12, 0..10)) {
            let mut potential = Potential(Values::below(options.len() + 1).expect("few options"));
            for &v in &options {
                potential.remove(v);
            }
            let mex = (0..).find(|v| !options.contains(v)).expect("a value is free");
            prop_assert_eq!(set(potential.0), BTreeSet::from([mex]));
        }
    }
}
