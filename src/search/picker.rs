//! Move ordering: the transposition-table move, then tactical moves that
//! gain material (by the variant's own measure: in atomic the whole blast),
//! killers, quiet moves by history, and losing tactical moves last.

use crate::board::Board;
use crate::eval::Evaluate;
use crate::types::{MAX_MOVES, Move, MoveList};
use arrayvec::ArrayVec;

const TT_MOVE: i32 = 1 << 30;
const GOOD_TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const BAD_TACTICAL: i32 = -(1 << 24);

pub struct Picker {
    moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    tactical: ArrayVec<bool, MAX_MOVES>,
    next: usize,
}

impl Picker {
    pub fn new<V: Evaluate>(
        b: &Board,
        moves: MoveList,
        tt_move: Move,
        killers: [Move; 2],
        history: &[[i32; 64]; 64],
    ) -> Picker {
        let mut scores = ArrayVec::new();
        let mut tactical = ArrayVec::new();
        for &m in moves.iter() {
            let is_tactical = V::is_tactical(b, m);
            tactical.push(is_tactical);
            scores.push(if m == tt_move {
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
            });
        }
        Picker { moves, scores, tactical, next: 0 }
    }

    /// The best remaining move and whether it is tactical.
    pub fn next(&mut self) -> Option<(Move, bool)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.tactical.swap(self.next, best);
        let out = (self.moves[self.next], self.tactical[self.next]);
        self.next += 1;
        Some(out)
    }
}
