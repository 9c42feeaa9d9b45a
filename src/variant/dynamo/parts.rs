//! Dynamo parts: first parts (rules §3), second-part candidates (§4) and the
//! sliding walk `dirMoves` (§5) they are all made of.

use super::check;
use super::geometry::*;
use super::state::{Entry, Flags, NO_FLAG, Record};
use crate::board::Board;
use crate::types::{Bitboard, Color, Piece, Rank, Role, Square};

/// One elementary action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Disp { from: Square, to: Square, promo: Option<Role> },
    Exit { from: Square },
    Castle { king: Square, king_to: Square, rook: Square, rook_to: Square },
}

/// A part with its de-duplication key square (rules §3.3).
#[derive(Clone, Copy, Debug)]
pub struct Keyed {
    pub part: Part,
    pub key: Square,
}

pub type Parts = Vec<Keyed>;

const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

impl Part {
    /// The square the part starts from.
    pub fn from(&self) -> Square {
        match *self {
            Part::Disp { from, .. } | Part::Exit { from } => from,
            Part::Castle { king, .. } => king,
        }
    }

    /// Vanish and appear entries of this part on `b` (the board before it).
    pub fn record_into(&self, b: &Board, rec: &mut Record) {
        match *self {
            Part::Disp { from, to, promo } => {
                if let Some(p) = b.piece_at(from) {
                    rec.push_vanish((p, from));
                    rec.push_appear((Piece::new(p.color, promo.unwrap_or(p.role)), to));
                }
            }
            Part::Exit { from } => {
                if let Some(p) = b.piece_at(from) {
                    rec.push_vanish((p, from));
                }
            }
            Part::Castle { king, king_to, rook, rook_to } => {
                if let (Some(k), Some(r)) = (b.piece_at(king), b.piece_at(rook)) {
                    rec.push_vanish((k, king));
                    rec.push_vanish((r, rook));
                    rec.push_appear((k, king_to));
                    rec.push_appear((r, rook_to));
                }
            }
        }
    }

    /// The squares the part empties or fills.
    #[inline]
    pub fn touched(&self) -> Bitboard {
        match *self {
            Part::Disp { from, to, .. } => Bitboard::from_square(from).with(to),
            Part::Exit { from } => Bitboard::from_square(from),
            Part::Castle { king, king_to, rook, rook_to } => {
                Bitboard::from_square(king).with(king_to).with(rook).with(rook_to)
            }
        }
    }

    /// Plays the part on the board (pieces only).
    pub fn apply(&self, b: &mut Board) {
        match *self {
            Part::Disp { from, to, promo } => {
                if let Some(p) = b.take(from) {
                    b.put(to, Piece::new(p.color, promo.unwrap_or(p.role)));
                }
            }
            Part::Exit { from } => {
                b.take(from);
            }
            Part::Castle { king, king_to, rook, rook_to } => {
                let k = b.take(king);
                let r = b.take(rook);
                if let Some(k) = k {
                    b.put(king_to, k);
                }
                if let Some(r) = r {
                    b.put(rook_to, r);
                }
            }
        }
    }
}

/// Castling rights lost by the vanishing entries of a part (rules §8).
pub fn update_flags(flags: &mut Flags, vanished: impl Iterator<Item = Entry>) {
    for (p, sq) in vanished {
        if p.role == Role::King {
            flags.clear_both(p.color);
        } else if rank(sq) == first_rank(p.color) {
            flags.clear_file(p.color, file(sq) as u8);
        }
    }
}

fn disp(from: Square, to: Square, promo: Option<Role>) -> Keyed {
    Keyed { part: Part::Disp { from, to, promo }, key: to }
}

/// An exit, keyed by the square of the king of the exiting piece's colour.
fn exit(b: &Board, from: Square) -> Keyed {
    let color = b.piece_at(from).map_or(Color::White, |p| p.color);
    Keyed { part: Part::Exit { from }, key: b.king(color).unwrap_or(from) }
}

/// `dirMoves(s, d, n)` (rules §5): slide the piece on `s` along `d` over
/// empty squares, at most `n` of them; an exit if the walk leaves the board
/// within the limit (never for a king). Pawns reaching their own last rank
/// promote (four parts).
pub fn dir_moves(b: &Board, s: Square, d: Vector, n: Option<u8>, out: &mut Parts) {
    dir_moves_of::<false>(b, s, d, n, out);
}

/// [`dir_moves`], with `NOISY_ONLY` only its exits and promotions.
fn dir_moves_of<const NOISY_ONLY: bool>(b: &Board, s: Square, d: Vector, n: Option<u8>, out: &mut Parts) {
    let Some(p) = b.piece_at(s) else { return };
    let occ = b.occupied();
    let mut t = s.step(d.0, d.1);
    let mut k = 1u8;
    while let Some(sq) = t {
        if occ.contains(sq) {
            return;
        }
        if p.role == Role::Pawn && rank(sq) == last_rank(p.color) {
            for r in PROMOTIONS {
                out.push(disp(s, sq, Some(r)));
            }
        } else if !NOISY_ONLY {
            out.push(disp(s, sq, None));
        }
        if Some(k) == n {
            return;
        }
        t = sq.step(d.0, d.1);
        k += 1;
    }
    if p.role != Role::King {
        out.push(exit(b, s));
    }
}

/// Castling moves of the king on `s` (rules §8).
fn castles(b: &Board, flags: &Flags, s: Square, out: &mut Parts) {
    let c = b.turn();
    let (kf, kr) = (file(s), rank(s));
    for (side, rf) in flags.of(c).into_iter().enumerate() {
        if rf == NO_FLAG || rf > 7 {
            continue;
        }
        let rf = rf as i8;
        let Some(rook) = Square::try_new((kr * 8 + rf) as u32) else { continue };
        if !b.by_color(c).contains(rook) {
            continue;
        }
        let (kt, rt) = if side == 0 { (2i8, 3i8) } else { (6, 5) };
        let at = |f: i8| Square::new((kr * 8 + f) as u8);
        // The king's path, its square included, its target excluded.
        let step = (kt - kf).signum();
        let mut i = kf;
        let mut ok = true;
        loop {
            let sq = at(i);
            if check::attacked(b, sq, !c) {
                ok = false;
                break;
            }
            if b.occupied().contains(sq) && !(b.by_color(c).contains(sq) && (i == kf || i == rf)) {
                ok = false;
                break;
            }
            i += step;
            if i == kt || step == 0 {
                break;
            }
        }
        if !ok {
            continue;
        }
        let dir = if side == 0 { -1 } else { 1 };
        let mut j = kf + dir;
        while j != rf {
            if !(0..8).contains(&j) || b.occupied().contains(at(j)) {
                ok = false;
                break;
            }
            j += dir;
        }
        if !ok {
            continue;
        }
        for t in [kt, rt] {
            let sq = at(t);
            if t != rf && b.occupied().contains(sq) && (t != kf || !b.by_color(c).contains(sq)) {
                ok = false;
            }
        }
        if !ok {
            continue;
        }
        let key_file = if (kf - rf).abs() <= 2 { rf } else { kf + 2 * dir };
        out.push(Keyed { part: Part::Castle { king: s, king_to: at(kt), rook, rook_to: at(rt) }, key: at(key_file) });
    }
}

/// Ordinary moves of the mover's piece on `s` (rules §3.1), one exit at
/// most; with `NOISY_ONLY` only its exit and promotions.
fn ordinary<const NOISY_ONLY: bool>(b: &Board, flags: &Flags, s: Square, out: &mut Parts) {
    let Some(p) = b.piece_at(s) else { return };
    let c = p.color;
    let occ = b.occupied();
    let mut can_exit = false;
    match p.role {
        Role::Pawn => {
            if let Some(t1) = s.step(0, forward(c))
                && !occ.contains(t1)
            {
                if rank(t1) == last_rank(c) {
                    for r in PROMOTIONS {
                        out.push(disp(s, t1, Some(r)));
                    }
                } else if !NOISY_ONLY {
                    out.push(disp(s, t1, None));
                }
                if !NOISY_ONLY
                    && (rank(s) == start_rank(c) || rank(s) == first_rank(c))
                    && let Some(t2) = t1.step(0, forward(c))
                    && !occ.contains(t2)
                {
                    out.push(disp(s, t2, None));
                }
            }
        }
        Role::Knight => {
            for v in KNIGHT {
                match s.step(v.0, v.1) {
                    None => can_exit = true,
                    Some(t) if !NOISY_ONLY && !occ.contains(t) => out.push(disp(s, t, None)),
                    _ => {}
                }
            }
        }
        Role::Bishop | Role::Rook | Role::Queen => {
            let dirs: &[Vector] = match p.role {
                Role::Bishop => &DIAG,
                Role::Rook => &ORTH,
                _ => &ALL8,
            };
            for &u in dirs {
                let mut t = s.step(u.0, u.1);
                while let Some(sq) = t {
                    if occ.contains(sq) {
                        break;
                    }
                    if !NOISY_ONLY {
                        out.push(disp(s, sq, None));
                    }
                    t = sq.step(u.0, u.1);
                }
                if t.is_none() {
                    can_exit = true;
                }
            }
        }
        Role::King if NOISY_ONLY => {}
        Role::King => {
            for u in ALL8 {
                if let Some(t) = s.step(u.0, u.1)
                    && !occ.contains(t)
                {
                    out.push(disp(s, t, None));
                }
            }
            if flags.of(c).iter().any(|&f| f < NO_FLAG) {
                castles(b, flags, s, out);
            }
        }
    }
    if can_exit {
        out.push(exit(b, s));
    }
}

/// Adds `batch` to `out`, dropping parts whose key an earlier batch from the
/// same square already used (rules §3.3).
fn merge(out: &mut Parts, keys: &mut Bitboard, batch: &mut Parts) {
    let before = *keys;
    for k in batch.drain(..) {
        if !before.contains(k.key) {
            *keys = keys.with(k.key);
            out.push(k);
        }
    }
}

/// Every first part starting on the occupied square `s` (rules §3); with
/// `NOISY_ONLY` only those that exit or promote, exactly the ones of the
/// full list: de-duplication by key never sets a noisy part against a
/// quiet one (an exit's key is a king's square, which no displacement
/// reaches, and every displacement of a pawn to its last rank promotes).
/// `batch` is scratch space.
pub fn first_parts_from<const NOISY_ONLY: bool>(
    b: &Board,
    flags: &Flags,
    s: Square,
    out: &mut Parts,
    batch: &mut Parts,
) {
    let Some(p) = b.piece_at(s) else { return };
    let mover = b.turn();
    let start = out.len();
    if p.color == mover {
        ordinary::<NOISY_ONLY>(b, flags, s, out);
    }
    let mut keys = out[start..].iter().fold(Bitboard::EMPTY, |k, m| k.with(m.key));
    batch.clear();
    // Knight pushes.
    if (crate::attacks::knight_attacks(s) & b.pieces(mover, Role::Knight)).any() {
        for v in KNIGHT {
            if let Some(x) = s.step(v.0, v.1)
                && b.piece_at(x) == Some(Piece::new(mover, Role::Knight))
            {
                dir_moves_of::<NOISY_ONLY>(b, s, neg(v), Some(1), batch);
                merge(out, &mut keys, batch);
            }
        }
    }
    // Line pushes by the first piece behind `s` on each line: those of the
    // mover's pieces that a queen on `s` would see.
    let occ = b.occupied();
    let pushers = crate::attacks::queen_attacks(s, occ) & b.by_color(mover);
    if pushers.is_empty() {
        return;
    }
    // Each pusher is the first piece on its line from `s`: its line's
    // index in `ALL8`, then the lines taken in that order.
    let mut by_line = [s; 8];
    let mut lines = 0u8;
    for x in pushers {
        let i = all8_index(((file(x) - file(s)).signum(), (rank(x) - rank(s)).signum()));
        by_line[i] = x;
        lines |= 1 << i;
    }
    while lines != 0 {
        let i = lines.trailing_zeros() as usize;
        lines &= lines - 1;
        let (u, x) = (ALL8[i], by_line[i]);
        let Some(pusher) = b.piece_at(x) else { continue };
        let k = (file(x) - file(s)).abs().max((rank(x) - rank(s)).abs());
        let back = neg(u);
        let orth = u.0 == 0 || u.1 == 0;
        match pusher.role {
            Role::Rook if orth => dir_moves_of::<NOISY_ONLY>(b, s, back, None, batch),
            Role::Bishop if !orth => dir_moves_of::<NOISY_ONLY>(b, s, back, None, batch),
            Role::Queen => dir_moves_of::<NOISY_ONLY>(b, s, back, None, batch),
            Role::King if k == 1 => dir_moves_of::<NOISY_ONLY>(b, s, back, Some(1), batch),
            Role::Pawn => {
                let drk = rank(s) - rank(x);
                let dfl = (file(s) - file(x)).abs();
                if drk != 0 && drk.signum() == forward(mover) && drk.abs() <= 2 && dfl <= 1 {
                    if p.color == mover && dfl == 0 {
                        let n = if rank(x) == start_rank(mover) && k == 1 { 2 } else { 1 };
                        dir_moves_of::<NOISY_ONLY>(b, s, back, Some(n), batch);
                    } else if p.color != mover && k == 1 && dfl == 1 {
                        dir_moves_of::<NOISY_ONLY>(b, s, back, Some(1), batch);
                    }
                }
            }
            _ => {}
        }
        merge(out, &mut keys, batch);
    }
}

/// What the second-part rules need to know of the first part.
pub struct FirstInfo {
    /// Colour and type (before promotion) of the piece the first part moved.
    pub fc: Color,
    pub fp: Role,
    /// Where it started, and where it went (`None` for an exit).
    pub from: Square,
    pub to: Option<Square>,
}

/// The 4.1 test: could a piece of type `ty` on `s` have pushed (or, for
/// pulls, dragged) the piece that left the board from `big_s`?
fn exit_test(b1: &Board, s: Square, big_s: Square, ty: Role, fc: Color) -> bool {
    let m = b1.piece_at(s).map_or(fc, |p| p.color);
    let dv = diff(big_s, s);
    let (dr, df) = (dv.1.abs(), dv.0.abs());
    let beyond_off = big_s.step(dv.0, dv.1).is_none();
    let clear = || norm(dv).is_some_and(|d| clear_to_edge(b1, s, d));
    match ty {
        Role::Pawn => {
            rank(big_s) - rank(s) == forward(m)
                && ((fc == m && rank(big_s) == last_rank(m) && df == 0) || (fc != m && df == 1 && beyond_off))
        }
        Role::Rook => (dr == 0 || df == 0) && clear(),
        Role::Knight => dr + df == 3 && (dr == 1 || df == 1) && beyond_off,
        Role::Bishop => dr == df && clear(),
        Role::Queen => (dr == df || dr == 0 || df == 0) && clear(),
        Role::King => dr <= 1 && df <= 1 && beyond_off,
    }
}

/// `PushExit(s)` (4.1).
fn push_exit(b1: &Board, s: Square, f: &FirstInfo, out: &mut Parts) {
    let Some(p) = b1.piece_at(s) else { return };
    if exit_test(b1, s, f.from, p.role, f.fc)
        && let Some(d) = norm(diff(f.from, s))
    {
        let n = matches!(p.role, Role::Pawn | Role::King | Role::Knight).then_some(1);
        dir_moves(b1, s, d, n, out);
    }
}

/// `PullExit(s)` (4.3).
fn pull_exit(b1: &Board, s: Square, f: &FirstInfo, out: &mut Parts) {
    if f.fp != Role::Pawn
        && exit_test(b1, s, f.from, f.fp, f.fc)
        && let Some(d) = norm(diff(f.from, s))
    {
        dir_moves(b1, s, d, (f.fp == Role::Knight).then_some(1), out);
    }
}

/// `PushFollow(s)` (4.2).
fn push_follow(b1: &Board, s: Square, f: &FirstInfo, e: Square, mover: Color, out: &mut Parts) {
    let Some(p) = b1.piece_at(s) else { return };
    let big_s = f.from;
    let dv = diff(big_s, s);
    let (dr, df) = (dv.1.abs(), dv.0.abs());
    let d = norm(dv);
    let dm = norm(diff(e, big_s));
    if d.is_none() || d != dm {
        return;
    }
    let d = d.unwrap_or((0, 0));
    let (ef, er) = diff(e, big_s);
    let fc_is_mover = f.fc == mover;
    let reject = match p.role {
        Role::Pawn if rank(s) == start_rank(mover) => {
            (rank(big_s) - rank(s)) * forward(mover) < 0
                || dr >= 3
                || df >= 2
                || (fc_is_mover && df > 0)
                || (!fc_is_mover && df == 0)
                || er.abs() > dr
                || ef != file(big_s) - file(s)
        }
        Role::Pawn => {
            rank(big_s) - rank(s) != forward(mover)
                || df >= 2
                || (fc_is_mover && df == 1)
                || (!fc_is_mover && df == 0)
                || er != forward(mover)
                || ef != file(big_s) - file(s)
        }
        Role::Knight => dr + df != 3 || ef != dv.0 || er != dv.1,
        Role::King => dr >= 2 || df >= 2 || ef != dv.0 || er != dv.1,
        Role::Bishop => dr != df,
        Role::Rook => dr != 0 && df != 0,
        Role::Queen => !(dr == df || dr == 0 || df == 0),
    };
    if reject || !between_empty(b1, s, big_s, d) {
        return;
    }
    dir_moves(b1, s, d, None, out);
}

/// `Pull(s)` (4.4).
fn pull(b1: &Board, s: Square, f: &FirstInfo, e: Square, out: &mut Parts) {
    if f.fp == Role::Pawn {
        return;
    }
    let big_s = f.from;
    let dv = diff(big_s, s);
    let (dr, df) = (dv.1.abs(), dv.0.abs());
    let d = norm(dv);
    if d.is_none() || d != norm(diff(e, big_s)) {
        return;
    }
    if f.fp == Role::King && (dr > 1 || df > 1) {
        return;
    }
    if f.fp == Role::Knight && (dr + df != 3 || dr == 0 || df == 0) {
        return;
    }
    let d = d.unwrap_or((0, 0));
    if !between_empty(b1, s, big_s, d) {
        return;
    }
    dir_moves(b1, s, d, None, out);
}

/// The first occupied square from `from` stepping away from `e` along the
/// direction of the move `from` → `e` (none if it has no direction).
fn first_behind(b1: &Board, from: Square, e: Square) -> Bitboard {
    let Some(u) = norm(diff(e, from)) else { return Bitboard::EMPTY };
    let occ = b1.occupied();
    let mut t = from.step(-u.0, -u.1);
    while let Some(sq) = t {
        if occ.contains(sq) {
            return Bitboard::from_square(sq);
        }
        t = sq.step(-u.0, -u.1);
    }
    Bitboard::EMPTY
}

/// A superset of the squares that the first part `f` (on `b`, the board
/// before it) and any second part after it touch; everything after an exit.
/// After a displacement along `u` from `from` to `e`, the only candidate
/// for a second part is the first piece behind `from`, and it walks along
/// `u` towards `from`, where the piece on `e` stops it ([`second_parts`]):
/// the squares from that piece to `e` hold every square touched.
pub fn turn_reach(b: &Board, f: &Part) -> Bitboard {
    match *f {
        Part::Exit { .. } => Bitboard::FULL,
        Part::Castle { .. } => f.touched(),
        Part::Disp { from, to, .. } => {
            let Some(u) = norm(diff(to, from)) else { return Bitboard::FULL };
            let mut reach = Bitboard::from_square(from).with(to);
            let mut t = from.step(u.0, u.1);
            while let Some(sq) = t.filter(|&sq| sq != to) {
                reach = reach.with(sq);
                t = sq.step(u.0, u.1);
            }
            let occ = b.occupied();
            let mut t = from.step(-u.0, -u.1);
            while let Some(sq) = t {
                reach = reach.with(sq);
                if occ.contains(sq) {
                    break;
                }
                t = sq.step(-u.0, -u.1);
            }
            reach
        }
    }
}

/// Every second-part candidate on `b1`, the board after the first part
/// (rules §4; nothing after castling).
///
/// Only the pieces on `only` are candidates. `pulls` is scratch space.
pub fn second_parts(b1: &Board, mover: Color, f: &FirstInfo, only: Bitboard, out: &mut Parts, pulls: &mut Parts) {
    // Every rule needs `s` on a line or a knight line through the first
    // part's origin, and narrower than that:
    // - after a displacement along `u` (a line or a knight's leap, to `e`),
    //   a following push and a pull both need `s` behind the origin along
    //   `u` with nothing between: only the first piece behind it qualifies;
    // - after an exit, a push or pull that could have sent the piece off
    //   comes from a neighbour, a knight's leap away, or (a slider's, clear
    //   to the edge through the origin) the first piece on one of its lines.
    let occ = b1.occupied();
    let squares = match f.to {
        None => occ & (crate::attacks::queen_attacks(f.from, occ) | crate::attacks::knight_attacks(f.from)),
        Some(e) => first_behind(b1, f.from, e),
    };
    for s in squares & only {
        let Some(p) = b1.piece_at(s) else { continue };
        let own = p.color == mover;
        let fc_own = f.fc == mover;
        if !fc_own && !own {
            continue;
        }
        let start = out.len();
        if own {
            match f.to {
                None => push_exit(b1, s, f, out),
                Some(e) => push_follow(b1, s, f, e, mover, out),
            }
        }
        if fc_own {
            pulls.clear();
            match f.to {
                None => pull_exit(b1, s, f, pulls),
                Some(e) => pull(b1, s, f, e, pulls),
            }
            // A pull identical to a push-type move from the same square is kept once.
            let pushed = out[start..].iter().fold(Bitboard::EMPTY, |k, m| k.with(m.key));
            out.extend(pulls.drain(..).filter(|m| !pushed.contains(m.key)));
        }
    }
}

/// Whether, after the mover's own piece on `s` leaves the board (a first
/// part that loses material), some second part could gain material: a
/// superset, tested before the board after the exit is built, of the exits
/// and promotions [`second_parts`] can find then.
///
/// The candidates are the first pieces on the lines through `s` and its
/// knight squares. An enemy piece gains by leaving the board, which only a
/// pull does, along a line of the piece that left (a slider's: a pull after
/// a knight's exit moves one leap, onto `s`, and pawns do not pull): it
/// walks from its square through `s` and on, so it is the first piece on
/// one side of `s` with the ray beyond `s` on the other side empty to the
/// edge. A pawn of the mover's gains by promoting on its walk toward `s`
/// and on, so that walk's line must cross the mover's last rank.
pub fn gain_after_own_exit(b: &Board, s: Square) -> bool {
    use crate::attacks;
    let mover = b.turn();
    let occ = b.occupied();
    let them = b.by_color(!mover) & !b.by_role(Role::King);
    // A pull follows the lines of the piece that left.
    let (orth, diag) = match b.role_at(s) {
        Some(Role::Rook) => (true, false),
        Some(Role::Bishop) => (false, true),
        Some(Role::Queen) => (true, true),
        _ => (false, false),
    };
    // The first pieces on the lines through `s`: an enemy one whose line
    // the piece that left pulls along, with the ray on the other side of
    // `s` empty to the edge.
    let first = attacks::queen_attacks(s, occ);
    if orth || diag {
        for x in first & them {
            let Some(d) = attacks::direction(s, x) else { continue };
            if (if d.is_orthogonal() { orth } else { diag }) && (attacks::ray(s, d.opposite()) & occ).is_empty() {
                return true;
            }
        }
    }
    let last = Bitboard::rank(mover.fold(Rank::EIGHTH, Rank::FIRST));
    let pawns = b.pieces(mover, Role::Pawn) & (first | attacks::knight_attacks(s));
    pawns.into_iter().any(|p| match attacks::direction(p, s) {
        Some(d) => (attacks::ray(p, d) & last).any(),
        None => last.contains(s),
    })
}

/// The squares two steps or fewer from the edge, where a knight's leap can
/// leave the board.
const KNIGHT_EXIT_ZONE: Bitboard = Bitboard(!0x0000_3c3c_3c3c_0000);

/// A superset of the squares from which [`first_parts_from`] with
/// `NOISY_ONLY` finds a part, computed for the whole board at once with
/// bitboard fills (quiescence asks for the noisy parts of every square, and
/// most squares have none). A noisy part exits or promotes: the piece walks
/// over empty squares until it leaves the board or reaches its last rank,
/// which is the end of its ray in that direction, so
/// - it moves by its own ordinary move (a slider, a knight near the edge, a
///   pawn) or is pushed along a line by the first piece behind it, one of
///   the mover's that pushes that way (a slider along its lines, the king or
///   a pawn from next to it, a pawn two squares behind), and its ray in the
///   direction it moves is empty up to the edge; or
/// - it is pushed a knight's leap by one of the mover's knights, and stands
///   near the edge or is a pawn.
///
/// Kings never exit or promote.
///
/// Also returned: a superset of the mover's pawns among them that may
/// promote, by reaching the last rank on a forward line that is empty up
/// to it, or by a knight's leap from the two ranks before it. The mover's
/// other pieces there can only leave the board.
pub fn noisy_first_squares(b: &Board) -> (Bitboard, Bitboard) {
    let mover = b.turn();
    let occ = b.occupied();
    let empty = !occ;
    let queens = b.pieces(mover, Role::Queen);
    let (rooks, bishops) = (b.pieces(mover, Role::Rook), b.pieces(mover, Role::Bishop));
    let (pawns, king) = (b.pieces(mover, Role::Pawn), b.pieces(mover, Role::King));
    let knights = b.pieces(mover, Role::Knight);
    let mut cand = Bitboard::EMPTY;
    let mut ordinary_sliders = Bitboard::EMPTY;
    let (last, seventh, sixth) = match mover {
        Color::White => (Rank::EIGHTH, Rank::SEVENTH, Rank::SIXTH),
        Color::Black => (Rank::FIRST, Rank::SECOND, Rank::THIRD),
    };
    let mut promoting = Bitboard::EMPTY;
    if knights.any() {
        promoting |= pawns & (Bitboard::rank(seventh) | Bitboard::rank(sixth));
    }
    for (d, dir) in ALL8.into_iter().zip(ALL8_DIRECTIONS) {
        let orth = d.0 == 0 || d.1 == 0;
        // Squares with an occupied square somewhere beyond them along `d`.
        let back = dir.opposite();
        let blocked = back.fill(back.shift(occ), Bitboard::FULL);
        let clear = !blocked;
        // The first occupied square along `d` from each pusher.
        let sliders = queens | if orth { rooks } else { bishops };
        ordinary_sliders |= sliders & clear;
        let mut pushed = dir.shift(dir.fill(sliders, empty)) & occ;
        pushed |= dir.shift(king) & occ;
        if d.1 == forward(mover) {
            let one = dir.shift(pawns);
            pushed |= one & occ;
            if d.0 == 0 {
                pushed |= dir.shift(one & empty) & occ;
            }
        }
        cand |= pushed & clear;
        if d.1 == forward(mover) {
            // The squares whose ray along `d` reaches the last rank.
            promoting |= pawns & clear & back.fill(Bitboard::rank(last), Bitboard::FULL);
        }
        if d == (0, forward(mover)) {
            cand |= pawns & clear & Bitboard::rank(seventh);
        }
    }
    cand |= ordinary_sliders;
    cand |= knights & KNIGHT_EXIT_ZONE;
    // A piece a knight pushes exits from near the edge, and a pawn may be
    // pushed onto its last rank.
    let leapt = KNIGHT_EXIT_ZONE | b.by_role(Role::Pawn);
    for k in knights {
        cand |= crate::attacks::knight_attacks(k) & occ & leapt;
    }
    let cand = cand & occ & !b.by_role(Role::King);
    (cand, cand & promoting)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{MoveList, SplitMix};
    use crate::variant::{Dynamo, Variant};

    /// Positions of random games that favour exits and promotions (so that
    /// boards thin out and pawns advance), and the suites' positions.
    fn boards() -> Vec<Board> {
        let mut boards = Vec::new();
        let suites =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft-suites/dynamo.perft")).unwrap();
        for line in suites.lines().filter_map(|l| l.strip_prefix("epd ")) {
            boards.push(Dynamo::from_fen(line.trim()).unwrap());
        }
        let mut rng = SplitMix::new(17);
        for _ in 0..40 {
            let mut b = Dynamo::from_fen(Dynamo::start_fen()).unwrap();
            for _ in 0..120 {
                let mut moves = MoveList::new();
                Dynamo::legal_moves(&b, &mut moves);
                if moves.is_empty() {
                    break;
                }
                boards.push(b.clone());
                let noisy: Vec<_> =
                    moves.iter().copied().filter(|m| m.kind() != crate::types::MoveKind::Normal).collect();
                let pick = |n: usize, r: u64| (r % n as u64) as usize;
                let m = if rng.next_u64().is_multiple_of(2) && !noisy.is_empty() {
                    noisy[pick(noisy.len(), rng.next_u64())]
                } else {
                    moves[pick(moves.len(), rng.next_u64())]
                };
                b = Dynamo::play(&b, m);
            }
        }
        boards
    }

    /// The two fills [`noisy_first_squares`] is made of, against one-step
    /// walks on random occupancies in every direction: the squares with an
    /// occupied square somewhere beyond them, and the first occupied square
    /// each piece meets.
    #[test]
    fn noisy_first_squares_fills_equal_step_walks() {
        let mut rng = SplitMix::new(5);
        for _ in 0..2000 {
            let occ = Bitboard(rng.next_u64() & rng.next_u64());
            let from = Bitboard(rng.next_u64() & rng.next_u64() & rng.next_u64()) & occ;
            for (d, dir) in ALL8.into_iter().zip(ALL8_DIRECTIONS) {
                let back = dir.opposite();
                let (mut behind, mut t) = (Bitboard::EMPTY, back.shift(occ));
                while t.any() {
                    behind |= t;
                    t = back.shift(t);
                }
                assert_eq!(back.fill(back.shift(occ), Bitboard::FULL), behind, "{d:?} {occ:?}");
                let (mut hit, mut t) = (Bitboard::EMPTY, dir.shift(from));
                while t.any() {
                    hit |= t & occ;
                    t = dir.shift(t & !occ);
                }
                assert_eq!(dir.shift(dir.fill(from, !occ)) & occ, hit, "{d:?} {occ:?} {from:?}");
            }
        }
    }

    /// Every square with a noisy first part is among
    /// [`noisy_first_squares`], and the filter leaves out most squares.
    #[test]
    fn noisy_first_squares_hold_every_noisy_first_part() {
        let boards = boards();
        let (mut with_parts, mut kept, mut occupied) = (0, 0, 0);
        let (mut out, mut batch) = (Parts::new(), Parts::new());
        let mut promotions = 0;
        for b in &boards {
            let (cand, promoting) = noisy_first_squares(b);
            let flags = super::super::state::State::unpack(b.extra()).flags;
            for s in b.occupied() {
                out.clear();
                first_parts_from::<true>(b, &flags, s, &mut out, &mut batch);
                if !out.is_empty() {
                    with_parts += 1;
                    assert!(cand.contains(s), "{s} has {:?} in {}", out[0].part, Dynamo::fen(b));
                }
                // The mover's pieces outside `promoting` only leave the board.
                if b.by_color(b.turn()).contains(s) {
                    for k in out.iter().filter(|k| matches!(k.part, Part::Disp { promo: Some(_), .. })) {
                        promotions += 1;
                        assert!(promoting.contains(s), "{s} has {:?} in {}", k.part, Dynamo::fen(b));
                    }
                }
            }
            kept += cand.count();
            occupied += b.occupied().count();
        }
        assert!(boards.len() > 4000 && with_parts > 5000, "{} boards, {with_parts} squares", boards.len());
        assert!(promotions > 1000, "{promotions} promotions of the mover's pawns");
        // The filter is worth having: it keeps well under half the pieces.
        assert!(kept * 2 < occupied, "{kept} of {occupied}");
        eprintln!("{} boards: {with_parts} squares with noisy parts, {kept} kept of {occupied}", boards.len());
    }

    /// Wherever a first part in which the mover's own piece leaves the
    /// board has a second part that gains material (an enemy piece leaving,
    /// a pawn of the mover's promoting), [`gain_after_own_exit`] says so, and
    /// it rules out most such first parts.
    #[test]
    fn gain_after_own_exit_holds_every_gaining_second_part() {
        let (mut firsts, mut batch, mut seconds) = (Parts::new(), Parts::new(), Parts::new());
        let (mut exits, mut gaining, mut passed) = (0, 0, 0);
        for b in boards() {
            let mover = b.turn();
            let flags = super::super::state::State::unpack(b.extra()).flags;
            for s in b.by_color(mover) {
                firsts.clear();
                first_parts_from::<false>(&b, &flags, s, &mut firsts, &mut batch);
                for f in firsts.iter().map(|k| k.part).filter(|f| matches!(f, Part::Exit { .. })) {
                    let Some(moved) = b.piece_at(s) else { continue };
                    let mut b1 = b.clone();
                    f.apply(&mut b1);
                    let info = FirstInfo { fc: moved.color, fp: moved.role, from: s, to: None };
                    seconds.clear();
                    second_parts(&b1, mover, &info, Bitboard::FULL, &mut seconds, &mut batch);
                    let gains = seconds.iter().any(|c| match c.part {
                        Part::Exit { from } => b1.piece_at(from).is_some_and(|p| p.color != mover),
                        Part::Disp { from, promo: Some(_), .. } => b1.piece_at(from).is_some_and(|p| p.color == mover),
                        _ => false,
                    });
                    let said = gain_after_own_exit(&b, s);
                    assert!(!gains || said, "{f:?} in {}", Dynamo::fen(&b));
                    exits += 1;
                    gaining += gains as u32;
                    passed += said as u32;
                }
            }
        }
        assert!(exits > 10_000 && gaining > 100, "{exits} exits, {gaining} with a gaining second part");
        // Most exits of one's own pieces are ruled out before any board is built.
        assert!(passed * 4 < exits, "{passed} of {exits} exits pass");
        eprintln!("{exits} own exits: {gaining} with a gaining second part, {passed} pass the filter");
    }

    /// Every square that a first part or a second part after it touches is
    /// in [`turn_reach`], and the reach is narrower than the board.
    #[test]
    fn turn_reach_holds_every_touched_square() {
        let (mut firsts, mut batch, mut seconds) = (Parts::new(), Parts::new(), Parts::new());
        let (mut pairs, mut reach_total, mut displacements) = (0u64, 0u64, 0u64);
        for b in boards().iter().step_by(4) {
            let flags = super::super::state::State::unpack(b.extra()).flags;
            for s in b.occupied() {
                firsts.clear();
                first_parts_from::<false>(b, &flags, s, &mut firsts, &mut batch);
                for f in firsts.iter().map(|k| k.part) {
                    let reach = turn_reach(b, &f);
                    assert!(f.touched() & !reach == Bitboard::EMPTY, "{f:?} in {}", Dynamo::fen(b));
                    let Some(moved) = b.piece_at(f.from()).filter(|_| !matches!(f, Part::Castle { .. })) else {
                        continue;
                    };
                    let mut b1 = b.clone();
                    f.apply(&mut b1);
                    let to = match f {
                        Part::Disp { to, .. } => Some(to),
                        _ => None,
                    };
                    let info = FirstInfo { fc: moved.color, fp: moved.role, from: f.from(), to };
                    seconds.clear();
                    second_parts(&b1, b.turn(), &info, Bitboard::FULL, &mut seconds, &mut batch);
                    for c in &seconds {
                        pairs += 1;
                        assert!(
                            c.part.touched() & !reach == Bitboard::EMPTY,
                            "{:?} after {f:?} in {}",
                            c.part,
                            Dynamo::fen(b)
                        );
                    }
                    if to.is_some() {
                        reach_total += reach.count() as u64;
                        displacements += 1;
                    }
                }
            }
        }
        assert!(pairs > 10_000, "{pairs} second parts");
        // A few squares on average, not the board.
        assert!(reach_total < 6 * displacements, "{reach_total} squares for {displacements} displacements");
    }
}
