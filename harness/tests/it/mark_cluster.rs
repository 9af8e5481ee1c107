//! `mark` as a cluster runs it (issue 56; docs/mark.md, "Past one
//! machine"): a merge never hides a submission without a row, the harness
//! survives its own file being replaced while it marks, and a class of
//! programs already built (`--prebuilt`) marks as the same programs built
//! from source. Small folder packs whose model is a shell script: each
//! mark costs one check of one case.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::write_file::write;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("an output file")
}

/// The harness at `exe`, run in `dir`, its temporary folders in
/// `dir/tmp` (see [`nothing_left`]).
fn harness(exe: &Path, dir: &Path) -> Command {
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).expect("mkdir");
    let mut cmd = Command::new(exe);
    cmd.current_dir(dir)
        .env_remove("CONFORMANCE_REFERENCE")
        .env_remove("CONFORMANCE_CONTAINMENT")
        .env("NO_COLOR", "1")
        .env("TMPDIR", tmp);
    cmd
}

/// Every folder the harnesses made (built models, case folders, the
/// checks' and merges' own) is gone once they returned.
fn nothing_left(dir: &Path) {
    let left: Vec<_> = std::fs::read_dir(dir.join("tmp"))
        .expect("the harnesses' TMPDIR")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
}

fn built_harness() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_boxes-harness"))
}

fn run(exe: &Path, dir: &Path, args: &[&str]) -> Output {
    harness(exe, dir)
        .args(args)
        .output()
        .expect("the harness runs")
}

fn said(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A one-case pack (`pack/`) whose model prints `hi`, its submissions'
/// program `prog` built by `build`; blessed.
fn pack(dir: &Path, build: &str) {
    crate::write_file::toy_pack(dir, "hi", build);
    let out = run(&built_harness(), dir, &["bless", "--spec", "./pack"]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
}

#[test]
fn prebuilt_programs_mark_as_built_ones_and_a_merge_names_each_submission_without_a_row() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    pack(root, "cc -o prog prog.c");
    // b and c print what the model prints; a does not.
    for (id, says) in [("a", "ho"), ("b", "hi"), ("c", "hi")] {
        let source = format!("#include <stdio.h>\nint main(void) {{ puts(\"{says}\"); }}\n");
        write(&root.join("src").join(id).join("prog.c"), &source);
        std::fs::create_dir_all(root.join("bin").join(id)).expect("mkdir");
        let cc = Command::new("cc")
            .arg("-o")
            .arg(root.join("bin").join(id).join("prog"))
            .arg(root.join("src").join(id).join("prog.c"))
            .status()
            .expect("cc");
        assert!(cc.success());
    }
    let exe = built_harness();
    let mark = |args: &[&str]| run(&exe, root, &[&["mark", "--spec", "./pack"], args].concat());
    let from_source = mark(&["src", "--out", "whole"]);
    assert_eq!(from_source.status.code(), Some(0), "{}", said(&from_source));

    // The executables alone, in two slices: the second killed before it
    // wrote its class view (what `kill -9` halfway leaves).
    for k in ["1/2", "2/2"] {
        let out = mark(&[
            "bin",
            "--prebuilt",
            "--partition",
            k,
            "--out",
            k.replace('/', "of").as_str(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    }
    let first: serde_json::Value =
        serde_json::from_str(&read(&root.join("1of2/cohort.json"))).expect("cohort.json");
    assert_eq!(first["class"], serde_json::json!(["a", "b", "c"]));
    std::fs::remove_file(root.join("2of2/cohort.json")).expect("rm");
    let merge = |extra: &[&str]| {
        run(
            &exe,
            root,
            &[&["mark", "merge", "1of2", "2of2", "--out", "merged"], extra].concat(),
        )
    };
    let refused = merge(&[]);
    assert_eq!(refused.status.code(), Some(2), "{}", said(&refused));
    assert!(
        said(&refused).contains("1 submission(s) of the class have no row: b (slice 2/2)")
            && said(&refused).contains("2of2 did not finish"),
        "{}",
        said(&refused)
    );
    assert!(!root.join("merged/marks.csv").exists());
    let partial = merge(&["--allow-missing"]);
    assert_eq!(partial.status.code(), Some(0), "{}", said(&partial));
    let csv = read(&root.join("merged/marks.csv"));
    assert!(
        csv.lines()
            .any(|l| l.starts_with("b,,,,not marked,,") && l.contains("slice 2/2")),
        "{csv}"
    );
    let cohort: serde_json::Value =
        serde_json::from_str(&read(&root.join("merged/cohort.json"))).expect("cohort.json");
    assert_eq!(
        cohort["unmarked"],
        serde_json::json!([{"id": "b", "slice": {"k": 2, "n": 2}}])
    );

    // Resumed, the slice merges whole, with the marks of the programs
    // built from source.
    let resumed = mark(&["bin", "--prebuilt", "--partition", "2/2", "--out", "2of2"]);
    assert!(
        said(&resumed).contains("b: unchanged"),
        "{}",
        said(&resumed)
    );
    let whole = merge(&[]);
    assert_eq!(whole.status.code(), Some(0), "{}", said(&whole));
    assert_eq!(
        read(&root.join("merged/marks.csv")),
        read(&root.join("whole/marks.csv"))
    );
    assert!(read(&root.join("whole/marks.csv")).contains("\na,,,,ok,0,0,0,0,1,"));
    let cohort = read(&root.join("merged/cohort.json"));
    assert!(!cohort.contains("unmarked") && !cohort.contains("\"class\""));
    nothing_left(root);
}

#[test]
fn the_harness_replaced_by_mv_while_it_marks_marks_every_submission_and_re_marks_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    pack(root, "cp prog.sh prog && chmod +x prog");
    for (id, says) in [("a", "hi"), ("b", "ho"), ("c", "hi"), ("d", "hi")] {
        write(
            &root.join("subs").join(id).join("prog.sh"),
            &format!("#!/bin/sh\nsleep 0.2\necho {says}\n"),
        );
    }
    // Two copies of the harness: one runs, the other is moved over it
    // (a new inode at the same path, as an update on a shared file
    // system does), the old file left deleted.
    let (exe, update) = (root.join("bin/boxes-harness"), root.join("bin/update"));
    std::fs::create_dir_all(root.join("bin")).expect("mkdir");
    std::fs::copy(built_harness(), &exe).expect("copy");
    std::fs::copy(built_harness(), &update).expect("copy");
    let args = [
        "mark", "--spec", "./pack", "subs", "--out", "marks", "--jobs", "1",
    ];
    let child = harness(&exe, root)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the harness starts");
    let marked = || {
        std::fs::read_dir(root.join("marks/submissions")).map_or(0, |d| {
            d.flatten()
                .filter(|e| e.path().join("mark.json").exists())
                .count()
        })
    };
    let start = Instant::now();
    while marked() == 0 && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let before = marked();
    std::fs::rename(&update, &exe).expect("mv");
    assert!(
        (1..4).contains(&before),
        "{before} submission(s) marked when the harness was replaced"
    );
    let out = child.wait_with_output().expect("the harness ends");
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert!(!said(&out).contains("harness fault"), "{}", said(&out));
    let csv = read(&root.join("marks/marks.csv"));
    let totals: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(7).unwrap_or(""))
        .collect();
    assert_eq!(totals, ["1", "0", "1", "1"], "{csv}");
    // The file at the path is another inode with the same bytes: nothing
    // is marked again.
    let again = run(&exe, root, &args);
    assert_eq!(again.status.code(), Some(0), "{}", said(&again));
    assert_eq!(
        said(&again).matches(": unchanged,").count(),
        4,
        "{}",
        said(&again)
    );
    assert_eq!(read(&root.join("marks/marks.csv")), csv);
    nothing_left(root);
}
