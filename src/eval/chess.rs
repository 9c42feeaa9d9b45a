//! Classical chess evaluation: material, piece-square tables, mobility,
//! pawn structure, king shelter and king-zone attacks, tapered by phase.

use super::Evaluate;
use super::common::{self, Tapered};
use super::terms::weighed;
use super::weights as w;
use crate::attacks;
use crate::board::Board;
use crate::types::{Bitboard, Color, Move, MoveKind, Role};
use crate::variant::Chess;

fn king_safety(b: &Board, c: Color) -> i32 {
    let Some(k) = b.king(c) else { return 0 };
    let zone = attacks::king_attacks(k);
    let occ = b.occupied();
    let mut attacks_on_zone = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for sq in b.pieces(!c, role) {
            attacks_on_zone += (attacks::attacks(role, !c, sq, occ) & zone).count() as i32;
        }
    }
    let shield = zone & b.pieces(c, Role::Pawn) & !Bitboard::rank(k.rank());
    attacks_on_zone * w::KING_ZONE_ATTACK + shield.count() as i32 * w::KING_SHELTER_PAWN
}

fn side(b: &Board, c: Color) -> Tapered {
    let mut t = weighed(&w::CHESS_TERMS, |o| common::base_terms_into(b, c, o));
    t += (king_safety(b, c), 0);
    t
}

impl Evaluate for Chess {
    fn evaluate_classical(b: &Board) -> i32 {
        common::side_to_move_view(b, side)
    }

    fn tactical_gain(b: &Board, m: Move) -> i32 {
        let victim = if m.kind() == MoveKind::EnPassant { Some(Role::Pawn) } else { b.role_at(m.to()) };
        let mut gain = victim.map_or(0, |r| w::CHESS_VALUES[r.index()].0);
        if let Some(p) = m.promotion_role() {
            gain += w::CHESS_VALUES[p.index()].0 - w::CHESS_VALUES[0].0;
        }
        gain
    }
}
