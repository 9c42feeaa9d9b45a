//! `fission datagen`: training positions for the NNUE from self-play.
//!
//! Each thread plays games of the variant against itself: a few random
//! plies from the start position (different games), then every move chosen
//! by a search with a fixed node budget. A game ends by the rules
//! (including repetition and the 50-move rule), when a side has been
//! winning by more than [`WIN_ADJUDICATION`] for [`WIN_ADJUDICATION_PLIES`]
//! plies in a row, when a forced mate is found, or after [`MAX_GAME_PLIES`]
//! plies (a draw). Positions are recorded with the search score and, once
//! the game is over, its result ([`crate::nnue::data`] describes the
//! format). Not recorded: positions in check, those whose best move is a
//! capture (the evaluation of a position about to change is noise),
//! mate scores, and the random opening plies.
//!
//! A game's records are written in one piece when it ends, so the file is
//! valid at any moment; an interrupted run leaves at most a partial last
//! record, which a later run into the same file cuts off before appending.

use crate::board::Board;
use crate::eval::Evaluate;
use crate::eval::Evaluation;
use crate::nnue::data::{RECORD_BYTES, Record, result_code};
use crate::search::score::MATE_BOUND;
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Limits, Search, SearchOptions, Silent, ThreadPool};
use crate::types::SplitMix;
use crate::types::{Color, MoveList};
use crate::variant::{VariantKind, game_end};
use crate::with_variant;
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A side this far ahead (centipawns, by the search)...
pub const WIN_ADJUDICATION: i32 = 2_500;
/// ...for this many plies in a row has won.
pub const WIN_ADJUDICATION_PLIES: u32 = 4;
/// A game this long is a draw.
pub const MAX_GAME_PLIES: usize = 400;
/// Openings whose first search scores beyond this (centipawns) are replayed.
pub const MAX_OPENING_SCORE: i32 = 1_000;

/// What `fission datagen` was asked for.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    pub variant: VariantKind,
    pub out: PathBuf,
    /// Records to write (in total, over the threads).
    pub positions: u64,
    /// Node budget of each move's search.
    pub nodes: u64,
    pub threads: usize,
    /// Random plies at the start of each game.
    pub random_plies: usize,
    pub seed: u64,
    /// Hash table of each thread (MB).
    pub hash_mb: usize,
    /// The evaluation of the searches.
    pub evaluation: Evaluation,
}

/// What a run produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DatagenStats {
    pub positions: u64,
    pub games: u64,
    pub white_wins: u64,
    pub black_wins: u64,
    pub draws: u64,
    pub seconds: f64,
}

struct Shared {
    file: Mutex<File>,
    written: AtomicU64,
    games: AtomicU64,
    results: [AtomicU64; 3],
    target: u64,
    stop: AtomicBool,
}

/// The seed of a run given `seed` onto a file holding `held` records: the
/// seed itself onto an empty file.
pub fn run_seed(seed: u64, held: u64) -> u64 {
    if held == 0 { seed } else { seed ^ SplitMix::new(held).next_u64() }
}

/// Opens `path` for appending, first cutting off a partial last record.
fn open_output(path: &PathBuf) -> Result<File, String> {
    let mut f = OpenOptions::new()
        .create(true)
        .read(true)
        .write(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let len = f.metadata().map_err(|e| e.to_string())?.len();
    let whole = len - len % RECORD_BYTES as u64;
    if whole != len {
        f.set_len(whole).map_err(|e| format!("cannot truncate {}: {e}", path.display()))?;
    }
    f.seek(SeekFrom::End(0)).map_err(|e| e.to_string())?;
    Ok(f)
}

/// Runs the generation; `progress` gets a status line every few seconds.
pub fn run(cfg: &DatagenConfig, progress: &(dyn Fn(&str) + Sync)) -> Result<DatagenStats, String> {
    if cfg.threads == 0 || cfg.nodes == 0 {
        return Err("threads and nodes must be at least 1".into());
    }
    if let Some(net) = cfg.evaluation.net()
        && net.variant() != cfg.variant
    {
        return Err(format!("the network is one for {}, not {}", net.variant(), cfg.variant));
    }
    let file = open_output(&cfg.out)?;
    let held = file.metadata().map_err(|e| e.to_string())?.len() / RECORD_BYTES as u64;
    // A second run onto the same file with the same seed would append a
    // copy of the first run's games: the seed is mixed with what the file
    // holds, so that each run adds new games, and a list of runs replayed
    // onto an empty file in the same order gives the same file.
    let cfg = &DatagenConfig { seed: run_seed(cfg.seed, held), ..cfg.clone() };
    if held > 0 {
        progress(&format!(
            "{} already holds {held} positions: games seeded {} (--seed mixed with that count), not a copy of earlier runs",
            cfg.out.display(),
            cfg.seed
        ));
    }
    let shared = Shared {
        file: Mutex::new(file),
        written: AtomicU64::new(0),
        games: AtomicU64::new(0),
        results: [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)],
        target: cfg.positions,
        stop: AtomicBool::new(false),
    };
    let start = Instant::now();
    let errors: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..cfg.threads)
            .map(|id| {
                let shared = &shared;
                std::thread::Builder::new()
                    .stack_size(crate::search::params::THREAD_STACK)
                    .spawn_scoped(s, move || {
                        let r = with_variant!(cfg.variant, V => thread_main::<V>(cfg, id, shared));
                        if r.is_err() {
                            shared.stop.store(true, Ordering::SeqCst);
                        }
                        r
                    })
                    .map_err(|e| format!("cannot start thread {id}: {e}"))
            })
            .collect();
        let mut last = Instant::now();
        while !handles.iter().all(|h| h.as_ref().map_or(true, |h| h.is_finished())) {
            std::thread::sleep(Duration::from_millis(100));
            if last.elapsed() >= Duration::from_secs(5) {
                last = Instant::now();
                progress(&status(&shared, start.elapsed()));
            }
        }
        handles
            .into_iter()
            .filter_map(|h| match h {
                Ok(h) => h.join().unwrap_or_else(|_| Err("a thread panicked".into())).err(),
                Err(e) => Some(e),
            })
            .collect()
    });
    if let Some(e) = errors.into_iter().next() {
        return Err(e);
    }
    progress(&status(&shared, start.elapsed()));
    let [b, d, w] = &shared.results;
    Ok(DatagenStats {
        positions: shared.written.load(Ordering::SeqCst),
        games: shared.games.load(Ordering::SeqCst),
        white_wins: w.load(Ordering::SeqCst),
        black_wins: b.load(Ordering::SeqCst),
        draws: d.load(Ordering::SeqCst),
        seconds: start.elapsed().as_secs_f64(),
    })
}

fn status(shared: &Shared, elapsed: Duration) -> String {
    let written = shared.written.load(Ordering::Relaxed);
    let secs = elapsed.as_secs_f64().max(1e-3);
    let rate = written as f64 / secs;
    let eta = if rate > 0.0 { (shared.target.saturating_sub(written)) as f64 / rate } else { f64::INFINITY };
    let [b, d, w] = &shared.results;
    format!(
        "positions {written}/{} ({:.1}%), games {} (+{} ={} -{} for White), {rate:.0} positions/s, elapsed {}, ETA {}",
        shared.target,
        100.0 * written as f64 / shared.target.max(1) as f64,
        shared.games.load(Ordering::Relaxed),
        w.load(Ordering::Relaxed),
        d.load(Ordering::Relaxed),
        b.load(Ordering::Relaxed),
        clock(secs),
        if eta.is_finite() { clock(eta) } else { "-".into() },
    )
}

fn clock(secs: f64) -> String {
    let s = secs.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// One generating thread's searcher: a one-thread pool (kept from move
/// to move) and its own hash table.
struct Searcher {
    pool: ThreadPool,
    tt: Arc<TranspositionTable>,
}

/// A search of `b` with the node budget: (best move, score for the side to move).
fn search_move<V: Evaluate>(
    b: &Board,
    keys: &[u64],
    cfg: &DatagenConfig,
    searcher: &Searcher,
) -> Option<(crate::types::Move, i32)> {
    let limits = Limits { nodes: Some(cfg.nodes), ..Limits::default() };
    let opts = SearchOptions { evaluation: cfg.evaluation.clone(), ..SearchOptions::fixed(V::KIND, 1) };
    let control = Arc::new(Control::new(false));
    let search =
        Search { root: b, history: keys, limits: &limits, options: &opts, tt: &searcher.tt, control: &control };
    let r = searcher.pool.think::<V>(&search, Arc::new(Silent));
    r.best.map(|m| (m, r.score))
}

/// Plays a random opening: `Some` with the position and its keys, or `None`
/// when the game ended during it or the position is too one-sided.
fn opening<V: Evaluate>(cfg: &DatagenConfig, rng: &mut SplitMix, searcher: &Searcher) -> Option<(Board, Vec<u64>)> {
    let mut b = V::from_fen(V::start_fen()).ok()?;
    let mut keys = vec![b.key()];
    for _ in 0..cfg.random_plies {
        if game_end::<V>(&b, &keys).is_some() {
            return None;
        }
        let mut list = MoveList::new();
        V::legal_moves(&b, &mut list);
        let m = list[(rng.next_u64() % list.len() as u64) as usize];
        b = V::play(&b, m);
        keys.push(b.key());
    }
    if game_end::<V>(&b, &keys).is_some() {
        return None;
    }
    let (_, score) = search_move::<V>(&b, &keys, cfg, searcher)?;
    (score.abs() <= MAX_OPENING_SCORE).then_some((b, keys))
}

fn thread_main<V: Evaluate>(cfg: &DatagenConfig, id: usize, shared: &Shared) -> Result<(), String> {
    let searcher = Searcher { pool: ThreadPool::new(1), tt: Arc::new(TranspositionTable::try_new(cfg.hash_mb)?) };
    let mut rng = SplitMix::new(cfg.seed ^ (id as u64 + 1).wrapping_mul(0xA076_1D64_78BD_642F));
    let mut records: Vec<Record> = Vec::with_capacity(MAX_GAME_PLIES);
    while !shared.stop.load(Ordering::Relaxed) && shared.written.load(Ordering::Relaxed) < shared.target {
        searcher.tt.clear();
        searcher.pool.clear();
        let Some((mut b, mut keys)) = opening::<V>(cfg, &mut rng, &searcher) else {
            continue;
        };
        records.clear();
        let mut winning_streak = (Color::White, 0u32);
        let winner = loop {
            if let Some(end) = game_end::<V>(&b, &keys) {
                break end.winner;
            }
            if keys.len() > MAX_GAME_PLIES + cfg.random_plies {
                break None;
            }
            let Some((m, score)) = search_move::<V>(&b, &keys, cfg, &searcher) else {
                break None;
            };
            let us = b.turn();
            if score.abs() >= MATE_BOUND {
                break Some(if score > 0 { us } else { !us });
            }
            let leader = if score > 0 { us } else { !us };
            if score.abs() >= WIN_ADJUDICATION {
                winning_streak = if winning_streak.0 == leader { (leader, winning_streak.1 + 1) } else { (leader, 1) };
                if winning_streak.1 >= WIN_ADJUDICATION_PLIES {
                    break Some(leader);
                }
            } else {
                winning_streak.1 = 0;
            }
            if !V::is_check(&b) && !V::is_tactical(&b, m) {
                let white = if us == Color::White { score } else { -score };
                let ply = (keys.len() - 1).min(u16::MAX as usize) as u16;
                if let Some(r) = Record::new(&b, cfg.variant, white.clamp(-32_000, 32_000) as i16, 0, ply) {
                    records.push(r);
                }
            }
            b = V::play(&b, m);
            keys.push(b.key());
        };
        let result = result_code(winner);
        let mut bytes = Vec::with_capacity(records.len() * RECORD_BYTES);
        // Under the lock: the count and the file move together, and the
        // last game is cut so that exactly `target` records are written.
        let mut file = shared.file.lock().map_err(|_| "output lock poisoned".to_string())?;
        let room = shared.target.saturating_sub(shared.written.load(Ordering::SeqCst));
        for r in records.iter().take(room as usize) {
            bytes.extend_from_slice(&Record { result, ..*r }.to_bytes());
        }
        if bytes.is_empty() && room == 0 {
            break;
        }
        file.write_all(&bytes).map_err(|e| format!("cannot write {}: {e}", cfg.out.display()))?;
        file.flush().map_err(|e| e.to_string())?;
        shared.written.fetch_add((bytes.len() / RECORD_BYTES) as u64, Ordering::SeqCst);
        shared.games.fetch_add(1, Ordering::SeqCst);
        shared.results[result as usize].fetch_add(1, Ordering::SeqCst);
    }
    Ok(())
}
