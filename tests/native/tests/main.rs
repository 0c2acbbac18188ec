//! The differential tests as one binary: each file is a module, so they link once and run
//! in parallel. `generated.rs` is a binary of its own: its solves' memory limit is
//! measured on the whole process, which other tests beside it would fill.

mod checked_budget;
mod checked_symmetries;
mod differential;
mod found_symmetries;
mod loopy_digraphs;
mod memo_keys;
mod names;
mod partizan_outcome;
mod permuted_fields;
mod probe;
mod regions;
mod symmetries;
mod threads;
