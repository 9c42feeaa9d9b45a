//! The NNUE trainer: fits Fission's (768 → H) × 2 → 1 SCReLU network, with
//! one output layer per output bucket ([`network::output_bucket`]: by the
//! number of pieces on the board), to `fission datagen` records on the CPU.
//!
//! * **Inputs**: each record's pieces as the engine's features
//!   ([`fission::nnue::network::feature_in`]), from the side to move's and
//!   the other side's point of view: sparse, at most 32 active of 768 per
//!   king input bucket (a [`KingMap`]: one bucket, unless the model was
//!   split into king buckets).
//! * **Target**: `λ · sigmoid(score / SCALE) + (1 − λ) · result`, the search
//!   score blended with the game's result (both from the side to move's
//!   view); `λ` is `1 − wdl`.
//! * **Loss**: squared error between `sigmoid(output)` and the target; the
//!   output is in units of `SCALE` centipawns, as in the engine.
//! * **Optimiser**: Adam over mini-batches, the batch split over threads
//!   (each accumulates the gradient of its share; the shares are summed);
//!   the learning rate drops by `lr_gamma` every `lr_step` epochs. Weights
//!   are clipped after each step to the ranges the quantised net can hold.
//! * **Sparse kernels by hand**: the forward pass adds one weight row per
//!   active feature; the backward pass adds the hidden gradient to the same
//!   rows only. No tensor library: at this size the work is a few dense
//!   row additions per position, which the compiler vectorises.
//!
//! [`quantise`] turns the float weights into the engine's net file.

use fission::VariantKind;
use fission::eval::Evaluation;
use fission::nnue::data::Record;
pub use fission::nnue::network::KingMap;
pub use fission::nnue::network::check_buckets;
pub use fission::nnue::network::check_hidden;
use fission::nnue::network::{self, INPUTS, MAX_OUTPUT_WEIGHT, Network, QA, QB, SCALE, output_bucket};
use fission::types::SplitMix;
use fission::with_variant;
use std::time::Instant;

/// The largest feature weight or bias magnitude: quantised at `QA` it is
/// 505, so 32 features and the bias stay within an `i16`.
pub const FEATURE_CLIP: f32 = 1.98;
/// The largest output weight magnitude (quantised at `QB`: 999, one below
/// the engine's `MAX_OUTPUT_WEIGHT`).
pub const OUTPUT_CLIP: f32 = (MAX_OUTPUT_WEIGHT - 1) as f32 / QB as f32;
/// The hidden width when none is asked for.
pub const DEFAULT_HIDDEN: usize = 128;

/// The float network being trained.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The hidden width H.
    pub hidden: usize,
    /// The number of output buckets B.
    pub buckets: usize,
    /// The king input buckets (K of them).
    pub king: KingMap,
    /// `[K * 768][H]`, flattened.
    pub ft_w: Vec<f32>,
    pub ft_b: Vec<f32>,
    /// `[B][2 * H]`: in each bucket, side to move's half first.
    pub out_w: Vec<f32>,
    /// `[B]`.
    pub out_b: Vec<f32>,
}

/// Where each part of a model of width `h` with `b` buckets starts in its
/// flat vector, and its length.
#[derive(Clone, Copy)]
struct Layout {
    h: usize,
    b: usize,
    /// King input buckets.
    k: usize,
}

impl Layout {
    fn ft_b(self) -> usize {
        self.k * INPUTS * self.h
    }
    fn out_w(self) -> usize {
        self.ft_b() + self.h
    }
    fn out_b(self) -> usize {
        self.out_w() + 2 * self.h * self.b
    }
    fn params(self) -> usize {
        self.out_b() + self.b
    }
}

/// Uniform in `[-scale, scale]`.
fn uniform(rng: &mut SplitMix, scale: f32) -> f32 {
    ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
}

impl Model {
    /// Small random weights (uniform, scaled by the fan-in) for width
    /// `hidden` and `buckets` output buckets.
    pub fn random(hidden: usize, buckets: usize, seed: u64) -> Model {
        Model::random_with(KingMap::NONE, hidden, buckets, seed)
    }

    /// The same with the king input buckets of `king`.
    pub fn random_with(king: KingMap, hidden: usize, buckets: usize, seed: u64) -> Model {
        let mut rng = SplitMix::new(seed);
        let ft_scale = 1.0 / (32.0f32).sqrt();
        let out_scale = 1.0 / ((2 * hidden) as f32).sqrt();
        Model {
            hidden,
            buckets,
            king,
            ft_w: (0..king.buckets() * INPUTS * hidden).map(|_| uniform(&mut rng, ft_scale) * 0.25).collect(),
            ft_b: (0..hidden).map(|_| uniform(&mut rng, ft_scale) * 0.25 + 0.25).collect(),
            out_w: (0..2 * hidden * buckets).map(|_| uniform(&mut rng, out_scale)).collect(),
            out_b: vec![0.0; buckets],
        }
    }

    /// This one-bucket model with `buckets` output buckets, each a copy of
    /// its output layer: the same function, whose buckets then learn apart.
    pub fn split_output(&self, buckets: usize) -> Model {
        assert_eq!(self.buckets, 1, "only a one-bucket model is split");
        Model { buckets, out_w: self.out_w.repeat(buckets), out_b: self.out_b.repeat(buckets), ..self.clone() }
    }

    /// This model without king buckets split into those of `king`, each a
    /// copy of its feature weights: the same function when `king` mirrors
    /// no view (a mirrored view sees the position's mirror image, which a
    /// net trained with mirrored data values about the same), whose
    /// buckets then learn apart.
    pub fn split_king(&self, king: KingMap) -> Model {
        assert!(self.king.is_none(), "only a model without king buckets is split");
        Model { king, ft_w: self.ft_w.repeat(king.buckets()), ..self.clone() }
    }

    /// This model widened to `hidden` units, computing the same function:
    /// the old units are kept, each new one gets small random input weights
    /// (so that no two start alike) and output weights of zero, so training
    /// goes on from where this model stands (function-preserving widening,
    /// as in Net2Net).
    pub fn widen(&self, hidden: usize, seed: u64) -> Model {
        assert!(hidden >= self.hidden, "widening only");
        let h = self.hidden;
        let fresh = Model::random_with(self.king, hidden, self.buckets, seed);
        let mut ft_w = fresh.ft_w;
        for f in 0..self.king.buckets() * INPUTS {
            ft_w[f * hidden..f * hidden + h].copy_from_slice(&self.ft_w[f * h..(f + 1) * h]);
        }
        let mut ft_b = fresh.ft_b;
        ft_b[..h].copy_from_slice(&self.ft_b);
        let mut out_w = vec![0.0; 2 * hidden * self.buckets];
        // Each bucket's and side's half: `2 * bucket + side`.
        for half in 0..2 * self.buckets {
            out_w[half * hidden..half * hidden + h].copy_from_slice(&self.out_w[half * h..(half + 1) * h]);
        }
        Model { hidden, buckets: self.buckets, king: self.king, ft_w, ft_b, out_w, out_b: self.out_b.clone() }
    }

    fn layout(&self) -> Layout {
        Layout { h: self.hidden, b: self.buckets, k: self.king.buckets() }
    }

    /// All parameters as one vector (for checkpoints and the optimiser).
    fn flat(&self) -> Vec<f32> {
        let mut v = Vec::with_capacity(self.layout().params());
        v.extend_from_slice(&self.ft_w);
        v.extend_from_slice(&self.ft_b);
        v.extend_from_slice(&self.out_w);
        v.extend_from_slice(&self.out_b);
        v
    }

    fn from_flat(king: KingMap, hidden: usize, buckets: usize, v: &[f32]) -> Model {
        let (ft_w, rest) = v.split_at(king.buckets() * INPUTS * hidden);
        let (ft_b, rest) = rest.split_at(hidden);
        let (out_w, out_b) = rest.split_at(2 * hidden * buckets);
        Model {
            hidden,
            buckets,
            king,
            ft_w: ft_w.to_vec(),
            ft_b: ft_b.to_vec(),
            out_w: out_w.to_vec(),
            out_b: out_b.to_vec(),
        }
    }

    /// A float checkpoint: `b"FSCB"`, `u32` hidden size, `u32` output
    /// buckets, the parameters as little-endian `f32` (feature weights,
    /// feature biases, output weights, output biases). With king buckets
    /// the magic is `b"FSCM"` and the 64 bytes of the [`KingMap`] follow the
    /// bucket count. Checkpoints of the earliest format (`b"FSCK"`, no
    /// bucket count: one bucket) are read too.
    pub fn to_checkpoint(&self) -> Vec<u8> {
        let mut out = if self.king.is_none() { b"FSCB".to_vec() } else { b"FSCM".to_vec() };
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        if !self.king.is_none() {
            out.extend_from_slice(&self.king.0);
        }
        for x in self.flat() {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    pub fn from_checkpoint(bytes: &[u8]) -> Result<Model, String> {
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
        let (hidden, buckets, king, start) = match bytes.get(..4) {
            Some(b"FSCK") if bytes.len() >= 8 => (u32_at(4), 1, KingMap::NONE, 8),
            Some(b"FSCB") if bytes.len() >= 12 => (u32_at(4), u32_at(8), KingMap::NONE, 12),
            Some(b"FSCM") if bytes.len() >= 76 => {
                (u32_at(4), u32_at(8), KingMap::new(bytes[12..76].try_into().expect("64 bytes"))?, 76)
            }
            _ => return Err("not a checkpoint (no FSCB, FSCM or FSCK header)".into()),
        };
        check_hidden(hidden)?;
        check_buckets(buckets)?;
        let params = Layout { h: hidden, b: buckets, k: king.buckets() }.params();
        if bytes.len() != start + 4 * params {
            return Err(format!(
                "{} bytes, a checkpoint of a {}x{hidden} network with {buckets} output buckets has {}",
                bytes.len(),
                king.buckets() * INPUTS,
                start + 4 * params
            ));
        }
        let v: Vec<f32> =
            bytes[start..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
        Ok(Model::from_flat(king, hidden, buckets, &v))
    }

    /// The float weights a quantised net stands for (the inverse of
    /// [`quantise`] up to its rounding): training can go on from a net
    /// whose float checkpoint is gone, e.g. the one the engine embeds.
    pub fn from_network(net: &Network) -> Model {
        let (fw, fb, ow, ob) = net.parts();
        let f = |x: i16, scale: i32| x as f32 / scale as f32;
        Model {
            hidden: net.hidden(),
            buckets: net.buckets(),
            king: *net.king_map(),
            ft_w: fw.iter().map(|&x| f(x, QA)).collect(),
            ft_b: fb.iter().map(|&x| f(x, QA)).collect(),
            out_w: ow.iter().map(|&x| f(x, QB)).collect(),
            out_b: ob.iter().map(|&x| x as f32 / (QA * QB) as f32).collect(),
        }
    }

    /// The raw output (units of `SCALE` centipawns) for the record.
    pub fn output(&self, r: &Record) -> f32 {
        let f = Features::of(r, false, &self.king);
        let mut scratch = Scratch::new(self.hidden);
        self.forward(&f, &mut scratch)
    }

    /// The output bucket of a position with these features.
    fn bucket(&self, f: &Features) -> usize {
        output_bucket(f.len, self.buckets)
    }

    fn forward(&self, f: &Features, s: &mut Scratch) -> f32 {
        let h = self.hidden;
        let bucket = self.bucket(f);
        let out_w = &self.out_w[bucket * 2 * h..(bucket + 1) * 2 * h];
        let mut out = self.out_b[bucket];
        for side in 0..2 {
            let acc = &mut s.acc[side];
            acc.copy_from_slice(&self.ft_b);
            for &feat in &f.active[side][..f.len] {
                let row = &self.ft_w[feat as usize * h..(feat as usize + 1) * h];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
            let weights = &out_w[side * h..(side + 1) * h];
            for (a, w) in acc.iter().zip(weights) {
                let c = a.clamp(0.0, 1.0);
                out += c * c * w;
            }
        }
        out
    }
}

/// The active features of a record from the side to move's view (`[0]`)
/// and the other side's (`[1]`).
struct Features {
    active: [[u16; 32]; 2],
    len: usize,
}

impl Features {
    /// The features of `r`; with `mirror`, of its mirror image left to
    /// right (files a and h swapped), which the rules of every variant
    /// value the same (castling rights are not an input).
    fn of(r: &Record, mirror: bool, king: &KingMap) -> Features {
        let flip = |sq: fission::Square| if mirror { fission::Square::new(sq.u8() ^ 7) } else { sq };
        let king_of =
            |c| r.pieces().find(|&(_, p)| p.color == c && p.role == fission::Role::King).map(|(s, _)| flip(s));
        let slots = if king.is_none() {
            [0, 0]
        } else {
            [king.slot(r.stm, king_of(r.stm)), king.slot(!r.stm, king_of(!r.stm))]
        };
        let mut active = [[0u16; 32]; 2];
        let mut len = 0;
        for (sq, p) in r.pieces() {
            let sq = flip(sq);
            active[0][len] = network::feature_in(r.stm, p, sq, slots[0]) as u16;
            active[1][len] = network::feature_in(!r.stm, p, sq, slots[1]) as u16;
            len += 1;
        }
        Features { active, len }
    }
}

/// One thread's hidden values (both points of view) and hidden gradient.
struct Scratch {
    acc: [Vec<f32>; 2],
    hidden: Vec<f32>,
}

impl Scratch {
    fn new(h: usize) -> Scratch {
        Scratch { acc: [vec![0.0; h], vec![0.0; h]], hidden: vec![0.0; h] }
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target of a record: the blend of its score and its result.
pub fn target(r: &Record, wdl: f32) -> f32 {
    let score = sigmoid(r.stm_score() as f32 / SCALE as f32);
    (1.0 - wdl) * score + wdl * r.stm_result()
}

/// Gradient buffers of one thread.
struct Gradient {
    g: Vec<f32>,
    loss: f64,
}

impl Gradient {
    fn new(params: usize) -> Gradient {
        Gradient { g: vec![0.0; params], loss: 0.0 }
    }
}

impl Model {
    /// Adds the loss and gradient of `records` to `grad`; with `mirror`,
    /// every other record (by `parity`) is seen mirrored left to right.
    fn accumulate(&self, records: &[Record], wdl: f32, mirror: bool, parity: usize, grad: &mut Gradient) {
        let (h, lay) = (self.hidden, self.layout());
        let (ft_b, out_w, out_b) = (lay.ft_b(), lay.out_w(), lay.out_b());
        let mut s = Scratch::new(h);
        for (i, r) in records.iter().enumerate() {
            let f = Features::of(r, mirror && (i + parity) % 2 == 1, &self.king);
            let out = self.forward(&f, &mut s);
            let pred = sigmoid(out);
            let err = pred - target(r, wdl);
            grad.loss += (err * err) as f64;
            let g = 2.0 * err * pred * (1.0 - pred);
            let bucket = self.bucket(&f);
            grad.g[out_b + bucket] += g;
            for side in 0..2 {
                let acc = &s.acc[side];
                // This bucket's weights for this side's half.
                let half = (2 * bucket + side) * h;
                let w = &self.out_w[half..half + h];
                let hidden = &mut s.hidden;
                {
                    let gw = &mut grad.g[out_w + half..out_w + half + h];
                    for i in 0..h {
                        let a = acc[i];
                        let c = a.clamp(0.0, 1.0);
                        gw[i] += g * c * c;
                        hidden[i] = if a > 0.0 && a < 1.0 { g * w[i] * 2.0 * a } else { 0.0 };
                    }
                }
                for (gb, x) in grad.g[ft_b..ft_b + h].iter_mut().zip(hidden.iter()) {
                    *gb += x;
                }
                for &feat in &f.active[side][..f.len] {
                    let at = feat as usize * h;
                    for (gr, x) in grad.g[at..at + h].iter_mut().zip(hidden.iter()) {
                        *gr += x;
                    }
                }
            }
        }
    }

    /// Mean loss over `records`, on `threads` threads.
    pub fn loss(&self, records: &[Record], wdl: f32, threads: usize) -> f64 {
        if records.is_empty() {
            return 0.0;
        }
        let chunk = records.len().div_ceil(threads.max(1));
        let total: f64 = std::thread::scope(|s| {
            let handles: Vec<_> = records
                .chunks(chunk)
                .map(|part| {
                    s.spawn(move || {
                        let mut sc = Scratch::new(self.hidden);
                        part.iter()
                            .map(|r| {
                                let e = sigmoid(self.forward(&Features::of(r, false, &self.king), &mut sc))
                                    - target(r, wdl);
                                (e * e) as f64
                            })
                            .sum::<f64>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("loss thread")).sum()
        });
        total / records.len() as f64
    }
}

/// Adam's state.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for i in 0..params.len() {
            let g = grad[i];
            if g == 0.0 && self.m[i] == 0.0 {
                continue; // a feature absent from the batch and never seen
            }
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
            params[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + EPS);
        }
    }
}

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// The learning rate is multiplied by `lr_gamma` every `lr_step` epochs.
    pub lr_step: usize,
    pub lr_gamma: f32,
    /// Weight of the game result in the target (0: score only).
    pub wdl: f32,
    pub threads: usize,
    pub seed: u64,
    /// Train on left-right mirror images of half the positions (a new half
    /// each epoch): twice the distinct positions for the same data.
    pub mirror: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 12,
            batch: 16_384,
            lr: 0.001,
            lr_step: 8,
            lr_gamma: 0.1,
            wdl: 0.3,
            threads: 2,
            seed: 1,
            mirror: true,
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f64,
    pub validation_loss: f64,
    pub seconds: f64,
    pub positions_per_second: f64,
    pub lr: f32,
}

/// Trains `model` on `train` for `cfg.epochs` epochs; after each epoch
/// `each` gets the report and the model (to write a checkpoint).
pub fn train(
    model: &mut Model,
    train: &mut [Record],
    validation: &[Record],
    cfg: &TrainConfig,
    mut each: impl FnMut(&EpochReport, &Model),
) {
    let mut rng = SplitMix::new(cfg.seed);
    let (hidden, buckets, lay) = (model.hidden, model.buckets, model.layout());
    let mut params = model.flat();
    let n = params.len();
    let mut adam = Adam { m: vec![0.0; n], v: vec![0.0; n], t: 0 };
    let threads = cfg.threads.max(1);
    let mut grads: Vec<Gradient> = (0..threads).map(|_| Gradient::new(n)).collect();
    let mut sum = vec![0f32; n];
    for epoch in 1..=cfg.epochs {
        let start = Instant::now();
        let lr = cfg.lr * cfg.lr_gamma.powi(((epoch - 1) / cfg.lr_step.max(1)) as i32);
        // Fisher-Yates with the run's seed: a new order each epoch.
        for i in (1..train.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            train.swap(i, j);
        }
        let mut loss = 0.0f64;
        for batch in train.chunks(cfg.batch.max(1)) {
            let current = Model::from_flat(model.king, hidden, buckets, &params);
            let share = batch.len().div_ceil(threads);
            std::thread::scope(|s| {
                for (part, grad) in batch.chunks(share).zip(grads.iter_mut()) {
                    let current = &current;
                    s.spawn(move || {
                        grad.g.iter_mut().for_each(|x| *x = 0.0);
                        grad.loss = 0.0;
                        current.accumulate(part, cfg.wdl, cfg.mirror, epoch, grad);
                    });
                }
            });
            let parts = batch.len().div_ceil(share);
            let scale = 1.0 / batch.len() as f32;
            sum.iter_mut().for_each(|x| *x = 0.0);
            for grad in &grads[..parts] {
                loss += grad.loss;
                for (s, g) in sum.iter_mut().zip(&grad.g) {
                    *s += g * scale;
                }
            }
            adam.step(&mut params, &sum, lr);
            clip(lay, &mut params);
        }
        *model = Model::from_flat(model.king, hidden, buckets, &params);
        let seconds = start.elapsed().as_secs_f64();
        let report = EpochReport {
            epoch,
            train_loss: loss / train.len().max(1) as f64,
            validation_loss: model.loss(validation, cfg.wdl, threads),
            seconds,
            positions_per_second: train.len() as f64 / seconds.max(1e-9),
            lr,
        };
        each(&report, model);
    }
}

fn clip(lay: Layout, params: &mut [f32]) {
    for x in &mut params[..lay.out_w()] {
        *x = x.clamp(-FEATURE_CLIP, FEATURE_CLIP);
    }
    for x in &mut params[lay.out_w()..lay.out_b()] {
        *x = x.clamp(-OUTPUT_CLIP, OUTPUT_CLIP);
    }
}

/// The engine's quantised net for `model`.
pub fn quantise(model: &Model, variant: VariantKind) -> Result<Network, String> {
    let q = |x: f32, scale: i32, limit: i32| (x * scale as f32).round().clamp(-limit as f32, limit as f32) as i32;
    let fw: Vec<i16> = model.ft_w.iter().map(|&x| q(x, QA, i16::MAX as i32) as i16).collect();
    let fb: Vec<i16> = model.ft_b.iter().map(|&x| q(x, QA, i16::MAX as i32) as i16).collect();
    let ow: Vec<i16> = model.out_w.iter().map(|&x| q(x, QB, MAX_OUTPUT_WEIGHT) as i16).collect();
    let ob: Vec<i32> = model.out_b.iter().map(|&x| q(x, QA * QB, i32::MAX / 2)).collect();
    Network::from_parts(variant, model.king, fw, fb, ow, ob)
}

/// The engine's evaluation of a record's position with `evaluation`
/// (centipawns, side to move), exactly as the engine computes it (a net from
/// a freshly computed accumulator, clamped below the mate range).
pub fn engine_eval(evaluation: &Evaluation, r: &Record) -> i32 {
    with_variant!(r.variant, V => evaluation.evaluate::<V>(&r.board()))
}

/// The loss of an evaluation function (centipawns, side to move) on
/// `records`: a yardstick for the net's (e.g. the classical evaluation's).
pub fn eval_loss(records: &[Record], wdl: f32, eval: impl Fn(&Record) -> i32) -> f64 {
    let total: f64 = records
        .iter()
        .map(|r| {
            let e = sigmoid(eval(r) as f32 / SCALE as f32) - target(r, wdl);
            (e * e) as f64
        })
        .sum();
    total / records.len().max(1) as f64
}

/// Splits records into training and validation by game: a game's records
/// are contiguous in a datagen file with rising plies, so a record whose ply
/// is not above the previous one starts a new game; each game goes to
/// validation with probability `fraction` (positions of one game are
/// alike, and must not be on both sides).
pub fn split(records: Vec<Record>, fraction: f64, seed: u64) -> (Vec<Record>, Vec<Record>) {
    let mut rng = SplitMix::new(seed ^ 0x5EED);
    let cut = (fraction.clamp(0.0, 1.0) * u64::MAX as f64) as u64;
    let (mut train, mut validation) = (Vec::with_capacity(records.len()), Vec::new());
    let mut to_validation = false;
    let mut last_ply = None;
    for r in records {
        if last_ply.is_none_or(|p| r.ply <= p) {
            to_validation = rng.next_u64() < cut;
        }
        last_ply = Some(r.ply);
        if to_validation { validation.push(r) } else { train.push(r) }
    }
    (train, validation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fission::nnue::data::{Record, result_code};
    use fission::{Atomic, Color, MoveList, Role, Variant};

    /// Positions from random atomic games, labelled with a score the net
    /// can learn: the material balance (pawn 100, minor 300, rook 500,
    /// queen 900) from White's view, and the result by its sign.
    fn synthetic(n: usize, seed: u64) -> Vec<Record> {
        let value = [100, 300, 300, 500, 900, 0];
        let mut rng = SplitMix::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut b = Atomic::from_fen(Atomic::start_fen()).unwrap();
            for ply in 0..60u16 {
                let mut moves = MoveList::new();
                Atomic::legal_moves(&b, &mut moves);
                if moves.is_empty() || Atomic::outcome(&b).is_some() {
                    break;
                }
                b = Atomic::play(&b, moves[(rng.next_u64() % moves.len() as u64) as usize]);
                let material = |c: Color| -> i32 {
                    Role::ALL.iter().map(|&r| b.pieces(c, r).count() as i32 * value[r.index()]).sum()
                };
                let white = material(Color::White) - material(Color::Black);
                let winner = (white != 0).then_some(if white > 0 { Color::White } else { Color::Black });
                out.push(Record::new(&b, VariantKind::Atomic, white as i16, result_code(winner), ply).unwrap());
            }
        }
        out.truncate(n);
        out
    }

    #[test]
    fn a_tiny_training_run_learns_and_quantises_faithfully() {
        tiny_run(DEFAULT_HIDDEN, 1);
    }

    /// The same at width 256.
    #[test]
    fn a_wide_net_learns_and_quantises_faithfully() {
        tiny_run(256, 1);
    }

    /// The same with 8 output buckets: each bucket's layer is trained and
    /// quantised into the engine's net.
    #[test]
    fn a_bucketed_net_learns_and_quantises_faithfully() {
        tiny_run(DEFAULT_HIDDEN, 8);
    }

    /// The same with 4 mirrored king input buckets and 2 output buckets,
    /// narrow and on more positions: 4 × 768 inputs learn 5,400 positions
    /// by heart at width 128 (training loss near 0, validation loss flat).
    #[test]
    fn a_king_bucketed_net_learns_and_quantises_faithfully() {
        tiny_run_with(KingMap::named("quad-mirror").unwrap(), 32, 2, 20_000);
    }

    fn tiny_run(hidden: usize, buckets: usize) {
        tiny_run_with(KingMap::NONE, hidden, buckets, 6_000)
    }

    fn tiny_run_with(king: KingMap, hidden: usize, buckets: usize, positions: usize) {
        let (mut train_set, validation) = split(synthetic(positions, 1), 0.1, 1);
        assert!(!validation.is_empty() && train_set.len() > positions * 2 / 3);
        let cfg = TrainConfig { epochs: 15, batch: 256, lr: 0.003, lr_step: 10, threads: 2, ..TrainConfig::default() };
        let mut model = Model::random_with(king, hidden, buckets, 1);
        let before = model.loss(&validation, cfg.wdl, 2);
        let mut losses = Vec::new();
        train(&mut model, &mut train_set, &validation, &cfg, |r, _| losses.push(r.validation_loss));
        let after = *losses.last().unwrap();
        assert!(after < before * 0.5, "validation loss {before} -> {after}: {losses:?}");
        assert!(losses[losses.len() - 1] < losses[0], "{losses:?}");

        let net = quantise(&model, VariantKind::Atomic).unwrap();
        let net = Network::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!((net.buckets(), net.king_map()), (buckets, &king));
        let evaluation = Evaluation::Nnue(std::sync::Arc::new(net));
        let diff: f32 = validation
            .iter()
            .map(|r| (model.output(r) * SCALE as f32 - engine_eval(&evaluation, r) as f32).abs())
            .sum::<f32>()
            / validation.len() as f32;
        assert!(diff < 10.0, "width {hidden}: quantisation moves the evaluation by {diff} cp on average");
    }

    /// A net read back into float weights quantises to the same net, and
    /// evaluates as the float model does (within the rounding).
    #[test]
    fn a_quantised_net_is_read_back_into_its_float_weights() {
        let data = synthetic(2_000, 5);
        let mut model = Model::random(DEFAULT_HIDDEN, 1, 9);
        let (mut train_set, validation) = split(data, 0.1, 1);
        let cfg = TrainConfig { epochs: 2, batch: 256, lr: 0.01, ..TrainConfig::default() };
        train(&mut model, &mut train_set, &validation, &cfg, |_, _| {});
        let net = quantise(&model, VariantKind::Atomic).unwrap();
        let back = Model::from_network(&net);
        assert_eq!(quantise(&back, VariantKind::Atomic).unwrap().to_bytes(), net.to_bytes());
        let evaluation = Evaluation::Nnue(std::sync::Arc::new(net));
        for r in &validation[..50] {
            let (float, engine) = ((back.output(r) * SCALE as f32) as i32, engine_eval(&evaluation, r));
            assert!((float - engine).abs() <= 4, "{float} vs {engine}");
        }
    }

    #[test]
    fn checkpoints_round_trip() {
        for h in [16, 128, 256] {
            let m = Model::random(h, 1, 3);
            assert_eq!(Model::from_checkpoint(&m.to_checkpoint()).unwrap(), m);
            let bytes = m.to_checkpoint();
            assert!(Model::from_checkpoint(&bytes[..bytes.len() - 4]).is_err());
        }
        assert!(Model::from_checkpoint(b"FSCK").is_err());
        assert!(Model::from_checkpoint(b"FSCB\x10\0\0\0").is_err());
        let m = Model::random(32, 8, 3);
        let bytes = m.to_checkpoint();
        assert_eq!(Model::from_checkpoint(&bytes).unwrap(), m);
        let mut wrong = bytes.clone();
        wrong[8..12].copy_from_slice(&4u32.to_le_bytes());
        assert!(Model::from_checkpoint(&wrong).unwrap_err().contains("4 output buckets"));
        wrong[8..12].copy_from_slice(&0u32.to_le_bytes());
        assert!(Model::from_checkpoint(&wrong).is_err());
        // The earlier format: no bucket count, one bucket.
        let one = Model::random(32, 1, 4);
        let mut old = b"FSCK".to_vec();
        old.extend_from_slice(&32u32.to_le_bytes());
        old.extend(one.flat().iter().flat_map(|x| x.to_le_bytes()));
        assert_eq!(Model::from_checkpoint(&old).unwrap(), one);
        // With king buckets: the map is in the checkpoint.
        let king = Model::random_with(KingMap::named("rank-mirror").unwrap(), 32, 2, 4);
        let bytes = king.to_checkpoint();
        assert_eq!(&bytes[..4], b"FSCM");
        assert_eq!(Model::from_checkpoint(&bytes).unwrap(), king);
        assert!(Model::from_checkpoint(&bytes[..bytes.len() - 4]).is_err());
        let mut odd = Model::random(16, 1, 3).to_checkpoint();
        odd[4..8].copy_from_slice(&17u32.to_le_bytes());
        assert!(Model::from_checkpoint(&odd).unwrap_err().contains("17"));
    }

    /// A widened model computes what the narrow one did, quantises to a
    /// net that evaluates the same (up to rounding), and trains on: its new
    /// units pick up weight.
    #[test]
    fn widening_keeps_the_function_and_trains_on() {
        let data = synthetic(3_000, 7);
        let (mut train_set, validation) = split(data, 0.1, 2);
        let cfg = TrainConfig { epochs: 3, batch: 256, lr: 0.005, ..TrainConfig::default() };
        let mut narrow = Model::random(32, 1, 4);
        train(&mut narrow, &mut train_set, &validation, &cfg, |_, _| {});
        let mut wide = narrow.widen(256, 5);
        assert_eq!(wide.hidden, 256);
        for r in &validation[..100] {
            assert!((wide.output(r) - narrow.output(r)).abs() < 1e-5);
        }
        let (n, w) = (quantise(&narrow, VariantKind::Atomic).unwrap(), quantise(&wide, VariantKind::Atomic).unwrap());
        assert_eq!(w.hidden(), 256);
        let (en, ew) = (Evaluation::Nnue(std::sync::Arc::new(n)), Evaluation::Nnue(std::sync::Arc::new(w)));
        for r in &validation[..100] {
            assert_eq!(engine_eval(&en, r), engine_eval(&ew, r));
        }
        let before = wide.loss(&validation, cfg.wdl, 2);
        train(&mut wide, &mut train_set, &validation, &cfg, |_, _| {});
        assert!(wide.out_w[32..256].iter().any(|&x| x != 0.0), "the new units learn");
        assert!(wide.loss(&validation, cfg.wdl, 2) < before);
    }

    /// Splitting a one-bucket model's output layer keeps its function (in
    /// float and in the quantised net), and the buckets then learn apart.
    #[test]
    fn splitting_the_output_keeps_the_function_and_trains_on() {
        let data = synthetic(3_000, 8);
        let (mut train_set, validation) = split(data, 0.1, 3);
        let cfg = TrainConfig { epochs: 2, batch: 256, lr: 0.005, ..TrainConfig::default() };
        let mut one = Model::random(32, 1, 6);
        train(&mut one, &mut train_set, &validation, &cfg, |_, _| {});
        let mut eight = one.split_output(8);
        assert_eq!((eight.buckets, eight.out_w.len(), eight.out_b.len()), (8, 8 * 64, 8));
        for r in &validation[..100] {
            assert_eq!(eight.output(r), one.output(r));
        }
        let (n1, n8) = (quantise(&one, VariantKind::Atomic).unwrap(), quantise(&eight, VariantKind::Atomic).unwrap());
        assert_eq!(n8.buckets(), 8);
        let (e1, e8) = (Evaluation::Nnue(std::sync::Arc::new(n1)), Evaluation::Nnue(std::sync::Arc::new(n8)));
        for r in &validation[..100] {
            assert_eq!(engine_eval(&e1, r), engine_eval(&e8, r));
        }
        // The widened bucketed model still computes the same.
        let wide = eight.widen(64, 9);
        for r in &validation[..100] {
            assert!((wide.output(r) - eight.output(r)).abs() < 1e-5);
        }
        let before = eight.loss(&validation, cfg.wdl, 2);
        train(&mut eight, &mut train_set, &validation, &cfg, |_, _| {});
        assert!(eight.loss(&validation, cfg.wdl, 2) < before);
        let layer = |k: usize| &eight.out_w[k * 64..(k + 1) * 64];
        let used: Vec<usize> = (0..8).filter(|&k| layer(k) != &one.out_w[..]).collect();
        assert!(used.len() >= 4, "the buckets the data reaches learn apart: {used:?}");
    }

    /// Splitting a model into unmirrored king buckets keeps its function
    /// (float and quantised); after training the buckets differ and the
    /// loss is lower. A mirrored split trains as well.
    #[test]
    fn splitting_into_king_buckets_keeps_the_function_and_trains_on() {
        let data = synthetic(12_000, 9);
        let (mut train_set, validation) = split(data, 0.1, 4);
        let cfg = TrainConfig { epochs: 2, batch: 256, lr: 0.002, ..TrainConfig::default() };
        let mut one = Model::random(32, 2, 6);
        train(&mut one, &mut train_set, &validation, &cfg, |_, _| {});
        let four = one.split_king(KingMap::named("4").unwrap());
        assert_eq!(four.ft_w.len(), 4 * one.ft_w.len());
        for r in &validation[..100] {
            assert_eq!(four.output(r), one.output(r));
        }
        let (n1, n4) = (quantise(&one, VariantKind::Atomic).unwrap(), quantise(&four, VariantKind::Atomic).unwrap());
        assert_eq!(n4.king_map().buckets(), 4);
        let (e1, e4) = (Evaluation::Nnue(std::sync::Arc::new(n1)), Evaluation::Nnue(std::sync::Arc::new(n4)));
        for r in &validation[..100] {
            assert_eq!(engine_eval(&e1, r), engine_eval(&e4, r));
        }
        for king in ["4", "quad-mirror"] {
            let mut split = one.split_king(KingMap::named(king).unwrap());
            let before = split.loss(&validation, cfg.wdl, 2);
            train(&mut split, &mut train_set, &validation, &cfg, |_, _| {});
            assert!(split.loss(&validation, cfg.wdl, 2) < before, "{king}");
            let rows = one.ft_w.len();
            let moved = (0..split.king.buckets()).filter(|&k| split.ft_w[k * rows..(k + 1) * rows] != one.ft_w[..]);
            assert!(moved.count() >= 2, "{king}: the buckets the data reaches learn apart");
        }
    }

    /// The backward pass is the derivative of the loss: for feature
    /// weights of every king bucket layout (a king off its first rank,
    /// on either wing), the accumulated gradient matches central finite
    /// differences.
    #[test]
    fn gradients_match_finite_differences_in_every_king_bucket() {
        let mut rng = SplitMix::new(3);
        let mut b = Atomic::from_fen("r3k2r/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
        let mut data = Vec::new();
        for ply in 0..6u16 {
            let mut moves = MoveList::new();
            Atomic::legal_moves(&b, &mut moves);
            b = Atomic::play(&b, moves[(rng.next_u64() % moves.len() as u64) as usize]);
            data.push(Record::new(&b, VariantKind::Atomic, 50 * ply as i16 - 100, 1, ply).unwrap());
        }
        for name in ["none", "4", "quad-mirror"] {
            let m = Model::random_with(KingMap::named(name).unwrap(), 16, 2, 2);
            for r in &data {
                let mut g = Gradient::new(m.layout().params());
                m.accumulate(std::slice::from_ref(r), 0.3, false, 0, &mut g);
                let f = Features::of(r, false, &m.king);
                for &feat in f.active[0][..f.len].iter().chain(&f.active[1][..f.len]).step_by(5) {
                    let i = feat as usize * 16 + 3;
                    let at = |d: f32| {
                        let mut p = m.flat();
                        p[i] += d;
                        Model::from_flat(m.king, 16, 2, &p).loss(std::slice::from_ref(r), 0.3, 1)
                    };
                    let numeric = (at(1e-3) - at(-1e-3)) / 2e-3;
                    let analytic = g.g[i] as f64;
                    assert!(
                        (numeric - analytic).abs() <= 0.02 * analytic.abs().max(1e-4),
                        "{name}, feature {feat}: {numeric} vs {analytic}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_split_keeps_games_together() {
        let records = synthetic(2_000, 2);
        let (train_set, validation) = split(records.clone(), 0.3, 5);
        assert_eq!(train_set.len() + validation.len(), records.len());
        // A game's records are consecutive with rising plies in each part.
        for part in [&train_set, &validation] {
            for w in part.windows(2) {
                if w[1].ply > w[0].ply {
                    assert_eq!(w[1].ply, w[0].ply + 1, "a game was split");
                }
            }
        }
    }
}
