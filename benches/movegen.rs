//! Perft throughput, ours next to shakmaty's on the same positions, so one
//! run gives the ratio. Bulk counting at the last ply on both sides.
//!
//! `cargo bench --bench movegen` (reports in nodes/s).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fission::perft::perft;
use fission::{Atomic, Chess, Variant};
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

fn movegen(c: &mut Criterion) {
    bench_cases::<Atomic, shakmaty::variant::Atomic>(c, ATOMIC);
    bench_cases::<Chess, shakmaty::Chess>(c, CHESS);
}

criterion_group!(benches, movegen);
criterion_main!(benches);
