//! A game's standard streams: stdout written in large blocks yet flushed
//! whenever the program is about to wait for input, and a failed write
//! handled as the program's SYS rule says.
//!
//! A big game writes megabytes of grids; one write system call per turn
//! would cost more than the game, while a prompt must reach a person at a
//! terminal before the program blocks. So the stdin reader owns the moment
//! of flushing: it flushes stdout just before every read of the descriptor,
//! and input already buffered (a file, a pipe) costs no write per turn.
//! The end of input is sticky, as in C's stdio: once a read finds it, the
//! descriptor is not read again (a Ctrl-D at a terminal is heard once).

use std::cell::RefCell;
use std::ffi::OsString;
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::process::ExitCode;
use std::rc::Rc;

use crate::exit::ExitTable;

/// What a failed write of stdout does to the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteFailure {
    /// Every later write, flush and read fails, so the game ends through
    /// its own error path (boxes' SYS-1: "System call failure", status 9).
    Fails,
    /// Later bytes are dropped and the game goes on as if they were
    /// written (nogo's SYS-1).
    Ignored,
}

/// Bytes of stdout buffered between writes.
const OUT_BUFFER: usize = 1 << 20;
/// Bytes of stdin read at once.
const IN_BUFFER: usize = 1 << 16;

/// Runs a reference as a process: `argv` includes the program name;
/// `run_process` gets the operands, the process's stdin, its stdout
/// written through our own buffer straight to the descriptor (Rust's
/// stdout flushes at every newline, and a grid is many lines; a closed
/// descriptor fails every write, [`crate::stdout::process_stdout`]) and
/// its stderr, and returns the outcome, whose status is the process's.
/// Used by each reference's binary and by every tool that runs a
/// reference in-process.
pub fn main_with<X: ExitTable>(
    argv: impl IntoIterator<Item = OsString>,
    run_process: impl FnOnce(&[OsString], io::Stdin, Box<dyn Write>, io::StderrLock<'static>) -> X,
) -> ExitCode {
    let operands: Vec<OsString> = argv.into_iter().skip(1).collect();
    let sink = crate::stdout::process_stdout();
    let exit = run_process(&operands, io::stdin(), sink, io::stderr().lock());
    ExitCode::from(exit.code())
}

/// Plays `game` on the streams over `input` and `sink` ([`streams`]),
/// then flushes its last bytes for real: the game's outcome, and whether
/// stdout took every byte (always `true` under [`WriteFailure::Ignored`]).
pub fn run_buffered<R: Read, X>(
    input: R,
    sink: Box<dyn Write>,
    policy: WriteFailure,
    game: impl FnOnce(FlushingStdin<R>, DeferredOut) -> X,
) -> (X, bool) {
    let (input, out, finish) = streams(input, sink, policy);
    let outcome = game(input, out);
    (outcome, finish.finish().is_ok())
}

/// The game's streams over `input` and `sink`: give the reader and the
/// writer to the game, then call [`Finish::finish`].
pub fn streams<R: Read>(
    input: R,
    sink: Box<dyn Write>,
    policy: WriteFailure,
) -> (FlushingStdin<R>, DeferredOut, Finish) {
    let shared = Rc::new(RefCell::new(Stdout {
        out: BufWriter::with_capacity(OUT_BUFFER, sink),
        failed: false,
        policy,
    }));
    let stdin = FlushingStdin {
        inner: input,
        buf: vec![0; IN_BUFFER].into_boxed_slice(),
        pos: 0,
        filled: 0,
        ended: false,
        out: Rc::clone(&shared),
    };
    (stdin, DeferredOut(Rc::clone(&shared)), Finish(shared))
}

/// The buffered stdout, shared by the writer the game uses and the stdin
/// reader, which flushes it before it waits for input.
struct Stdout {
    out: BufWriter<Box<dyn Write>>,
    /// A write or flush failed.
    failed: bool,
    policy: WriteFailure,
}

impl Stdout {
    /// Flushes for real; whether stdout can still be written.
    fn flush(&mut self) -> bool {
        if !self.failed {
            self.failed = self.out.flush().is_err();
        }
        !self.failed
    }

    /// The error a game sees once stdout failed, under [`WriteFailure::Fails`].
    fn failure(&self) -> io::Result<()> {
        if self.failed && self.policy == WriteFailure::Fails {
            Err(io::Error::other("stdout cannot be written"))
        } else {
            Ok(())
        }
    }
}

/// Ends the game's output: [`Finish::finish`] flushes the last bytes.
pub struct Finish(Rc<RefCell<Stdout>>);

impl Finish {
    /// Flushes what the game wrote last. `Err` when stdout failed at any
    /// point under [`WriteFailure::Fails`]; always `Ok` under `Ignored`.
    pub fn finish(self) -> io::Result<()> {
        let mut s = self.0.try_borrow_mut().map_err(io::Error::other)?;
        s.flush();
        s.failure()
    }
}

/// The game's stdout. Its `flush` only reports an earlier failure: the
/// real flush happens in [`FlushingStdin`] just before the process would
/// block.
pub struct DeferredOut(Rc<RefCell<Stdout>>);

impl Write for DeferredOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut s = self.0.try_borrow_mut().map_err(io::Error::other)?;
        s.failure()?;
        if !s.failed {
            s.failed = s.out.write_all(buf).is_err();
            s.failure()?;
        }
        // In the order the game writes, before any buffering.
        crate::trace::wrote(buf.len());
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.try_borrow().map_err(io::Error::other)?.failure()
    }
}

/// The process's stdin, buffered here so that it knows when a read would
/// block: stdout is flushed just before every read of the descriptor.
pub struct FlushingStdin<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    filled: usize,
    /// A read found the end: later reads find it again without asking the
    /// descriptor, as C's stdio does, so a terminal's Ctrl-D is heard once.
    ended: bool,
    out: Rc<RefCell<Stdout>>,
}

impl<R: Read> Read for FlushingStdin<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_through_buffer(self, buf)
    }
}

/// `Read::read` for a reader whose buffering is its `BufRead`: what
/// `fill_buf` holds, as much as `buf` takes, so that a read and a
/// line read see the same bytes (and the same flushes before them).
pub fn read_through_buffer(reader: &mut impl BufRead, buf: &mut [u8]) -> io::Result<usize> {
    let available = reader.fill_buf()?;
    let n = available.len().min(buf.len());
    buf[..n].copy_from_slice(&available[..n]);
    reader.consume(n);
    Ok(n)
}

impl<R: Read> BufRead for FlushingStdin<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.filled && !self.ended {
            {
                let mut s = self.out.try_borrow_mut().map_err(io::Error::other)?;
                s.flush();
                // Under `Fails` this ends the read; the game's next write
                // or flush fails too and it ends through its SYS rule.
                s.failure()?;
            }
            self.pos = 0;
            self.filled = 0;
            self.filled = self.inner.read(&mut self.buf)?;
            self.ended = self.filled == 0;
        }
        Ok(&self.buf[self.pos..self.filled])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.filled);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A sink that records each write call, failing once `limit` bytes went.
    #[derive(Clone, Default)]
    struct Sink {
        writes: Arc<Mutex<Vec<Vec<u8>>>>,
        limit: Option<usize>,
    }

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let mut w = self
                .writes
                .lock()
                .map_err(|_| io::Error::other("poisoned"))?;
            let sent: usize = w.iter().map(Vec::len).sum();
            if self.limit.is_some_and(|l| sent + buf.len() > l) {
                return Err(io::Error::from(io::ErrorKind::BrokenPipe));
            }
            w.push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Input that notes how much stdout had reached the sink at each read.
    struct Watch {
        lines: Vec<&'static [u8]>,
        sink: Sink,
        seen: Arc<Mutex<Vec<usize>>>,
    }

    impl Read for Watch {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let sent = self
                .sink
                .writes
                .lock()
                .map_or(0, |w| w.iter().map(Vec::len).sum());
            self.seen
                .lock()
                .map_err(|_| io::Error::other("poisoned"))?
                .push(sent);
            let Some(line) = self.lines.pop() else {
                return Ok(0);
            };
            buf[..line.len()].copy_from_slice(line);
            Ok(line.len())
        }
    }

    fn game(policy: WriteFailure, limit: Option<usize>) -> (Vec<usize>, io::Result<()>, Sink) {
        let sink = Sink {
            limit,
            ..Sink::default()
        };
        let seen = Arc::new(Mutex::new(Vec::new()));
        let input = Watch {
            lines: vec![b"b\n", b"a\n"],
            sink: sink.clone(),
            seen: Arc::clone(&seen),
        };
        let (mut stdin, mut out, finish) = streams(input, Box::new(sink.clone()), policy);
        let mut line = String::new();
        let mut ok = true;
        for prompt in ["first> ", "second> ", "third> "] {
            ok &= out.write_all(prompt.as_bytes()).is_ok();
            line.clear();
            ok &= stdin.read_line(&mut line).is_ok();
        }
        ok &= out.write_all(b"bye\n").is_ok();
        let seen = seen.lock().map(|s| s.clone()).unwrap_or_default();
        let finished = if ok {
            finish.finish()
        } else {
            Err(io::Error::other("a call failed"))
        };
        (seen, finished, sink)
    }

    #[test]
    fn each_prompt_reaches_the_sink_before_the_read_that_waits_for_its_answer() {
        let (seen, finished, sink) = game(WriteFailure::Fails, None);
        assert_eq!(seen, vec![7, 15, 22]);
        assert!(finished.is_ok());
        let all: Vec<u8> = sink.writes.lock().map(|w| w.concat()).unwrap_or_default();
        assert_eq!(all, b"first> second> third> bye\n");
    }

    #[test]
    fn the_end_of_input_is_sticky() {
        /// Ends once, then would give more bytes (a terminal after Ctrl-D).
        struct Terminal(u8);
        impl Read for Terminal {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.0 += 1;
                if self.0 == 2 {
                    return Ok(0);
                }
                buf[0] = b'x';
                Ok(1)
            }
        }
        let (mut stdin, _, _) = streams(Terminal(0), Box::new(io::sink()), WriteFailure::Fails);
        let mut all = Vec::new();
        assert_eq!(stdin.read_to_end(&mut all).ok(), Some(1));
        assert_eq!(stdin.read_to_end(&mut all).ok(), Some(0));
        assert_eq!(all, b"x");
    }

    #[test]
    fn a_failed_write_fails_the_game_or_is_dropped_by_policy() {
        let (_, finished, _) = game(WriteFailure::Fails, Some(10));
        assert!(finished.is_err());
        let (seen, finished, sink) = game(WriteFailure::Ignored, Some(10));
        assert!(finished.is_ok());
        assert_eq!(seen.len(), 3);
        let all: Vec<u8> = sink.writes.lock().map(|w| w.concat()).unwrap_or_default();
        assert_eq!(all, b"first> ");
    }
}
