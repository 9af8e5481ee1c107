//! The process's standard streams for [`main_with_args`]:
//! stdout written in large blocks yet flushed whenever the program is about
//! to wait for input (TURN-1), and a failure to write it turned into SYS-1.
//!
//! A 60×60 game writes 108 MB; one write system call per turn would cost
//! more than the game itself, while a prompt must still reach a person at a
//! terminal before the program blocks. So the stdin reader owns the moment
//! of flushing: it flushes stdout just before every read of the descriptor.

use std::cell::RefCell;
use std::ffi::OsString;
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::process::ExitCode;
use std::rc::Rc;

use crate::app::run;
use crate::status::Exit;

/// Runs `boxes` as a process: `argv` includes the program name, the
/// streams are the process's own. Used by the `boxes` binary and by every
/// tool that re-executes itself as the reference.
pub fn main_with_args<I: IntoIterator<Item = OsString>>(argv: I) -> ExitCode {
    let operands: Vec<OsString> = argv.into_iter().skip(1).collect();
    // Rust's stdout flushes at every newline; a grid is many lines, so write
    // through our own buffer straight to the descriptor (a closed one
    // failing every write: SYS-1).
    let sink = reference_kit::stdout::process_stdout();
    let exit = run_process(&operands, io::stdin(), sink, io::stderr().lock());
    ExitCode::from(exit.code())
}

/// [`run`] with the buffering a process needs: stdout is written in large
/// blocks, but always flushed before the program waits for input (TURN-1).
pub fn run_process<R: Read, E: Write>(
    args: &[OsString],
    input: R,
    sink: Box<dyn Write>,
    mut err: E,
) -> Exit {
    let shared = Rc::new(RefCell::new(Stdout {
        out: BufWriter::with_capacity(OUT_BUFFER, sink),
        failed: false,
    }));
    let input = Stdin {
        inner: input,
        buf: vec![0; IN_BUFFER].into_boxed_slice(),
        pos: 0,
        filled: 0,
        out: Rc::clone(&shared),
    };
    let exit = run(args, input, DeferredOut(Rc::clone(&shared)), &mut err);
    // Flushes the game's last lines for real; a failure here is still SYS-1.
    let flushed = shared
        .try_borrow_mut()
        .map_err(io::Error::other)
        .and_then(|mut s| s.out.flush());
    if flushed.is_err() && exit != Exit::SystemCall {
        let exit = Exit::SystemCall;
        if let Some(message) = exit.message() {
            let _ = writeln!(err, "{message}");
        }
        return exit;
    }
    exit
}

/// Bytes of stdout buffered between writes: a 60×60 game writes 108 MB,
/// and every write system call costs more than copying its bytes.
const OUT_BUFFER: usize = 1 << 20;
/// Bytes of stdin read at once.
const IN_BUFFER: usize = 1 << 16;

/// The process's buffered stdout, shared by the writer the game uses and
/// the stdin reader, which flushes it before it waits for input (TURN-1).
struct Stdout {
    out: BufWriter<Box<dyn Write>>,
    /// A flush by the reader failed: every later write or flush fails too,
    /// so the game ends with SYS-1.
    failed: bool,
}

fn stdout_failed() -> io::Error {
    io::Error::other("stdout cannot be written")
}

/// The game's stdout. Its `flush` only reports an earlier failure: the
/// real flush happens in [`Stdin`] just before the process would block,
/// so a prompt reaches a person at a terminal before the program waits,
/// while input already buffered (a file, a pipe) costs no write per turn.
struct DeferredOut(Rc<RefCell<Stdout>>);

impl Write for DeferredOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut s = self.0.try_borrow_mut().map_err(io::Error::other)?;
        if s.failed {
            return Err(stdout_failed());
        }
        let written = s.out.write(buf);
        s.failed = written.is_err();
        written
    }

    fn flush(&mut self) -> io::Result<()> {
        let s = self.0.try_borrow().map_err(io::Error::other)?;
        if s.failed {
            Err(stdout_failed())
        } else {
            Ok(())
        }
    }
}

/// The process's stdin, buffered here so that it knows when a read would
/// block: stdout is flushed just before every read of the descriptor.
struct Stdin<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    filled: usize,
    out: Rc<RefCell<Stdout>>,
}

impl<R: Read> Read for Stdin<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Stdin<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.filled {
            {
                let mut s = self.out.try_borrow_mut().map_err(io::Error::other)?;
                if s.failed || s.out.flush().is_err() {
                    s.failed = true;
                    // Ends the read; the game's next write or flush then
                    // fails and the program exits with SYS-1.
                    return Err(stdout_failed());
                }
            }
            self.pos = 0;
            self.filled = 0;
            self.filled = self.inner.read(&mut self.buf)?;
        }
        Ok(&self.buf[self.pos..self.filled])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.filled);
    }
}
