//! Games hand-written against the runtime's `Rules` trait, shared by tests and benches.
#![allow(dead_code)]

use cgdl_runtime::{Options, RuleError, Rules};

/// A subtraction game: remove `s` tokens for some `s` in the set (Lenhardt's Limited Nim
/// with {1, 3, 4}); heaps are bounded so they index densely.
pub struct Subtraction {
    pub set: Vec<u32>,
}

impl Rules for Subtraction {
    type Pos = u32;
    fn options(&self, n: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        for &s in &self.set {
            if s <= n {
                out.position(n - s);
            }
        }
        Ok(())
    }
    fn dense_index(&self, n: u32) -> Option<usize> {
        Some(n as usize)
    }
}

/// Nim heaps: remove any positive number of tokens.
pub struct Nim;

impl Rules for Nim {
    type Pos = u32;
    fn options(&self, n: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        for k in 0..n {
            out.position(k);
        }
        Ok(())
    }
    fn dense_index(&self, n: u32) -> Option<usize> {
        Some(n as usize)
    }
}

/// Kayles: knock down one pin or two adjacent pins; the row may split in two.
pub struct Kayles;

impl Rules for Kayles {
    type Pos = u32;
    fn options(&self, n: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        for k in 1..=2u32.min(n) {
            for left in 0..=(n - k) / 2 {
                out.sum([left, n - k - left]);
            }
        }
        Ok(())
    }
    fn dense_index(&self, n: u32) -> Option<usize> {
        Some(n as usize)
    }
}

/// Kayles without a dense index: exercises the hash-map memo.
pub struct HashedKayles;

impl Rules for HashedKayles {
    type Pos = u32;
    fn options(&self, n: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        Kayles.options(n, out)
    }
}

/// A piece on an 8×8 board at (row, column), moving by the given steps while it stays on
/// the board. `slide`: it may repeat its step any number of times (a queen).
pub struct Board {
    pub steps: Vec<(i32, i32)>,
    pub slide: bool,
    pub size: i32,
}

impl Board {
    /// Lenhardt's Game of Queens: west, north or north-west, any distance.
    pub fn queen() -> Self {
        Board {
            steps: vec![(-1, 0), (0, -1), (-1, -1)],
            slide: true,
            size: 8,
        }
    }

    /// All the King's horses: the four knight jumps that lower row + column.
    pub fn horse() -> Self {
        Board {
            steps: vec![(-2, 1), (-2, -1), (1, -2), (-1, -2)],
            slide: false,
            size: 8,
        }
    }
}

impl Rules for Board {
    type Pos = (i32, i32);
    fn options(&self, (r, c): (i32, i32), out: &mut Options<(i32, i32)>) -> Result<(), RuleError> {
        for &(dr, dc) in &self.steps {
            let (mut nr, mut nc) = (r + dr, c + dc);
            while (0..self.size).contains(&nr) && (0..self.size).contains(&nc) {
                out.position((nr, nc));
                if !self.slide {
                    break;
                }
                nr += dr;
                nc += dc;
            }
        }
        Ok(())
    }
    fn dense_index(&self, (r, c): (i32, i32)) -> Option<usize> {
        Some((r * self.size + c) as usize)
    }
}

/// A game that loops: from n you may move to n + 1 (mod 3).
pub struct Loopy;

impl Rules for Loopy {
    type Pos = u32;
    fn options(&self, n: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        out.position((n + 1) % 3);
        Ok(())
    }
}

/// A chain n -> n-1 -> ... -> 0 (a subtraction game {1}), with no dense index.
pub struct Chain;

impl Rules for Chain {
    type Pos = u64;
    fn options(&self, n: u64, out: &mut Options<u64>) -> Result<(), RuleError> {
        if n > 0 {
            out.position(n - 1);
        }
        Ok(())
    }
}

/// A game whose rules fail: moving from 5 builds an out-of-range value.
pub struct Faulty;

impl Rules for Faulty {
    type Pos = u32;
    fn options(&self, n: u32, out: &mut Options<u32>) -> Result<(), RuleError> {
        if n == 5 {
            return Err(RuleError::new(
                "move `down` from Faulty(5): value 99 is outside 0..=8",
            ));
        }
        for k in 0..n {
            out.position(k);
        }
        Ok(())
    }
}
