//! Where the games of a match start: an opening file (FEN or EPD lines) or
//! random legal plies from the variant's start position.

use crate::board::Board;
use crate::types::MoveList;
use crate::variant::Variant;

/// Reads openings: one FEN or EPD per line ('#' comments and blank lines skipped).
pub fn load_openings<V: Variant>(path: &str) -> Result<Vec<Board>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // EPD operations after the fourth field are dropped.
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = if fields.len() > 6 || line.contains(';') {
            fields[..4.min(fields.len())].join(" ")
        } else {
            line.to_string()
        };
        let b = V::from_fen(&fen).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        out.push(b);
    }
    if out.is_empty() {
        return Err(format!("{path}: no openings"));
    }
    Ok(out)
}

/// `n` openings of `plies` random legal moves from the start position,
/// reproducible from `seed`; openings that end the game are redrawn.
pub fn random_openings<V: Variant>(n: usize, plies: u32, seed: u64) -> Vec<Board> {
    let mut rng = crate::types::SplitMix::new(seed ^ 0x0123_4567_89AB_CDEF);
    let start = V::from_fen(V::start_fen()).unwrap_or_else(|_| Board::startpos());
    let mut out = Vec::with_capacity(n);
    'outer: while out.len() < n {
        let mut b = start.clone();
        for _ in 0..plies {
            let mut list = MoveList::new();
            V::legal_moves(&b, &mut list);
            if list.is_empty() {
                continue 'outer;
            }
            b = V::play(&b, list[(rng.next_u64() % list.len() as u64) as usize]);
        }
        // No opening where the game is over or can be won on the spot.
        if V::outcome(&b).is_some() {
            continue;
        }
        let mut list = MoveList::new();
        V::legal_moves(&b, &mut list);
        if list.iter().any(|&m| V::outcome(&V::play(&b, m)).is_some()) {
            continue;
        }
        out.push(b);
    }
    out
}
