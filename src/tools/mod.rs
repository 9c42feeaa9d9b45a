//! The tools built on the engine, each a `fission` subcommand: the match
//! runner ([`tournament`], `fission match`), training-data generation
//! ([`datagen`], `fission datagen`), the perft comparison with another
//! engine ([`perft_diff`], `fission perft-diff`) and the UCI client they
//! drive other engines with ([`uci_client`]).
//!
//! Nothing below this room imports it: the engine and its UCI front end
//! know nothing of the tools.

pub mod datagen;
pub mod perft_diff;
pub mod tournament;
pub mod uci_client;
