//! Tests of [`super`]: a problem package's suite as the engine reads it.

use super::*;
use crate::model::suite::{CaseFile, Root};

fn example(name: &str) -> String {
    format!(
        "{}/../../examples/problems/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The case at `rel` of `pack`'s suite, read as the engine reads
/// every case it judges, and its category's visibility.
fn judged(pack: &ProblemPack, rel: &str) -> (crate::model::schema::Case, Visibility) {
    let root = Root::Embedded(pack.suite);
    let file = CaseFile {
        root: root.clone(),
        rel: rel.to_owned(),
    };
    let case = crate::model::case::load(&file).expect("the case parses");
    let suite = crate::model::suite::suite_for(&root, pack.suite).expect("suite.yaml parses");
    crate::model::case::check_category(&case, &file, &suite).expect("its category");
    let category = suite
        .categories
        .iter()
        .find(|c| c.name == case.category)
        .expect("listed");
    let shown = Visibility::of_case(case.visibility, Some(category));
    (case, shown)
}

#[test]
fn sample_cases_are_public_and_secret_cases_secret_in_the_judged_case() {
    let pack = ProblemPack::load(&example("average")).expect("loads");
    let (sample, shown) = judged(&pack, "sample/1.yaml");
    assert_eq!(sample.visibility, Some(Visibility::Public));
    assert_eq!(shown, Visibility::Public);
    for rel in ["secret/small/1.yaml", "secret/large/1.yaml"] {
        let (secret, shown) = judged(&pack, rel);
        assert_eq!(secret.visibility, Some(Visibility::Secret), "{rel}");
        assert_eq!(shown, Visibility::Secret, "{rel}");
        assert!(secret.rules.is_empty(), "no rule IDs: {rel}");
    }
}

#[test]
fn a_case_is_judged_by_its_groups_validator_flags() {
    let pack = ProblemPack::load(&example("average")).expect("loads");
    let (small, _) = judged(&pack, "secret/small/1.yaml");
    let (large, _) = judged(&pack, "secret/large/1.yaml");
    let checker = |c: &crate::model::schema::Case| format!("{:?}", c.matching);
    assert!(checker(&small).contains("builtin:kattis-default float_tolerance 1e-6"));
    assert!(
        checker(&large)
            .contains("builtin:kattis-default float_relative_tolerance 1e-9 case_sensitive")
    );
    assert_eq!(small.category, "small");
    assert_eq!(
        crate::packs::problem::validator::as_checker(
            "kattis-default float_tolerance 1e-6",
            b"0.333333333\n",
            b"0.3333333333333333\n"
        ),
        Some(Ok(None))
    );
}

#[test]
fn scoring_groups_are_worth_their_full_score_and_the_sample_nothing() {
    let pack = ProblemPack::load(&example("oddsum")).expect("loads");
    let root = Root::Embedded(pack.suite);
    let suite = crate::model::suite::suite_for(&root, pack.suite).expect("suite.yaml");
    let marks: Vec<(String, f64)> = suite
        .categories
        .iter()
        .map(|c| (c.name.clone(), c.marks))
        .collect();
    assert_eq!(
        marks,
        [
            ("sample".to_owned(), 0.0),
            ("group1".to_owned(), 30.0),
            ("group2".to_owned(), 70.0)
        ]
    );
}

#[test]
fn a_custom_validator_is_its_groups_checker_and_an_interactive_case_a_conversation() {
    // The validators are Python: made ready without a build.
    let _models = crate::packs::folder::model::Scope::enter();
    let pack = ProblemPack::load(&example("pairsum")).expect("loads");
    assert_eq!(pack.checker_names(), ["kattis-validator"]);
    let env = pack.checker_env();
    assert!(
        env.len() == 1
            && env[0].0 == crate::packs::problem::custom_check::VALIDATOR_ENV
            && env[0].1.to_string_lossy().ends_with("/validate.py"),
        "{env:?}"
    );
    assert!(pack.driver().is_none());
    let pack = ProblemPack::load(&example("guess")).expect("loads");
    let (case, shown) = judged(&pack, "secret/777.yaml");
    assert_eq!(shown, Visibility::Secret);
    assert_eq!(case.script, Some(serde_json::json!({"case": "secret/777"})));
    // The input and the answer are the validator's alone: not in the suite.
    assert!(
        pack.suite.get("secret/777.in").is_none() && pack.suite.get("secret/777.ans").is_none()
    );
    assert!(pack.checker_names().is_empty() && pack.checker_env().is_empty());
    let driver = pack.driver().expect("a driver");
    assert!(
        driver
            .check(&serde_json::json!({"case": "secret/777"}))
            .is_ok()
    );
    assert!(
        driver
            .check(&serde_json::json!({"case": "secret/8"}))
            .is_err()
    );
}

#[test]
fn a_zipped_packages_input_is_inline_its_folder_being_gone() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("tiny.zip");
    super::super::unzip::write_test_zip(
        &path,
        &[
            ("tiny/problem.yaml", "name: Tiny\n"),
            ("tiny/data/secret/1.in", "7\n"),
            ("tiny/data/secret/1.ans", "7\n"),
        ],
    );
    let pack = ProblemPack::load(&path.display().to_string()).expect("the zip loads");
    let (case, shown) = judged(&pack, "secret/1.yaml");
    assert_eq!(shown, Visibility::Secret);
    assert_eq!(case.stdin_file, None);
    assert_eq!(case.stdin_base64.as_deref(), Some("Nwo="));
}

#[test]
fn a_scoring_groups_category_carries_its_grader_and_a_case_no_unfixed_limit() {
    let pack = ProblemPack::load(&example("oddsum")).expect("loads");
    let root = Root::Embedded(pack.suite);
    let suite = crate::model::suite::suite_for(&root, pack.suite).expect("suite.yaml parses");
    let grader = |name: &str| {
        suite
            .categories
            .iter()
            .find(|c| c.name == name)
            .and_then(|c| c.grader.clone())
    };
    let group1 = grader("group1").expect("group1 has a grader");
    assert_eq!(group1.score, crate::model::grader::ScoreRule::Min);
    assert!((group1.accept_score - 30.0).abs() < f64::EPSILON);
    assert!(!group1.stop_at_failure, "on_reject: continue is inherited");
    assert!(grader("sample").is_none(), "the sample is worth nothing");
    // oddsum fixes no time limit: its cases leave it to the pack's default.
    let (case, _) = judged(&pack, "secret/group1/1.yaml");
    assert_eq!(case.timeout, None);
    assert_eq!(pack.time_limit.fixed(), None);
}
