//! Positions per second: Grundy values of a hand-written Kayles up to n = 20,000 (fast
//! rules), and an exact search over a three-component compound.

#[path = "../../runtime/tests/games/mod.rs"]
mod games;

use cgdl_runtime::{Compound, Expr, Mode, Solver};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use games::{Board, Kayles};
use std::hint::black_box;

const KAYLES_N: u32 = 20_000;

fn kayles(c: &mut Criterion) {
    let mut group = c.benchmark_group("kayles_grundy");
    group.sample_size(10);
    group.throughput(Throughput::Elements(u64::from(KAYLES_N) + 1));
    group.bench_function("n=0..=20000", |b| {
        b.iter(|| {
            let mut solver = Solver::new(&Kayles);
            black_box(solver.grundy(Expr::Pos(KAYLES_N)).unwrap())
        })
    });
    group.finish();
}

fn three_queens() -> Expr<(i32, i32)> {
    Expr::compound(Compound::Sum, [(7, 7), (7, 6), (6, 5)].map(Expr::Pos))
}

fn exact_compound(c: &mut Criterion) {
    let queen = Board::queen();
    // Count the positions one exact solve visits, for the throughput figure.
    let mut probe = Solver::with_mode(&queen, Mode::Exact);
    probe.grundy(three_queens()).unwrap();
    let positions = probe.positions_solved();
    let mut group = c.benchmark_group("exact_search");
    group.sample_size(10);
    group.throughput(Throughput::Elements(positions));
    group.bench_function(
        format!("sum of three queens ({positions} positions)"),
        |b| {
            b.iter(|| {
                let mut solver = Solver::with_mode(&queen, Mode::Exact);
                black_box(solver.grundy(three_queens()).unwrap())
            })
        },
    );
    group.finish();
}

criterion_group!(benches, kayles, exact_compound);
criterion_main!(benches);
