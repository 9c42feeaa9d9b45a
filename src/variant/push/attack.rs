//! The attack test (rules §3): which pieces of a colour could capture on a
//! square by an orthodox move or a push.

use super::*;

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
pub(super) fn line_attackers(
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
pub(super) fn push_fronts(s: Square, x: Color, candidates: Bitboard, pawns: Bitboard) -> Bitboard {
    if s.rank() == first_rank(x) { candidates & !pawns } else { candidates }
}

/// Rules §3.2 c: the knights (of `knights`) that push one piece onto `s` by
/// their own leap: two equal leaps from `s`, with a front piece of `x`
/// (among `own`) on the square between.
#[inline(always)]
pub(super) fn knight_pushers(s: Square, x: Color, knights: Bitboard, own: Bitboard, pawns: Bitboard) -> Bitboard {
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
pub(super) fn attackers_with(b: &Board, s: Square, x: Color, occ: Bitboard, own: Bitboard) -> Bitboard {
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
pub(super) fn attacked_with(b: &Board, s: Square, x: Color, occ: Bitboard, own: Bitboard) -> bool {
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
