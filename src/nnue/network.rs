//! The network: (768 → H) × 2 → 1, perspective, SCReLU, for a hidden
//! width H chosen by the file (a multiple of 16, up to [`MAX_HIDDEN`]).
//!
//! **Input.** For each point of view, the 768 binary features of
//! [`super::features`]; the first layer turns each side's active features
//! into an [`Accumulator`] of H values, updated move by move
//! ([`super::accumulator`]).
//!
//! **Output.** `[acc(side to move), acc(other side)]`, each value clipped to
//! `0..=QA` and squared (SCReLU), dotted with 2·H output weights, plus the
//! output bias, scaled to centipawns.
//!
//! **Quantisation.** Feature weights and biases are `i16` at scale
//! [`QA`] = 255, output weights `i16` at scale [`QB`] = 256, the output bias
//! `i32` at scale `QA * QB`; the trainer clips the float weights so that
//! nothing overflows (feature weights to ±1.98, so 32 pieces and the bias fit
//! an `i16`; output weights to [`MAX_OUTPUT_WEIGHT`] / `QB`). The evaluation
//! is `(Σ screlu(a)·w / QA + bias) · SCALE / (QA · QB)`, computed exactly
//! (the AVX2 output kernel splits each weight so that its products fit 16
//! bits, see [`super::simd`]).
//!
//! **File format** (little-endian): `b"FSNN"`, `u32` version (1),
//! `u32` inputs (768), `u32` hidden width H, `u32` variant code (as in
//! [`super::data`]), then feature weights `i16[768][H]` (feature-major),
//! feature biases `i16[H]`, output weights `i16[2 * H]` (side to move's half
//! first), output bias `i32`.
//!
//! **Kernels.** [`super::simd`]: AVX2 or scalar, chosen once when the net
//! is built.

use super::accumulator::{Accumulator, Delta};
use super::data::{variant_code, variant_from_code};
pub use super::features::{INPUTS, feature};
use super::simd::Kernels;
use crate::board::Board;
use crate::types::Color;
use crate::variant::VariantKind;

pub const QA: i32 = 255;
pub const QB: i32 = 256;
/// Output units per centipawn-sigmoid: the net predicts `score / SCALE`.
pub const SCALE: i32 = 400;
/// The largest output weight (in magnitude).
pub const MAX_OUTPUT_WEIGHT: i32 = 1000;
/// Hidden widths are multiples of this (the AVX2 kernels' 16 lanes).
pub const HIDDEN_STEP: usize = 16;
/// The widest hidden layer: the AVX2 output kernel's 32-bit lanes each sum
/// H/4 products of an activation squared and a weight's high part (at most
/// `QA² · 64`), which must not overflow.
pub const MAX_HIDDEN: usize = 1024;
const _: () = assert!((MAX_HIDDEN / 4) as i64 * (QA * QA) as i64 * 64 <= i32::MAX as i64);
const _: () = assert!(MAX_HIDDEN.is_multiple_of(HIDDEN_STEP) && MAX_OUTPUT_WEIGHT < 64 * 16);
const MAGIC: &[u8; 4] = b"FSNN";
const VERSION: u32 = 1;
/// Magic, version, inputs, hidden width, variant.
pub const HEADER_BYTES: usize = 20;

/// Size of a net file of hidden width `hidden`.
pub const fn file_bytes(hidden: usize) -> usize {
    HEADER_BYTES + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

/// Whether the engine runs hidden width `h`.
pub fn check_hidden(h: usize) -> Result<(), String> {
    if h == 0 || !h.is_multiple_of(HIDDEN_STEP) || h > MAX_HIDDEN {
        return Err(format!(
            "hidden width {h}: a multiple of {HIDDEN_STEP} from {HIDDEN_STEP} to {MAX_HIDDEN} is needed"
        ));
    }
    Ok(())
}

/// A loaded, quantised network.
#[derive(Clone)]
pub struct Network {
    hidden: usize,
    /// `[feature][hidden]`, flattened.
    feature_weights: Vec<i16>,
    feature_bias: Vec<i16>,
    /// `[2 * hidden]`: side to move's half first.
    output_weights: Vec<i16>,
    output_bias: i32,
    variant: VariantKind,
    /// The kernels this CPU runs, chosen once.
    kernels: Kernels,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({INPUTS}x{}, {})", self.hidden, self.variant)
    }
}

fn le_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

fn le_i16s(bytes: &[u8], n: usize) -> Vec<i16> {
    bytes.chunks_exact(2).take(n).map(|c| i16::from_le_bytes([c[0], c[1]])).collect()
}

impl Network {
    /// The width and variant a file's header announces, and the size the
    /// whole file must have; the error says what is wrong.
    pub fn read_header(bytes: &[u8]) -> Result<(usize, VariantKind, usize), String> {
        if bytes.len() < HEADER_BYTES || &bytes[0..4] != MAGIC {
            return Err("not a Fission network file (no FSNN header)".into());
        }
        let version = le_u32(bytes, 4);
        if version != VERSION {
            return Err(format!("network format version {version}, this build reads {VERSION}"));
        }
        let (inputs, hidden) = (le_u32(bytes, 8) as usize, le_u32(bytes, 12) as usize);
        if inputs != INPUTS || check_hidden(hidden).is_err() {
            return Err(format!(
                "a {inputs}x{hidden} network; this build runs {INPUTS}xH for H a multiple of {HIDDEN_STEP} up to {MAX_HIDDEN}"
            ));
        }
        let code = le_u32(bytes, 16);
        let variant = u8::try_from(code)
            .ok()
            .and_then(variant_from_code)
            .ok_or_else(|| format!("unknown variant code {code}"))?;
        Ok((hidden, variant, file_bytes(hidden)))
    }

    /// Reads a net file; the error says what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let (h, variant, size) = Network::read_header(bytes)?;
        if bytes.len() != size {
            return Err(format!("{} bytes, a {INPUTS}x{h} network has {size}", bytes.len()));
        }
        let mut at = HEADER_BYTES;
        let feature_weights = le_i16s(&bytes[at..], INPUTS * h);
        at += 2 * INPUTS * h;
        let feature_bias = le_i16s(&bytes[at..], h);
        at += 2 * h;
        let output_weights = le_i16s(&bytes[at..], 2 * h);
        at += 4 * h;
        let output_bias = i32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        Network::from_parts(variant, feature_weights, feature_bias, output_weights, output_bias)
    }

    /// The file image of this net (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_bytes(self.hidden));
        out.extend_from_slice(MAGIC);
        for v in [VERSION, INPUTS as u32, self.hidden as u32, variant_code(self.variant) as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for w in self.feature_weights.iter().chain(&self.feature_bias).chain(&self.output_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// A net from quantised parts (the trainer's output); the width is the
    /// number of feature biases.
    pub fn from_parts(
        variant: VariantKind,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: i32,
    ) -> Result<Network, String> {
        let h = feature_bias.len();
        check_hidden(h)?;
        if feature_weights.len() != INPUTS * h || output_weights.len() != 2 * h {
            return Err(format!(
                "{} feature weights and {} output weights, expected {} and {}",
                feature_weights.len(),
                output_weights.len(),
                INPUTS * h,
                2 * h
            ));
        }
        if let Some(w) = output_weights.iter().find(|w| w.unsigned_abs() as i32 > MAX_OUTPUT_WEIGHT) {
            return Err(format!("output weight {w} out of range (at most {MAX_OUTPUT_WEIGHT} in magnitude)"));
        }
        Ok(Network {
            hidden: h,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            variant,
            kernels: Kernels::detect(),
        })
    }

    /// The quantised parts, as [`Network::from_parts`] takes them (for a
    /// trainer that starts from this net).
    pub fn parts(&self) -> (&[i16], &[i16], &[i16], i32) {
        (&self.feature_weights, &self.feature_bias, &self.output_weights, self.output_bias)
    }

    /// The variant this net was trained for.
    pub fn variant(&self) -> VariantKind {
        self.variant
    }

    /// The hidden width H.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The same net run by other kernels (tests compare them).
    pub fn with_kernels(mut self, kernels: Kernels) -> Network {
        self.kernels = kernels;
        self
    }

    /// A net of width `hidden` with random weights in the trained ranges
    /// (for tests and for measuring the speed of a width).
    pub fn random(variant: VariantKind, hidden: usize, seed: u64) -> Network {
        let mut rng = crate::types::SplitMix::new(seed);
        let mut small = |range: i64| ((rng.next_u64() % (2 * range as u64 + 1)) as i64 - range) as i16;
        let fw: Vec<i16> = (0..INPUTS * hidden).map(|_| small(200)).collect();
        let fb: Vec<i16> = (0..hidden).map(|_| small(300)).collect();
        let ow: Vec<i16> = (0..2 * hidden).map(|_| small(MAX_OUTPUT_WEIGHT as i64)).collect();
        Network::from_parts(variant, fw, fb, ow, 1234).expect("a valid width")
    }

    /// The accumulator of `b` computed from scratch.
    pub fn refresh(&self, b: &Board) -> Accumulator {
        let mut acc = Accumulator::zeroed(self.hidden);
        for persp in [Color::White, Color::Black] {
            let columns: arrayvec::ArrayVec<u16, 64> = b
                .occupied()
                .into_iter()
                .map(|sq| feature(persp, b.piece_at(sq).expect("occupied"), sq) as u16)
                .collect();
            self.kernels.apply(acc.view_mut(persp), &self.feature_bias, &self.feature_weights, &columns, &[]);
        }
        acc
    }

    /// Sets `out` to `acc` with the pieces of `delta` taken off and put on.
    pub fn apply(&self, acc: &Accumulator, delta: &Delta, out: &mut Accumulator) {
        for persp in [Color::White, Color::Black] {
            // Filled in place (a `collect` would build the list and then
            // copy it).
            let mut adds: arrayvec::ArrayVec<u16, 32> = arrayvec::ArrayVec::new();
            let mut subs: arrayvec::ArrayVec<u16, 32> = arrayvec::ArrayVec::new();
            for &(p, sq) in &delta.added {
                adds.push(feature(persp, p, sq) as u16);
            }
            for &(p, sq) in &delta.removed {
                subs.push(feature(persp, p, sq) as u16);
            }
            self.kernels.apply(out.view_mut(persp), acc.view(persp), &self.feature_weights, &adds, &subs);
        }
    }

    /// The evaluation (centipawns, side to move's point of view) of the
    /// position whose accumulator is `acc`, `stm` to move.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, stm: Color) -> i32 {
        let sum = self.kernels.screlu_dot(acc.view(stm), acc.view(!stm), &self.output_weights);
        let out = sum / QA as i64 + self.output_bias as i64;
        (out * SCALE as i64 / (QA * QB) as i64) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::accumulator::AccumulatorStack;
    use crate::types::SplitMix;
    use crate::variant::{Atomic, Variant};

    fn random_net(seed: u64) -> Network {
        Network::random(VariantKind::Atomic, 128, seed)
    }

    fn random_net_for(variant: VariantKind, seed: u64) -> Network {
        Network::random(variant, 128, seed)
    }

    #[test]
    fn file_round_trip_and_bad_files() {
        for variant in VariantKind::ALL {
            let net = random_net_for(variant, 7);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), file_bytes(128));
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!(back.variant(), variant, "the file names its variant");
            assert_eq!(back.to_bytes(), bytes);
        }
        let bytes = random_net(7).to_bytes();
        assert!(Network::from_bytes(b"hello").is_err());
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut wrong = bytes.clone();
        wrong[12] = 99; // hidden size
        assert!(Network::from_bytes(&wrong).unwrap_err().contains("x99"));
        wrong[12] = 0;
        wrong[13] = 1; // 256: the header and the size disagree
        assert!(Network::from_bytes(&wrong).unwrap_err().contains("bytes"));
        wrong[4] = 3; // version
        assert!(Network::from_bytes(&wrong).unwrap_err().contains("version 3"));
        // Every width round-trips, and the header names it.
        for h in [16, 128, 256, 512, 1024] {
            let net = Network::random(VariantKind::Chess, h, h as u64);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), file_bytes(h));
            assert_eq!(Network::read_header(&bytes).unwrap(), (h, VariantKind::Chess, file_bytes(h)));
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!(back.hidden(), h);
            assert_eq!(back.to_bytes(), bytes);
        }
        let over = Network::random(VariantKind::Chess, 1024, 1).to_bytes();
        let mut wide = over.clone();
        wide[12..16].copy_from_slice(&1040u32.to_le_bytes());
        assert!(Network::from_bytes(&wide).unwrap_err().contains("up to 1024"));
    }

    #[test]
    fn the_evaluation_is_symmetric_for_mirrored_positions() {
        let net = random_net(11);
        let b = Board::startpos();
        let acc = net.refresh(&b);
        // The start position is its own mirror: both sides see the same.
        assert_eq!(acc.view(Color::White), acc.view(Color::Black));
        let w = Atomic::from_fen("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let m = Atomic::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(net.evaluate(&net.refresh(&w), Color::White), net.evaluate(&net.refresh(&m), Color::Black));
    }

    fn incremental_matches_fresh<V: Variant>(net: &Network, games: usize, seed: u64) -> usize {
        let mut rng = SplitMix::new(seed);
        let mut checked = 0;
        for _ in 0..games {
            let mut b = V::from_fen(V::start_fen()).unwrap();
            let mut acc = net.refresh(&b);
            for _ in 0..150 {
                let mut moves = crate::types::MoveList::new();
                V::legal_moves(&b, &mut moves);
                if moves.is_empty() || V::outcome(&b).is_some() {
                    break;
                }
                let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
                let child = V::play(&b, m);
                let mut next = Accumulator::zeroed(net.hidden());
                let mut delta = Delta::default();
                delta.set(&b, &child);
                net.apply(&acc, &delta, &mut next);
                assert_eq!(next, net.refresh(&child), "{} after {m:?} from {}", V::NAME, V::fen(&b));
                assert_eq!(net.evaluate(&next, child.turn()), net.evaluate(&net.refresh(&child), child.turn()));
                acc = next;
                b = child;
                checked += 1;
            }
        }
        checked
    }

    /// A depth-first walk of random lines (each ply trying a few moves and
    /// sometimes a null move), evaluating only at some nodes: the lazy stack
    /// always gives the accumulator computed from scratch.
    #[test]
    fn the_lazy_stack_matches_fresh_accumulators() {
        fn walk(
            net: &Network,
            stack: &mut AccumulatorStack,
            b: &Board,
            ply: usize,
            rng: &mut SplitMix,
            seen: &mut usize,
        ) {
            if rng.next_u64().is_multiple_of(3) {
                assert_eq!(*stack.get(net, ply), net.refresh(b), "ply {ply}: {}", Atomic::fen(b));
                *seen += 1;
            }
            if ply == 6 || Atomic::outcome(b).is_some() {
                return;
            }
            let mut moves = crate::types::MoveList::new();
            Atomic::legal_moves(b, &mut moves);
            for _ in 0..2 {
                if rng.next_u64().is_multiple_of(5) && !Atomic::is_check(b) {
                    let nb = b.null_move();
                    stack.push_null(ply);
                    walk(net, stack, &nb, ply + 1, rng, seen);
                } else {
                    let child = Atomic::play(b, moves[(rng.next_u64() % moves.len() as u64) as usize]);
                    stack.push(ply, b, &child);
                    walk(net, stack, &child, ply + 1, rng, seen);
                }
            }
        }
        let net = random_net(8);
        let mut rng = SplitMix::new(3);
        let mut seen = 0;
        for fen in ["r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", Atomic::start_fen()] {
            let root = Atomic::from_fen(fen).unwrap();
            let mut stack = AccumulatorStack::new(&net, &root, 8);
            walk(&net, &mut stack, &root, 0, &mut rng, &mut seen);
        }
        assert!(seen > 20, "{seen}");
    }

    /// At every ply of random games in every variant, the accumulator
    /// updated move by move equals the one computed from scratch.
    #[test]
    fn incremental_accumulators_equal_fresh_ones() {
        use crate::variant::{Chess, Dynamo, Push};
        let net = |v| random_net_for(v, 5);
        assert!(incremental_matches_fresh::<Atomic>(&net(VariantKind::Atomic), 60, 1) > 3000);
        assert!(incremental_matches_fresh::<Chess>(&net(VariantKind::Chess), 10, 2) > 500);
        assert!(incremental_matches_fresh::<Push>(&net(VariantKind::Push), 10, 3) > 500);
        assert!(incremental_matches_fresh::<Dynamo>(&net(VariantKind::Dynamo), 3, 4) > 100);
        // The embedded nets, each in its own variant.
        for v in VariantKind::ALL {
            if let Some(n) = crate::nnue::default_net(v) {
                let games = if v == VariantKind::Dynamo { 2 } else { 5 };
                assert!(crate::with_variant!(v, V => incremental_matches_fresh::<V>(&n, games, 9)) > 50);
            }
        }
    }

    /// The wider nets: incremental updates equal fresh
    /// accumulators through explosions, and the SIMD kernels give the
    /// scalar evaluation, at every width the engine is measured at.
    #[test]
    fn wide_nets_update_and_evaluate_exactly() {
        for h in [256, 512, 1024] {
            let net = Network::random(VariantKind::Atomic, h, h as u64);
            assert!(incremental_matches_fresh::<Atomic>(&net, 6, h as u64) > 300, "width {h}");
            let scalar = net.clone().with_kernels(Kernels::Scalar);
            let mut rng = SplitMix::new(h as u64);
            let mut b = Atomic::from_fen(Atomic::start_fen()).unwrap();
            for _ in 0..60 {
                let mut moves = crate::types::MoveList::new();
                Atomic::legal_moves(&b, &mut moves);
                if moves.is_empty() || Atomic::outcome(&b).is_some() {
                    break;
                }
                b = Atomic::play(&b, moves[(rng.next_u64() % moves.len() as u64) as usize]);
                let (fast, slow) = (net.refresh(&b), scalar.refresh(&b));
                assert_eq!(fast, slow, "width {h}");
                assert_eq!(net.evaluate(&fast, b.turn()), scalar.evaluate(&slow, b.turn()), "width {h}");
            }
        }
    }
}
