//! Tests of `class`, beside it.

use std::collections::HashSet;

use super::*;

#[test]
fn names_are_unique_kebab_case_and_round_trip() {
    let all = Class::all();
    let names: HashSet<String> = all.iter().map(|c| c.name()).collect();
    assert_eq!(names.len(), all.len());
    for c in &all {
        let n = c.name();
        assert!(
            n.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{n}"
        );
        assert_eq!(Class::from_name(&n), Some(*c));
    }
    assert_eq!(Class::from_name("no-such-class"), None);
}

#[test]
fn every_issue_class_is_present() {
    let names: HashSet<String> = Class::all().iter().map(|c| c.name()).collect();
    for n in [
        "empty-file",
        "too-few-lines",
        "next-player-empty",
        "next-player-huge",
        "horizontal-row-byte-nul",
        "vertical-row-byte-high",
        "vertical-row-too-long",
        "cell-row-trailing-comma",
        "cell-owner-on-open-cell",
        "lines-after-grid",
        "crlf-line-ends",
        "dimensions-one-column-fewer",
        "valid-fully-closed",
        "valid-next-player-not-first",
    ] {
        assert!(names.contains(n), "{n}");
    }
    assert_eq!(Class::all().len(), 49);
    assert_eq!(Class::all().iter().filter(|c| c.is_control()).count(), 7);
}

#[test]
fn every_class_cites_rules_and_faults_cite_file_6() {
    for c in Class::all() {
        let rules = c.rules();
        assert!(rules.iter().any(|r| r.starts_with("FILE-")), "{c}");
        assert_eq!(rules.contains(&"FILE-6"), !c.is_control(), "{c}");
    }
}

#[test]
fn ambiguous_classes_match_the_rulings() {
    let amb: Vec<String> = Class::all()
        .into_iter()
        .filter(|c| c.ambiguous())
        .map(Class::name)
        .collect();
    assert_eq!(
        amb,
        [
            "cell-row-empty-field",
            "cell-row-trailing-comma",
            "cell-owner-on-open-cell",
            "lines-after-grid",
            "valid-no-final-newline",
            "valid-zero-owner-on-closed-cell",
            "valid-leading-zeros",
            "valid-fully-closed",
        ]
    );
}
