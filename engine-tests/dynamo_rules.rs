//! Dynamo rules on the worked examples of the rules text (§13, §14): the
//! complete start-position divide, the undo rule, the castling collision,
//! the phantom and missed checks, the site's end-of-game rule, promotions
//! chosen by the mover, and byte-identical reference FENs.

use crate::common;

use fission::notation::{move_to_uci, parse_move};
use fission::{Board, Dynamo, MoveList, Variant};
use std::collections::BTreeMap;

fn turns(fen: &str) -> (Board, Vec<String>) {
    let b = Dynamo::from_fen(fen).unwrap();
    let mut l = MoveList::new();
    Dynamo::legal_moves(&b, &mut l);
    let mut v: Vec<String> = l.iter().map(|&m| move_to_uci(m)).collect();
    v.sort();
    (b, v)
}

fn play(b: &Board, t: &str) -> Board {
    let m = parse_move::<Dynamo>(b, t).unwrap_or_else(|| panic!("{t} not legal in {}", Dynamo::fen(b)));
    Dynamo::play(b, m)
}

#[test]
fn start_position_divide_matches_section_14() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/engine-tests/data/dynamo_start_divide.txt"))
            .unwrap();
    let mut expected: BTreeMap<String, u64> = BTreeMap::new();
    let mut first_parts = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut it = line.split_whitespace();
        let part1 = it.next().unwrap();
        let n: usize = it.next().unwrap().parse().unwrap();
        first_parts += 1;
        let seconds: Vec<&str> = it.collect();
        assert_eq!(seconds.len(), n);
        for s in seconds {
            let (second, count) = s.rsplit_once(':').unwrap();
            let turn = if second == "-" || second == "auto" { part1.to_string() } else { format!("{part1},{second}") };
            expected.insert(turn, count.parse().unwrap());
        }
    }
    assert_eq!(first_parts, 57);
    let (b, ours) = turns(Dynamo::start_fen());
    assert_eq!(ours.len(), 174);
    assert_eq!(ours, expected.keys().cloned().collect::<Vec<_>>());
    for (t, n) in &expected {
        let after = play(&b, t);
        assert_eq!(Dynamo::count_moves(&after), *n, "{t}");
    }
    assert_eq!(expected.values().sum::<u64>(), 28_923);
}

#[test]
fn fen_round_trips_byte_for_byte() {
    for e in common::load_suite("dynamo.perft") {
        let b = Dynamo::from_fen(&e.fen).unwrap();
        assert_eq!(Dynamo::fen(&b), e.fen, "{}", e.id);
    }
    // A push and follow-up produce the reference's own FEN and record.
    let b = Dynamo::from_fen("rnbqk1nr/ppppppbp/6p1/8/3B4/1P6/P1PPPPPP/RN1QKBNR b 0 ahah -").unwrap();
    let after = play(&b, "d4b2,g7d4");
    assert_eq!(Dynamo::fen(&after), "rnbqk1nr/pppppp1p/6p1/8/3b4/1P6/PBPPPPPP/RN1QKBNR w 1 ahah wbb2.bbd4/wbd4.bbg7");
    // A standard FEN is accepted: rights become flags, no last turn.
    let b = Dynamo::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b Kq - 3 10").unwrap();
    assert_eq!(Dynamo::fen(&b), "r3k2r/8/8/8/8/8/8/R3K2R b 19 ihai -");
}

#[test]
fn undo_rule_forbids_exactly_reversing_the_last_turn() {
    let (b, with_last) = turns("rnbqk1nr/pppppp1p/6p1/8/3b4/1P6/PBPPPPPP/RN1QKBNR w 1 ahah wbb2.bbd4/wbd4.bbg7");
    assert_eq!(with_last.len(), 141);
    assert!(!with_last.contains(&"d4g7,b2d4".to_string()));
    assert!(with_last.contains(&"d4g7".to_string()) && with_last.contains(&"d4g7,b2c3".to_string()));
    let _ = b;
    let (_, without) = turns("rnbqk1nr/pppppp1p/6p1/8/3b4/1P6/PBPPPPPP/RN1QKBNR w 1 ahah -");
    assert_eq!(without.len(), 142);
    // One-part turns: f3g1 alone would undo g1f3; pushing and following is fine.
    let (_, t) = turns("rnbqkb1r/pppppppp/8/4n3/8/5N2/PPPPPPPP/RNBQKB1R b 0 ahah wnf3/wng1");
    assert_eq!(t.len(), 184);
    assert!(t.contains(&"f3g1,e5f3".to_string()) && !t.contains(&"f3g1".to_string()));
}

#[test]
fn castling_hides_the_own_king_push_to_its_key_square() {
    let (_, t) = turns("r3k2r/8/8/8/8/8/8/R3K2R w 0 ahah -");
    assert_eq!(t.len(), 76);
    for s in ["e1g1", "e1c1", "e1d1", "e1b1", "e1f1", "e1b1,h1c1", "e1f1,a1e1"] {
        assert!(t.contains(&s.to_string()), "{s}");
    }
    // King-takes-own-rook is accepted as castling on input.
    let b = Dynamo::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w 0 ahah -").unwrap();
    assert_eq!(parse_move::<Dynamo>(&b, "e1h1"), parse_move::<Dynamo>(&b, "e1g1"));
    assert!(parse_move::<Dynamo>(&b, "e1g1").is_some());
}

#[test]
fn phantom_knight_check_and_missed_king_checks() {
    let (b, t) = turns("4k3/6n1/8/5K2/8/8/8/R6R w 0 iiii -");
    assert!(Dynamo::is_check(&b));
    assert_eq!(t, ["f5e4", "f5e5", "f5f4", "f5f6", "f5g4", "f5g5", "f5g6"]);
    let (b, t) = turns("8/8/8/8/8/8/8/Kk6 w 0 iiii -");
    assert!(!Dynamo::is_check(&b));
    assert_eq!(t, ["a1a2", "a1b2", "b1c1", "b1c1,a1b1"]);
}

#[test]
fn no_turn_with_an_own_first_part_is_the_end_of_the_game() {
    for fen in ["8/8/8/8/8/8/6k1/7K w 0 iiii -", "8/8/8/8/8/8/1k6/K7 w 0 iiii -", "8/4B3/8/8/6Qk/8/4N3/K7 b 0 iiii -"] {
        let (b, t) = turns(fen);
        assert!(t.is_empty(), "{fen}: {t:?}");
        assert!(Dynamo::is_check(&b));
        assert_eq!(Dynamo::outcome(&b), Some(fission::Outcome::Decisive { winner: !b.turn() }));
    }
}

#[test]
fn the_mover_chooses_the_promotion_of_an_enemy_pawn() {
    let (_, t) = turns("4k3/8/8/8/8/8/p7/R3K3 w 0 iiii -");
    for s in ["a1--,a2--", "a1--,a2a1b", "a1--,a2a1n", "a1--,e1d1", "a1--,e1c1", "a1--,e1a1"] {
        assert!(t.contains(&s.to_string()), "{s}");
    }
    for s in ["a1--,a2a1q", "a1--,a2a1r", "a1--,e1b1"] {
        assert!(!t.contains(&s.to_string()), "{s}");
    }
    // A pawn on its first rank steps one or two squares.
    let (_, t) = turns("4k3/8/8/8/8/8/8/K3P3 w 0 iiii -");
    assert!(t.contains(&"e1e2".to_string()) && t.contains(&"e1e3".to_string()));
}

#[test]
fn knight_pulls_along_its_line() {
    let (_, t) = turns("rnbqkbnr/ppp1pppp/8/3p4/8/2N5/PPPPPPPP/R1BQKBNR w 0 ahah -");
    for s in ["c3b1,d5c3", "c3e4,a2c3", "c3a4,e2c3", "c3b5,d1c3"] {
        assert!(t.contains(&s.to_string()), "{s}");
    }
}

/// `is_legal`, which generates only the turns from the move's first square,
/// agrees with membership in the full list: for every legal turn, and for
/// the turns of other positions of the same games (hash moves of other
/// positions are what it is asked about in the search).
#[test]
fn is_legal_agrees_with_the_legal_list() {
    let (mut legal, mut foreign) = (0, 0);
    let games = random_games(62, 6, 80, |rng, all| all[rng.usize(..all.len())]);
    let mut previous = &MoveList::new();
    for (b, all) in &games {
        for &m in all {
            assert!(Dynamo::is_legal(b, m), "{} in {}", move_to_uci(m), Dynamo::fen(b));
            legal += 1;
        }
        for &m in previous {
            assert_eq!(Dynamo::is_legal(b, m), all.contains(&m), "{} in {}", move_to_uci(m), Dynamo::fen(b));
            foreign += usize::from(!all.contains(&m));
        }
        previous = all;
    }
    assert!(legal > 10_000 && foreign > 10_000, "{legal} legal, {foreign} not");
}

/// The positions of `games` random games of at most `plies` turns from the
/// start, each with its legal turns (never none), the turn played chosen
/// by `choose` among them.
fn random_games(
    seed: u64,
    games: usize,
    plies: usize,
    mut choose: impl FnMut(&mut fastrand::Rng, &MoveList) -> fission::types::Move,
) -> Vec<(Board, MoveList)> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut b = Dynamo::from_fen(Dynamo::start_fen()).unwrap();
        for _ in 0..plies {
            let mut all = MoveList::new();
            Dynamo::legal_moves(&b, &mut all);
            if all.is_empty() {
                break;
            }
            let next = Dynamo::play(&b, choose(&mut rng, &all));
            out.push((b, all));
            b = next;
        }
    }
    out
}

/// What quiescence's generator relies on to skip quiet first parts when it
/// is not asked for checks: after a first part that neither exits nor
/// promotes, no legal second part exits or promotes. Checked on every legal
/// turn along random games, and on the positions of the perft suites.
#[test]
fn no_exit_or_promotion_follows_a_quiet_first_part() {
    use fission::types::MoveKind;
    // Exits and promotions half the time, to reach emptier boards.
    let games = random_games(61, 12, 150, |rng, all| {
        let noisy: Vec<_> = all.iter().copied().filter(|&m| m.kind() != MoveKind::Normal).collect();
        if rng.bool() && !noisy.is_empty() { noisy[rng.usize(..noisy.len())] } else { all[rng.usize(..all.len())] }
    });
    let mut boards: Vec<Board> = games.into_iter().map(|(b, _)| b).collect();
    let suites = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft-suites/dynamo.perft")).unwrap();
    for line in suites.lines().filter_map(|l| l.strip_prefix("epd ")) {
        boards.push(Dynamo::from_fen(line.trim()).unwrap());
    }
    let mut quiet_firsts = 0;
    for b in &boards {
        let mut all = MoveList::new();
        Dynamo::legal_moves(b, &mut all);
        for &m in &all {
            let quiet_first = matches!(m.kind(), MoveKind::TwoDisplacements | MoveKind::DisplacementExit)
                && (m.promotion_role().is_none() || m.promotes_second());
            if quiet_first {
                quiet_firsts += 1;
                assert!(
                    m.kind() != MoveKind::DisplacementExit && !m.promotes_second(),
                    "{} after a quiet first part in {}",
                    move_to_uci(m),
                    Dynamo::fen(b)
                );
            }
        }
    }
    assert!(boards.len() > 1000 && quiet_firsts > 10_000, "{} boards, {quiet_firsts} turns", boards.len());
}

/// Quiescence's generator: along random games (and with the undo rule in
/// force, as every position but the first has a last turn), the noisy turns
/// are exactly the legal turns with a part that gains material (an enemy
/// piece leaves the board, a pawn of the mover's promotes), plus, when
/// asked, exactly the legal turns without an exit or a promotion that
/// check. The turns left out, whose every exit or promotion loses material,
/// are most of the exits.
#[test]
fn noisy_turns_are_the_legal_turns_that_gain_material_or_check() {
    use fission::types::{Move, MoveKind};
    let noisy = |m: Move| {
        m.promotion_role().is_some()
            || matches!(
                m.kind(),
                MoveKind::Exit | MoveKind::DisplacementExit | MoveKind::ExitDisplacement | MoveKind::TwoExits
            )
    };
    // Whether the mover owns the piece a part starts from: the first
    // part's is on `b`; the second part's too, unless the first part moved
    // it there.
    let own = |b: &fission::Board, m: Move, second: bool| {
        let sq = if second { m.second_from() } else { m.from() };
        let on_b = if second && m.kind() != MoveKind::ExitDisplacement && m.kind() != MoveKind::TwoExits && sq == m.to()
        {
            m.from()
        } else {
            sq
        };
        b.piece_at(on_b).expect("a part starts on a piece").color == b.turn()
    };
    let gains = |b: &fission::Board, m: Move| {
        let first_exit = matches!(m.kind(), MoveKind::Exit | MoveKind::ExitDisplacement | MoveKind::TwoExits);
        let second_exit = matches!(m.kind(), MoveKind::DisplacementExit | MoveKind::TwoExits);
        let promo = m.promotion_role().is_some();
        (first_exit && !own(b, m, false))
            || (second_exit && !own(b, m, true))
            || (promo && own(b, m, m.promotes_second()))
    };
    // Uniform random games, and longer ones that play a noisy turn half the
    // time, so that boards thin out and pawns reach their last ranks.
    let mut boards = random_games(27, 6, 60, |rng, all| all[rng.usize(..all.len())]);
    boards.extend(random_games(28, 8, 120, |rng, all| {
        let noisy: Vec<Move> = all.iter().copied().filter(|&m| noisy(m)).collect();
        if rng.bool() && !noisy.is_empty() { noisy[rng.usize(..noisy.len())] } else { all[rng.usize(..all.len())] }
    }));
    let (mut checked, mut losing, mut promotions) = (0, 0, 0);
    for (b, all) in &boards {
        for checks in [false, true] {
            let mut got = MoveList::new();
            Dynamo::noisy_moves(b, checks, &mut got);
            let mut got: Vec<String> = got.iter().map(|&m| move_to_uci(m)).collect();
            let mut want: Vec<String> = all
                .iter()
                .filter(|&&m| gains(b, m) || (checks && !noisy(m) && Dynamo::is_check(&Dynamo::play(b, m))))
                .map(|&m| move_to_uci(m))
                .collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "checks {checks} in {}", Dynamo::fen(b));
            checked += want.len();
            losing += all.iter().filter(|&&m| noisy(m) && !gains(b, m)).count();
            promotions += all.iter().filter(|&&m| m.promotion_role().is_some() && gains(b, m)).count();
        }
    }
    assert!(checked > 1000 && losing > checked, "{checked} kept, {losing} losing noisy turns left out");
    assert!(promotions > 500, "{promotions} promotions of the mover's pawns");
}
