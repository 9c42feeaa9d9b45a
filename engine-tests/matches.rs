//! The match runner: real matches between Fission processes in each
//! variant (PGN checked by python-chess), broken engines losing with the
//! right termination, and the statistics against hand-computed values.

use fission::tools::tournament::stats::{Sprt, SprtVerdict, Tally, elo_from_score, erf, expected_score};
use fission::tools::tournament::{MAX_CRASHES, MatchConfig, MatchSummary, run};
use std::process::Command;
use std::sync::Mutex;

const FISSION: &str = env!("CARGO_BIN_EXE_fission");

fn run_match(args: &[&str]) -> (MatchSummary, Vec<String>) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let cfg = MatchConfig::parse(&args).expect("valid arguments");
    let lines = Mutex::new(Vec::new());
    let summary = run(&cfg, &|l: &str| lines.lock().unwrap().push(l.to_string())).expect("match runs");
    (summary, lines.into_inner().unwrap())
}

/// The command of the broken test engine in `mode` (see broken_engine.py).
fn broken_engine(mode: &str) -> String {
    format!("python3 {}/engine-tests/clients/broken_engine.py {mode}", env!("CARGO_MANIFEST_DIR"))
}

/// An atomic match of Fission against the broken engine in `mode`, at
/// 0.5+0.01, `games` games, with its PGN written to `pgn`, and `extra`
/// arguments.
fn against_broken(mode: &str, games: &str, pgn: &str, extra: &[&str]) -> (MatchSummary, Vec<String>) {
    let broken = broken_engine(mode);
    let mut args =
        vec!["--engine", FISSION, "--engine", &broken, "--variant", "atomic", "--games", games, "--tc", "0.5+0.01"];
    args.extend(["--pgn", pgn]);
    args.extend(extra);
    run_match(&args)
}

/// Fission against itself in `variant`, `games` games at 1+0.02 with the
/// PGN written to `pgn`, and `extra` arguments. Other tests run beside
/// these on two cores: the time margin allows for the machine's lag (time
/// handling proper is tested by the python-chess client, which allows none).
fn self_play(variant: &str, games: &str, pgn: &str, extra: &[&str]) -> (MatchSummary, Vec<String>) {
    let mut args = vec!["--engine", FISSION, "--engine", FISSION, "--variant", variant, "--games", games];
    args.extend(["--tc", "1+0.02", "--timemargin", "300", "--pgn", pgn]);
    args.extend(extra);
    run_match(&args)
}

fn python_check_pgn(path: &str, games: u32) {
    if !crate::common::python_tests_enabled("chess") {
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/engine-tests/clients/check_pgn.py");
    let out = Command::new("python3").args([script, path, &games.to_string()]).output().expect("python3");
    assert!(out.status.success(), "{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}

#[test]
fn fission_vs_fission_in_each_variant() {
    for variant in ["chess", "atomic", "push", "dynamo"] {
        let dir = crate::common::TempDir::new("match");
        let pgn = dir.file(&format!("{variant}.pgn"));
        let (s, lines) = self_play(variant, "4", &pgn, &["--concurrency", "2", "--seed", "7"]);
        assert_eq!(s.games, 4);
        let t = &s.pairings[0].2;
        assert_eq!(t.wins + t.losses + t.draws, 4);
        assert_eq!(t.pairs.iter().sum::<u32>(), 2, "two colour-reversed pairs");
        assert!(lines.iter().filter(|l| l.starts_with("Game ")).count() == 4);
        assert!(!s.terminations.contains_key("time forfeit"), "{variant}: {:?}", s.terminations);
        assert!(!s.terminations.contains_key("illegal move"), "{:?}", s.terminations);
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(text.matches("[Event ").count(), 4);
        if variant == "atomic" {
            assert_eq!(text.matches("[Variant \"Atomic\"]").count(), 4);
        }
        if variant == "push" || variant == "dynamo" {
            // python-chess knows neither: their PGN (moves in UCI notation) is checked by count only.
            let tag = if variant == "push" { "[Variant \"Push\"]" } else { "[Variant \"Dynamo\"]" };
            assert_eq!(text.matches(tag).count(), 4);
        } else {
            python_check_pgn(&pgn, 4);
        }
    }
}

/// Two builds of one engine (different commands, the same reported name)
/// are numbered in the log and the PGN, so that games can be told apart.
#[test]
fn engines_with_the_same_name_are_numbered() {
    let dir = crate::common::TempDir::new("names");
    let pgn = dir.file("names.pgn");
    let wrapped = format!("env {FISSION}");
    let (s, lines) = run_match(&[
        "--engine",
        FISSION,
        "--engine",
        &wrapped,
        "--variant",
        "atomic",
        "--games",
        "2",
        "--tc",
        "1+0.02",
        "--pgn",
        &pgn,
        "--timemargin",
        "300",
    ]);
    assert_eq!(s.games, 2);
    let text = std::fs::read_to_string(&pgn).unwrap();
    // Engine 1 has white in the first game of each pair, engine 2 in the second.
    let whites: Vec<_> = text.lines().filter(|l| l.starts_with("[White ")).collect();
    assert_eq!(whites.len(), 2);
    assert!(whites[0].ends_with(" #1\"]") && whites[1].ends_with(" #2\"]"), "{whites:?}");
    assert!(text.lines().filter(|l| l.starts_with("[Black ")).all(|l| l.contains(" #")));
    assert!(lines.iter().any(|l| l.starts_with("Game ") && l.contains("#1 vs ") && l.contains("#2")), "{lines:?}");
}

#[test]
fn broken_engines_lose_with_the_right_reason() {
    // `late` answers in the next game if the runner kept the engine.
    for (mode, termination) in [("illegal", "illegal move"), ("hang", "time forfeit"), ("late", "time forfeit")] {
        let dir = crate::common::TempDir::new("match");
        let pgn = dir.file(&format!("broken-{mode}.pgn"));
        let (s, _) = against_broken(mode, "4", &pgn, &["--concurrency", "2"]);
        assert_eq!(s.games, 4, "{mode}: the match completes");
        let t = &s.pairings[0].2;
        assert_eq!((t.wins, t.losses, t.draws), (4, 0, 0), "{mode}");
        assert_eq!(s.terminations.get(termination), Some(&4), "{mode}: {:?}", s.terminations);
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(text.matches(&format!("[Termination \"{termination}\"]")).count(), 4);
        assert_eq!(s.forfeits.get(&format!("Broken-{mode}")), Some(&4), "{mode}: {:?}", s.forfeits);
        assert!(s.stopped.is_none());
    }
}

#[test]
fn a_crashing_engine_loses_is_named_stays_out_of_the_sprt_and_stops_the_match() {
    let broken = broken_engine("crash");
    let dir = crate::common::TempDir::new("match");
    let pgn = dir.file("crash.pgn");
    let (s, lines) = against_broken("crash", "40", &pgn, &["--sprt", "elo0=0,elo1=10"]);
    let why = s.stopped.as_deref().expect("the match stops");
    assert!(why.contains("Broken-crash") && why.contains("crashed"), "{why}");
    assert!(s.games >= MAX_CRASHES && s.games < 40, "{} games", s.games);
    let t = &s.pairings[0].2;
    assert_eq!(t.wins, s.games, "every crash is a loss for the crashing engine");
    assert_eq!(t.pairs, [0; 5], "crashed games never reach the SPRT");
    assert_eq!(s.sprt.map(|v| v.0), Some(SprtVerdict::Continue));
    assert!(lines.iter().any(|l| l.contains("Broken-crash disconnects")), "{lines:?}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("{Broken-crash disconnects"), "{text}");
    // Over the real binary the match fails (exit 1) and says why.
    let out = Command::new(FISSION)
        .args(["match", "--engine", FISSION, "--engine", &broken, "--variant", "atomic", "--games", "10"])
        .args(["--tc", "0.5+0.01"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("match stopped"));
}

/// An engine whose output has closed is dead even while its process lives
/// on (a crash still dumping core): the next game starts a new process
/// instead of forfeiting again on the dead one, so one crash counts once.
#[test]
fn an_engine_that_died_is_restarted_even_before_its_process_is_gone() {
    let dir = crate::common::TempDir::new("match");
    let pgn = dir.file("dying.pgn");
    let marker = dir.file("dying.marker");
    let (s, _) = against_broken(&format!("dying {marker}"), "4", &pgn, &[]);
    assert_eq!(s.games, 4, "the match completes");
    assert!(s.stopped.is_none(), "{:?}", s.stopped);
    assert_eq!(s.terminations.get("abandoned"), Some(&1), "{:?}", s.terminations);
    assert_eq!(s.terminations.get("illegal move"), Some(&3), "{:?}", s.terminations);
    assert_eq!(s.pairings[0].2.wins, 4);
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_before_any_game() {
    let dir = crate::common::TempDir::new("match");
    let pgn = dir.file("missing.pgn");
    let out = Command::new(FISSION)
        .args(["match", "--engine", FISSION, "--engine", "./no-such-engine", "--variant", "atomic"])
        .args(["--games", "2000", "--tc", "10+0.1", "--sprt", "elo0=0,elo1=10", "--pgn", &pgn])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("engine #2") && err.contains("./no-such-engine"), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Game 1"), "no game is played");
    assert!(!std::path::Path::new(&pgn).exists());
}

#[test]
fn pgn_files_are_appended_to() {
    let dir = crate::common::TempDir::new("match");
    let pgn = dir.file("twice.pgn");
    for _ in 0..2 {
        let (s, _) = run_match(&[
            "--engine",
            FISSION,
            "--engine",
            FISSION,
            "--variant",
            "chess",
            "--games",
            "2",
            "--tc",
            "0.3+0.01",
            "--pgn",
            &pgn,
        ]);
        assert_eq!(s.games, 2);
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 4, "{text}");
}

/// `--max-moves`: a game still going when each side has made that many
/// moves is a draw by adjudication, so named in the log, the summary and
/// the PGN (dynamo has no fifty-move rule to end a long game).
#[test]
fn the_move_limit_adjudicates_a_draw() {
    let dir = crate::common::TempDir::new("match");
    let pgn = dir.file("limit.pgn");
    let (s, lines) = self_play("dynamo", "2", &pgn, &["--max-moves", "3"]);
    assert_eq!(s.terminations.get("adjudication"), Some(&2), "{:?}", s.terminations);
    assert_eq!(s.pairings[0].2.draws, 2);
    assert!(s.forfeits.is_empty(), "{:?}", s.forfeits);
    assert_eq!(lines.iter().filter(|l| l.contains("draw by adjudication: 3 moves each")).count(), 2, "{lines:?}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Termination \"adjudication\"]").count(), 2, "{text}");
    // Three moves each from the opening position (the random plies are in
    // its FEN): the games stop there.
    assert_eq!(text.matches("[PlyCount \"6\"]").count(), 2, "{text}");
}

#[test]
fn elo_and_los_known_values() {
    assert!((expected_score(0.0) - 0.5).abs() < 1e-12);
    // 0.75 = 1 / (1 + 10^(-x/400))  =>  x = 400 log10(3) = 190.849
    assert!((elo_from_score(0.75) - 190.848_501_887).abs() < 1e-6);
    assert!((elo_from_score(0.25) + 190.848_501_887).abs() < 1e-6);
    // erf(1) = 0.8427007929..., erf(-0.5) = -0.5204998778...
    assert!((erf(1.0) - 0.842_700_792_9).abs() < 2e-7);
    assert!((erf(-0.5) + 0.520_499_877_8).abs() < 2e-7);
    // LOS for 60 wins, 40 losses: 0.5 (1 + erf(20 / sqrt(200))) = 0.97725
    let t = Tally { wins: 60, losses: 40, draws: 100, pairs: [0; 5] };
    assert!((t.los() - 0.977_249_868).abs() < 1e-6);
    // Score (60 + 50) / 200 = 0.55 -> 34.86 Elo.
    let (elo, err) = t.elo();
    assert!((elo - 34.860_596).abs() < 1e-3, "{elo}");
    // w=.3, d=.5, l=.2, mu=.55: var = .3*.2025 + .5*.0025 + .2*.3025 = 0.1225;
    // sd of the mean = 0.35/sqrt(200) = 0.0247487; 95%: mu +- 0.0485065, i.e.
    // scores 0.5985065 and 0.5014935 -> Elo 69.355 and 1.037 -> half-width 34.159
    assert!((err - 34.159).abs() < 0.01, "{err}");
    assert_eq!(t.elo_text(), format!("{elo:+.1} +/- {err:.1}"));
    // Every point to one side: a bound, 0.05^(1/41) = 0.92954 -> +448.1 Elo.
    assert_eq!(Tally { wins: 41, ..Tally::default() }.elo_text(), "> +448");
    assert_eq!(Tally { losses: 10, ..Tally::default() }.elo_text(), "< -183");
    // 38 wins, 3 losses: mu = 38/41 = 0.926829, var = w (1-mu)^2 + l mu^2
    // = 0.0678168, 95%: mu +- 1.959964 sqrt(var/41) = mu +- 0.079712: the
    // upper end passes 1, so only the lower one is printed, score 0.847117
    // -> Elo +297.4, the estimate +441.1 (not a symmetric +/- of thousands).
    let t = Tally { wins: 38, losses: 3, ..Tally::default() };
    let (elo, lo, hi) = t.elo_interval();
    assert!((elo - 441.065).abs() < 0.01 && (lo - 297.434).abs() < 0.01 && hi == f64::INFINITY, "{elo} {lo} {hi}");
    assert_eq!(t.elo_text(), "+441.1 (> +297)");
    let t = Tally { wins: 3, losses: 38, ..Tally::default() };
    assert_eq!(t.elo_text(), "-441.1 (< -297)");
    // One win, one loss: mu = 0.5, var = 0.25, 95%: 0.5 +- 0.692965, both
    // ends past the scale, so no bound at all, and an even score is +0.0
    // (elo_from_score(0.5) is -0.0 in floating point).
    let t = Tally { wins: 1, losses: 1, ..Tally::default() };
    assert_eq!(t.elo_text(), "+0.0 +/- inf");
    assert_eq!(Tally { wins: 30, losses: 30, draws: 40, ..Tally::default() }.elo_text(), "+0.0 +/- 53.2");
}

#[test]
fn sprt_known_values() {
    let sprt = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
    let (lo, hi) = sprt.bounds();
    // ln(0.05 / 0.95) = -2.944438979
    assert!((lo + 2.944_438_979).abs() < 1e-9 && (hi - 2.944_438_979).abs() < 1e-9);
    // Pairs [0, 10, 20, 10, 0]: mean 0.5, variance 0.03125 per pair, 40 pairs.
    // s0 = 0.5, s1 = 1/(1+10^(-10/400)) = 0.5143871841
    // LLR = 40 (s1-s0)(2*0.5 - s0 - s1) / (2*0.03125) = -40 * 0.0143871841^2 / 0.0625 = -0.1324743
    // The two empty bins count 0.001 each (as fishtest regularises), which
    // makes it -0.1324346.
    let llr = sprt.llr(&[0, 10, 20, 10, 0]);
    assert!((llr + 0.132_434_6).abs() < 1e-6, "{llr}");
    // Pairs [0, 0, 100, 200, 0] favour the first engine strongly.
    assert_eq!(sprt.verdict(&[0, 0, 100, 200, 0]), SprtVerdict::AcceptH1);
    assert_eq!(sprt.verdict(&[0, 200, 100, 0, 0]), SprtVerdict::AcceptH0);
    assert_eq!(sprt.verdict(&[0, 1, 2, 1, 0]), SprtVerdict::Continue);
    // A handful of pairs never decides, however alike they are.
    assert_eq!(sprt.verdict(&[0, 1, 0, 0, 0]), SprtVerdict::Continue);
    assert_eq!(sprt.verdict(&[0, 0, 0, 0, 19]), SprtVerdict::Continue);
    assert_eq!(sprt.verdict(&[0, 0, 0, 0, 20]), SprtVerdict::AcceptH1);
    assert!(Sprt::parse("elo0=5,elo1=0").is_err());
    assert!(Sprt::parse("elo0=x").is_err());
}

#[test]
fn sprt_stops_a_lopsided_match() {
    let broken = broken_engine("illegal");
    let (s, lines) = run_match(&[
        "--engine",
        FISSION,
        "--engine",
        &broken,
        "--variant",
        "chess",
        "--games",
        "400",
        "--tc",
        "1+0.01",
        "--concurrency",
        "2",
        "--sprt",
        "elo0=0,elo1=10,alpha=0.05,beta=0.05",
    ]);
    assert!(s.games < 400, "SPRT should stop early, played {}", s.games);
    assert_eq!(s.sprt.map(|v| v.0), Some(SprtVerdict::AcceptH1));
    assert!(lines.iter().any(|l| l == "SPRT: H1 accepted"));
}

#[test]
fn bad_arguments_are_refused() {
    let parse = |a: &[&str]| MatchConfig::parse(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert!(parse(&["--engine", "x"]).is_err());
    assert!(parse(&["--engine", "x", "--engine", "y", "--tc", "abc"]).is_err());
    assert!(parse(&["--engine", "x", "--engine", "y", "--variant", "nope"]).is_err());
    assert!(parse(&["--engine", "x", "--engine", "y", "--engine", "z", "--sprt", "elo0=0,elo1=5"]).is_err());
    assert!(parse(&["--engine", "x", "--engine", "y"]).is_err(), "--variant is required");
    assert!(parse(&["--engine", "x", "--engine", "y", "--variant", "dynamo", "--max-moves", "-1"]).is_err());
    assert_eq!(
        parse(&["--engine", "x", "--engine", "y", "--variant", "dynamo", "--max-moves", "200"]).unwrap().max_moves,
        200
    );
    assert_eq!(parse(&["--engine", "x", "--engine", "y", "--variant", "chess", "--games", "3"]).unwrap().games, 4);
    // Options for one engine follow its --engine; shared ones come first.
    let c = parse(&[
        "--engine",
        "x",
        "--engine-option",
        "Threads=2",
        "--engine",
        "y",
        "--option",
        "Hash=8",
        "--variant",
        "chess",
    ])
    .unwrap();
    let opt = |name: &str, value: &str| (name.to_string(), value.to_string());
    assert_eq!(c.engines[0].options, vec![opt("Hash", "8"), opt("Threads", "2")]);
    assert_eq!(c.engines[1].options, vec![opt("Hash", "8")]);
    assert!(parse(&["--engine-option", "Threads=2", "--engine", "x", "--engine", "y"]).is_err());
}
