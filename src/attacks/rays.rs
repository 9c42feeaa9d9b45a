//! Between and line rays, computed at compile time, plus the slow ray walk
//! that tests compare the magic tables against.

use crate::types::{Bitboard, Square};

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
            let ray = walk(sa, STEPS[d], 0);
            let back = walk(sa, (-STEPS[d].0, -STEPS[d].1), 0);
            let mut rest = ray;
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let sb = Square::new(b as u8);
                // Squares strictly between a and b along this direction.
                between[a][b] = Bitboard(walk(sa, STEPS[d], 1 << b) & !(1 << b));
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
    Bitboard(
        Direction::ALL.iter().filter(|d| d.is_orthogonal() == rook).fold(0, |bb, d| bb | walk(sq, d.step(), occ.0)),
    )
}

/// One of the eight line directions from a square. The first four (east,
/// north-west, north, north-east) increase the square index; each direction's
/// opposite is its index with bit 2 flipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Direction(u8);

/// (file, rank) step of each direction, in `Direction` index order.
/// Opposite directions are four apart.
const STEPS: [(i8, i8); 8] = {
    use super::directions::{DIAGONAL as D, ORTHOGONAL as O};
    [O[0], D[2], O[2], D[0], O[1], D[1], O[3], D[3]]
};

impl Direction {
    /// The (file, rank) unit step.
    #[inline(always)]
    pub const fn step(self) -> (i8, i8) {
        STEPS[self.0 as usize]
    }
    /// The change of square index per step.
    #[inline(always)]
    pub const fn delta(self) -> i8 {
        let (f, r) = self.step();
        8 * r + f
    }
    /// Along a rank or file (else along a diagonal).
    #[inline(always)]
    pub const fn is_orthogonal(self) -> bool {
        self.step().0 == 0 || self.step().1 == 0
    }
    #[inline(always)]
    pub const fn opposite(self) -> Direction {
        Direction(self.0 ^ 4)
    }
    #[inline(always)]
    const fn increasing(self) -> bool {
        self.0 < 4
    }
    /// All eight directions.
    pub const ALL: [Direction; 8] = [
        Direction(0),
        Direction(1),
        Direction(2),
        Direction(3),
        Direction(4),
        Direction(5),
        Direction(6),
        Direction(7),
    ];
    /// The squares a step in this direction can reach without leaving the
    /// board sideways (all but the file it comes from).
    #[inline(always)]
    const fn entry_mask(self) -> u64 {
        match self.step().0 {
            1 => !0x0101_0101_0101_0101,
            -1 => !0x8080_8080_8080_8080,
            _ => !0,
        }
    }
    /// Shifts raw bits by `n` steps' worth of index, without masking.
    #[inline(always)]
    const fn raw_shift(self, bits: u64, n: i8) -> u64 {
        let by = self.delta() * n;
        if by > 0 { bits << by } else { bits >> -by }
    }
    /// Every square of `bb` moved one step this way (those leaving the board dropped).
    #[inline(always)]
    pub const fn shift(self, bb: Bitboard) -> Bitboard {
        Bitboard(self.raw_shift(bb.0, 1) & self.entry_mask())
    }
    /// `from` and every square reached from it by repeated steps this way
    /// through squares of `through` (Kogge-Stone occluded fill).
    #[inline(always)]
    pub const fn fill(self, from: Bitboard, through: Bitboard) -> Bitboard {
        let mut reached = from.0;
        let mut pro = through.0 & self.entry_mask();
        reached |= pro & self.raw_shift(reached, 1);
        pro &= self.raw_shift(pro, 1);
        reached |= pro & self.raw_shift(reached, 2);
        pro &= self.raw_shift(pro, 2);
        reached |= pro & self.raw_shift(reached, 4);
        Bitboard(reached)
    }
}

/// Direction from `a` to `b` for every ordered pair (8 = not aligned), and the
/// open ray from every square in every direction.
const fn direction_tables() -> ([[u8; 64]; 64], [[Bitboard; 64]; 8]) {
    let mut dirs = [[8u8; 64]; 64];
    let mut rays = [[Bitboard::EMPTY; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut a = 0;
        while a < 64 {
            let ray = walk(Square::new(a as u8), STEPS[d], 0);
            rays[d][a] = Bitboard(ray);
            let mut rest = ray;
            while rest != 0 {
                dirs[a][rest.trailing_zeros() as usize] = d as u8;
                rest &= rest - 1;
            }
            a += 1;
        }
        d += 1;
    }
    (dirs, rays)
}

static DIRECTIONS: ([[u8; 64]; 64], [[Bitboard; 64]; 8]) = direction_tables();

/// The direction from `a` to `b` if they share a rank, file or diagonal.
#[inline(always)]
pub fn direction(a: Square, b: Square) -> Option<Direction> {
    let d = DIRECTIONS.0[a.index()][b.index()];
    if d < 8 { Some(Direction(d)) } else { None }
}

/// The squares from `sq` (excluded) to the edge in direction `d`.
#[inline(always)]
pub fn ray(sq: Square, d: Direction) -> Bitboard {
    DIRECTIONS.1[d.0 as usize][sq.index()]
}

/// The square of `bb` nearest to the origin of a ray in direction `d` (all of
/// `bb` lying on that ray), as a one-square set; empty if `bb` is.
#[inline(always)]
pub fn nearest(bb: Bitboard, d: Direction) -> Bitboard {
    if d.increasing() {
        Bitboard(bb.0 & bb.0.wrapping_neg())
    } else if bb.0 == 0 {
        Bitboard::EMPTY
    } else {
        Bitboard(1 << (63 - bb.0.leading_zeros()))
    }
}

/// The squares of the ray `ray` (from some origin in direction `d`) that come
/// before the first square of `stops`: the whole ray if `stops` holds none.
#[inline(always)]
pub fn before_first(ray: Bitboard, stops: Bitboard, d: Direction) -> Bitboard {
    let stops = stops & ray;
    if d.increasing() {
        Bitboard(ray.0 & (stops.0 & stops.0.wrapping_neg()).wrapping_sub(1))
    } else if stops.0 == 0 {
        ray
    } else {
        let top = 63 - stops.0.leading_zeros();
        Bitboard(ray.0 & !(2u64 << top).wrapping_sub(1))
    }
}

/// Rook and bishop attacks on an empty board, in small tables of their own
/// (the magic table's empty-board entries are scattered over a large table).
const fn pseudo_tables() -> ([Bitboard; 64], [Bitboard; 64]) {
    let mut rook = [Bitboard::EMPTY; 64];
    let mut bishop = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let s = Square::new(sq as u8);
        let mut d = 0;
        while d < 8 {
            let ray = walk(s, STEPS[d], 0);
            if Direction(d as u8).is_orthogonal() {
                rook[sq].0 |= ray;
            } else {
                bishop[sq].0 |= ray;
            }
            d += 1;
        }
        sq += 1;
    }
    (rook, bishop)
}

static PSEUDO: ([Bitboard; 64], [Bitboard; 64]) = pseudo_tables();

/// Rook moves from `sq` on an empty board.
#[inline(always)]
pub fn rook_pseudo_attacks(sq: Square) -> Bitboard {
    PSEUDO.0[sq.index()]
}

/// Bishop moves from `sq` on an empty board.
#[inline(always)]
pub fn bishop_pseudo_attacks(sq: Square) -> Bitboard {
    PSEUDO.1[sq.index()]
}
