//! Push ("échecs atomiques brésiliens", from echekk.fr; `docs/rules/push.md` is
//! authoritative, its sections are cited below): orthodox chess plus **push**
//! moves. A non-king piece makes one of its capturing moves onto a square `T`
//! held by one of its *own* pieces and shoves that piece one step on: riders
//! and pawns shove the whole run of own pieces in front of them one unit step
//! (the rider's wazir/fers step, the pawn's capture step), knights shove
//! exactly one piece by the same leap. The front piece lands on `L`; `L` must
//! be on the board, may hold an enemy piece (captured), and a pawn may not be
//! shoved onto its own first rank (one reaching its last rank promotes).
//!
//! Check includes push captures: a square is attacked if any orthodox or push
//! move of the opponent could capture there (rules §3), and a move is legal
//! if our king is not attacked after it. Pins work differently here (a piece
//! can be pinned by a push of an enemy run), so the rules advise
//! make-and-test; `legal_moves_by_make_and_test` does exactly that and is the
//! definition the fast generator (`generate`) is tested against. The fast one
//! never copies the board: the attack test reads only the occupancy and the
//! attacker's pieces, so a move is judged on those as they would be after it.
//!
//! A push is encoded as `Move { from: A, to: T, kind: Shove, second_from: T,
//! second_to: L }`, with the promotion (if any) on the second piece.

use super::chess::validate_standard;
use super::movegen::{self, ListSink, Sink};
use super::{Outcome, Variant, VariantKind};
use crate::attacks::{self, Direction, bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::board::{Board, FenError};
use crate::types::{Bitboard, Color, Move, MoveKind, MoveList, Piece, Rank, Role, Square};

#[derive(Clone, Copy, Debug, Default)]
pub struct Push;

pub(super) fn first_rank(c: Color) -> Rank {
    c.fold(Rank::FIRST, Rank::EIGHTH)
}

pub(super) fn last_rank(c: Color) -> Rank {
    c.fold(Rank::EIGHTH, Rank::FIRST)
}

pub(super) fn forward(c: Color) -> i8 {
    c.fold(1, -1)
}

/// The unit step from `a` towards `b` (they share a line).
pub(super) fn unit(a: Square, b: Square) -> (i8, i8) {
    let df = (b.file().index() as i8 - a.file().index() as i8).signum();
    let dr = (b.rank().index() as i8 - a.rank().index() as i8).signum();
    (df, dr)
}

mod attack;
mod bulk;
mod fast;
mod pins;
mod reference;

use attack::*;
pub use attack::{attacked, attackers};
use bulk::*;
use fast::*;
use pins::*;
pub use reference::legal_moves_by_make_and_test;
use reference::*;

impl Variant for Push {
    const NAME: &'static str = "push";
    const KIND: VariantKind = VariantKind::Push;
    const STANDARD_NOTATION: bool = false;

    fn validate(b: &Board) -> Result<(), FenError> {
        validate_standard(b)?;
        let them = !b.turn();
        if let Some(k) = b.king(them)
            && attacked(b, k, b.turn())
        {
            return Err(FenError::OppositeCheck);
        }
        Ok(())
    }

    fn generate<S: Sink>(b: &Board, sink: &mut S) {
        generate(b, sink);
    }

    fn make(b: &Board, m: Move) -> Board {
        make(b, m)
    }

    fn checkers(b: &Board) -> Bitboard {
        b.king(b.turn()).map_or(Bitboard::EMPTY, |k| attackers(b, k, !b.turn()))
    }

    fn variant_outcome(_b: &Board) -> Option<Outcome> {
        None
    }

    /// Only the material the rules name as dead (§6): bare kings, or a
    /// single knight or bishop against a bare king. Neither side can win then.
    fn has_insufficient_material(b: &Board, _color: Color) -> bool {
        let kings = b.by_role(Role::King);
        let rest = b.occupied() & !kings;
        rest.is_empty() || (!rest.more_than_one() && (rest & (b.by_role(Role::Knight) | b.by_role(Role::Bishop))).any())
    }
}
