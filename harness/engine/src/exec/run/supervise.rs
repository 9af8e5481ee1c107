//! Supervising a started run from one `poll(2)` loop on the calling thread:
//! both output streams read under the cap (a window kept, the rest counted),
//! stdin written as the pipe accepts it (in interactive mode typed into the
//! terminal at its prompts by a [`Typist`]), the program's end seen on a
//! pidfd, and the decision of when the run is over: ended, timed out, past
//! the cap, or with a left-behind process holding its output.
//!
//! One loop replaces the four threads a run used to start (two readers, a
//! writer or typist, a waiter): `perf` put the creation and tear-down of
//! their stacks at about 14% of all CPU of the overhead bench at the
//! `group` level.
//! Killing and reaping stay with [`crate::exec::run`], which knows what the
//! process is; this module only needs its pid.
//!
//! The descriptors it drives (an output stream under its cap, stdin as
//! the pipe takes it) are [`super::pipes`]'s; stdin fed a line at a time
//! is [`super::reads`]'s.
//!
//! One piece: the `poll(2)` loop is one decision over all of a run's
//! descriptors at once (outputs under their caps, stdin, the pidfd, the
//! clock); split, each part would need the loop's whole state. Its
//! tests are the sibling `supervise/tests.rs`.

use std::borrow::Cow;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::process::{Pid, PidfdFlags, WaitId, WaitIdOptions};

use super::cpu::CpuStop;
use super::ending::Stream;
use super::invocation::Keep;
use super::pipes::{Closed, Got, Inlet, Reader};
use super::reads::{self, Gate, LineFeed, Look, Reads};
use crate::exec::terminal::{Awaiting, Keys, Typist};

/// How often the program's end is peeked at where the kernel has no
/// `pidfd_open` (before Linux 5.3).
const PEEK_INTERVAL: Duration = Duration::from_millis(5);

/// The first and the longest sleep between looks at a program that has
/// taken its line and is not yet waiting for the next ([`Gate`]): the
/// sleep doubles while it stays busy, so a long computation costs few
/// looks and a quick reader waits little.
const GATE_TICK_MIN: Duration = Duration::from_micros(250);
const GATE_TICK_MAX: Duration = Duration::from_millis(4);

/// Bytes read per `read(2)`: a whole default pipe buffer.
const CHUNK: usize = 64 * 1024;
/// How long stdout is given to pass on what it holds before a prompt
/// written to stderr joins it ([`Supervisor::prompt_on_stderr`]).
const STDOUT_SETTLE: Duration = Duration::from_millis(5);

/// The descriptors of a started run the harness holds.
pub(crate) struct Ends {
    /// The program's stdin (a pipe), when it is not a terminal.
    pub stdin: Option<OwnedFd>,
    /// In interactive mode: the terminal's master to type into, and its
    /// keys.
    pub typing: Option<(OwnedFd, Keys)>,
    /// Its stdout: a pipe, or the terminal's master.
    pub stdout: Option<OwnedFd>,
    /// Its stderr.
    pub stderr: Option<OwnedFd>,
}

/// What decides the end of a run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rules {
    /// Time from the start before the run is killed.
    pub timeout: Duration,
    /// Bytes per stream before the run is killed.
    pub cap: u64,
    /// Bytes of each stream kept.
    pub keep: Keep,
    /// The process watched is a keeper: its streams closing is its end,
    /// and after its death the pipes only drain.
    pub keeper: bool,
    /// How long the streams may stay open after the process watched is
    /// gone.
    pub grace: Duration,
    /// Stop as at the timeout once the run has used this much CPU time.
    pub cpu_stop: Option<CpuStop>,
}

/// Why the loop stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Every stream closed and, unless a keeper is watched, the process
    /// ended.
    Ended,
    /// The process ended but a stream stayed open past the grace.
    Lingered,
    /// The timeout passed; in interactive mode, what waited for its prompt.
    TimedOut(Option<Awaiting>),
    /// This stream passed the cap.
    Cap(Stream),
}

/// One run under supervision.
pub(crate) struct Supervisor<'a> {
    /// Stdout, then stderr.
    readers: [Reader; 2],
    /// Stdin's pipe, until everything is written or the program closed it.
    stdin: Option<Inlet<'a>>,
    /// Stdin fed a line at a time, each read seen ([`super::reads`]).
    lines: Option<LineFeed>,
    /// Whether stdin is a pipe this run writes (not a terminal, nor
    /// another program's pipe), and once closed what it tells of the
    /// bytes the program took ([`Self::stdin_taken`]).
    stdin_piped: bool,
    stdin_closed: Option<Closed>,
    /// Watches for the program waiting for its next line; `gated` while
    /// a line waits for that.
    gate: Option<Gate>,
    gated: bool,
    /// How long the loop sleeps between looks while gated.
    gate_tick: Duration,
    /// Reads were asked to be counted ([`Self::reads`] says zero for an
    /// empty stdin, which needs no feed).
    counting: bool,
    /// The terminal's master and what is typed into it.
    typist: Option<(Inlet<'a>, Typist<'a>)>,
    end: End,
    rules: Rules,
    chunk: Vec<u8>,
    /// When output last arrived on either stream: a run killed at its
    /// limit was "still writing" if this is close to the kill.
    last_output: Option<Instant>,
}

/// How the end of the process watched is seen.
enum End {
    /// Its pidfd, readable once it exited.
    Pidfd(OwnedFd),
    /// No `pidfd_open`: a `waitid` peek every [`PEEK_INTERVAL`].
    Peek(Pid),
    /// It exited, at this time.
    Seen(Instant),
}

impl End {
    /// Watches `pid` through `given` (a pidfd its starter handed over: it
    /// is not this process's child) or one of its own.
    fn watch(pid: Pid, given: Option<OwnedFd>) -> Self {
        if let Some(fd) = given {
            return End::Pidfd(fd);
        }
        match rustix::process::pidfd_open(pid, PidfdFlags::empty()) {
            Ok(fd) => End::Pidfd(fd),
            // ENOSYS on kernels before 5.3; any other failure (no
            // descriptor left) is served as well by peeking.
            Err(_) => End::Peek(pid),
        }
    }

    /// Whether `pid` exited. NOWAIT: peeked without reaping, so that the
    /// process group's id stays reserved until the group is killed. An
    /// error (not a child any more) counts as an end, or the run would wait
    /// for its timeout.
    fn peek(pid: Pid) -> bool {
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOWAIT | WaitIdOptions::NOHANG;
        match rustix::process::waitid(WaitId::Pid(pid), options) {
            Ok(status) => status.is_some(),
            Err(rustix::io::Errno::INTR) => false,
            Err(_) => true,
        }
    }

    fn seen(&self) -> Option<Instant> {
        match self {
            End::Seen(at) => Some(*at),
            End::Pidfd(_) | End::Peek(_) => None,
        }
    }
}

/// A descriptor the loop polls.
#[derive(Debug, Clone, Copy)]
enum Slot {
    Reader(usize),
    Stdin,
    Typing,
    End,
}

impl<'a> Supervisor<'a> {
    /// Supervision of the process `pid` (a group leader, or a keeper) with
    /// these descriptors; `stdin` is written to the pipe (a line at a time
    /// as the program reads it, with `by_line`), or typed.
    pub fn new(
        ends: Ends,
        (stdin, prompt, by_line): (&'a [u8], &'a [u8], bool),
        (pid, pidfd): (Pid, Option<OwnedFd>),
        rules: Rules,
    ) -> io::Result<Self> {
        let readers = [
            Reader::new(ends.stdout, Stream::Stdout, rules.keep)?,
            Reader::new(ends.stderr, Stream::Stderr, rules.keep)?,
        ];
        let typist = match ends.typing {
            Some((fd, keys)) => Some((
                Inlet::new(fd, Cow::Owned(Vec::new()))?,
                Typist::new(stdin, prompt, keys),
            )),
            None => None,
        };
        let stdin_piped = ends.stdin.is_some() && typist.is_none();
        // Empty stdin: the pipe closes at once, the program reads its end.
        let mut stdin = match ends.stdin {
            Some(fd) if typist.is_none() && !stdin.is_empty() => {
                Some(Inlet::new(fd, Cow::Borrowed(stdin))?)
            }
            _ => None,
        };
        let counting = by_line && typist.is_none();
        let lines = match &mut stdin {
            Some(inlet) if by_line => {
                reads::one_slot(&inlet.file)?;
                let feed = LineFeed::new(&inlet.queue);
                inlet.limit = Some(feed.limit());
                Some(feed)
            }
            _ => None,
        };
        // A keeper polls on its own descriptors: only its program is
        // watched for waiting.
        let skip = rules.keeper.then(|| pid.as_raw_nonzero().get());
        let gate = match (&stdin, &lines) {
            (Some(inlet), Some(_)) => Some(Gate::new(&inlet.file, skip)),
            _ => None,
        };
        Ok(Self {
            readers,
            stdin,
            lines,
            stdin_piped,
            stdin_closed: None,
            gate,
            gated: false,
            gate_tick: GATE_TICK_MIN,
            counting,
            typist,
            end: End::watch(pid, pidfd),
            rules,
            chunk: vec![0; CHUNK],
            last_output: None,
        })
    }

    /// Runs the loop until the run is over (`start`: when the program was
    /// started). The process is left as it is: killing it is the caller's.
    pub fn run(&mut self, start: Instant) -> io::Result<Stop> {
        let deadline = start + self.rules.timeout;
        self.feed();
        self.type_due();
        loop {
            let exited = self.end.seen();
            // A keeper holds the streams until it exits, after it wrote its
            // report: their closing is its end. Waiting for it to be reaped
            // would add the kernel's slow tear-down of its namespaces.
            if self.open_streams() == 0 && (self.rules.keeper || exited.is_some()) {
                return Ok(Stop::Ended);
            }
            let limit = exited.map_or(deadline, |at| deadline.min(at + self.rules.grace));
            let now = Instant::now();
            if now >= limit {
                return Ok(if exited.is_some() && now < deadline {
                    Stop::Lingered
                } else {
                    Stop::TimedOut(self.awaiting())
                });
            }
            let mut wait = limit - now;
            if let Some(stop) = self.rules.cpu_stop
                && exited.is_none()
            {
                if stop.reached() {
                    return Ok(Stop::TimedOut(self.awaiting()));
                }
                wait = wait.min(CpuStop::LOOK);
            }
            if self.gated {
                self.feed();
                wait = wait.min(self.gate_tick);
                self.gate_tick = (self.gate_tick * 2).min(GATE_TICK_MAX);
            }
            if let End::Peek(pid) = self.end {
                if End::peek(pid) {
                    self.end = End::Seen(Instant::now());
                    continue;
                }
                wait = wait.min(PEEK_INTERVAL);
            }
            for slot in self.poll(wait, false)? {
                match slot {
                    Slot::End => self.end = End::Seen(Instant::now()),
                    Slot::Reader(i) => {
                        if let Some(stream) = self.read(i) {
                            return Ok(Stop::Cap(stream));
                        }
                    }
                    Slot::Stdin => self.feed(),
                    Slot::Typing => self.type_due(),
                }
            }
        }
    }

    /// After the loop (and the kill): reads what is left in the streams
    /// until they close or `until`, at least one read of each that is
    /// ready. Whatever passes the cap now is only counted.
    pub fn drain(&mut self, until: Instant) -> io::Result<()> {
        while self.open_streams() > 0 {
            let ready = self.poll(until.saturating_duration_since(Instant::now()), true)?;
            if ready.is_empty() {
                break;
            }
            for slot in ready {
                if let Slot::Reader(i) = slot {
                    self.read(i);
                }
            }
            if Instant::now() >= until {
                break;
            }
        }
        Ok(())
    }

    /// Whether the process watched was seen to end.
    pub fn exited(&self) -> bool {
        self.end.seen().is_some()
    }

    /// When output last arrived, if any did.
    pub fn last_output(&self) -> Option<Instant> {
        self.last_output
    }

    /// Each stream's kept bytes and the count of bytes read and not kept.
    pub fn captured(self) -> [(Vec<u8>, u64); 2] {
        self.readers.map(|r| (r.kept, r.dropped))
    }

    fn open_streams(&self) -> usize {
        self.readers.iter().filter(|r| r.file.is_some()).count()
    }

    /// What waits for its prompt: nothing while typed bytes wait for the
    /// terminal to take them.
    fn awaiting(&self) -> Option<Awaiting> {
        let (inlet, typist) = self.typist.as_ref()?;
        if inlet.pending() {
            None
        } else {
            typist.waiting()
        }
    }

    /// Reads stream `i` once; the stream, if it passed the cap.
    fn read(&mut self, i: usize) -> Option<Stream> {
        let reader = self.readers.get_mut(i)?;
        let typist = match (&mut self.typist, reader.stream) {
            (Some((_, typist)), Stream::Stdout) => Some(typist),
            _ => None,
        };
        let typing = typist.is_some();
        let stream = reader.stream;
        let before = reader.kept.len();
        let got = reader.read_once(&mut self.chunk, self.rules.cap, typist);
        if matches!(got, Got::Data | Got::Cap) {
            self.last_output = Some(Instant::now());
        }
        // Moving a prompt reads stdout, which may reach the cap there.
        let mut capped = None;
        if stream == Stream::Stderr && got == Got::Data {
            capped = self.prompt_on_stderr(i, before);
        }
        if typing && got == Got::Data {
            self.type_due();
        }
        (got == Got::Cap).then_some(stream).or(capped)
    }

    /// At a terminal, a prompt written alone to stderr (a piece of a line
    /// ending in the suite's prompt) is the prompt:
    /// Python's `input()` writes it there when stdin and stdout are a
    /// terminal, and a person, whose stdout and stderr are the one
    /// terminal, sees it where a C program's prompt shows. It moves to
    /// stdout, after whatever stdout still holds (the terminal passes
    /// bytes on a moment later than a pipe).
    /// Returns the stream whose cap was reached while stdout was read.
    fn prompt_on_stderr(&mut self, i: usize, before: usize) -> Option<Stream> {
        let (_, typist) = self.typist.as_ref()?;
        let prompt = self.readers[i].take_prompt(before, typist.prompt())?;
        let out = self.readers.iter().position(|r| r.stream == Stream::Stdout);
        if let Some(out) = out {
            while self.poll(STDOUT_SETTLE, true).is_ok_and(|ready| {
                ready
                    .iter()
                    .any(|s| matches!(s, Slot::Reader(r) if *r == out))
            }) && self.readers[out].file.is_some()
            {
                if let Some(capped) = self.read(out) {
                    // The run ends at its cap: the prompt no longer matters.
                    return Some(capped);
                }
            }
            self.readers[out].push(&prompt);
        }
        if let Some((_, typist)) = &mut self.typist {
            typist.saw(&prompt);
        }
        self.type_due();
        None
    }

    fn feed(&mut self) {
        self.feed_lines(true);
    }

    /// Writes what stdin may take now; `release`: a line taken may let
    /// the next go in (not once the program has ended: only what it took
    /// is counted then).
    fn feed_lines(&mut self, release: bool) {
        let Some(inlet) = &mut self.stdin else {
            return;
        };
        let mut failed = inlet.push().is_err();
        let Some(lines) = &mut self.lines else {
            if failed || !inlet.pending() {
                // Closing the pipe is the program's end of input.
                self.close_stdin();
            }
            return;
        };
        // The line written is read once the pipe is empty: only then, and
        // once the program waits for more, does the next one go in, so
        // each read takes one line and a reader never finds one it did
        // not ask for.
        let mut more = true;
        self.gated = false;
        while more && !inlet.pending() && reads::empty(&inlet.file) {
            let stdout = self.readers[0].total;
            more = lines.taken(stdout);
            if more && !release {
                return;
            }
            if more {
                let look = self.gate.as_mut().map_or(Look::Idle, Gate::look);
                if look == Look::Busy {
                    self.gated = true;
                    break;
                }
                self.gate_tick = GATE_TICK_MIN;
                lines.release(look == Look::Waiting);
                inlet.limit = Some(lines.limit());
                failed |= inlet.push().is_err();
            }
        }
        if failed || !more {
            self.close_stdin();
        }
    }

    fn close_stdin(&mut self) {
        if let Some(inlet) = self.stdin.take() {
            self.stdin_closed = Some(inlet.close());
        }
    }

    /// Bytes of stdin the program took (read from the pipe): `None` where
    /// stdin was no pipe of this run's or the pipe cannot tell. What
    /// tells a program whose own code ran from a runtime that never
    /// started ([`super::start`]).
    pub fn stdin_taken(&self) -> Option<u64> {
        if !self.stdin_piped {
            return None;
        }
        match (&self.stdin, &self.stdin_closed) {
            (Some(inlet), _) => inlet.taken(),
            (None, Some(closed)) => closed.taken(),
            // Empty stdin: nothing was written, nothing taken.
            (None, None) => Some(0),
        }
    }

    /// How the program read stdin fed a line at a time: `None` when it was
    /// not. Call once the run is over: a line it read just before it ended
    /// is counted here.
    pub fn reads(&mut self) -> Option<Reads> {
        self.feed_lines(false);
        match &self.lines {
            Some(feed) => Some(feed.reads()),
            // Nothing to feed: the program read no line.
            None => self.counting.then(Reads::default),
        }
    }

    fn type_due(&mut self) {
        if let Some((inlet, typist)) = &mut self.typist {
            typist.due(inlet.queue_more());
            if inlet.push().is_err() {
                typist.stop();
                self.typist = None;
            }
        }
    }

    /// Waits up to `wait` for any descriptor to be ready (only the output
    /// streams', when `streams_only`).
    fn poll(&self, wait: Duration, streams_only: bool) -> io::Result<Vec<Slot>> {
        let mut fds = Vec::with_capacity(5);
        let mut slots = Vec::with_capacity(5);
        for (i, reader) in self.readers.iter().enumerate() {
            if let Some(file) = &reader.file {
                fds.push(PollFd::new(file, PollFlags::IN));
                slots.push(Slot::Reader(i));
            }
        }
        if !streams_only {
            // Fed a line at a time, the pipe polls writable once empty:
            // the line written was read.
            // Gated, it stays writable: the loop's tick looks instead.
            let by_line = self.lines.is_some() && !self.gated;
            if let Some(inlet) = self.stdin.as_ref().filter(|i| i.pending() || by_line) {
                fds.push(PollFd::new(&inlet.file, PollFlags::OUT));
                slots.push(Slot::Stdin);
            }
            if let Some((inlet, _)) = self.typist.as_ref().filter(|(i, _)| i.pending()) {
                fds.push(PollFd::new(&inlet.file, PollFlags::OUT));
                slots.push(Slot::Typing);
            }
            if let End::Pidfd(fd) = &self.end {
                fds.push(PollFd::from_borrowed_fd(fd.as_fd(), PollFlags::IN));
                slots.push(Slot::End);
            }
        }
        let timeout = Timespec::try_from(wait).unwrap_or(Timespec {
            tv_sec: i64::MAX,
            tv_nsec: 0,
        });
        match poll(&mut fds, Some(&timeout)) {
            Ok(0) | Err(rustix::io::Errno::INTR) => Ok(Vec::new()),
            Ok(_) => Ok(fds
                .iter()
                .zip(slots)
                .filter(|(fd, _)| !fd.revents().is_empty())
                .map(|(_, slot)| slot)
                .collect()),
            Err(e) => Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests;
