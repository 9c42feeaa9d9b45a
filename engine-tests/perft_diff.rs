//! `fission perft-diff` over real processes: against Fission itself (the
//! trees agree), against a deliberately wrong engine (the command names the
//! position and the move), against broken engines (exit code 2, no hang),
//! and against Fairy-Stockfish's rules through pyffish when it is installed.

use std::process::{Command, Output};

const FISSION: &str = env!("CARGO_BIN_EXE_fission");
const CLIENTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/engine-tests/clients");

fn perft_diff(args: &[&str]) -> (i32, String, String) {
    let out: Output = Command::new(FISSION).arg("perft-diff").args(args).output().expect("run fission");
    let text = |b: &[u8]| String::from_utf8_lossy(b).to_string();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// The wrong engine's command line: Fission as its oracle, plus `faults`.
fn wrong(faults: &str) -> String {
    format!("python3 {CLIENTS}/wrong_engine.py {FISSION} {faults}")
}

#[test]
fn agrees_with_itself_in_every_variant() {
    for (variant, depth) in [("chess", "3"), ("atomic", "3"), ("push", "3"), ("dynamo", "2")] {
        let (code, out, err) = perft_diff(&["--engine", FISSION, "--variant", variant, "--depth", depth]);
        assert_eq!(code, 0, "{variant}: {out}{err}");
        assert!(out.contains("AGREE"), "{out}");
    }
    let (code, out, _) = perft_diff(&[
        "--engine",
        FISSION,
        "--variant",
        "atomic",
        "--depth",
        "2",
        "--fen",
        "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
        "--moves",
        "b8c6 f1e2",
    ]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn finds_a_missing_move_in_atomic() {
    let (code, out, err) =
        perft_diff(&["--engine", &wrong("--at e2e4/d7d5 --drop e4d5"), "--variant", "atomic", "--depth", "3"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("DIFFERENCE at path: e2e4 d7d5"), "{out}");
    assert!(out.contains("fen: rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"), "{out}");
    assert!(out.contains("legal for fission, not listed by the engine: e4d5\n"), "{out}");
    assert!(!out.contains("listed by the engine, not legal"), "{out}");
    assert!(err.contains("depth 2"), "progress goes to stderr: {err}");
}

#[test]
fn finds_an_extra_move_in_push() {
    // After 1. g1f3 e7e5 White gets an invented pawn move.
    let (code, out, err) =
        perft_diff(&["--engine", &wrong("--at g1f3/e7e5 --add a2a5"), "--variant", "push", "--depth", "3"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("DIFFERENCE at path: g1f3 e7e5\n"), "{out}");
    assert!(out.contains("listed by the engine, not legal for fission: a2a5\n"), "{out}");
    assert!(!out.contains("legal for fission, not listed"), "{out}");
}

#[test]
fn finds_a_missing_two_part_turn_in_dynamo() {
    let (code, out, err) =
        perft_diff(&["--engine", &wrong("--at e2e4 --drop d8--,c7d8"), "--variant", "dynamo", "--depth", "2"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("DIFFERENCE at path: e2e4\n"), "{out}");
    assert!(out.contains("not listed by the engine: d8--,c7d8\n"), "{out}");
}

#[test]
fn other_notations_and_formats_are_understood() {
    // Castling written king-takes-rook, divide in perftree's format.
    let (code, out, err) = perft_diff(&[
        "--engine",
        &wrong("--castle960 --style perftree"),
        "--variant",
        "chess",
        "--depth",
        "2",
        "--fen",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("normalised: e1a1 = e1c1, e1h1 = e1g1"), "{out}");
    // A wrong count below a castling move is followed with the engine's spelling.
    let (code, out, _) = perft_diff(&[
        "--engine",
        &wrong("--castle960 --at e1g1 --drop e8c8"),
        "--variant",
        "atomic",
        "--depth",
        "2",
        "--fen",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("DIFFERENCE at path: e1g1\n") && out.contains("not listed by the engine: e8c8"), "{out}");
}

#[test]
fn broken_engines_are_errors_not_hangs() {
    let (code, _, err) = perft_diff(&["--engine", &wrong("--crash"), "--variant", "atomic", "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("exited during 'go perft 2'"), "{err}");
    let (code, _, err) =
        perft_diff(&["--engine", &wrong("--hang"), "--variant", "atomic", "--depth", "2", "--timeout", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("did not finish 'go perft 2' within 1 s"), "{err}");
    let (code, _, err) = perft_diff(&["--engine", "/nonexistent/engine", "--variant", "chess", "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot start"), "{err}");
    // Usage errors.
    assert_eq!(perft_diff(&["--variant", "chess", "--depth", "1"]).0, 2);
    assert_eq!(perft_diff(&["--engine", FISSION, "--variant", "chess"]).0, 2);
    let (code, _, err) = perft_diff(&["--engine", FISSION, "--variant", "chess", "--depth", "1", "--moves", "e2e5"]);
    assert_eq!(code, 2);
    assert!(err.contains("move 'e2e5' is not legal"), "{err}");
}

#[test]
fn suites_are_checked_and_mismatches_followed() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/perft-suites/atomic.perft");
    let (code, out, err) = perft_diff(&["--engine", FISSION, "--variant", "atomic", "--suite", suite, "--depth", "2"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(" 0 differ"), "{out}");

    let dir = crate::common::TempDir::new("perft-diff");
    let path = dir.file("mini.perft");
    std::fs::write(
        &path,
        "id start\nepd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nperft 1 20\nperft 2 400\nperft 3 8902\n\
         id wrong-in-suite\nepd 8/8/8/8/8/8/8/K1k5 w - -\nperft 1 4\n",
    )
    .unwrap();
    let (code, out, _) =
        perft_diff(&["--engine", &wrong("--at g1f3/b8c6 --drop f3g5"), "--variant", "atomic", "--suite", &path]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("start depth 3: suite 8902, engine 8901"), "{out}");
    assert!(out.contains("DIFFERENCE at path: g1f3 b8c6\n"), "{out}");
    // The second entry's count is wrong in the suite itself.
    assert!(out.contains("wrong-in-suite depth 1: suite 4, engine 3"), "{out}");
    assert!(out.contains("the suite's count is the odd one out"), "{out}");
}

/// Fairy-Stockfish's rules through pyffish: skipped with a note when the
/// module is missing, except under CI (`CI` set), where it must be there.
#[test]
fn agrees_with_pyffish() {
    if !crate::common::python_tests_enabled("pyffish") {
        return;
    }
    let engine = format!("python3 {CLIENTS}/pyffish_engine.py");
    for (variant, fen) in [
        ("atomic", "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1"),
        ("atomic", "8/8/8/8/3K4/8/1k6/b7 b - - 0 1"),
        ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ] {
        let (code, out, err) = perft_diff(&["--engine", &engine, "--variant", variant, "--depth", "2", "--fen", fen]);
        assert_eq!(code, 0, "{variant} {fen}: {out}{err}");
    }
}
