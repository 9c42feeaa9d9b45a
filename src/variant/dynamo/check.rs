//! Dynamo check (rules §6): "threatened with being sent off the board", by
//! the reference's fixed patterns, quirks included (the phantom knight
//! check, and kings on edge squares that never check each other).

use super::geometry::*;
use crate::board::Board;
use crate::types::{Bitboard, Color, Piece, Role, Square};

/// The pieces of `a` that check the king on `k` by one of the patterns.
pub fn check_sources(b: &Board, k: Square, a: Color) -> Bitboard {
    let mut found = Bitboard::EMPTY;
    let occ = b.occupied();
    // Pawn: an `a` pawn that would capture on k in chess, with the square
    // diagonally beyond k off the board.
    for df in [-1i8, 1] {
        if let Some(p) = k.step(df, -forward(a))
            && b.piece_at(p) == Some(Piece::new(a, Role::Pawn))
            && k.step(-df, forward(a)).is_none()
        {
            found = found.with(p);
        }
    }
    // Rook / bishop / queen: the first piece along a direction of its own,
    // with a pull (clear to the edge beyond it) or a push (clear to the edge
    // behind the king).
    for (role, dirs) in [(Role::Rook, &ORTH[..]), (Role::Bishop, &DIAG[..]), (Role::Queen, &ALL8[..])] {
        if b.pieces(a, role).is_empty() {
            continue;
        }
        for &u in dirs {
            let mut t = k.step(u.0, u.1);
            while let Some(sq) = t {
                if occ.contains(sq) {
                    break;
                }
                t = sq.step(u.0, u.1);
            }
            let Some(r) = t else { continue };
            if b.piece_at(r) != Some(Piece::new(a, role)) {
                continue;
            }
            if clear_to_edge(b, r, u) || clear_to_edge(b, k, neg(u)) {
                found = found.with(r);
            }
        }
    }
    // Knight: a knight a leap away, with k + 2v or k - v off the board
    // (the first clause is the phantom check of rules §6).
    for v in KNIGHT {
        if let Some(x) = k.step(v.0, v.1)
            && b.piece_at(x) == Some(Piece::new(a, Role::Knight))
            && (k.step(2 * v.0, 2 * v.1).is_none() || k.step(-v.0, -v.1).is_none())
        {
            found = found.with(x);
        }
    }
    // King: k on the edge, with a king on a neighbouring non-edge square.
    if is_edge(k) {
        for u in ALL8 {
            if let Some(x) = k.step(u.0, u.1)
                && !is_edge(x)
                && b.role_at(x) == Some(Role::King)
            {
                found = found.with(x);
            }
        }
    }
    found
}

/// Whether the king of `c` is in check.
pub fn in_check(b: &Board, c: Color) -> bool {
    b.king(c).is_some_and(|k| check_sources(b, k, !c).any())
}

/// Whether `a` "attacks" the square `s` (castling path test, rules §8).
pub fn attacked(b: &Board, s: Square, a: Color) -> bool {
    check_sources(b, s, a).any()
}
