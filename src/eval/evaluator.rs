//! The evaluation boundary: which evaluation a search uses, and the
//! per-thread state that runs it.
//!
//! * [`Evaluation`] is the choice — the variant's classical evaluation or a
//!   network — made here and nowhere else: [`Evaluation::default_for`] (the
//!   embedded network of the variant, else classical) and
//!   [`Evaluation::choose`] (the engine's `Use NNUE` and `EvalFile`).
//!   [`Evaluation::load_net`] is the one function that reads a net file.
//! * [`Evaluator`] is one search thread's evaluator: classical, or a
//!   network together with the accumulators of the current search path, so
//!   the two can never disagree.
//!
//! Every score that leaves this module is clamped to ±[`EVAL_LIMIT`], well
//! below the mate range, so that no network (a crafted `EvalFile`
//! included) can produce a mate score.

use super::Evaluate;
use crate::board::Board;
use crate::nnue::accumulator::AccumulatorStack;
use crate::nnue::network::{HEADER_BYTES, MAX_FILE_BYTES, Network};
use crate::nnue::{self};
use crate::variant::VariantKind;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

/// The largest static evaluation in magnitude (centipawns). Mate scores
/// start above 31,000 (`search::score::MATE_BOUND`).
pub const EVAL_LIMIT: i32 = 25_000;

/// Which evaluation a search uses.
#[derive(Clone)]
pub enum Evaluation {
    /// The variant's hand-written evaluation ([`Evaluate::evaluate_classical`]).
    Classical,
    /// A network trained for the variant searched.
    Nnue(Arc<Network>),
}

impl std::fmt::Debug for Evaluation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl Evaluation {
    /// What the engine plays `variant` with by default: its embedded
    /// network, if it has one, else the classical evaluation.
    pub fn default_for(variant: VariantKind) -> Evaluation {
        nnue::default_net(variant).map_or(Evaluation::Classical, Evaluation::Nnue)
    }

    /// The evaluation for `variant` under the engine's options: with
    /// `use_nnue` off, classical; else the loaded net if it is one for
    /// `variant`, else the default.
    pub fn choose(variant: VariantKind, use_nnue: bool, loaded: Option<&Arc<Network>>) -> Evaluation {
        match loaded {
            _ if !use_nnue => Evaluation::Classical,
            Some(net) if net.variant() == variant => Evaluation::Nnue(Arc::clone(net)),
            _ => Evaluation::default_for(variant),
        }
    }

    /// Reads a net file. The header is read first and the size checked
    /// against the one it announces before anything else is read (a
    /// regular file must be exactly that size; anything else, such as a
    /// device or a pipe, is read no further than the largest net), so a
    /// wrong file costs neither time nor memory. The error names the file
    /// and says what is wrong.
    pub fn load_net(path: &Path) -> Result<Arc<Network>, String> {
        let shown = path.display();
        let file = std::fs::File::open(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
        let meta = file.metadata().map_err(|e| format!("cannot read {shown}: {e}"))?;
        if meta.is_dir() {
            return Err(format!("{shown} is a directory"));
        }
        let limit = MAX_FILE_BYTES as u64;
        let mut bytes = Vec::with_capacity(HEADER_BYTES);
        let mut reader = file.take(limit + 1);
        (&mut reader)
            .take(HEADER_BYTES as u64)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read {shown}: {e}"))?;
        let (hidden, _, size) = Network::read_header(&bytes).map_err(|e| format!("{shown}: {e}"))?;
        if meta.is_file() && meta.len() != size as u64 {
            return Err(format!("{shown}: {} bytes, a network of hidden width {hidden} has {size}", meta.len()));
        }
        reader.read_to_end(&mut bytes).map_err(|e| format!("cannot read {shown}: {e}"))?;
        Network::from_bytes(&bytes).map(Arc::new).map_err(|e| format!("{shown}: {e}"))
    }

    /// The network, if this is one.
    pub fn net(&self) -> Option<&Arc<Network>> {
        match self {
            Evaluation::Classical => None,
            Evaluation::Nnue(net) => Some(net),
        }
    }

    /// A short description: "classical" or the network's shape and variant.
    pub fn describe(&self) -> String {
        match self {
            Evaluation::Classical => "classical".to_string(),
            Evaluation::Nnue(net) => {
                let mut d = format!("{} network, {}x{}", net.variant(), net.inputs(), net.hidden());
                if net.buckets() > 1 {
                    d += &format!(", {} output buckets", net.buckets());
                }
                let king = net.king_map();
                if !king.is_none() {
                    let mirrored = king.0.iter().any(|&e| e & crate::nnue::features::MIRROR != 0);
                    d += &format!(", {} king buckets{}", king.buckets(), if mirrored { " (mirrored)" } else { "" });
                }
                d
            }
        }
    }

    /// The evaluation of `b` from scratch (side to move's view), clamped.
    pub fn evaluate<V: Evaluate>(&self, b: &Board) -> i32 {
        let raw = match self {
            Evaluation::Classical => V::evaluate_classical(b),
            Evaluation::Nnue(net) => net.evaluate(&net.refresh(b), b),
        };
        clamp(raw)
    }

    /// A search thread's evaluator for a path starting at `root`, `plies`
    /// deep at most.
    pub fn evaluator(&self, root: &Board, plies: usize) -> Evaluator {
        match self {
            Evaluation::Classical => Evaluator::Classical,
            Evaluation::Nnue(net) => {
                Evaluator::Nnue { accs: AccumulatorStack::new(net, root, plies), net: Arc::clone(net) }
            }
        }
    }
}

#[inline(always)]
fn clamp(raw: i32) -> i32 {
    raw.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// One search thread's evaluator: the evaluation and, for a network, the
/// accumulators of the positions on the current search path (ply 0 is the
/// root).
pub enum Evaluator {
    Classical,
    Nnue { net: Arc<Network>, accs: AccumulatorStack },
}

impl Evaluator {
    /// The position at `ply + 1` is `after`, reached from `before` at `ply`.
    #[inline]
    pub fn push(&mut self, ply: usize, before: &Board, after: &Board) {
        if let Evaluator::Nnue { accs, .. } = self {
            accs.push(ply, before, after);
        }
    }

    /// The position at `ply + 1` is the one at `ply` with the other side
    /// to move (a null move).
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        if let Evaluator::Nnue { accs, .. } = self {
            accs.push_null(ply);
        }
    }

    /// The static evaluation of `b`, the position at `ply` of the current
    /// path (side to move's view), clamped to ±[`EVAL_LIMIT`].
    #[inline]
    pub fn evaluate<V: Evaluate>(&mut self, b: &Board, ply: usize) -> i32 {
        let raw = match self {
            Evaluator::Classical => V::evaluate_classical(b),
            Evaluator::Nnue { net, accs } => {
                let acc = accs.get(net, ply);
                debug_assert!(*acc == net.refresh(b), "stale accumulator at ply {ply}");
                net.evaluate(acc, b)
            }
        };
        clamp(raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Atomic, Variant};

    #[test]
    fn the_choice_follows_the_options() {
        let atomic = Evaluation::default_for(VariantKind::Atomic);
        assert!(atomic.net().is_some(), "atomic has an embedded network");
        assert!(Evaluation::choose(VariantKind::Atomic, false, atomic.net()).net().is_none());
        // A loaded net applies only to its own variant.
        let chess = Evaluation::choose(VariantKind::Chess, true, atomic.net());
        assert_eq!(chess.net().map(|n| n.variant()), nnue::default_net(VariantKind::Chess).map(|n| n.variant()));
    }

    #[test]
    fn a_net_with_huge_outputs_is_clamped_below_mate() {
        let embedded = nnue::default_net(VariantKind::Atomic).unwrap();
        let (fw, fb, ow, ob) = embedded.parts();
        for bias in [i32::MAX / 2, -(i32::MAX / 2)] {
            let parts = (fw.to_vec(), fb.to_vec(), ow.to_vec());
            let net = Network::from_parts(
                VariantKind::Atomic,
                *embedded.king_map(),
                parts.0,
                parts.1,
                parts.2,
                vec![bias; ob.len()],
            );
            let net = Arc::new(net.unwrap());
            let b = Atomic::from_fen(Atomic::start_fen()).unwrap();
            let raw = net.evaluate(&net.refresh(&b), &b);
            assert!(raw.abs() > EVAL_LIMIT, "the test net is extreme: {raw}");
            let e = Evaluation::Nnue(Arc::clone(&net));
            assert_eq!(e.evaluate::<Atomic>(&b), EVAL_LIMIT * raw.signum());
            assert_eq!(e.evaluator(&b, 4).evaluate::<Atomic>(&b, 0), EVAL_LIMIT * raw.signum());
        }
    }

    #[test]
    fn net_files_are_size_checked_before_reading() {
        let err = Evaluation::load_net(Path::new("/dev/zero")).unwrap_err();
        assert!(err.contains("FSNN"), "{err}");
        let dir = std::env::temp_dir().join(format!("fission-evaluator-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.fnn");
        let mut image = nnue::default_net(VariantKind::Atomic).unwrap().to_bytes();
        image.resize(image.len() * 3, 0);
        std::fs::write(&big, &image).unwrap();
        assert!(Evaluation::load_net(&big).unwrap_err().contains("bytes"));
        let good = dir.join("good.fnn");
        std::fs::write(&good, nnue::default_net(VariantKind::Atomic).unwrap().to_bytes()).unwrap();
        assert_eq!(Evaluation::load_net(&good).unwrap().variant(), VariantKind::Atomic);
        assert!(Evaluation::load_net(&dir).unwrap_err().contains("directory"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
