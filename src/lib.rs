//! Fission: a UCI engine for atomic, dynamo, push and standard chess.
//!
//! Module map:
//! * [`types`]: squares, bitboards, colours, pieces, moves;
//! * [`attacks`]: leaper, magic slider and ray tables;
//! * [`board`]: the board with its Zobrist key, FEN;
//! * [`variant`]: the rules, one file per variant behind the `Variant` trait;
//! * [`perft`]: move-path enumeration for validating the rules;
//! * [`eval`]: static evaluation per variant; [`search`], [`tt`], [`timeman`]:
//!   the search; [`engine`]: game state and search threads; [`bench`];
//! * [`notation`]: moves as UCI text and back (rules, not protocol);
//! * [`uci`]: the UCI front end, command parser and options;
//! * [`tournament`]: the match runner (`fission match`);
//! * [`nnue`]: the neural-network evaluation and its training-data format;
//!   [`datagen`]: training positions from self-play (`fission datagen`).

pub mod attacks;
pub mod bench;
pub mod board;
pub mod datagen;
pub mod engine;
pub mod eval;
pub mod nnue;
pub mod notation;
pub mod perft;
pub mod perft_diff;
pub mod search;
pub mod timeman;
pub mod tournament;
pub mod tt;
pub mod types;
pub mod uci;
pub mod variant;

pub use board::{Board, FenError};
pub use types::{Bitboard, Color, Move, MoveList, Piece, Role, Square};
pub use variant::{Atomic, Chess, Dynamo, Outcome, Push, Variant, VariantKind};
