//! The trainer's command line over the real binary: every argument is
//! checked before any work, and usage errors exit 2.

use std::process::Command;

const TRAINER: &str = env!("CARGO_BIN_EXE_fission-trainer");

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fission-trainer-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A small atomic datagen file (classical self-play) at `out`.
fn datagen(out: &std::path::Path, positions: u64, seed: u64) {
    let cfg = fission::tools::datagen::DatagenConfig {
        variant: fission::VariantKind::Atomic,
        out: out.to_path_buf(),
        positions,
        nodes: 200,
        threads: 1,
        random_plies: 8,
        seed,
        hash_mb: 1,
        evaluation: fission::eval::Evaluation::Classical,
    };
    fission::tools::datagen::run(&cfg, &|_| {}).unwrap();
}

#[test]
fn bad_arguments_exit_2_before_any_work() {
    let dir = temp_dir("args");
    // A data file of one record-sized block of zeros: readable, but the
    // trainer must never get as far as reading it.
    let data = dir.join("data.bin");
    std::fs::write(&data, [0u8; 32]).unwrap();
    let data = data.to_str().unwrap();
    let out = dir.join("net.fnn");
    let out = out.to_str().unwrap();
    let cases: &[&[&str]] = &[
        &["--data", data, "--out", "/no/such/dir/net.fnn"],
        &["--data", "/no/such/file.bin", "--out", out],
        &["--data", data, "--out", out, "--batch", "0"],
        &["--data", data, "--out", out, "--threads", "0"],
        &["--data", data, "--out", out, "--epochs", "0"],
        &["--data", data, "--out", out, "--lr", "-1"],
        &["--data", data, "--out", out, "--lr-gamma", "0"],
        &["--data", data, "--out", out, "--wdl", "1.5"],
        &["--data", data, "--out", out, "--validation", "1"],
        &["--data", data, "--out", out, "--resume", "/no/such/checkpoint"],
        &["--data", data, "--out", out, "--output-buckets", "0"],
        &["--data", data, "--out", out, "--output-buckets", "17"],
        &["--data", data, "--out", out, "--output-buckets", "eight"],
        &["--data", data, "--out", out, "--king-buckets", "nine"],
    ];
    for args in cases {
        let o = Command::new(TRAINER).args(*args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(!String::from_utf8_lossy(&o.stderr).contains("records"), "{args:?}: work started");
        assert!(!std::path::Path::new(out).exists(), "{args:?}: an output was left behind");
    }
    let o = Command::new(TRAINER).arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains("(commit "), "the version names its commit");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn too_little_data_is_an_error_not_a_zero_loss() {
    let dir = temp_dir("tiny");
    let data = dir.join("tiny.bin");
    let out = dir.join("net.fnn");
    datagen(&data, 20, 1);
    let o = Command::new(TRAINER)
        .args(["--data", data.to_str().unwrap(), "--out", out.to_str().unwrap(), "--epochs", "1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("too few games"), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--validate-only` reports a net's loss on `--validation-data` and
/// writes nothing; without it, `--out` is required.
#[test]
fn validate_only_reports_the_loss_and_writes_nothing() {
    let dir = temp_dir("validate");
    let data = dir.join("small.bin");
    datagen(&data, 50, 2);
    let net = dir.join("start.fnn");
    std::fs::write(&net, fission::nnue::default_net(fission::VariantKind::Atomic).unwrap().to_bytes()).unwrap();
    let data = data.to_str().unwrap();
    let o = Command::new(TRAINER).args(["--data", data]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "--out is required: {}", String::from_utf8_lossy(&o.stderr));
    let before: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    let o = Command::new(TRAINER)
        .args(["--data", data, "--validation-data", data, "--validate-only", "--init-net", net.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let loss: f64 = err
        .lines()
        .find_map(|l| l.strip_prefix("validation loss before training: "))
        .expect("the loss is reported")
        .parse()
        .unwrap();
    assert!(loss > 0.0 && loss < 0.25, "{loss}");
    assert!(!err.contains("epoch"), "nothing is trained: {err}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), before.len(), "nothing is written");
    let _ = std::fs::remove_dir_all(&dir);
}
