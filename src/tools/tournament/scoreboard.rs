//! The running score of a match: every finished game counted in integer
//! half-points per pairing (wins, draws, losses, and the pentanomial counts
//! of completed opening pairs), with the progress line and the SPRT verdict.

use super::game::{GameRecord, Termination};
use super::stats::{Sprt, SprtVerdict, Tally};
use super::{Job, MatchSummary};
use std::collections::HashMap;

pub(super) struct Scoreboard {
    pub summary: MatchSummary,
    /// Half-points (0, 1 or 2) of the first game of each unfinished pair,
    /// from the pairing's first engine's point of view; `None` when that
    /// game was forfeited by a crash (the pair then never reaches the SPRT).
    first_of_pair: HashMap<usize, Option<u8>>,
    total: u32,
}

impl Scoreboard {
    pub fn new(pairs: &[(usize, usize)], names: Vec<String>, total: u32) -> Scoreboard {
        Scoreboard {
            summary: MatchSummary {
                pairings: pairs.iter().map(|&(a, b)| (a, b, Tally::default())).collect(),
                names,
                ..MatchSummary::default()
            },
            first_of_pair: HashMap::new(),
            total,
        }
    }

    /// Counts a finished game. Returns the progress line and the SPRT
    /// verdict (`Continue` without an SPRT).
    pub fn record(
        &mut self,
        job: &Job,
        record: &GameRecord,
        white_name: String,
        black_name: String,
        sprt: Option<Sprt>,
    ) -> (String, SprtVerdict) {
        let s = &mut self.summary;
        s.names[job.white] = white_name.clone();
        s.names[job.black] = black_name.clone();
        s.games += 1;
        *s.terminations.entry(record.termination.pgn()).or_default() += 1;
        // A crash or disconnect loses the game, but says nothing of playing
        // strength: its pair of games is left out of the SPRT.
        let void = record.termination == Termination::Disconnect;
        let (a, b, tally) = &mut s.pairings[job.pairing];
        let (a, b) = (*a, *b);
        let half_points: u8 = match record.winner {
            None => 1,
            Some(c) if c.is_white() == (job.white == a) => 2,
            Some(_) => 0,
        };
        match half_points {
            2 => tally.wins += 1,
            1 => tally.draws += 1,
            _ => tally.losses += 1,
        }
        let this = (!void).then_some(half_points);
        match self.first_of_pair.remove(&job.pair_id) {
            Some(first) => {
                if let (Some(first), Some(this)) = (first, this) {
                    tally.pairs[(first + this) as usize] += 1;
                }
            }
            None => {
                self.first_of_pair.insert(job.pair_id, this);
            }
        }
        let tally = &s.pairings[job.pairing].2;
        let mut line = format!(
            "Game {} of {}: {} vs {}: {} ({}). Score of {} vs {}: {} - {} - {} [{:.3}] Elo {}, LOS {:.1}%",
            s.games,
            self.total,
            white_name,
            black_name,
            record.result_str(),
            record.reason,
            s.names[a],
            s.names[b],
            tally.wins,
            tally.losses,
            tally.draws,
            tally.score(),
            tally.elo_text(),
            tally.los() * 100.0
        );
        let mut verdict = SprtVerdict::Continue;
        if let Some(sprt) = sprt {
            let llr = sprt.llr(&tally.pairs);
            let (lo, hi) = sprt.bounds();
            line.push_str(&format!(", LLR {llr:.2} ({lo:.2}, {hi:.2})"));
            verdict = sprt.verdict(&tally.pairs);
            s.sprt = Some((verdict, llr));
        }
        (line, verdict)
    }
}
