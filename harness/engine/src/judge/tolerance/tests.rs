//! Each tolerance on hand-made bytes, and stdout by span.

use super::*;
use proptest::prelude::*;

fn loose(spacing: bool, case: bool) -> Tolerance {
    Tolerance::Loose { spacing, case }
}

fn every() -> Vec<Tolerance> {
    vec![
        Tolerance::Exact,
        loose(true, false),
        loose(false, true),
        loose(true, true),
        Tolerance::Nonempty,
        Tolerance::Any,
    ]
}

#[test]
fn spacing_ignores_runs_line_ends_and_a_final_newline() {
    let s = loose(true, false);
    for (e, a) in [
        (&b"plaintext:  x\n"[..], &b"plaintext: x"[..]),
        (b"a\tb  \n", b"a b\n"),
        (b"a\n", b"a  "),
    ] {
        assert_eq!(accepts(&s, e, a), Ok(true), "{e:?} {a:?}");
    }
    for (e, a) in [
        (&b"a b\n"[..], &b"ab\n"[..]),
        (b"\n", b""),
        (b"a\n", b"a\n\n"),
    ] {
        assert_eq!(accepts(&s, e, a), Ok(false), "{e:?} {a:?}");
    }
    assert_eq!(
        accepts(&loose(false, true), b"Error\n", b"ERROR\n"),
        Ok(true)
    );
    assert_eq!(
        accepts(&loose(false, true), b"Error\n", b"ERROR \n"),
        Ok(false)
    );
}

#[test]
fn lines_and_regex() {
    let l = Tolerance::Lines(vec!["Usage: {..}".into(), LINES_HOLE.into(), "end".into()]);
    assert_eq!(
        accepts(&l, b"", b"Usage: cipher KEY\nmore\nlines\nend"),
        Ok(true)
    );
    assert_eq!(accepts(&l, b"", b"Usage: x\nend\n"), Ok(true));
    assert_eq!(accepts(&l, b"", b"Usage x\nend\n"), Ok(false));
    let r = Tolerance::Regex(vec!["^Usage: .*$".into(), "[0-9]+%".into()]);
    assert_eq!(accepts(&r, b"", b"Usage: a\n25%\n"), Ok(true));
    assert_eq!(accepts(&r, b"", b"Usage: a\n25 %\n"), Ok(false));
    assert_eq!(accepts(&r, b"", b"Usage: a\n"), Ok(false));
}

/// The model's `expected` bytes judged under `tolerance`.
fn segment<'a>(tolerance: &'a Tolerance, expected: &'a [u8]) -> Segment<'a> {
    Segment {
        tolerance,
        expected,
    }
}

#[test]
fn a_loose_prompt_then_an_exact_line() {
    let s = loose(true, false);
    let e = Tolerance::Exact;
    let parts = [
        segment(&s, b"plaintext:  "),
        segment(&e, b"ciphertext: IFMMP\n"),
    ];
    assert_eq!(
        accepts_segments(&parts, b"plaintext: ciphertext: IFMMP\n"),
        Ok(true)
    );
    assert_eq!(
        accepts_segments(&parts, b"plaintext: ciphertext:  IFMMP\n"),
        Ok(false)
    );
    // The prompt's blanks end where the user's line goes: free, none
    // included; inside a line a run still needs one.
    assert_eq!(
        accepts_segments(&parts, b"plaintext:ciphertext: IFMMP\n"),
        Ok(true)
    );
    let inside = [segment(&s, b"plain text: "), segment(&e, b"x\n")];
    assert_eq!(accepts_segments(&inside, b"plaintext:x\n"), Ok(false));
    assert_eq!(accepts_segments(&inside, b"plain\t text:x\n"), Ok(true));
    let free = Tolerance::Nonempty;
    let parts = [segment(&free, b"Usage: x KEY\n"), segment(&e, b"bye\n")];
    assert_eq!(accepts_segments(&parts, b"give me a key\nbye\n"), Ok(true));
    assert_eq!(accepts_segments(&parts, b"bye\n"), Ok(false));
}

#[test]
fn nonempty_refuses_a_traceback_unless_the_pack_says_otherwise() {
    let message = b"Could not read before.csv\n";
    let traceback = b"Traceback (most recent call last):\n  File \"./s.py\", line 7, in \
                      <module>\n    open(x)\nFileNotFoundError: [Errno 2] No such file\n";
    assert_eq!(
        accepts(&Tolerance::Nonempty, message, b"Bad file\n"),
        Ok(true)
    );
    assert_eq!(accepts(&Tolerance::Nonempty, message, traceback), Ok(false));
    let or = Tolerance::NonemptyOrTraceback;
    assert_eq!(accepts(&or, message, traceback), Ok(true));
    // The model's own traceback: another is as good.
    assert_eq!(
        accepts(
            &Tolerance::Nonempty,
            traceback,
            traceback.repeat(2).as_slice()
        ),
        Ok(true)
    );
    // Under a span, too.
    let free = Tolerance::Nonempty;
    let parts = [segment(&free, message)];
    assert_eq!(accepts_segments(&parts, traceback), Ok(false));
    let parts = [segment(&or, message)];
    assert_eq!(accepts_segments(&parts, traceback), Ok(true));
}

proptest! {
    /// Every tolerance accepts the model's own bytes, whole or by spans.
    #[test]
    fn every_tolerance_accepts_the_exact_bytes(text in proptest::collection::vec(
        prop_oneof![Just(b' '), Just(b'\t'), Just(b'\n'), Just(b'a'), Just(b'B'), any::<u8>()], 0..40),
        cut in 0usize..40) {
        for t in every() {
            prop_assert_eq!(accepts(&t, &text, &text), Ok(true), "{}", t);
            let cut = cut.min(text.len());
            let parts = [
                Segment { tolerance: &t, expected: &text[..cut] },
                Segment { tolerance: &Tolerance::Exact, expected: &text[cut..] },
            ];
            prop_assert_eq!(accepts_segments(&parts, &text), Ok(true), "{}", t);
        }
    }

    /// Normalising twice changes nothing.
    #[test]
    fn normalising_is_idempotent(text in proptest::collection::vec(
        prop_oneof![Just(b' '), Just(b'\t'), Just(b'\n'), Just(b'a'), Just(b'Q')], 0..40)) {
        for (s, c) in [(true, false), (false, true), (true, true)] {
            let once = normalise(&text, s, c);
            prop_assert_eq!(normalise(&once, s, c), once);
        }
    }

    /// On the same pair: exact accepting implies spacing accepting
    /// implies nonempty accepting; and spacing as one part agrees with
    /// spacing on the whole stream.
    #[test]
    fn looser_accepts_more(
        e in proptest::collection::vec(prop_oneof![Just(b' '), Just(b'\t'), Just(b'\n'), Just(b'a')], 0..12),
        a in proptest::collection::vec(prop_oneof![Just(b' '), Just(b'\t'), Just(b'\n'), Just(b'a')], 0..12)) {
        let exact = accepts(&Tolerance::Exact, &e, &a) == Ok(true);
        let spacing = accepts(&loose(true, false), &e, &a) == Ok(true);
        let nonempty = accepts(&Tolerance::Nonempty, &e, &a) == Ok(true);
        prop_assert!(!exact || spacing);
        prop_assert!(!spacing || nonempty);
        let s = loose(true, false);
        let one = [Segment { tolerance: &s, expected: &e }];
        prop_assert_eq!(accepts_segments(&one, &a), Ok(spacing), "{:?} {:?}", e, a);
    }
}

#[test]
fn a_numbers_span_compares_its_numbers_by_value_and_the_rest_by_its_text() {
    let n = |spacing| {
        Tolerance::Numbers(NumberTolerance {
            absolute: 1e-6,
            relative: 0.0,
            spacing,
            case: false,
        })
    };
    let (exact, spaced) = (n(false), n(true));
    let parts = |t| {
        vec![
            segment(&Tolerance::Exact, b"Count: 3\n"),
            segment(t, b"Average: 0.333333333\n"),
        ]
    };
    let judge = |t, actual: &[u8]| judge_segments(&parts(t), actual);
    assert_eq!(
        judge(&exact, b"Count: 3\nAverage: 0.3333333333333333\n"),
        Ok(Segments::Accepted)
    );
    // The printed value, the expected one and the line, for the cause.
    let Ok(Segments::OutOfTolerance(t, refusal, 1)) = judge(&exact, b"Count: 3\nAverage: 0.33\n")
    else {
        panic!("0.33 is out of 1e-6 of a third");
    };
    assert_eq!(
        refusal.say(&t),
        "line 2: 0.33 printed where 0.333333333 was expected, not within absolute 1e-6"
    );
    // The exact span stays exact; the span's words and blanks stay its
    // text's (a word for a number is text); `spacing` frees the blanks.
    for refused in [
        &b"Count: 3.0\nAverage: 0.333333333\n"[..],
        b"Count: 3\nAverage:  0.333333333\n",
        b"Count: 3\nAverage: a third\n",
    ] {
        assert_eq!(judge(&exact, refused), Ok(Segments::Refused));
    }
    assert_eq!(
        judge(&spaced, b"Count: 3\nAverage:  0.3333333331"),
        Ok(Segments::Accepted)
    );
}
