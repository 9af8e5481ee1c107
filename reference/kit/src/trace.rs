//! Provenance: which rule a reference program is obeying as it writes each
//! span of its stdout, so that a report can say where a program's first
//! difference falls ("in the grid drawn after loading the file") instead of
//! quoting bytes.
//!
//! The program calls [`enter`] before it writes a span of output and its
//! writer calls [`wrote`] with each write's length. Both are no-ops unless
//! tracing is on: a process started with [`ENV`] naming a file records
//! the spans and writes them there at exit ([`run_traced`]); a test or an
//! in-process caller uses [`record`]. The record is a text file, one span
//! a line: `START END RULES\tWHAT` (byte offsets of stdout, the rule IDs
//! comma-separated), read back with [`parse`].
//!
//! A reference also records *why* it rejects an input line or stops with
//! an error ([`rejected`], [`stopped`]): a [`Ruling`] names the rule, a
//! reason kind from the pack's closed set ([`Reason`], an enum in the
//! pack, never bytes) and a sentence with the case's values, at the stdout
//! offset where it happened. A record line `! rejected|stopped AT RULE KIND
//! LINE-HEX EXIT-RULE\tSAYS\tDETAIL`, read back with [`parse_rulings`]; [`parse`]
//! skips those lines, so an older reader is unharmed.
//!
//! What a reference writes besides stdout (a file it saves, a message on
//! stderr) it records as an [`Aside`] in the context it obeys
//! ([`wrote_aside`], the `aside` module).
//!
//! One piece: the trace's writing side (`enter`, `wrote`, the rulings)
//! and its reading side (`render`, `parse`, `parse_rulings`) are one
//! text format, written and read here so that they cannot disagree;
//! about 90 lines are tests.

mod aside;
#[cfg(test)]
mod aside_tests;

use aside::unhex;
pub use aside::{ASIDE_KEPT, Aside, Channel, parse_asides};

use std::cell::RefCell;
use std::fmt::Write as _;
use std::io::{self, Write};

/// The environment variable naming the file a traced process writes its
/// spans to (relative to its working directory).
pub const ENV: &str = "CONFORMANCE_PROVENANCE";

/// What the program is doing while it writes: the rules it obeys and a
/// few words for a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Context {
    /// Rule IDs, comma-separated, no spaces (`DISP-1,DISP-3`).
    pub rules: &'static str,
    /// What the span is (`the grid after a valid move`).
    pub what: &'static str,
}

impl Context {
    /// A context.
    pub const fn new(rules: &'static str, what: &'static str) -> Self {
        Self { rules, what }
    }
}

/// A span of stdout and the context it was written in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// First byte.
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
    /// Rule IDs.
    pub rules: Vec<String>,
    /// What the span is.
    pub what: String,
}

/// What a reason is: its rule, its kind's token and its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Told {
    /// The rule that decides it (`TURN-3`, `FILE-2`).
    pub rule: &'static str,
    /// A stable token for the kind (`h-row`).
    pub kind: &'static str,
    /// The kind in a few words, without any case's values (`a horizontal
    /// edge's row past H`).
    pub says: &'static str,
}

impl Told {
    /// A reason's rule, kind and words.
    pub const fn new(rule: &'static str, kind: &'static str, says: &'static str) -> Self {
        Self { rule, kind, says }
    }
}

/// One reason of a pack's closed set: why its reference rejects a line
/// or stops. Implemented by an enum in the pack, whose one table
/// ([`Reason::told`]) names each variant's rule, kind and words; the
/// engine keys causes by the rule and the kind, so two failures share a
/// cause exactly when the reference refused their inputs for the same
/// reason.
pub trait Reason: Copy {
    /// The reason's rule, kind and words.
    fn told(self) -> Told;

    /// The rule that decides it.
    fn rule(self) -> &'static str {
        self.told().rule
    }

    /// The kind's token.
    fn kind(self) -> &'static str {
        self.told().kind
    }

    /// The kind in words.
    fn says(self) -> &'static str {
        self.told().says
    }
}

/// Whether the reference refused one input line and went on, or stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// An input line was rejected; the program goes on (a prompt again).
    Rejected,
    /// The program stops with an error status and message.
    Stopped,
    /// The program accepted input whose acceptance a program may well get
    /// wrong (a value the rulings leave unbounded): a program that stops
    /// there refuses what the reference accepts.
    Accepted,
}

impl Verdict {
    const fn word(self) -> &'static str {
        match self {
            Self::Rejected => "rejected",
            Self::Stopped => "stopped",
            Self::Accepted => "accepted",
        }
    }
}

/// Why the reference rejected a line or stopped, where in its stdout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ruling {
    /// Rejected or stopped.
    pub verdict: Verdict,
    /// The stdout offset when it happened: what follows is the answer to
    /// it (the prompt again, or nothing).
    pub at: u64,
    /// The rule ([`Reason::rule`]).
    pub rule: String,
    /// The reason kind ([`Reason::kind`]).
    pub kind: String,
    /// The kind in words ([`Reason::says`]).
    pub says: String,
    /// A sentence with the case's values (`TURN-3 rejects it (row 3 is
    /// outside a 2-row grid; horizontal edges have rows 0..H)`).
    pub detail: String,
    /// The input line rejected (empty for a stop), at most [`LINE_KEPT`]
    /// bytes.
    pub line: Vec<u8>,
    /// For a stop, the rule of its message and status (`FILE-6`); empty
    /// for a rejection.
    pub exit_rule: String,
}

/// Bytes of a rejected line a record keeps.
pub const LINE_KEPT: usize = 120;

/// Everything a traced run records.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    /// The spans of stdout, in order.
    pub spans: Vec<Span>,
    /// The rejections and the stop, in order.
    pub rulings: Vec<Ruling>,
    /// What it wrote besides stdout, in order.
    pub asides: Vec<Aside>,
}

struct Trace {
    current: Option<Context>,
    at: u64,
    spans: Vec<(u64, u64, Context)>,
    rulings: Vec<Ruling>,
    asides: Vec<Aside>,
}

thread_local! {
    static TRACE: RefCell<Option<Trace>> = const { RefCell::new(None) };
}

/// Whether tracing is on: a context that costs work to name is worth
/// naming only then.
pub fn active() -> bool {
    TRACE.with(|t| t.try_borrow().is_ok_and(|t| t.is_some()))
}

/// From now on, output is written in `context`.
pub fn enter(context: Context) {
    TRACE.with(|t| {
        if let Ok(mut t) = t.try_borrow_mut()
            && let Some(t) = t.as_mut()
        {
            t.current = Some(context);
        }
    });
}

/// The reference rejected input `line` for `reason`; `detail` names the
/// case's values (called only while tracing).
pub fn rejected<R: Reason>(reason: R, line: &[u8], detail: impl FnOnce() -> String) {
    note(Verdict::Rejected, reason, line, "", detail);
}

/// The reference stops for `reason` with the message and status of
/// `exit_rule`; `detail` names the case's values and how it stops (called
/// only while tracing).
pub fn stopped<R: Reason>(reason: R, exit_rule: &str, detail: impl FnOnce() -> String) {
    note(Verdict::Stopped, reason, b"", exit_rule, detail);
}

/// The reference accepted input for `reason` (a rule that leaves a value
/// unbounded, say) where a program may refuse it; `detail` names the
/// case's values (called only while tracing).
pub fn accepted<R: Reason>(reason: R, detail: impl FnOnce() -> String) {
    note(Verdict::Accepted, reason, b"", "", detail);
}

fn note<R: Reason>(
    verdict: Verdict,
    reason: R,
    line: &[u8],
    exit_rule: &str,
    detail: impl FnOnce() -> String,
) {
    if !active() {
        return;
    }
    let detail = detail();
    TRACE.with(|t| {
        if let Ok(mut t) = t.try_borrow_mut()
            && let Some(t) = t.as_mut()
        {
            let ruling = Ruling {
                verdict,
                at: t.at,
                rule: reason.rule().to_owned(),
                kind: reason.kind().to_owned(),
                says: reason.says().to_owned(),
                detail,
                line: line[..line.len().min(LINE_KEPT)].to_vec(),
                exit_rule: exit_rule.to_owned(),
            };
            t.rulings.push(ruling);
        }
    });
}

/// The reference wrote `bytes` to `channel` (a file's path, or a message
/// on stderr) in `context`: a program that does not is blamed on its
/// rules. A path or message longer than [`ASIDE_KEPT`] is not recorded.
pub fn wrote_aside(channel: Channel, bytes: &[u8], context: Context) {
    if !active() || bytes.len() > ASIDE_KEPT {
        return;
    }
    TRACE.with(|t| {
        if let Ok(mut t) = t.try_borrow_mut()
            && let Some(t) = t.as_mut()
        {
            let aside = Aside {
                channel,
                at: t.at,
                bytes: bytes.to_vec(),
                rules: context.rules.split(',').map(str::to_owned).collect(),
                what: context.what.to_owned(),
            };
            t.asides.push(aside);
        }
    });
}

/// `n` bytes of stdout were written, in the current context.
pub fn wrote(n: usize) {
    TRACE.with(|t| {
        let Ok(mut t) = t.try_borrow_mut() else {
            return;
        };
        let Some(t) = t.as_mut() else { return };
        let n = u64::try_from(n).unwrap_or(u64::MAX);
        let (start, end) = (t.at, t.at.saturating_add(n));
        t.at = end;
        let Some(context) = t.current else { return };
        match t.spans.last_mut() {
            Some(last) if last.1 == start && last.2 == context => last.1 = end,
            _ => t.spans.push((start, end, context)),
        }
    });
}

/// Runs `f` with tracing on and returns its result with the record.
pub fn record<T>(f: impl FnOnce() -> T) -> (T, Record) {
    TRACE.with(|t| {
        if let Ok(mut t) = t.try_borrow_mut() {
            *t = Some(Trace {
                current: None,
                at: 0,
                spans: Vec::new(),
                rulings: Vec::new(),
                asides: Vec::new(),
            });
        }
    });
    let value = f();
    let trace = TRACE.with(|t| t.try_borrow_mut().ok().and_then(|mut t| t.take()));
    let record = trace.map_or_else(Record::default, |t| Record {
        spans: t
            .spans
            .into_iter()
            .map(|(start, end, c)| Span {
                start,
                end,
                rules: c.rules.split(',').map(str::to_owned).collect(),
                what: c.what.to_owned(),
            })
            .collect(),
        rulings: t.rulings,
        asides: t.asides,
    });
    (value, record)
}

/// Runs `f`, traced when [`ENV`] names a file: the spans go there when `f`
/// returns (a failure to write them is not the program's: it is ignored,
/// and the caller finds no record).
pub fn run_traced<T>(f: impl FnOnce() -> T) -> T {
    let Some(path) = std::env::var_os(ENV).filter(|p| !p.is_empty()) else {
        return f();
    };
    let (value, record) = record(f);
    let _ = std::fs::write(path, render(&record));
    value
}

/// The text of `record`, as [`parse`] and [`parse_rulings`] read it.
pub fn render(record: &Record) -> String {
    let mut text = String::new();
    let one_line = |s: &str| s.replace(['\n', '\t'], " ");
    for r in &record.rulings {
        let mut hex = String::with_capacity(r.line.len() * 2 + 1);
        for b in &r.line {
            let _ = write!(hex, "{b:02x}");
        }
        if hex.is_empty() {
            hex.push('-');
        }
        let _ = writeln!(
            text,
            "! {} {} {} {} {hex} {}\t{}\t{}",
            r.verdict.word(),
            r.at,
            r.rule,
            r.kind,
            if r.exit_rule.is_empty() {
                "-"
            } else {
                &r.exit_rule
            },
            one_line(&r.says),
            one_line(&r.detail)
        );
    }
    for a in &record.asides {
        aside::render(a, &mut text);
    }
    for s in &record.spans {
        let _ = writeln!(
            text,
            "{} {} {}\t{}",
            s.start,
            s.end,
            s.rules.join(","),
            s.what.replace(['\n', '\t'], " ")
        );
    }
    text
}

/// The spans of a record; a malformed line is skipped (a record is
/// advice for a report, never a verdict).
pub fn parse(text: &str) -> Vec<Span> {
    text.lines()
        .filter_map(|line| {
            let (head, what) = line.split_once('\t')?;
            let mut words = head.split(' ');
            let start = words.next()?.parse().ok()?;
            let end = words.next()?.parse().ok()?;
            let rules = words.next()?.split(',').filter(|r| !r.is_empty());
            (start <= end).then(|| Span {
                start,
                end,
                rules: rules.map(str::to_owned).collect(),
                what: what.to_owned(),
            })
        })
        .collect()
}

/// The rulings of a record; a malformed line is skipped.
pub fn parse_rulings(text: &str) -> Vec<Ruling> {
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("! ")?;
            let mut fields = rest.splitn(3, '\t');
            let head = fields.next()?;
            let says = fields.next()?.to_owned();
            let detail = fields.next()?.to_owned();
            let mut words = head.split(' ');
            let verdict = match words.next()? {
                "rejected" => Verdict::Rejected,
                "stopped" => Verdict::Stopped,
                "accepted" => Verdict::Accepted,
                _ => return None,
            };
            let at = words.next()?.parse().ok()?;
            let rule = words.next()?.to_owned();
            let kind = words.next()?.to_owned();
            let hex = words.next()?;
            let line = if hex == "-" { Vec::new() } else { unhex(hex)? };
            let exit_rule = match words.next()? {
                "-" => String::new(),
                r => r.to_owned(),
            };
            Some(Ruling {
                verdict,
                at,
                rule,
                kind,
                says,
                detail,
                line,
                exit_rule,
            })
        })
        .collect()
}

/// Every part of a record's text.
pub fn parse_record(text: &str) -> Record {
    Record {
        spans: parse(text),
        rulings: parse_rulings(text),
        asides: parse_asides(text),
    }
}

/// A writer that reports each successful write to [`wrote`]: wrap the
/// writer a game writes its stdout through, before any buffering.
pub struct Counted<W>(pub W);

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.0.write(buf)?;
        wrote(n);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROMPT: Context = Context::new("TURN-1", "the prompt");
    const GRID: Context = Context::new("DISP-1,DISP-3", "the grid after a valid move");

    fn game(out: &mut impl Write) {
        enter(GRID);
        let _ = out.write_all(b"+ +\n");
        let _ = out.write_all(b"+-+\n");
        enter(PROMPT);
        let _ = out.write_all(b"A> ");
    }

    #[test]
    fn spans_follow_the_contexts_and_merge_within_one() {
        let (out, record) = record(|| {
            let mut out = Counted(Vec::new());
            game(&mut out);
            out.0
        });
        assert_eq!(out, b"+ +\n+-+\nA> ");
        let text = render(&record);
        assert_eq!(
            text,
            "0 8 DISP-1,DISP-3\tthe grid after a valid move\n8 11 TURN-1\tthe prompt\n"
        );
        assert_eq!(parse(&text), record.spans);
        assert!(parse_rulings(&text).is_empty());
    }

    #[test]
    fn untraced_writes_cost_nothing_and_record_nothing() {
        let mut out = Counted(Vec::new());
        game(&mut out);
        assert!(!active());
        rejected(Why::Spacing, b"0  0 h", || unreachable!("not traced"));
        let ((), record) = record(|| assert!(active()));
        assert!(record.spans.is_empty() && record.rulings.is_empty());
    }

    #[derive(Clone, Copy)]
    enum Why {
        Spacing,
        Closed,
    }

    impl Reason for Why {
        fn told(self) -> Told {
            match self {
                Self::Spacing => Told::new("TURN-2", "spacing", "a few words"),
                Self::Closed => Told::new("FILE-6", "closed", "a few words"),
            }
        }
    }

    #[test]
    fn rulings_keep_their_offset_kind_and_line_and_read_back() {
        let ((), record) = record(|| {
            let mut out = Counted(Vec::new());
            game(&mut out);
            rejected(Why::Spacing, b"0  0\th\n", || {
                "TURN-2 rejects it".to_owned()
            });
            stopped(Why::Closed, "FILE-6", || {
                "a closed file\tat once".to_owned()
            });
        });
        let text = render(&record);
        let rulings = parse_rulings(&text);
        assert_eq!(rulings.len(), 2);
        assert_eq!(rulings[0], record.rulings[0]);
        assert_eq!(rulings[0].at, 11);
        assert_eq!(rulings[0].line, b"0  0\th\n");
        assert_eq!(rulings[0].verdict, Verdict::Rejected);
        assert_eq!(rulings[1].verdict, Verdict::Stopped);
        assert_eq!(rulings[1].detail, "a closed file at once");
        assert_eq!(rulings[1].exit_rule, "FILE-6");
        assert_eq!(parse(&text), record.spans, "spans read past rulings");
    }

    #[test]
    fn malformed_record_lines_are_skipped() {
        let spans = parse("0 4 A-1\tok\nx y\tbad\n5 3 B-1\tbackwards\n9\n");
        assert_eq!(spans.len(), 1);
        assert_eq!(spans[0].rules, vec!["A-1".to_owned()]);
    }
}
