//! Runs the reference perft suites (`perft-suites/*.perft`) for every variant.
//!
//! Entries above the node budget are skipped in normal runs; set
//! `FISSION_PERFT_FULL=1` to run every entry (see README).

use crate::common::{SuiteEntry, load_suite, node_budget};
use fission::board::CastlingMode;
use fission::perft::{divide, perft};
use fission::{Atomic, Chess, Dynamo, Push, Variant};
use rayon::prelude::*;

fn run_suite<V: Variant>(file: &str) {
    run_suite_mode::<V>(file, CastlingMode::Standard, node_budget());
}

fn run_suite_mode<V: Variant>(file: &str, mode: CastlingMode, budget: u64) {
    let suite = load_suite(file);
    assert!(!suite.is_empty(), "{file} is empty");
    let failures: Vec<String> = suite
        .par_iter()
        .flat_map_iter(|e: &SuiteEntry| {
            let b = V::from_fen_mode(&e.fen, mode).unwrap_or_else(|err| panic!("{}: {err}", e.id));
            e.counts
                .iter()
                .filter(|&&(_, n)| n <= budget)
                .filter_map(|&(d, n)| {
                    let got = perft::<V>(&b, d);
                    (got != n).then(|| format!("{} depth {d}: expected {n}, got {got} ({})", e.id, e.fen))
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

/// Chess960: the 960 published positions, to 1M nodes each in a normal run
/// (the full budget with `FISSION_PERFT_FULL=1`).
#[test]
fn chess960_suite() {
    let budget = if node_budget() == u64::MAX { u64::MAX } else { node_budget().min(1_000_000) };
    run_suite_mode::<Chess>("chess960.perft", CastlingMode::Chess960, budget);
}

#[test]
fn atomic960_suite() {
    run_suite_mode::<Atomic>("atomic960.perft", CastlingMode::Chess960, node_budget());
}

#[test]
fn chess_suite() {
    run_suite::<Chess>("chess.perft");
}

#[test]
fn atomic_suite() {
    run_suite::<Atomic>("atomic.perft");
}

#[test]
fn dynamo_suite() {
    run_suite::<Dynamo>("dynamo.perft");
}

#[test]
fn push_suite() {
    run_suite::<Push>("push.perft");
}

#[test]
fn divide_sums_to_perft() {
    let b = Atomic::from_fen(Atomic::start_fen()).unwrap();
    let d = divide::<Atomic>(&b, 3, 2);
    assert_eq!(d.len(), 20);
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), 8902);
}

/// Perft through the list generator (not bulk counting) must agree with
/// the bulk count, so the counting sink cannot drift from the real moves.
#[test]
fn bulk_count_matches_move_list() {
    fn check<V: Variant>(file: &str) {
        for e in load_suite(file) {
            // The suite position and every position one move later.
            let root = V::from_fen(&e.fen).unwrap();
            let mut l = fission::MoveList::new();
            V::legal_moves(&root, &mut l);
            let mut boards = vec![root.clone()];
            boards.extend(l.iter().map(|&m| V::play(&root, m)));
            for b in boards {
                let mut list = fission::MoveList::new();
                V::legal_moves(&b, &mut list);
                assert_eq!(V::count_moves(&b), list.len() as u64, "{} {}", e.id, b.fen());
            }
        }
    }
    check::<Chess>("chess.perft");
    check::<Atomic>("atomic.perft");
    check::<Push>("push.perft");
}

#[test]
fn perft_command_limits_depth_and_reports_progress() {
    let fission = env!("CARGO_BIN_EXE_fission");
    let run = |args: &[&str]| std::process::Command::new(fission).args(args).output().unwrap();
    for depth in ["0", "65", "300"] {
        let out = run(&["perft", "--variant", "chess", "--depth", depth]);
        assert_eq!(out.status.code(), Some(2), "depth {depth}: a usage error");
    }
    let out = run(&["perft", "--variant", "chess", "--depth", "3", "--fen", "not a fen"]);
    assert_eq!(out.status.code(), Some(2), "a bad FEN is a usage error");
    let out = run(&["--greedy", "perft", "--variant", "chess", "--depth", "3"]);
    assert_eq!(out.status.code(), Some(2), "--greedy is not silently ignored");
    // A usage error found after parsing shows the subcommand's usage.
    let out = run(&["match", "--engine", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Usage: fission match"));
    let out = run(&["perft", "--variant", "chess", "--depth", "3"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nodes searched: 8902"));
    // --moves as in perft-diff: 1. e4 leaves 405,385 nodes at depth 4.
    let out = run(&["perft", "--variant", "chess", "--depth", "4", "--moves", "e2e4"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nodes searched: 405385"));
    let out = run(&["perft", "--variant", "chess", "--depth", "3", "--moves", "e2e5"]);
    assert_eq!(out.status.code(), Some(2), "an illegal move is a usage error");
    // Every subcommand that plays a variant asks for it: none defaults to chess.
    let out = run(&["match", "--engine", "x", "--engine", "y"]);
    assert_eq!(out.status.code(), Some(2), "match without --variant is a usage error");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--variant"));
    // bench takes --depth like the others, and a bare depth as frameworks call it.
    let nodes = |args: &[&str]| {
        let out = run(args);
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines().find(|l| l.starts_with("Nodes searched")).map(str::to_string).expect("a node count")
    };
    assert_eq!(nodes(&["bench", "--depth", "2"]), nodes(&["bench", "2"]));
    assert_eq!(run(&["bench", "--depth", "2", "3"]).status.code(), Some(2), "two depths");
    assert_eq!(run(&["bench", "--depth", "0"]).status.code(), Some(2));
    let out =
        run(&["match", "--engine", "x", "--engine", "y", "--variant", "chess", "--openings", "/no/such/file.epd"]);
    assert_eq!(out.status.code(), Some(2), "a missing openings file is a usage error, as in perft-diff");
    // A long count says how far it is on stderr (dynamo depth 4 takes minutes).
    let mut child = std::process::Command::new(fission)
        .args(["perft", "--variant", "dynamo", "--depth", "4", "--progress", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stderr.take().unwrap()), &mut line).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.starts_with("perft depth 4: ") && line.contains("of 174 root moves counted"), "{line}");
}
