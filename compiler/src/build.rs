//! The `build.rs` API: compile `.cgdl` files into Rust modules in `OUT_DIR`.
//!
//! In `build.rs`:
//! ```no_run
//! cgdl_compiler::Build::new().file("games/kayles.cgdl").compile();
//! ```
//! and in the crate: `pub mod kayles { include!(concat!(env!("OUT_DIR"), "/kayles.rs")); }`.
//! Cargo reruns the build script when a listed file changes.

use crate::codegen::CodegenOptions;
use crate::diagnostics::render_all;
use crate::CompileError;
use std::path::{Path, PathBuf};

/// A set of `.cgdl` files to compile from a build script.
#[derive(Clone, Debug, Default)]
pub struct Build {
    files: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    options: CodegenOptions,
}

impl Build {
    /// An empty build.
    pub fn new() -> Build {
        Build::default()
    }

    /// Adds a file (relative to the crate root, as build scripts run there).
    pub fn file(&mut self, path: impl AsRef<Path>) -> &mut Build {
        self.files.push(path.as_ref().to_path_buf());
        self
    }

    /// Writes the modules here instead of `OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Build {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// How generated code names the runtime (default `::cgdl_runtime`; use
    /// `::cgdl::runtime` when the crate depends on the `cgdl` facade).
    pub fn runtime_path(&mut self, path: &str) -> &mut Build {
        self.options.runtime_path = path.to_string();
        self
    }

    /// Compiles every file to `OUT_DIR/<stem>.rs`, returning the written paths, or every
    /// error as text (diagnostics rendered with file:line:col).
    pub fn try_compile(&self) -> Result<Vec<PathBuf>, String> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR").map(PathBuf::from).ok_or(
                "OUT_DIR is not set: call Build::compile from a build script, or set out_dir",
            )?,
        };
        let mut written = Vec::new();
        let mut errors = String::new();
        // A file the build script wrote under OUT_DIR is its output, not an input: watching
        // it would rerun the script on every build (it is newer than the script's start).
        let generated_root = std::env::var_os("OUT_DIR").map(PathBuf::from);
        for file in &self.files {
            let generated = generated_root
                .as_ref()
                .is_some_and(|root| file.starts_with(root));
            if !generated {
                println!("cargo:rerun-if-changed={}", file.display());
            }
            let name = file.display().to_string();
            let source = match std::fs::read_to_string(file) {
                Ok(s) => s,
                Err(e) => {
                    errors.push_str(&format!("error: cannot read {name}: {e}\n"));
                    continue;
                }
            };
            let code = match crate::compile_to_rust(&source, &self.options) {
                Ok(compiled) => compiled.source(),
                Err(CompileError::Invalid(diags)) => {
                    errors.push_str(&render_all(&diags, &name, &source));
                    continue;
                }
                Err(CompileError::Unsupported(e)) => {
                    errors.push_str(&format!("error: {name}: {e}\n"));
                    continue;
                }
            };
            let stem = file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "game".to_string());
            let path = out_dir.join(format!("{stem}.rs"));
            if let Err(e) = std::fs::write(&path, code) {
                errors.push_str(&format!("error: cannot write {}: {e}\n", path.display()));
                continue;
            }
            written.push(path);
        }
        if errors.is_empty() {
            Ok(written)
        } else {
            Err(errors)
        }
    }

    /// Like [`Build::try_compile`], but for build scripts: prints every error and fails the
    /// build.
    pub fn compile(&self) -> Vec<PathBuf> {
        match self.try_compile() {
            Ok(paths) => paths,
            Err(errors) => {
                eprint!("{errors}");
                panic!("cgdl: could not compile the .cgdl files above");
            }
        }
    }
}
