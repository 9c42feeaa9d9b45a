//! Pins in push: the pieces whose moves need the line test.

use super::*;

/// Our pieces (not the king) whose leaving their square would expose the
/// king, out of check. A new attack along a line, orthodox or by a push of
/// an enemy run, always ends in an enemy slider beyond the vacated square (a
/// pawn inside an enemy run next to the king does not depend on our pieces,
/// and out of check there is none), and everything between the king and
/// that slider is then enemy pieces next to the king followed by empty
/// squares. So only a piece that is our only one between the king and an
/// enemy slider on its line is a candidate, tested with only its square
/// emptied. For any other piece every move is safe: besides its origin, a
/// move only puts our pieces on squares (possibly in place of enemy ones),
/// which never creates an attack.
pub(super) fn pinned(b: &Board, ksq: Square) -> Bitboard {
    let mut pinned = Bitboard::EMPTY;
    for s in movegen::snipers(b, ksq) {
        let ours = attacks::between(ksq, s) & b.us();
        if ours.any() && !ours.more_than_one() && !line_stays_safe(b, ours.lsb(), Bitboard::EMPTY, ksq) {
            pinned |= ours;
        }
    }
    pinned
}
