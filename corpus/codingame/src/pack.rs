//! The codingame spec pack's registration: its suite (`cases/codingame`,
//! embedded at build time), its rule IDs, its reference (cg-bot, so that
//! `--spec codingame` without `--bin` checks the reference bot), its
//! conversation driver, and `--bin` as a command line. It has no explorer:
//! `diff --spec codingame` is a usage error saying so.

use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::Arc;

use conformance_engine::driver::CaseDriver;

use crate::converse::Driver;

/// Every rule ID of the rulings, in their order.
pub const RULES: [&str; 36] = [
    "BOARD-1", "BOARD-2", "BOARD-3", "BOARD-4", "MATCH-1", "MATCH-2", "MATCH-3", "INIT-1",
    "TURN-1", "TURN-2", "TURN-3", "TURN-4", "ANSWER-1", "ANSWER-2", "ANSWER-3", "ANSWER-4",
    "ANSWER-5", "ANSWER-6", "ANSWER-7", "MOVE-1", "MOVE-2", "MOVE-3", "MOVE-4", "TIME-1", "TIME-2",
    "TIME-3", "TIME-4", "TIME-5", "END-1", "END-2", "END-3", "END-4", "END-5", "END-6", "REC-1",
    "REC-2",
];

/// The rules a bot can break (or must rely on to play): the suite cites
/// each at least once. The others bind only the referee (its bytes, its
/// records, its end of match).
pub const BOT_RULES: [&str; 18] = [
    "BOARD-1", "BOARD-2", "BOARD-3", "MATCH-3", "INIT-1", "TURN-1", "TURN-2", "ANSWER-1",
    "ANSWER-2", "ANSWER-3", "ANSWER-4", "ANSWER-5", "ANSWER-6", "MOVE-1", "MOVE-3", "TIME-1",
    "TIME-2", "END-3",
];

conformance_engine::builtin_pack! {
    /// The codingame pack, for registration: the reference is cg-bot,
    /// `--bin` a command line, and cases holding a `script` run as
    /// conversations.
    pub static PACK = "codingame", rule_ids, reference_main;
    .with_driver(driver)
    .with_bin_as_command()
}

fn rule_ids() -> Vec<&'static str> {
    RULES.to_vec()
}

fn reference_main(_args: Vec<OsString>) -> ExitCode {
    codingame_reference::reference_bot::main()
}

fn driver() -> Arc<dyn CaseDriver> {
    Arc::new(Driver)
}
