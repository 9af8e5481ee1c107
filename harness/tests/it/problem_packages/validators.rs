//! Problem packages judged by their own validators under `run` and
//! `mark`: a custom output validator's reason, a crashing one a fault of
//! the package, an interactive problem's program contained and joined to
//! its validator, and no secret byte in a student's outputs.

use super::*;

#[test]
fn run_names_a_custom_validators_reason_and_a_crashing_validator_is_exit_2() {
    let dir = tempfile::tempdir().expect("dir");
    let package = copy("pairsum", dir.path(), &[], &["sample/1", "secret/10"]);
    let halves = example("pairsum/submissions/wrong_answer/halves.py");
    let bin = format!("python3 {}", halves.display());
    let run = || {
        harness(&[
            "--spec".as_ref(),
            package.as_os_str(),
            "--bin".as_ref(),
            bin.as_ref(),
        ])
    };
    let (code, text) = run();
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(
            "judged: stdout compared by checker `builtin:kattis-validator` (case): the output \
             validator: 2 + 2 is not 5"
        ) && text.contains("1 passed; 1 failed"),
        "{text}"
    );
    // A validator that crashes is the package's fault, never the program's.
    std::fs::write(
        package.join("output_validator/validate.py"),
        "raise ValueError('a broken validator')\n",
    )
    .expect("write");
    let (code, text) = run();
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("ValueError: a broken validator") && text.contains("a fault of the checker"),
        "{text}"
    );
}

/// What `mark_class` found: `marks.csv`, the marker's `results.json`
/// of ben, the output folder (in the temporary folder).
type Marked = (String, String, PathBuf, tempfile::TempDir);

/// Column `n` of `marks.csv` for ana, ben and cy.
fn column(csv: &str, n: usize) -> [String; 3] {
    ["ana", "ben", "cy"].map(|who| {
        let row = csv
            .lines()
            .find(|l| l.starts_with(&format!("{who},")))
            .expect("a row");
        row.split(',').nth(n).expect("the column").to_owned()
    })
}

/// A class on a copy of the example `name` (the cases `cases` and one
/// more secret case `extra`), each student's `main.py` (`PACKAGE` its
/// path), marked at the default containment; no student-facing file
/// holds one of `needles` (the secret case's).
fn mark_class(
    name: &str,
    cases: &[&str],
    extra: (&str, &str, &str),
    class: &[(&str, &str)],
    needles: &[&str],
) -> Marked {
    let temp = tempfile::tempdir().expect("dir");
    let dir = temp.path().to_owned();
    let package = copy(name, &dir, &[], cases);
    let (case, input, answer) = extra;
    std::fs::create_dir_all(package.join("data/secret")).expect("mkdir");
    std::fs::write(package.join(format!("data/secret/{case}.in")), input).expect("write");
    std::fs::write(package.join(format!("data/secret/{case}.ans")), answer).expect("write");
    for (who, source) in class {
        let at = dir.join("class").join(who);
        std::fs::create_dir_all(&at).expect("mkdir");
        let source = source.replace("PACKAGE", &package.display().to_string());
        std::fs::write(at.join("main.py"), source).expect("write");
    }
    let out = dir.join("out");
    let run = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env("NO_COLOR", "1")
        .args(["mark", "--spec"])
        .arg(&package)
        .arg(dir.join("class"))
        .arg("--out")
        .arg(&out)
        .output()
        .expect("the harness runs");
    let said = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(run.status.code(), Some(0), "{said}");
    let mut leaks = Vec::new();
    let mut todo = vec![out.clone()];
    while let Some(at) = todo.pop() {
        for entry in std::fs::read_dir(&at)
            .expect("read_dir")
            .map(|e| e.expect("entry").path())
        {
            if entry.starts_with(out.join("marker")) || entry.starts_with(out.join("programs")) {
                continue;
            }
            if entry.is_dir() {
                todo.push(entry);
            } else {
                let bytes = std::fs::read(&entry).expect("read");
                if needles
                    .iter()
                    .any(|n| bytes.windows(n.len()).any(|w| w == n.as_bytes()))
                {
                    leaks.push(entry.display().to_string());
                }
            }
        }
    }
    let csv = std::fs::read_to_string(out.join("marks.csv")).expect("marks.csv");
    assert_eq!(leaks, Vec::<String>::new(), "{csv}");
    let marker =
        std::fs::read_to_string(out.join("marker/ben/results.json")).expect("the marker's results");
    (csv, marker, out, temp)
}

/// A submission that reads every answer it can reach: the package's
/// data and the validator's folders.
const PEEK: &str = "import glob\nfound = []\nfor p in sorted(glob.glob('PACKAGE/data/*/*.ans') + \
                    glob.glob('/tmp/conformance-validator-*/answer')):\n    try:\n        \
                    found.append(open(p).read().strip())\n    except OSError:\n        pass\n";

#[test]
fn mark_of_a_custom_validator_class_shows_no_secret_and_no_program_reads_the_answers() {
    let (csv, marker, out, _temp) = mark_class(
        "pairsum",
        &["sample/1"],
        ("zebra", "8675309\n", "1 8675308\n"),
        &[
            ("ana", "n = int(input())\nprint(1, n - 1)\n"),
            ("ben", "n = int(input())\nprint(n // 2, n // 2)\n"),
            // What it could read would be its output, shown for the sample.
            (
                "cy",
                &format!("{PEEK}print(' '.join(found) or 'nothing')\n"),
            ),
        ],
        &["8675309", "4337654"],
    );
    // The total.
    assert_eq!(column(&csv, 8), ["2", "0", "0"], "{csv}");
    assert!(marker.contains("4337654 4337654"), "{marker}");
    let cy = std::fs::read_to_string(out.join("submissions/cy/report.txt")).expect("report");
    assert!(cy.contains("got 'nothing'"), "{cy}");
}

#[test]
fn mark_of_an_interactive_class_shows_no_secret_and_no_program_reads_the_answers() {
    let guesses = "for g in found_or + list(range(1, 11)):\n    print(g, flush=True)\n    \
                   if input().strip() == 'correct':\n        break\n";
    let (csv, marker, _out, _temp) = mark_class(
        "guess",
        &["sample/1"],
        ("zebra", "637\n", "637\n"),
        &[
            (
                "ana",
                &std::fs::read_to_string(example("guess/submissions/accepted/bisect.py"))
                    .expect("bisect.py"),
            ),
            ("ben", &format!("found_or = []\n{guesses}")),
            (
                "cy",
                &format!("{PEEK}found_or = [int(f) for f in found]\n{guesses}"),
            ),
        ],
        // The validator's message quotes it; no other bytes of it are
        // shown for a conversation (a time could hold the digits).
        &["finding 637"],
    );
    // The secret group: guessing 1 to 10 finds the sample's 1, never the
    // secret 637; nor does a program looking for the answer files.
    assert_eq!(column(&csv, 7), ["1", "0", "0"], "{csv}");
    assert!(
        marker.contains("10 guesses without finding 637"),
        "{marker}"
    );
}

#[test]
fn an_interactive_program_is_contained_with_fds_0_to_2_only() {
    let dir = tempfile::tempdir().expect("dir");
    let package = copy("guess", dir.path(), &[], &["sample/1"]);
    // Its first guess is the list of its descriptors (`ls` opens the
    // fourth to read the folder), which the validator quotes.
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env("NO_COLOR", "1")
        .arg("--spec")
        .arg(&package)
        .args(["--bin", "sh -c 'ls /proc/self/fd | tr \"\\n\" \" \"; echo'"])
        .output()
        .expect("the harness runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("conversation: the output validator: guess 1 is not a number: '0 1 2 3'"),
        "{text}"
    );
}

#[test]
fn a_custom_validator_judges_at_full_containment_and_no_program_reads_it() {
    // At `full` the checker's mount namespace shows the built validator
    // (read-only); the program's shows neither it, nor the package's
    // answers, nor its validator's source. The program prints the right
    // sum only where it found nothing to read, so exit 0 needs both.
    let dir = tempfile::tempdir().expect("dir");
    let package = copy("pairsum", dir.path(), &[], &["sample/1", "secret/10"]);
    let runs = dir.path().join("runs");
    std::fs::create_dir(&runs).expect("mkdir");
    let peeked = [
        format!("{}/data/*/*.ans", package.display()),
        format!("{}/output_validator/*", package.display()),
        format!("{}/conformance-model-*/*", runs.display()),
    ];
    assert!(
        package.join("data/secret/10.ans").is_file()
            && package.join("output_validator/validate.py").is_file()
    );
    // In a folder of its own: a program reads its own folder.
    let program = dir.path().join("program/peek.py");
    std::fs::create_dir(dir.path().join("program")).expect("mkdir");
    std::fs::write(
        &program,
        format!(
            "import glob\nfound = []\nfor pattern in {peeked:?}:\n    for p in glob.glob(pattern):\n        \
             try:\n            found.append(open(p).read().strip()[:20])\n        except OSError:\n            \
             pass\nn = int(input())\nprint(' '.join(found) if found else f'1 {{n - 1}}')\n"
        ),
    )
    .expect("write");
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env("NO_COLOR", "1")
        .env("CONFORMANCE_CONTAINMENT", "full")
        .env("TMPDIR", &runs)
        .arg("--spec")
        .arg(&package)
        .arg("--bin")
        .arg(format!("python3 {}", program.display()))
        .output()
        .expect("the harness runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("2 passed; 0 failed"), "{text}");
}
