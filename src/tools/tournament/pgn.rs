//! PGN output: standard algebraic notation for the chess-like variants,
//! the seven-tag roster plus `Variant`, `FEN`/`SetUp`, `TimeControl`,
//! `Termination` and `PlyCount`.

use super::game::{GameRecord, TimeControl};
use crate::board::Board;
use crate::types::{Move, MoveKind, MoveList, Role};
use crate::variant::Variant;

/// SAN of a legal move `m` on `b` (check `+` and mate `#` by the variant's rules).
pub fn san<V: Variant>(b: &Board, m: Move) -> String {
    if !V::STANDARD_NOTATION {
        return crate::notation::move_to_uci(m);
    }
    let mut s = String::new();
    let role = b.role_at(m.from()).unwrap_or(Role::Pawn);
    if m.kind() == MoveKind::Castle {
        s.push_str(if m.to().file() > m.from().file() { "O-O" } else { "O-O-O" });
    } else {
        let capture = b.occupied().contains(m.to()) || m.kind() == MoveKind::EnPassant;
        if role == Role::Pawn {
            if capture {
                s.push(m.from().file().char());
            }
        } else {
            s.push(role.char().to_ascii_uppercase());
            // Disambiguate among other pieces of the same kind reaching the same square.
            let mut list = MoveList::new();
            V::legal_moves(b, &mut list);
            let others: Vec<Move> = list
                .iter()
                .copied()
                .filter(|o| {
                    o.to() == m.to()
                        && o.from() != m.from()
                        && o.kind() != MoveKind::Castle
                        && b.role_at(o.from()) == Some(role)
                })
                .collect();
            if !others.is_empty() {
                let same_file = others.iter().any(|o| o.from().file() == m.from().file());
                let same_rank = others.iter().any(|o| o.from().rank() == m.from().rank());
                if !same_file {
                    s.push(m.from().file().char());
                } else if !same_rank {
                    s.push(m.from().rank().char());
                } else {
                    s.push_str(&m.from().to_string());
                }
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&m.to().to_string());
        if let Some(p) = m.promotion_role() {
            s.push('=');
            s.push(p.char().to_ascii_uppercase());
        }
    }
    let after = V::play(b, m);
    if V::is_check(&after) {
        s.push(if V::count_moves(&after) == 0 { '#' } else { '+' });
    }
    s
}

/// PGN `Variant` tag value, as python-chess and lichess name the variants.
pub fn variant_tag(name: &str) -> Option<&'static str> {
    match name {
        "chess" => None,
        "atomic" => Some("Atomic"),
        "dynamo" => Some("Dynamo"),
        "push" => Some("Push"),
        _ => None,
    }
}

/// Header values of one game.
pub struct Header<'a> {
    pub event: &'a str,
    pub date: &'a str,
    pub round: u32,
    pub white: &'a str,
    pub black: &'a str,
    pub tc: TimeControl,
}

/// One game as PGN text.
pub fn write_game<V: Variant>(h: &Header<'_>, g: &GameRecord) -> String {
    let mut out = String::new();
    let tag = |out: &mut String, k: &str, v: &str| {
        out.push_str(&format!("[{k} \"{}\"]\n", v.replace('\\', "\\\\").replace('"', "\\\"")));
    };
    tag(&mut out, "Event", h.event);
    tag(&mut out, "Site", "?");
    tag(&mut out, "Date", h.date);
    tag(&mut out, "Round", &h.round.to_string());
    tag(&mut out, "White", h.white);
    tag(&mut out, "Black", h.black);
    tag(&mut out, "Result", g.result_str());
    if let Some(v) = variant_tag(V::NAME) {
        tag(&mut out, "Variant", v);
    }
    let fen = V::fen(&g.start);
    if fen != V::start_fen() {
        tag(&mut out, "FEN", &fen);
        tag(&mut out, "SetUp", "1");
    }
    tag(&mut out, "TimeControl", &h.tc.pgn());
    tag(&mut out, "Termination", g.termination.pgn());
    tag(&mut out, "PlyCount", &g.moves.len().to_string());
    out.push('\n');

    let mut text = String::new();
    let mut b = g.start.clone();
    let mut number = b.fullmoves();
    for (i, &m) in g.moves.iter().enumerate() {
        if b.turn().is_white() {
            text.push_str(&format!("{number}. "));
        } else if i == 0 {
            text.push_str(&format!("{number}... "));
        }
        text.push_str(&san::<V>(&b, m));
        text.push(' ');
        b = V::play(&b, m);
        if b.turn().is_white() {
            number += 1;
        }
    }
    text.push_str(&format!("{{{}}} {}", g.reason.replace(['{', '}'], ""), g.result_str()));
    // Wrap at 80 columns.
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.len() + 1 + word.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Today's date as `YYYY.MM.DD` (UTC), from the system clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}.{m:02}.{d:02}")
}
