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
pub mod threads;
pub mod tt;
mod worker;

use crate::board::Board;
use crate::eval::{Evaluate, Evaluation};
use crate::types::Move;
use crate::variant::VariantKind;
pub use limits::{Clock, Limiter, Limits};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};
pub use threads::{BestMoveCallback, Search, ThreadPool};
use tt::TranspositionTable;

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
    /// With more threads than cores, each search thread calls this every
    /// `CHECK_INTERVAL` nodes; it returns at once unless the GUI's
    /// input is waiting to be read, and then only once the reader has
    /// had the CPU to read it (see `uci::input::step_aside`). `None`: no
    /// such hook.
    pub yield_to_input: Option<fn()>,
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
            yield_to_input: None,
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
    /// Wakes a search waiting for the GUI (`stop`, `ponderhit`).
    gui: (Mutex<()>, Condvar),
}

impl Default for Control {
    fn default() -> Self {
        Control {
            stop: AtomicBool::new(false),
            released: AtomicBool::new(false),
            ponder: AtomicBool::new(false),
            epoch: Instant::now(),
            clock_start_ms: AtomicU64::new(0),
            gui: (Mutex::new(()), Condvar::new()),
        }
    }
}

impl Control {
    /// A fresh control for a search starting now.
    pub fn new(ponder: bool) -> Control {
        Control::since(ponder, Instant::now())
    }
    /// A fresh control whose clock started at `epoch` (when the `go`
    /// arrived).
    pub fn since(ponder: bool, epoch: Instant) -> Control {
        let c = Control { epoch, ..Control::default() };
        c.ponder.store(ponder, Ordering::SeqCst);
        c
    }
    /// `stop` from the GUI (or the engine): the threads stop and the
    /// answer may be sent.
    pub fn stop(&self) {
        self.released.store(true, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
        self.wake_gui_waiter();
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
        self.wake_gui_waiter();
    }
    /// Taking the lock orders this after a waiter's look at the flags, so
    /// the wake-up cannot fall between its look and its wait.
    fn wake_gui_waiter(&self) {
        drop(self.gui.0.lock().unwrap_or_else(PoisonError::into_inner));
        self.gui.1.notify_all();
    }
    /// A search that has ended waits here, under `infinite` or while
    /// pondering, until the GUI lets it answer (`stop`, or `ponderhit`
    /// when pondering).
    pub fn wait_for_gui(&self, infinite: bool) {
        let mut guard = self.gui.0.lock().unwrap_or_else(PoisonError::into_inner);
        while (infinite || self.pondering()) && !self.released() {
            guard =
                self.gui.1.wait_timeout(guard, Duration::from_millis(100)).unwrap_or_else(PoisonError::into_inner).0;
        }
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

/// Searches `root` (whose game history, oldest first and ending with the
/// root's own key, is `history`) with lazy SMP on `opts.threads` threads of
/// a pool made for this one search. To keep threads and their tables from
/// one search to the next, keep a [`ThreadPool`] and call its `think`.
pub fn think<V: Evaluate>(
    root: &Board,
    history: &[u64],
    limits: &Limits,
    opts: &SearchOptions,
    tt: &Arc<TranspositionTable>,
    control: &Arc<Control>,
    reporter: Arc<dyn Reporter + Send + Sync>,
) -> SearchResult {
    let search = Search { root, history, limits, options: opts, tt, control };
    ThreadPool::new(opts.threads).think::<V>(&search, reporter)
}
