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
    divide_each::<V>(b, depth, threads, &|_, _| {})
}

/// As [`divide`], telling `done` (root move, its count) as each root move is
/// counted, in the order they finish.
pub fn divide_each<V: Variant>(
    b: &Board,
    depth: u32,
    threads: usize,
    done: &(dyn Fn(Move, u64) + Sync),
) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    V::legal_moves(b, &mut moves);
    let child = |m: &Move| {
        let n = if depth <= 1 { 1 } else { perft::<V>(&V::play(b, *m), depth - 1) };
        done(*m, n);
        (*m, n)
    };
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

/// One entry of a `.perft` suite.
#[derive(Clone, Debug)]
pub struct SuiteEntry {
    pub id: String,
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

/// Reads a suite in shakmaty's `.perft` format (`id`, `epd`, `perft D N`
/// lines; `#` comments); the error names the line it cannot read.
pub fn read_suite(text: &str) -> Result<Vec<SuiteEntry>, String> {
    let mut out: Vec<SuiteEntry> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let bad = || format!("suite line {}: cannot read '{line}'", i + 1);
        match key {
            "" => {}
            k if k.starts_with('#') => {}
            "id" => out.push(SuiteEntry { id: rest.trim().to_string(), fen: String::new(), counts: Vec::new() }),
            "epd" => out.last_mut().ok_or_else(bad)?.fen = rest.trim().to_string(),
            "perft" => {
                let (d, n) = rest.trim().split_once(char::is_whitespace).ok_or_else(bad)?;
                let entry = out.last_mut().ok_or_else(bad)?;
                entry.counts.push((d.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?));
            }
            _ => return Err(bad()),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suites_are_read() {
        let s = read_suite("# c\nid a\nepd 8/8/8/8/8/8/8/K1k5 w - -\nperft 1 3\nperft 2 9\n\nid b\nepd x\n").unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].counts, vec![(1, 3), (2, 9)]);
        assert!(read_suite("perft 1 2").is_err());
        assert!(read_suite("id a\nperft x 2").is_err());
    }
}
