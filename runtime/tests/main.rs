//! The runtime's integration tests as one binary: each file is a module, so they link
//! once and run in parallel. `memory_limit.rs` is a binary of its own, since the limit it
//! tests is measured on the whole process.

mod aliases;
mod compounds;
mod forms_share;
mod heap;
mod literature;
mod loony;
mod misere;
mod misere_forms;
mod nimber;
mod outcome_share;
mod stoppers;
mod symmetric_order;
