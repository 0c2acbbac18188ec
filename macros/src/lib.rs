//! Procedural macros for cgdl: `game!` and `include_game!` are planned (see issue 5).

#![warn(missing_docs)]
