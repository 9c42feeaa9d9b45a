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
//! move of the opponent could capture there (rules §3). Legality is judged by
//! make-and-test with that attack test, as the rules advise: pins work
//! differently here (a piece can be pinned by a push of an enemy run).
//!
//! A push is encoded as `Move { from: A, to: T, kind: Shove, second_from: T,
//! second_to: L }`, with the promotion (if any) on the second piece.

use super::chess::validate_standard;
use super::movegen::{self, ListSink, Sink};
use super::{Outcome, Variant};
use crate::attacks::{self, bishop_attacks, king_attacks, knight_attacks, rook_attacks};
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

/// As [`attackers`], on the board `b` changed to occupancy `occ` and with
/// `own` for the pieces of `x` (a subset of `b`'s: a piece of `x` may have
/// been captured, none has moved). Used to judge king steps without a copy.
fn attackers_with(b: &Board, s: Square, x: Color, occ: Bitboard, own: Bitboard) -> Bitboard {
    let mut found = b.attackers_to(s, x, occ) & own;
    let pawns = b.pieces(x, Role::Pawn) & own;
    let s_on_first = s.rank() == first_rank(x);
    let fronts = |cands: Bitboard| if s_on_first { cands & !pawns } else { cands };
    // (b) pushes along a unit vector v: the front piece f = s - v is x's; the
    // active piece is inside the run behind it, or a rider beyond the run.
    for f in fronts(king_attacks(s) & own) {
        let (df, dr) = unit(f, s);
        let sliders = if df == 0 || dr == 0 { b.rook_likes() } else { b.bishop_likes() } & own;
        let pawn_step = df != 0 && dr == forward(x);
        let mut g = f.step(-df, -dr);
        while let Some(sq) = g {
            if !own.contains(sq) {
                break;
            }
            if sliders.contains(sq) || (pawn_step && pawns.contains(sq)) {
                found = found.with(sq);
            }
            g = sq.step(-df, -dr);
        }
        // The first piece beyond the run, along the line away from s.
        if let Some(sq) = g {
            let beyond = if df == 0 || dr == 0 { rook_attacks(sq, occ) } else { bishop_attacks(sq, occ) };
            let ray = beyond & attacks::line(s, f) & !attacks::between(s, sq) & !Bitboard::from_square(s);
            let hit = if occ.contains(sq) { Bitboard::from_square(sq) } else { ray & occ };
            found |= hit & sliders;
        }
    }
    // (c) knights push exactly one piece by their own leap: f = s - v, n = s - 2v.
    let knights = b.pieces(x, Role::Knight) & own;
    if knights.any() {
        for f in fronts(knight_attacks(s) & own) {
            let n = 2 * f.index() as i32 - s.index() as i32;
            if (0..64).contains(&n) {
                let n = Square::new(n as u8);
                // The leap from n to f must be a real knight move (no wrap).
                if knights.contains(n) && knight_attacks(f).contains(n) {
                    found = found.with(n);
                }
            }
        }
    }
    found
}

/// Whether `x` attacks `s` (orthodox or push).
#[inline]
pub fn attacked(b: &Board, s: Square, x: Color) -> bool {
    attackers(b, s, x).any()
}

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

/// King steps, castling and en passant: the orthodox moves that always need
/// the full legality test.
fn special_moves(b: &Board, ksq: Square, out: &mut MoveList) {
    let us = b.turn();
    let mut sink = ListSink(out);
    sink.piece(ksq, king_attacks(ksq) & !b.us());
    if let Some(ep) = b.ep_square() {
        for from in attacks::pawn_attacks(!us, ep) & b.pieces(us, Role::Pawn) {
            sink.one(Move::new(from, ep, MoveKind::EnPassant));
        }
    }
    movegen::castling(b, ksq, &mut sink, |s, _| attacked(b, s, !us));
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
        let mut nb = super::chess::make_standard(b, m);
        let rights = surviving_rights(&nb, nb.castling());
        nb.set_castling(rights);
        return nb;
    }
    let mut nb = b.clone();
    let (a, t, l) = (m.from(), m.to(), m.second_to());
    let active = b.role_at(a).unwrap_or(Role::Knight);
    let v = if active == Role::Knight {
        (l.file().index() as i8 - t.file().index() as i8, l.rank().index() as i8 - t.rank().index() as i8)
    } else {
        unit(t, l)
    };
    let mut pawn_moved = active == Role::Pawn;
    let captured = nb.take(l).is_some();
    // Shift the block from the front backwards, then the active piece.
    let mut sq = l;
    while let Some(src) = sq.step(-v.0, -v.1) {
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
    let rights = surviving_rights(&nb, nb.castling());
    nb.set_castling(rights);
    nb.set_ep_square(None);
    nb.pass_turn(captured || pawn_moved);
    nb
}

/// Whether a pseudo-legal move is legal (see `legal_moves`): made and
/// tested when we are in check, when it moves our king or is en passant;
/// otherwise only the line from our king through the vacated origin can
/// carry a new attack, and that line alone is examined.
#[inline]
fn is_legal_move(b: &Board, m: Move, ksq: Square, in_check: bool, king_lines: Bitboard) -> bool {
    if m.from() == ksq {
        if m.kind() == MoveKind::Castle {
            // The generator tested the king's square, the one it crosses and
            // its destination before castling; rules §4 shows that settles
            // the position after it too.
            return true;
        }
        // A king step: the destination must not be attacked once the king
        // stands there (its old square empty, a captured piece gone).
        let them = b.them().without(m.to());
        let occ = b.occupied().without(ksq).with(m.to());
        return attackers_with(b, m.to(), !b.turn(), occ, them).is_empty();
    }
    let moves_king =
        m.kind() == MoveKind::Shove && (attacks::between(m.to(), m.second_to()).with(m.to())).contains(ksq);
    if in_check || moves_king || m.kind() == MoveKind::EnPassant {
        return legal_after(b, m);
    }
    !king_lines.contains(m.from()) || line_stays_safe(b, m, ksq)
}

/// Every legal move by plain make-and-test of every pseudo-legal move: the
/// slow, obviously correct definition (rules §3.3) that tests compare the
/// fast filter of `legal_moves` with.
pub fn legal_moves_by_make_and_test(b: &Board, out: &mut MoveList) {
    let mut pseudo = MoveList::new();
    pseudo_legal(b, &mut pseudo);
    out.extend(pseudo.into_iter().filter(|&m| legal_after(b, m)));
}

/// The squares whose vacating could expose the king: those between it and
/// an enemy slider on one of its lines. A new attack along a line, orthodox
/// or by a push of an enemy run, always ends in such a slider beyond the
/// vacated square (a pawn inside an enemy run next to the king does not
/// depend on our pieces, and out of check there is none).
fn danger_lines(b: &Board, ksq: Square) -> Bitboard {
    movegen::pins(b, ksq).1
}

/// Make-and-test: our king is not attacked after the move.
fn legal_after(b: &Board, m: Move) -> bool {
    let after = make(b, m);
    after.king(b.turn()).is_some_and(|k| !attacked(&after, k, !b.turn()))
}

/// Whether, after `m` (which leaves our king on `ksq` and vacates only its
/// origin, on one of the king's lines), that line carries no attack on the
/// king: neither an orthodox slider nor a push of an enemy run (rules §3.2 b
/// restricted to the one direction).
fn line_stays_safe(b: &Board, m: Move, ksq: Square) -> bool {
    let a = m.from();
    let u = unit(ksq, a);
    // Squares our pieces hold after the move besides the unchanged ones.
    let filled = if m.kind() == MoveKind::Shove {
        attacks::between(m.to(), m.second_to()).with(m.to()).with(m.second_to())
    } else {
        Bitboard::from_square(m.to())
    };
    let occ = b.occupied().without(a) | filled;
    let x = !b.turn();
    let them = b.by_color(x) & !filled;
    let sliders = if u.0 == 0 || u.1 == 0 { b.rook_likes() } else { b.bishop_likes() } & them;
    // Orthodox: the first piece on the line.
    let mut t = ksq.step(u.0, u.1);
    while let Some(sq) = t {
        if occ.contains(sq) {
            if sliders.contains(sq) {
                return false;
            }
            break;
        }
        t = sq.step(u.0, u.1);
    }
    // A push along -u: an enemy run starting next to the king.
    let Some(f) = ksq.step(u.0, u.1) else { return true };
    let pawns = b.pieces(x, Role::Pawn) & them;
    if !them.contains(f) || (ksq.rank() == first_rank(x) && pawns.contains(f)) {
        return true;
    }
    let pawn_step = u.0 != 0 && -u.1 == forward(x);
    let mut g = f.step(u.0, u.1);
    while let Some(sq) = g {
        if !them.contains(sq) {
            break;
        }
        if sliders.contains(sq) || (pawn_step && pawns.contains(sq)) {
            return false;
        }
        g = sq.step(u.0, u.1);
    }
    while let Some(sq) = g {
        if occ.contains(sq) {
            return !sliders.contains(sq);
        }
        g = sq.step(u.0, u.1);
    }
    true
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

    /// Pseudo-legal moves, then the legality test of rules §3.3 — made
    /// cheap for most moves. A move other than en passant that leaves our
    /// king where it is vacates only its origin and fills only its
    /// destination (or a push's landing square), with our own piece. Filling
    /// a square never creates an attack; vacating one can only open a line,
    /// and every attack that runs along a line ends next to or on the king's
    /// lines. So when we are not in check, a move whose origin is off the
    /// king's lines and that does not move the king is legal as it stands;
    /// every other move is made and tested.
    fn legal_moves(b: &Board, moves: &mut MoveList) {
        let us = b.turn();
        let Some(ksq) = b.king(us) else { return };
        let mut pseudo = MoveList::new();
        pseudo_legal(b, &mut pseudo);
        let in_check = attacked(b, ksq, !us);
        let king_lines = danger_lines(b, ksq);
        for m in pseudo {
            if !is_legal_move(b, m, ksq, in_check, king_lines) {
                continue;
            }
            moves.push(m);
        }
    }

    /// Bulk counting: out of check, the orthodox moves of pieces off the
    /// king's lines are legal as generated and only counted.
    fn count_moves(b: &Board) -> u64 {
        let us = b.turn();
        let Some(ksq) = b.king(us) else { return 0 };
        let in_check = attacked(b, ksq, !us);
        if in_check {
            let mut l = MoveList::new();
            Self::legal_moves(b, &mut l);
            return l.len() as u64;
        }
        let king_lines = danger_lines(b, ksq);
        let free = b.us() & !king_lines & !Bitboard::from_square(ksq);
        let mut count = movegen::CountSink::default();
        orthodox_piece_moves(b, free, &mut count);
        let mut rest = MoveList::new();
        special_moves(b, ksq, &mut rest);
        orthodox_piece_moves(b, b.us() & king_lines, &mut ListSink(&mut rest));
        push_moves_all(b, &mut rest);
        let tested = rest.iter().filter(|&&m| is_legal_move(b, m, ksq, false, king_lines)).count();
        count.0 + tested as u64
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
