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

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fmt;

use boxes_reference::args;
use boxes_reference::gridfile::{self, LoadErrorKind};
use boxes_reference::{Cell, Edge, Grid, Player, State};

use crate::rng::SplitMix64;
use crate::samples;
use crate::spec::Spec;

/// Highest player count whose symbols stay printable ASCII (DISP-2).
pub const MAX_PLAIN_PLAYERS: usize = 62;

/// Longest input line the assignment promises to test (SAVE-1, TURN-4).
pub const PROMISED_LINE_LENGTH: usize = 30;

/// The session generator's random stream: the corpus's [`SplitMix64`] with
/// the few draws a generator needs.
#[derive(Debug, Clone)]
struct Rng(SplitMix64);

/// The splitmix64 output function, used to spread a seed and an index into
/// unrelated starting states.
const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    /// A number in `low..=high`.
    fn range(&mut self, low: usize, high: usize) -> usize {
        self.0.between(low, high)
    }

    /// True with probability `percent`/100.
    fn percent(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One of a non-empty list of words, owned.
    fn choice(&mut self, items: &[&str]) -> String {
        self.pick(items).unwrap_or_default().to_owned()
    }

    /// One item of a slice, `None` when it is empty.
    fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        items.get(self.below(items.len())).copied()
    }
}

/// A ruling marked ambiguous that a session's outcome may depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ambiguity {
    /// A numeric argument with leading whitespace or a `+` (ARGS-2).
    ArgumentSpaceOrPlus,
    /// A numeric argument above 2147483647 (ARGS-2).
    ArgumentAboveInt,
    /// A directory given as the grid file (ARGS-6).
    DirectoryGridFile,
    /// A next-player line with a leading zero (FILE-2).
    NextPlayerLeadingZero,
    /// An owner number with a leading zero (FILE-3).
    OwnerLeadingZero,
    /// An empty owner field or a trailing comma (FILE-3).
    EmptyOwnerField,
    /// An owner on a cell that is not closed (FILE-4).
    OwnerOnOpenCell,
    /// A closed cell with owner 0 (FILE-4).
    UnownedClosedCell,
    /// A grid file without its final newline (FILE-5).
    FileWithoutFinalNewline,
    /// A line after the last cell row (FILE-5).
    LineAfterGrid,
    /// A loaded file with no open edge (END-2).
    FullyClosedLoad,
    /// More than 62 players: symbols past `~` (DISP-2).
    ManyPlayers,
    /// A move line with a leading zero (TURN-2).
    MoveLeadingZero,
    /// A NUL byte on stdin (TURN-2, SAVE-1).
    NulInput,
    /// A save line longer than 30 bytes (SAVE-1).
    LongSaveLine,
    /// The empty save path `w ` (SAVE-3).
    EmptySavePath,
    /// A save outside the sandbox, such as `/dev/full` (SAVE-3).
    AbsoluteSavePath,
    /// Input whose last line has no `\n` (EOF-2).
    InputWithoutFinalNewline,
}

impl Ambiguity {
    /// Every ambiguity, in order.
    pub const ALL: [Self; 18] = [
        Self::ArgumentSpaceOrPlus,
        Self::ArgumentAboveInt,
        Self::DirectoryGridFile,
        Self::NextPlayerLeadingZero,
        Self::OwnerLeadingZero,
        Self::EmptyOwnerField,
        Self::OwnerOnOpenCell,
        Self::UnownedClosedCell,
        Self::FileWithoutFinalNewline,
        Self::LineAfterGrid,
        Self::FullyClosedLoad,
        Self::ManyPlayers,
        Self::MoveLeadingZero,
        Self::NulInput,
        Self::LongSaveLine,
        Self::EmptySavePath,
        Self::AbsoluteSavePath,
        Self::InputWithoutFinalNewline,
    ];

    /// The ruling ID that marks this point ambiguous.
    pub const fn rule(self) -> &'static str {
        match self {
            Self::ArgumentSpaceOrPlus | Self::ArgumentAboveInt => "ARGS-2",
            Self::DirectoryGridFile => "ARGS-6",
            Self::NextPlayerLeadingZero => "FILE-2",
            Self::OwnerLeadingZero | Self::EmptyOwnerField => "FILE-3",
            Self::OwnerOnOpenCell | Self::UnownedClosedCell => "FILE-4",
            Self::FileWithoutFinalNewline | Self::LineAfterGrid => "FILE-5",
            Self::FullyClosedLoad => "END-2",
            Self::ManyPlayers => "DISP-2",
            Self::MoveLeadingZero => "TURN-2",
            Self::NulInput | Self::LongSaveLine => "SAVE-1",
            Self::EmptySavePath | Self::AbsoluteSavePath => "SAVE-3",
            Self::InputWithoutFinalNewline => "EOF-2",
        }
    }

    /// A short kebab-case name, usable as a tag or file-name part.
    pub const fn name(self) -> &'static str {
        match self {
            Self::ArgumentSpaceOrPlus => "argument-space-or-plus",
            Self::ArgumentAboveInt => "argument-above-int",
            Self::DirectoryGridFile => "directory-grid-file",
            Self::NextPlayerLeadingZero => "next-player-leading-zero",
            Self::OwnerLeadingZero => "owner-leading-zero",
            Self::EmptyOwnerField => "empty-owner-field",
            Self::OwnerOnOpenCell => "owner-on-open-cell",
            Self::UnownedClosedCell => "unowned-closed-cell",
            Self::FileWithoutFinalNewline => "file-without-final-newline",
            Self::LineAfterGrid => "line-after-grid",
            Self::FullyClosedLoad => "fully-closed-load",
            Self::ManyPlayers => "many-players",
            Self::MoveLeadingZero => "move-leading-zero",
            Self::NulInput => "nul-input",
            Self::LongSaveLine => "long-save-line",
            Self::EmptySavePath => "empty-save-path",
            Self::AbsoluteSavePath => "absolute-save-path",
            Self::InputWithoutFinalNewline => "input-without-final-newline",
        }
    }
}

impl fmt::Display for Ambiguity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name(), self.rule())
    }
}

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

    /// The `index`-th session of the run seeded with `seed`. Sessions are
    /// independent of each other, so they can be generated in any order.
    pub fn generate(seed: u64, index: u64, options: Options) -> Self {
        let rng = Rng(SplitMix64::new(mix64(
            seed ^ mix64(index.wrapping_add(0x5EED)),
        )));
        let mut generator = Generator {
            rng,
            ambiguous: options.ambiguous,
            grid_path: None,
        };
        let mut session = generator.session();
        session.relabel();
        session
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

    /// The ambiguous rulings this session's bytes touch. It errs on the side
    /// of naming one the outcome might not depend on.
    pub fn ambiguities(&self) -> BTreeSet<Ambiguity> {
        let mut found = BTreeSet::new();
        if (3..=4).contains(&self.args.len()) {
            for arg in self.args.iter().take(3) {
                argument_ambiguities(arg.as_bytes(), &mut found);
            }
        }
        if let Ok(config) = args::parse(&self.os_args()) {
            if config.players > MAX_PLAIN_PLAYERS {
                found.insert(Ambiguity::ManyPlayers);
            }
            if let Some(path) = self.args.get(3) {
                if path == "." || path == ".." || path.ends_with('/') {
                    found.insert(Ambiguity::DirectoryGridFile);
                } else if let Some(file) = self.files.iter().find(|f| &f.path == path) {
                    file_ambiguities(
                        &file.bytes,
                        config.height,
                        config.width,
                        config.players,
                        &mut found,
                    );
                }
            }
        }
        let stdin = self.stdin();
        if stdin.last().is_some_and(|&b| b != b'\n') {
            found.insert(Ambiguity::InputWithoutFinalNewline);
        }
        if stdin.contains(&0) {
            found.insert(Ambiguity::NulInput);
        }
        for line in &self.lines {
            if let Some(path) = line.strip_prefix(b"w ") {
                if line.len() > PROMISED_LINE_LENGTH {
                    found.insert(Ambiguity::LongSaveLine);
                }
                let path = path.split(|&b| b == 0).next().unwrap_or_default();
                if path.is_empty() {
                    found.insert(Ambiguity::EmptySavePath);
                }
                if path.first() == Some(&b'/') {
                    found.insert(Ambiguity::AbsoluteSavePath);
                }
            } else if is_leading_zero_move(line) {
                found.insert(Ambiguity::MoveLeadingZero);
            }
        }
        found
    }
}

/// ARGS-2 ambiguities of one numeric argument.
fn argument_ambiguities(arg: &[u8], found: &mut BTreeSet<Ambiguity>) {
    let start = arg
        .iter()
        .position(|b| !is_c_space(*b))
        .unwrap_or(arg.len());
    let rest = &arg[start..];
    if start > 0 || rest.first() == Some(&b'+') {
        found.insert(Ambiguity::ArgumentSpaceOrPlus);
    }
    let negative = rest.first() == Some(&b'-');
    let digits = rest.strip_prefix(b"+").or_else(|| rest.strip_prefix(b"-"));
    let digits = digits.unwrap_or(rest);
    // A C `int` holds -2147483648 but not +2147483648.
    let limit: &[u8] = if negative {
        b"2147483648"
    } else {
        b"2147483647"
    };
    if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
        let significant = digits
            .iter()
            .position(|&d| d != b'0')
            .map_or(&digits[..0], |i| &digits[i..]);
        let above = significant.len() > 10 || (significant.len() == 10 && significant > limit);
        if above {
            found.insert(Ambiguity::ArgumentAboveInt);
        }
    }
}

/// C's `isspace` in the C locale.
const fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// A line that would be a move if leading zeros were allowed, and has one.
fn is_leading_zero_move(line: &[u8]) -> bool {
    let parts: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
    let [row, col, dir] = parts.as_slice() else {
        return false;
    };
    let number = |n: &[u8]| !n.is_empty() && n.iter().all(u8::is_ascii_digit);
    let leading = |n: &[u8]| n.len() > 1 && n[0] == b'0';
    number(row) && number(col) && matches!(*dir, b"h" | b"v") && (leading(row) || leading(col))
}

/// FILE ambiguities of a grid file loaded for H×W with P players.
fn file_ambiguities(
    bytes: &[u8],
    height: usize,
    width: usize,
    players: usize,
    found: &mut BTreeSet<Ambiguity>,
) {
    if bytes.last().is_some_and(|&b| b != b'\n') {
        found.insert(Ambiguity::FileWithoutFinalNewline);
    }
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let leading = |n: &[u8]| n.len() > 1 && n[0] == b'0' && n.iter().all(u8::is_ascii_digit);
    if lines.first().is_some_and(|l| leading(l)) {
        found.insert(Ambiguity::NextPlayerLeadingZero);
    }
    let cells = lines.iter().skip(2 * height + 2).take(height);
    for row in cells {
        if row.contains(&b',') || width == 1 {
            let fields: Vec<&[u8]> = row.split(|&b| b == b',').collect();
            if fields.iter().any(|f| leading(f)) {
                found.insert(Ambiguity::OwnerLeadingZero);
            }
            if fields.iter().any(|f| f.is_empty()) {
                found.insert(Ambiguity::EmptyOwnerField);
            }
        }
    }
    match gridfile::load_bytes(bytes, height, width, players) {
        Ok(state) => {
            if state.grid.open_edges() == 0 {
                found.insert(Ambiguity::FullyClosedLoad);
            }
            let unowned_closed = all_cells(&state.grid)
                .any(|c| state.grid.is_cell_closed(c) && state.grid.owner(c).is_none());
            if unowned_closed {
                found.insert(Ambiguity::UnownedClosedCell);
            }
        }
        Err(e) => match e.kind {
            LoadErrorKind::OwnerOnOpenCell { .. } => {
                found.insert(Ambiguity::OwnerOnOpenCell);
            }
            LoadErrorKind::ExtraLine => {
                found.insert(Ambiguity::LineAfterGrid);
            }
            LoadErrorKind::EmptyField => {
                found.insert(Ambiguity::EmptyOwnerField);
            }
            _ => {}
        },
    }
}

/// Every cell of `grid`, row by row.
pub fn all_cells(grid: &Grid) -> impl Iterator<Item = Cell> + '_ {
    (0..grid.height()).flat_map(move |row| (0..grid.width()).map(move |col| Cell { row, col }))
}

/// The four edges around `cell`.
pub const fn cell_edges(cell: Cell) -> [Edge; 4] {
    [
        Edge::h(cell.row, cell.col),
        Edge::h(cell.row + 1, cell.col),
        Edge::v(cell.row, cell.col),
        Edge::v(cell.row, cell.col + 1),
    ]
}

/// Whether closing `edge` would complete at least one cell.
fn completes(grid: &Grid, edge: Edge) -> bool {
    let (a, b) = grid.cells_beside(edge);
    [a, b].into_iter().flatten().any(|cell| {
        cell_edges(cell)
            .into_iter()
            .filter(|&e| e != edge && grid.is_closed(e))
            .count()
            == 3
    })
}

/// Good relative save paths (SAVE-1, SAVE-2).
const GOOD_SAVES: [&str; 6] = [
    "save.txt",
    "s",
    "game.save",
    "my save.txt",
    "out.grid",
    "saved-game-1",
];

/// Relative save paths that cannot be opened for writing (SAVE-3).
const BAD_SAVES: [&str; 5] = [".", "..", "nodir/save.txt", "no/such/dir/s", "nodir/"];

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

/// Numbers far outside any grid (TURN-3): a C `int` wraps several of them.
const HUGE_NUMBERS: [&str; 7] = [
    "1000",
    "2147483648",
    "4294967296",
    "4294967297",
    "18446744073709551616",
    "18446744073709551617",
    "99999999999999999999999999",
];

/// The session generator: a random stream and what it may produce.
struct Generator {
    rng: Rng,
    ambiguous: bool,
    /// The grid file of a loaded game, which a save may overwrite (SAVE-2).
    grid_path: Option<String>,
}

impl Generator {
    fn session(&mut self) -> Session {
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
    fn random_state(&mut self, h: usize, w: usize, p: usize, moves: usize) -> State {
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
    fn choose_move(&mut self, grid: &Grid) -> Option<Edge> {
        let open: Vec<Edge> = grid.edges().filter(|&e| !grid.is_closed(e)).collect();
        if self.rng.percent(50) {
            let completing: Vec<Edge> = open
                .iter()
                .copied()
                .filter(|&e| completes(grid, e))
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

    /// A faulty file of one of the corpus's error classes (an ambiguous
    /// class only when allowed), for `boxes H W P`.
    fn corpus_file(&mut self, h: usize, w: usize, p: usize) -> Option<Vec<u8>> {
        let spec = Spec::new(h, w, p, self.rng.next_u64()).ok()?;
        let mut faulty: Vec<samples::Sample> = samples::build(&spec)
            .into_iter()
            .filter(|s| !s.class.is_control() && (self.ambiguous || !s.class.ambiguous()))
            .collect();
        let i = self.rng.below(faulty.len());
        (i < faulty.len()).then(|| faulty.swap_remove(i).bytes)
    }

    /// A file that breaks a FILE rule not marked ambiguous (FILE-6).
    fn faulty_file(&mut self, state: &State) -> Vec<u8> {
        let (h, w, p) = (state.grid.height(), state.grid.width(), state.players);
        let good = gridfile::to_bytes(state);
        let mut lines: Vec<Vec<u8>> = good.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
        lines.pop(); // after the final newline
        let edge_row = self.rng.range(1, 2 * h + 1);
        let cell_row = self.rng.range(2 * h + 2, 3 * h + 1);
        match self.rng.below(10) {
            0 => return Vec::new(),
            1 => lines.truncate(self.rng.range(1, 3 * h + 1)),
            2 => {
                let next = [
                    String::new(),
                    "0".to_owned(),
                    (p + 1).to_string(),
                    "x".to_owned(),
                    "-1".to_owned(),
                    "+1".to_owned(),
                    " 1".to_owned(),
                    "1 ".to_owned(),
                    "99999999999999999999".to_owned(),
                    "1x".to_owned(),
                    "1\r".to_owned(),
                ];
                let i = self.rng.below(next.len());
                lines[0] = next[i].clone().into_bytes();
            }
            3 => {
                let foreign = self
                    .rng
                    .pick(&[b'2', b' ', b'\t', b'\r', b'a', 0, 0xff, b','])
                    .unwrap_or(b'2');
                let row = &mut lines[edge_row];
                let at = self.rng.below(row.len());
                row[at] = foreign;
            }
            4 => {
                let row = &mut lines[edge_row];
                let at = self.rng.below(row.len());
                row.remove(at);
            }
            5 => {
                let extra = if self.rng.percent(50) { b'0' } else { b'1' };
                lines[edge_row].push(extra);
            }
            6 => {
                let mut fields = split_fields(&lines[cell_row]);
                if self.rng.percent(50) && fields.len() > 1 {
                    fields.pop();
                } else {
                    fields.push(b"0".to_vec());
                }
                lines[cell_row] = fields.join(&b","[..]);
            }
            7 => {
                let mut fields = split_fields(&lines[cell_row]);
                let bad = [
                    "x".to_owned(),
                    "-1".to_owned(),
                    "+1".to_owned(),
                    " 1".to_owned(),
                    "1 ".to_owned(),
                    (p + 1).to_string(),
                    "99999999999999999999".to_owned(),
                    "1\t".to_owned(),
                ];
                let i = self.rng.below(bad.len());
                let at = self.rng.below(fields.len());
                fields[at] = bad[i].clone().into_bytes();
                lines[cell_row] = fields.join(&b","[..]);
            }
            8 => {
                for line in &mut lines {
                    line.push(b'\r');
                }
            }
            _ => {
                // A valid file for a grid one row or column larger or smaller.
                let (fh, fw) = match self.rng.below(4) {
                    0 => (h + 1, w),
                    1 => (h, w + 1),
                    2 if h > 2 => (h - 1, w),
                    _ if w > 2 => (h, w - 1),
                    _ => (h + 1, w),
                };
                let moves = self.rng.below(fh * fw);
                let other = self.random_state(fh, fw, p, moves);
                return gridfile::to_bytes(&other);
            }
        }
        join_lines(&lines)
    }

    /// A file whose outcome rests on an ambiguous FILE ruling, or `None` for
    /// a directory in place of the file (ARGS-6).
    fn ambiguous_file(&mut self, state: &State) -> Option<Vec<u8>> {
        let h = state.grid.height();
        let good = gridfile::to_bytes(state);
        let mut lines: Vec<Vec<u8>> = good.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
        lines.pop();
        let cell_row = self.rng.range(2 * h + 2, 3 * h + 1);
        let r = cell_row - (2 * h + 2);
        match self.rng.below(8) {
            0 => {
                let mut bytes = good;
                bytes.pop();
                return Some(bytes);
            }
            1 => lines[0].insert(0, b'0'),
            2 => {
                let mut fields = split_fields(&lines[cell_row]);
                let at = self.rng.below(fields.len());
                fields[at].insert(0, b'0');
                lines[cell_row] = fields.join(&b","[..]);
            }
            3 => {
                let mut fields = split_fields(&lines[cell_row]);
                if self.rng.percent(50) {
                    let at = self.rng.below(fields.len());
                    fields[at].clear();
                    lines[cell_row] = fields.join(&b","[..]);
                } else {
                    lines[cell_row].push(b',');
                }
            }
            4 => {
                let grid = &state.grid;
                let open: Vec<Cell> = all_cells(grid)
                    .filter(|&c| !grid.is_cell_closed(c))
                    .collect();
                let cell = self.rng.pick(&open)?;
                let row = 2 * h + 2 + cell.row;
                let mut fields = split_fields(&lines[row]);
                fields[cell.col] = self.rng.range(1, state.players).to_string().into_bytes();
                lines[row] = fields.join(&b","[..]);
            }
            5 => {
                let grid = &state.grid;
                let closed: Vec<Cell> = all_cells(grid)
                    .filter(|&c| grid.is_cell_closed(c))
                    .collect();
                let cell = self.rng.pick(&closed).unwrap_or(Cell { row: r, col: 0 });
                let row = 2 * h + 2 + cell.row;
                let mut fields = split_fields(&lines[row]);
                fields[cell.col] = b"0".to_vec();
                lines[row] = fields.join(&b","[..]);
            }
            6 => {
                let extra = self.rng.pick(&[&b""[..], b"0", b" "]).unwrap_or(b"");
                lines.push(extra.to_vec());
            }
            _ => return None,
        }
        Some(join_lines(&lines))
    }

    /// Appends stdin lines that play `state` on: valid moves in random
    /// order, invalid lines of every kind and saves, either to the end of
    /// the game or until a random point. At most `max_moves` valid moves.
    fn play_lines(&mut self, state: &mut State, session: &mut Session, max_moves: usize) {
        let open = state.grid.open_edges();
        let to_end = open <= 60 && max_moves >= open && self.rng.percent(35);
        let budget = if to_end {
            open
        } else {
            self.rng.below(open.min(20).min(max_moves) + 1)
        };
        let mut moves = 0;
        while session.lines.len() < 300 {
            if state.grid.open_edges() == 0 {
                // The program stops reading here: later lines change nothing.
                if self.rng.percent(20) {
                    session.lines.push(b"0 0 h".to_vec());
                }
                break;
            }
            if moves >= budget {
                break;
            }
            if self.rng.percent(62) {
                if let Some(edge) = self.choose_move(&state.grid) {
                    let _ = state.apply(edge);
                    session.lines.push(edge.to_string().into_bytes());
                    moves += 1;
                }
            } else {
                let line = self.line_for(state, &mut session.save_paths);
                session.lines.push(line);
            }
        }
    }

    /// One line that is not a valid move in `state`: a near miss, an
    /// out-of-range or closed edge, a save, a long line or junk.
    #[expect(
        clippy::many_single_char_names,
        reason = "h, w, r, c and d are the rulings' own names for a move's parts"
    )]
    fn line_for(&mut self, state: &mut State, saves: &mut Vec<String>) -> Vec<u8> {
        let grid = &state.grid;
        let (h, w) = (grid.height(), grid.width());
        let closed: Vec<Edge> = grid.edges().filter(|&e| grid.is_closed(e)).collect();
        let any: Vec<Edge> = grid.edges().collect();
        let edge = self.rng.pick(&any).unwrap_or(Edge::h(0, 0));
        let (r, c, d) = (edge.row, edge.col, char::from(edge.dir.letter()));
        match self.rng.below(if self.ambiguous { 100 } else { 90 }) {
            0..=29 => self.near_miss(r, c, d),
            30..=44 => {
                let huge = self.rng.pick(&HUGE_NUMBERS).unwrap_or("1000");
                let line = match self.rng.below(6) {
                    0 => format!("{} {c} h", h + 1 + self.rng.below(3)),
                    1 => format!("{h} {} v", self.rng.below(w + 1)),
                    2 => format!("{} {w} h", self.rng.below(h + 1)),
                    3 => format!("{} {} v", self.rng.below(h), w + 1 + self.rng.below(3)),
                    4 => format!("{huge} {c} {d}"),
                    _ => format!("{r} {huge} {d}"),
                };
                line.into_bytes()
            }
            45..=54 => match self.rng.pick(&closed) {
                Some(e) => e.to_string().into_bytes(),
                None => self.near_miss(r, c, d),
            },
            55..=64 => {
                let path = match &self.grid_path {
                    // Saving over the file being played is allowed (SAVE-2).
                    Some(grid) if self.rng.percent(20) => grid.clone(),
                    _ => self.rng.choice(&GOOD_SAVES),
                };
                saves.push(path.clone());
                format!("w {path}").into_bytes()
            }
            65..=71 => {
                let path = self.rng.pick(&BAD_SAVES).unwrap_or(".");
                format!("w {path}").into_bytes()
            }
            72..=79 => self.long_line(r, c, d),
            80..=89 => {
                let junk: [&[u8]; 14] = [
                    b"",
                    b" ",
                    b"w",
                    b"wsave.txt",
                    b" w save.txt",
                    b"W save.txt",
                    b"w\tsave.txt",
                    b"q",
                    b"h",
                    b"\t",
                    b"\r",
                    b"\xff\xfe",
                    b"hello world",
                    b"-",
                ];
                self.rng.pick(&junk).unwrap_or(b"").to_vec()
            }
            _ => self.ambiguous_line(r, c, d, saves),
        }
    }

    /// A line one slip away from the valid move `r c d`.
    fn near_miss(&mut self, r: usize, c: usize, d: char) -> Vec<u8> {
        let upper = d.to_ascii_uppercase();
        let other = if d == 'h' { 'v' } else { 'h' };
        let line = match self.rng.below(18) {
            0 => format!("{r} {c} {d} "),
            1 => format!(" {r} {c} {d}"),
            2 => format!("{r}  {c} {d}"),
            3 => format!("{r} {c}  {d}"),
            4 => format!("{r} {c} {upper}"),
            5 => format!("{r} {c}"),
            6 => format!("{r} {c} {d}\r"),
            7 => format!("{r}\t{c} {d}"),
            8 => format!("-{r} {c} {d}"),
            9 => format!("+{r} {c} {d}"),
            10 => format!("{r} {c} {d}{d}"),
            11 => format!("{r} {c} {other}x"),
            12 => format!("{r}.0 {c} {d}"),
            13 => format!("{r} {c} {d} {d}"),
            14 => format!("{r},{c},{d}"),
            15 => format!("{d} {r} {c}"),
            16 => format!("{r} -{c} {d}"),
            _ => format!("{r} {c} {d} 0"),
        };
        line.into_bytes()
    }

    /// An invalid line past the assignment's 30 bytes (TURN-4), never a save.
    fn long_line(&mut self, r: usize, c: usize, d: char) -> Vec<u8> {
        let length = if self.rng.percent(85) {
            self.rng.range(31, 200)
        } else {
            self.rng.range(1000, 20_000)
        };
        let mut line = match self.rng.below(4) {
            0 => format!("{r} {c} {d}").into_bytes(),
            1 => b"1".to_vec(),
            2 => b"x".to_vec(),
            _ => Vec::new(),
        };
        let kind = self.rng.below(3);
        while line.len() < length {
            let byte = match kind {
                0 => b' ',
                1 => b'1',
                _ => b'!' + (self.rng.below(94) as u8),
            };
            line.push(byte);
        }
        if line.first() == Some(&b'1') && kind == 1 {
            line.extend_from_slice(format!(" {c} {d}").as_bytes());
        }
        line
    }

    /// A line whose outcome rests on an ambiguous ruling.
    fn ambiguous_line(&mut self, r: usize, c: usize, d: char, saves: &mut Vec<String>) -> Vec<u8> {
        match self.rng.below(7) {
            0 => format!("0{r} {c} {d}").into_bytes(),
            1 => format!("{r} 0{c} {d}").into_bytes(),
            2 => {
                let mut line = format!("{r} {c} {d}").into_bytes();
                line.push(0);
                line
            }
            3 => {
                saves.push("save.txt".to_owned());
                b"w save.txt\0junk".to_vec()
            }
            4 => {
                let path = "a-rather-long-save-file-name-for-a-game.txt";
                saves.push(path.to_owned());
                format!("w {path}").into_bytes()
            }
            5 => b"w ".to_vec(),
            _ => b"w /dev/full".to_vec(),
        }
    }
}

/// The comma-separated fields of a cell row.
fn split_fields(row: &[u8]) -> Vec<Vec<u8>> {
    row.split(|&b| b == b',').map(<[u8]>::to_vec).collect()
}

/// Lines joined, each ending in `\n`.
fn join_lines(lines: &[Vec<u8>]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for line in lines {
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
    }
    bytes
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::io::Cursor;

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
