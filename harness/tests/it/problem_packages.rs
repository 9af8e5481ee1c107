//! `verify` on the problem packages of `examples/problems/`
//! (docs/problem-packages.md): every runnable jury submission agrees with
//! its folder (the legacy and the 2023-07 formats; float tolerance with
//! nested groups' flags, scoring groups, an interactive validator, a
//! custom validator), and a submission put in the wrong folder makes
//! `verify` exit 1 naming it; and a package as a spec pack: the default
//! run judges a program by the validator (the cause naming the group and
//! its reason), `mark` gives marks per group, and marks a class in any
//! language (a multi-file Java submission whose class holding `main` is
//! not named after its file, a Python one, one raising whose traceback
//! names its own file and line, as `run`'s cause does; a missing compiler the
//! environment's failure, a compile error the student's). To stay cheap
//! each test copies a package keeping its Python submissions (one C
//! submission, compiled once; Kotlin and C# in `languages`) and, where a
//! package has many cases, fewer of them.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

mod diff;

use std::path::{Path, PathBuf};

use assert_cmd::Command;

mod course;
mod languages;
mod scoring;
mod validators;

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/problems")
        .join(name)
}

/// A copy of the example package `name` in `dir`, holding only the
/// submissions `keep` (`accepted/one.py`) and the cases `cases` (all when
/// empty: paths below `data/` without extension).
fn copy(name: &str, dir: &Path, keep: &[&str], cases: &[&str]) -> PathBuf {
    fn walk(from: &Path, rel: &str, out: &mut Vec<(String, PathBuf)>) {
        let mut entries: Vec<_> = std::fs::read_dir(from)
            .expect("read_dir")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            let child = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            if path.is_dir() {
                walk(&path, &child, out);
            } else {
                out.push((child, path));
            }
        }
    }
    let to = dir.join(name);
    let mut files = Vec::new();
    walk(&example(name), "", &mut files);
    for (rel, from) in files {
        let wanted = if let Some(sub) = rel.strip_prefix("submissions/") {
            keep.contains(&sub)
        } else if let Some(case) = rel.strip_prefix("data/")
            && Path::new(&rel)
                .extension()
                .is_some_and(|e| e == "in" || e == "ans")
        {
            cases.is_empty()
                || cases
                    .iter()
                    .any(|c| case.rsplit_once('.').is_some_and(|(s, _)| s == *c))
        } else {
            true
        };
        if !wanted {
            continue;
        }
        let target = to.join(&rel);
        std::fs::create_dir_all(target.parent().expect("a parent")).expect("mkdir");
        std::fs::copy(&from, &target).expect("copy");
    }
    to
}

/// `verify --spec PACKAGE`: its exit status and its table.
fn verify(package: &Path) -> (Option<i32>, String) {
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env("NO_COLOR", "1")
        // Verdicts, not containment (tests/it/contain.rs): the cheapest level.
        .env("CONFORMANCE_CONTAINMENT", "group")
        .args(["verify", "-j", "2", "--spec"])
        .arg(package)
        .output()
        .expect("the harness runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

/// Asserts every listed submission agrees and `verify` exits 0.
fn all_agree(package: &Path, subs: &[&str]) -> String {
    let (code, text) = verify(package);
    assert_eq!(code, Some(0), "{text}");
    for s in subs {
        assert!(
            text.lines()
                .any(|l| l.starts_with(s) && l.contains(" agrees")),
            "{s} should agree:\n{text}"
        );
    }
    text
}

#[test]
fn float_tolerance_in_nested_groups_of_a_2023_07_package() {
    let dir = tempfile::tempdir().expect("dir");
    let subs = ["accepted/mean.py", "wrong_answer/two_places.py"];
    let text = all_agree(&copy("average", dir.path(), &subs, &[]), &subs);
    // 2.33 against 2.333333333 at 1e-6: the cause names both values and the tolerance.
    assert!(
        text.contains("WA in group sample, case sample/1")
            && text.contains("expected `2.333333333`, got `2.33`")
            && text.contains("absolute 1e-6, relative 1e-6"),
        "{text}"
    );
}

#[test]
fn scoring_groups_give_full_and_partial_scores() {
    let dir = tempfile::tempdir().expect("dir");
    // A C submission compiled once, partially accepted: scores between.
    let subs = [
        "accepted/oddsum.py",
        "wrong_answer/all.py",
        "partially_accepted/int32.c",
    ];
    let text = all_agree(&copy("oddsum", dir.path(), &subs, &[]), &subs);
    assert!(text.contains("AC 100") && text.contains("WA 0"), "{text}");
}

#[test]
fn a_submission_in_the_wrong_folder_is_named_and_exits_1() {
    let dir = tempfile::tempdir().expect("dir");
    let package = copy(
        "oddsum",
        dir.path(),
        &["accepted/oddsum.py", "wrong_answer/all.py"],
        &[],
    );
    std::fs::rename(
        package.join("submissions/wrong_answer/all.py"),
        package.join("submissions/accepted/all.py"),
    )
    .expect("move");
    let (code, text) = verify(&package);
    assert_eq!(code, Some(1), "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("accepted/all.py"))
        .expect("its row");
    assert!(
        line.contains("DISAGREES") && line.contains("secret/group1/1"),
        "{text}"
    );
    assert!(text.contains("1 disagree with their folder"), "{text}");
}

#[test]
fn an_interactive_validator_talks_to_the_program() {
    let dir = tempfile::tempdir().expect("dir");
    // A program that never answers is a timeout, its folder's verdict.
    let subs = [
        "accepted/bisect.py",
        "wrong_answer/count_up.py",
        "time_limit_exceeded/silent.py",
    ];
    let text = all_agree(
        &copy("guess", dir.path(), &subs, &["sample/1", "sample/500"]),
        &subs,
    );
    assert!(text.contains("10 guesses without finding 500"), "{text}");
}

#[test]
fn a_custom_validator_gives_its_judgemessage_as_the_reason() {
    let dir = tempfile::tempdir().expect("dir");
    let subs = [
        "accepted/one.py",
        "wrong_answer/halves.py",
        "run_time_error/assert.py",
    ];
    let text = all_agree(
        &copy("pairsum", dir.path(), &subs, &["sample/1", "secret/10"]),
        &subs,
    );
    assert!(
        text.contains("WA in group sample, case sample/1: 2 + 2 is not 5"),
        "{text}"
    );
    // A crash names the exception and the submission's own line.
    assert!(
        text.contains(
            "RTE in group sample, case sample/1: status 1 (AssertionError (`./assert.py:2`): odd n)"
        ),
        "{text}"
    );
}

/// The harness on `args`, contained at the cheapest level: its exit
/// status, stdout and stderr.
fn harness(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env("NO_COLOR", "1")
        .env("CONFORMANCE_CONTAINMENT", "group")
        .args(args)
        .output()
        .expect("the harness runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

/// The marks of `who` in `marks.csv`'s `columns`.
fn csv_marks(csv: &str, who: &str, columns: &[&str]) -> Vec<String> {
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    let row = rows.iter().find(|r| r[0] == who).expect("a row");
    let at = |name: &&str| rows[0].iter().position(|c| c == name).expect("a column");
    columns.iter().map(|c| row[at(c)].to_owned()).collect()
}

/// `mark --spec PACKAGE CLASS --out OUT`, two at a time.
fn mark(package: &Path, class: &Path, out: &Path) -> (Option<i32>, String) {
    harness(&[
        "mark".as_ref(),
        "--spec".as_ref(),
        package.as_os_str(),
        class.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--jobs".as_ref(),
        "2".as_ref(),
        // Marks, not containment (tests/it/contain.rs and mark's own).
        "--allow-weaker-containment".as_ref(),
    ])
}

#[test]
fn run_passes_an_accepted_submission_and_fails_a_wrong_one_naming_group_and_reason() {
    let dir = tempfile::tempdir().expect("dir");
    let subs = ["accepted/mean.py", "wrong_answer/two_places.py"];
    let package = copy(
        "average",
        dir.path(),
        &subs,
        &["sample/1", "secret/large/1"],
    );
    let bin = |sub: &str| {
        format!(
            "python3 {}",
            package.join("submissions").join(sub).display()
        )
    };
    let run = |sub: &str| {
        harness(&[
            "--spec".as_ref(),
            package.as_os_str(),
            "--bin".as_ref(),
            bin(sub).as_ref(),
        ])
    };
    let (code, text) = run(subs[0]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("2 passed; 0 failed"), "{text}");
    let (code, text) = run(subs[1]);
    assert_eq!(code, Some(1), "{text}");
    // The group and the validator's reason; a problem package has no rules.
    assert!(
        text.contains("test case data/sample/1 of group sample")
            && text.contains(
                "the default output validator: line 1 of the output (line 1 of the answer): \
                 expected `2.333333333`, got `2.33`"
            )
            && text.contains("1 passed; 1 failed"),
        "{text}"
    );
}

#[test]
fn mark_gives_marks_per_group_and_a_scoring_problem_its_group_scores() {
    let dir = tempfile::tempdir().expect("dir");
    let package = copy("oddsum", dir.path(), &["accepted/oddsum.py"], &[]);
    let class = dir.path().join("class");
    let sources = [
        (
            "ana",
            "oddsum.py",
            example("oddsum/submissions/accepted/oddsum.py"),
        ),
        (
            "ben",
            "all.py",
            example("oddsum/submissions/wrong_answer/all.py"),
        ),
    ];
    for (who, file, from) in &sources {
        std::fs::create_dir_all(class.join(who)).expect("mkdir");
        std::fs::copy(from, class.join(who).join(file)).expect("copy");
    }
    std::fs::create_dir_all(class.join("cy")).expect("mkdir");
    std::fs::write(class.join("cy/zero.py"), "print(0)\n").expect("write");
    let out = dir.path().join("out");
    let (code, text) = mark(&package, &class, &out);
    assert_eq!(code, Some(0), "{text}");
    let csv = std::fs::read_to_string(out.join("marks.csv")).expect("marks.csv");
    let marks = |who: &str| csv_marks(&csv, who, &["sample", "group1", "group2", "total"]);
    // A scoring problem: group1 worth 30, group2 70, the sample nothing.
    assert_eq!(marks("ana"), ["0", "30", "70", "100"], "{csv}");
    // all.py sums even numbers too: wrong on both cases of group1 and
    // right on one of group2's; zero.py right on one of group1's. Both
    // groups are `grader_flags: min`: all or nothing, as verify grades
    // them (shared case by case they would give 35 and 15).
    assert_eq!(marks("ben"), ["0", "0", "0", "0"], "{csv}");
    assert_eq!(marks("cy"), ["0", "0", "0", "0"], "{csv}");
    // The package fixes no time limit: timed once for the class, said once.
    assert_eq!(
        text.matches("time limit 1 s: the slowest accepted case")
            .count(),
        1,
        "{text}"
    );
}

#[test]
fn mark_builds_each_submission_in_its_own_language() {
    let dir = tempfile::tempdir().expect("dir");
    let package = copy("hello", dir.path(), &[], &["sample/1", "secret/01"]);
    // Kotlin's compiler named as one no machine has: the skip path,
    // whether or not kotlinc is installed here.
    std::fs::write(
        package.join("languages.yaml"),
        "kotlin:\n  compile: no-kotlinc-here -d {path} {files}\n",
    )
    .expect("languages.yaml");
    let class = dir.path().join("class");
    let java = "import java.util.Scanner;\n\nclass Main {\n    public static void main(String[] args) {\n        \
                System.out.println(Greeter.greet(new Scanner(System.in).nextLine().trim()));\n    }\n}\n";
    let greeter = "public class Greeter {\n    static String greet(String name) {\n        \
                   return \"Hello, \" + name + \"!\";\n    }\n}\n";
    for (who, file, text) in [
        ("ada", "Solution.java", java),
        ("ada", "Greeter.java", greeter),
        (
            "bo",
            "hello.py",
            "name = input().strip()\nprint(f\"Hello, {name}!\")\n",
        ),
        (
            "cy",
            "Hello.kt",
            "fun main() = println(\"Hello, \" + readLine()!!.trim() + \"!\")\n",
        ),
        ("di", "hello.c", "int main(void) { return 0 }\n"),
        // Raises on line 3 of its own file: the cause must name that line.
        (
            "ed",
            "hello.py",
            "name = input().strip()\n\nraise ValueError(name)\n",
        ),
    ] {
        std::fs::create_dir_all(class.join(who)).expect("mkdir");
        std::fs::write(class.join(who).join(file), text).expect("write");
    }
    let out = dir.path().join("out");
    let (code, text) = mark(&package, &class, &out);
    // The missing compiler is the environment's: mark exits non-zero
    // saying so (exit 3), and no student is charged for it.
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains("ENVIRONMENT FAILURE")
            && text.contains("skipped: no no-kotlinc-here (Kotlin): cy"),
        "{text}"
    );
    let csv = std::fs::read_to_string(out.join("marks.csv")).expect("marks.csv");
    let row = |who: &str| {
        csv.lines()
            .find(|l| l.starts_with(&format!("{who},")))
            .unwrap_or_else(|| panic!("{who} in {csv}"))
            .to_owned()
    };
    // Java: javac once, the JVM started on `Main` (in Solution.java) with
    // its heap from the package's memory limit; Python as it was.
    assert!(row("ada").starts_with("ada,,,,ok,0,1,1,2,2,0,0,"), "{csv}");
    assert!(row("bo").starts_with("bo,,,,ok,0,1,1,2,2,0,0,"), "{csv}");
    // No mark at all (a gradebook reads none, not 0), the reason in the
    // first-cause column.
    assert!(
        row("cy").starts_with(
            "cy,,,,failed,0,,,,0,0,0,skipped: no no-kotlinc-here (Kotlin): not installed where \
             the marks run"
        ),
        "{csv}"
    );
    // A compile error is the student's build failure, never the machine's.
    assert!(row("di").starts_with("di,,,,failed,0,0,0,0,"), "{csv}");
    assert!(!text.contains(": di") && !text.contains("di,"), "{text}");
    // A script runs untouched behind the launcher: what the reproduce
    // line runs names the student's own file and line, not a copy
    // shifted by a `#!` line.
    let ed = out.join("programs/ed");
    assert_eq!(
        std::fs::read_to_string(ed.join("hello.py")).expect("ed's file"),
        "name = input().strip()\n\nraise ValueError(name)\n"
    );
    let crashed = std::process::Command::new(ed.join("solution"))
        .stdin(std::fs::File::open(package.join("data/sample/1.in")).expect("sample input"))
        .output()
        .expect("ed's launcher");
    let said = String::from_utf8_lossy(&crashed.stderr);
    assert!(
        said.contains(&format!(
            "File \"{}\", line 3,",
            ed.join("hello.py").display()
        )) && said.trim_end().ends_with("ValueError: World"),
        "{said}"
    );
    // Under `run` the crash is the cause, though no case judges stderr:
    // the exception and its line, its message from the public case only
    // (secret/01's input is `Ada`).
    let (code, text) = harness(&[
        "--spec".as_ref(),
        package.as_os_str(),
        "--bin".as_ref(),
        format!("python3 {}", class.join("ed/hello.py").display()).as_ref(),
    ]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("raises ValueError (`./hello.py:3`, saying `World`)")
            && text.contains("crash: raises ValueError (`./hello.py:3`)")
            && !text.contains("`Ada`"),
        "{text}"
    );
    let launcher =
        std::fs::read_to_string(out.join("programs/ada/solution")).expect("ada's launcher");
    assert!(
        launcher.contains(" -XX:+UseSerialGC ")
            && launcher.contains(" -Xmx")
            && launcher.contains(" -cp \"$d\" Main \"$@\""),
        "{launcher}"
    );
}

#[test]
fn a_package_without_a_time_limit_gets_the_one_its_accepted_submissions_derive() {
    let dir = tempfile::tempdir().expect("dir");
    let package = copy(
        "hello",
        dir.path(),
        &["accepted/hello.py"],
        &["sample/1", "secret/01"],
    );
    // Asleep, it spends no CPU: 3 s passes under the old flat 10 s and
    // is a timeout under the derived 1 s (0.0x s × 5, rounded up to 1).
    let sleeper = dir.path().join("sleeper.py");
    std::fs::write(
        &sleeper,
        "import time\ntime.sleep(3)\nprint('Hello, ' + input() + '!')\n",
    )
    .expect("write");
    let bin = format!("python3 {}", sleeper.display());
    let (code, text) = harness(&[
        "--spec".as_ref(),
        package.as_os_str(),
        "--bin".as_ref(),
        bin.as_ref(),
    ]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("time limit 1 s: the slowest accepted case")
            && text.contains("(accepted/hello.py on ")
            && text.contains("× 5, timeouts killed at 2 s (× 2)"),
        "{text}"
    );
    assert!(text.contains("0 passed; 2 failed"), "{text}");
    // No accepted submission: the default, said.
    std::fs::remove_file(package.join("submissions/accepted/hello.py")).expect("rm");
    let (_, text) = harness(&[
        "--spec".as_ref(),
        package.as_os_str(),
        "--bin".as_ref(),
        "true".as_ref(),
    ]);
    assert!(
        text.contains("time limit 10 s, the default: the package has no accepted submission"),
        "{text}"
    );
}
