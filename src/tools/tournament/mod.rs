//! The match runner: engine-vs-engine tournaments in every variant Fission
//! knows, refereed by Fission's own rules (`fission match ...`).
//!
//! Every opening is played twice with colours reversed; `--concurrency K`
//! games run at once, each worker with its own engine processes (restarted
//! after a crash). Results stream to the PGN file as games finish (appended
//! to it, as cutechess-cli does).
//!
//! Every engine must start and answer the handshake before the first game
//! ([`check_engines`]). A game lost by a crash or disconnect counts as a
//! loss for that engine, named in the result, but its pair of games is kept
//! out of the SPRT; an engine that crashes [`MAX_CRASHES`] times stops the
//! match (`MatchSummary::stopped`).

pub mod config;
pub mod game;
pub mod openings;
pub mod pgn;
mod scoreboard;
pub mod stats;
mod worker;

use crate::board::Board;
use crate::variant::Variant;
use crate::with_variant;
pub use config::{MatchArgs, MatchConfig};
use game::GameRecord;
pub use openings::{load_openings, random_openings};
use scoreboard::Scoreboard;
use stats::{Sprt, SprtVerdict, Tally};
use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

/// One game to play: which engines, which opening, which colours.
#[derive(Clone, Debug)]
struct Job {
    pairing: usize,
    opening: usize,
    /// Engine playing white, engine playing black.
    white: usize,
    black: usize,
    round: u32,
    /// The two games of one opening, colours reversed, share this id.
    pair_id: usize,
}

/// A finished game as the workers report it.
struct Done {
    job: Job,
    record: GameRecord,
    white_name: String,
    black_name: String,
}

/// What a match produced.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    /// Per pairing (engine a, engine b): the tally from a's point of view.
    pub pairings: Vec<(usize, usize, Tally)>,
    pub names: Vec<String>,
    pub games: u32,
    pub sprt: Option<(SprtVerdict, f64)>,
    /// Count of each termination kind.
    pub terminations: HashMap<&'static str, u32>,
    /// Games lost by a forfeit (time, illegal move, crash), per engine name.
    pub forfeits: HashMap<String, u32>,
    /// Why the match stopped before its last game, if an engine kept
    /// crashing (an SPRT verdict is not a failure: see `sprt`).
    pub stopped: Option<String>,
}

/// Crashes or disconnects of one engine after which the match stops.
pub const MAX_CRASHES: u32 = 3;

/// Starts every engine of the match once and runs its handshake, so that a
/// command that cannot be started (or answer `uci`/`isready` in time)
/// stops the match before any game: the error names the engine.
pub fn check_engines(cfg: &MatchConfig) -> Result<(), String> {
    let variant = crate::with_variant!(cfg.variant, V => V::NAME);
    for (i, spec) in cfg.engines.iter().enumerate() {
        crate::tools::uci_client::UciEngine::start(spec, variant)
            .map_err(|e| format!("engine #{} ('{}') cannot play: {e}", i + 1, spec.cmd))?;
    }
    Ok(())
}

/// Runs a match, printing progress through `say`.
pub fn run(cfg: &MatchConfig, say: &(dyn Fn(&str) + Sync)) -> Result<MatchSummary, String> {
    with_variant!(cfg.variant, V => run_v::<V>(cfg, say))
}

fn run_v<V: Variant>(cfg: &MatchConfig, say: &(dyn Fn(&str) + Sync)) -> Result<MatchSummary, String> {
    let n = cfg.engines.len();
    let pairs: Vec<(usize, usize)> = if cfg.gauntlet {
        (1..n).map(|j| (0, j)).collect()
    } else {
        (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect()
    };
    let n_openings = (cfg.games / 2) as usize;
    let openings: Vec<Board> = match &cfg.openings {
        Some(path) => load_openings::<V>(path)?,
        None => random_openings::<V>(n_openings, cfg.random_plies, cfg.seed),
    };
    let mut jobs = VecDeque::new();
    let mut round = 0;
    let mut pair_id = 0;
    for k in 0..n_openings {
        for (p, &(a, b)) in pairs.iter().enumerate() {
            pair_id += 1;
            for (white, black) in [(a, b), (b, a)] {
                round += 1;
                jobs.push_back(Job { pairing: p, opening: k % openings.len(), white, black, round, pair_id });
            }
        }
    }
    let total = jobs.len() as u32;
    let jobs = Arc::new(Mutex::new(jobs));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Done>();
    let mut pgn_file = match &cfg.pgn {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("cannot open {p}: {e}"))?,
        ),
        None => None,
    };
    let date = pgn::today();
    let names = cfg.engines.iter().map(|e| e.cmd.clone()).collect();
    let mut board = Scoreboard::new(&pairs, names, total);
    let mut crashes = vec![0u32; n];

    std::thread::scope(|s| {
        for _ in 0..cfg.concurrency.min(total.max(1) as usize) {
            let (jobs, stop, tx, openings) = (Arc::clone(&jobs), Arc::clone(&stop), tx.clone(), &openings);
            s.spawn(move || worker::play_jobs::<V>(cfg, openings, &jobs, &stop, &tx));
        }
        drop(tx);
        // Engines that cannot be told apart by the name they report (the
        // same command, or two builds of one engine meeting) are numbered
        // as on the command line: "Fission 0.1.0 #1".
        let unique = |idx: usize, name: String, clash: bool| -> String {
            let same = clash
                || cfg.engines.len() > 1
                    && cfg.engines.iter().enumerate().any(|(j, e)| j != idx && e.cmd == cfg.engines[idx].cmd);
            if same { format!("{name} #{}", idx + 1) } else { name }
        };
        for done in rx {
            let Done { job, mut record, white_name, black_name } = done;
            let clash = white_name == black_name;
            let raw = (white_name.clone(), black_name.clone());
            let (white_name, black_name) = (unique(job.white, white_name, clash), unique(job.black, black_name, clash));
            let forfeit = (record.termination != game::Termination::Normal).then_some(record.winner).flatten();
            if let Some(winner) = forfeit {
                // The reason starts with the name the loser reported: say which engine it was.
                let (loser, raw_name, name) =
                    if winner.is_white() { (job.black, &raw.1, &black_name) } else { (job.white, &raw.0, &white_name) };
                if let Some(rest) = record.reason.strip_prefix(raw_name.as_str()) {
                    record.reason = format!("{name}{rest}");
                }
                *board.summary.forfeits.entry(name.clone()).or_default() += 1;
                if record.termination == game::Termination::Disconnect {
                    crashes[loser] += 1;
                    if crashes[loser] >= MAX_CRASHES && board.summary.stopped.is_none() {
                        stop.store(true, Ordering::SeqCst);
                        board.summary.stopped = Some(format!(
                            "{name} ('{}') crashed or disconnected {} times: match stopped",
                            cfg.engines[loser].cmd, crashes[loser]
                        ));
                    }
                }
            }
            if let Some(f) = pgn_file.as_mut() {
                let h = pgn::Header {
                    event: "Fission match",
                    date: &date,
                    round: job.round,
                    white: &white_name,
                    black: &black_name,
                    tc: cfg.tc,
                };
                let _ = f.write_all(pgn::write_game::<V>(&h, &record).as_bytes());
                let _ = f.flush();
            }
            let (line, verdict) = board.record(&job, &record, white_name, black_name, cfg.sprt);
            say(&line);
            if verdict != SprtVerdict::Continue && !stop.swap(true, Ordering::SeqCst) {
                say(&format!("SPRT: {} accepted", if verdict == SprtVerdict::AcceptH1 { "H1" } else { "H0" }));
            }
        }
    });
    let summary = board.summary;
    say("");
    say(&final_table(&summary, cfg.sprt));
    if let Some(why) = &summary.stopped {
        say(why);
    }
    Ok(summary)
}

/// The closing table: per pairing, and per engine when there are more than two.
pub fn final_table(s: &MatchSummary, sprt: Option<Sprt>) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:<30} {:<30} {:>6} {:>6} {:>6} {:>7} {:>16} {:>7}\n",
        "Engine", "Opponent", "Wins", "Losses", "Draws", "Score", "Elo", "LOS"
    ));
    for (a, b, t) in &s.pairings {
        out.push_str(&format!(
            "{:<30} {:<30} {:>6} {:>6} {:>6} {:>7.3} {:>16} {:>6.1}%\n",
            s.names[*a],
            s.names[*b],
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            t.elo_text(),
            t.los() * 100.0
        ));
        if let Some(sp) = sprt {
            let (lo, hi) = sp.bounds();
            out.push_str(&format!(
                "Pentanomial [0, 0.5, 1, 1.5, 2]: {:?}; SPRT elo0={} elo1={} LLR {:.2} ({lo:.2}, {hi:.2})\n",
                t.pairs,
                sp.elo0,
                sp.elo1,
                sp.llr(&t.pairs)
            ));
        }
    }
    out.push_str(&format!("Games: {}; terminations: {}", s.games, counts_in_words(&s.terminations)));
    if !s.forfeits.is_empty() {
        out.push_str(&format!("; games lost by forfeit: {}", counts_in_words(&s.forfeits)));
    }
    out
}

/// `12 normal, 3 time forfeit`: counts, largest first.
fn counts_in_words<K: AsRef<str>>(counts: &HashMap<K, u32>) -> String {
    let mut v: Vec<(&str, u32)> = counts.iter().map(|(k, &n)| (k.as_ref(), n)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let words: Vec<String> = v.iter().map(|(k, n)| format!("{n} {k}")).collect();
    if words.is_empty() { "none".into() } else { words.join(", ") }
}
