//! Folder packs (`--spec PATH`, docs/folder-packs.md) against the built-in
//! pack they restate: nogo as a folder pack (its suite `cases/nogo`, its
//! model the nogo reference) gives every case of every nogo fixture
//! variant the built-in pack's verdict, blesses the built-in expectations
//! byte for byte, and `diff` with sessions derived from its cases finds a
//! variant's bug. What a lecturer's pack may get wrong: [`mistakes`];
//! packs with build lines: [`build`].

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

mod build;
mod mistakes;

const FIXTURE: &str = env!("CARGO_BIN_EXE_nogo-fixture-variant");
const HARNESS: &str = env!("CARGO_BIN_EXE_boxes-harness");

/// The nogo fixture variants (`harness/tests/it/nogo_variants.rs`), and
/// `nogo`, under which name the fixture is the reference.
const VARIANTS: [&str; 14] = [
    "nogo",
    "dims-before-types",
    "dimension-1000-refused",
    "load-ignores-next",
    "prompt-no-space",
    "leading-zeros-refused",
    "skip-without-advancing",
    "computer-column-first",
    "suicide-first",
    "whole-board-scan",
    "wins-full-stop",
    "save-states-swapped",
    "save-reprints-grid",
    "eof-on-stdout",
];

fn harness() -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
    cmd.env_remove("NOGO_BIN")
        .env_remove("BOXES_BIN")
        .env_remove("CONFORMANCE_REFERENCE")
        .env("NO_COLOR", "1");
    cmd
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the repository")
        .to_owned()
}

/// A nogo folder pack in `dir`: the example's `pack.yaml` with its suite
/// at `suite` and its model the built-in nogo reference (this harness in
/// reference mode, which speaks the span protocol), so that a test needs
/// no binary `cargo test` does not build.
fn nogo_pack(dir: &Path, suite: &Path) -> PathBuf {
    let example = std::fs::read_to_string(repo().join("examples/nogo-folder/pack.yaml"))
        .expect("the example's pack.yaml");
    let text = example
        .replace(
            "suite: ../../cases/nogo",
            &format!("suite: '{}'", suite.display()),
        )
        .replace(
            "command: ../../target/debug/nogo",
            &format!("command: env CONFORMANCE_REFERENCE=nogo '{HARNESS}'"),
        );
    assert_ne!(text, example, "the example's suite and command lines moved");
    std::fs::create_dir_all(dir).expect("pack folder");
    std::fs::write(dir.join("pack.yaml"), text).expect("write pack.yaml");
    dir.to_owned()
}

/// The fixture under `name`, through a symlink in `dir`.
fn variant(dir: &Path, name: &str) -> PathBuf {
    let link = dir.join(name);
    std::os::unix::fs::symlink(FIXTURE, &link).expect("symlink the fixture");
    link
}

/// The results document of a run of every nogo case on `bin` with
/// `--spec spec`, as [`comparable`].
fn results(spec: &str, bin: &Path, out: &Path) -> serde_json::Value {
    let run = harness()
        .env("CONFORMANCE_CONTAINMENT", "group")
        .args(["--spec", spec, "--include-ignored", "-q", "--bin"])
        .arg(bin)
        .arg("--results")
        .arg(out)
        .output()
        .expect("run the harness");
    assert!(
        matches!(run.status.code(), Some(0 | 1)),
        "{spec}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out).expect("results")).expect("results JSON");
    comparable(&doc, &bin.display().to_string())
}

/// A results document without its timings and its program line, the
/// program's path `bin` written `BIN`: two runs of one program under two
/// paths compare equal.
fn comparable(doc: &serde_json::Value, bin: &str) -> serde_json::Value {
    let text = serde_json::to_string(doc)
        .expect("a document")
        .replace(bin, "BIN");
    let mut doc: serde_json::Value = serde_json::from_str(&text).expect("results JSON");
    if let Some(cases) = doc["cases"].as_array_mut() {
        for case in cases {
            case["duration"] = serde_json::Value::Null;
        }
    }
    doc["program"] = serde_json::Value::Null;
    doc
}

#[test]
fn the_example_parses_and_points_at_the_nogo_suite() {
    // Listing builds and runs no model: this needs no `cargo build`.
    let listed = |spec: &str| {
        let out = harness()
            .current_dir(repo())
            .args(["list", "--spec", spec])
            .output()
            .expect("list");
        assert_eq!(out.status.code(), Some(0), "{spec}");
        out.stdout
    };
    let folder = listed("examples/nogo-folder");
    assert!(folder.len() > 1000);
    assert_eq!(folder, listed("nogo"));
}

#[test]
fn every_variant_gets_the_built_in_verdicts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = nogo_pack(&dir.path().join("pack"), &repo().join("cases/nogo"));
    let spec = pack.to_str().expect("a UTF-8 path");
    for name in VARIANTS {
        let bin = variant(dir.path(), name);
        // Both runs at once: a variant whose interactive cases wait out
        // their limits (`prompt-no-space`) waits once, not twice (issue 47).
        let (folder, shared) = std::thread::scope(|s| {
            let shared = s.spawn(|| crate::nogo_runs::nogo_run(name));
            let folder = results(spec, &bin, &dir.path().join(format!("{name}-folder.json")));
            (folder, shared.join().expect("the shared run"))
        });
        let built_in = comparable(&shared.results, &shared.bin);
        assert_eq!(
            folder["cases"], built_in["cases"],
            "{name}: the cases' verdicts differ"
        );
        assert_eq!(
            folder["causes"], built_in["causes"],
            "{name}: the causes differ"
        );
        assert_eq!(folder["score"], built_in["score"], "{name}");
        assert_eq!(folder["content_hash"], built_in["content_hash"], "{name}");
    }
}

/// Every file below `dir` with its bytes, by relative path.
fn files_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).expect("read dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let rel = path.strip_prefix(dir).expect("below").display().to_string();
                out.push((rel, std::fs::read(&path).expect("read")));
            }
        }
    }
    out.sort();
    out
}

/// A case file without its `reference-ms` line (the model's measured
/// time: a limit is derived from it only past a second) and its `trace:`
/// line (a model's trace, which a built-in reference does not keep).
fn without_timing(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    text.lines()
        .filter(|l| !l.starts_with("reference-ms: ") && !l.starts_with("trace: "))
        .collect::<Vec<_>>()
        .join("\n")
        .into_bytes()
}

fn copy_tree(from: &Path, to: &Path) {
    for (rel, bytes) in files_of(from) {
        let path = to.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("copy");
    }
}

/// Removes every status and stream of the case files below `dir` and
/// makes every stdout sidecar stale: bless must write them all again.
fn strip_expectations(dir: &Path) {
    for (rel, bytes) in files_of(dir) {
        let path = dir.join(&rel);
        if rel.ends_with(".stdout") {
            std::fs::write(&path, "stale\n").expect("stale sidecar");
        } else if rel.contains('/')
            && Path::new(&rel).extension().is_some_and(|e| e == "yaml")
            && !rel.starts_with("tools/")
        {
            let mut kept = String::new();
            for line in String::from_utf8_lossy(&bytes).lines() {
                if !["status:", "stdout:", "stderr:"]
                    .iter()
                    .any(|k| line.starts_with(k))
                {
                    kept.push_str(line);
                    kept.push('\n');
                }
            }
            std::fs::write(&path, kept).expect("strip");
        }
    }
}

/// Blesses with `args`, which must succeed.
fn bless(args: &[&std::ffi::OsStr]) {
    let run = harness().arg("bless").args(args).output().expect("bless");
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
}

/// A model's kept trace (`NAME.trace`).
fn is_trace(rel: &str) -> bool {
    Path::new(rel).extension().is_some_and(|e| e == "trace")
}

/// The two trees hold the same files with the same bytes, `reference-ms`
/// and the model's kept traces aside.
fn assert_same_tree(want: &Path, got: &Path) {
    let traces = |t: Vec<(String, Vec<u8>)>| {
        t.into_iter()
            .filter(|(rel, _)| !is_trace(rel))
            .collect::<Vec<_>>()
    };
    let want = traces(files_of(want));
    let got = traces(files_of(got));
    let names = |t: &[(String, Vec<u8>)]| t.iter().map(|(r, _)| r.clone()).collect::<Vec<_>>();
    assert_eq!(names(&want), names(&got));
    for ((rel, w), (_, g)) in want.iter().zip(&got) {
        assert!(
            without_timing(w) == without_timing(g),
            "{rel} differs after bless:\n{}",
            String::from_utf8_lossy(g)
        );
    }
}

#[test]
fn bless_from_the_model_reproduces_the_built_in_expectations() {
    let dir = tempfile::tempdir().expect("temp dir");
    let nogo = repo().join("cases/nogo");
    // The suite as it is: the model agrees with every expectation.
    let kept = dir.path().join("kept");
    copy_tree(&nogo, &kept);
    let pack = nogo_pack(&dir.path().join("kept-pack"), &kept);
    bless(&["--spec".as_ref(), pack.as_os_str()]);
    assert_same_tree(&nogo, &kept);
    // The model's traces are kept beside its expectations (issue 53).
    let traced = files_of(&kept)
        .into_iter()
        .filter(|(rel, _)| is_trace(rel))
        .count();
    assert!(traced > 100, "{traced} traces kept");
    // Every expectation written again: the folder pack writes what the
    // built-in pack writes.
    let (folder, built_in) = (dir.path().join("folder"), dir.path().join("built-in"));
    for tree in [&folder, &built_in] {
        copy_tree(&nogo, tree);
        strip_expectations(tree);
    }
    let pack = nogo_pack(&dir.path().join("stripped-pack"), &folder);
    bless(&["--spec".as_ref(), pack.as_os_str()]);
    bless(&[
        "--spec".as_ref(),
        "nogo".as_ref(),
        "--cases".as_ref(),
        built_in.as_os_str(),
    ]);
    assert_same_tree(&built_in, &folder);
}

/// `diff` of `bin` against the pack's model: 200 sessions from `seed`,
/// the first mismatch written to `out`; exit status and stdout.
fn diff_on(pack: &Path, bin: &Path, seed: &str, out: &Path) -> (Option<i32>, String) {
    let run = harness()
        .env("CONFORMANCE_CONTAINMENT", "group")
        .args(["diff", "--spec"])
        .arg(pack)
        .arg("--bin")
        .arg(bin)
        .args(["--sessions", "200", "--seed", seed, "--max-failures", "1"])
        .arg("--out")
        .arg(out)
        .output()
        .expect("diff");
    (
        run.status.code(),
        String::from_utf8_lossy(&run.stdout).into_owned(),
    )
}

#[test]
fn diff_with_derived_sessions_finds_a_variants_bug() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = nogo_pack(&dir.path().join("pack"), &repo().join("cases/nogo"));
    let bin = variant(dir.path(), "prompt-no-space");
    let out = dir.path().join("found");
    let (code, text) = diff_on(&pack, &bin, "7", &out);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("TURN-1"),
        "the prompt's rule is named: {text}"
    );
    // The case it wrote fails the variant and passes the model.
    let check = |bin: Option<&Path>| {
        let mut cmd = harness();
        cmd.args(["--spec"]).arg(&pack).arg("--include-ignored");
        if let Some(bin) = bin {
            cmd.arg("--bin").arg(bin);
        }
        cmd.arg("--cases")
            .arg(&out)
            .output()
            .expect("rerun")
            .status
            .code()
    };
    assert_eq!(check(Some(&bin)), Some(1));
    assert_eq!(check(None), Some(0));
}

#[test]
fn diff_with_the_examples_grammar_finds_a_variants_bug() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = nogo_pack(&dir.path().join("pack"), &repo().join("cases/nogo"));
    std::fs::copy(
        repo().join("examples/nogo-folder/explore.yaml"),
        pack.join("explore.yaml"),
    )
    .expect("copy explore.yaml");
    let bin = variant(dir.path(), "computer-column-first");
    let out = dir.path().join("found");
    let (code, text) = diff_on(&pack, &bin, "1", &out);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("in the computer's move (COMP-4"), "{text}");
    assert!(text.contains("category full-games"), "{text}");
    // A grammar that does not parse is exit 2 naming its file and line.
    std::fs::write(
        pack.join("explore.yaml"),
        "category: full-games\nargv:\n  - {range: [1, 2]}\n",
    )
    .expect("bad grammar");
    let run = harness()
        .args(["diff", "--spec"])
        .arg(&pack)
        .arg("--bin")
        .arg(&bin)
        .output()
        .expect("diff");
    let text = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(run.status.code(), Some(2), "{text}");
    assert!(
        text.contains(&format!("{}:3:", pack.join("explore.yaml").display())),
        "{text}"
    );
}

#[test]
fn diff_takes_bin_and_against_as_command_lines_as_run_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = script_pack(dir.path(), "echo hi\n", &[("a", "args: [x]\n")]);
    let diff = |extra: &[&str]| {
        let run = harness()
            .env("CONFORMANCE_CONTAINMENT", "group")
            .args(["diff", "--spec"])
            .arg(&pack)
            .args(extra)
            .args(["--sessions", "5", "--seed", "1", "--max-failures", "1"])
            .arg("--out")
            .arg(dir.path().join("found"))
            .output()
            .expect("diff");
        let text = String::from_utf8_lossy(&run.stdout).into_owned()
            + &String::from_utf8_lossy(&run.stderr);
        (run.status.code(), text)
    };
    let (code, text) = diff(&["--bin", "sh -c 'echo bye'"]);
    assert_eq!(code, Some(1), "a command line with arguments: {text}");
    let (code, text) = diff(&["--bin", "sh -c 'echo hi'", "--against", "sh -c 'echo ho'"]);
    assert_eq!(code, Some(1), "{text}");
    let (code, text) = diff(&["--bin", "sh -c 'echo hi'"]);
    assert_eq!(code, Some(0), "{text}");
}

/// A one-category pack whose model is the shell script `model`, with the
/// cases `cases` (name, YAML body).
fn script_pack(dir: &Path, model: &str, cases: &[(&str, &str)]) -> PathBuf {
    let pack = dir.join("pack");
    std::fs::create_dir_all(pack.join("c")).expect("mkdir");
    std::fs::write(
        pack.join("pack.yaml"),
        "name: toy\nmodel:\n  command: sh model.sh\n",
    )
    .expect("pack.yaml");
    std::fs::write(pack.join("model.sh"), model).expect("model");
    std::fs::write(
        pack.join("suite.yaml"),
        "name: toy\ncategories:\n  - {name: c, marks: 1}\n",
    )
    .expect("suite.yaml");
    std::fs::write(
        pack.join("rules.yaml"),
        "rules:\n  - id: T-1\n    summary: the toy rule\n    ambiguous: no\n",
    )
    .expect("rules.yaml");
    for (name, body) in cases {
        std::fs::write(
            pack.join(format!("c/{name}.yaml")),
            format!("summary: {name}\ncategory: c\nrules: [T-1]\n{body}"),
        )
        .expect("case");
    }
    pack
}
