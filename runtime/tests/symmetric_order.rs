//! Searches try first the options that a symmetry fixes (`Rules::least_image_fixing`): in
//! two-heap Nim with the heaps' swap declared, the winning reply to every move is the
//! position the swap fixes (equal heaps), and a search that tries it first decides far
//! fewer positions than one that meets it in the order of the moves. Values are the same
//! either way; they are checked here against Nim's rule (P iff the heaps are equal).

use cgdl_runtime::{Options, Outcome, RuleError, Rules, Solver};
use proptest::prelude::*;

/// Two heaps of Nim, a move takes from one; with `swap`, the heaps' swap is a symmetry.
/// The moves come in the order that hides the winning reply: the heaps' largest removals
/// first, the second heap's before the first's.
struct TwoHeaps {
    swap: bool,
}

impl Rules for TwoHeaps {
    type Pos = (u32, u32);
    fn options(&self, (a, b): (u32, u32), out: &mut Options<(u32, u32)>) -> Result<(), RuleError> {
        for k in (0..b).rev() {
            out.position((a, k));
        }
        for k in (0..a).rev() {
            out.position((k, b));
        }
        Ok(())
    }
    fn least_image(&self, pos: (u32, u32)) -> (u32, u32) {
        self.least_image_fixing(pos).0
    }
    fn has_symmetries(&self) -> bool {
        self.swap
    }
    fn least_image_fixing(&self, (a, b): (u32, u32)) -> ((u32, u32), u64) {
        match self.swap {
            true => ((a.min(b), a.max(b)), u64::from(a == b)),
            false => ((a, b), 0),
        }
    }
}

/// The outcome of `(a, b)` and how many positions its solve decided.
fn solve(swap: bool, a: u32, b: u32) -> (Outcome, u64) {
    let rules = TwoHeaps { swap };
    let mut solver = Solver::new(&rules);
    let outcome = solver.outcome((a, b)).expect("Nim solves");
    (outcome, solver.positions_solved())
}

#[test]
fn the_fixed_option_is_tried_first() {
    let (ordered, ordered_work) = solve(true, 40, 60);
    let (plain, plain_work) = solve(false, 40, 60);
    assert_eq!(ordered, Outcome::N);
    assert_eq!(plain, Outcome::N);
    // Tried first, the reply (40, 40) is P, and so is the reply to each move after it:
    // the search decides the root and the 861 positions (j, k) with j <= k <= 40 (least
    // images) and no other. Moves in their own order first meet positions with a heap
    // above 40 (the larger heap's removals come first).
    assert_eq!(ordered_work, 1 + 41 * 42 / 2);
    assert!(plain_work > 1500, "{plain_work} positions");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// The order never changes an outcome.
    #[test]
    fn outcomes_are_nims(a in 0u32..30, b in 0u32..30) {
        let want = if a == b { Outcome::P } else { Outcome::N };
        prop_assert_eq!(solve(true, a, b).0, want);
        prop_assert_eq!(solve(false, a, b).0, want);
    }
}

/// The orbit helper that the interpreter and generated rules without bit maps use: the
/// least image, and the maps that fix the position itself.
#[test]
fn orbits_report_the_maps_that_fix_a_position() {
    use cgdl_runtime::rules::least_image_fixing;
    // Map 0 negates, map 1 is undefined at odd numbers and keeps even ones.
    let maps = |p: i64, k: usize| match k {
        0 => Some(-p),
        _ => (p % 2 == 0).then_some(p),
    };
    assert_eq!(least_image_fixing(3, 2, maps), (-3, 0));
    assert_eq!(least_image_fixing(4, 2, maps), (-4, 0b10));
    assert_eq!(least_image_fixing(0, 2, maps), (0, 0b11));
}
