//! One search thread: iterative deepening over the root moves, PVS and
//! quiescence. Every thread of a lazy-SMP search runs one `Worker` with its
//! own history, killers and stacks; they share only the transposition table.

mod node;

use super::history::{Histories, PieceTo};
use super::limits::{Iteration, Limiter, Stability};
use super::params::*;
use super::score::{self, DRAW, INFINITE};
use super::tt::{Bound, TranspositionTable, TtEntry};
use super::{Control, Limits, PvInfo, Reporter, ThreadResult};
use crate::board::Board;
use crate::eval::{Evaluate, Evaluation, Evaluator};
use crate::types::{Move, MoveList};
use crate::variant::Outcome;
use std::marker::PhantomData;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// What all threads of one search share: the position and limits, the
/// transposition table, the stop flags, and what the threads publish.
pub struct Shared {
    pub root: Board,
    /// The game's keys, oldest first, ending with the root's own.
    pub history: Vec<u64>,
    pub tt: Arc<TranspositionTable>,
    pub control: Arc<Control>,
    pub limits: Limits,
    pub limiter: Limiter,
    /// Published node count of each thread.
    pub counters: Vec<AtomicU64>,
    pub multipv: usize,
    /// The main thread's result after its last completed iteration, for an
    /// answer that cannot wait for the threads (see `threads::ThreadPool`).
    pub published: Mutex<Option<ThreadResult>>,
    /// The evaluation every thread uses.
    pub evaluation: Evaluation,
    /// Set when the threads outnumber the cores: see
    /// `SearchOptions::yield_to_input`.
    pub yield_to_input: Option<fn()>,
}

impl Shared {
    /// Nodes searched so far by all threads (as last published).
    pub fn total_nodes(&self) -> u64 {
        self.counters.iter().map(|c| c.load(Ordering::Relaxed)).sum()
    }
}

/// What a search thread keeps from one search to the next: its tables,
/// allocated once when the thread starts.
pub struct ThreadData {
    killers: Box<[[Move; 2]; MAX_PLY + 2]>,
    histories: Histories,
    stack: Box<[Frame; MAX_PLY + 2]>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    lmr: Box<[[i32; 64]; 64]>,
    /// Whether the tables may hold anything but zeros (a search has written
    /// to them since they were last cleared).
    used: bool,
}

impl Default for ThreadData {
    fn default() -> Self {
        ThreadData {
            killers: Box::new([[Move::NONE; 2]; MAX_PLY + 2]),
            histories: Histories::default(),
            stack: Box::new([Frame::default(); MAX_PLY + 2]),
            pv: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            lmr: lmr_table(),
            used: false,
        }
    }
}

impl ThreadData {
    /// Tables written once, so that their pages are in memory before the
    /// first search: a first touch costs a page fault per page, and at
    /// `Threads 256` the faults of the first search took seconds on a
    /// virtual machine.
    pub fn touched() -> ThreadData {
        let mut data = ThreadData { used: true, ..ThreadData::default() };
        data.clear();
        data
    }

    /// Before a search in the same game: the histories are aged (see
    /// [`Histories::age`]), killers and the stack start empty.
    pub fn next_search(&mut self) {
        if self.used {
            self.killers.fill([Move::NONE; 2]);
            self.histories.age();
            self.stack.fill(Frame::default());
        }
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        if self.used {
            self.killers.fill([Move::NONE; 2]);
            self.histories.clear();
            self.stack.fill(Frame::default());
            self.used = false;
        }
    }
}

/// What the search remembers of each ply on the current path.
#[derive(Clone, Copy)]
struct Frame {
    static_eval: i32,
    moved: Option<PieceTo>,
    /// The move a singular-extension search at this ply leaves out.
    excluded: Move,
    /// Double extensions on the path down to this ply.
    double_extensions: u8,
}

impl Default for Frame {
    fn default() -> Self {
        Frame { static_eval: -INFINITE, moved: None, excluded: Move::NONE, double_extensions: 0 }
    }
}

#[derive(Clone)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    seldepth: usize,
    pv: Vec<Move>,
    /// Nodes searched under this move, over all iterations so far.
    nodes: u64,
}

/// The stored score if its bound settles the window, else `None`.
fn tt_cutoff(e: &TtEntry, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    let s = score::from_tt(e.score, ply);
    let usable = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    usable.then_some(s)
}

/// Late-move reduction table, indexed by depth and move number (capped).
fn lmr_table() -> Box<[[i32; 64]; 64]> {
    let mut t = Box::new([[0; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as i32;
        }
    }
    t
}

pub struct Worker<'a, V> {
    id: usize,
    shared: &'a Shared,
    root: Board,
    /// Keys of the game before the root and of every position on the
    /// current search path; `root_index` is the root's own entry.
    keys: Vec<u64>,
    root_index: usize,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    root_moves: Vec<RootMove>,
    pv_idx: usize,
    killers: Box<[[Move; 2]; MAX_PLY + 2]>,
    histories: Histories,
    /// Per ply: the static evaluation (`-INFINITE` in check) and the move
    /// played from there (`None` for a null move).
    stack: Box<[Frame; MAX_PLY + 2]>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    lmr: Box<[[i32; 64]; 64]>,
    completed_depth: u32,
    /// Time management (main thread): the best move of the last completed
    /// iteration, for how many iterations it has stayed best, and its score.
    stability: Stability,
    /// This thread's evaluator (with a network, the accumulators of the
    /// current path).
    eval: Evaluator,
    _variant: PhantomData<V>,
}

impl<'a, V: Evaluate> Worker<'a, V> {
    /// Thread `id` of the search `shared`, with the tables of `data`
    /// (handed back by [`Worker::run`]).
    pub fn new(id: usize, shared: &'a Shared, data: ThreadData) -> Self {
        let root = &shared.root;
        let mut keys = shared.history.clone();
        if keys.last() != Some(&root.key()) {
            keys.push(root.key());
        }
        let root_index = keys.len() - 1;
        let mut list = MoveList::new();
        V::legal_moves(root, &mut list);
        let wanted = &shared.limits.searchmoves;
        let root_moves = list
            .iter()
            .filter(|m| wanted.is_empty() || wanted.contains(m))
            .map(|&mv| RootMove { mv, score: -INFINITE, prev_score: -INFINITE, seldepth: 0, pv: vec![mv], nodes: 0 })
            .collect();
        let ThreadData { killers, histories, stack, pv, lmr, .. } = data;
        Worker {
            id,
            shared,
            root: root.clone(),
            keys,
            root_index,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_moves,
            pv_idx: 0,
            killers,
            histories,
            stack,
            pv,
            pv_len: [0; MAX_PLY + 1],
            lmr,
            completed_depth: 0,
            stability: Stability::default(),
            eval: shared.evaluation.evaluator(root, MAX_PLY + 2),
            _variant: PhantomData,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    fn total_nodes(&self) -> u64 {
        self.shared.total_nodes()
    }

    /// Counts a node; every `CHECK_INTERVAL` nodes publishes the count and
    /// looks at the stop flag, the clock and the node limit.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.shared.counters[self.id].store(self.nodes, Ordering::Relaxed);
            self.poll();
        }
    }

    fn poll(&mut self) {
        let c = &self.shared.control;
        if let Some(step_aside) = self.shared.yield_to_input {
            step_aside();
        }
        if c.stopped() {
            self.stopped = true;
            return;
        }
        if !self.is_main() {
            return;
        }
        if self.shared.limiter.must_stop(c.pondering(), c.clock_ms(), || self.total_nodes()) {
            self.stop_all();
        }
    }

    fn stop_all(&mut self) {
        self.stopped = true;
        self.shared.control.finish();
    }

    /// Iterative deepening. Returns this thread's result and its tables.
    pub fn run(mut self, reporter: &dyn Reporter) -> (ThreadResult, ThreadData) {
        let result = if self.root_moves.is_empty() {
            ThreadResult { best: None, ponder: None, score: 0, depth: 0 }
        } else {
            self.deepen(reporter)
        };
        let Worker { killers, histories, stack, pv, lmr, .. } = self;
        (result, ThreadData { killers, histories, stack, pv, lmr, used: true })
    }

    fn deepen(&mut self, reporter: &dyn Reporter) -> ThreadResult {
        let limits = &self.shared.limits;
        // Clamped before any cast: `go depth 4294967295` means no limit.
        let max_depth = limits.depth.map_or(MAX_PLY as u32 - 1, |d| d.clamp(1, MAX_PLY as u32 - 1)) as i32;
        let multipv = self.shared.multipv.min(self.root_moves.len());
        // Helpers start at staggered depths so that threads spread out.
        let mut depth = 1 + (self.id % 2) as i32;
        if self.is_main() {
            self.publish();
        }
        while depth <= max_depth {
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(depth, reporter);
                if self.stopped {
                    break;
                }
                // Sort the lines searched so far, best first.
                self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth as u32;
            if self.is_main() {
                self.publish();
                for i in 0..multipv {
                    self.report(reporter, depth, i, Bound::Exact);
                }
                if self.stop_after_iteration() {
                    break;
                }
            }
            depth += 1;
        }
        self.shared.counters[self.id].store(self.nodes, Ordering::Relaxed);
        self.result()
    }

    /// The best line so far as a result.
    fn result(&self) -> ThreadResult {
        let best = &self.root_moves[0];
        let ponder = best.pv.get(1).copied().or_else(|| self.ponder_from_tt(best.mv));
        ThreadResult {
            best: Some(best.mv),
            ponder,
            score: if best.score == -INFINITE { best.prev_score } else { best.score },
            depth: self.completed_depth,
        }
    }

    fn publish(&self) {
        let r = self.result();
        if let Ok(mut p) = self.shared.published.lock() {
            *p = Some(r);
        }
    }

    /// After a completed iteration (main thread): whether to stop, as the
    /// limiter decides from how settled the search looks.
    fn stop_after_iteration(&mut self) -> bool {
        let best = &self.root_moves[0];
        let total: u64 = self.root_moves.iter().map(|rm| rm.nodes).sum();
        let progress = self.stability.update(best.mv, best.score, best.nodes, total);
        let it = Iteration {
            completed_depth: self.completed_depth,
            best_score: best.score,
            root_moves: self.root_moves.len(),
            progress,
        };
        let c = &self.shared.control;
        self.shared.limiter.stop_after_iteration(c.pondering(), c.clock_ms(), &it)
    }

    /// A reply to the best move from the transposition table, if legal.
    fn ponder_from_tt(&self, best: Move) -> Option<Move> {
        let after = V::play(&self.root, best);
        let e = self.shared.tt.probe(after.key())?;
        V::is_legal(&after, e.mv).then_some(e.mv)
    }

    fn report(&self, reporter: &dyn Reporter, depth: i32, line: usize, bound: Bound) {
        let c = &self.shared.control;
        let rm = &self.root_moves[line];
        let score = if rm.score == -INFINITE { rm.prev_score } else { rm.score };
        if score == -INFINITE {
            return;
        }
        let time_ms = c.elapsed_ms();
        let nodes = self.total_nodes().max(self.nodes);
        reporter.pv(&PvInfo {
            depth: depth as u32,
            seldepth: rm.seldepth.max(1) as u32,
            multipv: line + 1,
            score,
            bound,
            nodes,
            nps: nodes * 1000 / time_ms.max(1),
            hashfull: self.shared.tt.hashfull(),
            time_ms,
            pv: rm.pv.clone(),
        });
    }

    /// Searches the current PV line with an aspiration window around the
    /// previous score, widening on failure.
    fn aspiration(&mut self, depth: i32, reporter: &dyn Reporter) {
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && !score::is_mate(prev) && prev != -INFINITE {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let s = self.root_search(depth, alpha, beta, reporter);
            if self.stopped {
                return;
            }
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INFINITE);
            } else if s >= beta {
                beta = (s + delta).min(INFINITE);
            } else {
                return;
            }
            delta += delta;
        }
    }

    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, reporter: &dyn Reporter) -> i32 {
        let root = self.root.clone();
        let mut best = -INFINITE;
        self.pv_len[0] = 0;
        let start = self.pv_idx;
        // Keep the previous best of this line first; the rest as sorted.
        for i in start..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.is_main() && self.shared.control.elapsed_ms() > 1000 {
                reporter.currmove(depth as u32, mv, i + 1);
            }
            let child = self.make_move(&root, mv, 0);
            self.seldepth = 0;
            let nodes_before = self.nodes;
            let ext = if V::is_check(&child) { CHECK_EXTENSION } else { 0 };
            let s = if i == start {
                -self.search(&child, -beta, -alpha, depth - 1 + ext, 1, true)
            } else {
                let mut s = -self.search(&child, -alpha - 1, -alpha, depth - 1 + ext, 1, false);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.search(&child, -beta, -alpha, depth - 1 + ext, 1, true);
                }
                s
            };
            self.unmake_move();
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            rm.nodes += self.nodes - nodes_before;
            if i == start || s > alpha {
                rm.score = s;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                let len = self.pv_len[1];
                rm.pv.extend_from_slice(&self.pv[1][1..len.max(1)]);
            } else {
                rm.score = -INFINITE;
            }
            if s > best {
                best = s;
            }
            if s > alpha {
                alpha = s;
                // Move the new best of this line to its front.
                self.root_moves[start..=i].rotate_right(1);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Repetition: a position seen before on the search path (twofold), or
    /// twice before in the game (threefold), within the reversible moves.
    fn is_repetition(&self, halfmoves: u32) -> bool {
        let n = self.keys.len() - 1;
        let key = self.keys[n];
        let oldest = n.saturating_sub(halfmoves as usize);
        let mut seen_in_game = 0;
        let mut i = n;
        while i >= oldest + 2 {
            i -= 2;
            if self.keys[i] == key {
                if i >= self.root_index {
                    return true;
                }
                seen_in_game += 1;
                if seen_in_game >= 2 {
                    return true;
                }
            }
        }
        false
    }

    /// Every node starts here: counts it, and returns its score if the
    /// search was stopped (0, ignored) or the game is over on the board.
    fn enter(&mut self, b: &Board, ply: usize) -> Option<i32> {
        self.count_node();
        if self.stopped {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        self.terminal(b, ply)
    }

    /// Score of a position that ended the game by the variant's own rule
    /// (e.g. an exploded king), from the side to move's view.
    fn terminal(&self, b: &Board, ply: usize) -> Option<i32> {
        V::variant_outcome(b).map(|o| match o {
            Outcome::Decisive { winner } if winner == b.turn() => score::mate_in(ply),
            Outcome::Decisive { .. } => score::mated_in(ply),
            Outcome::Draw => DRAW,
        })
    }

    /// The moves one and two plies before `ply` (continuation keys).
    fn prev_moves(&self, ply: usize) -> [Option<PieceTo>; 2] {
        [self.stack[ply - 1].moved, if ply >= 2 { self.stack[ply - 2].moved } else { None }]
    }
}
