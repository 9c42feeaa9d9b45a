//! One refereed game between two UCI engines, judged by Fission's own rules.

use crate::board::Board;
use crate::notation::{move_to_uci, parse_move};
use crate::tools::uci_client::{UciEngine, WaitError};
use crate::types::{Color, Move};
use crate::variant::{Variant, game_end};
use std::time::{Duration, Instant};

/// A time control: base time and increment, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub inc_ms: u64,
}

impl TimeControl {
    /// Parses `10+0.1` (seconds) or `40` (no increment).
    pub fn parse(s: &str) -> Result<TimeControl, String> {
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |v: &str| -> Result<u64, String> {
            let f: f64 = v.trim().parse().map_err(|_| format!("--tc: bad number '{v}'"))?;
            if !(0.0..=86_400.0).contains(&f) {
                return Err(format!("--tc: '{v}' out of range"));
            }
            Ok((f * 1000.0).round() as u64)
        };
        let tc = TimeControl { base_ms: secs(base)?, inc_ms: secs(inc)? };
        if tc.base_ms == 0 && tc.inc_ms == 0 {
            return Err("--tc: the time control must give some time".into());
        }
        Ok(tc)
    }

    /// PGN `TimeControl` tag value (seconds).
    pub fn pgn(&self) -> String {
        let f = |ms: u64| {
            if ms.is_multiple_of(1000) { format!("{}", ms / 1000) } else { format!("{}", ms as f64 / 1000.0) }
        };
        if self.inc_ms == 0 { f(self.base_ms) } else { format!("{}+{}", f(self.base_ms), f(self.inc_ms)) }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules on the board (mate, exploded king, stalemate, material,
    /// repetition, 50 moves).
    Normal,
    TimeForfeit,
    IllegalMove,
    /// A draw by the runner's move limit (`--max-moves`).
    Adjudication,
    /// The engine crashed, closed its output or could not be started.
    Disconnect,
}

impl Termination {
    /// PGN `Termination` tag value.
    pub fn pgn(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Adjudication => "adjudication",
            Termination::Disconnect => "abandoned",
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub start: Board,
    pub moves: Vec<Move>,
    /// `None` is a draw.
    pub winner: Option<Color>,
    pub termination: Termination,
    pub reason: String,
}

impl GameRecord {
    pub fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// Slack allowed past the clock before a flag counts (process and pipe delays).
pub const DEFAULT_TIME_MARGIN_MS: u64 = 0;

/// Plays one game from `start` with `white` and `black` engines; a draw
/// once each side has made `max_moves` moves, unless that is 0.
pub fn play<V: Variant>(
    start: &Board,
    white: &mut UciEngine,
    black: &mut UciEngine,
    tc: TimeControl,
    margin_ms: u64,
    max_moves: u32,
) -> GameRecord {
    let mut board = start.clone();
    let start_fen = V::fen(start);
    let mut moves: Vec<Move> = Vec::new();
    let mut keys = vec![board.key()];
    let mut clock = [tc.base_ms as i64, tc.base_ms as i64];
    let finish = |moves: Vec<Move>, winner, termination, reason: String| GameRecord {
        start: start.clone(),
        moves,
        winner,
        termination,
        reason,
    };
    for (color, e) in [(Color::White, &mut *white), (Color::Black, &mut *black)] {
        if let Err(err) = e.new_game() {
            return finish(moves, Some(!color), Termination::Disconnect, err);
        }
    }
    loop {
        // The rules first.
        if let Some(end) = game_end::<V>(&board, &keys) {
            let reason = match end.winner {
                Some(w) => format!("{} wins by {}", if w.is_white() { "White" } else { "Black" }, end.reason),
                None => end.reason.to_string(),
            };
            return finish(moves, end.winner, Termination::Normal, reason);
        }
        if max_moves > 0 && moves.len() >= 2 * max_moves as usize {
            let reason = format!("draw by adjudication: {max_moves} moves each");
            return finish(moves, None, Termination::Adjudication, reason);
        }

        let side = board.turn();
        let idx = if side.is_white() { 0 } else { 1 };
        let engine: &mut UciEngine = if side.is_white() { &mut *white } else { &mut *black };
        let mut pos = format!("position fen {start_fen}");
        if !moves.is_empty() {
            pos.push_str(" moves");
            for m in &moves {
                pos.push(' ');
                pos.push_str(&move_to_uci(*m));
            }
        }
        let go =
            format!("go wtime {} btime {} winc {} binc {}", clock[0].max(1), clock[1].max(1), tc.inc_ms, tc.inc_ms);
        let sent = engine.send(&pos).and_then(|_| engine.send(&go));
        let started = Instant::now();
        let name = engine.name.clone();
        if let Err(e) = sent {
            return finish(moves, Some(!side), Termination::Disconnect, format!("{name} disconnects: {e}"));
        }
        let deadline = started + Duration::from_millis(clock[idx].max(0) as u64 + margin_ms);
        let answer = loop {
            match engine.wait_line(deadline) {
                Ok(line) if line.starts_with("bestmove") => break Ok(line),
                Ok(_) => {}
                Err(e) => break Err(e),
            }
        };
        let elapsed = started.elapsed().as_millis() as i64;
        let line = match answer {
            Ok(l) => l,
            Err(WaitError::Timeout) => {
                // An engine that cannot mate anyway does not win on time.
                let winner = (!V::has_insufficient_material(&board, !side)).then_some(!side);
                return finish(moves, winner, Termination::TimeForfeit, format!("{name} loses on time"));
            }
            Err(WaitError::Disconnected) => {
                return finish(moves, Some(!side), Termination::Disconnect, format!("{name} disconnects"));
            }
        };
        clock[idx] -= elapsed;
        if clock[idx] + (margin_ms as i64) < 0 {
            let winner = (!V::has_insufficient_material(&board, !side)).then_some(!side);
            return finish(moves, winner, Termination::TimeForfeit, format!("{name} loses on time"));
        }
        clock[idx] += tc.inc_ms as i64;
        let text = line.split_whitespace().nth(1).unwrap_or("");
        let Some(m) = parse_move::<V>(&board, text) else {
            return finish(
                moves,
                Some(!side),
                Termination::IllegalMove,
                format!("{name} makes an illegal move: {text}"),
            );
        };
        board = V::play(&board, m);
        moves.push(m);
        keys.push(board.key());
    }
}
