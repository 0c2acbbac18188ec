//! Holds no code: the trybuild cases are the `.rs` files beside this crate's manifest
//! (compile-fail, each with its expected `.stderr`) and `pass/*.rs`; `harness/ui.rs` runs
//! them.
