//! Small geometry helpers for Dynamo: vectors, direction normalisation, and
//! walks to the edge (rules §1, §5).

use crate::attacks::Direction;
use crate::board::Board;
use crate::types::{Bitboard, Color, Square};

pub type Vector = (i8, i8);

pub const KNIGHT: [Vector; 8] = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)];
pub const ORTH: [Vector; 4] = crate::attacks::directions::ORTHOGONAL;
pub const DIAG: [Vector; 4] = crate::attacks::directions::DIAGONAL;
pub const ALL8: [Vector; 8] = [ORTH[0], ORTH[1], ORTH[2], ORTH[3], DIAG[0], DIAG[1], DIAG[2], DIAG[3]];

/// The index in [`ALL8`] of each unit vector `(f, r)`, at
/// `(f + 1) * 3 + r + 1` (the null vector's entry is unused): see
/// [`all8_index`].
const ALL8_INDEX: [u8; 9] = {
    let mut out = [u8::MAX; 9];
    let mut i = 0;
    while i < 8 {
        out[((ALL8[i].0 + 1) * 3 + ALL8[i].1 + 1) as usize] = i as u8;
        i += 1;
    }
    out
};

/// The index in [`ALL8`] of the unit vector `u` (not the null vector).
#[inline(always)]
pub fn all8_index(u: Vector) -> usize {
    ALL8_INDEX[((u.0 + 1) * 3 + u.1 + 1) as usize] as usize
}

/// The [`Direction`] of each vector of [`ALL8`], in that order (for ray
/// lookups).
pub const ALL8_DIRECTIONS: [Direction; 8] = {
    let mut out = [Direction::ALL[0]; 8];
    let mut i = 0;
    while i < 8 {
        let mut j = 0;
        while j < 8 {
            let step = Direction::ALL[j].step();
            if step.0 == ALL8[i].0 && step.1 == ALL8[i].1 {
                out[i] = Direction::ALL[j];
            }
            j += 1;
        }
        i += 1;
    }
    out
};

pub fn file(s: Square) -> i8 {
    s.file().index() as i8
}

pub fn rank(s: Square) -> i8 {
    s.rank().index() as i8
}

/// `b - a` as a vector.
pub fn diff(b: Square, a: Square) -> Vector {
    (file(b) - file(a), rank(b) - rank(a))
}

pub fn neg(v: Vector) -> Vector {
    (-v.0, -v.1)
}

pub fn forward(c: Color) -> i8 {
    c.fold(1, -1)
}

pub fn first_rank(c: Color) -> i8 {
    c.fold(0, 7)
}

pub fn last_rank(c: Color) -> i8 {
    c.fold(7, 0)
}

pub fn start_rank(c: Color) -> i8 {
    c.fold(1, 6)
}

#[cfg(test)]
pub fn is_edge(s: Square) -> bool {
    let (f, r) = (file(s), rank(s));
    f == 0 || f == 7 || r == 0 || r == 7
}

/// `norm(v)` of rules §1. Vectors whose normal form is not integral are
/// `None`: they are only ever compared with the direction of a real move,
/// which is always integral, so they never match (rules §16). Differences
/// of two squares (every call) are looked up; the divisions cost more than
/// the rest of move generation.
#[inline]
pub fn norm(v: Vector) -> Option<Vector> {
    let (i, j) = (v.0 + 7, v.1 + 7);
    if (0..15).contains(&i) && (0..15).contains(&j) { NORMS[i as usize][j as usize] } else { norm_computed(v) }
}

const fn norm_computed((a, b): Vector) -> Option<Vector> {
    let (x, y) = (a.abs(), b.abs());
    if x == 0 && y == 0 {
        return None;
    }
    let div = if x != 0 && y != 0 && x != y {
        if x < y { x } else { y }
    } else if x > y {
        x
    } else {
        y
    };
    if a % div == 0 && b % div == 0 { Some((a / div, b / div)) } else { None }
}

/// `norm` of every vector with both coordinates in -7..=7.
static NORMS: [[Option<Vector>; 15]; 15] = {
    let mut t = [[None; 15]; 15];
    let mut i = 0;
    while i < 15 {
        let mut j = 0;
        while j < 15 {
            t[i][j] = norm_computed((i as i8 - 7, j as i8 - 7));
            j += 1;
        }
        i += 1;
    }
    t
};

/// "Clear to the edge from `s` along `u`": the walk leaves the board before
/// meeting a piece.
pub fn clear_to_edge(b: &Board, s: Square, u: Vector) -> bool {
    let occ = b.occupied();
    // A line (every caller but a knight's): one ray lookup.
    if u != (0, 0) && u.0.abs() <= 1 && u.1.abs() <= 1 {
        return (crate::attacks::ray(s, ALL8_DIRECTIONS[all8_index(u)]) & occ).is_empty();
    }
    walk_clear(occ, s, u)
}

/// [`clear_to_edge`] square by square, for any step.
fn walk_clear(occ: Bitboard, s: Square, u: Vector) -> bool {
    let mut t = s.step(u.0, u.1);
    while let Some(sq) = t {
        if occ.contains(sq) {
            return false;
        }
        t = sq.step(u.0, u.1);
    }
    true
}

/// Every square strictly between `s` and `target` (stepping by `d`) is empty.
pub fn between_empty(b: &Board, s: Square, target: Square, d: Vector) -> bool {
    let occ = b.occupied();
    let mut t = s.step(d.0, d.1);
    while let Some(sq) = t {
        if sq == target {
            return true;
        }
        if occ.contains(sq) {
            return false;
        }
        t = sq.step(d.0, d.1);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_norm_table_is_the_rule() {
        for a in -9i8..=9 {
            for b in -9i8..=9 {
                assert_eq!(norm((a, b)), norm_computed((a, b)), "({a}, {b})");
            }
        }
        assert_eq!(norm((4, 2)), Some((2, 1)));
        assert_eq!(norm((3, 2)), None);
        assert_eq!(norm((0, -5)), Some((0, -1)));
        assert_eq!(norm((0, 0)), None);
    }

    /// The ray lookup for lines gives the walk's answer, from every square
    /// along every line and knight vector, on boards of random occupancy.
    #[test]
    fn clear_to_edge_is_the_walk() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..200 {
            let mut b = Board::empty();
            for sq in Square::all() {
                if rng.u8(0..4) == 0 {
                    b.put(sq, crate::types::Piece::new(crate::types::Color::White, crate::types::Role::Knight));
                }
            }
            for s in Square::all() {
                for u in ALL8.into_iter().chain(KNIGHT) {
                    assert_eq!(clear_to_edge(&b, s, u), walk_clear(b.occupied(), s, u), "{s} {u:?}");
                }
            }
        }
        for (i, u) in ALL8.into_iter().enumerate() {
            assert_eq!(all8_index(u), i);
        }
    }
}
