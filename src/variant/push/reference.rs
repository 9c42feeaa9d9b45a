//! The reference generator: square walks and make-and-test.
//!
//! Slow and plain on purpose: `legal_moves_by_make_and_test` is the
//! definition of the legal moves that the fast generator below is tested
//! against (it shares only the orthodox piece moves and `make`).

use super::*;

/// Appends the pushes of the piece on `a` onto its own piece `t` along the
/// vector (df, dr), `unit` telling blocks (riders, pawns) from knight leaps.
pub(super) fn push_moves(b: &Board, a: Square, t: Square, (df, dr): (i8, i8), unit_step: bool, out: &mut MoveList) {
    let us = b.turn();
    let own = b.us();
    let mut front = t;
    let mut landing = t.step(df, dr);
    if unit_step {
        while let Some(l) = landing {
            if !own.contains(l) {
                break;
            }
            front = l;
            landing = l.step(df, dr);
        }
    }
    let Some(l) = landing else { return }; // shoved off the board: no move
    if own.contains(l) {
        return; // a knight pushes one piece only
    }
    let front_is_pawn = b.pieces(us, Role::Pawn).contains(front);
    if front_is_pawn && l.rank() == first_rank(us) {
        return;
    }
    let m = Move::new(a, t, MoveKind::Shove).with_second(t, l);
    if front_is_pawn && l.rank() == last_rank(us) {
        for r in Role::PROMOTIONS {
            out.push(m.with_second_promotion(r));
        }
    } else {
        out.push(m);
    }
}

/// Orthodox non-king moves (no en passant, no castling) of our pieces in
/// `pieces`, into any sink.
pub(super) fn orthodox_piece_moves<S: Sink>(b: &Board, pieces: Bitboard, sink: &mut S) {
    let us = b.turn();
    let own = b.us();
    let occ = b.occupied();
    for from in b.by_role(Role::Knight) & pieces {
        sink.piece(from, knight_attacks(from) & !own);
    }
    for from in b.bishop_likes() & pieces {
        sink.piece(from, bishop_attacks(from, occ) & !own);
    }
    for from in b.rook_likes() & pieces {
        sink.piece(from, rook_attacks(from, occ) & !own);
    }
    movegen::pawn_moves(us, b.pieces(us, Role::Pawn) & pieces, !occ, !own, b.them(), sink);
}

/// King steps, castling (judged with the full attacker set) and en passant.
pub(super) fn special_moves(b: &Board, ksq: Square, out: &mut MoveList) {
    let us = b.turn();
    let mut sink = ListSink(out);
    sink.piece(ksq, king_attacks(ksq) & !b.us());
    if let Some(ep) = b.ep_square() {
        for from in attacks::pawn_attacks(!us, ep) & b.pieces(us, Role::Pawn) {
            sink.one(Move::new(from, ep, MoveKind::EnPassant));
        }
    }
    movegen::castling(b, ksq, &mut sink, |s, _| attackers(b, s, !us).any());
}

/// Every pseudo-legal move: orthodox ones and pushes.
pub(super) fn pseudo_legal(b: &Board, out: &mut MoveList) {
    let Some(ksq) = b.king(b.turn()) else { return };
    special_moves(b, ksq, out);
    orthodox_piece_moves(b, b.us().without(ksq), &mut ListSink(out));
    push_moves_all(b, out);
}

/// Every pseudo-legal push.
pub(super) fn push_moves_all(b: &Board, out: &mut MoveList) {
    let us = b.turn();
    let own = b.us();
    let occ = b.occupied();
    for a in b.rook_likes() & own {
        for t in rook_attacks(a, occ) & own {
            push_moves(b, a, t, unit(a, t), true, out);
        }
    }
    for a in b.bishop_likes() & own {
        for t in bishop_attacks(a, occ) & own {
            push_moves(b, a, t, unit(a, t), true, out);
        }
    }
    for a in b.pieces(us, Role::Knight) {
        for t in knight_attacks(a) & own {
            let v = (t.file().index() as i8 - a.file().index() as i8, t.rank().index() as i8 - a.rank().index() as i8);
            push_moves(b, a, t, v, false, out);
        }
    }
    for a in b.pieces(us, Role::Pawn) {
        for t in attacks::pawn_attacks(us, a) & own {
            push_moves(b, a, t, unit(a, t), true, out);
        }
    }
}

/// Castling rights that still hold: the king on its home square and the
/// rook of the same colour on its corner (rules §4).
pub(super) fn surviving_rights(b: &Board, rights: Bitboard) -> Bitboard {
    let mut keep = Bitboard::EMPTY;
    for sq in rights {
        let c = if sq.rank() == Rank::FIRST { Color::White } else { Color::Black };
        let home = c.fold(Square::E1, Square::E8);
        if b.piece_at(sq) == Some(Piece::new(c, Role::Rook)) && b.piece_at(home) == Some(Piece::new(c, Role::King)) {
            keep = keep.with(sq);
        }
    }
    keep
}

pub(super) fn make(b: &Board, m: Move) -> Board {
    if m.kind() != MoveKind::Shove {
        // An orthodox move loses the rights it would lose in chess, which
        // are exactly those whose king or rook leaves its square.
        return crate::variant::chess::make_standard(b, m);
    }
    let mut nb = b.clone();
    let (a, t, l) = (m.from(), m.to(), m.second_to());
    let active = b.role_at(a).unwrap_or(Role::Knight);
    // Every piece of the block moves by the step from its front to l.
    let step = match attacks::direction(t, l) {
        Some(d) if active != Role::Knight => d.delta(),
        _ => l.u8() as i8 - t.u8() as i8,
    };
    let mut pawn_moved = active == Role::Pawn;
    let captured = nb.take(l).is_some();
    // Shift the block from the front backwards, then the active piece.
    let mut sq = l;
    loop {
        let src = Square::new((sq.u8() as i8 - step) as u8);
        if let Some(p) = nb.take(src) {
            pawn_moved |= p.role == Role::Pawn;
            nb.put(sq, p);
        }
        if src == t {
            break;
        }
        sq = src;
    }
    nb.relocate(a, t);
    if let Some(r) = m.promotion_role() {
        nb.take(l);
        nb.put(l, Piece::new(b.turn(), r));
    }
    if nb.castling().any() {
        let rights = surviving_rights(&nb, nb.castling());
        nb.set_castling(rights);
    }
    nb.set_ep_square(None);
    nb.pass_turn(captured || pawn_moved);
    nb
}

/// Every legal move by plain make-and-test of every pseudo-legal move: the
/// slow, obviously correct definition (rules §3.3) that tests compare the
/// fast generator of `legal_moves` with.
pub fn legal_moves_by_make_and_test(b: &Board, out: &mut MoveList) {
    let mut pseudo = MoveList::new();
    pseudo_legal(b, &mut pseudo);
    out.extend(pseudo.iter().copied().filter(|&m| legal_after(b, m)));
}

/// Make-and-test: our king is not attacked after the move.
pub(super) fn legal_after(b: &Board, m: Move) -> bool {
    let after = make(b, m);
    after.king(b.turn()).is_some_and(|k| attackers(&after, k, !b.turn()).is_empty())
}
