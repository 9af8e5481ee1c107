//! The keeper's report of a run, written to a status file only the keeper
//! can reach: how the program ended and what it left behind, plus the
//! marker that says the program has started.
//!
//! Low in the sandbox's order (docs/architecture.md): it imports only
//! [`crate::spec`] (the layout and its files' names); the keeper writes
//! it, the watchdog says how a program ended in its terms, callers read
//! it.

use std::fmt::Write as _;
use std::fs;

use crate::spec::{Layout, STARTED_FILE, STATUS_FILE};

/// How the program ended, as the keeper reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reported {
    /// It exited with this status.
    Exited(i32),
    /// A signal killed it.
    Signaled(i32),
    /// It could not be started: errno and message.
    SpawnFailed(i32, String),
    /// A probe: nothing was run.
    Probe,
    /// The keeper could not put the Landlock rules in place: why.
    ConfineFailed(String),
}

/// A process the program left behind, killed when the keeper exited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftBehind {
    /// Its PID inside the sandbox.
    pub pid: u32,
    /// Its command name (`/proc/PID/comm`).
    pub name: String,
    /// It still held the program's stdout or stderr open.
    pub held_output: bool,
}

impl std::fmt::Display for LeftBehind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` (pid {} in the sandbox)", self.name, self.pid)
    }
}

/// The keeper's status file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// How the program ended.
    pub ending: Reported,
    /// What it left behind.
    pub left: Vec<LeftBehind>,
}

impl Report {
    pub(crate) fn render(&self) -> String {
        let mut out = match &self.ending {
            Reported::Exited(c) => format!("exited {c}\n"),
            Reported::Signaled(s) => format!("signaled {s}\n"),
            Reported::SpawnFailed(e, m) => format!("spawn-failed {e} {}\n", m.replace('\n', " ")),
            Reported::Probe => "probe\n".to_owned(),
            Reported::ConfineFailed(m) => format!("confine-failed {}\n", m.replace('\n', " ")),
        };
        for l in &self.left {
            let _ = writeln!(
                out,
                "left {} {} {}",
                l.pid,
                u8::from(l.held_output),
                l.name.replace('\n', " ")
            );
        }
        out
    }

    fn parse(text: &str) -> Option<Self> {
        let mut lines = text.lines();
        let first = lines.next()?;
        let (word, rest) = first.split_once(' ').unwrap_or((first, ""));
        let ending = match word {
            "exited" => Reported::Exited(rest.parse().ok()?),
            "signaled" => Reported::Signaled(rest.parse().ok()?),
            "spawn-failed" => {
                let (e, m) = rest.split_once(' ').unwrap_or((rest, ""));
                Reported::SpawnFailed(e.parse().ok()?, m.to_owned())
            }
            "probe" => Reported::Probe,
            "confine-failed" => Reported::ConfineFailed(rest.to_owned()),
            _ => return None,
        };
        let left = lines
            .filter_map(|l| {
                let mut parts = l.splitn(4, ' ');
                (parts.next()? == "left").then_some(())?;
                Some(LeftBehind {
                    pid: parts.next()?.parse().ok()?,
                    held_output: parts.next()? == "1",
                    name: parts.next().unwrap_or("").to_owned(),
                })
            })
            .collect();
        Some(Self { ending, left })
    }
}

/// Whether the keeper has started the program (its `exec` is done): the
/// marker file is not empty (at the Landlock level, it is made empty
/// before the rules forbid making files, and written once started).
pub fn started(layout: &Layout) -> bool {
    fs::metadata(layout.control.join(STARTED_FILE)).is_ok_and(|m| m.len() > 0)
}

/// Reads the keeper's report of a finished run, if it wrote one.
pub fn read_report(layout: &Layout) -> Option<Report> {
    let text = fs::read_to_string(layout.control.join(STATUS_FILE)).ok()?;
    Report::parse(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_round_trip() {
        let r = Report {
            ending: Reported::Signaled(6),
            left: vec![LeftBehind {
                pid: 3,
                name: "sleep 30".to_owned(),
                held_output: true,
            }],
        };
        assert_eq!(Report::parse(&r.render()), Some(r));
        let r = Report {
            ending: Reported::SpawnFailed(8, "Exec format error (os error 8)".to_owned()),
            left: Vec::new(),
        };
        assert_eq!(Report::parse(&r.render()), Some(r));
        let r = Report {
            ending: Reported::ConfineFailed("Landlock: no\nABI 3".to_owned()),
            left: Vec::new(),
        };
        assert_eq!(
            Report::parse(&r.render()).map(|r| r.ending),
            Some(Reported::ConfineFailed("Landlock: no ABI 3".to_owned()))
        );
        assert_eq!(Report::parse("nonsense"), None);
    }
}
