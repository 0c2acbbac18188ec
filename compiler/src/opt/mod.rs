//! The optimizer: the passes that run on a checked program before either back end reads
//! it, in the order [`optimize`] lists them. Each pass is a file; each keeps every value
//! and every error of the program as written (each has tests holding it to that).

pub mod automorphism;
pub mod domains;
pub mod masks;
pub mod regions;
pub mod structure;
pub mod symmetry;

use crate::ir::Program;

/// Runs every pass on `program` (checked from `source`), in order:
///
/// 1. [`regions`]: a sum over representatives of closures becomes a sum over
///    `components` (which the symmetry pass and the region fast path understand);
/// 2. [`symmetry`]: finds each game's symmetries from its rules, and proves declared ones;
/// 3. [`masks`]: conditions on an element of a set field become intersections with
///    tables of masks (after the symmetry pass, which reads the conditions);
/// 4. [`crate::ir::share`]: computes costly work once (common subexpressions, work that
///    leaves loops);
/// 5. [`domains`]: the few values the elements of a set field of a large type take (an
///    analysis: native code packs the field by it).
pub fn optimize(program: &mut Program, source: &str) {
    regions::run(program, source);
    symmetry::run(program, source);
    masks::run(program, source);
    crate::ir::share::share(program);
    domains::run(program, source);
}
