//! The compiler's integration tests as one binary: each file is a module, so they link
//! once and run in parallel. `parse_growth.rs` is a binary of its own, since pest's call
//! limit that it sets is global to the process. `units/` tests the modules one by one,
//! through their public items.

mod declared_symmetries;
mod found_symmetries;
mod golden;
mod heap_rules;
mod no_panic;
mod passes;
mod units;
