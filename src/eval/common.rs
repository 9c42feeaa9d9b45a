//! Helpers shared by the chess-like evaluators: piece-square tables (from
//! simple formulas), material and phase, mobility, pawn structure.

use super::terms::{Term, Terms};
use super::weights as w;
use crate::attacks;
use crate::board::Board;
use crate::types::{Bitboard, Color, File, Role, Square};

/// A tapered score: (middlegame, endgame).
#[derive(Clone, Copy, Default, Debug)]
pub struct Tapered(pub i32, pub i32);

impl std::ops::AddAssign<(i32, i32)> for Tapered {
    fn add_assign(&mut self, (m, e): (i32, i32)) {
        self.0 += m;
        self.1 += e;
    }
}

impl std::ops::SubAssign<(i32, i32)> for Tapered {
    fn sub_assign(&mut self, (m, e): (i32, i32)) {
        self.0 -= m;
        self.1 -= e;
    }
}

/// Piece-square bonus of `role` on `sq` for white (mirror the square for black).
/// Built from a few formulas rather than tables: centralisation for pieces,
/// advancement for pawns, shelter then centralisation for the king. The
/// evaluation reads them from [`PST`], computed from this once.
pub const fn pst(role: Role, sq: Square) -> (i32, i32) {
    const fn max(a: i32, b: i32) -> i32 {
        if a > b { a } else { b }
    }
    let f = (sq.index() % 8) as i32;
    let r = (sq.index() / 8) as i32;
    // Distance from the centre, 0 (d4/e5...) to 3 (corners), doubled to stay integral.
    let cd = max((2 * f - 7).abs(), (2 * r - 7).abs()) / 2;
    let central_file = max(3 - (2 * f - 7).abs() / 2, 0);
    match role {
        Role::Pawn => {
            let adv = max(r - 1, 0);
            (adv * 4 + if r >= 2 && r <= 4 { central_file * 4 } else { 0 }, adv * adv * 3)
        }
        Role::Knight => (-(cd * 12), -(cd * 10)),
        Role::Bishop => (-(cd * 6), -(cd * 5)),
        Role::Rook => (if r == 6 { 15 } else { 0 } + central_file * 2, 0),
        Role::Queen => (-(cd * 3), -(cd * 6)),
        Role::King => {
            let shelter = if r == 0 { [20, 25, 10, 0, 0, 10, 25, 20][f as usize] } else { -15 * r };
            (shelter, -(cd * 14))
        }
    }
}

/// The square as seen by `c` (white's squares unchanged, black's mirrored).
#[inline]
pub fn relative(c: Color, sq: Square) -> Square {
    if c.is_white() { sq } else { sq.flip_vertical() }
}

/// [`pst`] of every role (by index) on every square, for white.
static PST: [[(i32, i32); 64]; 6] = {
    let mut t = [[(0, 0); 64]; 6];
    let mut r = 0;
    while r < 6 {
        let mut sq = 0;
        while sq < 64 {
            t[r][sq] = pst(Role::ALL[r], Square::new(sq as u8));
            sq += 1;
        }
        r += 1;
    }
    t
};

/// Material plus piece-square tables for one side.
pub fn material_pst_into<T: Terms>(b: &Board, c: Color, out: &mut T) {
    for role in Role::ALL {
        let pieces = b.pieces(c, role);
        if role != Role::King && pieces.any() {
            out.add(Term::MATERIAL[role.index()], pieces.count() as i32);
        }
        let table = &PST[role.index()];
        for sq in pieces {
            out.fixed(table[relative(c, sq).index()]);
        }
    }
}

/// Game phase, 0 (bare kings) to `PHASE_TOTAL` (all pieces).
pub fn phase(b: &Board) -> i32 {
    Role::ALL.iter().map(|&r| b.by_role(r).count() as i32 * w::PHASE[r.index()]).sum::<i32>().min(w::PHASE_TOTAL)
}

/// Blends a tapered score by phase.
pub fn taper(t: Tapered, phase: i32) -> i32 {
    (t.0 * phase + t.1 * (w::PHASE_TOTAL - phase)) / w::PHASE_TOTAL
}

/// Squares attacked by the pawns of `c`.
pub fn pawn_attack_span(b: &Board, c: Color) -> Bitboard {
    let p = b.pieces(c, Role::Pawn);
    let fwd = if c.is_white() { p.north() } else { p.south() };
    fwd.east() | fwd.west()
}

/// Mobility, bishop pair, rooks on open files.
pub fn pieces_activity_into<T: Terms>(b: &Board, c: Color, out: &mut T) {
    let occ = b.occupied();
    let safe = !b.by_color(c) & !pawn_attack_span(b, !c);
    let roles = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
    for (i, role) in roles.into_iter().enumerate() {
        for sq in b.pieces(c, role) {
            let n = (attacks::attacks(role, c, sq, occ) & safe).count() as i32;
            out.add(Term::MOBILITY[i], n);
        }
    }
    if b.pieces(c, Role::Bishop).more_than_one() {
        out.add(Term::BishopPair, 1);
    }
    let pawns = b.by_role(Role::Pawn);
    for sq in b.pieces(c, Role::Rook) {
        if (Bitboard::file(sq.file()) & pawns).is_empty() {
            out.add(Term::RookOpenFile, 1);
        }
    }
}

/// Doubled, isolated and passed pawns.
pub fn pawn_structure_into<T: Terms>(b: &Board, c: Color, out: &mut T) {
    let ours = b.pieces(c, Role::Pawn);
    let theirs = b.pieces(!c, Role::Pawn);
    for sq in ours {
        let f = sq.file().index();
        let file_bb = Bitboard::file(sq.file());
        let mut adj = Bitboard::EMPTY;
        if f > 0 {
            adj |= Bitboard::file(File::new(f as u8 - 1));
        }
        if f < 7 {
            adj |= Bitboard::file(File::new(f as u8 + 1));
        }
        if (ours & file_bb).more_than_one() {
            out.add(Term::DoubledPawn, 1);
        }
        if (ours & adj).is_empty() {
            out.add(Term::IsolatedPawn, 1);
        }
        let rel_rank = relative(c, sq).rank().index();
        // Squares in front of the pawn on its file and the adjacent files.
        let front = (file_bb | adj) & ahead(c, sq);
        if (theirs & front).is_empty() && (1..=6).contains(&rel_rank) {
            out.add(Term::PASSED[rel_rank - 1], 1);
        }
    }
}

/// Every square strictly ahead of `sq`'s rank for `c`.
fn ahead(c: Color, sq: Square) -> Bitboard {
    let r = sq.rank().index();
    if c.is_white() {
        if r == 7 { Bitboard::EMPTY } else { Bitboard(!0u64 << (8 * (r + 1))) }
    } else if r == 0 {
        Bitboard::EMPTY
    } else {
        Bitboard(!0u64 >> (8 * (8 - r)))
    }
}

/// The terms every chess-like evaluator starts from: material and
/// piece-square tables, piece activity, pawn structure.
pub fn base_terms_into<T: Terms>(b: &Board, c: Color, out: &mut T) {
    material_pst_into(b, c, out);
    pieces_activity_into(b, c, out);
    pawn_structure_into(b, c, out);
}

/// The evaluation from the side to move's view: `side(b, us) - side(b, them)`,
/// tapered by phase, plus the tempo bonus. `side` scores one colour.
pub fn side_to_move_view(b: &Board, side: impl Fn(&Board, Color) -> Tapered) -> i32 {
    let us = b.turn();
    let mut t = side(b, us);
    let o = side(b, !us);
    t -= (o.0, o.1);
    taper(t, phase(b)) + w::TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table holds each role's bonus on each square, white's view,
    /// and black's pieces read it mirrored: a knight on g1 for white is
    /// worth what one on g8 is for black.
    #[test]
    fn the_table_is_the_formulas() {
        for role in Role::ALL {
            for i in 0..64 {
                let sq = Square::new(i);
                assert_eq!(PST[role.index()][sq.index()], pst(role, sq), "{role:?} {sq}");
                assert_eq!(PST[role.index()][relative(Color::Black, sq).index()], pst(role, sq.flip_vertical()));
            }
        }
        assert_eq!(pst(Role::Knight, Square::parse("a1").unwrap()), (-36, -30));
        assert_eq!(pst(Role::King, Square::parse("g1").unwrap()), (25, -42));
    }
}
