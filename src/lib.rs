//! Fission: a UCI engine for atomic, dynamo, push and standard chess.
//!
//! Module map:
//! * [`types`]: squares, bitboards, colours, pieces, moves;
//! * [`attacks`]: leaper, magic slider and ray tables;
//! * [`board`]: the board with its Zobrist key, FEN;
//! * [`variant`]: the rules, one file per variant behind the `Variant` trait;
//! * [`perft`]: move-path enumeration for validating the rules;
//! * [`uci`]: notation (moves to text and back).

pub mod attacks;
pub mod board;
pub mod perft;
pub mod types;
pub mod uci;
pub mod variant;

pub use board::{Board, FenError};
pub use types::{Bitboard, Color, Move, MoveList, Piece, Role, Square};
pub use variant::{Atomic, Chess, Outcome, Variant, VariantKind};
