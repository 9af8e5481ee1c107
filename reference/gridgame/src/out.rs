//! Standard output: written in blocks, flushed before every read so that
//! a prompt reaches a person at a terminal (PROG-3, as C++'s `cin` tied to
//! `cout` does), and a write that fails ends the program with status 1 and
//! nothing on stderr (SYS-1). Rust ignores SIGPIPE, so a closed pipe is a
//! failed write, never a signal.

use std::io::Write;

/// The program's stdout.
pub struct Out<W: Write> {
    sink: W,
    buffer: Vec<u8>,
    failed: bool,
}

/// Bytes buffered before a write even without a read to come.
const BLOCK: usize = 1 << 16;

impl<W: Write> Out<W> {
    /// Output into `sink`.
    pub fn new(sink: W) -> Self {
        Self {
            sink,
            buffer: Vec::with_capacity(BLOCK),
            failed: false,
        }
    }

    /// Queues `bytes`.
    pub fn put(&mut self, bytes: &[u8]) {
        reference_kit::trace::wrote(bytes.len());
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= BLOCK {
            self.flush();
        }
    }

    /// Writes what is queued; remembers a failure.
    pub fn flush(&mut self) {
        if self.failed || self.buffer.is_empty() {
            self.buffer.clear();
            return;
        }
        if self
            .sink
            .write_all(&self.buffer)
            .and_then(|()| self.sink.flush())
            .is_err()
        {
            self.failed = true;
        }
        self.buffer.clear();
    }

    /// Whether a write failed (SYS-1).
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// The sink, for tests.
    pub fn into_inner(mut self) -> W {
        self.flush();
        self.sink
    }
}
