//! The match runner: engine-vs-engine tournaments in every variant Fission
//! knows, refereed by Fission's own rules (`fission match ...`).
//!
//! Every opening is played twice with colours reversed; `--concurrency K`
//! games run at once, each worker with its own engine processes (restarted
//! after a crash). Results stream to the PGN file as games finish.

pub mod config;
pub mod game;
pub mod pgn;
pub mod stats;
pub mod uci_engine;

use crate::board::Board;
use crate::types::MoveList;
use crate::variant::Variant;
use crate::with_variant;
pub use config::{MatchArgs, MatchConfig};
use game::GameRecord;
use stats::{Sprt, SprtVerdict, Tally};
use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use uci_engine::UciEngine;

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
}

/// Reads openings: one FEN or EPD per line ('#' comments and blank lines skipped).
fn load_openings<V: Variant>(path: &str) -> Result<Vec<Board>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // EPD operations after the fourth field are dropped.
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = if fields.len() > 6 || line.contains(';') {
            fields[..4.min(fields.len())].join(" ")
        } else {
            line.to_string()
        };
        let b = V::from_fen(&fen).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        out.push(b);
    }
    if out.is_empty() {
        return Err(format!("{path}: no openings"));
    }
    Ok(out)
}

/// `n` openings of `plies` random legal moves from the start position,
/// reproducible from `seed`; openings that end the game are redrawn.
pub fn random_openings<V: Variant>(n: usize, plies: u32, seed: u64) -> Vec<Board> {
    let mut rng = SplitMix(seed ^ 0x0123_4567_89AB_CDEF);
    let start = V::from_fen(V::start_fen()).unwrap_or_else(|_| Board::startpos());
    let mut out = Vec::with_capacity(n);
    'outer: while out.len() < n {
        let mut b = start.clone();
        for _ in 0..plies {
            let mut list = MoveList::new();
            V::legal_moves(&b, &mut list);
            if list.is_empty() {
                continue 'outer;
            }
            b = V::play(&b, list[(rng.next() % list.len() as u64) as usize]);
        }
        // No opening where the game is over or can be won on the spot.
        if V::outcome(&b).is_some() {
            continue;
        }
        let mut list = MoveList::new();
        V::legal_moves(&b, &mut list);
        if list.iter().any(|&m| V::outcome(&V::play(&b, m)).is_some()) {
            continue;
        }
        out.push(b);
    }
    out
}

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
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
        Some(p) => Some(std::fs::File::create(p).map_err(|e| format!("cannot create {p}: {e}"))?),
        None => None,
    };
    let date = pgn::today();
    let mut summary = MatchSummary {
        pairings: pairs.iter().map(|&(a, b)| (a, b, Tally::default())).collect(),
        names: cfg.engines.iter().map(|e| e.cmd.clone()).collect(),
        ..MatchSummary::default()
    };
    let mut first_of_pair: HashMap<usize, f64> = HashMap::new();
    let variant_name = V::NAME;

    std::thread::scope(|s| {
        for _ in 0..cfg.concurrency.min(total.max(1) as usize) {
            let jobs = Arc::clone(&jobs);
            let stop = Arc::clone(&stop);
            let tx = tx.clone();
            let openings = &openings;
            s.spawn(move || {
                let mut engines: HashMap<usize, UciEngine> = HashMap::new();
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Some(job) = jobs.lock().ok().and_then(|mut q| q.pop_front()) else {
                        break;
                    };
                    // (Re)start the engines this game needs.
                    let mut failed = None;
                    for idx in [job.white, job.black] {
                        let alive = engines.get_mut(&idx).is_some_and(|e| e.alive());
                        if !alive {
                            engines.remove(&idx);
                            match UciEngine::start(&cfg.engines[idx], variant_name) {
                                Ok(e) => {
                                    engines.insert(idx, e);
                                }
                                Err(e) => failed = Some((idx, e)),
                            }
                        }
                    }
                    let start = &openings[job.opening];
                    let (record, wn, bn) = if let Some((idx, err)) = failed {
                        let loser =
                            if idx == job.white { crate::types::Color::White } else { crate::types::Color::Black };
                        let r = GameRecord {
                            start: start.clone(),
                            moves: vec![],
                            winner: Some(!loser),
                            termination: game::Termination::Disconnect,
                            reason: err,
                        };
                        let name = |i: usize| engines.get(&i).map_or(cfg.engines[i].cmd.clone(), |e| e.name.clone());
                        (r, name(job.white), name(job.black))
                    } else {
                        let mut w = engines.remove(&job.white).expect("started");
                        let mut b = engines.remove(&job.black).expect("started");
                        let r = game::play::<V>(start, &mut w, &mut b, cfg.tc, cfg.time_margin_ms);
                        let names = (w.name.clone(), b.name.clone());
                        engines.insert(job.white, w);
                        engines.insert(job.black, b);
                        (r, names.0, names.1)
                    };
                    if tx.send(Done { job, record, white_name: wn, black_name: bn }).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let unique = |idx: usize, name: String| -> String {
            let same = cfg.engines.len() > 1
                && cfg.engines.iter().enumerate().any(|(j, e)| j != idx && e.cmd == cfg.engines[idx].cmd);
            if same { format!("{name} #{}", idx + 1) } else { name }
        };
        for done in rx {
            let Done { job, record, white_name, black_name } = done;
            let (white_name, black_name) = (unique(job.white, white_name), unique(job.black, black_name));
            summary.names[job.white] = white_name.clone();
            summary.names[job.black] = black_name.clone();
            summary.games += 1;
            *summary.terminations.entry(record.termination.pgn()).or_default() += 1;
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
            // Score from the pairing's first engine's point of view.
            let (a, b) = (summary.pairings[job.pairing].0, summary.pairings[job.pairing].1);
            let a_score = match record.winner {
                None => 0.5,
                Some(c) if c.is_white() == (job.white == a) => 1.0,
                Some(_) => 0.0,
            };
            let tally = &mut summary.pairings[job.pairing].2;
            match a_score {
                s if s > 0.75 => tally.wins += 1,
                s if s < 0.25 => tally.losses += 1,
                _ => tally.draws += 1,
            }
            if let Some(first) = first_of_pair.remove(&job.pair_id) {
                tally.pairs[((first + a_score) * 2.0).round() as usize] += 1;
            } else {
                first_of_pair.insert(job.pair_id, a_score);
            }
            let (elo, err) = tally.elo();
            let mut line = format!(
                "Game {} of {}: {} vs {}: {} ({}). Score of {} vs {}: {} - {} - {} [{:.3}] Elo {:+.1} +/- {:.1}, LOS {:.1}%",
                summary.games,
                total,
                white_name,
                black_name,
                record.result_str(),
                record.reason,
                summary.names[a],
                summary.names[b],
                tally.wins,
                tally.losses,
                tally.draws,
                tally.score(),
                elo,
                err,
                tally.los() * 100.0
            );
            let tally = &summary.pairings[job.pairing].2;
            if let Some(sprt) = cfg.sprt {
                let llr = sprt.llr(&tally.pairs);
                let (lo, hi) = sprt.bounds();
                line.push_str(&format!(", LLR {llr:.2} ({lo:.2}, {hi:.2})"));
                let verdict = sprt.verdict(&tally.pairs);
                summary.sprt = Some((verdict, llr));
                if verdict != SprtVerdict::Continue && !stop.swap(true, Ordering::SeqCst) {
                    say(&line);
                    say(&format!("SPRT: {} accepted", if verdict == SprtVerdict::AcceptH1 { "H1" } else { "H0" }));
                    continue;
                }
            }
            say(&line);
        }
    });
    say("");
    say(&final_table(&summary, cfg.sprt));
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
        let (elo, err) = t.elo();
        out.push_str(&format!(
            "{:<30} {:<30} {:>6} {:>6} {:>6} {:>7.3} {:>16} {:>6.1}%\n",
            s.names[*a],
            s.names[*b],
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            format!("{elo:+.1} +/- {err:.1}"),
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
    let mut terms: Vec<_> = s.terminations.iter().collect();
    terms.sort();
    out.push_str(&format!("Games: {}; terminations: {:?}", s.games, terms));
    out
}
