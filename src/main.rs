//! The `fission` binary: subcommands `perft`; more to come.

use fission::perft;
use fission::uci::notation::move_to_uci;
use fission::{Board, Variant, VariantKind, with_variant};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str =
    "usage: fission perft --variant NAME --depth N [--fen FEN] [--divide] [--threads N]";

struct PerftArgs {
    variant: VariantKind,
    depth: u32,
    fen: Option<String>,
    divide: bool,
    threads: usize,
}

fn parse_perft_args(args: &[String]) -> Result<PerftArgs, String> {
    let mut out = PerftArgs {
        variant: VariantKind::Chess,
        depth: 1,
        fen: None,
        divide: false,
        threads: 1,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--variant" => out.variant = value("--variant")?.parse()?,
            "--depth" => {
                out.depth = value("--depth")?
                    .parse()
                    .map_err(|e| format!("--depth: {e}"))?
            }
            "--fen" => out.fen = Some(value("--fen")?),
            "--divide" => out.divide = true,
            "--threads" => {
                out.threads = value("--threads")?
                    .parse()
                    .map_err(|e| format!("--threads: {e}"))?
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    Ok(out)
}

fn run_perft<V: Variant>(a: &PerftArgs) -> Result<(), String> {
    let fen = a.fen.as_deref().unwrap_or(V::start_fen());
    let b: Board = V::from_fen(fen).map_err(|e| format!("Invalid FEN: {e}"))?;
    let start = Instant::now();
    let nodes = if a.divide {
        let counts = perft::divide::<V>(&b, a.depth, a.threads);
        for (m, n) in &counts {
            println!("{}: {n}", move_to_uci(*m));
        }
        println!();
        counts.iter().map(|(_, n)| n).sum()
    } else {
        perft::perft_threads::<V>(&b, a.depth, a.threads)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {nodes}");
    println!("Time: {:.3} s", secs);
    println!("Nodes/second: {}", (nodes as f64 / secs.max(1e-9)) as u64);
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("perft") => parse_perft_args(&args[1..])
            .and_then(|a| with_variant!(a.variant, V => run_perft::<V>(&a))),
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fission: {e}");
            ExitCode::FAILURE
        }
    }
}
