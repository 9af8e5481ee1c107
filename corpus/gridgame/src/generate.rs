//! The corpus of hostile lines: labelled size lines and move lines (every
//! spelling MOVE-3..5 accept and reject, every byte class, lines of a
//! megabyte, unterminated lines), each written as a case of the suite's
//! format through the engine's one case writer, with the outcome the
//! reference gives in-process: a folder that runs on its own with
//! `boxes-harness --spec gridgame --cases DIR`.

use std::fs;
use std::path::{Path, PathBuf};

use conformance_engine::schema::AMBIGUOUS_TAG;
use conformance_engine::writer::Draft;
use gridgame_reference::ExitTable;

/// The gridgame suite's categories and marks, copied into every corpus.
pub const SUITE_YAML: &str = include_str!("../../../cases/gridgame/suite.yaml");

/// One labelled line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// `pre-game` (a size line) or `human-input` (a move line).
    pub category: &'static str,
    /// The case's name.
    pub name: String,
    /// What the line is.
    pub summary: String,
    /// The line's bytes, without its `\n`.
    pub line: Vec<u8>,
    /// Whether it ends the input without a `\n` (IN-2, ambiguous).
    pub unterminated: bool,
    /// Whether an ambiguous ruling decides its outcome.
    pub ambiguous: bool,
}

/// Why a corpus could not be written.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// The output folder exists and is not empty.
    #[error("{0} is not empty")]
    NotEmpty(PathBuf),
    /// A write failed.
    #[error("writing {0}: {1}")]
    Io(PathBuf, #[source] std::io::Error),
    /// A case file could not be written.
    #[error(transparent)]
    Case(#[from] conformance_engine::writer::WriteError),
}

fn sample(
    category: &'static str,
    name: &str,
    summary: &str,
    line: &[u8],
    ambiguous: bool,
) -> Sample {
    Sample {
        category,
        name: name.to_owned(),
        summary: summary.to_owned(),
        line: line.to_vec(),
        unterminated: false,
        ambiguous,
    }
}

/// A megabyte of one byte.
fn big(b: u8) -> Vec<u8> {
    vec![b; 1 << 20]
}

/// Every sample, size lines first.
pub fn samples() -> Vec<Sample> {
    let mut out = size_samples();
    out.extend(move_samples());
    out
}

/// Size lines (PRE-2).
fn size_samples() -> Vec<Sample> {
    let mut out = Vec::new();
    let s = "pre-game";
    for (name, summary, line, amb) in [
        ("size-plain", "a plain 5", &b"5"[..], false),
        ("size-two", "2, the smallest", b"2", false),
        ("size-eight", "8, the largest", b"8", false),
        ("size-nine", "9, one too many", b"9", false),
        ("size-one", "1, one too few", b"1", false),
        ("size-zero", "0", b"0", false),
        ("size-minus-three", "-3", b"-3", false),
        ("size-minus-zero", "-0", b"-0", false),
        ("size-letter", "a letter", b"x", false),
        ("size-dot-name", "a dot's name", b"a1", false),
        ("size-sign-alone", "a sign alone", b"+", false),
        (
            "size-twenty-digits",
            "a 20-digit number, never wrapped",
            b"18446744073709551621",
            false,
        ),
        (
            "size-spaces-around",
            "' 5 ': whitespace around",
            b" 5 ",
            true,
        ),
        (
            "size-tab-and-vt",
            "a tab and a vertical tab around 4",
            b"\t4\x0b",
            true,
        ),
        ("size-plus", "+5", b"+5", true),
        ("size-leading-zeros", "005", b"005", true),
        ("size-carriage-return", "5 then a CR", b"5\r", true),
        ("size-empty", "an empty line", b"", true),
        ("size-blank", "a blank line", b"   ", true),
        ("size-trailing-letter", "5x", b"5x", true),
        ("size-decimal", "2.5", b"2.5", true),
        ("size-two-numbers", "3 4", b"3 4", true),
        ("size-nul-after", "5 then a NUL", b"5\0", true),
        ("size-nul", "a NUL", b"\0", false),
        ("size-high-byte", "a byte above 127", b"\xff", false),
        ("size-control", "a control byte", b"\x01", false),
    ] {
        out.push(sample(s, name, summary, line, amb));
    }
    out.push(sample(
        s,
        "size-megabyte-of-digits",
        "a megabyte of digits",
        &big(b'7'),
        false,
    ));
    out.push(sample(
        s,
        "size-megabyte-of-spaces",
        "a megabyte of spaces",
        &big(b' '),
        true,
    ));
    let mut last = sample(
        s,
        "size-unterminated",
        "a last line '4' without newline",
        b"4",
        true,
    );
    last.unterminated = true;
    out.push(last);
    out
}

/// Move lines (MOVE-3..6), on a 3 x 3 grid.
fn move_samples() -> Vec<Sample> {
    let mut out = Vec::new();
    let h = "human-input";
    for (name, summary, line, amb) in [
        ("move-plain", "a1 a2", &b"a1 a2"[..], false),
        ("move-reversed", "a2 a1", b"a2 a1", false),
        ("move-joined", "a1a2", b"a1a2", false),
        ("move-digit-first", "2a,b2", b"2a,b2", false),
        ("move-parentheses", "(a1, a2)", b"(a1, a2)", false),
        ("move-hyphen", "1a-1b", b"1a-1b", false),
        ("move-tab", "a1 tab a2", b"a1\ta2", false),
        ("move-carriage-return", "a1 a2 then CR", b"a1 a2\r", false),
        ("move-nul-inside", "a NUL inside", b"a1\0a2", false),
        (
            "move-high-bytes",
            "bytes above 127 around",
            b"\xc3\xa9a1 a2\xff",
            false,
        ),
        (
            "move-controls",
            "control bytes around",
            b"\x01a1\x1ba2\x7f",
            false,
        ),
        ("move-vertical-last-column", "d3 d4 on 3x3", b"d3 d4", false),
        ("move-two-apart", "a1 a3", b"a1 a3", false),
        ("move-diagonal", "a1 b2", b"a1 b2", false),
        ("move-same-dot", "a1 a1", b"a1 a1", false),
        ("move-column-ten", "a10 a2", b"a10 a2", false),
        ("move-three-dots", "a1 a2 b2", b"a1 a2 b2", false),
        ("move-column-zero", "a0 a1", b"a0 a1", false),
        ("move-row-off-grid", "e1 e2 on 3x3", b"e1 e2", false),
        ("move-two-letters", "aa11", b"aa11", false),
        ("move-word", "quit", b"quit", false),
        ("move-empty", "an empty line", b"", false),
        ("move-lower-q", "q", b"q", true),
        ("move-upper-case", "A1 A2", b"A1 A2", true),
        ("move-quit-noisy", "' Q!': only Q is left", b" Q!", false),
    ] {
        out.push(sample(h, name, summary, line, amb));
    }
    let mut spaced = big(b' ');
    spaced.extend_from_slice(b"a1 a2");
    out.push(sample(
        h,
        "move-megabyte-of-spaces-then-a-move",
        "a megabyte of spaces, then a1 a2",
        &spaced,
        false,
    ));
    out.push(sample(
        h,
        "move-megabyte-of-letters",
        "a megabyte of letters",
        &big(b'a'),
        false,
    ));
    let mut last = sample(
        h,
        "move-unterminated",
        "a last line 'a1 a2' without newline",
        b"a1 a2",
        true,
    );
    last.unterminated = true;
    out.push(last);
    out
}

/// The stdin of a sample's case: a size line is followed by `2` and a
/// quit; a move line comes after size 3 and before a quit.
pub fn stdin(s: &Sample) -> Vec<u8> {
    let mut out = Vec::new();
    if s.category == "human-input" {
        out.extend_from_slice(b"3\n");
    }
    out.extend_from_slice(&s.line);
    if !s.unterminated {
        out.push(b'\n');
        if s.category == "pre-game" {
            out.extend_from_slice(b"2\n");
        }
        out.extend_from_slice(b"Q\n");
    }
    out
}

/// Writes every sample as a case into `dir` (new or empty), with the
/// suite's `suite.yaml`; returns how many.
pub fn generate(dir: &Path) -> Result<usize, GenerateError> {
    if dir.exists()
        && fs::read_dir(dir)
            .map_err(|e| GenerateError::Io(dir.to_owned(), e))?
            .next()
            .is_some()
    {
        return Err(GenerateError::NotEmpty(dir.to_owned()));
    }
    let io = |p: &Path| {
        let p = p.to_owned();
        move |e| GenerateError::Io(p, e)
    };
    fs::create_dir_all(dir).map_err(io(dir))?;
    fs::write(dir.join("suite.yaml"), SUITE_YAML).map_err(io(dir))?;
    let all = samples();
    for s in &all {
        let folder = dir.join(s.category);
        fs::create_dir_all(&folder).map_err(io(&folder))?;
        let input = stdin(s);
        let mut stdout = Vec::new();
        let status = gridgame_reference::run(&input[..], &mut stdout).code();
        let mut case = Draft::new(
            &s.name,
            "Written by gridgame-corpus; expected outcome from the reference.",
        );
        case.text("summary", &s.summary);
        case.text("category", s.category);
        let rules: Vec<String> = match s.category {
            "pre-game" => ["PRE-2", "PRE-3", "IN-1"].map(str::to_owned).to_vec(),
            _ => ["MOVE-3", "MOVE-4", "MOVE-5", "MOVE-6", "IN-1"]
                .map(str::to_owned)
                .to_vec(),
        };
        case.list("rules", &rules);
        let mut tags = vec!["corpus".to_owned()];
        if s.ambiguous {
            tags.insert(0, AMBIGUOUS_TAG.to_owned());
        }
        case.list("tags", &tags);
        case.stream("stdin", &input);
        case.reference_in_process();
        case.number("status", status);
        case.stream("stdout", &stdout);
        case.stream("stderr", b"");
        case.write(&folder)?;
    }
    Ok(all.len())
}
