//! Differential tests against shakmaty: random games (seeded) in chess and
//! atomic, comparing the sorted legal move lists, check, the board and the
//! game outcome at every ply.

use fission::uci::notation::move_to_uci;
use fission::{Board, MoveList, Outcome, Variant};
use shakmaty::{self as sm, CastlingMode, EnPassantMode, Position};

const GAMES: usize = 1000;
const MAX_PLIES: usize = 400;

fn sm_outcome(o: sm::Outcome) -> Option<Outcome> {
    match o {
        sm::Outcome::Known(sm::KnownOutcome::Decisive { winner }) => Some(Outcome::Decisive {
            winner: if winner == sm::Color::White { fission::Color::White } else { fission::Color::Black },
        }),
        sm::Outcome::Known(sm::KnownOutcome::Draw) => Some(Outcome::Draw),
        sm::Outcome::Unknown => None,
    }
}

/// Plays `GAMES` random games from the start position, choosing each move at
/// random (seeded) and comparing both implementations at every ply.
fn random_games<V: Variant, P: Position + Clone + Default>(seed: u64) -> (usize, usize) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut plies = 0;
    let mut decisive = 0;
    for game in 0..GAMES {
        let mut ours: Board = V::from_fen(V::start_fen()).unwrap();
        let mut theirs = P::default();
        for ply in 0..MAX_PLIES {
            let ctx = || format!("game {game} ply {ply}: {}", ours.fen());
            let mut list = MoveList::new();
            V::legal_moves(&ours, &mut list);
            let mut mine: Vec<String> = list.iter().map(|&m| move_to_uci(m)).collect();
            let mut refs: Vec<String> =
                theirs.legal_moves().iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
            mine.sort();
            refs.sort();
            assert_eq!(mine, refs, "legal moves differ, {}", ctx());
            assert_eq!(V::count_moves(&ours), list.len() as u64, "{}", ctx());
            assert_eq!(V::is_check(&ours), theirs.is_check(), "check differs, {}", ctx());
            let sfen = sm::fen::Fen::from_position(&theirs, EnPassantMode::Legal).to_string();
            assert_eq!(
                ours.fen().split(' ').take(3).collect::<Vec<_>>(),
                sfen.split(' ').take(3).collect::<Vec<_>>(),
                "board differs, {}",
                ctx()
            );
            let outcome = V::outcome(&ours);
            assert_eq!(outcome, sm_outcome(theirs.outcome()), "outcome differs, {}", ctx());
            if outcome.is_some() {
                if matches!(outcome, Some(Outcome::Decisive { .. })) {
                    decisive += 1;
                }
                break;
            }
            let m = list[rng.usize(..list.len())];
            let text = move_to_uci(m);
            let sm_move = text
                .parse::<sm::uci::UciMove>()
                .unwrap()
                .to_move(&theirs)
                .unwrap_or_else(|e| panic!("shakmaty rejects {text}: {e}, {}", ctx()));
            ours = V::play(&ours, m);
            theirs.play_unchecked(sm_move);
            plies += 1;
        }
    }
    (plies, decisive)
}

#[test]
fn chess_random_games_match_shakmaty() {
    let (plies, _) = random_games::<fission::Chess, sm::Chess>(0xC4E55);
    assert!(plies > GAMES * 50, "games were too short to test much: {plies} plies");
}

#[test]
fn atomic_random_games_match_shakmaty() {
    let (plies, decisive) = random_games::<fission::Atomic, sm::variant::Atomic>(0xA70A1C);
    assert!(plies > GAMES * 20, "games were too short to test much: {plies} plies");
    assert!(decisive > GAMES / 4, "too few decisive games: {decisive}");
}
