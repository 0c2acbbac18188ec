//! The optimizer: the passes that run on a checked program before either back end reads
//! it, in the order [`optimize`] lists them. Each pass is a file; each keeps every value
//! and every error of the program as written (each has tests holding it to that).

pub mod automorphism;
pub mod structure;
pub mod symmetry;

use crate::ir::Program;

/// Runs every pass on `program` (checked from `source`), in order:
///
/// 1. [`symmetry`]: finds each game's symmetries from its rules, and proves declared ones
///    (it reads the rules as written, so it runs first);
/// 2. [`crate::ir::share`]: computes costly work once (common subexpressions, work that
///    leaves loops).
pub fn optimize(program: &mut Program, source: &str) {
    symmetry::run(program, source);
    crate::ir::share::share(program);
}
