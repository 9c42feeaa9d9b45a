//! The network: (768 → [`HIDDEN`]) × 2 → 1, perspective, SCReLU.
//!
//! **Input.** For each point of view (White's and Black's), 768 binary
//! features, one per (piece colour relative to that side, role, square seen
//! from that side): [`feature`]. The first layer turns each side's active
//! features into an *accumulator* of [`HIDDEN`] values: the bias plus the
//! weight column of every present piece. A move changes a few features, so
//! the accumulator is updated, not recomputed: a [`Delta`] diffs the piece
//! bitboards of the position before and after, which handles an atomic
//! explosion (up to nine pieces gone), castling, promotion and a push-chess
//! shove alike; [`Network::apply`] applies it, and the search's
//! [`AccumulatorStack`] does so lazily.
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
//! **SIMD.** The accumulator update and the output layer have an AVX2 path
//! (`std::arch`, chosen at run time when the CPU has AVX2) and a portable
//! scalar path; integer arithmetic makes both give identical results
//! (tested).

use super::data::{variant_code, variant_from_code};
use crate::board::Board;
use crate::types::{Color, Piece, Role, Square};
use crate::variant::VariantKind;

pub const INPUTS: usize = 768;
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

/// The input feature of piece `p` on `sq` seen from `persp`'s side: own
/// pieces first, squares mirrored top to bottom for Black.
#[inline(always)]
pub fn feature(persp: Color, p: Piece, sq: Square) -> usize {
    let own = (p.color != persp) as usize;
    let sq = if persp == Color::White { sq.index() } else { sq.index() ^ 56 };
    own * 384 + p.role.index() * 64 + sq
}

/// First-layer outputs for both points of view, indexed by colour.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub values: [[i16; HIDDEN]; 2],
}

/// The pieces one move takes off the board and puts on it: the difference
/// of the 12 piece bitboards, so that any move of any variant (an explosion
/// of up to 9 pieces, castling, a promotion, a push or pull) is one update.
#[derive(Clone, Debug, Default)]
pub struct Delta {
    removed: arrayvec::ArrayVec<(Piece, Square), 32>,
    added: arrayvec::ArrayVec<(Piece, Square), 32>,
}

impl Delta {
    /// Sets this to the difference between `before` and `after` (in place:
    /// deltas live in per-ply stacks).
    #[inline]
    pub fn set(&mut self, before: &Board, after: &Board) {
        self.clear();
        for color in [Color::White, Color::Black] {
            for role in Role::ALL {
                let (was, is) = (before.pieces(color, role), after.pieces(color, role));
                if was == is {
                    continue;
                }
                let p = Piece::new(color, role);
                // At most 32 pieces leave or arrive in one move in any variant.
                for sq in was & !is {
                    let _ = self.removed.try_push((p, sq));
                }
                for sq in is & !was {
                    let _ = self.added.try_push((p, sq));
                }
            }
        }
    }

    /// No change (a null move).
    pub fn clear(&mut self) {
        self.removed.clear();
        self.added.clear();
    }
}

/// The accumulators of a search path, one per ply, brought up to date
/// only when a position is evaluated: a move records its [`Delta`]
/// (cheap: bitboard differences), and [`AccumulatorStack::get`] applies the
/// deltas since the last ply that is up to date. Positions that are never
/// evaluated (cut by the hash table, by mate distance, a repetition) cost no
/// accumulator work.
pub struct AccumulatorStack {
    accs: Vec<Accumulator>,
    deltas: Vec<Delta>,
    /// Whether `accs[ply]` is the accumulator of the path's position at `ply`.
    fresh: Vec<bool>,
}

impl AccumulatorStack {
    /// A stack of `plies` entries for a path starting at `root`.
    pub fn new(net: &Network, root: &Board, plies: usize) -> AccumulatorStack {
        let plies = plies.max(1);
        let mut accs = vec![Accumulator::default(); plies];
        accs[0] = net.refresh(root);
        let mut fresh = vec![false; plies];
        fresh[0] = true;
        AccumulatorStack { accs, deltas: vec![Delta::default(); plies], fresh }
    }

    /// The position at `ply + 1` is `after`, reached from `before` at `ply`.
    #[inline]
    pub fn push(&mut self, ply: usize, before: &Board, after: &Board) {
        self.deltas[ply + 1].set(before, after);
        self.fresh[ply + 1] = false;
    }

    /// The position at `ply + 1` is the one at `ply` (a null move).
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        self.deltas[ply + 1].clear();
        self.fresh[ply + 1] = false;
    }

    /// The accumulator of the path's position at `ply`.
    #[inline]
    pub fn get(&mut self, net: &Network, ply: usize) -> &Accumulator {
        let mut first = ply;
        while !self.fresh[first] {
            first -= 1;
        }
        for k in first + 1..=ply {
            let (done, next) = self.accs.split_at_mut(k);
            net.apply(&done[k - 1], &self.deltas[k], &mut next[0]);
            self.fresh[k] = true;
        }
        &self.accs[ply]
    }
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { values: [[0; HIDDEN]; 2] }
    }
}

/// A loaded, quantised network.
#[derive(Clone)]
pub struct Network {
    /// `[feature][HIDDEN]`, flattened.
    feature_weights: Vec<i16>,
    feature_bias: [i16; HIDDEN],
    output_weights: [i16; 2 * HIDDEN],
    output_bias: i32,
    variant: VariantKind,
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
        Ok(Network { feature_weights, feature_bias, output_weights, output_bias, variant })
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
            simd::apply(&mut acc.values[persp.index()], &self.feature_bias, &columns, &[]);
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
            simd::apply(&mut out.values[persp.index()], &acc.values[persp.index()], &adds, &subs);
        }
    }

    /// The evaluation (centipawns, side to move's point of view) of the
    /// position whose accumulator is `acc`, `stm` to move.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, stm: Color) -> i32 {
        let sum = simd::screlu_dot(&acc.values[stm.index()], &acc.values[(!stm).index()], &self.output_weights);
        let out = sum / QA as i64 + self.output_bias as i64;
        (out * SCALE as i64 / (QA * QB) as i64) as i32
    }
}

/// The two kernels, with an AVX2 path and a scalar one.
pub mod simd {
    use super::{HIDDEN, QA};

    /// Whether the AVX2 kernels are used (the CPU has AVX2).
    #[inline(always)]
    pub fn avx2() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx2")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// `dst = src + Σ adds − Σ subs` (wrapping `i16` arithmetic).
    #[inline]
    pub fn apply(dst: &mut [i16; HIDDEN], src: &[i16; HIDDEN], adds: &[&[i16; HIDDEN]], subs: &[&[i16; HIDDEN]]) {
        #[cfg(target_arch = "x86_64")]
        if avx2() {
            // SAFETY: the CPU supports AVX2 (checked just above).
            unsafe { avx2_impl::apply(dst, src, adds, subs) };
            return;
        }
        apply_scalar(dst, src, adds, subs);
    }

    pub fn apply_scalar(
        dst: &mut [i16; HIDDEN],
        src: &[i16; HIDDEN],
        adds: &[&[i16; HIDDEN]],
        subs: &[&[i16; HIDDEN]],
    ) {
        *dst = *src;
        for a in adds {
            for (d, &w) in dst.iter_mut().zip(a.iter()) {
                *d = d.wrapping_add(w);
            }
        }
        for s in subs {
            for (d, &w) in dst.iter_mut().zip(s.iter()) {
                *d = d.wrapping_sub(w);
            }
        }
    }

    /// `Σ clamp(us, 0, QA)² · w[..HIDDEN] + Σ clamp(them, 0, QA)² · w[HIDDEN..]`.
    #[inline]
    pub fn screlu_dot(us: &[i16; HIDDEN], them: &[i16; HIDDEN], w: &[i16; 2 * HIDDEN]) -> i64 {
        #[cfg(target_arch = "x86_64")]
        if avx2() {
            // SAFETY: the CPU supports AVX2 (checked just above).
            return unsafe { avx2_impl::screlu_dot(us, them, w) };
        }
        screlu_dot_scalar(us, them, w)
    }

    pub fn screlu_dot_scalar(us: &[i16; HIDDEN], them: &[i16; HIDDEN], w: &[i16; 2 * HIDDEN]) -> i64 {
        let half = |acc: &[i16; HIDDEN], w: &[i16]| -> i64 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| {
                    let c = (a as i32).clamp(0, QA);
                    (c * c * w as i32) as i64
                })
                .sum()
        };
        half(us, &w[..HIDDEN]) + half(them, &w[HIDDEN..])
    }

    #[cfg(target_arch = "x86_64")]
    mod avx2_impl {
        use super::{HIDDEN, QA};
        use std::arch::x86_64::*;

        const LANES: usize = 16;
        const _: () = assert!(HIDDEN.is_multiple_of(LANES));

        #[target_feature(enable = "avx2")]
        pub unsafe fn apply(
            dst: &mut [i16; HIDDEN],
            src: &[i16; HIDDEN],
            adds: &[&[i16; HIDDEN]],
            subs: &[&[i16; HIDDEN]],
        ) {
            for c in 0..HIDDEN / LANES {
                let at = c * LANES;
                // SAFETY: `at + LANES <= HIDDEN` for every array read or
                // written; unaligned loads and stores need no alignment.
                unsafe {
                    let mut v = _mm256_loadu_si256(src.as_ptr().add(at) as *const __m256i);
                    for a in adds {
                        v = _mm256_add_epi16(v, _mm256_loadu_si256(a.as_ptr().add(at) as *const __m256i));
                    }
                    for s in subs {
                        v = _mm256_sub_epi16(v, _mm256_loadu_si256(s.as_ptr().add(at) as *const __m256i));
                    }
                    _mm256_storeu_si256(dst.as_mut_ptr().add(at) as *mut __m256i, v);
                }
            }
        }

        #[target_feature(enable = "avx2")]
        pub unsafe fn screlu_dot(us: &[i16; HIDDEN], them: &[i16; HIDDEN], w: &[i16; 2 * HIDDEN]) -> i64 {
            let zero = _mm256_setzero_si256();
            let qa = _mm256_set1_epi16(QA as i16);
            let mut sum = _mm256_setzero_si256();
            for (half, acc) in [us, them].into_iter().enumerate() {
                for c in 0..HIDDEN / LANES {
                    let at = c * LANES;
                    // SAFETY: `at + LANES <= HIDDEN` and `half * HIDDEN + at
                    // + LANES <= 2 * HIDDEN`: every load is in bounds.
                    unsafe {
                        let a = _mm256_loadu_si256(acc.as_ptr().add(at) as *const __m256i);
                        let wv = _mm256_loadu_si256(w.as_ptr().add(half * HIDDEN + at) as *const __m256i);
                        let clipped = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
                        // Widened to i32: the square (up to 255²) times the
                        // weight does not fit 16 bits.
                        for (c16, w16) in [
                            (_mm256_castsi256_si128(clipped), _mm256_castsi256_si128(wv)),
                            (_mm256_extracti128_si256::<1>(clipped), _mm256_extracti128_si256::<1>(wv)),
                        ] {
                            let c32 = _mm256_cvtepi16_epi32(c16);
                            let w32 = _mm256_cvtepi16_epi32(w16);
                            sum = _mm256_add_epi32(sum, _mm256_mullo_epi32(_mm256_mullo_epi32(c32, c32), w32));
                        }
                    }
                }
            }
            let mut lanes = [0i32; 8];
            // SAFETY: `lanes` holds exactly 8 i32, 32 bytes.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum) };
            lanes.iter().map(|&x| x as i64).sum()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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

    #[test]
    fn file_round_trip_and_bad_files() {
        let net = random_net(7);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES);
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert!(Network::from_bytes(b"hello").is_err());
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut wrong = bytes.clone();
        wrong[12] = 99; // hidden size
        assert!(Network::from_bytes(&wrong).unwrap_err().contains("x99"));
    }

    #[test]
    fn scalar_and_simd_kernels_agree() {
        let mut rng = SplitMix::new(3);
        let mut v = || {
            let mut a = [0i16; HIDDEN];
            a.iter_mut().for_each(|x| *x = (rng.next_u64() % 1200) as i16 - 400);
            a
        };
        let (src, a1, a2, s1) = (v(), v(), v(), v());
        let mut w = [0i16; 2 * HIDDEN];
        let (w1, w2) = (v(), v());
        w[..HIDDEN].iter_mut().zip(w1).for_each(|(d, x)| *d = x % MAX_OUTPUT_WEIGHT as i16);
        w[HIDDEN..].iter_mut().zip(w2).for_each(|(d, x)| *d = x % MAX_OUTPUT_WEIGHT as i16);
        // The extremes: every value clipped at QA against the largest weights.
        let top = [QA as i16 + 5; HIDDEN];
        let wmax = [MAX_OUTPUT_WEIGHT as i16; 2 * HIDDEN];
        assert_eq!(simd::screlu_dot(&top, &top, &wmax), simd::screlu_dot_scalar(&top, &top, &wmax));
        let wmin = [-(MAX_OUTPUT_WEIGHT as i16); 2 * HIDDEN];
        assert_eq!(simd::screlu_dot(&top, &top, &wmin), -simd::screlu_dot_scalar(&top, &top, &wmax));
        let (mut fast, mut slow) = ([0i16; HIDDEN], [0i16; HIDDEN]);
        simd::apply(&mut fast, &src, &[&a1, &a2], &[&s1]);
        simd::apply_scalar(&mut slow, &src, &[&a1, &a2], &[&s1]);
        assert_eq!(fast, slow);
        assert_eq!(simd::screlu_dot(&src, &a1, &w), simd::screlu_dot_scalar(&src, &a1, &w));
        assert_ne!(simd::screlu_dot_scalar(&src, &a1, &w), 0);
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
        let net = random_net(5);
        assert!(incremental_matches_fresh::<Atomic>(&net, 60, 1) > 3000);
        assert!(incremental_matches_fresh::<Chess>(&net, 10, 2) > 500);
        assert!(incremental_matches_fresh::<Push>(&net, 10, 3) > 500);
        assert!(incremental_matches_fresh::<Dynamo>(&net, 3, 4) > 100);
    }
}
