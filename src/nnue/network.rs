//! The network: (768 → H) × 2 → 1, perspective, SCReLU, for a hidden
//! width H chosen by the file (a multiple of 16, up to [`MAX_HIDDEN`]),
//! with one output layer per *output bucket* (1 to [`MAX_BUCKETS`], chosen
//! by the number of pieces on the board, see [`output_bucket`]).
//!
//! **Input.** For each point of view, the 768 binary features of
//! [`super::features`] (times K with K king input buckets, a
//! [`KingMap`]); the first layer turns each side's active features into an
//! [`Accumulator`] of H values, updated move by move
//! ([`super::accumulator`]).
//!
//! **Output.** `[acc(side to move), acc(other side)]`, each value clipped to
//! `0..=QA` and squared (SCReLU), dotted with the 2·H output weights of the
//! position's bucket, plus that bucket's output bias, scaled to
//! centipawns. Buckets let the last layer weigh the same hidden features
//! differently in the opening, the middlegame and the ending (in atomic the
//! material comes off fast), at the cost of one popcount per evaluation.
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
//! **File format** (little-endian): `b"FSNN"`, `u32` version, `u32` inputs
//! (768), `u32` hidden width H, `u32` variant code (as in [`super::data`]),
//! in versions 2 and 3 then `u32` output buckets B (version 1 has none:
//! B = 1), in version 3 then the 64 bytes of the [`KingMap`] (versions 1
//! and 2 have none: one input bucket, not mirrored), which give the K
//! input buckets; then feature weights `i16[K * 768][H]` (feature-major),
//! feature biases `i16[H]`, output weights `i16[B][2 * H]` (each bucket's
//! side to move's half first), output biases `i32[B]`. Each net is written
//! in the oldest version that holds it, so that builds from before buckets
//! still read a net without them.
//!
//! **Kernels.** [`super::simd`]: AVX2 or scalar, chosen once when the net
//! is built.

use super::accumulator::{Accumulator, Delta};
use super::data::{variant_code, variant_from_code};
pub use super::features::{INPUTS, KingMap, MAX_INPUT_BUCKETS, View, feature_in};
use super::simd::Kernels;
use crate::board::Board;
use crate::types::{Color, Square};
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
/// The most output buckets a net may have.
pub const MAX_BUCKETS: usize = 16;
const MAGIC: &[u8; 4] = b"FSNN";
/// Version 1: one output layer; version 2: the header names the buckets;
/// version 3: and the king map.
const VERSION_SINGLE: u32 = 1;
const VERSION_BUCKETS: u32 = 2;
const VERSION_KING: u32 = 3;
/// The longest header: magic, version, inputs, hidden width, variant,
/// output buckets, king map (version 1 stops before the buckets: 20 bytes;
/// version 2 before the map: 24).
pub const HEADER_BYTES: usize = 24 + 64;

/// The format version that holds a net with `buckets` output buckets and
/// this king map.
fn version(buckets: usize, king: &KingMap) -> u32 {
    match (buckets, king.is_none()) {
        (_, false) => VERSION_KING,
        (1, true) => VERSION_SINGLE,
        _ => VERSION_BUCKETS,
    }
}

const fn header_bytes(version: u32) -> usize {
    match version {
        VERSION_SINGLE => 20,
        VERSION_BUCKETS => 24,
        _ => HEADER_BYTES,
    }
}

const fn body_bytes(hidden: usize, buckets: usize, input_buckets: usize) -> usize {
    2 * (input_buckets * INPUTS * hidden + hidden + 2 * hidden * buckets) + 4 * buckets
}

/// Size of a net file of hidden width `hidden` with `buckets` output
/// buckets and the king map `king`.
pub fn file_bytes(hidden: usize, buckets: usize, king: &KingMap) -> usize {
    header_bytes(version(buckets, king)) + body_bytes(hidden, buckets, king.buckets())
}

/// The largest net file the engine reads.
pub const MAX_FILE_BYTES: usize = HEADER_BYTES + body_bytes(MAX_HIDDEN, MAX_BUCKETS, MAX_INPUT_BUCKETS);

/// The output bucket of a position with `pieces` pieces on the board (both
/// sides, kings included) in a net with `buckets` buckets: the range 2..=33
/// cut into `buckets` equal parts (with 8 buckets, 2–5 pieces is bucket 0
/// and 30–32 is bucket 7), as bullet's material-count buckets do.
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / 32).min(buckets - 1)
}

/// Whether the engine runs `b` output buckets.
pub fn check_buckets(b: usize) -> Result<(), String> {
    if b == 0 || b > MAX_BUCKETS {
        return Err(format!("{b} output buckets: 1 to {MAX_BUCKETS} are possible"));
    }
    Ok(())
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
    /// The king input buckets.
    king: KingMap,
    /// `[bucket * 768 + feature][hidden]`, flattened.
    feature_weights: Vec<i16>,
    feature_bias: Vec<i16>,
    /// `[bucket][2 * hidden]`: in each bucket, side to move's half first.
    output_weights: Vec<i16>,
    /// `[bucket]`.
    output_bias: Vec<i32>,
    variant: VariantKind,
    /// The kernels this CPU runs, chosen once.
    kernels: Kernels,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({}x{}x{}, {})", self.inputs(), self.hidden, self.buckets(), self.variant)
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
    /// whole file must have; the error says what is wrong. `bytes` is the
    /// file's start: [`HEADER_BYTES`] or all of it if shorter.
    pub fn read_header(bytes: &[u8]) -> Result<(usize, VariantKind, usize), String> {
        Network::parse_header(bytes).map(|(h, variant, buckets, king)| (h, variant, file_bytes(h, buckets, &king)))
    }

    /// The hidden width, variant, output buckets and king map a header
    /// announces.
    fn parse_header(bytes: &[u8]) -> Result<(usize, VariantKind, usize, KingMap), String> {
        if bytes.len() < header_bytes(VERSION_SINGLE) || &bytes[0..4] != MAGIC {
            return Err("not a Fission network file (no FSNN header)".into());
        }
        let version = le_u32(bytes, 4);
        if ![VERSION_SINGLE, VERSION_BUCKETS, VERSION_KING].contains(&version) {
            return Err(format!("network format version {version}, this build reads 1 to {VERSION_KING}"));
        }
        if bytes.len() < header_bytes(version) {
            return Err("a network file cut short in its header".into());
        }
        let buckets = if version == VERSION_SINGLE { 1 } else { le_u32(bytes, 20) as usize };
        if version == VERSION_BUCKETS && (buckets == 1 || check_buckets(buckets).is_err()) {
            return Err(format!("{buckets} output buckets in a version 2 file: 2 to {MAX_BUCKETS} are possible"));
        }
        if version == VERSION_KING && check_buckets(buckets).is_err() {
            return Err(format!("{buckets} output buckets: 1 to {MAX_BUCKETS} are possible"));
        }
        let king = if version == VERSION_KING {
            let map = KingMap::new(bytes[24..88].try_into().expect("64 bytes"))?;
            if map.is_none() {
                return Err("a version 3 file without king buckets".into());
            }
            map
        } else {
            KingMap::NONE
        };
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
        Ok((hidden, variant, buckets, king))
    }

    /// Reads a net file; the error says what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let (h, variant, buckets, king) = Network::parse_header(bytes)?;
        let size = file_bytes(h, buckets, &king);
        let inputs = king.buckets() * INPUTS;
        if bytes.len() != size {
            return Err(format!("{} bytes, a {inputs}x{h} network has {size}", bytes.len()));
        }
        let mut at = header_bytes(version(buckets, &king));
        let feature_weights = le_i16s(&bytes[at..], inputs * h);
        at += 2 * inputs * h;
        let feature_bias = le_i16s(&bytes[at..], h);
        at += 2 * h;
        let output_weights = le_i16s(&bytes[at..], 2 * h * buckets);
        at += 4 * h * buckets;
        let output_bias =
            bytes[at..].chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
        Network::from_parts(variant, king, feature_weights, feature_bias, output_weights, output_bias)
    }

    /// The file image of this net (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let buckets = self.buckets();
        let mut out = Vec::with_capacity(file_bytes(self.hidden, buckets, &self.king));
        out.extend_from_slice(MAGIC);
        let version = version(buckets, &self.king);
        for v in [version, INPUTS as u32, self.hidden as u32, variant_code(self.variant) as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if version != VERSION_SINGLE {
            out.extend_from_slice(&(buckets as u32).to_le_bytes());
        }
        if version == VERSION_KING {
            out.extend_from_slice(&self.king.0);
        }
        for w in self.feature_weights.iter().chain(&self.feature_bias).chain(&self.output_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// A net from quantised parts (the trainer's output); the width is the
    /// number of feature biases, the number of buckets that of output
    /// biases, the input buckets those of `king`.
    pub fn from_parts(
        variant: VariantKind,
        king: KingMap,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, String> {
        let h = feature_bias.len();
        check_hidden(h)?;
        let buckets = output_bias.len();
        check_buckets(buckets)?;
        let inputs = king.buckets() * INPUTS;
        if feature_weights.len() != inputs * h || output_weights.len() != 2 * h * buckets {
            return Err(format!(
                "{} feature weights and {} output weights, expected {} and {}",
                feature_weights.len(),
                output_weights.len(),
                inputs * h,
                2 * h * buckets
            ));
        }
        if let Some(w) = output_weights.iter().find(|w| w.unsigned_abs() as i32 > MAX_OUTPUT_WEIGHT) {
            return Err(format!("output weight {w} out of range (at most {MAX_OUTPUT_WEIGHT} in magnitude)"));
        }
        Ok(Network {
            hidden: h,
            king,
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
    pub fn parts(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (&self.feature_weights, &self.feature_bias, &self.output_weights, &self.output_bias)
    }

    /// The variant this net was trained for.
    pub fn variant(&self) -> VariantKind {
        self.variant
    }

    /// The hidden width H.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The number of output buckets.
    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// The king input buckets.
    pub fn king_map(&self) -> &KingMap {
        &self.king
    }

    /// Input features per point of view: 768 per king input bucket.
    pub fn inputs(&self) -> usize {
        self.king.buckets() * INPUTS
    }

    /// The same net run by other kernels (tests compare them).
    pub fn with_kernels(mut self, kernels: Kernels) -> Network {
        self.kernels = kernels;
        self
    }

    /// A net of width `hidden` with random weights in the trained ranges
    /// (for tests and for measuring the speed of a width).
    pub fn random(variant: VariantKind, hidden: usize, seed: u64) -> Network {
        Network::random_bucketed(variant, hidden, 1, seed)
    }

    /// The same with `buckets` output buckets.
    pub fn random_bucketed(variant: VariantKind, hidden: usize, buckets: usize, seed: u64) -> Network {
        Network::random_with(variant, KingMap::NONE, hidden, buckets, seed)
    }

    /// The same with the king input buckets of `king`.
    pub fn random_with(variant: VariantKind, king: KingMap, hidden: usize, buckets: usize, seed: u64) -> Network {
        let mut rng = crate::types::SplitMix::new(seed);
        let mut small = |range: i64| ((rng.next_u64() % (2 * range as u64 + 1)) as i64 - range) as i16;
        let fw: Vec<i16> = (0..king.buckets() * INPUTS * hidden).map(|_| small(200)).collect();
        let fb: Vec<i16> = (0..hidden).map(|_| small(300)).collect();
        let ow: Vec<i16> = (0..2 * hidden * buckets).map(|_| small(MAX_OUTPUT_WEIGHT as i64)).collect();
        let ob: Vec<i32> = (0..buckets).map(|k| 1234 + 1000 * small(50) as i32 + k as i32).collect();
        Network::from_parts(variant, king, fw, fb, ow, ob).expect("a valid width and bucket count")
    }

    /// The accumulator of `b` computed from scratch.
    pub fn refresh(&self, b: &Board) -> Accumulator {
        let mut acc = Accumulator::zeroed(self.hidden);
        for persp in [Color::White, Color::Black] {
            let slot = self.king.slot(persp, b.king(persp));
            let view = View::new(persp, slot);
            let columns: arrayvec::ArrayVec<u16, 64> =
                b.occupied().into_iter().map(|sq| view.feature(b.piece_at(sq).expect("occupied"), sq) as u16).collect();
            self.kernels.apply(acc.view_mut(persp), &self.feature_bias, &self.feature_weights, &columns, &[]);
            acc.slots[persp.index()] = slot;
        }
        acc
    }

    /// Sets `out` to `acc` with the pieces of `delta` taken off and put on;
    /// a view whose king changed bucket is recomputed from the pieces
    /// after the move.
    #[inline]
    pub fn apply(&self, acc: &Accumulator, delta: &Delta, out: &mut Accumulator) {
        if let Some(kings) = delta.kings {
            return self.apply_king_move(acc, delta, kings, out);
        }
        for persp in [Color::White, Color::Black] {
            self.update_view(acc, delta, View::new(persp, acc.slots[persp.index()]), persp, out);
        }
        out.slots = acc.slots;
    }

    /// One view of [`Network::apply`], updated by the delta's pieces.
    #[inline(always)]
    fn update_view(&self, acc: &Accumulator, delta: &Delta, view: View, persp: Color, out: &mut Accumulator) {
        // Filled in place (a `collect` would build the list and then copy it).
        let mut adds: arrayvec::ArrayVec<u16, 32> = arrayvec::ArrayVec::new();
        let mut subs: arrayvec::ArrayVec<u16, 32> = arrayvec::ArrayVec::new();
        for &(p, sq) in &delta.added {
            adds.push(view.feature(p, sq) as u16);
        }
        for &(p, sq) in &delta.removed {
            subs.push(view.feature(p, sq) as u16);
        }
        self.kernels.apply(out.view_mut(persp), acc.view(persp), &self.feature_weights, &adds, &subs);
    }

    /// [`Network::apply`] after a move that took a king into another slot.
    #[cold]
    fn apply_king_move(&self, acc: &Accumulator, delta: &Delta, kings: [Option<Square>; 2], out: &mut Accumulator) {
        for persp in [Color::White, Color::Black] {
            let (was, now) = (acc.slots[persp.index()], self.king.slot(persp, kings[persp.index()]));
            if was == now {
                self.update_view(acc, delta, View::new(persp, was), persp, out);
            } else {
                let view = View::new(persp, now);
                let columns: arrayvec::ArrayVec<u16, 32> =
                    delta.after.iter().map(|&(p, sq)| view.feature(p, sq) as u16).collect();
                self.kernels.apply(out.view_mut(persp), &self.feature_bias, &self.feature_weights, &columns, &[]);
            }
            out.slots[persp.index()] = now;
        }
    }

    /// The evaluation (centipawns, side to move's point of view) of `b`,
    /// whose accumulator is `acc`.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, b: &Board) -> i32 {
        let stm = b.turn();
        let bucket = output_bucket(b.occupied().count() as usize, self.buckets());
        let h2 = 2 * self.hidden;
        let weights = &self.output_weights[bucket * h2..(bucket + 1) * h2];
        let sum = self.kernels.screlu_dot(acc.view(stm), acc.view(!stm), weights);
        let out = sum / QA as i64 + self.output_bias[bucket] as i64;
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
            assert_eq!(bytes.len(), file_bytes(128, 1, &KingMap::NONE));
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
        wrong[4] = 4; // version
        assert!(Network::from_bytes(&wrong).unwrap_err().contains("version 4"));
        // Bucketed nets are version 2 files that name their buckets.
        for buckets in [2, 8, MAX_BUCKETS] {
            let net = Network::random_bucketed(VariantKind::Atomic, 32, buckets, 3);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), file_bytes(32, buckets, &KingMap::NONE));
            assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 2);
            assert_eq!(
                Network::read_header(&bytes).unwrap(),
                (32, VariantKind::Atomic, file_bytes(32, buckets, &KingMap::NONE))
            );
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!((back.buckets(), back.to_bytes()), (buckets, bytes));
        }
        let bytes = Network::random_bucketed(VariantKind::Atomic, 32, 8, 3).to_bytes();
        assert!(Network::from_bytes(&bytes[..22]).unwrap_err().contains("cut short"));
        for bad in [0u32, 1, 17, u32::MAX] {
            let mut wrong = bytes.clone();
            wrong[20..24].copy_from_slice(&bad.to_le_bytes());
            assert!(Network::from_bytes(&wrong).unwrap_err().contains("output buckets"), "{bad}");
        }
        let mut wrong = bytes.clone();
        wrong[20..24].copy_from_slice(&4u32.to_le_bytes()); // the header and the size disagree
        assert!(Network::from_bytes(&wrong).unwrap_err().contains("bytes"));
        // Every width round-trips, and the header names it.
        for h in [16, 128, 256, 512, 1024] {
            let net = Network::random(VariantKind::Chess, h, h as u64);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), file_bytes(h, 1, &KingMap::NONE));
            assert_eq!(
                Network::read_header(&bytes).unwrap(),
                (h, VariantKind::Chess, file_bytes(h, 1, &KingMap::NONE))
            );
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
        assert_eq!(net.evaluate(&net.refresh(&w), &w), net.evaluate(&net.refresh(&m), &m));
    }

    /// Positions from random atomic games, from 32 pieces down to a few.
    fn random_positions(n: usize, seed: u64) -> Vec<Board> {
        let mut rng = SplitMix::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut b = Atomic::from_fen(Atomic::start_fen()).unwrap();
            for _ in 0..200 {
                let mut moves = crate::types::MoveList::new();
                Atomic::legal_moves(&b, &mut moves);
                if moves.is_empty() || Atomic::outcome(&b).is_some() {
                    break;
                }
                b = Atomic::play(&b, moves[(rng.next_u64() % moves.len() as u64) as usize]);
                out.push(b.clone());
            }
        }
        out
    }

    #[test]
    fn output_buckets_cut_the_piece_count_evenly() {
        assert!((2..=32).all(|n| output_bucket(n, 1) == 0));
        let eight: Vec<usize> = (2..=32).map(|n| output_bucket(n, 8)).collect();
        assert_eq!(&eight[..4], &[0, 0, 0, 0]);
        assert_eq!(&eight[4..8], &[1, 1, 1, 1]);
        assert_eq!(&eight[28..], &[7, 7, 7]);
        for b in 1..=MAX_BUCKETS {
            let all: Vec<usize> = (0..=64).map(|n| output_bucket(n, b)).collect();
            assert!(all.windows(2).all(|w| w[0] <= w[1]) && all[64] == b - 1, "{b} buckets: {all:?}");
            assert!((0..b).all(|k| all.contains(&k)), "{b} buckets: every bucket is used");
        }
    }

    /// A bucketed net evaluates each position with its own bucket's output
    /// layer: exactly the one-bucket net made of that layer.
    #[test]
    fn each_position_is_evaluated_by_its_bucket() {
        let net = Network::random_bucketed(VariantKind::Atomic, 64, 8, 21);
        let (fw, fb, ow, ob) = net.parts();
        let single: Vec<Network> = (0..8)
            .map(|k| {
                let w = ow[k * 128..(k + 1) * 128].to_vec();
                Network::from_parts(VariantKind::Atomic, KingMap::NONE, fw.to_vec(), fb.to_vec(), w, vec![ob[k]])
                    .unwrap()
            })
            .collect();
        let scalar = net.clone().with_kernels(Kernels::Scalar);
        let mut seen = [0; 8];
        for b in random_positions(3000, 4) {
            let k = output_bucket(b.occupied().count() as usize, 8);
            seen[k] += 1;
            let acc = net.refresh(&b);
            assert_eq!(net.evaluate(&acc, &b), single[k].evaluate(&acc, &b));
            assert_eq!(net.evaluate(&acc, &b), scalar.evaluate(&acc, &b));
        }
        assert!(seen.iter().filter(|&&n| n > 0).count() >= 6, "{seen:?}");
        // The buckets really differ: some position is evaluated otherwise
        // by another bucket.
        let b = Atomic::from_fen(Atomic::start_fen()).unwrap();
        let acc = net.refresh(&b);
        assert_ne!(single[7].evaluate(&acc, &b), single[0].evaluate(&acc, &b));
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
                delta.set(&b, &child, Some(net.king_map()).filter(|k| !k.is_none()));
                net.apply(&acc, &delta, &mut next);
                assert_eq!(next, net.refresh(&child), "{} after {m:?} from {}", V::NAME, V::fen(&b));
                assert_eq!(net.evaluate(&next, &child), net.evaluate(&net.refresh(&child), &child));
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
        // Without king buckets, and with them (a view recomputed when its
        // king changes bucket, from an endgame where kings walk).
        let king = KingMap::named("quad-mirror").unwrap();
        for net in [random_net(8), Network::random_with(VariantKind::Atomic, king, 64, 2, 8)] {
            let mut rng = SplitMix::new(3);
            let mut seen = 0;
            for fen in [
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                Atomic::start_fen(),
                "8/2k5/3p4/8/8/4P3/3K4/8 w - - 0 1",
            ] {
                let root = Atomic::from_fen(fen).unwrap();
                let mut stack = AccumulatorStack::new(&net, &root, 8);
                walk(&net, &mut stack, &root, 0, &mut rng, &mut seen);
            }
            assert!(seen > 30, "{seen}");
        }
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
            simd_matches_scalar(&net, 60, &format!("width {h}"));
        }
    }

    /// On `n` random atomic positions, the net's kernels (AVX2 where the
    /// CPU has it) give the scalar path's accumulators and evaluations.
    fn simd_matches_scalar(net: &Network, n: usize, what: &str) {
        let scalar = net.clone().with_kernels(Kernels::Scalar);
        for b in random_positions(n, n as u64 ^ net.hidden() as u64) {
            let (fast, slow) = (net.refresh(&b), scalar.refresh(&b));
            assert_eq!(fast, slow, "{what}");
            assert_eq!(net.evaluate(&fast, &b), scalar.evaluate(&slow, &b), "{what}");
        }
    }

    /// Nets with king input buckets: the file round-trips in version 3 and
    /// names its map; a bad map or a cut header is refused.
    #[test]
    fn king_bucket_files_round_trip() {
        for (name, buckets) in [("mirror", 1), ("rank", 1), ("4", 8), ("quad-mirror", 8)] {
            let king = KingMap::named(name).unwrap();
            let net = Network::random_with(VariantKind::Atomic, king, 32, buckets, 5);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), file_bytes(32, buckets, &king), "{name}");
            assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 3, "{name}");
            assert_eq!(Network::read_header(&bytes).unwrap().2, bytes.len(), "{name}");
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!((back.king_map(), back.inputs(), back.to_bytes()), (&king, king.buckets() * INPUTS, bytes));
        }
        let bytes = Network::random_with(VariantKind::Atomic, KingMap::named("4").unwrap(), 32, 1, 5).to_bytes();
        assert!(Network::from_bytes(&bytes[..60]).unwrap_err().contains("cut short"));
        let mut wrong = bytes.clone();
        wrong[24..88].fill(0); // no king buckets in a version 3 file
        assert!(Network::from_bytes(&wrong).unwrap_err().contains("without king buckets"));
        wrong[24] = 3; // buckets 1 and 2 on no square
        assert!(Network::from_bytes(&wrong).unwrap_err().contains("on no square"));
        let mut wrong = bytes.clone();
        wrong[30] = 4; // 5 buckets: the size no longer fits
        assert!(Network::from_bytes(&wrong).is_err());
        assert!(MAX_FILE_BYTES >= file_bytes(MAX_HIDDEN, MAX_BUCKETS, &KingMap::named("4").unwrap()));
    }

    /// With king input buckets (mirrored or not), the accumulator updated
    /// move by move, recomputing a view when its king changes bucket, equals
    /// the one computed from scratch, through explosions and in every
    /// variant; the SIMD kernels give the scalar evaluation.
    #[test]
    fn king_buckets_update_and_evaluate_exactly() {
        use crate::variant::{Chess, Dynamo, Push};
        for (i, name) in ["mirror", "rank", "4", "quad-mirror"].into_iter().enumerate() {
            let king = KingMap::named(name).unwrap();
            let net = |v| Network::random_with(v, king, 64, 2, 40 + i as u64);
            assert!(incremental_matches_fresh::<Atomic>(&net(VariantKind::Atomic), 30, i as u64) > 1500, "{name}");
            assert!(incremental_matches_fresh::<Chess>(&net(VariantKind::Chess), 4, i as u64) > 200, "{name}");
            assert!(incremental_matches_fresh::<Push>(&net(VariantKind::Push), 4, i as u64) > 200, "{name}");
            assert!(incremental_matches_fresh::<Dynamo>(&net(VariantKind::Dynamo), 1, i as u64) > 30, "{name}");
            simd_matches_scalar(&net(VariantKind::Atomic), 200, name);
        }
    }

    /// A net whose king buckets all hold the same weights (and which is
    /// not mirrored) is the net without buckets.
    #[test]
    fn equal_king_buckets_are_the_net_without_them() {
        let plain = Network::random_bucketed(VariantKind::Atomic, 64, 8, 9);
        let (fw, fb, ow, ob) = plain.parts();
        let king = KingMap::named("4").unwrap();
        let fw4: Vec<i16> = fw.iter().copied().cycle().take(4 * fw.len()).collect();
        let split = Network::from_parts(VariantKind::Atomic, king, fw4, fb.to_vec(), ow.to_vec(), ob.to_vec()).unwrap();
        let mut stack = AccumulatorStack::new(&split, &Board::startpos(), 2);
        let _ = stack.get(&split, 0);
        let mut moved = 0;
        for b in random_positions(1500, 17) {
            let (a, c) = (split.refresh(&b), plain.refresh(&b));
            assert_eq!(split.evaluate(&a, &b), plain.evaluate(&c, &b));
            moved += (a.slots != [0, 0]) as usize;
        }
        assert!(moved > 100, "kings off their first rank: {moved}");
    }
}
