//! Every evaluation weight, named, in one place.

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

/// Atomic: each own non-pawn piece next to our own king (a capture there
/// blows up the king as well).
pub const ATOMIC_ADJACENT_PIECE: i32 = -25;
/// Atomic: each own pawn next to our king (also a capture target).
pub const ATOMIC_ADJACENT_PAWN: i32 = -8;
/// Atomic: each enemy attack on a square next to our king.
pub const ATOMIC_ZONE_ATTACK: i32 = -10;
/// Atomic: an own piece next to our king that the enemy attacks — a capture
/// there blows up our king. Counted for the side to move (it must parry).
pub const ATOMIC_KING_THREAT: i32 = -90;
/// Atomic: kings touching (neither can be checked: a drawish defence that
/// favours the side with less material).
pub const ATOMIC_KINGS_TOUCH: i32 = 15;

/// Atomic blast danger against a king: `d = ZONE * attacked / (flights + 1)
/// + EXPLOSION * targets`, scored `d * (100 + d) / SCALE` (middlegame), where
/// `attacked` counts the king's square and its neighbours we attack,
/// `flights` those of them it could step to that we do not attack, and
/// `targets` the enemy pieces next to it we may take (each capture explodes
/// the king).
pub const ATOMIC_DANGER_ZONE: i32 = 20;
pub const ATOMIC_DANGER_EXPLOSION: i32 = 40;
pub const ATOMIC_DANGER_SCALE: i32 = 6;
/// Atomic: middlegame bonus per rank a piece (not pawn or king) stands
/// beyond the fourth (negative behind it).
pub const ATOMIC_ADVANCE: i32 = 8;
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
