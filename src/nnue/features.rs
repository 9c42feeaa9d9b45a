//! The input features: for each point of view (White's and Black's), 768
//! binary features, one per (piece colour relative to that side, role,
//! square seen from that side). Black's view mirrors the board top to
//! bottom, so both sides see their own pieces as White sees White's.
//!
//! A net may also have **king input buckets**: one set of 768 features per
//! bucket, the bucket of a point of view chosen by where that side's own
//! king stands (seen from its side), as in Stockfish's HalfKA and bullet's
//! `ChessBucketsMirrored`. A [`KingMap`] gives each king square its bucket
//! and whether that view is also mirrored left to right (files a and h
//! swapped), so that a king on the e–h files uses the buckets of the a–d
//! files. A net without king buckets has the map of all zeros: one bucket,
//! never mirrored.

use crate::types::{Color, Piece, Square};

/// Features per point of view and king bucket: 2 colours × 6 roles × 64
/// squares.
pub const INPUTS: usize = 768;
/// The most king input buckets a net may have (feature indices stay
/// below `u16::MAX`).
pub const MAX_INPUT_BUCKETS: usize = 32;
/// The bit of a [`KingMap`] entry that mirrors the view left to right.
pub const MIRROR: u8 = 0x80;

/// The input feature of piece `p` on `sq` seen from `persp`'s side in the
/// king slot `slot` (a [`KingMap`] entry: bucket, and [`MIRROR`]; 0 in a
/// net without king buckets): the viewer's own pieces take features
/// 0..384 of the bucket, the opponent's 384..768; squares are mirrored top
/// to bottom for Black.
#[inline(always)]
pub fn feature_in(persp: Color, p: Piece, sq: Square, slot: u8) -> usize {
    View::new(persp, slot).feature(p, sq)
}

/// One point of view in one king slot, worked out once for the many
/// features of a refresh or an update.
#[derive(Clone, Copy, Debug)]
pub struct View {
    persp: Color,
    /// The first feature of the slot's bucket.
    offset: usize,
    /// Square bits to flip: ranks for Black, files when mirrored.
    flip: usize,
}

impl View {
    #[inline(always)]
    pub fn new(persp: Color, slot: u8) -> View {
        let flip = if persp == Color::White { 0 } else { 56 } ^ if slot & MIRROR != 0 { 7 } else { 0 };
        View { persp, offset: (slot & !MIRROR) as usize * INPUTS, flip }
    }

    /// The feature of piece `p` on `sq` in this view.
    #[inline(always)]
    pub fn feature(self, p: Piece, sq: Square) -> usize {
        let theirs = (p.color != self.persp) as usize;
        self.offset + theirs * 384 + p.role.index() * 64 + (sq.index() ^ self.flip)
    }
}

/// King square (seen from the viewer's side: a1 is the viewer's left
/// corner) to king slot: the input bucket, plus [`MIRROR`] when the view is
/// mirrored left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KingMap(pub [u8; 64]);

impl KingMap {
    /// No king buckets: one bucket, never mirrored.
    pub const NONE: KingMap = KingMap([0; 64]);

    /// A map from its 64 entries, checked: buckets below
    /// [`MAX_INPUT_BUCKETS`], every bucket from 0 to the largest used,
    /// no bits but the bucket's and [`MIRROR`].
    pub fn new(entries: [u8; 64]) -> Result<KingMap, String> {
        let buckets = entries.iter().map(|&e| (e & !MIRROR) as usize).max().unwrap_or(0) + 1;
        if buckets > MAX_INPUT_BUCKETS {
            return Err(format!("{buckets} king input buckets: at most {MAX_INPUT_BUCKETS} are possible"));
        }
        if let Some(b) = (0..buckets).find(|&b| !entries.iter().any(|&e| (e & !MIRROR) as usize == b)) {
            return Err(format!("king input bucket {b} is on no square"));
        }
        Ok(KingMap(entries))
    }

    /// The number of king input buckets.
    pub fn buckets(&self) -> usize {
        self.0.iter().map(|&e| (e & !MIRROR) as usize).max().unwrap_or(0) + 1
    }

    /// Whether this is the map of a net without king buckets.
    pub fn is_none(&self) -> bool {
        *self == KingMap::NONE
    }

    /// The slot of `persp`'s view with its king on `king` (`None`: no king
    /// on the board, as after an atomic explosion; slot 0 then).
    #[inline(always)]
    pub fn slot(&self, persp: Color, king: Option<Square>) -> u8 {
        match king {
            Some(k) => self.0[k.index() ^ if persp == Color::White { 0 } else { 56 }],
            None => 0,
        }
    }

    /// A named layout, for the trainer's command line:
    /// * `none`: one bucket;
    /// * `mirror`: one bucket, mirrored when the king is on the e–h files;
    /// * `rank`: 2 buckets, the king on its first rank or off it (not mirrored);
    /// * `rank-mirror`: the same, mirrored on the e–h files;
    /// * `4`: the king on its first rank, on a–d or e–h, or off it, on a–d
    ///   or e–h (not mirrored, so a net without buckets splits into it
    ///   exactly);
    /// * `quad-mirror`: 4 buckets, mirrored on the e–h files: first rank
    ///   a–b, first rank c–d, second rank, the rest.
    pub fn named(name: &str) -> Result<KingMap, String> {
        let mut m = [0u8; 64];
        for (sq, e) in m.iter_mut().enumerate() {
            let (file, rank) = (sq % 8, sq / 8);
            let right = file >= 4;
            let mirror = if right { MIRROR } else { 0 };
            *e = match name {
                "none" => 0,
                "mirror" => mirror,
                "rank" => (rank > 0) as u8,
                "rank-mirror" => (rank > 0) as u8 | mirror,
                "4" => 2 * (rank > 0) as u8 + right as u8,
                "quad-mirror" => {
                    let f = if right { 7 - file } else { file };
                    mirror
                        | match rank {
                            0 if f < 2 => 0,
                            0 => 1,
                            1 => 2,
                            _ => 3,
                        }
                }
                _ => {
                    return Err(format!(
                        "unknown king bucket layout {name}: none, mirror, rank, rank-mirror, 4 or quad-mirror"
                    ));
                }
            };
        }
        KingMap::new(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Role;

    #[test]
    fn named_layouts_are_valid_and_sized() {
        for (name, buckets) in
            [("none", 1), ("mirror", 1), ("rank", 2), ("rank-mirror", 2), ("4", 4), ("quad-mirror", 4)]
        {
            let m = KingMap::named(name).unwrap();
            assert_eq!(m.buckets(), buckets, "{name}");
        }
        assert!(KingMap::named("none").unwrap().is_none());
        assert!(KingMap::named("nine").is_err());
        let mut holes = [0u8; 64];
        holes[5] = 2; // bucket 1 is on no square
        assert!(KingMap::new(holes).unwrap_err().contains("bucket 1"));
        holes[5] = 40;
        assert!(KingMap::new(holes).unwrap_err().contains("at most"));
    }

    /// Black's view of a position is White's view of its colour-flipped
    /// mirror image: the same slot and features.
    #[test]
    fn both_sides_see_their_own_king_alike() {
        let m = KingMap::named("quad-mirror").unwrap();
        let p = Piece::new(Color::White, Role::Knight);
        let q = Piece::new(Color::Black, Role::Knight);
        for k in 0..64u8 {
            let (kw, kb) = (Square::new(k), Square::new(k ^ 56));
            assert_eq!(m.slot(Color::White, Some(kw)), m.slot(Color::Black, Some(kb)));
            let slot = m.slot(Color::White, Some(kw));
            for s in 0..64u8 {
                let a = feature_in(Color::White, p, Square::new(s), slot);
                let b = feature_in(Color::Black, q, Square::new(s ^ 56), slot);
                assert_eq!(a, b);
                assert!(a < m.buckets() * INPUTS);
            }
        }
        // Mirrored slots swap the files.
        let right = m.slot(Color::White, Some(Square::new(6)));
        assert_ne!(right & MIRROR, 0);
        assert_eq!(feature_in(Color::White, p, Square::new(0), right), feature_in(Color::White, p, Square::new(7), 0));
        assert_eq!(m.slot(Color::White, None), 0);
    }
}
