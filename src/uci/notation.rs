//! `Move` to text and back, in UCI long algebraic notation (`e2e4`, `e7e8q`,
//! castling as the king's move `e1g1`). Parsing is exact: the text is matched
//! against the legal moves of the position, so only legal moves come back.

use crate::board::Board;
use crate::types::{Move, MoveList};
use crate::variant::Variant;

/// The UCI text of a move.
pub fn move_to_uci(m: Move) -> String {
    let mut s = format!("{}{}", m.from(), m.to());
    if let Some(r) = m.promotion_role() {
        s.push(r.char());
    }
    s
}

/// The legal move of `b` whose UCI text is `text`, if any.
pub fn parse_move<V: Variant>(b: &Board, text: &str) -> Option<Move> {
    let text = text.trim();
    if text.len() < 4 || text.len() > 5 || !text.is_ascii() {
        return None;
    }
    let mut moves = MoveList::new();
    V::legal_moves(b, &mut moves);
    moves.into_iter().find(|&m| move_to_uci(m) == text)
}
