//! Push rules, one test per rule, on the worked examples of the rules text
//! (§10) and a few more hand-counted positions.

use fission::notation::{move_to_uci, parse_move};
use fission::types::MoveKind;
use fission::types::Rank;
use fission::{Board, Color, MoveList, Piece, Push, Role, Square, Variant};

fn legal(fen: &str) -> (Board, Vec<String>, Vec<String>) {
    let b = Push::from_fen(fen).unwrap();
    let mut l = MoveList::new();
    Push::legal_moves(&b, &mut l);
    // Bulk counting (pushes counted on whole bitboards) agrees with the list.
    assert_eq!(Push::count_moves(&b), l.len() as u64, "{fen}");
    let all: Vec<String> = l.iter().map(|&m| move_to_uci(m)).collect();
    let mut pushes: Vec<String> = l.iter().filter(|m| m.kind() == MoveKind::Shove).map(|&m| move_to_uci(m)).collect();
    pushes.sort();
    (b, all, pushes)
}

fn after(b: &Board, mv: &str) -> String {
    let m = parse_move::<Push>(b, mv).unwrap_or_else(|| panic!("{mv} is not legal in {}", b.fen()));
    Push::play(b, m).fen()
}

/// Checks the number of legal moves, the exact set of pushes (when given)
/// and the position after each listed push.
fn example(fen: &str, n: usize, all_pushes: Option<&[&str]>, results: &[(&str, &str)]) {
    let (b, all, pushes) = legal(fen);
    assert_eq!(all.len(), n, "{fen}: {all:?}");
    if let Some(expected) = all_pushes {
        let mut e: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
        e.sort();
        assert_eq!(pushes, e, "{fen}");
    }
    for (mv, fen_after) in results {
        assert_eq!(after(&b, mv), *fen_after, "{fen} {mv}");
    }
}

#[test]
fn e1_rook_pushes_one_step_whatever_its_distance() {
    example("4k3/8/R7/8/8/B7/8/4K3 w - - 0 1", 24, Some(&["a6a3"]), &[("a6a3", "4k3/8/8/8/8/R7/B7/4K3 b - - 1 1")]);
}

#[test]
fn e2_start_position_has_eleven_pushes() {
    example(
        Board::STARTPOS,
        31,
        Some(&["a1a2", "h1h2", "b1d2", "g1e2", "c1b2", "c1d2", "f1e2", "f1g2", "d1c2", "d1d2", "d1e2"]),
        &[
            ("a1a2", "rnbqkbnr/pppppppp/8/8/8/P7/RPPPPPPP/1NBQKBNR b Kkq - 0 1"),
            ("b1d2", "rnbqkbnr/pppppppp/8/8/8/5P2/PPPNPPPP/R1BQKBNR b KQkq - 0 1"),
        ],
    );
}

#[test]
fn e3_block_of_three_front_piece_captures() {
    example("7k/8/r7/N7/B7/N7/8/R6K w - - 0 1", 26, Some(&["a1a3"]), &[("a1a3", "7k/8/N7/B7/N7/R7/8/7K b - - 0 1")]);
}

#[test]
fn e4_queen_pushes_both_ways_and_knight_leaps() {
    example(
        "4k3/8/8/8/N7/2N5/7K/Q7 w - - 0 1",
        28,
        Some(&["a1a4", "a1c3", "a4c3"]),
        &[
            ("a1a4", "4k3/8/8/N7/Q7/2N5/7K/8 b - - 1 1"),
            ("a1c3", "4k3/8/8/8/N2N4/2Q5/7K/8 b - - 1 1"),
            ("a4c3", "4k3/8/8/8/8/2N5/4N2K/Q7 b - - 1 1"),
        ],
    );
}

#[test]
fn e5_knights_are_strict() {
    example("7k/8/8/8/8/2P5/4P3/6NK w - - 0 1", 7, Some(&[]), &[]);
    let (b, all, _) = legal("7k/8/8/8/8/8/4P3/6NK w - - 0 1");
    assert!(all.contains(&"g1e2".to_string()));
    assert_eq!(after(&b, "g1e2"), "7k/8/8/8/8/2P5/4N3/7K b - - 0 1");
}

#[test]
fn e6_pawn_pushes_and_the_first_rank_ban() {
    example("4k3/8/5r2/4N3/3P4/8/8/4K3 w - - 0 1", 13, None, &[("d4e5", "4k3/8/5N2/4P3/8/8/8/4K3 b - - 0 1")]);
    example("4k3/8/5n2/4P3/3N4/2P5/8/4K3 w - - 0 1", 17, None, &[("c3d4", "4k3/8/5P2/4N3/3P4/8/8/4K3 b - - 0 1")]);
    example(
        "4k3/8/8/8/4B3/3P4/8/4K3 w - - 0 1",
        18,
        None,
        &[("e4d3", "4k3/8/8/8/8/3B4/2P5/4K3 b - - 0 1"), ("d3e4", "4k3/8/8/5B2/4P3/8/8/4K3 b - - 0 1")],
    );
    // A pawn pushed back to its second rank may step twice again.
    let b = Push::from_fen("4k3/8/8/8/8/3B4/2P5/4K3 w - - 0 1").unwrap();
    assert!(parse_move::<Push>(&b, "c2c4").is_some());
    // No pawn onto its own first rank.
    let (_, all, _) = legal("4k3/8/8/1R6/8/8/1P6/4K3 w - - 0 1");
    assert_eq!(all.len(), 19);
    assert!(!all.contains(&"b5b2".to_string()));
}

#[test]
fn e7_promotion_by_push() {
    example(
        "7k/P7/8/8/8/R7/8/K7 w - - 0 1",
        22,
        Some(&["a3a7b", "a3a7n", "a3a7q", "a3a7r"]),
        &[("a3a7q", "Q6k/R7/8/8/8/8/8/K7 b - - 0 1"), ("a3a7n", "N6k/R7/8/8/8/8/8/K7 b - - 0 1")],
    );
    example(
        "7k/3P4/1N6/8/8/8/8/K7 w - - 0 1",
        16,
        Some(&["b6d7b", "b6d7n", "b6d7q", "b6d7r"]),
        &[("b6d7q", "5Q1k/3N4/8/8/8/8/8/K7 b - - 0 1")],
    );
}

#[test]
fn e8_king_as_passive_piece() {
    let (b, all, _) = legal("k1r5/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(all.len(), 16);
    assert!(all.contains(&"e1g1".to_string()));
    assert_eq!(after(&b, "h1e1"), "k1r5/8/8/8/8/8/8/3KR3 b - - 1 1");
    let (_, all, _) = legal("k2r4/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(all.len(), 13);
    assert!(!all.contains(&"h1e1".to_string()));
    example("4k3/8/8/8/8/8/8/R1NKb3 w - - 0 1", 16, None, &[("a1c1", "4k3/8/8/8/8/8/8/2RNK3 b - - 0 1")]);
}

#[test]
fn e9_check_by_a_push() {
    let (b, mut all, _) = legal("8/8/5k2/4N3/3B4/8/8/K7 b - - 0 1");
    assert!(Push::is_check(&b));
    all.sort();
    assert_eq!(all, ["f6e6", "f6e7", "f6f5", "f6g5", "f6g7"]);
    // The checker is the bishop that would push the knight.
    assert_eq!(Push::checkers(&b).into_iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["d4"]);
}

#[test]
fn e10_pinned_by_a_push() {
    let (_, mut all, _) = legal("4k3/8/8/8/3KpN1r/8/8/8 w - - 0 1");
    all.sort();
    assert_eq!(all, ["d4c3", "d4c4", "d4c5", "d4d5", "d4e3", "d4e4", "d4e5"]);
    let (_, mut all, _) = legal("3r3k/8/8/3n4/4K3/8/8/8 w - - 0 1");
    all.sort();
    assert_eq!(all, ["e4d3", "e4e5", "e4f3", "e4f5"]);
}

#[test]
fn e11_castling_path_attacked_only_through_a_push() {
    let (_, all, _) = legal("5rk1/8/8/8/8/8/5n2/4K2R w K - 0 1");
    assert_eq!(all.len(), 11);
    assert!(!all.contains(&"e1g1".to_string()) && !all.contains(&"e1f1".to_string()));
    let (_, all, _) = legal("6k1/8/8/8/8/8/5n2/4K2R w K - 0 1");
    assert_eq!(all.len(), 14);
    assert!(all.contains(&"e1g1".to_string()));
}

#[test]
fn e12_en_passant_unaffected() {
    let (b, all, _) = legal("4k3/8/8/2NpP3/1B6/8/8/4K3 w - d6 0 1");
    assert_eq!(all.len(), 20);
    assert!(all.contains(&"e5d6".to_string()));
    assert_eq!(after(&b, "b4c5"), "4k3/8/3N4/2BpP3/8/8/8/4K3 b - - 1 1");
    let b = Push::from_fen("4k3/8/8/8/3p4/1P6/B7/4K3 w - - 0 1").unwrap();
    let fen = after(&b, "a2b3");
    assert_eq!(fen, "4k3/8/8/8/2Pp4/1B6/8/4K3 b - - 0 1");
    let (_, all, _) = legal(&fen);
    assert_eq!(all.len(), 6);
    assert!(!all.contains(&"d4c3".to_string()));
}

#[test]
fn nothing_is_pushed_off_the_board() {
    // Rook a1 cannot push along the first rank: the king would leave the board.
    let (_, all, _) = legal("7k/8/8/8/8/8/8/R6K w - - 0 1");
    assert!(!all.contains(&"a1h1".to_string()));
    // The whole back rank of the start position cannot be shoved sideways.
    let (_, all, _) = legal(Board::STARTPOS);
    for m in ["a1b1", "d1c1", "d1e1", "h1g1"] {
        assert!(!all.contains(&m.to_string()), "{m}");
    }
}

#[test]
fn a_pushed_pawn_resets_the_halfmove_clock_and_a_pushed_king_loses_rights() {
    let b = Push::from_fen("4k3/8/8/8/4B3/3P4/8/4K3 w - - 7 20").unwrap();
    assert!(after(&b, "e4d3").contains(" - - 0 20"));
    let b = Push::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    // Rook h1 pushes the king to d1: both white rights go.
    assert_eq!(after(&b, "h1e1"), "r3k2r/8/8/8/8/8/8/R2KR3 b kq - 1 1");
}

#[test]
fn only_the_stated_material_is_insufficient() {
    for (fen, dead) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/3NK3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/3BK3 w - - 0 1", true),
        ("3bk3/8/8/8/8/8/8/3BK3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", false),
        ("3nk3/8/8/8/8/8/8/3NK3 w - - 0 1", false),
    ] {
        let b = Push::from_fen(fen).unwrap();
        assert_eq!(Push::is_insufficient_material(&b), dead, "{fen}");
    }
}

/// The fast legality filter against plain make-and-test, and bulk counting
/// against the list, at every ply of seeded random games.
#[test]
fn fast_legality_agrees_with_make_and_test_in_random_games() {
    let mut rng = fastrand::Rng::with_seed(0x9054);
    let mut plies = 0;
    let games = std::env::var("FISSION_PUSH_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    for _ in 0..games {
        let mut b = Push::from_fen(Board::STARTPOS).unwrap();
        for _ in 0..200 {
            let mut fast = MoveList::new();
            Push::legal_moves(&b, &mut fast);
            let mut slow = MoveList::new();
            fission::variant::push::legal_moves_by_make_and_test(&b, &mut slow);
            let mut f: Vec<u32> = fast.iter().map(|m| m.raw()).collect();
            let mut s: Vec<u32> = slow.iter().map(|m| m.raw()).collect();
            f.sort();
            s.sort();
            assert_eq!(f, s, "{}", b.fen());
            assert_eq!(Push::count_moves(&b), fast.len() as u64, "{}", b.fen());
            // The early-exit attack test agrees with the full attacker set.
            for s in Square::all() {
                for c in [Color::White, Color::Black] {
                    let full = fission::variant::push::attackers(&b, s, c).any();
                    assert_eq!(fission::variant::push::attacked(&b, s, c), full, "{} {s} {c:?}", b.fen());
                }
            }
            // Every castling right left has its king and rook at home (rules §4).
            for rook in b.castling() {
                let c = if rook.rank() == Rank::FIRST { Color::White } else { Color::Black };
                assert_eq!(b.piece_at(rook), Some(Piece::new(c, Role::Rook)), "{}", b.fen());
                assert_eq!(b.king(c), Some(c.fold(Square::E1, Square::E8)), "{}", b.fen());
            }
            if fast.is_empty() || Push::is_insufficient_material(&b) {
                break;
            }
            b = Push::play(&b, fast[rng.usize(..fast.len())]);
            plies += 1;
        }
    }
    assert!(plies > 10_000, "{plies}");
}

/// Positions made for the bulk push count: pushes that shove our king (as
/// the target, inside a block, as the front piece), a pawn front pushed onto
/// its first rank, promotions by push with and without the king in the
/// block, pinned pushers. Each count equals plain make-and-test.
#[test]
fn bulk_push_count_edge_cases() {
    for fen in [
        "4k3/8/8/8/8/8/4K3/4R3 w - - 0 1",
        "4k3/8/8/8/8/8/4K3/2N5 w - - 0 1",
        "4k3/8/8/8/8/6r1/4K3/2N5 w - - 0 1",
        "4k3/8/8/8/4r3/8/4K3/4Q3 w - - 0 1",
        "7k/8/8/8/8/4R3/4P3/K7 w - - 0 1",
        "k7/4p3/4r3/8/8/8/8/K7 b - - 0 1",
        "4k3/1P6/B7/8/8/8/8/4K3 w - - 0 1",
        "7k/3P4/2K5/1B6/8/8/8/8 w - - 0 1",
        "3k4/8/8/8/8/8/1Q6/KB5r w - - 0 1",
        "4k3/8/b7/8/8/3P4/2P1K3/8 w - - 0 1",
        "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
    ] {
        let b = Push::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut slow = MoveList::new();
        fission::variant::push::legal_moves_by_make_and_test(&b, &mut slow);
        let mut fast = MoveList::new();
        Push::legal_moves(&b, &mut fast);
        assert_eq!(fast.len(), slow.len(), "{fen}");
        assert_eq!(Push::count_moves(&b), slow.len() as u64, "{fen}");
        for &m in fast.iter() {
            let after = Push::play(&b, m);
            let mut l = MoveList::new();
            fission::variant::push::legal_moves_by_make_and_test(&after, &mut l);
            assert_eq!(Push::count_moves(&after), l.len() as u64, "{}", after.fen());
        }
    }
}
