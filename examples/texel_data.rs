//! Positions with game results for tuning the evaluation (the Texel method,
//! `examples/tune.rs`): self-play games of Fission at a fixed node budget
//! per move from random openings; every quiet position of a game (not in
//! check, nothing to blow up, best move not tactical, past the opening
//! plies) is written with the game's result, one per line:
//! `<FEN> | <white's score: 1, 0.5 or 0>`.
//!
//! ```sh
//! cargo run --release --example texel_data -- --variant atomic --games 4000 \
//!     --nodes 5000 --threads 2 --seed 1 > atomic-texel.txt
//! ```
//!
//! Progress on stderr. Games are written whole as they finish, so an
//! interrupted run leaves a valid file; files with different seeds
//! concatenate.

use clap::Parser;
use fission::eval::Evaluate;
use fission::search::tt::TranspositionTable;
use fission::search::{Control, Limits, SearchOptions, Silent, think};
use fission::tools::tournament::random_openings;
use fission::variant::game_end;
use fission::{Board, Color, VariantKind, with_variant};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Self-play positions with game results, for tuning the evaluation.
#[derive(Parser)]
#[command(name = "texel_data", version)]
struct Args {
    /// Variant: chess, atomic, dynamo or push.
    #[arg(long, default_value = "atomic", value_parser = |s: &str| s.parse::<VariantKind>())]
    variant: VariantKind,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Node budget per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(usize))]
    threads: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies from the start position before the search plays.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Plies of each game (after the random ones) not written.
    #[arg(long, default_value_t = 4)]
    skip_plies: usize,
}

/// Plays one game from `start`; returns the quiet positions' FENs and
/// white's score.
fn play_game<V: Evaluate>(start: &Board, a: &Args, tt: &Arc<TranspositionTable>) -> (Vec<String>, f32) {
    let mut b = start.clone();
    let mut keys = vec![b.key()];
    let mut fens = Vec::new();
    tt.clear();
    let limits = Limits { nodes: Some(a.nodes), ..Limits::default() };
    for ply in 0..400 {
        if let Some(end) = game_end::<V>(&b, &keys) {
            let score = match end.winner {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
            return (fens, score);
        }
        let r = think::<V>(
            &b,
            &keys,
            &limits,
            &SearchOptions::fixed(V::KIND, 1),
            tt,
            &Arc::new(Control::new(false)),
            Arc::new(Silent),
        );
        let Some(m) = r.best else { break };
        if ply >= a.skip_plies && !V::is_check(&b) && V::stand_pat_ok(&b) && !V::is_tactical(&b, m) {
            fens.push(V::fen(&b));
        }
        b = V::play(&b, m);
        keys.push(b.key());
    }
    (fens, 0.5)
}

fn generate<V: Evaluate>(a: &Args) {
    let openings = random_openings::<V>(a.games, a.random_plies, a.seed);
    let next = AtomicUsize::new(0);
    let written = AtomicUsize::new(0);
    let out = Mutex::new(std::io::stdout());
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..a.threads {
            s.spawn(|| {
                let tt = Arc::new(TranspositionTable::try_new(16).expect("16 MB hash"));
                loop {
                    let g = next.fetch_add(1, Ordering::SeqCst);
                    if g >= openings.len() {
                        break;
                    }
                    let (fens, score) = play_game::<V>(&openings[g], a, &tt);
                    let mut text = String::new();
                    for f in &fens {
                        text.push_str(&format!("{f} | {score}\n"));
                    }
                    if let Ok(mut o) = out.lock() {
                        let _ = o.write_all(text.as_bytes());
                        let _ = o.flush();
                    }
                    let n = written.fetch_add(fens.len(), Ordering::SeqCst) + fens.len();
                    let secs = started.elapsed().as_secs_f64();
                    eprintln!("game {}/{}: {n} positions, {:.0} positions/s", g + 1, a.games, n as f64 / secs);
                }
            });
        }
    });
}

fn main() {
    let a = Args::parse();
    if a.threads == 0 {
        eprintln!("texel_data: --threads must be at least 1");
        std::process::exit(2);
    }
    with_variant!(a.variant, V => generate::<V>(&a));
}
