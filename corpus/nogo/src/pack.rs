//! The nogo spec pack: what the conformance engine needs to check a `nogo`
//! program. Its suite is `cases/nogo` (embedded at build time), its
//! reference is [`nogo_reference::main_with_args`], its rule IDs are
//! [`nogo_reference::rules::ALL`], and its explorer for `diff` is the
//! session generator ([`crate::session`]) with the shrinker
//! ([`crate::shrink`]), the classifier ([`crate::classify`]) and the
//! ambiguities a difference rests on ([`crate::ambiguity`]). A corpus
//! folder needs nothing of the pack: it is written as ordinary cases.

use conformance_engine::diff::explore::{Classification, Label, Probe, Steps};
use conformance_engine::pack::BuildRecipe;
use conformance_engine::run::Outcome;

use crate::session::{Ambiguity, Options, Session};

conformance_engine::builtin_pack! {
    /// The nogo pack, for registration.
    pub static PACK = "nogo", nogo_reference::rules::ids, nogo_reference::main_with_args;
    // The course's line: `make` with a Makefile, else the flags every
    // submission must compile warning-free with (issue 23).
    .with_build(BuildRecipe {
        program: "nogo",
        with_makefile: Some("make"),
        otherwise: "gcc -Wall -pedantic -std=gnu99 -o nogo *.c",
    })
    .with_explorer(&EXPLORER)
    // SAVE-2: a saved file is judged by the game it loads into.
    .with_checkers(&[(crate::save_check::NAME, crate::save_check::save_game)])
}

/// The nogo explorer for `diff`.
pub static EXPLORER: Steps<Session> = Steps {
    generate: |seed, index, ambiguous| Session::generate(seed, index, Options { ambiguous }),
    probe: |session| Probe {
        args: session.argv(),
        stdin: session.stdin(),
        files: session.files(),
    },
    shrink: crate::shrink::candidates,
    classify,
    labels: |session| session.labels().iter().map(label).collect(),
    ambiguity,
};

fn label(a: &Ambiguity) -> Label {
    Label {
        name: a.name.to_owned(),
        rule: a.rule.id().to_owned(),
    }
}

fn classify(session: &Session, status: u8) -> Classification {
    let class = crate::classify::classify(session, status);
    Classification {
        category: class.category.to_owned(),
        rules: class.rules.iter().map(|r| r.id().to_owned()).collect(),
    }
}

/// The ambiguous rulings a difference between two saved files rests on.
fn ambiguity(session: &Session, expected: &Outcome, actual: &Outcome) -> Vec<Label> {
    crate::ambiguity::of_difference(session, &expected.files, &actual.files)
        .iter()
        .map(label)
        .collect()
}
