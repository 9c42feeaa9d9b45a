//! Differential tests against shakmaty: random games (seeded) in chess and
//! atomic, comparing the sorted legal move lists, check, the board and the
//! game outcome at every ply.

use fission::notation::move_to_uci_mode;
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

/// The back rank of Chess960 start position `n` (0-959, Scharnagl's
/// numbering: 518 is the orthodox one).
fn chess960_back_rank(n: usize) -> String {
    let mut rank = [' '; 8];
    let mut n = n;
    rank[(n % 4) * 2 + 1] = 'B';
    n /= 4;
    rank[(n % 4) * 2] = 'B';
    n /= 4;
    let place = |rank: &mut [char; 8], piece: char, k: usize| {
        let sq = (0..8).filter(|&i| rank[i] == ' ').nth(k).unwrap();
        rank[sq] = piece;
    };
    place(&mut rank, 'Q', n % 6);
    n /= 6;
    let knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n];
    // The second knight's index counts the squares left after the first.
    place(&mut rank, 'N', knights.0);
    place(&mut rank, 'N', knights.1 - 1);
    for piece in ['R', 'K', 'R'] {
        place(&mut rank, piece, 0);
    }
    rank.iter().collect()
}

fn chess960_fen(n: usize) -> String {
    let white = chess960_back_rank(n);
    format!("{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1", white.to_lowercase())
}

/// Plays `games` random games, each from `start(game)`, choosing each move
/// at random (seeded) and comparing both implementations at every ply.
fn random_games<V: Variant, P: Position + Clone + sm::FromSetup>(
    seed: u64,
    games: usize,
    mode: CastlingMode,
    start: impl Fn(usize) -> String,
) -> (usize, usize) {
    let ours_mode = match mode {
        CastlingMode::Standard => fission::board::CastlingMode::Standard,
        CastlingMode::Chess960 => fission::board::CastlingMode::Chess960,
    };
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut plies = 0;
    let mut decisive = 0;
    for game in 0..games {
        let fen = start(game);
        let mut ours: Board = V::from_fen_mode(&fen, ours_mode).unwrap();
        let mut theirs: P = fen.parse::<sm::fen::Fen>().unwrap().into_position(mode).unwrap();
        for ply in 0..MAX_PLIES {
            let ctx = || format!("game {game} ply {ply}: {}", ours.fen());
            let mut list = MoveList::new();
            V::legal_moves(&ours, &mut list);
            let mut mine: Vec<String> = list.iter().map(|&m| move_to_uci_mode(m, ours_mode)).collect();
            let mut refs: Vec<String> = theirs.legal_moves().iter().map(|m| m.to_uci(mode).to_string()).collect();
            mine.sort();
            refs.sort();
            assert_eq!(mine, refs, "legal moves differ, {}", ctx());
            assert_eq!(V::count_moves(&ours), list.len() as u64, "{}", ctx());
            assert_eq!(V::is_check(&ours), theirs.is_check(), "check differs, {}", ctx());
            let sfen = sm::fen::Fen::from_position(&theirs, EnPassantMode::Legal).to_string();
            // Chess960 castling fields have several spellings: compare the board and turn.
            let fields = if mode == CastlingMode::Standard { 3 } else { 2 };
            assert_eq!(
                ours.fen().split(' ').take(fields).collect::<Vec<_>>(),
                sfen.split(' ').take(fields).collect::<Vec<_>>(),
                "board differs, {}",
                ctx()
            );
            assert_eq!(ours.castling().0, theirs.castles().castling_rights().0, "castling rights differ, {}", ctx());
            let outcome = V::outcome(&ours);
            assert_eq!(outcome, sm_outcome(theirs.outcome()), "outcome differs, {}", ctx());
            if outcome.is_some() {
                if matches!(outcome, Some(Outcome::Decisive { .. })) {
                    decisive += 1;
                }
                break;
            }
            let m = list[rng.usize(..list.len())];
            let text = move_to_uci_mode(m, ours_mode);
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

fn standard_games<V: Variant, P: Position + Clone + sm::FromSetup>(seed: u64) -> (usize, usize) {
    random_games::<V, P>(seed, GAMES, CastlingMode::Standard, |_| V::start_fen().to_string())
}

#[test]
fn chess960_numbering_is_scharnagls() {
    assert_eq!(chess960_back_rank(518), "RNBQKBNR");
    assert_eq!(chess960_back_rank(0), "BBQNNRKR");
    assert_eq!(chess960_back_rank(959), "RKRNNQBB");
}

#[test]
fn chess960_random_games_match_shakmaty() {
    let (plies, _) = random_games::<fission::Chess, sm::Chess>(0x960C, GAMES / 2, CastlingMode::Chess960, |g| {
        chess960_fen(g * 7 % 960)
    });
    assert!(plies > GAMES / 2 * 50, "games were too short to test much: {plies} plies");
}

#[test]
fn atomic960_random_games_match_shakmaty() {
    let (plies, _) =
        random_games::<fission::Atomic, sm::variant::Atomic>(0x960A, GAMES / 2, CastlingMode::Chess960, |g| {
            chess960_fen(g * 11 % 960)
        });
    assert!(plies > GAMES / 2 * 20, "games were too short to test much: {plies} plies");
}

#[test]
fn chess_random_games_match_shakmaty() {
    let (plies, _) = standard_games::<fission::Chess, sm::Chess>(0xC4E55);
    assert!(plies > GAMES * 50, "games were too short to test much: {plies} plies");
}

#[test]
fn atomic_random_games_match_shakmaty() {
    let (plies, decisive) = standard_games::<fission::Atomic, sm::variant::Atomic>(0xA70A1C);
    assert!(plies > GAMES * 20, "games were too short to test much: {plies} plies");
    assert!(decisive > GAMES / 4, "too few decisive games: {decisive}");
}
