//! The fast generator: moves judged on the occupancy they leave, without
//! copying the board; only pieces on the king's lines (`line_tested`: the
//! pinned ones, or all of them in check) and king moves need a test.

use super::*;

/// Whether our king, standing on `k` after a move of ours that empties the
/// squares `removed` and puts our pieces on `filled`, is safe: [`legal_after`]
/// without making the move. Only the occupancy and the set of enemy pieces
/// change (some are captured), and that is all the attack test reads of the
/// side that is not attacking.
pub(super) fn safe_after(b: &Board, k: Square, removed: Bitboard, filled: Bitboard) -> bool {
    let occ = (b.occupied() & !removed) | filled;
    let them = b.them() & !removed & !filled;
    !attacked_with(b, k, !b.turn(), occ, them)
}

/// Whether, after a move of ours that vacates `a` (on one of the lines of
/// our king on `ksq`), fills the squares `filled` with our pieces and changes
/// nothing else, that line carries no attack on the king: neither an
/// orthodox slider nor a push of an enemy run (rules §3.2 b restricted to
/// the one direction).
pub(super) fn line_stays_safe(b: &Board, a: Square, filled: Bitboard, ksq: Square) -> bool {
    let Some(d) = attacks::direction(ksq, a) else { return true };
    let x = !b.turn();
    let occ = b.occupied().without(a) | filled;
    let them = b.by_color(x) & !filled;
    let sliders = if d.is_orthogonal() { b.rook_likes() } else { b.bishop_likes() } & them;
    line_attackers(ksq, d, occ, them, sliders, b.pieces(x, Role::Pawn) & them, x).is_empty()
}

/// The king's steps, castling and en passant (the moves whose legality is
/// judged on their own); returns the squares the king may step to.
fn king_and_en_passant_moves<S: Sink>(b: &Board, ksq: Square, in_check: bool, sink: &mut S) -> Bitboard {
    let us = b.turn();
    let them = !us;
    let own = b.us();
    let occ = b.occupied();
    let lifted = occ.without(ksq);
    let enemies = b.them();
    let mut steps = Bitboard::EMPTY;
    for t in king_attacks(ksq) & !own {
        if !attacked_with(b, t, them, lifted.with(t), enemies.without(t)) {
            steps = steps.with(t);
        }
    }
    sink.piece(ksq, steps);
    if !in_check {
        // The king's own square is known to be safe (we are not in check),
        // and a square next to it has just been judged as a king step: with
        // the king lifted, which changes nothing for an empty square beside
        // it unless an enemy slider attacked the king through it.
        let near = king_attacks(ksq);
        movegen::castling(b, ksq, sink, |s, _| {
            if near.contains(s) { !steps.contains(s) } else { s != ksq && attacked(b, s, them) }
        });
    }
    if let Some(ep) = b.ep_square() {
        for from in attacks::pawn_attacks(them, ep) & b.pieces(us, Role::Pawn) {
            let victim = Square::new((ep.u8() as i8 - movegen::up(us)) as u8);
            if safe_after(b, ksq, Bitboard::from_square(from).with(victim), Bitboard::from_square(ep)) {
                sink.one(Move::new(from, ep, MoveKind::EnPassant));
            }
        }
    }
    steps
}

/// The legal moves of the side to move, into `sink` (rules §3.3).
///
/// Moves of our king (steps, castling, pushes with the king in the block)
/// and en passant are judged exactly ([`safe_after`]). Every other move
/// vacates only its origin and fills only its destination (for a push: its
/// landing square) with one of our pieces. Filling a square never creates
/// an attack, and a vacated square can only open an attack along a line
/// from the king to an enemy slider, orthodox or by a push of an enemy run.
/// So out of check the moves of all but the [`pinned`] pieces are legal as
/// they stand, and those of pinned ones need only [`line_stays_safe`]. In
/// check every move gets the exact test.
pub(super) fn generate<S: Sink>(b: &Board, sink: &mut S) {
    let us = b.turn();
    let them = !us;
    let Some(ksq) = b.king(us) else { return };
    let own = b.us();
    let occ = b.occupied();
    let in_check = attacked(b, ksq, them);

    let steps = king_and_en_passant_moves(b, ksq, in_check, sink);

    // The pieces that need the line test: pinned ones, or all in check.
    let line_tested = if in_check { Bitboard::FULL } else { pinned(b, ksq) };
    let judge = |a: Square, filled: Bitboard| {
        if in_check {
            safe_after(b, ksq, Bitboard::from_square(a), filled)
        } else {
            !line_tested.contains(a) || line_stays_safe(b, a, filled, ksq)
        }
    };
    let pieces = own.without(ksq);
    // When counting out of check, the sliders' own moves are counted with
    // their pushes below, from the same fills.
    let bulk = S::COUNTS && !in_check;
    let sliders_in_bulk = if bulk { b.rook_likes() | b.bishop_likes() } else { Bitboard::EMPTY };
    orthodox_piece_moves(b, pieces & !line_tested & !sliders_in_bulk, sink);
    let mut tested =
        movegen::FilterSink { inner: &mut *sink, keep: |m: Move| judge(m.from(), Bitboard::from_square(m.to())) };
    orthodox_piece_moves(b, pieces & line_tested, &mut tested);

    // Out of check, when only counting, the pushes of pieces that are not
    // pinned are counted in bulk but for those shoving our king.
    let mut listed = own;
    let mut shoving_king = Bitboard::EMPTY;
    if bulk {
        let n;
        (n, shoving_king) = count_free_pushes(b, pieces & !line_tested, ksq);
        sink.add(n);
        listed = own & line_tested;
        if listed.is_empty() && shoving_king.is_empty() {
            return;
        }
    }
    let pawns = b.pieces(us, Role::Pawn);
    let first = Bitboard::rank(first_rank(us));
    let last = Bitboard::rank(last_rank(us));
    // A push of the active piece on `a` onto our piece on `t`, whose block
    // `block` (t up to the front piece `front`) moves one step; the front
    // piece lands on `l`.
    let mut push = |a: Square, t: Square, front: Square, l: Square, block: Bitboard| {
        let front_is_pawn = pawns.contains(front);
        if front_is_pawn && first.contains(l) {
            return;
        }
        let filled = block.with(l);
        let legal = if block.contains(ksq) {
            // Our king is shoved one step on, as the front piece or inside
            // the block. As the front it lands on l, a square it could step
            // to; if that step is safe, so is this: the block adds our
            // pieces to that position, never an attack, and the vacated
            // origin lies behind the active piece on the only line it
            // shares with l.
            if ksq == front {
                steps.contains(l) || safe_after(b, l, Bitboard::from_square(a), filled)
            } else {
                let k = Square::new((ksq.u8() as i8 + l.u8() as i8 - front.u8() as i8) as u8);
                safe_after(b, k, Bitboard::from_square(a), filled)
            }
        } else {
            judge(a, filled)
        };
        if !legal {
            return;
        }
        let promotes = front_is_pawn && last.contains(l);
        let m = Move::new(a, t, MoveKind::Shove).with_second(t, l);
        if promotes {
            for r in Role::PROMOTIONS {
                sink.one(m.with_second_promotion(r));
            }
        } else {
            sink.one(m);
        }
    };
    // Riders and pawns shove the whole run of our pieces from t on: the
    // front piece and its landing square, if on the board.
    let unit_push = |a: Square, t: Square| {
        let d = attacks::direction(a, t)?;
        let l = attacks::nearest(attacks::ray(t, d) & !own, d).first()?;
        Some((Square::new((l.u8() as i8 - d.delta()) as u8), l, attacks::between(t, l).with(t)))
    };
    let knights = b.pieces(us, Role::Knight);
    for a in shoving_king {
        if knights.contains(a) {
            let l = Square::new((2 * ksq.u8() as i8 - a.u8() as i8) as u8);
            push(a, ksq, ksq, l, Bitboard::from_square(ksq));
        } else if let Some(d) = attacks::direction(a, ksq)
            && let Some(t) = attacks::nearest(attacks::ray(a, d) & occ, d).first()
            && let Some((front, l, block)) = unit_push(a, t)
        {
            push(a, t, front, l, block);
        }
    }
    let riders = (b.rook_likes() & listed).into_iter().map(|a| (a, rook_attacks(a, occ)));
    let riders = riders.chain((b.bishop_likes() & listed).into_iter().map(|a| (a, bishop_attacks(a, occ))));
    let riders = riders.chain((pawns & listed).into_iter().map(|a| (a, attacks::pawn_attacks(us, a))));
    for (a, targets) in riders {
        for t in targets & own {
            if let Some((front, l, block)) = unit_push(a, t) {
                push(a, t, front, l, block);
            }
        }
    }
    for a in knights & listed {
        for (t, l) in knight_pushes(a, own) {
            push(a, t, t, l, Bitboard::from_square(t));
        }
    }
}
