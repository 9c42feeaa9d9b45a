//! FEN parsing and formatting: round trips, descriptive errors, and no panic
//! on any input (property tests).

use crate::common;

use fission::board::CastlingMode;
use fission::{Atomic, Bitboard, Board, Chess, Dynamo, FenError, Push, Square, Variant};
use proptest::prelude::*;

#[test]
fn suite_positions_round_trip() {
    for file in ["chess.perft", "atomic.perft"] {
        for e in common::load_suite(file) {
            let b = Board::from_fen(&e.fen).unwrap();
            let again = Board::from_fen(&b.fen()).unwrap();
            assert_eq!(b, again, "{}", e.id);
            assert_eq!(b.key(), again.key());
            assert_eq!(b.key(), b.compute_key());
        }
    }
}

#[test]
fn start_position_formats_exactly() {
    assert_eq!(Board::startpos().fen(), Board::STARTPOS);
}

#[test]
fn epd_and_five_fields_accepted() {
    let b = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
    assert_eq!(b.fen(), Board::STARTPOS);
    let b = Board::from_fen("8/8/8/8/8/8/8/K6k b - - 12").unwrap();
    assert_eq!(b.halfmoves(), 12);
}

#[test]
fn errors_are_descriptive() {
    let cases: &[(&str, FenError)] = &[
        ("", FenError::FieldCount(0)),
        ("8/8/8/8/8/8/8/K6k w - - 0 1 extra", FenError::FieldCount(7)),
        ("8/8/8/8/8/8/K6k w - - 0 1", FenError::RankCount(7)),
        ("8/8/8/8/8/8/8/K5k w - - 0 1", FenError::RankLength { rank: 7 }),
        ("8/8/8/8/8/8/8/K6kk w - - 0 1", FenError::RankLength { rank: 7 }),
        ("8/8/8/8/8/8/8/K6x w - - 0 1", FenError::BadPiece('x')),
        ("8/8/8/8/8/8/8/K6k x - - 0 1", FenError::BadTurn("x".into())),
        ("8/8/8/8/8/8/8/K6k w KX - 0 1", FenError::BadCastling("KX".into())),
        ("8/8/8/8/8/8/8/K6k w - e4 0 1", FenError::BadEnPassant("e4".into())),
        ("8/8/8/8/8/8/8/K6k w - - -1 1", FenError::BadClock("-1".into())),
        ("8/8/8/8/8/8/8/K6k w - - 0 99999999999", FenError::BadClock("99999999999".into())),
        ("P7/8/8/8/8/8/8/K6k w - - 0 1", FenError::PawnOnBackRank(fission::Square::A8)),
        ("8/8/8/8/8/8/8/KK5k w - - 0 1", FenError::TooManyKings(fission::Color::White)),
    ];
    for (fen, want) in cases {
        assert_eq!(Board::from_fen(fen).as_ref().err(), Some(want), "{fen}");
        assert!(!want.to_string().is_empty());
    }
    assert_eq!(Chess::from_fen("8/8/8/8/8/8/8/7k w - - 0 1").err(), Some(FenError::MissingKing(fission::Color::White)));
    assert_eq!(Chess::from_fen("k7/8/8/8/8/8/8/R6K w - - 0 1").err(), Some(FenError::OppositeCheck));
    // In atomic, kings that touch cannot check each other.
    assert!(Atomic::from_fen("8/8/8/8/8/8/R7/kK6 w - - 0 1").is_ok());
    assert_eq!(Atomic::from_fen("8/8/8/8/8/8/R7/k1K5 w - - 0 1").err(), Some(FenError::OppositeCheck));
}

#[test]
fn checks_no_move_can_give_are_refused_in_chess() {
    let impossible = [
        ("4k3/8/8/8/8/8/8/r3K2r w - - 0 1", 2),   // both sides of one line
        ("4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1", 2), // two knights: nothing was uncovered
        ("4k3/8/8/8/8/3n4/3p4/4K3 w - - 0 1", 2), // knight and pawn
        ("4k3/8/8/8/8/3n4/8/r3K2r w - - 0 1", 3), // three
        ("4K3/8/8/8/8/8/8/R3k2R b - - 0 1", 2),
    ];
    for (fen, n) in impossible {
        assert_eq!(Chess::from_fen(fen).err(), Some(FenError::ImpossibleCheck(n)), "{fen}");
    }
    let possible = [
        "4k3/8/8/8/8/8/3p4/r3K3 w - - 0 1", // pawn moved, rook uncovered
        "4k3/8/8/8/8/3n4/8/4K2r w - - 0 1", // knight moved, rook uncovered
        "4k3/8/8/8/8/8/8/4K2r w - - 0 1",   // one check
        "4k3/8/8/8/1b6/8/8/r3K3 w - - 0 1", // rook and bishop on different lines
        "3rk3/8/8/8/8/8/8/4K3 w - - 0 1",   // no check
    ];
    for fen in possible {
        assert!(Chess::from_fen(fen).is_ok(), "{fen}");
    }
    // Explosions (atomic) and block pushes (push) move several pieces at
    // once, so the chess reading does not hold there: accepted.
    assert!(Atomic::from_fen("4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1").is_ok());
    assert!(Push::from_fen("4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1").is_ok());
}

#[test]
fn castling_rights_without_pieces_are_dropped() {
    let b = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1").unwrap();
    assert_eq!(b.castling_fen(), "-");
    let b = Board::from_fen("r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1").unwrap();
    assert_eq!(b.castling_fen(), "Kq");
}

#[test]
fn en_passant_kept_only_when_capturable() {
    let b = Board::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
    assert_eq!(b.ep_square().map(|s| s.to_string()), Some("e3".into()));
    let b = Board::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").unwrap();
    assert_eq!(b.ep_square(), None);
}

const VALID: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/8/8/8/3pP3/8/8/K6k b - e3 0 1",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn random_strings_never_panic(s in "\\PC{0,100}") {
        let _ = Board::from_fen(&s);
        let _ = Atomic::from_fen(&s);
        let _ = Chess::from_fen(&s);
        let _ = Push::from_fen(&s);
        let _ = Dynamo::from_fen(&s);
    }

    #[test]
    fn dynamo_fen_like_strings_never_panic(s in "[1-8pnbrqkPNBRQK/]{1,30} [wb] [0-9]{1,3} [a-zé]{0,5} [-wbpnbrqkaeh1-8./é]{0,20}") {
        if let Ok(b) = Dynamo::from_fen(&s) {
            // Whatever parses formats and parses back to the same position.
            let again = Dynamo::from_fen(&Dynamo::fen(&b)).unwrap();
            prop_assert_eq!(Dynamo::fen(&again), Dynamo::fen(&b));
            let mut moves = fission::MoveList::new();
            Dynamo::legal_moves(&b, &mut moves);
            for m in moves.iter().take(20) { let _ = Dynamo::play(&b, *m); }
        }
    }

    #[test]
    fn fen_like_strings_never_panic(s in "[1-9pnbrqkPNBRQKx/ ]{0,40} [wb-] [KQkqA-H-]{0,5} [a-h1-8-]{1,2} [0-9-]{1,3} [0-9]{1,3}") {
        if let Ok(b) = Board::from_fen(&s) {
            // Whatever parses formats and parses back to the same board.
            prop_assert_eq!(Board::from_fen(&b.fen()).unwrap(), b);
        }
    }

    #[test]
    fn mutated_valid_fens_never_panic(idx in 0usize..3, pos in 0usize..80, byte in any::<u8>(), cut in any::<bool>()) {
        let mut bytes = VALID[idx].as_bytes().to_vec();
        let p = pos % bytes.len();
        if cut { bytes.truncate(p); } else { bytes[p] = byte; }
        let s = String::from_utf8_lossy(&bytes);
        if let Ok(b) = Chess::from_fen(&s) {
            let mut moves = fission::MoveList::new();
            Chess::legal_moves(&b, &mut moves);
            for m in moves { let _ = Chess::play(&b, m); }
        }
        if let Ok(b) = Atomic::from_fen(&s) {
            let mut moves = fission::MoveList::new();
            Atomic::legal_moves(&b, &mut moves);
            for m in moves { let _ = Atomic::play(&b, m); }
        }
    }
}

#[test]
fn malformed_castling_fields_are_refused_whatever_the_board() {
    let with_rooks = "r3k2r/8/8/8/8/8/8/R3K2R";
    let without = "4k3/8/8/8/8/8/8/4K3";
    for field in ["KKQQ", "KK", "QK", "kK", "qk", "Kqk", "KQkqK", "HH", "KX", "K-", "KQkq1"] {
        for board in [with_rooks, without] {
            let fen = format!("{board} w {field} - 0 1");
            assert!(
                matches!(Board::from_fen(&fen), Err(FenError::BadCastling(_)) | Err(FenError::FieldCount(_))),
                "{fen} accepted"
            );
        }
    }
    // Two letters for one rook, two rights on one side of the king.
    assert!(Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KH - 0 1").is_err());
    assert!(Board::from_fen_mode("4k3/8/8/8/8/8/8/R3K1RR w HG - 0 1", CastlingMode::Chess960).is_err());
    // Well formed, in any of the usual spellings.
    for field in ["KQkq", "Kk", "Qq", "HAha", "Ha", "-", "AHah"] {
        let fen = format!("{with_rooks} w {field} - 0 1");
        assert!(Board::from_fen(&fen).is_ok(), "{fen} refused");
    }
    let b = Board::from_fen(&format!("{with_rooks} w HAha - 0 1")).unwrap();
    assert_eq!(b.castling_fen(), "KQkq");
}

#[test]
fn dynamo_flags_and_records_are_checked_and_named() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0";
    assert!(Dynamo::from_fen(&format!("{start} ahah -")).is_ok());
    assert!(Dynamo::from_fen(&format!("{start} iiii -")).is_ok());
    for flags in ["zzzz", "ahaj", "AHAH", "aha", "ahahh"] {
        assert_eq!(
            Dynamo::from_fen(&format!("{start} {flags} -")).err(),
            Some(FenError::BadCastlingFlags(flags.to_string())),
            "{flags}"
        );
    }
    let err = Dynamo::from_fen(&format!("{start} ahah wpe4")).unwrap_err();
    assert_eq!(err, FenError::BadLastTurn("wpe4".into()));
    assert_eq!(err.to_string(), "invalid last-turn record \"wpe4\"");
}

#[test]
fn chess960_castling_fields() {
    let c960 = |fen: &str| Board::from_fen_mode(fen, CastlingMode::Chess960);
    // X-FEN: K and Q are the outermost rooks; an inner rook by its file.
    let b = c960("1r2k1rr/8/8/8/8/8/8/RR2K1R1 w KQkq - 0 1").unwrap();
    assert_eq!(b.castling(), Bitboard::EMPTY.with(Square::A1).with(Square::G1).with(Square::B8).with(Square::H8));
    assert_eq!(b.castling_fen(), "KQkq");
    let b = c960("1r2k1rr/8/8/8/8/8/8/RR2K1R1 w BGgb - 0 1").unwrap();
    assert_eq!(b.castling_fen(), "KBgq");
    // Shredder-FEN of a 960 start position, written back as X-FEN.
    let b = c960("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9").unwrap();
    assert_eq!(b.castling_fen(), "KQkq");
    assert_eq!(Chess::from_fen_mode(&b.fen(), CastlingMode::Chess960).unwrap(), b);
    // Standard mode keeps only orthodox rights.
    let b = Board::from_fen("1r2k1rr/8/8/8/8/8/8/RR2K1R1 w KQkq - 0 1").unwrap();
    assert_eq!(b.castling_fen(), "Qk");
}
