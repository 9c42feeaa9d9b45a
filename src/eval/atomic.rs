//! Atomic evaluation. Material counts for less and the king's surroundings
//! for more than in chess: every piece next to one's own king is a target
//! whose capture blows the king up, and an attacked one is a threat of
//! immediate loss.

use super::Evaluate;
use super::common::{self, Tapered};
use super::weights as w;
use crate::attacks::{self, explosion_mask, king_attacks};
use crate::board::Board;
use crate::types::{Bitboard, Color, Move, MoveKind, Role, Square};
use crate::variant::Atomic;

/// Score for a king that a move blows up: larger than any material swing,
/// smaller than mate scores (the search scores the real result).
const KING_BLAST: i32 = 20_000;

/// All squares attacked by the non-king pieces of `c`.
fn attacked_by(b: &Board, c: Color) -> Bitboard {
    let occ = b.occupied();
    let mut att = common::pawn_attack_span(b, c);
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for sq in b.pieces(c, role) {
            att |= attacks::attacks(role, c, sq, occ);
        }
    }
    att
}

/// King danger for `c`, given the squares the enemy attacks.
fn king_danger(b: &Board, c: Color, enemy_att: Bitboard, to_move: bool) -> i32 {
    let (Some(k), Some(tk)) = (b.king(c), b.king(!c)) else {
        return 0;
    };
    let zone = king_attacks(k);
    let ours = b.by_color(c);
    let pawns = b.by_role(Role::Pawn);
    let mut s = (zone & ours & !pawns).count() as i32 * w::ATOMIC_ADJACENT_PIECE
        + (zone & ours & pawns).count() as i32 * w::ATOMIC_ADJACENT_PAWN
        + (zone & enemy_att).count() as i32 * w::ATOMIC_ZONE_ATTACK;
    if zone.contains(tk) {
        s += w::ATOMIC_KINGS_TOUCH;
    } else if to_move {
        // Targets next to our king that the enemy attacks (and could take
        // without blowing up his own king): we must parry at once.
        let threats = zone & ours & enemy_att & !king_attacks(tk);
        if threats.any() {
            s += w::ATOMIC_KING_THREAT;
        }
    }
    s
}

fn side(b: &Board, c: Color, enemy_att: Bitboard, to_move: bool) -> Tapered {
    let mut t = common::base_terms(b, c, &w::ATOMIC_VALUES);
    let d = king_danger(b, c, enemy_att, to_move);
    t += (d, d);
    t
}

/// Whether the side to move's king can be blown up by an enemy capture next
/// move: an own piece next to it is attacked by an enemy piece whose capture
/// would not also take the enemy king.
pub fn king_exposed(b: &Board) -> bool {
    let us = b.turn();
    let (Some(k), Some(tk)) = (b.king(us), b.king(!us)) else {
        return false;
    };
    let zone = king_attacks(k);
    if zone.contains(tk) {
        return false;
    }
    let targets = (zone & b.us()).with(k) & !king_attacks(tk);
    let occ = b.occupied();
    targets.into_iter().any(|t| (b.attackers_to(t, !us, occ) & !b.by_role(Role::King)).any())
}

fn piece_value(b: &Board, sq: Square) -> i32 {
    b.role_at(sq).map_or(0, |r| if r == Role::King { KING_BLAST } else { w::ATOMIC_VALUES[r.index()].0 })
}

impl Evaluate for Atomic {
    fn evaluate(b: &Board) -> i32 {
        let us = b.turn();
        let our_att = attacked_by(b, us);
        let their_att = attacked_by(b, !us);
        let mut t = side(b, us, their_att, true);
        let o = side(b, !us, our_att, false);
        t -= (o.0, o.1);
        common::taper(t, common::phase(b)) + w::TEMPO
    }

    /// Material of the whole blast: enemy pieces removed minus our own.
    fn tactical_gain(b: &Board, m: Move) -> i32 {
        let to = m.to();
        let is_capture = b.occupied().contains(to) || m.kind() == MoveKind::EnPassant;
        if !is_capture {
            return m.promotion_role().map_or(0, |p| w::ATOMIC_VALUES[p.index()].0 - w::ATOMIC_VALUES[0].0);
        }
        let mut removed = (explosion_mask(to) & b.occupied() & !b.by_role(Role::Pawn)).with(to).without(m.from());
        if m.kind() == MoveKind::EnPassant {
            let victim = if b.turn().is_white() { to.offset(-8) } else { to.offset(8) };
            if let Some(v) = victim {
                removed = removed.with(v);
            }
        }
        let mut gain = -piece_value(b, m.from());
        for sq in removed {
            let v = piece_value(b, sq);
            gain += if b.them().contains(sq) { v } else { -v };
        }
        gain
    }

    fn stand_pat_ok(b: &Board) -> bool {
        !<Atomic as crate::variant::Variant>::is_check(b) && !king_exposed(b)
    }
}
