//! Zobrist keys, generated at compile time from a fixed seed.

use crate::types::{Bitboard, Piece, Square, splitmix64};

/// Key counts: 12 pieces x 64 squares, 64 castling-rook squares, 8 en-passant
/// files, 1 side key (also the salt of the extra-state key).
const PIECE_KEYS: usize = 12 * 64;
const CASTLE_KEYS: usize = 64;
const EP_KEYS: usize = 8;
const TOTAL: usize = PIECE_KEYS + CASTLE_KEYS + EP_KEYS + 1;

const fn make_keys() -> [u64; TOTAL] {
    let mut keys = [0u64; TOTAL];
    let mut state = 0x0F15_5104_F155_1014u64;
    let mut i = 0;
    while i < TOTAL {
        let (s, k) = splitmix64(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
}

static KEYS: [u64; TOTAL] = make_keys();

#[inline(always)]
pub fn piece_key(p: Piece, sq: Square) -> u64 {
    KEYS[p.index() * 64 + sq.index()]
}

/// Key of the castling right attached to the rook on `sq`.
#[inline(always)]
pub fn castle_key(sq: Square) -> u64 {
    KEYS[PIECE_KEYS + sq.index()]
}

/// Combined key of a set of castling rights.
#[inline]
pub fn castling_key(rights: Bitboard) -> u64 {
    rights.into_iter().fold(0, |k, sq| k ^ castle_key(sq))
}

#[inline(always)]
pub fn ep_key(sq: Square) -> u64 {
    KEYS[PIECE_KEYS + CASTLE_KEYS + sq.file().index()]
}

#[inline(always)]
pub fn side_key() -> u64 {
    KEYS[PIECE_KEYS + CASTLE_KEYS + EP_KEYS]
}

/// Key of a variant's extra state (0 for none): a bijective mix, so that
/// different states give unrelated keys.
#[inline(always)]
pub fn extra_key(state: u64) -> u64 {
    if state == 0 {
        return 0;
    }
    let mut z = state ^ KEYS[PIECE_KEYS + CASTLE_KEYS + EP_KEYS];
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
