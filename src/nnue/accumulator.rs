//! The first layer's output, kept up to date move by move.
//!
//! An [`Accumulator`] holds, for each point of view, the feature bias plus
//! the weight column of every present piece. A move changes a few
//! features, so the accumulator is updated, not recomputed: a [`Delta`]
//! diffs the piece bitboards of the position before and after, which
//! handles an atomic explosion, castling, promotion and a push-chess shove
//! alike, and [`Network::apply`] applies it. When a king moves into
//! another king input bucket (see [`super::features::KingMap`]), that
//! side's view is recomputed instead, from the position's pieces, which the
//! delta then carries. The search's
//! [`AccumulatorStack`] does so lazily, only for positions it evaluates.

use super::features::KingMap;
use super::network::Network;
use crate::board::Board;
use crate::types::{Color, Piece, Role, Square};

/// First-layer outputs for both points of view: White's view, then
/// Black's, each as wide as the network's hidden layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: Vec<i16>,
    /// The king slot each view was computed in (White's, Black's).
    pub(super) slots: [u8; 2],
}

impl Accumulator {
    /// All zeros, for a net of width `hidden`.
    pub fn zeroed(hidden: usize) -> Accumulator {
        Accumulator { values: vec![0; 2 * hidden], slots: [0; 2] }
    }

    /// The values seen from `c`'s side.
    #[inline(always)]
    pub fn view(&self, c: Color) -> &[i16] {
        let h = self.values.len() / 2;
        &self.values[c.index() * h..(c.index() + 1) * h]
    }

    #[inline(always)]
    pub fn view_mut(&mut self, c: Color) -> &mut [i16] {
        let h = self.values.len() / 2;
        &mut self.values[c.index() * h..(c.index() + 1) * h]
    }
}

/// The pieces one move takes off the board and puts on it: the difference
/// of the 12 piece bitboards, so that any move of any variant (an explosion
/// of up to 9 pieces, castling, a promotion, a push or pull) is one update.
#[derive(Clone, Debug, Default)]
pub struct Delta {
    pub(super) removed: arrayvec::ArrayVec<(Piece, Square), 32>,
    pub(super) added: arrayvec::ArrayVec<(Piece, Square), 32>,
    /// When a king moved into another king slot (or left the board): the
    /// kings after the move (White's, Black's) and every piece of the
    /// position after it, from which that view is recomputed.
    pub(super) kings: Option<[Option<Square>; 2]>,
    pub(super) after: arrayvec::ArrayVec<(Piece, Square), 32>,
}

impl Delta {
    /// Sets this to the difference between `before` and `after` (in place:
    /// deltas live in per-ply stacks), for a net with the king buckets
    /// `king` (`None` for a net without them: nothing more to track).
    #[inline]
    pub fn set(&mut self, before: &Board, after: &Board, king: Option<&KingMap>) {
        self.clear();
        for color in [Color::White, Color::Black] {
            for role in Role::ALL {
                let (was, is) = (before.pieces(color, role), after.pieces(color, role));
                if was == is {
                    continue;
                }
                let p = Piece::new(color, role);
                // At most 32 pieces leave or arrive in one move in any variant.
                for sq in was & !is {
                    let _ = self.removed.try_push((p, sq));
                }
                for sq in is & !was {
                    let _ = self.added.try_push((p, sq));
                }
            }
        }
        if let Some(map) = king {
            let kings = [after.king(Color::White), after.king(Color::Black)];
            let changed = |c: Color| map.slot(c, before.king(c)) != map.slot(c, kings[c.index()]);
            if changed(Color::White) || changed(Color::Black) {
                self.kings = Some(kings);
                for sq in after.occupied() {
                    if let Some(p) = after.piece_at(sq) {
                        let _ = self.after.try_push((p, sq));
                    }
                }
            }
        }
    }

    /// No change (a null move).
    pub fn clear(&mut self) {
        self.removed.clear();
        self.added.clear();
        self.kings = None;
        self.after.clear();
    }
}

/// The accumulators of a search path, one per ply, brought up to date
/// only when a position is evaluated: a move records its [`Delta`]
/// (cheap: bitboard differences), and [`AccumulatorStack::get`] applies the
/// deltas since the last ply that is up to date. Positions that are never
/// evaluated (cut by the hash table, by mate distance, a repetition) cost no
/// accumulator work.
pub struct AccumulatorStack {
    /// The net's king buckets, if it has any.
    king: Option<KingMap>,
    accs: Vec<Accumulator>,
    deltas: Vec<Delta>,
    /// Whether `accs[ply]` is the accumulator of the path's position at `ply`.
    fresh: Vec<bool>,
}

impl AccumulatorStack {
    /// A stack of `plies` entries for a path starting at `root`.
    pub fn new(net: &Network, root: &Board, plies: usize) -> AccumulatorStack {
        let plies = plies.max(1);
        let mut accs = vec![Accumulator::zeroed(net.hidden()); plies];
        accs[0] = net.refresh(root);
        let mut fresh = vec![false; plies];
        fresh[0] = true;
        let king = Some(*net.king_map()).filter(|k| !k.is_none());
        AccumulatorStack { king, accs, deltas: vec![Delta::default(); plies], fresh }
    }

    /// The position at `ply + 1` is `after`, reached from `before` at `ply`.
    #[inline]
    pub fn push(&mut self, ply: usize, before: &Board, after: &Board) {
        self.deltas[ply + 1].set(before, after, self.king.as_ref());
        self.fresh[ply + 1] = false;
    }

    /// The position at `ply + 1` is the one at `ply` (a null move).
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        self.deltas[ply + 1].clear();
        self.fresh[ply + 1] = false;
    }

    /// The accumulator of the path's position at `ply`.
    #[inline]
    pub fn get(&mut self, net: &Network, ply: usize) -> &Accumulator {
        let mut first = ply;
        while !self.fresh[first] {
            first -= 1;
        }
        for k in first + 1..=ply {
            let (done, next) = self.accs.split_at_mut(k);
            net.apply(&done[k - 1], &self.deltas[k], &mut next[0]);
            self.fresh[k] = true;
        }
        &self.accs[ply]
    }
}
