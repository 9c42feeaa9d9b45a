//! The search threads: a pool of OS threads that lives as long as its owner
//! (the engine, a data generator) and keeps each thread's tables
//! ([`ThreadData`]) from one search to the next. Between searches the
//! threads sleep on a condition variable, as in Stockfish's and
//! Viridithas' pools, so a `go` starts no thread and allocates no table.
//!
//! A thread's histories carry over from one search to the next, aged
//! (`ThreadData::next_search`), until [`ThreadPool::clear`] (`ucinewgame`).
//!
//! Thread 0 is the main search thread. It hands the helpers their part,
//! searches, stops them when it stops, waits until every helper is idle,
//! picks the move ([`vote`]), waits for the GUI where the protocol says so
//! (`go infinite`, `go ponder`), and answers. Under a time limit a watcher
//! thread sleeps until the hard limit: if the main thread has not answered
//! by then (more threads than cores leave it without CPU), the watcher
//! stops the search and answers with the main thread's last completed
//! iteration. The answer is given once, by whichever comes first.

use super::worker::{Shared, ThreadData, Worker};
use super::{Control, Limiter, Limits, Reporter, SearchOptions, SearchResult, Silent, ThreadResult, greedy, params};
use crate::board::Board;
use crate::eval::Evaluate;
use crate::search::tt::TranspositionTable;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Called once per search with its result (the best move and the move to
/// ponder on).
pub type BestMoveCallback = Box<dyn FnOnce(&SearchResult) + Send>;

/// How late (ms past the hard limit) the main search thread may be before
/// the watcher answers for it.
const EARLY_ANSWER_GRACE_MS: u64 = 1;

/// One search to run: the position, its game history (oldest first, ending
/// with the root's own key), the limits and options, the table and the
/// control the GUI stops it with.
pub struct Search<'a> {
    pub root: &'a Board,
    pub history: &'a [u64],
    pub limits: &'a Limits,
    pub options: &'a SearchOptions,
    pub tt: &'a Arc<TranspositionTable>,
    pub control: &'a Arc<Control>,
}

/// The cores this process may run on.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A unit of work for a pool thread: takes the thread's tables and gives
/// them back.
type Task = Box<dyn FnOnce(ThreadData) -> ThreadData + Send>;

enum Slot {
    Idle,
    Posted(Task),
    Busy,
    Quit,
    /// The thread ended in a panic (a bug; only test builds unwind).
    Dead,
}

/// Where one pool thread takes its work from and says it is done.
struct Mailbox {
    slot: Mutex<Slot>,
    changed: Condvar,
}

impl Mailbox {
    fn new() -> Mailbox {
        Mailbox { slot: Mutex::new(Slot::Idle), changed: Condvar::new() }
    }

    fn wait_while(&self, busy: impl Fn(&Slot) -> bool) -> MutexGuard<'_, Slot> {
        let guard = lock(&self.slot);
        self.changed.wait_while(guard, |s| busy(s)).unwrap_or_else(PoisonError::into_inner)
    }

    /// Gives the thread `task`, once it is idle.
    fn post(&self, task: Task) {
        let mut slot = self.wait_while(|s| matches!(s, Slot::Posted(_) | Slot::Busy));
        assert!(matches!(*slot, Slot::Idle), "a search thread has died");
        *slot = Slot::Posted(task);
        self.changed.notify_all();
    }

    /// Waits until the thread has finished its work.
    fn wait_idle(&self) {
        drop(self.wait_while(|s| matches!(s, Slot::Posted(_) | Slot::Busy)));
    }

    fn is_idle(&self) -> bool {
        !matches!(*lock(&self.slot), Slot::Posted(_) | Slot::Busy)
    }

    /// The thread's side: the next task, or `None` when told to quit.
    fn next(&self) -> Option<Task> {
        let mut slot = self.wait_while(|s| matches!(s, Slot::Idle));
        match std::mem::replace(&mut *slot, Slot::Busy) {
            Slot::Posted(task) => Some(task),
            _ => {
                *slot = Slot::Quit;
                None
            }
        }
    }

    fn quit(&self) {
        let mut slot = self.wait_while(|s| matches!(s, Slot::Posted(_) | Slot::Busy));
        *slot = Slot::Quit;
        self.changed.notify_all();
    }
}

/// Marks the thread idle when its task ends, and dead if the task
/// panicked, so that nobody waits for it forever.
struct Finished<'a>(&'a Mailbox);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        let mut slot = lock(&self.0.slot);
        *slot = if std::thread::panicking() { Slot::Dead } else { Slot::Idle };
        self.0.changed.notify_all();
    }
}

/// A pool thread's life: tables first (`searches`: written once, so their
/// pages are in memory; the watcher never searches), then tasks until told
/// to quit.
fn serve(mailbox: &Mailbox, searches: bool) {
    let mut data = if searches { ThreadData::touched() } else { ThreadData::default() };
    while let Some(task) = mailbox.next() {
        let _finished = Finished(mailbox);
        data = task(data);
    }
}

struct PoolThread {
    mailbox: Arc<Mailbox>,
    handle: Option<JoinHandle<()>>,
}

impl PoolThread {
    fn spawn(name: String, searches: bool) -> std::io::Result<PoolThread> {
        let mailbox = Arc::new(Mailbox::new());
        let theirs = Arc::clone(&mailbox);
        let handle = std::thread::Builder::new()
            .name(name)
            .stack_size(params::THREAD_STACK)
            .spawn(move || serve(&theirs, searches))?;
        Ok(PoolThread { mailbox, handle: Some(handle) })
    }
}

impl Drop for PoolThread {
    fn drop(&mut self) {
        self.mailbox.quit();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// The answer of one search, given at most once.
struct Answer(Mutex<Option<BestMoveCallback>>);

impl Answer {
    fn give(&self, r: &SearchResult) {
        let callback = lock(&self.0).take();
        if let Some(f) = callback {
            f(r);
        }
    }
}

/// Set by the main thread once every search thread has stopped; the
/// watcher sleeps on it.
#[derive(Default)]
struct Ended {
    ended: Mutex<bool>,
    changed: Condvar,
}

impl Ended {
    fn set(&self) {
        *lock(&self.ended) = true;
        self.changed.notify_all();
    }
    /// Waits up to `ms`; whether the search has ended.
    fn wait_ms(&self, ms: u64) -> bool {
        let guard = lock(&self.ended);
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, Duration::from_millis(ms), |ended| !*ended)
            .unwrap_or_else(PoisonError::into_inner);
        *guard
    }
}

/// The persistent search threads. Thread 0 is the main search thread.
pub struct ThreadPool {
    threads: Vec<PoolThread>,
    /// Sleeps beside a timed search, to answer when the main thread cannot.
    watcher: Option<PoolThread>,
}

impl ThreadPool {
    /// A pool of `n` search threads (at least one). If the system refuses
    /// some, the pool has as many as it could start: see [`ThreadPool::len`].
    pub fn new(n: usize) -> ThreadPool {
        let threads: Vec<PoolThread> =
            (0..n.max(1)).map_while(|i| PoolThread::spawn(format!("search-{i}"), true).ok()).collect();
        let watcher = if threads.is_empty() { None } else { PoolThread::spawn("search-watch".into(), false).ok() };
        let pool = ThreadPool { threads, watcher };
        // Ready when every thread has its tables in memory.
        pool.clear();
        pool
    }

    /// The number of search threads running.
    pub fn len(&self) -> usize {
        self.threads.len()
    }

    pub fn is_empty(&self) -> bool {
        self.threads.is_empty()
    }

    /// Makes the pool `n` threads strong (waits for a running search). The
    /// threads' tables start empty.
    pub fn resize(&mut self, n: usize) {
        if n.max(1) != self.len() {
            self.wait();
            self.threads.clear();
            self.watcher = None;
            *self = ThreadPool::new(n);
        }
    }

    /// Whether a search is running (until its answer has been given and
    /// every thread is idle again).
    pub fn busy(&self) -> bool {
        self.threads.first().is_some_and(|t| !t.mailbox.is_idle())
            || self.watcher.as_ref().is_some_and(|t| !t.mailbox.is_idle())
    }

    /// Waits until the running search, if any, has ended and answered.
    pub fn wait(&self) {
        if let Some(main) = self.threads.first() {
            main.mailbox.wait_idle();
        }
        if let Some(w) = &self.watcher {
            w.mailbox.wait_idle();
        }
    }

    /// Forgets every thread's history tables (a new game).
    pub fn clear(&self) {
        self.wait();
        for t in &self.threads {
            t.mailbox.post(Box::new(|mut data| {
                data.clear();
                data
            }));
        }
        for t in &self.threads {
            t.mailbox.wait_idle();
        }
    }

    /// Starts `search` and returns at once; `done` gets the result (see the
    /// module documentation for when). A pool without threads searches on
    /// the calling thread, alone.
    pub fn start<V: Evaluate>(
        &self,
        search: &Search,
        reporter: Arc<dyn Reporter + Send + Sync>,
        done: BestMoveCallback,
    ) {
        self.wait();
        let opts = search.options;
        if opts.greedy {
            return done(&greedy::<V>(search.root, &opts.evaluation));
        }
        search.tt.new_search();
        let shared = Arc::new(Shared {
            root: search.root.clone(),
            history: search.history.to_vec(),
            tt: Arc::clone(search.tt),
            control: Arc::clone(search.control),
            limits: search.limits.clone(),
            limiter: Limiter::new(search.limits, search.root.turn(), opts.move_overhead),
            counters: (0..self.len().max(1)).map(|_| AtomicU64::new(0)).collect(),
            multipv: opts.multipv.max(1),
            published: Mutex::new(None),
            evaluation: opts.evaluation.clone(),
            yield_to_input: opts.yield_to_input.filter(|_| self.len() > cores()),
        });
        let answer = Arc::new(Answer(Mutex::new(Some(done))));
        let ended = Arc::new(Ended::default());
        let helpers: Vec<Arc<Mailbox>> = self.threads.iter().skip(1).map(|t| Arc::clone(&t.mailbox)).collect();
        let main = main_task::<V>(Arc::clone(&shared), helpers, reporter, Arc::clone(&answer), Arc::clone(&ended));
        let Some(main_thread) = self.threads.first() else {
            drop(main(ThreadData::default()));
            return;
        };
        if let (Some(hard), Some(w)) = (shared.limiter.hard(), &self.watcher) {
            w.mailbox.post(watch_task(shared, answer, ended, hard + EARLY_ANSWER_GRACE_MS));
        }
        main_thread.mailbox.post(main);
    }

    /// Runs `search` to its end and returns the result.
    pub fn think<V: Evaluate>(&self, search: &Search, reporter: Arc<dyn Reporter + Send + Sync>) -> SearchResult {
        let result = Arc::new(Mutex::new(None));
        let slot = Arc::clone(&result);
        self.start::<V>(search, reporter, Box::new(move |r| *lock(&slot) = Some(r.clone())));
        self.wait();
        let r = lock(&result).take();
        r.unwrap_or(SearchResult { best: None, ponder: None, score: 0, depth: 0, nodes: 0 })
    }
}

/// The main thread's work: see the module documentation.
fn main_task<V: Evaluate>(
    shared: Arc<Shared>,
    helpers: Vec<Arc<Mailbox>>,
    reporter: Arc<dyn Reporter + Send + Sync>,
    answer: Arc<Answer>,
    ended: Arc<Ended>,
) -> Task {
    Box::new(move |mut data| {
        let results = Arc::new(Mutex::new(vec![None; helpers.len()]));
        for (i, helper) in helpers.iter().enumerate() {
            let (shared, results) = (Arc::clone(&shared), Arc::clone(&results));
            helper.post(Box::new(move |mut data| {
                data.next_search();
                let (r, data) = Worker::<V>::new(i + 1, &shared, data).run(&Silent);
                lock(&results)[i] = Some(r);
                data
            }));
        }
        data.next_search();
        let (main, data) = Worker::<V>::new(0, &shared, data).run(&*reporter);
        // The main thread decides when to stop: tell the helpers.
        shared.control.finish();
        for helper in &helpers {
            helper.wait_idle();
        }
        ended.set();
        let mut all = vec![main];
        all.extend(lock(&results).drain(..).flatten());
        let best = vote(&all);
        let result = SearchResult {
            best: best.best,
            ponder: best.ponder,
            score: best.score,
            depth: best.depth,
            nodes: shared.total_nodes(),
        };
        // Under `infinite` or `ponder` the best move waits for the GUI.
        shared.control.wait_for_gui(shared.limits.infinite);
        answer.give(&result);
        data
    })
}

/// The watcher's work: sleep until `hard` ms on the clock (counted from
/// `ponderhit` when pondering) or the end of the search; past the limit,
/// stop the search and answer with the main thread's last iteration.
fn watch_task(shared: Arc<Shared>, answer: Arc<Answer>, ended: Arc<Ended>, hard: u64) -> Task {
    Box::new(move |data| {
        loop {
            let control = &shared.control;
            // While pondering the clock has not started: look again soon.
            let wait = if control.pondering() { 10 } else { hard.saturating_sub(control.clock_ms()) };
            if ended.wait_ms(wait) {
                break;
            }
            if !control.pondering() && control.clock_ms() >= hard {
                control.finish();
                let published = lock(&shared.published).clone();
                if let Some(r) = published {
                    let nodes = shared.total_nodes();
                    answer.give(&SearchResult {
                        best: r.best,
                        ponder: r.ponder,
                        score: r.score,
                        depth: r.depth,
                        nodes,
                    });
                }
                break;
            }
        }
        data
    })
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
    let votes = |m| -> i64 { results.iter().filter(|r| r.best == m).map(weight).sum() };
    let mut best = main;
    for r in results.iter().skip(1) {
        if r.best.is_none() || r.depth == 0 {
            continue;
        }
        if super::score::is_mate(best.score) || super::score::is_mate(r.score) {
            if r.score > best.score {
                best = r;
            }
        } else if votes(r.best) > votes(best.best) || (votes(r.best) == votes(best.best) && r.depth > best.depth) {
            best = r;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Chess, VariantKind};
    use std::sync::mpsc;

    fn search_on(pool: &ThreadPool, limits: &Limits, control: &Arc<Control>) -> SearchResult {
        let root = Board::startpos();
        let tt = Arc::new(TranspositionTable::new_small());
        let options = SearchOptions::fixed(VariantKind::Chess, pool.len());
        let search = Search { root: &root, history: &[root.key()], limits, options: &options, tt: &tt, control };
        pool.think::<Chess>(&search, Arc::new(Silent))
    }

    #[test]
    fn histories_carry_over_between_searches_until_cleared() {
        let limits = Limits { depth: Some(6), ..Limits::default() };
        let once = |pool: &ThreadPool| search_on(pool, &limits, &Arc::new(Control::new(false))).nodes;
        let fresh = once(&ThreadPool::new(1));
        let pool = ThreadPool::new(1);
        assert_eq!(once(&pool), fresh, "a new pool searches as a fresh one");
        // Each search has a new hash table: only the histories differ.
        assert_ne!(once(&pool), fresh, "the second search orders moves by what the first learnt");
        pool.clear();
        assert_eq!(once(&pool), fresh, "a cleared pool searches as a fresh one");
    }

    #[test]
    fn an_infinite_search_on_many_threads_answers_once_after_stop() {
        let pool = ThreadPool::new(8);
        assert_eq!(pool.len(), 8);
        let root = Board::startpos();
        let tt = Arc::new(TranspositionTable::new_small());
        let options = SearchOptions::fixed(VariantKind::Chess, 8);
        let limits = Limits { infinite: true, depth: Some(2), ..Limits::default() };
        for _ in 0..3 {
            let control = Arc::new(Control::new(false));
            let search = Search {
                root: &root,
                history: &[root.key()],
                limits: &limits,
                options: &options,
                tt: &tt,
                control: &control,
            };
            let (tx, rx) = mpsc::channel();
            pool.start::<Chess>(&search, Arc::new(Silent), Box::new(move |r| tx.send(r.best).unwrap()));
            // Depth 2 is done at once, but an infinite search waits for `stop`.
            assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
            assert!(pool.busy());
            control.stop();
            assert!(rx.recv_timeout(Duration::from_secs(10)).unwrap().is_some());
            pool.wait();
            assert!(!pool.busy());
            assert!(rx.try_recv().is_err(), "one answer per search");
        }
    }

    #[test]
    fn a_timed_search_answers_and_the_pool_resizes() {
        let mut pool = ThreadPool::new(2);
        let limits =
            Limits { clock: super::super::Clock { movetime: Some(30), ..Default::default() }, ..Limits::default() };
        assert!(search_on(&pool, &limits, &Arc::new(Control::new(false))).best.is_some());
        pool.resize(3);
        assert_eq!(pool.len(), 3);
        assert!(search_on(&pool, &limits, &Arc::new(Control::new(false))).best.is_some());
    }
}
