//! Procedural macros for cgdl: the game language inside Rust.
//!
//! Both macros run the same front end and code generator as `cgdl compile` (the
//! `cgdl-compiler` crate) and expand to the module it writes, with the runtime named
//! `::cgdl::runtime`; use them through the `cgdl` crate, which re-exports them.

#![warn(missing_docs)]

mod source;

use cgdl_compiler::codegen::CodegenOptions;
use cgdl_compiler::CompileError;
use proc_macro::TokenStream;
use proc_macro2::Span;
use quote::{quote, quote_spanned};

/// The runtime path the expansion uses: the `cgdl` facade's re-export.
const RUNTIME: &str = "::cgdl::runtime";

/// A game file written inline as Rust tokens: `cgdl::game! { game Kayles(n: nat) { ... } }`.
///
/// Expands to the module `cgdl compile` writes (a type per game with `new`, the position
/// type `Pos`, `Universe`, `solver()`, the file's queries), into the current scope; put it
/// in its own `mod` to use several. Every diagnostic becomes a compile error on the
/// token that caused it, with the CLI's code and help text. Comments must be `//` (a `///`
/// doc comment is ignored).
#[proc_macro]
pub fn game(input: TokenStream) -> TokenStream {
    let rebuilt = source::rebuild(input);
    match cgdl_compiler::compile_to_rust(&rebuilt.text, &options()) {
        Ok(compiled) => compiled.tokens().into(),
        Err(CompileError::Unsupported(e)) => unsupported(&e, quote!()),
        Err(CompileError::Invalid(diags)) => diags
            .iter()
            .map(|d| rebuilt.error_at(d))
            .collect::<proc_macro2::TokenStream>()
            .into(),
    }
}

/// A game file read at compile time: `cgdl::include_game!("games/kayles.cgdl")`, the path
/// relative to the crate root (`CARGO_MANIFEST_DIR`). The crate is rebuilt when the file
/// changes; errors name the file with line and column.
#[proc_macro]
pub fn include_game(input: TokenStream) -> TokenStream {
    let lit = match syn::parse::<syn::LitStr>(input) {
        Ok(lit) => lit,
        Err(e) => {
            return syn::Error::new(
                e.span(),
                "include_game! takes one string literal: the path of a .cgdl file, relative \
                 to the crate root",
            )
            .to_compile_error()
            .into()
        }
    };
    let relative = lit.value();
    let root = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_default();
    let path = root.join(&relative);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            let msg = format!(
                "cannot read `{relative}`: {e}\n\
                 = help: the path is relative to the crate root, the directory of Cargo.toml"
            );
            return syn::Error::new(lit.span(), msg).to_compile_error().into();
        }
    };
    // Tracks the file: cargo rebuilds the crate when it changes.
    let absolute = path.to_string_lossy().into_owned();
    let track = quote!(
        const _: &[u8] = ::std::include_bytes!(#absolute);
    );
    match cgdl_compiler::compile_to_rust(&text, &options()) {
        Ok(compiled) => {
            let module = compiled.tokens();
            quote!(#track #module).into()
        }
        Err(CompileError::Unsupported(e)) => unsupported(&e, track),
        Err(CompileError::Invalid(diags)) => {
            let errors = diags.iter().map(|d| {
                let msg = d.render(&relative, &text);
                syn::Error::new(lit.span(), msg).to_compile_error()
            });
            quote!(#track #(#errors)*).into()
        }
    }
}

/// The generated code names the runtime through the `cgdl` facade.
fn options() -> CodegenOptions {
    CodegenOptions {
        runtime_path: RUNTIME.to_string(),
    }
}

/// A compile error for a file that native code does not support yet.
fn unsupported(
    e: &cgdl_compiler::codegen::CodegenError,
    extra: proc_macro2::TokenStream,
) -> TokenStream {
    let msg = e.to_string();
    quote_spanned!(Span::call_site()=> #extra ::std::compile_error!(#msg);).into()
}
