//! The nogo spec pack: what the conformance engine needs to check a `nogo`
//! program. Its suite is `cases/nogo` (embedded at build time), its
//! reference is [`nogo_reference::main_with_args`], its rule IDs are
//! [`nogo_reference::rules::ALL`], and its explorer for `diff` is the
//! session generator ([`crate::session`]) with the shrinker
//! ([`crate::shrink`]) and the classifier ([`crate::classify`]). A corpus
//! folder needs nothing of the pack: it is written as ordinary cases.

use std::ffi::OsString;
use std::process::ExitCode;

use conformance_engine::diff::DynExplorer;
use conformance_engine::diff::explore::{Classification, Explorer, Label, Probe};
use conformance_engine::pack::{BuildRecipe, EmbeddedSuite, Pack};

use crate::session::{Options, Session};

conformance_engine::embedded_suite! {
    /// The suite, as built from `cases/nogo`.
    pub static SUITE = "nogo";
}

/// The nogo pack.
#[derive(Debug, Clone, Copy, Default)]
pub struct Nogo;

/// The nogo pack, for registration.
pub static PACK: Nogo = Nogo;

/// The nogo explorer for `diff`.
#[derive(Debug, Clone, Copy, Default)]
pub struct NogoExplorer;

static EXPLORER: NogoExplorer = NogoExplorer;

impl Pack for Nogo {
    fn name(&self) -> &'static str {
        "nogo"
    }

    fn suite(&self) -> &'static EmbeddedSuite {
        &SUITE
    }

    fn rule_ids(&self) -> Vec<&'static str> {
        nogo_reference::rules::ALL.iter().map(|r| r.id()).collect()
    }

    fn reference_main(&self, args: Vec<OsString>) -> ExitCode {
        nogo_reference::main_with_args(args)
    }

    /// The course's line: `make` with a Makefile, else the flags every
    /// submission must compile warning-free with (issue 23).
    fn build(&self) -> Option<BuildRecipe> {
        Some(BuildRecipe {
            program: "nogo",
            with_makefile: Some("make"),
            otherwise: "gcc -Wall -pedantic -std=gnu99 -o nogo *.c",
        })
    }

    fn explorer(&self) -> Option<&dyn DynExplorer> {
        Some(&EXPLORER)
    }
}

impl Explorer for NogoExplorer {
    type Session = Session;

    fn generate(&self, seed: u64, index: u64, ambiguous: bool) -> Session {
        Session::generate(seed, index, Options { ambiguous })
    }

    fn probe(&self, session: &Session) -> Probe {
        Probe {
            args: session.argv(),
            stdin: session.stdin(),
            files: session.files(),
        }
    }

    fn shrink(&self, session: &Session) -> Vec<Session> {
        crate::shrink::candidates(session)
    }

    fn classify(&self, session: &Session, status: u8) -> Classification {
        let class = crate::classify::classify(session, status);
        Classification {
            category: class.category.to_owned(),
            rules: class.rules.iter().map(|r| r.id().to_owned()).collect(),
        }
    }

    fn labels(&self, session: &Session) -> Vec<Label> {
        session
            .labels()
            .iter()
            .map(|a| Label {
                name: a.name.to_owned(),
                rule: a.rule.id().to_owned(),
            })
            .collect()
    }
}
