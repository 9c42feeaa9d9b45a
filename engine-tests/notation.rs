//! Move notation: every legal move of every suite position (and of every
//! position one move later) round-trips through the UCI text, and no two
//! legal moves of a position share a string.

use crate::common;

use fission::notation::{move_to_uci, parse_move};
use fission::{Atomic, Board, Chess, Dynamo, MoveList, Push, Variant};
use std::collections::HashSet;

fn round_trip<V: Variant>(file: &str) -> usize {
    let mut checked = 0;
    for e in common::load_suite(file) {
        let root = V::from_fen(&e.fen).unwrap();
        let mut first = MoveList::new();
        V::legal_moves(&root, &mut first);
        let mut boards: Vec<Board> = vec![root.clone()];
        boards.extend(first.iter().map(|&m| V::play(&root, m)));
        for b in &boards {
            let mut list = MoveList::new();
            V::legal_moves(b, &mut list);
            let mut seen = HashSet::new();
            for &m in &list {
                let text = move_to_uci(m);
                assert!(seen.insert(text.clone()), "{}: two legal moves read {text} in {}", e.id, b.fen());
                assert_eq!(parse_move::<V>(b, &text), Some(m), "{}: {text} in {}", e.id, b.fen());
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn chess_notation_round_trips() {
    assert!(round_trip::<Chess>("chess.perft") > 10_000);
}

#[test]
fn atomic_notation_round_trips() {
    assert!(round_trip::<Atomic>("atomic.perft") > 10_000);
}

#[test]
fn push_notation_round_trips() {
    assert!(round_trip::<Push>("push.perft") > 10_000);
}

#[test]
fn dynamo_notation_round_trips() {
    assert!(round_trip::<Dynamo>("dynamo.perft") > 10_000);
}

#[test]
fn garbage_is_not_a_move() {
    let b = Board::startpos();
    for t in ["", "e2", "e2e4q", "e2e5", "a1a1", "zz99", "e2e4e2e4", "é2e4", "e1g1"] {
        assert_eq!(parse_move::<Chess>(&b, t), None, "{t}");
    }
}
