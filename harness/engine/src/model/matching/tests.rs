//! Tests of `matching`, beside it.

use std::collections::BTreeMap;

use super::*;

// yaml_serde itself, not `schema::parse`: the schema imports this
// module, and the layer check refuses a circle even in tests.
fn spec(text: &str) -> Result<MatchSpec, yaml_serde::Error> {
    yaml_serde::from_str(text)
}

#[test]
fn every_form_parses() {
    let m = spec(
        "stdout: [spacing, case]\nstderr: nonempty\nstatus: [1, 2]\nfiles:\n  a.txt: \
             {checker: \"builtin:x\"}\ndeduct: 0.25\n",
    )
    .unwrap();
    assert_eq!(
        m.stdout,
        Some(Tolerance::Loose {
            spacing: true,
            case: true
        })
    );
    assert_eq!(m.stderr, Some(Tolerance::Nonempty));
    assert_eq!(m.status, Some(StatusMatch::OneOf(vec![1, 2])));
    assert_eq!(m.files["a.txt"], Tolerance::Checker("builtin:x".into()));
    assert_eq!(m.deduct, Some(0.25));
    let l = spec("stdout: {lines: [\"Usage: {..}\", \"{...}\"]}\nstatus: nonzero\n").unwrap();
    assert!(matches!(l.stdout, Some(Tolerance::Lines(ref v)) if v.len() == 2));
    assert_eq!(l.status, Some(StatusMatch::Nonzero));
}

#[test]
fn a_misspelt_tolerance_names_its_line() {
    let e = spec("stderr: any\nstdout: spacng\n").unwrap_err();
    assert_eq!(e.location().map(|l| l.line()), Some(2), "{e}");
    assert!(e.to_string().contains("unknown tolerance `spacng`"), "{e}");
    let e = spec("stdot: spacing\n").unwrap_err();
    assert_eq!(e.location().map(|l| l.line()), Some(1), "{e}");
    assert!(spec("stdout: {regex: [\"(\"]}\n").is_err());
    assert!(spec("stdout: {lines: [\"a {...}\"]}\n").is_err());
    assert!(spec("status: sometimes\n").is_err());
    assert!(spec("stdout: [spacing, any]\n").is_err());
}

fn rules(list: &[(&str, &str)]) -> BTreeMap<String, MatchSpec> {
    list.iter()
        .map(|(id, t)| ((*id).to_owned(), spec(t).unwrap()))
        .collect()
}

#[test]
fn the_key_star_judges_every_file_without_a_key_of_its_own() {
    let r = rules(&[("S-1", "files:\n  \"*\": any\n  own.txt: nonempty\n")]);
    let files = ["a.txt".to_owned(), "own.txt".to_owned()];
    let m = resolve(None, &["S-1".to_owned()], &r, None, files.into_iter());
    assert_eq!(m.files["a.txt"].tolerance, Tolerance::Any);
    assert_eq!(m.files["own.txt"].tolerance, Tolerance::Nonempty);
    assert_eq!(m.files["a.txt"].describe(), "not at all (S-1)");
}

#[test]
fn the_case_overrides_the_rules_which_override_the_suite() {
    let r = rules(&[("A-1", "stdout: spacing\n"), ("B-1", "stdout: case\n")]);
    let suite = spec("stdout: nonempty\nstderr: any\n").unwrap();
    let cited = |ids: &[&str]| ids.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let m = resolve(None, &cited(&["A-1"]), &r, Some(&suite), std::iter::empty());
    assert_eq!(m.stdout.describe(), "ignoring spacing (A-1)");
    assert_eq!(m.stderr.origin, Origin::Suite);
    // Disagreeing rules leave the stream exact.
    let m = resolve(
        None,
        &cited(&["A-1", "B-1"]),
        &r,
        Some(&suite),
        std::iter::empty(),
    );
    assert!(m.stdout.tolerance.is_exact());
    // A rule declaring nothing does not vote.
    let m = resolve(None, &cited(&["A-1", "C-1"]), &r, None, std::iter::empty());
    assert_eq!(m.stdout.origin, Origin::Rules(vec!["A-1".into()]));
    let own = spec("stdout: any\n").unwrap();
    let m = resolve(
        Some(&own),
        &cited(&["A-1"]),
        &r,
        Some(&suite),
        std::iter::empty(),
    );
    assert_eq!(m.stdout.tolerance, Tolerance::Any);
    assert!(m.by_rule.is_empty(), "the case's own covers the stream");
    let m = resolve(None, &[], &r, None, std::iter::empty());
    assert!(m.stdout.tolerance.is_exact());
    assert_eq!(m.by_rule.len(), 2, "spans may name any rule");
}

#[test]
fn numbers_parse_with_their_text_and_refuse_what_is_no_tolerance() {
    let m = spec("stdout: {numbers: {absolute: 1e-6, relative: 0.001, text: spacing}}\n").unwrap();
    assert_eq!(
        m.stdout,
        Some(Tolerance::Numbers(NumberTolerance {
            absolute: 1e-6,
            relative: 0.001,
            spacing: true,
            case: false
        }))
    );
    let described = m.stdout.map(|t| t.describe()).unwrap_or_default();
    assert_eq!(
        described,
        "with numbers within absolute 1e-6 or relative 1e-3, the rest ignoring spacing"
    );
    for bad in [
        "stdout: {numbers: {}}\n",
        "stdout: {numbers: {absolute: -1}}\n",
        "stdout: {numbers: {absolute: .nan}}\n",
        "stdout: {numbers: {relative: 1, text: nonempty}}\n",
        "stdout: {numbers: {absolut: 1}}\n",
    ] {
        assert!(spec(bad).is_err(), "{bad}");
    }
}
