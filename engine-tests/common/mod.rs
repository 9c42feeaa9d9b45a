//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// One entry of a `.perft` suite: an id, a position and expected counts.
#[derive(Debug, Clone)]
pub struct SuiteEntry {
    pub id: String,
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

pub fn suite_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("perft-suites").join(name)
}

/// Parses shakmaty's `.perft` format: `id`, `epd`, then `perft D N` lines;
/// `#` starts a comment line.
pub fn load_suite(name: &str) -> Vec<SuiteEntry> {
    let text = std::fs::read_to_string(suite_path(name)).expect("suite file");
    let mut out: Vec<SuiteEntry> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => out.push(SuiteEntry { id: rest.trim().to_string(), fen: String::new(), counts: vec![] }),
            "epd" => out.last_mut().expect("epd after id").fen = rest.trim().to_string(),
            "perft" => {
                let mut it = rest.split_whitespace();
                let d: u32 = it.next().unwrap().parse().unwrap();
                let n: u64 = it.next().unwrap().parse().unwrap();
                out.last_mut().expect("perft after id").counts.push((d, n));
            }
            other => panic!("unknown suite line key {other:?}"),
        }
    }
    out
}

/// Node budget per suite entry in a normal test run; `FISSION_PERFT_FULL=1`
/// lifts it.
pub fn node_budget() -> u64 {
    if std::env::var("FISSION_PERFT_FULL").is_ok_and(|v| v == "1") {
        u64::MAX
    } else {
        std::env::var("FISSION_PERFT_BUDGET").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000_000)
    }
}

/// Whether tests that need `python3` with `module` should run. A developer
/// without the module gets a printed note and a skip; under CI (`CI` set)
/// a missing module is a failure, so a missing install step is never
/// hidden. `FISSION_SKIP_CLIENT_TESTS=1` skips them on purpose.
pub fn python_tests_enabled(module: &str) -> bool {
    if std::env::var("FISSION_SKIP_CLIENT_TESTS").is_ok_and(|v| v == "1") {
        eprintln!("note: skipped (FISSION_SKIP_CLIENT_TESTS=1)");
        return false;
    }
    let have = std::process::Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must provide python3 with the '{module}' package (pip install {module}); see .ci/run"
        );
        eprintln!("note: skipped, python3 cannot import '{module}' (pip install {module})");
    }
    have
}

/// A fresh directory under the system's temporary directory, removed with
/// its contents when dropped (tests leave nothing behind).
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("fission-{tag}-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }

    /// The path of `name` inside the directory, as text.
    pub fn file(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
