//! Move ordering: the transposition-table move, then tactical moves that
//! gain material (by the variant's own measure: in atomic the whole blast),
//! killers, the countermove, quiet moves by their main and continuation
//! histories, and losing tactical moves last.
//!
//! The picker borrows the move list and a score buffer that live in the
//! caller's frame: move lists are large (see `MAX_MOVES`), and moving them
//! into a struct at every node would copy kilobytes per node.

use super::history::{Histories, PieceTo};
use crate::board::Board;
use crate::eval::Evaluate;
use crate::types::{MAX_MOVES, Move, MoveList};
use arrayvec::ArrayVec;

const TT_MOVE: i32 = 1 << 30;
const GOOD_TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const BAD_TACTICAL: i32 = -(1 << 24);
/// Capture history counts this much less than a centipawn of gain x 16.
const CAPTURE_HISTORY_DIVISOR: i32 = 4;

/// Score storage for one node's picker.
pub type Scores = ArrayVec<(i32, bool), MAX_MOVES>;

pub struct Picker<'a> {
    moves: &'a mut MoveList,
    scores: &'a mut Scores,
    next: usize,
}

/// What the picker needs to know besides the position: the hash move,
/// killers, the countermove, the histories and the moves before this node.
pub struct Ordering<'h> {
    pub tt_move: Move,
    pub killers: [Move; 2],
    pub countermove: Move,
    pub histories: &'h Histories,
    pub prev: [Option<PieceTo>; 2],
}

impl<'a> Picker<'a> {
    pub fn new<V: Evaluate>(b: &Board, moves: &'a mut MoveList, scores: &'a mut Scores, o: &Ordering) -> Picker<'a> {
        scores.clear();
        let us = b.turn();
        for &m in moves.iter() {
            let is_tactical = V::is_tactical(b, m);
            let s = if m == o.tt_move {
                TT_MOVE
            } else if is_tactical {
                let gain = V::tactical_gain(b, m);
                let h = o.histories.capture(b, m) / CAPTURE_HISTORY_DIVISOR;
                if gain >= 0 { GOOD_TACTICAL + gain * 16 + h } else { BAD_TACTICAL + gain + h }
            } else if m == o.killers[0] {
                KILLER + 2
            } else if m == o.killers[1] {
                KILLER + 1
            } else if m == o.countermove {
                KILLER
            } else {
                o.histories.quiet(us, PieceTo::of(b, m), m, o.prev)
            };
            scores.push((s, is_tactical));
        }
        Picker { moves, scores, next: 0 }
    }

    /// The best remaining move and whether it is tactical.
    pub fn next(&mut self) -> Option<(Move, bool)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i].0 > self.scores[best].0 {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let out = (self.moves[self.next], self.scores[self.next].1);
        self.next += 1;
        Some(out)
    }
}
