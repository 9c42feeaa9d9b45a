//! `fission-trainer`: trains a network from `fission datagen` files and
//! writes the engine's quantised net file. See the README ("NNUE").

use clap::Parser;
use fission::VariantKind;
use fission::eval::Evaluation;
use fission::nnue::data::read_records;
use fission::nnue::network::SCALE;
use fission_trainer::{
    DEFAULT_HIDDEN, KingMap, Model, TrainConfig, check_buckets, check_hidden, engine_eval, eval_loss, quantise, split,
    train,
};
use std::path::PathBuf;
use std::process::ExitCode;

/// Train Fission's NNUE evaluation on the CPU.
#[derive(Parser)]
#[command(name = "fission-trainer", version = fission::VERSION, about)]
struct Args {
    /// Data files written by `fission datagen` (read whole into memory).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The net file to write (the engine's format; loadable with `EvalFile`).
    #[arg(long, required_unless_present = "validate_only")]
    out: Option<PathBuf>,
    /// Variant whose records are used (others are skipped); the net is for it.
    #[arg(long, default_value = "atomic", value_parser = |s: &str| s.parse::<VariantKind>())]
    variant: VariantKind,
    /// Passes over the training positions (at least 1).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    epochs: u64,
    /// Positions per optimiser step (at least 1).
    #[arg(long, default_value_t = 16_384, value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    batch: u64,
    /// Adam's learning rate at the start (above 0).
    #[arg(long, default_value_t = 0.001, value_parser = positive)]
    lr: f32,
    /// The learning rate is multiplied by --lr-gamma every --lr-step epochs.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..))]
    lr_step: u64,
    /// Factor of each learning-rate step (above 0, at most 1).
    #[arg(long, default_value_t = 0.1, value_parser = gamma)]
    lr_gamma: f32,
    /// Weight of the game result in the target (the rest: the search score), 0 to 1.
    #[arg(long, default_value_t = 0.3, value_parser = share)]
    wdl: f32,
    /// Share of the games held out for the validation loss (above 0, below 1).
    #[arg(long, default_value_t = 0.02, value_parser = held_out)]
    validation: f64,
    /// Validate on these files instead of holding out a share of --data
    /// (which is then all trained on): e.g. new games no net under
    /// comparison has seen.
    #[arg(long, num_args = 1..)]
    validation_data: Vec<PathBuf>,
    /// Only report the starting net's validation loss (and the classical
    /// evaluation's) and exit: nothing is trained or written.
    #[arg(long)]
    validate_only: bool,
    /// Training threads (1 to 1024).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: u64,
    /// Do not train on left-right mirror images of the positions.
    #[arg(long)]
    no_mirror: bool,
    /// Seed of the random weights, the validation split and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write a float checkpoint and the quantised net after every epoch here.
    #[arg(long)]
    checkpoints: Option<PathBuf>,
    /// Start from a float checkpoint instead of random weights.
    #[arg(long, conflicts_with = "init_net")]
    resume: Option<PathBuf>,
    /// Start from a net file (the engine's format, e.g. `nets/atomic.fnn`),
    /// its quantised weights read back as floats.
    #[arg(long)]
    init_net: Option<PathBuf>,
    /// Hidden width H of the (768 → H) × 2 → 1 net: a multiple of 16 up to
    /// 1024 (default 128, or the width of --init-net / --resume). Starting
    /// from a narrower net widens it without changing what it computes:
    /// the new units start with output weights of zero.
    #[arg(long, value_parser = hidden_width)]
    hidden: Option<usize>,
    /// Output buckets, chosen by the number of pieces on the board: 1 to 16
    /// (default 1, or the buckets of --init-net / --resume). A one-bucket
    /// starting net is split into copies of its output layer, computing
    /// the same function; a net with buckets keeps its own.
    #[arg(long, value_parser = bucket_count)]
    output_buckets: Option<usize>,
    /// King input buckets, by where each side's own king stands: none,
    /// mirror, rank, rank-mirror, 4 or quad-mirror (see the README,
    /// "King input buckets"; default none, or those of --init-net /
    /// --resume). A starting net without them is split into copies of its
    /// feature weights, one per bucket (the same function unless mirrored).
    #[arg(long, value_parser = KingMap::named)]
    king_buckets: Option<KingMap>,
}

fn bucket_count(s: &str) -> Result<usize, String> {
    let b: usize = number(s)?;
    check_buckets(b).map(|()| b)
}

fn hidden_width(s: &str) -> Result<usize, String> {
    let h: usize = number(s)?;
    check_hidden(h).map(|()| h)
}

fn number<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("'{s}' is not a number"))
}

fn positive(s: &str) -> Result<f32, String> {
    let x: f32 = number(s)?;
    if x > 0.0 && x.is_finite() { Ok(x) } else { Err("must be above 0".into()) }
}

fn gamma(s: &str) -> Result<f32, String> {
    let x: f32 = number(s)?;
    if x > 0.0 && x <= 1.0 { Ok(x) } else { Err("must be above 0 and at most 1".into()) }
}

fn share(s: &str) -> Result<f32, String> {
    let x: f32 = number(s)?;
    if (0.0..=1.0).contains(&x) { Ok(x) } else { Err("must be from 0 to 1".into()) }
}

fn held_out(s: &str) -> Result<f64, String> {
    let x: f64 = number(s)?;
    if x > 0.0 && x < 1.0 { Ok(x) } else { Err("must be above 0 and below 1".into()) }
}

/// Fails unless `path` can be written, leaving no file behind that was not
/// there before (so a bad --out is reported before hours of training).
fn check_writable(path: &std::path::Path) -> Result<(), String> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Argument errors found before any work: clap's format, exit code 2.
fn usage_error(msg: &str) -> ! {
    use clap::CommandFactory;
    Args::command().error(clap::error::ErrorKind::ValueValidation, msg).exit()
}

/// The records of `variant` in `paths`, each file's count reported.
fn read_all(paths: &[PathBuf], variant: VariantKind) -> Result<Vec<fission::nnue::data::Record>, String> {
    let mut records = Vec::new();
    for path in paths {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let all = read_records(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let n = all.len();
        records.extend(all.into_iter().filter(|r| r.variant == variant));
        eprintln!("{}: {n} records", path.display());
    }
    Ok(records)
}

fn run(args: Args) -> Result<(), String> {
    if let Some(Err(e)) = args.out.as_deref().map(check_writable) {
        usage_error(&e);
    }
    if let Some(dir) = args.checkpoints.as_ref().filter(|d| d.exists() && !d.is_dir()) {
        usage_error(&format!("--checkpoints {} is not a directory", dir.display()));
    }
    for path in args.data.iter().chain(&args.validation_data).chain(&args.resume).chain(&args.init_net) {
        if !path.is_file() {
            usage_error(&format!("{} is not a file", path.display()));
        }
    }
    let records = read_all(&args.data, args.variant)?;
    if records.is_empty() {
        return Err(format!("no {} records in the data", args.variant));
    }
    let (mut train_set, validation) = if args.validation_data.is_empty() {
        split(records, args.validation, args.seed)
    } else {
        (records, read_all(&args.validation_data, args.variant)?)
    };
    eprintln!("training on {} positions, validating on {}", train_set.len(), validation.len());
    if validation.is_empty() || train_set.is_empty() {
        return Err(format!(
            "{} training and {} validation positions: too few games to hold some out (more data, or a larger --validation)",
            train_set.len(),
            validation.len()
        ));
    }
    let read = |p: &PathBuf| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()));
    let mut model = match (&args.resume, &args.init_net) {
        (Some(p), _) => Model::from_checkpoint(&read(p)?).map_err(|e| {
            let hint =
                if Evaluation::load_net(p).is_ok() { "; it is a net file: start from it with --init-net" } else { "" };
            format!("{}: {e}{hint}", p.display())
        })?,
        (None, Some(p)) => {
            let net = Evaluation::load_net(p)?;
            if net.variant() != args.variant {
                return Err(format!("{} is a {} net, not {}", p.display(), net.variant(), args.variant));
            }
            Model::from_network(&net)
        }
        (None, None) => {
            let king = args.king_buckets.unwrap_or(KingMap::NONE);
            Model::random_with(king, args.hidden.unwrap_or(DEFAULT_HIDDEN), args.output_buckets.unwrap_or(1), args.seed)
        }
    };
    if let Some(king) = args.king_buckets.filter(|k| *k != model.king) {
        if !model.king.is_none() {
            return Err(
                "--king-buckets: the starting net has king buckets of its own; only a net without them is split".into(),
            );
        }
        eprintln!("splitting the starting net's feature weights into {} king buckets", king.buckets());
        model = model.split_king(king);
    }
    if let Some(b) = args.output_buckets.filter(|&b| b != model.buckets) {
        if model.buckets != 1 {
            return Err(format!(
                "--output-buckets {b}: the starting net has {} output buckets; only a one-bucket net is split",
                model.buckets
            ));
        }
        eprintln!("splitting the starting net's output layer into {b} buckets");
        model = model.split_output(b);
    }
    if let Some(h) = args.hidden.filter(|&h| h != model.hidden) {
        if h < model.hidden {
            return Err(format!(
                "--hidden {h} is narrower than the starting net ({}); a net is only widened",
                model.hidden
            ));
        }
        eprintln!("widening the starting net from {} to {h} hidden units", model.hidden);
        model = model.widen(h, args.seed);
    }
    eprintln!(
        "network: {}x{}, {} output bucket{}, {} king bucket{} ({} parameters)",
        fission::nnue::network::INPUTS * model.king.buckets(),
        model.hidden,
        model.buckets,
        if model.buckets == 1 { "" } else { "s" },
        model.king.buckets(),
        if model.king.buckets() == 1 { "" } else { "s" },
        model.ft_w.len() + model.ft_b.len() + model.out_w.len() + model.out_b.len()
    );
    let cfg = TrainConfig {
        epochs: args.epochs as usize,
        batch: args.batch as usize,
        lr: args.lr,
        lr_step: args.lr_step as usize,
        lr_gamma: args.lr_gamma,
        wdl: args.wdl,
        threads: args.threads as usize,
        seed: args.seed,
        mirror: !args.no_mirror,
    };
    eprintln!("validation loss before training: {:.6}", model.loss(&validation, cfg.wdl, cfg.threads));
    let classical = eval_loss(&validation, cfg.wdl, |r| engine_eval(&Evaluation::Classical, r));
    eprintln!("validation loss of the classical evaluation: {classical:.6}");
    let Some(out) = args.out.as_ref().filter(|_| !args.validate_only) else {
        return Ok(());
    };
    let mut failure = None;
    train(&mut model, &mut train_set, &validation, &cfg, |r, m| {
        println!(
            "epoch {:>3}  lr {:.2e}  train loss {:.6}  validation loss {:.6}  {:.1} s  {:.0} positions/s",
            r.epoch, r.lr, r.train_loss, r.validation_loss, r.seconds, r.positions_per_second
        );
        if let Some(dir) = &args.checkpoints {
            let write = || -> Result<(), String> {
                std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
                std::fs::write(dir.join(format!("epoch{}.ckpt", r.epoch)), m.to_checkpoint())
                    .map_err(|e| e.to_string())?;
                let net = quantise(m, args.variant)?;
                std::fs::write(dir.join(format!("epoch{}.fnn", r.epoch)), net.to_bytes()).map_err(|e| e.to_string())
            };
            if let Err(e) = write() {
                failure.get_or_insert(format!("cannot write a checkpoint into {}: {e}", dir.display()));
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let net = quantise(&model, args.variant)?;
    std::fs::write(out, net.to_bytes()).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    // How far quantisation moves the evaluation, on the validation positions.
    let sample = &validation[..validation.len().min(20_000)];
    let evaluation = Evaluation::Nnue(std::sync::Arc::new(net));
    if !sample.is_empty() {
        let diff: f64 = sample
            .iter()
            .map(|r| ((model.output(r) * SCALE as f32) as f64 - engine_eval(&evaluation, r) as f64).abs())
            .sum::<f64>()
            / sample.len() as f64;
        println!(
            "quantised net: mean |float - engine| evaluation difference {diff:.2} cp over {} positions",
            sample.len()
        );
    }
    println!("wrote {}", out.display());
    Ok(())
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fission-trainer: {e}");
            ExitCode::FAILURE
        }
    }
}
