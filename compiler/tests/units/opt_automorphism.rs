//! Tests of `cgdl_compiler::opt::automorphism`.

use cgdl_compiler::opt::automorphism::*;
use proptest::prelude::*;

/// Every permutation of `0..n`.
fn permutations(n: usize) -> Vec<Perm> {
    let mut out = Vec::new();
    let mut p: Perm = (0..n as u32).collect();
    fn heap(k: usize, p: &mut Perm, out: &mut Vec<Perm>) {
        if k <= 1 {
            out.push(p.clone());
            return;
        }
        for i in 0..k {
            heap(k - 1, p, out);
            let j = if k.is_multiple_of(2) { i } else { 0 };
            p.swap(j, k - 1);
        }
    }
    heap(n, &mut p, &mut out);
    out
}

fn graph(n: usize, colours: &[u64], edges: &[(u32, u32, u64)]) -> Graph {
    let mut g = Graph::new();
    for v in 0..n {
        g.vertex(colours[v % colours.len()]);
    }
    for &(a, b, c) in edges {
        g.edge(a % n as u32, b % n as u32, c);
    }
    g
}

fn sorted(mut perms: Vec<Perm>) -> Vec<Perm> {
    perms.sort();
    perms
}

/// The cycle 0-1-2-3, undirected, every vertex and edge of colour 0.
fn square() -> Graph {
    let mut g = Graph::new();
    for _ in 0..4 {
        g.vertex(0);
    }
    for i in 0..4u32 {
        g.edge(i, (i + 1) % 4, 0);
        g.edge((i + 1) % 4, i, 0);
    }
    g
}

#[test]
fn a_square_has_eight_symmetries() {
    let g = square();
    let (generators, complete) = g.automorphisms();
    assert!(complete);
    assert_eq!(group(4, &generators, 100).expect("small").len(), 8);
}

#[test]
fn twins_are_found_without_a_search_of_their_own() {
    // A square, and 5 vertices of one colour that each point at vertex 0 alone: the
    // square's symmetries fixing 0 (2) times the twins' permutations (5!). The search
    // alone individualises the twins one by one, a level of the tree each.
    let mut g = square();
    for _ in 0..5 {
        let t = g.vertex(7);
        g.edge(t, 0, 3);
    }
    let (generators, complete) = g.automorphisms();
    assert!(complete);
    assert!(generators.iter().all(|p| g.preserves(p)));
    assert_eq!(group(9, &generators, 1000).expect("small").len(), 2 * 120);
    let (searched, _) = g.search();
    assert_eq!(
        sorted(group(9, &generators, 1000).expect("small")),
        sorted(group(9, &searched, 1000).expect("small"))
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]
    /// The group found equals every permutation that preserves the graph, found by
    /// brute force (random graphs of few edges have many twins).
    #[test]
    fn the_group_is_every_automorphism(
        n in 1usize..=7,
        colours in prop::collection::vec(0u64..3, 1..=3),
        edges in prop::collection::vec((0u32..7, 0u32..7, 0u64..2), 0..14),
    ) {
        let g = graph(n, &colours, &edges);
        let brute: Vec<Perm> = permutations(n).into_iter().filter(|p| g.preserves(p)).collect();
        let (generators, complete) = g.automorphisms();
        prop_assert!(complete);
        for p in &generators {
            prop_assert!(g.preserves(p));
        }
        let found = group(n, &generators, 10_000).expect("small");
        prop_assert_eq!(sorted(found), sorted(brute));
    }
}

#[test]
fn a_search_past_its_work_limit_returns_automorphisms_it_found() {
    // 60 disjoint 10-cycles: refinement splits nothing, and the search individualises a
    // vertex of a cycle per level, each level a refinement of the whole graph. Without the
    // work limit the search finds generators of the whole group (D10 wreath S60) after
    // about ten times the work the limit allows (5 s here, unoptimised).
    let mut g = Graph::new();
    let (cycles, length) = (60u32, 10u32);
    for _ in 0..cycles * length {
        g.vertex(0);
    }
    for c in 0..cycles {
        for i in 0..length {
            let (a, b) = (c * length + i, c * length + (i + 1) % length);
            g.edge(a, b, 0);
            g.edge(b, a, 0);
        }
    }
    let (generators, complete) = g.automorphisms();
    assert!(!complete, "the group was searched to the end");
    assert!(!generators.is_empty());
    assert!(generators.iter().all(|p| g.preserves(p)));
}
