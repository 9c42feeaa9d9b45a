//! A match worker: takes games from the shared queue and plays them with
//! its own engine processes, restarting an engine that died or forfeited,
//! until the queue is empty or the match is stopped (an SPRT verdict).

use super::game::{self, GameRecord, Termination};
use super::{Done, Job, MatchConfig};
use crate::board::Board;
use crate::tools::uci_client::UciEngine;
use crate::types::Color;
use crate::variant::Variant;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};

/// Plays jobs until the queue is empty, `stop` is set or the receiver is gone.
pub(super) fn play_jobs<V: Variant>(
    cfg: &MatchConfig,
    openings: &[Board],
    jobs: &Mutex<VecDeque<Job>>,
    stop: &AtomicBool,
    tx: &mpsc::Sender<Done>,
) {
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
                match UciEngine::start(&cfg.engines[idx], V::NAME) {
                    Ok(e) => {
                        engines.insert(idx, e);
                    }
                    Err(e) => failed = Some((idx, e)),
                }
            }
        }
        let start = &openings[job.opening];
        let (record, wn, bn) = if let Some((idx, err)) = failed {
            let loser = if idx == job.white { Color::White } else { Color::Black };
            let r = GameRecord {
                start: start.clone(),
                moves: vec![],
                winner: Some(!loser),
                termination: Termination::Disconnect,
                reason: err,
            };
            let name = |i: usize| engines.get(&i).map_or(cfg.engines[i].cmd.clone(), |e| e.name.clone());
            (r, name(job.white), name(job.black))
        } else {
            let mut w = engines.remove(&job.white).expect("started");
            let mut b = engines.remove(&job.black).expect("started");
            let r = game::play::<V>(start, &mut w, &mut b, cfg.tc, cfg.time_margin_ms, cfg.max_moves);
            let names = (w.name.clone(), b.name.clone());
            // After a forfeit the engines start afresh: one that lost on
            // time may still be searching (its late `bestmove` would answer
            // the next game's first `go`), one that moved illegally may be
            // out of step, one that crashed may still be dying (its process
            // lives on for a while after its output closed). Dropping ends
            // them.
            if matches!(r.termination, Termination::Normal | Termination::Adjudication) {
                engines.insert(job.white, w);
                engines.insert(job.black, b);
            }
            (r, names.0, names.1)
        };
        if tx.send(Done { job, record, white_name: wn, black_name: bn }).is_err() {
            break;
        }
    }
}
