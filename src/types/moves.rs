//! `Move`: one `u32` for every variant's move, and `MoveList`.
//!
//! Bit layout (unused fields are zero so that `==` is exact, e.g. for killers
//! and the transposition table):
//!
//! | bits  | field        | meaning                                                    |
//! |-------|--------------|------------------------------------------------------------|
//! | 0-5   | from         | origin of the acting piece                                 |
//! | 6-11  | to           | destination of the acting piece                            |
//! | 12-14 | promotion    | 0 = none, else `Role` index (knight 1 ... queen 4)          |
//! | 15-18 | kind         | [`MoveKind`]                                               |
//! | 19-24 | second from  | origin of a second displaced piece (castling rook, pushed piece) |
//! | 25-30 | second to    | its destination                                            |
//! | 31    | promote 2nd  | the promotion applies to the second piece, not the acting one |
//!
//! Pieces leaving the board are expressed by the kind (`Exit` and Dynamo's
//! two-part kinds): the corresponding `to` field is then unused and zero.

use super::{Role, Square};
use arrayvec::ArrayVec;
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u32);

const FROM_SHIFT: u32 = 0;
const TO_SHIFT: u32 = 6;
const PROMO_SHIFT: u32 = 12;
const KIND_SHIFT: u32 = 15;
const FROM2_SHIFT: u32 = 19;
const TO2_SHIFT: u32 = 25;
const PROMO2_BIT: u32 = 1 << 31;
const SQ_MASK: u32 = 63;
const PROMO_MASK: u32 = 7;
const KIND_MASK: u32 = 15;

const _: () = assert!(TO2_SHIFT + 6 == 31, "move fields must fit below the promote-second bit");
const _: () = assert!(std::mem::size_of::<Move>() == 4);

/// What kind of move this is. Chess and atomic use the first four; the others
/// are for variants whose moves displace a second piece or take one off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum MoveKind {
    Normal = 0,
    /// Pawn double step: sets the en-passant square.
    DoublePawn = 1,
    /// En-passant capture: the victim stands behind `to`.
    EnPassant = 2,
    /// Castling: `from`/`to` are the king's squares, second from/to the rook's.
    Castle = 3,
    /// The acting piece leaves the board (no destination).
    Exit = 4,
    /// The acting piece moves and a second piece is displaced on the board.
    Shove = 5,
    // 6 is unused (push never shoves a piece off the board).
    /// Two-part turn (Dynamo): a displacement `from`→`to`, then a second
    /// displacement `second_from`→`second_to`.
    TwoDisplacements = 7,
    /// Two-part turn: a displacement, then the piece on `second_from` exits.
    DisplacementExit = 8,
    /// Two-part turn: the piece on `from` exits, then a displacement.
    ExitDisplacement = 9,
    /// Two-part turn: two exits.
    TwoExits = 10,
}

impl MoveKind {
    const fn from_bits(b: u32) -> MoveKind {
        match b {
            1 => MoveKind::DoublePawn,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Castle,
            4 => MoveKind::Exit,
            5 => MoveKind::Shove,
            7 => MoveKind::TwoDisplacements,
            8 => MoveKind::DisplacementExit,
            9 => MoveKind::ExitDisplacement,
            10 => MoveKind::TwoExits,
            _ => MoveKind::Normal,
        }
    }
}

impl Move {
    /// The null move (a1a1, normal); never legal, used as "no move".
    pub const NONE: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move((from.u8() as u32) << FROM_SHIFT | (to.u8() as u32) << TO_SHIFT | (kind as u32) << KIND_SHIFT)
    }

    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::new(from, to, MoveKind::Normal)
    }

    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        Move(Move::normal(from, to).0 | (role as u32) << PROMO_SHIFT)
    }

    /// Castling, king from/to plus rook from/to.
    #[inline(always)]
    pub const fn castle(king: Square, king_to: Square, rook: Square, rook_to: Square) -> Move {
        Move::new(king, king_to, MoveKind::Castle).with_second(rook, rook_to)
    }

    /// Sets the second piece's origin and destination.
    #[inline(always)]
    pub const fn with_second(self, from: Square, to: Square) -> Move {
        Move(self.0 | (from.u8() as u32) << FROM2_SHIFT | (to.u8() as u32) << TO2_SHIFT)
    }

    /// Sets a promotion that applies to the acting piece.
    #[inline(always)]
    pub const fn with_promotion(self, role: Role) -> Move {
        Move(self.0 | (role as u32) << PROMO_SHIFT)
    }

    /// Sets a promotion that applies to the second piece.
    #[inline(always)]
    pub const fn with_second_promotion(self, role: Role) -> Move {
        Move(self.0 | (role as u32) << PROMO_SHIFT | PROMO2_BIT)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new(((self.0 >> FROM_SHIFT) & SQ_MASK) as u8)
    }
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new(((self.0 >> TO_SHIFT) & SQ_MASK) as u8)
    }
    #[inline(always)]
    pub const fn second_from(self) -> Square {
        Square::new(((self.0 >> FROM2_SHIFT) & SQ_MASK) as u8)
    }
    #[inline(always)]
    pub const fn second_to(self) -> Square {
        Square::new(((self.0 >> TO2_SHIFT) & SQ_MASK) as u8)
    }
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        MoveKind::from_bits((self.0 >> KIND_SHIFT) & KIND_MASK)
    }
    #[inline(always)]
    pub const fn promotion_role(self) -> Option<Role> {
        match (self.0 >> PROMO_SHIFT) & PROMO_MASK {
            0 => None,
            r => Role::from_index(r),
        }
    }
    /// True when the promotion (if any) applies to the second piece.
    #[inline(always)]
    pub const fn promotes_second(self) -> bool {
        self.0 & PROMO2_BIT != 0
    }
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }
    #[inline(always)]
    pub const fn from_raw(raw: u32) -> Move {
        Move(raw)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({}{}", self.from(), self.to())?;
        if let Some(r) = self.promotion_role() {
            write!(f, "={}", r.char())?;
        }
        if !matches!(self.kind(), MoveKind::Normal) {
            write!(f, " {:?} {}{}", self.kind(), self.second_from(), self.second_to())?;
        }
        write!(f, ")")
    }
}

/// Capacity of a move list. The witness for chess is
/// `R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1` with 218 legal moves;
/// atomic positions have at most as many moves as the same chess position.
/// Dynamo turns are many more: the largest count in its suite is 221, and a
/// position with queens on open lines can have several hundred (each sliding
/// follower may stop on any square of its line), hence the margin. The Dynamo
/// generator stops adding turns at the capacity rather than overflow.
pub const MAX_MOVES: usize = 1024;

pub type MoveList = ArrayVec<Move, MAX_MOVES>;
