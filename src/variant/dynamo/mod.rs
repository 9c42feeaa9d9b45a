//! Dynamo, as the vchess site plays it (its Dynamo page and reference code;
//! `docs/rules/dynamo.md` is authoritative and reproduces the reference's
//! quirks on purpose; section numbers below are that file's). Nothing is
//! captured: a turn is a first part (an own move, an exit off the board,
//! castling, or a push of any piece by one of ours) and an optional second part
//! (the pusher following, or a pull of a piece behind the piece that moved).
//! Kings never leave the board; a king "in check" is one the reference's
//! patterns say could be sent off, and the only win is mate.
//!
//! A turn is one `Move` (one ply): the two parts are encoded in its two
//! halves (see `types::moves`), so the search, the hash table and repetition
//! see alternating sides as in every other variant. The last turn's record
//! (for the rule that forbids exactly undoing it) and the castling flags live
//! in `Board::extra`, so they are part of the position and of its key.

mod check;
mod geometry;
mod parts;
mod state;

use super::{Variant, VariantKind};
use crate::board::{Board, FenError};
use crate::types::{Bitboard, Color, Move, MoveKind, MoveList, Piece, Rank, Role, Square};
use parts::{FirstInfo, Part, Parts};
use state::{Flags, NO_FLAG, Record, State};
use std::cell::Cell;

#[derive(Clone, Copy, Debug, Default)]
pub struct Dynamo;

/// A complete turn, before encoding.
#[derive(Clone, Copy, Debug)]
struct Turn {
    first: Part,
    second: Option<Part>,
}

fn encode(t: Turn) -> Move {
    use Part::*;
    let promo = |p: &Part| match *p {
        Disp { promo, .. } => promo,
        _ => None,
    };
    let base = match (t.first, t.second) {
        (Castle { king, king_to, rook, rook_to }, _) => return Move::castle(king, king_to, rook, rook_to),
        (Disp { from, to, .. }, None) => Move::new(from, to, MoveKind::Normal),
        (Exit { from }, None) => Move::new(from, Square::A1, MoveKind::Exit),
        (Disp { from, to, .. }, Some(Disp { from: f2, to: t2, .. })) => {
            Move::new(from, to, MoveKind::TwoDisplacements).with_second(f2, t2)
        }
        (Disp { from, to, .. }, Some(Exit { from: f2 })) => {
            Move::new(from, to, MoveKind::DisplacementExit).with_second(f2, Square::A1)
        }
        (Exit { from }, Some(Disp { from: f2, to: t2, .. })) => {
            Move::new(from, Square::A1, MoveKind::ExitDisplacement).with_second(f2, t2)
        }
        (Exit { from }, Some(Exit { from: f2 })) => {
            Move::new(from, Square::A1, MoveKind::TwoExits).with_second(f2, Square::A1)
        }
        (_, Some(Castle { .. })) => Move::NONE, // never generated
    };
    if let Some(r) = promo(&t.first) {
        base.with_promotion(r)
    } else if let Some(r) = t.second.as_ref().and_then(promo) {
        base.with_second_promotion(r)
    } else {
        base
    }
}

fn decode(m: Move) -> Turn {
    let (f, t, f2, t2) = (m.from(), m.to(), m.second_from(), m.second_to());
    let (p1, p2) = match m.promotion_role() {
        Some(r) if m.promotes_second() => (None, Some(r)),
        Some(r) => (Some(r), None),
        None => (None, None),
    };
    let disp1 = Part::Disp { from: f, to: t, promo: p1 };
    let disp2 = Part::Disp { from: f2, to: t2, promo: p2 };
    let (first, second) = match m.kind() {
        MoveKind::Castle => (Part::Castle { king: f, king_to: t, rook: f2, rook_to: t2 }, None),
        MoveKind::Exit => (Part::Exit { from: f }, None),
        MoveKind::TwoDisplacements => (disp1, Some(disp2)),
        MoveKind::DisplacementExit => (disp1, Some(Part::Exit { from: f2 })),
        MoveKind::ExitDisplacement => (Part::Exit { from: f }, Some(disp2)),
        MoveKind::TwoExits => (Part::Exit { from: f }, Some(Part::Exit { from: f2 })),
        _ => (disp1, None),
    };
    Turn { first, second }
}

/// Every turn of rules §7.1, with whether its first part moves one of the
/// mover's own pieces (the site's end-of-game rule, §9).
fn all_turns(b: &Board, emit: impl FnMut(Turn, bool)) {
    turns::<false>(b, false, emit);
}

/// Whether a part takes material off the board or promotes.
fn noisy_part(p: &Part) -> bool {
    matches!(p, Part::Exit { .. } | Part::Disp { promo: Some(_), .. })
}

/// Whether a part, played on `b`, gains material for `mover`: an enemy
/// piece leaves the board, or one of the mover's pawns promotes. The other
/// noisy parts lose material (the mover's piece leaves, an enemy pawn is
/// pushed or pulled onto its last rank).
fn gaining_part(b: &Board, p: &Part, mover: Color) -> bool {
    match *p {
        Part::Exit { from } => b.piece_at(from).is_some_and(|q| q.color != mover),
        Part::Disp { from, promo: Some(_), .. } => b.piece_at(from).is_some_and(|q| q.color == mover),
        _ => false,
    }
}

/// The turns of rules §7.1. With `NOISY`, only those with a part that gains
/// material ([`gaining_part`]) and, with `checks`, those without an exit or
/// a promotion that put the enemy king in check: the legality test of the
/// other turns is skipped where it can be, and it is most of the cost of
/// generating. (A turn whose every noisy part loses material, such as one
/// of the mover's pieces leaving the board, is never what quiescence looks
/// for: most exits in a position are of that kind.)
///
/// Whether a king is in check depends only on the squares of its lines
/// and its knight squares ([`check::relevant`]): a part that touches none
/// of them leaves it as it was, which spares most boards played out and
/// tested.
///
/// Without checks, only the squares of [`parts::noisy_first_squares`] can
/// start a noisy turn (after a quiet first part no second part exits or
/// promotes, see [`Generator::turns_from`]). Of those, a square of one of
/// the mover's pieces that cannot promote starts only exits of that piece,
/// which lose material: it is kept only if a second part could then gain
/// some ([`parts::gain_after_own_exit`]), the test `turns_from` would
/// otherwise make on each of its exits after generating them (those that
/// pass are not tested again there). Most candidate squares are of that
/// kind, and few pass.
fn turns<const NOISY: bool>(b: &Board, checks: bool, mut emit: impl FnMut(Turn, bool)) {
    let (from, exits_gain) = if NOISY && !checks {
        let (cand, promoting) = parts::noisy_first_squares(b);
        let exits_only = cand & b.us() & !promoting;
        let passed = exits_only
            .into_iter()
            .fold(Bitboard::EMPTY, |keep, s| if parts::gain_after_own_exit(b, s) { keep.with(s) } else { keep });
        ((cand & !exits_only) | passed, passed)
    } else {
        (b.occupied(), Bitboard::EMPTY)
    };
    if from.is_empty() {
        return;
    }
    let mut g = Generator::new(b, checks);
    g.exits_gain = exits_gain;
    for s in from {
        g.turns_from::<NOISY>(s, &mut emit);
    }
}

/// What generating the turns of one board needs besides the square they
/// start from: the board's state and check facts (computed once), and
/// scratch lists reused from square to square.
struct Generator<'a> {
    b: &'a Board,
    checks: bool,
    st: State,
    mover: Color,
    /// The squares that decide whether the mover's king is in check, and
    /// whether it is.
    ours0: Bitboard,
    check0: bool,
    /// The same for the enemy king.
    theirs: Bitboard,
    their_check0: bool,
    /// The squares where the last turn made pieces appear.
    last_appeared: Bitboard,
    /// Squares known to pass [`parts::gain_after_own_exit`].
    exits_gain: Bitboard,
    lists: Lists,
}

/// The scratch lists of a generation. Each thread keeps one set between
/// generations ([`LISTS`]): quiescence generates hundreds of thousands of
/// times per second, mostly a few turns, and allocating the lists each
/// time cost more than filling them.
#[derive(Default)]
struct Lists {
    firsts: Parts,
    cands: Parts,
    safe: Vec<bool>,
    /// For the generators' own batches.
    scratch: Parts,
}

thread_local! {
    /// Taken by a [`Generator`] and given back when it is dropped (a
    /// generator made while another lives gets empty lists of its own).
    static LISTS: Cell<Lists> = Cell::new(Lists::default());
}

impl Drop for Generator<'_> {
    fn drop(&mut self) {
        let lists = std::mem::take(&mut self.lists);
        LISTS.with(|c| c.set(lists));
    }
}

impl<'a> Generator<'a> {
    fn new(b: &'a Board, checks: bool) -> Self {
        let mover = b.turn();
        let st = State::unpack(b.extra());
        Generator {
            b,
            checks,
            st,
            mover,
            ours0: check::relevant(b, mover),
            check0: check::in_check(b, mover),
            // Only the checking turns need the enemy king's facts.
            theirs: if checks { check::relevant(b, !mover) } else { Bitboard::EMPTY },
            their_check0: checks && check::in_check(b, !mover),
            last_appeared: st
                .last
                .map_or(Bitboard::EMPTY, |r| r.appear().fold(Bitboard::EMPTY, |bb, (_, sq)| bb.with(sq))),
            exits_gain: Bitboard::EMPTY,
            lists: LISTS.with(Cell::take),
        }
    }

    /// The turns whose first part starts on `s`, in generation order.
    fn turns_from<const NOISY: bool>(&mut self, s: Square, emit: &mut impl FnMut(Turn, bool)) {
        let Generator {
            b, checks, ref st, mover, ours0, check0, theirs, their_check0, last_appeared, exits_gain, ..
        } = *self;
        let Lists { firsts, cands, safe, scratch } = &mut self.lists;
        firsts.clear();
        // Without checks, quiescence wants only first parts that exit or
        // promote (after a quiet one no second part does either).
        if NOISY && !checks {
            parts::first_parts_from::<true>(b, &st.flags, s, firsts, scratch);
        } else {
            parts::first_parts_from::<false>(b, &st.flags, s, firsts, scratch);
        }
        let own_first = b.by_color(mover).contains(s);
        for f in firsts.iter() {
            let f = f.part;
            // After a quiet first part no second part is an exit or a
            // promotion (a pull or a following push slides toward the
            // square the first part moved to, and stops before it), so
            // without checks there is nothing here to look at.
            if NOISY && !checks && !noisy_part(&f) {
                continue;
            }
            // With checks, a quiet first part is wanted only in a turn
            // that checks; a turn that touches none of the squares deciding
            // the enemy king's check leaves it as it was.
            if NOISY && checks && !their_check0 && !noisy_part(&f) && (parts::turn_reach(b, &f) & theirs).is_empty() {
                continue;
            }
            let noisy_f = noisy_part(&f);
            // A first part that loses material is wanted only with a
            // second part that gains some, which only an enemy piece (that
            // leaves the board) or a pawn of ours (that promotes) can make.
            let losing_f = NOISY && noisy_f && !gaining_part(b, &f, mover);
            if losing_f
                && matches!(f, Part::Exit { .. })
                && !exits_gain.contains(f.from())
                && !parts::gain_after_own_exit(b, f.from())
            {
                continue;
            }
            let mut b1 = b.clone();
            f.apply(&mut b1);
            cands.clear();
            if let Some(moved) = b.piece_at(f.from())
                && !matches!(f, Part::Castle { .. })
            {
                let info = FirstInfo {
                    fc: moved.color,
                    fp: moved.role,
                    from: f.from(),
                    to: match f {
                        Part::Disp { to, .. } => Some(to),
                        _ => None,
                    },
                };
                let only = if losing_f { b1.by_color(!mover) | b1.pieces(mover, Role::Pawn) } else { Bitboard::FULL };
                parts::second_parts(&b1, mover, &info, only, cands, scratch);
                if losing_f {
                    cands.retain(|c| gaining_part(&b1, &c.part, mover));
                }
            }
            if losing_f && cands.is_empty() {
                continue;
            }
            let touched1 = f.touched();
            let (ours1, check1) = if (touched1 & ours0).is_empty() {
                (ours0, check0)
            } else {
                (check::relevant(&b1, mover), check::in_check(&b1, mover))
            };
            // A turn that undoes the last one makes vanish exactly what it
            // made appear, so its first part starts on one of those squares.
            let may_reverse = last_appeared.contains(f.from());
            let reverses = |second: Option<Part>| -> bool {
                let Some(last) = &st.last.filter(|_| may_reverse) else { return false };
                let mut rec = Record::default();
                f.record_into(b, &mut rec);
                if let Some(c) = second {
                    c.record_into(&b1, &mut rec);
                }
                last.reversed_by(&rec)
            };
            // Whether the mover is in check after the candidate `c`, and
            // the enemy after `f` and `second`: a board is played out only
            // where a touched square could change the answer.
            let mover_checked = |c: &Part| -> bool {
                if (c.touched() & ours1).is_empty() {
                    return check1;
                }
                let mut b2 = b1.clone();
                c.apply(&mut b2);
                check::in_check(&b2, mover)
            };
            let enemy_checked = |second: Option<&Part>| -> bool {
                let touched = touched1 | second.map_or(Bitboard::EMPTY, Part::touched);
                if (touched & theirs).is_empty() {
                    return their_check0;
                }
                match second {
                    None => check::in_check(&b1, !mover),
                    Some(c) => {
                        let mut b2 = b1.clone();
                        c.apply(&mut b2);
                        check::in_check(&b2, !mover)
                    }
                }
            };
            // Whether the turn made of `f` and `second` is wanted: every
            // turn, or those with a part that gains material, and the
            // checking ones without an exit or a promotion. After a losing
            // first part only gaining candidates are left; after a quiet
            // one no second part exits or promotes.
            let wanted = |second: Option<&Part>| {
                !NOISY || (noisy_f && (!losing_f || second.is_some())) || (checks && !noisy_f && enemy_checked(second))
            };
            // A first part that is not wanted alone (a losing one, or a
            // quiet one that does not check): the candidates need testing
            // only where the turn would be wanted, and whether any is legal
            // (which decides the undo rule for the first part alone) does
            // not matter.
            if NOISY && (losing_f || !(noisy_f || checks && !check1 && enemy_checked(None))) {
                for c in cands.iter() {
                    if wanted(Some(&c.part)) && !mover_checked(&c.part) && !reverses(Some(c.part)) {
                        emit(Turn { first: f, second: Some(c.part) }, own_first);
                    }
                }
                continue;
            }
            // Which candidates leave the mover out of check (and are wanted).
            safe.clear();
            let mut any_safe = false;
            for c in cands.iter() {
                let ok = !mover_checked(&c.part);
                any_safe |= ok;
                safe.push(ok && wanted(Some(&c.part)));
            }
            if !any_safe {
                // Automatic pass: the undo rule is not applied.
                if !check1 {
                    emit(Turn { first: f, second: None }, own_first);
                }
                continue;
            }
            for (c, &ok) in cands.iter().zip(safe.iter()) {
                if ok && !reverses(Some(c.part)) {
                    emit(Turn { first: f, second: Some(c.part) }, own_first);
                }
            }
            if !check1 && !reverses(None) {
                emit(Turn { first: f, second: None }, own_first);
            }
        }
    }
}

/// Plays a turn: parts, castling flags, the record, the counters.
fn make(b: &Board, m: Move) -> Board {
    let turn = decode(m);
    let st = State::unpack(b.extra());
    let mut flags = st.flags;
    let mut nb = b.clone();
    let mut rec = Record::default();
    let mut exited = false;
    for part in [Some(turn.first), turn.second].into_iter().flatten() {
        let mut part_rec = Record::default();
        part.record_into(&nb, &mut part_rec);
        parts::update_flags(&mut flags, part_rec.vanish());
        part_rec.vanish().for_each(|e| rec.push_vanish(e));
        part_rec.appear().for_each(|e| rec.push_appear(e));
        exited |= matches!(part, Part::Exit { .. });
        part.apply(&mut nb);
    }
    nb.set_extra(State { flags, last: Some(rec) }.pack());
    let moves_count = b.fullmoves();
    nb.pass_turn(exited);
    nb.set_counters(nb.halfmoves(), moves_count.saturating_add(1));
    nb
}

fn flag_char(f: u8) -> char {
    if f < 8 { (b'a' + f) as char } else { 'i' }
}

fn entry_text((p, sq): (Piece, Square)) -> String {
    format!("{}{}{}", p.color.char(), p.role.char(), sq)
}

fn parse_entry(t: &str) -> Option<(Piece, Square)> {
    let b = t.as_bytes();
    if b.len() != 4 {
        return None;
    }
    let color = match b[0] {
        b'w' => Color::White,
        b'b' => Color::Black,
        _ => return None,
    };
    let role = Role::from_char(b[1] as char).filter(|_| b[1].is_ascii_lowercase())?;
    Some((Piece::new(color, role), Square::parse(&t[2..])?))
}

fn parse_record(text: &str) -> Result<Option<Record>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    let bad = || FenError::BadLastTurn(text.to_string());
    let (a, v) = text.split_once('/').ok_or_else(bad)?;
    let mut rec = Record::default();
    for (list, appear) in [(a, true), (v, false)] {
        if list == "-" {
            continue;
        }
        let entries: Vec<&str> = list.split('.').collect();
        if entries.len() > 2 {
            return Err(bad());
        }
        for e in entries {
            let e = parse_entry(e).ok_or_else(bad)?;
            if appear {
                rec.push_appear(e);
            } else {
                rec.push_vanish(e);
            }
        }
    }
    if rec.vanish().count() == 0 {
        return Err(bad());
    }
    Ok(Some(rec))
}

/// The reference 5-field FEN: `<board> <turn> <movesCount> <flags> <amove>`.
fn parse_reference(fields: &[&str]) -> Result<Board, FenError> {
    let placement = format!("{} {} - - 0 1", fields[0], fields[1]);
    let mut b = Board::from_fen_relaxed(&placement)?;
    let count: u32 = fields[2]
        .parse()
        .ok()
        .filter(|_| fields[2].len() <= 9)
        .ok_or_else(|| FenError::BadClock(fields[2].to_string()))?;
    let letters: Vec<u8> = fields[3].bytes().collect();
    // A file letter per flag, `i` (the file after `h`) for none, as the reference writes them.
    if letters.len() != 4 || !letters.iter().all(|c| (b'a'..=b'i').contains(c)) {
        return Err(FenError::BadCastlingFlags(fields[3].to_string()));
    }
    let mut flags = Flags::NONE;
    for (i, c) in letters.iter().enumerate() {
        let f = c - b'a';
        flags.0[i] = if f < 8 { f } else { NO_FLAG };
    }
    let last = parse_record(fields[4])?;
    b.set_extra(State { flags, last }.pack());
    b.set_counters(0, count);
    Ok(b)
}

/// A standard FEN (or EPD): castling rights become flags, en passant and the
/// halfmove clock are ignored, no last turn.
fn parse_standard(fen: &str) -> Result<Board, FenError> {
    let std = Board::from_fen_relaxed(fen)?;
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let fullmove: u32 = fields.get(5).and_then(|f| f.parse().ok()).unwrap_or(1).max(1);
    let moves_count = 2 * (fullmove - 1) + u32::from(!std.turn().is_white());
    let mut flags = Flags::NONE;
    for (sq, idx) in [(Square::A1, 0), (Square::H1, 1), (Square::A8, 2), (Square::H8, 3)] {
        if std.castling().contains(sq) {
            flags.0[idx] = sq.file().index() as u8;
        }
    }
    // Rebuild without the chess-only state.
    let mut b = Board::from_fen_relaxed(&format!("{} {} - - 0 1", fields[0], fields[1]))?;
    b.set_extra(State { flags, last: None }.pack());
    b.set_counters(0, moves_count);
    Ok(b)
}

impl Variant for Dynamo {
    const NAME: &'static str = "dynamo";
    const KIND: VariantKind = VariantKind::Dynamo;
    const STANDARD_NOTATION: bool = false;
    const FIFTY_MOVE_RULE: bool = false;

    fn start_fen() -> &'static str {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -"
    }

    fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let b = if fields.len() == 5 && fields[2].bytes().all(|c| c.is_ascii_digit()) {
            parse_reference(&fields)?
        } else {
            parse_standard(fen)?
        };
        Self::validate(&b)?;
        Ok(b)
    }

    fn fen(b: &Board) -> String {
        let st = State::unpack(b.extra());
        let flags: String = st.flags.0.iter().map(|&f| flag_char(f)).collect();
        let amove = match &st.last {
            None => "-".to_string(),
            Some(r) => {
                let list = |v: Vec<(Piece, Square)>| {
                    if v.is_empty() {
                        "-".to_string()
                    } else {
                        v.into_iter().map(entry_text).collect::<Vec<_>>().join(".")
                    }
                };
                format!("{}/{}", list(r.appear().collect()), list(r.vanish().collect()))
            }
        };
        format!("{} {} {} {} {}", b.board_fen(), b.turn().char(), b.fullmoves(), flags, amove)
    }

    /// Exactly one king each (rules §10.1). Pawns may stand on any rank but
    /// their own last one.
    fn validate(b: &Board) -> Result<(), FenError> {
        for c in Color::ALL {
            if b.king(c).is_none() {
                return Err(FenError::MissingKing(c));
            }
            let last = Bitboard::rank(c.fold(Rank::EIGHTH, Rank::FIRST));
            if let Some(sq) = (b.pieces(c, Role::Pawn) & last).first() {
                return Err(FenError::PawnOnBackRank(sq));
            }
        }
        Ok(())
    }

    /// The legal turns (rules §7.1); none at all when no legal turn starts
    /// with one of the mover's own pieces (the site's end-of-game rule, §9).
    fn legal_moves(b: &Board, moves: &mut MoveList) {
        let mut any_own = false;
        let start = moves.len();
        all_turns(b, |t, own| {
            any_own |= own;
            // Beyond the list's capacity turns are dropped (see MAX_MOVES).
            debug_assert!(!moves.is_full(), "move list full in {}", Dynamo::fen(b));
            let _ = moves.try_push(encode(t));
        });
        if !any_own {
            moves.truncate(start);
        }
    }

    /// Only the turns from the move's first square are generated (a turn's
    /// `from` is its first part's), and for a first part that moves an enemy
    /// piece, the §9 rule (some legal turn starts with one of our own
    /// pieces) is settled by the first own square that has one.
    fn is_legal(b: &Board, m: Move) -> bool {
        let s = m.from();
        if !b.occupied().contains(s) {
            return false;
        }
        let mut g = Generator::new(b, false);
        let mut found = false;
        g.turns_from::<false>(s, &mut |t, _| found |= encode(t) == m);
        if !found || b.by_color(b.turn()).contains(s) {
            return found;
        }
        let mut any_own = false;
        for o in b.by_color(b.turn()) {
            g.turns_from::<false>(o, &mut |_, _| any_own = true);
            if any_own {
                break;
            }
        }
        any_own
    }

    const CHEAP_LEGALITY: bool = true;

    const NOISY_GENERATION: bool = true;

    /// The legal turns with an exit or a promotion in them, and with
    /// `checks` those that check (the §9 rule is not applied).
    fn noisy_moves(b: &Board, checks: bool, moves: &mut MoveList) {
        turns::<true>(b, checks, |t, _| {
            let _ = moves.try_push(encode(t));
        });
    }

    fn make(b: &Board, m: Move) -> Board {
        make(b, m)
    }

    fn checkers(b: &Board) -> Bitboard {
        b.king(b.turn()).map_or(Bitboard::EMPTY, |k| check::check_sources(b, k, !b.turn()))
    }

    /// No material is insufficient in Dynamo: kings can always be mated by
    /// pushes and pulls (rules §9).
    fn has_insufficient_material(_b: &Board, _color: Color) -> bool {
        false
    }
}
