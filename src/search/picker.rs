//! Move ordering: the transposition-table move, then tactical moves that
//! gain material (by the variant's own measure: in atomic the whole blast),
//! killers, quiet moves by history, and losing tactical moves last.
//!
//! The picker borrows the move list and a score buffer that live in the
//! caller's frame: move lists are large (see `MAX_MOVES`), and moving them
//! into a struct at every node would copy kilobytes per node.

use crate::board::Board;
use crate::eval::Evaluate;
use crate::types::{MAX_MOVES, Move, MoveList};
use arrayvec::ArrayVec;

const TT_MOVE: i32 = 1 << 30;
const GOOD_TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const BAD_TACTICAL: i32 = -(1 << 24);

/// Score storage for one node's picker.
pub type Scores = ArrayVec<(i32, bool), MAX_MOVES>;

pub struct Picker<'a> {
    moves: &'a mut MoveList,
    scores: &'a mut Scores,
    next: usize,
}

impl<'a> Picker<'a> {
    pub fn new<V: Evaluate>(
        b: &Board,
        moves: &'a mut MoveList,
        scores: &'a mut Scores,
        tt_move: Move,
        killers: [Move; 2],
        history: &[[i32; 64]; 64],
    ) -> Picker<'a> {
        scores.clear();
        for &m in moves.iter() {
            let is_tactical = V::is_tactical(b, m);
            let s = if m == tt_move {
                TT_MOVE
            } else if is_tactical {
                let gain = V::tactical_gain(b, m);
                if gain >= 0 { GOOD_TACTICAL + gain * 8 } else { BAD_TACTICAL + gain }
            } else if m == killers[0] {
                KILLER + 1
            } else if m == killers[1] {
                KILLER
            } else {
                history[m.from().index()][m.to().index()]
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
