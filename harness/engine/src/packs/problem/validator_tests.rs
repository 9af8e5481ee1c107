use super::*;
use proptest::prelude::*;

fn flags(words: &str) -> Flags {
    let words: Vec<String> = words.split_whitespace().map(str::to_owned).collect();
    Flags::parse(&words).expect("flags")
}

fn ok(answer: &str, output: &str, f: &str) -> bool {
    judge(answer.as_bytes(), output.as_bytes(), &flags(f)).is_ok()
}

#[test]
fn whitespace_is_lenient_by_default() {
    assert!(ok("A B\n", "A B\n", ""));
    assert!(ok("A B\n", " A  B \t\n", ""));
    assert!(ok("A B", "A\nB\n\n", ""));
    assert!(ok("", " \n\t", ""));
    assert!(!ok("A B", "A B X", ""));
    assert!(!ok("A B", "X A B", ""));
    assert!(!ok("", "0", ""));
}

#[test]
fn case_is_ignored_unless_case_sensitive() {
    assert!(ok("Yes", "YES", ""));
    assert!(!ok("Yes", "YES", "case_sensitive"));
    assert!(ok("Yes", "Yes", "case_sensitive"));
}

#[test]
fn space_changes_count_when_sensitive() {
    let f = "space_change_sensitive";
    assert!(ok("A B\n", "A B\n", f));
    assert!(!ok("A B\n", "A  B\n", f));
    assert!(!ok("A B\n", "A B", f));
    assert!(!ok("A B\n", "A B\n\n", f));
    assert!(!ok("", " ", f));
    assert!(ok("", "", f));
}

#[test]
fn trailing_output_and_early_ends_say_where() {
    let e = judge(b"1\n2\n", b"1\n2\n3\n", &Flags::default()).expect_err("trailing");
    assert_eq!(e.what, "trailing output `3`");
    assert_eq!(e.output_line, 3);
    let e = judge(b"1\n2\n", b"1\n", &Flags::default()).expect_err("short");
    assert_eq!(
        e.to_string(),
        "line 2 of the output (line 2 of the answer): the output ends where the answer goes on with `2`"
    );
    let e = judge(b"a\nb\n", b"a\nc\n", &Flags::default()).expect_err("mismatch");
    assert_eq!(
        e.to_string(),
        "line 2 of the output (line 2 of the answer): expected `b`, got `c`"
    );
}

#[test]
fn floats_within_tolerance() {
    let f = "float_tolerance 1e-6";
    assert!(ok("0.333333333", "0.3333333333333333", f));
    let e = judge(b"0.333333333\n", b"0.33\n", &flags(f)).expect_err("too far");
    let said = e.to_string();
    for part in ["`0.333333333`", "`0.33`", "1e-6"] {
        assert!(said.contains(part), "{said}");
    }
    // Without a tolerance numbers are tokens.
    assert!(!ok("0.333333333", "0.3333333333333333", ""));
    assert!(ok("1", "1.0000001", "float_absolute_tolerance 1e-6"));
    assert!(!ok("1000", "1000.5", "float_absolute_tolerance 1e-6"));
    assert!(ok("1000", "1000.5", "float_relative_tolerance 1e-3"));
    assert!(ok("2", "0x1p1", "float_absolute_tolerance 0"));
    // An answer's word is still a word; an output's word for a number is rejected.
    assert!(ok("abc 1", "ABC 1.0", "float_tolerance 1e-9"));
    let e = judge(b"1.5", b"x", &flags(f)).expect_err("not a number");
    assert!(e.what.starts_with("expected a number"), "{}", e.what);
    // inf and nan are no numbers: compared as words.
    assert!(ok("nan", "NaN", f));
}

#[test]
fn unknown_flags_and_missing_values_are_refused() {
    let parse =
        |w: &str| Flags::parse(&w.split_whitespace().map(str::to_owned).collect::<Vec<_>>());
    assert!(parse("case_insensitive").is_err());
    assert!(parse("float_tolerance").is_err());
    assert!(parse("float_tolerance x").is_err());
    assert_eq!(
        parse("float_tolerance 1e-3").expect("parsed").floats,
        Tolerance {
            absolute: Some(1e-3),
            relative: Some(1e-3)
        }
    );
}

proptest! {
    #[test]
    fn an_output_equal_to_its_answer_is_accepted(s in "[ -~\n\t]{0,80}", f in prop::sample::select(vec!["", "case_sensitive", "space_change_sensitive", "float_tolerance 1e-9"])) {
        prop_assert!(judge(s.as_bytes(), s.as_bytes(), &flags(f)).is_ok());
    }

    #[test]
    fn respacing_never_matters_by_default(words in prop::collection::vec("[a-z0-9.]{1,6}", 0..8), seps in prop::collection::vec(" |\n|\t|  ", 8)) {
        let answer = words.join(" ");
        let output: String = words.iter().zip(&seps).flat_map(|(w, s)| [w.as_str(), s.as_str()]).collect();
        prop_assert!(judge(answer.as_bytes(), output.as_bytes(), &Flags::default()).is_ok());
    }

    #[test]
    fn judging_never_panics(a in prop::collection::vec(any::<u8>(), 0..40), o in prop::collection::vec(any::<u8>(), 0..40)) {
        let _ = judge(&a, &o, &flags("float_tolerance 1e-6 space_change_sensitive"));
        let _ = judge(&a, &o, &Flags::default());
    }
}
