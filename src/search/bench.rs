//! The benchmark: a fixed search of fixed positions, per variant, to a fixed
//! depth at one thread with a 16 MB hash, with each variant's default
//! evaluation (the embedded network where there is one). Its node count is the signature of
//! the search's behaviour (`Bench: N` in commit messages); it prints the final
//! `Nodes searched` and `Nodes/second` lines that OpenBench reads.

use crate::board::Board;
use crate::eval::Evaluate;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Control, Limits, SearchOptions, Silent};
use crate::variant::{Atomic, Chess, Dynamo, Push, Variant};
use std::sync::Arc;
use std::time::Instant;

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 9;
/// Hash size of the bench (MB).
pub const HASH_MB: usize = 16;

/// Chess positions: the classic perft positions and positions from random games.
const CHESS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ -",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ -",
    "rnbqkb1r/p1pppp1p/6p1/1p6/6n1/2P4P/PP1PPPP1/RNB1KBNR w KQkq -",
    "8/3p2k1/8/B7/7p/4n3/R7/1NK4b w - -",
    "rn3kn1/2p5/8/pp1Q3p/2P5/P5P1/1P2PP2/RNB1KR2 b Q -",
    "1r2k2r/pp3p1p/1n1Pp3/3n2p1/1P1b2P1/5P1N/2PP3P/2B1K2R b k -",
    "rnbqkbnr/pp1pp1pp/8/2p2p2/8/N1P5/PP1PPPPP/R1BQKBNR w KQkq -",
    "8/4pp1r/R1qkB2b/8/1P5p/1P1P4/5P1P/4K1R1 b - -",
    "rnb1kb2/3p4/5n2/6p1/3p1PPr/8/1PP1N1B1/1NB1K3 b q -",
    "3r1qnr/pp2pk1p/2p5/3p2P1/2N5/8/P4p1P/R2K1b2 b - -",
    "R7/8/1p4k1/2p5/4P1b1/3P2b1/3K4/2B5 b - -",
    "rnbqk1nr/p1pp1p1p/1p2p1P1/8/Pb6/8/1PPPP1PP/RNBQKBNR w KQkq -",
    "rnb1k1nr/p5p1/1p1ppp2/2p2PP1/1BP4p/1P5P/P2P4/RN1QKBNR w KQkq -",
    "rnbqkb1r/2pp1pp1/p7/4p2p/1p2n3/1PNB1P2/P1PP2PP/R1BQK1NR w KQkq -",
    "5k2/5p2/3p2R1/3P4/8/4p1PN/2r1P3/1N1QKB2 b - -",
    "8/1N1p4/3k4/8/2P1Q3/4P3/6p1/1RB3K1 b - -",
    "2b5/3Bk3/5p1b/2p1p3/4P3/3r4/4P3/1R1K4 w - -",
    "4k2N/1r2B2p/8/pPp3p1/q7/1b6/2PK1PPP/5R2 w - -",
    "2b5/8/2p3p1/P7/3P1Pk1/4K3/8/3R2N1 w - -",
    "3q1bk1/2ppp1p1/n7/7n/P2PPN1P/P7/3BKP2/RN4rR b - -",
    "1n2kb1r/2Q1p2p/1pp1p3/r5p1/4P1n1/5P1N/PP1B1K1P/RN5R w k -",
    "8/1bk1B3/4p3/8/6p1/r2P4/8/3K4 b - -",
    "1n2kbnr/rpp1pppp/4b3/p7/3BP3/1P6/P1PP1PPP/RN1QKBR1 b Qk -",
    "3k4/6p1/6P1/3Pp3/1B3p2/3B3P/p7/4K3 w - -",
    "r1b1k1nr/ppnp1ppp/2p1p3/2b5/2P2N1P/4PP2/3P2PR/RNB1KB2 w Q -",
    "6k1/pbpp4/7R/8/5r2/3P3P/1K6/2B5 w - -",
    "3k4/1p2n3/8/p3ppB1/2N3P1/8/4P3/5B1K w - -",
    "rnb3nr/1Bqpk1pp/p4p2/2p5/6P1/N2P4/PPPP1P1P/R1BQK2R w Q -",
    "1nb1k1nr/1p1ppp1p/2p4b/6pR/Ppr5/1QN2N2/1B1P1Pq1/R1K2B2 b k -",
];

/// Atomic positions: openings, castling and explosion corner cases, and
/// positions from random games.
const ATOMIC: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    "rnbqk2r/pp1p2pp/2p3Nn/5p2/1b2P1PP/8/PPP2P2/R1BQKB1R w KQkq -",
    "8/8/8/8/8/8/5k2/R3K2r w Q -",
    "r3k1R1/pb2K2p/2n5/2pppr2/3P4/2P1P3/PP3P1P/R7 b q -",
    "8/8/8/2K5/2P5/2k1n3/8/2R5 b - -",
    "8/8/N7/2k1K3/N7/8/8/8 b - -",
    "rnb1kbnr/2qppppp/pp3B2/8/2P4P/P7/3PPPP1/R2QKBNR w KQkq -",
    "6n1/4k1p1/1pp5/6r1/8/3K3P/2P2P2/1NBQ1B1R w - -",
    "8/5p2/bp6/1B1kp3/3P4/6P1/2P2P2/1N1K4 w - -",
    "rn2kb2/p7/b2pp3/q4p2/8/P3P3/2PPNPP1/R1BQKB2 b Qq -",
    "r3kb2/1p2npp1/p3p3/3p4/1P6/2P5/P3PPPP/R1BK1B1R b q -",
    "1nb1k2r/2qp1p2/2p3p1/4p2p/8/3P1PP1/2P4P/R1BNK1NR w KQk -",
    "1rbqk3/2np1pp1/1p1b4/p1p1pP2/P6R/1P1P4/2PB2P1/RN1K1BN1 b - -",
    "4kb1r/2p1pp1p/3q4/3pn3/6p1/4PN2/NPPPKPPP/2B2Q1R b k -",
    "rnb2k1r/pppp3p/1P3pp1/8/P5n1/8/3PPP1P/RNB1K3 b - -",
    "rn2kbnr/pppqpppp/4b3/3p4/8/BP1P1N2/P1P1PPPP/RN1QKB1R w KQkq -",
    "2bnk3/1p1p1p1r/4p2n/7p/2P4P/5N2/2K1PPP1/1N1Q1BR1 w - -",
    "3r1b1r/1p2pk2/p4p1p/3p2p1/3B2P1/P2PQ2P/1PP2P2/R3K1NR w K -",
    "6k1/p7/8/2B4p/8/4p2P/3PP3/1N1K4 b - -",
    "rn1q4/2p2k2/4pp1p/8/P2p4/4PP2/2PP1K1P/5R2 b - -",
    "rn1qkbn1/p3p1p1/2p5/3p4/1P3Pbr/2PP4/P2NP2P/R2K1B1R b q -",
    "r1bqkbnr/pp1p2pp/2p1pp2/8/5N2/P3P3/1PPP1PPP/RNBQK2R b KQkq -",
    "3k4/3n4/rp2p2p/p7/P7/8/3K4/8 b - -",
    "2bk4/r3p3/1p6/nBpq4/pP4PP/P7/1R1PN3/1NB1KR2 b - -",
    "rn1qkbnr/p4p1p/1p1p4/4p1p1/6b1/1PN1PP2/P1PP2PP/R1BQK1NR w KQkq -",
    "r1bqk1nr/ppppbpp1/2n5/4p1N1/P1P4p/3PP3/1P1N1PPP/R1BQKBR1 w Qkq -",
    "rnb1kbnr/pp1p2pp/1q2pp2/2p5/Q5P1/2P2P2/PP1PP2P/RNB1KBNR w KQkq -",
    "3q2n1/npp3p1/4kp2/3pp3/4P3/2P2P2/P2P4/RNK5 b - -",
    "r2q1bn1/pp2pkp1/2p4r/7p/8/2P2P2/P2P3P/RN1QK3 b Q -",
    "6nr/5kq1/3p1p1p/8/2P5/5KP1/1P2P1QP/2B1R3 b - -",
    "4n3/5r1k/4ppp1/4N3/p4PPP/P3P3/1P1K2R1/R7 w - -",
    "rnbqkbnr/1pp1pp2/8/p6p/3P4/3K4/PPP3PP/RNBQ1BNR b kq -",
];

/// Push positions: the perft suite's (start, classic positions, push-rich
/// middlegames and endgames).
const PUSH: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq -",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ -",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - -",
    "4k3/8/R7/8/8/B7/8/4K3 w - -",
    "4k3/8/8/8/N7/2N5/7K/Q7 w - -",
    "4k3/8/5r2/4N3/3P4/8/8/4K3 w - -",
    "4k3/8/8/8/4B3/3P4/8/4K3 w - -",
    "7k/3P4/1N6/8/8/8/8/K7 w - -",
    "k1r5/8/8/8/8/8/8/4K2R w K -",
    "4k3/8/8/8/3KpN1r/8/8/8 w - -",
    "4k3/8/8/2NpP3/1B6/8/8/4K3 w - d6",
    "4k3/7r/8/8/8/8/7n/R3K2R b KQ -",
    "r3k3/ppp2p2/4bn1R/1n3p2/1P5P/b2NQNP1/P1P1B3/6KB w q -",
    "rn2kbn1/pbqpppp1/pp5r/7p/4P3/P1BP4/RP1PNPPP/1NBQK2R w Kq -",
    "1n2k1nr/1p1b1p1p/2p1pp2/r3p3/p7/1RP2N1P/1BPNQPBP/4K1R1 w k -",
    "Bn2kbn1/p2bpppr/4p2p/p7/4P3/P6P/PBPP1K1P/RN1Q2NR b - e3",
    "5rk1/p1P3b1/3Pn2p/5r2/R5p1/4KR2/8/8 w - -",
    "2bk1n2/r2bpp1p/2n5/pq2p1r1/1pP3B1/2PQ2PP/PP3P1R/1RN1K3 w - -",
    "3kR3/r1p2p2/p5B1/p5pn/n2P3p/Pb3B2/P4PPP/1RK5 b - -",
    "2b1k1nr/1rpn1ppp/p4p2/8/BpP5/p4P1P/P1PNNP1R/R1B1QK2 w k -",
    "3r4/1pn2ppp/7R/4BPP1/r1k5/p3PN2/3BP1P1/bb1K4 w - -",
    "1q1k1r2/2r1pbpp/pn3np1/1p5P/p1P2PNP/P4B1P/1R1P1P1R/2B1K1N1 w - -",
    "rn2kb2/pb3p1r/p6p/P4pP1/Rp2nB1P/3P3P/Pq1pP1BR/N3K1N1 w q -",
    "2bqk1nr/rp1pppBp/1pn4p/p6B/8/P2P4/P1PPQPPP/RN2KNR1 b Qk -",
    "1n2knr1/2p1p2p/P3bp1b/1B1p1p2/4P3/7P/1R3PBP/2N1K1NR b K -",
    "1r2k1n1/p1P1bppr/1p1P1p2/3b1q1p/2P3N1/P1PP1B2/PB3P2/1RN1K2R b K -",
    "r3kbn1/p2nqppr/p4p1p/P4Pp1/1Qp5/PP3bP1/2R1NPP1/2B1KBNR b Kq -",
    "1r1b1qkb/ppppppp1/1n6/3P3r/6BP/3P3R/PPP2P2/RNB1K1N1 w Q -",
    "rnb1k2r/pp1pnp1p/1qp5/p7/P7/PP3P2/P2NQbPP/RNKBR3 b kq -",
    "6k1/p4R2/6pp/P7/8/1p1B1PpP/3NKp2/r5B1 b - -",
];

/// Dynamo positions (reference 5-field FENs) from its perft suite.
const DYNAMO: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -",
    "rnbqkbnr/ppp1pppp/8/3p4/8/2N5/PPPPPPPP/R1BQKB1R w 0 ahah -",
    "rnbqk1nr/ppppppbp/6p1/8/3B4/1P6/P1PPPPPP/RN1QKBNR b 0 ahah wbd4/wbb2",
    "8/4B3/8/8/6Qk/8/4N3/K7 b 0 iiii -",
    "rnbqk1nr/pppppp1p/6p1/8/3b4/1P6/PBPPPPPP/RN1QKBNR w 0 ahah wbb2.bbd4/wbd4.bbg7",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w 0 ahah -",
    "2r1k2r/ppp2ppp/2n5/2pp4/3Q4/1B2B2P/P1P2PPb/PN2K1NR w 16 iiih bbh2/bbd6",
    "4k3/6n1/8/5K2/8/8/8/R6R w 0 iiii -",
    "8/8/8/8/8/8/6k1/7K w 0 iiii -",
    "8/8/8/8/8/8/1k6/K7 w 0 iiii -",
    "4k3/8/8/8/8/8/8/K3P3 w 0 iiii -",
    "rnbqkbnr/ppp1pppp/8/3p4/8/2N5/PPPPPPPP/R1BQKBNR w 0 ahah -",
    "3k4/6p1/p1p5/5N2/1p4p1/P7/1P2K3/7P b 55 iiii wnf5/wne3",
    "1N6/1p5p/3k1p1P/p2P2p1/1P3K2/3p1P1N/7P/8 w 50 iiii bkd6.wpd5/bkd5.wpd4",
    "1n1qk1nr/1pp2ppp/4b3/3P4/3p1P2/P1N5/2PK1qPP/R1B3NR b 15 iiih wpd5.wnc3/wpc3.wnb1",
    "pR3p1N/5p2/3p1k2/p1p5/P2P4/2P5/P5P1/5K2 b 47 iiii wrb8.bpf8/wrf8.bpg8",
    "p7/1p3k2/1p5K/3p4/P2p1PP1/3P3P/8/5P2 w 50 iiii -/wng8",
    "r3k1nr/ppp2ppp/2n1b3/1B2q3/8/4B1Pp/1PP2P1P/1N1QK3 b 17 iiah wbe3/wpe3.wbc1",
    "3p4/4k3/1P4p1/2P1P2n/8/1P1PPb2/5K1n/r7 b 47 iiii -/wnh1",
    "1N3kn1/2p5/pp1P2p1/7p/2P2P2/P7/N3K1P1/1N5P b 31 iiii wke2/wkf2",
    "2p3k1/5p1p/7P/7Q/p2pK3/3n4/P1P2P1R/P4PP1 w 48 iiii bpf7/bpe5",
    "2pQkpn1/r1pn1pp1/4p2p/8/8/p2P2P1/R1P1P1PP/1N2K1NR w 20 ihii bpc8/bbc8.bpb7",
    "4kbn1/1ppn1p2/p4pp1/4qpr1/PP6/7p/1P2PPPP/N3KB1R b 15 ihii wna1/wra1.wnb1",
    "1k4B1/1pp4p/6R1/4Q3/2b2P1p/2P1K3/5P2/1NB3NR b 37 iiii wrg6/bpf6.wrh6",
    "rnb1k1br/Ppp2pp1/3p3p/8/3B4/7P/Rp1qPP1R/1NP1KPN1 w 22 iiah bqd2.wbd4/bqd4.wbd5",
    "2p5/2p3pp/1k4p1/4n1P1/1P6/5b1N/3P1PP1/5K2 b 49 iiii wkf1/wke2",
    "2rnkB2/2pp1p2/b1p5/8/3P4/8/1PP2PPp/1P1QK1NP w 20 iiii bnd8.brc8/bnb8.bra8",
    "2Nk4/5p2/1pp3p1/2nP4/1P4K1/2Np2P1/2P2PB1/2P1N3 w 44 iiii wpg3/wpe4",
    "3k1pBr/rpp3pp/4p3/7P/3p3R/p2P4/PPPK1P2/RN5Q b 15 iiii wqh1/wnd1.wqc1",
    "1n2k3/2p1pp2/1ppPpnPP/1P5p/1P6/4BP2/6PP/rN2KB1R b 29 ihii wnb1/wnc3",
    "6q1/3k4/8/p2p1p2/2K1pnp1/P4P2/7Q/8 w 58 iiii bqg8.bpg4/bqg6.bpg3",
    "6Rr/p4kpp/P4p2/4Bb1p/8/7p/PPP3PK/1N6 w 32 iiii bph3.bbf5/bpd7.bbc8",
];

/// Result of one bench run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BenchResult {
    pub positions: usize,
    pub nodes: u64,
    pub millis: u64,
}

fn bench_variant<V: Evaluate>(fens: &[&str], depth: u32, out: &mut BenchResult, mut each: impl FnMut(&str, u64)) {
    let tt = Arc::new(TranspositionTable::try_new(HASH_MB).unwrap_or_else(|_| TranspositionTable::new_small()));
    for fen in fens {
        let Ok(board) = V::from_fen(fen) else {
            continue;
        };
        tt.clear();
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let opts = SearchOptions::fixed(V::KIND, 1);
        let control = Arc::new(Control::new(false));
        let r = search::think::<V>(&board, &[board.key()], &limits, &opts, &tt, &control, Arc::new(Silent));
        out.positions += 1;
        out.nodes += r.nodes;
        each(fen, r.nodes);
    }
}

/// Runs the bench over every variant; `each` sees (variant, fen, nodes).
pub fn run(depth: Option<u32>, mut each: impl FnMut(&str, &str, u64)) -> BenchResult {
    let depth = depth.unwrap_or(DEFAULT_DEPTH);
    let start = Instant::now();
    let mut out = BenchResult::default();
    bench_variant::<Chess>(CHESS, depth, &mut out, |f, n| each(Chess::NAME, f, n));
    bench_variant::<Atomic>(ATOMIC, depth, &mut out, |f, n| each(Atomic::NAME, f, n));
    // Push and Dynamo moves are costlier to generate (make-and-test, and two-
    // part turns): shallower searches keep the bench to a few seconds.
    bench_variant::<Push>(PUSH, depth.saturating_sub(2).max(1), &mut out, |f, n| each(Push::NAME, f, n));
    bench_variant::<Dynamo>(DYNAMO, depth.saturating_sub(8).max(1), &mut out, |f, n| each(Dynamo::NAME, f, n));
    out.millis = start.elapsed().as_millis() as u64;
    out
}

fn parsed<V: Variant>(fens: &[&str], out: &mut Vec<(&'static str, Board)>) {
    out.extend(fens.iter().filter_map(|f| V::from_fen(f).ok()).map(|b| (V::NAME, b)));
}

/// Every bench position, parsed in its variant (used by tests and benches).
pub fn positions() -> Vec<(&'static str, Board)> {
    let mut v = Vec::new();
    parsed::<Chess>(CHESS, &mut v);
    parsed::<Atomic>(ATOMIC, &mut v);
    parsed::<Push>(PUSH, &mut v);
    parsed::<Dynamo>(DYNAMO, &mut v);
    v
}
