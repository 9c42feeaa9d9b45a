//! NNUE: a small neural network evaluation, efficiently updatable.
//!
//! * [`features`]: the input features (piece, square, point of view);
//! * [`accumulator`]: the first layer's output, updated move by move, and
//!   the search's lazy stack of them;
//! * [`network`]: the quantised network, its output and its file format;
//! * [`simd`]: the AVX2 and scalar kernels;
//! * [`data`]: the training-record format written by `fission datagen`
//!   and read by the trainer (`trainer/` in the workspace).
//!
//! The search does not use these directly: [`crate::eval::Evaluator`] is
//! the one place that chooses a network, loads one and keeps accumulators.
pub mod accumulator;
pub mod data;
pub mod features;
pub mod network;
pub mod simd;

use crate::variant::VariantKind;
use network::Network;
use std::sync::{Arc, OnceLock};

/// The `EvalFile` value that means the embedded networks.
pub const DEFAULT_EVAL_FILE: &str = "<default>";

/// The networks embedded in the binary, by variant (see the README, "NNUE",
/// for how each was made). A variant without one is evaluated classically.
const EMBEDDED: &[(VariantKind, &str, &[u8])] = &[
    (VariantKind::Atomic, "atomic.fnn", include_bytes!("../../nets/atomic.fnn")),
    (VariantKind::Chess, "chess.fnn", include_bytes!("../../nets/chess.fnn")),
    (VariantKind::Push, "push.fnn", include_bytes!("../../nets/push.fnn")),
    (VariantKind::Dynamo, "dynamo.fnn", include_bytes!("../../nets/dynamo.fnn")),
];

/// The file name (in `nets/`) of the network embedded for `variant`.
pub fn embedded_file(variant: VariantKind) -> Option<&'static str> {
    EMBEDDED.iter().find(|(v, _, _)| *v == variant).map(|&(_, name, _)| name)
}

/// The network embedded for `variant`, if it has one.
pub fn default_net(variant: VariantKind) -> Option<Arc<Network>> {
    static NETS: OnceLock<Vec<(VariantKind, Arc<Network>)>> = OnceLock::new();
    NETS.get_or_init(|| {
        EMBEDDED
            .iter()
            .filter_map(|&(v, _, bytes)| {
                let net = Network::from_bytes(bytes);
                debug_assert!(net.is_ok(), "the embedded {v} network is valid");
                net.ok().filter(|n| n.variant() == v).map(|n| (v, Arc::new(n)))
            })
            .collect()
    })
    .iter()
    .find(|(v, _)| *v == variant)
    .map(|(_, n)| Arc::clone(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every embedded file is a valid network for the variant it is filed
    /// under (a mislabelled file would otherwise be dropped without a word),
    /// and each variant has at most one.
    #[test]
    fn every_embedded_net_loads_for_its_own_variant() {
        for &(v, name, bytes) in EMBEDDED {
            let net = Network::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(net.variant(), v, "{name}");
            assert_eq!(net.to_bytes(), bytes, "{name} round-trips");
            assert_eq!(embedded_file(v), Some(name));
            assert!(default_net(v).is_some_and(|d| d.to_bytes() == bytes));
            assert_eq!(EMBEDDED.iter().filter(|e| e.0 == v).count(), 1, "{v}");
        }
        for v in [VariantKind::Atomic, VariantKind::Chess, VariantKind::Push, VariantKind::Dynamo] {
            assert!(default_net(v).is_some(), "{v} has a network");
        }
    }
}
