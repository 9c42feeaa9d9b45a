//! The input features: for each point of view (White's and Black's), 768
//! binary features, one per (piece colour relative to that side, role,
//! square seen from that side). Black's view mirrors the board top to
//! bottom, so both sides see their own pieces as White sees White's.

use crate::types::{Color, Piece, Square};

/// Features per point of view: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;

/// The input feature of piece `p` on `sq` seen from `persp`'s side: the
/// viewer's own pieces take features 0..384, the opponent's 384..768;
/// squares are mirrored top to bottom for Black.
#[inline(always)]
pub fn feature(persp: Color, p: Piece, sq: Square) -> usize {
    let theirs = (p.color != persp) as usize;
    let sq = if persp == Color::White { sq.index() } else { sq.index() ^ 56 };
    theirs * 384 + p.role.index() * 64 + sq
}
