//! `cgdl-compiler`: the CGDL language. Source text is parsed with a pest grammar
//! ([`parser`]) into a spanned AST ([`ast`]), checked into an IR ([`ir`], [`check`]), and
//! run by the reference interpreter ([`interp`]), which implements the runtime's `Rules`.

#![warn(missing_docs)]

pub mod ast;
pub mod codes;
pub mod diagnostics;
pub mod parser;

pub use codes::ErrorCode;
pub use diagnostics::Diagnostic;
pub mod check;
pub mod interp;
pub mod ir;

pub use check::{check, compile_str};
pub use interp::Interpreter;
pub mod build;
pub mod codegen;
pub mod position;
pub mod queries;

pub use build::Build;
pub use position::compile_position;
