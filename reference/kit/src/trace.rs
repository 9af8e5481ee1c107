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

struct Trace {
    current: Option<Context>,
    at: u64,
    spans: Vec<(u64, u64, Context)>,
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

/// Runs `f` with tracing on and returns its result with the spans.
pub fn record<T>(f: impl FnOnce() -> T) -> (T, Vec<Span>) {
    TRACE.with(|t| {
        if let Ok(mut t) = t.try_borrow_mut() {
            *t = Some(Trace {
                current: None,
                at: 0,
                spans: Vec::new(),
            });
        }
    });
    let value = f();
    let spans = TRACE.with(|t| t.try_borrow_mut().ok().and_then(|mut t| t.take()));
    let spans = spans.map_or_else(Vec::new, |t| {
        t.spans
            .into_iter()
            .map(|(start, end, c)| Span {
                start,
                end,
                rules: c.rules.split(',').map(str::to_owned).collect(),
                what: c.what.to_owned(),
            })
            .collect()
    });
    (value, spans)
}

/// Runs `f`, traced when [`ENV`] names a file: the spans go there when `f`
/// returns (a failure to write them is not the program's: it is ignored,
/// and the caller finds no record).
pub fn run_traced<T>(f: impl FnOnce() -> T) -> T {
    let Some(path) = std::env::var_os(ENV).filter(|p| !p.is_empty()) else {
        return f();
    };
    let (value, spans) = record(f);
    let _ = std::fs::write(path, render(&spans));
    value
}

/// The record of `spans`, as [`parse`] reads it.
pub fn render(spans: &[Span]) -> String {
    let mut text = String::new();
    for s in spans {
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
        let (out, spans) = record(|| {
            let mut out = Counted(Vec::new());
            game(&mut out);
            out.0
        });
        assert_eq!(out, b"+ +\n+-+\nA> ");
        let text = render(&spans);
        assert_eq!(
            text,
            "0 8 DISP-1,DISP-3\tthe grid after a valid move\n8 11 TURN-1\tthe prompt\n"
        );
        assert_eq!(parse(&text), spans);
    }

    #[test]
    fn untraced_writes_cost_nothing_and_record_nothing() {
        let mut out = Counted(Vec::new());
        game(&mut out);
        assert!(!active());
        let ((), spans) = record(|| assert!(active()));
        assert!(spans.is_empty());
    }

    #[test]
    fn malformed_record_lines_are_skipped() {
        let spans = parse("0 4 A-1\tok\nx y\tbad\n5 3 B-1\tbackwards\n9\n");
        assert_eq!(spans.len(), 1);
        assert_eq!(spans[0].rules, vec!["A-1".to_owned()]);
    }
}
