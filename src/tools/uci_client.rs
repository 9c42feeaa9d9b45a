//! A UCI engine in a child process, as the match runner drives it: a reader
//! thread turns its output into a channel of lines, so every wait has a
//! deadline and a dead engine is noticed instead of hanging the match.

use crate::uci::spawn_line_reader;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How an engine is started: a command line (split on whitespace) and the
/// options to set after the handshake.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub cmd: String,
    pub options: Vec<(String, String)>,
}

/// Why waiting for a line failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitError {
    Timeout,
    Disconnected,
}

pub struct UciEngine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The name the engine reported (`id name`), or its command.
    pub name: String,
}

/// Time allowed for the handshake and for `isready`.
const HANDSHAKE: Duration = Duration::from_secs(20);

impl UciEngine {
    /// Starts the engine and runs the handshake: `uci`, options (including
    /// `UCI_Variant` when the variant is not standard chess), `isready`.
    pub fn start(spec: &EngineSpec, variant: &str) -> Result<UciEngine, String> {
        let mut parts = spec.cmd.split_whitespace();
        let program = parts.next().ok_or("empty engine command")?;
        let mut child = Command::new(program)
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", spec.cmd))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let rx = spawn_line_reader(BufReader::new(stdout), "engine-output")
            .map_err(|e| format!("cannot read '{}': {e}", spec.cmd))?;
        let stdin = child.stdin.take();
        let mut e = UciEngine { child, stdin, lines: rx, name: spec.cmd.clone() };
        e.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE;
        let mut variants_listed = false;
        loop {
            let line = e.wait_line(deadline).map_err(|w| format!("'{}' failed the uci handshake: {w:?}", spec.cmd))?;
            if let Some(n) = line.strip_prefix("id name ") {
                e.name = n.trim().to_string();
            }
            if line.starts_with("option name UCI_Variant ") {
                variants_listed = line.split_whitespace().any(|t| t == variant);
            }
            if line.trim() == "uciok" {
                break;
            }
        }
        if variant != "chess" && !variants_listed {
            return Err(format!("'{}' does not list variant {variant} in UCI_Variant", e.name));
        }
        if variants_listed {
            e.send(&format!("setoption name UCI_Variant value {variant}"))?;
        }
        for (k, v) in &spec.options {
            e.send(&format!("setoption name {k} value {v}"))?;
        }
        e.sync()?;
        Ok(e)
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        let w = self.stdin.as_mut().ok_or("engine input closed")?;
        w.write_all(line.as_bytes())
            .and_then(|_| w.write_all(b"\n"))
            .and_then(|_| w.flush())
            .map_err(|e| format!("cannot write to '{}': {e}", self.name))
    }

    /// The next line before `deadline`.
    pub fn wait_line(&self, deadline: Instant) -> Result<String, WaitError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l.trim_end().to_string()),
            Err(RecvTimeoutError::Timeout) => Err(WaitError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(WaitError::Disconnected),
        }
    }

    /// `isready` and wait for `readyok`.
    pub fn sync(&mut self) -> Result<(), String> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            match self.wait_line(deadline) {
                Ok(l) if l.trim() == "readyok" => return Ok(()),
                Ok(_) => {}
                Err(e) => return Err(format!("'{}' did not answer isready: {e:?}", self.name)),
            }
        }
    }

    pub fn new_game(&mut self) -> Result<(), String> {
        self.send("ucinewgame")?;
        self.sync()
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        self.stdin.take();
        for _ in 0..50 {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
