//! Bulk counting of pushes for perft: knight pushes, and the pushes of
//! pieces free of any line test counted on whole bitboards.

use super::*;

/// The pushes of a knight on `a` (pseudo-legal, before the pawn rules):
/// (target, landing) for each leap onto one of our pieces (`own`) that can
/// go on by the same leap to a square not ours.
#[inline(always)]
pub(super) fn knight_pushes(a: Square, own: Bitboard) -> impl Iterator<Item = (Square, Square)> {
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
pub(super) fn count_free_pushes(b: &Board, free: Bitboard, ksq: Square) -> (u64, Bitboard) {
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
pub(super) struct FreePushes<'a> {
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
