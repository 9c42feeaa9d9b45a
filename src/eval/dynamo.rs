//! Dynamo evaluation. Nothing is captured; material goes only by exits, and
//! the game is lost by a king that can be sent off. So: material, mobility,
//! and above all king danger: a king on or near the edge, open lines from it
//! to the edge (a push or pull along them sends it off), enemy sliders on its
//! lines, and pieces next to it that an enemy could use.

use super::Evaluate;
use super::common::{self, Tapered};
use super::terms::weighed;
use super::weights as w;
use crate::attacks::{self, king_attacks};
use crate::board::Board;
use crate::types::{Bitboard, Color, Move, MoveKind, Role};
use crate::variant::Dynamo;

const EDGES: Bitboard = Bitboard(0xff81_8181_8181_81ff);
const RING2: Bitboard = Bitboard(0x007e_4242_4242_7e00);

fn king_danger(b: &Board, c: Color) -> i32 {
    let Some(k) = b.king(c) else { return 0 };
    let occ = b.occupied();
    let mut s = 0;
    if EDGES.contains(k) {
        s += w::DYNAMO_KING_ON_EDGE;
    } else if RING2.contains(k) {
        s += w::DYNAMO_KING_NEAR_EDGE;
    }
    // Enemy sliders that see the king along their own lines.
    let them = b.by_color(!c);
    let rooks = attacks::rook_attacks(k, occ) & them & b.rook_likes();
    let bishops = attacks::bishop_attacks(k, occ) & them & b.bishop_likes();
    s += (rooks | bishops).count() as i32 * w::DYNAMO_SLIDER_ON_KING;
    // Enemy pieces next to the king can push it.
    s += (king_attacks(k) & them).count() as i32 * w::DYNAMO_ENEMY_ADJACENT;
    s
}

fn side(b: &Board, c: Color) -> Tapered {
    let mut t = weighed(&w::DYNAMO_TERMS, |o| {
        common::material_pst_into(b, c, o);
        common::pieces_activity_into(b, c, o);
    });
    let d = king_danger(b, c);
    t += (d, d);
    t
}

/// Material leaving the board in a turn: exits of theirs minus exits of ours.
/// (Inlined: the picker asks it of every turn of every list.)
#[inline(always)]
fn exit_gain(b: &Board, m: Move) -> i32 {
    let value = |sq| {
        b.piece_at(sq).map_or(0, |p| {
            let v = w::DYNAMO_VALUES[p.role.index()].0;
            if p.color == b.turn() { -v } else { v }
        })
    };
    match m.kind() {
        MoveKind::Exit => value(m.from()),
        MoveKind::DisplacementExit => value(m.second_from()),
        MoveKind::ExitDisplacement => value(m.from()),
        MoveKind::TwoExits => value(m.from()) + value(m.second_from()),
        _ => 0,
    }
}

/// The value a promotion adds, to the mover if the pawn is its own, else
/// taken from it.
fn promotion_gain(b: &Board, m: Move) -> i32 {
    let Some(r) = m.promotion_role() else { return 0 };
    let gain = w::DYNAMO_VALUES[r.index()].0 - w::DYNAMO_VALUES[0].0;
    let pawn = if m.promotes_second() { m.second_from() } else { m.from() };
    match b.piece_at(pawn) {
        Some(p) if p.color != b.turn() => -gain,
        _ => gain,
    }
}

const PLIES: usize = 8;
const MOVES: usize = 6;

impl Evaluate for Dynamo {
    /// Turns that threaten to send the king off are searched in quiescence.
    const QSEARCH_CHECKS: bool = true;

    /// Exits come in many more ways than captures (any piece by the edge,
    /// pushed or pulled, with many second parts): quiescence is bounded by
    /// depth and by the number of turns it tries in each position.
    const QSEARCH_PLIES: usize = PLIES;
    const QSEARCH_MOVES: usize = MOVES;

    fn evaluate_classical(b: &Board) -> i32 {
        common::side_to_move_view(b, side)
    }

    /// Tactical turns: those that take material off the board or promote.
    fn is_tactical(b: &Board, m: Move) -> bool {
        exit_gain(b, m) != 0 || m.promotion_role().is_some()
    }

    /// Exits, and promotions counted for the side whose pawn promotes: the
    /// mover may push or pull an enemy pawn to its last rank, which is a
    /// gain for the enemy.
    fn tactical_gain(b: &Board, m: Move) -> i32 {
        exit_gain(b, m) + promotion_gain(b, m)
    }

    fn null_move_ok(b: &Board) -> bool {
        (b.us() & !b.by_role(Role::Pawn) & !b.by_role(Role::King)).any()
            && !<Dynamo as crate::variant::Variant>::is_check(b)
    }
}
