//! Generates the atomic mate test positions (`engine-tests/data/atomic_mates.epd`)
//! from engine self-play: positions from fast games where the side to move
//! can force a win in 1 to 3 moves, each proven by the pruning-free prover.
//!
//! `cargo run --release --example gen_mates > engine-tests/data/atomic_mates.epd`

use fission::search::mate::shortest_win;
use fission::search::tt::TranspositionTable;
use fission::search::{Control, Limits, SearchOptions, Silent, think};
use fission::tools::tournament::random_openings;
use fission::{Atomic, Variant};
use std::collections::HashSet;
use std::sync::Arc;

fn main() {
    let tt = Arc::new(TranspositionTable::try_new(16).unwrap());
    let mut seen = HashSet::new();
    let mut found = [0usize; 4];
    println!("# Atomic positions with a forced win, from engine self-play (examples/gen_mates.rs).");
    println!("# Each line: FEN; mate N = the side to move wins in N moves at best (proven exhaustively).");
    for (g, start) in random_openings::<Atomic>(400, 6, 2026).into_iter().enumerate() {
        let mut b = start;
        for _ply in 0..120 {
            if Atomic::outcome(&b).is_some() {
                break;
            }
            let fen = b.fen();
            let key: String = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
            if seen.insert(key)
                && let Some(n) = shortest_win::<Atomic>(&b, 3)
            {
                let n = n as usize;
                // A spread of lengths: up to 10 of each.
                if found[n] < 10 && !(n == 1 && found[1] >= 6) {
                    found[n] += 1;
                    println!("{fen}; mate {n}");
                }
            }
            tt.clear();
            let limits = Limits { depth: Some(4 + (g % 3) as u32), ..Limits::default() };
            let r = think::<Atomic>(
                &b,
                &[b.key()],
                &limits,
                &SearchOptions::fixed(Atomic::KIND, 1),
                &tt,
                &Arc::new(Control::new(false)),
                Arc::new(Silent),
            );
            let Some(m) = r.best else { break };
            b = Atomic::play(&b, m);
        }
        if found[1] >= 6 && found[2] >= 10 && found[3] >= 10 {
            break;
        }
    }
    eprintln!("found: mate1 {} mate2 {} mate3 {}", found[1], found[2], found[3]);
}
