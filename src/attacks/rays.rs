//! Between and line rays, computed at compile time, plus the slow ray walk
//! that tests compare the magic tables against.

use crate::types::{Bitboard, Square};

const DIRS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Walks from `sq` in direction `d` over an empty board, stopping after a blocker in `occ`.
const fn walk(sq: Square, d: (i8, i8), occ: u64) -> u64 {
    let mut bb = 0u64;
    let mut cur = sq;
    while let Some(next) = cur.step(d.0, d.1) {
        bb |= 1 << next.index();
        if occ & (1 << next.index()) != 0 {
            break;
        }
        cur = next;
    }
    bb
}

/// (between, line) for every ordered pair of squares.
const fn ray_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let sa = Square::new(a as u8);
        let mut d = 0;
        while d < 8 {
            let ray = walk(sa, DIRS[d], 0);
            let back = walk(sa, (-DIRS[d].0, -DIRS[d].1), 0);
            let mut rest = ray;
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let sb = Square::new(b as u8);
                // Squares strictly between a and b along this direction.
                between[a][b] = Bitboard(walk(sa, DIRS[d], 1 << b) & !(1 << b));
                let _ = sb;
                line[a][b] = Bitboard(ray | back | (1 << a));
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static RAYS: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = ray_tables();

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal; else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    RAYS.0[a.index()][b.index()]
}

/// The whole line (edge to edge) through `a` and `b` if they are aligned; else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    RAYS.1[a.index()][b.index()]
}

/// True if `c` lies on the line through `a` and `b`.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// Slider attacks by slow ray walking, for tests. `rook` selects orthogonal
/// directions, else diagonal.
pub fn ray_attacks_slow(rook: bool, sq: Square, occ: Bitboard) -> Bitboard {
    let dirs = if rook { &DIRS[0..4] } else { &DIRS[4..8] };
    let mut bb = 0;
    for &d in dirs {
        bb |= walk(sq, d, occ.0);
    }
    Bitboard(bb)
}
