//! How a run ended ([`Ending`]), the output streams ([`Stream`]), and time
//! limits and signals in words.

use std::time::Duration;

use crate::exec::terminal::Awaiting;

/// An output stream of the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

impl Stream {
    /// `stdout` or `stderr`.
    pub fn name(self) -> &'static str {
        match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        }
    }
}

/// How the program's run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    /// It exited with this status.
    Exited(i32),
    /// A signal killed it (the harness did not).
    Signaled(i32),
    /// The harness killed it at the timeout.
    TimedOut {
        /// The timeout.
        after: Duration,
        /// In interactive mode, what was still waiting for its prompt (a
        /// stdin line, or the end of input), if anything.
        awaiting_prompt: Option<Awaiting>,
    },
    /// The harness killed it when a stream passed the cap.
    OutputCapExceeded {
        /// The stream.
        stream: Stream,
        /// The cap, bytes.
        cap: u64,
    },
}

impl Ending {
    /// The exit status, if the program exited.
    pub fn status(&self) -> Option<i32> {
        match self {
            Ending::Exited(code) => Some(*code),
            _ => None,
        }
    }
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ending::Exited(code) => write!(f, "status {code}"),
            Ending::Signaled(sig) => write!(f, "killed by signal {}", signal_name(*sig)),
            Ending::TimedOut {
                after,
                awaiting_prompt: None,
            } => write!(
                f,
                "timed out after {} s: killed at its time limit; any output it had not flushed \
                 is lost",
                format_secs(*after)
            ),
            Ending::TimedOut {
                after,
                awaiting_prompt: Some(awaiting),
            } => write!(
                f,
                "timed out after {} s: the program's prompt never appeared before {awaiting} \
                 (stdin and stdout were one terminal, as for a person, and the program waited \
                 for input without showing its prompt; flush stdout after printing it)",
                format_secs(*after)
            ),
            Ending::OutputCapExceeded { stream, cap } => write!(
                f,
                "killed: {} passed the output cap of {cap} bytes",
                stream.name()
            ),
        }
    }
}

/// The longest timeout accepted: a day. Anything longer is a typo, and
/// values near `u64::MAX` seconds overflow deadline arithmetic.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(24 * 60 * 60);

/// Parses a timeout in seconds as given on a command line (`--timeout`):
/// a finite number above zero and at most [`MAX_TIMEOUT`].
pub fn parse_timeout(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !secs.is_finite() || secs <= 0.0 {
        return Err(format!(
            "`{text}`: a timeout must be a positive number of seconds"
        ));
    }
    match Duration::try_from_secs_f64(secs) {
        Ok(d) if !d.is_zero() && d <= MAX_TIMEOUT => Ok(d),
        Ok(d) if d.is_zero() => Err(format!("`{text}`: a timeout must be at least a nanosecond")),
        _ => Err(format!(
            "`{text}`: a timeout longer than a day ({} s) is refused",
            MAX_TIMEOUT.as_secs()
        )),
    }
}

/// Seconds as people write them: `1`, `0.5`.
pub fn format_secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{}", d.as_secs())
    } else {
        format!("{s}")
    }
}

/// The conventional name of a signal number (`SIGSEGV`), or `signal N`.
pub fn signal_name(sig: i32) -> String {
    let name = match sig {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        10 => "SIGUSR1",
        11 => "SIGSEGV",
        12 => "SIGUSR2",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        31 => "SIGSYS",
        _ => return format!("signal {sig}"),
    };
    format!("{name} ({sig})")
}
