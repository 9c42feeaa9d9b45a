//! The training-data format of `fission datagen`: one fixed-size record of
//! 32 bytes per position, little-endian, no header, so that files made
//! anywhere merge with `cat` and a file cut short by an interruption loses
//! at most its last, partial record (readers ignore a trailing remainder).
//!
//! | bytes | field | meaning |
//! |---|---|---|
//! | 0..8 | `occupied` | `u64`, bit `i` set when square `i` (a1 = 0, h8 = 63) holds a piece |
//! | 8..24 | `pieces` | 4 bits per occupied square, in ascending square order, low nibble first: `color * 6 + role` (white 0, black 1; pawn, knight, bishop, rook, queen, king = 0..5); unused nibbles 0 |
//! | 24..26 | `score` | `i16`, the search score in centipawns from White's point of view |
//! | 26 | `result` | the game's result: 0 Black won, 1 draw, 2 White won |
//! | 27 | `stm` | side to move: 0 White, 1 Black |
//! | 28..30 | `ply` | `u16`, plies played since the game's start position |
//! | 30 | `variant` | 0 chess, 1 atomic, 2 dynamo, 3 push |
//! | 31 | reserved | 0 |
//!
//! A record holds the pieces only: castling rights, en passant and the
//! variant's extra state (dynamo's last turn) are not part of the net's
//! input. At most 32 pieces fit, which every variant's positions satisfy
//! (no variant adds pieces).

use crate::board::Board;
use crate::types::{Bitboard, Color, Piece, Square};
use crate::variant::VariantKind;

/// Size of one record in bytes.
pub const RECORD_BYTES: usize = 32;
/// The most pieces a record holds.
pub const MAX_PIECES: usize = 32;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub occupied: u64,
    pub pieces: [u8; 16],
    /// Centipawns, White's point of view.
    pub score: i16,
    /// 0 Black won, 1 draw, 2 White won.
    pub result: u8,
    pub stm: Color,
    pub ply: u16,
    pub variant: VariantKind,
}

/// The variant's number in a record.
pub fn variant_code(v: VariantKind) -> u8 {
    match v {
        VariantKind::Chess => 0,
        VariantKind::Atomic => 1,
        VariantKind::Dynamo => 2,
        VariantKind::Push => 3,
    }
}

/// The variant of a record's (or a net file's) variant number.
pub fn variant_from_code(c: u8) -> Option<VariantKind> {
    VariantKind::ALL.into_iter().find(|&v| variant_code(v) == c)
}

/// The result byte of a game won by `winner` (`None`: a draw).
pub fn result_code(winner: Option<Color>) -> u8 {
    match winner {
        Some(Color::White) => 2,
        Some(Color::Black) => 0,
        None => 1,
    }
}

impl Record {
    /// The record of `b`; `None` if it has more than 32 pieces.
    pub fn new(b: &Board, variant: VariantKind, score_white: i16, result: u8, ply: u16) -> Option<Record> {
        let occ = b.occupied();
        if occ.count() as usize > MAX_PIECES {
            return None;
        }
        let mut pieces = [0u8; 16];
        for (i, sq) in occ.into_iter().enumerate() {
            let p = b.piece_at(sq)?;
            pieces[i / 2] |= (p.index() as u8) << (4 * (i % 2));
        }
        Some(Record { occupied: occ.0, pieces, score: score_white, result, stm: b.turn(), ply, variant })
    }

    /// The pieces as (square, piece), in ascending square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Bitboard(self.occupied).into_iter().enumerate().map(|(i, sq)| {
            let code = (self.pieces[i / 2] >> (4 * (i % 2))) & 15;
            (sq, Piece::from_index(code as usize))
        })
    }

    /// The board of the record: its pieces and side to move (no castling
    /// rights, en passant or variant state: they are not recorded).
    pub fn board(&self) -> Board {
        let mut b = Board::empty();
        for (sq, p) in self.pieces() {
            b.put(sq, p);
        }
        if self.stm == Color::Black {
            b.pass_turn(false);
        }
        b
    }

    /// The result from the side to move's point of view: 1 win, 0.5 draw, 0 loss.
    pub fn stm_result(&self) -> f32 {
        let white = self.result as f32 / 2.0;
        if self.stm == Color::White { white } else { 1.0 - white }
    }

    /// The score from the side to move's point of view.
    pub fn stm_score(&self) -> i32 {
        if self.stm == Color::White { self.score as i32 } else { -(self.score as i32) }
    }

    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        out[0..8].copy_from_slice(&self.occupied.to_le_bytes());
        out[8..24].copy_from_slice(&self.pieces);
        out[24..26].copy_from_slice(&self.score.to_le_bytes());
        out[26] = self.result;
        out[27] = self.stm as u8;
        out[28..30].copy_from_slice(&self.ply.to_le_bytes());
        out[30] = variant_code(self.variant);
        out
    }

    /// Reads a record, refusing bytes no writer produces (more than 32
    /// pieces, a piece code above 11, a bad result, side or variant).
    pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> Result<Record, String> {
        let occupied = u64::from_le_bytes(bytes[0..8].try_into().expect("8 bytes"));
        let n = occupied.count_ones() as usize;
        if n > MAX_PIECES {
            return Err(format!("{n} pieces (at most {MAX_PIECES})"));
        }
        let mut pieces = [0u8; 16];
        pieces.copy_from_slice(&bytes[8..24]);
        for i in 0..MAX_PIECES {
            let code = (pieces[i / 2] >> (4 * (i % 2))) & 15;
            if i < n && code > 11 {
                return Err(format!("piece code {code}"));
            }
            if i >= n && code != 0 {
                return Err("bits set past the last piece".into());
            }
        }
        let result = bytes[26];
        if result > 2 {
            return Err(format!("result {result}"));
        }
        let stm = match bytes[27] {
            0 => Color::White,
            1 => Color::Black,
            s => return Err(format!("side to move {s}")),
        };
        let variant = variant_from_code(bytes[30]).ok_or_else(|| format!("variant {}", bytes[30]))?;
        if bytes[31] != 0 {
            return Err("reserved byte set".into());
        }
        Ok(Record {
            occupied,
            pieces,
            score: i16::from_le_bytes([bytes[24], bytes[25]]),
            result,
            stm,
            ply: u16::from_le_bytes([bytes[28], bytes[29]]),
            variant,
        })
    }
}

/// Reads every whole record of `bytes` (a trailing partial record, from an
/// interrupted writer, is ignored). Fails on the first invalid record, with
/// its index.
pub fn read_records(bytes: &[u8]) -> Result<Vec<Record>, String> {
    bytes
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, c)| Record::from_bytes(c.try_into().expect("32 bytes")).map_err(|e| format!("record {i}: {e}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Atomic, Variant};

    #[test]
    fn round_trip() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/8/8/8/8/8/5k2/R3K2r b Q - 0 1",
            "r3k1R1/pb2K2p/2n5/2pppr2/3P4/2P1P3/PP3P1P/R7 b q - 0 1",
        ] {
            let b = Atomic::from_fen(fen).unwrap();
            let r = Record::new(&b, VariantKind::Atomic, -123, 2, 77).unwrap();
            let back = Record::from_bytes(&r.to_bytes()).unwrap();
            assert_eq!(back, r);
            let listed: Vec<(Square, Piece)> = back.pieces().collect();
            let expected: Vec<(Square, Piece)> =
                b.occupied().into_iter().map(|s| (s, b.piece_at(s).unwrap())).collect();
            assert_eq!(listed, expected);
            assert_eq!(back.stm, b.turn());
            assert_eq!(back.stm_score(), if b.turn() == Color::White { -123 } else { 123 });
        }
    }

    #[test]
    fn bad_bytes_are_refused_and_partial_records_ignored() {
        let b = Board::startpos();
        let good = Record::new(&b, VariantKind::Chess, 10, 1, 0).unwrap().to_bytes();
        let mut bad = good;
        bad[26] = 3;
        assert!(Record::from_bytes(&bad).is_err());
        let mut bad = good;
        bad[8] |= 0x0f; // a piece code of 15
        assert!(Record::from_bytes(&bad).is_err());
        let mut bad = good;
        bad[30] = 9;
        assert!(Record::from_bytes(&bad).is_err());
        let mut file = good.to_vec();
        file.extend_from_slice(&good);
        file.extend_from_slice(&good[..10]);
        assert_eq!(read_records(&file).unwrap().len(), 2);
    }
}
