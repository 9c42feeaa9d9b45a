//! `Square`, `File` and `Rank`: a1 = 0, b1 = 1, ..., h8 = 63.

use std::fmt;

/// A square of the 8x8 board, little-endian rank-file mapping (a1 = 0, h8 = 63).
/// The inner value is always below 64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

/// A file, a = 0 ... h = 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct File(u8);

/// A rank, first = 0 ... eighth = 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl File {
    pub const A: File = File(0);
    pub const E: File = File(4);
    pub const H: File = File(7);
    #[inline(always)]
    pub const fn new(i: u8) -> File {
        debug_assert!(i < 8);
        File(i & 7)
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub fn from_char(c: char) -> Option<File> {
        ('a'..='h').contains(&c).then(|| File(c as u8 - b'a'))
    }
    pub fn char(self) -> char {
        (b'a' + self.0) as char
    }
}

impl Rank {
    pub const FIRST: Rank = Rank(0);
    pub const SECOND: Rank = Rank(1);
    pub const THIRD: Rank = Rank(2);
    pub const FOURTH: Rank = Rank(3);
    pub const FIFTH: Rank = Rank(4);
    pub const SIXTH: Rank = Rank(5);
    pub const SEVENTH: Rank = Rank(6);
    pub const EIGHTH: Rank = Rank(7);
    #[inline(always)]
    pub const fn new(i: u8) -> Rank {
        debug_assert!(i < 8);
        Rank(i & 7)
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub fn from_char(c: char) -> Option<Rank> {
        ('1'..='8').contains(&c).then(|| Rank(c as u8 - b'1'))
    }
    pub fn char(self) -> char {
        (b'1' + self.0) as char
    }
}

impl Square {
    /// Builds a square from an index; the caller guarantees `i < 64`
    /// (checked in debug builds, masked in release so it can never go out of range).
    #[inline(always)]
    pub const fn new(i: u8) -> Square {
        debug_assert!(i < 64);
        Square(i & 63)
    }

    #[inline(always)]
    pub const fn try_new(i: u32) -> Option<Square> {
        if i < 64 { Some(Square(i as u8)) } else { None }
    }

    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn u8(self) -> u8 {
        self.0
    }

    #[inline(always)]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// Offsets the square by `delta` (in index units) if the result stays on the board.
    /// Only for vertical deltas; horizontal wrap-around is the caller's concern.
    #[inline(always)]
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let v = self.0 as i8 + delta;
        if v >= 0 && v < 64 { Some(Square(v as u8)) } else { None }
    }

    /// Steps by (file, rank) if the target is on the board.
    #[inline]
    pub const fn step(self, df: i8, dr: i8) -> Option<Square> {
        let f = (self.0 & 7) as i8 + df;
        let r = (self.0 >> 3) as i8 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 { Some(Square((r * 8 + f) as u8)) } else { None }
    }

    /// The same square seen from the other side (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    pub fn parse(s: &str) -> Option<Square> {
        let mut it = s.chars();
        let f = File::from_char(it.next()?)?;
        let r = Rank::from_char(it.next()?)?;
        it.next().is_none().then(|| Square::from_coords(f, r))
    }

    pub const A1: Square = Square(0);
    pub const B1: Square = Square(1);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const B8: Square = Square(57);
    pub const C8: Square = Square(58);
    pub const D8: Square = Square(59);
    pub const E8: Square = Square(60);
    pub const F8: Square = Square(61);
    pub const G8: Square = Square(62);
    pub const H8: Square = Square(63);
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}
