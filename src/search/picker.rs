//! Move ordering in stages: the transposition-table move, then tactical
//! moves that gain material (by the variant's own measure: in atomic the
//! whole blast), killers and the countermove, quiet moves by their main and
//! continuation histories, and losing tactical moves last.
//!
//! The work is done as late as it can be: the hash move is played before any
//! move is scored, tactical moves are scored only when the hash move did not
//! cut, quiet moves only when no tactical move or killer did. Quiescence asks
//! for tactical moves only ([`Picker::tactical`]), so its quiet moves are
//! never scored or looked at again.
//!
//! The picker borrows the move list and a score buffer that live in the
//! caller's frame: move lists are large (see `MAX_MOVES`), and moving them
//! into a struct at every node would copy kilobytes per node.

use super::history::{Histories, PieceTo};
use crate::board::Board;
use crate::eval::Evaluate;
use crate::types::{MAX_MOVES, Move, MoveList};
use arrayvec::ArrayVec;

/// Tactical moves that do not lose material score at least this.
const GOOD_TACTICAL: i32 = 1 << 28;
/// Capture history counts this much less than a centipawn of gain x 16.
const CAPTURE_HISTORY_DIVISOR: i32 = 4;

/// Score storage for one node's picker (index-aligned with the move list).
pub type Scores = ArrayVec<i32, MAX_MOVES>;

/// What the picker needs to know besides the position and the histories
/// (given to each [`Picker::next`] call: the search updates them between
/// calls): the hash move, killers, the countermove and the moves before
/// this node.
pub struct Ordering {
    pub tt_move: Move,
    pub killers: [Move; 2],
    pub countermove: Move,
    pub prev: [Option<PieceTo>; 2],
}

impl Ordering {
    /// Nothing known: no hash move, no refutations, no previous moves.
    pub const NONE: Ordering =
        Ordering { tt_move: Move::NONE, killers: [Move::NONE; 2], countermove: Move::NONE, prev: [None, None] };
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    HashMove,
    /// The hash move of [`Picker::hash_move_first`], then the list generated.
    UngeneratedHashMove,
    Generate,
    ScoreTactical,
    GoodTactical,
    Refutations,
    ScoreQuiet,
    Quiet,
    BadTactical,
    Done,
}

/// The list is kept as `[yielded quiet | quiet | yielded tactical | tactical]`,
/// each group in generation order to begin with (equal scores are taken in
/// that order): quiet moves not yet yielded are `quiet..quiet_end`, tactical
/// ones `tactical..moves.len()`. A move is yielded by swapping it to the
/// front of its range and advancing the range's start.
pub struct Picker<'a> {
    b: &'a Board,
    moves: &'a mut MoveList,
    scores: &'a mut Scores,
    order: &'a Ordering,
    stage: Stage,
    quiet: usize,
    quiet_end: usize,
    tactical: usize,
    refutation: usize,
    /// Refutations already yielded (not to be played twice).
    yielded: [Move; 3],
    /// The list holds quiescence's noisy moves without the checks, which
    /// are generated when the quiet moves are first asked for
    /// ([`Picker::checks_later`]).
    checks_later: bool,
}

impl<'a> Picker<'a> {
    /// A picker over every move in `moves`.
    pub fn new<V: Evaluate>(
        b: &'a Board,
        moves: &'a mut MoveList,
        scores: &'a mut Scores,
        order: &'a Ordering,
    ) -> Picker<'a> {
        Self::build::<V>(b, moves, scores, order, false)
    }

    /// A picker over the tactical moves in `moves` only, with no hash move
    /// or refutations (quiescence); the quiet moves are dropped from the list.
    pub fn tactical<V: Evaluate>(b: &'a Board, moves: &'a mut MoveList, scores: &'a mut Scores) -> Picker<'a> {
        Self::build::<V>(b, moves, scores, &Ordering::NONE, true)
    }

    /// A picker whose `moves` are not generated yet, for a hash move known
    /// to be legal: it yields the hash move first, and generates the list
    /// only when asked for the next move. The order is that of
    /// [`Picker::new`] over the generated list.
    pub fn hash_move_first<V: Evaluate>(
        b: &'a Board,
        moves: &'a mut MoveList,
        scores: &'a mut Scores,
        order: &'a Ordering,
    ) -> Picker<'a> {
        debug_assert!(moves.is_empty() && !order.tt_move.is_none());
        let mut p = Self::build::<V>(b, moves, scores, order, false);
        p.stage = Stage::UngeneratedHashMove;
        p
    }

    /// Quiescence with checks: a picker over `V::noisy_moves(b, false)`
    /// that generates `V::noisy_moves(b, true)` only when its tactical
    /// moves are spent (most nodes cut before). The order is that of
    /// [`Picker::new`] over the list with checks, with no hash move or
    /// refutations: both lists have the same tactical moves in the same
    /// order, and the checks are quiet.
    pub fn checks_later<V: Evaluate>(b: &'a Board, moves: &'a mut MoveList, scores: &'a mut Scores) -> Picker<'a> {
        let mut p = Self::build::<V>(b, moves, scores, &Ordering::NONE, false);
        p.checks_later = true;
        p
    }

    /// Replaces the quiet moves (none yielded yet) by those of the list
    /// with checks, in its order; the tactical moves keep their places
    /// after them, with their scores.
    fn add_checks<V: Evaluate>(&mut self) {
        debug_assert!(self.quiet == 0);
        let mut all = MoveList::new();
        V::noisy_moves(self.b, true, &mut all);
        let mut moves = MoveList::new();
        moves.extend(all.iter().copied().filter(|&m| !V::is_tactical(self.b, m)));
        let quiets = moves.len();
        debug_assert_eq!(all.len() - quiets, self.moves.len() - self.quiet_end);
        moves.extend(self.moves[self.quiet_end..].iter().copied());
        let mut scores = Scores::new();
        scores.extend(std::iter::repeat_n(0, quiets));
        scores.extend(self.scores[self.quiet_end..].iter().copied());
        *self.moves = moves;
        *self.scores = scores;
        self.tactical = self.tactical - self.quiet_end + quiets;
        self.quiet_end = quiets;
        self.checks_later = false;
    }

    fn build<V: Evaluate>(
        b: &'a Board,
        moves: &'a mut MoveList,
        scores: &'a mut Scores,
        order: &'a Ordering,
        tactical_only: bool,
    ) -> Picker<'a> {
        scores.clear();
        let mut p = Picker {
            b,
            moves,
            scores,
            order,
            stage: Stage::HashMove,
            quiet: 0,
            quiet_end: 0,
            tactical: 0,
            refutation: 0,
            yielded: [Move::NONE; 3],
            checks_later: false,
        };
        p.split::<V>(tactical_only);
        p
    }

    /// Quiet moves to the front, tactical ones after them, both stably
    /// (the quiet ones dropped with `tactical_only`).
    fn split<V: Evaluate>(&mut self, tactical_only: bool) {
        let moves = &mut *self.moves;
        let mut tactical = MoveList::new();
        let mut split = 0;
        for i in 0..moves.len() {
            let m = moves[i];
            if V::is_tactical(self.b, m) {
                tactical.push(m);
            } else {
                moves[split] = m;
                split += 1;
            }
        }
        let quiet_end = if tactical_only { 0 } else { split };
        moves.truncate(quiet_end);
        moves.extend(tactical.iter().copied());
        (self.quiet, self.quiet_end, self.tactical) = (0, quiet_end, quiet_end);
    }

    /// Where the hash move is in the unyielded ranges.
    fn find_hash_move(&self) -> Option<usize> {
        let tt = self.order.tt_move;
        if tt.is_none() {
            return None;
        }
        self.find(tt, self.tactical, self.moves.len()).or_else(|| self.find(tt, self.quiet, self.quiet_end))
    }

    /// Removes the move at `i` from its unyielded range and returns it.
    fn take(&mut self, i: usize) -> (Move, bool) {
        let tactical = i >= self.quiet_end;
        let front = if tactical { &mut self.tactical } else { &mut self.quiet };
        let f = *front;
        *front += 1;
        self.moves.swap(f, i);
        if !self.scores.is_empty() {
            self.scores.swap(f, i);
        }
        (self.moves[f], tactical)
    }

    /// Index of the best-scored move in `from..to` (the first of equals).
    #[inline]
    fn best_in(&self, from: usize, to: usize) -> Option<usize> {
        if from >= to {
            return None;
        }
        let scores = &self.scores[from..to];
        let (mut best, mut best_score) = (0, scores[0]);
        for (i, &s) in scores.iter().enumerate().skip(1) {
            if s > best_score {
                (best, best_score) = (i, s);
            }
        }
        Some(from + best)
    }

    fn find(&self, m: Move, from: usize, to: usize) -> Option<usize> {
        (from..to).find(|&i| self.moves[i] == m)
    }

    /// The next move in order and whether it is tactical.
    pub fn next<V: Evaluate>(&mut self, histories: &Histories) -> Option<(Move, bool)> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::ScoreTactical;
                    if let Some(i) = self.find_hash_move() {
                        return Some(self.take(i));
                    }
                }
                Stage::UngeneratedHashMove => {
                    self.stage = Stage::Generate;
                    let tt = self.order.tt_move;
                    return Some((tt, V::is_tactical(self.b, tt)));
                }
                Stage::Generate => {
                    // As if the hash move had been yielded from the list.
                    V::legal_moves(self.b, self.moves);
                    self.split::<V>(false);
                    let hash = self.find_hash_move();
                    debug_assert!(hash.is_some(), "hash move not legal");
                    if let Some(i) = hash {
                        self.take(i);
                    }
                    self.stage = Stage::ScoreTactical;
                }
                Stage::ScoreTactical => {
                    // Quiet moves are scored later, and yielded moves never.
                    self.scores.extend(std::iter::repeat_n(0, self.tactical));
                    for i in self.tactical..self.moves.len() {
                        let m = self.moves[i];
                        let gain = V::tactical_gain(self.b, m);
                        let h = histories.capture(self.b, m) / CAPTURE_HISTORY_DIVISOR;
                        self.scores.push(if gain >= 0 { GOOD_TACTICAL + gain * 16 + h } else { gain + h });
                    }
                    self.stage = Stage::GoodTactical;
                }
                Stage::GoodTactical => match self.best_in(self.tactical, self.moves.len()) {
                    Some(i) if self.scores[i] >= GOOD_TACTICAL / 2 => return Some(self.take(i)),
                    _ => self.stage = Stage::Refutations,
                },
                Stage::Refutations => {
                    let o = self.order;
                    let candidates = [o.killers[0], o.killers[1], o.countermove];
                    while self.refutation < candidates.len() {
                        let m = candidates[self.refutation];
                        self.refutation += 1;
                        if m.is_none() || m == o.tt_move || self.yielded.contains(&m) {
                            continue;
                        }
                        if let Some(i) = self.find(m, self.quiet, self.quiet_end) {
                            self.yielded[self.refutation - 1] = m;
                            return Some(self.take(i));
                        }
                    }
                    self.stage = Stage::ScoreQuiet;
                }
                Stage::ScoreQuiet => {
                    if self.checks_later {
                        self.add_checks::<V>();
                    }
                    let o = self.order;
                    let us = self.b.turn();
                    for i in self.quiet..self.quiet_end {
                        let m = self.moves[i];
                        self.scores[i] = histories.quiet(us, PieceTo::of(self.b, m), m, o.prev);
                    }
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => match self.best_in(self.quiet, self.quiet_end) {
                    Some(i) => return Some(self.take(i)),
                    None => self.stage = Stage::BadTactical,
                },
                Stage::BadTactical => match self.best_in(self.tactical, self.moves.len()) {
                    Some(i) => return Some(self.take(i)),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Atomic, Chess, Variant};

    /// Positions of random games (a fixed seed).
    fn positions<V: Variant>(games: usize, seed: u64) -> Vec<Board> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut b = V::from_fen(V::start_fen()).unwrap();
            for _ in 0..60 {
                let mut list = MoveList::new();
                V::legal_moves(&b, &mut list);
                if list.is_empty() || V::outcome(&b).is_some() {
                    break;
                }
                out.push(b.clone());
                b = V::play(&b, list[rng.usize(..list.len())]);
            }
        }
        out
    }

    /// Histories with some quiet and capture scores, so that the order is
    /// not just generation order.
    fn trained_histories<V: Evaluate>(boards: &[Board], rng: &mut fastrand::Rng) -> Histories {
        let mut h = Histories::default();
        for b in boards.iter().step_by(3) {
            let mut list = MoveList::new();
            V::legal_moves(b, &mut list);
            for &m in list.iter().step_by(2) {
                let bonus = rng.i32(-400..400);
                if V::is_tactical(b, m) {
                    h.update_capture(b, m, bonus);
                } else {
                    h.update_quiet(b.turn(), PieceTo::of(b, m), m, [None, None], bonus);
                }
            }
        }
        h
    }

    fn check_order<V: Evaluate>(seed: u64) {
        let boards = positions::<V>(20, seed);
        let mut rng = fastrand::Rng::with_seed(seed);
        let h = trained_histories::<V>(&boards, &mut rng);
        for b in &boards {
            let mut all = MoveList::new();
            V::legal_moves(b, &mut all);
            let pick = |rng: &mut fastrand::Rng| {
                if rng.bool() { all[rng.usize(..all.len())] } else { Move::NONE }
            };
            let order = Ordering {
                tt_move: pick(&mut rng),
                killers: [pick(&mut rng), pick(&mut rng)],
                countermove: pick(&mut rng),
                prev: [None, None],
            };
            let (mut moves, mut scores) = (all.clone(), Scores::new());
            let mut p = Picker::new::<V>(b, &mut moves, &mut scores, &order);
            let mut seen = Vec::new();
            while let Some((m, tactical)) = p.next::<V>(&h) {
                assert_eq!(tactical, V::is_tactical(b, m), "{m:?}");
                seen.push(m);
            }
            // Every move exactly once.
            let mut a: Vec<_> = all.iter().map(|m| m.raw()).collect();
            let mut s: Vec<_> = seen.iter().map(|m| m.raw()).collect();
            a.sort_unstable();
            s.sort_unstable();
            assert_eq!(a, s);
            // The hash move first; then the order of the stages.
            if !order.tt_move.is_none() {
                assert_eq!(seen[0], order.tt_move);
            }
            let stage = |m: Move| {
                if m == order.tt_move {
                    0
                } else if V::is_tactical(b, m) {
                    if V::tactical_gain(b, m) >= 0 { 1 } else { 5 }
                } else if m == order.killers[0] || m == order.killers[1] || m == order.countermove {
                    2
                } else {
                    3
                }
            };
            let stages: Vec<_> = seen.iter().map(|&m| stage(m)).collect();
            assert!(stages.is_sorted(), "{stages:?}");
            // Quiet moves by history, best first.
            let quiet: Vec<_> = seen
                .iter()
                .filter(|&&m| stage(m) == 3)
                .map(|&m| h.quiet(b.turn(), PieceTo::of(b, m), m, [None, None]))
                .collect();
            assert!(quiet.is_sorted_by(|x, y| x >= y), "{quiet:?}");

            // The tactical picker: exactly the tactical moves, same order.
            let (mut moves, mut scores) = (all.clone(), Scores::new());
            let mut p = Picker::tactical::<V>(b, &mut moves, &mut scores);
            let mut tactical = Vec::new();
            while let Some((m, t)) = p.next::<V>(&h) {
                assert!(t);
                tactical.push(m);
            }
            let (mut moves, mut scores) = (all.clone(), Scores::new());
            let mut p = Picker::new::<V>(b, &mut moves, &mut scores, &Ordering::NONE);
            let mut expected = Vec::new();
            while let Some((m, t)) = p.next::<V>(&h) {
                if t {
                    expected.push(m);
                }
            }
            assert_eq!(tactical, expected);
        }
    }

    /// A picker that starts from the hash move alone and generates later
    /// yields exactly what the eager picker yields, in the same order.
    fn check_hash_move_first<V: Evaluate>(seed: u64) {
        let boards = positions::<V>(12, seed);
        let mut rng = fastrand::Rng::with_seed(seed);
        let h = trained_histories::<V>(&boards, &mut rng);
        let mut compared = 0;
        for b in &boards {
            let mut all = MoveList::new();
            V::legal_moves(b, &mut all);
            let order = Ordering {
                tt_move: all[rng.usize(..all.len())],
                killers: [all[rng.usize(..all.len())], Move::NONE],
                countermove: all[rng.usize(..all.len())],
                prev: [None, None],
            };
            let (mut moves, mut scores) = (all.clone(), Scores::new());
            let mut eager = Picker::new::<V>(b, &mut moves, &mut scores, &order);
            let (mut later, mut later_scores) = (MoveList::new(), Scores::new());
            let mut lazy = Picker::hash_move_first::<V>(b, &mut later, &mut later_scores, &order);
            loop {
                let (e, l) = (eager.next::<V>(&h), lazy.next::<V>(&h));
                assert_eq!(e, l);
                if e.is_none() {
                    break;
                }
                compared += 1;
            }
        }
        assert!(compared > 1000, "{compared}");
    }

    /// Quiescence's picker that adds the checks late yields what the eager
    /// picker over the list with checks yields, in the same order.
    #[test]
    fn checks_later_is_the_same_order() {
        use crate::variant::Dynamo;
        let boards = positions::<Dynamo>(12, 15);
        let mut rng = fastrand::Rng::with_seed(15);
        let h = trained_histories::<Dynamo>(&boards, &mut rng);
        let (mut compared, mut checks) = (0, 0);
        for b in &boards {
            let mut all = MoveList::new();
            Dynamo::noisy_moves(b, true, &mut all);
            let mut scores = Scores::new();
            let mut eager = Picker::new::<Dynamo>(b, &mut all, &mut scores, &Ordering::NONE);
            let (mut later, mut later_scores) = (MoveList::new(), Scores::new());
            Dynamo::noisy_moves(b, false, &mut later);
            let mut lazy = Picker::checks_later::<Dynamo>(b, &mut later, &mut later_scores);
            loop {
                let (e, l) = (eager.next::<Dynamo>(&h), lazy.next::<Dynamo>(&h));
                assert_eq!(e, l);
                let Some((_, tactical)) = e else { break };
                compared += 1;
                checks += usize::from(!tactical);
            }
        }
        assert!(compared > 1000 && checks > 100, "{compared} moves, {checks} quiet");
    }

    #[test]
    fn hash_move_first_is_the_same_order() {
        check_hash_move_first::<Atomic>(13);
        check_hash_move_first::<crate::variant::Dynamo>(14);
    }

    #[test]
    fn atomic_order() {
        check_order::<Atomic>(11);
    }

    #[test]
    fn chess_order() {
        check_order::<Chess>(12);
    }
}
