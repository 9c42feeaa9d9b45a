//! The UCI front end: reads commands on one thread (the caller's, which
//! owns the input), runs searches on others, and prints everything through
//! one locked [`Output`] so lines never interleave.
//!
//! Bad input never ends the session: an unknown command, a malformed FEN, an
//! illegal move or a bad option value gets an `info string` saying so, and
//! the engine keeps its previous state.

pub mod command;
pub mod input;
pub mod options;

use crate::board::CastlingMode;
use crate::engine::Engine;
use crate::notation::move_to_uci_mode;
use crate::search::bench;
use crate::search::score::{UciScore, uci_score};
use crate::search::{Bound, Limits, PvInfo, Reporter};
use crate::types::{Bitboard, File, Rank, Square};
use crate::variant::Outcome;
use command::{Command, Go, ParseError};
use options::OptionChange;
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Engine name and version as `uci` reports it.
pub const ENGINE_NAME: &str = concat!("Fission ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the Fission developers";

/// A shared, line-buffered output. Write errors (a closed pipe) are ignored:
/// the GUI is gone and end of input will follow.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    pub fn line(&self, s: &str) {
        if let Ok(mut w) = self.0.lock() {
            let _ = writeln!(w, "{s}");
            let _ = w.flush();
        }
    }

    /// `info string <s>`, with control characters in `s` escaped (`\r`,
    /// `\x00`, ...): echoed input must never split or garble a line.
    pub fn info_string(&self, s: &str) {
        self.line(&format!("info string {}", escape_controls(s)));
    }
}

/// `s` with every control character written as an escape (`\r`, `\n`,
/// `\t`, `\x1b`, `\u{85}`), everything else as it is.
pub fn escape_controls(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() && (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Formats search reports as `info` lines.
struct UciReporter {
    out: Output,
    mode: CastlingMode,
}

fn format_score(score: i32) -> String {
    match uci_score(score) {
        UciScore::Cp(c) => format!("cp {c}"),
        UciScore::Mate(m) => format!("mate {m}"),
    }
}

impl Reporter for UciReporter {
    fn pv(&self, i: &PvInfo) {
        let bound = match i.bound {
            Bound::Exact => "",
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
        };
        let pv: Vec<String> = i.pv.iter().map(|&m| move_to_uci_mode(m, self.mode)).collect();
        self.out.line(&format!(
            "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} time {} pv {}",
            i.depth,
            i.seldepth,
            i.multipv,
            format_score(i.score),
            bound,
            i.nodes,
            i.nps,
            i.hashfull,
            i.time_ms,
            pv.join(" ")
        ));
    }

    fn currmove(&self, depth: u32, mv: crate::types::Move, number: usize) {
        self.out
            .line(&format!("info depth {depth} currmove {} currmovenumber {number}", move_to_uci_mode(mv, self.mode)));
    }
}

/// The UCI session state.
pub struct Uci {
    engine: Engine,
    out: Output,
    debug: bool,
    /// Commands that arrived while a search only the GUI may end was running
    /// (`go infinite`, `go ponder`): run in order once it has ended, so that
    /// no `bestmove` comes before `stop` or `ponderhit`.
    deferred: VecDeque<Command>,
    /// `go infinite` or `go ponder` in a position without legal moves: the
    /// `bestmove (none)` owed at `stop` (or `ponderhit`).
    owed_none: Option<OwedNone>,
}

/// Which command releases a `bestmove (none)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OwedNone {
    /// `go infinite`: only `stop`.
    Stop,
    /// `go ponder`: `stop` or `ponderhit`.
    StopOrPonderHit,
}

impl Uci {
    pub fn new(out: Output) -> Uci {
        Uci { engine: Engine::new(), out, debug: false, deferred: VecDeque::new(), owed_none: None }
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Whether a search runs that only the GUI may end.
    fn awaiting_gui(&self) -> bool {
        self.owed_none.is_some() || self.engine.awaiting_gui()
    }

    /// Whether deferred commands wait for the running search to end.
    pub fn has_deferred(&self) -> bool {
        !self.deferred.is_empty()
    }

    /// Runs the deferred commands if the search they wait for has ended.
    pub fn run_deferred(&mut self) {
        while !self.deferred.is_empty() && !self.engine.searching() && !self.awaiting_gui() {
            if let Some(cmd) = self.deferred.pop_front() {
                self.handle(cmd);
            }
        }
    }

    /// Handles one input line. Returns `false` when the session should end.
    pub fn handle_line(&mut self, line: &str) -> bool {
        self.handle_line_received(line, None)
    }

    /// As [`Uci::handle_line`], for a line that arrived at `received`: a
    /// `go`'s clock runs from then (the engine may have been busy, or
    /// without CPU, when the line came).
    pub fn handle_line_received(&mut self, line: &str, received: Option<Instant>) -> bool {
        self.run_deferred();
        let mut parsed = command::parse(line);
        if let Ok(Command::Go(go)) = &mut parsed {
            go.limits.received = received;
        }
        match parsed {
            Ok(Command::Quit) => {
                self.engine.stop();
                return false;
            }
            Ok(cmd) if self.must_defer(&cmd) => self.deferred.push_back(cmd),
            Ok(cmd) => self.handle(cmd),
            Err(ParseError::Empty) => {}
            Err(e) => self.out.info_string(&e.to_string()),
        }
        true
    }

    /// Commands that change the engine's state or start work wait while a
    /// search that only the GUI may end runs (and behind earlier deferred
    /// ones). `stop`, `ponderhit`, `isready` and the read-only commands
    /// are answered at once.
    fn must_defer(&self, cmd: &Command) -> bool {
        let changes_state = matches!(
            cmd,
            Command::SetOption { .. }
                | Command::UciNewGame
                | Command::Position { .. }
                | Command::Go(_)
                | Command::Perft(_)
                | Command::Bench(_)
        );
        changes_state && (self.awaiting_gui() || !self.deferred.is_empty())
    }

    fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Uci => {
                let suffix = if self.engine.options.greedy { " (greedy)" } else { "" };
                self.out.line(&format!("id name {ENGINE_NAME}{suffix}"));
                self.out.line(&format!("id author {ENGINE_AUTHOR}"));
                for o in options::declarations() {
                    self.out.line(&o);
                }
                self.out.line("uciok");
            }
            Command::IsReady => self.out.line("readyok"),
            Command::Debug(on) => self.debug = on,
            Command::Register => {}
            Command::UciNewGame => self.engine.new_game(),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { fen, moves } => {
                if let Err(e) = self.engine.set_position(fen.as_deref(), &moves) {
                    self.out.info_string(&e.to_string());
                }
            }
            Command::Go(go) => self.go(go),
            Command::Perft(depth) => self.perft(depth),
            Command::Stop => {
                self.pay_owed_none(true);
                self.engine.request_stop();
                if !self.deferred.is_empty() {
                    // The search ends promptly once stopped; what waited for it runs now.
                    self.engine.wait();
                    self.run_deferred();
                }
            }
            Command::PonderHit => {
                self.pay_owed_none(false);
                self.engine.ponderhit();
            }
            Command::Display => self.display(),
            Command::Eval => {
                self.out.line(&format!("Evaluation: {}", self.engine.evaluation_name()));
                self.out.line(&format!("Static evaluation: {} (side to move)", self.engine.evaluate()));
            }
            Command::Bench(depth) => {
                self.engine.stop();
                let r = bench::run(depth, |_, _, _| {});
                self.out.line(&format!("Nodes searched: {}", r.nodes));
                self.out.line(&format!("Nodes/second: {}", r.nodes * 1000 / r.millis.max(1)));
            }
            Command::Quit => {}
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let change = match options::parse_option(name, value) {
            Ok(c) => c,
            Err(e) => return self.out.info_string(&e),
        };
        match change {
            OptionChange::Variant(v) => {
                self.engine.stop();
                self.engine.set_variant(v);
            }
            OptionChange::Hash(mb) => {
                if let Err(e) = self.engine.set_hash(mb) {
                    self.out.info_string(&format!("{e}; keeping the previous hash table"));
                }
            }
            OptionChange::ClearHash => self.engine.clear_hash(),
            OptionChange::Threads(n) => self.engine.set_threads(n),
            OptionChange::MultiPv(n) => self.engine.options.multipv = n,
            OptionChange::Ponder(_) => {}
            OptionChange::MoveOverhead(ms) => self.engine.options.move_overhead = ms,
            OptionChange::Chess960(on) => self.engine.set_chess960(on),
            OptionChange::UseNnue(on) => self.engine.set_use_nnue(on),
            OptionChange::EvalFile(path) => match self.engine.set_eval_file(&path) {
                Ok(what) => self.out.info_string(&format!("EvalFile: using {what}")),
                Err(e) => self.out.info_string(&format!("EvalFile: {e}; keeping {}", self.engine.evaluation_name())),
            },
        }
        if self.debug {
            self.out.info_string(&format!("set {name}"));
        }
    }

    fn go(&mut self, go: Go) {
        for w in &go.warnings {
            self.out.info_string(w);
        }
        self.engine.stop();
        let legal = self.engine.legal_moves();
        let mode = self.engine.castling_mode();
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match self.engine.parse_move(text) {
                Some(m) => searchmoves.push(m),
                None => self.out.info_string(&format!("ignoring searchmoves {text}: not a legal move")),
            }
        }
        if legal.is_empty() {
            // Game over: report it the way Stockfish does, then `(none)` —
            // at once, or for `infinite` and `ponder` when the GUI ends the search.
            let lost = matches!(self.engine.outcome(), Some(Outcome::Decisive { .. }));
            self.out.line(&format!("info depth 0 score {}", if lost { "mate 0" } else { "cp 0" }));
            self.owed_none = if go.limits.infinite {
                Some(OwedNone::Stop)
            } else if go.limits.ponder {
                Some(OwedNone::StopOrPonderHit)
            } else {
                self.out.line("bestmove (none)");
                None
            };
            return;
        }
        let limits = Limits { searchmoves, ..go.limits };
        let out = self.out.clone();
        let reporter = Arc::new(UciReporter { out: self.out.clone(), mode });
        self.engine.go(
            limits,
            reporter,
            Box::new(move |r| match r.best {
                Some(best) => match r.ponder {
                    Some(p) => out.line(&format!(
                        "bestmove {} ponder {}",
                        move_to_uci_mode(best, mode),
                        move_to_uci_mode(p, mode)
                    )),
                    None => out.line(&format!("bestmove {}", move_to_uci_mode(best, mode))),
                },
                None => out.line("bestmove (none)"),
            }),
        );
    }

    /// Prints the `bestmove (none)` of a finished game's infinite or ponder
    /// search, if `stop` (`by_stop`) or `ponderhit` releases it.
    fn pay_owed_none(&mut self, by_stop: bool) {
        if let Some(owed) = self.owed_none
            && (by_stop || owed == OwedNone::StopOrPonderHit)
        {
            self.owed_none = None;
            self.out.line("bestmove (none)");
        }
    }

    fn perft(&mut self, depth: u32) {
        self.engine.stop();
        let counts = self.engine.divide(depth.max(1));
        let mut total = 0;
        if depth == 0 {
            total = 1;
        } else {
            for (m, n) in &counts {
                self.out.line(&format!("{}: {n}", move_to_uci_mode(*m, self.engine.castling_mode())));
                total += n;
            }
        }
        self.out.line("");
        self.out.line(&format!("Nodes searched: {total}"));
    }

    fn display(&self) {
        let b = self.engine.board();
        let sep = " +---+---+---+---+---+---+---+---+";
        let mut s = String::new();
        s.push_str(sep);
        s.push('\n');
        for r in (0..8).rev() {
            s.push_str(" |");
            for f in 0..8 {
                let sq = Square::from_coords(File::new(f), Rank::new(r));
                let c = b.piece_at(sq).map_or(' ', |p| p.char());
                s.push_str(&format!(" {c} |"));
            }
            s.push_str(&format!(" {}\n{sep}\n", r + 1));
        }
        s.push_str("   a   b   c   d   e   f   g   h\n");
        for l in s.lines() {
            self.out.line(l);
        }
        self.out.line("");
        self.out.line(&format!("Variant: {}", self.engine.variant()));
        self.out.line(&format!("Fen: {}", self.engine.fen()));
        self.out.line(&format!("Key: {:016X}", b.key()));
        let checkers: Bitboard = self.engine.checkers();
        let list: Vec<String> = checkers.into_iter().map(|sq| sq.to_string()).collect();
        self.out.line(&format!("Checkers: {}", list.join(" ")));
    }
}

/// Runs a UCI session on `input` until `quit` or end of input. Lines that
/// are not valid UTF-8 are read lossily (and then rejected as unknown).
///
/// A reader thread owns the input, so that commands deferred behind a
/// search run as soon as it ends, not when the next line happens to come.
/// A `stop` that comes when every earlier line has been taken stops the
/// search from the reader thread itself, at once: with more search threads
/// than cores, the thread that handles commands may wait long for the CPU.
/// The line is then handled as usual (stopping twice changes nothing).
pub fn run(input: impl BufRead + Send + 'static, out: Output, greedy: bool) {
    run_with(input, out, greedy, None)
}

/// [`run`] on the process's standard input, whose pending bytes the search
/// threads watch when they outnumber the cores (see [`input`]).
pub fn run_stdin(out: Output, greedy: bool) {
    run_with(input::WatchedStdin::new(), out, greedy, Some(input::step_aside))
}

fn run_with(input: impl BufRead + Send + 'static, out: Output, greedy: bool, yield_to_input: Option<fn()>) {
    let mut uci = Uci::new(out);
    uci.engine.options.greedy = greedy;
    uci.engine.options.yield_to_input = yield_to_input;
    // When each line read and not yet taken by this loop was read, oldest
    // first. (A line being handled counts as taken: if it is a `go`, a
    // `stop` behind it stops either the search it starts or, harmlessly,
    // the one before, and then the loop's own handling of that `stop` stops
    // the new one.)
    let arrivals: Arc<Mutex<VecDeque<Instant>>> = Arc::default();
    let arrived = Arc::clone(&arrivals);
    let stopper = uci.engine.stop_handle();
    let on_line = move |line: &str| {
        let mut waiting = arrived.lock().unwrap_or_else(PoisonError::into_inner);
        if line.trim() == "stop" && waiting.is_empty() {
            stopper.stop();
        }
        waiting.push_back(Instant::now());
    };
    let Ok(lines) = spawn_line_reader_with(input, "uci-input", on_line) else {
        uci.out.info_string("cannot start the input thread");
        return;
    };
    loop {
        let next = if uci.has_deferred() {
            match lines.recv_timeout(Duration::from_millis(2)) {
                Ok(line) => Some(line),
                Err(RecvTimeoutError::Timeout) => {
                    uci.run_deferred();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => None,
            }
        } else {
            lines.recv().ok()
        };
        match next {
            Some(line) => {
                let received = arrivals.lock().unwrap_or_else(PoisonError::into_inner).pop_front();
                if !uci.handle_line_received(&line, received) {
                    return;
                }
            }
            None => break,
        }
    }
    // End of input: the GUI is gone. Stop like `quit`.
    uci.engine.stop();
}

/// Starts a thread (named `name`) that reads `input` line by line and sends
/// each line, newline included and read lossily as UTF-8, on the returned
/// channel; the channel closes at end of input or on a read error. Used for
/// the engine's own input and, by the tools, for another engine's output,
/// so that every wait for a line can have a deadline.
pub fn spawn_line_reader(input: impl BufRead + Send + 'static, name: &str) -> std::io::Result<Receiver<String>> {
    spawn_line_reader_with(input, name, |_| {})
}

/// As [`spawn_line_reader`], calling `on_line` with each line, in the
/// reader thread, before it is sent.
pub fn spawn_line_reader_with(
    input: impl BufRead + Send + 'static,
    name: &str,
    mut on_line: impl FnMut(&str) + Send + 'static,
) -> std::io::Result<Receiver<String>> {
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::Builder::new().name(name.to_string()).spawn(move || {
        let mut input = input;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).into_owned();
                    on_line(&line);
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    })?;
    Ok(rx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_runs_from_when_go_arrived() {
        // A go that arrived 10 s before the engine took it has spent those
        // 10 s of its clock already.
        let mut uci = Uci::new(Output::new(Box::new(std::io::sink())));
        let Some(ten_seconds_ago) = Instant::now().checked_sub(Duration::from_secs(10)) else { return };
        uci.handle_line_received("go infinite", Some(ten_seconds_ago));
        let clock = uci.engine.clock_ms().expect("a search runs");
        uci.handle_line("stop");
        assert!(clock >= 10_000, "{clock} ms");
    }
}
