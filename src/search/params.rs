//! Every search constant, named, in one place.

use crate::variant::VariantKind;

/// Deepest ply the search reaches (stacks are sized by it).
pub const MAX_PLY: usize = 128;

/// Aspiration windows start at this depth with this half-width.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
pub const ASPIRATION_DELTA: i32 = 20;

/// Reverse futility pruning: depth limit and margin per ply.
pub const RFP_MAX_DEPTH: i32 = 6;
pub const RFP_MARGIN: i32 = 80;

/// Null-move pruning: minimum depth, base reduction and depth divisor.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// With `Features::nmp_eval_reduction`, one more ply of null-move reduction
/// per `NMP_EVAL_DIVISOR` centipawns the static evaluation stands above
/// beta, at most `NMP_EVAL_MAX` more.
pub const NMP_EVAL_DIVISOR: i32 = 200;
pub const NMP_EVAL_MAX: i32 = 2;

/// Late move reductions: only from this depth and move number on.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 3;
/// The base reduction in plies: r = LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR
/// (rounded down; history, PV and improving adjust it in the search).
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;

/// Internal iterative reduction: nodes this deep without a hash move are
/// searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Late move pruning: quiet moves beyond `LMP_BASE + depth^2` (half as many
/// when the evaluation is not improving) are skipped at depths up to
/// `LMP_MAX_DEPTH` in non-PV nodes.
pub const LMP_MAX_DEPTH: i32 = 4;
pub const LMP_BASE: usize = 4;

/// Futility pruning of quiet moves at shallow depth.
pub const FUTILITY_MAX_DEPTH: i32 = 5;
pub const FUTILITY_MARGIN: i32 = 100;

/// Static exchange pruning in the main search: tactical moves losing more
/// than `SEE_TACTICAL_MARGIN * depth`, quiet moves losing more than
/// `SEE_QUIET_MARGIN * depth^2`, up to these depths.
pub const SEE_TACTICAL_MAX_DEPTH: i32 = 6;
pub const SEE_TACTICAL_MARGIN: i32 = 90;
pub const SEE_QUIET_MAX_DEPTH: i32 = 8;
pub const SEE_QUIET_MARGIN: i32 = 20;

/// Quiescence: delta-pruning margin, and how many plies deep it still
/// searches every move when it may not stand pat (in check, or in atomic a
/// king that can be blown up).
pub const DELTA_MARGIN: i32 = 200;
pub const QS_EVASION_PLIES: usize = 4;
pub const QS_THREAT_PLIES: usize = 1;

/// Plies a checking move is extended by. Extensions stop once the ply
/// reaches `2 * depth + CHECK_EXTENSION_SLACK` (the cap, in `worker.rs`).
pub const CHECK_EXTENSION: i32 = 1;
pub const CHECK_EXTENSION_SLACK: usize = 4;

/// Singular extensions: from this depth, with a hash entry (not an upper
/// bound) at most `SE_TT_DEPTH_MARGIN` plies shallower, the hash move is
/// searched one ply deeper when every other move fails low against
/// `tt_score - SE_MARGIN_PER_DEPTH * depth / 16` at half depth; two plies
/// deeper off the PV when they fail `SE_DOUBLE_MARGIN` lower still, at most
/// `SE_DOUBLE_LIMIT` times on one path.
pub const SE_MIN_DEPTH: i32 = 8;
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
pub const SE_MARGIN_PER_DEPTH: i32 = 16;
pub const SE_DOUBLE_MARGIN: i32 = 20;
pub const SE_DOUBLE_LIMIT: u8 = 8;

/// Search features switched per variant. Each is on only in the variants
/// where it passed an SPRT of its own; the others keep their exact old
/// trees until a match says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Quiescence probes the transposition table (a cut-off by any entry
    /// whose bound settles it, the stored evaluation instead of a fresh
    /// one) and stores its result at depth 0. Atomic: +25 Elo. (In dynamo
    /// it reaches depth 8 from the start in a third fewer nodes, at lower
    /// nodes/s; not matched.)
    pub qsearch_tt: bool,
    /// Singular extensions (the `SE_*` constants). Atomic: +56 Elo.
    pub singular_extensions: bool,
    /// The null move is reduced more the further the static evaluation
    /// stands above beta (`NMP_EVAL_DIVISOR`, `NMP_EVAL_MAX`). Atomic:
    /// +20 Elo.
    pub nmp_eval_reduction: bool,
}

/// The search features of a variant.
pub const fn features(kind: VariantKind) -> Features {
    let atomic = matches!(kind, VariantKind::Atomic);
    Features { qsearch_tt: atomic, singular_extensions: atomic, nmp_eval_reduction: atomic }
}

/// History: maximum magnitude (gravity keeps values in range), and the
/// bonus of a cutoff move: `PER_DEPTH * depth - BASE`, at most `MAX`.
pub const HISTORY_MAX: i32 = 16_384;
pub const HISTORY_BONUS_PER_DEPTH: i32 = 300;
pub const HISTORY_BONUS_BASE: i32 = 250;
pub const HISTORY_BONUS_MAX: i32 = 2_500;
/// Late move reductions shrink by one per this much history of the move.
pub const LMR_HISTORY_DIVISOR: i32 = 8_192;

/// Correction history: entries per side, fixed-point scale, the largest
/// error (centipawns) one search may teach, and the largest weight (of 256)
/// of one update.
pub const CORRECTION_SIZE: usize = 16_384;
pub const CORRECTION_GRAIN: i32 = 256;
pub const CORRECTION_LIMIT: i32 = 400;
pub const CORRECTION_WEIGHT_MAX: i32 = 16;

/// How often (in nodes) a thread looks at the clock and the stop flag.
pub const CHECK_INTERVAL: u64 = 32;

/// Stack size of search threads.
pub const THREAD_STACK: usize = 32 * 1024 * 1024;

/// Time management scales the soft limit by the search's progress
/// (`limits::soft_scale`, applied by `limits::Limiter`) from this completed depth on.
pub const TM_SCALE_MIN_DEPTH: u32 = 4;
