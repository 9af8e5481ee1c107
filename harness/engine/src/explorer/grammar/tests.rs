//! Tests of `grammar`, beside it.

use super::*;

const EXAMPLE: &str = "category: play
values:
  discs: {int: [1, 8]}
  peg: {choice: [A, B, C]}
argv:
  - {words: ['{discs}'], rules: [ARGS-2]}
  - {words: [], rules: [ARGS-1], ambiguous: no-args}
files:
  - {path: game.sav, chance: 0.5, text: \"{discs}\\n\", rules: [FILE-1]}
stdin:
  length: [1, 6]
  lines:
    - {text: '{peg} {peg}', rules: [MOVE-1]}
    - {text: 'q', rules: [END-2]}
  damage: 0.2
  unterminated: 0.1
";

fn explorer() -> GrammarExplorer {
    let g = Grammar::parse("explore.yaml", EXAMPLE.as_bytes()).expect("parses");
    GrammarExplorer::new(g, "first")
}

#[test]
fn sessions_are_drawn_from_the_grammar_deterministically() {
    let e = explorer();
    for index in 0..200 {
        let s = e.generate(7, index, false);
        assert_eq!(s, e.generate(7, index, false));
        assert_eq!(s.args.len(), 1, "the ambiguous argv is not drawn: {s:?}");
        assert!((1..=6).contains(&s.lines.len()));
        let class = e.classify(&s, 0);
        assert_eq!(class.category, "play");
        assert!(class.rules.contains("ARGS-2"));
        assert!(e.labels(&s).is_empty());
    }
    let with: Vec<_> = (0..200).map(|i| e.generate(7, i, true)).collect();
    assert!(with.iter().any(|s| s.args.is_empty()));
    assert!(with.iter().any(|s| s.files.len() == 1));
    assert!(with.iter().any(|s| s.files.is_empty()));
    let bare = with.iter().find(|s| s.args.is_empty()).expect("one");
    assert_eq!(
        e.labels(bare),
        [Label {
            name: "no-args".to_owned(),
            rule: "ARGS-1".to_owned()
        }]
    );
}

#[test]
fn shrinking_stays_inside_the_grammars_bounds() {
    let e = explorer();
    for index in 0..100 {
        let s = e.generate(3, index, false);
        for smaller in e.shrink(&s) {
            assert!(!smaller.lines.is_empty(), "below length's 1: {smaller:?}");
        }
    }
    let always = "files:\n  - {path: f, text: x}\nstdin:\n  lines:\n    - {text: a}\n";
    let e = GrammarExplorer::new(
        Grammar::parse("explore.yaml", always.as_bytes()).expect("parses"),
        "first",
    );
    let s = e.generate(1, 0, false);
    assert_eq!(s.files.len(), 1);
    assert!(e.shrink(&s).iter().all(|c| c.files.len() == 1));
}

#[test]
fn faults_name_the_file_and_line() {
    let bad = "values:\n  n: {int: [1, 2]}\nstdin:\n  lines:\n    - {text: '{m}'}\n";
    let e = Grammar::parse("p/explore.yaml", bad.as_bytes()).expect_err("unknown value");
    assert_eq!(e.location, Some((5, 1)));
    assert!(
        e.to_string()
            .starts_with("p/explore.yaml:5:1: `{m}` names no value; values: n")
    );
    let e = Grammar::parse("explore.yaml", b"argv:\n  - {word: [a]}\n").expect_err("key");
    assert_eq!(e.location.map(|l| l.0), Some(2), "{e}");
    let e = Grammar::parse(
        "explore.yaml",
        b"stdin:\n  damage: 2\n  lines: [{text: a}]\n",
    )
    .expect_err("chance");
    assert!(
        e.to_string().contains(":2:1: damage 2 is not a chance"),
        "{e}"
    );
    let e = Grammar::parse("explore.yaml", b"values:\n  n: {int: [5, 1]}\n").expect_err("range");
    assert!(
        e.to_string()
            .contains(":2:1: value `n`: int range [5, 1] is empty"),
        "{e}"
    );
}

/// The line and message of the grammar `text`'s fault.
fn fault(text: &str) -> (Option<usize>, String) {
    let e = Grammar::parse("explore.yaml", text.as_bytes()).expect_err(text);
    (e.location.map(|l| l.0), e.message)
}

#[test]
fn a_grammar_of_arguments_alone_has_no_stdin() {
    let g = Grammar::parse("explore.yaml", b"argv:\n  - {words: [a]}\n").expect("parses");
    let e = GrammarExplorer::new(g, "first");
    for index in 0..20 {
        let s = e.generate(1, index, false);
        assert_eq!(s.args, ["a"]);
        assert!(s.lines.is_empty());
    }
    let (line, message) = fault("argv:\n  - {words: [a]}\nstdin:\n  length: [1, 2]\n");
    assert_eq!(line, Some(4));
    assert!(message.contains("lists no `lines`"), "{message}");
}

#[test]
fn a_list_that_weighs_nothing_is_refused_at_its_line() {
    let (line, message) = fault("argv:\n  - {words: [a], weight: 0}\n");
    assert_eq!(line, Some(1));
    assert!(
        message.contains("argv: every argument list weighs 0"),
        "{message}"
    );
    let (line, message) = fault("values: {}\nstdin:\n  lines:\n    - {text: a, weight: 0}\n");
    assert_eq!(line, Some(3));
    assert!(message.contains("line template weighs 0"), "{message}");
    let (line, message) =
        fault("argv:\n  - {words: [a], weight: 0}\n  - {words: [b], ambiguous: x}\n");
    assert_eq!(line, Some(1));
    assert!(message.contains("without --ambiguous"), "{message}");
}

#[test]
fn a_fault_names_the_line_of_its_own_key() {
    let (line, message) = fault("values:\n  s: {choice: []}\n");
    assert_eq!(
        (line, message.as_str()),
        (Some(2), "value `s`: choice has no words")
    );
    let (line, message) = fault(
        "files:\n  - {path: a, chance: 0.5, text: x}\n  - path: b\n    text: y\n    chance: 3\n",
    );
    assert_eq!(line, Some(5), "{message}");
    assert!(message.contains("file `b`: chance 3"), "{message}");
    let (line, _) = fault("stdin:\n  lines: [{text: 'length: x'}]\n  length: [3, 1]\n");
    assert_eq!(line, Some(3));
}

#[test]
fn a_file_path_must_stay_in_the_programs_folder() {
    for path in ["../x", "/etc/passwd", "a/../../b"] {
        let (line, message) = fault(&format!(
            "files:\n  - {{path: a, text: x}}\n  - {{path: '{path}', text: x}}\n"
        ));
        assert_eq!(line, Some(3), "{path}");
        assert!(message.contains("must be relative"), "{message}");
    }
    Grammar::parse("explore.yaml", b"files:\n  - {path: d/a.txt, text: x}\n").expect("parses");
}
