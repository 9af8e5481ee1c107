//! Random `boxes` sessions for differential testing: one invocation each
//! (arguments, input files, stdin), generated from a seed so that the same
//! seed and index always give the same session.
//!
//! The generator mixes every kind of invocation the rulings describe: bad
//! argument lists at every ARGS boundary, new games, games loaded from
//! files reached by random play, broken grid files, valid moves in random
//! order, invalid lines of every kind, saves to good and bad paths, games
//! played to the end and input that stops mid-game. By default no session
//! touches a rule the rulings mark ambiguous; [`Options::ambiguous`] adds
//! those, and [`Session::labels`] names each ambiguity a session touches.
//! The labels are computed from the session's bytes ([`Session::relabel`]),
//! not remembered from how it was built, so they stay right after a
//! shrinker rewrites a session.

mod ambiguity;
mod files;
mod generator;
mod labels;
mod lines;
mod random;

use std::collections::BTreeSet;
use std::ffi::OsString;

pub use ambiguity::Ambiguity;

/// Highest player count whose symbols stay printable ASCII (DISP-2).
pub const MAX_PLAIN_PLAYERS: usize = 62;

/// Longest input line the assignment promises to test (SAVE-1, TURN-4).
pub const PROMISED_LINE_LENGTH: usize = 30;

/// What a session was built to exercise; the first guess at its marking
/// category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SessionKind {
    /// An argument list at or past an ARGS boundary.
    Arguments,
    /// A grid file that is missing or broken.
    BrokenFile,
    /// A game loaded from a valid file.
    LoadedGame,
    /// A new game.
    NewGame,
}

/// A file placed in the sandbox before the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputFile {
    /// Path relative to the sandbox.
    pub path: String,
    /// Its exact bytes.
    pub bytes: Vec<u8>,
}

/// One invocation of `boxes`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// What the session was built to exercise.
    pub kind: SessionKind,
    /// Arguments after the program name.
    pub args: Vec<String>,
    /// Files placed in the sandbox first.
    pub files: Vec<InputFile>,
    /// Stdin lines, without their `\n`.
    pub lines: Vec<Vec<u8>>,
    /// Whether the last line ends in `\n` (false touches EOF-2).
    pub final_newline: bool,
    /// Relative paths the session's saves may create or overwrite.
    pub save_paths: Vec<String>,
    /// The ambiguous rulings the session touches (see [`Session::relabel`]).
    pub labels: BTreeSet<Ambiguity>,
}

/// What the generator may produce.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Also generate sessions that touch rulings marked ambiguous.
    pub ambiguous: bool,
}

impl Session {
    /// A new game with these arguments and stdin lines (each ended by `\n`),
    /// labelled from its bytes: for hand-written sessions and shrinking.
    pub fn new_game(args: &[&str], lines: &[&str]) -> Self {
        let mut s = Self {
            kind: SessionKind::NewGame,
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            files: Vec::new(),
            lines: lines.iter().map(|l| l.as_bytes().to_vec()).collect(),
            final_newline: true,
            save_paths: Vec::new(),
            labels: BTreeSet::new(),
        };
        s.relabel();
        s
    }

    /// The exact stdin bytes.
    pub fn stdin(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            bytes.extend_from_slice(line);
            if i + 1 < self.lines.len() || self.final_newline {
                bytes.push(b'\n');
            }
        }
        bytes
    }

    /// Whether the session touches any ruling marked ambiguous.
    pub fn is_ambiguous(&self) -> bool {
        !self.labels.is_empty()
    }

    /// The arguments as the OS sees them.
    pub fn os_args(&self) -> Vec<OsString> {
        self.args.iter().map(OsString::from).collect()
    }

    /// Recomputes [`Session::labels`] from the session's bytes.
    pub fn relabel(&mut self) {
        self.labels = self.ambiguities();
    }
}

#[cfg(test)]
mod tests {
    use boxes_reference::ExitTable;
    use std::collections::HashMap;
    use std::io::Cursor;

    use boxes_reference::{args, gridfile};

    use super::*;

    const DEFAULT: Options = Options { ambiguous: false };
    const AMBIGUOUS: Options = Options { ambiguous: true };

    fn sessions(seed: u64, count: u64, options: Options) -> Vec<Session> {
        (0..count)
            .map(|i| Session::generate(seed, i, options))
            .collect()
    }

    #[test]
    fn same_seed_same_sessions() {
        assert_eq!(sessions(7, 300, DEFAULT), sessions(7, 300, DEFAULT));
        assert_eq!(sessions(7, 300, AMBIGUOUS), sessions(7, 300, AMBIGUOUS));
        let other = sessions(8, 300, DEFAULT);
        let same = sessions(7, 300, DEFAULT)
            .iter()
            .zip(&other)
            .filter(|(a, b)| a == b)
            .count();
        assert!(same < 30, "{same} of 300 sessions equal across seeds");
    }

    #[test]
    fn default_sessions_touch_no_ambiguous_rule() {
        for (i, s) in sessions(1, 3000, DEFAULT).iter().enumerate() {
            assert!(s.labels.is_empty(), "session {i}: {:?}\n{s:?}", s.labels);
            let stdin = s.stdin();
            assert!(stdin.is_empty() || stdin.ends_with(b"\n"), "session {i}");
            assert!(!stdin.contains(&0), "session {i}");
            if let Ok(config) = args::parse(&s.os_args()) {
                assert!(config.players <= MAX_PLAIN_PLAYERS, "session {i}");
            }
            for line in &s.lines {
                if line.starts_with(b"w ") {
                    assert!(line.len() <= PROMISED_LINE_LENGTH, "session {i}");
                    assert!(line.len() > 2 && line[2] != b'/', "session {i}");
                }
            }
        }
    }

    #[test]
    fn sessions_reach_high_bytes_and_lines_at_buffer_edges() {
        let plain = sessions(4, 1500, DEFAULT);
        let lines = plain.iter().flat_map(|s| s.lines.iter().map(Vec::as_slice));
        let missing = conformance_engine::hard_lines::Reach::of(lines).missing(false);
        assert!(missing.is_empty(), "not reached: {missing:?}");
        // A NUL inside a line only with ambiguity (TURN-2), labelled.
        let asked = sessions(4, 1500, AMBIGUOUS);
        let nul_inside = asked.iter().any(|s| {
            s.lines.iter().any(|l| l.len() > 1 && l.contains(&0))
                && s.labels.contains(&Ambiguity::NulInput)
        });
        assert!(nul_inside);
    }

    #[test]
    fn ambiguous_option_reaches_every_ambiguity_and_labels_it() {
        let all = sessions(2, 4000, AMBIGUOUS);
        let mut seen: HashMap<Ambiguity, usize> = HashMap::new();
        for s in &all {
            for a in &s.labels {
                *seen.entry(*a).or_default() += 1;
            }
        }
        for a in Ambiguity::ALL {
            assert!(seen.contains_key(&a), "{a} never generated: {seen:?}");
        }
        let labelled = all.iter().filter(|s| s.is_ambiguous()).count();
        assert!(labelled > 200 && labelled < 3000, "{labelled} labelled");
    }

    #[test]
    fn labels_follow_the_bytes_after_an_edit() {
        let mut s = (0..100_000)
            .map(|i| Session::generate(3, i, AMBIGUOUS))
            .find(|s| s.labels == BTreeSet::from([Ambiguity::NulInput]))
            .expect("a session whose only ambiguity is a NUL");
        s.lines.retain(|l| !l.contains(&0));
        s.relabel();
        assert!(s.labels.is_empty());
    }

    #[test]
    fn loaded_files_hold_valid_states_and_broken_ones_fail() {
        let mut loaded = 0;
        let mut broken = 0;
        for s in sessions(4, 3000, DEFAULT) {
            let Ok(config) = args::parse(&s.os_args()) else {
                continue;
            };
            let Some(path) = config.file.as_ref().and_then(|p| p.to_str()) else {
                continue;
            };
            let Some(file) = s.files.iter().find(|f| f.path == path) else {
                continue;
            };
            let result =
                gridfile::load_bytes(&file.bytes, config.height, config.width, config.players);
            match s.kind {
                SessionKind::LoadedGame => {
                    let state = result.expect("a loaded game's file loads");
                    assert!(state.grid.open_edges() > 0);
                    assert_eq!(gridfile::to_bytes(&state), file.bytes);
                    loaded += 1;
                }
                SessionKind::BrokenFile => {
                    assert!(result.is_err(), "{s:?}");
                    broken += 1;
                }
                SessionKind::Arguments | SessionKind::NewGame => {}
            }
        }
        assert!(
            loaded > 500 && broken > 100,
            "{loaded} loaded, {broken} broken"
        );
    }

    #[test]
    fn new_games_end_in_every_way_and_stay_small() {
        let mut statuses: HashMap<u8, usize> = HashMap::new();
        let mut areas = Vec::new();
        let mut saves = 0;
        let mut kinds: HashMap<&str, usize> = HashMap::new();
        for s in sessions(5, 1000, DEFAULT) {
            let kind = match s.kind {
                SessionKind::Arguments => "arguments",
                SessionKind::BrokenFile => "broken",
                SessionKind::LoadedGame => "loaded",
                SessionKind::NewGame => "new",
            };
            *kinds.entry(kind).or_default() += 1;
            if let Ok(config) = args::parse(&s.os_args()) {
                areas.push(config.height * config.width);
            }
            if s.kind != SessionKind::NewGame {
                continue;
            }
            saves += s.lines.iter().filter(|l| l.starts_with(b"w ")).count();
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let dir =
                std::env::temp_dir().join(format!("boxes-session-test-{}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("temp dir");
            // Saves land in the current directory; run with relative paths
            // made absolute under a private folder instead.
            let lines: Vec<Vec<u8>> = s
                .lines
                .iter()
                .map(|l| match l.strip_prefix(b"w ") {
                    Some(p) => {
                        let mut abs = b"w ".to_vec();
                        abs.extend_from_slice(dir.as_os_str().as_encoded_bytes());
                        abs.push(b'/');
                        abs.extend_from_slice(p);
                        abs
                    }
                    None => l.clone(),
                })
                .collect();
            let stdin = Session { lines, ..s.clone() }.stdin();
            let exit = boxes_reference::run(&s.os_args(), Cursor::new(stdin), &mut out, &mut err);
            *statuses.entry(exit.code()).or_default() += 1;
            let _ = std::fs::remove_dir_all(&dir);
        }
        assert!(statuses.get(&0).copied().unwrap_or(0) > 50, "{statuses:?}");
        assert!(statuses.get(&6).copied().unwrap_or(0) > 50, "{statuses:?}");
        assert!(saves > 50, "{saves} saves");
        assert_eq!(kinds.len(), 4, "{kinds:?}");
        areas.sort_unstable();
        assert!(
            areas[areas.len() / 2] <= 16,
            "median area {}",
            areas[areas.len() / 2]
        );
        assert!(areas.iter().any(|&a| a >= 100), "no large grid");
    }
}
