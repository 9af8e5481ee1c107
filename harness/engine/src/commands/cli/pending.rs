//! The cases whose runs never started, kept for `unstarted.rs` to decide
//! once every case has run: what it needs to run and judge each again
//! (data only, so that the shared context can hold it).

use crate::exec::run::Invocation;
use crate::model::case::Expectation;
use crate::model::schema::Case;
use crate::model::suite::CaseFile;

/// A case whose run (or conversation) never started.
pub(super) enum Unstarted {
    /// A case run with stdin and judged against `expected`.
    Run {
        file: CaseFile,
        case: Box<Case>,
        inv: Box<Invocation>,
        expected: Box<Expectation>,
        /// The case is secret and the reader a student (no kit kept).
        secret: bool,
    },
    /// A conversation case (its `script`), through the pack's driver.
    Conversation {
        file: CaseFile,
        case: Box<Case>,
        script: serde_json::Value,
    },
}

impl Unstarted {
    /// The case's name.
    pub(super) fn name(&self) -> &str {
        match self {
            Self::Run { file, .. } | Self::Conversation { file, .. } => file.name(),
        }
    }
}
