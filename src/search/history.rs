//! History tables for move ordering and reductions, all with the same
//! "gravity" update (a bonus shrinks as its entry nears the bound, so old
//! results fade):
//! * **main** history of quiet moves by side, origin and destination;
//! * **continuation** history: how a quiet move (piece, destination) did
//!   after a given move one and two plies earlier (the opponent's last move,
//!   our own previous one);
//! * **capture** history of tactical moves by piece, destination and the
//!   role taken (in atomic, the piece on the capture square: the centre of
//!   the blast);
//! * **countermoves**: the quiet move that last refuted a given move.
//!
//! Beside them, the **correction history**: how far the static evaluation
//! missed the searched score in positions with the same pawns (by side to
//! move), added back to later static evaluations of such positions.

use super::params::{
    CORRECTION_GRAIN, CORRECTION_LIMIT, CORRECTION_SIZE, CORRECTION_WEIGHT_MAX, HISTORY_BONUS_BASE, HISTORY_BONUS_MAX,
    HISTORY_BONUS_PER_DEPTH, HISTORY_MAX,
};
use crate::board::Board;
use crate::eval::EVAL_LIMIT;
use crate::types::{Color, Move, MoveKind, Role};

/// A piece and the square it moved to: the key of continuation histories
/// and countermoves (12 pieces x 64 squares).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(pub u16);

impl PieceTo {
    /// The key of `m` played on `b` (the piece on its origin square; a
    /// move whose origin is empty, which no variant makes, counts as a
    /// white pawn's).
    #[inline]
    pub fn of(b: &Board, m: Move) -> PieceTo {
        let piece = b.piece_at(m.from()).map_or(0, |p| p.index());
        PieceTo((piece * 64 + m.to().index()) as u16)
    }
    #[inline]
    fn index(self) -> usize {
        self.0 as usize
    }
}

const PIECE_TO: usize = 12 * 64;

/// The bonus of a move that caused a cutoff at `depth` (maluses are its negation).
pub fn bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_PER_DEPTH * depth - HISTORY_BONUS_BASE).clamp(0, HISTORY_BONUS_MAX)
}

#[inline]
fn gravity(h: &mut i16, bonus: i32) {
    let v = *h as i32;
    *h = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
}

pub struct Histories {
    main: Box<[[i16; 64 * 64]; 2]>,
    /// `[previous piece-to][piece-to]`.
    continuation: Box<[[i16; PIECE_TO]; PIECE_TO]>,
    /// `[piece-to][victim role]`.
    capture: Box<[[i16; 6]; PIECE_TO]>,
    counter: Box<[Move; PIECE_TO]>,
    /// `[side to move][pawn hash]`, in `1 / CORRECTION_GRAIN` centipawns.
    correction: Box<[[i32; CORRECTION_SIZE]; 2]>,
}

impl Default for Histories {
    fn default() -> Self {
        Histories {
            main: Box::new([[0; 64 * 64]; 2]),
            continuation: vec![[0i16; PIECE_TO]; PIECE_TO].into_boxed_slice().try_into().expect("size"),
            capture: Box::new([[0; 6]; PIECE_TO]),
            counter: Box::new([Move::NONE; PIECE_TO]),
            correction: vec![[0i32; CORRECTION_SIZE]; 2].into_boxed_slice().try_into().expect("size"),
        }
    }
}

/// The role a tactical move takes (pawn for en passant, and for a promotion
/// onto an empty square).
#[inline]
fn victim(b: &Board, m: Move) -> usize {
    if m.kind() == MoveKind::EnPassant { 0 } else { b.role_at(m.to()).map_or(0, |r| r.index()) }
}

/// Index of the pawn structure of `b` in the correction table (a hash of
/// both sides' pawn bitboards).
#[inline]
fn pawn_index(b: &Board) -> usize {
    let w = b.pieces(Color::White, Role::Pawn).0;
    let k = b.pieces(Color::Black, Role::Pawn).0;
    let h = w.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29);
    (h >> 40) as usize % CORRECTION_SIZE
}

#[inline]
fn from_to(m: Move) -> usize {
    m.from().index() * 64 + m.to().index()
}

impl Histories {
    /// Every table back to zero (no move known to be good or bad).
    pub fn clear(&mut self) {
        self.main.iter_mut().for_each(|t| t.fill(0));
        self.continuation.iter_mut().for_each(|t| t.fill(0));
        self.capture.fill([0; 6]);
        self.counter.fill(Move::NONE);
        self.correction.iter_mut().for_each(|t| t.fill(0));
    }

    /// Between two searches of one game: the move-ordering tables keep half
    /// their weight (what the last search learnt still orders the next, but
    /// fades faster than it would by gravity alone); countermoves and the
    /// correction history stay as they are.
    pub fn age(&mut self) {
        let halve = |h: &mut i16| *h /= 2;
        self.main.iter_mut().flatten().for_each(halve);
        self.continuation.iter_mut().flatten().for_each(halve);
        self.capture.iter_mut().flatten().for_each(halve);
    }

    /// Ordering score of a quiet move: main history plus the continuation
    /// histories of the moves one and two plies before (`prev`).
    #[inline]
    pub fn quiet(&self, us: Color, pt: PieceTo, m: Move, prev: [Option<PieceTo>; 2]) -> i32 {
        let mut s = self.main[us.index()][from_to(m)] as i32;
        for p in prev.into_iter().flatten() {
            s += self.continuation[p.index()][pt.index()] as i32;
        }
        s
    }

    #[inline]
    pub fn capture(&self, b: &Board, m: Move) -> i32 {
        self.capture[PieceTo::of(b, m).index()][victim(b, m)] as i32
    }

    pub fn update_quiet(&mut self, us: Color, pt: PieceTo, m: Move, prev: [Option<PieceTo>; 2], bonus: i32) {
        gravity(&mut self.main[us.index()][from_to(m)], bonus);
        for p in prev.into_iter().flatten() {
            gravity(&mut self.continuation[p.index()][pt.index()], bonus);
        }
    }

    pub fn update_capture(&mut self, b: &Board, m: Move, bonus: i32) {
        gravity(&mut self.capture[PieceTo::of(b, m).index()][victim(b, m)], bonus);
    }

    /// `eval` (the static evaluation of `b`) corrected by what searches of
    /// positions with the same pawns found.
    #[inline]
    pub fn corrected(&self, b: &Board, eval: i32) -> i32 {
        (eval + self.correction[b.turn().index()][pawn_index(b)] / CORRECTION_GRAIN).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// A search of `depth` found `diff` = score − static evaluation at `b`:
    /// move the entry toward it, the more the deeper the search.
    pub fn update_correction(&mut self, b: &Board, depth: i32, diff: i32) {
        let e = &mut self.correction[b.turn().index()][pawn_index(b)];
        let w = (depth + 1).min(CORRECTION_WEIGHT_MAX);
        let target = diff.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) * CORRECTION_GRAIN;
        *e = (*e * (256 - w) + target * w) / 256;
    }

    /// The move that last refuted `prev` (the opponent's last move).
    pub fn countermove(&self, prev: Option<PieceTo>) -> Move {
        prev.map_or(Move::NONE, |p| self.counter[p.index()])
    }

    pub fn set_countermove(&mut self, prev: Option<PieceTo>, m: Move) {
        if let Some(p) = prev {
            self.counter[p.index()] = m;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_entries_in_range() {
        let mut h = 0i16;
        for _ in 0..1000 {
            gravity(&mut h, HISTORY_BONUS_MAX);
        }
        assert!(h as i32 <= HISTORY_MAX && h > 0);
        for _ in 0..1000 {
            gravity(&mut h, -HISTORY_BONUS_MAX);
        }
        assert!(h as i32 >= -HISTORY_MAX && h < 0);
        assert_eq!(bonus(0), 0);
        assert!(bonus(3) > bonus(2) && bonus(60) == HISTORY_BONUS_MAX);
    }

    #[test]
    fn correction_moves_toward_the_search_and_stays_bounded() {
        let mut h = Histories::default();
        let b = Board::startpos();
        assert_eq!(h.corrected(&b, 50), 50);
        for _ in 0..200 {
            h.update_correction(&b, 10, 120);
        }
        let c = h.corrected(&b, 50) - 50;
        assert!((100..=120).contains(&c), "correction {c}");
        for _ in 0..500 {
            h.update_correction(&b, 20, 100_000);
        }
        assert!(h.corrected(&b, 0) <= CORRECTION_LIMIT);
        // Other pawn structures and the other side to move are untouched.
        let other = Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(h.corrected(&other, 7), 7);
    }
}
