//! FEN parsing and formatting (6 fields; 4- and 5-field EPD-style input accepted).
//!
//! Parsing never panics: every malformed input is a [`FenError`] saying what
//! is wrong. Rules that depend on the variant (how many kings, whether the side
//! not to move may be in check) are checked by the variant, not here.

use super::Board;
use crate::attacks;
use crate::types::{Bitboard, Color, File, Piece, Rank, Role, Square};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Wrong number of whitespace-separated fields.
    FieldCount(usize),
    /// The board field does not have exactly 8 ranks.
    RankCount(usize),
    /// A rank does not describe exactly 8 files.
    RankLength {
        rank: usize,
    },
    /// An unexpected character in the board field.
    BadPiece(char),
    BadTurn(String),
    BadCastling(String),
    /// Dynamo: the castling-flags field (four letters `a`-`h`, or `i` for none).
    BadCastlingFlags(String),
    /// Dynamo: the record of the last turn.
    BadLastTurn(String),
    BadEnPassant(String),
    BadClock(String),
    /// A pawn on the first or last rank.
    PawnOnBackRank(Square),
    /// More than one king of a colour.
    TooManyKings(Color),
    /// A colour has no king where the variant requires one.
    MissingKing(Color),
    /// The side not to move is in check.
    OppositeCheck,
    /// The side to move is in a check that no legal move could have given
    /// (more than two checkers; two on one line through the king; two
    /// that neither line-piece can have uncovered).
    ImpossibleCheck(u32),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |c: &Color| if c.is_white() { "white" } else { "black" };
        match self {
            FenError::FieldCount(n) => write!(f, "expected 4 to 6 fields, found {n}"),
            FenError::RankCount(n) => write!(f, "expected 8 ranks in the board, found {n}"),
            FenError::RankLength { rank } => {
                write!(f, "rank {} does not describe exactly 8 squares", 8 - rank)
            }
            FenError::BadPiece(c) => write!(f, "unexpected character {c:?} in the board"),
            FenError::BadTurn(s) => write!(f, "side to move must be 'w' or 'b', not {s:?}"),
            FenError::BadCastling(s) => write!(f, "invalid castling field {s:?}"),
            FenError::BadCastlingFlags(s) => {
                write!(f, "invalid castling flags {s:?} (four letters a-h, or i for none)")
            }
            FenError::BadLastTurn(s) => write!(f, "invalid last-turn record {s:?}"),
            FenError::BadEnPassant(s) => write!(f, "invalid en-passant square {s:?}"),
            FenError::BadClock(s) => write!(f, "invalid move counter {s:?}"),
            FenError::PawnOnBackRank(sq) => write!(f, "pawn on back rank at {sq}"),
            FenError::TooManyKings(c) => write!(f, "more than one {} king", name(c)),
            FenError::MissingKing(c) => write!(f, "no {} king", name(c)),
            FenError::OppositeCheck => write!(f, "the side not to move is in check"),
            FenError::ImpossibleCheck(n) => {
                write!(f, "the side to move is in check by {n} pieces in a way no legal move can give")
            }
        }
    }
}

impl std::error::Error for FenError {}

/// Parses a decimal counter with a sane upper bound (no overflow, no sign).
fn parse_counter(s: &str) -> Result<u32, FenError> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenError::BadClock(s.to_string()));
    }
    s.parse().map_err(|_| FenError::BadClock(s.to_string()))
}

/// Which castlings exist, and how the castling field and castling moves
/// are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CastlingMode {
    /// Orthodox castling: king on e1/e8, rooks in the corners, `KQkq`,
    /// castling written as the king's two-square move (`e1g1`).
    #[default]
    Standard,
    /// Chess960 (Fischer random): king and rooks anywhere on the back rank,
    /// king between the rooks; X-FEN or Shredder-FEN castling fields; castling
    /// written as king takes own rook (`e1h1`).
    Chess960,
}

/// Reads a castling field: `KQkq` letters (the outermost rook on that side
/// of the king, as X-FEN means them) and rook files `A`-`H`/`a`-`h`
/// (Shredder-FEN, or X-FEN for an inner rook). Malformed fields are refused
/// whatever the board: a letter repeated, `Q` before `K`, black letters
/// before white ones, two rights on one rook or on one side of the king.
/// Well-formed rights without their king and rook on the back rank (and,
/// in standard mode, on their orthodox squares) are dropped.
fn parse_castling(b: &Board, field: &str, mode: CastlingMode) -> Result<Bitboard, FenError> {
    let bad = || FenError::BadCastling(field.to_string());
    if field == "-" {
        return Ok(Bitboard::EMPTY);
    }
    let valid = |c: char| matches!(c, 'K' | 'Q' | 'k' | 'q' | 'A'..='H' | 'a'..='h');
    if field.is_empty() || !field.chars().all(valid) {
        return Err(bad());
    }
    let chars: Vec<char> = field.chars().collect();
    let first_black = chars.iter().position(|c| c.is_ascii_lowercase()).unwrap_or(chars.len());
    if chars[first_black..].iter().any(|c| c.is_ascii_uppercase()) {
        return Err(bad());
    }
    for (i, c) in chars.iter().enumerate() {
        if chars[..i].contains(c) {
            return Err(bad());
        }
        let queen_side = if c.is_ascii_uppercase() { 'Q' } else { 'q' };
        let king_side = if c.is_ascii_uppercase() { 'K' } else { 'k' };
        if *c == king_side && chars[..i].contains(&queen_side) {
            return Err(bad());
        }
    }
    let mut rights = Bitboard::EMPTY;
    for c in chars {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let back_rank = color.fold(Rank::FIRST, Rank::EIGHTH);
        let back = Bitboard::rank(back_rank);
        let rooks = b.pieces(color, Role::Rook) & back;
        let Some(king) = (b.pieces(color, Role::King) & back).first() else { continue };
        let rook = match c.to_ascii_uppercase() {
            'K' => rooks.into_iter().filter(|r| r.file() > king.file()).last(),
            'Q' => rooks.into_iter().find(|r| r.file() < king.file()),
            file => Some(Square::from_coords(File::new(file as u8 - b'A'), back_rank)).filter(|r| rooks.contains(*r)),
        };
        let Some(rook) = rook else { continue };
        if rights.contains(rook) {
            return Err(bad());
        }
        let same_side = (rights & back).into_iter().any(|r| (r.file() > king.file()) == (rook.file() > king.file()));
        if same_side {
            return Err(bad());
        }
        let orthodox = king.file() == File::E && (rook.file() == File::A || rook.file() == File::H);
        if mode == CastlingMode::Chess960 || orthodox {
            rights = rights.with(rook);
        }
    }
    Ok(rights)
}

impl Board {
    /// Parses a FEN. Castling rights whose king or rook is not on its home
    /// square are dropped; an en-passant square that no pawn can capture on is
    /// dropped (as Stockfish does), so that equal positions get equal keys.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        Board::from_fen_mode(fen, CastlingMode::Standard)
    }

    /// As [`Board::from_fen`], with castling read and written in `mode`.
    pub fn from_fen_mode(fen: &str, mode: CastlingMode) -> Result<Board, FenError> {
        let b = Board::from_fen_relaxed_mode(fen, mode)?;
        b.check_material()?;
        Ok(b)
    }

    /// As [`Board::from_fen`], but pawns may stand on the back ranks (Dynamo
    /// pushes pawns back to their first rank).
    pub fn from_fen_relaxed(fen: &str) -> Result<Board, FenError> {
        Board::from_fen_relaxed_mode(fen, CastlingMode::Standard)
    }

    fn from_fen_relaxed_mode(fen: &str, mode: CastlingMode) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut b = Board::empty();

        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (i, row) in ranks.iter().enumerate() {
            let rank = Rank::new(7 - i as u8);
            let mut file = 0u32;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    if !(1..=8).contains(&d) {
                        return Err(FenError::BadPiece(c));
                    }
                    file += d;
                } else {
                    let p = Piece::from_char(c).ok_or(FenError::BadPiece(c))?;
                    if file >= 8 {
                        return Err(FenError::RankLength { rank: i });
                    }
                    b.put(Square::from_coords(File::new(file as u8), rank), p);
                    file += 1;
                }
                if file > 8 {
                    return Err(FenError::RankLength { rank: i });
                }
            }
            if file != 8 {
                return Err(FenError::RankLength { rank: i });
            }
        }

        b.turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(FenError::BadTurn(s.to_string())),
        };

        let rights = parse_castling(&b, fields[2], mode)?;
        b.castling = rights;
        b.chess960 = mode == CastlingMode::Chess960;

        if fields[3] != "-" {
            let sq = Square::parse(fields[3]).ok_or_else(|| FenError::BadEnPassant(fields[3].to_string()))?;
            let want_rank = b.turn.fold(Rank::SIXTH, Rank::THIRD);
            if sq.rank() != want_rank {
                return Err(FenError::BadEnPassant(fields[3].to_string()));
            }
            b.ep_square = b.capturable_ep(sq);
        }

        if fields.len() >= 5 {
            b.halfmoves = parse_counter(fields[4])?;
        }
        if fields.len() >= 6 {
            b.fullmoves = parse_counter(fields[5])?.max(1);
        }

        for c in Color::ALL {
            if b.pieces(c, Role::King).more_than_one() {
                return Err(FenError::TooManyKings(c));
            }
        }
        b.key = b.compute_key();
        Ok(b)
    }

    /// `Some(sq)` if the side to move has a pawn that could capture en passant
    /// on `sq` and the board around it is consistent with a double step.
    pub fn capturable_ep(&self, sq: Square) -> Option<Square> {
        let them = !self.turn;
        let pushed = sq.offset(self.turn.fold(-8, 8))?;
        let origin = sq.offset(self.turn.fold(8, -8))?;
        let ok = self.piece_at(pushed) == Some(Piece::new(them, Role::Pawn))
            && self.piece_at(sq).is_none()
            && self.piece_at(origin).is_none()
            && (attacks::pawn_attacks(them, sq) & self.pieces(self.turn, Role::Pawn)).any();
        ok.then_some(sq)
    }

    /// No pawn on a back rank (every variant but Dynamo).
    fn check_material(&self) -> Result<(), FenError> {
        if let Some(sq) = (self.by_role(Role::Pawn) & Bitboard::BACKRANKS).first() {
            return Err(FenError::PawnOnBackRank(sq));
        }
        Ok(())
    }

    /// The board field of the FEN.
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(72);
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match self.piece_at(Square::from_coords(File::new(f), Rank::new(r))) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if r > 0 {
                s.push('/');
            }
        }
        s
    }

    /// The castling field of the FEN: `KQkq` letters; in Chess960 mode
    /// (X-FEN) a right whose rook is not the outermost on its side of the
    /// king is written as the rook's file (`HFhf` style) instead.
    pub fn castling_fen(&self) -> String {
        let mut s = String::new();
        for c in Color::ALL {
            let back = Bitboard::rank(c.fold(Rank::FIRST, Rank::EIGHTH));
            let rooks = self.pieces(c, Role::Rook) & back;
            let Some(king) = (self.pieces(c, Role::King) & back).first() else { continue };
            let mut rights: Vec<Square> = (self.castling & back).into_iter().collect();
            rights.sort_by_key(|sq| std::cmp::Reverse(sq.file().index()));
            for rook in rights {
                let king_side = rook.file() > king.file();
                let outermost = if king_side { rooks.into_iter().last() } else { rooks.first() };
                let letter = if !self.chess960 || outermost == Some(rook) {
                    if king_side { 'K' } else { 'Q' }
                } else {
                    (b'A' + rook.file().index() as u8) as char
                };
                s.push(if c.is_white() { letter } else { letter.to_ascii_lowercase() });
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    /// The full 6-field FEN.
    pub fn fen(&self) -> String {
        let ep = self.ep_square.map_or("-".to_string(), |sq| sq.to_string());
        format!(
            "{} {} {} {} {} {}",
            self.board_fen(),
            self.turn.char(),
            self.castling_fen(),
            ep,
            self.halfmoves,
            self.fullmoves
        )
    }
}
