//! Tests of the compiler's modules, one file a module (the `tests` modules they were
//! once, moved here so that `cargo test` does not build the compiler a second time).

mod codes;
mod ir_digits;
mod ir_heap;
mod ir_props;
mod ir_ranges;
mod ir_shape;
mod ir_share;
mod ir_typing;
mod ir_verify;
mod opt_automorphism;
mod opt_structure;
mod position;
