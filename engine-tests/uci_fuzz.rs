//! Property tests of the UCI surface: the command parser never panics on
//! random bytes, and the whole session handler survives thousands of random
//! mutations of valid commands and still answers afterwards.

use fission::uci::command::parse;
use fission::uci::{Output, Uci};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::io::Write;
use std::sync::{Arc, Mutex};

const VALID: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "debug on",
    "debug off",
    "setoption name UCI_Variant value atomic",
    "setoption name UCI_Variant value chess",
    "setoption name MultiPV value 2",
    "setoption name Move Overhead value 30",
    "setoption name Ponder value true",
    "setoption name Clear Hash",
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1",
    "position fen 8/8/8/8/3pP3/8/8/K6k b - e3 0 1 moves d4e3",
    "go depth 2",
    "go nodes 300",
    "go movetime 5",
    "go wtime 100 btime 100 winc 1 binc 1 movestogo 3",
    "go depth 3 searchmoves e2e4 d2d4",
    "go infinite",
    "go ponder wtime 50 btime 50",
    "go mate 2",
    "stop",
    "ponderhit",
    "d",
    "eval",
    "register later",
];

/// A random edit of a valid command.
fn mutated() -> impl Strategy<Value = String> {
    (0..VALID.len(), 0usize..6, any::<usize>(), "\\PC{0,6}", any::<i64>()).prop_map(|(i, op, at, text, n)| {
        let base = VALID[i].to_string();
        let cut = |s: &str, k: usize| {
            let k = if s.is_empty() { 0 } else { k % (s.len() + 1) };
            let k = (0..=k).rev().find(|&k| s.is_char_boundary(k)).unwrap_or(0);
            (s[..k].to_string(), s[k..].to_string())
        };
        match op {
            0 => base,
            1 => {
                let (a, b) = cut(&base, at);
                format!("{a}{text}{b}")
            }
            2 => {
                let (a, _) = cut(&base, at);
                a
            }
            3 => {
                // Replace every number with an extreme one.
                base.split(' ')
                    .map(|t| if t.parse::<i64>().is_ok() { n.to_string() } else { t.to_string() })
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            4 => {
                let mut t: Vec<&str> = base.split(' ').collect();
                let len = t.len();
                t.swap(at % len, (at / 7) % len);
                t.join(" ")
            }
            _ => format!("{base} {text}"),
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    #[test]
    fn parser_never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..120)) {
        let _ = parse(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn parser_never_panics_on_mutations(line in mutated()) {
        let _ = parse(&line);
    }
}

/// Collects the session's output so the test can look at the last lines.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let mut v = self.0.lock().unwrap();
        v.extend_from_slice(b);
        if v.len() > 1 << 20 {
            let at = v.len() - 4096;
            let keep = v.split_off(at);
            *v = keep;
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn session_survives_random_mutations() {
    let sink = Sink::default();
    let uci = std::cell::RefCell::new(Uci::new(Output::new(Box::new(sink.clone()))));
    let mut runner = TestRunner::new(Config { cases: 3000, failure_persistence: None, ..Config::default() });
    let result = runner.run(&mutated(), |line| {
        // Lines that would legitimately take long (deep perft, the bench,
        // huge hash tables, hundreds of threads) are covered by the parser
        // tests above; here they would only slow the run down.
        let lower = line.to_ascii_lowercase();
        if ["perft", "bench", "hash", "threads"].iter().any(|w| lower.contains(w)) {
            return Ok(());
        }
        prop_assert!(uci.borrow_mut().handle_line(&line) || lower.split_whitespace().next() == Some("quit"));
        Ok(())
    });
    result.unwrap();
    let mut uci = uci.into_inner();
    // Still alive and answering.
    uci.handle_line("stop");
    uci.handle_line("setoption name UCI_Variant value chess");
    uci.handle_line("position startpos");
    uci.handle_line("isready");
    uci.handle_line("go depth 2");
    uci.handle_line("stop");
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert!(!uci.handle_line("quit"));
    let out = String::from_utf8_lossy(&sink.0.lock().unwrap()).to_string();
    assert!(out.contains("readyok"));
    assert!(
        out.trim_end().lines().last().unwrap_or("").starts_with("bestmove "),
        "{}",
        &out[out.len().saturating_sub(500)..]
    );
}
