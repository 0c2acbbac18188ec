//! Canonical forms on several threads: every thread computes the form of the same position,
//! each with its own store of forms and taking the options in its own order, and all share
//! the forms of the positions they finish.
//!
//! A form passes between threads as a [`Portable`]: its options as forms of their own,
//! apart from any store. A thread whose memo does not know a position looks it up among the
//! shared forms and, where one is there, interns it in its own store (a canonical form's
//! options are canonical: no comparison is made). A shared form is the one the thread would
//! have computed itself, so the answer is a single thread's whatever the timing; only the
//! work each thread does depends on it. A form is shared only when its position's every
//! option was finished, so no cycle and no rule error is hidden by it: the thread that
//! would meet one meets it on its own path.

use super::dyadic::Dyadic;
use super::forms::{Forms, GameId};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// A canonical form apart from any store.
#[derive(Debug)]
pub struct Portable {
    left: Box<[Arc<Portable>]>,
    right: Box<[Arc<Portable>]>,
    /// Its value where it is a number (its options then stay empty: the store makes them).
    number: Option<Dyadic>,
}

/// The forms the threads of one computation share, by position (a least image where the
/// solver keeps least images).
pub struct SharedForms<P> {
    forms: dashmap::DashMap<P, Arc<Portable>, rustc_hash::FxBuildHasher>,
}

impl<P: Copy + Eq + std::hash::Hash> Default for SharedForms<P> {
    fn default() -> Self {
        SharedForms {
            forms: dashmap::DashMap::with_hasher_and_shard_amount(Default::default(), 256),
        }
    }
}

impl<P: Copy + Eq + std::hash::Hash> SharedForms<P> {
    /// The shared form of `p`, if a thread finished it.
    pub fn get(&self, p: P) -> Option<Arc<Portable>> {
        self.forms.get(&p).map(|f| f.clone())
    }

    /// Shares the form of `p`.
    pub fn put(&self, p: P, form: Arc<Portable>) {
        self.forms.entry(p).or_insert(form);
    }
}

/// What a computation of forms on several threads needs of the threads' keeper (the solver
/// that owns them): waking and recalling the helpers.
pub trait FormHelpers<P> {
    /// The forms the threads share.
    fn shared(&self) -> &SharedForms<P>;
    /// Wakes the helpers to compute the form of `root` beside the asking thread.
    fn wake(&self, root: P);
    /// Stops the helpers and waits until each has left; the asking thread calls it.
    fn recall(&self);
    /// Whether a helper is to stop.
    fn stopped(&self) -> bool;
    /// A helper counts `n` more positions it finished (past the position limit, every
    /// thread's count in, the helpers stop).
    fn count_helped(&self, n: u64);
    /// The positions the helpers counted since the last call, taken by the asking thread,
    /// whose count is `solved` before them.
    fn take_helped(&self, solved: u64) -> u64;
    /// Positions the asking thread finishes alone before it wakes the helpers (a shorter
    /// computation is done before they would help).
    fn wake_after(&self) -> u64;
}

/// One thread's part: its conversions between its store's ids and portable forms.
#[derive(Default)]
pub(super) struct Exchange {
    exported: FxHashMap<GameId, Arc<Portable>>,
    /// Keyed by the portable form's address; the form is held, so the address is not reused.
    imported: FxHashMap<usize, (Arc<Portable>, GameId)>,
}

impl Exchange {
    /// `g` as a portable form.
    pub(super) fn export(&mut self, forms: &Forms, g: GameId) -> Arc<Portable> {
        if let Some(f) = self.exported.get(&g) {
            return f.clone();
        }
        let form = match forms.as_number(g) {
            Some(x) => Portable {
                left: Box::new([]),
                right: Box::new([]),
                number: Some(x),
            },
            None => {
                let left = forms.left(g).to_vec();
                let right = forms.right(g).to_vec();
                // Forms as deep as the game is long: the stack grows as the search's does.
                super::deep(|| Portable {
                    left: left.into_iter().map(|o| self.export(forms, o)).collect(),
                    right: right.into_iter().map(|o| self.export(forms, o)).collect(),
                    number: None,
                })
            }
        };
        let form = Arc::new(form);
        self.exported.insert(g, form.clone());
        form
    }

    /// A portable form in `forms`.
    pub(super) fn import(&mut self, forms: &mut Forms, form: &Arc<Portable>) -> GameId {
        let address = Arc::as_ptr(form) as usize;
        if let Some((_, g)) = self.imported.get(&address) {
            return *g;
        }
        let g = match form.number {
            Some(x) => forms.number(x),
            None => super::deep(|| {
                let left = form.left.iter().map(|o| self.import(forms, o)).collect();
                let right = form.right.iter().map(|o| self.import(forms, o)).collect();
                forms.intern_canonical(left, right)
            }),
        };
        self.imported.insert(address, (form.clone(), g));
        self.exported.entry(g).or_insert_with(|| form.clone());
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A form exported from one store and imported into another prints the same, and
    /// imported twice is one id.
    #[test]
    fn forms_pass_between_stores() {
        let mut a = Forms::new();
        let up = a.up();
        let half = a.number(Dyadic::new(1, 1));
        let star2 = a.star(2);
        let g = a.canonical(vec![up, half], vec![star2]);
        let h = a.canonical(vec![g, GameId::ZERO], vec![half]);
        let mut b = Forms::new();
        b.star(3);
        let (mut out, mut into) = (Exchange::default(), Exchange::default());
        for x in [up, half, star2, g, h] {
            let portable = out.export(&a, x);
            let y = into.import(&mut b, &portable);
            assert_eq!(a.display(x), b.display(y));
            assert_eq!(into.import(&mut b, &portable), y);
            // A form made in `b` by its options is the imported one.
            let again = b.canonical(b.left(y).to_vec(), b.right(y).to_vec());
            assert_eq!(again, y);
        }
    }
}
