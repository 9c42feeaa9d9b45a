//! The search: iterative deepening with aspiration windows, principal
//! variation search, quiescence, a shared transposition table and lazy SMP.
//! Generic over the variant (`V: Evaluate`).
//!
//! The search never prints: it reports through a [`Reporter`], and the UCI
//! layer turns reports into text.

mod history;
pub mod mate;
pub mod params;
mod picker;
pub mod score;
mod worker;

use crate::board::Board;
use crate::eval::Evaluate;
use crate::timeman::{self, Budget, Clock};
use crate::tt::TranspositionTable;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;
use worker::Worker;

/// What to search for and how long.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub clock: Clock,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
}

/// Options that shape a search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: u64,
    /// Play the 1-ply greedy move instead of searching (a baseline opponent
    /// for strength tests, `fission --greedy`).
    pub greedy: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions { threads: 1, multipv: 1, move_overhead: 10, greedy: false }
    }
}

/// The 1-ply greedy player: the move after which the static evaluation is
/// best for the mover; a move that wins on the spot (mate, exploded king)
/// is taken at once. Ties go to the first move generated.
pub fn greedy<V: Evaluate>(root: &Board) -> SearchResult {
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
            None => -V::evaluate(&after),
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
    stop: AtomicBool,
    ponder: AtomicBool,
    epoch: Instant,
    clock_start_ms: AtomicU64,
}

impl Default for Control {
    fn default() -> Self {
        Control {
            stop: AtomicBool::new(false),
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
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
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

/// Bound type of a reported score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    Lower,
    Upper,
}

/// One principal variation, reported after an iteration (or a re-search).
#[derive(Clone, Debug)]
pub struct PvInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: i32,
    pub bound: ScoreBound,
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
struct ThreadResult {
    best: Option<Move>,
    ponder: Option<Move>,
    score: i32,
    depth: u32,
}

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
    if opts.greedy {
        return greedy::<V>(root);
    }
    tt.new_search();
    let budget = if limits.infinite {
        Budget { soft: None, hard: None }
    } else {
        timeman::budget(&limits.clock, root.turn(), opts.move_overhead)
    };
    let threads = opts.threads.max(1);
    let counters: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
    let shared = worker::Shared { tt, control, limits, budget, counters: &counters, multipv: opts.multipv.max(1) };

    let results: Vec<ThreadResult> = std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads)
            .filter_map(|id| {
                let shared = &shared;
                std::thread::Builder::new()
                    .stack_size(params::THREAD_STACK)
                    .spawn_scoped(s, move || Worker::<V>::new(id, shared, root, history).run(&Silent))
                    .ok()
            })
            .collect();
        let main = Worker::<V>::new(0, &shared, root, history).run(reporter);
        // The main thread decides when to stop: tell the helpers.
        control.stop();
        let mut all = vec![main];
        all.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
        all
    });
    let nodes = counters.iter().map(|c| c.load(Ordering::Relaxed)).sum();
    let best = vote(&results);
    SearchResult { best: best.best, ponder: best.ponder, score: best.score, depth: best.depth, nodes }
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
