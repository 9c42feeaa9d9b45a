//! Static evaluation: the boundary the search sees ([`Evaluation`], the
//! choice of classical or a network, and [`Evaluator`], one thread's
//! evaluator), the classical evaluation of each variant, and the search
//! hooks each variant provides (which moves are tactical, what a capture
//! gains).
//!
//! Scores are centipawns from the side to move's point of view. Every weight
//! lives in [`weights`], named, ready for tuning.

pub mod atomic;
mod chess;
pub mod common;
mod dynamo;
mod evaluator;
mod push;
pub mod terms;
pub mod weights;

use crate::board::Board;
use crate::types::Move;
use crate::variant::Variant;
pub use evaluator::{EVAL_LIMIT, Evaluation, Evaluator};

/// Search-facing knowledge about a variant.
pub trait Evaluate: Variant {
    /// The hand-written evaluation, side to move's view. The search does
    /// not call this directly: it goes through [`Evaluator`], which may use
    /// a network instead.
    fn evaluate_classical(b: &Board) -> i32;

    /// Moves searched by quiescence: captures and promotions (atomic:
    /// explosions).
    fn is_tactical(b: &Board, m: Move) -> bool {
        b.occupied().contains(m.to()) || m.promotion_role().is_some() || m.kind() == crate::types::MoveKind::EnPassant
    }

    /// Whether quiescence also tries quiet moves that give check (at its
    /// first ply): for variants where a check threatens to end the game.
    const QSEARCH_CHECKS: bool = false;

    /// Quiescence plies after which a position where standing pat is safe
    /// is not searched further.
    const QSEARCH_PLIES: usize = usize::MAX;

    /// Moves searched at most in a quiescence node that may stand pat (the
    /// best ones first, as the move picker orders them).
    const QSEARCH_MOVES: usize = usize::MAX;

    /// Estimated material gain of a tactical move, for ordering and pruning.
    fn tactical_gain(b: &Board, m: Move) -> i32;

    /// Static exchange evaluation of any legal move: what the mover can
    /// expect to gain (tactical moves) or lose (a piece moved where the
    /// opponent can take it) in material. Quiet moves are 0 by default.
    fn see(b: &Board, m: Move) -> i32 {
        if Self::is_tactical(b, m) { Self::tactical_gain(b, m) } else { 0 }
    }

    /// Whether the search may skip `m` below the root because another legal
    /// move of the same list reaches the same position (atomic: a capturing
    /// under-promotion, whose new piece explodes at once just as the queen
    /// would). Perft and the root's move list keep every move.
    fn is_redundant(_b: &Board, _m: Move) -> bool {
        false
    }

    /// Whether a quiet move creates a direct threat to win at once (atomic:
    /// to blow up the enemy king); such moves are not pruned at low depth.
    fn threatens_king(_b: &Board, _m: Move) -> bool {
        false
    }

    /// Whether the side to move may "stand pat" in quiescence: false when
    /// doing nothing is not a safe lower bound (in check; in atomic, also
    /// when the king can be blown up next move).
    fn stand_pat_ok(b: &Board) -> bool {
        !Self::is_check(b)
    }

    /// Whether a null move is reasonable here (zugzwang guard): the side to
    /// move has pieces besides pawns and king.
    fn null_move_ok(b: &Board) -> bool {
        use crate::types::Role;
        (b.us() & !b.by_role(Role::Pawn) & !b.by_role(Role::King)).any()
    }
}
