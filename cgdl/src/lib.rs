//! `cgdl`: declarative combinatorial game descriptions compiled to exact solvers.
//!
//! This facade re-exports the runtime ([`runtime`]), the language front end ([`compiler`])
//! and the macros that put the language inside Rust: [`game!`] (the game file written
//! inline) and [`include_game!`] (a `.cgdl` file read at compile time, relative to the
//! crate root). Both expand to the module `cgdl compile` writes: a type per game with a
//! constructor and field accessors, `+` and the compound functions of [`runtime`] to combine
//! them, and `solver()`, whose methods give every value. The `cgdl` binary is the
//! command-line tool.
//!
//! ```
//! use cgdl::runtime::{wtia, Outcome, SolveError};
//!
//! cgdl::game! {
//!     // Kayles (Zielonka §7): knock down one pin or two adjacent pins.
//!     game Kayles(n: nat) {
//!         move knock(k in 1..=2, k <= n, left in 0..=(n - k) / 2) =>
//!             Kayles(left) + Kayles(n - k - left)
//!     }
//! }
//!
//! fn main() -> Result<(), SolveError> {
//!     let mut solver = solver();
//!     assert_eq!(solver.grundy(Kayles::new(7))?, 2);
//!     // Grundy values add by XOR: 3 ^ 1 ^ 2 == 0, a second-player win.
//!     let row = Kayles::new(3) + Kayles::new(4) + Kayles::new(2);
//!     assert_eq!(solver.outcome(&row)?, Outcome::P);
//!     let moves = solver.winning_moves(Kayles::new(3) + Kayles::new(4))?;
//!     assert_eq!(solver.display(&moves[0]), "Kayles(0) + Kayles(1) + Kayles(4)");
//!     println!("{}", solver.wnumber(wtia([Kayles::new(2).into(), Kayles::new(5).into()]))?);
//!     println!("{} {}", solver.remoteness(Kayles::new(5))?, solver.suspense(Kayles::new(5))?);
//!     assert!(Kayles::try_new(-1).is_err());
//!     Ok(())
//! }
//! ```

#![warn(missing_docs)]

extern crate self as cgdl;

pub use cgdl_compiler as compiler;
pub use cgdl_macros::{game, include_game};
pub use cgdl_runtime as runtime;
