//! SplitMix64: the small deterministic generator behind the Zobrist keys
//! (at compile time) and the match runner's random openings.

/// One SplitMix64 step: the next state and the output.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// A SplitMix64 stream from a seed.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    pub const fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        let (s, out) = splitmix64(self.0);
        self.0 = s;
        out
    }
}
