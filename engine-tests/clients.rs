//! Real clients: python-chess's `chess.engine` drives the release binary
//! through full atomic and chess games and a MultiPV analysis
//! (`engine-tests/clients/python_chess_client.py`). Needs `python3` with the
//! `chess` package (`.ci/run` installs it): without it they are skipped with
//! a note, except under CI, where they fail.

use std::process::Command;

fn run_client(args: &[&str]) -> Option<String> {
    if !crate::common::python_tests_enabled("chess") {
        return None;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/engine-tests/clients/python_chess_client.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_fission"))
        .args(args)
        .output()
        .expect("python3 must be installed (see README)");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "client failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("1 passed, 0 failed"), "{stdout}");
    Some(stdout)
}

#[test]
fn python_chess_drives_full_games() {
    if let Some(out) = run_client(&["--games", "2", "--tc", "2+0.02", "--chess960", "2"]) {
        assert!(out.contains("chess960 castling ok"), "{out}");
    }
}

/// Many fast games (1 s + 10 ms) in both variants: no flag may fall (past a
/// 1 s lag allowance) and no illegal move be made (the script asserts both,
/// game by game).
#[test]
fn fast_games_never_lose_on_time() {
    // The client's clock is its own wall clock: on a loaded machine it also
    // counts delays outside the engine, so a flag counts past 1 s of lag
    // (the strict soak, no margin, is run by hand: strength/README.md).
    if let Some(out) = run_client(&["--games", "8", "--tc", "1+0.01", "--fast", "--margin", "1000"]) {
        assert!(out.contains("16 games"), "{out}");
        assert!(out.contains(" 0 lost on time"), "{out}");
    }
}
