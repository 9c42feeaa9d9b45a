//! `Board`: bitboards plus a mailbox, side to move, castling rights, the
//! en-passant square, clocks and an incrementally updated Zobrist key.
//!
//! The board knows nothing of any variant's rules: moves are made by the
//! variant modules (copy-make), which call the small editing primitives here.

mod fen;
pub mod zobrist;

pub use fen::{CastlingMode, FenError};

use crate::attacks;
use crate::types::{Bitboard, ByColor, Color, Piece, Role, Square};

/// Mailbox code for an empty square; otherwise `Piece::index() + 1`.
const EMPTY: u8 = 0;

/// The piece of each mailbox code: none for [`EMPTY`], else the piece of
/// dense index `code - 1` ([`Piece::index`]); codes 13 to 15 are never
/// stored.
const DECODE: [Option<Piece>; 16] = {
    let mut t = [None; 16];
    let mut i = 0;
    while i < 12 {
        t[i + 1] = Some(Piece::from_index(i));
        i += 1;
    }
    t
};

#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    roles: [Bitboard; 6],
    colors: ByColor<Bitboard>,
    mailbox: [u8; 64],
    turn: Color,
    /// Squares of rooks that still carry a castling right (any back-rank
    /// rook in Chess960).
    castling: Bitboard,
    /// Read from a Chess960 FEN: the castling field is written in X-FEN.
    /// Not part of the position (not hashed).
    chess960: bool,
    /// Set only when an en-passant capture is pseudo-legal for the side to move.
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    /// Variant state beyond the board (Dynamo: castling flags and the last
    /// turn's record), opaque here; zero for the other variants. Hashed.
    extra: u64,
    key: u64,
}

impl Board {
    pub const STARTPOS: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    pub fn empty() -> Board {
        Board {
            roles: [Bitboard::EMPTY; 6],
            colors: ByColor::default(),
            mailbox: [EMPTY; 64],
            turn: Color::White,
            castling: Bitboard::EMPTY,
            chess960: false,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            extra: 0,
            key: 0,
        }
    }

    pub fn startpos() -> Board {
        match Board::from_fen(Board::STARTPOS) {
            Ok(b) => b,
            Err(_) => unreachable!("the start position FEN is valid"),
        }
    }

    // ---- queries ------------------------------------------------------------

    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors.white | self.colors.black
    }
    #[inline(always)]
    pub fn by_color(&self, c: Color) -> Bitboard {
        *self.colors.get(c)
    }
    #[inline(always)]
    pub fn by_role(&self, r: Role) -> Bitboard {
        self.roles[r.index()]
    }
    #[inline(always)]
    pub fn pieces(&self, c: Color, r: Role) -> Bitboard {
        self.by_color(c) & self.by_role(r)
    }
    #[inline(always)]
    pub fn us(&self) -> Bitboard {
        self.by_color(self.turn)
    }
    #[inline(always)]
    pub fn them(&self) -> Bitboard {
        self.by_color(!self.turn)
    }
    /// Rooks and queens.
    #[inline(always)]
    pub fn rook_likes(&self) -> Bitboard {
        self.by_role(Role::Rook) | self.by_role(Role::Queen)
    }
    /// Bishops and queens.
    #[inline(always)]
    pub fn bishop_likes(&self) -> Bitboard {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen)
    }
    /// The king of `c`, if it is on the board (in atomic it may have exploded).
    #[inline(always)]
    pub fn king(&self, c: Color) -> Option<Square> {
        self.pieces(c, Role::King).first()
    }
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        // One load from a table instead of decoding (the hottest accessor
        // of move generation); codes never exceed 12, the mask only spares
        // the bounds check.
        DECODE[usize::from(self.mailbox[sq.index()]) & 15]
    }
    #[inline(always)]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.piece_at(sq).map(|p| p.role)
    }
    #[inline(always)]
    pub fn castling(&self) -> Bitboard {
        self.castling
    }
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }
    #[inline(always)]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }
    #[inline(always)]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Pieces of colour `by` that attack `sq` with an ordinary chess attack,
    /// given occupancy `occ`. Kings are included.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        self.by_color(by)
            & ((attacks::rook_attacks(sq, occ) & self.rook_likes())
                | (attacks::bishop_attacks(sq, occ) & self.bishop_likes())
                | (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
                | (attacks::pawn_attacks(!by, sq) & self.by_role(Role::Pawn))
                | (attacks::king_attacks(sq) & self.by_role(Role::King)))
    }

    // ---- editing primitives (keep the key and mailbox in step) ----------------

    /// Puts `p` on the empty square `sq`.
    #[inline(always)]
    pub fn put(&mut self, sq: Square, p: Piece) {
        debug_assert!(self.mailbox[sq.index()] == EMPTY, "put on occupied {sq}");
        let bb = Bitboard::from_square(sq);
        self.roles[p.role.index()] |= bb;
        *self.colors.get_mut(p.color) |= bb;
        self.mailbox[sq.index()] = p.index() as u8 + 1;
        self.key ^= zobrist::piece_key(p, sq);
    }

    /// Removes and returns the piece on `sq`, if any.
    #[inline(always)]
    pub fn take(&mut self, sq: Square) -> Option<Piece> {
        let p = self.piece_at(sq)?;
        let bb = !Bitboard::from_square(sq);
        self.roles[p.role.index()] &= bb;
        *self.colors.get_mut(p.color) &= bb;
        self.mailbox[sq.index()] = EMPTY;
        self.key ^= zobrist::piece_key(p, sq);
        Some(p)
    }

    /// Moves the piece on `from` to the empty square `to`.
    #[inline(always)]
    pub fn relocate(&mut self, from: Square, to: Square) {
        if let Some(p) = self.take(from) {
            self.put(to, p);
        }
    }

    /// Removes every piece in `mask` (used by explosions).
    #[inline]
    pub fn take_all(&mut self, mask: Bitboard) {
        for sq in mask & self.occupied() {
            self.take(sq);
        }
    }

    /// Replaces the castling rights (key updated).
    #[inline(always)]
    pub fn set_castling(&mut self, rights: Bitboard) {
        if rights != self.castling {
            self.key ^= zobrist::castling_key(self.castling ^ rights);
            self.castling = rights;
        }
    }

    /// Sets or clears the en-passant square (key updated).
    #[inline(always)]
    pub fn set_ep_square(&mut self, sq: Option<Square>) {
        if let Some(old) = self.ep_square {
            self.key ^= zobrist::ep_key(old);
        }
        if let Some(new) = sq {
            self.key ^= zobrist::ep_key(new);
        }
        self.ep_square = sq;
    }

    /// Hands the turn to the other side and advances the clocks.
    /// `reset_halfmoves` is true after a capture or a pawn move.
    #[inline(always)]
    pub fn pass_turn(&mut self, reset_halfmoves: bool) {
        if reset_halfmoves {
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.key ^= zobrist::side_key();
    }

    /// Variant state beyond the board (see the field's doc).
    #[inline(always)]
    pub fn extra(&self) -> u64 {
        self.extra
    }

    /// Replaces the variant state (key updated).
    #[inline(always)]
    pub fn set_extra(&mut self, v: u64) {
        self.key ^= zobrist::extra_key(self.extra) ^ zobrist::extra_key(v);
        self.extra = v;
    }

    /// Sets the move counters directly (variants with their own counting).
    pub fn set_counters(&mut self, halfmoves: u32, fullmoves: u32) {
        self.halfmoves = halfmoves;
        self.fullmoves = fullmoves;
    }

    /// Recomputes the key from scratch (debug checks and FEN parsing).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                k ^= zobrist::piece_key(p, sq);
            }
        }
        k ^= zobrist::castling_key(self.castling);
        if let Some(ep) = self.ep_square {
            k ^= zobrist::ep_key(ep);
        }
        if self.turn == Color::Black {
            k ^= zobrist::side_key();
        }
        k ^ zobrist::extra_key(self.extra)
    }

    /// Checks internal consistency: bitboards agree with the mailbox.
    /// The variant-specific key (with extra state) is checked by the variant.
    pub fn is_consistent(&self) -> bool {
        let mut occ = Bitboard::EMPTY;
        for r in Role::ALL {
            if (occ & self.roles[r.index()]).any() {
                return false;
            }
            occ |= self.roles[r.index()];
        }
        if occ != self.occupied() || (self.colors.white & self.colors.black).any() {
            return false;
        }
        Square::all().all(|sq| match self.piece_at(sq) {
            None => !occ.contains(sq),
            Some(p) => self.pieces(p.color, p.role).contains(sq),
        })
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::startpos()
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.fen())
    }
}

impl Board {
    /// The position with the turn passed and nothing moved (null-move
    /// pruning). The halfmove clock restarts so that repetition checks do not
    /// look across the null move.
    pub fn null_move(&self) -> Board {
        let mut b = self.clone();
        b.set_ep_square(None);
        b.pass_turn(true);
        b
    }
}
