//! The exhaustive mode: every single-byte deletion, insertion and
//! substitution of a valid file over a small alphabet, each classified by
//! the reference loader itself (`gridfile::load_bytes`), never by a second
//! parser. Which rulings an outcome rests on is read off the loader's
//! verdict; ambiguity is flagged where a ruling marked (ambiguous) decides
//! it (FILE-2..5, END-2).

use std::collections::HashSet;

use boxes_reference::gridfile::{self, LoadError, LoadErrorKind};
use boxes_reference::rules::Rule;
use boxes_reference::{Grid, State};

use crate::spec::Spec;

/// The bytes inserted and substituted: the grammar's own bytes and the
/// usual strays.
pub const ALPHABET: [u8; 8] = [b'0', b'1', b'2', b',', b'\n', b'\r', b' ', b'a'];

/// The longest base file the mode accepts: about 8 × 2 × 256 ≈ 4000 files.
pub const MAX_BASE_BYTES: usize = 256;

/// The base file is too long for the exhaustive mode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "--exhaustive is for small grids: the base file for {height}x{width} with {players} players \
     is {bytes} bytes, the limit is {MAX_BASE_BYTES} (about 16 files per byte)"
)]
pub struct TooLarge {
    /// Rows of cells.
    pub height: usize,
    /// Columns of cells.
    pub width: usize,
    /// Players.
    pub players: usize,
    /// Length of the base file.
    pub bytes: usize,
}

/// One single-byte edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Edit {
    /// Remove the byte at `at`.
    Delete {
        /// 0-based byte offset.
        at: usize,
    },
    /// Insert `byte` before offset `at` (`at` = length appends).
    Insert {
        /// 0-based byte offset.
        at: usize,
        /// The new byte.
        byte: u8,
    },
    /// Replace the byte at `at` by `byte`.
    Substitute {
        /// 0-based byte offset.
        at: usize,
        /// The new byte.
        byte: u8,
    },
}

impl Edit {
    /// `deletion`, `insertion` or `substitution`.
    pub const fn kind(self) -> &'static str {
        match self {
            Self::Delete { .. } => "deletion",
            Self::Insert { .. } => "insertion",
            Self::Substitute { .. } => "substitution",
        }
    }

    /// Applies the edit to `base`.
    pub fn apply(self, base: &[u8]) -> Vec<u8> {
        let mut out = base.to_vec();
        match self {
            Self::Delete { at } => {
                if at < out.len() {
                    out.remove(at);
                }
            }
            Self::Insert { at, byte } => out.insert(at.min(out.len()), byte),
            Self::Substitute { at, byte } => {
                if let Some(slot) = out.get_mut(at) {
                    *slot = byte;
                }
            }
        }
        out
    }

    /// The file's path inside the corpus folder.
    pub fn file(self) -> String {
        match self {
            Self::Delete { at } => format!("exhaustive/deletion/{at:03}.grid"),
            Self::Insert { at, byte } => {
                format!("exhaustive/insertion/{at:03}-{}.grid", byte_word(byte))
            }
            Self::Substitute { at, byte } => {
                format!("exhaustive/substitution/{at:03}-{}.grid", byte_word(byte))
            }
        }
    }

    /// What the edit does to `base`, in words.
    pub fn describe(self, base: &[u8]) -> String {
        let at_line = |at: usize| base[..at.min(base.len())].split(|&b| b == b'\n').count();
        let old = |at: usize| base.get(at).map_or("end", |&b| byte_shown(b));
        match self {
            Self::Delete { at } => {
                format!("delete byte {at} ({}, line {})", old(at), at_line(at))
            }
            Self::Insert { at, byte } => format!(
                "insert {} before byte {at} ({}, line {})",
                byte_shown(byte),
                old(at),
                at_line(at)
            ),
            Self::Substitute { at, byte } => format!(
                "replace byte {at} ({}, line {}) by {}",
                old(at),
                at_line(at),
                byte_shown(byte)
            ),
        }
    }
}

/// A kebab-case word for a byte of the alphabet (or its hex value).
fn byte_word(b: u8) -> String {
    match b {
        b',' => "comma".into(),
        b'\n' => "lf".into(),
        b'\r' => "cr".into(),
        b' ' => "space".into(),
        b'0'..=b'9' | b'a'..=b'z' => char::from(b).to_string(),
        _ => format!("x{b:02x}"),
    }
}

fn byte_shown(b: u8) -> &'static str {
    match b {
        b'0' => "`0`",
        b'1' => "`1`",
        b'2' => "`2`",
        b',' => "a comma",
        b'\n' => "a newline",
        b'\r' => "a carriage return",
        b' ' => "a space",
        b'a' => "`a`",
        _ => "another byte",
    }
}

/// Every distinct single-byte edit of `base`, in a fixed order (all
/// deletions, then insertions, then substitutions, each by offset). Two
/// edits giving the same bytes keep only the first; none gives `base`.
pub fn edits(base: &[u8]) -> Vec<(Edit, Vec<u8>)> {
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    seen.insert(base.to_vec());
    let deletions = (0..base.len()).map(|at| Edit::Delete { at });
    let insertions = (0..=base.len()).flat_map(|at| ALPHABET.map(|byte| Edit::Insert { at, byte }));
    let substitutions = (0..base.len()).flat_map(|at| {
        ALPHABET
            .into_iter()
            .filter(move |&byte| base.get(at) != Some(&byte))
            .map(move |byte| Edit::Substitute { at, byte })
    });
    deletions
        .chain(insertions)
        .chain(substitutions)
        .filter_map(|e| {
            let bytes = e.apply(base);
            seen.insert(bytes.clone()).then_some((e, bytes))
        })
        .collect()
}

/// The loader's verdict on one mutant, in the manifest's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The file loads.
    pub control: bool,
    /// The rule IDs the outcome rests on.
    pub rules: Vec<&'static str>,
    /// Whether a ruling marked (ambiguous) decides it.
    pub ambiguous: bool,
    /// The loader's reason, or `loads`.
    pub reason: String,
}

/// Checks the size limit for `spec`'s base file.
pub fn check_size(spec: &Spec, base: &[u8]) -> Result<(), TooLarge> {
    if base.len() > MAX_BASE_BYTES {
        return Err(TooLarge {
            height: spec.height,
            width: spec.width,
            players: spec.players,
            bytes: base.len(),
        });
    }
    Ok(())
}

/// Classifies `bytes` for `spec` with the reference loader.
pub fn classify(spec: &Spec, bytes: &[u8]) -> Verdict {
    match gridfile::load_bytes(bytes, spec.height, spec.width, spec.players) {
        Ok(state) => accepted(&state, bytes),
        Err(e) => rejected(e, bytes, spec.width),
    }
}

fn accepted(state: &State, bytes: &[u8]) -> Verdict {
    let mut rules = vec!["FILE-1"];
    let mut ambiguous = false;
    let canonical = gridfile::to_bytes(state);
    if bytes != canonical.as_slice() {
        ambiguous = true;
        if bytes.last() != Some(&b'\n') {
            rules.push("FILE-5");
        }
        // Anything else the reference accepted but would not write itself
        // can only be a leading zero.
        let mut without_end = bytes.to_vec();
        if without_end.last() != Some(&b'\n') {
            without_end.push(b'\n');
        }
        if without_end != canonical {
            rules.extend(["FILE-2", "FILE-3"]);
        }
    }
    if closed_unowned(&state.grid) {
        ambiguous = true;
        rules.push("FILE-4");
    }
    if state.grid.open_edges() == 0 {
        ambiguous = true;
        rules.extend(["END-2", "END-1", "FILE-7", "DISP-1"]);
    } else {
        rules.extend(["FILE-7", "DISP-1", "TURN-1", "EOF-1"]);
    }
    Verdict {
        control: true,
        rules,
        ambiguous,
        reason: "loads".into(),
    }
}

fn closed_unowned(grid: &Grid) -> bool {
    (0..grid.height()).any(|row| {
        (0..grid.width()).any(|col| {
            let cell = boxes_reference::grid::Cell { row, col };
            grid.is_cell_closed(cell) && grid.owner(cell).is_none()
        })
    })
}

fn rejected(e: LoadError, bytes: &[u8], width: usize) -> Verdict {
    let line_text = bytes
        .split(|&b| b == b'\n')
        .nth(e.line.saturating_sub(1))
        .unwrap_or_default();
    let mut rules: Vec<&'static str> = e
        .kind
        .rules()
        .into_iter()
        .map(Rule::id)
        .filter(|&r| r != "FILE-6")
        .collect();
    let ambiguous = match e.kind {
        LoadErrorKind::TooManyFields => {
            // `0,0,`: a trailing comma, rejected under an ambiguous FILE-3
            // ruling.
            let fields = line_text.split(|&b| b == b',').count();
            let trailing = line_text.last() == Some(&b',') && fields == width + 1;
            if trailing {
                rules.push("FILE-3");
            }
            trailing
        }
        LoadErrorKind::EmptyField
        | LoadErrorKind::OwnerOnOpenCell { .. }
        | LoadErrorKind::ExtraLine => true,
        _ => false,
    };
    rules.extend(["FILE-6", "ARGS-7"]);
    Verdict {
        control: false,
        rules,
        ambiguous,
        reason: format!("rejected, {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &[u8] = b"1\n10\n110\n10\n000\n00\n1,0\n0,0\n";

    fn spec() -> Spec {
        Spec::new(2, 2, 2, 0).expect("valid")
    }

    #[test]
    fn edits_are_distinct_and_cover_every_kind() {
        let all = edits(BASE);
        let n = BASE.len();
        // Upper bound before removing duplicates.
        assert!(all.len() <= n + (n + 1) * 8 + n * 7);
        let distinct: HashSet<&Vec<u8>> = all.iter().map(|(_, b)| b).collect();
        assert_eq!(distinct.len(), all.len());
        assert!(all.iter().all(|(_, b)| b != BASE));
        for kind in ["deletion", "insertion", "substitution"] {
            assert!(all.iter().any(|(e, _)| e.kind() == kind));
        }
        // Every deletion is distinct except runs of equal bytes.
        let deletions = all.iter().filter(|(e, _)| e.kind() == "deletion").count();
        assert!(deletions < n && deletions > n / 2);
    }

    #[test]
    fn edit_apply_and_names() {
        assert_eq!(Edit::Delete { at: 0 }.apply(b"abc"), b"bc");
        assert_eq!(Edit::Insert { at: 3, byte: b'\n' }.apply(b"abc"), b"abc\n");
        assert_eq!(Edit::Substitute { at: 1, byte: b',' }.apply(b"abc"), b"a,c");
        assert_eq!(
            Edit::Insert { at: 7, byte: b'\r' }.file(),
            "exhaustive/insertion/007-cr.grid"
        );
        assert_eq!(
            Edit::Substitute { at: 2, byte: b'a' }.describe(BASE),
            "replace byte 2 (`1`, line 2) by `a`"
        );
    }

    #[test]
    fn verdicts_for_known_mutants() {
        let s = spec();
        let v = |b: &[u8]| classify(&s, b);
        let base = v(BASE);
        assert!(base.control && !base.ambiguous);
        // No final newline: loads, under FILE-5 (ambiguous).
        let nl = v(&BASE[..BASE.len() - 1]);
        assert!(nl.control && nl.ambiguous && nl.rules.contains(&"FILE-5"));
        // A leading zero on the next player.
        let lz = v(&[b"0", BASE].concat());
        assert!(lz.control && lz.ambiguous && lz.rules.contains(&"FILE-2"));
        // Opening an edge of the owned cell: FILE-4, ambiguous.
        let open = v(b"1\n00\n110\n10\n000\n00\n1,0\n0,0\n");
        assert!(!open.control && open.ambiguous && open.rules.contains(&"FILE-4"));
        // A blank line after the grid.
        let extra = v(&[BASE, b"\n"].concat());
        assert!(!extra.control && extra.ambiguous);
        // A trailing comma.
        let comma = v(b"1\n10\n110\n10\n000\n00\n1,0,\n0,0\n");
        assert!(!comma.control && comma.ambiguous && comma.rules.contains(&"FILE-3"));
        // An extra field is not a trailing comma.
        let field = v(b"1\n10\n110\n10\n000\n00\n1,0,0\n0,0\n");
        assert!(!field.control && !field.ambiguous);
        // A 2 in an edge row: plain FILE-1.
        let two = v(b"1\n12\n110\n10\n000\n00\n1,0\n0,0\n");
        assert!(!two.control && !two.ambiguous && two.rules[0] == "FILE-1");
        // Closing a cell that has no owner: FILE-4 (ambiguous) control.
        let closed = v(b"1\n11\n111\n11\n000\n00\n1,0\n0,0\n");
        assert!(closed.control && closed.ambiguous && closed.rules.contains(&"FILE-4"));
    }

    #[test]
    fn size_limit() {
        let s = spec();
        assert!(check_size(&s, BASE).is_ok());
        let big = vec![b'0'; MAX_BASE_BYTES + 1];
        let e = check_size(&s, &big).expect_err("too large");
        assert!(e.to_string().contains("--exhaustive is for small grids"));
    }
}
