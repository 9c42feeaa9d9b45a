//! Push evaluation: the chess evaluation, plus what pushes change. A piece
//! can be shoved into attack, so own pieces lined up towards the enemy king
//! are threats, and the king's own neighbours can be used against it.

use super::Evaluate;
use super::common::{self, Tapered};
use super::terms::weighed;
use super::weights as w;
use crate::board::Board;
use crate::types::{Color, Move, MoveKind, Role};
use crate::variant::Push;
use crate::variant::push::attackers;

/// King danger from push attacks: enemy attacks (orthodox or push) on the
/// squares around our king.
fn king_zone_pressure(b: &Board, c: Color) -> i32 {
    let Some(k) = b.king(c) else { return 0 };
    let zone = crate::attacks::king_attacks(k);
    let mut hits = 0;
    for sq in zone {
        hits += attackers(b, sq, !c).count() as i32;
    }
    hits * w::PUSH_ZONE_ATTACK
}

fn side(b: &Board, c: Color) -> Tapered {
    let mut t = weighed(&w::CHESS_TERMS, |o| common::base_terms_into(b, c, o));
    t += (king_zone_pressure(b, c), 0);
    t
}

impl Evaluate for Push {
    fn evaluate_classical(b: &Board) -> i32 {
        common::side_to_move_view(b, side)
    }

    fn is_tactical(b: &Board, m: Move) -> bool {
        match m.kind() {
            MoveKind::Shove => b.them().contains(m.second_to()) || m.promotion_role().is_some(),
            MoveKind::EnPassant => true,
            _ => b.occupied().contains(m.to()) || m.promotion_role().is_some(),
        }
    }

    fn tactical_gain(b: &Board, m: Move) -> i32 {
        let target = match m.kind() {
            MoveKind::Shove => m.second_to(),
            _ => m.to(),
        };
        let victim = if m.kind() == MoveKind::EnPassant { Some(Role::Pawn) } else { b.role_at(target) };
        let mut gain = victim
            .filter(|_| b.them().contains(target) || m.kind() == MoveKind::EnPassant)
            .map_or(0, |r| w::CHESS_VALUES[r.index()].0);
        if let Some(p) = m.promotion_role() {
            gain += w::CHESS_VALUES[p.index()].0 - w::CHESS_VALUES[0].0;
        }
        gain
    }
}
