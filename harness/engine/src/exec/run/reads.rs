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
//!
//! What makes a count certain: a buffered reader may read *more* than
//! it needs when more is already there (Java's `Scanner`, through
//! `InputStreamReader`, keeps reading while `available()` says bytes wait;
//! Node's libuv reads until the pipe would block). Were the next line
//! written as soon as the pipe is empty, such a reader would take it or
//! not by the scheduler's whim (2 lines one run, 4 the next). So the next
//! line is written only once the program is seen waiting for it: a thread
//! of a process whose stdin is this pipe asleep in a pipe read or an
//! epoll wait (`/proc/PID/task/TID/wchan`, [`Gate`]). A reader then never
//! finds a line it did not ask for, and counts the same every run. Where
//! that cannot be seen (no `/proc`, a program waiting some other way) the
//! line goes in once the program has been idle a while, and the count is
//! marked uncertain: it is not judged ([`Reads::uncertain`]).

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
    /// Some line went in without the program seen waiting for it
    /// ([`Gate`]): the count may differ run to run, and is not judged.
    pub uncertain: bool,
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

    /// The line released last was taken, with stdout at `stdout` (seen
    /// once: a second look counts nothing more). `false` when no line is
    /// left to release (stdin may close).
    pub(super) fn taken(&mut self, stdout: u64) -> bool {
        if self.released <= self.ends.len() && self.reads.count() < self.released {
            self.reads.stdout_at.push(stdout);
        }
        self.released < self.ends.len()
    }

    /// Releases the next line (after [`Self::taken`] said there is one);
    /// `certain`: the program was seen waiting for it.
    pub(super) fn release(&mut self, certain: bool) {
        if self.released < self.ends.len() {
            self.released += 1;
            self.reads.uncertain |= !certain;
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

/// What a look at the program says of the next line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Look {
    /// A thread of it sleeps in a read or an epoll wait: it wants input.
    Waiting,
    /// It cannot be seen waiting, but has been idle a while (or cannot be
    /// seen at all): the line goes in, the count uncertain.
    Idle,
    /// It is busy: look again later.
    Busy,
}

/// Looks spent idle (no thread runnable, none waiting on a read) before a
/// line goes in anyway, uncertain.
const IDLE_LOOKS: u32 = 12;

/// Processes scanned for the pipe's readers, at most.
const MAX_SCAN: usize = 4096;

/// How long the known readers are trusted before `/proc` is scanned
/// again for new ones (a program that forks its reader).
const RESCAN: std::time::Duration = std::time::Duration::from_millis(50);

/// Where in the kernel a thread sleeping for input sleeps
/// (`/proc/…/wchan`): a pipe read (`pipe_read`, `anon_pipe_read`,
/// `pipe_wait` on older kernels) or an epoll wait (libuv, Go).
const WAITING: [&str; 4] = ["pipe_read", "pipe_wait", "ep_poll", "epoll_wait"];

/// Watches the processes reading a run's stdin pipe for when they wait
/// for the next line ([`Look`]).
#[derive(Debug)]
pub(super) struct Gate {
    /// `pipe:[INODE]`, as `/proc/PID/fd/0` names the pipe.
    pipe: String,
    /// A process never looked at (a keeper polling on its own pipes).
    skip: Option<i32>,
    /// The processes whose stdin is the pipe.
    readers: Vec<i32>,
    /// When `/proc` was last scanned for them.
    scanned: Option<std::time::Instant>,
    /// Looks in a row that saw nothing runnable and nothing waiting.
    idle: u32,
}

impl Gate {
    /// A gate on the pipe behind `fd`, skipping the process `skip`.
    pub(super) fn new(fd: impl AsFd, skip: Option<i32>) -> Self {
        let pipe = rustix::fs::fstat(fd)
            .map_or_else(|_| String::new(), |st| format!("pipe:[{}]", st.st_ino));
        Self {
            pipe,
            skip,
            readers: Vec::new(),
            scanned: None,
            idle: 0,
        }
    }

    /// Whether the program now waits for the next line.
    pub(super) fn look(&mut self) -> Look {
        if self.pipe.is_empty() {
            return Look::Idle;
        }
        // None found yet (a keeper still starting it): look again soon.
        let again = if self.readers.is_empty() {
            RESCAN / 10
        } else {
            RESCAN
        };
        if self.scanned.is_none_or(|at| at.elapsed() >= again) {
            self.scan();
        }
        let mut runnable = false;
        for pid in &self.readers {
            let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
                continue;
            };
            for task in tasks.flatten().take(MAX_SCAN) {
                let dir = task.path();
                let wchan = std::fs::read_to_string(dir.join("wchan")).unwrap_or_default();
                if WAITING.iter().any(|w| wchan.contains(w)) {
                    self.idle = 0;
                    return Look::Waiting;
                }
                let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
                runnable |= stat
                    .rfind(')')
                    .and_then(|i| stat.get(i + 1..))
                    .and_then(|rest| rest.trim_start().chars().next())
                    .is_none_or(|state| state == 'R');
            }
        }
        if runnable {
            self.idle = 0;
            return Look::Busy;
        }
        // Nothing runnable and nothing waiting on a read: a reader this
        // gate cannot recognise, or none seen (`/proc` hidden).
        self.idle += 1;
        if self.idle >= IDLE_LOOKS {
            self.idle = 0;
            Look::Idle
        } else {
            Look::Busy
        }
    }

    /// Finds the processes whose stdin is the pipe.
    fn scan(&mut self) {
        self.scanned = Some(std::time::Instant::now());
        self.readers.clear();
        let me = i32::try_from(std::process::id()).unwrap_or(0);
        let Ok(procs) = std::fs::read_dir("/proc") else {
            return;
        };
        for entry in procs.flatten().take(MAX_SCAN) {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<i32>().ok())
            else {
                continue;
            };
            if pid == me || Some(pid) == self.skip {
                continue;
            }
            let fd0 = std::fs::read_link(entry.path().join("fd/0"));
            if fd0.is_ok_and(|l| l.as_os_str() == self.pipe.as_str()) {
                self.readers.push(pid);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_released_one_at_a_time_and_each_read_is_placed() {
        let mut feed = LineFeed::new(b"a\nbb\nc");
        assert_eq!(feed.limit(), 2);
        assert!(feed.taken(10));
        // Not released yet: a second look counts nothing more.
        assert!(feed.taken(15));
        feed.release(true);
        assert_eq!(feed.limit(), 5);
        assert!(feed.taken(20));
        feed.release(true);
        assert_eq!(feed.limit(), 6);
        assert!(!feed.taken(30));
        assert!(!feed.taken(40));
        assert_eq!(feed.reads().stdout_at, [10, 20, 30]);
        assert!(!feed.reads().uncertain);
        let mut feed = LineFeed::new(b"a\nb\n");
        assert!(feed.taken(0));
        feed.release(false);
        assert!(feed.reads().uncertain);
    }

    #[test]
    fn empty_stdin_has_no_line() {
        let mut feed = LineFeed::new(b"");
        assert_eq!(feed.limit(), 0);
        assert!(!feed.taken(0));
        assert_eq!(feed.reads().count(), 0);
    }
}
