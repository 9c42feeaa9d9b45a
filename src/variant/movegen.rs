//! Move-generation building blocks shared by the chess-like variants:
//! sinks (collect moves, or only count them for bulk perft), pawn move sets,
//! slider pins, and castling candidates.

use crate::attacks::{self, between, line};
use crate::board::Board;
use crate::types::{Bitboard, Color, File, Move, MoveKind, MoveList, Rank, Role, Square};

/// Where generated moves go. Generators are generic over the sink so that one
/// piece of code both fills move lists and counts moves for bulk perft
/// (counting only popcounts the target sets).
pub trait Sink {
    /// Normal (non-pawn) moves from `from` to every square of `targets`.
    fn piece(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves to every square of `targets`, each from `to - delta`.
    /// Targets on a back rank expand into the four promotions.
    fn pawns(&mut self, targets: Bitboard, delta: i8, kind: MoveKind);
    /// One fully formed move.
    fn one(&mut self, m: Move);
    /// Whether the sink only counts: generators may then report moves by
    /// number through [`Sink::add`] without forming them.
    const COUNTS: bool = false;
    /// `n` moves that were counted, not formed (only called if `COUNTS`).
    #[inline(always)]
    fn add(&mut self, _n: u64) {
        debug_assert!(false, "moves counted into a sink that keeps them");
    }
}

/// Fills a [`MoveList`].
pub struct ListSink<'a>(pub &'a mut MoveList);

impl Sink for ListSink<'_> {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.0.push(Move::normal(from, to));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i8, kind: MoveKind) {
        for_each_pawn_move(targets, delta, kind, |m| self.0.push(m));
    }
    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.0.push(m);
    }
}

/// The moves of [`Sink::pawns`], one by one (promotions expanded).
#[inline(always)]
pub fn for_each_pawn_move(targets: Bitboard, delta: i8, kind: MoveKind, mut f: impl FnMut(Move)) {
    for to in targets {
        let from = Square::new((to.u8() as i8 - delta) as u8);
        if Bitboard::BACKRANKS.contains(to) {
            for r in Role::PROMOTIONS {
                f(Move::promotion(from, to, r));
            }
        } else {
            f(Move::new(from, to, kind));
        }
    }
}

/// Passes on to `inner` only the moves `keep` accepts: for generators whose
/// moves need a legality test one by one.
pub struct FilterSink<'a, S, F> {
    pub inner: &'a mut S,
    pub keep: F,
}

impl<S: Sink, F: FnMut(Move) -> bool> Sink for FilterSink<'_, S, F> {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.one(Move::normal(from, to));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i8, kind: MoveKind) {
        for_each_pawn_move(targets, delta, kind, |m| self.one(m));
    }
    #[inline(always)]
    fn one(&mut self, m: Move) {
        if (self.keep)(m) {
            self.inner.one(m);
        }
    }
}

/// Only counts moves.
#[derive(Default)]
pub struct CountSink(pub u64);

impl Sink for CountSink {
    #[inline(always)]
    fn piece(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _delta: i8, _kind: MoveKind) {
        self.0 += (targets & !Bitboard::BACKRANKS).count() as u64 + 4 * (targets & Bitboard::BACKRANKS).count() as u64;
    }
    #[inline(always)]
    fn one(&mut self, _m: Move) {
        self.0 += 1;
    }
    const COUNTS: bool = true;
    #[inline(always)]
    fn add(&mut self, n: u64) {
        self.0 += n;
    }
}

/// Shifts a bitboard one rank forward for `c`.
#[inline(always)]
pub fn forward(c: Color, bb: Bitboard) -> Bitboard {
    match c {
        Color::White => bb.north(),
        Color::Black => bb.south(),
    }
}

/// Index delta of one step forward for `c`.
#[inline(always)]
pub const fn up(c: Color) -> i8 {
    match c {
        Color::White => 8,
        Color::Black => -8,
    }
}

/// Pawn moves of `pawns` (all of colour `us`), restricted to `quiet_mask` for
/// pushes and `capture_mask` for captures (the caller folds pins and check
/// evasion into the masks).
#[inline(always)]
pub fn pawn_moves<S: Sink>(
    us: Color,
    pawns: Bitboard,
    empty: Bitboard,
    quiet_mask: Bitboard,
    capture_mask: Bitboard,
    sink: &mut S,
) {
    let d = up(us);
    let single = forward(us, pawns) & empty;
    let third = Bitboard::rank(us.fold(Rank::THIRD, Rank::SIXTH));
    let double = forward(us, single & third) & empty;
    sink.pawns(single & quiet_mask, d, MoveKind::Normal);
    sink.pawns(double & quiet_mask, 2 * d, MoveKind::DoublePawn);
    let fwd = forward(us, pawns);
    sink.pawns(fwd.west() & capture_mask, d - 1, MoveKind::Normal);
    sink.pawns(fwd.east() & capture_mask, d + 1, MoveKind::Normal);
}

/// Enemy sliders on a line through `ksq` that they move along, whatever
/// stands between.
#[inline]
pub fn snipers(b: &Board, ksq: Square) -> Bitboard {
    b.them()
        & ((attacks::rook_pseudo_attacks(ksq) & b.rook_likes())
            | (attacks::bishop_pseudo_attacks(ksq) & b.bishop_likes()))
}

/// Pins against the king of the side to move: returns `(pinned, rays)` where
/// `pinned` are our pieces that are the only blocker between the king and an
/// enemy slider, and `rays` is the union of the squares between the king and
/// every enemy slider on one of its lines (whatever blocks them).
#[inline]
pub fn pins(b: &Board, ksq: Square) -> (Bitboard, Bitboard) {
    let occ = b.occupied();
    let mut pinned = Bitboard::EMPTY;
    let mut rays = Bitboard::EMPTY;
    for s in snipers(b, ksq) {
        let bt = between(ksq, s);
        rays |= bt;
        let blockers = bt & occ;
        if blockers.any() && !blockers.more_than_one() {
            pinned |= blockers & b.us();
        }
    }
    (pinned, rays)
}

/// Knight and slider moves of the side to move: targets restricted to `mask`,
/// pinned pieces additionally to their pin line. `filter` may drop further
/// targets (atomic uses it to judge captures); it gets `(from, targets)`.
#[inline(always)]
pub fn piece_moves<S: Sink>(
    b: &Board,
    ksq: Square,
    pinned: Bitboard,
    mask: Bitboard,
    sink: &mut S,
    mut filter: impl FnMut(Square, Bitboard) -> Bitboard,
) {
    let us = b.us();
    let occ = b.occupied();
    for from in b.by_role(Role::Knight) & us & !pinned {
        sink.piece(from, filter(from, attacks::knight_attacks(from) & mask));
    }
    for from in b.bishop_likes() & us {
        let mut t = attacks::bishop_attacks(from, occ) & mask;
        if pinned.contains(from) {
            t &= line(ksq, from);
        }
        sink.piece(from, filter(from, t));
    }
    for from in b.rook_likes() & us {
        let mut t = attacks::rook_attacks(from, occ) & mask;
        if pinned.contains(from) {
            t &= line(ksq, from);
        }
        sink.piece(from, filter(from, t));
    }
}

/// A castling candidate whose squares are empty.
pub struct CastleCandidate {
    pub king: Square,
    pub rook: Square,
    pub king_to: Square,
    pub rook_to: Square,
}

impl CastleCandidate {
    pub fn to_move(&self) -> Move {
        Move::castle(self.king, self.king_to, self.rook, self.rook_to)
    }
}

/// Castling moves of the side to move that pass the attack tests, judged by
/// `attacked(square, occupancy)` (each variant has its own idea of an attack):
/// the king's origin and the squares it crosses are tested with the king
/// lifted off the board (it cannot shield a square it walks away from), and
/// its destination on the occupancy after castling (the rook on its new
/// square may block an attack). This is the order of tests shakmaty uses; for
/// chess it is equivalent to the textbook rule, for atomic it is the reference.
#[inline]
pub fn castling<S: Sink>(b: &Board, ksq: Square, sink: &mut S, attacked: impl Fn(Square, Bitboard) -> bool) {
    let us = b.turn();
    let rights = b.castling() & b.pieces(us, Role::Rook);
    if rights.is_empty() {
        return;
    }
    let occ = b.occupied();
    let back = us.fold(Rank::FIRST, Rank::EIGHTH);
    for rook in rights {
        let king_side = rook.file() > ksq.file();
        let (king_file, rook_file) = if king_side { (6, 5) } else { (2, 3) };
        let king_to = Square::from_coords(File::new(king_file), back);
        let rook_to = Square::from_coords(File::new(rook_file), back);
        // Everything between king and rook, and both destinations, must be
        // empty apart from the king and rook themselves.
        let must_be_empty = (between(ksq, rook) | between(ksq, king_to) | between(rook, rook_to))
            .with(king_to)
            .with(rook_to)
            .without(ksq)
            .without(rook);
        if (must_be_empty & occ).any() {
            continue;
        }
        let occ_after = occ.without(ksq).without(rook).with(rook_to).with(king_to);
        if attacked(king_to, occ_after) {
            continue;
        }
        let lifted = occ.without(ksq);
        let path = between(ksq, king_to).with(ksq);
        if path.into_iter().any(|s| attacked(s, lifted)) {
            continue;
        }
        sink.one(CastleCandidate { king: ksq, rook, king_to, rook_to }.to_move());
    }
}
