//! The boxes spec pack: what the conformance engine needs to check a
//! `boxes` program. Its suite is `cases/boxes` (embedded at build time), its
//! reference is [`boxes_reference::main_with_args`], its explorer is the
//! session generator ([`crate::session`]) with the shrinker
//! ([`crate::shrink`]) and the classifier ([`crate::classify`]). A corpus
//! folder ([`crate::generate`]) is a folder of ordinary cases.

use std::ffi::OsString;
use std::process::ExitCode;

use conformance_engine::diff::DynExplorer;
use conformance_engine::diff::explore::{Classification, Explorer, Label, Probe};
use conformance_engine::pack::{BuildRecipe, EmbeddedSuite, Pack};

use crate::session::{Options, Session};

conformance_engine::embedded_suite! {
    /// The suite, as built from `cases/boxes`.
    pub static SUITE = "boxes";
}

/// The boxes pack.
#[derive(Debug, Clone, Copy, Default)]
pub struct Boxes;

/// The boxes pack, for registration.
pub static PACK: Boxes = Boxes;

/// The boxes explorer for `diff`.
#[derive(Debug, Clone, Copy, Default)]
pub struct BoxesExplorer;

static EXPLORER: BoxesExplorer = BoxesExplorer;

impl Pack for Boxes {
    fn name(&self) -> &'static str {
        "boxes"
    }

    fn suite(&self) -> &'static EmbeddedSuite {
        &SUITE
    }

    fn rule_ids(&self) -> Vec<&'static str> {
        boxes_reference::rules::ALL.iter().map(|r| r.id()).collect()
    }

    fn reference_main(&self, args: Vec<OsString>) -> ExitCode {
        boxes_reference::main_with_args(args)
    }

    /// The course's line: `make` with a Makefile, else the flags every
    /// submission must compile warning-free with (issue 23).
    fn build(&self) -> Option<BuildRecipe> {
        Some(BuildRecipe {
            program: "boxes",
            with_makefile: Some("make"),
            otherwise: "gcc -Wall -pedantic -std=gnu99 -o boxes *.c",
        })
    }

    fn explorer(&self) -> Option<&dyn DynExplorer> {
        Some(&EXPLORER)
    }
}

impl Explorer for BoxesExplorer {
    type Session = Session;

    fn generate(&self, seed: u64, index: u64, ambiguous: bool) -> Session {
        Session::generate(seed, index, Options { ambiguous })
    }

    fn probe(&self, session: &Session) -> Probe {
        Probe {
            args: session.args.clone(),
            stdin: session.stdin(),
            files: session
                .files
                .iter()
                .map(|f| (f.path.clone(), f.bytes.clone()))
                .collect(),
        }
    }

    fn shrink(&self, session: &Session) -> Vec<Session> {
        crate::shrink::candidates(session)
    }

    fn classify(&self, session: &Session, status: u8) -> Classification {
        let class = crate::classify::classify(session, status);
        Classification {
            category: class.category.to_owned(),
            rules: class.rules.into_iter().map(str::to_owned).collect(),
        }
    }

    fn labels(&self, session: &Session) -> Vec<Label> {
        session
            .labels
            .iter()
            .map(|a| Label {
                name: a.name().to_owned(),
                rule: a.rule().to_owned(),
            })
            .collect()
    }
}
