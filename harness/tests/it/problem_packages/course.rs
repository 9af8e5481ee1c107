//! A problem package for a course: `gradescope-autograder --spec
//! PACKAGE` (the package travels beside the scripts, `setup.sh` installs
//! its languages' tools and reads it once, and `run_autograder` on a fake
//! tree, the zip unpacked in `source/` as Gradescope does, marks a
//! submission by the package), and `publish`'s student's copy (samples,
//! statement and validator; no secret data, no jury submission), which
//! judges a program on the samples; a package sent as its `.zip`; and a
//! student's run writing every output format, none holding secret data.

use super::*;

#[test]
fn the_gradescope_autograder_takes_a_problem_package() {
    let dir = tempfile::tempdir().expect("dir");
    let package = copy(
        "hello",
        dir.path(),
        &["accepted/hello.py"],
        &["sample/1", "secret/01"],
    );
    let scripts = dir.path().join("zip");
    let (code, text) = harness(&[
        "gradescope-autograder".as_ref(),
        "--spec".as_ref(),
        package.as_os_str(),
        "--out".as_ref(),
        scripts.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(scripts.join("hello/problem.yaml").is_file());
    assert!(scripts.join("hello/data/secret/01.ans").is_file());
    let setup = std::fs::read_to_string(scripts.join("setup.sh")).expect("setup.sh");
    assert!(setup.contains("packages=\"python3\"\n"), "{setup}");
    assert!(setup.contains("list --spec \"$here/hello\""), "{setup}");
    let script = std::fs::read_to_string(scripts.join("run_autograder")).expect("script");
    assert!(script.contains("--spec \"$root/source/hello\""), "{script}");

    let tree = dir.path().join("autograder");
    std::fs::create_dir_all(tree.join("submission")).expect("tree");
    let copied = std::process::Command::new("cp")
        .arg("-R")
        .arg(&scripts)
        .arg(tree.join("source"))
        .status()
        .expect("cp");
    assert!(copied.success());
    std::fs::copy(
        example("hello/submissions/accepted/hello.py"),
        tree.join("submission/hello.py"),
    )
    .expect("the submission");
    let out = std::process::Command::new(scripts.join("run_autograder"))
        .env("AUTOGRADER_ROOT", &tree)
        .env(
            "AUTOGRADER_HARNESS",
            assert_cmd::cargo::cargo_bin("boxes-harness"),
        )
        .env("TMPDIR", dir.path())
        .env("CONFORMANCE_CONTAINMENT", "group")
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run_autograder");
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{said}");
    let results = std::fs::read_to_string(tree.join("results/results.json")).expect("results");
    let grade: serde_json::Value = serde_json::from_str(&results).expect("json");
    let score = grade["score"].as_f64().expect("a score");
    let max: f64 = grade["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .filter_map(|t| t["max_score"].as_f64())
        .sum();
    assert!(max > 0.0 && (score - max).abs() < 1e-9, "{grade}\n{said}");
}

#[test]
fn publish_writes_a_copy_without_secret_data_or_submissions_that_judges_the_samples() {
    let dir = tempfile::tempdir().expect("dir");
    let package = copy("pairsum", dir.path(), &["accepted/one.py"], &[]);
    let out = dir.path().join("student");
    let (code, text) = harness(&[
        "publish".as_ref(),
        "--spec".as_ref(),
        package.as_os_str(),
        out.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("1 public case(s); left out 4 secret case(s) and the jury's 1 submission(s)"),
        "{text}"
    );
    let mut files: Vec<String> = walk(&out);
    files.sort();
    assert_eq!(
        files,
        [
            "STUDENT-COPY.md",
            "data/sample/1.ans",
            "data/sample/1.in",
            "output_validator/validate.py",
            "problem.yaml"
        ],
    );
    let one = example("pairsum/submissions/accepted/one.py");
    let bin = format!("python3 {}", one.display());
    let (code, text) = harness(&[
        "--spec".as_ref(),
        out.as_os_str(),
        "--bin".as_ref(),
        bin.as_ref(),
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("1 passed; 0 failed"), "{text}");
}

/// Every file below `dir`, as a `/`-separated path relative to it.
fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_owned()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let rel = p
                    .strip_prefix(dir)
                    .expect("below")
                    .to_string_lossy()
                    .into_owned();
                out.push(rel);
            }
        }
    }
    out
}

#[test]
fn a_zipped_package_judges_as_its_folder_does() {
    let dir = tempfile::tempdir().expect("dir");
    let package = copy("hello", dir.path(), &[], &["sample/1", "secret/02"]);
    let zip = dir.path().join("hello.zip");
    let zipped = std::process::Command::new("python3")
        .args(["-m", "zipfile", "-c"])
        .arg(&zip)
        .arg(&package)
        .status()
        .expect("python3 zips");
    assert!(zipped.success());
    let right = example("hello/submissions/accepted/hello.py");
    let wrong = example("hello/submissions/wrong_answer/first_name.py");
    for (program, status, said) in [
        (right, 0, "2 passed; 0 failed"),
        (wrong, 1, "1 passed; 1 failed"),
    ] {
        let bin = format!("python3 {}", program.display());
        let (code, text) = harness(&[
            "--spec".as_ref(),
            zip.as_os_str(),
            "--bin".as_ref(),
            bin.as_ref(),
        ]);
        assert_eq!(code, Some(status), "{text}");
        assert!(text.contains(said), "{text}");
    }
}

#[test]
fn no_student_facing_output_of_a_run_on_a_package_carries_its_secret_data() {
    // Every output format a student's run writes (results, JUnit,
    // Gradescope, GitHub's output and step summary, PrairieLearn, the
    // kits of failed cases, the terminal): none holds a byte of a
    // failing secret case's input, answer or output; the marker's does.
    let dir = tempfile::tempdir().expect("dir");
    let root = dir.path();
    let package = copy("pairsum", root, &[], &["sample/1"]);
    std::fs::create_dir_all(package.join("data/secret")).expect("mkdir");
    std::fs::write(package.join("data/secret/zebra.in"), "8675309\n").expect("write");
    std::fs::write(package.join("data/secret/zebra.ans"), "1 8675308\n").expect("write");
    // Wrong on both cases (5 gives `2 2`): a public failure shown whole
    // beside the secret one.
    std::fs::write(
        root.join("halves.py"),
        "n = int(input())\nprint(n // 2, n // 2)\n",
    )
    .expect("write");
    let out = root.join("out");
    let run = |marker: bool| {
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).expect("mkdir");
        let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
        cmd.current_dir(root)
            .env("NO_COLOR", "1")
            .arg("--spec")
            .arg(&package)
            .args(["--bin", "python3 halves.py"]);
        crate::secret::every_output(&mut cmd, &out);
        if marker {
            cmd.arg("--marker");
        }
        let ran = cmd.output().expect("the harness runs");
        let said = String::from_utf8_lossy(&ran.stdout).into_owned()
            + &String::from_utf8_lossy(&ran.stderr);
        (ran.status.code(), said)
    };
    let leaks = |said: &str| {
        let mut found: Vec<String> = ["8675309", "8675308", "4337654"]
            .iter()
            .filter(|n| said.contains(*n))
            .map(|n| format!("the terminal: {n}"))
            .collect();
        for file in walk(&out) {
            let bytes = std::fs::read(out.join(&file)).expect("read");
            for n in ["8675309", "8675308", "4337654"] {
                if bytes.windows(n.len()).any(|w| w == n.as_bytes()) {
                    found.push(format!("{file}: {n}"));
                }
            }
        }
        found
    };
    let (code, said) = run(false);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("secret case(s) failed"), "{said}");
    assert_eq!(leaks(&said), Vec::<String>::new(), "{said}");
    assert!(out.join("gradescope.json").is_file() && out.join("pl/results.json").is_file());
    let grade = std::fs::read_to_string(out.join("gradescope.json")).expect("gradescope.json");
    assert!(grade.contains("\"visibility\": \"hidden\""), "{grade}");
    // The marker sees it all.
    let (code, said) = run(true);
    assert_eq!(code, Some(1), "{said}");
    assert!(!leaks(&said).is_empty(), "{said}");
}
