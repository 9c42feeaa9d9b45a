//! The `fission` binary. With no arguments it speaks UCI on stdin/stdout.
//! Subcommands: `perft`, `bench`.

use fission::perft;
use fission::uci::notation::move_to_uci;
use fission::uci::{self, Output};
use fission::{Board, Variant, VariantKind, bench, with_variant};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage:
  fission                    UCI engine on stdin/stdout
  fission --greedy           UCI, but playing the 1-ply greedy move (a baseline for strength tests)
  fission perft --variant NAME --depth N [--fen FEN] [--divide] [--threads N]
  fission bench [DEPTH]      fixed search of the bench positions (prints Nodes searched, Nodes/second)
  fission match ...          engine-vs-engine matches (fission match --help)";

struct PerftArgs {
    variant: VariantKind,
    depth: u32,
    fen: Option<String>,
    divide: bool,
    threads: usize,
}

fn parse_perft_args(args: &[String]) -> Result<PerftArgs, String> {
    let mut out = PerftArgs { variant: VariantKind::Chess, depth: 1, fen: None, divide: false, threads: 1 };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--variant" => out.variant = value("--variant")?.parse()?,
            "--depth" => out.depth = value("--depth")?.parse().map_err(|e| format!("--depth: {e}"))?,
            "--fen" => out.fen = Some(value("--fen")?),
            "--divide" => out.divide = true,
            "--threads" => {
                out.threads = value("--threads")?.parse().map_err(|e| format!("--threads: {e}"))?;
                if out.threads == 0 {
                    return Err("--threads must be at least 1".into());
                }
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    Ok(out)
}

/// Prints a line, ignoring a closed pipe (e.g. `| head`).
fn say(s: &str) {
    let mut o = std::io::stdout().lock();
    let _ = writeln!(o, "{s}");
}

fn run_perft<V: Variant>(a: &PerftArgs) -> Result<(), String> {
    let fen = a.fen.as_deref().unwrap_or(V::start_fen());
    let b: Board = V::from_fen(fen).map_err(|e| format!("Invalid FEN: {e}"))?;
    let start = Instant::now();
    let nodes = if a.divide {
        let counts = perft::divide::<V>(&b, a.depth, a.threads);
        for (m, n) in &counts {
            say(&format!("{}: {n}", move_to_uci(*m)));
        }
        say("");
        counts.iter().map(|(_, n)| n).sum()
    } else {
        perft::perft_threads::<V>(&b, a.depth, a.threads)
    };
    let secs = start.elapsed().as_secs_f64();
    say(&format!("Nodes searched: {nodes}"));
    say(&format!("Time: {secs:.3} s"));
    say(&format!("Nodes/second: {}", (nodes as f64 / secs.max(1e-9)) as u64));
    Ok(())
}

fn run_bench(args: &[String]) -> Result<(), String> {
    let depth = match args.first() {
        Some(d) => Some(d.parse::<u32>().ok().filter(|d| (1..=64).contains(d)).ok_or("bench depth must be 1 to 64")?),
        None => None,
    };
    let r = bench::run(depth, |variant, fen, nodes| say(&format!("{variant:<7} {nodes:>10}  {fen}")));
    say("");
    say(&format!("Positions: {}", r.positions));
    say(&format!("Nodes searched: {}", r.nodes));
    say(&format!("Nodes/second: {}", r.nodes * 1000 / r.millis.max(1)));
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => {
            uci::run(std::io::stdin().lock(), Output::stdout(), false);
            Ok(())
        }
        Some("--greedy") => {
            uci::run(std::io::stdin().lock(), Output::stdout(), true);
            Ok(())
        }
        Some("perft") => parse_perft_args(&args[1..]).and_then(|a| with_variant!(a.variant, V => run_perft::<V>(&a))),
        Some("bench") => run_bench(&args[1..]),
        Some("match") => fission::tournament::MatchConfig::parse(&args[1..])
            .and_then(|cfg| fission::tournament::run(&cfg, &say).map(|_| ())),
        Some("-h" | "--help" | "help") => {
            say(USAGE);
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fission: {e}");
            ExitCode::FAILURE
        }
    }
}
