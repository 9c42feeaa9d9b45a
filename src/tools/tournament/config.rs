//! What `fission match` is asked for: its command-line flags (declared once,
//! with clap, for both the binary's `--help` and the library's parser) and
//! the checked configuration the runner plays from.

use super::game::{self, TimeControl};
use super::stats::Sprt;
use crate::tools::uci_client::EngineSpec;
use crate::variant::VariantKind;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser};

/// `NAME=VALUE`, as `--option` and `--engine-option` take it.
fn name_value(s: &str) -> Result<(String, String), String> {
    let (k, v) = s.split_once('=').ok_or(format!("expected NAME=VALUE, got '{s}'"))?;
    if k.trim().is_empty() {
        return Err(format!("expected NAME=VALUE, got '{s}'"));
    }
    Ok((k.trim().to_string(), v.trim().to_string()))
}

/// The flags of `fission match`.
#[derive(Args, Clone, Debug)]
#[command(after_help = "Examples:
  fission match --engine ./fission --engine ./fission-old --variant atomic --games 200 --tc 5+0.05 \\
                --openings strength/atomic-openings.epd --concurrency 2 --pgn out.pgn
  fission match --engine ./new --engine ./old --variant atomic --tc 3+0.03 --sprt elo0=0,elo1=10 ...")]
pub struct MatchArgs {
    /// Command line of an engine (split on whitespace). Give two or more;
    /// the first is the gauntlet player with --gauntlet.
    #[arg(long = "engine", value_name = "CMD", required = true)]
    pub engines: Vec<String>,
    /// Variant to play: chess, atomic, dynamo or push.
    #[arg(long, value_name = "NAME", value_parser = |s: &str| s.parse::<VariantKind>())]
    pub variant: VariantKind,
    /// Games per pairing, rounded up to an even number (each opening is
    /// played twice, colours reversed); 1 to 1,000,000.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// Time control per game: base seconds + increment seconds (`10+0.1`, `60`).
    #[arg(long, value_name = "BASE+INC", default_value = "10+0.1", value_parser = TimeControl::parse)]
    pub tc: TimeControl,
    /// Games played at once, each with its own engine processes (1 to 256).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// Opening positions: one FEN or EPD per line ('#' comments and blank lines skipped).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Without --openings: random plies played from the start position (0 to 200).
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=200))]
    pub random_plies: u32,
    /// Seed of the random openings and of the opening order.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Write every finished game to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<String>,
    /// Stop at a sequential probability ratio test verdict (two engines only):
    /// `elo0=0,elo1=10,alpha=0.05,beta=0.05` (any order; these are the defaults).
    #[arg(long, value_name = "PARAMS", value_parser = Sprt::parse)]
    pub sprt: Option<Sprt>,
    /// Play only the first engine against each of the others (default: round robin).
    #[arg(long)]
    pub gauntlet: bool,
    /// Milliseconds an engine may exceed its clock before it loses on time.
    #[arg(long = "timemargin", value_name = "MS", default_value_t = game::DEFAULT_TIME_MARGIN_MS)]
    pub time_margin_ms: u64,
    /// Adjudicate a game as a draw once each side has made this many moves
    /// (0: never). Dynamo has no fifty-move rule, and a game can go on for
    /// thousands of moves without repeating a position.
    #[arg(long = "max-moves", value_name = "N", default_value_t = 0)]
    pub max_moves: u32,
    /// A UCI option for every engine (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = name_value)]
    pub options: Vec<(String, String)>,
    /// A UCI option for the engine named just before it; it wins over an
    /// --option of the same name (repeatable).
    #[arg(long = "engine-option", value_name = "NAME=VALUE", value_parser = name_value)]
    pub engine_options: Vec<(String, String)>,
}

/// Everything `fission match` was asked for.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub variant: VariantKind,
    /// Games per pairing (even).
    pub games: u32,
    pub tc: TimeControl,
    pub concurrency: usize,
    pub openings: Option<String>,
    /// Random plies from the start position when no opening file is given.
    pub random_plies: u32,
    pub seed: u64,
    pub pgn: Option<String>,
    pub sprt: Option<Sprt>,
    /// Play only the first engine against each other (else round robin).
    pub gauntlet: bool,
    pub time_margin_ms: u64,
    /// Moves by each side after which a game is a draw (0: no limit).
    pub max_moves: u32,
}

/// A parser for `match` alone, for [`MatchConfig::parse`].
#[derive(Parser)]
#[command(name = "fission match")]
struct MatchOnly {
    #[command(flatten)]
    args: MatchArgs,
}

impl MatchConfig {
    /// Parses the arguments that follow `fission match`.
    pub fn parse(args: &[String]) -> Result<MatchConfig, String> {
        let matches = MatchOnly::command()
            .try_get_matches_from(std::iter::once("fission match".to_string()).chain(args.iter().cloned()))
            .map_err(|e| e.to_string())?;
        let parsed = MatchOnly::from_arg_matches(&matches).map_err(|e| e.to_string())?;
        MatchConfig::from_args(parsed.args, &matches)
    }

    /// Checks parsed flags; `matches` tells which `--engine` each
    /// `--engine-option` follows.
    pub fn from_args(a: MatchArgs, matches: &ArgMatches) -> Result<MatchConfig, String> {
        if a.engines.len() < 2 {
            return Err("at least two --engine are needed".into());
        }
        if a.sprt.is_some() && a.engines.len() != 2 {
            return Err("--sprt needs exactly two engines".into());
        }
        let engine_at: Vec<usize> = matches.indices_of("engines").map(|i| i.collect()).unwrap_or_default();
        let option_at: Vec<usize> = matches.indices_of("engine_options").map(|i| i.collect()).unwrap_or_default();
        let mut own: Vec<Vec<(String, String)>> = vec![Vec::new(); a.engines.len()];
        for (opt, at) in a.engine_options.into_iter().zip(option_at) {
            let owner = engine_at.iter().filter(|&&e| e < at).count();
            let owner = owner.checked_sub(1).ok_or("--engine-option must follow an --engine")?;
            own[owner].push(opt);
        }
        let engines = a
            .engines
            .into_iter()
            .zip(own)
            .map(|(cmd, own)| {
                // Shared options first: an engine's own option of the same name wins.
                let mut options = a.options.clone();
                options.extend(own);
                EngineSpec { cmd, options }
            })
            .collect();
        Ok(MatchConfig {
            engines,
            variant: a.variant,
            games: a.games + a.games % 2,
            tc: a.tc,
            concurrency: a.concurrency as usize,
            openings: a.openings,
            random_plies: a.random_plies,
            seed: a.seed,
            pgn: a.pgn,
            sprt: a.sprt,
            gauntlet: a.gauntlet,
            time_margin_ms: a.time_margin_ms,
            max_moves: a.max_moves,
        })
    }
}
