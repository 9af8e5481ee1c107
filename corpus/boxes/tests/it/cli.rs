//! The `boxes-corpus` binary: its commands, exit statuses and messages.

use std::path::Path;

use assert_cmd::Command;
use boxes_corpus::{Class, Manifest};

fn cmd() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boxes-corpus"))
}

/// Runs `boxes-corpus generate` with `args` then `--out out`, expecting
/// `code`; returns (stdout, stderr) as text.
fn generate(args: &[&str], out: &Path, code: i32) -> (String, String) {
    let output = cmd()
        .arg("generate")
        .args(args)
        .arg("--out")
        .arg(out)
        .assert()
        .code(code)
        .get_output()
        .clone();
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn classes_lists_every_class_once() {
    let out = cmd()
        .arg("classes")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), Class::all().len());
    for (line, class) in lines.iter().zip(Class::all()) {
        assert!(line.starts_with(&class.name()), "{line}");
        assert!(line.contains(&class.description()), "{line}");
    }
    assert!(text.contains("ambiguous"));
}

#[test]
fn generate_writes_a_readable_corpus_deterministically() {
    let dir = tempfile::tempdir().expect("temp dir");
    let args = [
        "--height",
        "3",
        "--width",
        "2",
        "--players",
        "4",
        "--seed",
        "9",
    ];
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let (stdout, _) = generate(&args, &a, 0);
    assert!(stdout.contains("manifest.yaml"), "{stdout}");
    generate(&args, &b, 0);
    let ma = std::fs::read(a.join("manifest.yaml")).expect("manifest");
    let mb = std::fs::read(b.join("manifest.yaml")).expect("manifest");
    assert_eq!(ma, mb);
    let m = Manifest::read(&a).expect("reads");
    assert_eq!((m.height, m.width, m.players, m.seed), (3, 2, 4, 9));
    assert!(m.entries.iter().all(|e| e.path_in(&a).is_file()));
}

#[test]
fn refuses_sizes_boxes_refuses() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("x");
    let (_, err) = generate(
        &["--height", "1", "--width", "2", "--players", "2"],
        &out,
        2,
    );
    assert!(err.contains("height 1 is outside 2..=999"), "{err}");
    let (_, err) = generate(
        &["--height", "2", "--width", "2", "--players", "101"],
        &out,
        2,
    );
    assert!(err.contains("player count 101"), "{err}");
    assert!(!out.exists());
}

#[test]
fn exhaustive_refuses_large_grids_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("big");
    let args = [
        "--height",
        "20",
        "--width",
        "20",
        "--players",
        "2",
        "--exhaustive",
    ];
    let (_, err) = generate(&args, &out, 1);
    assert!(err.contains("--exhaustive is for small grids"), "{err}");
    assert!(!out.exists());
}

#[test]
fn refuses_a_non_empty_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("keep.txt"), "mine").expect("write");
    let (_, err) = generate(
        &["--height", "2", "--width", "2", "--players", "2"],
        dir.path(),
        1,
    );
    assert!(err.contains("is not empty"), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
}
