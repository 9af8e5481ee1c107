//! How a run connects the program's stdout (and, interactively, its
//! stdin): a pipe, a pseudo-terminal, or `/dev/full`. A case names it
//! (`mode:`); the run owns it, since it decides how the program is started.

use std::fmt;

use schemars::JsonSchema;
use serde::Deserialize;

/// How the program's stdout is connected.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// A pipe (the default); stdin is written all at once.
    #[default]
    Pipe,
    /// stdin and stdout on one pseudo-terminal, as at a person's terminal
    /// (canonical mode, echo and output processing off); each stdin line is
    /// typed only after the prompt `> ` appeared (TURN-1), then end of file
    /// (Ctrl-D). A stdin line may hold at most 4095 bytes.
    Interactive,
    /// `/dev/full`, so every write to stdout fails (SYS-1).
    StdoutFull,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Pipe => "pipe",
            Mode::Interactive => "interactive",
            Mode::StdoutFull => "stdout-full",
        })
    }
}
