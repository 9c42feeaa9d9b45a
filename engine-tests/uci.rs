//! The UCI front end, driven over a real process: the built `fission`
//! binary on stdin/stdout.
//!
//! Reads have a generous watchdog (a hang fails the test instead of blocking
//! CI); no test asserts how fast anything is.

mod common;

use fission::uci::notation::parse_move;
use fission::{Atomic, Board, Chess, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

const WATCHDOG: Duration = Duration::from_secs(60);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fission"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start fission");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines: rx }
    }

    fn send(&mut self, s: &str) {
        let w = self.stdin.as_mut().expect("stdin open");
        w.write_all(s.as_bytes()).unwrap();
        w.write_all(b"\n").unwrap();
        w.flush().unwrap();
    }

    fn send_bytes(&mut self, b: &[u8]) {
        let w = self.stdin.as_mut().expect("stdin open");
        w.write_all(b).unwrap();
        w.flush().unwrap();
    }

    fn line(&self) -> String {
        self.lines.recv_timeout(WATCHDOG).expect("engine answered before the watchdog")
    }

    /// Reads lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.line();
            let done = l.starts_with(prefix);
            out.push(l);
            if done {
                return out;
            }
        }
    }

    fn bestmove(&self) -> (String, Vec<String>) {
        let lines = self.until("bestmove");
        let last = lines.last().unwrap().clone();
        let mv = last.split_whitespace().nth(1).unwrap().to_string();
        (mv, lines)
    }

    fn close_and_wait(mut self) -> std::process::ExitStatus {
        self.stdin.take();
        for _ in 0..600 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        panic!("engine did not exit after stdin closed");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn assert_legal<V: Variant>(fen: Option<&str>, moves: &[&str], best: &str) {
    let mut b: Board = V::from_fen(fen.unwrap_or(V::start_fen())).unwrap();
    for m in moves {
        let mv = parse_move::<V>(&b, m).unwrap();
        b = V::play(&b, mv);
    }
    assert!(parse_move::<V>(&b, best).is_some(), "{best} is not legal in {}", b.fen());
}

#[test]
fn handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines[0].starts_with("id name Fission "));
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    let combo = lines.iter().find(|l| l.starts_with("option name UCI_Variant type combo")).expect("variant option");
    assert!(combo.contains("default chess"));
    assert!(combo.contains("var chess") && combo.contains("var atomic") && combo.contains("var push"));
    for name in ["Threads", "Hash", "Clear Hash", "Ponder", "MultiPV", "Move Overhead"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {name} type"))), "{name}");
    }
    e.send("isready");
    assert_eq!(e.line(), "readyok");
    e.send("quit");
    assert!(e.close_and_wait().success());
}

#[test]
fn variant_switch_resets_position_and_explodes() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("setoption name UCI_Variant value atomic");
    e.send("d");
    let lines = e.until("Checkers:");
    assert!(lines.iter().any(|l| l == &format!("Fen: {}", Board::STARTPOS)), "{lines:?}");
    // 1. Nf3 f6 2. Ne5 a6 3. Nxd7: the knight, the d7 pawn, and the bishop,
    // queen and king next to d7 explode; Black has lost.
    e.send("position startpos moves g1f3 f7f6 f3e5 a7a6 e5d7");
    e.send("d");
    let lines = e.until("Checkers:");
    let fen = lines.iter().find(|l| l.starts_with("Fen: ")).unwrap();
    assert_eq!(fen, "Fen: rn3bnr/1pp1p1pp/p4p2/8/8/8/PPPPPPPP/RNBQKB1R b KQ - 0 3");
    e.send("go depth 3");
    let (best, lines) = e.bestmove();
    assert_eq!(best, "(none)");
    assert!(lines.iter().any(|l| l == "info depth 0 score mate 0"));
    e.send("setoption name UCI_Variant value nosuchvariant");
    let l = e.line();
    assert!(l.starts_with("info string Invalid value for option UCI_Variant"), "{l}");
    // Still atomic: a search from the start returns an atomic move.
    e.send("position startpos moves g1f3 f7f6");
    e.send("go depth 4");
    let (best, _) = e.bestmove();
    assert_legal::<Atomic>(None, &["g1f3", "f7f6"], &best);
}

#[test]
fn go_depth_and_movetime_return_legal_moves() {
    let mut e = Engine::start();
    let moves = ["e2e4", "c7c5", "g1f3"];
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go depth 6");
    let (best, lines) = e.bestmove();
    assert_legal::<Chess>(None, &moves, &best);
    assert!(lines.iter().any(|l| l.starts_with("info depth 6 ")), "{lines:?}");
    let info = lines.iter().rev().find(|l| l.starts_with("info depth")).unwrap();
    for field in ["seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv"] {
        assert!(info.split_whitespace().any(|t| t == field), "{field} missing in {info}");
    }
    e.send("go movetime 200");
    let (best, _) = e.bestmove();
    assert_legal::<Chess>(None, &moves, &best);
    e.send("go wtime 1000 btime 1000 winc 10 binc 10");
    let (best, _) = e.bestmove();
    assert_legal::<Chess>(None, &moves, &best);
    e.send("go nodes 5000");
    let (best, _) = e.bestmove();
    assert_legal::<Chess>(None, &moves, &best);
}

#[test]
fn infinite_stops_on_stop_and_answers_isready_meanwhile() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value atomic");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let lines = e.until("readyok");
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "bestmove before stop: {lines:?}");
    e.send("stop");
    let (best, _) = e.bestmove();
    assert_legal::<Atomic>(None, &[], &best);
    // Ponder: no bestmove until ponderhit, then a normal timed search.
    e.send("go ponder wtime 500 btime 500");
    std::thread::sleep(Duration::from_millis(700));
    e.send("isready");
    let lines = e.until("readyok");
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "bestmove while pondering: {lines:?}");
    e.send("ponderhit");
    let (best, _) = e.bestmove();
    assert_legal::<Atomic>(None, &[], &best);
}

#[test]
fn game_over_gives_bestmove_none() {
    let mut e = Engine::start();
    // Fool's mate.
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go depth 5");
    let (best, lines) = e.bestmove();
    assert_eq!(best, "(none)");
    assert!(lines.iter().any(|l| l == "info depth 0 score mate 0"));
    // Atomic: a lone queen mates (the king may not take it).
    e.send("setoption name UCI_Variant value atomic");
    e.send("position fen 8/8/6Qk/8/8/8/8/4K3 b - - 0 1");
    e.send("go depth 3");
    assert_eq!(e.bestmove().0, "(none)");
}

#[test]
fn finds_mate_in_one() {
    let mut e = Engine::start();
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    e.send("go depth 4");
    let (best, lines) = e.bestmove();
    assert_eq!(best, "a1a8");
    assert!(lines.iter().any(|l| l.contains("score mate 1")));
}

#[test]
fn go_perft_matches_suites() {
    let mut e = Engine::start();
    for (variant, file) in [("chess", "chess.perft"), ("atomic", "atomic.perft"), ("push", "push.perft")] {
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        for entry in common::load_suite(file).iter().take(12) {
            let Some(&(d, n)) = entry.counts.iter().rfind(|&&(_, n)| n < 300_000) else {
                continue;
            };
            e.send(&format!("position fen {}", entry.fen));
            e.send(&format!("go perft {d}"));
            let lines = e.until("Nodes searched:");
            let total: u64 = lines.last().unwrap()["Nodes searched: ".len()..].parse().unwrap();
            assert_eq!(total, n, "{} {}", variant, entry.id);
            assert_eq!(lines[lines.len() - 2], "", "blank line before the total");
            let sum: u64 =
                lines[..lines.len() - 2].iter().map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap()).sum();
            assert_eq!(sum, n);
        }
    }
}

#[test]
fn quits_when_stdin_closes_even_while_searching() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let status = e.close_and_wait();
    assert!(status.success());
}

#[test]
fn multipv_reports_several_lines() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 5");
    let (_, lines) = e.bestmove();
    for k in 1..=3 {
        assert!(lines.iter().any(|l| l.starts_with("info depth 5 ") && l.contains(&format!(" multipv {k} "))), "{k}");
    }
}

/// A scripted hostile session: nothing may crash, hang or lose state.
#[test]
fn hostile_session_keeps_running_and_keeps_state() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    let hostile: &[&str] = &[
        "",
        "   \t  ",
        "xyzzy",
        "go perft",
        "go perft 999999999999999999999",
        "position",
        "position fen",
        "position fen 8/8/8 w",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e5",
        "position startpos moves e7e5",
        "position startpos moves e2e4 e2e4",
        "position startpos moves e2",
        "setoption",
        "setoption name",
        "setoption name Hash value -5",
        "setoption name Hash value 1000000000",
        "setoption name Threads value abc",
        "setoption name MultiPV value 0",
        "setoption name Ponder value maybe",
        "setoption name NoSuchOption value 3",
        "debug sideways",
        "go depth -3 nodes 99999999999999999999999999",
        "stop",
        "ponderhit",
        "bench 0",
        "isready now",
    ];
    for l in hostile {
        e.send(l);
    }
    e.send_bytes(b"\xff\xfe\x00garbage\r\n");
    e.send_bytes(b"isready\r\n");
    let lines = e.until("readyok");
    for expected in [
        "info string Unknown command: 'xyzzy'",
        "info string Illegal move: e2e5",
        "info string Illegal move: e7e5",
        "info string No such option: NoSuchOption",
    ] {
        assert!(lines.iter().any(|l| l == expected), "missing {expected:?} in {lines:?}");
    }
    assert!(lines.iter().any(|l| l.starts_with("info string Invalid FEN")), "{lines:?}");
    // The position set before the hostile lines is still there.
    e.send("d");
    let lines = e.until("Checkers:");
    assert!(lines.iter().any(|l| l == "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), "{lines:?}");
    e.send("go depth 4");
    let (best, _) = e.bestmove();
    assert_legal::<Chess>(None, &["e2e4"], &best);
    e.send("quit");
    assert!(e.close_and_wait().success());
}

#[test]
fn push_games_play_through_uci() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value push");
    // Ra6-a3 pushes the bishop to a2.
    e.send("position fen 4k3/8/R7/8/8/B7/8/4K3 w - - 0 1 moves a6a3");
    e.send("d");
    let lines = e.until("Checkers:");
    assert!(lines.iter().any(|l| l == "Fen: 4k3/8/8/8/8/R7/B7/4K3 b - - 1 1"), "{lines:?}");
    // Check by a push: the bishop on d4 would shove the knight onto f6.
    e.send("position fen 8/8/5k2/4N3/3B4/8/8/K7 b - - 0 1");
    e.send("d");
    let lines = e.until("Checkers:");
    assert_eq!(lines.last().unwrap(), "Checkers: d4");
    e.send("position startpos moves d1d2");
    e.send("go depth 4");
    let (best, _) = e.bestmove();
    assert_legal::<fission::Push>(None, &["d1d2"], &best);
}

#[test]
fn dynamo_turns_play_through_uci() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines.iter().any(|l| l.starts_with("option name UCI_Variant") && l.contains("var dynamo")));
    e.send("setoption name UCI_Variant value dynamo");
    e.send("d");
    let lines = e.until("Checkers:");
    assert!(lines.iter().any(|l| l == "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -"), "{lines:?}");
    // The knight g1 pushes e2 to c3 and follows; then Black's bishop exits.
    e.send("position startpos moves e2c3,g1e2 f8--");
    e.send("d");
    let lines = e.until("Checkers:");
    let fen = lines.iter().find(|l| l.starts_with("Fen: ")).unwrap();
    assert_eq!(fen, "Fen: rnbqk1nr/pppppppp/8/8/8/2P5/PPPPNPPP/RNBQKB1R w 2 ahah -/bbf8");
    e.send("go depth 2");
    let (best, _) = e.bestmove();
    let b = fission::Dynamo::from_fen("rnbqk1nr/pppppppp/8/8/8/2P5/PPPPNPPP/RNBQKB1R w 2 ahah -/bbf8").unwrap();
    assert!(parse_move::<fission::Dynamo>(&b, &best).is_some(), "{best}");
    // Game over by the site's rule: the only escape pushes the enemy king.
    e.send("position fen 8/8/8/8/8/8/6k1/7K w 0 iiii -");
    e.send("go depth 3");
    let (best, lines) = e.bestmove();
    assert_eq!(best, "(none)");
    assert!(lines.iter().any(|l| l == "info depth 0 score mate 0"));
    e.send("go perft 2");
    let lines = e.until("Nodes searched:");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 0");
}
