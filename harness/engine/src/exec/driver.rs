//! Cases run as a conversation rather than as one run: a case whose file
//! holds a `script` mapping is handed, with the program, to its pack's
//! [`CaseDriver`], which talks to the program itself (sends it requests,
//! reads and checks each answer) and returns structured [`Exchange`]s for
//! whatever broke a rule. The engine renders them like any other failure
//! (report, `--results`, JUnit, score); what the script means is the pack's
//! business alone.

use std::time::Duration;

use crate::exec::run::Target;

/// One answer that broke a rule, with what was sent and what came back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    /// The rule ID broken (`ANSWER-3`); empty where the pack has none.
    pub rule: String,
    /// What was wrong, one line.
    pub message: String,
    /// The 1-based number of the request among those sent to the program;
    /// 0 for a conversation judged whole at its end (a problem package's
    /// interactive validator), shown by its message alone.
    pub number: u32,
    /// The request's bytes, as sent.
    pub request: Vec<u8>,
    /// What came back for it (possibly nothing), as received.
    pub answer: Vec<u8>,
}

/// What a driver tells the engine about one conversation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Conversation {
    /// Every rule broken, in order (empty: the case passed).
    pub exchanges: Vec<Exchange>,
    /// A shell command that replays the conversation by hand.
    pub reproduce: String,
    /// How the conversation ended, one phrase (`12 requests answered`).
    pub ending: String,
    /// The program's runtime never started, the conversation started
    /// afresh and still not ([`crate::exec::run::start`]): no verdict,
    /// the environment's failure.
    pub no_start: Option<crate::exec::run::NoStart>,
    /// The score its judge gave a passed case (a problem package's
    /// validator's `score.txt`), which the case's category's grader takes.
    pub score: Option<f64>,
}

/// The settings of a run a driver honours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DriveSettings {
    /// Scales every time limit of the conversation (1 by default); for
    /// slow machines.
    pub time_factor: f64,
    /// `--timeout`, when given: a bound on the whole conversation.
    pub timeout: Option<Duration>,
}

impl Default for DriveSettings {
    fn default() -> Self {
        Self {
            time_factor: 1.0,
            timeout: None,
        }
    }
}

/// Runs a case's `script` as a conversation with the program.
pub trait CaseDriver: Send + Sync {
    /// Checks that `script` is one this driver understands, before anything
    /// runs; `Err` says what is wrong with it (a fault of the suite).
    fn check(&self, script: &serde_json::Value) -> Result<(), String>;

    /// Starts `program` once before any case and checks it can take part
    /// in a conversation at all; `Err` says why not (a set-up error, exit 2,
    /// rather than the same failure in every case).
    fn preflight(&self, program: &Target, settings: DriveSettings) -> Result<(), String> {
        let _ = (program, settings);
        Ok(())
    }

    /// Talks to `program` as `script` says. `Err` is a fault of the suite or
    /// of the harness (the case cannot be judged), never of the program.
    fn drive(
        &self,
        script: &serde_json::Value,
        program: &Target,
        settings: DriveSettings,
    ) -> Result<Conversation, String>;
}
