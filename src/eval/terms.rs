//! The evaluation as a sum of weighted terms, so that one piece of code
//! serves both the engine (which adds up weights) and the tuner (which
//! records how often each weight was used: a *trace*, from which the
//! evaluation of any set of weights follows without re-reading the board).
//!
//! Every weight is a (middlegame, endgame) pair in a table indexed by
//! [`Term`]; each variant has its own table (`weights::CHESS_TERMS`,
//! `weights::ATOMIC_TERMS`, ...). What is not tuned (the piece-square
//! formulas) goes in as a fixed amount.

use super::common::Tapered;

/// The tunable terms of the chess-like evaluations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Term {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    /// Mobility per reachable square not attacked by enemy pawns.
    MobilityKnight,
    MobilityBishop,
    MobilityRook,
    MobilityQueen,
    BishopPair,
    DoubledPawn,
    IsolatedPawn,
    /// Passed pawns on the second to seventh relative rank.
    Passed2,
    Passed3,
    Passed4,
    Passed5,
    Passed6,
    Passed7,
    RookOpenFile,
    Tempo,
    /// Atomic: own non-pawn piece next to one's own king.
    AtomicAdjacentPiece,
    /// Atomic: own pawn next to one's own king.
    AtomicAdjacentPawn,
    /// Atomic: enemy attack on a square next to one's own king.
    AtomicZoneAttack,
    /// Atomic: the side to move's king can be blown up next move.
    AtomicKingThreat,
    /// Atomic: the kings touch.
    AtomicKingsTouch,
    /// Atomic: blast danger against the enemy king, `d * (100 + d) / 100`.
    AtomicDanger,
    /// Atomic: ranks a piece (not pawn or king) stands beyond the fourth.
    AtomicAdvance,
}

/// Number of terms.
pub const TERMS: usize = Term::AtomicAdvance as usize + 1;

impl Term {
    /// Every term, in index order.
    pub const ALL: [Term; TERMS] = [
        Term::Pawn,
        Term::Knight,
        Term::Bishop,
        Term::Rook,
        Term::Queen,
        Term::MobilityKnight,
        Term::MobilityBishop,
        Term::MobilityRook,
        Term::MobilityQueen,
        Term::BishopPair,
        Term::DoubledPawn,
        Term::IsolatedPawn,
        Term::Passed2,
        Term::Passed3,
        Term::Passed4,
        Term::Passed5,
        Term::Passed6,
        Term::Passed7,
        Term::RookOpenFile,
        Term::Tempo,
        Term::AtomicAdjacentPiece,
        Term::AtomicAdjacentPawn,
        Term::AtomicZoneAttack,
        Term::AtomicKingThreat,
        Term::AtomicKingsTouch,
        Term::AtomicDanger,
        Term::AtomicAdvance,
    ];
    /// Material terms by role index (no term for the king).
    pub const MATERIAL: [Term; 5] = [Term::Pawn, Term::Knight, Term::Bishop, Term::Rook, Term::Queen];
    pub const MOBILITY: [Term; 4] =
        [Term::MobilityKnight, Term::MobilityBishop, Term::MobilityRook, Term::MobilityQueen];
    /// Passed-pawn terms by relative rank 1 to 6 (index 0 = second rank).
    pub const PASSED: [Term; 6] =
        [Term::Passed2, Term::Passed3, Term::Passed4, Term::Passed5, Term::Passed6, Term::Passed7];

    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A weight table: one (middlegame, endgame) pair per term.
pub type Table = [(i32, i32); TERMS];

/// Where evaluation terms go. `n` is signed: positive for the side whose
/// view the evaluation takes, negative for the other.
pub trait Terms {
    fn add(&mut self, t: Term, n: i32);
    /// A fixed (untuned) amount.
    fn fixed(&mut self, v: (i32, i32));
}

/// Adds up the weights of a table: what the engine evaluates with.
pub struct Weighted<'a> {
    table: &'a Table,
    pub sum: Tapered,
}

impl<'a> Weighted<'a> {
    pub fn new(table: &'a Table) -> Self {
        Weighted { table, sum: Tapered::default() }
    }
}

impl Terms for Weighted<'_> {
    #[inline(always)]
    fn add(&mut self, t: Term, n: i32) {
        let (m, e) = self.table[t.index()];
        self.sum += (m * n, e * n);
    }
    #[inline(always)]
    fn fixed(&mut self, v: (i32, i32)) {
        self.sum += v;
    }
}

/// The sum of the terms `f` emits, weighted by `table`.
pub fn weighed(table: &Table, f: impl FnOnce(&mut Weighted)) -> Tapered {
    let mut w = Weighted::new(table);
    f(&mut w);
    w.sum
}

/// Records how often each term was used: what the tuner reads.
#[derive(Clone, Debug)]
pub struct Trace {
    pub counts: [i32; TERMS],
    pub fixed: Tapered,
}

impl Default for Trace {
    fn default() -> Self {
        Trace { counts: [0; TERMS], fixed: Tapered::default() }
    }
}

impl Terms for Trace {
    fn add(&mut self, t: Term, n: i32) {
        self.counts[t.index()] += n;
    }
    fn fixed(&mut self, v: (i32, i32)) {
        self.fixed += v;
    }
}

impl Trace {
    /// The sum a [`Weighted`] accumulator would have reached with `table`.
    pub fn weigh(&self, table: &Table) -> Tapered {
        let mut t = self.fixed;
        for (n, &(m, e)) in self.counts.iter().zip(table.iter()) {
            t += (m * n, e * n);
        }
        t
    }
}

/// Passes terms on with their sign flipped (the other side's terms).
pub struct Negated<'a, T: Terms>(pub &'a mut T);

impl<T: Terms> Terms for Negated<'_, T> {
    #[inline(always)]
    fn add(&mut self, t: Term, n: i32) {
        self.0.add(t, -n);
    }
    #[inline(always)]
    fn fixed(&mut self, v: (i32, i32)) {
        self.0.fixed((-v.0, -v.1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_every_term_in_index_order() {
        for (i, t) in Term::ALL.iter().enumerate() {
            assert_eq!(t.index(), i);
        }
    }
}
