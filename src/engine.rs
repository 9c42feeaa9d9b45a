//! The engine core: the game being played (variant, position, history),
//! the transposition table, and the pool of search threads. It never
//! prints: results go through the callbacks the UCI layer passes in.

use crate::board::{Board, CastlingMode, FenError};
use crate::eval::Evaluation;
use crate::nnue::{self, network::Network};
use crate::notation;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Control, Limits, Reporter, Search, SearchOptions, SearchResult, ThreadPool};
use crate::types::{Move, MoveList};
use crate::variant::{Outcome, Variant, VariantKind};
use crate::with_variant;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// Why a `position` command was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    InvalidFen(FenError),
    IllegalMove(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::InvalidFen(e) => write!(f, "Invalid FEN: {e}"),
            PositionError::IllegalMove(m) => write!(f, "Illegal move: {m}"),
        }
    }
}

pub use crate::search::BestMoveCallback;

/// Stops the search running at the moment of the call, from any thread:
/// the input reader's shortcut for `stop` (see `uci::run`).
#[derive(Clone, Default)]
pub struct StopHandle(Arc<Mutex<Option<Arc<Control>>>>);

impl StopHandle {
    pub fn stop(&self) {
        if let Some(c) = self.0.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
            c.stop();
        }
    }
    fn set(&self, control: &Arc<Control>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(Arc::clone(control));
    }
}

/// The search started last.
struct Running {
    control: Arc<Control>,
    /// `go infinite`: only `stop` ends it.
    infinite: bool,
}

pub struct Engine {
    variant: VariantKind,
    board: Board,
    /// Keys of every position of the game so far, the current one last.
    history: Vec<u64>,
    tt: Arc<TranspositionTable>,
    hash_mb: usize,
    pub options: SearchOptions,
    /// The search threads, kept from one `go` to the next.
    pool: ThreadPool,
    running: Option<Running>,
    /// The control of the search started last, for [`Engine::stop_handle`].
    current: StopHandle,
    /// The FEN and moves of the last `position` that was set, so that the
    /// next one, the same game a move or two on, only plays the new moves
    /// (GUIs resend the whole game every move; in dynamo each move looked
    /// up costs a full move generation).
    last_position: Option<(Option<String>, Vec<String>)>,
    /// `UCI_Chess960`.
    chess960: bool,
    /// `Use NNUE`.
    use_nnue: bool,
    /// The nets loaded with `EvalFile`, one slot per variant (indexed by
    /// [`VariantKind`]): the path as given and the net. Each variant keeps
    /// its own across `UCI_Variant` changes.
    eval_files: [Option<(String, Arc<Network>)>; VariantKind::ALL.len()],
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

/// The default of the `Hash` option (MB).
pub const DEFAULT_HASH_MB: usize = 16;

impl Engine {
    pub fn new() -> Engine {
        let tt = TranspositionTable::try_new(DEFAULT_HASH_MB).unwrap_or_else(|_| TranspositionTable::new_small());
        let board = Board::startpos();
        Engine {
            variant: VariantKind::Chess,
            history: vec![board.key()],
            board,
            tt: Arc::new(tt),
            hash_mb: DEFAULT_HASH_MB,
            options: SearchOptions::new(VariantKind::Chess),
            pool: ThreadPool::new(search::DEFAULT_THREADS),
            running: None,
            current: StopHandle::default(),
            last_position: None,
            chess960: false,
            use_nnue: true,
            eval_files: Default::default(),
        }
    }

    pub fn variant(&self) -> VariantKind {
        self.variant
    }

    /// `UCI_Chess960`: castling in later positions is Chess960's (in the
    /// variants that have it, chess and atomic).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
        self.last_position = None;
    }

    /// How castling is read and written in the current variant.
    pub fn castling_mode(&self) -> CastlingMode {
        let has_960 = with_variant!(self.variant, V => V::CHESS960);
        if self.chess960 && has_960 { CastlingMode::Chess960 } else { CastlingMode::Standard }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Switches variant; the position becomes that variant's start position.
    pub fn set_variant(&mut self, v: VariantKind) {
        self.variant = v;
        self.last_position = None;
        let _ = self.set_position(None, &[]);
    }

    /// Sets the position from a FEN (or the start position) and a list of
    /// moves. On any error the previous position is kept unchanged.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), PositionError> {
        with_variant!(self.variant, V => self.set_position_v::<V>(fen, moves))
    }

    fn set_position_v<V: Variant>(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), PositionError> {
        let mode = self.castling_mode();
        let (mut b, mut history, done) = match &self.last_position {
            Some((last_fen, last_moves))
                if last_fen.as_deref() == fen && moves.len() >= last_moves.len() && moves.starts_with(last_moves) =>
            {
                (self.board.clone(), self.history.clone(), last_moves.len())
            }
            _ => {
                let b = V::from_fen_mode(fen.unwrap_or(V::start_fen()), mode).map_err(PositionError::InvalidFen)?;
                let key = b.key();
                (b, vec![key], 0)
            }
        };
        for text in &moves[done..] {
            let m = notation::parse_move_mode::<V>(&b, text, mode)
                .ok_or_else(|| PositionError::IllegalMove(text.clone()))?;
            b = V::play(&b, m);
            history.push(b.key());
        }
        self.board = b;
        self.history = history;
        self.last_position = Some((fen.map(str::to_string), moves.to_vec()));
        Ok(())
    }

    /// Resizes the hash table; on failure the old table stays.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        self.wait();
        if mb != self.hash_mb {
            let tt = TranspositionTable::try_new(mb)?;
            self.tt = Arc::new(tt);
            self.hash_mb = mb;
        }
        Ok(())
    }

    /// Empties the hash table by replacing it with a fresh one of the same
    /// size: the old memory goes back first, and the new zeroed pages cost
    /// nothing until used, so this is instant at any size (writing zeros
    /// over 4 GB took seconds).
    pub fn clear_hash(&mut self) {
        self.wait();
        self.tt = Arc::new(TranspositionTable::new_small());
        match TranspositionTable::try_new(self.hash_mb) {
            Ok(tt) => self.tt = Arc::new(tt),
            // Only if memory vanished meanwhile: keep the small table, and say its size.
            Err(_) => self.hash_mb = self.tt.megabytes(),
        }
    }

    /// A new game: stops any search and forgets what was learned (the
    /// hash table and every search thread's history tables).
    pub fn new_game(&mut self) {
        self.stop();
        self.clear_hash();
        self.pool.clear();
    }

    /// `Threads`: the pool is resized at once (after any running search),
    /// so that `readyok` comes when the threads are ready.
    pub fn set_threads(&mut self, n: usize) {
        self.wait();
        self.options.threads = n;
        self.pool.resize(n);
    }

    /// The legal move of the current position written `text` (in the
    /// current castling mode).
    pub fn parse_move(&self, text: &str) -> Option<Move> {
        let mode = self.castling_mode();
        with_variant!(self.variant, V => notation::parse_move_mode::<V>(&self.board, text, mode))
    }

    /// The legal moves of the current position.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        with_variant!(self.variant, V => V::legal_moves(&self.board, &mut list));
        list
    }

    /// Whether a search is running.
    pub fn searching(&self) -> bool {
        self.pool.busy()
    }

    /// Starts a search on the pool's threads and returns at once. Any
    /// running search is stopped first. When the search ends (and, for
    /// `infinite` or `ponder`, once `stop` or `ponderhit` has come), `done`
    /// is called with the result, from a search thread.
    pub fn go(&mut self, limits: Limits, reporter: Arc<dyn Reporter + Send + Sync>, done: BestMoveCallback) {
        self.stop();
        if self.pool.is_empty() {
            // No search thread could be started: answer at once with a legal move.
            let best = self.legal_moves().first().copied();
            return done(&SearchResult { best, ponder: None, score: 0, depth: 0, nodes: 0 });
        }
        let control = Arc::new(Control::since(limits.ponder, limits.received.unwrap_or_else(Instant::now)));
        let mut opts = self.options.clone();
        opts.evaluation = self.evaluation();
        let search = Search {
            root: &self.board,
            history: &self.history,
            limits: &limits,
            options: &opts,
            tt: &self.tt,
            control: &control,
        };
        self.current.set(&control);
        with_variant!(self.variant, V => self.pool.start::<V>(&search, reporter, done));
        self.running = Some(Running { control, infinite: limits.infinite });
    }

    /// Whether a search is running that only the GUI may end: `go infinite`
    /// before `stop`, `go ponder` before `stop` or `ponderhit`.
    pub fn awaiting_gui(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| self.pool.busy() && !r.control.released() && (r.infinite || r.control.pondering()))
    }

    /// Milliseconds on the clock of the search started last.
    #[cfg(test)]
    pub(crate) fn clock_ms(&self) -> Option<u64> {
        self.running.as_ref().map(|r| r.control.clock_ms())
    }

    /// A handle that stops whatever search runs when it is used.
    pub fn stop_handle(&self) -> StopHandle {
        self.current.clone()
    }

    /// Asks the running search to stop (its callback still fires).
    pub fn request_stop(&self) {
        if let Some(r) = &self.running {
            r.control.stop();
        }
    }

    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.control.ponderhit();
        }
    }

    /// Stops the running search and waits until its callback has fired.
    pub fn stop(&mut self) {
        self.request_stop();
        self.wait();
    }

    /// Waits for the running search to end by itself. Searches that would
    /// wait for the GUI (`infinite`, `ponder`) are stopped instead, so this
    /// never hangs.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            if r.infinite || r.control.pondering() {
                r.control.stop();
            }
            self.pool.wait();
        }
    }

    /// Perft divide of the current position.
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        with_variant!(self.variant, V => crate::perft::divide::<V>(&self.board, depth, 1))
    }

    /// How the game stands by the rules visible on the board (variant end,
    /// mate, stalemate, insufficient material), if it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        with_variant!(self.variant, V => V::outcome(&self.board))
    }

    /// Static evaluation of the current position (side to move's view),
    /// with the evaluation the next search uses.
    pub fn evaluate(&self) -> i32 {
        let evaluation = self.evaluation();
        with_variant!(self.variant, V => evaluation.evaluate::<V>(&self.board))
    }

    /// The evaluation the next search uses (see [`Evaluation::choose`]).
    pub fn evaluation(&self) -> Evaluation {
        Evaluation::choose(self.variant, self.use_nnue, self.loaded().map(|(_, net)| net))
    }

    /// The net loaded with `EvalFile` for the current variant.
    fn loaded(&self) -> Option<&(String, Arc<Network>)> {
        self.eval_files[self.variant as usize].as_ref()
    }

    /// The evaluation the next search uses, in words: the network by file
    /// name and shape ("atomic.fnn (embedded), atomic network, 768x128"),
    /// or "classical" and why.
    pub fn evaluation_name(&self) -> String {
        let evaluation = self.evaluation();
        match evaluation.net() {
            Some(_) => {
                let file = match self.loaded() {
                    Some((path, _)) => path.clone(),
                    None => format!("{} (embedded)", nnue::embedded_file(self.variant).unwrap_or("?")),
                };
                format!("{file}, {}", evaluation.describe())
            }
            None if !self.use_nnue => "classical (Use NNUE is off)".to_string(),
            None => format!("classical (no network for {})", self.variant),
        }
    }

    /// `Use NNUE`.
    pub fn set_use_nnue(&mut self, on: bool) {
        self.wait();
        let before = self.evaluation();
        self.use_nnue = on;
        self.evaluation_changed(&before);
    }

    /// The hash table's stored evaluations and the correction histories
    /// belong to the evaluation that made them: when another one takes
    /// over, both are cleared.
    fn evaluation_changed(&mut self, before: &Evaluation) {
        let same = match (before, &self.evaluation()) {
            (Evaluation::Classical, Evaluation::Classical) => true,
            (Evaluation::Nnue(a), Evaluation::Nnue(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        if !same {
            self.clear_hash();
            self.pool.clear();
        }
    }

    /// `EvalFile`: loads a net file for the current variant (`<default>`
    /// or an empty value: back to its embedded net, or to the classical
    /// evaluation if it has none). A net made for another variant is
    /// refused. On error the previous net stays, and the error says why.
    /// Returns a description of the evaluation now in use.
    pub fn set_eval_file(&mut self, path: &str) -> Result<String, String> {
        let path = path.trim();
        let slot = if path.is_empty() || path == nnue::DEFAULT_EVAL_FILE {
            None
        } else {
            let net = Evaluation::load_net(Path::new(path))?;
            if net.variant() != self.variant {
                return Err(format!(
                    "{path} is a network for {}, and the variant is {} (set UCI_Variant first)",
                    net.variant(),
                    self.variant
                ));
            }
            Some((path.to_string(), net))
        };
        self.wait();
        let before = self.evaluation();
        self.eval_files[self.variant as usize] = slot;
        self.evaluation_changed(&before);
        Ok(self.evaluation_name())
    }

    /// Enemy pieces checking the side to move.
    pub fn checkers(&self) -> crate::types::Bitboard {
        with_variant!(self.variant, V => V::checkers(&self.board))
    }

    pub fn fen(&self) -> String {
        with_variant!(self.variant, V => V::fen(&self.board))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Silent;

    fn search(e: &mut Engine) {
        e.go(Limits { depth: Some(12), ..Limits::default() }, Arc::new(Silent), Box::new(|_| {}));
        e.wait();
    }

    #[test]
    fn another_evaluation_starts_from_an_empty_hash_table() {
        let mut e = Engine::new();
        e.set_variant(VariantKind::Atomic);
        e.set_hash(1).unwrap();
        search(&mut e);
        assert!(e.tt.hashfull() > 0);
        e.set_use_nnue(true);
        assert!(e.tt.hashfull() > 0, "the same evaluation keeps the table");
        e.set_use_nnue(false);
        assert_eq!(e.tt.hashfull(), 0, "net to classical clears it");
        search(&mut e);
        assert!(e.tt.hashfull() > 0);
        e.set_eval_file("<default>").unwrap();
        assert!(e.tt.hashfull() > 0, "with Use NNUE off the evaluation is still classical");
        e.set_use_nnue(true);
        assert_eq!(e.tt.hashfull(), 0, "classical to net clears it");
    }
}
