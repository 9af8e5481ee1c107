//! The gridgame spec pack: what the conformance engine needs to check a
//! `gridgame` (`dotsAndBoxes`) program. Its suite is `cases/gridgame`
//! (embedded at build time), its reference is [`gridgame_reference::run`]
//! on the process's streams, its rule IDs are
//! [`gridgame_reference::rules::ALL`]. It has no `diff` explorer yet.

use std::ffi::OsString;
use std::process::ExitCode;

use conformance_engine::pack::{EmbeddedSuite, Pack};

conformance_engine::embedded_suite! {
    /// The suite, as built from `cases/gridgame`.
    pub static SUITE = "gridgame";
}

/// The gridgame pack.
#[derive(Debug, Clone, Copy, Default)]
pub struct Gridgame;

/// The gridgame pack, for registration.
pub static PACK: Gridgame = Gridgame;

impl Pack for Gridgame {
    fn name(&self) -> &'static str {
        "gridgame"
    }

    fn suite(&self) -> &'static EmbeddedSuite {
        &SUITE
    }

    fn rule_ids(&self) -> Vec<&'static str> {
        gridgame_reference::rules::ALL.to_vec()
    }

    /// The program takes no arguments and ignores any (PROG-1).
    fn reference_main(&self, _args: Vec<OsString>) -> ExitCode {
        let stdin = std::io::stdin().lock();
        let stdout = reference_kit::stdout::process_stdout();
        ExitCode::from(gridgame_reference::run(stdin, stdout).code())
    }
}
