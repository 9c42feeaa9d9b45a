//! `fission datagen` over the real binary: exact record counts, valid
//! records whose games are consistent, appending, recovery from a cut
//! file, and every variant.

use crate::common::TempDir;
use fission::nnue::data::{RECORD_BYTES, Record, read_records};
use fission::{Atomic, Variant, VariantKind};
use std::process::Command;

const FISSION: &str = env!("CARGO_BIN_EXE_fission");

fn datagen(variant: &str, out: &str, positions: u64, seed: u64, extra: &[&str]) {
    let positions = positions.to_string();
    let seed = seed.to_string();
    let mut args = vec![
        "datagen",
        "--variant",
        variant,
        "--out",
        out,
        "--positions",
        &positions,
        "--nodes",
        "400",
        "--threads",
        "2",
        "--seed",
        &seed,
        "--hash",
        "2",
    ];
    args.extend_from_slice(extra);
    let o = Command::new(FISSION).args(&args).output().expect("fission runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains(&format!("positions {positions} ")));
}

#[test]
fn atomic_records_are_exact_valid_and_appendable() {
    let dir = TempDir::new("datagen");
    let out = dir.file("atomic.bin");
    datagen("atomic", &out, 300, 1, &["--classical"]);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes.len(), 300 * RECORD_BYTES);
    let records = read_records(&bytes).unwrap();
    let mut games = 0;
    let mut last: Option<Record> = None;
    for r in &records {
        assert_eq!(r.variant, VariantKind::Atomic);
        assert!(r.score.abs() < 32_000, "no mate scores: {r:?}");
        let b = r.board();
        assert_eq!(b.pieces(fission::Color::White, fission::Role::King).count(), 1, "{r:?}");
        assert_eq!(b.pieces(fission::Color::Black, fission::Role::King).count(), 1, "{r:?}");
        assert!(!Atomic::is_check(&b), "a position in check was recorded: {r:?}");
        match last {
            // Within a game the plies rise and the result is the same.
            Some(l) if r.ply > l.ply => assert_eq!(r.result, l.result),
            _ => games += 1,
        }
        assert!(r.ply >= 8, "random opening plies are not recorded");
        last = Some(*r);
    }
    assert!(games >= 2, "{games} games");
    // The scores are the searches' (not a constant).
    assert!(records.iter().any(|r| r.score != 0));

    // Appending, and a file cut inside a record is repaired first.
    datagen("atomic", &out, 50, 2, &["--classical"]);
    assert_eq!(std::fs::metadata(&out).unwrap().len(), 350 * RECORD_BYTES as u64);
    let f = std::fs::OpenOptions::new().write(true).open(&out).unwrap();
    f.set_len(350 * RECORD_BYTES as u64 - 5).unwrap();
    drop(f);
    datagen("atomic", &out, 20, 3, &["--classical"]);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes.len(), 369 * RECORD_BYTES);
    read_records(&bytes).unwrap();
}

#[test]
fn the_same_seed_gives_the_same_games_and_shards_concatenate() {
    let dir = TempDir::new("datagen");
    let (a, b) = (dir.file("a.bin"), dir.file("b.bin"));
    // One thread each: with two, which game finishes first varies.
    for path in [&a, &b] {
        let o = Command::new(FISSION)
            .args(["datagen", "--variant", "atomic", "--out", path, "--positions", "80", "--nodes", "300"])
            .args(["--threads", "1", "--seed", "9", "--hash", "2"])
            .output()
            .unwrap();
        assert!(o.status.success());
    }
    let (x, y) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(x, y);
    let mut both = x.clone();
    both.extend_from_slice(&y);
    assert_eq!(read_records(&both).unwrap().len(), 160);
    // The same command again onto a file that holds data adds new games,
    // not a copy, and says so.
    let o = Command::new(FISSION)
        .args(["datagen", "--variant", "atomic", "--out", &a, "--positions", "80", "--nodes", "300"])
        .args(["--threads", "1", "--seed", "9", "--hash", "2"])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("already holds 80 positions"));
    let again = std::fs::read(&a).unwrap();
    assert_eq!(again.len(), 2 * x.len());
    assert_ne!(&again[x.len()..], &x[..], "a repeated run appended a copy of the first");
}

#[test]
fn every_variant_generates() {
    let dir = TempDir::new("datagen");
    for variant in ["chess", "push", "dynamo"] {
        let out = dir.file(&format!("{variant}.bin"));
        datagen(variant, &out, 40, 4, &[]);
        let records = read_records(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(records.len(), 40);
        assert!(records.iter().all(|r| r.variant.name() == variant));
    }
}

#[test]
fn bad_arguments_are_refused() {
    let dir = TempDir::new("datagen");
    let out = dir.file("x.bin");
    let bad = dir.file("bad.fnn");
    std::fs::write(&bad, b"not a net").unwrap();
    // A good net, but atomic's: refused for chess.
    let atomic = dir.file("atomic.fnn");
    std::fs::write(&atomic, fission::nnue::default_net(fission::VariantKind::Atomic).unwrap().to_bytes()).unwrap();
    let o = Command::new(FISSION)
        .args(["datagen", "--variant", "chess", "--out", &out, "--positions", "1", "--eval-file", &atomic])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is a network for atomic, not chess"));
    assert!(!std::path::Path::new(&out).exists(), "nothing written");
    for args in [
        vec!["datagen", "--variant", "atomic", "--out", &out, "--nodes", "0"],
        vec!["datagen", "--variant", "nope", "--out", &out],
        vec!["datagen", "--variant", "atomic", "--out", &out, "--eval-file", &bad],
        vec!["datagen", "--variant", "atomic", "--out", "/nonexistent-dir/x.bin", "--positions", "1"],
    ] {
        let o = Command::new(FISSION).args(&args).output().unwrap();
        assert!(!o.status.success(), "{args:?}");
        assert!(!String::from_utf8_lossy(&o.stderr).is_empty());
    }
}
