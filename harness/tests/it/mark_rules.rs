//! The rules that make `mark` a lecturer can stand behind, each shown on
//! a small cohort made at test time (C wrappers that `exec` the harness's
//! own reference or a fixture variant): one run per `--out`, a class
//! marked against the wrong pack said loudly, a merge with a slice
//! missing refused, a folder and its zip alike, marks under load; and
//! ([`gradescope`]) a Gradescope autograder run end to end against a fake
//! `/autograder` tree, checked against the autograder's format.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::ffi::OsStr;
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use assert_cmd::Command;

mod gradescope;
mod model_runs;

fn wrapper(exe: &str, name: &str, env: &str) -> String {
    format!(
        "#include <stdlib.h>\n#include <unistd.h>\n\
         int main(int argc, char **argv) {{\n    (void)argc;\n{}    argv[0] = \"{name}\";\n    \
         execv(\"{exe}\", argv);\n    return 99;\n}}\n",
        if env.is_empty() {
            String::new()
        } else {
            format!("    setenv(\"CONFORMANCE_REFERENCE\", \"{env}\", 1);\n")
        }
    )
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

/// A submission whose program is the boxes reference.
fn boxes_submission(dir: &Path) {
    let harness = env!("CARGO_BIN_EXE_boxes-harness");
    write(
        &dir.join("main.c"),
        wrapper(harness, "boxes", "boxes").as_bytes(),
    );
}

/// The submissions' wrappers `exec` the harness and the fixtures in
/// `target/`, which a program under test may not read by default: the
/// tests allow that folder, as a course allows a runtime under `/opt`.
fn executables() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boxes-harness"))
        .parent()
        .expect("the harness lives in a folder")
}

fn harness(root: &Path) -> Command {
    let mut c = Command::cargo_bin("boxes-harness").expect("the harness binary");
    c.env("NO_COLOR", "1")
        .env("TMPDIR", root)
        .env_remove("CONFORMANCE_REFERENCE")
        .env("CONFORMANCE_ALLOW_READ", executables());
    c
}

fn mark<A: AsRef<OsStr>>(root: &Path, args: impl IntoIterator<Item = A>) -> Output {
    harness(root)
        .arg("mark")
        .args(args)
        .output()
        .expect("the harness runs")
}

fn said(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_second_run_into_one_out_stops_at_once_naming_the_first() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    boxes_submission(&root.join("subs/alice"));
    boxes_submission(&root.join("subs/bob"));
    let out = root.join("marks");
    let bin = assert_cmd::cargo::cargo_bin("boxes-harness");
    let mut first = std::process::Command::new(&bin)
        .env("TMPDIR", root)
        .env_remove("CONFORMANCE_REFERENCE")
        .env("CONFORMANCE_ALLOW_READ", executables())
        .args(["mark", "--spec", "boxes", "-j", "1", "--out"])
        .arg(&out)
        .arg(root.join("subs"))
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the first run starts");
    let lock = out.join(".mark.lock");
    let until = Instant::now() + Duration::from_secs(20);
    while std::fs::read_to_string(&lock).map_or(true, |t| t.is_empty()) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let started = Instant::now();
    let second = mark(
        root,
        [
            OsStr::new("--spec"),
            OsStr::new("boxes"),
            OsStr::new("--out"),
        ]
        .into_iter()
        .map(OsStr::to_owned)
        .chain([
            out.clone().into_os_string(),
            root.join("subs").into_os_string(),
        ]),
    );
    let quick = started.elapsed();
    let first_status = first.wait().expect("the first run ends");
    assert_eq!(second.status.code(), Some(2), "{}", said(&second));
    assert!(
        said(&second).contains(&format!("pid {}", first.id())),
        "{}",
        said(&second)
    );
    assert!(
        quick < Duration::from_secs(5),
        "the second run waited {quick:?}"
    );
    assert_eq!(first_status.code(), Some(0));
    // The first run's rows are whole: both marked, with their marks.
    let csv = std::fs::read_to_string(out.join("marks.csv")).expect("marks.csv");
    assert_eq!(csv.lines().count(), 3, "{csv}");
    for row in csv.lines().skip(1) {
        assert!(row.contains(",ok,"), "{row}");
    }
}

#[test]
fn a_boxes_class_marked_as_nogo_is_said_loudly_and_a_missing_slice_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    for who in ["alice", "bob"] {
        boxes_submission(&root.join("subs").join(who));
    }
    let subs = root.join("subs");
    let wrong = mark(
        root,
        [
            subs.as_os_str(),
            OsStr::new("--spec"),
            OsStr::new("nogo"),
            OsStr::new("--out"),
            root.join("wrong").as_os_str(),
        ],
    );
    assert_eq!(wrong.status.code(), Some(1), "{}", said(&wrong));
    let text = said(&wrong);
    assert!(
        text.contains("0 of 2 built submissions passed any case: is --spec nogo right?"),
        "{text}"
    );
    assert!(text.contains("these look like boxes programs"), "{text}");

    // The slices and the merge on the small pack: what they prove holds
    // for any number of cases.
    let spec = crate::boxes_mini::mini_boxes(&root.join("pack"), &[]);
    let slice1 = root.join("slice1");
    let one = mark(
        root,
        [
            subs.as_os_str(),
            OsStr::new("--spec"),
            spec.as_os_str(),
            OsStr::new("--partition"),
            OsStr::new("1/2"),
            OsStr::new("--out"),
            slice1.as_os_str(),
        ],
    );
    assert_eq!(one.status.code(), Some(0), "{}", said(&one));
    let merged = root.join("merged");
    let refused = mark(
        root,
        [
            OsStr::new("merge"),
            slice1.as_os_str(),
            OsStr::new("--out"),
            merged.as_os_str(),
        ],
    );
    assert_eq!(refused.status.code(), Some(2), "{}", said(&refused));
    assert!(
        said(&refused).contains("slice(s) 2/2 of 2 are missing"),
        "{}",
        said(&refused)
    );
    assert!(!merged.join("marks.csv").exists());
    let allowed = mark(
        root,
        [
            OsStr::new("merge"),
            slice1.as_os_str(),
            OsStr::new("--out"),
            merged.as_os_str(),
            OsStr::new("--allow-missing"),
        ],
    );
    assert_eq!(allowed.status.code(), Some(0), "{}", said(&allowed));
    // The merge gathers the programs the reports were checked with.
    assert!(merged.join("programs/alice/boxes").is_file());
}

#[test]
fn a_folder_and_its_zip_build_alike_and_a_reproduce_line_runs_from_the_students_folder() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let variant = env!("CARGO_BIN_EXE_boxes-fixture-variant");
    let source = wrapper(variant, "no-extra-turn", "");
    // The same tree as a folder and zipped with its own folder.
    write(
        &root.join("subs/alice/nested/src/ass1.c"),
        source.as_bytes(),
    );
    let zip = std::fs::File::create(root.join("subs/bob.zip")).expect("zip");
    let mut w = zip::ZipWriter::new(zip);
    w.start_file(
        "bob/nested/src/ass1.c",
        zip::write::SimpleFileOptions::default(),
    )
    .expect("zip entry");
    std::io::Write::write_all(&mut w, source.as_bytes()).expect("zip bytes");
    w.finish().expect("zip done");
    let out = root.join("marks");
    let run = mark(
        root,
        [
            root.join("subs").as_os_str(),
            OsStr::new("--spec"),
            OsStr::new("boxes"),
            OsStr::new("--out"),
            out.as_os_str(),
        ],
    );
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    let csv = std::fs::read_to_string(out.join("marks.csv")).expect("marks.csv");
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert_eq!(rows[0][4], "ok", "{csv}");
    assert_eq!(rows[0][5..], rows[1][5..], "{csv}");

    // Nothing a student reads names the marker's paths.
    let report = out.join("submissions/alice");
    for f in [
        "report.txt",
        "report.html",
        "gradescope.json",
        "results.json",
    ] {
        let text = std::fs::read_to_string(report.join(f)).expect("an output");
        assert!(
            !text.contains(&*root.to_string_lossy()),
            "{f} names {}",
            root.display()
        );
    }
    // The student builds ./boxes their way and runs the line from there.
    let text = std::fs::read_to_string(report.join("report.txt")).expect("report.txt");
    let line = text
        .lines()
        .skip_while(|l| *l != "reproduce:")
        .nth(1)
        .expect("a reproduce line")
        .trim();
    assert!(line.contains("\"$p\""), "{line}");
    let student = root.join("student");
    write(&student.join("ass1.c"), source.as_bytes());
    let built = std::process::Command::new("gcc")
        .args(["-o", "boxes", "ass1.c"])
        .current_dir(&student)
        .status()
        .expect("gcc");
    assert!(built.success());
    let replay = std::process::Command::new("bash")
        .args(["-c", line])
        .current_dir(&student)
        .output()
        .expect("bash");
    let shown = String::from_utf8_lossy(&replay.stdout);
    // The bytes the report says the program printed (`B> ` where `A> `
    // was expected), then its end of input (status 6).
    assert!(shown.ends_with("B> exit status 6\n"), "{shown}");
}

/// A wrapper of the reference that first spends `cpu` seconds of CPU time
/// when run without arguments (`args-count/no-arguments` and
/// `no-arguments-with-input`, both in the small pack).
fn spinning(cpu: f64) -> String {
    let harness = env!("CARGO_BIN_EXE_boxes-harness");
    format!(
        "#include <stdlib.h>\n#include <time.h>\n#include <unistd.h>\n\
         int main(int argc, char **argv) {{\n\
         \x20   if (argc == 1) {{ while (clock() < (clock_t)({cpu} * CLOCKS_PER_SEC)) {{}} }}\n\
         \x20   setenv(\"CONFORMANCE_REFERENCE\", \"boxes\", 1);\n\
         \x20   argv[0] = \"boxes\";\n    execv(\"{harness}\", argv);\n    return 99;\n}}\n"
    )
}

/// Processes that keep the machine's cores busy until dropped.
struct Load(Vec<std::process::Child>);

impl Drop for Load {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

#[test]
fn marks_under_load_equal_the_idle_marks_and_a_slow_program_is_told_apart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    // No plain reference beside them: `near` passing every case (its
    // `failed` column) is what a correct program gets.
    // 0.6 s of CPU against the 1 s limit: passes idle, and under load
    // once its timeout is confirmed on CPU time.
    write(&root.join("subs/near/main.c"), spinning(0.6).as_bytes());
    // 1.15 s: slow, whatever the load.
    write(&root.join("subs/slow/main.c"), spinning(1.15).as_bytes());
    // A few cases per category, those without arguments among them: the
    // load is on while the class is marked, so a short mark keeps the
    // spinners from slowing every other test (issue 47).
    let spec = crate::boxes_mini::mini_boxes(
        &root.join("pack"),
        &[
            "args-count/no-arguments",
            "args-count/no-arguments-with-input",
        ],
    );
    let marked = |out: &Path, jobs: &str| {
        let run = mark(
            root,
            [
                root.join("subs").as_os_str(),
                OsStr::new("--spec"),
                spec.as_os_str(),
                OsStr::new("-j"),
                OsStr::new(jobs),
                OsStr::new("--out"),
                out.as_os_str(),
            ],
        );
        assert_eq!(run.status.code(), Some(0), "{}", said(&run));
        std::fs::read_to_string(out.join("marks.csv")).expect("marks.csv")
    };
    let idle = marked(&root.join("idle"), "1");
    let load = Load(
        (0..2)
            .map(|_| {
                std::process::Command::new("sh")
                    .args(["-c", "while :; do :; done"])
                    .spawn()
                    .expect("a spinner")
            })
            .collect(),
    );
    let loaded = marked(&root.join("loaded"), "4");
    drop(load);
    assert_eq!(loaded, idle);
    let row = |id: &str| {
        idle.lines()
            .find(|l| l.starts_with(&format!("{id},")))
            .expect("a row")
            .to_owned()
    };
    // Found by its header: no field before it holds a comma.
    let column = idle
        .lines()
        .next()
        .and_then(|h| h.split(',').position(|c| c == "total"))
        .expect("a total column");
    let total = |line: &str| line.split(',').nth(column).unwrap_or("").to_owned();
    let failed = |line: &str| line.split(',').nth(column + 2).unwrap_or("").to_owned();
    assert_eq!(
        idle.lines()
            .next()
            .and_then(|h| h.split(',').nth(column + 2)),
        Some("failed"),
        "{idle}"
    );
    assert_eq!(failed(&row("near")), "0", "{idle}");
    assert_ne!(failed(&row("slow")), "0", "{idle}");
    assert_ne!(total(&row("slow")), total(&row("near")), "{idle}");
    let report =
        std::fs::read_to_string(root.join("idle/submissions/slow/report.txt")).expect("report");
    assert!(report.contains("slow: finishes in "), "{report}");
    assert!(report.contains("the reference takes"), "{report}");
}
