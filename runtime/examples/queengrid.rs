//! The dense kernel alone on the Queen grid (Wythoff's game as a queen on a board):
//! `cargo run --release -p cgdl-runtime --example queengrid -- THREADS` (1000 × 1000).

use cgdl_runtime::kernel::{fill_dense, DenseCells, EarlierValues, Marks};
use cgdl_runtime::{KernelAnswer, KernelTables};

/// The side of the board.
const SIZE: usize = 1000;

/// Queen(r, c) at index `r + SIZE * c`: moves west, north and north-west.
struct Queen;

impl DenseCells for Queen {
    type Pos = (usize, usize);
    const ROW: usize = SIZE;

    fn pos(&self, cur: usize) -> (usize, usize) {
        (cur % SIZE, cur / SIZE)
    }

    fn value<G: EarlierValues + ?Sized>(
        &self,
        cur: usize,
        g: &G,
        marks: &mut Marks,
    ) -> Option<u32> {
        let (r, c) = self.pos(cur);
        marks.clear();
        for k in 1..=c {
            marks.mark(g.earlier(r + (c - k) * SIZE)?);
        }
        for k in 1..=r {
            marks.mark(g.earlier(r - k + c * SIZE)?);
        }
        for k in 1..=r.min(c) {
            marks.mark(g.earlier(r - k + (c - k) * SIZE)?);
        }
        Some(marks.mex())
    }
}

fn main() {
    let threads: usize = (std::env::args().nth(1))
        .and_then(|a| a.parse().ok())
        .unwrap_or(1);
    let size = SIZE;
    let mut tables = KernelTables::default();
    tables.set_threads(threads);
    let mut out = Vec::new();
    let started = std::time::Instant::now();
    let answer = fill_dense(
        &Queen,
        0,
        size * size - 1,
        &|_| None,
        &mut out,
        u64::MAX,
        &mut tables,
    );
    assert_eq!(answer, KernelAnswer::Computed);
    let last = out.iter().map(|&(_, v)| v).max();
    println!(
        "{size}x{size}, {threads} threads: {:.3} s, largest value {last:?}",
        started.elapsed().as_secs_f64()
    );
}
