//! The boxes spec pack: what the conformance engine needs to check a
//! `boxes` program. Its suite is `cases/boxes` (embedded at build time), its
//! reference is [`boxes_reference::main_with_args`], its explorer is the
//! session generator ([`crate::session`]) with the shrinker
//! ([`crate::shrink`]) and the classifier ([`crate::classify`]). A corpus
//! folder ([`crate::generate`]) is a folder of ordinary cases.

use conformance_engine::diff::explore::{Classification, Label, Probe, Steps, no_ambiguity};
use conformance_engine::pack::BuildRecipe;

use crate::session::{Options, Session};

conformance_engine::builtin_pack! {
    /// The boxes pack, for registration.
    pub static PACK = "boxes", boxes_reference::rules::ids, boxes_reference::main_with_args;
    // The course's line: `make` with a Makefile, else the flags every
    // submission must compile warning-free with (issue 23).
    .with_build(BuildRecipe {
        program: "boxes",
        with_makefile: Some("make"),
        otherwise: "gcc -Wall -pedantic -std=gnu99 -o boxes *.c",
    })
    .with_explorer(&EXPLORER)
}

/// The boxes explorer for `diff`.
pub static EXPLORER: Steps<Session> = Steps {
    generate: |seed, index, ambiguous| Session::generate(seed, index, Options { ambiguous }),
    probe,
    shrink: crate::shrink::candidates,
    classify,
    labels,
    ambiguity: no_ambiguity,
};

fn probe(session: &Session) -> Probe {
    let files = session.files.iter();
    Probe {
        args: session.args.clone(),
        stdin: session.stdin(),
        files: files.map(|f| (f.path.clone(), f.bytes.clone())).collect(),
    }
}

fn classify(session: &Session, status: u8) -> Classification {
    let class = crate::classify::classify(session, status);
    let rules = class.rules.into_iter().map(str::to_owned).collect();
    Classification {
        category: class.category.to_owned(),
        rules,
    }
}

fn labels(session: &Session) -> Vec<Label> {
    let label = |a: &crate::session::Ambiguity| Label {
        name: a.name().to_owned(),
        rule: a.rule().to_owned(),
    };
    session.labels.iter().map(label).collect()
}
