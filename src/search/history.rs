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

use super::params::{HISTORY_BONUS_BASE, HISTORY_BONUS_MAX, HISTORY_BONUS_PER_DEPTH, HISTORY_MAX};
use crate::board::Board;
use crate::types::{Color, Move, MoveKind};

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
}

impl Default for Histories {
    fn default() -> Self {
        Histories {
            main: Box::new([[0; 64 * 64]; 2]),
            continuation: vec![[0i16; PIECE_TO]; PIECE_TO].into_boxed_slice().try_into().expect("size"),
            capture: Box::new([[0; 6]; PIECE_TO]),
            counter: Box::new([Move::NONE; PIECE_TO]),
        }
    }
}

/// The role a tactical move takes (pawn for en passant, and for a promotion
/// onto an empty square).
#[inline]
fn victim(b: &Board, m: Move) -> usize {
    if m.kind() == MoveKind::EnPassant { 0 } else { b.role_at(m.to()).map_or(0, |r| r.index()) }
}

#[inline]
fn from_to(m: Move) -> usize {
    m.from().index() * 64 + m.to().index()
}

impl Histories {
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
}
