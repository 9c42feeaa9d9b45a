//! Push ("échecs atomiques brésiliens", from echekk.fr; `docs/rules/push.md` is
//! authoritative, its sections are cited below): orthodox chess plus **push**
//! moves. A non-king piece makes one of its capturing moves onto a square `T`
//! held by one of its *own* pieces and shoves that piece one step on: riders
//! and pawns shove the whole run of own pieces in front of them one unit step
//! (the rider's wazir/fers step, the pawn's capture step), knights shove
//! exactly one piece by the same leap. The front piece lands on `L`; `L` must
//! be on the board, may hold an enemy piece (captured), and a pawn may not be
//! shoved onto its own first rank (one reaching its last rank promotes).
//!
//! Check includes push captures: a square is attacked if any orthodox or push
//! move of the opponent could capture there (rules §3), and a move is legal
//! if our king is not attacked after it. Pins work differently here (a piece
//! can be pinned by a push of an enemy run), so the rules advise
//! make-and-test; `legal_moves_by_make_and_test` does exactly that and is the
//! definition the fast generator (`generate`) is tested against. The fast one
//! never copies the board: the attack test reads only the occupancy and the
//! attacker's pieces, so a move is judged on those as they would be after it.
//!
//! A push is encoded as `Move { from: A, to: T, kind: Shove, second_from: T,
//! second_to: L }`, with the promotion (if any) on the second piece.

use super::chess::validate_standard;
use super::movegen::{self, ListSink, Sink};
use super::{Outcome, Variant};
use crate::attacks::{self, Direction, bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::board::{Board, FenError};
use crate::types::{Bitboard, Color, Move, MoveKind, MoveList, Piece, Rank, Role, Square};

#[derive(Clone, Copy, Debug, Default)]
pub struct Push;

fn first_rank(c: Color) -> Rank {
    c.fold(Rank::FIRST, Rank::EIGHTH)
}

fn last_rank(c: Color) -> Rank {
    c.fold(Rank::EIGHTH, Rank::FIRST)
}

fn forward(c: Color) -> i8 {
    c.fold(1, -1)
}

/// The unit step from `a` towards `b` (they share a line).
fn unit(a: Square, b: Square) -> (i8, i8) {
    let df = (b.file().index() as i8 - a.file().index() as i8).signum();
    let dr = (b.rank().index() as i8 - a.rank().index() as i8).signum();
    (df, dr)
}

/// Pieces of `x` that could capture on `s` by an orthodox move or a push
/// (rules §3.2): the orthodox attackers, the active pieces of pushes along
/// the eight unit directions, and knights pushing one piece onto `s`.
///
/// A push onto `s` needs a piece of `x` right in front of `s` (next to it,
/// or a knight's leap away), so only those squares are looked at.
pub fn attackers(b: &Board, s: Square, x: Color) -> Bitboard {
    attackers_with(b, s, x, b.occupied(), b.by_color(x))
}

/// The pieces of `x` that capture on `s` along the line leaving `s` in
/// direction `d`, by an orthodox slide or a push (rules §3.2 b): `run` is the
/// unbroken row of `x`'s pieces starting next to `s`, shoved one step towards
/// `s` by a slider or pawn inside it, or by the slider that stands first
/// beyond it. With an empty run that slider is simply the first piece on the
/// line, an orthodox attacker. `own`, `sliders` (those moving along `d`) and
/// `pawns` are `x`'s pieces on the occupancy `occ`.
#[inline(always)]
fn line_attackers(
    s: Square,
    d: Direction,
    occ: Bitboard,
    own: Bitboard,
    sliders: Bitboard,
    pawns: Bitboard,
    x: Color,
) -> Bitboard {
    let ray = attacks::ray(s, d);
    let mut run = attacks::before_first(ray, !own, d);
    if s.rank() == first_rank(x) && (attacks::nearest(run, d) & pawns).any() {
        run = Bitboard::EMPTY; // the front pawn may not land on its first rank
    }
    let beyond = attacks::nearest(ray & occ & !run, d);
    let mut found = (run | beyond) & sliders;
    // Pawns of the run step against d: a capture step if that is diagonal and forward.
    let (df, dr) = d.step();
    if df != 0 && -dr == forward(x) {
        found |= run & pawns;
    }
    found
}

/// The pieces of `x` among `candidates` (squares next to `s`, or a knight's
/// leap away) that could be the front piece of a push onto `s`: a pawn may
/// not land on its own first rank.
#[inline(always)]
fn push_fronts(s: Square, x: Color, candidates: Bitboard, pawns: Bitboard) -> Bitboard {
    if s.rank() == first_rank(x) { candidates & !pawns } else { candidates }
}

/// Rules §3.2 c: the knights (of `knights`) that push one piece onto `s` by
/// their own leap: two equal leaps from `s`, with a front piece of `x`
/// (among `own`) on the square between.
#[inline(always)]
fn knight_pushers(s: Square, x: Color, knights: Bitboard, own: Bitboard, pawns: Bitboard) -> Bitboard {
    let knights = knights & attacks::knight_double_leaps(s);
    if knights.is_empty() {
        return knights;
    }
    let fronts = push_fronts(s, x, knight_attacks(s) & own, pawns);
    let mut found = Bitboard::EMPTY;
    for n in knights {
        if fronts.contains(Square::new((s.u8() + n.u8()) / 2)) {
            found = found.with(n);
        }
    }
    found
}

/// As [`attackers`], on the board `b` changed to occupancy `occ` and with
/// `own` for the pieces of `x` (a subset of `b`'s: a piece of `x` may have
/// been captured, none has moved).
fn attackers_with(b: &Board, s: Square, x: Color, occ: Bitboard, own: Bitboard) -> Bitboard {
    let mut found = b.attackers_to(s, x, occ) & own;
    let pawns = b.pieces(x, Role::Pawn) & own;
    // (b) pushes along a unit vector: the front piece next to s is x's.
    for f in push_fronts(s, x, king_attacks(s) & own, pawns) {
        let Some(d) = attacks::direction(s, f) else { continue };
        let sliders = if d.is_orthogonal() { b.rook_likes() } else { b.bishop_likes() } & own;
        found |= line_attackers(s, d, occ, own, sliders, pawns, x);
    }
    found | knight_pushers(s, x, b.by_role(Role::Knight) & own, own, pawns)
}

/// Whether `x` attacks `s` (orthodox or push).
#[inline]
pub fn attacked(b: &Board, s: Square, x: Color) -> bool {
    attacked_with(b, s, x, b.occupied(), b.by_color(x))
}

/// Whether [`attackers_with`] finds any attacker, answered as soon as one
/// is found: leapers first, sliders only if one stands on a line through
/// `s`, pushes only through pieces of `x` in front of `s`.
#[inline]
fn attacked_with(b: &Board, s: Square, x: Color, occ: Bitboard, own: Bitboard) -> bool {
    let knights = b.by_role(Role::Knight) & own;
    let pawns = b.by_role(Role::Pawn) & own;
    if (knight_attacks(s) & knights).any()
        || (attacks::pawn_attacks(!x, s) & pawns).any()
        || (king_attacks(s) & b.by_role(Role::King) & own).any()
    {
        return true;
    }
    let rooks = b.rook_likes() & own;
    let bishops = b.bishop_likes() & own;
    if (attacks::rook_pseudo_attacks(s) & rooks).any() && (rook_attacks(s, occ) & rooks).any() {
        return true;
    }
    if (attacks::bishop_pseudo_attacks(s) & bishops).any() && (bishop_attacks(s, occ) & bishops).any() {
        return true;
    }
    for f in push_fronts(s, x, king_attacks(s) & own, pawns) {
        let Some(d) = attacks::direction(s, f) else { continue };
        let sliders = if d.is_orthogonal() { rooks } else { bishops };
        if line_attackers(s, d, occ, own, sliders, pawns, x).any() {
            return true;
        }
    }
    knight_pushers(s, x, knights, own, pawns).any()
}

// ---- The reference generator: square walks and make-and-test ------------
//
// Slow and plain on purpose: `legal_moves_by_make_and_test` is the
// definition of the legal moves that the fast generator below is tested
// against (it shares only the orthodox piece moves and `make`).

/// Appends the pushes of the piece on `a` onto its own piece `t` along the
/// vector (df, dr), `unit` telling blocks (riders, pawns) from knight leaps.
fn push_moves(b: &Board, a: Square, t: Square, (df, dr): (i8, i8), unit_step: bool, out: &mut MoveList) {
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
fn orthodox_piece_moves<S: Sink>(b: &Board, pieces: Bitboard, sink: &mut S) {
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
fn special_moves(b: &Board, ksq: Square, out: &mut MoveList) {
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
fn pseudo_legal(b: &Board, out: &mut MoveList) {
    let Some(ksq) = b.king(b.turn()) else { return };
    special_moves(b, ksq, out);
    orthodox_piece_moves(b, b.us().without(ksq), &mut ListSink(out));
    push_moves_all(b, out);
}

/// Every pseudo-legal push.
fn push_moves_all(b: &Board, out: &mut MoveList) {
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
fn surviving_rights(b: &Board, rights: Bitboard) -> Bitboard {
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

fn make(b: &Board, m: Move) -> Board {
    if m.kind() != MoveKind::Shove {
        // An orthodox move loses the rights it would lose in chess, which
        // are exactly those whose king or rook leaves its square.
        return super::chess::make_standard(b, m);
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
fn legal_after(b: &Board, m: Move) -> bool {
    let after = make(b, m);
    after.king(b.turn()).is_some_and(|k| attackers(&after, k, !b.turn()).is_empty())
}

// ---- The fast generator -------------------------------------------------

/// Whether our king, standing on `k` after a move of ours that empties the
/// squares `removed` and puts our pieces on `filled`, is safe: [`legal_after`]
/// without making the move. Only the occupancy and the set of enemy pieces
/// change (some are captured), and that is all the attack test reads of the
/// side that is not attacking.
fn safe_after(b: &Board, k: Square, removed: Bitboard, filled: Bitboard) -> bool {
    let occ = (b.occupied() & !removed) | filled;
    let them = b.them() & !removed & !filled;
    !attacked_with(b, k, !b.turn(), occ, them)
}

/// Whether, after a move of ours that vacates `a` (on one of the lines of
/// our king on `ksq`), fills the squares `filled` with our pieces and changes
/// nothing else, that line carries no attack on the king: neither an
/// orthodox slider nor a push of an enemy run (rules §3.2 b restricted to
/// the one direction).
fn line_stays_safe(b: &Board, a: Square, filled: Bitboard, ksq: Square) -> bool {
    let Some(d) = attacks::direction(ksq, a) else { return true };
    let x = !b.turn();
    let occ = b.occupied().without(a) | filled;
    let them = b.by_color(x) & !filled;
    let sliders = if d.is_orthogonal() { b.rook_likes() } else { b.bishop_likes() } & them;
    line_attackers(ksq, d, occ, them, sliders, b.pieces(x, Role::Pawn) & them, x).is_empty()
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
fn generate<S: Sink>(b: &Board, sink: &mut S) {
    let us = b.turn();
    let them = !us;
    let Some(ksq) = b.king(us) else { return };
    let own = b.us();
    let occ = b.occupied();
    let in_check = attacked(b, ksq, them);

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

    let lines = if in_check { Bitboard::FULL } else { pinned(b, ksq) };
    let judge = |a: Square, filled: Bitboard| {
        if in_check {
            safe_after(b, ksq, Bitboard::from_square(a), filled)
        } else {
            !lines.contains(a) || line_stays_safe(b, a, filled, ksq)
        }
    };
    let pieces = own.without(ksq);
    // When counting out of check, the sliders' own moves are counted with
    // their pushes below, from the same fills.
    let bulk = S::COUNTS && !in_check;
    let sliders_in_bulk = if bulk { b.rook_likes() | b.bishop_likes() } else { Bitboard::EMPTY };
    orthodox_piece_moves(b, pieces & !lines & !sliders_in_bulk, sink);
    let mut tested =
        movegen::FilterSink { inner: &mut *sink, keep: |m: Move| judge(m.from(), Bitboard::from_square(m.to())) };
    orthodox_piece_moves(b, pieces & lines, &mut tested);

    // Out of check, when only counting, the pushes of pieces that are not
    // pinned are counted in bulk but for those shoving our king.
    let mut listed = own;
    let mut shoving_king = Bitboard::EMPTY;
    if bulk {
        let n;
        (n, shoving_king) = count_free_pushes(b, pieces & !lines, ksq);
        sink.add(n);
        listed = own & lines;
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

/// The pushes of a knight on `a` (pseudo-legal, before the pawn rules):
/// (target, landing) for each leap onto one of our pieces (`own`) that can
/// go on by the same leap to a square not ours.
#[inline(always)]
fn knight_pushes(a: Square, own: Bitboard) -> impl Iterator<Item = (Square, Square)> {
    (attacks::knight_double_leaps(a) & !own).into_iter().filter_map(move |l| {
        let t = Square::new((a.u8() + l.u8()) / 2);
        own.contains(t).then_some((t, l))
    })
}

/// The pushes of our pieces in `free` (none of them pinned, and we are not
/// in check, so every push that leaves the king where it is is legal), and
/// the ordinary moves of the riders among them, counted direction by
/// direction on whole bitboards. For each direction `d`, the targets are our
/// pieces whose nearest piece against `d` is one of those riders moving
/// along `d` (or a pawn whose capture step is `d`), each pushed by exactly
/// that one piece, and a target's block runs on through our pieces to the
/// front, which must have a square on the board after it. Knights are
/// counted leap by leap. Pushes whose block holds our king are not counted,
/// but their active pieces are returned, to be judged one by one.
fn count_free_pushes(b: &Board, free: Bitboard, ksq: Square) -> (u64, Bitboard) {
    let us = b.turn();
    let mut count = FreePushes {
        b,
        own: b.us(),
        empty: !b.occupied(),
        pawns: b.pieces(us, Role::Pawn),
        free,
        first: Bitboard::rank(first_rank(us)),
        last: Bitboard::rank(last_rank(us)),
        king: Bitboard::from_square(ksq),
        forward: forward(us),
        n: 0,
        shoving_king: Bitboard::EMPTY,
    };
    // One call per direction, so that each one's shifts are constants.
    let [e, nw, n, ne, w, se, s, sw] = Direction::ALL;
    count.direction(e);
    count.direction(nw);
    count.direction(n);
    count.direction(ne);
    count.direction(w);
    count.direction(se);
    count.direction(s);
    count.direction(sw);
    count.knights();
    (count.n, count.shoving_king)
}

/// The state of [`count_free_pushes`].
struct FreePushes<'a> {
    b: &'a Board,
    own: Bitboard,
    empty: Bitboard,
    pawns: Bitboard,
    free: Bitboard,
    first: Bitboard,
    last: Bitboard,
    king: Bitboard,
    forward: i8,
    n: u64,
    /// The active pieces of pushes that shove our king: each has one such
    /// push (along the line to the king, or a knight's onto the king).
    shoving_king: Bitboard,
}

impl FreePushes<'_> {
    #[inline(always)]
    fn direction(&mut self, d: Direction) {
        let (b, own) = (self.b, self.own);
        let back = d.opposite();
        let riders = if d.is_orthogonal() { b.rook_likes() } else { b.bishop_likes() } & self.free;
        let pawn_step = d.step().0 != 0 && d.step().1 == self.forward;
        let pushers = if pawn_step { self.pawns & self.free } else { Bitboard::EMPTY };
        let reached = d.shift(d.fill(riders, self.empty));
        // The riders' ordinary moves this way: every square reached that is not ours.
        self.n += (reached & !own).count() as u64;
        let targets = (reached | d.shift(pushers)) & own;
        if targets.is_empty() {
            return;
        }
        // Fronts: our pieces followed in direction d by a square that is on
        // the board and not ours.
        let fronts = own & back.shift(!own);
        let pawn_fronts = fronts & self.pawns;
        let promoting = pawn_fronts & back.shift(self.last);
        let allowed = fronts & !(pawn_fronts & back.shift(self.first));
        let with_king = back.fill(self.king, own);
        let pushed = targets & back.fill(allowed, own);
        self.n += (pushed & !with_king).count() as u64;
        if promoting.any() {
            self.n += 3 * (targets & !with_king & back.fill(promoting, own)).count() as u64;
        }
        for t in pushed & with_king {
            let behind = back.shift(Bitboard::from_square(t));
            let a = if (behind & pushers).any() {
                behind
            } else {
                attacks::nearest(attacks::ray(t, back) & b.occupied(), back)
            };
            self.shoving_king |= a;
        }
    }

    /// The pushes of our free knights: each leap onto one of our pieces
    /// that can go on by the same leap to a square not ours.
    #[inline(always)]
    fn knights(&mut self) {
        for a in self.b.by_role(Role::Knight) & self.free {
            for (t, l) in knight_pushes(a, self.own) {
                if self.king.contains(t) {
                    self.shoving_king = self.shoving_king.with(a);
                } else if !self.pawns.contains(t) {
                    self.n += 1;
                } else if self.last.contains(l) {
                    self.n += 4;
                } else if !self.first.contains(l) {
                    self.n += 1;
                }
            }
        }
    }
}

/// Our pieces (not the king) whose leaving their square would expose the
/// king, out of check. A new attack along a line, orthodox or by a push of
/// an enemy run, always ends in an enemy slider beyond the vacated square (a
/// pawn inside an enemy run next to the king does not depend on our pieces,
/// and out of check there is none), and everything between the king and
/// that slider is then enemy pieces next to the king followed by empty
/// squares. So only a piece that is our only one between the king and an
/// enemy slider on its line is a candidate, tested with only its square
/// emptied. For any other piece every move is safe: besides its origin, a
/// move only puts our pieces on squares (possibly in place of enemy ones),
/// which never creates an attack.
fn pinned(b: &Board, ksq: Square) -> Bitboard {
    let mut pinned = Bitboard::EMPTY;
    for s in movegen::snipers(b, ksq) {
        let ours = attacks::between(ksq, s) & b.us();
        if ours.any() && !ours.more_than_one() && !line_stays_safe(b, ours.lsb(), Bitboard::EMPTY, ksq) {
            pinned |= ours;
        }
    }
    pinned
}

impl Variant for Push {
    const NAME: &'static str = "push";
    const STANDARD_NOTATION: bool = false;

    fn validate(b: &Board) -> Result<(), FenError> {
        validate_standard(b)?;
        let them = !b.turn();
        if let Some(k) = b.king(them)
            && attacked(b, k, b.turn())
        {
            return Err(FenError::OppositeCheck);
        }
        Ok(())
    }

    fn legal_moves(b: &Board, moves: &mut MoveList) {
        generate(b, &mut ListSink(moves));
    }

    fn count_moves(b: &Board) -> u64 {
        let mut count = movegen::CountSink::default();
        generate(b, &mut count);
        count.0
    }

    fn play(b: &Board, m: Move) -> Board {
        super::checked(b, m, make(b, m))
    }

    fn checkers(b: &Board) -> Bitboard {
        b.king(b.turn()).map_or(Bitboard::EMPTY, |k| attackers(b, k, !b.turn()))
    }

    fn variant_outcome(_b: &Board) -> Option<Outcome> {
        None
    }

    /// Only the material the rules name as dead (§6): bare kings, or a
    /// single knight or bishop against a bare king. Neither side can win then.
    fn has_insufficient_material(b: &Board, _color: Color) -> bool {
        let kings = b.by_role(Role::King);
        let rest = b.occupied() & !kings;
        rest.is_empty() || (!rest.more_than_one() && (rest & (b.by_role(Role::Knight) | b.by_role(Role::Bishop))).any())
    }
}
