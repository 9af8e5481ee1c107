//! Problem packages written here, at test time, each into a temporary
//! folder (tiny Python validators and submissions): a custom output
//! validator's own score (`score.txt`) under `run` and `mark`, a parent
//! group's `grader_flags` over its subgroups under `mark` as `verify`
//! grades them, and `input_validator_flags` passed to the input
//! validators `diff` runs (both formats' namings).

use super::*;

/// Writes `files` (path below `root`, text) into `root`.
fn write_all(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let at = root.join(path);
        std::fs::create_dir_all(at.parent().expect("a parent")).expect("mkdir");
        std::fs::write(&at, text).expect("write");
    }
}

/// A package doubling a number, its input validator needing `max N` as
/// its arguments (without them it rejects everything), written with
/// `problem_yaml`, the validator folder `validators` and the testdata.yaml
/// of `data/`.
fn doubling(root: &Path, problem_yaml: &str, validators: &str, testdata: &str) {
    let validator = "import sys\nargs = sys.argv[1:]\nif len(args) != 2 or args[0] != 'max':\n    \
                     sys.exit(43)\ntry:\n    n = int(sys.stdin.read().split()[0])\nexcept (ValueError, IndexError):\n    \
                     sys.exit(43)\nsys.exit(42 if 0 <= n <= int(args[1]) else 43)\n";
    write_all(
        root,
        &[
            ("problem.yaml", problem_yaml),
            ("data/testdata.yaml", testdata),
            ("data/sample/1.in", "3\n"),
            ("data/sample/1.ans", "6\n"),
            ("data/secret/1.in", "5\n"),
            ("data/secret/1.ans", "10\n"),
            (&format!("{validators}/range.py"), validator),
            (
                "submissions/accepted/double.py",
                "print(2 * int(input()))\n",
            ),
        ],
    );
}

#[test]
fn diff_passes_input_validator_flags_to_the_input_validators_in_both_formats() {
    let dir = tempfile::tempdir().expect("dir");
    // Right on the package's own inputs only: an input varied from them
    // finds it, once the validator accepts one, which it does only with
    // its arguments (`max 1000`).
    let wrong = dir.path().join("wrong.py");
    std::fs::write(
        &wrong,
        "n = int(input().split()[0])\nprint(2 * n if n in (3, 5) else 0)\n",
    )
    .expect("write");
    let bin = format!("python3 {}", wrong.display());
    // From the temporary folder: diff writes its findings under diff-cases/.
    let diff = |package: &Path| {
        let out = Command::cargo_bin("boxes-harness")
            .expect("the harness binary")
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .env("CONFORMANCE_CONTAINMENT", "group")
            .args([
                "diff",
                "-j",
                "2",
                "--sessions",
                "6",
                "--seed",
                "1",
                "--spec",
            ])
            .arg(package)
            .args(["--bin", &bin])
            .output()
            .expect("the harness runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code(), text)
    };
    let legacy = dir.path().join("legacy");
    doubling(
        &legacy,
        "name: Double\n",
        "input_format_validators",
        "input_validator_flags: max 1000\n",
    );
    let (code, text) = diff(&legacy);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("1 distinct mismatch"), "{text}");
    let draft = dir.path().join("draft");
    doubling(
        &draft,
        "problem_format_version: 2023-07-draft\nname: Double\n",
        "input_validators",
        "input_validator_args:\n  range: [max, 1000]\n",
    );
    let (code, text) = diff(&draft);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("1 distinct mismatch"), "{text}");
}

/// A legacy scoring package whose output validator scores a case by how
/// near the program's number is to the answer (10 less the distance,
/// at least 0) and rejects a negative one; its sample ignored, each
/// case worth 10 when accepted without a score.
fn nearness(root: &Path) {
    write_all(
        root,
        &[
            // Its own flags: it would inherit ignore_sample (its last case only).
            ("data/secret/testdata.yaml", "grader_flags: sum\n"),
            ("data/secret/1.in", "20\n"),
            ("data/secret/1.ans", "20\n"),
            ("data/secret/2.in", "30\n"),
            ("data/secret/2.ans", "30\n"),
        ],
    );
    nearness_base(root);
}

/// [`nearness`]'s problem.yaml, root flags, sample and validator.
fn nearness_base(root: &Path) {
    let validator = "import sys\nn = int(open(sys.argv[1]).read())\ntry:\n    x = \
                     int(sys.stdin.read())\nexcept ValueError:\n    x = -1\nif x < 0:\n    \
                     open(sys.argv[3] + 'judgemessage.txt', 'w').write(f'{x} is negative')\n    \
                     sys.exit(43)\nopen(sys.argv[3] + 'score.txt', 'w').write(str(max(0, 10 - \
                     abs(x - n))))\nsys.exit(42)\n";
    write_all(
        root,
        &[
            (
                "problem.yaml",
                "name: Near\ntype: scoring\nvalidation: custom score\nlimits:\n  time_limit: 2\n",
            ),
            (
                "data/testdata.yaml",
                "on_reject: continue\ngrader_flags: ignore_sample\naccept_score: 10\n",
            ),
            ("data/sample/1.in", "10\n"),
            ("data/sample/1.ans", "10\n"),
            ("output_validators/near/near.py", validator),
        ],
    );
}

#[test]
fn run_takes_a_scoring_validators_own_score_into_the_marks() {
    let dir = tempfile::tempdir().expect("dir");
    let package = dir.path().join("near");
    nearness(&package);
    let off = dir.path().join("off.py");
    std::fs::write(&off, "print(int(input()) - 2)\n").expect("write");
    let bin = format!("python3 {}", off.display());
    let results = dir.path().join("results.json");
    let run = || {
        let spec = ["--spec".as_ref(), package.as_os_str(), "--bin".as_ref()];
        let rest = [bin.as_ref(), "--score".as_ref(), "--results".as_ref()];
        harness(&[&spec[..], &rest, &[results.as_os_str()]].concat())
    };
    let (code, text) = run();
    // Accepted everywhere, 8 of 10 a case by the validator's score.txt:
    // 16 of the secret group's 20 (a pass-fail share would give 20).
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.lines().any(|l| l.contains("secret")
            && l.contains("16.00 / 20")
            && l.contains("(scored by the validator: 8, 8)")),
        "{text}"
    );
    assert!(text.contains("estimated mark: 16.00 / 20"), "{text}");
    // The results document carries each case's score.
    let doc = std::fs::read_to_string(&results).expect("results.json");
    assert_eq!(doc.matches("\"score\": 8.0").count(), 3, "{doc}");
    // A rejection is the validator's reason, scored nothing.
    std::fs::write(&off, "print(-int(input()))\n").expect("write");
    let (code, text) = run();
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("the output validator: -10 is negative")
            && text.contains("estimated mark: 0.00 / 20"),
        "{text}"
    );
}

#[test]
fn mark_combines_subgroups_by_their_parents_grader_over_the_validators_scores() {
    let dir = tempfile::tempdir().expect("dir");
    let package = dir.path().join("near");
    nearness_base(&package);
    // `secret` takes the least of its two groups (all or nothing across
    // them), each group one case scored by the validator.
    write_all(
        &package,
        &[
            ("data/secret/testdata.yaml", "grader_flags: min\n"),
            ("data/secret/g1/1.in", "20\n"),
            ("data/secret/g1/1.ans", "20\n"),
            ("data/secret/g2/1.in", "30\n"),
            ("data/secret/g2/1.ans", "30\n"),
        ],
    );
    let class = dir.path().join("class");
    write_all(
        &class,
        &[
            ("ana/exact.py", "print(int(input()))\n"),
            // Off by 2 on 20 only: 8 in g1, 10 in g2.
            (
                "ben/near.py",
                "n = int(input())\nprint(n - 2 if n == 20 else n)\n",
            ),
        ],
    );
    let out = dir.path().join("out");
    let (code, text) = mark(&package, &class, &out);
    assert_eq!(code, Some(0), "{text}");
    let csv = std::fs::read_to_string(out.join("marks.csv")).expect("marks.csv");
    let marks = |who: &str| csv_marks(&csv, who, &["g1", "g2", "total"]);
    // Each group its own grade; the total the parent's `min` of them,
    // as verify grades it (their sum would be 18 of 20).
    assert_eq!(marks("ana"), ["10", "10", "10"], "{csv}");
    assert_eq!(marks("ben"), ["8", "10", "8"], "{csv}");
    let cohort = std::fs::read_to_string(out.join("cohort.json")).expect("cohort.json");
    assert!(cohort.contains("\"max\": 10.0"), "{cohort}");
    // verify grades the same two as jury submissions alike: 10 (the full
    // score) and 8.
    for (from, to) in [
        ("ana/exact.py", "accepted/exact.py"),
        ("ben/near.py", "partially_accepted/near.py"),
    ] {
        let to = package.join("submissions").join(to);
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("mkdir");
        std::fs::copy(class.join(from), to).expect("copy");
    }
    let (code, text) = verify(&package);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("partially_accepted/near.py") && l.contains("AC 8 ")),
        "{text}"
    );
}
