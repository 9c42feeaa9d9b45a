//! Text to [`Command`]: the UCI command parser. Total: every input line
//! gives a command or a [`ParseError`] that says what is wrong; nothing
//! panics, whatever the bytes.

use crate::search::Limits;
use std::fmt;

/// The `go` parameters, as given: the search limits, with `searchmoves`
/// still as text (they are read against the position when the search
/// starts). Values that did not parse are listed in `warnings` and
/// otherwise ignored, so that a GUI always gets a `bestmove`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub limits: Limits,
    pub searchmoves: Vec<String>,
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    /// `fen: None` is the start position.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    /// `go perft N`.
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    /// `d`: show the board.
    Display,
    /// `eval`: static evaluation.
    Eval,
    /// `bench [depth]`.
    Bench(Option<u32>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A blank line: nothing to do.
    Empty,
    /// Not a command we know; carries the line.
    Unknown(String),
    /// A known command with bad arguments.
    Malformed(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty line"),
            ParseError::Unknown(line) => write!(f, "Unknown command: '{line}'"),
            ParseError::Malformed(why) => write!(f, "{why}"),
        }
    }
}

/// Numbers accepted in `go` as milliseconds or counts: at most 18 digits so
/// nothing overflows; a leading minus is allowed for clock values.
fn parse_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

fn parse_go(args: &[&str]) -> Result<Command, ParseError> {
    let mut go = Go::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        let mut value = |name: &str| -> Option<i64> {
            let v = args.get(i).copied();
            match v.and_then(parse_int) {
                Some(n) => {
                    i += 1;
                    Some(n)
                }
                None => {
                    go.warnings.push(format!("ignoring go {name}: bad value '{}'", v.unwrap_or("")));
                    if v.is_some_and(|v| !GO_KEYWORDS.contains(&v)) {
                        i += 1;
                    }
                    None
                }
            }
        };
        let as_u32 = |n: i64| n.clamp(0, u32::MAX as i64) as u32;
        let as_u64 = |n: i64| n.max(0) as u64;
        match key {
            "wtime" => go.limits.clock.wtime = value("wtime"),
            "btime" => go.limits.clock.btime = value("btime"),
            "winc" => go.limits.clock.winc = value("winc"),
            "binc" => go.limits.clock.binc = value("binc"),
            "movestogo" => go.limits.clock.movestogo = value("movestogo").map(as_u32),
            "depth" => go.limits.depth = value("depth").map(as_u32),
            "nodes" => go.limits.nodes = value("nodes").map(as_u64),
            "mate" => go.limits.mate = value("mate").map(as_u32),
            "movetime" => go.limits.clock.movetime = value("movetime").map(as_u64),
            "infinite" => go.limits.infinite = true,
            "ponder" => go.limits.ponder = true,
            "perft" => {
                return match args.get(i).copied().and_then(parse_int) {
                    Some(n) if (0..=64).contains(&n) => Ok(Command::Perft(n as u32)),
                    _ => Err(ParseError::Malformed("go perft needs a depth from 0 to 64".into())),
                };
            }
            "searchmoves" => {
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    go.searchmoves.push(args[i].to_string());
                    i += 1;
                }
            }
            other => go.warnings.push(format!("ignoring unknown go parameter '{other}'")),
        }
    }
    Ok(Command::Go(go))
}

fn parse_position(args: &[&str]) -> Result<Command, ParseError> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let (head, moves) = match moves_at {
        Some(k) => (&args[..k], args[k + 1..].iter().map(|s| s.to_string()).collect()),
        None => (args, Vec::new()),
    };
    match head.first().copied() {
        Some("startpos") if head.len() == 1 => Ok(Command::Position { fen: None, moves }),
        Some("startpos") => {
            Err(ParseError::Malformed(format!("Invalid position: unexpected '{}' after startpos", head[1..].join(" "))))
        }
        Some("fen") if head.len() > 1 => Ok(Command::Position { fen: Some(head[1..].join(" ")), moves }),
        Some("fen") => Err(ParseError::Malformed("Invalid FEN: missing after 'position fen'".into())),
        _ => Err(ParseError::Malformed("Invalid position: expected 'startpos' or 'fen <FEN>'".into())),
    }
}

fn parse_setoption(args: &[&str]) -> Result<Command, ParseError> {
    if args.first() != Some(&"name") {
        return Err(ParseError::Malformed("setoption: expected 'name <id> [value <x>]'".into()));
    }
    let rest = &args[1..];
    let (name, value) = match rest.iter().position(|&t| t == "value") {
        Some(k) => (rest[..k].join(" "), Some(rest[k + 1..].join(" "))),
        None => (rest.join(" "), None),
    };
    if name.is_empty() {
        return Err(ParseError::Malformed("setoption: missing option name".into()));
    }
    Ok(Command::SetOption { name, value })
}

/// Parses one line. Leading/trailing whitespace, tabs and a CR are ignored.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, args)) = tokens.split_first() else {
        return Err(ParseError::Empty);
    };
    let trimmed = line.trim();
    let no_args = |c: Command| {
        if args.is_empty() { Ok(c) } else { Err(ParseError::Unknown(trimmed.to_string())) }
    };
    match head {
        "uci" => no_args(Command::Uci),
        "isready" => no_args(Command::IsReady),
        "ucinewgame" => no_args(Command::UciNewGame),
        "stop" => no_args(Command::Stop),
        "ponderhit" => no_args(Command::PonderHit),
        "quit" => no_args(Command::Quit),
        "d" => no_args(Command::Display),
        "eval" => no_args(Command::Eval),
        "register" => Ok(Command::Register),
        "debug" => match args {
            ["on"] => Ok(Command::Debug(true)),
            ["off"] => Ok(Command::Debug(false)),
            _ => Err(ParseError::Malformed("debug: expected 'on' or 'off'".into())),
        },
        "setoption" => parse_setoption(args),
        "position" => parse_position(args),
        "go" => parse_go(args),
        "bench" => match args {
            [] => Ok(Command::Bench(None)),
            [d] => match parse_int(d) {
                Some(n) if (1..=64).contains(&n) => Ok(Command::Bench(Some(n as u32))),
                _ => Err(ParseError::Malformed("bench: depth must be 1 to 64".into())),
            },
            _ => Err(ParseError::Malformed("bench: expected at most a depth".into())),
        },
        _ => Err(ParseError::Unknown(trimmed.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_in_any_order() {
        let Ok(Command::Go(g)) =
            parse("go movetime 100 wtime 5000 btime -20 infinite depth 7 searchmoves e2e4 d2d4 ponder")
        else {
            panic!()
        };
        assert_eq!(g.limits.clock.movetime, Some(100));
        assert_eq!(g.limits.clock.wtime, Some(5000));
        assert_eq!(g.limits.clock.btime, Some(-20));
        assert_eq!(g.limits.depth, Some(7));
        assert!(g.limits.infinite && g.limits.ponder);
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
        assert!(g.warnings.is_empty());
    }

    #[test]
    fn go_with_bad_values_still_searches() {
        let Ok(Command::Go(g)) = parse("go depth x wtime 99999999999999999999999 nodes 5") else { panic!() };
        assert_eq!(g.limits.depth, None);
        assert_eq!(g.limits.clock.wtime, None);
        assert_eq!(g.limits.nodes, Some(5));
        assert_eq!(g.warnings.len(), 2);
        let Ok(Command::Go(g)) = parse("go depth") else { panic!() };
        assert_eq!(g.limits.depth, None);
        let Ok(Command::Go(g)) = parse("go depth 256 ") else { panic!() };
        assert_eq!(g.limits.depth, Some(256));
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse(" position  startpos moves e2e4\te7e5\r"),
            Ok(Command::Position { fen: None, moves: vec!["e2e4".into(), "e7e5".into()] })
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1"),
            Ok(Command::Position { fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()), moves: vec![] })
        );
        assert!(matches!(parse("position"), Err(ParseError::Malformed(_))));
        assert!(matches!(parse("position fen"), Err(ParseError::Malformed(_))));
    }

    #[test]
    fn setoption_names_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Ok(Command::SetOption { name: "Move Overhead".into(), value: Some("30".into()) })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption { name: "Clear Hash".into(), value: None })
        );
    }

    #[test]
    fn unknown_and_empty() {
        assert_eq!(parse("   "), Err(ParseError::Empty));
        assert_eq!(parse("hello world"), Err(ParseError::Unknown("hello world".into())));
        assert_eq!(parse("go perft 3"), Ok(Command::Perft(3)));
        assert_eq!(parse("isready now"), Err(ParseError::Unknown("isready now".into())));
    }
}
