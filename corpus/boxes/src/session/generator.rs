//! The session generator: which kind of invocation to build and the
//! argument lists, new games and loaded games around it. Grid files are
//! made in [`super::files`], stdin lines in [`super::lines`].

use std::collections::BTreeSet;

use boxes_reference::gridfile;
use boxes_reference::{Edge, Grid, Player, State};

use super::random::Rng;
use super::{InputFile, MAX_PLAIN_PLAYERS, Options, Session, SessionKind};

impl Session {
    /// The `index`-th session of the run seeded with `seed`. Sessions are
    /// independent of each other, so they can be generated in any order.
    pub fn generate(seed: u64, index: u64, options: Options) -> Self {
        let mut session = Generator::new(seed, index, options).session();
        session.relabel();
        session
    }
}

/// Invalid dimensions (ARGS-2, ARGS-3), none of them ambiguous.
const BAD_DIMENSIONS: [&str; 15] = [
    "0",
    "1",
    "1000",
    "-2",
    "-0",
    "-999",
    "2147483647",
    "abc",
    "3x",
    "3 ",
    "",
    "0x10",
    "2.5",
    "1e3",
    "9-",
];

/// Invalid player counts (ARGS-2, ARGS-4), none of them ambiguous.
const BAD_PLAYERS: [&str; 11] = [
    "0",
    "1",
    "101",
    "-3",
    "1000",
    "x",
    "",
    "2 ",
    "0x2",
    "100000",
    "-2147483648",
];

/// Ambiguous numeric arguments (ARGS-2) with the value a lax parser sees.
const AMBIGUOUS_NUMBERS: [&str; 8] = [
    " 3",
    "+3",
    "\t4",
    "+2",
    "4294967299",
    "4294967298",
    "2147483648",
    "99999999999",
];

/// Grid-file paths for loaded games.
const GRID_PATHS: [&str; 4] = ["grid.txt", "saved.grid", "g", "my game.txt"];

/// Paths that cannot be opened for reading (ARGS-6).
const MISSING_FILES: [&str; 4] = ["missing.txt", "nodir/grid.txt", "", "no such file"];

/// The session generator: a random stream and what it may produce.
pub(super) struct Generator {
    pub(super) rng: Rng,
    pub(super) ambiguous: bool,
    /// The grid file of a loaded game, which a save may overwrite (SAVE-2).
    pub(super) grid_path: Option<String>,
}

impl Generator {
    /// The generator of session `index` in the run seeded with `seed`.
    pub(super) const fn new(seed: u64, index: u64, options: Options) -> Self {
        Self {
            rng: Rng::for_session(seed, index),
            ambiguous: options.ambiguous,
            grid_path: None,
        }
    }

    pub(super) fn session(&mut self) -> Session {
        let mut session = match self.rng.below(100) {
            0..=11 => self.arguments(),
            12..=23 => self.broken_file(),
            24..=55 => self.loaded_game(),
            _ => self.new_game(),
        };
        if self.ambiguous
            && self.rng.percent(12)
            && session.lines.last().is_some_and(|l| !l.is_empty())
        {
            session.final_newline = false;
        }
        session
    }

    /// A grid dimension: mostly 2 or 3, sometimes large (median 3).
    fn dimension(&mut self) -> usize {
        match self.rng.below(100) {
            0..=44 => 2,
            45..=69 => 3,
            70..=81 => 4,
            82..=89 => self.rng.range(5, 6),
            90..=96 => self.rng.range(7, 10),
            _ => self.rng.range(11, 30),
        }
    }

    /// A player count: mostly 2, up to 62 (100 when ambiguous).
    fn players(&mut self) -> usize {
        match self.rng.below(100) {
            0..=54 => 2,
            55..=79 => self.rng.range(3, 4),
            80..=94 => self.rng.range(5, 26),
            95..=98 => self.rng.range(27, MAX_PLAIN_PLAYERS),
            _ if self.ambiguous => self.rng.range(MAX_PLAIN_PLAYERS + 1, 100),
            _ => MAX_PLAIN_PLAYERS,
        }
    }

    /// A valid numeric argument, sometimes with leading zeros (ARGS-2 says
    /// `007` is 7).
    fn number(&mut self, n: usize) -> String {
        if self.rng.percent(5) {
            format!("00{n}")
        } else {
            n.to_string()
        }
    }

    fn arguments(&mut self) -> Session {
        let (h, w, p) = (self.dimension(), self.dimension(), self.players());
        let mut args = vec![self.number(h), self.number(w), self.number(p)];
        let mut files = Vec::new();
        let mut state = None;
        match self.rng.below(if self.ambiguous { 7 } else { 6 }) {
            0 => {
                let count = self.rng.pick(&[0, 1, 2, 5, 6]).unwrap_or(0);
                args.extend(["grid.txt", "extra", "more"].map(String::from));
                args.truncate(count);
            }
            1 => {
                let bad = self.bad_dimension();
                match self.rng.below(3) {
                    0 => args[0] = bad,
                    1 => args[1] = bad,
                    _ => {
                        args[0] = bad;
                        args[1] = self.bad_dimension();
                    }
                }
                self.later_failures(&mut args);
            }
            2 => {
                args[2] = self.bad_players();
                self.later_failures(&mut args);
            }
            3 => args.push(self.rng.choice(&MISSING_FILES)),
            4 => {
                // The boundaries that must be accepted.
                let (h, w) = match self.rng.below(3) {
                    0 => (2, 999),
                    1 => (999, 2),
                    _ => (2, 2),
                };
                let p = if self.rng.percent(50) {
                    2
                } else if self.ambiguous {
                    100
                } else {
                    MAX_PLAIN_PLAYERS
                };
                args = vec![self.number(h), self.number(w), self.number(p)];
                state = Some(State::new(h, w, p));
            }
            5 => {
                // A file that exists but is checked after bad arguments.
                files.push(InputFile {
                    path: "grid.txt".to_owned(),
                    bytes: gridfile::to_bytes(&State::new(h, w, p)),
                });
                args[self.rng.below(3)] = self.rng.choice(&BAD_PLAYERS);
                args.push("grid.txt".to_owned());
            }
            _ => {
                let i = self.rng.below(3);
                args[i] = self.rng.choice(&AMBIGUOUS_NUMBERS);
                if self.rng.percent(50) {
                    state = Some(State::new(h, w, p));
                }
            }
        }
        let mut session = Session {
            kind: SessionKind::Arguments,
            args,
            files,
            lines: Vec::new(),
            final_newline: true,
            save_paths: Vec::new(),
            labels: BTreeSet::new(),
        };
        if let Some(mut state) = state {
            self.play_lines(&mut state, &mut session, 3);
        } else {
            // Lines the program never reads: it stops at the arguments.
            let mut scratch = State::new(h, w, p);
            for _ in 0..self.rng.below(3) {
                let line = self.line_for(&mut scratch, &mut session.save_paths);
                session.lines.push(line);
            }
        }
        session
    }

    /// An invalid dimension, half the time one just past a boundary.
    fn bad_dimension(&mut self) -> String {
        if self.rng.percent(50) {
            self.rng.choice(&["1", "1000"])
        } else {
            self.rng.choice(&BAD_DIMENSIONS)
        }
    }

    /// An invalid player count, half the time one just past a boundary.
    fn bad_players(&mut self) -> String {
        if self.rng.percent(50) {
            self.rng.choice(&["1", "101"])
        } else {
            self.rng.choice(&BAD_PLAYERS)
        }
    }

    /// Sometimes adds a second failure that ARGS-5 says is checked later.
    fn later_failures(&mut self, args: &mut Vec<String>) {
        if args[2] != "1" && self.rng.percent(30) {
            args[2] = self.bad_players();
        }
        if self.rng.percent(30) {
            args.push(self.rng.choice(&MISSING_FILES));
        }
    }

    /// A state reached by `moves` random valid moves from an empty grid.
    pub(super) fn random_state(&mut self, h: usize, w: usize, p: usize, moves: usize) -> State {
        let mut state = State::new(h, w, p);
        for _ in 0..moves {
            match self.choose_move(&state.grid) {
                Some(edge) => {
                    let _ = state.apply(edge);
                }
                None => break,
            }
        }
        state
    }

    /// A random open edge, often one that completes a cell.
    pub(super) fn choose_move(&mut self, grid: &Grid) -> Option<Edge> {
        let open: Vec<Edge> = grid.edges().filter(|&e| !grid.is_closed(e)).collect();
        if self.rng.percent(50) {
            let completing: Vec<Edge> = open
                .iter()
                .copied()
                .filter(|&e| grid.completes(e))
                .collect();
            if let Some(edge) = self.rng.pick(&completing) {
                return Some(edge);
            }
        }
        self.rng.pick(&open)
    }

    fn new_game(&mut self) -> Session {
        let (h, w, p) = (self.dimension(), self.dimension(), self.players());
        let mut session = Session {
            kind: SessionKind::NewGame,
            args: vec![self.number(h), self.number(w), self.number(p)],
            files: Vec::new(),
            lines: Vec::new(),
            final_newline: true,
            save_paths: Vec::new(),
            labels: BTreeSet::new(),
        };
        let mut state = State::new(h, w, p);
        self.play_lines(&mut state, &mut session, usize::MAX);
        session
    }

    /// A valid state for a file: random play short of the end (to the end
    /// only when ambiguous, END-2), sometimes with another next player.
    fn file_state(&mut self, h: usize, w: usize, p: usize) -> State {
        let total = Grid::new(h, w).open_edges();
        let moves = if self.ambiguous && self.rng.percent(5) {
            total
        } else {
            self.rng.below(total)
        };
        let mut state = self.random_state(h, w, p, moves);
        if self.rng.percent(30)
            && let Some(next) = Player::new(self.rng.range(1, p))
        {
            state.next = next;
        }
        state
    }

    fn loaded_game(&mut self) -> Session {
        let (h, w, p) = (self.dimension(), self.dimension(), self.players());
        let mut state = self.file_state(h, w, p);
        let path = self.rng.choice(&GRID_PATHS);
        let mut session = Session {
            kind: SessionKind::LoadedGame,
            args: vec![self.number(h), self.number(w), self.number(p), path.clone()],
            files: vec![InputFile {
                path: path.clone(),
                bytes: gridfile::to_bytes(&state),
            }],
            lines: Vec::new(),
            final_newline: true,
            save_paths: Vec::new(),
            labels: BTreeSet::new(),
        };
        self.grid_path = Some(path);
        self.play_lines(&mut state, &mut session, usize::MAX);
        session
    }

    fn broken_file(&mut self) -> Session {
        let (h, w, p) = (self.dimension(), self.dimension(), self.players());
        let state = self.file_state(h, w, p);
        let mut path = "grid.txt".to_owned();
        let from_corpus = if h * w <= 36 && self.rng.percent(50) {
            self.corpus_file(h, w, p)
        } else {
            None
        };
        let bytes = if let Some(bytes) = from_corpus {
            bytes
        } else if self.ambiguous && self.rng.percent(35) {
            self.ambiguous_file(&state).unwrap_or_else(|| {
                ".".clone_into(&mut path);
                Vec::new()
            })
        } else {
            self.faulty_file(&state)
        };
        let mut session = Session {
            kind: SessionKind::BrokenFile,
            args: vec![self.number(h), self.number(w), self.number(p), path.clone()],
            files: Vec::new(),
            lines: Vec::new(),
            final_newline: true,
            save_paths: Vec::new(),
            labels: BTreeSet::new(),
        };
        if path != "." {
            session.files.push(InputFile {
                path,
                bytes: bytes.clone(),
            });
        }
        if let Ok(mut loaded) = gridfile::load_bytes(&bytes, h, w, p) {
            // An ambiguous file that the reference accepts: play it on.
            self.play_lines(&mut loaded, &mut session, usize::MAX);
        } else {
            // Lines the program never reads: it stops at the file.
            let mut scratch = state;
            for _ in 0..self.rng.below(3) {
                let line = self.line_for(&mut scratch, &mut session.save_paths);
                session.lines.push(line);
            }
        }
        session
    }
}
