//! The gridgame spec pack: what the conformance engine needs to check a
//! `gridgame` (`dotsAndBoxes`) program. Its suite is `cases/gridgame`
//! (embedded at build time), its reference is [`gridgame_reference::run`]
//! on the process's streams, its rule IDs are
//! [`gridgame_reference::rules::ALL`], and its explorer for `diff` plays
//! random sessions ([`session`]), shrinks and classifies them.

pub mod command;
pub mod generate;
pub mod session;

use std::ffi::OsString;
use std::process::ExitCode;

use std::collections::BTreeSet;

use conformance_engine::diff::explore::{Classification, Label, Probe, Steps, no_ambiguity};
use conformance_engine::diff::plain::fewer_lines;
use conformance_engine::pack::BuildRecipe;
use gridgame_reference::ExitTable;
use gridgame_reference::chooser::{FirstLevel, TieLevel};

use crate::session::Session;

conformance_engine::builtin_pack! {
    /// The gridgame pack, for registration.
    pub static PACK = "gridgame", gridgame_reference::rules::ids, reference_main;
    // The project's own line (the source text: `g++ -o dotsAndBoxes -g
    // *.cpp`); a Makefile is not part of the hand-in.
    .with_build(BuildRecipe {
        program: "dotsAndBoxes",
        with_makefile: None,
        otherwise: "g++ -o dotsAndBoxes -g *.cpp",
    })
    .with_explorer(&EXPLORER)
}

/// The reference on the process's streams; it takes no arguments and
/// ignores any (PROG-1).
fn reference_main(_args: Vec<OsString>) -> ExitCode {
    let stdin = std::io::stdin().lock();
    let stdout = reference_kit::stdout::process_stdout();
    ExitCode::from(gridgame_reference::run(stdin, stdout).code())
}

/// The gridgame explorer for `diff`: random sessions ([`Session`]), shrunk
/// and classified here.
pub static EXPLORER: Steps<Session> = Steps {
    generate: Session::generate,
    probe: |session| Probe {
        args: session.args.clone(),
        stdin: session.stdin(),
        files: Vec::new(),
    },
    shrink,
    classify,
    labels,
    ambiguity: no_ambiguity,
};

fn rules(ids: &[&str]) -> BTreeSet<String> {
    ids.iter().map(|&r| r.to_owned()).collect()
}

/// The rule of the first-level list a decision came from.
fn first_level_rule(first: FirstLevel) -> &'static str {
    match first {
        FirstLevel::Complete => "COMP-2",
        FirstLevel::Safe => "COMP-3",
        FirstLevel::Any => "COMP-4",
    }
}

/// The rule of the tie-break level that settled a decision; empty when the
/// list had one edge.
fn tie_rule(level: TieLevel) -> &'static str {
    match level {
        TieLevel::Alone => "",
        TieLevel::Freedom => "COMP-5",
        TieLevel::XSum => "COMP-6",
        TieLevel::YSum => "COMP-7",
    }
}

/// The most reducing first: half the lines gone, then each line from the
/// end, then the size down to 2, then a plain end and no arguments.
fn shrink(session: &Session) -> Vec<Session> {
    let n = session.lines.len();
    let mut out: Vec<Session> = fewer_lines(session, n, |s| &mut s.lines).collect();
    if let Some(i) = session
        .lines
        .iter()
        .position(|l| gridgame_reference::size::parse(l).is_some_and(|s| s > 2))
    {
        let mut small = session.clone();
        small.lines[i] = b"2".to_vec();
        out.push(small);
    }
    if session.unterminated {
        let mut ended = session.clone();
        ended.unterminated = false;
        out.push(ended);
    }
    if !session.args.is_empty() {
        let mut bare = session.clone();
        bare.args.clear();
        out.push(bare);
    }
    out
}

fn classify(session: &Session, _status: u8) -> Classification {
    let r = session.replay();
    let decided: &[&str] = match r.last_decision {
        Some(d) => &[first_level_rule(d.first), tie_rule(d.settled_by)],
        None => &[],
    };
    let tie_broken = decided.iter().any(|&id| id == "COMP-6" || id == "COMP-7");
    let (category, ids): (&str, &[&str]) = if r.size.is_none() {
        ("pre-game", &["PRE-1", "PRE-2", "PRE-3", "PRE-4"])
    } else if r.finished {
        (
            "full-games",
            &["APPLY-4", "POST-1", "POST-2", "POST-3", "TURN-1"],
        )
    } else if r.rejected_move {
        ("human-input", &["MOVE-3", "MOVE-4", "MOVE-5", "MOVE-6"])
    } else if r.human_extra_turn || r.computer_extra_turn {
        ("extra-turn", &["APPLY-2", "TURN-1"])
    } else if tie_broken {
        ("computer-tie-break", &["COMP-1", "COMP-8"])
    } else if r.computer_moved {
        ("computer-first-level", &["COMP-8"])
    } else {
        (
            "post-game",
            &["POST-1", "POST-2", "POST-3", "MOVE-2", "MOVE-3"],
        )
    };
    // The rules that decided the computer's last move, so that a
    // chooser wrong in one level is named by that level.
    let mut rules = rules(ids);
    if session.has_hard_bytes() {
        // A line only a careless reader gets wrong: held whole and
        // stripped of what is not a letter or digit.
        rules.extend(["IN-1".to_owned(), "MOVE-3".to_owned()]);
    }
    rules.extend(
        decided
            .iter()
            .filter(|id| !id.is_empty())
            .map(|&id| id.to_owned()),
    );
    Classification {
        category: category.to_owned(),
        rules,
    }
}

fn labels(session: &Session) -> Vec<Label> {
    session
        .labels()
        .iter()
        .map(|a| Label {
            name: a.name.to_owned(),
            rule: a.rule.to_owned(),
        })
        .collect()
}
