//! Loony endgames: the closed form against the definition, exhaustively.

use cgdl_runtime::loony::{analyse, Component, Endgame, ExactSolver, Method};

fn kinds() -> Vec<Component> {
    let mut k: Vec<Component> = (3..=8).map(Component::Chain).collect();
    k.extend([4, 6, 8, 10].map(Component::Loop));
    k
}

/// Calls `f` on every count vector over `n` kinds with total at most `max`.
fn for_each_multiset(n: usize, max: u64, f: &mut impl FnMut(&[u64])) {
    fn go(i: usize, left: u64, counts: &mut Vec<u64>, f: &mut impl FnMut(&[u64])) {
        if i == counts.len() {
            f(counts);
            return;
        }
        for k in 0..=left {
            counts[i] = k;
            go(i + 1, left - k, counts, f);
        }
        counts[i] = 0;
    }
    let mut counts = vec![0; n];
    go(0, max, &mut counts, f);
}

fn endgame(kinds: &[Component], counts: &[u64]) -> Endgame {
    let mut g = Endgame::new();
    for (&c, &k) in kinds.iter().zip(counts) {
        g.add(c, k).expect("valid component");
    }
    g
}

#[test]
fn closed_form_equals_definition_on_every_multiset_up_to_10() {
    let kinds = kinds();
    let whole = endgame(&kinds, &[10; 10]);
    let mut exact = ExactSolver::new(&whole, usize::MAX);
    let mut checked = 0u64;
    let mut mismatches = Vec::new();
    for_each_multiset(kinds.len(), 10, &mut |counts| {
        let g = endgame(&kinds, counts);
        let v = exact.value(&g).expect("within bounds");
        if g.value() != v && mismatches.len() < 10 {
            mismatches.push(format!("{g}: closed {} exact {v}", g.value()));
        }
        // Facts of Buzzard & Ciere (2014): cv <= v <= size, v ≡ size (mod 2), cv >= 2 => v = cv.
        let cv = g.controlled_value();
        assert!(cv <= v && v <= g.size(), "{g}: cv {cv} v {v}");
        assert_eq!((v - g.size()).rem_euclid(2), 0, "{g}");
        if cv >= 2 {
            assert_eq!(v, cv, "{g}");
        }
        // Allcock's opening attains the value.
        if let Some(x) = g.opening() {
            let rest = exact.value(&g.without(x)).expect("within bounds");
            assert_eq!(x.net(rest), v, "{g}: opening {x} does not attain {v}");
        }
        checked += 1;
    });
    assert!(mismatches.is_empty(), "{mismatches:#?}");
    // C(20, 10) multisets of at most 10 components over 10 kinds.
    assert_eq!(checked, 184_756);
}

#[test]
fn worked_values_both_ways() {
    for (text, want) in [("3 3 4 L6", 2), ("3 4 L4x100 L6x100", 3), ("L6 L6 L6", 2)] {
        let g: Endgame = text.parse().expect("valid");
        assert_eq!(g.value(), want, "{text} closed form");
        let a = analyse(&g, Method::Exact(10_000_000)).expect("feasible");
        assert_eq!(a.value, want, "{text} exact");
    }
}

#[test]
fn the_line_of_play_realises_the_value() {
    let kinds = kinds();
    for_each_multiset(kinds.len(), 5, &mut |counts| {
        let g = endgame(&kinds, counts);
        let a = analyse(&g, Method::ClosedForm).expect("closed form");
        let (boxes_a, boxes_b) = a
            .line
            .iter()
            .fold((0, 0), |(x, y), s| (x + s.boxes.0, y + s.boxes.1));
        // A is the controller at the start.
        assert_eq!(boxes_a - boxes_b, a.value, "{g}");
        assert_eq!((boxes_a, boxes_b), a.split, "{g}");
        assert_eq!(a.line.len() as u64, g.component_count());
    });
}

#[test]
fn exact_recursion_refuses_infeasible_inputs() {
    let g: Endgame = "3x40 4x40 5x40 6x40 7x40 L4x40 L6x40 L8x40"
        .parse()
        .expect("valid");
    assert!(ExactSolver::state_count(&g) > 1e12);
    let err = analyse(&g, Method::Exact(100_000)).unwrap_err();
    assert!(err.to_string().contains("use the closed form"), "{err}");
}
