//! Misère canonical forms of impartial games (J. H. Conway, *On Numbers and Games*, ch. 12;
//! A. N. Siegel, *Combinatorial Game Theory*, ch. V.1).
//!
//! Two impartial games `G` and `H` are *misère equal* when `G + X` and `H + X` have the
//! same misère outcome for every impartial game `X`. Every game is equal to exactly one
//! game in *simplest form*, and two games in simplest form are equal only when they are
//! the same tree: the simplest form is a canonical form, and comparing forms compares
//! games.
//!
//! The simplification (Grundy and Smith's rule, with Conway's proviso): let `H` have
//! options in simplest form, and `G` be `H` without one option `D`. If `D` has an option
//! equal to `G`, and (the proviso) `G` has an option or `H` is a misère N-position, then
//! `G = H`. Proof, for every `X` by induction: a move of `H + X` to `D + X` that wins
//! (`D + X` is P) leaves `G + X` an N-position, since `D + X` has the option `G + X`; every
//! other move of either is a move of the other, up to equal games; and where neither has a
//! move (`X` and `G` have none) the proviso gives the outcome. Conway proved that a game
//! where no option can be removed so is in simplest form.
//!
//! Forms are kept in a table ([`MisereForms`]) as sorted lists of their options' ids;
//! nim heaps are written `0`, `*`, `*2`, ..., every other form as the braces of its
//! options (`{*2, *3}`, `{0, *, {*2}}` ...).

use crate::expr::{Compound, Expr};
use crate::rules::{OptRef, Options, Rules};
use crate::solver::SolveError;
use rustc_hash::FxHashMap;

/// A misère canonical form: an index into [`MisereForms`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FormId(u32);

impl FormId {
    /// The game with no options (misère: the player to move wins).
    pub const ZERO: FormId = FormId(0);
}

/// One form: its options (sorted, distinct, each in simplest form) and what is known of it.
#[derive(Clone, Debug)]
struct Form {
    options: Vec<FormId>,
    /// Whether the player to move loses under misère play.
    misere_p: bool,
    /// The normal-play Grundy value (misère equal games have equal Grundy values).
    grundy: u32,
    /// `n` where the form is the nim heap `*n`.
    nim: Option<u32>,
    /// The birthday: one more than the largest of the options' (0 for `0`).
    birthday: u32,
}

/// A limit a computation of forms reached: forms made (with sums and simplifications
/// tried), or the memory limit of the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormLimit {
    /// More than this many forms, sums and simplifications.
    Work(u64),
    /// The process held more than this many bytes.
    Memory(u64),
}

impl From<FormLimit> for SolveError {
    fn from(limit: FormLimit) -> SolveError {
        match limit {
            FormLimit::Work(limit) => SolveError::TooManyPositions { limit },
            FormLimit::Memory(limit) => SolveError::OutOfMemory { limit },
        }
    }
}

/// The table of misère canonical forms: each form once, sums memoized.
pub struct MisereForms {
    forms: Vec<Form>,
    /// Forms, sums and simplifications computed so far, against `max_work`.
    work: u64,
    max_work: u64,
    max_memory: Option<u64>,
    index: FxHashMap<Vec<FormId>, FormId>,
    /// The simplest form of every option set simplified so far.
    simplified: FxHashMap<Vec<FormId>, FormId>,
    sums: FxHashMap<(FormId, FormId), FormId>,
}

impl Default for MisereForms {
    fn default() -> Self {
        MisereForms::new()
    }
}

impl MisereForms {
    /// A table holding `0` only.
    pub fn new() -> MisereForms {
        let zero = Form {
            options: Vec::new(),
            misere_p: false,
            grundy: 0,
            nim: Some(0),
            birthday: 0,
        };
        let mut index = FxHashMap::default();
        index.insert(Vec::new(), FormId::ZERO);
        MisereForms {
            forms: vec![zero],
            index,
            simplified: FxHashMap::default(),
            sums: FxHashMap::default(),
            work: 0,
            max_work: u64::MAX,
            max_memory: None,
        }
    }

    /// Limits the work (forms made, sums and simplifications computed) and the memory the
    /// process may hold; past either, a computation fails with [`FormLimit`].
    pub fn set_limits(&mut self, max_work: u64, max_memory: Option<u64>) {
        self.max_work = max_work;
        self.max_memory = max_memory;
    }

    /// A new value is asked: its allowance of work is whole again.
    pub fn start_value(&mut self) {
        self.work = 0;
    }

    /// Counts one unit of work against the limits (the memory measured every 65,536).
    fn spend(&mut self) -> Result<(), FormLimit> {
        self.work += 1;
        if self.work > self.max_work {
            return Err(FormLimit::Work(self.max_work));
        }
        if self.work & 0xFFFF == 0 {
            if let (Some(limit), Some(held)) = (self.max_memory, crate::memory::resident_bytes()) {
                if held > limit {
                    return Err(FormLimit::Memory(limit));
                }
            }
        }
        Ok(())
    }

    /// The options of a form, in simplest form.
    pub fn options(&self, g: FormId) -> &[FormId] {
        &self.forms[g.0 as usize].options
    }

    /// Whether the player to move from `g` loses under misère play.
    pub fn is_misere_p(&self, g: FormId) -> bool {
        self.forms[g.0 as usize].misere_p
    }

    /// The nim heap `*n`.
    pub fn nim(&mut self, n: u32) -> Result<FormId, FormLimit> {
        let mut heaps = vec![FormId::ZERO];
        for _ in 1..=n {
            let next = self.simplest(heaps.clone())?;
            heaps.push(next);
        }
        Ok(heaps[n as usize])
    }

    /// The simplest form of the game whose options are `options` (each in simplest form).
    pub fn simplest(&mut self, mut options: Vec<FormId>) -> Result<FormId, FormLimit> {
        options.sort_unstable();
        options.dedup();
        if let Some(&g) = self.index.get(&options) {
            return Ok(g);
        }
        if let Some(&g) = self.simplified.get(&options) {
            return Ok(g);
        }
        self.spend()?;
        let g = match self.reduce(&options)? {
            Some(g) => g,
            None => self.intern(options.clone()),
        };
        self.simplified.insert(options, g);
        Ok(g)
    }

    /// `options` without one option `D` that has an option equal to the rest (the proviso
    /// holding), simplified: the form of the game `options` gives, where one is removable.
    fn reduce(&mut self, options: &[FormId]) -> Result<Option<FormId>, FormLimit> {
        let misere_n = options.iter().any(|&o| self.is_misere_p(o));
        for i in 0..options.len() {
            let d = options[i];
            if self.options(d).is_empty() {
                continue;
            }
            let rest: Vec<FormId> = (options.iter().enumerate())
                .filter(|&(j, _)| j != i)
                .map(|(_, &o)| o)
                .collect();
            // The proviso: removing the only option leaves 0, an N-position.
            if rest.is_empty() && !misere_n {
                continue;
            }
            // Equal games have equal Grundy values and misère outcomes: only an option of
            // `D` that agrees with the rest on both can equal it, and only then is the rest
            // simplified (which can be long).
            let grundy = mex(rest.iter().map(|&o| self.forms[o.0 as usize].grundy));
            let rest_p = !rest.is_empty() && rest.iter().all(|&o| !self.is_misere_p(o));
            let candidates = self.options(d).iter().any(|&e| {
                let f = &self.forms[e.0 as usize];
                f.grundy == grundy && f.misere_p == rest_p
            });
            if !candidates {
                continue;
            }
            let g = self.simplest(rest)?;
            if self.options(d).contains(&g) {
                return Ok(Some(g));
            }
        }
        Ok(None)
    }

    fn intern(&mut self, options: Vec<FormId>) -> FormId {
        let misere_p = !options.is_empty() && options.iter().all(|&o| !self.is_misere_p(o));
        let grundy = mex(options.iter().map(|&o| self.forms[o.0 as usize].grundy));
        // `*n`'s options are `0, *, ..., *(n-1)`.
        let nim = (options.iter().enumerate())
            .all(|(k, &o)| self.forms[o.0 as usize].nim == Some(k as u32))
            .then_some(options.len() as u32);
        let birthday = (options.iter())
            .map(|&o| self.forms[o.0 as usize].birthday + 1)
            .max()
            .unwrap_or(0);
        let id = FormId(self.forms.len() as u32);
        self.forms.push(Form {
            options: options.clone(),
            misere_p,
            grundy,
            nim,
            birthday,
        });
        self.index.insert(options, id);
        id
    }

    /// The simplest form of `a + b`.
    pub fn add(&mut self, a: FormId, b: FormId) -> Result<FormId, FormLimit> {
        if a == FormId::ZERO {
            return Ok(b);
        }
        if b == FormId::ZERO {
            return Ok(a);
        }
        let key = (a.min(b), a.max(b));
        if let Some(&g) = self.sums.get(&key) {
            return Ok(g);
        }
        self.spend()?;
        let mut options = Vec::new();
        for k in 0..self.options(a).len() {
            let a1 = self.options(a)[k];
            options.push(self.add(a1, b)?);
        }
        for k in 0..self.options(b).len() {
            let b1 = self.options(b)[k];
            options.push(self.add(a, b1)?);
        }
        let g = self.simplest(options)?;
        self.sums.insert(key, g);
        Ok(g)
    }

    /// The birthday of a form.
    pub fn birthday(&self, g: FormId) -> u32 {
        self.forms[g.0 as usize].birthday
    }

    /// The form as written: `0`, `*`, `*n` for nim heaps, else `{...}` of its options; a
    /// form met more than once inside is named (`g1`, `g2`, ...) and written once after
    /// `where`: `{*, g1, {*2, g1}} where g1 = {*2, *3}`. Options are in a structural order
    /// (birthday, then the number of options, then the options'), so that equal games are
    /// written alike wherever they were found.
    pub fn display(&self, g: FormId) -> String {
        // Every form below `g` that is no nim heap, with how many forms have it as option.
        let mut parents: FxHashMap<FormId, u32> = FxHashMap::default();
        let mut stack = vec![g];
        let mut seen = rustc_hash::FxHashSet::default();
        seen.insert(g);
        while let Some(f) = stack.pop() {
            for &o in self.options(f) {
                if self.forms[o.0 as usize].nim.is_some() {
                    continue;
                }
                *parents.entry(o).or_default() += 1;
                if seen.insert(o) {
                    stack.push(o);
                }
            }
        }
        let rank = self.structural_ranks(seen.iter().copied());
        let mut named: Vec<FormId> = (parents.iter())
            .filter(|&(_, &n)| n > 1)
            .map(|(&f, _)| f)
            .collect();
        named.sort_by_key(|f| rank[f]);
        let names: FxHashMap<FormId, String> = (named.iter().enumerate())
            .map(|(k, &f)| (f, format!("g{}", k + 1)))
            .collect();
        let mut text = self.write(g, &rank, &names, true);
        if !named.is_empty() {
            let defs: Vec<String> = (named.iter())
                .map(|&f| format!("{} = {}", names[&f], self.write(f, &rank, &names, true)))
                .collect();
            text = format!("{text} where {}", defs.join(", "));
        }
        text
    }

    fn write(
        &self,
        g: FormId,
        rank: &FxHashMap<FormId, usize>,
        names: &FxHashMap<FormId, String>,
        top: bool,
    ) -> String {
        let form = &self.forms[g.0 as usize];
        match (form.nim, names.get(&g)) {
            (Some(0), _) => "0".to_string(),
            (Some(1), _) => "*".to_string(),
            (Some(n), _) => format!("*{n}"),
            (None, Some(name)) if !top => name.clone(),
            (None, _) => {
                let mut options = form.options.clone();
                options.sort_by_key(|o| self.order_key(*o, rank));
                let parts: Vec<String> = (options.iter())
                    .map(|&o| self.write(o, rank, names, false))
                    .collect();
                format!("{{{}}}", parts.join(", "))
            }
        }
    }

    /// Where a form comes in the structural order: nim heaps by size, before the rest.
    fn order_key(&self, g: FormId, rank: &FxHashMap<FormId, usize>) -> OrderKey {
        let f = &self.forms[g.0 as usize];
        match f.nim {
            Some(n) => (0, n, 0),
            None => (1, 0, rank.get(&g).copied().unwrap_or(0)),
        }
    }

    /// A rank for each of `forms` (closed under options, nim heaps aside) in the structural
    /// order: by birthday, then number of options, then the options' ranks, smallest first.
    fn structural_ranks(&self, forms: impl Iterator<Item = FormId>) -> FxHashMap<FormId, usize> {
        let mut by_birthday: Vec<FormId> = forms.collect();
        by_birthday.sort_by_key(|&f| self.birthday(f));
        let mut rank: FxHashMap<FormId, usize> = FxHashMap::default();
        let mut at = 0;
        while at < by_birthday.len() {
            let day = self.birthday(by_birthday[at]);
            let end = (at..by_birthday.len())
                .find(|&k| self.birthday(by_birthday[k]) != day)
                .unwrap_or(by_birthday.len());
            // Options are born earlier: their ranks are known.
            let mut keyed: Vec<(usize, Vec<OrderKey>, FormId)> = by_birthday[at..end]
                .iter()
                .map(|&f| {
                    let mut key: Vec<OrderKey> = self
                        .options(f)
                        .iter()
                        .map(|&o| self.order_key(o, &rank))
                        .collect();
                    key.sort_unstable();
                    (key.len(), key, f)
                })
                .collect();
            keyed.sort_unstable();
            for (_, _, f) in keyed {
                let next = rank.len();
                rank.insert(f, next);
            }
            at = end;
        }
        rank
    }
}

/// A form's place in the structural order: nim heaps first by size, then the others by rank.
type OrderKey = (u32, u32, usize);

fn mex(values: impl Iterator<Item = u32>) -> u32 {
    let mut seen: Vec<u32> = values.collect();
    seen.sort_unstable();
    seen.dedup();
    seen.iter()
        .enumerate()
        .find(|&(k, &v)| k as u32 != v)
        .map_or(seen.len() as u32, |(k, _)| k as u32)
}

/// Misère canonical forms of the positions of a universe of impartial games, memoized per
/// position.
pub struct MisereFormSolver<'r, R: Rules> {
    rules: &'r R,
    forms: MisereForms,
    memo: FxHashMap<R::Pos, FormId>,
    /// Positions whose form is being found, in move order (a repeat is a cycle).
    path: Vec<R::Pos>,
    max_positions: u64,
}

impl<'r, R: Rules> MisereFormSolver<'r, R> {
    /// A solver that finds at most `max_positions` positions' forms, and makes at most as
    /// many forms, sums and simplifications, within `max_memory`.
    pub fn new(rules: &'r R, max_positions: u64, max_memory: Option<u64>) -> Self {
        let mut forms = MisereForms::new();
        forms.set_limits(max_positions, max_memory);
        MisereFormSolver {
            rules,
            forms,
            memo: FxHashMap::default(),
            path: Vec::new(),
            max_positions,
        }
    }

    /// The table of forms.
    pub fn forms(&mut self) -> &mut MisereForms {
        &mut self.forms
    }

    /// The misère canonical form of a position expression: `end` is 0, a sum the sum of
    /// its parts'.
    pub fn value(&mut self, expr: &Expr<R::Pos>) -> Result<FormId, SolveError> {
        match expr {
            Expr::End => Ok(FormId::ZERO),
            Expr::Pos(p) => self.position(*p),
            Expr::Compound(Compound::Sum, parts) => {
                let mut total = FormId::ZERO;
                for part in parts.iter() {
                    let g = self.value(part)?;
                    total = self.forms.add(total, g)?;
                }
                Ok(total)
            }
            Expr::Compound(kind, _) => {
                Err(SolveError::Rule(crate::rules::RuleError::new(format!(
                    "misère canonical forms are of sums; `{}` is another compound",
                    kind.name()
                ))))
            }
        }
    }

    /// The misère canonical form of one position.
    pub fn position(&mut self, pos: R::Pos) -> Result<FormId, SolveError> {
        if let Some(&g) = self.memo.get(&pos) {
            return Ok(g);
        }
        if self.path.contains(&pos) {
            let at = self.path.iter().position(|&p| p == pos).unwrap_or(0);
            let mut positions: Vec<String> =
                self.path[at..].iter().map(|&p| self.show(p)).collect();
            positions.push(self.show(pos));
            return Err(SolveError::Cycle { positions });
        }
        if self.memo.len() as u64 + self.path.len() as u64 >= self.max_positions {
            return Err(SolveError::TooManyPositions {
                limit: self.max_positions,
            });
        }
        self.path.push(pos);
        let result = crate::partizan::deep(|| self.solve(pos));
        self.path.pop();
        let g = result?;
        self.memo.insert(pos, g);
        Ok(g)
    }

    fn show(&self, pos: R::Pos) -> String {
        let mut text = String::new();
        let _ = self.rules.write_pos(pos, &mut text);
        text
    }

    fn solve(&mut self, pos: R::Pos) -> Result<FormId, SolveError> {
        let mut out = Options::default();
        self.rules
            .options(pos, &mut out)
            .map_err(SolveError::Rule)?;
        let mut values = Vec::with_capacity(out.refs.len());
        for i in 0..out.refs.len() {
            let g = match out.refs[i] {
                OptRef::End => FormId::ZERO,
                OptRef::Leaves { start, len } => {
                    let mut total = FormId::ZERO;
                    for &p in out.leaf_slice(start, len) {
                        let g = self.position(p)?;
                        total = self.forms.add(total, g)?;
                    }
                    total
                }
                OptRef::Expr(_) => self.value(&out.get(i))?,
            };
            values.push(g);
        }
        Ok(self.forms.simplest(values)?)
    }
}
