//! Dynamo check (rules §6): "threatened with being sent off the board", by
//! the reference's fixed patterns, quirks included (the phantom knight
//! check, and kings on edge squares that never check each other).

use super::geometry::*;
use crate::attacks;
use crate::board::Board;
use crate::types::{Bitboard, Color, Role, Square};

/// The squares next to the edge of the board.
const EDGES: Bitboard = Bitboard(0xff81_8181_8181_81ff);

/// Whether the square on file `f`, rank `r` is on the board.
const fn on_board(f: i8, r: i8) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < 8
}

/// The bit of the square `f`, `r` (on the board).
const fn bit(f: i8, r: i8) -> u64 {
    1u64 << (r * 8 + f)
}

/// For each attacking colour and king square: the squares from which a
/// pawn of that colour checks it (the chess capture squares of k whose
/// diagonal beyond k is off the board).
const PAWN_SOURCES: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        // White pawns move up the board, Black's down.
        let fwd: i8 = if c == 0 { 1 } else { -1 };
        let mut k = 0;
        while k < 64 {
            let (f, r) = ((k % 8) as i8, (k / 8) as i8);
            let mut df: i8 = -1;
            while df <= 1 {
                if on_board(f + df, r - fwd) && !on_board(f - df, r + fwd) {
                    t[c][k] |= bit(f + df, r - fwd);
                }
                df += 2;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// For each king square: the knight squares `k + v` from which a knight
/// checks it, those with `k + 2v` or `k - v` off the board (rules §6).
const KNIGHT_SOURCES: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut k = 0;
    while k < 64 {
        let (f, r) = ((k % 8) as i8, (k / 8) as i8);
        let mut i = 0;
        while i < 8 {
            let v = KNIGHT[i];
            if on_board(f + v.0, r + v.1) && (!on_board(f + 2 * v.0, r + 2 * v.1) || !on_board(f - v.0, r - v.1)) {
                t[k] |= bit(f + v.0, r + v.1);
            }
            i += 1;
        }
        k += 1;
    }
    t
};

/// The pieces of `a` that check the king on `k` by one of the patterns
/// (the same as [`check_sources_reference`], with bitboards: this is the
/// legality test of every turn generated).
#[inline]
pub fn check_sources(b: &Board, k: Square, a: Color) -> Bitboard {
    let mut found = Bitboard::EMPTY;
    let occ = b.occupied();
    // Pawn: an `a` pawn that would capture on k in chess, with the square
    // diagonally beyond k off the board.
    found |= Bitboard(PAWN_SOURCES[a.index()][k.index()]) & b.pieces(a, Role::Pawn);
    // Sliders: the first piece along a line of its own, with a pull (clear
    // to the edge beyond it) or a push (clear to the edge behind the king).
    let queens = b.pieces(a, Role::Queen);
    let rooks = b.pieces(a, Role::Rook) | queens;
    let bishops = b.pieces(a, Role::Bishop) | queens;
    let first = (attacks::rook_attacks(k, occ) & rooks) | (attacks::bishop_attacks(k, occ) & bishops);
    for r in first {
        let Some(d) = attacks::direction(k, r) else { continue };
        if (attacks::ray(r, d) & occ).is_empty() || (attacks::ray(k, d.opposite()) & occ).is_empty() {
            found = found.with(r);
        }
    }
    // Knight: a knight a leap away, with k + 2v or k - v off the board
    // (the first clause is the phantom check of rules §6).
    found |= Bitboard(KNIGHT_SOURCES[k.index()]) & b.pieces(a, Role::Knight);
    // King: k on the edge, with a king (of either colour) on a neighbouring
    // non-edge square.
    if EDGES.contains(k) {
        found |= attacks::king_attacks(k) & b.by_role(Role::King) & !EDGES;
    }
    found
}

/// The squares whose contents decide whether the king of `c` is in check
/// ([`check_sources`] looks at nothing else): its own, those on its lines
/// to the edge, and its knight squares. Everything when it has no king.
#[inline]
pub fn relevant(b: &Board, c: Color) -> Bitboard {
    b.king(c).map_or(Bitboard::FULL, |k| {
        attacks::queen_attacks(k, Bitboard::EMPTY) | attacks::knight_attacks(k) | Bitboard::from_square(k)
    })
}

/// Whether the king of `c` is in check.
pub fn in_check(b: &Board, c: Color) -> bool {
    b.king(c).is_some_and(|k| check_sources(b, k, !c).any())
}

/// Whether `a` "attacks" the square `s` (castling path test, rules §8).
pub fn attacked(b: &Board, s: Square, a: Color) -> bool {
    check_sources(b, s, a).any()
}

#[cfg(test)]
#[allow(clippy::all)]
mod reference {
    use super::super::geometry::*;
    use crate::board::Board;
    use crate::types::{Bitboard, Color, Piece, Role, Square};

    /// [`check_sources`] written as the patterns read, square by square (the
    /// fast version is tested against it).
    pub fn check_sources_reference(b: &Board, k: Square, a: Color) -> Bitboard {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Piece, SplitMix};

    /// Random boards (any pieces anywhere, kings included): the fast test
    /// finds exactly the sources the patterns, read square by square, find,
    /// from every square and for both colours.
    #[test]
    fn bitboard_checks_equal_the_patterns() {
        let mut rng = SplitMix::new(42);
        let roles = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
        for _ in 0..3000 {
            let mut b = Board::empty();
            let n = 2 + rng.next_u64() % 24;
            for _ in 0..n {
                let sq = Square::new((rng.next_u64() % 64) as u8);
                let role = roles[(rng.next_u64() % 6) as usize];
                let color = if rng.next_u64().is_multiple_of(2) { Color::White } else { Color::Black };
                if b.piece_at(sq).is_none() {
                    b.put(sq, Piece::new(color, role));
                }
            }
            for k in 0..64 {
                let k = Square::new(k);
                for a in Color::ALL {
                    assert_eq!(
                        check_sources(&b, k, a),
                        reference::check_sources_reference(&b, k, a),
                        "{} from {k} by {a:?}",
                        b.board_fen()
                    );
                }
            }
        }
    }
}
