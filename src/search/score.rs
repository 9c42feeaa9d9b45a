//! Scores: centipawns, with mate scores at the top and bottom of the range.

use super::params::MAX_PLY;

pub const INFINITE: i32 = 32_001;
/// Mate at the root: `MATE - ply` for the side that mates at `ply`.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const DRAW: i32 = 0;
// A static evaluation (clamped to ±EVAL_LIMIT) is never a mate score.
const _: () = assert!(crate::eval::EVAL_LIMIT < MATE_BOUND);

pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

pub fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

pub fn is_mate(s: i32) -> bool {
    s.abs() >= MATE_BOUND
}

/// Mate scores are stored relative to the node, not the root.
pub fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

pub fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// UCI form of a score: `Cp(n)` or `Mate(moves)` (negative when mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciScore {
    Cp(i32),
    Mate(i32),
}

pub fn uci_score(s: i32) -> UciScore {
    if s >= MATE_BOUND {
        UciScore::Mate((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        UciScore::Mate(-(MATE + s) / 2)
    } else {
        UciScore::Cp(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(uci_score(mate_in(1)), UciScore::Mate(1));
        assert_eq!(uci_score(mate_in(3)), UciScore::Mate(2));
        assert_eq!(uci_score(mated_in(0)), UciScore::Mate(0));
        assert_eq!(uci_score(mated_in(2)), UciScore::Mate(-1));
        assert_eq!(uci_score(35), UciScore::Cp(35));
        assert_eq!(from_tt(to_tt(mate_in(7), 4), 4), mate_in(7));
    }
}
