//! The corpus as a whole: every faulty file is refused by the reference
//! with `Incorrect file contents`, exit 5 and nothing on stdout (property
//! over sizes and seeds); every control loads; every class appears; the
//! same arguments give the same bytes; the command line.

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "helpers of tests fail the test by panicking"
)]

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use nogo_corpus::generate::{GAME, outcome};
use nogo_corpus::{Class, Spec, build, generate};
use proptest::prelude::*;

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

/// Every file of `dir` below it, relative, sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.push((rel, fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn every_faulty_file_is_incorrect_file_contents_exit_5(
        height in 4usize..14,
        width in 4usize..14,
        seed in any::<u64>(),
    ) {
        let dir = tempdir();
        let entries = generate(&Spec { height, width, seed }, dir.path()).unwrap();
        for e in &entries {
            let game = dir.path().join(e.category).join(format!("{}.game", e.name));
            let (status, stdout, stderr) = outcome(&game);
            prop_assert_eq!((status, &stdout, &stderr), (e.status, &e.stdout, &e.stderr));
            if e.sample.class.is_control() {
                prop_assert_eq!(status, 6, "{}", e.name);
                prop_assert!(stdout.ends_with(b"> "));
                prop_assert_eq!(&stderr[..], b"End of input from user\n");
            } else {
                prop_assert_eq!(status, 5, "{}", e.name);
                prop_assert!(stdout.is_empty());
                prop_assert_eq!(&stderr[..], b"Incorrect file contents\n");
            }
        }
    }
}

#[test]
fn every_class_on_small_and_extreme_sizes() {
    for (height, width) in [(4, 4), (5, 9), (1000, 4), (4, 1000)] {
        let samples = build(&Spec {
            height,
            width,
            seed: 3,
        });
        let classes: BTreeSet<&str> = samples.iter().map(|s| s.class.name()).collect();
        assert_eq!(classes.len(), Class::ALL.len(), "{height}x{width}");
        for s in &samples {
            nogo_corpus::generate::classify(s).unwrap();
        }
        let names: BTreeSet<(&str, &str)> = samples
            .iter()
            .map(|s| (s.class.name(), s.variant.as_str()))
            .collect();
        assert_eq!(names.len(), samples.len(), "variant names are unique");
    }
}

#[test]
fn same_arguments_same_bytes_other_seed_other_bytes() {
    let (a, b, c) = (tempdir(), tempdir(), tempdir());
    let spec = Spec {
        height: 6,
        width: 7,
        seed: 42,
    };
    generate(&spec, a.path()).unwrap();
    generate(&spec, b.path()).unwrap();
    generate(&Spec { seed: 43, ..spec }, c.path()).unwrap();
    assert_eq!(tree(a.path()), tree(b.path()));
    assert_ne!(tree(a.path()), tree(c.path()));
}

#[test]
fn cases_are_in_the_suite_format() {
    let dir = tempdir();
    let entries = generate(
        &Spec {
            height: 4,
            width: 5,
            seed: 0,
        },
        dir.path(),
    )
    .unwrap();
    assert!(dir.path().join("suite.yaml").is_file());
    for e in &entries {
        let yaml = fs::read_to_string(dir.path().join(e.category).join(format!("{}.yaml", e.name)))
            .unwrap();
        assert!(yaml.contains(&format!("category: {}\n", e.category)));
        assert!(yaml.contains(&format!("args: [h, h, {GAME}]\n")));
        assert!(yaml.contains(&format!("status: {}\n", e.status)));
        assert_eq!(yaml.contains("ambiguous"), e.ambiguous, "{}", e.name);
        if e.sample.class.is_control() {
            assert!(yaml.contains("stdout-file: "));
        }
    }
}

fn corpus_cmd() -> assert_cmd::Command {
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_nogo-corpus"))
}

#[test]
fn cli_classes_and_generate() {
    let out = corpus_cmd()
        .arg("classes")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        out.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count(),
        Class::ALL.len()
    );
    let dir = tempdir();
    let target = dir.path().join("c");
    corpus_cmd()
        .args(["generate", "--height", "4", "--width", "6", "--out"])
        .arg(&target)
        .assert()
        .code(0);
    corpus_cmd()
        .args(["generate", "--height", "4", "--width", "6", "--out"])
        .arg(&target)
        .assert()
        .code(1);
    corpus_cmd()
        .args(["generate", "--height", "3", "--width", "6", "--out"])
        .arg(dir.path().join("d"))
        .assert()
        .code(2);
}
