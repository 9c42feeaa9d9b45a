//! The search: iterative deepening with aspiration windows, principal
//! variation search, quiescence, a shared transposition table and lazy SMP.
//! Generic over the variant (`V: Evaluate`).
//!
//! The search never prints: it reports through a [`Reporter`], and the UCI
//! layer turns reports into text.

pub mod bench;
mod history;
pub mod limits;
pub mod mate;
pub mod params;
mod picker;
pub mod score;
pub mod tt;
mod worker;

use crate::board::Board;
use crate::eval::{Evaluate, Evaluation};
use crate::types::Move;
use crate::variant::VariantKind;
pub use limits::{Clock, Limiter, Limits};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};
use tt::TranspositionTable;
use worker::Worker;

/// Options that shape a search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: u64,
    /// Play the 1-ply greedy move instead of searching (a baseline opponent
    /// for strength tests, `fission --greedy`).
    pub greedy: bool,
    /// The evaluation: classical or a network trained for the variant
    /// searched.
    pub evaluation: Evaluation,
}

/// The defaults of the `Threads`, `MultiPV` and `Move Overhead` options.
pub const DEFAULT_THREADS: usize = 1;
pub const DEFAULT_MULTIPV: usize = 1;
pub const DEFAULT_MOVE_OVERHEAD: u64 = 10;

impl SearchOptions {
    /// The engine's defaults for `variant`: one thread, one line, the
    /// default move overhead and the variant's default evaluation (its
    /// embedded network, if it has one) — what the engine plays with.
    pub fn new(variant: VariantKind) -> SearchOptions {
        SearchOptions {
            threads: DEFAULT_THREADS,
            multipv: DEFAULT_MULTIPV,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            greedy: false,
            evaluation: Evaluation::default_for(variant),
        }
    }

    /// As [`SearchOptions::new`] with `threads` threads and no move overhead
    /// (for fixed-depth or fixed-node searches: bench, data generation,
    /// tests).
    pub fn fixed(variant: VariantKind, threads: usize) -> SearchOptions {
        SearchOptions { threads, move_overhead: 0, ..SearchOptions::new(variant) }
    }
}

/// The 1-ply greedy player: the move after which the static evaluation
/// (`evaluation`, as the search would use it) is best for the mover; a move
/// that wins on the spot (mate, exploded king) is taken at once. Ties go to
/// the first move generated.
pub fn greedy<V: Evaluate>(root: &Board, evaluation: &Evaluation) -> SearchResult {
    let mut list = crate::types::MoveList::new();
    V::legal_moves(root, &mut list);
    let mut best = None;
    let mut best_score = -score::INFINITE;
    for &m in &list {
        let after = V::play(root, m);
        let s = match V::outcome(&after) {
            Some(crate::variant::Outcome::Decisive { winner }) if winner == root.turn() => score::mate_in(1),
            Some(crate::variant::Outcome::Decisive { .. }) => score::mated_in(1),
            Some(crate::variant::Outcome::Draw) => score::DRAW,
            None => -evaluation.evaluate::<V>(&after),
        };
        if s > best_score {
            best_score = s;
            best = Some(m);
        }
    }
    SearchResult { best, ponder: None, score: best_score, depth: 1, nodes: list.len() as u64 }
}

/// Shared between the UCI thread and the search: stop and ponder flags and
/// the moment the clock started (reset by `ponderhit`).
pub struct Control {
    /// The search threads stop (set by the search itself, or by `stop`).
    stop: AtomicBool,
    /// The GUI has let the search go (`stop`): a search under `infinite`
    /// or `ponder` that ended by itself still waits for this, or for
    /// `ponderhit`, before it answers.
    released: AtomicBool,
    ponder: AtomicBool,
    epoch: Instant,
    clock_start_ms: AtomicU64,
}

impl Default for Control {
    fn default() -> Self {
        Control {
            stop: AtomicBool::new(false),
            released: AtomicBool::new(false),
            ponder: AtomicBool::new(false),
            epoch: Instant::now(),
            clock_start_ms: AtomicU64::new(0),
        }
    }
}

impl Control {
    /// A fresh control for a search starting now.
    pub fn new(ponder: bool) -> Control {
        let c = Control::default();
        c.ponder.store(ponder, Ordering::SeqCst);
        c
    }
    /// `stop` from the GUI (or the engine): the threads stop and the
    /// answer may be sent.
    pub fn stop(&self) {
        self.released.store(true, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }
    /// The search ends by its own decision (a limit, a mate, the maximum
    /// depth): the threads stop, but an infinite or pondering search still
    /// waits for the GUI before answering.
    pub fn finish(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    /// Whether the GUI has said `stop`.
    pub fn released(&self) -> bool {
        self.released.load(Ordering::SeqCst)
    }
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    pub fn pondering(&self) -> bool {
        self.ponder.load(Ordering::Relaxed)
    }
    /// The opponent played the expected move: the clock starts now.
    pub fn ponderhit(&self) {
        self.clock_start_ms.store(self.epoch.elapsed().as_millis() as u64, Ordering::SeqCst);
        self.ponder.store(false, Ordering::SeqCst);
    }
    /// Milliseconds since the search started.
    pub fn elapsed_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }
    /// Milliseconds on our clock (since `go`, or since `ponderhit`).
    pub fn clock_ms(&self) -> u64 {
        self.elapsed_ms().saturating_sub(self.clock_start_ms.load(Ordering::Relaxed))
    }
}

/// Bound type of a reported score: the transposition table's own.
pub use tt::Bound;

/// One principal variation, reported after an iteration (or a re-search).
#[derive(Clone, Debug)]
pub struct PvInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: i32,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

/// Where the search reports.
pub trait Reporter: Sync {
    fn pv(&self, info: &PvInfo);
    fn currmove(&self, depth: u32, mv: Move, number: usize);
}

/// A reporter that drops everything (bench, tests).
pub struct Silent;

impl Reporter for Silent {
    fn pv(&self, _: &PvInfo) {}
    fn currmove(&self, _: u32, _: Move, _: usize) {}
}

/// What a finished search returns.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

/// Per-thread results gathered after the threads stop.
#[derive(Clone, Debug)]
struct ThreadResult {
    best: Option<Move>,
    ponder: Option<Move>,
    score: i32,
    depth: u32,
}

/// How late (ms past the hard limit) the main search thread may be before
/// the waiting thread answers for it (see [`think_with_early_answer`]).
const EARLY_ANSWER_GRACE_MS: u64 = 1;

/// Searches `root` (whose game history, oldest first and ending with the
/// root's own key, is `history`) with lazy SMP on `opts.threads` threads.
pub fn think<V: Evaluate>(
    root: &Board,
    history: &[u64],
    limits: &Limits,
    opts: &SearchOptions,
    tt: &TranspositionTable,
    control: &Control,
    reporter: &dyn Reporter,
) -> SearchResult {
    think_with_early_answer::<V>(root, history, limits, opts, tt, control, reporter, None)
}

/// As [`think`], and under a time limit `early` gets the result as soon as
/// the hard limit has passed, even when the search threads have no CPU to
/// notice it (more threads than cores): the calling thread sleeps beside
/// the search and, if the main search thread has not finished
/// `EARLY_ANSWER_GRACE_MS` after the hard limit, stops the search and hands
/// `early` the main thread's last completed iteration. The threads are then
/// joined before this returns. `early` is called at most once.
#[allow(clippy::too_many_arguments)]
pub fn think_with_early_answer<V: Evaluate>(
    root: &Board,
    history: &[u64],
    limits: &Limits,
    opts: &SearchOptions,
    tt: &TranspositionTable,
    control: &Control,
    reporter: &dyn Reporter,
    early: Option<&(dyn Fn(&SearchResult) + Sync)>,
) -> SearchResult {
    if opts.greedy {
        return greedy::<V>(root, &opts.evaluation);
    }
    tt.new_search();
    let limiter = Limiter::new(limits, root.turn(), opts.move_overhead);
    let threads = opts.threads.max(1);
    let counters: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
    let shared = worker::Shared {
        tt,
        control,
        limits,
        limiter,
        counters: &counters,
        multipv: opts.multipv.max(1),
        published: Mutex::new(None),
        evaluation: &opts.evaluation,
    };
    let total_nodes = || counters.iter().map(|c| c.load(Ordering::Relaxed)).sum::<u64>();
    let as_result = |r: &ThreadResult, nodes: u64| SearchResult {
        best: r.best,
        ponder: r.ponder,
        score: r.score,
        depth: r.depth,
        nodes,
    };

    let results: Vec<ThreadResult> = std::thread::scope(|s| {
        let shared = &shared;
        let (finished, main_done) = mpsc::channel::<()>();
        let main_search = move || {
            let r = Worker::<V>::new(0, shared, root, history).run(reporter);
            // The main thread decides when to stop: tell the helpers.
            control.finish();
            let _ = finished.send(());
            r
        };
        // The main thread starts first: starting the helpers must not eat its time.
        let main = std::thread::Builder::new().stack_size(params::THREAD_STACK).spawn_scoped(s, main_search);
        let main = match main {
            Ok(handle) => handle,
            // No thread to be had: search on this one, without helpers.
            Err(_) => return vec![Worker::<V>::new(0, shared, root, history).run(reporter)],
        };
        // Helpers are started (and later joined) by a thread of their own,
        // so that this one is free to watch the clock from the start.
        let helpers = s.spawn(move || {
            std::thread::scope(|hs| {
                let handles: Vec<_> = (1..threads)
                    .take_while(|_| !control.stopped())
                    .filter_map(|id| {
                        std::thread::Builder::new()
                            .stack_size(params::THREAD_STACK)
                            .spawn_scoped(hs, move || Worker::<V>::new(id, shared, root, history).run(&Silent))
                            .ok()
                    })
                    .collect();
                handles.into_iter().filter_map(|h| h.join().ok()).collect::<Vec<_>>()
            })
        });
        if let (Some(early), Some(hard)) = (early, shared.limiter.hard()) {
            while let Err(RecvTimeoutError::Timeout) = main_done.recv_timeout(Duration::from_millis(2)) {
                if !control.pondering() && control.clock_ms() >= hard + EARLY_ANSWER_GRACE_MS {
                    control.finish();
                    let published = shared.published.lock().ok().and_then(|p| p.clone());
                    if let Some(r) = published {
                        early(&as_result(&r, total_nodes()));
                    }
                    break;
                }
            }
        }
        let main = main.join().unwrap_or(ThreadResult { best: None, ponder: None, score: 0, depth: 0 });
        let mut all = vec![main];
        all.extend(helpers.join().unwrap_or_default());
        all
    });
    let best = vote(&results);
    as_result(best, total_nodes())
}

/// Picks the thread whose best move has the most votes, each thread voting
/// for its move with weight (score above the worst + a constant) x depth,
/// as Stockfish does. Mates found by any thread win outright.
fn vote(results: &[ThreadResult]) -> &ThreadResult {
    let main = &results[0];
    if results.len() == 1 || main.best.is_none() {
        return main;
    }
    let min_score = results.iter().map(|r| r.score).min().unwrap_or(0);
    let weight = |r: &ThreadResult| ((r.score - min_score + 14) as i64) * r.depth as i64;
    let votes = |m: Option<Move>| -> i64 { results.iter().filter(|r| r.best == m).map(weight).sum() };
    let mut best = main;
    for r in results.iter().skip(1) {
        if r.best.is_none() || r.depth == 0 {
            continue;
        }
        if score::is_mate(best.score) || score::is_mate(r.score) {
            if r.score > best.score {
                best = r;
            }
        } else if votes(r.best) > votes(best.best) || (votes(r.best) == votes(best.best) && r.depth > best.depth) {
            best = r;
        }
    }
    best
}
