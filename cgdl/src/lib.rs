//! `cgdl`: declarative combinatorial game descriptions compiled to exact solvers.
//!
//! This facade re-exports the runtime ([`runtime`]) and the language front end
//! ([`compiler`]); the `cgdl` binary is the command-line tool.

#![warn(missing_docs)]

pub use cgdl_compiler as compiler;
pub use cgdl_runtime as runtime;
