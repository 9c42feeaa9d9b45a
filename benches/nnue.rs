//! Network speed per hidden width: the accumulator update of a move
//! (both points of view) and the output layer, at widths 128 to 1024, with
//! the kernels this CPU runs. The moves are those of random atomic games
//! (quiet moves, captures and their explosions as they come), so the
//! update figures are a search's mix. Nets have random weights: the speed
//! of a width does not depend on its values.
//!
//! `cargo bench --bench nnue`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fission::nnue::accumulator::{Accumulator, Delta};
use fission::nnue::network::{KingMap, Network};
use fission::types::SplitMix;
use fission::{Atomic, Board, MoveList, Variant, VariantKind};
use std::hint::black_box;
use std::time::Duration;

/// Consecutive positions of random atomic games.
fn games(plies: usize) -> Vec<(Board, Board)> {
    let mut rng = SplitMix::new(5);
    let mut out = Vec::new();
    while out.len() < plies {
        let mut b = Atomic::from_fen(Atomic::start_fen()).unwrap();
        for _ in 0..80 {
            let mut moves = MoveList::new();
            Atomic::legal_moves(&b, &mut moves);
            if moves.is_empty() || Atomic::outcome(&b).is_some() {
                break;
            }
            let next = Atomic::play(&b, moves[(rng.next_u64() % moves.len() as u64) as usize]);
            out.push((b, next.clone()));
            b = next;
        }
    }
    out.truncate(plies);
    out
}

fn nnue(c: &mut Criterion) {
    let pairs = games(512);
    let mut group = c.benchmark_group("nnue");
    group.sample_size(20).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    group.throughput(Throughput::Elements(pairs.len() as u64));
    // Widths without king buckets, and 256 with 4 mirrored king buckets
    // (a view recomputed whenever its king changes bucket).
    let none = KingMap::NONE;
    let quad = KingMap::named("quad-mirror").expect("a named layout");
    for (hidden, king, name) in
        [(128, none, ""), (256, none, ""), (512, none, ""), (1024, none, ""), (256, quad, "-kings4")]
    {
        let net = Network::random_with(VariantKind::Atomic, king, hidden, 1, 1);
        let map = Some(king).filter(|k| !k.is_none());
        let prepared: Vec<(Accumulator, Delta, &Board)> = pairs
            .iter()
            .map(|(before, after)| {
                let mut d = Delta::default();
                d.set(before, after, map.as_ref());
                (net.refresh(before), d, before)
            })
            .collect();
        let mut out = Accumulator::zeroed(hidden);
        let hidden = format!("{hidden}{name}");
        group.bench_function(format!("update-{hidden}"), |bench| {
            bench.iter(|| {
                for (acc, delta, _) in &prepared {
                    net.apply(acc, delta, &mut out);
                    black_box(&out);
                }
            })
        });
        group.bench_function(format!("evaluate-{hidden}"), |bench| {
            bench.iter(|| prepared.iter().map(|(acc, _, b)| net.evaluate(black_box(acc), b) as i64).sum::<i64>())
        });
    }
    group.finish();
}

criterion_group!(benches, nnue);
criterion_main!(benches);
