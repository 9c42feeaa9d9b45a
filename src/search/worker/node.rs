//! The interior of the tree: principal variation search ([`Worker::search`])
//! with its pruning and reductions, and quiescence ([`Worker::qsearch`]).

use super::{Worker, tt_cutoff};
use crate::board::Board;
use crate::eval::Evaluate;
use crate::search::history::{self, PieceTo};
use crate::search::params::*;
use crate::search::picker::{Ordering as MoveOrdering, Picker, Scores};
use crate::search::score::{self, DRAW, INFINITE, MATE_BOUND};
use crate::search::tt::{Bound, TtEntry};
use crate::types::{Move, MoveList};
use arrayvec::ArrayVec;

/// What a node of the main search knows once its static evaluation is in.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    ply: usize,
    pv_node: bool,
    in_check: bool,
    /// Not in check and (atomic) no king that can be blown up: pruning by
    /// the static evaluation is sound.
    calm: bool,
    /// Our static evaluation rose since our previous move.
    improving: bool,
    /// The corrected static evaluation (`-INFINITE` in check).
    eval: i32,
    /// The hash move, and the plies its search is extended by (negative:
    /// reduced) after the singular-extension test.
    tt_move: Move,
    singular: i32,
    /// The move left out (a singular-extension search), or `NONE`.
    excluded: Move,
}

/// Where a move stands in its node's move loop.
#[derive(Clone, Copy)]
struct MoveInfo {
    m: Move,
    tactical: bool,
    /// Moves searched (or pruned) before it.
    index: usize,
}

impl<V: Evaluate> Worker<'_, V> {
    /// Puts the position after `m` (from `b`, at `ply`) on the search path:
    /// its hash bucket prefetched, its accumulator delta recorded, its key
    /// and the move remembered. [`Worker::unmake_move`] takes it off.
    #[inline]
    pub(super) fn make_move(&mut self, b: &Board, m: Move, ply: usize) -> Board {
        let child = V::play(b, m);
        self.shared.tt.prefetch(child.key());
        self.eval.push(ply, b, &child);
        self.keys.push(child.key());
        self.stack[ply].moved = Some(PieceTo::of(b, m));
        child
    }

    #[inline]
    pub(super) fn unmake_move(&mut self) {
        self.keys.pop();
    }

    /// The static evaluation of `b`, the position at `ply` of the current path.
    #[inline]
    pub(super) fn evaluate(&mut self, b: &Board, ply: usize) -> i32 {
        self.eval.evaluate::<V>(b, ply)
    }

    pub(super) fn search(
        &mut self,
        b: &Board,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(b, alpha, beta, ply, 0);
        }
        if let Some(s) = self.enter(b, ply) {
            return s;
        }
        if (V::FIFTY_MOVE_RULE && b.halfmoves() >= 100)
            || self.is_repetition(b.halfmoves())
            || V::is_insufficient_material(b)
        {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(b, ply);
        }
        // Mate distance pruning.
        alpha = alpha.max(score::mated_in(ply));
        beta = beta.min(score::mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // A singular-extension search revisits this node without one move:
        // no cut-off by, and no store to, the hash table for it, and the
        // static evaluation is already on the stack.
        let excluded = self.stack[ply].excluded;
        let singular_search = !excluded.is_none();
        let key = b.key();
        let tt = self.shared.tt.probe(key);
        let tt_move = tt.map_or(Move::NONE, |e| e.mv);
        if let Some(e) = tt
            && !pv_node
            && !singular_search
            && e.depth >= depth
            && let Some(s) = tt_cutoff(&e, alpha, beta, ply)
        {
            return s;
        }

        let in_check = V::is_check(b);
        let (raw_eval, eval) = if in_check {
            (-INFINITE, -INFINITE)
        } else if singular_search {
            (self.stack[ply].static_eval, self.stack[ply].static_eval)
        } else {
            let raw = tt.map_or_else(|| self.evaluate(b, ply), |e| e.eval);
            (raw, self.histories.corrected(b, raw))
        };
        if !singular_search {
            self.stack[ply].static_eval = eval;
            self.stack[ply].double_extensions = self.stack[ply - 1].double_extensions;
        }
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].static_eval;
        let calm = !in_check && V::stand_pat_ok(b);
        let mut node = Node { depth, ply, pv_node, in_check, calm, improving, eval, tt_move, singular: 0, excluded };

        if !pv_node
            && calm
            && !singular_search
            && !score::is_mate(beta)
            && let Some(s) = self.prune_node(b, beta, &node)
        {
            return s;
        }
        // Internal iterative reduction: with no hash move to start from, a
        // deep node is searched one ply shallower (its next visit has one).
        if depth >= IIR_MIN_DEPTH && tt_move.is_none() {
            node.depth -= 1;
        }
        if let Some(e) = tt
            && !singular_search
        {
            match self.singular_extension(b, &e, beta, &node) {
                Ok(ext) => node.singular = ext,
                Err(s) => return s,
            }
        }
        let (best, best_move, bound) = match self.move_loop(b, alpha, beta, tt_move, &node) {
            Some(r) => r,
            None => return 0,
        };
        if best_move.is_none() && bound == Bound::Upper && best == -INFINITE {
            // No legal move (but the excluded one).
            return if singular_search {
                alpha
            } else if in_check {
                score::mated_in(ply)
            } else {
                DRAW
            };
        }
        if singular_search {
            return best;
        }
        // Teach the correction history how far the static evaluation was
        // off, where the score says something about it: a quiet best move
        // (or none) and a bound on the right side of the evaluation.
        if !in_check
            && !score::is_mate(best)
            && (best_move.is_none() || !V::is_tactical(b, best_move))
            && !(bound == Bound::Lower && best <= eval || bound == Bound::Upper && best >= eval)
        {
            self.histories.update_correction(b, node.depth, best - eval);
        }
        let stored_eval = if in_check { 0 } else { raw_eval };
        self.shared.tt.store(key, best_move, score::to_tt(best, ply), stored_eval, node.depth, bound);
        best
    }

    /// Singular extensions: is the hash move `e.mv` much better than every
    /// other move? A null-window search at half depth without it says: `Ok`
    /// with the plies to extend it by (2 or 1 if singular, -1 if not but the
    /// entry already beats beta, else 0), or `Err` with the score to return
    /// at once (multi-cut: the other moves beat beta as well; 0 if the
    /// search stopped).
    fn singular_extension(&mut self, b: &Board, e: &TtEntry, beta: i32, node: &Node) -> Result<i32, i32> {
        let Node { depth, ply, pv_node, .. } = *node;
        let tt_score = score::from_tt(e.score, ply);
        if !features(V::KIND).singular_extensions
            || depth < SE_MIN_DEPTH
            || e.mv.is_none()
            || e.depth < depth - SE_TT_DEPTH_MARGIN
            || e.bound == Bound::Upper
            || score::is_mate(tt_score)
        {
            return Ok(0);
        }
        let s_beta = tt_score - SE_MARGIN_PER_DEPTH * depth / 16;
        self.stack[ply].excluded = e.mv;
        let s = self.search(b, s_beta - 1, s_beta, (depth - 1) / 2, ply, false);
        self.stack[ply].excluded = Move::NONE;
        if self.stopped {
            return Err(0);
        }
        if s < s_beta {
            let frame = &mut self.stack[ply];
            if !pv_node && s < s_beta - SE_DOUBLE_MARGIN && frame.double_extensions < SE_DOUBLE_LIMIT {
                frame.double_extensions += 1;
                Ok(2)
            } else {
                Ok(1)
            }
        } else if s >= beta && !score::is_mate(s) {
            Err(beta)
        } else if tt_score >= beta {
            Ok(-1)
        } else {
            Ok(0)
        }
    }

    /// Reverse futility pruning and the null move, for a calm non-PV node:
    /// the score to return if the node is cut (0 if the search stopped).
    fn prune_node(&mut self, b: &Board, beta: i32, node: &Node) -> Option<i32> {
        let Node { depth, ply, improving, eval, .. } = *node;
        // Reverse futility pruning.
        if depth <= RFP_MAX_DEPTH && eval - RFP_MARGIN * (depth - improving as i32) >= beta {
            return Some(eval);
        }
        // Null move: give the opponent a free move; if we still beat beta,
        // this node is not worth a full search.
        if depth >= NMP_MIN_DEPTH && eval >= beta && V::null_move_ok(b) {
            let mut r = NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR;
            if features(V::KIND).nmp_eval_reduction {
                r += ((eval - beta) / NMP_EVAL_DIVISOR).min(NMP_EVAL_MAX);
            }
            let nb = b.null_move();
            self.eval.push_null(ply);
            self.keys.push(nb.key());
            self.stack[ply].moved = None;
            let s = -self.search(&nb, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
            self.unmake_move();
            if self.stopped {
                return Some(0);
            }
            if s >= beta {
                return Some(if score::is_mate(s) { beta } else { s });
            }
        }
        None
    }

    /// Searches the moves of a node: its best score, best move (`NONE` if
    /// no move raised alpha) and bound; `None` if the search stopped. With
    /// no legal move: `(-INFINITE, NONE, Upper)`.
    fn move_loop(
        &mut self,
        b: &Board,
        mut alpha: i32,
        beta: i32,
        tt_move: Move,
        node: &Node,
    ) -> Option<(i32, Move, Bound)> {
        let Node { depth, ply, pv_node, calm, improving, .. } = *node;
        let mut moves = MoveList::new();
        let killers = self.killers[ply];
        let prev = self.prev_moves(ply);
        let countermove = self.histories.countermove(prev[0]);
        let mut scores = Scores::new();
        let order = MoveOrdering { tt_move, killers, countermove, prev };
        // Where testing one move is much cheaper than generating them all
        // (Dynamo), a legal hash move is searched before the others are
        // generated: when it cuts, they never are.
        let mut picker = if V::CHEAP_LEGALITY && !tt_move.is_none() && V::is_legal(b, tt_move) {
            Picker::hash_move_first::<V>(b, &mut moves, &mut scores, &order)
        } else {
            V::legal_moves(b, &mut moves);
            Picker::new::<V>(b, &mut moves, &mut scores, &order)
        };

        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut tactical_tried: ArrayVec<Move, 32> = ArrayVec::new();
        let mut index = 0usize;
        let original_alpha = alpha;
        let lmp_limit = (LMP_BASE + (depth * depth) as usize) / if improving { 1 } else { 2 };
        while let Some((m, tactical)) = picker.next::<V>(&self.histories) {
            if m == node.excluded || V::is_redundant(b, m) {
                continue;
            }
            let mv = MoveInfo { m, tactical, index };
            index += 1;
            if calm && best > -MATE_BOUND && mv.index > 0 && self.skip_move(b, &mv, alpha, lmp_limit, node) {
                continue;
            }
            let child = self.make_move(b, m, ply);
            let s = self.search_child(b, &child, alpha, beta, &mv, node, [killers[0], killers[1], countermove]);
            self.unmake_move();
            if self.stopped {
                return None;
            }
            best = best.max(s);
            if s > alpha {
                alpha = s;
                best_move = m;
                if pv_node {
                    self.update_pv(ply, m);
                }
                if alpha >= beta {
                    self.update_cutoff_histories(b, m, tactical, depth, ply, &quiets_tried, &tactical_tried);
                    break;
                }
            }
            if tactical {
                let _ = tactical_tried.try_push(m);
            } else {
                let _ = quiets_tried.try_push(m);
            }
        }
        Some((best, best_move, Bound::of(best, original_alpha, beta)))
    }

    /// Late move, futility and static exchange pruning; moves that threaten
    /// to win at once are never pruned (tested last: it costs an attack
    /// lookup, and most moves are not candidates).
    fn skip_move(&self, b: &Board, mv: &MoveInfo, alpha: i32, lmp_limit: usize, node: &Node) -> bool {
        let Node { depth, pv_node, improving, eval, .. } = *node;
        let (m, tactical) = (mv.m, mv.tactical);
        let late_quiet = !pv_node && !tactical;
        let skip = (late_quiet && depth <= LMP_MAX_DEPTH && mv.index >= lmp_limit)
            || (late_quiet
                && depth <= FUTILITY_MAX_DEPTH
                && eval + FUTILITY_MARGIN * (depth + improving as i32) <= alpha)
            || if tactical {
                depth <= SEE_TACTICAL_MAX_DEPTH && V::see(b, m) < -SEE_TACTICAL_MARGIN * depth
            } else {
                depth <= SEE_QUIET_MAX_DEPTH && V::see(b, m) < -SEE_QUIET_MARGIN * depth * depth
            };
        skip && (tactical || !V::threatens_king(b, m))
    }

    /// The score of `child` (after `mv` from `b`): the first move with the
    /// full window, later ones with a null window, reduced when late and
    /// quiet, re-searched when they beat alpha. `special` are the killers
    /// and the countermove (reduced less).
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        b: &Board,
        child: &Board,
        alpha: i32,
        beta: i32,
        mv: &MoveInfo,
        node: &Node,
        special: [Move; 3],
    ) -> i32 {
        let Node { depth, ply, pv_node, .. } = *node;
        let gives_check = V::is_check(child);
        // Extensions stop far below the nominal depth; a hash move found
        // not singular is searched a ply shallower even there.
        let room = ply < 2 * depth as usize + CHECK_EXTENSION_SLACK;
        let singular = if mv.m == node.tt_move { node.singular } else { 0 };
        let ext = match singular {
            s if s < 0 || (s > 0 && room) => s,
            _ if gives_check && room => CHECK_EXTENSION,
            _ => 0,
        };
        let new_depth = depth - 1 + ext;
        if mv.index == 0 {
            return -self.search(child, -beta, -alpha, new_depth, ply + 1, pv_node);
        }
        // Moves that leave the opponent's king to be blown up are threats,
        // not ordinary quiets: no reduction.
        let r = if depth >= LMR_MIN_DEPTH
            && mv.index >= LMR_MIN_MOVES
            && !mv.tactical
            && !node.in_check
            && !gives_check
            && V::stand_pat_ok(child)
        {
            self.reduction(b, mv, node, new_depth, special)
        } else {
            0
        };
        let mut s = -self.search(child, -alpha - 1, -alpha, new_depth - r, ply + 1, false);
        if s > alpha && r > 0 && !self.stopped {
            s = -self.search(child, -alpha - 1, -alpha, new_depth, ply + 1, false);
        }
        if s > alpha && s < beta && pv_node && !self.stopped {
            s = -self.search(child, -beta, -alpha, new_depth, ply + 1, true);
        }
        s
    }

    /// The late-move reduction of a quiet move.
    fn reduction(&self, b: &Board, mv: &MoveInfo, node: &Node, new_depth: i32, special: [Move; 3]) -> i32 {
        let mut r = self.lmr[(node.depth as usize).min(63)][mv.index.min(63)];
        if !node.pv_node {
            r += 1;
        }
        if !node.improving {
            r += 1;
        }
        // Our own king under threat: the parries matter.
        if !node.calm {
            r -= 1;
        }
        if special.contains(&mv.m) {
            r -= 1;
        }
        // `make_move` has just recorded this move's piece and square.
        let moved = self.stack[node.ply].moved.unwrap_or_else(|| PieceTo::of(b, mv.m));
        let prev = self.prev_moves(node.ply);
        r -= self.histories.quiet(b.turn(), moved, mv.m, prev) / LMR_HISTORY_DIVISOR;
        r.clamp(0, new_depth - 1)
    }

    /// `m` is the new best move at `ply`: the PV there is `m` then the child's.
    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for j in ply + 1..child_len {
            self.pv[ply][j] = self.pv[ply + 1][j];
        }
        self.pv_len[ply] = child_len;
    }

    /// A move caused a beta cutoff: reward it in its history, punish the
    /// moves of its kind tried before it; quiet cutoffs also become killers
    /// and the countermove of the opponent's last move.
    #[allow(clippy::too_many_arguments)]
    fn update_cutoff_histories(
        &mut self,
        b: &Board,
        m: Move,
        tactical: bool,
        depth: i32,
        ply: usize,
        quiets: &[Move],
        tacticals: &[Move],
    ) {
        let bonus = history::bonus(depth);
        let us = b.turn();
        let prev = self.prev_moves(ply);
        if tactical {
            self.histories.update_capture(b, m, bonus);
        } else {
            if self.killers[ply][0] != m {
                self.killers[ply][1] = self.killers[ply][0];
                self.killers[ply][0] = m;
            }
            self.histories.set_countermove(prev[0], m);
            self.histories.update_quiet(us, PieceTo::of(b, m), m, prev, bonus);
            for &q in quiets {
                self.histories.update_quiet(us, PieceTo::of(b, q), q, prev, -bonus);
            }
        }
        for &t in tacticals {
            self.histories.update_capture(b, t, -bonus);
        }
    }

    pub(super) fn qsearch(&mut self, b: &Board, mut alpha: i32, beta: i32, ply: usize, qply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if let Some(s) = self.enter(b, ply) {
            return s;
        }
        if V::is_insufficient_material(b) {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(b, ply);
        }
        // Any entry settles quiescence if its bound does: quiescence is
        // depth 0, below every entry of the main search.
        let use_tt = features(V::KIND).qsearch_tt;
        let key = b.key();
        let tt = if use_tt { self.shared.tt.probe(key) } else { None };
        if let Some(e) = tt
            && let Some(s) = tt_cutoff(&e, alpha, beta, ply)
        {
            return s;
        }
        let in_check = V::is_check(b);
        // Standing pat is a lower bound only if doing nothing is safe.
        let limit = if in_check { QS_EVASION_PLIES } else { QS_THREAT_PLIES };
        let full_width = !V::stand_pat_ok(b) && qply < limit;
        // The entry's evaluation is this position's (stored as 0 in check).
        let raw_eval = match tt {
            _ if in_check && full_width => 0,
            Some(e) if !in_check => e.eval,
            _ => self.evaluate(b, ply),
        };
        let eval = if in_check && full_width { -INFINITE } else { self.histories.corrected(b, raw_eval) };
        let mut best = if full_width { -INFINITE } else { eval };
        if !full_width {
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
        }
        // Beyond its depth limit quiescence stands pat (where it may).
        if !full_width && qply >= V::QSEARCH_PLIES {
            return best;
        }
        // Variants whose checks are threats of an immediate win (Dynamo: a
        // king about to be sent off) also try checking moves at the first
        // quiescence ply.
        let try_checks = V::QSEARCH_CHECKS && qply == 0 && !full_width;
        let mut moves = MoveList::new();
        if V::NOISY_GENERATION && !full_width {
            // Only the moves searched below: none means nothing to try.
            // Checks are generated later, if the other moves do not cut.
            V::noisy_moves(b, false, &mut moves);
            if moves.is_empty() && !try_checks {
                return best;
            }
        } else {
            V::legal_moves(b, &mut moves);
            if moves.is_empty() {
                return if in_check { score::mated_in(ply) } else { DRAW };
            }
        }
        let mut scores = Scores::new();
        let mut searched = 0;
        let old_alpha = alpha;
        let mut best_move = Move::NONE;
        let mut picker = if V::NOISY_GENERATION && try_checks {
            Picker::checks_later::<V>(b, &mut moves, &mut scores)
        } else if full_width || try_checks {
            Picker::new::<V>(b, &mut moves, &mut scores, &MoveOrdering::NONE)
        } else {
            Picker::tactical::<V>(b, &mut moves, &mut scores)
        };
        while let Some((m, tactical)) = picker.next::<V>(&self.histories) {
            if (!tactical && !full_width && !try_checks) || V::is_redundant(b, m) {
                continue;
            }
            if !full_width && tactical {
                let gain = V::tactical_gain(b, m);
                if gain < 0 || eval + gain + DELTA_MARGIN <= alpha {
                    continue;
                }
            }
            if !full_width && searched >= V::QSEARCH_MOVES {
                break;
            }
            let child = V::play(b, m);
            if !tactical && !full_width && !V::is_check(&child) {
                continue;
            }
            searched += 1;
            self.eval.push(ply, b, &child);
            let s = -self.qsearch(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
            }
            if s > alpha {
                alpha = s;
                best_move = m;
                if alpha >= beta {
                    break;
                }
            }
        }
        // Full width searches every move (none is skipped above), and
        // otherwise `best` starts at the static evaluation.
        debug_assert!(best > -INFINITE);
        if use_tt {
            let stored_eval = if in_check { 0 } else { raw_eval };
            let bound = Bound::of(best, old_alpha, beta);
            self.shared.tt.store(key, best_move, score::to_tt(best, ply), stored_eval, 0, bound);
        }
        best
    }
}
