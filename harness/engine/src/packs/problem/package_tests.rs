use super::*;

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/problems")
        .join(name)
}

#[test]
fn the_formats_give_their_time_rules_and_groups() {
    let hello = Problem::load(&example("hello")).expect("hello loads");
    assert_eq!(hello.format, Format::Legacy);
    assert_eq!(
        (hello.time.ac_to_time_limit, hello.time.time_limit_to_tle),
        (5.0, 2.0)
    );
    let names: Vec<(&str, Visibility)> = hello
        .root
        .all_cases()
        .iter()
        .map(|(_, c)| (c.name.as_str(), c.visibility))
        .collect();
    assert_eq!(names[0], ("sample/1", Visibility::Public));
    assert_eq!(names[1], ("secret/01", Visibility::Secret));
    let average = Problem::load(&example("average")).expect("average loads");
    assert_eq!(average.format, Format::Draft2023);
    assert_eq!(average.time.fixed, Some(2.0));
    assert_eq!(
        (
            average.time.ac_to_time_limit,
            average.time.time_limit_to_tle
        ),
        (2.0, 1.5)
    );
    // Nested flags: secret/large overrides the root's tolerance.
    let flags: Vec<(&str, &[String])> = average
        .root
        .all_cases()
        .iter()
        .map(|(g, _)| (g.name.as_str(), g.flags.validator_flags.as_slice()))
        .collect();
    assert!(flags.contains(&(
        "secret/small",
        &["float_tolerance".to_owned(), "1e-6".to_owned()][..]
    )));
    assert!(
        flags
            .iter()
            .any(|(g, f)| *g == "secret/large" && f.contains(&"case_sensitive".to_owned()))
    );
    let guess = Problem::load(&example("guess")).expect("guess loads");
    assert!(guess.interactive && guess.validator.is_some());
    assert!(Problem::load(&example("oddsum")).expect("oddsum").scoring);
}

#[test]
fn a_zip_holding_the_package_folder_loads() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("tiny.zip");
    super::super::unzip::write_test_zip(
        &path,
        &[
            ("tiny/problem.yaml", "name: Tiny\n"),
            ("tiny/data/sample/1.in", "1\n"),
            ("tiny/data/sample/1.ans", "1\n"),
            ("tiny/submissions/accepted/cat.py", "print(input())\n"),
        ],
    );
    let p = Problem::load(&path).expect("the zip loads");
    assert_eq!(p.root.all_cases().len(), 1);
    assert_eq!(p.submissions[0].name, "accepted/cat.py");
    assert!(p.submissions[0].path.is_file());
    // A .zip of no package says so.
    let bad = dir.path().join("bad.zip");
    super::super::unzip::write_test_zip(&bad, &[("readme.txt", "")]);
    assert!(Problem::load(&bad).unwrap_err().contains("no problem.yaml"));
}
