//! Closed-form loony endgame evaluations per second on random 200-component endgames, and
//! the exact recursion on growing endgames (where it stops being feasible).

use cgdl_runtime::loony::{Component, Endgame, ExactSolver};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

/// A random endgame of `n` components: chains 3..=12 and loops 4..=12 (even).
fn random_endgame(rng: &mut StdRng, n: usize, kinds: &[Component]) -> Endgame {
    let mut g = Endgame::new();
    for _ in 0..n {
        let c = kinds[rng.random_range(0..kinds.len())];
        g.add(c, 1).expect("valid component");
    }
    g
}

fn all_kinds() -> Vec<Component> {
    let mut k: Vec<Component> = (3..=12).map(Component::Chain).collect();
    k.extend([4, 6, 8, 10, 12].map(Component::Loop));
    k
}

fn closed_form(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(0x10041);
    let kinds = all_kinds();
    let endgames: Vec<Endgame> = (0..1000)
        .map(|_| random_endgame(&mut rng, 200, &kinds))
        .collect();
    let mut group = c.benchmark_group("loony_closed_form");
    group.throughput(Throughput::Elements(endgames.len() as u64));
    group.bench_function("1000 random 200-component endgames", |b| {
        b.iter(|| endgames.iter().map(|g| black_box(g).value()).sum::<i64>())
    });
    group.finish();
}

fn exact_recursion(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(7);
    let kinds = [
        Component::Chain(3),
        Component::Chain(4),
        Component::Chain(5),
        Component::Chain(6),
        Component::Loop(4),
        Component::Loop(6),
    ];
    let mut group = c.benchmark_group("loony_exact");
    group.sample_size(10);
    for n in [10usize, 20, 40, 60] {
        let g = random_endgame(&mut rng, n, &kinds);
        let states = ExactSolver::state_count(&g);
        group.throughput(Throughput::Elements(states as u64));
        group.bench_with_input(
            BenchmarkId::new("components", format!("{n} ({states} sub-endgames)")),
            &g,
            |b, g| {
                b.iter(|| {
                    let mut exact = ExactSolver::new(g, usize::MAX);
                    black_box(exact.value(g).expect("no bound"))
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, closed_form, exact_recursion);
criterion_main!(benches);
