//! Criterion benchmarks of the runtime: `cargo bench -p cgdl-bench` (`--bench solvers`,
//! `--bench loony`). The crate holds nothing else; it keeps criterion out of the runtime's
//! dev-dependencies, so that `cargo test --workspace` does not build it.
