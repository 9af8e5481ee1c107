//! The rules that make `mark` a lecturer can stand behind, each shown on
//! a small cohort made at test time (C wrappers that `exec` the harness's
//! own reference or a fixture variant): one run per `--out`, a class
//! marked against the wrong pack said loudly, a merge with a slice
//! missing refused, and a Gradescope autograder run end to end against a
//! fake `/autograder` tree (a failing and an unbuildable submission),
//! checked against the autograder's format and for its causes.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::ffi::OsStr;
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use assert_cmd::Command;

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

    let slice1 = root.join("slice1");
    let one = mark(
        root,
        [
            subs.as_os_str(),
            OsStr::new("--spec"),
            OsStr::new("boxes"),
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

/// Checks a document against Gradescope's autograder format: a number
/// `score`, and tests with a name, score, max_score, status and output.
fn gradescope_shaped(doc: &serde_json::Value) {
    assert!(doc["score"].is_number(), "{doc}");
    for t in doc["tests"].as_array().expect("tests") {
        assert!(t["name"].is_string(), "{t}");
        assert!(t["score"].is_number() && t["max_score"].is_number(), "{t}");
        assert!(
            ["passed", "failed"].contains(&t["status"].as_str().unwrap_or("")),
            "{t}"
        );
        assert!(
            t["output"].as_str().is_some_and(|o| o.len() <= 4096 + 200),
            "{t}"
        );
        assert_eq!(t["visibility"], "visible");
        assert_eq!(t["output_format"], "text");
    }
}

/// `setup.sh` installs the harness from the release archive beside it,
/// with no Rust toolchain (cargo is not on its PATH), refuses a missing
/// archive by name, and one holding another version.
fn setup_installs_the_release_archive(root: &Path, scripts: &Path, archive: &str) {
    let setup_text = std::fs::read_to_string(scripts.join("setup.sh")).expect("setup.sh");
    assert!(
        setup_text.contains("build-essential") && !setup_text.contains("cargo"),
        "{setup_text}"
    );
    // Never into a system folder, which every program under test may read:
    // the executable embeds the expected outputs.
    assert!(
        setup_text.contains("/opt/boxes-harness") && !setup_text.contains("/usr/local"),
        "{setup_text}"
    );
    let prefix = root.join("prefix");
    let setup = || {
        std::process::Command::new(scripts.join("setup.sh"))
            .env("AUTOGRADER_PREFIX", &prefix)
            .env("PATH", "/usr/bin:/bin")
            .env("TMPDIR", root)
            .output()
            .expect("setup.sh runs")
    };
    let missing = setup();
    assert_eq!(missing.status.code(), Some(1), "{}", said(&missing));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains(&format!("{archive}.tar.gz is missing")),
        "{}",
        said(&missing)
    );
    // The archive as dist/build lays it out: one folder named as the file.
    let pack = |binary: &Path| {
        let file =
            std::fs::File::create(scripts.join(format!("{archive}.tar.gz"))).expect("archive");
        let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
            file,
            flate2::Compression::fast(),
        ));
        tar.append_path_with_name(binary, format!("{archive}/boxes-harness"))
            .expect("the binary archived");
        tar.into_inner()
            .and_then(flate2::write::GzEncoder::finish)
            .expect("archive written");
    };
    // An archive of another version, renamed, is refused.
    let impostor = root.join("impostor");
    write(
        &impostor,
        b"#!/bin/sh\necho 'boxes-harness 9.9.9 (elsewhere)'\n",
    );
    std::fs::set_permissions(
        &impostor,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .expect("chmod");
    pack(&impostor);
    let wrong = setup();
    assert_eq!(wrong.status.code(), Some(1), "{}", said(&wrong));
    assert!(
        String::from_utf8_lossy(&wrong.stderr).contains("another version"),
        "{}",
        said(&wrong)
    );
    pack(Path::new(env!("CARGO_BIN_EXE_boxes-harness")));
    let installed = setup();
    assert_eq!(installed.status.code(), Some(0), "{}", said(&installed));
    assert!(
        String::from_utf8_lossy(&installed.stdout)
            .starts_with(&format!("boxes-harness {} (", env!("CARGO_PKG_VERSION"))),
        "{}",
        said(&installed)
    );
    assert!(prefix.join("bin/boxes-harness").is_file());
}

#[test]
fn the_gradescope_autograder_runs_against_a_fake_tree() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let scripts = root.join("autograder-zip");
    let wrote = harness(root)
        .args(["gradescope-autograder", "--spec", "boxes", "--out"])
        .arg(&scripts)
        .output()
        .expect("runs");
    assert_eq!(wrote.status.code(), Some(0), "{}", said(&wrote));
    let said_wrote = String::from_utf8_lossy(&wrote.stdout);
    let archive = format!(
        "boxes-harness-{}-x86_64-unknown-linux-gnu",
        env!("CARGO_PKG_VERSION")
    );
    assert!(
        said_wrote.contains(&format!("{archive}.tar.gz")),
        "{said_wrote}"
    );
    setup_installs_the_release_archive(root, &scripts, &archive);
    // Gradescope's containers usually refuse user namespaces: mark runs at
    // the `landlock` level there, and is told it may run weaker only where
    // the kernel lacks Landlock too (it refused, saying so).
    let runner = std::fs::read_to_string(scripts.join("run_autograder")).expect("run_autograder");
    assert!(
        runner.contains("\"$harness\" mark --spec boxes"),
        "{runner}"
    );
    assert!(
        runner.contains("grep -q 'give --allow-weaker-containment'")
            && runner.contains("mark --allow-weaker-containment --spec boxes"),
        "{runner}"
    );
    let variant = env!("CARGO_BIN_EXE_boxes-fixture-variant");
    let run = |name: &str, source: &[u8]| run_autograder(root, &scripts, name, source);
    // A failing program: the tests carry the causes, with a worked example.
    let failing = run("failing", wrapper(variant, "no-extra-turn", "").as_bytes());
    gradescope_shaped(&failing);
    let failed: Vec<&serde_json::Value> = failing["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .filter(|t| t["status"] == "failed")
        .collect();
    assert!(!failed.is_empty(), "{failing}");
    for t in failed {
        let output = t["output"].as_str().unwrap_or("");
        assert!(output.contains("cause 1 of"), "{output}");
        assert!(
            output.contains("example") || output.contains("case "),
            "{output}"
        );
        assert!(!output.contains("FAILED "), "{output}");
    }
    // An unbuildable one: score 0, the compiler's error shown.
    let broken = run("broken", b"int main(void) { return x; }\n");
    gradescope_shaped(&broken);
    assert_eq!(broken["score"].as_f64(), Some(0.0));
    let output = broken["output"].as_str().unwrap_or("");
    assert!(output.contains("error:"), "{output}");
    memcheck_is_written_and_costs_a_program_without_memory_errors_nothing(root, variant, &failing);
}

/// `scripts`' `run_autograder` run on a submission of one `main.c`
/// (`source`) in a fake tree `root/name`, as in a container that refuses
/// user namespaces: its `results.json`.
fn run_autograder(root: &Path, scripts: &Path, name: &str, source: &[u8]) -> serde_json::Value {
    let tree = root.join(name);
    write(&tree.join("submission/main.c"), source);
    let out = std::process::Command::new(scripts.join("run_autograder"))
        .env("AUTOGRADER_ROOT", &tree)
        .env(
            "AUTOGRADER_HARNESS",
            assert_cmd::cargo::cargo_bin("boxes-harness"),
        )
        .env("TMPDIR", root)
        .env_remove("CONFORMANCE_REFERENCE")
        .env("CONFORMANCE_ALLOW_READ", executables())
        // As in a container that refuses user namespaces.
        .env("CONFORMANCE_CONTAINMENT", "landlock")
        .output()
        .expect("run_autograder runs");
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    // Landlock is here: the submission is marked confined, unasked.
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(
        !log.contains("autograder: marking with --allow-weaker-containment"),
        "{log}"
    );
    let text = std::fs::read_to_string(tree.join("results/results.json")).expect("results.json");
    serde_json::from_str(&text).expect("JSON")
}

/// `gradescope-autograder --memcheck asan`: written into both mark lines,
/// and (where gcc has AddressSanitizer) the submission that gave
/// `failing`, marked with it, built with the sanitizers, loses nothing
/// more: it makes no memory error.
fn memcheck_is_written_and_costs_a_program_without_memory_errors_nothing(
    root: &Path,
    variant: &str,
    failing: &serde_json::Value,
) {
    let checked = root.join("autograder-memcheck");
    let wrote = harness(root)
        .args([
            "gradescope-autograder",
            "--spec",
            "boxes",
            "--memcheck",
            "asan",
            "--out",
        ])
        .arg(&checked)
        .output()
        .expect("runs");
    assert_eq!(wrote.status.code(), Some(0), "{}", said(&wrote));
    let runner = std::fs::read_to_string(checked.join("run_autograder")).expect("run_autograder");
    assert_eq!(
        runner
            .matches("--spec boxes --memcheck asan \"$work/subs\"")
            .count(),
        2,
        "{runner}"
    );
    if !gcc_has_asan(root) {
        return;
    }
    let sanitized = run_autograder(
        root,
        &checked,
        "failing-memcheck",
        wrapper(variant, "no-extra-turn", "").as_bytes(),
    );
    gradescope_shaped(&sanitized);
    assert_eq!(sanitized["score"], failing["score"], "{sanitized}");
}

/// Whether gcc here builds with AddressSanitizer; says why not where it
/// cannot (and fails under CI, which installs it).
fn gcc_has_asan(root: &Path) -> bool {
    let source = root.join("asan-probe.c");
    write(&source, b"int main(void) { return 0; }\n");
    let out = std::process::Command::new("gcc")
        .args(["-fsanitize=address,undefined", "-o"])
        .arg(root.join("asan-probe"))
        .arg(&source)
        .output();
    let ok = matches!(&out, Ok(o) if o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "gcc cannot build with -fsanitize=address: {out:?}"
        );
        eprintln!("skipped: gcc cannot build with -fsanitize=address here ({out:?})");
    }
    ok
}

#[test]
fn gradescope_is_written_when_the_program_cannot_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    let gs = dir.path().join("gs.json");
    let out = harness(dir.path())
        .args(["--bin", "./missing", "--gradescope"])
        .arg(&gs)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&gs).expect("gs.json")).expect("JSON");
    gradescope_shaped(&doc);
    assert_eq!(doc["score"].as_f64(), Some(0.0));
    assert!(
        doc["output"]
            .as_str()
            .is_some_and(|o| o.contains("missing")),
        "{doc}"
    );
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
/// when run without arguments (three cases of the suite).
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
    boxes_submission(&root.join("subs/good"));
    // 0.6 s of CPU against the 1 s limit: passes idle, and under load
    // once its timeout is confirmed on CPU time.
    write(&root.join("subs/near/main.c"), spinning(0.6).as_bytes());
    // 1.15 s: slow, whatever the load.
    write(&root.join("subs/slow/main.c"), spinning(1.15).as_bytes());
    let marked = |out: &Path, jobs: &str| {
        let run = mark(
            root,
            [
                root.join("subs").as_os_str(),
                OsStr::new("--spec"),
                OsStr::new("boxes"),
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
    assert_eq!(total(&row("near")), total(&row("good")), "{idle}");
    assert_ne!(total(&row("slow")), total(&row("good")), "{idle}");
    let report =
        std::fs::read_to_string(root.join("idle/submissions/slow/report.txt")).expect("report");
    assert!(report.contains("slow: finishes in "), "{report}");
    assert!(report.contains("the reference takes"), "{report}");
}
