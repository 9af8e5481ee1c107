//! Everything the harness tells people: failure reports with unified diffs
//! whose whitespace is made visible, the command that reproduces a case by
//! hand, the run's header, the `--score` table, the `--coverage` table and
//! the `--junit` file.

use std::fmt::{self, Write as _};
use std::time::Duration;

use similar::{Algorithm, DiffTag};

use crate::compare::Mismatch;
use crate::run::{Ending, Invocation, Mode, REFERENCE_ENV};
use crate::schema::{Rules, Suite};

/// Lines of diff shown per stream before the rest is summarized.
const MAX_DIFF_LINES: usize = 80;

/// Longest stdin (bytes) written into a reproduce command inline.
const MAX_INLINE_STDIN: usize = 4096;

/// The legend of the visible-whitespace marks.
pub const LEGEND: &str = "`·` trailing space, `→` tab, `␍` carriage return, `␀` NUL, \
                          `\\xNN` other byte, `⊘` no newline at end";

/// Terminal colours, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// Whether to emit ANSI colours.
    pub colour: bool,
}

impl Style {
    fn paint(self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
}

/// Whether colour is wanted on stdout: a terminal, and no `NO_COLOR`.
pub fn colour_wanted() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

/// One line of output made readable: the bytes that are easy to miss or
/// cannot be shown get a visible mark (see [`LEGEND`]).
pub fn visible_line(line: &[u8]) -> String {
    let (body, newline) = match line.strip_suffix(b"\n") {
        Some(body) => (body, true),
        None => (line, false),
    };
    let trailing = body.iter().rev().take_while(|&&b| b == b' ').count();
    let (main, spaces) = body.split_at(body.len() - trailing);
    let mut out = String::new();
    for chunk in main.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\t' => out.push('→'),
                '\r' => out.push('␍'),
                '\0' => out.push('␀'),
                c if c.is_control() => {
                    let _ = write!(out, "\\x{:02x}", u32::from(c));
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out.extend(std::iter::repeat_n('·', spaces.len()));
    if !newline {
        out.push('⊘');
    }
    out
}

fn split_lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes.split_inclusive(|&b| b == b'\n').collect()
}

/// Where two byte strings first differ: (line, column, byte offset), 1-based
/// line and column.
fn first_difference(a: &[u8], b: &[u8]) -> (usize, usize, usize) {
    let at = locate(a, b);
    (at.line, at.column, at.byte)
}

/// Where two byte strings first differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (bytes).
    pub column: usize,
    /// 0-based offset.
    pub byte: usize,
}

/// Locates the first byte where `a` and `b` differ (the end of the shorter
/// when one is a prefix of the other); lines end at `\n` only.
pub fn locate(a: &[u8], b: &[u8]) -> Location {
    let at = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let before = &a[..at];
    let line = before.split(|&c| c == b'\n').count();
    let column = at
        - before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    Location {
        line,
        column,
        byte: at,
    }
}

/// The bytes from `offset` to the end of their line (its `\n` included).
pub fn rest_of_line(bytes: &[u8], offset: usize) -> &[u8] {
    let rest = bytes.get(offset..).unwrap_or_default();
    let end = rest
        .iter()
        .position(|&b| b == b'\n')
        .map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

/// Bytes as one line of JSON-friendly text: printable ASCII as is, `\n`,
/// `\r`, `\t`, `\\` and `\xNN` escaped; the one escaping scheme of
/// machine output.
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'\\' => out.push_str("\\\\"),
            0x20..0x7f => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
    out
}

/// A unified diff of two byte strings, line by line, expected `-`, actual `+`.
pub fn unified_diff(expected: &[u8], actual: &[u8], style: Style) -> String {
    let old = split_lines(expected);
    let new = split_lines(actual);
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    let ops = similar::capture_diff_slices_deadline(Algorithm::Myers, &old, &new, Some(deadline));
    let mut out = String::new();
    let mut shown = 0;
    let mut hidden = 0;
    for group in similar::group_diff_ops(ops, 2) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let (_, o1, n1) = first.as_tag_tuple();
        let (_, o2, n2) = last.as_tag_tuple();
        if shown < MAX_DIFF_LINES {
            let _ = writeln!(
                out,
                "{}",
                style.paint(
                    "36",
                    &format!(
                        "@@ -{},{} +{},{} @@",
                        o1.start + 1,
                        o2.end - o1.start,
                        n1.start + 1,
                        n2.end - n1.start
                    )
                )
            );
        }
        for op in &group {
            let (tag, o, n) = op.as_tag_tuple();
            let lines: Vec<(char, &[u8])> = match tag {
                DiffTag::Equal => o.map(|i| (' ', old[i])).collect(),
                DiffTag::Delete => o.map(|i| ('-', old[i])).collect(),
                DiffTag::Insert => n.map(|i| ('+', new[i])).collect(),
                DiffTag::Replace => o
                    .map(|i| ('-', old[i]))
                    .chain(n.map(|i| ('+', new[i])))
                    .collect(),
            };
            for (sign, line) in lines {
                if shown >= MAX_DIFF_LINES {
                    hidden += usize::from(sign != ' ');
                    continue;
                }
                shown += 1;
                let text = format!("{sign}{}", visible_line(line));
                let painted = match sign {
                    '-' => style.paint("31", &text),
                    '+' => style.paint("32", &text),
                    _ => text,
                };
                let _ = writeln!(out, "{painted}");
            }
        }
    }
    if hidden > 0 {
        let _ = writeln!(out, "… {hidden} more differing lines not shown");
    }
    out
}

/// Describes what a case expected and what happened, for its failure.
pub fn mismatches(list: &[Mismatch], style: Style) -> String {
    let mut out = String::new();
    for m in list {
        match m {
            Mismatch::Ending { expected, actual } => {
                let _ = writeln!(
                    out,
                    "{} expected {expected}, got {actual}",
                    style.paint("1", "ending:")
                );
            }
            Mismatch::LeftProcess { killed } => {
                let what = if killed.is_empty() {
                    "; the harness killed the program's process group (a process that left \
                     the group, with setsid, is beyond its reach)"
                        .to_owned()
                } else {
                    format!(
                        ": {}; killed with the sandbox when the case ended",
                        killed.join(", ")
                    )
                };
                let _ = writeln!(
                    out,
                    "{} the program exited but left a process running that kept its output \
                     open{what}",
                    style.paint("1", "left a process:")
                );
            }
            Mismatch::Stream {
                stream,
                expected,
                actual,
            } => {
                let (line, col, byte) = first_difference(expected, actual);
                let _ = writeln!(
                    out,
                    "{} differs (- expected {} bytes, + actual {} bytes; first difference at \
                     line {line}, column {col}, byte {byte}; {LEGEND}):",
                    style.paint("1", stream.name()),
                    expected.len(),
                    actual.len()
                );
                if expected.is_empty() {
                    let _ = writeln!(out, "(expected nothing on {})", stream.name());
                }
                if actual.is_empty() {
                    let _ = writeln!(out, "(got nothing on {})", stream.name());
                }
                out.push_str(&unified_diff(expected, actual, style));
            }
            Mismatch::FileMissing { path } => {
                let _ = writeln!(
                    out,
                    "{} `{path}` should exist after the run but does not",
                    style.paint("1", "file:")
                );
            }
            Mismatch::FileDiffers {
                path,
                expected,
                actual,
            } => {
                let _ = writeln!(
                    out,
                    "{} `{path}` differs (- expected, + actual; {LEGEND}):",
                    style.paint("1", "file:")
                );
                out.push_str(&unified_diff(expected, actual, style));
            }
            Mismatch::FileUnexpected { path } => {
                let _ = writeln!(
                    out,
                    "{} `{path}` should not exist after the run but does",
                    style.paint("1", "file:")
                );
            }
        }
    }
    out
}

/// A word safe to paste into a POSIX shell.
pub fn shell_quote(text: &str) -> String {
    let safe = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_./:=,+-@%".contains(&b));
    if safe {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// A word safe to paste into a shell for any bytes: [`shell_quote`] for
/// UTF-8, else bash's `$'…'` with `\xNN` escapes, so that a path that is
/// not UTF-8 pastes as itself rather than with U+FFFD in it.
pub fn shell_quote_os(word: &std::ffi::OsStr) -> String {
    use std::os::unix::ffi::OsStrExt as _;
    if let Some(text) = word.to_str() {
        return shell_quote(text);
    }
    let mut out = String::from("$'");
    for &b in word.as_bytes() {
        match b {
            b'\\' | b'\'' => {
                out.push('\\');
                out.push(char::from(b));
            }
            0x20..=0x7e => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
    out.push('\'');
    out
}

/// A `printf` format string that prints exactly `bytes`.
fn printf_format(bytes: &[u8]) -> String {
    let mut out = String::from("'");
    for &b in bytes {
        match b {
            b'\'' => out.push_str(r"'\''"),
            b'\\' => out.push_str(r"\\"),
            b'%' => out.push_str("%%"),
            b'\n' => out.push_str(r"\n"),
            0x20..=0x7e => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('\'');
    out
}

/// A shell command line that reproduces an invocation by hand, in a fresh
/// temporary directory with the same environment. `stdin_path` is used
/// instead of inline bytes for a long stdin kept in a file.
pub fn reproduce_command(inv: &Invocation, stdin_path: Option<&str>) -> String {
    let mut cmd = String::from("(cd \"$(mktemp -d)\"");
    for (path, bytes) in &inv.files {
        if let Some(dir) = std::path::Path::new(path).parent()
            && !dir.as_os_str().is_empty()
        {
            let _ = write!(cmd, " && mkdir -p {}", shell_quote(&dir.to_string_lossy()));
        }
        let _ = write!(
            cmd,
            " && printf {} > {}",
            printf_format(bytes),
            shell_quote(path)
        );
    }
    cmd.push_str(" && ");
    let feed = match (inv.mode, stdin_path) {
        (Mode::Interactive, _) => None,
        (_, Some(p)) if inv.stdin.len() > MAX_INLINE_STDIN => Some(format!("< {}", shell_quote(p))),
        _ if inv.stdin.is_empty() => Some("< /dev/null".to_owned()),
        _ => {
            let _ = write!(cmd, "printf {} | ", printf_format(&inv.stdin));
            None
        }
    };
    cmd.push_str("env -i PATH=/usr/bin:/bin LC_ALL=C HOME=\"$PWD\"");
    if inv.target.is_reference() {
        let _ = write!(cmd, " {REFERENCE_ENV}=1");
    }
    for (k, v) in &inv.env {
        let _ = write!(
            cmd,
            " {}",
            shell_quote(&format!("{}={}", k.to_string_lossy(), v.to_string_lossy()))
        );
    }
    let _ = write!(cmd, " {}", shell_quote_os(inv.target.path().as_os_str()));
    for a in &inv.args {
        let _ = write!(cmd, " {}", shell_quote_os(a));
    }
    if let Some(feed) = feed {
        let _ = write!(cmd, " {feed}");
    }
    if inv.mode == Mode::StdoutFull {
        cmd.push_str(" > /dev/full");
    }
    cmd.push_str("; echo \"exit status $?\")");
    if inv.mode == Mode::Interactive {
        cmd.push_str(
            "\n  (interactive: run it in a terminal and type each stdin line at its prompt)",
        );
    }
    cmd
}

/// The failure report of one case.
pub struct Failure<'a> {
    /// What differs.
    pub mismatches: &'a [Mismatch],
    /// The case's hint.
    pub hint: Option<&'a str>,
    /// The case's summary.
    pub summary: &'a str,
    /// The case's rules.
    pub rules: &'a [String],
    /// The reproduce command.
    pub reproduce: String,
    /// The command that re-blesses the case from the reference.
    pub rebless: String,
    /// What the re-bless command is, as a heading.
    pub rebless_label: &'a str,
}

impl Failure<'_> {
    /// Renders the report.
    pub fn render(&self, style: Style) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} {} [{}]",
            style.paint("1", "case:"),
            self.summary,
            self.rules.join(", ")
        );
        out.push_str(&mismatches(self.mismatches, style));
        if let Some(hint) = self.hint {
            let _ = writeln!(out, "{} {hint}", style.paint("33;1", "hint:"));
        }
        let _ = writeln!(
            out,
            "{}\n  {}",
            style.paint("1", "reproduce:"),
            self.reproduce
        );
        let _ = writeln!(
            out,
            "{}\n  {}",
            style.paint("1", self.rebless_label),
            self.rebless
        );
        out
    }
}

/// The verdict of one case: what every reporter renders from.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The program did what the case expects.
    Passed,
    /// The program departed from the case.
    Failed(CaseFailure),
    /// The harness or the suite could not run the case (an invalid case
    /// file or suite, an unreadable sidecar, a sandbox that cannot start):
    /// never counted against the program.
    Error(String),
}

/// How a case failed.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseFailure {
    /// Every difference.
    pub mismatches: Vec<Mismatch>,
    /// The report for people (diffs, reproduce and re-bless commands).
    pub report: String,
}

impl fmt::Display for Verdict {
    /// One line: `passed`, the first difference, or the error.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Passed => write!(f, "passed"),
            Self::Failed(failure) => match failure.mismatches.first() {
                Some(m) => write!(f, "{m}"),
                None => write!(f, "failed"),
            },
            Self::Error(e) => write!(f, "error: {}", e.lines().next().unwrap_or("")),
        }
    }
}

/// One case's result.
#[derive(Debug, Clone)]
pub struct CaseResult {
    /// The case's name.
    pub name: String,
    /// Its category, when its file parsed.
    pub category: Option<String>,
    /// The rule IDs it cites.
    pub rules: Vec<String>,
    /// Its tags.
    pub tags: Vec<String>,
    /// Whether it is tagged ambiguous.
    pub ambiguous: bool,
    /// The exit status it expects, when known.
    pub expected_status: Option<i32>,
    /// How the program ended, when it ran.
    pub actual: Option<Ending>,
    /// Its verdict.
    pub verdict: Verdict,
    /// Wall time.
    pub time: Duration,
}

/// One row of the score (also a row of the `--results` document).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoreRow {
    /// Category name, or `ambiguous`.
    pub name: String,
    /// Cases passed.
    pub passed: usize,
    /// Cases judged (errors excluded).
    pub total: usize,
    /// Cases that could not be judged.
    pub errors: usize,
    /// Marks the category is worth (`None` for the ambiguous row).
    pub marks: Option<f64>,
    /// Marks earned, pro rata.
    pub earned: Option<f64>,
}

/// Scores results by the suite's categories. Ambiguous cases get their own
/// row and no marks, unless `strict`, where they count in their category.
pub fn score(suite: &Suite, results: &[CaseResult], strict: bool) -> Vec<ScoreRow> {
    let mut rows: Vec<ScoreRow> = suite
        .categories
        .iter()
        .map(|c| ScoreRow {
            name: c.name.clone(),
            passed: 0,
            total: 0,
            errors: 0,
            marks: Some(c.marks),
            earned: None,
        })
        .collect();
    let mut ambiguous = ScoreRow {
        name: "ambiguous".to_owned(),
        passed: 0,
        total: 0,
        errors: 0,
        marks: None,
        earned: None,
    };
    for r in results {
        let passed = usize::from(r.verdict == Verdict::Passed);
        let row = if r.ambiguous && !strict {
            Some(&mut ambiguous)
        } else {
            r.category
                .as_ref()
                .and_then(|c| rows.iter_mut().find(|row| &row.name == c))
        };
        if let Some(row) = row {
            if matches!(r.verdict, Verdict::Error(_)) {
                row.errors += 1;
            } else {
                row.passed += passed;
                row.total += 1;
            }
        }
    }
    for row in &mut rows {
        if row.total > 0 {
            let ratio = as_f64(row.passed) / as_f64(row.total);
            row.earned = row.marks.map(|m| m * ratio);
        }
    }
    rows.push(ambiguous);
    rows
}

fn as_f64(n: usize) -> f64 {
    f64::from(u32::try_from(n).unwrap_or(u32::MAX))
}

/// The `--score` table.
pub fn score_table(suite: &Suite, rows: &[ScoreRow], strict: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\nscore ({}):", suite.name);
    let _ = writeln!(out, "  {:<18} {:>7} {:>14}", "category", "passed", "marks");
    let mut earned = 0.0;
    let mut possible = 0.0;
    let mut partial = false;
    for row in rows {
        let ratio = format!("{}/{}", row.passed, row.total);
        let marks = match (row.marks, row.earned) {
            (Some(m), Some(e)) => {
                earned += e;
                possible += m;
                format!("{e:.2} / {m}")
            }
            (Some(m), None) => {
                partial = true;
                format!("not run / {m}")
            }
            (None, _) if strict => "counted above".to_owned(),
            (None, _) => "not counted".to_owned(),
        };
        let errors = if row.errors > 0 {
            format!("  ({} could not be run)", row.errors)
        } else {
            String::new()
        };
        let _ = writeln!(out, "  {:<18} {:>7} {:>14}{errors}", row.name, ratio, marks);
    }
    let total: f64 = suite.categories.iter().map(|c| c.marks).sum();
    let _ = writeln!(
        out,
        "  estimated mark: {earned:.2} / {total}{}",
        if partial {
            format!(" (only {possible} marks' worth of categories ran)")
        } else {
            String::new()
        }
    );
    if !strict {
        let _ = writeln!(
            out,
            "  ambiguous cases never cost marks; --strict runs them and counts them in \
             their categories"
        );
    }
    out
}

/// The `--coverage` table: each rule with the number of cases citing it.
pub fn coverage_table(rules: &Rules, counts: &std::collections::BTreeMap<String, usize>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<8} {:>5}  {:<9} summary",
        "rule", "cases", "ambiguous"
    );
    let mut uncovered = 0;
    for rule in &rules.rules {
        let n = counts.get(&rule.id).copied().unwrap_or(0);
        uncovered += usize::from(n == 0);
        let _ = writeln!(
            out,
            "{:<8} {:>5}  {:<9} {}",
            rule.id, n, rule.ambiguous, rule.summary
        );
    }
    let unknown: Vec<&String> = counts
        .keys()
        .filter(|id| !rules.rules.iter().any(|r| &r.id == *id))
        .collect();
    let _ = writeln!(
        out,
        "{} rules, {uncovered} without a case",
        rules.rules.len()
    );
    if !unknown.is_empty() {
        let _ = writeln!(
            out,
            "cited by cases but not in rules.yaml: {}",
            unknown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    out
}

/// The JUnit XML of a run: one test suite per category.
pub fn junit(program: &str, results: &[CaseResult]) -> String {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new(program);
    let mut suites: std::collections::BTreeMap<String, TestSuite> =
        std::collections::BTreeMap::new();
    for r in results {
        let category = r.category.clone().unwrap_or_else(|| "invalid".to_owned());
        let status = match &r.verdict {
            Verdict::Passed => TestCaseStatus::success(),
            Verdict::Failed(failure) => {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                s.set_message(r.verdict.to_string());
                s.set_description(failure.report.as_str());
                s
            }
            Verdict::Error(text) => {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
                s.set_message(r.verdict.to_string());
                s.set_description(text.as_str());
                s
            }
        };
        let mut case = TestCase::new(r.name.as_str(), status);
        case.set_classname(category.as_str());
        case.set_time(r.time);
        suites
            .entry(category.clone())
            .or_insert_with(|| TestSuite::new(category.as_str()))
            .add_test_case(case);
    }
    report.add_test_suites(suites.into_values());
    report.to_string().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_visible() {
        assert_eq!(visible_line(b"+-+ \n"), "+-+·");
        assert_eq!(visible_line(b"a\tb\r\n"), "a→b␍");
        assert_eq!(visible_line(b"A> "), "A>·⊘");
        assert_eq!(visible_line(b"\xff\x01x\n"), "\\xff\\x01x");
    }

    #[test]
    fn diff_shows_missing_trailing_space() {
        let d = unified_diff(b"+ +\n| |\n", b"+ +\n| |\n", Style { colour: false });
        assert!(d.is_empty());
        let d = unified_diff(b"+-+ \nA> ", b"+-+\nA> ", Style { colour: false });
        assert!(d.contains("-+-+·\n"), "{d}");
        assert!(d.contains("++-+\n"), "{d}");
    }

    #[test]
    fn first_difference_is_located() {
        assert_eq!(first_difference(b"ab\ncd", b"ab\ncx"), (2, 2, 4));
    }

    #[test]
    fn printf_escapes() {
        assert_eq!(printf_format(b"a'%\\\n\0"), r"'a'\''%%\\\n\000'");
        assert_eq!(shell_quote("2"), "2");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(
            shell_quote_os(std::os::unix::ffi::OsStrExt::from_bytes(b"/t/b\xffn'x")),
            "$'/t/b\\xffn\\'x'"
        );
        assert_eq!(shell_quote_os(std::ffi::OsStr::new("a b")), "'a b'");
    }
}
