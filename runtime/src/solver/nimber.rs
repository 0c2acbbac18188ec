//! Nimber search: the Grundy value of a position without the exact value of every
//! position below it (J. Lemoine, S. Viennot, *Nimbers are inevitable*, TCS 462 (2012),
//! as P. Beling improves it in `igsolve`'s `lvb` method).
//!
//! `has(p, k)` decides whether `p`'s Grundy value is `k`: it is not when some option has
//! value `k` (one witness is enough, as in an outcome search), and it is when for every
//! `j < k` some option has value `j` and no option has value `k`. Each option found with
//! value `j` serves one `j` only, options already known serve without a search, and a
//! position has no value above its number of options. The value of `p` is the least `v`
//! for which no remaining option has value `v`. Every exact value found is kept in the
//! Grundy memo (under the position's least image), which the ordinary search shares; a
//! search that meets a rule error, a position it is still deciding (a loopy game), a
//! compound option or the depth limit gives up, and the ordinary search, which reports
//! such things, takes over.

use super::*;

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

impl<R: Rules> Solver<'_, R> {
    /// The Grundy value of `p` by nimber search, or `None` when the search gave up. Used
    /// for a Grundy value in `Mode::Fast` where no kernel answers (see `Solver::run`).
    pub(super) fn nimber_search(&mut self, p: Pos<R>) -> Option<u32> {
        self.nimber(p, 0).ok()
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
                .try_fold(0, |x, &q| {
                    Some(x ^ self.known_grundy(self.rules.least_image(q))?)
                }),
            OptRef::Expr(_) => None,
        }
    }

    /// The options of `p` (a least image, not yet known), having counted it as solved and
    /// noted it as being decided (a position met again while it is being decided is a
    /// loop: the search gives up).
    fn open(&mut self, p: Pos<R>, depth: usize) -> Result<Box<Buffers<Pos<R>>>, GiveUp> {
        if depth >= NIMBER_DEPTH
            || self.budget.solved >= self.budget.max_positions
            || self.searching.contains(&p)
        {
            return Err(GiveUp);
        }
        self.budget.solved += 1;
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
    /// (a position left undecided takes no memo entry).
    fn close(&mut self, p: Pos<R>, bufs: Box<Buffers<Pos<R>>>, value: Option<u32>) {
        self.searching.remove(&p);
        if let Some(v) = value {
            self.store(self.grundy_task(p), v);
        }
        self.recycle(bufs);
    }

    fn grundy_task(&self, p: Pos<R>) -> Task<Pos<R>> {
        Task {
            kind: ValueKind::Grundy,
            node: Node::Leaf(p),
        }
    }

    /// The Grundy value of `p`.
    fn nimber(&mut self, p: Pos<R>, depth: usize) -> Result<u32, GiveUp> {
        let p = self.rules.least_image(p);
        if let Some(v) = self.known_grundy(p) {
            return Ok(v);
        }
        let bufs = self.open(p, depth)?;
        let found = self.nimber_of(&bufs.opts, depth);
        self.close(p, bufs, found.as_ref().ok().copied());
        found
    }

    fn nimber_of(&mut self, opts: &Options<Pos<R>>, depth: usize) -> Result<u32, GiveUp> {
        let (mut seen, mut left) = (Seen::default(), Vec::new());
        for i in 0..opts.len() {
            match self.known_option(opts, i) {
                Some(v) => seen.add(v),
                None => left.push(i),
            }
        }
        let fixing = self.order(opts, &mut left);
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
        let p = self.rules.least_image(p);
        if let Some(v) = self.known_grundy(p) {
            return Ok(v == k);
        }
        let bit = 1u64.checked_shl(k).unwrap_or(0);
        if self.not_values.get(&p).is_some_and(|&not| not & bit != 0) {
            return Ok(false);
        }
        let bufs = self.open(p, depth)?;
        let found = self.has_of(&bufs.opts, k, depth);
        let value = match found {
            Ok((_, value)) => value,
            Err(_) => None,
        };
        self.close(p, bufs, value);
        match (&found, value) {
            (Ok((false, None)), _) if bit != 0 => *self.not_values.entry(p).or_default() |= bit,
            (_, Some(_)) => {
                self.not_values.remove(&p);
            }
            _ => {}
        }
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
    /// sums of more parts (smaller ones). Returns each option's fixing symmetries (empty
    /// where none is fixed).
    fn order(&self, opts: &Options<Pos<R>>, left: &mut [usize]) -> Vec<u64> {
        let mut fixing = Vec::new();
        let asked = if self.symmetric { &left[..] } else { &[] };
        for &i in asked {
            if let OptRef::Leaves { start, len: 1 } = opts.refs[i] {
                let (_, fixed) = self.rules.least_image_fixing(opts.leaves[start as usize]);
                if fixed != 0 {
                    fixing.resize(opts.len(), 0);
                    fixing[i] = fixed;
                }
            }
        }
        let stats = &self.symmetry_stats;
        left.sort_by_key(|&i| {
            let promise = match fixing.get(i) {
                Some(&fixed) if fixed != 0 => stats.promise(fixed),
                _ => 0,
            };
            let parts = match opts.refs[i] {
                OptRef::Leaves { len, .. } => len,
                _ => 0,
            };
            (std::cmp::Reverse(promise), std::cmp::Reverse(parts))
        });
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
                let leaves = opts.leaf_slice(start, len);
                let last = (leaves
                    .iter()
                    .rposition(|&q| self.known_grundy(self.rules.least_image(q)).is_none()))
                .unwrap_or(leaves.len() - 1);
                let mut others = 0;
                for (at, &q) in leaves.iter().enumerate() {
                    if at != last {
                        others ^= self.nimber(q, depth + 1)?;
                    }
                }
                self.has(leaves[last], v ^ others, depth + 1)
            }
            OptRef::Expr(_) => Err(GiveUp),
        }
    }
}
