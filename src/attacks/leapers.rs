//! Knight, king and pawn attack tables, computed at compile time.

use crate::types::{Bitboard, Color, Square};

const fn leaper_table(deltas: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut bb = 0u64;
        let mut i = 0;
        while i < deltas.len() {
            if let Some(t) = Square::new(sq as u8).step(deltas[i].0, deltas[i].1) {
                bb |= 1 << t.index();
            }
            i += 1;
        }
        table[sq] = Bitboard(bb);
        sq += 1;
    }
    table
}

static KNIGHT: [Bitboard; 64] = leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
static KING: [Bitboard; 64] = leaper_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
/// Two knight leaps in the same direction (a knight's push in push chess).
static KNIGHT_DOUBLE: [Bitboard; 64] =
    leaper_table(&[(2, 4), (4, 2), (4, -2), (2, -4), (-2, -4), (-4, -2), (-4, 2), (-2, 4)]);
static WHITE_PAWN: [Bitboard; 64] = leaper_table(&[(-1, 1), (1, 1)]);
static BLACK_PAWN: [Bitboard; 64] = leaper_table(&[(-1, -1), (1, -1)]);

/// The squares two equal knight leaps away from `sq` (the middle square then
/// lies on the board too). The relation is symmetric.
#[inline(always)]
pub fn knight_double_leaps(sq: Square) -> Bitboard {
    KNIGHT_DOUBLE[sq.index()]
}

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    match color {
        Color::White => WHITE_PAWN[sq.index()],
        Color::Black => BLACK_PAWN[sq.index()],
    }
}
