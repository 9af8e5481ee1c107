//! The process's standard streams for [`crate::app::main_with_args`]:
//! stdout written in large blocks yet flushed whenever the program is about
//! to wait for input (TURN-1), and a failure to write it ignored (SYS-1).
//!
//! A 100×100 computer game writes megabytes of grids; one write system call
//! per move would cost more than the game, while a prompt must reach a
//! person at a terminal before the program blocks. So the stdin reader owns
//! the moment of flushing: it flushes stdout just before every read of the
//! descriptor, and input already buffered (a file, a pipe) costs no write.
//!
//! Adapted from `boxes_reference::stdio`; the difference is SYS-1: here a
//! failed stdout is dropped silently instead of ending the program.

use std::cell::RefCell;
use std::ffi::OsString;
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::rc::Rc;

use crate::app::run;
use crate::status::Exit;

/// Bytes of stdout buffered between writes.
const OUT_BUFFER: usize = 1 << 20;
/// Bytes of stdin read at once.
const IN_BUFFER: usize = 1 << 16;

/// [`run`] with the buffering a process needs (TURN-1, SYS-1).
pub fn run_process<R: Read, E: Write>(
    args: &[OsString],
    input: R,
    sink: Box<dyn Write>,
    err: E,
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
    let exit = run(args, input, DeferredOut(Rc::clone(&shared)), err);
    if let Ok(mut s) = shared.try_borrow_mut() {
        s.flush();
    }
    exit
}

/// The process's buffered stdout, shared by the writer the game uses and
/// the stdin reader, which flushes it before it waits for input.
struct Stdout {
    out: BufWriter<Box<dyn Write>>,
    /// A write failed: later bytes are dropped (SYS-1), so a closed pipe
    /// or a full disk costs nothing more.
    failed: bool,
}

impl Stdout {
    fn write(&mut self, buf: &[u8]) {
        if !self.failed {
            self.failed = self.out.write_all(buf).is_err();
        }
    }

    fn flush(&mut self) {
        if !self.failed {
            self.failed = self.out.flush().is_err();
        }
    }
}

/// The game's stdout: every write succeeds as far as the game can tell
/// (SYS-1), and `flush` waits for the reader (see the module doc).
struct DeferredOut(Rc<RefCell<Stdout>>);

impl Write for DeferredOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Ok(mut s) = self.0.try_borrow_mut() {
            s.write(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
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
            if let Ok(mut s) = self.out.try_borrow_mut() {
                s.flush();
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
