//! Atomic chess (lichess rules; `docs/rules/atomic.md`): every capture is an
//! explosion that removes the capturer, the captured piece and every non-pawn
//! on the eight squares around the capture square. Kings never capture; a
//! move may not explode the mover's own king; exploding the enemy king wins
//! at once; kings that touch cannot check each other.
//!
//! # How legality is decided
//! No move is judged by copying the board and testing it:
//! * **King steps** (never captures): legal if the destination touches the
//!   enemy king (touching kings cancel check) or no enemy piece attacks it
//!   once the king has left its square.
//! * **Quiet moves of other pieces**: if the kings touch, all are legal (the
//!   king cannot be in check and a quiet move cannot separate the kings).
//!   Otherwise chess rules apply with check and pin masks: in double check
//!   only the king moves; in single check a quiet move must block.
//! * **Captures**: a capture on a square next to our king explodes it and is
//!   illegal; one next to (or on) the enemy king wins and is legal. For the
//!   rest, an explosion only ever *removes* pieces, so it can only hurt us by
//!   opening a line to our king or failing to remove a checker. When we are
//!   not in check and the blast (capturer's origin, capture square and the
//!   non-pawns around it) misses every square between our king and an enemy
//!   slider on its lines, the capture is legal without further work. Else
//!   the exact test runs on bitboards: the enemy attackers of our king on
//!   the occupancy after the blast, with the blasted enemies removed.
//! * **Castling**: the king's origin and the squares it crosses must not be
//!   attacked (atomic rule: a square next to the enemy king never is) with
//!   the king lifted off the board, and its destination must not be attacked
//!   on the occupancy after castling. That decides the resulting position
//!   exactly, so no castling move needs make-and-test either.
//!
//! No legality question here needs a copy of the board: every case above is
//! decided on bitboards of the current position.

use super::chess::{make_standard, validate_standard};
use super::movegen::{self, Sink};
use super::{Outcome, Variant, VariantKind};
use crate::attacks::{self, between, explosion_mask, king_attacks};
use crate::board::{Board, FenError};
use crate::types::{Bitboard, Color, Move, MoveKind, Rank, Role, Square};

#[derive(Clone, Copy, Debug, Default)]
pub struct Atomic;

/// Enemy pieces giving check to the king of `us` on `ksq`, atomic style:
/// nothing checks while the kings touch, and kings never attack.
#[inline(always)]
fn checkers_on(b: &Board, ksq: Square, us: Color, occ: Bitboard, their_king: Square) -> Bitboard {
    if king_attacks(ksq).contains(their_king) {
        Bitboard::EMPTY
    } else {
        b.attackers_to(ksq, !us, occ) & !b.by_role(Role::King)
    }
}

/// The pieces of `occupied` that an explosion on `to` takes besides the
/// capturer and the piece on `to`: every non-pawn next to `to`. (`occupied`
/// is `b`'s, or the occupancy after a move the evaluation looks ahead to.)
#[inline(always)]
pub fn blast_ring(b: &Board, occupied: Bitboard, to: Square) -> Bitboard {
    explosion_mask(to) & occupied & !b.by_role(Role::Pawn)
}

/// Pieces removed by an ordinary capture from `from` to `to`: the capturer,
/// the capture square and the ring around it.
#[inline(always)]
fn capture_blast(b: &Board, from: Square, to: Square) -> Bitboard {
    blast_ring(b, b.occupied(), to).with(to).with(from)
}

/// The pawn an en-passant capture onto `ep` by `us` takes.
#[inline(always)]
pub fn en_passant_victim(us: Color, ep: Square) -> Square {
    Square::new((ep.u8() as i8 - movegen::up(us)) as u8)
}

/// Whether `m` captures on `b`, and so explodes: en passant, or any move
/// but castling onto an occupied square (a capture-promotion too). The
/// rules and the evaluation ask this one question the same way.
#[inline]
pub fn is_capture(b: &Board, m: Move) -> bool {
    match m.kind() {
        MoveKind::EnPassant => true,
        MoveKind::Castle => false,
        _ => b.occupied().contains(m.to()),
    }
}

/// **The explosion set** of move `m` on `b`: every square the move empties
/// by explosion — the capturer, the captured piece (en passant: the pawn
/// passed), every non-pawn next to the capture square — or nothing for a
/// move that captures nothing. The rules ([`Atomic::play`], the legality of
/// captures) and the evaluation (the gain of a capture) all use this one.
#[inline]
pub fn blast(b: &Board, m: Move) -> Bitboard {
    if !is_capture(b, m) {
        return Bitboard::EMPTY;
    }
    let set = capture_blast(b, m.from(), m.to());
    if m.kind() == MoveKind::EnPassant { set.with(en_passant_victim(b.turn(), m.to())) } else { set }
}

/// Per-position facts that every capture test needs.
struct CaptureJudge<'a> {
    b: &'a Board,
    ksq: Square,
    their_king: Square,
    kings_touch: bool,
    in_check: bool,
    /// Squares between our king and enemy sliders on its lines.
    rays: Bitboard,
}

impl CaptureJudge<'_> {
    /// Is the capture whose explosion removes `removed` legal? The caller has
    /// already excluded explosions next to our king.
    #[inline(always)]
    fn legal(&self, removed: Bitboard, to: Square) -> bool {
        if self.kings_touch || king_attacks(self.their_king).with(self.their_king).contains(to) {
            return true;
        }
        if !self.in_check && (removed & self.rays).is_empty() {
            return true;
        }
        // Exact test on the board after the blast.
        let b = self.b;
        let occ = b.occupied() & !removed;
        let them = b.them() & !removed;
        let attackers = (attacks::rook_attacks(self.ksq, occ) & b.rook_likes())
            | (attacks::bishop_attacks(self.ksq, occ) & b.bishop_likes())
            | (attacks::knight_attacks(self.ksq) & b.by_role(Role::Knight))
            | (attacks::pawn_attacks(b.turn(), self.ksq) & b.by_role(Role::Pawn));
        (attackers & them).is_empty()
    }

    /// The legal captures among `targets` for the piece on `from`.
    #[inline(always)]
    fn filter(&self, from: Square, targets: Bitboard) -> Bitboard {
        let mut legal = Bitboard::EMPTY;
        for to in targets {
            if self.legal(capture_blast(self.b, from, to), to) {
                legal = legal.with(to);
            }
        }
        legal
    }
}

/// Legal atomic moves into `sink`.
fn generate<S: Sink>(b: &Board, sink: &mut S) {
    let us = b.turn();
    let them_c = !us;
    let (Some(ksq), Some(their_king)) = (b.king(us), b.king(them_c)) else {
        return; // a king has exploded: the game is over
    };
    let occ = b.occupied();
    let ours = b.us();
    let theirs = b.them();
    let kings_touch = king_attacks(ksq).contains(their_king);
    let checkers = checkers_on(b, ksq, us, occ, their_king);

    // King steps (kings never capture).
    let occ_without_king = occ.without(ksq);
    let near_their_king = king_attacks(their_king);
    let mut king_targets = Bitboard::EMPTY;
    for t in king_attacks(ksq) & !occ {
        if near_their_king.contains(t)
            || (b.attackers_to(t, them_c, occ_without_king) & !b.by_role(Role::King)).is_empty()
        {
            king_targets = king_targets.with(t);
        }
    }
    sink.piece(ksq, king_targets);

    // Quiet moves: check and pin masks as in chess (no pins or checks while
    // the kings touch). In double check no quiet move but the king's helps.
    let (pinned, rays) = movegen::pins(b, ksq);
    let pinned = if kings_touch { Bitboard::EMPTY } else { pinned };
    let quiet_mask = match checkers.count() {
        0 => !occ,
        1 => between(ksq, checkers.lsb()),
        _ => Bitboard::EMPTY,
    };
    // Captures: never next to our own king (it would explode).
    let capture_mask = theirs & !king_attacks(ksq);
    let judge = CaptureJudge { b, ksq, their_king, kings_touch, in_check: checkers.any(), rays };

    // Pieces: quiet targets through the masks; captures judged one by one.
    // Pinned pieces may capture off their line (the blast may remove the
    // pinner, or the capturer leaves anyway): the judge decides exactly.
    movegen::piece_moves(b, ksq, pinned, quiet_mask, sink, |_, t| t);
    for from in (b.by_role(Role::Knight) | b.bishop_likes() | b.rook_likes()) & ours {
        let role = b.role_at(from).unwrap_or(Role::Knight);
        let targets = attacks::attacks(role, us, from, occ) & capture_mask;
        sink.piece(from, judge.filter(from, targets));
    }

    // Pawns: pushes through the masks, captures judged one by one.
    let pawns = b.pieces(us, Role::Pawn);
    let empty = !occ;
    movegen::pawn_moves(us, pawns & !pinned, empty, quiet_mask, Bitboard::EMPTY, sink);
    for p in pawns & pinned {
        let ray = quiet_mask & attacks::line(ksq, p);
        movegen::pawn_moves(us, Bitboard::from_square(p), empty, ray, Bitboard::EMPTY, sink);
    }
    for from in pawns {
        let targets = attacks::pawn_attacks(us, from) & capture_mask;
        for to in judge.filter(from, targets) {
            sink.pawns(Bitboard::from_square(to), to.u8() as i8 - from.u8() as i8, MoveKind::Normal);
        }
    }

    if let Some(ep) = b.ep_square()
        && !king_attacks(ksq).contains(ep)
    {
        for from in attacks::pawn_attacks(them_c, ep) & pawns {
            let m = Move::new(from, ep, MoveKind::EnPassant);
            if judge.legal(blast(b, m), ep) {
                sink.one(m);
            }
        }
    }

    movegen::castling(b, ksq, sink, |s, occ| {
        !near_their_king.contains(s) && (b.attackers_to(s, them_c, occ) & !b.by_role(Role::King)).any()
    });
}

/// Whether the king of `c` is in check (atomic rule) on `b`, whoever is to move.
fn is_attacked_king(b: &Board, c: Color) -> bool {
    match (b.king(c), b.king(!c)) {
        (Some(k), Some(tk)) => checkers_on(b, k, c, b.occupied(), tk).any(),
        _ => false,
    }
}

/// Makes an atomic move: quiet moves as in chess, captures explode.
fn make(b: &Board, m: Move) -> Board {
    if !is_capture(b, m) {
        return make_standard(b, m);
    }
    let mut nb = b.clone();
    let removed = blast(b, m);
    nb.take_all(removed);
    // Rights go with exploded rooks, and with a king that moved or exploded.
    let mut rights = nb.castling() & !removed;
    for c in Color::ALL {
        let home_rank = Bitboard::rank(c.fold(Rank::FIRST, Rank::EIGHTH));
        if nb.pieces(c, Role::King).is_empty() {
            rights &= !home_rank;
        }
    }
    nb.set_castling(rights);
    nb.set_ep_square(None);
    nb.pass_turn(true);
    nb
}

impl Variant for Atomic {
    const NAME: &'static str = "atomic";
    const KIND: VariantKind = VariantKind::Atomic;
    const CHESS960: bool = true;

    fn validate(b: &Board) -> Result<(), FenError> {
        validate_standard(b)?;
        if is_attacked_king(b, !b.turn()) {
            return Err(FenError::OppositeCheck);
        }
        Ok(())
    }

    fn generate<S: Sink>(b: &Board, sink: &mut S) {
        generate(b, sink);
    }

    fn make(b: &Board, m: Move) -> Board {
        make(b, m)
    }

    fn checkers(b: &Board) -> Bitboard {
        let us = b.turn();
        match (b.king(us), b.king(!us)) {
            (Some(k), Some(tk)) => checkers_on(b, k, us, b.occupied(), tk),
            _ => Bitboard::EMPTY,
        }
    }

    fn variant_outcome(b: &Board) -> Option<Outcome> {
        Color::ALL.into_iter().find(|&c| b.king(c).is_none()).map(|c| Outcome::Decisive { winner: !c })
    }

    /// The atomic table (as lichess and shakmaty have it): a bare king cannot
    /// win; while the enemy has any piece besides his king, it may explode
    /// next to him, except when only bishops that can never meet remain.
    /// Against a bare king a queen or pawn can win, a single minor or rook
    /// cannot, nor can two knights alone.
    fn has_insufficient_material(b: &Board, color: Color) -> bool {
        if b.king(!color).is_none() {
            return false;
        }
        let kings = b.by_role(Role::King);
        if (b.by_color(color) & !kings).is_empty() {
            return true;
        }
        if (b.by_color(!color) & !kings).any() {
            let bishops = b.by_role(Role::Bishop);
            if b.occupied() == kings | bishops {
                let dark = Bitboard::DARK_SQUARES;
                let white_b = bishops & b.by_color(Color::White);
                let black_b = bishops & b.by_color(Color::Black);
                // Bishops of opposite colours only, each side on its own colour
                // complex: no capture can ever happen.
                if (white_b & dark).is_empty() {
                    return (black_b & !dark).is_empty();
                }
                if (white_b & !dark).is_empty() {
                    return (black_b & dark).is_empty();
                }
            }
            return false;
        }
        if b.by_role(Role::Queen).any() || b.by_role(Role::Pawn).any() {
            return false;
        }
        let minors_rooks = b.by_role(Role::Knight) | b.by_role(Role::Bishop) | b.by_role(Role::Rook);
        if minors_rooks.count() == 1 {
            return true;
        }
        if b.occupied() == kings | b.by_role(Role::Knight) {
            return b.by_role(Role::Knight).count() <= 2;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;

    fn squares(bb: Bitboard) -> Vec<String> {
        let mut v: Vec<String> = bb.into_iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    /// The one explosion set: an ordinary capture, en passant, a
    /// capture-promotion, a quiet move, castling.
    #[test]
    fn the_blast_set_of_each_kind_of_move() {
        let blast_of = |fen: &str, mv: &str| {
            let b = Atomic::from_fen(fen).unwrap();
            let m = parse_move::<Atomic>(&b, mv).unwrap();
            let set = blast(&b, m);
            // The rules remove exactly this set.
            let after = Atomic::play(&b, m);
            if set.any() {
                assert_eq!(b.occupied() & !after.occupied(), set & b.occupied());
                assert!((after.occupied() & set).is_empty());
            }
            squares(set)
        };
        // Knight takes on d5: the pawn on e6 stays, the bishop on c6 goes.
        assert_eq!(blast_of("4k3/8/2b1p3/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5"), ["c6", "d5", "e3"]);
        // En passant: the pawn passed goes too; pawns next to the square stay
        // (the empty landing square is in the set).
        assert_eq!(blast_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), ["d5", "d6", "e5"]);
        // A capture-promotion explodes like any capture.
        assert_eq!(blast_of("r3k3/1P6/1n6/8/8/8/8/4K3 w - - 0 1", "b7a8q"), ["a8", "b7"]);
        assert!(blast_of("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4").is_empty());
        assert!(blast_of("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1").is_empty());
    }
}
