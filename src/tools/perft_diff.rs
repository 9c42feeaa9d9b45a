//! `fission perft-diff`: compares another engine's `go perft` with
//! Fission's, and walks down the first subtree whose counts differ until it
//! finds the position where the two move generators disagree.
//!
//! The other engine is driven over UCI (`UCI_Variant`, `position`,
//! `go perft N`). Its divide may be in Stockfish's format (`e2e4: 20`, a
//! blank line, `Nodes searched: 400`) or perftree's (`e2e4 20`, a blank
//! line, `400`). Its moves are matched against Fission's legal moves, so a
//! king-takes-rook castling (`e1h1`) is understood as `e1g1` (and reported).
//! At each step both engines divide the same position, given to the other
//! engine as the root position plus the moves of the path in its own
//! spelling; the walk goes into the differing move with the smallest count.
//! It ends with moves one side lists and the other does not, or with a
//! count the engine gives for a move but cannot reproduce from the position
//! after it.

use crate::board::Board;
use crate::notation::{move_to_uci, parse_move};
use crate::perft::{self, read_suite};
use crate::tools::uci_client::{EngineSpec, UciEngine, WaitError};
use crate::types::Move;
use crate::variant::{Variant, VariantKind};
use crate::with_variant;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// What to compare.
#[derive(Clone, Debug)]
pub struct DiffConfig {
    /// The other engine's command line (split on whitespace).
    pub engine: String,
    pub variant: VariantKind,
    /// Depth of the comparison (with a suite: the deepest entry checked).
    pub depth: Option<u32>,
    /// Root position (the variant's start position when absent).
    pub fen: Option<String>,
    /// Moves played from the root first, in UCI notation.
    pub moves: Vec<String>,
    /// Threads for Fission's own counts.
    pub threads: usize,
    /// How long one `go perft` of the other engine may take.
    pub timeout: Duration,
    /// A perft suite (shakmaty's `.perft` format) to check the engine against.
    pub suite: Option<String>,
}

/// How a comparison ended (errors are `Err`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffOutcome {
    Agree,
    Differ,
}

/// Where the two generators part: the path from the root and the verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// Moves from the root (Fission's notation).
    pub path: Vec<String>,
    /// FEN of the position where the verdict applies.
    pub fen: String,
    /// Legal for Fission, not listed by the engine.
    pub missing: Vec<String>,
    /// Listed by the engine, not legal for Fission (the engine's spelling).
    pub extra: Vec<String>,
    /// Set when both list the same moves but the engine's count for a move
    /// differs from its own count of the position after that move.
    pub inconsistent: Option<String>,
}

/// The other engine's divide of one position.
#[derive(Clone, Debug, Default)]
struct EngineDivide {
    moves: Vec<(String, u64)>,
    total: Option<u64>,
}

/// One line of a divide: `move: count` or `move count`.
fn divide_line(line: &str) -> Option<(String, u64)> {
    let (mv, count) = line.rsplit_once(':').or_else(|| line.trim().rsplit_once(' '))?;
    let (mv, count) = (mv.trim(), count.trim());
    let b = mv.as_bytes();
    let looks_like_move =
        b.len() >= 4 && !mv.contains(' ') && b[0].is_ascii_lowercase() && b[1].is_ascii_digit() && mv.is_ascii();
    if !looks_like_move {
        return None;
    }
    Some((mv.to_string(), count.parse().ok()?))
}

/// Drives the other engine.
struct Other {
    engine: UciEngine,
    root: String,
    timeout: Duration,
}

impl Other {
    fn start(cfg: &DiffConfig, root_fen: Option<&str>) -> Result<Other, String> {
        let spec = EngineSpec { cmd: cfg.engine.clone(), options: Vec::new() };
        let engine = UciEngine::start(&spec, cfg.variant.name())?;
        let root = match root_fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        Ok(Other { engine, root, timeout: cfg.timeout })
    }

    /// `go perft depth` after the root and `path` (the engine's spelling).
    fn divide(&mut self, path: &[String], depth: u32, progress: &dyn Fn(&str)) -> Result<EngineDivide, String> {
        let pos = if path.is_empty() { self.root.clone() } else { format!("{} moves {}", self.root, path.join(" ")) };
        self.engine.send(&pos)?;
        self.engine.send(&format!("go perft {depth}"))?;
        let started = Instant::now();
        let deadline = started + self.timeout;
        let mut out = EngineDivide::default();
        let mut seen_blank = false;
        let mut last_note = Instant::now();
        loop {
            let line = self.engine.wait_line(deadline).map_err(|e| match e {
                WaitError::Timeout => format!(
                    "'{}' did not finish 'go perft {depth}' within {} s (after '{pos}')",
                    self.engine.name,
                    self.timeout.as_secs()
                ),
                WaitError::Disconnected => {
                    format!("'{}' exited during 'go perft {depth}' (after '{pos}')", self.engine.name)
                }
            })?;
            let t = line.trim();
            if let Some(n) = t.strip_prefix("Nodes searched:") {
                out.total = Some(n.trim().parse().map_err(|_| format!("bad total line '{t}'"))?);
                return Ok(out);
            }
            if t.is_empty() {
                seen_blank = true;
                continue;
            }
            if seen_blank && let Ok(n) = t.parse::<u64>() {
                out.total = Some(n);
                return Ok(out);
            }
            if let Some(entry) = divide_line(t) {
                out.moves.push(entry);
                if last_note.elapsed() >= Duration::from_secs(2) {
                    let nodes: u64 = out.moves.iter().map(|m| m.1).sum();
                    progress(&format!(
                        "  engine: {} moves, {nodes} nodes in {:.0} s",
                        out.moves.len(),
                        started.elapsed().as_secs_f64()
                    ));
                    last_note = Instant::now();
                }
            }
        }
    }
}

/// One of Fission's moves with both counts.
struct Row {
    mv: Move,
    ours: u64,
    /// The engine's spelling and count; `None` when it lacks the move.
    theirs: Option<(String, u64)>,
}

/// One position of the walk, matched move by move.
struct Compared {
    ours: Vec<Row>,
    extra: Vec<String>,
    /// Engine spellings that differ from Fission's: (engine, Fission).
    respelled: Vec<(String, String)>,
    duplicates: Vec<String>,
}

fn compare<V: Variant>(b: &Board, ours: &[(Move, u64)], theirs: &EngineDivide) -> Compared {
    let mut by_move: HashMap<Move, (String, u64)> = HashMap::new();
    let mut c = Compared { ours: Vec::new(), extra: Vec::new(), respelled: Vec::new(), duplicates: Vec::new() };
    for (text, n) in &theirs.moves {
        match parse_move::<V>(b, text) {
            Some(m) => {
                let ours_text = move_to_uci(m);
                if &ours_text != text {
                    c.respelled.push((text.clone(), ours_text));
                }
                if by_move.insert(m, (text.clone(), *n)).is_some() {
                    c.duplicates.push(text.clone());
                }
            }
            None => c.extra.push(text.clone()),
        }
    }
    c.ours = ours.iter().map(|&(mv, n)| Row { mv, ours: n, theirs: by_move.get(&mv).cloned() }).collect();
    c
}

/// The walk from one root: `depth` plies, ending in agreement or a [`Disagreement`].
fn walk<V: Variant>(
    root: &Board,
    root_path: &[String],
    other: &mut Other,
    depth: u32,
    threads: usize,
    say: &dyn Fn(&str),
    progress: &dyn Fn(&str),
) -> Result<Option<Disagreement>, String> {
    let mut b = root.clone();
    // Moves in Fission's notation (for the report) and in the engine's (to send).
    let mut path: Vec<String> = Vec::new();
    let mut engine_path: Vec<String> = root_path.to_vec();
    let mut told_respelling = false;
    let mut expected: Option<u64> = None;
    for d in (1..=depth).rev() {
        let fen = V::fen(&b);
        progress(&format!("perft-diff: depth {d} at {fen}: counting"));
        let ours = perft::divide::<V>(&b, d, threads);
        let ours_total: u64 = ours.iter().map(|m| m.1).sum();
        let theirs = other.divide(&engine_path, d, progress)?;
        let theirs_sum: u64 = theirs.moves.iter().map(|m| m.1).sum();
        let theirs_total = theirs.total.unwrap_or(theirs_sum);
        let c = compare::<V>(&b, &ours, &theirs);
        let step = if path.is_empty() { "root".to_string() } else { format!("after {}", path.join(" ")) };
        say(&format!("depth {d}, {step}: fission {ours_total}, engine {theirs_total}  [{fen}]"));
        if !c.respelled.is_empty() && !told_respelling {
            let list: Vec<String> = c.respelled.iter().map(|(t, o)| format!("{t} = {o}")).collect();
            say(&format!("  note: the engine spells some moves differently; normalised: {}", list.join(", ")));
            told_respelling = true;
        }
        if theirs.total.is_some_and(|t| t != theirs_sum) {
            say(&format!("  note: the engine's total {theirs_total} is not the sum of its divide ({theirs_sum})"));
        }
        if !c.duplicates.is_empty() {
            say(&format!("  note: the engine lists these moves twice: {}", c.duplicates.join(" ")));
        }
        let missing: Vec<String> = c.ours.iter().filter(|r| r.theirs.is_none()).map(|r| move_to_uci(r.mv)).collect();
        if !missing.is_empty() || !c.extra.is_empty() {
            return Ok(Some(Disagreement { path, fen, missing, extra: c.extra, inconsistent: None }));
        }
        let differing = c
            .ours
            .iter()
            .filter_map(|r| r.theirs.as_ref().filter(|t| t.1 != r.ours).map(|t| (r.mv, r.ours, t.clone())))
            .min_by_key(|d| d.1);
        match differing {
            Some((m, n, (text, theirs_n))) => {
                say(&format!("  first difference: {} (fission {n}, engine {theirs_n})", move_to_uci(m)));
                expected = Some(theirs_n);
                path.push(move_to_uci(m));
                engine_path.push(text);
                b = V::play(&b, m);
            }
            None if expected.is_none() && theirs_total == ours_total => return Ok(None),
            None => {
                // The counts per move agree here, yet the engine counted this
                // subtree differently from its parent (or its total differs
                // from its divide).
                let why = match expected {
                    Some(e) => format!(
                        "the engine counted {e} below the last move of the path, but {theirs_total} when \
                         dividing the position after it: its perft and its 'position ... moves' disagree"
                    ),
                    None => format!("the engine's total {theirs_total} differs from its divide's sum"),
                };
                return Ok(Some(Disagreement { path, fen, missing, extra: Vec::new(), inconsistent: Some(why) }));
            }
        }
    }
    // Depth 1 always ends above: counts there are 1 per move.
    Err("internal error: the walk ran past depth 1".into())
}

fn report(d: &Disagreement, say: &dyn Fn(&str)) {
    say("");
    let path = if d.path.is_empty() { "(root)".to_string() } else { d.path.join(" ") };
    say(&format!("DIFFERENCE at path: {path}"));
    say(&format!("  fen: {}", d.fen));
    if !d.missing.is_empty() {
        say(&format!("  legal for fission, not listed by the engine: {}", d.missing.join(" ")));
    }
    if !d.extra.is_empty() {
        say(&format!("  listed by the engine, not legal for fission: {}", d.extra.join(" ")));
    }
    if let Some(why) = &d.inconsistent {
        say(&format!("  {why}"));
    }
}

/// Root position of a comparison: the FEN (or start) plus the moves.
fn root_board<V: Variant>(fen: Option<&str>, moves: &[String]) -> Result<Board, String> {
    let mut b = V::from_fen(fen.unwrap_or(V::start_fen())).map_err(|e| format!("invalid FEN: {e}"))?;
    for text in moves {
        let m = parse_move::<V>(&b, text).ok_or(format!("move '{text}' is not legal in {}", V::fen(&b)))?;
        b = V::play(&b, m);
    }
    Ok(b)
}

fn run_single<V: Variant>(
    cfg: &DiffConfig,
    say: &dyn Fn(&str),
    progress: &dyn Fn(&str),
) -> Result<DiffOutcome, String> {
    let depth = cfg.depth.ok_or("--depth is needed (or --suite)")?;
    let root = root_board::<V>(cfg.fen.as_deref(), &cfg.moves)?;
    let mut other = Other::start(cfg, cfg.fen.as_deref())?;
    match walk::<V>(&root, &cfg.moves, &mut other, depth, cfg.threads, say, progress)? {
        None => {
            say(&format!("AGREE: both engines count the same at depth {depth}"));
            Ok(DiffOutcome::Agree)
        }
        Some(d) => {
            report(&d, say);
            Ok(DiffOutcome::Differ)
        }
    }
}

fn run_suite<V: Variant>(
    cfg: &DiffConfig,
    path: &str,
    say: &dyn Fn(&str),
    progress: &dyn Fn(&str),
) -> Result<DiffOutcome, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let suite = read_suite(&text)?;
    let mut outcome = DiffOutcome::Agree;
    let (mut checked, mut failed) = (0, 0);
    for entry in &suite {
        let root = match root_board::<V>(Some(&entry.fen), &[]) {
            Ok(b) => b,
            Err(e) => {
                say(&format!("{}: skipped, Fission cannot read it ({e})", entry.id));
                continue;
            }
        };
        let mut other = Other::start(cfg, Some(&entry.fen))?;
        for &(d, expected) in entry.counts.iter().filter(|c| cfg.depth.is_none_or(|max| c.0 <= max)) {
            progress(&format!("perft-diff: {} depth {d}", entry.id));
            let theirs = other.divide(&[], d, progress)?;
            let total = theirs.total.unwrap_or(theirs.moves.iter().map(|m| m.1).sum());
            checked += 1;
            if total == expected {
                continue;
            }
            failed += 1;
            outcome = DiffOutcome::Differ;
            say(&format!("{} depth {d}: suite {expected}, engine {total}  [{}]", entry.id, entry.fen));
            let ours = perft::perft_threads::<V>(&root, d, cfg.threads);
            if ours != expected {
                say(&format!("  note: fission counts {ours} here, not the suite's {expected}"));
            }
            match walk::<V>(&root, &[], &mut other, d, cfg.threads, say, progress)? {
                Some(dis) => report(&dis, say),
                None => say("  fission and the engine agree here: the suite's count is the odd one out"),
            }
            say("");
            // Deeper counts of a failing entry add nothing.
            break;
        }
    }
    say(&format!("suite {path}: {checked} counts checked, {failed} differ"));
    Ok(outcome)
}

/// Runs a comparison; `say` gets the report, `progress` the notes for
/// stderr. An `Err` is a usage or engine error.
pub fn run(cfg: &DiffConfig, say: &dyn Fn(&str), progress: &dyn Fn(&str)) -> Result<DiffOutcome, String> {
    if cfg.depth == Some(0) {
        return Err("--depth must be at least 1".into());
    }
    with_variant!(cfg.variant, V => match &cfg.suite {
        Some(path) => run_suite::<V>(cfg, path, say, progress),
        None => run_single::<V>(cfg, say, progress),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_lines_in_both_formats() {
        assert_eq!(divide_line("e2e4: 20"), Some(("e2e4".into(), 20)));
        assert_eq!(divide_line("e7e8q 3"), Some(("e7e8q".into(), 3)));
        assert_eq!(divide_line("a1a2,b3b4: 5"), Some(("a1a2,b3b4".into(), 5)));
        assert_eq!(divide_line("Nodes searched: 20"), None);
        assert_eq!(divide_line("info string hello 3"), None);
        assert_eq!(divide_line("e2e4: x"), None);
    }
}
