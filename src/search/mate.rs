//! A plain, pruning-free mate prover: does the side to move force a win
//! (mate, or an exploded king) within `moves` of its own moves? Used to
//! verify the mate test positions independently of the search's pruning.

use crate::board::Board;
use crate::types::MoveList;
use crate::variant::{Outcome, Variant};

/// Whether the side to move has lost right now (checkmated, or its king gone).
fn lost<V: Variant>(b: &Board) -> bool {
    match V::variant_outcome(b) {
        Some(Outcome::Decisive { winner }) => winner != b.turn(),
        Some(Outcome::Draw) => false,
        None => V::count_moves(b) == 0 && V::is_check(b),
    }
}

/// True if the side to move can force a win in at most `moves` moves.
pub fn forced_win<V: Variant>(b: &Board, moves: u32) -> bool {
    if moves == 0 || V::variant_outcome(b).is_some() {
        return false;
    }
    let mut list = MoveList::new();
    V::legal_moves(b, &mut list);
    list.iter().any(|&m| {
        let after = V::play(b, m);
        if lost::<V>(&after) {
            return true;
        }
        if moves == 1 || V::variant_outcome(&after).is_some() {
            return false;
        }
        let mut replies = MoveList::new();
        V::legal_moves(&after, &mut replies);
        !replies.is_empty() && replies.iter().all(|&r| forced_win::<V>(&V::play(&after, r), moves - 1))
    })
}

/// The shortest forced win up to `max` moves, if any.
pub fn shortest_win<V: Variant>(b: &Board, max: u32) -> Option<u32> {
    (1..=max).find(|&n| forced_win::<V>(b, n))
}
