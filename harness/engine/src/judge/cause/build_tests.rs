//! Tests of [`super`]: causes built from stdout and its spans (a value cut
//! short, a line break where the reference starts a span).

use super::*;

fn span(start: u64, end: u64, what: &str, rule: &str) -> Span {
    Span {
        start,
        end,
        rules: vec![rule.to_owned()],
        what: what.to_owned(),
    }
}

fn stdout(spans: Vec<Span>, expected: &[u8], actual: &[u8]) -> Cause {
    let m = [Mismatch::Stream {
        stream: Stream::Stdout,
        expected: expected.to_vec(),
        actual: actual.to_vec(),
        dropped: 0,
    }];
    let record = Record {
        asides: Vec::new(),
        spans,
        rulings: Vec::new(),
    };
    Cause::located(&m, Some(&record), None)
}

/// examples/celsius: the prompt (IO-1), then the result (IO-4).
fn celsius(expected: &[u8], actual: &[u8]) -> Cause {
    let end = u64::try_from(expected.len()).unwrap_or(u64::MAX);
    let spans = vec![
        span(0, 9, "the prompt", "IO-1"),
        span(9, end, "the temperature in Fahrenheit", "IO-4"),
    ];
    stdout(spans, expected, actual)
}

#[test]
fn a_number_cut_short_before_its_newline_is_a_value_not_a_line_break() {
    // ivan prints the result without its decimal: `32` where `32.0`,
    // `98` where `97.9`; one bug, one cause.
    let short = celsius(b"Celsius: Fahrenheit: 32.0\n", b"Celsius: Fahrenheit: 32\n");
    let rounded = celsius(b"Celsius: Fahrenheit: 97.9\n", b"Celsius: Fahrenheit: 98\n");
    assert_eq!(
        short.to_string(),
        "stdout, in the temperature in Fahrenheit (IO-4): a line differs"
    );
    assert_eq!(short, rounded);
    // The values are in the quote the worked example shows.
    let m = [Mismatch::Stream {
        stream: Stream::Stdout,
        expected: b"Celsius: Fahrenheit: 32.0\n".to_vec(),
        actual: b"Celsius: Fahrenheit: 32\n".to_vec(),
        dropped: 0,
    }];
    assert_eq!(
        Cause::quote(&m).to_string(),
        "stdout: `Celsius: Fahrenheit: 32\\n` where `Celsius: Fahrenheit: 32.0\\n` was expected"
    );
}

#[test]
fn a_line_break_is_one_where_the_reference_starts_a_span_and_goes_on() {
    let spans = || {
        vec![
            span(0, 3, "the prompt", "TURN-1"),
            span(3, 7, "the grid", "DISP-1"),
        ]
    };
    let broken = stdout(spans(), b"A> +-+\n", b"A> \n+-+\n");
    assert_eq!(
        broken.to_string(),
        "stdout, after the prompt (TURN-1): an extra line break"
    );
    // The prompt's space left out too: the same break.
    assert_eq!(broken, stdout(spans(), b"A> +-+\n", b"A>\n+-+\n"));
    // A newline, then something else than the grid: the grid differs.
    let other = stdout(spans(), b"A> +-+\n", b"A> \nxyz\n");
    assert_ne!(other.parts[0].edit, Edit::Departed(Departure::LineBreak));
}
