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

#[path = "common/flags.rs"]
mod flags;

use fission::search::tt::TranspositionTable;
use fission::search::{Control, Limits, SearchOptions, Silent, think};
use fission::tools::tournament::random_openings;
use fission::{Variant, VariantKind, with_variant};
use flags::Flags;
use std::collections::HashSet;
use std::sync::Arc;

struct Args {
    variant: VariantKind,
    count: usize,
    min_plies: u32,
    max_plies: u32,
    nodes: u64,
    window: i32,
    seed: u64,
}

fn parse() -> Result<Args, String> {
    let known = ["--variant", "--count", "--min-plies", "--max-plies", "--nodes", "--window", "--seed"];
    let f = Flags::from_args(&known)?;
    let a = Args {
        variant: f.get("--variant", VariantKind::Atomic)?,
        count: f.get("--count", 300)?,
        min_plies: f.get("--min-plies", 6)?,
        max_plies: f.get("--max-plies", 8)?,
        nodes: f.get("--nodes", 200_000)?,
        window: f.get("--window", 100)?,
        seed: f.get("--seed", 1)?,
    };
    if a.min_plies > a.max_plies {
        return Err("--min-plies must not exceed --max-plies".into());
    }
    Ok(a)
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
    let a = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("gen_openings: {e}");
            std::process::exit(2);
        }
    };
    with_variant!(a.variant, V => generate::<V>(&a));
}
