//! UCI options: their declarations (as printed after `uci`) and parsing of
//! `setoption` values. Names match case-insensitively, as the protocol says.

use crate::engine::DEFAULT_HASH_MB;
use crate::search::{DEFAULT_MOVE_OVERHEAD, DEFAULT_MULTIPV, DEFAULT_THREADS};
use crate::variant::VariantKind;

pub const HASH_MAX_MB: usize = 65_536;
pub const THREADS_MAX: usize = 256;
pub const MULTIPV_MAX: usize = 256;
pub const MOVE_OVERHEAD_MAX: u64 = 5_000;

/// A validated `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionChange {
    Variant(VariantKind),
    Hash(usize),
    ClearHash,
    Threads(usize),
    MultiPv(usize),
    Ponder(bool),
    MoveOverhead(u64),
    Chess960(bool),
    UseNnue(bool),
    EvalFile(String),
}

/// The `option ...` lines printed after `uci`. The defaults are the
/// engine's own (`search::DEFAULT_*`, `engine::DEFAULT_HASH_MB`),
/// written in one place each.
pub fn declarations() -> Vec<String> {
    let vars: Vec<String> = VariantKind::ALL.iter().map(|v| format!("var {}", v.name())).collect();
    vec![
        format!("option name Threads type spin default {DEFAULT_THREADS} min 1 max {THREADS_MAX}"),
        format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {HASH_MAX_MB}"),
        "option name Clear Hash type button".to_string(),
        "option name Ponder type check default false".to_string(),
        format!("option name MultiPV type spin default {DEFAULT_MULTIPV} min 1 max {MULTIPV_MAX}"),
        format!("option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD} min 0 max {MOVE_OVERHEAD_MAX}"),
        format!("option name UCI_Variant type combo default {} {}", VariantKind::Chess.name(), vars.join(" ")),
        "option name UCI_Chess960 type check default false".to_string(),
        "option name Use NNUE type check default true".to_string(),
        format!("option name EvalFile type string default {}", crate::nnue::DEFAULT_EVAL_FILE),
    ]
}

fn spin(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<i64, String> {
    let v = value.map(str::trim).unwrap_or("");
    let n: i64 = v
        .parse()
        .map_err(|_| format!("Invalid value for option {name}: '{v}' (expected an integer from {min} to {max})"))?;
    if !(min..=max).contains(&n) {
        return Err(format!("Invalid value for option {name}: {n} is outside {min}..{max}"));
    }
    Ok(n)
}

fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!("Invalid value for option {name}: expected true or false")),
    }
}

/// Validates a `setoption name <name> value <value>`.
pub fn parse_option(name: &str, value: Option<&str>) -> Result<OptionChange, String> {
    let key = name.trim().to_ascii_lowercase();
    match key.as_str() {
        "uci_variant" => {
            let v = value.unwrap_or("").trim();
            v.parse::<VariantKind>()
                .map(OptionChange::Variant)
                .map_err(|e| format!("Invalid value for option UCI_Variant: {e}"))
        }
        "hash" => spin("Hash", value, 1, HASH_MAX_MB as i64).map(|n| OptionChange::Hash(n as usize)),
        "clear hash" => Ok(OptionChange::ClearHash),
        "threads" => spin("Threads", value, 1, THREADS_MAX as i64).map(|n| OptionChange::Threads(n as usize)),
        "multipv" => spin("MultiPV", value, 1, MULTIPV_MAX as i64).map(|n| OptionChange::MultiPv(n as usize)),
        "move overhead" => {
            spin("Move Overhead", value, 0, MOVE_OVERHEAD_MAX as i64).map(|n| OptionChange::MoveOverhead(n as u64))
        }
        "ponder" => check("Ponder", value).map(OptionChange::Ponder),
        "uci_chess960" => check("UCI_Chess960", value).map(OptionChange::Chess960),
        "use nnue" => check("Use NNUE", value).map(OptionChange::UseNnue),
        "evalfile" => Ok(OptionChange::EvalFile(value.unwrap_or("").trim().to_string())),
        _ => Err(format!("No such option: {}", name.trim())),
    }
}
