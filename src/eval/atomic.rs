//! Atomic evaluation. Material counts for less and the king's surroundings
//! for more than in chess: every piece next to one's own king is a target
//! whose capture blows the king up, and an attacked one is a threat of
//! immediate loss.
//!
//! The terms, after what strong atomic evaluations weigh (Fairy-Stockfish's
//! classical atomic evaluation among them):
//! * material and piece-square tables, mobility and pawn structure, as in
//!   chess, with atomic piece values; pieces are pushed forward (an atomic
//!   piece defends itself: whoever takes it explodes with it);
//! * blast shields and targets: own pieces next to one's own king;
//! * **blast danger** against each king: the enemy pieces next to it that we
//!   attack and may take without blowing up our own king (each capture ends
//!   the game), and the squares around it we attack against those it can
//!   still flee to, growing quadratically;
//! * the side to move's own threatened king (it must parry at once);
//! * connected kings (neither can be checked);
//! * drawn material: a bare king cannot be mated by a lone piece (it stays
//!   next to the enemy king), so such endings are scaled towards a draw.

use super::Evaluate;
use super::common;
use super::terms::{Negated, Term, Terms, Weighted};
use super::weights as w;
use crate::attacks::{self, explosion_mask, king_attacks};
use crate::board::Board;
use crate::types::{Bitboard, Color, Move, MoveKind, Role, Square};
use crate::variant::Atomic;
use crate::variant::atomic::{blast, blast_ring, is_capture};

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

/// Enemy pieces next to the king of `!c` that `c` attacks and may take
/// without blowing up its own king: each capture explodes that king.
fn blast_targets(b: &Board, c: Color, att: Bitboard) -> Bitboard {
    let (Some(tk), Some(ok)) = (b.king(!c), b.king(c)) else {
        return Bitboard::EMPTY;
    };
    b.by_color(!c) & king_attacks(tk) & att & !king_attacks(ok)
}

/// How dangerous `c`'s attack on the enemy king is: explosion threats, and
/// attacked squares around the king against its free flight squares,
/// `d * (100 + d) / 100`.
fn blast_danger(b: &Board, c: Color, att: Bitboard) -> i32 {
    let Some(tk) = b.king(!c) else {
        return 0;
    };
    let ring = king_attacks(tk);
    let explosions = blast_targets(b, c, att).count() as i32;
    let attacked = (ring.with(tk) & att).count() as i32;
    let flights = ((ring & !b.by_color(!c)).with(tk) & !att).count() as i32;
    let danger = w::ATOMIC_DANGER_ZONE * attacked / (flights + 1) + w::ATOMIC_DANGER_EXPLOSION * explosions;
    danger * (100 + danger) / 100
}

/// King safety of `c` (shields and targets next to it, enemy attacks around
/// it, an immediate threat when `c` is to move, connected kings).
fn king_safety<T: Terms>(b: &Board, c: Color, enemy: Bitboard, to_move: bool, out: &mut T) {
    let (Some(k), Some(tk)) = (b.king(c), b.king(!c)) else {
        return;
    };
    let zone = king_attacks(k);
    let ours = b.by_color(c);
    let pawns = b.by_role(Role::Pawn);
    out.add(Term::AtomicAdjacentPiece, (zone & ours & !pawns).count() as i32);
    out.add(Term::AtomicAdjacentPawn, (zone & ours & pawns).count() as i32);
    out.add(Term::AtomicZoneAttack, (zone & enemy).count() as i32);
    if zone.contains(tk) {
        out.add(Term::AtomicKingsTouch, 1);
    } else if to_move && blast_targets(b, !c, enemy).any() {
        // Targets next to our king that the enemy may take: we must parry.
        out.add(Term::AtomicKingThreat, 1);
    }
}

/// Ranks beyond the fourth that the pieces (not pawns or the king) stand.
fn advancement(b: &Board, c: Color) -> i32 {
    let pieces = b.by_color(c) & !b.by_role(Role::Pawn) & !b.by_role(Role::King);
    pieces.into_iter().map(|sq| common::relative(c, sq).rank().index() as i32 - 3).sum::<i32>()
}

fn side<T: Terms>(b: &Board, c: Color, ours: Bitboard, theirs: Bitboard, to_move: bool, out: &mut T) {
    common::base_terms_into(b, c, out);
    king_safety(b, c, theirs, to_move, out);
    out.add(Term::AtomicDanger, blast_danger(b, c, ours));
    out.add(Term::AtomicAdvance, advancement(b, c));
}

/// Every term of the atomic evaluation, from the side to move's view.
pub fn terms<T: Terms>(b: &Board, out: &mut T) {
    let us = b.turn();
    let ours = attacked_by(b, us);
    let theirs = attacked_by(b, !us);
    side(b, us, ours, theirs, true, out);
    side(b, !us, theirs, ours, false, &mut Negated(out));
    out.add(Term::Tempo, 1);
}

/// Whether `c` has only its king.
fn bare(b: &Board, c: Color) -> bool {
    (b.by_color(c) & !b.by_role(Role::King)).is_empty()
}

/// Whether `c`, without pawns, has the material to mate a bare king: a
/// major piece with at least one more piece, or three minor pieces of which
/// two knights or bishops on both colours.
fn can_mate_bare_king(b: &Board, c: Color) -> bool {
    let n = b.pieces(c, Role::Knight).count();
    let bishops = b.pieces(c, Role::Bishop);
    let majors = (b.pieces(c, Role::Queen) | b.pieces(c, Role::Rook)).count();
    let pieces = n + bishops.count() + majors;
    (majors > 0 && pieces >= 2)
        || (n + bishops.count() >= 3
            && (n >= 2 || ((bishops & Bitboard::DARK_SQUARES).any() && (bishops & !Bitboard::DARK_SQUARES).any())))
}

/// Scale (out of 8) of the evaluation when `strong` is ahead: 1 where it
/// cannot force a win against a bare king, else 8.
pub fn drawish_scale(b: &Board, strong: Color) -> i32 {
    if bare(b, !strong) && b.pieces(strong, Role::Pawn).is_empty() && !can_mate_bare_king(b, strong) { 1 } else { 8 }
}

/// The evaluation from the summed terms: tapered by phase, scaled towards
/// a draw where the side ahead cannot win, kept away from mate scores.
fn finish(b: &Board, sum: common::Tapered) -> i32 {
    let s = common::taper(sum, common::phase(b));
    let strong = if s >= 0 { b.turn() } else { !b.turn() };
    (s * drawish_scale(b, strong) / 8).clamp(-w::ATOMIC_EVAL_LIMIT, w::ATOMIC_EVAL_LIMIT)
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

/// Static exchange of a quiet move, atomic style: if the opponent can take
/// the moved piece, the explosion removes it and every non-pawn around it,
/// and the exchange ends there. The opponent takes with its cheapest piece
/// (one standing in the blast costs it nothing more) and only if that pays,
/// so the result is at most 0. Taking next to its own king is not an option
/// for the opponent; a piece moved next to our own king and taken loses.
fn quiet_see(b: &Board, m: Move) -> i32 {
    let us = b.turn();
    let (from, to) = (m.from(), m.to());
    if m.kind() == MoveKind::Castle || b.role_at(from) == Some(Role::King) {
        return 0;
    }
    let occ = b.occupied().without(from).with(to);
    let attackers = b.attackers_to(to, !us, occ) & !b.by_role(Role::King);
    if attackers.is_empty() {
        return 0;
    }
    let ring = explosion_mask(to);
    if b.king(!us).is_some_and(|k| ring.contains(k)) {
        return 0;
    }
    if b.king(us).is_some_and(|k| ring.contains(k)) {
        return -KING_BLAST;
    }
    let mover = m.promotion_role().or(b.role_at(from)).map_or(0, |r| w::ATOMIC_VALUES[r.index()].0);
    let blast = blast_ring(b, b.occupied().without(from), to);
    let mut result = -mover;
    for sq in blast {
        let v = piece_value(b, sq);
        result += if b.them().contains(sq) { v } else { -v };
    }
    let cheapest = attackers.into_iter().map(|a| if blast.contains(a) { 0 } else { piece_value(b, a) }).min();
    (result + cheapest.unwrap_or(0)).min(0)
}

impl Evaluate for Atomic {
    fn evaluate_classical(b: &Board) -> i32 {
        let mut sum = Weighted::new(&w::ATOMIC_TERMS);
        terms(b, &mut sum);
        finish(b, sum.sum)
    }

    /// Material of the whole blast: enemy pieces removed minus our own.
    fn tactical_gain(b: &Board, m: Move) -> i32 {
        if !is_capture(b, m) {
            return m.promotion_role().map_or(0, |p| w::ATOMIC_VALUES[p.index()].0 - w::ATOMIC_VALUES[0].0);
        }
        let removed = blast(b, m).without(m.from());
        let mut gain = -piece_value(b, m.from());
        for sq in removed {
            let v = piece_value(b, sq);
            gain += if b.them().contains(sq) { v } else { -v };
        }
        gain
    }

    /// A capture-promotion ends with the new piece blown up, whatever it
    /// was: the queen's move stands for all four.
    fn is_redundant(b: &Board, m: Move) -> bool {
        m.promotion_role().is_some_and(|r| r != Role::Queen) && is_capture(b, m)
    }

    /// A capture (a capture-promotion too: the promoted piece explodes at
    /// once) is worth its blast; any other move its quiet exchange.
    fn see(b: &Board, m: Move) -> i32 {
        if is_capture(b, m) { Self::tactical_gain(b, m) } else { quiet_see(b, m) }
    }

    /// A quiet move whose piece, from its new square, attacks an enemy piece
    /// next to the enemy king that it may take (a threat to win at once).
    fn threatens_king(b: &Board, m: Move) -> bool {
        let us = b.turn();
        let Some(role) = m.promotion_role().or(b.role_at(m.from())) else {
            return false;
        };
        if role == Role::King || m.kind() == MoveKind::Castle {
            return false;
        }
        let occ = b.occupied().without(m.from()).with(m.to());
        let reach = attacks::attacks(role, us, m.to(), occ);
        (reach & blast_targets(b, us, reach)).any()
    }

    fn stand_pat_ok(b: &Board) -> bool {
        !<Atomic as crate::variant::Variant>::is_check(b) && !king_exposed(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let b = Atomic::from_fen(fen).unwrap();
        let m = crate::notation::parse_move::<Atomic>(&b, uci).unwrap();
        <Atomic as Evaluate>::see(&b, m)
    }

    #[test]
    fn quiet_moves_into_a_blast() {
        let v = |r: Role| w::ATOMIC_VALUES[r.index()].0;
        // The queen steps where a pawn takes it: the blast costs the queen,
        // the pawn pays with itself.
        let fen = "4k3/8/8/3p4/8/2Q5/8/4K3 w - - 0 1";
        assert_eq!(see_of(fen, "c3c4"), -v(Role::Queen) + v(Role::Pawn));
        // A safe square: nobody can take there.
        assert_eq!(see_of(fen, "c3c2"), 0);
        // A bishop offered to a pawn.
        assert_eq!(see_of("4k3/8/4p3/8/8/8/8/4K2B w - - 0 1", "h1d5"), -v(Role::Bishop) + v(Role::Pawn));
        // Taking it would cost the rook more (it stands in the blast): no loss.
        assert_eq!(see_of("4k3/8/8/8/3r4/8/8/4K2B w - - 0 1", "h1d5"), 0);
        // Next to our own king and attackable: the king goes up.
        assert_eq!(see_of("4kr2/8/8/8/7B/8/8/4K3 w - - 0 1", "h4f2"), -KING_BLAST);
    }

    #[test]
    fn captures_are_the_blast_balance() {
        // Rook takes a knight next to a queen: both enemy pieces go, and the rook.
        let fen = "4k3/8/8/2nq4/8/8/8/2R1K3 w - - 0 1";
        let v = |r: Role| w::ATOMIC_VALUES[r.index()].0;
        assert_eq!(see_of(fen, "c1c5"), v(Role::Knight) + v(Role::Queen) - v(Role::Rook));
    }

    /// b7xa8=Q removes the rook (the new queen explodes with it): the
    /// exchange is the rook against the pawn, not a queen given away.
    #[test]
    fn a_capture_promotion_is_worth_its_blast() {
        let v = |r: Role| w::ATOMIC_VALUES[r.index()].0;
        let fen = "r3k3/1P6/1n6/8/8/8/8/4K3 w - - 0 1";
        for promo in ["b7a8q", "b7a8n"] {
            assert_eq!(see_of(fen, promo), v(Role::Rook) - v(Role::Pawn), "{promo}");
        }
        // A promotion that captures nothing is still a quiet exchange: the
        // new queen on b8 can be taken by nobody here.
        assert_eq!(see_of("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), 0);
    }

    /// Every move the search skips as redundant has a sibling it does not
    /// skip that reaches the very same position; quiet under-promotions are
    /// not redundant (a knight on b8 is not a queen on b8).
    #[test]
    fn redundant_moves_have_a_searched_twin() {
        let fens = [
            "r3k3/1P6/1n6/8/8/8/8/4K3 w - - 0 1",
            "1n2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/5p1p/3K1N1R b - - 0 1",
            "rnbqkbnr/pPpppppp/8/8/8/8/P1PPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        let mut rng = crate::types::SplitMix::new(7);
        let mut positions: Vec<Board> = fens.iter().map(|f| Atomic::from_fen(f).unwrap()).collect();
        let mut redundant_seen = 0;
        let mut i = 0;
        while i < positions.len() {
            let b = positions[i].clone();
            i += 1;
            let mut moves = crate::types::MoveList::new();
            Atomic::legal_moves(&b, &mut moves);
            for &m in moves.iter() {
                let redundant = <Atomic as Evaluate>::is_redundant(&b, m);
                let capture = b.occupied().contains(m.to());
                assert_eq!(redundant, capture && matches!(m.promotion_role(), Some(r) if r != Role::Queen), "{m:?}");
                if redundant {
                    redundant_seen += 1;
                    let key = Atomic::play(&b, m).key();
                    assert!(
                        moves
                            .iter()
                            .any(|&t| !<Atomic as Evaluate>::is_redundant(&b, t) && Atomic::play(&b, t).key() == key),
                        "{m:?} has no searched twin"
                    );
                }
            }
            // A few plies on from each crafted position, to meet promotions
            // after other moves too.
            if positions.len() < 400 && !moves.is_empty() {
                positions.push(Atomic::play(&b, moves[(rng.next_u64() % moves.len() as u64) as usize]));
            }
        }
        assert!(redundant_seen >= 9, "only {redundant_seen} redundant moves met");
    }

    #[test]
    fn threats_on_the_king() {
        // The bishop move attacks the pawn next to the black king.
        let b = Atomic::from_fen("4k3/3p4/8/8/8/8/8/4KB2 w - - 0 1").unwrap();
        let m = crate::notation::parse_move::<Atomic>(&b, "f1b5").unwrap();
        assert!(<Atomic as Evaluate>::threatens_king(&b, m));
        let m = crate::notation::parse_move::<Atomic>(&b, "f1e2").unwrap();
        assert!(!<Atomic as Evaluate>::threatens_king(&b, m));
    }

    /// The tuner evaluates from traces: a trace weighed with the engine's
    /// table must give the engine's evaluation, at every ply of random games.
    #[test]
    fn traces_weigh_to_the_evaluation() {
        use crate::eval::terms::Trace;
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for _ in 0..40 {
            let mut b = Atomic::from_fen(Atomic::start_fen()).unwrap();
            for _ in 0..80 {
                let mut t = Trace::default();
                terms(&b, &mut t);
                assert_eq!(Atomic::evaluate_classical(&b), finish(&b, t.weigh(&w::ATOMIC_TERMS)), "{}", b.fen());
                checked += 1;
                let mut list = crate::types::MoveList::new();
                Atomic::legal_moves(&b, &mut list);
                if list.is_empty() || Atomic::variant_outcome(&b).is_some() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                b = Atomic::play(&b, list[(seed % list.len() as u64) as usize]);
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn a_lone_queen_cannot_mate_a_bare_king() {
        let b = Atomic::from_fen("8/8/8/3k4/8/8/8/Q3K3 w - - 0 1").unwrap();
        let with_rook = Atomic::from_fen("8/8/8/3k4/8/8/8/QR2K3 w - - 0 1").unwrap();
        assert!(Atomic::evaluate_classical(&b) * 4 < Atomic::evaluate_classical(&with_rook));
    }
}
