//! One `diff` session for nogo: a command line, the files placed in the
//! sandbox and the stdin lines, generated from a seed by play under the
//! reference's own rules ([`crate::sim`]), so that most lines are moves a
//! real player could make and the game reaches its end, its saves and its
//! end of input. Faulty save files come from the corpus's classes
//! ([`crate::samples`]); every ambiguous ruling a session touches is a
//! [`Ambiguity`] naming its rule, and only `--ambiguous` asks for them.
//!
//! Drawing a session from a seed is [`crate::generator`].

use nogo_reference::Kind;
use nogo_reference::rules::Rule;

/// The name of a loaded save file in the sandbox.
pub const GAME: &str = "game";

/// A ruling marked ambiguous that a session depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ambiguity {
    /// The tag's name (`lax-move`, `dims-lax`, …).
    pub name: &'static str,
    /// The rule whose ambiguous part it is.
    pub rule: Rule,
}

impl Ambiguity {
    /// The tag `name` of `rule`'s ambiguous part.
    pub const fn new(name: &'static str, rule: Rule) -> Self {
        Self { name, rule }
    }
}

/// Where a game starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `height width` as typed.
    New {
        /// The height argument.
        height: String,
        /// The width argument.
        width: String,
    },
    /// A save file argument and what is at that path (`None`: nothing).
    Load {
        /// The path argument.
        path: String,
        /// The file's bytes, when there is one.
        file: Option<Vec<u8>>,
    },
}

/// The command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Args {
    /// A wrong number of arguments (ARGS-1), as typed.
    Count(Vec<String>),
    /// Two player types and a source.
    Game {
        /// `O`'s and `X`'s type arguments.
        types: [String; 2],
        /// A new grid or a save file.
        source: Source,
    },
}

/// One stdin line (without its `\n`) and the ambiguous ruling it rests on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The line's bytes.
    pub bytes: Vec<u8>,
    /// Set when the reference's reading of the line is an ambiguous one.
    pub label: Option<Ambiguity>,
}

impl Input {
    /// A line whose meaning no ruling leaves open.
    pub fn plain(bytes: impl Into<Vec<u8>>) -> Self {
        Self {
            bytes: bytes.into(),
            label: None,
        }
    }
}

/// A whole session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The command line.
    pub args: Args,
    /// The ambiguous ruling the command line or its file rests on.
    pub setup_label: Option<Ambiguity>,
    /// Stdin, line by line.
    pub lines: Vec<Input>,
    /// The last line lacks its `\n` (EOF-2, ambiguous).
    pub unterminated: bool,
}

/// What the generator may do.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Touch rulings marked ambiguous (each labelled).
    pub ambiguous: bool,
}

/// EOF-2: a last line without `\n` is a line.
pub const UNTERMINATED: Ambiguity = Ambiguity::new("unterminated-last-line", Rule::Eof2);

impl Session {
    /// The arguments after the program name.
    pub fn argv(&self) -> Vec<String> {
        match &self.args {
            Args::Count(v) => v.clone(),
            Args::Game { types, source } => {
                let mut v = types.to_vec();
                match source {
                    Source::New { height, width } => v.extend([height.clone(), width.clone()]),
                    Source::Load { path, .. } => v.push(path.clone()),
                }
                v
            }
        }
    }

    /// The files placed in the sandbox.
    pub fn files(&self) -> Vec<(String, Vec<u8>)> {
        match &self.args {
            Args::Game {
                source:
                    Source::Load {
                        path,
                        file: Some(bytes),
                    },
                ..
            } => vec![(path.clone(), bytes.clone())],
            _ => Vec::new(),
        }
    }

    /// The exact stdin bytes.
    pub fn stdin(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            out.extend_from_slice(&line.bytes);
            if !(self.unterminated && i + 1 == self.lines.len()) {
                out.push(b'\n');
            }
        }
        out
    }

    /// Every ambiguous ruling the session rests on.
    pub fn labels(&self) -> Vec<Ambiguity> {
        let mut all: Vec<Ambiguity> = self.setup_label.into_iter().collect();
        all.extend(self.lines.iter().filter_map(|l| l.label));
        if self.unterminated && !self.lines.is_empty() {
            all.push(UNTERMINATED);
        }
        all.sort();
        all.dedup();
        all
    }
}

impl Session {
    /// The player kinds, when the types are valid.
    pub fn kinds(&self) -> Option<[Kind; 2]> {
        match &self.args {
            Args::Game { types, .. } => {
                let o = Kind::from_arg(types[0].as_bytes())?;
                let x = Kind::from_arg(types[1].as_bytes())?;
                Some([o, x])
            }
            Args::Count(_) => None,
        }
    }
}
