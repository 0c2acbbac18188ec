//! A value found under a position's least image is kept under the position as its parent
//! listed it too (an alias), so that the next lookup of that form needs no image: the
//! values are those of the definition, and a search that meets each form again and again
//! finds few images.

use cgdl_runtime::{Mode, Options, RuleError, Rules, Solver};
use proptest::prelude::*;
use std::cell::Cell;

/// Two heaps of Nim, the heaps' swap declared; counts the least images asked for.
#[derive(Default)]
struct TwoHeaps {
    images: Cell<u64>,
}

impl Rules for TwoHeaps {
    type Pos = (u32, u32);
    fn options(&self, (a, b): (u32, u32), out: &mut Options<(u32, u32)>) -> Result<(), RuleError> {
        for k in 0..a {
            out.position((k, b));
        }
        for k in 0..b {
            out.position((a, k));
        }
        Ok(())
    }
    fn least_image(&self, pos: (u32, u32)) -> (u32, u32) {
        self.least_image_fixing(pos).0
    }
    fn has_symmetries(&self) -> bool {
        true
    }
    fn least_image_fixing(&self, (a, b): (u32, u32)) -> ((u32, u32), u64) {
        self.images.set(self.images.get() + 1);
        ((a.min(b), a.max(b)), u64::from(a == b))
    }
}

#[test]
fn a_form_met_again_needs_no_image() {
    let rules = TwoHeaps::default();
    let mut solver = Solver::new(&rules);
    assert_eq!(solver.grundy((60, 60)).expect("Nim solves"), 0);
    // The 61 · 62 / 2 least images (a <= b) are solved, each with a + b options: 113,460
    // lookups. A form of a position is looked up through its image the first time only.
    let solved = solver.positions_solved();
    assert_eq!(solved, 61 * 62 / 2);
    let images = rules.images.get();
    assert!(
        images <= 3 * solved,
        "{images} images for {solved} positions"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    /// One solver, asked in turn about positions in either order (its aliases from each
    /// query serve the next), gives Nim's Grundy values, and the remoteness and suspense
    /// of the exact search, which keeps no image and no alias.
    #[test]
    fn aliases_never_change_a_value(queries in proptest::collection::vec((0u32..24, 0u32..24), 1..6)) {
        let rules = TwoHeaps::default();
        let mut fast = Solver::new(&rules);
        let exact_rules = TwoHeaps::default();
        let mut exact = Solver::with_mode(&exact_rules, Mode::Exact);
        for &(a, b) in &queries {
            prop_assert_eq!(fast.grundy((a, b)).expect("solves"), a ^ b);
            prop_assert_eq!(
                fast.remoteness((a, b)).expect("solves"),
                exact.remoteness((a, b)).expect("solves")
            );
            prop_assert_eq!(
                fast.suspense((a, b)).expect("solves"),
                exact.suspense((a, b)).expect("solves")
            );
        }
    }
}
