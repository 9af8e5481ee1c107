//! The run's descriptors as the poll loop drives them, both non-blocking:
//! an output stream read under its cap (a window kept, the rest counted,
//! what a terminal prints shown to the typist) and stdin written as the
//! descriptor accepts it.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;

use super::ending::Stream;
use super::invocation::Keep;
use crate::exec::terminal::Typist;

/// One output stream: its descriptor while open, and what was read.
pub(super) struct Reader {
    pub(super) file: Option<File>,
    pub(super) stream: Stream,
    pub(super) keep: u64,
    pub(super) kept: Vec<u8>,
    pub(super) dropped: u64,
    pub(super) total: u64,
}

/// What one read of a stream brought.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Got {
    /// Nothing now (would block, interrupted).
    Nothing,
    /// Bytes, kept or counted.
    Data,
    /// The end of the stream (a terminal's master reads `EIO` once every
    /// holder of the slave is gone: that too).
    Closed,
    /// The stream passed the cap; it is closed.
    Cap,
}

impl Reader {
    pub(super) fn new(fd: Option<OwnedFd>, stream: Stream, keep: Keep) -> io::Result<Self> {
        let file = fd.map(nonblocking).transpose()?;
        Ok(Self {
            file,
            stream,
            keep: keep.of(stream),
            kept: Vec::new(),
            dropped: 0,
            total: 0,
        })
    }

    /// Takes back the bytes read since `kept` held `before` bytes when
    /// they are one prompt: a piece of a line ending in `prompt`, no
    /// newline in it. Returns them.
    pub(super) fn take_prompt(&mut self, before: usize, prompt: &[u8]) -> Option<Vec<u8>> {
        let read = self.kept.get(before..).unwrap_or_default();
        if prompt.is_empty() || !read.ends_with(prompt) || read.contains(&b'\n') {
            return None;
        }
        let taken = read.to_vec();
        self.kept.truncate(before);
        self.total -= taken.len() as u64;
        Some(taken)
    }

    /// Adds `bytes` as if read from this stream (within what it keeps).
    pub(super) fn push(&mut self, bytes: &[u8]) {
        let room = self.keep.saturating_sub(self.total);
        let keep = usize::try_from(room).unwrap_or(usize::MAX).min(bytes.len());
        self.kept.extend_from_slice(&bytes[..keep]);
        self.dropped += (bytes.len() - keep) as u64;
        self.total += bytes.len() as u64;
    }

    /// One `read(2)`; what it brings goes to `typist` too, if there is one.
    pub(super) fn read_once(
        &mut self,
        chunk: &mut [u8],
        cap: u64,
        typist: Option<&mut Typist<'_>>,
    ) -> Got {
        let Some(file) = &mut self.file else {
            return Got::Closed;
        };
        let n = match file.read(chunk) {
            Ok(0) => {
                self.file = None;
                return Got::Closed;
            }
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                ) =>
            {
                return Got::Nothing;
            }
            Err(_) => {
                self.file = None;
                return Got::Closed;
            }
        };
        let data = &chunk[..n];
        if let Some(typist) = typist {
            typist.saw(data);
        }
        let room = cap.min(self.keep).saturating_sub(self.total);
        let keep = usize::try_from(room).unwrap_or(usize::MAX).min(n);
        self.kept.extend_from_slice(&data[..keep]);
        self.dropped += (n - keep) as u64;
        self.total += n as u64;
        if self.total > cap {
            self.file = None;
            return Got::Cap;
        }
        Got::Data
    }
}

/// Bytes written to the program as its descriptor accepts them.
pub(super) struct Inlet<'a> {
    pub(super) file: File,
    pub(super) queue: Cow<'a, [u8]>,
    pub(super) sent: usize,
    /// How far into the queue may be written now (stdin fed a line at a
    /// time, [`super::reads`]); `None`: all of it.
    pub(super) limit: Option<usize>,
}

impl<'a> Inlet<'a> {
    pub(super) fn new(fd: OwnedFd, queue: Cow<'a, [u8]>) -> io::Result<Self> {
        Ok(Self {
            file: nonblocking(fd)?,
            queue,
            sent: 0,
            limit: None,
        })
    }

    fn end(&self) -> usize {
        self.limit
            .map_or(self.queue.len(), |l| l.min(self.queue.len()))
    }

    pub(super) fn pending(&self) -> bool {
        self.sent < self.end()
    }

    /// Writes what the descriptor takes now. An error means the program
    /// will not read more (a broken pipe: it closed its stdin or ended;
    /// `EIO`: the terminal is gone), which is its right.
    pub(super) fn push(&mut self) -> Result<(), ()> {
        while self.pending() {
            let end = self.end();
            match self.file.write(&self.queue[self.sent..end]) {
                Ok(0) => return Err(()),
                Ok(n) => self.sent += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return Err(()),
            }
        }
        Ok(())
    }

    /// Bytes the program took of those written: what the pipe no longer
    /// holds. `None` where the pipe cannot tell.
    pub(super) fn taken(&self) -> Option<u64> {
        let held = rustix::io::ioctl_fionread(&self.file).ok()?;
        Some((self.sent as u64).saturating_sub(held))
    }

    /// Closes the descriptor (the program reads the end of its input: no
    /// writer is left), keeping a read end of the same pipe, reopened
    /// through `/proc`, that tells afterwards how much of what was
    /// written the program took ([`Closed::taken`]).
    pub(super) fn close(self) -> Closed {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::OpenOptionsExt;
        let left = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(rustix::fs::OFlags::NONBLOCK.bits().cast_signed())
            .open(format!("/proc/self/fd/{}", self.file.as_raw_fd()))
            .ok();
        Closed {
            sent: self.sent,
            left,
        }
    }

    /// Queues more bytes for a typist: the written ones are forgotten.
    pub(super) fn queue_more(&mut self) -> &mut Vec<u8> {
        let queue = self.queue.to_mut();
        queue.drain(..self.sent);
        self.sent = 0;
        queue
    }
}

/// Stdin once its pipe was closed: what was written, and a read end of
/// the pipe that tells what the program left of it.
pub(super) struct Closed {
    sent: usize,
    left: Option<File>,
}

impl Closed {
    /// Bytes the program took of those written; `None` where the pipe
    /// could not be reopened to tell.
    pub(super) fn taken(&self) -> Option<u64> {
        let held = rustix::io::ioctl_fionread(self.left.as_ref()?).ok()?;
        Some((self.sent as u64).saturating_sub(held))
    }
}

fn nonblocking(fd: OwnedFd) -> io::Result<File> {
    rustix::io::ioctl_fionbio(&fd, true)?;
    Ok(File::from(fd))
}
