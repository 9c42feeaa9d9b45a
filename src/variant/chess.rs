//! Standard chess: legal move generation with check and pin masks, and
//! copy-make. Atomic reuses the making of non-capturing moves from here.

use super::movegen::{self, Sink};
use super::{Outcome, Variant, VariantKind};
use crate::attacks::{self, between};
use crate::board::{Board, FenError};
use crate::types::{Bitboard, Color, Move, MoveKind, Piece, Rank, Role, Square};

#[derive(Clone, Copy, Debug, Default)]
pub struct Chess;

/// Legal chess moves into `sink`.
fn generate<S: Sink>(b: &Board, sink: &mut S) {
    let us = b.turn();
    let them = !us;
    let Some(ksq) = b.king(us) else { return };
    let occ = b.occupied();
    let ours = b.us();
    let checkers = b.attackers_to(ksq, them, occ);

    // King steps: the destination must not be attacked once the king has left
    // its square (so it cannot hide behind itself on a slider's line).
    let occ_without_king = occ.without(ksq);
    let mut king_targets = Bitboard::EMPTY;
    for t in attacks::king_attacks(ksq) & !ours {
        if b.attackers_to(t, them, occ_without_king).is_empty() {
            king_targets = king_targets.with(t);
        }
    }
    sink.piece(ksq, king_targets);

    if checkers.more_than_one() {
        return;
    }
    let mask = match checkers.first() {
        Some(c) => between(ksq, c).with(c),
        None => !ours,
    };
    let (pinned, _) = movegen::pins(b, ksq);
    movegen::piece_moves(b, ksq, pinned, mask, sink, |_, t| t);

    let pawns = b.pieces(us, Role::Pawn);
    let empty = !occ;
    let theirs = b.them();
    movegen::pawn_moves(us, pawns & !pinned, empty, mask, mask & theirs, sink);
    for p in pawns & pinned {
        let ray = mask & attacks::line(ksq, p);
        movegen::pawn_moves(us, Bitboard::from_square(p), empty, ray, ray & theirs, sink);
    }

    if let Some(ep) = b.ep_square() {
        let victim = Square::new((ep.u8() as i8 - movegen::up(us)) as u8);
        for from in attacks::pawn_attacks(them, ep) & pawns {
            // Exact test: two pawns leave one rank, so both pins and
            // checks are judged on the occupancy after the capture.
            let occ_after = occ.without(from).without(victim).with(ep);
            let attackers = b.attackers_to(ksq, them, occ_after).without(victim);
            if attackers.is_empty() {
                sink.one(Move::new(from, ep, MoveKind::EnPassant));
            }
        }
    }

    movegen::castling(b, ksq, sink, |s, occ| b.attackers_to(s, them, occ).any());
}

/// Makes a move that explodes nothing: a chess move, or a non-capture in atomic.
/// Handles captures too (plain removal), castling, en passant and promotion.
pub(crate) fn make_standard(b: &Board, m: Move) -> Board {
    let mut nb = b.clone();
    let us = b.turn();
    let (from, to) = (m.from(), m.to());
    let Some(moved) = nb.take(from) else {
        debug_assert!(false, "no piece on {from} for {m:?}");
        return nb;
    };
    let mut reset = moved.role == Role::Pawn;
    let mut rights = nb.castling().without(from).without(to);
    match m.kind() {
        MoveKind::Castle => {
            nb.take(m.second_from());
            nb.put(to, moved);
            nb.put(m.second_to(), Piece::new(us, Role::Rook));
        }
        MoveKind::EnPassant => {
            let victim = Square::new((to.u8() as i8 - movegen::up(us)) as u8);
            nb.take(victim);
            nb.put(to, moved);
            reset = true;
        }
        _ => {
            reset |= nb.take(to).is_some();
            let role = m.promotion_role().unwrap_or(moved.role);
            nb.put(to, Piece::new(us, role));
        }
    }
    if moved.role == Role::King {
        rights &= !Bitboard::rank(us.fold(Rank::FIRST, Rank::EIGHTH));
    }
    nb.set_castling(rights);
    nb.set_ep_square(None);
    nb.pass_turn(reset);
    if m.kind() == MoveKind::DoublePawn {
        let mid = Square::new((from.u8() + to.u8()) / 2);
        nb.set_ep_square(nb.capturable_ep(mid));
    }
    nb
}

/// Standard chess rule on insufficient material for one side (as FIDE and
/// shakmaty read it: a side can still win if any legal sequence lets it mate).
fn chess_insufficient(b: &Board, color: Color) -> bool {
    let ours = b.by_color(color);
    if (ours & (b.by_role(Role::Pawn) | b.rook_likes())).any() {
        return false;
    }
    let theirs = b.by_color(!color);
    if (ours & b.by_role(Role::Knight)).any() {
        // A lone knight mates only if the defender has pieces to block his own king.
        return ours.count() <= 2 && (theirs & !b.by_role(Role::King) & !b.by_role(Role::Queen)).is_empty();
    }
    if (ours & b.by_role(Role::Bishop)).any() {
        let bishops = b.by_role(Role::Bishop);
        let same_colour =
            (bishops & Bitboard::DARK_SQUARES).is_empty() || (bishops & !Bitboard::DARK_SQUARES).is_empty();
        return same_colour && b.by_role(Role::Knight).is_empty() && b.by_role(Role::Pawn).is_empty();
    }
    true
}

/// Exactly one king each, and the side not to move is not in check.
pub(crate) fn validate_standard(b: &Board) -> Result<(), FenError> {
    for c in Color::ALL {
        if b.king(c).is_none() {
            return Err(FenError::MissingKing(c));
        }
    }
    Ok(())
}

/// Whether the check on the side to move (by `checkers`) is one that no
/// legal move of orthodox chess can give, as python-chess's `status()`
/// reads it: a move gives at most two checks, one by the piece moved (or
/// castled rook, or promoted piece) and one uncovered, which is a line
/// piece; and two checks on one line through the king, from both sides,
/// cannot both be new. Variants whose moves move several pieces at once
/// (atomic explosions, push's blocks) can give more, and do not use this.
pub(crate) fn impossible_check(b: &Board, checkers: Bitboard) -> bool {
    let Some(king) = b.king(b.turn()) else { return false };
    match checkers.count() {
        0 | 1 => false,
        2 => {
            let first = checkers.lsb();
            let second = checkers.without(first).lsb();
            let line_pieces = b.by_role(Role::Bishop) | b.by_role(Role::Rook) | b.by_role(Role::Queen);
            crate::attacks::line(first, second).contains(king) || (checkers & line_pieces).is_empty()
        }
        _ => true,
    }
}

impl Variant for Chess {
    const NAME: &'static str = "chess";
    const KIND: VariantKind = VariantKind::Chess;
    const CHESS960: bool = true;

    fn validate(b: &Board) -> Result<(), FenError> {
        validate_standard(b)?;
        let them = !b.turn();
        if let Some(k) = b.king(them)
            && b.attackers_to(k, b.turn(), b.occupied()).any()
        {
            return Err(FenError::OppositeCheck);
        }
        let checkers = Self::checkers(b);
        if impossible_check(b, checkers) {
            return Err(FenError::ImpossibleCheck(checkers.count()));
        }
        Ok(())
    }

    fn generate<S: Sink>(b: &Board, sink: &mut S) {
        generate(b, sink);
    }

    fn make(b: &Board, m: Move) -> Board {
        make_standard(b, m)
    }

    fn checkers(b: &Board) -> Bitboard {
        b.king(b.turn()).map_or(Bitboard::EMPTY, |k| b.attackers_to(k, !b.turn(), b.occupied()))
    }

    fn has_insufficient_material(b: &Board, color: Color) -> bool {
        chess_insufficient(b, color)
    }

    fn variant_outcome(_b: &Board) -> Option<Outcome> {
        None
    }
}
