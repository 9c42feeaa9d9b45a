//! The UCI front end, driven over a real process: the built `fission`
//! binary on stdin/stdout.
//!
//! Reads have a generous watchdog (a hang fails the test instead of blocking
//! CI); no test asserts how fast anything is.

use crate::common;

use fission::notation::parse_move;
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
    assert!(lines.iter().any(|l| l == "Variant: atomic"), "d names the variant: {lines:?}");
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

/// Lines that arrive within `wait` (none is an empty list).
fn lines_within(e: &Engine, wait: Duration) -> Vec<String> {
    let mut out = Vec::new();
    let end = std::time::Instant::now() + wait;
    while let Some(left) = end.checked_duration_since(std::time::Instant::now()) {
        match e.lines.recv_timeout(left) {
            Ok(l) => out.push(l),
            Err(_) => break,
        }
    }
    out
}

#[test]
fn huge_depth_and_mate_limits_mean_no_limit() {
    let mut e = Engine::start();
    for go in ["go depth 2147483648", "go depth 4294967295", "go depth 999999999999999999", "go mate 2147483648"] {
        e.send("position startpos");
        e.send(go);
        // Not an instant depth-1 answer: the search reaches depth 5 first
        // (read until then, with no clock involved).
        let mut seen = Vec::new();
        loop {
            let l = e.line();
            assert!(!l.starts_with("bestmove"), "{go}: answered early: {seen:?} {l}");
            let done = l.starts_with("info depth 5 ");
            seen.push(l);
            if done {
                break;
            }
        }
        e.send("stop");
        e.bestmove();
    }
}

#[test]
fn infinite_search_waits_for_stop_whatever_comes_meanwhile() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    for cmd in [
        "setoption name Hash value 64",
        "setoption name Threads value 2",
        "ucinewgame",
        "setoption name UCI_Variant value atomic",
        "bench 1",
        "position startpos moves e2e4",
        "go perft 1",
    ] {
        e.send(cmd);
    }
    e.send("isready");
    let lines = e.until("readyok");
    let lines2 = lines_within(&e, Duration::from_millis(300));
    assert!(
        !lines.iter().chain(lines2.iter()).any(|l| l.starts_with("bestmove") || l.starts_with("Nodes searched")),
        "answered before stop: {lines:?} {lines2:?}"
    );
    e.send("stop");
    let (best, _) = e.bestmove();
    // The search was of the chess start position; then the deferred
    // commands ran in order: atomic, e2e4, and a perft of black's replies.
    assert_legal::<Chess>(None, &[], &best);
    e.until("Nodes searched"); // the bench
    let perft = e.until("Nodes searched");
    assert!(perft.iter().any(|l| l == "Nodes searched: 20"), "{perft:?}");
    e.send("d");
    let shown = e.until("Fen:");
    assert_eq!(shown.last().unwrap(), "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    // Still atomic: a capture explodes.
    e.send("position startpos moves e2e4 d7d5 e4d5");
    e.send("d");
    let shown = e.until("Fen:");
    assert_eq!(shown.last().unwrap(), "Fen: rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
}

#[test]
fn infinite_search_of_a_finished_game_waits_for_stop() {
    let mut e = Engine::start();
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go infinite");
    e.send("isready");
    let lines = e.until("readyok");
    let later = lines_within(&e, Duration::from_millis(300));
    assert!(!lines.iter().chain(later.iter()).any(|l| l.starts_with("bestmove")), "{lines:?} {later:?}");
    e.send("stop");
    assert_eq!(e.bestmove().0, "(none)");
    // Pondering on a stalemate: released by ponderhit.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go ponder wtime 1000 btime 1000");
    let early = lines_within(&e, Duration::from_millis(300));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "{early:?}");
    e.send("ponderhit");
    assert_eq!(e.bestmove().0, "(none)");
    // An ordinary go still answers at once.
    e.send("go depth 3");
    assert_eq!(e.bestmove().0, "(none)");
}

#[test]
fn many_threads_answer_timed_and_stopped_searches() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 256");
    e.send("isready");
    e.until("readyok");
    e.send("position startpos");
    // 256 threads on a small machine still answer a timed search, with a
    // legal move (how late is measured outside the tests: no clock here).
    e.send("go movetime 500");
    let (best, _) = e.bestmove();
    assert_legal::<Chess>(None, &[], &best);
    // The same threads serve search after search: infinite searches that
    // answer each stop (and isready meanwhile), across a new game.
    for round in 0..4 {
        if round == 2 {
            e.send("ucinewgame");
        }
        e.send("position startpos moves e2e4");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(100));
        e.send("isready");
        let lines = e.until("readyok");
        assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "bestmove before stop: {lines:?}");
        e.send("stop");
        let (best, _) = e.bestmove();
        assert_legal::<Chess>(None, &["e2e4"], &best);
    }
    e.send("setoption name Threads value 3");
    e.send("go depth 6");
    let (best, _) = e.bestmove();
    assert_legal::<Chess>(None, &["e2e4"], &best);
}

#[test]
fn control_characters_are_escaped_in_echoed_text() {
    let mut e = Engine::start();
    e.send_bytes(b"foo\rbar\x00baz\x1b[2J\tq\n");
    e.send("position fen 8/8/8/8/8/8/8/8\r\x07 w - - 0 1");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(lines.contains(&r"info string Unknown command: 'foo\rbar\x00baz\x1b[2J\tq'".to_string()), "{lines:?}");
    for l in &lines {
        assert!(!l.chars().any(|c| c.is_control()), "raw control character in {l:?}");
    }
}

#[test]
fn a_huge_hash_is_ready_without_delay_and_still_works() {
    let mut e = Engine::start();
    e.send("setoption name Hash value 1024");
    e.send("ucinewgame");
    e.send("setoption name Clear Hash");
    e.send("isready");
    e.until("readyok");
    e.send("position startpos");
    e.send("go depth 8");
    let (best, _) = e.bestmove();
    assert_legal::<Chess>(None, &[], &best);
}

#[test]
fn a_game_resent_move_by_move_gives_the_same_positions() {
    let mut e = Engine::start();
    let fen_of = |e: &mut Engine, cmd: &str| {
        e.send(cmd);
        e.send("d");
        e.until("Fen:").last().unwrap().clone()
    };
    assert_eq!(
        fen_of(&mut e, "position startpos moves e2e4 e7e5"),
        "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(
        fen_of(&mut e, "position startpos moves e2e4 e7e5 g1f3"),
        "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    // A different game, a shorter one, an illegal continuation (refused, state kept).
    assert_eq!(
        fen_of(&mut e, "position startpos moves d2d4"),
        "Fen: rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(fen_of(&mut e, "position startpos"), "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    e.send("position startpos moves e2e4 e7e5 e1e3");
    assert_eq!(fen_of(&mut e, "isready"), "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // Knights out and back, one move per command: counters run on.
    let mut moves = String::from("position startpos moves");
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        moves.push(' ');
        moves.push_str(m);
        e.send(&moves);
    }
    assert_eq!(fen_of(&mut e, "isready"), "Fen: rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 7 4");
}

#[test]
fn chess960_castling_over_uci() {
    let mut e = Engine::start();
    let handshake = {
        e.send("uci");
        e.until("uciok")
    };
    assert!(handshake.contains(&"option name UCI_Chess960 type check default false".to_string()));
    let fen = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w KQkq - 0 1";
    let divide = |e: &mut Engine| {
        e.send("go perft 1");
        e.until("Nodes searched")
    };
    // Off: these rights are not orthodox, so they are dropped.
    e.send(&format!("position fen {fen}"));
    assert!(!divide(&mut e).iter().any(|l| l.starts_with("f1b1") || l.starts_with("f1g1")));
    for variant in ["chess", "atomic"] {
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send("setoption name UCI_Chess960 value true");
        e.send(&format!("position fen {fen}"));
        let lines = divide(&mut e);
        // Castling is king takes own rook; f1g1 is castling (the rook stands on g1).
        assert!(lines.contains(&"f1b1: 1".to_string()) && lines.contains(&"f1g1: 1".to_string()), "{lines:?}");
        e.send(&format!("position fen {fen} moves f1b1"));
        e.send("d");
        assert_eq!(e.until("Fen:").last().unwrap(), "Fen: 1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1 b kq - 1 1");
        e.send(&format!("position fen {fen} moves f1g1 f8g8"));
        e.send("d");
        assert_eq!(e.until("Fen:").last().unwrap(), "Fen: 1r3rk1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - - 2 2");
        // The search answers in the same notation.
        e.send(&format!("position fen {fen}"));
        e.send("go depth 3 searchmoves f1b1");
        assert_eq!(e.bestmove().0, "f1b1");
        e.send("setoption name UCI_Chess960 value false");
    }
}

#[test]
fn searchmoves_are_read_by_the_move_parser() {
    let mut e = Engine::start();
    e.send("position fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    // Castling spelled king takes rook is understood in searchmoves too.
    e.send("go depth 3 searchmoves e1h1");
    assert_eq!(e.bestmove().0, "e1g1");
    e.send("go depth 3 searchmoves e1a1 zz99");
    let (best, lines) = e.bestmove();
    assert_eq!(best, "e1c1");
    assert!(lines.iter().any(|l| l == "info string ignoring searchmoves zz99: not a legal move"), "{lines:?}");
}

/// A valid atomic network file with random weights in the trained ranges.
fn random_net_file(dir: &common::TempDir, seed: u64) -> (String, fission::nnue::network::Network) {
    random_net_file_for(dir, seed, fission::VariantKind::Atomic)
}

/// A valid network file for `variant` with random weights in the trained ranges.
fn random_net_file_for(
    dir: &common::TempDir,
    seed: u64,
    variant: fission::VariantKind,
) -> (String, fission::nnue::network::Network) {
    use fission::nnue::network::Network;
    let net = Network::random(variant, 128, seed);
    let path = dir.file(&format!("random-{variant}-{seed}.fnn"));
    std::fs::write(&path, net.to_bytes()).unwrap();
    (path, net)
}

/// A net with king input buckets (file format version 3) loads by
/// `EvalFile`, is named with its buckets, evaluates as the library does
/// from a fresh accumulator, and plays: a search from an ending where the
/// kings walk across buckets answers with a legal move.
#[test]
fn a_king_bucketed_net_loads_and_plays() {
    use fission::VariantKind;
    use fission::nnue::network::{KingMap, Network};
    let dir = common::TempDir::new("kingnet");
    let net = Network::random_with(VariantKind::Atomic, KingMap::named("quad-mirror").unwrap(), 64, 2, 3);
    let path = dir.file("kings.fnn");
    std::fs::write(&path, net.to_bytes()).unwrap();
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("setoption name UCI_Variant value atomic");
    e.send(&format!("setoption name EvalFile value {path}"));
    let shape = "atomic network, 3072x64, 2 output buckets, 4 king buckets (mirrored)";
    assert_eq!(e.line(), format!("info string EvalFile: using {path}, {shape}"));
    let fen = "8/2k5/3p4/8/8/4P3/3K4/8 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    let b = Atomic::from_fen(fen).unwrap();
    let expected = net.evaluate(&net.refresh(&b), &b);
    assert_eq!(eval_and_name(&mut e), (expected, format!("{path}, {shape}")));
    e.send("go depth 8");
    assert_legal::<Atomic>(Some(fen), &[], &e.bestmove().0);
}

fn eval_of(e: &mut Engine) -> i32 {
    eval_and_name(e).0
}

/// The `eval` command's score and the evaluation it names.
fn eval_and_name(e: &mut Engine) -> (i32, String) {
    e.send("eval");
    let lines = e.until("Static evaluation:");
    let score = lines.last().unwrap().split_whitespace().nth(2).unwrap().parse().unwrap();
    let name = lines.iter().rev().find_map(|l| l.strip_prefix("Evaluation: ")).expect("eval names the evaluation");
    (score, name.to_string())
}

#[test]
fn eval_file_and_use_nnue() {
    let dir = common::TempDir::new("evalfile");
    let (path, net) = random_net_file(&dir, 17);
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines.contains(&"option name Use NNUE type check default true".to_string()));
    assert!(lines.contains(&"option name EvalFile type string default <default>".to_string()));
    e.send("setoption name UCI_Variant value atomic");
    e.send("position startpos moves e2e4 d7d5 g1f3");
    let mut b = Atomic::from_fen(Atomic::start_fen()).unwrap();
    for m in ["e2e4", "d7d5", "g1f3"] {
        b = Atomic::play(&b, parse_move::<Atomic>(&b, m).unwrap());
    }
    // The embedded atomic network by default, the classical evaluation without NNUE.
    let embedded = fission::nnue::default_net(fission::VariantKind::Atomic).expect("an embedded atomic network");
    let embedded_eval = embedded.evaluate(&embedded.refresh(&b), &b);
    assert_eq!(eval_of(&mut e), embedded_eval);
    e.send("setoption name Use NNUE value false");
    let classical = eval_of(&mut e);
    assert_eq!(classical, <Atomic as fission::eval::Evaluate>::evaluate_classical(&b));
    e.send("setoption name Use NNUE value true");

    e.send(&format!("setoption name EvalFile value {path}"));
    let msg = e.line();
    assert!(msg.starts_with("info string EvalFile: using") && msg.contains("atomic network, 768x128"), "{msg}");
    let expected = net.evaluate(&net.refresh(&b), &b);
    assert_eq!(eval_of(&mut e), expected);
    e.send("setoption name Use NNUE value false");
    assert_eq!(eval_of(&mut e), classical);
    e.send("setoption name Use NNUE value true");

    // Bad files are reported; the network stays.
    let bad = dir.file("bad.fnn");
    std::fs::write(&bad, &net.to_bytes()[..1000]).unwrap();
    for file in ["/nonexistent/net.fnn", bad.as_str()] {
        e.send(&format!("setoption name EvalFile value {file}"));
        let msg = e.line();
        assert!(msg.starts_with("info string EvalFile:") && msg.contains("; keeping "), "{msg}");
        assert_eq!(eval_of(&mut e), expected);
    }
    e.send("go depth 6");
    let (best, _) = e.bestmove();
    assert_legal::<Atomic>(None, &["e2e4", "d7d5", "g1f3"], &best);

    // An atomic network does not evaluate chess: chess has its own
    // embedded net, and its classical evaluation without NNUE.
    e.send("setoption name UCI_Variant value chess");
    let chess_start = Chess::from_fen(Board::STARTPOS).unwrap();
    let chess_net = fission::nnue::default_net(fission::VariantKind::Chess).expect("an embedded chess network");
    assert_eq!(eval_of(&mut e), chess_net.evaluate(&chess_net.refresh(&chess_start), &chess_start));
    e.send("setoption name Use NNUE value false");
    assert_eq!(eval_of(&mut e), <Chess as fission::eval::Evaluate>::evaluate_classical(&chess_start));
    e.send("setoption name Use NNUE value true");
    e.send("setoption name UCI_Variant value atomic");
    e.send("position startpos moves e2e4 d7d5 g1f3");
    e.send("setoption name EvalFile value <default>");
    assert!(e.line().contains("embedded"));
    assert_eq!(eval_of(&mut e), embedded_eval);
    e.send("quit");
    assert!(e.close_and_wait().success());
}

/// `EvalFile` is per variant: a net applies only to its own variant, a net
/// of another variant is refused (the current evaluation stays and the
/// engine plays on), and each variant keeps its own net across
/// `UCI_Variant` changes. `eval` names the evaluation in use.
#[test]
fn eval_files_are_per_variant_and_named() {
    use fission::VariantKind;
    let dir = common::TempDir::new("evalfiles");
    let (atomic_path, atomic_net) = random_net_file_for(&dir, 5, VariantKind::Atomic);
    let (chess_path, chess_net) = random_net_file_for(&dir, 6, VariantKind::Chess);
    let chess_start = Chess::from_fen(Board::STARTPOS).unwrap();
    let atomic_start = Atomic::from_fen(Atomic::start_fen()).unwrap();
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");

    // The names: embedded, classical by choice, classical for want of a net.
    e.send("setoption name UCI_Variant value atomic");
    let (_, name) = eval_and_name(&mut e);
    let net = fission::nnue::default_net(VariantKind::Atomic).expect("an embedded atomic network");
    // The shape's wording is checked against a literal in
    // `a_king_bucketed_net_loads_and_plays`; here: the embedded net is the one named.
    let shape = fission::eval::Evaluation::Nnue(net).describe();
    assert_eq!(name, format!("atomic.fnn (embedded), {shape}"));
    e.send("setoption name Use NNUE value false");
    assert_eq!(eval_and_name(&mut e).1, "classical (Use NNUE is off)");
    e.send("setoption name Use NNUE value true");

    // An atomic net while playing atomic; then a chess net is refused.
    e.send(&format!("setoption name EvalFile value {atomic_path}"));
    assert_eq!(e.line(), format!("info string EvalFile: using {atomic_path}, atomic network, 768x128"));
    let atomic_eval = atomic_net.evaluate(&atomic_net.refresh(&atomic_start), &atomic_start);
    assert_eq!(eval_and_name(&mut e), (atomic_eval, format!("{atomic_path}, atomic network, 768x128")));
    e.send(&format!("setoption name EvalFile value {chess_path}"));
    let msg = e.line();
    assert_eq!(
        msg,
        format!(
            "info string EvalFile: {chess_path} is a network for chess, and the variant is atomic \
             (set UCI_Variant first); keeping {atomic_path}, atomic network, 768x128"
        )
    );
    assert_eq!(eval_of(&mut e), atomic_eval, "the refused net changed nothing");
    e.send("go depth 4");
    assert_legal::<Atomic>(None, &[], &e.bestmove().0);

    // Chess: its own embedded net (or the classical evaluation in a build
    // without one), never the atomic net.
    e.send("setoption name UCI_Variant value chess");
    let (chess_default_eval, name) = eval_and_name(&mut e);
    let chess_default = fission::nnue::default_net(VariantKind::Chess);
    match &chess_default {
        Some(net) => assert_eq!(name, format!("chess.fnn (embedded), chess network, 768x{}", net.hidden())),
        None => assert_eq!(name, "classical (no network for chess)"),
    }
    e.send(&format!("setoption name EvalFile value {atomic_path}"));
    assert!(e.line().contains("is a network for atomic, and the variant is chess"));
    e.send(&format!("setoption name EvalFile value {chess_path}"));
    assert_eq!(e.line(), format!("info string EvalFile: using {chess_path}, chess network, 768x128"));
    let chess_eval = chess_net.evaluate(&chess_net.refresh(&chess_start), &chess_start);
    assert_eq!(eval_of(&mut e), chess_eval);
    e.send("go depth 4");
    assert_legal::<Chess>(None, &[], &e.bestmove().0);

    // Each variant kept its own net.
    e.send("setoption name UCI_Variant value atomic");
    assert_eq!(eval_and_name(&mut e), (atomic_eval, format!("{atomic_path}, atomic network, 768x128")));
    e.send("setoption name UCI_Variant value chess");
    assert_eq!(eval_of(&mut e), chess_eval);
    // `<default>` resets the current variant only.
    e.send("setoption name EvalFile value <default>");
    e.line();
    assert_eq!(eval_of(&mut e), chess_default_eval);
    e.send("setoption name UCI_Variant value atomic");
    assert_eq!(eval_of(&mut e), atomic_eval);
    e.send("quit");
    assert!(e.close_and_wait().success());
}

/// Under `go infinite` or `go ponder` no `bestmove` comes before `stop` (or
/// `ponderhit`), even when the search ends by itself: a forced mate found
/// at every depth, or a depth or node limit reached at once. The check: an
/// `isready` sent a moment later is answered with no `bestmove` before its
/// `readyok`; then `stop` (or `ponderhit`) brings exactly one.
#[test]
fn infinite_and_ponder_searches_wait_for_the_gui() {
    let mate = "position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    let cases: &[(&str, &str, &str)] = &[
        (mate, "go infinite", "stop"),
        (mate, "go ponder wtime 2000 btime 2000", "stop"),
        (mate, "go ponder wtime 2000 btime 2000", "ponderhit"),
        ("position startpos", "go infinite depth 1", "stop"),
        ("position startpos", "go ponder depth 1", "stop"),
        ("position startpos", "go infinite nodes 100", "stop"),
        ("position startpos", "go ponder nodes 100", "ponderhit"),
    ];
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("setoption name Ponder value true");
    for (position, go, release) in cases {
        e.send(position);
        e.send(go);
        std::thread::sleep(Duration::from_millis(300));
        e.send("isready");
        let before = e.until("readyok");
        assert!(
            !before.iter().any(|l| l.starts_with("bestmove")),
            "{position} / {go}: a bestmove before {release}: {before:?}"
        );
        e.send(release);
        let (best, _) = e.bestmove();
        assert_ne!(best, "(none)", "{position} / {go}");
        e.send("isready");
        let after = e.until("readyok");
        assert!(!after.iter().any(|l| l.starts_with("bestmove")), "{go}: a second bestmove: {after:?}");
    }
    // In atomic too (a mate found at once under ponder).
    e.send("setoption name UCI_Variant value atomic");
    e.send(
        "position startpos moves g2g3 h7h6 c2c4 b7b5 d1c2 f7f6 b1c3 h8h7 c2b1 c7c5 c4b5 d7d5 c3e4 b8d7 a2a3 d8a5 \
         e4g5 d7b8 a3a4 d5d4 e1d1",
    );
    e.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let before = e.until("readyok");
    assert!(!before.iter().any(|l| l.starts_with("bestmove")), "atomic ponder: {before:?}");
    e.send("stop");
    e.bestmove();
}

/// A net file is size-checked before it is read: `/dev/zero` and a 100 MB
/// file are refused at once, the previous network stays, and the engine
/// answers `isready`.
#[test]
fn huge_or_endless_net_files_are_refused_at_once() {
    let dir = common::TempDir::new("hugenet");
    let big = dir.file("big.fnn");
    std::fs::File::create(&big).unwrap().set_len(100 << 20).unwrap();
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("setoption name UCI_Variant value atomic");
    e.send("position startpos");
    let before = eval_of(&mut e);
    for file in ["/dev/zero", big.as_str()] {
        e.send(&format!("setoption name EvalFile value {file}"));
        let msg = e.line();
        assert!(msg.starts_with("info string EvalFile:") && msg.contains("; keeping "), "{msg}");
        e.send("isready");
        e.until("readyok");
        assert_eq!(eval_of(&mut e), before, "{file}");
    }
}

#[test]
fn impossible_positions_are_refused_and_the_position_kept() {
    let mut e = Engine::start();
    let kept = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    e.send(&format!("position fen {kept}"));
    for (variant, fen) in [
        ("chess", "4k3/8/8/8/8/8/8/r3K2r w - - 0 1"),
        ("chess", "4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1"),
        ("chess", "4k3/8/8/8/8/8/8/R3K2r b - - 0 1"),
        ("atomic", "8/8/8/8/8/8/R7/k1K5 w - - 0 1"),
    ] {
        if variant == "atomic" {
            e.send("setoption name UCI_Variant value atomic");
            e.send(&format!("position fen {kept}"));
        }
        e.send(&format!("position fen {fen}"));
        e.send("d");
        let lines = e.until("Checkers");
        assert!(lines.iter().any(|l| l.starts_with("info string Invalid FEN: the side")), "{fen}: {lines:?}");
        assert!(lines.iter().any(|l| l == &format!("Fen: {kept}")), "{fen}: the position changed: {lines:?}");
    }
}
