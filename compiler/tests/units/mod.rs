//! Tests of the compiler's modules, one file a module, through their public items: kept
//! out of `src/` so that `cargo test` builds the compiler once, not again with `cfg(test)`.

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
