//! `--memcheck`: C programs with one memory error each
//! (`tests/fixtures/memory/*.c`: a heap overflow by one, a stack overflow
//! by one, a use after free, a double free, a leak, an uninitialised
//! read) give exactly their cause, by kind and place, under `run` and
//! `mark` at the default containment, and the clean one (the pack's
//! model, `fixtures/memory/shout/model/shout.c`) passes. The pack is
//! `fixtures/memory/shout`: `shout WORD` prints WORD in capitals.
//!
//! Needs gcc with its sanitizer runtimes and valgrind: where either is
//! missing the tests say so and pass, except under CI (`CI` set), where
//! `.ci/run` installs them and a missing one fails.

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;

const ASAN: &str = "-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/memory")
}

fn pack() -> PathBuf {
    fixtures().join("shout")
}

/// The source of fixture `name` (`clean`: the model's).
fn source(name: &str) -> PathBuf {
    if name == "clean" {
        pack().join("model/shout.c")
    } else {
        fixtures().join(format!("{name}.c"))
    }
}

/// Says why a test cannot run here; fails under CI, where it must.
fn missing(why: &str) {
    assert!(std::env::var_os("CI").is_none(), "{why}");
    eprintln!("skipped: {why}");
}

/// Fixture `name` built with `flags` into `dir`, or `None` where this
/// machine's gcc cannot.
fn built(dir: &Path, name: &str, flags: &str) -> Option<PathBuf> {
    let exe = dir.join(name);
    let out = std::process::Command::new("gcc")
        .args(flags.split_whitespace())
        .arg("-o")
        .arg(&exe)
        .arg(source(name))
        .output();
    match out {
        Ok(out) if out.status.success() => Some(exe),
        other => {
            missing(&format!("gcc cannot build with `{flags}`: {other:?}"));
            None
        }
    }
}

fn has_valgrind() -> bool {
    let here = Path::new("/usr/bin/valgrind").is_file();
    if !here {
        missing("valgrind is not installed in /usr/bin");
    }
    here
}

fn harness() -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").unwrap();
    cmd.env("NO_COLOR", "1")
        .env_remove("CONFORMANCE_CONTAINMENT")
        .env_remove("CONFORMANCE_ALLOW_READ")
        .timeout(Duration::from_secs(600));
    cmd
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// The suite run on `exe` under `--memcheck memcheck`: exit status and
/// the report.
fn run(exe: &Path, memcheck: &str) -> (i32, String) {
    let out = harness()
        .arg("--spec")
        .arg(pack())
        .arg("--bin")
        .arg(exe)
        .args(["--memcheck", memcheck])
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), text(&out))
}

/// The report's causes, one line each.
fn causes(report: &str) -> Vec<&str> {
    report
        .lines()
        .filter_map(|l| l.strip_prefix("cause "))
        .collect()
}

/// Each fixture, its `--memcheck` and the one cause it must give.
const EXPECTED: [(&str, &str, &str); 5] = [
    (
        "heap_overflow",
        "asan",
        "1 of 1: 2 case(s): heap-buffer-overflow: a write of 1 byte past a 2-byte block in \
         `shout` (heap_overflow.c:11)",
    ),
    (
        "stack_overflow",
        "asan",
        "1 of 1: 2 case(s): stack-buffer-overflow: a write of 1 byte past the 26-byte array \
         `key` in `encipher` (stack_overflow.c:8)",
    ),
    (
        "use_after_free",
        "asan",
        "1 of 1: 2 case(s): heap-use-after-free: a read of 8 bytes in a freed 72-byte block in \
         `main` (use_after_free.c:23)",
    ),
    (
        "double_free",
        "asan",
        "1 of 1: 2 case(s): double-free: a 3-byte block freed twice in `release` \
         (double_free.c:7)",
    ),
    (
        "leak",
        "asan,leaks",
        "1 of 1: 2 case(s): leak: 3 bytes in 1 block never freed in `shout` (leak.c:7)",
    ),
];

#[test]
fn run_names_each_sanitizer_error_by_kind_and_place_and_passes_the_clean_program() {
    let dir = tempfile::tempdir().unwrap();
    let Some(clean) = built(dir.path(), "clean", ASAN) else {
        return;
    };
    for (name, memcheck, cause) in EXPECTED {
        let exe = built(dir.path(), name, ASAN).unwrap();
        let (code, report) = run(&exe, memcheck);
        assert_eq!(code, 1, "{name}: {report}");
        assert_eq!(causes(&report), [cause], "{name}: {report}");
        // The report's own lines, bounded, and the sanitized build's
        // command to reproduce it.
        assert!(
            report.contains("the report's first lines on stderr:"),
            "{report}"
        );
        assert!(
            report.contains("ASAN_OPTIONS=detect_leaks=")
                && report.contains(&*exe.to_string_lossy()),
            "{report}"
        );
    }
    let (code, report) = run(&clean, "asan,leaks");
    assert_eq!(code, 0, "{report}");
    assert!(
        report.contains("memory checked: AddressSanitizer"),
        "{report}"
    );
    // Leaks are not charged unless asked.
    let leak = built(dir.path(), "leak", ASAN).unwrap();
    let (code, report) = run(&leak, "asan");
    assert_eq!(code, 0, "{report}");
}

/// The cause of `uninitialised.c` under valgrind.
const UNINITIALISED: &str = "1 of 1: 2 case(s): uninitialised-value: a branch on an uninitialised \
                             value in `main` (uninitialised.c:14)";

#[test]
fn run_under_valgrind_names_an_uninitialised_read_and_passes_the_clean_program() {
    if !has_valgrind() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let Some(clean) = built(dir.path(), "clean", "-g") else {
        return;
    };
    let uninitialised = built(dir.path(), "uninitialised", "-g").unwrap();
    let (code, report) = run(&uninitialised, "valgrind");
    assert_eq!(code, 1, "{report}");
    assert_eq!(causes(&report), [UNINITIALISED], "{report}");
    assert!(report.contains("/usr/bin/valgrind -q"), "{report}");
    let (code, report) = run(&clean, "valgrind,leaks");
    assert_eq!(code, 0, "{report}");
}

#[test]
fn a_memcheck_that_cannot_run_is_exit_2_naming_why() {
    let dir = tempfile::tempdir().unwrap();
    let Some(plain) = built(dir.path(), "clean", "-g") else {
        return;
    };
    let (code, report) = run(&plain, "asan");
    assert_eq!(code, 2, "{report}");
    assert!(
        report.contains("is not built with AddressSanitizer: build it with `-g -O1"),
        "{report}"
    );
    let (code, report) = run(&plain, "msan");
    assert_eq!(code, 2, "{report}");
    assert!(report.contains("`msan` is not a memcheck word"), "{report}");
    // The reference is not a program under test.
    let out = harness()
        .arg("--spec")
        .arg(pack())
        .args(["--memcheck", "asan"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

/// A folder of submissions, one per fixture of `names`, each its source as
/// `shout.c`.
fn submissions(names: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in names {
        let sub = dir.path().join(name);
        std::fs::create_dir(&sub).unwrap();
        std::fs::copy(source(name), sub.join("shout.c")).unwrap();
    }
    dir
}

fn mark(subs: &Path, out: &Path, memcheck: &str) -> String {
    let done = harness()
        .arg("mark")
        .arg("--spec")
        .arg(pack())
        .arg(subs)
        .arg("--out")
        .arg(out)
        .args(["--memcheck", memcheck, "--jobs", "2"])
        .output()
        .unwrap();
    assert_eq!(done.status.code(), Some(0), "{}", text(&done));
    std::fs::read_to_string(out.join("marks.csv")).unwrap()
}

/// The class view's memory errors table of the marks in `out`.
fn memory_table(out: &Path) -> String {
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    let table = page
        .split_once("<table id=\"memory-errors\">")
        .and_then(|(_, rest)| rest.split_once("</table>"));
    assert!(table.is_some(), "no memory table: {page}");
    table.unwrap().0.to_owned()
}

/// The row of `id` in `marks.csv`: its total and its first cause's key,
/// without the worked example's values that follow it (`; for example
/// heap-buffer-overflow: a write of 1 byte past …`).
fn row<'a>(csv: &'a str, id: &str) -> (&'a str, &'a str) {
    let line = csv.lines().find(|l| l.starts_with(&format!("{id},")));
    assert!(line.is_some(), "no row {id}: {csv}");
    let line = line.unwrap();
    let fields: Vec<&str> = line.split(',').collect();
    let cause = fields[11].trim_start_matches('"');
    let key = cause.split_once("; for example ").map_or(cause, |(k, _)| k);
    (fields[7], key)
}

#[test]
fn mark_builds_with_the_sanitizers_and_lists_each_error_by_kind_and_place() {
    if std::process::Command::new("gcc")
        .args([
            "-fsanitize=address,undefined",
            "-x",
            "c",
            "-o",
            "/dev/null",
            "-",
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .is_err()
    {
        missing("gcc is not installed");
        return;
    }
    let names = [
        "heap_overflow",
        "stack_overflow",
        "use_after_free",
        "double_free",
        "leak",
        "clean",
    ];
    let subs = submissions(&names);
    let out = tempfile::tempdir().unwrap();
    let csv = mark(subs.path(), out.path(), "asan,leaks");
    let expected = [
        (
            "heap_overflow",
            "memory: heap-buffer-overflow in `shout` (shout.c:11)",
        ),
        (
            "stack_overflow",
            "memory: stack-buffer-overflow in `encipher` (shout.c:8)",
        ),
        (
            "use_after_free",
            "memory: heap-use-after-free in `main` (shout.c:23)",
        ),
        (
            "double_free",
            "memory: double-free in `release` (shout.c:7)",
        ),
        ("leak", "memory: leak in `shout` (shout.c:7)"),
    ];
    for (id, cause) in expected {
        assert_eq!(row(&csv, id), ("0", cause), "{csv}");
        // One cause per submission: the memory error.
        let report =
            std::fs::read_to_string(out.path().join(format!("submissions/{id}/report.txt")))
                .unwrap();
        assert_eq!(causes(&report).len(), 1, "{report}");
        assert!(report.contains("ASAN_OPTIONS="), "{report}");
    }
    // The clean program is not charged.
    assert_eq!(row(&csv, "clean"), ("2", ""), "{csv}");
    let log = std::fs::read_to_string(out.path().join("submissions/clean/build.log")).unwrap();
    assert!(log.starts_with("$ CFLAGS='-g -O1"), "{log}");
    // The class view lists each error by kind and place, with its
    // submissions.
    let table = memory_table(out.path());
    for (id, cause) in expected {
        let (kind, place) = cause
            .strip_prefix("memory: ")
            .and_then(|c| c.split_once(" in "))
            .unwrap();
        let line = table
            .lines()
            .find(|l| l.contains(&format!("<code>{kind}</code>")));
        assert!(line.is_some(), "{kind}: {table}");
        let line = line.unwrap();
        assert!(
            line.contains(place) && line.contains(&format!("<td>{id}</td>")),
            "{line}"
        );
    }
}

#[test]
fn mark_under_valgrind_names_an_uninitialised_read() {
    if !has_valgrind() {
        return;
    }
    let subs = submissions(&["uninitialised", "clean"]);
    let out = tempfile::tempdir().unwrap();
    let csv = mark(subs.path(), out.path(), "valgrind");
    assert_eq!(
        row(&csv, "uninitialised"),
        ("0", "memory: uninitialised-value in `main` (shout.c:14)"),
        "{csv}"
    );
    assert_eq!(row(&csv, "clean"), ("2", ""), "{csv}");
}

/// The flags of an ASan build that goes on past an error (`asan,warn`).
const ASAN_RECOVER: &str =
    "-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fsanitize-recover=address";

#[test]
fn under_warn_a_memory_error_is_reported_by_kind_and_place_and_fails_no_case() {
    let dir = tempfile::tempdir().unwrap();
    let Some(halting) = built(dir.path(), "stack_overflow", ASAN) else {
        return;
    };
    // A build that stops at its first error cannot be judged past it.
    let (code, report) = run(&halting, "asan,warn");
    assert_eq!(code, 2, "{report}");
    assert!(
        report.contains("is built to stop at its first memory error")
            && report.contains("-fsanitize-recover=address`"),
        "{report}"
    );
    let recovering = dir.path().join("recovering");
    std::fs::create_dir(&recovering).unwrap();
    let exe = built(&recovering, "stack_overflow", ASAN_RECOVER).unwrap();
    let results = dir.path().join("results.json");
    let out = harness()
        .arg("--spec")
        .arg(pack())
        .arg("--bin")
        .arg(&exe)
        .args(["--memcheck", "asan,warn", "--results"])
        .arg(&results)
        .output()
        .unwrap();
    let report = text(&out);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(
        report.contains("memory warnings by cause: 2 case(s) made a memory error")
            && report.contains("2 passed; 0 failed")
            && report.contains("; 2 case(s) with memory warnings (no marks lost)"),
        "{report}"
    );
    assert_eq!(
        causes(&report),
        [EXPECTED[1].2],
        "the same cause as a failure would have: {report}"
    );
    assert!(report.contains("halt_on_error=0"), "{report}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(
        doc["warnings"][0]["cause"],
        "memory: stack-buffer-overflow in `encipher` (stack_overflow.c:8)",
        "{doc}"
    );
    assert_eq!(doc["causes"], serde_json::json!([]), "{doc}");
    for case in doc["cases"].as_array().unwrap() {
        assert_eq!(case["verdict"], "passed", "{case}");
        assert_eq!(case["warnings"][0]["part"], "memory", "{case}");
    }
}

#[test]
fn under_valgrind_warn_an_uninitialised_read_fails_no_case() {
    if !has_valgrind() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let Some(exe) = built(dir.path(), "uninitialised", "-g") else {
        return;
    };
    let (code, report) = run(&exe, "valgrind,warn");
    assert_eq!(code, 0, "{report}");
    assert_eq!(causes(&report), [UNINITIALISED], "{report}");
    assert!(report.contains("with memory warnings"), "{report}");
}

#[test]
fn mark_under_warn_gives_full_marks_and_reports_the_error_as_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    if built(dir.path(), "clean", ASAN_RECOVER).is_none() {
        return;
    }
    let subs = submissions(&["stack_overflow", "heap_overflow", "clean"]);
    let out = tempfile::tempdir().unwrap();
    let csv = mark(subs.path(), out.path(), "asan,warn");
    let warned = [
        (
            "stack_overflow",
            "memory: stack-buffer-overflow in `encipher` (shout.c:8)",
        ),
        (
            "heap_overflow",
            "memory: heap-buffer-overflow in `shout` (shout.c:11)",
        ),
    ];
    for (id, cause) in warned {
        // Full marks, no cause charged.
        assert_eq!(row(&csv, id), ("2", ""), "{csv}");
        let folder = out.path().join(format!("submissions/{id}"));
        let mark: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(folder.join("mark.json")).unwrap())
                .unwrap();
        assert_eq!(mark["memory_warnings"][0]["cause"], cause, "{mark}");
        let report = std::fs::read_to_string(folder.join("report.txt")).unwrap();
        assert!(report.contains("memory warnings by cause:"), "{report}");
        let page = std::fs::read_to_string(folder.join("report.html")).unwrap();
        assert!(page.contains("Memory warnings (no marks lost)"), "{page}");
    }
    assert_eq!(row(&csv, "clean"), ("2", ""), "{csv}");
    let log = std::fs::read_to_string(out.path().join("submissions/clean/build.log")).unwrap();
    assert!(log.contains("-fsanitize-recover=address"), "{log}");
    let table = memory_table(out.path());
    for (id, _) in warned {
        assert!(
            table
                .lines()
                .any(|l| l.contains(&format!("<td>{id}</td>")) && l.contains("warning: none lost")),
            "{table}"
        );
    }
}
