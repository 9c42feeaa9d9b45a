//! The `fission` binary. With no subcommand it speaks UCI on stdin/stdout
//! (GUIs start it bare); the subcommands are tools around the engine.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use fission::eval::Evaluation;
use fission::notation::move_to_uci;
use fission::perft;
use fission::search::bench;
use fission::tools::datagen::{self, DatagenConfig};
use fission::tools::perft_diff::{self, DiffConfig, DiffOutcome};
use fission::tools::tournament::{MatchArgs, MatchConfig};
use fission::uci::{self, Output};
use fission::{Board, Variant, VariantKind, with_variant};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use fission::VERSION;

/// Fission: a UCI engine for atomic, dynamo, push and standard chess.
///
/// Without a subcommand, Fission is a UCI engine on stdin/stdout: start it
/// from a GUI, or type `uci`.
#[derive(Parser)]
#[command(name = "fission", version = VERSION, about, long_about)]
struct Cli {
    /// As a UCI engine, play the greedy one-ply move (a baseline for strength tests).
    #[arg(long)]
    greedy: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

fn variant_arg(s: &str) -> Result<VariantKind, String> {
    s.parse()
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the move tree (perft), optionally per root move.
    Perft {
        /// Variant: chess, atomic, dynamo or push.
        #[arg(long, value_name = "NAME", value_parser = variant_arg)]
        variant: VariantKind,
        /// Plies to count (1 to 64, as for every subcommand).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
        /// Position (default: the variant's start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from the position first, in UCI notation, space-separated.
        #[arg(long, value_name = "\"M1 M2 ...\"")]
        moves: Option<String>,
        /// Print the count below each root move first (`move: count`).
        #[arg(long)]
        divide: bool,
        /// Threads (the root moves are split among them).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: u32,
        /// Seconds between two progress lines on stderr (0: none).
        #[arg(long, value_name = "SECS", default_value_t = 5)]
        progress: u64,
    },
    /// Search the bench positions to a fixed depth and print the node count
    /// (the signature of the search's behaviour) and the speed.
    Bench {
        /// Depth of every search (1 to 64; default: the bench's own depth).
        /// `--depth N` as in the other subcommands; a bare `N` works too,
        /// as testing frameworks call `bench 13`.
        #[arg(long = "depth", value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        #[arg(value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(1..=64), conflicts_with = "depth", hide = true)]
        bare_depth: Option<u32>,
    },
    /// Generate NNUE training positions from self-play with a fixed node
    /// budget per move (32-byte records, see the README; files concatenate).
    ///
    /// Appends to --out; an interrupted run leaves a valid file.
    Datagen {
        /// Variant: chess, atomic, dynamo or push.
        #[arg(long, value_name = "NAME", value_parser = variant_arg)]
        variant: VariantKind,
        /// Output file (appended to).
        #[arg(long, value_name = "FILE")]
        out: std::path::PathBuf,
        /// Positions to write.
        #[arg(long, value_name = "N", default_value_t = 1_000_000)]
        positions: u64,
        /// Nodes searched for each move.
        #[arg(long, value_name = "N", default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// Games played at once (`--concurrency` as in `match` works too).
        #[arg(long, visible_alias = "concurrency", value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: u32,
        /// Random plies at the start of each game.
        #[arg(long, value_name = "N", default_value_t = 8)]
        random_plies: usize,
        /// Seed of the random openings (use a different one for each shard).
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Hash table of each thread (MB).
        #[arg(long, value_name = "MB", default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65536))]
        hash: u64,
        /// Search with this network file (default: the variant's embedded
        /// network, if it has one).
        #[arg(long, value_name = "FILE", conflicts_with = "classical")]
        eval_file: Option<std::path::PathBuf>,
        /// Search with the classical evaluation, not a network.
        #[arg(long)]
        classical: bool,
    },
    /// Play engine-vs-engine matches, refereed by Fission's rules.
    Match(MatchArgs),
    /// Compare another engine's `go perft` with Fission's and find the first
    /// position where their move generators disagree.
    ///
    /// Exit code 0 when the counts agree, 1 when they differ, 2 on a usage or
    /// engine error.
    PerftDiff {
        /// Command line of the other engine (split on whitespace).
        #[arg(long, value_name = "CMD")]
        engine: String,
        /// Variant: chess, atomic, dynamo or push.
        #[arg(long, value_name = "NAME", value_parser = variant_arg)]
        variant: VariantKind,
        /// Depth of the comparison; with --suite, the deepest count checked.
        #[arg(long, value_name = "N", required_unless_present = "suite", value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Root position (default: the variant's start position).
        #[arg(long, conflicts_with = "suite")]
        fen: Option<String>,
        /// Moves played from the root first, in UCI notation, space-separated.
        #[arg(long, value_name = "\"M1 M2 ...\"", conflicts_with = "suite")]
        moves: Option<String>,
        /// Threads for Fission's own counts.
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: u32,
        /// Seconds one `go perft` of the other engine may take.
        #[arg(long, value_name = "SECS", default_value_t = 600)]
        timeout: u64,
        /// Check the engine against every count of a perft suite
        /// (e.g. perft-suites/atomic.perft), then walk into each mismatch.
        #[arg(long, value_name = "FILE")]
        suite: Option<String>,
    },
}

/// Prints a line, ignoring a closed pipe (e.g. `| head`).
fn say(s: &str) {
    let mut o = std::io::stdout().lock();
    let _ = writeln!(o, "{s}");
}

fn note(s: &str) {
    eprintln!("{s}");
}

/// Perft of `fen` (or the start) after `moves`; every `progress`, a line on
/// stderr says how far the count is.
fn run_perft<V: Variant>(
    (fen, moves): (Option<&str>, &[&str]),
    depth: u32,
    divide: bool,
    threads: usize,
    progress: Option<Duration>,
) -> Result<(), String> {
    let mut b: Board =
        V::from_fen(fen.unwrap_or(V::start_fen())).unwrap_or_else(|e| usage_error(&format!("invalid FEN: {e}")));
    for text in moves {
        let m = fission::notation::parse_move::<V>(&b, text)
            .unwrap_or_else(|| usage_error(&format!("--moves: {text} is not a legal move in {}", V::fen(&b))));
        b = V::play(&b, m);
    }
    let start = Instant::now();
    // Root moves counted, their nodes, and whether the count is over.
    let (done, nodes_so_far, over) = (AtomicUsize::new(0), AtomicU64::new(0), AtomicBool::new(false));
    let root_moves = {
        let mut list = fission::MoveList::new();
        V::legal_moves(&b, &mut list);
        list.len()
    };
    let counts = std::thread::scope(|s| {
        s.spawn(|| {
            let Some(every) = progress else { return };
            let mut next = start + every;
            while !over.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(50));
                if Instant::now() >= next {
                    next += every;
                    note(&format!(
                        "perft depth {depth}: {} of {} root moves counted, {} nodes so far, {:.0} s",
                        done.load(Ordering::SeqCst),
                        root_moves,
                        nodes_so_far.load(Ordering::SeqCst),
                        start.elapsed().as_secs_f64()
                    ));
                }
            }
        });
        let counts = perft::divide_each::<V>(&b, depth, threads, &|_, n| {
            nodes_so_far.fetch_add(n, Ordering::SeqCst);
            done.fetch_add(1, Ordering::SeqCst);
        });
        over.store(true, Ordering::SeqCst);
        counts
    });
    let nodes: u64 = counts.iter().map(|(_, n)| n).sum();
    if divide {
        for (m, n) in &counts {
            say(&format!("{}: {n}", move_to_uci(*m)));
        }
        say("");
    }
    let secs = start.elapsed().as_secs_f64();
    say(&format!("Nodes searched: {nodes}"));
    say(&format!("Time: {secs:.3} s"));
    say(&format!("Nodes/second: {}", (nodes as f64 / secs.max(1e-9)) as u64));
    Ok(())
}

fn run_bench(depth: Option<u32>) {
    let r = bench::run(depth, |variant, fen, nodes| say(&format!("{variant:<7} {nodes:>10}  {fen}")));
    say("");
    say(&format!("Positions: {}", r.positions));
    say(&format!("Nodes searched: {}", r.nodes));
    say(&format!("Nodes/second: {}", r.nodes * 1000 / r.millis.max(1)));
}

/// The subcommand given, for usage errors found after parsing.
static SUBCOMMAND: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// A usage error found after parsing: clap's format (with the usage of the
/// subcommand it concerns) and exit code 2.
fn usage_error(msg: &str) -> ! {
    let mut cli = Cli::command();
    cli.build();
    let sub = SUBCOMMAND.get().and_then(|name| cli.find_subcommand(name)).cloned();
    let mut cmd = match sub {
        Some(sub) => {
            let name = format!("fission {}", sub.get_name());
            sub.bin_name(name)
        }
        None => cli,
    };
    cmd.error(clap::error::ErrorKind::ValueValidation, msg).exit()
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    if let Some(name) = matches.subcommand_name() {
        let _ = SUBCOMMAND.set(name.to_string());
    }
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if cli.greedy && cli.command.is_some() {
        usage_error("--greedy is a mode of the UCI engine: it takes no subcommand");
    }
    let result = match cli.command {
        None => {
            uci::run_stdin(Output::stdout(), cli.greedy);
            Ok(())
        }
        Some(Command::Perft { variant, depth, fen, moves, divide, threads, progress }) => {
            let every = (progress > 0).then(|| Duration::from_secs(progress));
            let moves: Vec<&str> = moves.as_deref().map(|m| m.split_whitespace().collect()).unwrap_or_default();
            let root = (fen.as_deref(), &moves[..]);
            with_variant!(variant, V => run_perft::<V>(root, depth, divide, threads as usize, every))
        }
        Some(Command::Bench { depth, bare_depth }) => {
            run_bench(depth.or(bare_depth));
            Ok(())
        }
        Some(Command::Datagen {
            variant,
            out,
            positions,
            nodes,
            threads,
            random_plies,
            seed,
            hash,
            eval_file,
            classical,
        }) => {
            let evaluation = match (&eval_file, classical) {
                (_, true) => Evaluation::Classical,
                (Some(path), _) => {
                    let net = Evaluation::load_net(path).unwrap_or_else(|e| usage_error(&format!("--eval-file {e}")));
                    if net.variant() != variant {
                        usage_error(&format!(
                            "--eval-file {} is a network for {}, not {variant}",
                            path.display(),
                            net.variant()
                        ));
                    }
                    Evaluation::Nnue(net)
                }
                (None, false) => Evaluation::default_for(variant),
            };
            note(&format!("evaluation: {}", evaluation.describe()));
            let cfg = DatagenConfig {
                variant,
                out,
                positions,
                nodes,
                threads: threads as usize,
                random_plies,
                seed,
                hash_mb: hash as usize,
                evaluation,
            };
            datagen::run(&cfg, &|line: &str| note(line)).map(|s| {
                say(&format!(
                    "positions {} games {} (White +{} ={} -{}) in {:.1} s",
                    s.positions, s.games, s.white_wins, s.draws, s.black_wins, s.seconds
                ))
            })
        }
        Some(Command::Match(args)) => {
            let sub = matches.subcommand_matches("match").expect("the match subcommand was parsed");
            let cfg = MatchConfig::from_args(args, sub).unwrap_or_else(|e| usage_error(&e));
            if let Some(path) = cfg.openings.as_deref().filter(|p| !std::path::Path::new(p).is_file()) {
                usage_error(&format!("--openings {path}: no such file"));
            }
            if let Err(e) = fission::tools::tournament::check_engines(&cfg) {
                eprintln!("fission match: {e}");
                return ExitCode::from(2);
            }
            fission::tools::tournament::run(&cfg, &say).and_then(|s| s.stopped.map_or(Ok(()), Err))
        }
        Some(Command::PerftDiff { engine, variant, depth, fen, moves, threads, timeout, suite }) => {
            let cfg = DiffConfig {
                engine,
                variant,
                depth,
                fen,
                moves: moves.map(|m| m.split_whitespace().map(str::to_string).collect()).unwrap_or_default(),
                threads: threads as usize,
                timeout: Duration::from_secs(timeout.max(1)),
                suite,
            };
            return match perft_diff::run(&cfg, &say, &note) {
                Ok(DiffOutcome::Agree) => ExitCode::SUCCESS,
                Ok(DiffOutcome::Differ) => ExitCode::from(1),
                Err(e) => {
                    eprintln!("fission perft-diff: {e}");
                    ExitCode::from(2)
                }
            };
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fission: {e}");
            ExitCode::FAILURE
        }
    }
}
