//! `Move` to text and back, in UCI long algebraic notation (`e2e4`, `e7e8q`,
//! castling as the king's move `e1g1`). Parsing is exact: the text is matched
//! against the legal moves of the position, so only legal moves come back.

use crate::board::{Board, CastlingMode};
use crate::types::{Move, MoveKind, MoveList};
use crate::variant::Variant;

/// The UCI text of a move. Dynamo's two-part turns are written
/// `<part1>,<part2>`, an exit as `<from>--`; a promotion letter follows the
/// part that moves the promoting pawn.
pub fn move_to_uci(m: Move) -> String {
    let promo = m.promotion_role().map(|r| r.char().to_string()).unwrap_or_default();
    let (p1, p2) = if m.promotes_second() { ("", promo.as_str()) } else { (promo.as_str(), "") };
    let (f, t, f2, t2) = (m.from(), m.to(), m.second_from(), m.second_to());
    match m.kind() {
        MoveKind::Exit => format!("{f}--"),
        MoveKind::TwoDisplacements => format!("{f}{t}{p1},{f2}{t2}{p2}"),
        MoveKind::DisplacementExit => format!("{f}{t}{p1},{f2}--"),
        MoveKind::ExitDisplacement => format!("{f}--,{f2}{t2}{p2}"),
        MoveKind::TwoExits => format!("{f}--,{f2}--"),
        _ => format!("{f}{t}{promo}"),
    }
}

/// The UCI text of a move in a castling mode: in Chess960 castling is
/// written as the king taking its own rook (`e1h1`, `b1a1`), since the
/// king's destination alone may be an ordinary king move.
pub fn move_to_uci_mode(m: Move, mode: CastlingMode) -> String {
    if mode == CastlingMode::Chess960 && m.kind() == MoveKind::Castle {
        format!("{}{}", m.from(), m.second_from())
    } else {
        move_to_uci(m)
    }
}

/// The legal move of `b` whose UCI text is `text`, if any (standard mode:
/// castling as the king's move, or as king takes rook).
pub fn parse_move<V: Variant>(b: &Board, text: &str) -> Option<Move> {
    parse_move_mode::<V>(b, text, CastlingMode::Standard)
}

/// [`parse_move`] in a castling mode. In Chess960 castling is only king
/// takes rook: `f1g1` with the king on f1 is the king's step, not castling.
pub fn parse_move_mode<V: Variant>(b: &Board, text: &str, mode: CastlingMode) -> Option<Move> {
    let text = text.trim();
    if text.len() < 4 || text.len() > 16 || !text.is_ascii() {
        return None;
    }
    let mut moves = MoveList::new();
    V::legal_moves(b, &mut moves);
    let king_takes_rook = |m: Move| m.kind() == MoveKind::Castle && format!("{}{}", m.from(), m.second_from()) == text;
    match mode {
        CastlingMode::Chess960 => moves.iter().copied().find(|&m| move_to_uci_mode(m, mode) == text),
        // Castling is also accepted as "king takes own rook" (e1h1), as
        // UCI_Chess960 writes it.
        CastlingMode::Standard => moves
            .iter()
            .copied()
            .find(|&m| move_to_uci(m) == text)
            .or_else(|| moves.iter().copied().find(|&m| king_takes_rook(m))),
    }
}
