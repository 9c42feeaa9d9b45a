//! Fission's integration tests: one test crate (one link of the release
//! binary's code, instead of one per file), a module per area. They drive
//! the library directly or the built `fission` binary over real processes.
//!
//! Run one area with a filter: `cargo test --release --test engine perft::`.

mod common;

mod attacks;
mod clients;
mod datagen;
mod differential;
mod dynamo_rules;
mod fen;
mod matches;
mod notation;
mod perft;
mod perft_diff;
mod push_rules;
mod search;
mod uci;
mod uci_fuzz;
