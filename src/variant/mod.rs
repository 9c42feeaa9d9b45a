//! The `Variant` trait and its implementations.
//!
//! Hot code (move generation, perft, search) is generic over `V: Variant`,
//! where each variant is a zero-sized marker type; the only `match` on a
//! runtime variant lives at the edge (UCI option, command line), see
//! [`VariantKind`].
//!
//! Moves are made by copy-make: `play` returns a new board. Every variant may
//! displace several pieces in one move (explosions, pushes), so each variant
//! owns its own `play`.

pub mod atomic;
pub mod chess;
pub mod dynamo;
pub mod movegen;
pub mod push;

pub use atomic::Atomic;
pub use chess::Chess;
pub use dynamo::Dynamo;
pub use push::Push;

use crate::board::{Board, CastlingMode, FenError};
use crate::types::{Bitboard, Color, Move, MoveList};
use movegen::{CountSink, ListSink, Sink};
use std::fmt;
use std::str::FromStr;

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Decisive { winner: Color },
    Draw,
}

/// The rules of one variant.
pub trait Variant: Copy + Default + Send + Sync + fmt::Debug + 'static {
    /// Name as listed in the `UCI_Variant` option.
    const NAME: &'static str;
    /// The run-time name of this variant.
    const KIND: VariantKind;

    /// Whether standard algebraic notation describes this variant's moves
    /// (PGN movetext falls back to UCI notation otherwise).
    const STANDARD_NOTATION: bool = true;

    /// Whether 100 plies without progress draw the game (Dynamo has no such rule).
    const FIFTY_MOVE_RULE: bool = true;

    /// The start position.
    fn start_fen() -> &'static str {
        Board::STARTPOS
    }

    /// Whether the variant is also played from Chess960 set-ups
    /// (`UCI_Chess960`): chess and atomic.
    const CHESS960: bool = false;

    /// Parses a position of this variant and checks the variant's own rules.
    fn from_fen(fen: &str) -> Result<Board, FenError> {
        let b = Board::from_fen(fen)?;
        Self::validate(&b)?;
        Ok(b)
    }

    /// As [`Variant::from_fen`], with castling in `mode` when the variant
    /// has Chess960 (otherwise the mode is ignored).
    fn from_fen_mode(fen: &str, mode: CastlingMode) -> Result<Board, FenError> {
        if mode == CastlingMode::Standard || !Self::CHESS960 {
            return Self::from_fen(fen);
        }
        let b = Board::from_fen_mode(fen, mode)?;
        Self::validate(&b)?;
        Ok(b)
    }

    /// The position as this variant writes it.
    fn fen(b: &Board) -> String {
        b.fen()
    }

    /// Variant-specific checks on a parsed board (kings present, no opposite check).
    fn validate(b: &Board) -> Result<(), FenError>;

    /// Sends every legal move to `sink` (a list, or a counter that may
    /// count whole sets of moves at once). A variant implements this or
    /// [`Variant::legal_moves`]; each is defined by the other.
    fn generate<S: Sink>(b: &Board, sink: &mut S) {
        let mut moves = MoveList::new();
        Self::legal_moves(b, &mut moves);
        for &m in &moves {
            sink.one(m);
        }
    }

    /// Appends every legal move to `moves`.
    fn legal_moves(b: &Board, moves: &mut MoveList) {
        Self::generate(b, &mut ListSink(moves));
    }

    /// Whether [`Variant::noisy_moves`] generates less than every legal
    /// move (quiescence then calls it, and cannot tell a position without
    /// legal moves from one without noisy ones).
    const NOISY_GENERATION: bool = false;

    /// Appends the legal moves quiescence may search: at least every one
    /// that takes material off the board or promotes for the mover's gain
    /// (a move whose every such part loses material has a negative
    /// [`crate::eval::Evaluate::tactical_gain`], and quiescence never
    /// searches it) and, with `checks`, every quiet one that gives check;
    /// the end-of-game rules need not be applied. By default every legal
    /// move.
    fn noisy_moves(b: &Board, _checks: bool, moves: &mut MoveList) {
        Self::legal_moves(b, moves);
    }

    /// Number of legal moves (bulk counting: need not build the list).
    fn count_moves(b: &Board) -> u64 {
        let mut sink = CountSink::default();
        Self::generate(b, &mut sink);
        sink.0
    }

    /// The position after the legal move `m` (copy-make), unchecked: use
    /// [`Variant::play`].
    fn make(b: &Board, m: Move) -> Board;

    /// The position after the legal move `m` (copy-make; debug builds check
    /// the result's consistency).
    fn play(b: &Board, m: Move) -> Board {
        checked(b, m, Self::make(b, m))
    }

    /// Enemy pieces giving check to the side to move, by this variant's rule.
    fn checkers(b: &Board) -> Bitboard;

    /// Whether the side to move is in check.
    fn is_check(b: &Board) -> bool {
        Self::checkers(b).any()
    }

    /// Variant-specific game end that holds whatever the moves are
    /// (e.g. an exploded king).
    fn variant_outcome(_b: &Board) -> Option<Outcome> {
        None
    }

    /// `color` cannot possibly win with the material on the board.
    fn has_insufficient_material(b: &Board, color: Color) -> bool;

    /// Both sides lack mating material: a draw.
    fn is_insufficient_material(b: &Board) -> bool {
        Self::has_insufficient_material(b, Color::White) && Self::has_insufficient_material(b, Color::Black)
    }

    /// The outcome of the game if it is over by the rules visible on the board
    /// (variant end, checkmate, stalemate, insufficient material). Repetition
    /// and the 50-move rule need the game history and are judged elsewhere.
    fn outcome(b: &Board) -> Option<Outcome> {
        if let Some(o) = Self::variant_outcome(b) {
            return Some(o);
        }
        if Self::count_moves(b) == 0 {
            return Some(if Self::is_check(b) { Outcome::Decisive { winner: !b.turn() } } else { Outcome::Draw });
        }
        Self::is_insufficient_material(b).then_some(Outcome::Draw)
    }

    /// Whether [`Variant::is_legal`] costs much less than generating every
    /// legal move: the search then tries the hash move before it generates.
    const CHEAP_LEGALITY: bool = false;

    /// Looks a move up among the legal moves by equality (for input that is
    /// already a `Move`).
    fn is_legal(b: &Board, m: Move) -> bool {
        let mut moves = MoveList::new();
        Self::legal_moves(b, &mut moves);
        moves.contains(&m)
    }
}

/// A game that is over, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// `None`: a draw.
    pub winner: Option<Color>,
    /// "king destroyed", "checkmate", "stalemate", "insufficient material",
    /// "threefold repetition" or "50-move rule".
    pub reason: &'static str,
}

/// Whether the game whose position keys so far (oldest first, ending with
/// `b`'s) are `keys` is over: by the rules on the board, by threefold
/// repetition or by the 50-move rule (in the variants that have it).
pub fn game_end<V: Variant>(b: &Board, keys: &[u64]) -> Option<GameEnd> {
    if let Some(o) = V::outcome(b) {
        return Some(match o {
            Outcome::Decisive { winner } => GameEnd {
                winner: Some(winner),
                reason: if V::variant_outcome(b).is_some() { "king destroyed" } else { "checkmate" },
            },
            Outcome::Draw if V::count_moves(b) == 0 => GameEnd { winner: None, reason: "stalemate" },
            Outcome::Draw => GameEnd { winner: None, reason: "insufficient material" },
        });
    }
    if keys.iter().filter(|&&k| k == b.key()).count() >= 3 {
        return Some(GameEnd { winner: None, reason: "threefold repetition" });
    }
    (V::FIFTY_MOVE_RULE && b.halfmoves() >= 100).then_some(GameEnd { winner: None, reason: "50-move rule" })
}

/// Debug builds check every made move: bitboards agree with the mailbox and
/// the incremental key with the recomputed one.
#[inline(always)]
pub(crate) fn checked(before: &Board, m: Move, after: Board) -> Board {
    debug_assert!(after.is_consistent() && after.key() == after.compute_key(), "{m:?} on {before:?}");
    after
}

/// The variants, as a runtime value: used only at the edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum VariantKind {
    #[default]
    Chess,
    Atomic,
    Dynamo,
    Push,
}

impl VariantKind {
    pub const ALL: [VariantKind; 4] = [VariantKind::Chess, VariantKind::Atomic, VariantKind::Dynamo, VariantKind::Push];

    pub fn name(self) -> &'static str {
        match self {
            VariantKind::Chess => Chess::NAME,
            VariantKind::Atomic => Atomic::NAME,
            VariantKind::Dynamo => Dynamo::NAME,
            VariantKind::Push => Push::NAME,
        }
    }
}

impl FromStr for VariantKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        VariantKind::ALL.into_iter().find(|v| v.name().eq_ignore_ascii_case(s.trim())).ok_or_else(|| {
            let names: Vec<_> = VariantKind::ALL.iter().map(|v| v.name()).collect();
            format!("unknown variant '{}' (known: {})", s.trim(), names.join(", "))
        })
    }
}

impl fmt::Display for VariantKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Calls `$body` with `$V` bound to the marker type of a runtime variant.
#[macro_export]
macro_rules! with_variant {
    ($kind:expr, $V:ident => $body:expr) => {
        match $kind {
            $crate::variant::VariantKind::Chess => {
                type $V = $crate::variant::Chess;
                $body
            }
            $crate::variant::VariantKind::Atomic => {
                type $V = $crate::variant::Atomic;
                $body
            }
            $crate::variant::VariantKind::Dynamo => {
                type $V = $crate::variant::Dynamo;
                $body
            }
            $crate::variant::VariantKind::Push => {
                type $V = $crate::variant::Push;
                $body
            }
        }
    };
}
