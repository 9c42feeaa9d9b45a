//! Search speed: nodes per second of a fixed-depth search over the bench
//! positions, one thread, per variant (dynamo included); and time to depth
//! at one and two threads on the atomic positions (lazy SMP).
//!
//! `cargo bench --bench search`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fission::eval::Evaluate;
use fission::search::bench;
use fission::search::tt::TranspositionTable;
use fission::search::{Control, Limits, SearchOptions, Silent, think};
use fission::{Atomic, Board, Chess, Dynamo, Push};
use std::sync::Arc;
use std::time::Duration;

fn search_all<V: Evaluate>(boards: &[Board], depth: u32, threads: usize) -> u64 {
    let tt = Arc::new(TranspositionTable::try_new(16).unwrap());
    let mut nodes = 0;
    for b in boards {
        tt.clear();
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let opts = SearchOptions::fixed(V::KIND, threads);
        nodes += think::<V>(b, &[b.key()], &limits, &opts, &tt, &Arc::new(Control::new(false)), Arc::new(Silent)).nodes;
    }
    nodes
}

fn boards(variant: &str) -> Vec<Board> {
    bench::positions().into_iter().filter(|(v, _)| *v == variant).map(|(_, b)| b).collect()
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10).measurement_time(Duration::from_secs(10)).warm_up_time(Duration::from_secs(1));
    let depth = 8;
    let atomic = boards("atomic");
    let chess = boards("chess");
    let push = boards("push");
    let n = search_all::<Atomic>(&atomic, depth, 1);
    group.throughput(Throughput::Elements(n));
    group.bench_function("atomic-d8-t1", |b| b.iter(|| search_all::<Atomic>(&atomic, depth, 1)));
    let n = search_all::<Chess>(&chess, depth, 1);
    group.throughput(Throughput::Elements(n));
    group.bench_function("chess-d8-t1", |b| b.iter(|| search_all::<Chess>(&chess, depth, 1)));
    let n = search_all::<Push>(&push, 6, 1);
    group.throughput(Throughput::Elements(n));
    group.bench_function("push-d6-t1", |b| b.iter(|| search_all::<Push>(&push, 6, 1)));
    // Dynamo: most of its cost is move generation (two-part turns).
    let dynamo = boards("dynamo");
    let n = search_all::<Dynamo>(&dynamo, 4, 1);
    group.throughput(Throughput::Elements(n));
    group.bench_function("dynamo-d4-t1", |b| b.iter(|| search_all::<Dynamo>(&dynamo, 4, 1)));
    group.finish();

    // Time to depth 10 on the atomic positions, one thread and two.
    let mut group = c.benchmark_group("lazy-smp");
    group.sample_size(10).measurement_time(Duration::from_secs(15)).warm_up_time(Duration::from_secs(1));
    for threads in [1, 2] {
        group.bench_function(format!("atomic-d10-t{threads}"), |b| {
            b.iter(|| search_all::<Atomic>(&atomic, 10, threads))
        });
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
