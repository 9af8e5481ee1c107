//! Which marking category and rules a mismatching session falls under: the
//! reference's exit status says how far the program got (ARGS-, FILE-),
//! and a game is followed line by line ([`crate::sim`]) to see whether it
//! saved, loaded, refused lines, placed one stone or many, or ended.

use std::collections::BTreeSet;

use nogo_reference::rules::Rule;
use nogo_reference::savefile::load_bytes;
use nogo_reference::{Exit, ExitTable, Kind, State};

use crate::session::{Args, Session, Source};
use crate::sim::Sim;

/// A category of `cases/nogo/suite.yaml` and the rules the session rests on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    /// The marking category.
    pub category: &'static str,
    /// The rules.
    pub rules: BTreeSet<Rule>,
}

/// Classifies `session`, on which the reference exited with `status`.
pub fn classify(session: &Session, status: u8) -> Class {
    let (category, mut rules): (&str, Vec<Rule>) = match Exit::from_code(status) {
        Some(Exit::Usage) => ("args-count", vec![Rule::Args1, Rule::Args6]),
        Some(Exit::PlayerType) => ("args-types", vec![Rule::Args2, Rule::Args5]),
        Some(Exit::Dimension) => ("args-dims", vec![Rule::Args3, Rule::Args6]),
        Some(Exit::FileOpen) => ("args-file", vec![Rule::Args4, Rule::Args6]),
        Some(Exit::FileContents) => ("file-errors", file_rules(session)),
        _ => game(session),
    };
    rules.extend(session.labels().iter().map(|l| l.rule));
    Class {
        category,
        rules: rules.into_iter().collect(),
    }
}

/// The rule a faulty file breaks, from the reference's own loader.
fn file_rules(session: &Session) -> Vec<Rule> {
    let mut rules = vec![Rule::File6];
    if let Some(bytes) = loaded_file(session) {
        if let Err(e) = load_bytes(bytes) {
            rules.extend(by_id(e.kind.rule()));
        }
    } else {
        rules.push(Rule::Args4);
    }
    rules
}

fn loaded_file(session: &Session) -> Option<&[u8]> {
    match &session.args {
        Args::Game {
            source: Source::Load { file, .. },
            ..
        } => file.as_deref(),
        _ => None,
    }
}

fn by_id(id: &str) -> Option<Rule> {
    nogo_reference::rules::ALL
        .iter()
        .copied()
        .find(|r| r.id() == id)
}

/// The starting position of a session whose arguments and file are good.
pub fn start(session: &Session) -> Option<State> {
    let args: Vec<std::ffi::OsString> = session.argv().iter().map(Into::into).collect();
    let config = nogo_reference::args::parse(&args).ok()?;
    match config.source {
        nogo_reference::args::Source::New { height, width } => Some(State::new(height, width)),
        nogo_reference::args::Source::File(_) => load_bytes(loaded_file(session)?).ok(),
    }
}

/// A game's category: what it did, the most specific first.
fn game(session: &Session) -> (&'static str, Vec<Rule>) {
    let mut sim = Sim::new(session.kinds(), start(session));
    for line in &session.lines {
        sim.feed(&line.bytes);
    }
    let e = sim.events().clone();
    let both_computers = session.kinds() == Some([Kind::Computer; 2]);
    let loaded = loaded_file(session).is_some();
    let mut rules = vec![Rule::Grid1, Rule::Grid2];
    let category = if e.saves > 0 {
        rules.extend([Rule::Save1, Rule::Save2, Rule::Save3]);
        if e.unopenable_saves > 0 {
            rules.push(Rule::Save4);
        }
        "save"
    } else if loaded {
        rules.extend([Rule::File7]);
        "load"
    } else if e.human_moves == 0 && e.computer_moves > 0 && both_computers {
        rules.extend([Rule::Comp1, Rule::Comp2, Rule::Comp3, Rule::Comp4]);
        "computer-games"
    } else if e.malformed + e.out_of_range + e.occupied > 0 {
        rules.push(Rule::Turn4);
        if e.malformed > 0 {
            rules.push(Rule::Turn2);
        }
        if e.out_of_range + e.occupied > 0 {
            rules.push(Rule::Turn3);
        }
        "reject-illegal"
    } else if e.winner.is_some() {
        rules.extend([Rule::Capture1, Rule::Capture2, Rule::End1]);
        if e.human_moves + e.computer_moves > 12 {
            "full-games"
        } else {
            "end-detect"
        }
    } else if e.human_moves + e.computer_moves == 0 {
        rules.extend([Rule::Turn1, Rule::Eof1]);
        "initial-display"
    } else if e.human_moves + e.computer_moves <= 2 {
        rules.extend([Rule::Turn1, Rule::Turn5]);
        "single-move"
    } else {
        rules.extend([Rule::Turn5, Rule::Eof1]);
        "full-games"
    };
    if e.computer_moves > 0 && category != "computer-games" {
        rules.extend([Rule::Comp2, Rule::Comp4]);
    }
    if e.winner.is_some() {
        rules.extend([Rule::Capture1, Rule::Capture2, Rule::End1]);
    }
    if e.suicide {
        rules.push(Rule::Capture2);
    }
    (category, rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Input, Options};

    fn new_game(types: [&str; 2], lines: &[&str]) -> Session {
        Session {
            args: Args::Game {
                types: types.map(str::to_owned),
                source: Source::New {
                    height: "4".into(),
                    width: "4".into(),
                },
            },
            setup_label: None,
            lines: lines.iter().map(|l| Input::plain(*l)).collect(),
            unterminated: false,
        }
    }

    #[test]
    fn games_fall_into_the_category_of_what_they_did() {
        let cat = |s: &Session, status| classify(s, status).category;
        assert_eq!(cat(&new_game(["c", "c"], &[]), 0), "computer-games");
        assert_eq!(cat(&new_game(["h", "h"], &[]), 6), "initial-display");
        assert_eq!(cat(&new_game(["h", "h"], &["1 1"]), 6), "single-move");
        assert_eq!(cat(&new_game(["h", "h"], &["x"]), 6), "reject-illegal");
        assert_eq!(cat(&new_game(["h", "h"], &["wsave"]), 6), "save");
        let corner = ["0 0", "0 1", "3 3", "1 0"];
        let won = classify(&new_game(["h", "h"], &corner), 0);
        assert_eq!(won.category, "end-detect");
        assert!(won.rules.contains(&Rule::End1));
    }

    #[test]
    fn errors_fall_into_their_argument_or_file_category() {
        let s = Session::generate(1, 1, Options::default());
        assert_eq!(classify(&s, 1).category, "args-count");
        assert_eq!(classify(&s, 3).category, "args-dims");
        let mut bad = new_game(["h", "h"], &[]);
        bad.args = Args::Game {
            types: ["h".into(), "h".into()],
            source: Source::Load {
                path: "game".into(),
                file: Some(b"4 4 0 1 0 0 2 2 0\n....\n".to_vec()),
            },
        };
        let class = classify(&bad, 5);
        assert_eq!(class.category, "file-errors");
        assert!(class.rules.contains(&Rule::File5));
    }
}
