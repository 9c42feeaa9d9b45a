//! Generates balanced opening positions for strength tests
//! (`strength/atomic-openings.epd`): random legal plies from the start
//! position, each kept only where a search of Fission to a fixed node
//! budget scores it within a window around equality, and only once.
//!
//! ```sh
//! cargo run --release --example gen_openings -- --variant atomic --count 300 \
//!     --min-plies 6 --max-plies 8 --nodes 200000 --window 100 --seed 1 > strength/atomic-openings.epd
//! ```
//!
//! Progress goes to stderr. The search is single-threaded and deterministic,
//! so the same arguments and the same build give the same file.

use clap::{CommandFactory, Parser};
use fission::search::tt::TranspositionTable;
use fission::search::{Control, Limits, SearchOptions, Silent, think};
use fission::tools::tournament::random_openings;
use fission::{Variant, VariantKind, with_variant};
use std::collections::HashSet;
use std::sync::Arc;

/// Balanced openings: random plies from the start, kept where a search
/// scores them near equality.
#[derive(Parser)]
#[command(name = "gen_openings", version)]
struct Args {
    /// Variant: chess, atomic, dynamo or push.
    #[arg(long, default_value = "atomic", value_parser = |s: &str| s.parse::<VariantKind>())]
    variant: VariantKind,
    /// Openings to write.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(usize))]
    count: usize,
    /// Fewest random plies from the start position.
    #[arg(long, default_value_t = 6)]
    min_plies: u32,
    /// Most random plies (at least --min-plies).
    #[arg(long, default_value_t = 8)]
    max_plies: u32,
    /// Node budget of the search that scores each candidate.
    #[arg(long, default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Keep a candidate when |score| <= this many centipawns.
    #[arg(long, default_value_t = 100)]
    window: i32,
    /// Seed of the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn generate<V: Variant + fission::eval::Evaluate>(a: &Args) {
    let tt = Arc::new(TranspositionTable::try_new(64).expect("64 MB hash"));
    let mut seen = HashSet::new();
    let mut kept = 0;
    let mut tried = 0u64;
    let mut batch_seed = a.seed;
    println!(
        "# {} openings: {}-{} random plies from the start, kept where a {}-node search scores |eval| <= {} cp",
        V::NAME,
        a.min_plies,
        a.max_plies,
        a.nodes,
        a.window
    );
    println!(
        "# cargo run --release --example gen_openings -- --variant {} --count {} --min-plies {} --max-plies {} --nodes {} --window {} --seed {}",
        V::NAME,
        a.count,
        a.min_plies,
        a.max_plies,
        a.nodes,
        a.window,
        a.seed
    );
    while kept < a.count {
        let span = (a.max_plies - a.min_plies + 1) as u64;
        let plies = a.min_plies + (batch_seed % span) as u32;
        for b in random_openings::<V>(16, plies, batch_seed) {
            if kept >= a.count {
                break;
            }
            let fen = V::fen(&b);
            if !seen.insert(fen.clone()) {
                continue;
            }
            tried += 1;
            tt.clear();
            let limits = Limits { nodes: Some(a.nodes), ..Limits::default() };
            let r = think::<V>(
                &b,
                &[b.key()],
                &limits,
                &SearchOptions::fixed(V::KIND, 1),
                &tt,
                &Arc::new(Control::new(false)),
                Arc::new(Silent),
            );
            if r.score.abs() <= a.window {
                kept += 1;
                println!("{fen} ; plies {plies}; score {}", r.score);
                eprintln!("kept {kept}/{} (tried {tried})", a.count);
            }
        }
        batch_seed = batch_seed.wrapping_add(1);
    }
}

fn main() {
    let a = Args::parse();
    if a.min_plies > a.max_plies {
        Args::command()
            .error(clap::error::ErrorKind::ArgumentConflict, "--min-plies must not exceed --max-plies")
            .exit();
    }
    with_variant!(a.variant, V => generate::<V>(&a));
}
