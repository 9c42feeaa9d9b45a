//! Perft throughput, ours next to shakmaty's on the same positions, so one
//! run gives the ratio. Bulk counting at the last ply on both sides.
//!
//! `cargo bench --bench movegen` (reports in nodes/s).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fission::perft::perft;
use fission::{Atomic, Chess, Dynamo, Push, Variant};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Position};
use std::hint::black_box;
use std::time::Duration;

struct Case {
    name: &'static str,
    fen: &'static str,
    depth: u32,
}

const ATOMIC: &[Case] = &[
    Case { name: "atomic-start-d5", fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", depth: 5 },
    Case {
        name: "atomic-middlegame-d4",
        fen: "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
        depth: 4,
    },
];

const CHESS: &[Case] = &[
    Case { name: "chess-start-d5", fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", depth: 5 },
    Case { name: "kiwipete-d4", fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", depth: 4 },
];

fn bench_cases<V: Variant, P: Position + shakmaty::FromSetup + Clone>(c: &mut Criterion, cases: &[Case]) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10).measurement_time(Duration::from_secs(8)).warm_up_time(Duration::from_secs(1));
    for case in cases {
        let ours = V::from_fen(case.fen).unwrap();
        let theirs: P = case.fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        let nodes = perft::<V>(&ours, case.depth);
        assert_eq!(nodes, shakmaty::perft(&theirs, case.depth), "{}", case.name);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("fission/{}", case.name), |b| b.iter(|| perft::<V>(black_box(&ours), case.depth)));
        group.bench_function(format!("shakmaty/{}", case.name), |b| {
            b.iter(|| shakmaty::perft(black_box(&theirs), case.depth))
        });
    }
    group.finish();
}

/// Push against our own chess generator on the same positions (no other
/// implementation of push exists to compare with). The shallow cases are
/// quick but noisy (a chess perft of Kiwipete to depth 3 takes 0.2 ms); the
/// deeper ones are the numbers to quote.
const PUSH_VS_CHESS: &[Case] = &[
    Case { name: "start-d4", fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", depth: 4 },
    Case { name: "kiwipete-d3", fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", depth: 3 },
    Case { name: "start-d5", fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", depth: 5 },
    Case { name: "kiwipete-d4", fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", depth: 4 },
    Case {
        name: "middlegame-d4",
        fen: "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 1",
        depth: 4,
    },
];

fn bench_push(c: &mut Criterion) {
    let mut group = c.benchmark_group("push-vs-chess");
    group.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    for case in PUSH_VS_CHESS {
        let push = Push::from_fen(case.fen).unwrap();
        let nodes = perft::<Push>(&push, case.depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("push/{}", case.name), |b| b.iter(|| perft::<Push>(black_box(&push), case.depth)));
        let chess = Chess::from_fen(case.fen).unwrap();
        let nodes = perft::<Chess>(&chess, case.depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("chess/{}", case.name), |b| {
            b.iter(|| perft::<Chess>(black_box(&chess), case.depth))
        });
    }
    group.finish();
}

/// Dynamo perft of the start position to depth 3 (4,329,662 turns; the
/// reference implementation needs about two minutes).
fn bench_dynamo(c: &mut Criterion) {
    let mut group = c.benchmark_group("dynamo");
    group.sample_size(10).measurement_time(Duration::from_secs(10)).warm_up_time(Duration::from_secs(1));
    let b = Dynamo::from_fen(Dynamo::start_fen()).unwrap();
    let nodes = perft::<Dynamo>(&b, 3);
    assert_eq!(nodes, 4_329_662);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("start-d3", |bch| bch.iter(|| perft::<Dynamo>(black_box(&b), 3)));
    group.finish();
}

fn movegen(c: &mut Criterion) {
    bench_cases::<Atomic, shakmaty::variant::Atomic>(c, ATOMIC);
    bench_cases::<Chess, shakmaty::Chess>(c, CHESS);
    bench_push(c);
    bench_dynamo(c);
}

criterion_group!(benches, movegen);
criterion_main!(benches);
