//! Fission: a UCI engine for atomic, dynamo, push and standard chess.
//!
//! Module map (each layer imports only the ones above it in this list;
//! see `docs/architecture.md`):
//! * rules core: [`types`] (squares, bitboards, colours, pieces, moves),
//!   [`attacks`] (leaper, magic slider and ray tables), [`board`] (the board
//!   with its Zobrist key, FEN), [`variant`] (the rules, one module per
//!   variant behind the `Variant` trait), [`notation`] (moves as UCI text
//!   and back), [`perft`] (move-path enumeration and the `.perft` suites);
//! * [`nnue`]: the network, its accumulators, kernels and file formats;
//! * [`eval`]: the evaluation boundary ([`eval::Evaluator`]: classical or a
//!   network) and the classical evaluation of each variant;
//! * [`search`]: the search, its hash table, time limits and threads, and the
//!   bench;
//! * [`engine`]: the game being played and the search it runs;
//! * [`uci`]: the UCI front end, command parser and options;
//! * [`tools`]: the match runner, training-data generation, perft-diff and
//!   the UCI client they use.

/// The version and the commit it was built from, as `--version` prints it.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("FISSION_GIT_COMMIT"), ")");

pub mod attacks;
pub mod board;
pub mod engine;
pub mod eval;
pub mod nnue;
pub mod notation;
pub mod perft;
pub mod search;
pub mod tools;
pub mod types;
pub mod uci;
pub mod variant;

pub use board::{Board, FenError};
pub use types::{Bitboard, Color, Move, MoveList, Piece, Role, Square};
pub use variant::{Atomic, Chess, Dynamo, Outcome, Push, Variant, VariantKind};
