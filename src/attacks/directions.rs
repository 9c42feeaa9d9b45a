// The eight (file, rank) unit steps of the sliding pieces, defined once.
// This file is a module of the crate (`attacks::directions`) and is also
// `include!`d by `build.rs`, which finds the magic numbers: keep it free of
// `use` items and of anything the build script could not compile.

/// Rook directions: right, left, up, down.
pub const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// Bishop directions: up-right, down-right, up-left, down-left.
pub const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
