//! `cgdl-compiler`: the CGDL language. Source text is parsed with a pest grammar
//! ([`parser`]) into a spanned AST ([`ast`]), checked into an IR ([`ir`], [`check`](mod@check)), and
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
pub mod opt;

pub use check::{check, check_as_written, compile_str};
pub use interp::Interpreter;
pub mod build;
pub mod codegen;
pub mod position;
pub mod queries;

pub use build::Build;
pub use position::compile_position;

/// Why source text did not become Rust code.
#[derive(Clone, Debug)]
pub enum CompileError {
    /// The file has errors: every diagnostic.
    Invalid(Vec<Diagnostic>),
    /// The file is valid but uses what native code does not support yet.
    Unsupported(codegen::CodegenError),
}

/// A file compiled to Rust: its checked program and the generated module.
pub struct Compiled {
    /// The checked program.
    pub program: ir::Program,
    /// The generated module.
    pub module: syn::File,
}

impl Compiled {
    /// The module's tokens (for the macros).
    pub fn tokens(&self) -> proc_macro2::TokenStream {
        quote::ToTokens::to_token_stream(&self.module)
    }

    /// The module as formatted Rust source (what `cgdl compile` prints and build scripts
    /// write).
    pub fn source(&self) -> String {
        codegen::format_file(&self.module)
    }
}

/// Source text → Rust: the one way the CLI, build scripts and the macros compile a file.
pub fn compile_to_rust(
    source: &str,
    options: &codegen::CodegenOptions,
) -> Result<Compiled, CompileError> {
    let program = compile_str(source).map_err(CompileError::Invalid)?;
    let module =
        codegen::generate_file(&program, source, options).map_err(CompileError::Unsupported)?;
    Ok(Compiled { program, module })
}
