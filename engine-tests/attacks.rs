//! Attack tables: every magic entry equals a slow ray walk, and all tables
//! agree with shakmaty's on random occupancies.

use fission::attacks::{self, magic_mask, ray_attacks_slow};
use fission::{Bitboard, Color, Square};
use shakmaty as sm;

fn sm_sq(sq: Square) -> sm::Square {
    sm::Square::new(sq.index() as u32)
}

fn sm_bb(bb: Bitboard) -> sm::Bitboard {
    sm::Bitboard(bb.0)
}

/// Every subset of every relevant mask: the magic lookup equals the ray walk.
#[test]
fn every_magic_entry_equals_ray_walk() {
    let mut checked = 0usize;
    for rook in [true, false] {
        for sq in Square::all() {
            let mask = magic_mask(rook, sq).0;
            let mut sub = 0u64;
            loop {
                let occ = Bitboard(sub);
                let got = if rook { attacks::rook_attacks(sq, occ) } else { attacks::bishop_attacks(sq, occ) };
                assert_eq!(got, ray_attacks_slow(rook, sq, occ), "rook={rook} {sq} occ={sub:#x}");
                // Squares outside the mask must not change the answer.
                let noisy = Bitboard(sub | (!mask & 0x8100_0000_0000_0081));
                let got2 = if rook { attacks::rook_attacks(sq, noisy) } else { attacks::bishop_attacks(sq, noisy) };
                assert_eq!(got2, got);
                checked += 1;
                sub = sub.wrapping_sub(mask) & mask;
                if sub == 0 {
                    break;
                }
            }
        }
    }
    // Every table entry is reached by exactly one subset.
    assert_eq!(checked, attacks::slider_table_len());
}

#[test]
fn tables_agree_with_shakmaty_on_random_occupancies() {
    let mut rng = fastrand::Rng::with_seed(0xF155_1014);
    for _ in 0..20_000 {
        let occ = Bitboard(rng.u64(..) & rng.u64(..));
        let sq = Square::new(rng.u8(0..64));
        let s = sm_sq(sq);
        assert_eq!(sm_bb(attacks::rook_attacks(sq, occ)), sm::attacks::rook_attacks(s, sm_bb(occ)));
        assert_eq!(sm_bb(attacks::bishop_attacks(sq, occ)), sm::attacks::bishop_attacks(s, sm_bb(occ)));
        assert_eq!(sm_bb(attacks::queen_attacks(sq, occ)), sm::attacks::queen_attacks(s, sm_bb(occ)));
    }
}

#[test]
fn leapers_and_rays_agree_with_shakmaty() {
    for sq in Square::all() {
        let s = sm_sq(sq);
        assert_eq!(sm_bb(attacks::knight_attacks(sq)), sm::attacks::knight_attacks(s));
        assert_eq!(sm_bb(attacks::king_attacks(sq)), sm::attacks::king_attacks(s));
        assert_eq!(sm_bb(attacks::explosion_mask(sq)), sm::attacks::king_attacks(s));
        for (c, sc) in [(Color::White, sm::Color::White), (Color::Black, sm::Color::Black)] {
            assert_eq!(sm_bb(attacks::pawn_attacks(c, sq)), sm::attacks::pawn_attacks(sc, s));
        }
        for other in Square::all() {
            let o = sm_sq(other);
            assert_eq!(sm_bb(attacks::between(sq, other)), sm::attacks::between(s, o), "{sq} {other}");
            if sq != other {
                assert_eq!(sm_bb(attacks::line(sq, other)), sm::attacks::ray(s, o), "{sq} {other}");
            }
        }
    }
}

#[test]
fn explosion_mask_of_corner_and_centre() {
    assert_eq!(attacks::explosion_mask(Square::A1).count(), 3);
    assert_eq!(attacks::explosion_mask(Square::parse("e4").unwrap()).count(), 8);
    assert!(!attacks::explosion_mask(Square::A1).contains(Square::A1));
}

/// Directions, open rays, `nearest` and `before_first` against square walks
/// over random subsets of each ray.
#[test]
fn directed_rays_agree_with_square_walks() {
    let mut rng = fastrand::Rng::with_seed(0xD1EC);
    for a in Square::all() {
        for b in Square::all() {
            let aligned = a != b && attacks::line(a, b).any();
            let Some(d) = attacks::direction(a, b) else {
                assert!(!aligned, "{a} {b}");
                continue;
            };
            assert!(aligned, "{a} {b}");
            let (df, dr) = d.step();
            assert_eq!(a.step(df, dr).map(|s| s.index() as i8 - a.index() as i8), Some(d.delta()));
            assert_eq!(attacks::direction(b, a), Some(d.opposite()));
            // The ray by walking, in order from a.
            let mut walk = Vec::new();
            let mut cur = a.step(df, dr);
            while let Some(s) = cur {
                walk.push(s);
                cur = s.step(df, dr);
            }
            assert!(walk.contains(&b));
            let ray = attacks::ray(a, d);
            assert_eq!(ray, walk.iter().fold(Bitboard::EMPTY, |bb, &s| bb.with(s)));
            assert_eq!(d.is_orthogonal(), df == 0 || dr == 0);
            for _ in 0..8 {
                let stops = Bitboard(rng.u64(..) & rng.u64(..));
                let first = walk.iter().position(|&s| stops.contains(s));
                let expect_nearest = first.map_or(Bitboard::EMPTY, |i| Bitboard::from_square(walk[i]));
                assert_eq!(attacks::nearest(stops & ray, d), expect_nearest, "{a} {d:?}");
                let before = walk[..first.unwrap_or(walk.len())].iter().fold(Bitboard::EMPTY, |bb, &s| bb.with(s));
                assert_eq!(attacks::before_first(ray, stops, d), before, "{a} {d:?} {stops:?}");
            }
        }
    }
}

/// `shift` and `fill` against square walks on random sets.
#[test]
fn direction_shift_and_fill_agree_with_square_walks() {
    let mut rng = fastrand::Rng::with_seed(0xF111);
    for _ in 0..2_000 {
        let from = Bitboard(rng.u64(..) & rng.u64(..) & rng.u64(..));
        let through = Bitboard(rng.u64(..) | rng.u64(..));
        for d in attacks::Direction::ALL {
            let (df, dr) = d.step();
            let mut shifted = Bitboard::EMPTY;
            let mut filled = from;
            for s in from {
                if let Some(t) = s.step(df, dr) {
                    shifted = shifted.with(t);
                }
                let mut cur = s.step(df, dr);
                while let Some(t) = cur.filter(|&t| through.contains(t)) {
                    filled = filled.with(t);
                    cur = t.step(df, dr);
                }
            }
            assert_eq!(d.shift(from), shifted, "{d:?} {from:?}");
            assert_eq!(d.fill(from, through), filled, "{d:?} {from:?} {through:?}");
        }
    }
}

#[test]
fn knight_double_leaps_are_two_equal_leaps() {
    for s in Square::all() {
        let mut expect = Bitboard::EMPTY;
        for (df, dr) in [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)] {
            if let Some(t) = s.step(df, dr).and_then(|m| m.step(df, dr)) {
                expect = expect.with(t);
            }
        }
        assert_eq!(attacks::knight_double_leaps(s), expect, "{s}");
    }
}

#[test]
fn pseudo_attacks_are_empty_board_attacks() {
    for sq in Square::all() {
        assert_eq!(attacks::rook_pseudo_attacks(sq), attacks::rook_attacks(sq, Bitboard::EMPTY), "{sq}");
        assert_eq!(attacks::bishop_pseudo_attacks(sq), attacks::bishop_attacks(sq, Bitboard::EMPTY), "{sq}");
    }
}
