//! Small geometry helpers for Dynamo: vectors, direction normalisation, and
//! walks to the edge (rules §1, §5).

use crate::board::Board;
use crate::types::{Color, Square};

pub type Vector = (i8, i8);

pub const KNIGHT: [Vector; 8] = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)];
pub const ORTH: [Vector; 4] = crate::attacks::directions::ORTHOGONAL;
pub const DIAG: [Vector; 4] = crate::attacks::directions::DIAGONAL;
pub const ALL8: [Vector; 8] = [ORTH[0], ORTH[1], ORTH[2], ORTH[3], DIAG[0], DIAG[1], DIAG[2], DIAG[3]];

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

pub fn is_edge(s: Square) -> bool {
    let (f, r) = (file(s), rank(s));
    f == 0 || f == 7 || r == 0 || r == 7
}

/// `norm(v)` of rules §1. Vectors whose normal form is not integral are
/// `None`: they are only ever compared with the direction of a real move,
/// which is always integral, so they never match (rules §16).
pub fn norm((a, b): Vector) -> Option<Vector> {
    let (x, y) = (a.abs(), b.abs());
    if x == 0 && y == 0 {
        return None;
    }
    let div = if x != 0 && y != 0 && x != y { x.min(y) } else { x.max(y) };
    (a % div == 0 && b % div == 0).then(|| (a / div, b / div))
}

/// "Clear to the edge from `s` along `u`": the walk leaves the board before
/// meeting a piece.
pub fn clear_to_edge(b: &Board, s: Square, u: Vector) -> bool {
    let occ = b.occupied();
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
