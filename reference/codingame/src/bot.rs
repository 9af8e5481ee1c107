//! A bot as a contained process, and the [`Player`] seam the match driver
//! talks to. The command is split into words with `shlex` (never a shell
//! unless it says `sh -c`); the bot runs contained ([`crate::contain`]: its
//! own PID namespace where the kernel allows it, else its own process
//! group), killed as a whole at the end (END-5). Its first request is sent
//! once the sandbox has started it, so the start-up is not its time
//! (TIME-1). A writer thread feeds standard input and
//! stamps when a request's last byte is written; a reader thread splits
//! standard output into lines stamped on arrival; a third thread drains
//! standard error, keeping a bounded tail, so a bot never blocks on it
//! (ANSWER-7). Stamping in those threads keeps the referee's own work out of
//! the bot's time (TIME-1).
//!
//! One piece: a bot process and its three threads (writer, reader,
//! stderr drain) share the stamps and bounded buffers `BotProcess`
//! reads; the `Player` seam is what the match driver sees of it.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::answer::MAX_LINE;
use crate::contain::{self, Jail};

/// The most of one line kept: enough to judge it `too-long` (ANSWER-5).
const KEPT_LINE: usize = MAX_LINE + 2;
/// The most of a stream kept for a transcript.
const KEPT_STREAM: usize = 1 << 20;
/// How long a bot whose input is closed has to finish delivering its output.
const WRITE_FAILED_GRACE: Duration = Duration::from_millis(50);
/// Lines read ahead of the requests before the reader waits (ANSWER-1).
const QUEUED_LINES: usize = 256;
/// How long a bot whose output ended may take to exit before its failure
/// says it is still running.
const ENDING_GRACE: Duration = Duration::from_millis(300);

/// What came back for one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// A complete line on time, without its `\n`.
    Line(Vec<u8>),
    /// No complete line within the limit (TIME-4); what had arrived.
    Timeout(Vec<u8>),
    /// The output ended first, or the bot could not be asked (END-3).
    Eof(Vec<u8>),
}

/// One seat's side of a match: whatever answers requests.
pub trait Player {
    /// Sends `request` and waits at most `limit` for the answer (TIME-1).
    fn ask(&mut self, request: &[u8], limit: Duration) -> Reply;
    /// Ends the player (END-5); later calls to `ask` give `Eof`.
    fn finish(&mut self);
}

/// A command that cannot be split into words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// Unbalanced quotes or an empty command.
    #[error("cannot split `{0}` into words")]
    Split(String),
}

/// Splits a shell-quoted command into its words.
pub fn split_command(cmd: &str) -> Result<Vec<String>, CommandError> {
    match shlex::split(cmd) {
        Some(words) if !words.is_empty() => Ok(words),
        _ => Err(CommandError::Split(cmd.to_owned())),
    }
}

enum Out {
    Line(Vec<u8>, Instant),
    End(Vec<u8>),
}

enum Written {
    Done(Instant),
    Failed,
}

/// What a bot process exchanged, for `--transcript`.
#[derive(Debug, Clone, Default)]
pub struct Transcript {
    /// Every byte sent to standard input.
    pub sent: Vec<u8>,
    /// Every byte read from standard output (bounded).
    pub received: Vec<u8>,
    /// The tail of standard error (bounded).
    pub stderr: Vec<u8>,
}

/// A running bot.
pub struct BotProcess {
    /// Boxed: a bot is started once, and moved around as a seat.
    jail: Box<Jail>,
    /// Whether the sandbox was waited for (before the first request).
    waited: bool,
    /// Why the bot could not be started, when the sandbox said so.
    start_error: Option<String>,
    requests: Option<mpsc::Sender<Vec<u8>>>,
    written: Receiver<Written>,
    pending_writes: usize,
    lines: Receiver<Out>,
    queued: VecDeque<(Vec<u8>, Instant)>,
    ended: Option<Vec<u8>>,
    sent: Vec<u8>,
    received: Arc<Mutex<Vec<u8>>>,
    stderr: Arc<Mutex<Vec<u8>>>,
}

fn keep(buf: &Mutex<Vec<u8>>, bytes: &[u8], tail: bool) {
    if let Ok(mut b) = buf.lock() {
        b.extend_from_slice(bytes);
        if b.len() > KEPT_STREAM {
            if tail {
                let cut = b.len() - KEPT_STREAM;
                b.drain(..cut);
            } else {
                b.truncate(KEPT_STREAM);
            }
        }
    }
}

fn read_lines(mut out: impl Read, tx: &SyncSender<Out>, received: &Mutex<Vec<u8>>) {
    let mut chunk = vec![0u8; 8192];
    let mut line = Vec::new();
    let mut overlong = false;
    loop {
        let n = match out.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let at = Instant::now();
        let bytes = chunk.get(..n).unwrap_or_default();
        keep(received, bytes, false);
        for piece in bytes.split_inclusive(|&b| b == b'\n') {
            let (body, ended) = match piece.split_last() {
                Some((b'\n', body)) => (body, true),
                _ => (piece, false),
            };
            if !overlong {
                let room = KEPT_LINE.saturating_sub(line.len());
                line.extend_from_slice(body.get(..room.min(body.len())).unwrap_or_default());
                overlong = line.len() >= KEPT_LINE;
            }
            if ended {
                overlong = false;
                if tx.send(Out::Line(std::mem::take(&mut line), at)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = tx.send(Out::End(line));
}

impl BotProcess {
    /// Starts `words` (program then arguments), contained.
    pub fn spawn(words: &[String]) -> std::io::Result<BotProcess> {
        BotProcess::spawn_with_env(words, &[])
    }

    /// Starts `words` with `env` added to the bot's own environment
    /// ([`contain::environment`]).
    pub fn spawn_with_env(
        words: &[String],
        env: &[(String, String)],
    ) -> std::io::Result<BotProcess> {
        BotProcess::spawn_in(words, env, None)
    }

    /// [`BotProcess::spawn_with_env`], the bot's private folder made inside
    /// `parent` ([`contain::start_in`]).
    pub fn spawn_in(
        words: &[String],
        env: &[(String, String)],
        parent: Option<&std::path::Path>,
    ) -> std::io::Result<BotProcess> {
        let contain::Started {
            stdin,
            stdout,
            stderr,
            jail,
        } = contain::start_in(words, env, parent)?;

        let (req_tx, req_rx) = mpsc::channel::<Vec<u8>>();
        let (w_tx, w_rx) = mpsc::channel();
        thread::spawn(move || {
            let Some(mut stdin) = stdin else {
                let _ = w_tx.send(Written::Failed);
                return;
            };
            let mut broken = false;
            for req in req_rx {
                broken = broken || stdin.write_all(&req).and_then(|()| stdin.flush()).is_err();
                let event = if broken {
                    Written::Failed
                } else {
                    Written::Done(Instant::now())
                };
                if w_tx.send(event).is_err() {
                    break;
                }
            }
        });

        let received = Arc::new(Mutex::new(Vec::new()));
        let (l_tx, l_rx) = mpsc::sync_channel(QUEUED_LINES);
        if let Some(stdout) = stdout {
            let received = Arc::clone(&received);
            thread::spawn(move || read_lines(stdout, &l_tx, &received));
        } else {
            let _ = l_tx.send(Out::End(Vec::new()));
        }

        let stderr_tail = Arc::new(Mutex::new(Vec::new()));
        if let Some(mut stderr) = stderr {
            let tail = Arc::clone(&stderr_tail);
            thread::spawn(move || {
                let mut chunk = vec![0u8; 8192];
                while let Ok(n) = stderr.read(&mut chunk) {
                    if n == 0 {
                        break;
                    }
                    keep(&tail, chunk.get(..n).unwrap_or_default(), true);
                }
            });
        }

        Ok(BotProcess {
            jail: Box::new(jail),
            waited: false,
            start_error: None,
            requests: Some(req_tx),
            written: w_rx,
            pending_writes: 0,
            lines: l_rx,
            queued: VecDeque::new(),
            ended: None,
            sent: Vec::new(),
            received,
            stderr: stderr_tail,
        })
    }

    /// Starts a shell-quoted command line.
    pub fn spawn_command(cmd: &str) -> std::io::Result<BotProcess> {
        let words = split_command(cmd).map_err(std::io::Error::other)?;
        BotProcess::spawn(&words)
    }

    /// What kills the bot from outside while it runs.
    pub fn running(&self) -> Option<contain::Running> {
        self.jail.running()
    }

    /// Why the bot could not be started, once a request found it so (a
    /// contained bot is started by its sandbox, after `spawn` returned).
    pub fn start_error(&self) -> Option<&str> {
        self.start_error.as_deref()
    }

    /// How the bot ended, when its output ended: its exit status or
    /// signal (if it ended within a moment) and the last `lines` lines of
    /// its stderr, escaped; `None` when it is still running and said
    /// nothing on stderr.
    pub fn ending_note(&self, lines: usize) -> Option<String> {
        let how = self.jail.ended(ENDING_GRACE);
        // The stderr reader may still be draining what the bot wrote last.
        if how.is_some() {
            std::thread::sleep(Duration::from_millis(20));
        }
        let stderr = self.stderr.lock().map(|b| b.clone()).unwrap_or_default();
        let text = String::from_utf8_lossy(&stderr);
        let tail: Vec<String> = text
            .lines()
            .rev()
            .take(lines)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .map(|l| l.escape_debug().to_string())
            .collect();
        let said = (!tail.is_empty()).then(|| format!("its stderr ended: `{}`", tail.join("` `")));
        match (how, said) {
            (None, None) => None,
            (Some(h), None) => Some(format!("the bot ended ({h}), nothing on stderr")),
            (None, Some(s)) => Some(format!("the bot is still running; {s}")),
            (Some(h), Some(s)) => Some(format!("the bot ended ({h}); {s}")),
        }
    }

    /// What was exchanged so far.
    pub fn transcript(&self) -> Transcript {
        Transcript {
            sent: self.sent.clone(),
            received: self.received.lock().map(|b| b.clone()).unwrap_or_default(),
            stderr: self.stderr.lock().map(|b| b.clone()).unwrap_or_default(),
        }
    }

    /// The bot's input is closed (END-3: `eof`), but a line it wrote just
    /// before is still its answer (ANSWER-1), and an unfinished last line
    /// is what was received: give the reader a moment to deliver either.
    fn after_write_failed(&mut self, deadline: Instant) -> Reply {
        let grace = deadline.min(Instant::now() + WRITE_FAILED_GRACE);
        match self.take_line(Some(grace)) {
            Some(reply @ (Reply::Line(_) | Reply::Eof(_))) => reply,
            Some(Reply::Timeout(_)) | None => Reply::Eof(Vec::new()),
        }
    }

    fn drain_ready(&mut self) {
        while self.ended.is_none() {
            match self.lines.try_recv() {
                Ok(Out::Line(line, at)) => self.queued.push_back((line, at)),
                Ok(Out::End(partial)) => self.ended = Some(partial),
                Err(_) => break,
            }
        }
    }

    fn take_line(&mut self, deadline: Option<Instant>) -> Option<Reply> {
        if let Some((line, _)) = self.queued.pop_front() {
            return Some(Reply::Line(line));
        }
        if let Some(partial) = &self.ended {
            return Some(Reply::Eof(partial.clone()));
        }
        let event = match deadline {
            None => self.lines.try_recv().ok()?,
            Some(d) => match self
                .lines
                .recv_timeout(d.saturating_duration_since(Instant::now()))
            {
                Ok(e) => e,
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => Out::End(Vec::new()),
            },
        };
        match event {
            Out::Line(line, at) => {
                if deadline.is_some_and(|d| at > d) {
                    // Late (TIME-4): not used for this request.
                    self.queued.push_back((line, at));
                    return None;
                }
                Some(Reply::Line(line))
            }
            Out::End(partial) => {
                self.ended = Some(partial.clone());
                Some(Reply::Eof(partial))
            }
        }
    }
}

impl Player for BotProcess {
    fn ask(&mut self, request: &[u8], limit: Duration) -> Reply {
        if !self.waited {
            self.waited = true;
            if let Err(why) = self.jail.wait_started() {
                self.start_error = Some(why);
            }
        }
        let begin = Instant::now();
        let Some(requests) = &self.requests else {
            return Reply::Eof(Vec::new());
        };
        self.sent.extend_from_slice(request);
        if requests.send(request.to_vec()).is_err() {
            return Reply::Eof(Vec::new());
        }
        self.pending_writes += 1;
        // Early lines first (ANSWER-1, TIME-3): already on time.
        self.drain_ready();
        if let Some((line, _)) = self.queued.pop_front() {
            return Reply::Line(line);
        }
        // Wait until this request's last byte is written (TIME-3).
        let write_deadline = begin + limit;
        let mut start = None;
        while self.pending_writes > 0 {
            match self
                .written
                .recv_timeout(write_deadline.saturating_duration_since(Instant::now()))
            {
                Ok(Written::Done(at)) => {
                    self.pending_writes -= 1;
                    start = Some(at);
                }
                Ok(Written::Failed) | Err(RecvTimeoutError::Disconnected) => {
                    self.pending_writes = 0;
                    self.requests = None;
                    return self.after_write_failed(write_deadline);
                }
                Err(RecvTimeoutError::Timeout) => return Reply::Timeout(Vec::new()),
            }
        }
        let deadline = start.unwrap_or(begin) + limit;
        if let Some(reply) = self.take_line(Some(deadline)) {
            return reply;
        }
        // The reader may have stamped a line in time that we were woken too
        // late to see.
        match self.lines.try_recv() {
            Ok(Out::Line(line, at)) if at <= deadline => Reply::Line(line),
            Ok(Out::Line(line, at)) => {
                self.queued.push_back((line, at));
                Reply::Timeout(Vec::new())
            }
            Ok(Out::End(partial)) => {
                self.ended = Some(partial.clone());
                Reply::Timeout(Vec::new())
            }
            Err(_) => Reply::Timeout(Vec::new()),
        }
    }

    fn finish(&mut self) {
        // Closing standard input first lets a well-behaved bot see the end.
        self.requests = None;
        self.jail.end();
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A seat whose bot could not be started: every request gets `Eof` (END-3).
#[derive(Debug, Default)]
pub struct Absent;

impl Player for Absent {
    fn ask(&mut self, _request: &[u8], _limit: Duration) -> Reply {
        Reply::Eof(Vec::new())
    }

    fn finish(&mut self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> BotProcess {
        BotProcess::spawn(&["sh".into(), "-c".into(), script.into()]).unwrap()
    }

    #[test]
    fn split_never_uses_a_shell() {
        assert_eq!(split_command("a 'b c' d").unwrap(), ["a", "b c", "d"]);
        assert!(split_command("a 'b").is_err());
        assert!(split_command("  ").is_err());
    }

    #[test]
    fn lines_and_eof() {
        let mut b = sh("read x; echo 'A1 R'; read y; printf 'B1'");
        let long = Duration::from_secs(5);
        assert_eq!(b.ask(b"1\n", long), Reply::Line(b"A1 R".to_vec()));
        assert_eq!(b.ask(b"2\n", long), Reply::Eof(b"B1".to_vec()));
        b.finish();
        assert_eq!(b.transcript().sent, b"1\n2\n");
    }

    #[test]
    fn early_line_waits_and_second_line_is_next_answer() {
        let mut b = sh("echo 'A1 R'; echo 'A1 T'; sleep 5");
        let long = Duration::from_secs(5);
        assert_eq!(b.ask(b"x\n", long), Reply::Line(b"A1 R".to_vec()));
        assert_eq!(b.ask(b"y\n", long), Reply::Line(b"A1 T".to_vec()));
    }

    #[test]
    fn end_3_closed_input_is_eof_after_the_last_line() {
        let mut b = sh("echo 'A1 R'; exec 0<&-; sleep 1");
        let long = Duration::from_secs(5);
        assert_eq!(b.ask(b"1\n", long), Reply::Line(b"A1 R".to_vec()));
        assert_eq!(b.ask(b"2\n", long), Reply::Eof(Vec::new()));
    }

    #[test]
    fn stderr_flood_never_blocks() {
        let mut b = sh("head -c 3000000 /dev/zero >&2; read x; echo ok");
        assert_eq!(
            b.ask(b"x\n", Duration::from_secs(20)),
            Reply::Line(b"ok".to_vec())
        );
        b.finish();
        assert!(b.transcript().stderr.len() <= KEPT_STREAM);
    }
}
