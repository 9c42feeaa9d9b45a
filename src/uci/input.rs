//! The GUI's input, read so that the search steps aside for it.
//!
//! With more search threads than cores (`Threads 256` on two), the thread
//! that reads the GUI's commands competes for the CPU with every search
//! thread. The scheduler then gave it a turn only after many of them: a
//! `stop` waited hundreds of milliseconds, once over a second, before it
//! was read. So in that case the search threads call [`step_aside`] every
//! few dozen nodes: while input waits in the pipe, or the reader holds
//! input it has not finished with, they sleep until the reader is done.
//!
//! The reader reads through [`WatchedStdin`], which marks itself busy from
//! the moment `poll(2)` says input has come until it has handed on every
//! line of it; the search threads look at that mark and at the pipe
//! itself (`poll` with a zero timeout, which never blocks and never
//! consumes input). Looking only at the pipe was not enough: a reader
//! that had taken the bytes out of the pipe and was then preempted before
//! it handed them on was invisible, and waited its turn behind every
//! search thread.

use std::io::{BufRead, BufReader, Read, Stdin};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::time::Duration;

/// How long a thread that stepped aside sleeps before it looks again if
/// the reader has not said it is done (a safety net: it always says so).
const LOOK_AGAIN: Duration = Duration::from_millis(10);

/// The reader holds input it has not handed on yet.
static READER_BUSY: AtomicBool = AtomicBool::new(false);

/// How many times the reader has been done with its input, and the
/// threads waiting for the next time.
static DONE: (Mutex<u64>, Condvar) = (Mutex::new(0), Condvar::new());

fn reader_done() {
    READER_BUSY.store(false, Ordering::SeqCst);
    *DONE.0.lock().unwrap_or_else(PoisonError::into_inner) += 1;
    DONE.1.notify_all();
}

/// Whether the reader has input to take or to finish with.
fn pending() -> bool {
    READER_BUSY.load(Ordering::SeqCst) || (stdin_is_stream() && sys::readable(0))
}

/// While the GUI's input waits for the reader, sleeps until the reader is
/// done with it (the search threads' hook, see
/// `SearchOptions::yield_to_input`). The reader waits for nothing but
/// input, so this ends as soon as it has had the CPU.
pub fn step_aside() {
    while pending() {
        let guard = DONE.0.lock().unwrap_or_else(PoisonError::into_inner);
        let seen = *guard;
        let _ = DONE.1.wait_timeout_while(guard, LOOK_AGAIN, |done| *done == seen && pending());
    }
}

/// Standard input for the UCI reader thread: buffered, and marked busy
/// from the moment input arrives until the buffer is empty again (see the
/// module documentation). Use one per process.
pub struct WatchedStdin {
    inner: BufReader<Stdin>,
}

impl WatchedStdin {
    pub fn new() -> WatchedStdin {
        WatchedStdin { inner: BufReader::new(std::io::stdin()) }
    }
}

impl Default for WatchedStdin {
    fn default() -> Self {
        WatchedStdin::new()
    }
}

impl Read for WatchedStdin {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = {
            let available = self.fill_buf()?;
            let n = available.len().min(buf.len());
            buf[..n].copy_from_slice(&available[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for WatchedStdin {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.inner.buffer().is_empty() {
            // Everything read so far is handed on: done until more comes.
            reader_done();
            if stdin_is_stream() {
                sys::wait_readable(0);
                READER_BUSY.store(true, Ordering::SeqCst);
            }
        }
        let ended = self.inner.fill_buf().map_or(true, |b| b.is_empty());
        if ended {
            reader_done();
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.inner.consume(amount);
    }
}

/// Whether standard input is a pipe, socket or terminal (a regular file
/// is always readable, so looking at it says nothing).
fn stdin_is_stream() -> bool {
    static STREAM: OnceLock<bool> = OnceLock::new();
    *STREAM.get_or_init(sys::stdin_is_stream)
}

#[cfg(unix)]
mod sys {
    use std::ffi::{c_int, c_short, c_ulong};

    pub fn stdin_is_stream() -> bool {
        use std::os::fd::AsFd;
        use std::os::unix::fs::FileTypeExt;
        let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() else {
            return false;
        };
        std::fs::File::from(fd).metadata().is_ok_and(|m| {
            let t = m.file_type();
            t.is_fifo() || t.is_socket() || t.is_char_device()
        })
    }

    /// `struct pollfd` of POSIX.
    #[repr(C)]
    struct PollFd {
        fd: c_int,
        events: c_short,
        revents: c_short,
    }

    const POLLIN: c_short = 1;

    unsafe extern "C" {
        fn poll(fds: *mut PollFd, nfds: c_ulong, timeout: c_int) -> c_int;
    }

    /// `poll` on `fd` alone: the events it reports (0 on timeout or error).
    fn poll_one(fd: c_int, timeout_ms: c_int) -> c_short {
        let mut p = PollFd { fd, events: POLLIN, revents: 0 };
        // SAFETY: `p` is a valid, exclusively borrowed `pollfd` for the whole
        // call and `nfds` is 1, the length of that one-element array; `poll`
        // writes only `p.revents`.
        let n = unsafe { poll(&mut p, 1, timeout_ms) };
        if n == 1 { p.revents } else { 0 }
    }

    /// Whether `fd` has bytes to read now (end of input does not count).
    pub fn readable(fd: c_int) -> bool {
        poll_one(fd, 0) & POLLIN != 0
    }

    /// Waits until `fd` has bytes to read, has ended, or failed (then the
    /// read that follows says which).
    pub fn wait_readable(fd: c_int) {
        while poll_one(fd, -1) == 0 {
            // Interrupted by a signal, or out of resources: wait again, a
            // little later so that a lasting failure cannot spin.
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}

#[cfg(not(unix))]
mod sys {
    pub fn stdin_is_stream() -> bool {
        false
    }
    pub fn readable(_fd: i32) -> bool {
        false
    }
    pub fn wait_readable(_fd: i32) {}
}

#[cfg(all(test, unix))]
mod tests {
    #[test]
    fn readable_sees_bytes_in_a_pipe_and_not_an_empty_or_ended_one() {
        use std::io::Write;
        use std::os::fd::AsRawFd;
        let (reader, mut writer) = std::io::pipe().unwrap();
        assert!(!super::sys::readable(reader.as_raw_fd()));
        writer.write_all(b"stop\n").unwrap();
        assert!(super::sys::readable(reader.as_raw_fd()));
        super::sys::wait_readable(reader.as_raw_fd());
        drop(writer);
        let mut line = String::new();
        let mut buffered = std::io::BufReader::new(reader);
        std::io::BufRead::read_line(&mut buffered, &mut line).unwrap();
        assert_eq!(line, "stop\n");
        let fd = buffered.get_ref().as_raw_fd();
        assert!(!super::sys::readable(fd), "end of input is not input");
        super::sys::wait_readable(fd);
    }
}
