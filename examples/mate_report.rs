//! For every position of `engine-tests/data/atomic_mates.epd`, the depth and
//! time at which the search first reports the forced win at its true length.
//!
//! `cargo run --release --example mate_report`

use fission::notation::move_to_uci;
use fission::search::score::mate_in;
use fission::search::tt::TranspositionTable;
use fission::search::{Control, Limits, PvInfo, Reporter, SearchOptions, think};
use fission::{Atomic, Variant};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Remembers the first iteration whose score is the expected mate.
struct FirstMate {
    want: i32,
    found: Mutex<Option<(u32, u64, u64)>>,
}

impl Reporter for FirstMate {
    fn pv(&self, i: &PvInfo) {
        let mut f = self.found.lock().unwrap();
        if f.is_none() && i.score >= self.want {
            *f = Some((i.depth, i.time_ms, i.nodes));
        }
    }
    fn currmove(&self, _: u32, _: fission::Move, _: usize) {}
}

fn main() {
    let text = std::fs::read_to_string("engine-tests/data/atomic_mates.epd").expect("run from the repository root");
    println!("{:<8} {:>6} {:>8} {:>10}  {:<8} fen", "mate in", "depth", "time ms", "nodes", "move");
    let tt = Arc::new(TranspositionTable::try_new(16).unwrap());
    let (mut total_ms, mut count) = (0u64, 0);
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (fen, n) = line.split_once("; mate ").unwrap();
        let n: u32 = n.trim().parse().unwrap();
        let b = Atomic::from_fen(fen).unwrap();
        tt.clear();
        let rep = Arc::new(FirstMate { want: mate_in(2 * n as usize - 1), found: Mutex::new(None) });
        let start = Instant::now();
        let limits = Limits { depth: Some(20), mate: Some(n), ..Limits::default() };
        let r = think::<Atomic>(
            &b,
            &[b.key()],
            &limits,
            &SearchOptions::fixed(Atomic::KIND, 1),
            &tt,
            &Arc::new(Control::new(false)),
            rep.clone(),
        );
        let wall = start.elapsed().as_millis() as u64;
        let (d, ms, nodes) = rep.found.lock().unwrap().unwrap_or((0, wall, r.nodes));
        total_ms += ms;
        count += 1;
        println!("{n:<8} {d:>6} {ms:>8} {nodes:>10}  {:<8} {fen}", r.best.map(move_to_uci).unwrap_or_default());
    }
    println!("{count} positions, {total_ms} ms in all");
}
