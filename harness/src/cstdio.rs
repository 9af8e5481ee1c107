//! C's stdio buffering, for the fixture programs that show how a C
//! submission behaves at the harness's terminal (`boxes-fixture-variant`
//! and `nogo-fixture-variant`, variants `c-stdio` and
//! `c-stdio-fully-buffered`).
//!
//! It copies what glibc does, because that is what a student's
//! `printf("A> ")` without `fflush` relies on:
//!
//! - stdout is line buffered when it is a terminal and fully buffered
//!   otherwise (a pipe, a file, `/dev/full`), in blocks of the descriptor's
//!   `st_blksize`; a line-buffered stdout writes out everything up to the
//!   last newline of each write;
//! - `fflush` is never called: the program's own flushes do nothing (the
//!   prompt is printed with no flush);
//! - before each read of stdin, when stdin is a terminal (so line
//!   buffered) and stdout is line buffered, stdout is flushed
//!   (`_IO_new_file_underflow`): this is what shows the prompt to a person;
//! - at exit, stdout is flushed and a failure of that last flush changes
//!   nothing (`exit` cannot report it).
//!
//! [`Buffering::Full`] is a program that really never shows its prompt
//! before it reads: stdout fully buffered even on a terminal (as after
//! `setvbuf(stdout, NULL, _IOFBF, BUFSIZ)`).

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufRead, Read, Write};
use std::os::fd::{AsFd, BorrowedFd};
use std::rc::Rc;

/// How stdout is buffered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Buffering {
    /// glibc's default: line buffered on a terminal, fully buffered
    /// otherwise.
    Glibc,
    /// Fully buffered everywhere.
    Full,
}

/// What the streams are connected to, as the program finds out at start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Connection {
    /// stdin is a terminal.
    pub stdin_terminal: bool,
    /// stdout is a terminal.
    pub stdout_terminal: bool,
    /// stdout's block size (`st_blksize`).
    pub stdout_block: usize,
}

impl Connection {
    /// The process's own descriptors 0 and 1.
    pub fn of_process() -> Self {
        let stdin = io::stdin();
        let stdout = io::stdout();
        Self {
            stdin_terminal: rustix::termios::isatty(stdin.as_fd()),
            stdout_terminal: rustix::termios::isatty(stdout.as_fd()),
            stdout_block: block_size(stdout.as_fd()),
        }
    }
}

/// glibc's buffer size for a descriptor: its `st_blksize`, or `BUFSIZ`.
fn block_size(fd: BorrowedFd<'_>) -> usize {
    rustix::fs::fstat(fd)
        .ok()
        .and_then(|s| usize::try_from(s.st_blksize).ok())
        .filter(|&b| b > 0)
        .unwrap_or(8192)
}

/// The buffered stdout both streams share: the reader flushes it.
struct Buffer {
    sink: Box<dyn Write>,
    bytes: Vec<u8>,
    line_buffered: bool,
    size: usize,
    /// A write failed: like C's error indicator, every later write fails.
    failed: bool,
}

impl Buffer {
    fn write_out(&mut self, upto: usize) -> io::Result<()> {
        let result = self.sink.write_all(&self.bytes[..upto]);
        self.bytes.drain(..upto);
        if result.is_err() {
            self.failed = true;
        }
        result
    }

    fn put(&mut self, data: &[u8]) -> io::Result<()> {
        if self.failed {
            return Err(io::Error::other("stdout's error indicator is set"));
        }
        self.bytes.extend_from_slice(data);
        if self.line_buffered
            && data.contains(&b'\n')
            && let Some(last) = self.bytes.iter().rposition(|&b| b == b'\n')
        {
            self.write_out(last + 1)?;
        }
        while self.bytes.len() >= self.size {
            self.write_out(self.size)?;
        }
        Ok(())
    }

    fn flush_all(&mut self) -> io::Result<()> {
        if self.failed {
            return Err(io::Error::other("stdout's error indicator is set"));
        }
        let all = self.bytes.len();
        self.write_out(all)
    }
}

/// stdout as a C program writes it.
pub struct CStdout(Rc<RefCell<Buffer>>);

impl Write for CStdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .try_borrow_mut()
            .map_err(io::Error::other)?
            .put(buf)?;
        Ok(buf.len())
    }

    /// The program's `fflush(stdout)`: never called by the programs this
    /// module imitates, so it does nothing but report an earlier failure.
    fn flush(&mut self) -> io::Result<()> {
        if self.0.try_borrow().map_err(io::Error::other)?.failed {
            Err(io::Error::other("stdout's error indicator is set"))
        } else {
            Ok(())
        }
    }
}

impl CStdout {
    /// What `exit` does: flushes stdout, whose failure nobody sees.
    pub fn exit_flush(&self) {
        if let Ok(mut b) = self.0.try_borrow_mut() {
            let _ = b.flush_all();
        }
    }
}

/// stdin as a C program reads it.
pub struct CStdin {
    source: Box<dyn Read>,
    buf: Vec<u8>,
    pos: usize,
    filled: usize,
    /// glibc flushes a line-buffered stdout before reading a line-buffered
    /// (terminal) stdin.
    flush_first: bool,
    out: Rc<RefCell<Buffer>>,
}

impl Read for CStdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        reference_kit::stdio::read_through_buffer(self, buf)
    }
}

impl BufRead for CStdin {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.filled {
            if self.flush_first
                && let Ok(mut out) = self.out.try_borrow_mut()
            {
                // glibc ignores the result here; the error indicator stays.
                let _ = out.flush_all();
            }
            self.pos = 0;
            self.filled = self.source.read(&mut self.buf)?;
        }
        Ok(&self.buf[self.pos..self.filled])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.filled);
    }
}

/// stdin and stdout over `source` and `sink`, connected as `connection`
/// says, stdout buffered as `buffering` says.
pub fn streams(
    buffering: Buffering,
    connection: Connection,
    source: Box<dyn Read>,
    sink: Box<dyn Write>,
) -> (CStdin, CStdout) {
    let line_buffered = buffering == Buffering::Glibc && connection.stdout_terminal;
    let out = Rc::new(RefCell::new(Buffer {
        sink,
        bytes: Vec::new(),
        line_buffered,
        size: connection.stdout_block.max(1),
        failed: false,
    }));
    let input = CStdin {
        source,
        buf: vec![0; 4096],
        pos: 0,
        filled: 0,
        flush_first: connection.stdin_terminal && line_buffered,
        out: Rc::clone(&out),
    };
    (input, CStdout(out))
}

/// The process's own stdin and stdout, as a C program has them.
pub fn process_streams(buffering: Buffering) -> io::Result<(CStdin, CStdout)> {
    let connection = Connection::of_process();
    // Straight to the descriptors: Rust's own stdout would flush at every
    // newline and its stdin would buffer on its own.
    let stdin = File::from(io::stdin().as_fd().try_clone_to_owned()?);
    let stdout = File::from(io::stdout().as_fd().try_clone_to_owned()?);
    Ok(streams(
        buffering,
        connection,
        Box::new(stdin),
        Box::new(stdout),
    ))
}

/// Runs `program` on the process's stdin and stdout: as Rust buffers them
/// (a `BufWriter`, flushed at the end) without `buffering`, else as a C
/// program's stdio does ([`process_streams`]), flushed as `exit` flushes.
/// The fixtures pick the one or the other by variant; the wiring is here
/// once.
///
/// # Errors
/// When stdin or stdout cannot be duplicated for C's streams.
pub fn run_on_process<T>(
    buffering: Option<Buffering>,
    program: impl FnOnce(&mut dyn BufRead, &mut dyn Write) -> T,
) -> io::Result<T> {
    let Some(buffering) = buffering else {
        let mut input = io::stdin().lock();
        let mut out = io::BufWriter::new(io::stdout().lock());
        let result = program(&mut input, &mut out);
        let _ = out.flush();
        return Ok(result);
    };
    let (mut input, mut out) = process_streams(buffering)?;
    let result = program(&mut input, &mut out);
    out.exit_flush();
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sink that records each write reaching the descriptor.
    #[derive(Clone, Default)]
    struct Writes(Rc<RefCell<Vec<Vec<u8>>>>);

    impl Write for Writes {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.borrow_mut().push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Writes {
        fn all(&self) -> Vec<u8> {
            self.0.borrow().concat()
        }
    }

    fn connected(stdin_terminal: bool, stdout_terminal: bool) -> Connection {
        Connection {
            stdin_terminal,
            stdout_terminal,
            stdout_block: 16,
        }
    }

    /// Prints a grid line and a prompt, then reads: what reached the
    /// descriptor before the read.
    fn shown_before_read(buffering: Buffering, connection: Connection) -> Vec<u8> {
        let writes = Writes::default();
        let (mut input, mut out) = streams(
            buffering,
            connection,
            Box::new(&b"0 0 h\n"[..]),
            Box::new(writes.clone()),
        );
        out.write_all(b"+ +\n").unwrap();
        out.write_all(b"A> ").unwrap();
        out.flush().unwrap();
        let mut line = String::new();
        input.read_line(&mut line).unwrap();
        assert_eq!(line, "0 0 h\n");
        writes.all()
    }

    #[test]
    fn a_terminal_sees_the_prompt_before_the_read() {
        assert_eq!(
            shown_before_read(Buffering::Glibc, connected(true, true)),
            b"+ +\nA> "
        );
    }

    #[test]
    fn piped_stdin_leaves_the_prompt_in_the_buffer() {
        // Line buffered: the grid line went out, the prompt did not.
        assert_eq!(
            shown_before_read(Buffering::Glibc, connected(false, true)),
            b"+ +\n"
        );
        // Fully buffered on a pipe: nothing before 16 bytes.
        assert_eq!(
            shown_before_read(Buffering::Glibc, connected(false, false)),
            b""
        );
    }

    #[test]
    fn fully_buffered_never_shows_the_prompt_before_the_read() {
        assert_eq!(
            shown_before_read(Buffering::Full, connected(true, true)),
            b""
        );
    }

    #[test]
    fn full_blocks_are_written_and_exit_flushes_the_rest() {
        let writes = Writes::default();
        let (_, mut out) = streams(
            Buffering::Glibc,
            connected(false, false),
            Box::new(io::empty()),
            Box::new(writes.clone()),
        );
        out.write_all(&[b'x'; 40]).unwrap();
        assert_eq!(writes.0.borrow().len(), 2, "two blocks of 16");
        out.exit_flush();
        assert_eq!(writes.all(), [b'x'; 40]);
    }

    #[test]
    fn a_failed_write_sets_the_error_indicator() {
        let (_, mut out) = streams(
            Buffering::Glibc,
            connected(false, true),
            Box::new(io::empty()),
            Box::new(Full),
        );
        assert!(out.write_all(b"line\n").is_err());
        assert!(out.write_all(b"more").is_err());
        assert!(out.flush().is_err());
    }

    /// A sink whose every write fails, like `/dev/full`.
    struct Full;

    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from_raw_os_error(28))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
}
