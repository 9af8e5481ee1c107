//! Stdin fed one line at a time as the program takes it
//! ([`super::Invocation::count_reads`]), so the harness sees each read
//! even of a program that marks nothing: how many stdin lines it read
//! before it ended, and where its stdout stood at each.
//!
//! How a read is seen: the stdin pipe is shrunk to one page
//! (`F_SETPIPE_SZ`), whose one slot is busy while any byte of it is
//! unread, so the pipe polls writable exactly when the program has taken
//! everything written; `FIONREAD` confirms it is empty. Only then is the
//! next line written. A program's `read(2)` therefore never gets more than
//! one line, whatever its buffer, and a line still in the pipe when it
//! ends is a line it never read. Nothing is timed: no sleep, no guess at
//! when a program is waiting.

use std::os::fd::AsFd;

/// Where a run stood at each stdin line it read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reads {
    /// For each stdin line the program took, in order: how many bytes of
    /// stdout the harness had read when it saw the line taken. A program
    /// whose stdout is a pipe may hold output in its own buffer (C's stdio
    /// does), so this places a read in the output only as far as the
    /// program flushed it, and no further than it printed before its next
    /// read (the next line is written only once this one is seen taken);
    /// output printed between the read and the harness's look counts in.
    pub stdout_at: Vec<u64>,
}

impl Reads {
    /// How many stdin lines the program read.
    pub fn count(&self) -> usize {
        self.stdout_at.len()
    }
}

/// The lines of one run's stdin, released one at a time.
#[derive(Debug)]
pub(super) struct LineFeed {
    /// Where each line ends in stdin (exclusive; after its newline, or at
    /// the end of a last line without one).
    ends: Vec<usize>,
    /// Lines released to be written.
    released: usize,
    /// What was seen so far.
    reads: Reads,
}

impl LineFeed {
    /// The feed of `stdin`, its first line released.
    pub(super) fn new(stdin: &[u8]) -> Self {
        let mut ends: Vec<usize> = stdin
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .map(|(i, _)| i + 1)
            .collect();
        if ends.last().copied().unwrap_or(0) < stdin.len() {
            ends.push(stdin.len());
        }
        Self {
            ends,
            released: 1,
            reads: Reads::default(),
        }
    }

    /// How many bytes of stdin may be written now.
    pub(super) fn limit(&self) -> usize {
        self.released
            .checked_sub(1)
            .and_then(|i| self.ends.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// The line released last was taken, with stdout at `stdout`; releases
    /// the next. `false` when none is left (stdin may close).
    pub(super) fn taken(&mut self, stdout: u64) -> bool {
        if self.released <= self.ends.len() && self.reads.count() < self.released {
            self.reads.stdout_at.push(stdout);
        }
        if self.released < self.ends.len() {
            self.released += 1;
            true
        } else {
            false
        }
    }

    /// What was seen.
    pub(super) fn reads(&self) -> Reads {
        self.reads.clone()
    }
}

/// Shrinks the pipe behind `fd` to one page, so that it polls writable only
/// once empty.
pub(super) fn one_slot(fd: impl AsFd) -> std::io::Result<()> {
    let page = rustix::param::page_size();
    rustix::pipe::fcntl_setpipe_size(fd, page)?;
    Ok(())
}

/// Whether the pipe behind `fd` holds no unread byte.
pub(super) fn empty(fd: impl AsFd) -> bool {
    rustix::io::ioctl_fionread(fd).is_ok_and(|n| n == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_released_one_at_a_time_and_each_read_is_placed() {
        let mut feed = LineFeed::new(b"a\nbb\nc");
        assert_eq!(feed.limit(), 2);
        assert!(feed.taken(10));
        assert_eq!(feed.limit(), 5);
        assert!(feed.taken(20));
        assert_eq!(feed.limit(), 6);
        assert!(!feed.taken(30));
        // A second look at the same empty pipe counts nothing more.
        assert!(!feed.taken(40));
        assert_eq!(feed.reads().stdout_at, [10, 20, 30]);
    }

    #[test]
    fn empty_stdin_has_no_line() {
        let mut feed = LineFeed::new(b"");
        assert_eq!(feed.limit(), 0);
        assert!(!feed.taken(0));
        assert_eq!(feed.reads().count(), 0);
    }
}
