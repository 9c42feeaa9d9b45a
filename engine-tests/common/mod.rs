//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

pub use fission::perft::SuiteEntry;

pub fn suite_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("perft-suites").join(name)
}

/// The suite `name` of `perft-suites/`, parsed by the engine's own reader.
pub fn load_suite(name: &str) -> Vec<SuiteEntry> {
    let text = std::fs::read_to_string(suite_path(name)).expect("suite file");
    fission::perft::read_suite(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
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
