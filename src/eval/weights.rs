//! Every evaluation weight, named, in one place.
//!
//! The terms shared by the chess-like evaluations are also gathered in one
//! table per variant, indexed by [`Term`] (what the tuner reads and
//! writes); `ATOMIC_TERMS` is the atomic evaluation's own, tuned table.

use super::terms::{TERMS, Table, Term};

/// Piece values for chess, (middlegame, endgame), indexed by `Role`.
pub const CHESS_VALUES: [(i32, i32); 6] = [(82, 94), (337, 281), (365, 297), (477, 512), (1025, 936), (0, 0)];
/// Piece values for atomic: pieces are worth less relative to pawns, and
/// knights least (they cannot defend against explosions at a distance).
pub const ATOMIC_VALUES: [(i32, i32); 6] = [(100, 120), (220, 220), (300, 300), (450, 500), (850, 900), (0, 0)];
/// Game phase weight of each role (total 24 at the start).
pub const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_TOTAL: i32 = 24;

/// Mobility per reachable square not attacked by enemy pawns: knight, bishop, rook, queen.
pub const MOBILITY: [(i32, i32); 4] = [(4, 4), (5, 5), (2, 4), (1, 2)];
pub const BISHOP_PAIR: (i32, i32) = (30, 50);
pub const DOUBLED_PAWN: (i32, i32) = (-10, -20);
pub const ISOLATED_PAWN: (i32, i32) = (-12, -15);
/// Passed pawn bonus by relative rank (0 = first rank).
pub const PASSED_PAWN: [(i32, i32); 8] = [(0, 0), (5, 10), (10, 15), (15, 25), (25, 45), (40, 75), (60, 110), (0, 0)];
pub const ROOK_OPEN_FILE: (i32, i32) = (20, 10);
pub const TEMPO: i32 = 10;

/// Chess king safety: each enemy attack on a square next to our king.
pub const KING_ZONE_ATTACK: i32 = -6;
/// Chess king shelter: each own pawn in front of the castled king.
pub const KING_SHELTER_PAWN: i32 = 10;

/// Atomic blast danger against a king: `d = ZONE * attacked / (flights + 1) +
/// EXPLOSION * targets`, counted `d * (100 + d) / 100` times the weight of
/// `Term::AtomicDanger`, where
/// `attacked` counts the king's square and its neighbours we attack,
/// `flights` those of them it could step to that we do not attack, and
/// `targets` the enemy pieces next to it we may take (each capture explodes
/// the king).
pub const ATOMIC_DANGER_ZONE: i32 = 20;
pub const ATOMIC_DANGER_EXPLOSION: i32 = 40;
/// Atomic: the evaluation never goes beyond this (mate scores stay apart).
pub const ATOMIC_EVAL_LIMIT: i32 = 10_000;

/// Push: each enemy attack (orthodox or push) on a square next to our king.
pub const PUSH_ZONE_ATTACK: i32 = -6;

/// Dynamo piece values (material only leaves the board by exits).
pub const DYNAMO_VALUES: [(i32, i32); 6] = [(100, 120), (300, 300), (320, 320), (450, 500), (900, 950), (0, 0)];
/// Dynamo: a king on an edge square (one push from leaving).
pub const DYNAMO_KING_ON_EDGE: i32 = -80;
/// Dynamo: a king on the second ring.
pub const DYNAMO_KING_NEAR_EDGE: i32 = -25;
/// Dynamo: each enemy slider seeing our king along its own lines.
pub const DYNAMO_SLIDER_ON_KING: i32 = -40;
/// Dynamo: each enemy piece next to our king.
pub const DYNAMO_ENEMY_ADJACENT: i32 = -20;

/// The shared terms' table of a chess-like evaluation with `values`.
const fn chess_like(values: [(i32, i32); 6]) -> Table {
    let mut t = [(0, 0); TERMS];
    let mut r = 0;
    while r < 5 {
        t[Term::MATERIAL[r].index()] = values[r];
        r += 1;
    }
    let mut i = 0;
    while i < 4 {
        t[Term::MOBILITY[i].index()] = MOBILITY[i];
        i += 1;
    }
    t[Term::BishopPair.index()] = BISHOP_PAIR;
    t[Term::DoubledPawn.index()] = DOUBLED_PAWN;
    t[Term::IsolatedPawn.index()] = ISOLATED_PAWN;
    let mut k = 0;
    while k < 6 {
        t[Term::PASSED[k].index()] = PASSED_PAWN[k + 1];
        k += 1;
    }
    t[Term::RookOpenFile.index()] = ROOK_OPEN_FILE;
    t[Term::Tempo.index()] = (TEMPO, TEMPO);
    t
}

pub const CHESS_TERMS: Table = chess_like(CHESS_VALUES);
pub const DYNAMO_TERMS: Table = chess_like(DYNAMO_VALUES);

/// The atomic evaluation's weights, fitted to game results by
/// `examples/tune.rs` (Texel method) on 127,062 quiet positions from 3,377
/// self-play games at 4,000 nodes per move (`examples/texel_data.rs
/// --games 20000 --nodes 4000 --threads 2 --seed 7`, stopped early), 600
/// epochs, K = 1.1749: validation loss 0.113660 -> 0.107253. Doubled pawns
/// never occur in atomic (a capturing pawn explodes), so their weight keeps
/// its chess value; connected kings and the king threat of the side to move
/// are absent from quiet positions and keep their hand-set values.
pub const ATOMIC_TERMS: Table = [
    (104, 233),  // Pawn
    (217, 306),  // Knight
    (244, 308),  // Bishop
    (301, 482),  // Rook
    (812, 1101), // Queen
    (22, 17),    // MobilityKnight
    (13, 8),     // MobilityBishop
    (22, 10),    // MobilityRook
    (19, -17),   // MobilityQueen
    (27, 174),   // BishopPair
    (-10, -20),  // DoubledPawn
    (25, -6),    // IsolatedPawn
    (192, -110), // Passed2
    (2, -33),    // Passed3
    (6, 7),      // Passed4
    (47, 38),    // Passed5
    (-41, 93),   // Passed6
    (174, 93),   // Passed7
    (360, -52),  // RookOpenFile
    (52, 15),    // Tempo
    (7, -49),    // AtomicAdjacentPiece
    (-88, -19),  // AtomicAdjacentPawn
    (-114, 0),   // AtomicZoneAttack
    (-90, -90),  // AtomicKingThreat
    (15, 15),    // AtomicKingsTouch
    (5, -6),     // AtomicDanger
    (17, 12),    // AtomicAdvance
];
