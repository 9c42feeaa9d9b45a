//! Tunes the atomic evaluation's weights on game results (the Texel
//! method): the evaluation's win probability, `sigmoid(K * eval / 400)`, is
//! fitted to the results of positions from Fission's own games by gradient
//! descent (Adam, full batch) over every weight of `weights::ATOMIC_TERMS`.
//!
//! ```sh
//! cargo run --release --example texel_data -- --variant atomic --games 8000 --nodes 4000 --threads 2 > atomic-texel.txt
//! cargo run --release --example tune -- --data atomic-texel.txt --epochs 400 > tuned.txt
//! ```
//!
//! The evaluation is linear in its weights once each position's terms are
//! counted (a *trace*, `eval::terms`), so the positions are read once and
//! every epoch works on the traces alone. K is fitted first, with the
//! weights as they are. One position in ten is held out: the closing lines
//! give both losses and the new table, as Rust, for `src/eval/weights.rs`.

use fission::eval::atomic::{drawish_scale, terms};
use fission::eval::common::phase;
use fission::eval::terms::{TERMS, Term, Trace};
use fission::eval::weights::{ATOMIC_TERMS, PHASE_TOTAL};
use fission::{Atomic, Color, Variant};
use rayon::prelude::*;

/// One position, reduced to what the evaluation of any weights needs.
struct Sample {
    /// Non-zero term counts, from white's view.
    counts: Vec<(u8, i16)>,
    fixed: (f64, f64),
    /// Middlegame share, phase / PHASE_TOTAL.
    mg: f64,
    /// Drawn-material scale (of 1) when white, resp. black, is ahead.
    scale: [f64; 2],
    result: f64,
}

type Weights = [[f64; 2]; TERMS];

fn load(path: &str) -> Vec<Sample> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let lines: Vec<&str> = text.lines().collect();
    lines
        .par_iter()
        .filter_map(|line| {
            let (fen, result) = line.split_once('|')?;
            let result: f64 = result.trim().parse().ok()?;
            let b = Atomic::from_fen(fen.trim()).ok()?;
            let mut t = Trace::default();
            terms(&b, &mut t);
            let sign = if b.turn() == Color::White { 1 } else { -1 };
            let counts = t
                .counts
                .iter()
                .enumerate()
                .filter(|(_, c)| **c != 0)
                .map(|(i, &c)| (i as u8, (c * sign) as i16))
                .collect();
            Some(Sample {
                counts,
                fixed: ((t.fixed.0 * sign) as f64, (t.fixed.1 * sign) as f64),
                mg: phase(&b) as f64 / PHASE_TOTAL as f64,
                scale: [drawish_scale(&b, Color::White) as f64 / 8.0, drawish_scale(&b, Color::Black) as f64 / 8.0],
                result,
            })
        })
        .collect()
}

/// White's evaluation of a sample with weights `w`.
fn eval(s: &Sample, w: &Weights) -> f64 {
    let (mut m, mut e) = s.fixed;
    for &(i, c) in &s.counts {
        m += w[i as usize][0] * c as f64;
        e += w[i as usize][1] * c as f64;
    }
    let v = m * s.mg + e * (1.0 - s.mg);
    v * if v >= 0.0 { s.scale[0] } else { s.scale[1] }
}

fn sigmoid(k: f64, v: f64) -> f64 {
    1.0 / (1.0 + (-k * v / 400.0).exp())
}

fn loss(data: &[Sample], w: &Weights, k: f64) -> f64 {
    data.par_iter().map(|s| (s.result - sigmoid(k, eval(s, w))).powi(2)).sum::<f64>() / data.len().max(1) as f64
}

/// Gradient of the mean squared error with respect to every weight.
fn gradient(data: &[Sample], w: &Weights, k: f64) -> Weights {
    let zero = || [[0.0; 2]; TERMS];
    let mut g = data
        .par_iter()
        .fold(zero, |mut g, s| {
            let v = eval(s, w);
            let p = sigmoid(k, v);
            let scale = if v >= 0.0 { s.scale[0] } else { s.scale[1] };
            // d loss / d v, then d v / d weight = count x phase share x scale.
            let d = -2.0 * (s.result - p) * p * (1.0 - p) * k / 400.0 * scale;
            for &(i, c) in &s.counts {
                g[i as usize][0] += d * c as f64 * s.mg;
                g[i as usize][1] += d * c as f64 * (1.0 - s.mg);
            }
            g
        })
        .reduce(zero, |mut a, b| {
            for (x, y) in a.iter_mut().zip(b.iter()) {
                x[0] += y[0];
                x[1] += y[1];
            }
            a
        });
    let n = data.len().max(1) as f64;
    for x in g.iter_mut() {
        x[0] /= n;
        x[1] /= n;
    }
    g
}

fn fit_k(data: &[Sample], w: &Weights) -> f64 {
    // Golden-section search on (0.1, 4).
    let (mut lo, mut hi) = (0.1f64, 4.0f64);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - r * (hi - lo);
        let b = lo + r * (hi - lo);
        if loss(data, w, a) < loss(data, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Tunes the atomic evaluation weights on `texel_data` positions (Texel's method).
#[derive(clap::Parser)]
#[command(name = "tune", version)]
struct Args {
    /// The positions, as `texel_data` writes them.
    #[arg(long)]
    data: String,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// Learning rate.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
}

fn main() {
    let Args { data: path, epochs, lr } = clap::Parser::parse();
    let mut data = load(&path);
    // Every tenth position is held out for validation.
    let mut valid = Vec::new();
    let mut train = Vec::new();
    for (i, s) in data.drain(..).enumerate() {
        if i % 10 == 9 { valid.push(s) } else { train.push(s) }
    }
    eprintln!("{} training and {} validation positions", train.len(), valid.len());
    let mut w: Weights = [[0.0; 2]; TERMS];
    for (x, &(m, e)) in w.iter_mut().zip(ATOMIC_TERMS.iter()) {
        *x = [m as f64, e as f64];
    }
    let k = fit_k(&train, &w);
    println!(
        "# K = {k:.4}; start: training loss {:.6}, validation loss {:.6}",
        loss(&train, &w, k),
        loss(&valid, &w, k)
    );
    // Adam.
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut m1: Weights = [[0.0; 2]; TERMS];
    let mut m2: Weights = [[0.0; 2]; TERMS];
    for epoch in 1..=epochs {
        let g = gradient(&train, &w, k);
        for i in 0..TERMS {
            for j in 0..2 {
                m1[i][j] = b1 * m1[i][j] + (1.0 - b1) * g[i][j];
                m2[i][j] = b2 * m2[i][j] + (1.0 - b2) * g[i][j] * g[i][j];
                let mh = m1[i][j] / (1.0 - b1.powi(epoch as i32));
                let vh = m2[i][j] / (1.0 - b2.powi(epoch as i32));
                w[i][j] -= lr * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % 25 == 0 || epoch == epochs {
            eprintln!(
                "epoch {epoch}: training loss {:.6}, validation loss {:.6}",
                loss(&train, &w, k),
                loss(&valid, &w, k)
            );
        }
    }
    println!("# end: training loss {:.6}, validation loss {:.6}", loss(&train, &w, k), loss(&valid, &w, k));
    println!("pub const ATOMIC_TERMS: Table = [");
    for (i, x) in w.iter().enumerate() {
        println!("    ({}, {}), // {:?}", x[0].round() as i32, x[1].round() as i32, Term::ALL[i]);
    }
    println!("];");
}
