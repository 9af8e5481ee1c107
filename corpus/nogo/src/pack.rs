//! The nogo spec pack: what the conformance engine needs to check a `nogo`
//! program. Its suite is `cases/nogo` (embedded at build time), its
//! reference is [`nogo_reference::main_with_args`], its rule IDs are
//! [`nogo_reference::rules::ALL`], and its explorer for `diff` is the
//! session generator ([`crate::session`]) with the shrinker
//! ([`crate::shrink`]) and the classifier ([`crate::classify`]). A corpus
//! folder needs nothing of the pack: it is written as ordinary cases.

use conformance_engine::builtin::Builtin;
use conformance_engine::diff::explore::{Classification, Explorer, Label, Probe};
use conformance_engine::pack::BuildRecipe;
use conformance_engine::run::Outcome;

use crate::session::{Options, Session};

conformance_engine::embedded_suite! {
    /// The suite, as built from `cases/nogo`.
    pub static SUITE = "nogo";
}

/// The nogo pack, for registration.
pub static PACK: Builtin = Builtin::new("nogo", &SUITE, rule_ids, nogo_reference::main_with_args)
    // The course's line: `make` with a Makefile, else the flags every
    // submission must compile warning-free with (issue 23).
    .with_build(BuildRecipe {
        program: "nogo",
        with_makefile: Some("make"),
        otherwise: "gcc -Wall -pedantic -std=gnu99 -o nogo *.c",
    })
    .with_explorer(&NogoExplorer)
    // SAVE-2: a saved file is judged by the game it loads into.
    .with_checkers(&[(crate::save_check::NAME, crate::save_check::save_game)]);

/// The nogo explorer for `diff`.
#[derive(Debug, Clone, Copy, Default)]
pub struct NogoExplorer;

fn label(a: &crate::session::Ambiguity) -> Label {
    Label {
        name: a.name.to_owned(),
        rule: a.rule.id().to_owned(),
    }
}

fn rule_ids() -> Vec<&'static str> {
    nogo_reference::rules::ALL.iter().map(|r| r.id()).collect()
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
        session.labels().iter().map(label).collect()
    }

    fn ambiguity(&self, session: &Session, expected: &Outcome, actual: &Outcome) -> Vec<Label> {
        crate::ambiguity::of_difference(session, &expected.files, &actual.files)
            .iter()
            .map(label)
            .collect()
    }
}
