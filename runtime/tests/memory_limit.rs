//! A solve whose memo would outgrow `--max-memory` forgets the values it stored longest ago
//! and goes on: the values stay those of an unbounded solve, and what was solved last is
//! still known; one that cannot go on stops with the limit's error.
//! (A file of its own: the limit is measured on the process, which no other test shares.)

use cgdl_runtime::{Options, RuleError, Rules, Solver, ValueKind};

/// Kayles on a row of `N` pins with gaps: a position is the set of standing pins (bits);
/// a move knocks down one pin or two adjacent ones. Every subset of the row is reachable.
/// Bit 31 tells two copies of the game apart (their positions have different keys).
struct Row;

const N: u32 = 18;

impl Rules for Row {
    type Pos = u32;

    fn options(&self, pins: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        for i in 0..N {
            if pins >> i & 1 == 1 {
                // (Bit 31, the copy, is never knocked down.)
                out.position(pins & !(1 << i));
                if i + 1 < N && pins >> (i + 1) & 1 == 1 {
                    out.position(pins & !(3 << i));
                }
            }
        }
        Ok(())
    }

    fn key(&self, pins: u32) -> Option<u64> {
        Some(u64::from(pins))
    }
}

/// Kayles values by the definition (octal game 0.77 on one heap).
fn kayles(n: usize) -> Vec<u32> {
    let mut g = vec![0u32; n + 1];
    for h in 1..=n {
        let mut seen = [false; 64];
        for take in 1..=2.min(h) {
            for left in 0..=(h - take) {
                seen[(g[left] ^ g[h - take - left]) as usize] = true;
            }
        }
        g[h] = seen.iter().position(|s| !s).unwrap_or(64) as u32;
    }
    g
}

/// The value of a row: the XOR of its runs' Kayles values.
fn by_runs(pins: u32, k: &[u32]) -> u32 {
    let (mut x, mut run) = (0, 0);
    for i in 0..=N {
        if i < N && pins >> i & 1 == 1 {
            run += 1;
        } else {
            x ^= k[run];
            run = 0;
        }
    }
    x
}

const COPY: u32 = 1 << 31;

#[test]
fn a_memo_past_the_limit_forgets_its_oldest_values_and_a_value_past_it_stops() {
    let Some(now) = cgdl_runtime::memory::resident_bytes() else {
        return; // No way to measure memory here: nothing to test.
    };
    let k = kayles(N as usize);
    let full = (1u32 << N) - 1;
    let mut bounded = Solver::new(&Row);
    // One copy's memo (every subset of the row) doubles to 8 MiB at last (with the 4 MiB
    // table it leaves, and the search's buffers): it fits. The
    // second copy would double it to 16 MiB: the first copy's positions, never needed
    // again, are forgotten instead.
    bounded.set_max_memory(Some(now + (16 << 20)));
    for (copy, pins) in [
        (0, full),
        (COPY, full),
        (COPY, full & !(1 << 5)),
        (0, 0b1011_0111),
    ] {
        assert_eq!(
            bounded
                .value_of(ValueKind::Grundy, copy | pins)
                .map(|v| v.to_string()),
            Ok(by_runs(pins, &k).to_string()),
            "position {pins:b} of copy {copy}"
        );
    }
    assert!(bounded.memo_clears() > 0, "the memo never forgot");
    // The second copy's whole row was solved after the first's: it is still known, and
    // asking for it again solves nothing.
    let solved = bounded.positions_solved();
    assert_eq!(
        bounded
            .value_of(ValueKind::Grundy, COPY | full)
            .map(|v| v.to_string()),
        Ok(by_runs(full, &k).to_string())
    );
    assert_eq!(bounded.positions_solved(), solved);

    let mut free = Solver::new(&Row);
    free.set_max_memory(None);
    for copy in [0, COPY] {
        assert_eq!(
            free.value_of(ValueKind::Grundy, copy | full)
                .map(|v| v.to_string()),
            Ok(by_runs(full, &k).to_string())
        );
    }
    assert_eq!(free.memo_clears(), 0);
    drop(free);
    drop(bounded);

    // (In the same test: tests running side by side would share the process's memory.)
    let Some(now) = cgdl_runtime::memory::resident_bytes() else {
        return;
    };
    let mut bounded = Solver::new(&Row);
    // One copy needs every subset of its row at once; 3 MiB is not enough however often
    // the memo starts again.
    let limit = now + (3 << 20);
    bounded.set_max_memory(Some(limit));
    let solved = bounded.value_of(ValueKind::Grundy, (1u32 << N) - 1);
    assert!(
        matches!(solved, Err(cgdl_runtime::SolveError::OutOfMemory { limit: l }) if l == limit),
        "{solved:?}"
    );
}
