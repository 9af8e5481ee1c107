//! `mark` on a cohort made at test time: C submissions compiled by the
//! course's own line (each one `exec`s the reference or a fixture variant,
//! so its bugs are known), sent as folders, a `.zip`, a `.tar.gz` and a
//! name that is not UTF-8, beside hostile ones: a broken build, a build
//! that hangs, one that floods its output, one that makes no program, a
//! Makefile that writes outside its folder and deletes files, an archive
//! that climbs out, a program that forks away.
//!
//! Proven here: every submission gets its row; each row's marks are what
//! the program's own `--score` run gives; two slices merged equal the whole
//! run; an interrupted run then a re-run gives the whole run's outputs;
//! nothing escapes (no file written outside, none deleted, no process
//! left).
//!
//! One piece: one cohort is built once and every property is checked
//! on it in one test; splitting it would build the hostile cohort again.
//! The class view, exports and other packs' course lines: [`class`].

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::ffi::OsStr;
use std::io::Write as _;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;

mod class;

const VARIANTS: [&str; 3] = ["echo-moves", "no-extra-turn", "trimmed-trailing-spaces"];

fn wrapper(exe: &str, name: &str, env: &str, fork: bool) -> String {
    format!(
        "#include <stdlib.h>\n#include <unistd.h>\n\
         int main(int argc, char **argv) {{\n    (void)argc;\n{}{}    argv[0] = \"{name}\";\n    \
         execv(\"{exe}\", argv);\n    return 99;\n}}\n",
        if env.is_empty() {
            String::new()
        } else {
            format!("    setenv(\"CONFORMANCE_REFERENCE\", \"{env}\", 1);\n")
        },
        if fork {
            "    if (fork() == 0) { setsid(); close(0); close(1); close(2); sleep(60); return 0; }\n"
        } else {
            ""
        }
    )
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

/// The cohort, and the paths a hostile Makefile aims at.
struct Cohort {
    subs: PathBuf,
    escaped: PathBuf,
    victim: PathBuf,
}

fn cohort(root: &Path) -> Cohort {
    let subs = root.join("subs");
    let harness = env!("CARGO_BIN_EXE_boxes-harness");
    let variant = env!("CARGO_BIN_EXE_boxes-fixture-variant");
    write(
        &subs.join("good/main.c"),
        wrapper(harness, "boxes", "boxes", false).as_bytes(),
    );
    let cafe = subs.join(OsStr::from_bytes(b"caf\xe9"));
    write(
        &cafe.join("main.c"),
        wrapper(harness, "boxes", "boxes", false).as_bytes(),
    );
    write(
        &subs.join("warns/main.c"),
        (wrapper(harness, "boxes", "boxes", false)
            + "static int unused(void) { int y; return 0; }\n")
            .as_bytes(),
    );
    write(
        &subs.join("forks/main.c"),
        wrapper(harness, "boxes", "boxes", true).as_bytes(),
    );
    write(
        &subs.join("echo-moves/main.c"),
        wrapper(variant, "echo-moves", "", false).as_bytes(),
    );
    // A Makefile that builds the program the course's way.
    write(
        &subs.join("no-extra-turn/Makefile"),
        b"boxes: main.c\n\tgcc -Wall -pedantic -std=gnu99 -o boxes main.c\n",
    );
    write(
        &subs.join("no-extra-turn/main.c"),
        wrapper(variant, "no-extra-turn", "", false).as_bytes(),
    );
    // A zip whose files sit in one folder.
    let zip = std::fs::File::create(subs.join("trimmed.zip")).expect("zip");
    let mut w = zip::ZipWriter::new(zip);
    w.start_file("trimmed/main.c", zip::write::SimpleFileOptions::default())
        .expect("zip entry");
    w.write_all(wrapper(variant, "trimmed-trailing-spaces", "", false).as_bytes())
        .expect("zip bytes");
    w.finish().expect("zip done");
    // A .tar.gz of the reference.
    let gz = flate2::write::GzEncoder::new(
        std::fs::File::create(subs.join("tarred.tar.gz")).expect("tgz"),
        flate2::Compression::fast(),
    );
    let mut t = tar::Builder::new(gz);
    let source = wrapper(harness, "boxes", "boxes", false);
    let mut h = tar::Header::new_gnu();
    h.set_size(source.len() as u64);
    h.set_mode(0o644);
    t.append_data(&mut h, "main.c", source.as_bytes())
        .expect("tar entry");
    t.into_inner().expect("tar").finish().expect("gz");
    // Hostile and broken ones.
    write(
        &subs.join("broken/main.c"),
        b"int main(void) { return x; }\n",
    );
    write(&subs.join("hangs/Makefile"), b"boxes:\n\tsleep 100\n");
    write(
        &subs.join("floods/Makefile"),
        b"boxes:\n\tyes | head -c 100000000\n",
    );
    write(&subs.join("no-program/Makefile"), b"all:\n\ttrue\n");
    write(
        &subs.join("not-a-program/Makefile"),
        b"boxes:\n\techo hello > boxes\n",
    );
    let escaped = root.join("escaped");
    let victim = root.join("victim");
    write(&victim, b"keep me\n");
    write(
        &subs.join("hostile/Makefile"),
        format!(
            "boxes: main.c\n\t-echo pwned > {}\n\t-rm -f {}\n\t\
             gcc -Wall -pedantic -std=gnu99 -o boxes main.c\n",
            escaped.display(),
            victim.display()
        )
        .as_bytes(),
    );
    write(
        &subs.join("hostile/main.c"),
        wrapper(harness, "boxes", "boxes", false).as_bytes(),
    );
    let mut climb = tar::Builder::new(std::fs::File::create(subs.join("climbs.tar")).expect("tar"));
    let mut h = tar::Header::new_gnu();
    h.set_size(1);
    h.set_mode(0o644);
    h.as_old_mut().name[..9].copy_from_slice(b"../evil.c");
    h.set_cksum();
    climb.append(&h, &b"x"[..]).expect("tar entry");
    climb.into_inner().expect("tar");
    write(&subs.join("notes.txt"), b"not a submission\n");
    Cohort {
        subs,
        escaped,
        victim,
    }
}

/// The cohort's wrappers `exec` the harness and the fixtures in
/// `target/`, which a program under test may not read by default: the
/// tests allow that folder, as a course allows a runtime under `/opt`.
const ALLOW_READ: &str = "CONFORMANCE_ALLOW_READ";

fn executables_folder() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boxes-harness"))
        .parent()
        .expect("target folder")
}

fn mark<A: AsRef<OsStr>>(root: &Path, args: impl IntoIterator<Item = A>) -> Output {
    Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env("NO_COLOR", "1")
        .env(ALLOW_READ, executables_folder())
        .env("TMPDIR", root)
        .env_remove("CONFORMANCE_REFERENCE")
        // The default containment, whose sandbox the hostile builds meet.
        .env_remove("CONFORMANCE_CONTAINMENT")
        .arg("mark")
        .args(args)
        .output()
        .expect("the harness runs")
}

/// Asserts that `mark` exited 0, showing what it said otherwise.
fn succeeds(out: &Output) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("an output file")
}

/// The class view's files, which a run and a merge must agree on.
fn class_view(out: &Path) -> [String; 3] {
    ["marks.csv", "cohort.json", "index.html"].map(|f| read(&out.join(f)))
}

fn rows(out: &Path) -> Vec<Vec<String>> {
    read(&out.join("marks.csv"))
        .lines()
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect()
}

/// The earned marks per category of a program's own `--score` run.
fn own_score(root: &Path, spec: &Path, bin: &Path) -> Vec<String> {
    let results = root.join("own.json");
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env_remove("CONFORMANCE_REFERENCE")
        .env(ALLOW_READ, executables_folder())
        .arg("--spec")
        .arg(spec)
        .arg("--bin")
        .arg(bin)
        .arg("--score")
        .arg("--results")
        .arg(&results)
        .output()
        .expect("the harness runs");
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    let doc: serde_json::Value = serde_json::from_str(&read(&results)).expect("results");
    doc["score"]["categories"]
        .as_array()
        .expect("categories")
        .iter()
        .filter(|c| !c["marks"].is_null())
        .map(|c| {
            format!(
                "{}",
                (c["earned"].as_f64().unwrap_or(0.0) * 100.0).round() / 100.0
            )
        })
        .collect()
}

fn no_process_under(root: &Path) -> bool {
    let needle = root.as_os_str().as_bytes();
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .all(|p| {
            let cmd = std::fs::read(p.path().join("cmdline")).unwrap_or_default();
            !cmd.windows(needle.len()).any(|w| w == needle)
        })
}

#[test]
#[expect(
    clippy::too_many_lines,
    reason = "one cohort's story: each step starts from the outputs of the one before"
)]
fn a_cohort_is_marked_sliced_merged_interrupted_and_resumed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let c = cohort(root);
    // A few cases per category, and those that catch the variants
    // (tests/it/variants.rs): the story marks the class about twice.
    let spec = crate::boxes_mini::mini_boxes(
        &root.join("pack"),
        &[
            "initial-display/new-game-interactive-move",
            "initial-display/new-2x2",
            "full-games/assignment-worked-example",
            "single-move/completes-cell-extra-turn",
        ],
    );
    let whole = root.join("whole");
    let args = |out: &Path| -> Vec<std::ffi::OsString> {
        vec![
            c.subs.clone().into(),
            "--out".into(),
            out.into(),
            "-j".into(),
            "2".into(),
            "--build-timeout".into(),
            "3".into(),
            "--spec".into(),
            spec.clone().into(),
        ]
    };
    let run = mark(root, args(&whole));
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("skipping notes.txt"), "{stderr}");

    // Every submission has its row, in id order, with what went wrong.
    let table = rows(&whole);
    let ids: Vec<&str> = table.iter().skip(1).map(|r| r[0].as_str()).collect();
    assert_eq!(
        ids,
        [
            "broken",
            "caf\\xe9",
            "climbs",
            "echo-moves",
            "floods",
            "forks",
            "good",
            "hangs",
            "hostile",
            "no-extra-turn",
            "no-program",
            "not-a-program",
            "tarred",
            "trimmed",
            "warns"
        ]
    );
    let row = |id: &str| table.iter().find(|r| r[0] == id).expect("a row").clone();
    let (build, warnings) = (4, 5);
    for (id, status) in [
        ("broken", "failed"),
        ("climbs", "failed"),
        ("floods", "failed"),
        ("hangs", "timeout"),
        ("no-program", "no-binary"),
        ("not-a-program", "no-binary"),
        ("good", "ok"),
        ("hostile", "ok"),
        ("forks", "ok"),
    ] {
        assert_eq!(row(id)[build], status, "{id}: {:?}", row(id));
    }
    assert_eq!(row("warns")[warnings], "2");
    let cause = table[0]
        .iter()
        .position(|h| h == "first cause")
        .expect("first cause");
    assert!(row("climbs")[cause].contains("climbs out"));
    let total = table[0].iter().position(|h| h == "total").expect("total");
    for id in ["good", "caf\\xe9", "tarred", "hostile"] {
        assert_eq!(row(id)[total], "42", "{id}");
    }
    assert!(
        !c.escaped.exists(),
        "the hostile Makefile wrote outside its folder"
    );
    assert_eq!(
        read(&c.victim),
        "keep me\n",
        "the hostile Makefile deleted a file"
    );
    assert!(no_process_under(root), "a process outlived the run");

    // Each row is the program's own --score run.
    let first_category = warnings + 1;
    for v in VARIANTS {
        let link = root.join(v);
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_boxes-fixture-variant"), &link)
            .expect("symlink");
        let id = if v == "trimmed-trailing-spaces" {
            "trimmed"
        } else {
            v
        };
        assert_eq!(
            row(id)[first_category..total],
            own_score(root, &spec, &link)[..],
            "{id}"
        );
        // The small pack still catches the variant.
        assert_ne!(row(id)[total], "42", "{id}: full marks");
    }

    // The class view: shared causes and flagged cases name real failures.
    let view: serde_json::Value =
        serde_json::from_str(&read(&whole.join("cohort.json"))).expect("cohort.json");
    assert_eq!(view["submissions"], 15);
    assert!(view["rows"].as_array().expect("rows").len() == 15);
    for f in [
        "build.log",
        "report.txt",
        "results.json",
        "gradescope.json",
        "report.html",
        "mark.json",
    ] {
        assert!(whole.join("submissions/broken").join(f).is_file(), "{f}");
        assert!(whole.join("submissions/caf%E9").join(f).is_file(), "{f}");
    }

    // Two slices merged are the whole run.
    for k in ["1/2", "2/2"] {
        let out = root.join(format!("slice{}", &k[..1]));
        let mut a = args(&out);
        a.extend(["--partition".into(), k.into()]);
        let r = mark(root, &a);
        succeeds(&r);
    }
    let merged = root.join("merged");
    let r = mark(
        root,
        [
            "merge".into(),
            root.join("slice1").into(),
            root.join("slice2").into(),
            "--out".into(),
            merged.clone().into(),
        ] as [std::ffi::OsString; 5],
    );
    succeeds(&r);
    assert_eq!(class_view(&merged), class_view(&whole));

    // A slice interrupted after its first submission, then run again: the
    // same as the slice run whole (a slice, so that the story marks the
    // class about twice rather than three times).
    let again = root.join("again");
    let mut a = args(&again);
    a[4] = "1".into();
    a.extend(["--partition".into(), "1/2".into()]);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_boxes-harness"))
        .env("TMPDIR", root)
        .env(ALLOW_READ, executables_folder())
        .env_remove("CONFORMANCE_REFERENCE")
        .env_remove("CONFORMANCE_CONTAINMENT")
        .arg("mark")
        .args(&a)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let done = |d: &Path| {
        std::fs::read_dir(d.join("submissions")).map_or(0, |r| {
            r.flatten()
                .filter(|e| !e.file_name().as_bytes().starts_with(b"."))
                .count()
        })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while done(&again) < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "no submission finished in 120 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    rustix::process::kill_process(
        rustix::process::Pid::from_child(&child),
        rustix::process::Signal::INT,
    )
    .expect("SIGINT");
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(130));
    let partial: Vec<_> = std::fs::read_dir(again.join("submissions"))
        .expect("folder")
        .flatten()
        .filter(|e| e.file_name().as_bytes().starts_with(b"."))
        .collect();
    assert!(
        partial.is_empty(),
        "a half-written folder was left: {partial:?}"
    );
    assert!(!again.join("marks.csv").exists());
    let mut a = args(&again);
    a.extend(["--partition".into(), "1/2".into()]);
    let r = mark(root, a);
    let said = String::from_utf8_lossy(&r.stderr).into_owned();
    assert_eq!(r.status.code(), Some(0), "{said}");
    assert!(said.contains("unchanged"), "{said}");
    assert_eq!(class_view(&again), class_view(&root.join("slice1")));
    assert!(no_process_under(root), "a process outlived the run");
    // Every folder the runs made (sandboxes, staging) is gone: what is
    // left under TMPDIR is what the test itself made.
    let mut left: Vec<String> = std::fs::read_dir(root)
        .expect("root")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    let mut expected = vec![
        "again", "merged", "own.json", "pack", "slice1", "slice2", "subs", "victim", "whole",
    ];
    expected.extend(VARIANTS);
    expected.sort_unstable();
    assert_eq!(left, expected);
}

#[test]
fn set_up_errors_are_exit_2_naming_what_exists() {
    let dir = tempfile::tempdir().expect("tempdir");
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).expect("mkdir");
    std::fs::write(empty.join("readme.txt"), b"x").expect("write");
    let r = mark(dir.path(), [empty.as_os_str()]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("found only: readme.txt"));
    let r = mark(
        dir.path(),
        [
            OsStr::new("--spec"),
            OsStr::new("codingame"),
            empty.as_os_str(),
        ],
    );
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("no build line"));
    let r = mark(dir.path(), [OsStr::new("merge"), empty.as_os_str()]);
    assert_eq!(r.status.code(), Some(2));
}

/// More slices than submissions: an empty slice writes its empty outputs
/// with its K/N and exits 0, so that the set still merges.
#[test]
fn an_empty_slice_is_written_and_merges() {
    let dir = tempfile::tempdir().expect("tempdir");
    let subs = dir.path().join("subs");
    std::fs::create_dir_all(subs.join("one")).expect("mkdir");
    let slices: Vec<_> = ["1/2", "2/2"]
        .iter()
        .map(|k| {
            let out = dir.path().join(format!("slice{}", &k[..1]));
            let r = mark(
                dir.path(),
                [
                    subs.as_os_str(),
                    OsStr::new("--partition"),
                    OsStr::new(k),
                    OsStr::new("--out"),
                    out.as_os_str(),
                ],
            );
            (r, out)
        })
        .collect();
    let (empty, empty_out) = &slices[1];
    let said = String::from_utf8_lossy(&empty.stderr);
    assert_eq!(empty.status.code(), Some(0), "{said}");
    assert!(said.contains("slice 2/2 holds no submission"), "{said}");
    assert!(empty_out.join("cohort.json").is_file());
    let merged = dir.path().join("merged");
    let r = mark(
        dir.path(),
        [
            OsStr::new("merge"),
            slices[0].1.as_os_str(),
            empty_out.as_os_str(),
            OsStr::new("--out"),
            merged.as_os_str(),
        ],
    );
    let said = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(0), "{said}");
    assert!(said.contains("2 slice(s), 1 submission(s)"), "{said}");
}
