//! `cgdl-runtime`: the engine every cgdl solver links.
//!
//! A game universe implements [`Rules`]; a [`Solver`] computes any [`ValueKind`] of any
//! position expression ([`Expr`]): single positions and nested compounds (sum, union,
//! selective, conjunctive, continued conjunctive, winner takes it all). Each compound has a
//! fast rule and an exact search ([`Mode`]). [`period`] finds periods of nim-sequences.

#![warn(missing_docs)]

pub mod board;
mod checked;
mod compound;
pub mod driver;
pub mod error;
pub mod expr;
pub mod heap;
mod heap_simd;
pub mod kernel;
pub mod loony;
pub mod loopy;
mod memo;
pub mod memory;
pub mod misere;
pub mod misere_form;
pub mod native;
pub mod partizan;
pub mod period;
#[cfg(feature = "progress")]
pub mod progress;
pub mod report;
pub mod reporter;
pub mod rules;
pub mod solver;
#[cfg(feature = "svg")]
pub mod svg;
#[cfg(feature = "tiered")]
pub mod tiered;
pub mod value;

pub use expr::{conjunctive, continued, selective, sum, union, wtia, Compound, Expr, IntoExpr};
pub use kernel::{KernelAnswer, KernelTables};
pub use period::{find_period, Bound, Period};
pub use rules::{Options, RuleError, Rules, Side};
pub use solver::{
    HeapBound, Mode, Progress, ProgressReport, SolveError, Solver, DEFAULT_MAX_POSITIONS,
    PROGRESS_EVERY,
};
pub use value::{Infinite, Outcome, Value, ValueKind, WNumber, Winner};
