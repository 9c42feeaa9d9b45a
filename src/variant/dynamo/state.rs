//! Dynamo's state beyond the board, packed into `Board::extra` (so that it
//! is hashed): the castling flags and the record of the last turn (rules §7.2,
//! §8, §10.1).
//!
//! Layout of the `u64`:
//!
//! | bits  | field                                                          |
//! |-------|----------------------------------------------------------------|
//! | 0-15  | flags: White a-side, White h-side, Black a-side, Black h-side, 4 bits each: file 0-7, or 8 = none |
//! | 16-55 | record: appear[0], appear[1], vanish[0], vanish[1], 10 bits each: piece code 4 bits (0 = empty slot, else `Piece::index() + 1`) and square 6 bits |
//! | 56    | a last turn is recorded (`-` in the FEN when clear)            |
//!
//! A turn makes at most two parts, each with at most one vanishing and one
//! appearing piece, except castling (two and two, and never a second part):
//! so two slots per list always suffice.

use crate::types::{Color, Piece, Square};

pub const NO_FLAG: u8 = 8;
const FLAG_BITS: u32 = 4;
const RECORD_SHIFT: u32 = 16;
const ENTRY_BITS: u32 = 10;
const PRESENT_BIT: u64 = 1 << 56;

const _: () = assert!(RECORD_SHIFT + 4 * ENTRY_BITS <= 56);

/// One record entry: a piece on a square.
pub type Entry = (Piece, Square);

/// The appear and vanish lists of a turn (rules §7.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub appear: [Option<Entry>; 2],
    pub vanish: [Option<Entry>; 2],
}

impl Record {
    pub fn push_appear(&mut self, e: Entry) {
        if let Some(slot) = self.appear.iter_mut().find(|s| s.is_none()) {
            *slot = Some(e);
        }
    }
    pub fn push_vanish(&mut self, e: Entry) {
        if let Some(slot) = self.vanish.iter_mut().find(|s| s.is_none()) {
            *slot = Some(e);
        }
    }
    pub fn appear(&self) -> impl Iterator<Item = Entry> + '_ {
        self.appear.iter().flatten().copied()
    }
    pub fn vanish(&self) -> impl Iterator<Item = Entry> + '_ {
        self.vanish.iter().flatten().copied()
    }

    /// Whether turn `t` exactly reverses this (previous) turn: the same
    /// number of entries everywhere, everything that appeared vanishes and
    /// everything that vanished appears again.
    pub fn reversed_by(&self, t: &Record) -> bool {
        let n = self.appear().count();
        if t.appear().count() != n || self.vanish().count() != n || t.vanish().count() != n {
            return false;
        }
        self.appear().all(|a| t.vanish().any(|v| v == a)) && self.vanish().all(|v| t.appear().any(|a| a == v))
    }
}

fn encode_entry(e: Option<Entry>) -> u64 {
    e.map_or(0, |(p, sq)| (p.index() as u64 + 1) | (sq.index() as u64) << 4)
}

fn decode_entry(bits: u64) -> Option<Entry> {
    let code = (bits & 15) as usize;
    if code == 0 || code > 12 {
        return None;
    }
    Some((Piece::from_index(code - 1), Square::new(((bits >> 4) & 63) as u8)))
}

/// Castling flags: the rook file of each side's a-side and h-side right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flags(pub [u8; 4]);

impl Flags {
    pub const NONE: Flags = Flags([NO_FLAG; 4]);

    fn base(c: Color) -> usize {
        if c.is_white() { 0 } else { 2 }
    }
    /// (a-side, h-side) flags of `c`.
    pub fn of(&self, c: Color) -> [u8; 2] {
        let b = Flags::base(c);
        [self.0[b], self.0[b + 1]]
    }
    pub fn clear_both(&mut self, c: Color) {
        let b = Flags::base(c);
        self.0[b] = NO_FLAG;
        self.0[b + 1] = NO_FLAG;
    }
    /// Clears the flag equal to `file` (the a-side one first, as the reference does).
    pub fn clear_file(&mut self, c: Color, file: u8) {
        let b = Flags::base(c);
        if self.0[b] == file {
            self.0[b] = NO_FLAG;
        } else if self.0[b + 1] == file {
            self.0[b + 1] = NO_FLAG;
        }
    }
}

/// The unpacked state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub flags: Flags,
    pub last: Option<Record>,
}

impl State {
    pub fn pack(&self) -> u64 {
        let mut v = 0u64;
        for (i, f) in self.flags.0.iter().enumerate() {
            v |= (*f as u64 & 15) << (FLAG_BITS * i as u32);
        }
        if let Some(r) = &self.last {
            let entries = [r.appear[0], r.appear[1], r.vanish[0], r.vanish[1]];
            for (i, e) in entries.into_iter().enumerate() {
                v |= encode_entry(e) << (RECORD_SHIFT + ENTRY_BITS * i as u32);
            }
            v |= PRESENT_BIT;
        }
        v
    }

    pub fn unpack(v: u64) -> State {
        let mut flags = [NO_FLAG; 4];
        for (i, f) in flags.iter_mut().enumerate() {
            *f = ((v >> (FLAG_BITS * i as u32)) & 15) as u8;
        }
        let last = (v & PRESENT_BIT != 0).then(|| {
            let e = |i: u32| decode_entry(v >> (RECORD_SHIFT + ENTRY_BITS * i));
            Record { appear: [e(0), e(1)], vanish: [e(2), e(3)] }
        });
        State { flags: Flags(flags), last }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Role;

    #[test]
    fn pack_round_trips() {
        let wp = Piece::new(Color::White, Role::Pawn);
        let bq = Piece::new(Color::Black, Role::Queen);
        let r = Record {
            appear: [Some((wp, Square::parse("e4").unwrap())), Some((bq, Square::H8))],
            vanish: [Some((wp, Square::parse("e2").unwrap())), None],
        };
        let s = State { flags: Flags([0, 7, NO_FLAG, 7]), last: Some(r) };
        assert_eq!(State::unpack(s.pack()), s);
        let s = State { flags: Flags::NONE, last: None };
        assert_eq!(State::unpack(s.pack()), s);
    }

    #[test]
    fn reversal_needs_balanced_lists() {
        let wn = Piece::new(Color::White, Role::Knight);
        let g1 = Square::G1;
        let f3 = Square::parse("f3").unwrap();
        let last = Record { appear: [Some((wn, f3)), None], vanish: [Some((wn, g1)), None] };
        let back = Record { appear: [Some((wn, g1)), None], vanish: [Some((wn, f3)), None] };
        assert!(last.reversed_by(&back));
        let exit = Record { appear: [None, None], vanish: [Some((wn, f3)), None] };
        assert!(!last.reversed_by(&exit));
    }
}
