//! Domain newtypes shared by every module: squares, bitboards, colours,
//! roles, pieces and moves.

mod bitboard;
mod moves;
mod piece;
mod rng;
mod square;

pub use bitboard::Bitboard;
pub use moves::{MAX_MOVES, Move, MoveKind, MoveList};
pub use piece::{Color, Piece, Role};
pub use rng::{SplitMix, splitmix64};
pub use square::{File, Rank, Square};

/// A value indexed by colour, so no `[T; 2]` is ever indexed by a bare `usize`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    pub white: T,
    pub black: T,
}

impl<T> ByColor<T> {
    #[inline(always)]
    pub const fn new(white: T, black: T) -> Self {
        ByColor { white, black }
    }

    #[inline(always)]
    pub fn get(&self, c: Color) -> &T {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    #[inline(always)]
    pub fn get_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}
