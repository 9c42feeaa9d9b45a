//! The limits of a search and the one object that decides when it stops.
//!
//! [`Limits`] is what `go` asked for; [`Limiter`] owns every stop decision
//! made from them: the node limit and the hard time limit, checked while
//! searching ([`Limiter::must_stop`]), and the soft limit, a mate found, a
//! single legal move, checked after each iteration
//! ([`Limiter::stop_after_iteration`]). `infinite` and `ponder` are
//! honoured here (no time limit applies while pondering or under
//! `infinite`); waiting for the GUI's `stop` before answering is the
//! engine's part.
//!
//! Time management turns the clock into a soft limit (do not start another
//! iteration after it) and a hard limit (stop searching at once).
//!
//! During the search the soft limit is scaled after every iteration by how
//! settled the result looks ([`soft_scale`]), as the strong engines do: a
//! best move that has stayed the same for several iterations and took most
//! of the nodes means little is left to find, so the move is played early; a
//! best move that just changed, a close race between root moves, or a score
//! that dropped buys more time, up to the hard limit.

use super::params::{MAX_PLY, TM_SCALE_MIN_DEPTH};
use super::score;
use crate::types::{Color, Move};

/// What to search for and how long (as `go` gives it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// When the `go` arrived: the clock runs from then, not from when the
    /// engine got round to it (`None`: from the start of the search).
    pub received: Option<std::time::Instant>,
}

/// Time-related `go` parameters, in milliseconds. Negative clock values
/// (some GUIs send them when a flag is about to fall) count as zero.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
}

/// Limits in milliseconds since the clock started; `None` = unlimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Option<u64>,
    pub hard: Option<u64>,
}

/// Moves assumed left in a sudden-death game.
const DEFAULT_MOVES_TO_GO: u64 = 30;
/// Share of the remaining time the hard limit may take at most (percent).
const HARD_MAX_PERCENT: u64 = 70;
/// How many times the soft limit the hard limit may be.
const HARD_FACTOR: u64 = 4;
/// The soft limit is at most this fraction of the time left (see `budget`).
const LOW_CLOCK_SHARE: u64 = 8;

pub fn budget(clock: &Clock, us: Color, move_overhead: u64) -> Budget {
    if let Some(mt) = clock.movetime {
        let t = mt.saturating_sub(move_overhead).max(1);
        return Budget { soft: Some(t), hard: Some(t) };
    }
    let (time, inc) = match us {
        Color::White => (clock.wtime, clock.winc),
        Color::Black => (clock.btime, clock.binc),
    };
    let Some(time) = time else {
        return Budget { soft: None, hard: None };
    };
    let time = time.max(0) as u64;
    let inc = inc.unwrap_or(0).max(0) as u64;
    let avail = time.saturating_sub(move_overhead).max(1);
    let mtg = clock.movestogo.map_or(DEFAULT_MOVES_TO_GO, |m| (m as u64).clamp(1, 60));
    // With one move to go the whole (remaining minus overhead) time may be used,
    // except a safety share; otherwise keep the hard cap well below the clock.
    let hard_cap = if mtg == 1 { avail * 90 / 100 } else { avail * HARD_MAX_PERCENT / 100 };
    // On a low clock the increment is not spent in full (`avail / LOW_CLOCK_SHARE`
    // caps the target): the clock settles at several moves' worth of
    // increment instead of a few milliseconds, a reserve against a slow
    // iteration or a machine that is busy elsewhere.
    //
    // Every move also costs `move_overhead` outside the search (the GUI,
    // pipes, the scheduler): the time planned over the moves to go keeps
    // that much back for each of them, less what the increments still to
    // come pay for. (Stockfish computes its time left as
    // `time + inc·(mtg−1) − overhead·(mtg+2)`; here the same two terms set
    // a reserve that is never negative, so an increment never plans more
    // than the clock holds.)
    // Without an increment, a long sudden-death game thus reaches its last
    // moves with a reserve instead of a clock that the fixed cost per move
    // runs out; with an increment of more than about the overhead nothing
    // is held back, as the clock cannot drain (see `LOW_CLOCK_SHARE`).
    let reserve = (move_overhead * (mtg + 2)).saturating_sub(inc * (mtg - 1));
    let planned = avail.saturating_sub(reserve).max(1);
    let base = (planned / mtg + inc * 3 / 4).min(if mtg == 1 { avail } else { avail / LOW_CLOCK_SHARE });
    let hard = (base * HARD_FACTOR).min(hard_cap).max(1);
    let soft = base.min(hard).max(1);
    Budget { soft: Some(soft), hard: Some(hard) }
}

/// Scale of the soft limit by the best move's stability, measured in
/// iterations without a change of best move (0: it changed in the last one).
const STABILITY_SCALE: [f64; 5] = [2.2, 1.4, 1.0, 0.85, 0.75];

/// What the search knows after an iteration, for [`soft_scale`].
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Iterations since the best move last changed.
    pub stability: u32,
    /// Share of the root's nodes spent under the best move (0..=1).
    pub best_node_share: f64,
    /// How far the best score fell since the previous iteration (centipawns,
    /// negative when it rose).
    pub score_drop: i32,
}

/// The factor the base soft limit is multiplied by, given the progress of
/// the search: the product of a stability term, a node-share term (1.5 −
/// share, times 1.35: 0.68 when the best move took every node, 1.35 at an
/// even split) and a falling-score term (up to 1.5 for a drop of 50 cp or
/// more, down to 0.9 for a rise).
pub fn soft_scale(p: Progress) -> f64 {
    let stability = STABILITY_SCALE[(p.stability as usize).min(STABILITY_SCALE.len() - 1)];
    let nodes = (1.5 - p.best_node_share.clamp(0.0, 1.0)) * 1.35;
    let falling = (1.0 + p.score_drop as f64 / 100.0).clamp(0.9, 1.5);
    stability * nodes * falling
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_more_than_the_clock() {
        for time in [0i64, 1, 5, 50, 1000, 60_000] {
            for inc in [0i64, 10, 1000] {
                for mtg in [None, Some(1), Some(5)] {
                    let c = Clock { wtime: Some(time), winc: Some(inc), movestogo: mtg, ..Clock::default() };
                    let b = budget(&c, Color::White, 10);
                    let hard = b.hard.unwrap();
                    assert!(b.soft.unwrap() <= hard);
                    assert!(hard <= (time.max(0) as u64).saturating_sub(10).max(1), "{c:?} {b:?}");
                }
            }
        }
    }

    /// Playing on the increment alone, the clock settles where a move
    /// costs the increment: that must leave a reserve of several increments.
    #[test]
    fn a_low_clock_keeps_a_reserve() {
        for inc in [10i64, 30, 100] {
            let mut time = 1000i64;
            for _ in 0..500 {
                let c = Clock { wtime: Some(time), winc: Some(inc), ..Clock::default() };
                // A move takes a little more than the soft limit.
                let spent = budget(&c, Color::White, 10).soft.unwrap() as i64 * 5 / 4;
                time = time - spent + inc;
            }
            assert!(time >= 5 * inc, "inc {inc}: the clock settles at {time} ms");
        }
    }

    /// Sudden death, 4 s and the default overhead of 10 ms: a move costs
    /// 1.5 times its soft limit (the soft-limit scaling stretches some
    /// moves) plus 5 ms outside the search. The clock must last 120 moves
    /// of our own, a long game (without the per-move reserve it fell at
    /// move 77).
    #[test]
    fn sudden_death_lasts_a_long_game() {
        let mut time = 4000i64;
        for n in 0..120 {
            let c = Clock { wtime: Some(time), ..Clock::default() };
            let b = budget(&c, Color::White, 10);
            let think = (b.soft.unwrap() * 3 / 2).min(b.hard.unwrap());
            time -= think as i64 + 5;
            assert!(time > 0, "flag fell at move {n}");
        }
    }

    /// The reserve is paid for by the increments to come: from an
    /// increment of about the overhead on, the budget is the clock's share
    /// plus three quarters of the increment, with nothing held back.
    #[test]
    fn increments_pay_for_the_overhead() {
        for time in [100i64, 300, 1000, 3000, 60_000] {
            for (inc, overhead) in [(30i64, 10u64), (100, 10), (20, 0), (1000, 50)] {
                let c = Clock { wtime: Some(time), winc: Some(inc), ..Clock::default() };
                let avail = (time as u64).saturating_sub(overhead).max(1);
                let base = (avail / DEFAULT_MOVES_TO_GO + inc as u64 * 3 / 4).min(avail / LOW_CLOCK_SHARE);
                assert_eq!(budget(&c, Color::White, overhead).soft, Some(base.max(1)), "{c:?}");
            }
        }
        // A small increment pays for part of it: less than without the
        // reserve, more than without the increment's share.
        let with = |inc| budget(&Clock { wtime: Some(3000), winc: Some(inc), ..Clock::default() }, Color::White, 10);
        let (none, small) = (with(0).soft.unwrap(), with(5).soft.unwrap());
        assert!(none < small && small < (2990 / DEFAULT_MOVES_TO_GO + 5 * 3 / 4), "{none} {small}");
    }

    #[test]
    fn soft_scale_orders_the_cases() {
        let settled = Progress { stability: 10, best_node_share: 0.95, score_drop: -20 };
        let fresh = Progress { stability: 0, best_node_share: 0.4, score_drop: 60 };
        assert!(soft_scale(settled) < 0.6, "{}", soft_scale(settled));
        assert!(soft_scale(fresh) > 3.0, "{}", soft_scale(fresh));
        // Each term moves the factor the right way on its own.
        let mid = Progress { stability: 2, best_node_share: 0.7, score_drop: 0 };
        let base = soft_scale(mid);
        assert!(soft_scale(Progress { stability: 0, ..mid }) > base);
        assert!(soft_scale(Progress { stability: 4, ..mid }) < base);
        assert!(soft_scale(Progress { best_node_share: 0.3, ..mid }) > base);
        assert!(soft_scale(Progress { score_drop: 40, ..mid }) > base);
        assert!(soft_scale(Progress { score_drop: -40, ..mid }) < base);
        // Out-of-range inputs stay bounded.
        let wild = soft_scale(Progress { stability: u32::MAX, best_node_share: 7.0, score_drop: i32::MIN });
        assert!(wild > 0.0 && wild.is_finite());
    }

    #[test]
    fn movetime_and_infinite() {
        let c = Clock { movetime: Some(500), ..Clock::default() };
        assert_eq!(budget(&c, Color::Black, 10), Budget { soft: Some(490), hard: Some(490) });
        assert_eq!(budget(&Clock::default(), Color::White, 10), Budget { soft: None, hard: None });
        let c = Clock { wtime: Some(-100), btime: Some(1000), ..Clock::default() };
        assert_eq!(budget(&c, Color::White, 10).hard, Some(1));
    }
}

/// Every stop decision of one search (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct Limiter {
    budget: Budget,
    nodes: Option<u64>,
    mate: Option<u32>,
    infinite: bool,
}

/// What the main thread knows after a completed iteration.
#[derive(Clone, Copy, Debug)]
pub struct Iteration {
    pub completed_depth: u32,
    pub best_score: i32,
    pub root_moves: usize,
    pub progress: Progress,
}

impl Limiter {
    /// The limiter of a search under `limits`, `us` to move.
    pub fn new(limits: &Limits, us: Color, move_overhead: u64) -> Limiter {
        let budget =
            if limits.infinite { Budget { soft: None, hard: None } } else { budget(&limits.clock, us, move_overhead) };
        Limiter { budget, nodes: limits.nodes, mate: limits.mate, infinite: limits.infinite }
    }

    /// The hard time limit (ms on our clock), if there is one.
    pub fn hard(&self) -> Option<u64> {
        self.budget.hard
    }

    /// Whether the search must stop now: the node limit is reached (`nodes`
    /// counts all threads), or, unless pondering, the hard time limit.
    pub fn must_stop(&self, pondering: bool, clock_ms: u64, nodes: impl FnOnce() -> u64) -> bool {
        if let Some(n) = self.nodes
            && nodes() >= n
        {
            return true;
        }
        !pondering && self.budget.hard.is_some_and(|hard| clock_ms >= hard)
    }

    /// Whether to start no further iteration: a mate as short as `go mate`
    /// asked for is found, or (not pondering, not `infinite`) the soft
    /// limit has passed — an eighth of it with one legal move, scaled by
    /// [`soft_scale`] from depth [`TM_SCALE_MIN_DEPTH`] on.
    pub fn stop_after_iteration(&self, pondering: bool, clock_ms: u64, it: &Iteration) -> bool {
        if let Some(m) = self.mate
            && it.best_score >= score::mate_in(2 * m.min(MAX_PLY as u32) as usize)
        {
            return true;
        }
        if pondering || self.infinite {
            return false;
        }
        let Some(soft) = self.budget.soft else {
            return false;
        };
        let soft = if it.root_moves == 1 {
            soft / 8
        } else if it.completed_depth >= TM_SCALE_MIN_DEPTH {
            let scaled = soft as f64 * soft_scale(it.progress);
            (scaled as u64).min(self.budget.hard.unwrap_or(u64::MAX))
        } else {
            soft
        };
        clock_ms >= soft
    }
}

/// The main thread's record of the iterations so far, for [`Progress`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Stability {
    last_best: Move,
    /// Completed iterations the best move has stayed best.
    iterations: u32,
    last_best_score: Option<i32>,
}

impl Stability {
    /// How settled the search looks after an iteration whose best move is
    /// `best` with `score`, which took `best_nodes` of `total_nodes` root
    /// nodes; remembers this iteration for the next.
    pub fn update(&mut self, best: Move, score: i32, best_nodes: u64, total_nodes: u64) -> Progress {
        let stability = if best == self.last_best { self.iterations + 1 } else { 0 };
        let score_drop = match self.last_best_score {
            Some(last) if !score::is_mate(last) && !score::is_mate(score) => last - score,
            _ => 0,
        };
        *self = Stability { last_best: best, iterations: stability, last_best_score: Some(score) };
        Progress { stability, best_node_share: best_nodes as f64 / total_nodes.max(1) as f64, score_drop }
    }
}
