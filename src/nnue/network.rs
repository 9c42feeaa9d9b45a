//! The network: (768 → [`HIDDEN`]) × 2 → 1, perspective, SCReLU.
//!
//! **Input.** For each point of view, the 768 binary features of
//! [`super::features`]; the first layer turns each side's active features
//! into an [`Accumulator`] of [`HIDDEN`] values, updated move by move
//! ([`super::accumulator`]).
//!
//! **Output.** `[acc(side to move), acc(other side)]`, each value clipped to
//! `0..=QA` and squared (SCReLU), dotted with [`HIDDEN`] × 2 output weights,
//! plus the output bias, scaled to centipawns.
//!
//! **Quantisation.** Feature weights and biases are `i16` at scale
//! [`QA`] = 255, output weights `i16` at scale [`QB`] = 256, the output bias
//! `i32` at scale `QA * QB`; the trainer clips the float weights so that
//! nothing overflows (feature weights to ±1.98, so 32 pieces and the bias fit
//! an `i16`; output weights to [`MAX_OUTPUT_WEIGHT`] / `QB`, so a SIMD lane's
//! sum fits an `i32`). The evaluation is
//! `(Σ screlu(a)·w / QA + bias) · SCALE / (QA · QB)`.
//!
//! **File format** (little-endian): `b"FSNN"`, `u32` version (1), `u32`
//! inputs (768), `u32` hidden size, `u32` variant code (as in
//! [`super::data`]), then feature weights `i16[768][HIDDEN]` (feature-major),
//! feature biases `i16[HIDDEN]`, output weights `i16[2 * HIDDEN]` (side to
//! move's half first), output bias `i32`.
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

pub const HIDDEN: usize = 128;
pub const QA: i32 = 255;
pub const QB: i32 = 256;
/// Output units per centipawn-sigmoid: the net predicts `score / SCALE`.
pub const SCALE: i32 = 400;
/// The largest output weight (in magnitude). The AVX2 output kernel sums
/// `2 * HIDDEN / 8` products `QA² · w` in each `i32` lane, which must not
/// overflow: 32 · 65025 · 1000 < 2³¹.
pub const MAX_OUTPUT_WEIGHT: i32 = 1000;
const _: () = assert!((2 * HIDDEN / 8) as i64 * (QA * QA) as i64 * MAX_OUTPUT_WEIGHT as i64 <= i32::MAX as i64);
const MAGIC: &[u8; 4] = b"FSNN";
const VERSION: u32 = 1;
const HEADER_BYTES: usize = 20;
/// Size of a net file for [`HIDDEN`].
pub const FILE_BYTES: usize = HEADER_BYTES + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// A loaded, quantised network.
#[derive(Clone)]
pub struct Network {
    /// `[feature][HIDDEN]`, flattened.
    feature_weights: Vec<i16>,
    feature_bias: [i16; HIDDEN],
    output_weights: [i16; 2 * HIDDEN],
    output_bias: i32,
    variant: VariantKind,
    /// The kernels this CPU runs, chosen once.
    kernels: Kernels,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({} hidden, {})", HIDDEN, self.variant)
    }
}

fn le_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

fn le_i16s(bytes: &[u8], out: &mut [i16]) {
    for (o, c) in out.iter_mut().zip(bytes.chunks_exact(2)) {
        *o = i16::from_le_bytes([c[0], c[1]]);
    }
}

impl Network {
    /// Reads a net file; the error says what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < HEADER_BYTES || &bytes[0..4] != MAGIC {
            return Err("not a Fission network file (no FSNN header)".into());
        }
        let version = le_u32(bytes, 4);
        if version != VERSION {
            return Err(format!("network format version {version}, this build reads {VERSION}"));
        }
        let (inputs, hidden) = (le_u32(bytes, 8) as usize, le_u32(bytes, 12) as usize);
        if inputs != INPUTS || hidden != HIDDEN {
            return Err(format!("a {inputs}x{hidden} network; this build runs {INPUTS}x{HIDDEN}"));
        }
        let code = le_u32(bytes, 16);
        let variant = u8::try_from(code)
            .ok()
            .and_then(variant_from_code)
            .ok_or_else(|| format!("unknown variant code {code}"))?;
        if bytes.len() != FILE_BYTES {
            return Err(format!("{} bytes, a {INPUTS}x{HIDDEN} network has {FILE_BYTES}", bytes.len()));
        }
        let mut at = HEADER_BYTES;
        let mut feature_weights = vec![0i16; INPUTS * HIDDEN];
        le_i16s(&bytes[at..], &mut feature_weights);
        at += 2 * INPUTS * HIDDEN;
        let mut feature_bias = [0i16; HIDDEN];
        le_i16s(&bytes[at..], &mut feature_bias);
        at += 2 * HIDDEN;
        let mut output_weights = [0i16; 2 * HIDDEN];
        le_i16s(&bytes[at..], &mut output_weights);
        at += 4 * HIDDEN;
        let output_bias = i32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        Network::from_parts(variant, feature_weights, feature_bias, output_weights, output_bias)
    }

    /// The file image of this net (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(MAGIC);
        for v in [VERSION, INPUTS as u32, HIDDEN as u32, variant_code(self.variant) as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for w in self.feature_weights.iter().chain(&self.feature_bias).chain(&self.output_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// A net from quantised parts (the trainer's output).
    pub fn from_parts(
        variant: VariantKind,
        feature_weights: Vec<i16>,
        feature_bias: [i16; HIDDEN],
        output_weights: [i16; 2 * HIDDEN],
        output_bias: i32,
    ) -> Result<Network, String> {
        if feature_weights.len() != INPUTS * HIDDEN {
            return Err(format!("{} feature weights, expected {}", feature_weights.len(), INPUTS * HIDDEN));
        }
        if let Some(w) = output_weights.iter().find(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16) {
            return Err(format!("output weight {w} out of range (at most {MAX_OUTPUT_WEIGHT} in magnitude)"));
        }
        Ok(Network { feature_weights, feature_bias, output_weights, output_bias, variant, kernels: Kernels::detect() })
    }

    /// The quantised parts, as [`Network::from_parts`] takes them (for a
    /// trainer that starts from this net).
    pub fn parts(&self) -> (&[i16], &[i16; HIDDEN], &[i16; 2 * HIDDEN], i32) {
        (&self.feature_weights, &self.feature_bias, &self.output_weights, self.output_bias)
    }

    /// The variant this net was trained for.
    pub fn variant(&self) -> VariantKind {
        self.variant
    }

    #[inline(always)]
    fn column(&self, f: usize) -> &[i16; HIDDEN] {
        self.feature_weights[f * HIDDEN..(f + 1) * HIDDEN].try_into().expect("HIDDEN weights")
    }

    /// The accumulator of `b` computed from scratch.
    pub fn refresh(&self, b: &Board) -> Accumulator {
        let mut acc = Accumulator::default();
        for persp in [Color::White, Color::Black] {
            let columns: Vec<&[i16; HIDDEN]> = b
                .occupied()
                .into_iter()
                .map(|sq| self.column(feature(persp, b.piece_at(sq).expect("occupied"), sq)))
                .collect();
            self.kernels.apply(&mut acc.values[persp.index()], &self.feature_bias, &columns, &[]);
        }
        acc
    }

    /// Sets `out` to `acc` with the pieces of `delta` taken off and put on.
    pub fn apply(&self, acc: &Accumulator, delta: &Delta, out: &mut Accumulator) {
        for persp in [Color::White, Color::Black] {
            // Filled in place (a `collect` would build the list and then
            // copy it).
            let mut adds: arrayvec::ArrayVec<&[i16; HIDDEN], 32> = arrayvec::ArrayVec::new();
            let mut subs: arrayvec::ArrayVec<&[i16; HIDDEN], 32> = arrayvec::ArrayVec::new();
            for &(p, sq) in &delta.added {
                adds.push(self.column(feature(persp, p, sq)));
            }
            for &(p, sq) in &delta.removed {
                subs.push(self.column(feature(persp, p, sq)));
            }
            self.kernels.apply(&mut out.values[persp.index()], &acc.values[persp.index()], &adds, &subs);
        }
    }

    /// The evaluation (centipawns, side to move's point of view) of the
    /// position whose accumulator is `acc`, `stm` to move.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, stm: Color) -> i32 {
        let sum = self.kernels.screlu_dot(&acc.values[stm.index()], &acc.values[(!stm).index()], &self.output_weights);
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

    /// A net with random weights in the trained ranges.
    pub fn random_net(seed: u64) -> Network {
        let mut rng = SplitMix::new(seed);
        let mut small = |range: i64| ((rng.next_u64() % (2 * range as u64 + 1)) as i64 - range) as i16;
        let fw: Vec<i16> = (0..INPUTS * HIDDEN).map(|_| small(200)).collect();
        let mut fb = [0i16; HIDDEN];
        fb.iter_mut().for_each(|b| *b = small(300));
        let mut ow = [0i16; 2 * HIDDEN];
        ow.iter_mut().for_each(|w| *w = small(MAX_OUTPUT_WEIGHT as i64));
        Network::from_parts(VariantKind::Atomic, fw, fb, ow, 1234).unwrap()
    }

    /// [`random_net`], made for `variant`.
    fn random_net_for(variant: VariantKind, seed: u64) -> Network {
        let (fw, fb, ow, ob) = {
            let net = random_net(seed);
            let (fw, fb, ow, ob) = net.parts();
            (fw.to_vec(), *fb, *ow, ob)
        };
        Network::from_parts(variant, fw, fb, ow, ob).unwrap()
    }

    #[test]
    fn file_round_trip_and_bad_files() {
        for variant in VariantKind::ALL {
            let net = random_net_for(variant, 7);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), FILE_BYTES);
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
    }

    #[test]
    fn the_evaluation_is_symmetric_for_mirrored_positions() {
        let net = random_net(11);
        let b = Board::startpos();
        let acc = net.refresh(&b);
        // The start position is its own mirror: both sides see the same.
        assert_eq!(acc.values[0], acc.values[1]);
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
                let mut next = Accumulator::default();
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
}
