//! Which marking category and which rules a boxes session exercises, for
//! the cases `diff` writes: decided by what the reference does with the
//! session (arguments, file, moves, saves) and the expected exit status.

use boxes_reference::ExitTable;
use std::collections::BTreeSet;

use boxes_reference::command::{self, Command};
use boxes_reference::rules::Rule;
use boxes_reference::{Exit, State, args, gridfile};

use crate::session::Session;

/// A marking category and the rules a session exercises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    /// The category of `cases/boxes/suite.yaml`.
    pub category: &'static str,
    /// Ruling IDs, sorted.
    pub rules: BTreeSet<&'static str>,
}

/// Infers the marking category and the rules of a session whose expected
/// exit status is `status`.
pub fn classify(session: &Session, status: u8) -> Classification {
    let rules = |ids: &[&'static str]| ids.iter().copied().collect::<BTreeSet<_>>();
    let config = match args::parse(&session.os_args()) {
        Ok(config) => config,
        Err(Exit::Dimensions) => {
            return Classification {
                category: "args-dims",
                rules: rules(&["ARGS-2", "ARGS-3", "ARGS-5", "ARGS-7"]),
            };
        }
        Err(Exit::PlayerCount) => {
            return Classification {
                category: "args-players",
                rules: rules(&["ARGS-2", "ARGS-4", "ARGS-5", "ARGS-7"]),
            };
        }
        Err(_) => {
            return Classification {
                category: "args-count",
                rules: rules(&["ARGS-1", "ARGS-7"]),
            };
        }
    };
    if status == Exit::GridFileOpen.code() {
        return Classification {
            category: "args-file",
            rules: rules(&["ARGS-5", "ARGS-6", "ARGS-7"]),
        };
    }
    if status == Exit::GridFileContents.code() {
        let mut found = rules(&["FILE-6", "ARGS-7"]);
        let broken = config.file.as_ref().and_then(|p| {
            let path = p.to_str()?;
            let file = session.files.iter().find(|f| f.path == path)?;
            gridfile::load_bytes(&file.bytes, config.height, config.width, config.players).err()
        });
        if let Some(error) = broken {
            found.extend(error.kind.rules().into_iter().map(Rule::id));
        }
        return Classification {
            category: "file-errors",
            rules: found,
        };
    }
    game(session, &config, status)
}

/// The category and rules of a session that gets to play (ARGS and FILE
/// checks passed).
fn game(session: &Session, config: &args::Config, status: u8) -> Classification {
    let rules = |ids: &[&'static str]| ids.iter().copied().collect::<BTreeSet<_>>();
    let loaded = config.file.as_ref().and_then(|p| {
        let path = p.to_str()?;
        let file = session.files.iter().find(|f| f.path == path)?;
        gridfile::load_bytes(&file.bytes, config.height, config.width, config.players).ok()
    });
    let is_loaded = config.file.is_some();
    let mut state =
        loaded.unwrap_or_else(|| State::new(config.height, config.width, config.players));
    let mut found = rules(&["DISP-1", "DISP-3", "TURN-1"]);
    let (mut moves, mut invalid, mut saves) = (0, 0, 0);
    for line in &session.lines {
        if state.grid.open_edges() == 0 {
            break;
        }
        match command::parse(line) {
            Command::Save(_) => saves += 1,
            Command::Move(edge) if state.apply(edge).is_ok() => moves += 1,
            Command::Move(_) => {
                invalid += 1;
                found.insert("TURN-3");
            }
            Command::Invalid => invalid += 1,
        }
    }
    if is_loaded {
        found.extend(["FILE-1", "FILE-7"]);
    }
    if invalid > 0 {
        found.extend(["TURN-2", "TURN-4"]);
    }
    if moves > 0 {
        found.insert("TURN-5");
    }
    if saves > 0 {
        found.extend(["SAVE-1", "SAVE-2", "SAVE-3"]);
    }
    if status == Exit::Normal.code() {
        found.insert("END-1");
    }
    if status == Exit::EndOfInput.code() {
        found.insert("EOF-1");
    }
    let category = if saves > 0 {
        "save"
    } else if is_loaded && status == Exit::Normal.code() {
        "end-detect"
    } else if is_loaded {
        "load"
    } else if status == Exit::Normal.code() {
        "full-games"
    } else if session.lines.is_empty() {
        "initial-display"
    } else if moves == 0 {
        "reject-illegal"
    } else if moves == 1 {
        "single-move"
    } else {
        "full-games"
    };
    Classification {
        category,
        rules: found,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::InputFile;

    #[test]
    fn categories_follow_what_the_session_does() {
        let cat = |args: &[&str], lines: &[&str], status| {
            classify(&Session::new_game(args, lines), status).category
        };
        assert_eq!(cat(&["2"], &[], 1), "args-count");
        assert_eq!(cat(&["1", "2", "2"], &[], 2), "args-dims");
        assert_eq!(cat(&["2", "2", "1"], &[], 3), "args-players");
        assert_eq!(cat(&["2", "2", "2", "nope"], &[], 4), "args-file");
        assert_eq!(cat(&["2", "2", "2"], &[], 6), "initial-display");
        assert_eq!(cat(&["2", "2", "2"], &["9 9 h", "x"], 6), "reject-illegal");
        assert_eq!(cat(&["2", "2", "2"], &["0 0 h"], 6), "single-move");
        assert_eq!(cat(&["2", "2", "2"], &["0 0 h", "w s"], 6), "save");
        let mut broken = Session::new_game(&["2", "2", "2", "g"], &[]);
        broken.files.push(InputFile {
            path: "g".into(),
            bytes: b"3\n".to_vec(),
        });
        let class = classify(&broken, 5);
        assert_eq!(class.category, "file-errors");
        assert!(class.rules.contains("FILE-2"), "{:?}", class.rules);
        let rules = classify(&Session::new_game(&["2", "2", "2"], &["0 0 h", "9 0 h"]), 6).rules;
        assert!(rules.contains("TURN-3") && rules.contains("EOF-1") && rules.contains("TURN-5"));
    }
}
