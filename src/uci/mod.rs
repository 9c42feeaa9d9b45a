//! The UCI front end: reads commands on one thread (the caller's, which
//! owns the input), runs searches on others, and prints everything through
//! one locked [`Output`] so lines never interleave.
//!
//! Bad input never ends the session: an unknown command, a malformed FEN, an
//! illegal move or a bad option value gets an `info string` saying so, and
//! the engine keeps its previous state.

pub mod command;
pub mod notation;
pub mod options;

use crate::bench;
use crate::engine::Engine;
use crate::search::score::{UciScore, uci_score};
use crate::search::{Limits, PvInfo, Reporter, ScoreBound};
use crate::timeman::Clock;
use crate::types::{Bitboard, File, Rank, Square};
use crate::variant::Outcome;
use crate::with_variant;
use command::{Command, Go, ParseError};
use notation::move_to_uci;
use options::OptionChange;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

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

    pub fn info_string(&self, s: &str) {
        self.line(&format!("info string {s}"));
    }
}

/// Formats search reports as `info` lines.
struct UciReporter {
    out: Output,
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
            ScoreBound::Exact => "",
            ScoreBound::Lower => " lowerbound",
            ScoreBound::Upper => " upperbound",
        };
        let pv: Vec<String> = i.pv.iter().map(|&m| move_to_uci(m)).collect();
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
        self.out.line(&format!("info depth {depth} currmove {} currmovenumber {number}", move_to_uci(mv)));
    }
}

/// The UCI session state.
pub struct Uci {
    engine: Engine,
    out: Output,
    debug: bool,
}

impl Uci {
    pub fn new(out: Output) -> Uci {
        Uci { engine: Engine::new(), out, debug: false }
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Handles one input line. Returns `false` when the session should end.
    pub fn handle_line(&mut self, line: &str) -> bool {
        match command::parse(line) {
            Ok(Command::Quit) => {
                self.engine.stop();
                return false;
            }
            Ok(cmd) => self.handle(cmd),
            Err(ParseError::Empty) => {}
            Err(e) => self.out.info_string(&e.to_string()),
        }
        true
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
            Command::Stop => self.engine.request_stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Display => self.display(),
            Command::Eval => {
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
            OptionChange::Threads(n) => {
                self.engine.wait();
                self.engine.options.threads = n;
            }
            OptionChange::MultiPv(n) => self.engine.options.multipv = n,
            OptionChange::Ponder(_) => {}
            OptionChange::MoveOverhead(ms) => self.engine.options.move_overhead = ms,
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
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match legal.iter().find(|&&m| move_to_uci(m) == *text) {
                Some(&m) => searchmoves.push(m),
                None => self.out.info_string(&format!("ignoring searchmoves {text}: not a legal move")),
            }
        }
        if legal.is_empty() {
            // Game over: report it the way Stockfish does, then `(none)`.
            let lost = with_variant!(self.engine.variant(), V => {
                matches!(<V as crate::variant::Variant>::outcome(self.engine.board()), Some(Outcome::Decisive { .. }))
            });
            self.out.line(&format!("info depth 0 score {}", if lost { "mate 0" } else { "cp 0" }));
            self.out.line("bestmove (none)");
            return;
        }
        let limits = Limits {
            clock: Clock {
                wtime: go.wtime,
                btime: go.btime,
                winc: go.winc,
                binc: go.binc,
                movestogo: go.movestogo,
                movetime: go.movetime,
            },
            depth: go.depth,
            nodes: go.nodes,
            mate: go.mate,
            infinite: go.infinite,
            ponder: go.ponder,
            searchmoves,
        };
        let out = self.out.clone();
        let reporter = Arc::new(UciReporter { out: self.out.clone() });
        self.engine.go(
            limits,
            reporter,
            Box::new(move |r| match r.best {
                Some(best) => match r.ponder {
                    Some(p) => out.line(&format!("bestmove {} ponder {}", move_to_uci(best), move_to_uci(p))),
                    None => out.line(&format!("bestmove {}", move_to_uci(best))),
                },
                None => out.line("bestmove (none)"),
            }),
        );
    }

    fn perft(&mut self, depth: u32) {
        self.engine.stop();
        let counts = self.engine.divide(depth.max(1));
        let mut total = 0;
        if depth == 0 {
            total = 1;
        } else {
            for (m, n) in &counts {
                self.out.line(&format!("{}: {n}", move_to_uci(*m)));
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
        self.out.line(&format!("Fen: {}", self.engine.fen()));
        self.out.line(&format!("Key: {:016X}", b.key()));
        let checkers: Bitboard = self.engine.checkers();
        let list: Vec<String> = checkers.into_iter().map(|sq| sq.to_string()).collect();
        self.out.line(&format!("Checkers: {}", list.join(" ")));
    }
}

/// Runs a UCI session on `input` until `quit` or end of input. Lines that
/// are not valid UTF-8 are read lossily (and then rejected as unknown).
pub fn run(mut input: impl BufRead, out: Output, greedy: bool) {
    let mut uci = Uci::new(out);
    uci.engine.options.greedy = greedy;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if !uci.handle_line(&line) {
                    return;
                }
            }
        }
    }
    // End of input: the GUI is gone. Stop like `quit`.
    uci.engine.stop();
}
