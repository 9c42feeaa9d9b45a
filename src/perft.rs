//! Perft and divide, generic over the variant, with bulk counting at the
//! last ply and an optional parallel split at the root (rayon).

use crate::board::Board;
use crate::types::{Move, MoveList};
use crate::variant::Variant;
use rayon::prelude::*;

/// Number of leaf nodes `depth` plies below `b`.
pub fn perft<V: Variant>(b: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => V::count_moves(b),
        _ => {
            let mut moves = MoveList::new();
            V::legal_moves(b, &mut moves);
            moves.iter().map(|&m| perft::<V>(&V::play(b, m), depth - 1)).sum()
        }
    }
}

/// Per-root-move counts, in generation order.
pub fn divide<V: Variant>(b: &Board, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    V::legal_moves(b, &mut moves);
    let child = |m: &Move| (*m, if depth <= 1 { 1 } else { perft::<V>(&V::play(b, *m), depth - 1) });
    if threads <= 1 || depth <= 2 {
        return moves.iter().map(child).collect();
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
    match pool {
        Ok(pool) => pool.install(|| moves.par_iter().map(child).collect()),
        Err(_) => moves.iter().map(child).collect(),
    }
}

/// Perft on `threads` threads (split at the root).
pub fn perft_threads<V: Variant>(b: &Board, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth <= 2 {
        return perft::<V>(b, depth);
    }
    divide::<V>(b, depth, threads).iter().map(|(_, n)| n).sum()
}
