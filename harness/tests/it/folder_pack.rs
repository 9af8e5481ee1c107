//! Folder packs (`--spec PATH`, docs/folder-packs.md) against the built-in
//! pack they restate: nogo as a folder pack (its suite `cases/nogo`, its
//! model the nogo reference) gives every case of every nogo fixture
//! variant the built-in pack's verdict, blesses the built-in expectations
//! byte for byte, and `diff` with sessions derived from its cases finds a
//! variant's bug. Then what a lecturer's pack may get wrong: a bad
//! `pack.yaml` (exit 2 naming file and line), a model that is not
//! deterministic (the case named, not blessed), and a model that reads
//! outside its folder (refused, as a program under test is).

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

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
/// `--spec spec`, without its timings and its program line.
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
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out).expect("results")).expect("results JSON");
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
        let folder = results(spec, &bin, &dir.path().join(format!("{name}-folder.json")));
        let built_in = results("nogo", &bin, &dir.path().join(format!("{name}-nogo.json")));
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

/// A case file without its `reference-ms` line: the model's measured time
/// (a limit is derived from it only past a second), not an expectation.
fn without_timing(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    text.lines()
        .filter(|l| !l.starts_with("reference-ms: "))
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

/// The two trees hold the same files with the same bytes, `reference-ms`
/// aside.
fn assert_same_tree(want: &Path, got: &Path) {
    let want = files_of(want);
    let got = files_of(got);
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

#[test]
fn a_bad_pack_yaml_is_exit_2_naming_file_and_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = script_pack(dir.path(), "echo hi\n", &[("a", "args: []\n")]);
    std::fs::write(
        pack.join("pack.yaml"),
        "name: toy\nmodel:\n  command: sh model.sh\n  biuld: make\n",
    )
    .expect("pack.yaml");
    for sub in [
        &["list"][..],
        &[],
        &["bless"],
        &["coverage"],
        &["diff"],
        &["mark"],
    ] {
        let out = harness()
            .args(sub)
            .arg("--spec")
            .arg(&pack)
            .output()
            .expect("run");
        let text = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{sub:?}: {text}");
        assert!(
            text.contains(&format!("{}:4:", pack.join("pack.yaml").display()))
                && text.contains("unknown field `biuld`, expected"),
            "{sub:?}: {text}"
        );
    }
}

#[test]
fn a_case_the_model_is_not_deterministic_on_is_named_and_not_blessed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let model = "if [ \"$1\" = random ]; then od -An -N8 -tx1 /dev/urandom; else echo same; fi\n";
    let pack = script_pack(
        dir.path(),
        model,
        &[("steady", "args: []\n"), ("random", "args: [random]\n")],
    );
    let (code, text) = on_pack("bless", &pack);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("c/random.yaml: not blessed: the model is not deterministic on this case (stdout at byte"),
        "{text}"
    );
    let random = std::fs::read_to_string(pack.join("c/random.yaml")).expect("case");
    assert!(!random.contains("stdout"), "blessed anyway: {random}");
    let steady = std::fs::read_to_string(pack.join("c/steady.yaml")).expect("case");
    assert!(steady.contains("stdout: \"same\\n\""), "{steady}");
}

#[test]
fn the_model_is_contained_like_a_program_under_test() {
    let dir = tempfile::tempdir().expect("temp dir");
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "the answers\n").expect("secret");
    let model = format!(
        "if cat '{}' >/dev/null 2>&1; then echo ESCAPED; else echo refused; fi\n",
        secret.display()
    );
    // The script is read from its own folder (the pack's), which is the
    // one place besides the system and its case folder it may read; the
    // secret lies just outside it.
    let pack = script_pack(dir.path(), &model, &[("read", "args: []\n")]);
    let (code, text) = on_pack("bless", &pack);
    let blessed = std::fs::read_to_string(pack.join("c/read.yaml")).expect("case");
    assert_eq!(code, Some(0), "{text}");
    assert!(blessed.contains("stdout: \"refused\\n\""), "{blessed}");
    assert!(text.contains("blessing from the model: "), "{text}");
}

#[test]
fn mark_builds_and_marks_submissions_with_the_packs_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tmp = tempfile::tempdir().expect("TMPDIR");
    let pack = script_pack(dir.path(), "echo same\n", &[("one", "args: []\n")]);
    // A model with a build line: built once by `mark`, whose checks (each
    // its own harness) run the folder it left.
    std::fs::write(
        pack.join("pack.yaml"),
        "name: toy\nmodel:\n  build: cp model.sh model && chmod +x model\n  command: sh \
         model\nsubmissions:\n  program: prog\n  build: cp prog.sh prog && chmod +x prog\n",
    )
    .expect("pack.yaml");
    bless(&["--spec".as_ref(), pack.as_os_str()]);
    for (who, says) in [("alice", "same"), ("bob", "other")] {
        let sub = dir.path().join("subs").join(who);
        std::fs::create_dir_all(&sub).expect("mkdir");
        std::fs::write(sub.join("prog.sh"), format!("#!/bin/sh\necho {says}\n")).expect("sub");
    }
    let out = harness()
        .current_dir(dir.path())
        .env("TMPDIR", tmp.path())
        .args(["mark", "--spec", "./pack", "subs", "--out", "marks"])
        .output()
        .expect("mark");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(dir.path().join("marks/marks.csv")).expect("marks.csv");
    assert!(csv.contains("\nalice,,,,ok,0,1,1,1,0,0,,,\n"), "{csv}");
    assert!(
        csv.contains("\nbob,,,,ok,0,0,0,0,1,0,stdout: `other\\n` where `same\\n` was expected,,\n"),
        "{csv}"
    );
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .expect("TMPDIR")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "mark left {left:?}");
}

#[test]
fn a_model_with_a_build_line_is_built_contained_and_its_folder_removed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tmp = tempfile::tempdir().expect("TMPDIR");
    let pack = script_pack(dir.path(), "unused\n", &[("one", "args: [x]\n")]);
    std::fs::create_dir_all(pack.join("model")).expect("mkdir");
    std::fs::write(pack.join("model/prog.in"), "echo built \"$1\"\n").expect("source");
    std::fs::write(
        pack.join("pack.yaml"),
        "name: toy\nmodel:\n  dir: model\n  build: \"(echo '#!/bin/sh'; cat prog.in) > prog\"\n  \
         command: ./prog\n",
    )
    .expect("pack.yaml");
    let run = |args: &[&str]| {
        let out = harness()
            .env("TMPDIR", tmp.path())
            .args(args)
            .arg("--spec")
            .arg(&pack)
            .output()
            .expect("run");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        // Nothing of the build, the model or its runs is left behind.
        let left: Vec<_> = std::fs::read_dir(tmp.path())
            .expect("TMPDIR")
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert!(left.is_empty(), "{args:?} left {left:?}: {text}");
        (out.status.code(), text)
    };
    let (code, text) = run(&["bless"]);
    assert_eq!(code, Some(0), "{text}");
    let case = std::fs::read_to_string(pack.join("c/one.yaml")).expect("case");
    assert!(case.contains("stdout: \"built x\\n\""), "{case}");
    let junit = dir.path().join("j.xml");
    let gradescope = dir.path().join("g.json");
    let (code, text) = run(&[
        "--score",
        "--junit",
        junit.to_str().expect("UTF-8"),
        "--gradescope",
        gradescope.to_str().expect("UTF-8"),
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("estimated mark: 1.00 / 1"), "{text}");
    let junit = std::fs::read_to_string(junit).expect("JUnit");
    assert!(junit.contains("c/one"), "{junit}");
    let gradescope = std::fs::read_to_string(gradescope).expect("Gradescope");
    assert!(gradescope.contains("\"score\""), "{gradescope}");
    // A build that fails is exit 2 with its output.
    std::fs::write(
        pack.join("pack.yaml"),
        "name: toy\nmodel:\n  dir: model\n  build: echo no compiler here >&2; exit 3\n  \
         command: ./prog\n",
    )
    .expect("pack.yaml");
    let (code, text) = run(&["--score"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("no compiler here"), "{text}");
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

/// The subcommand `sub` on `pack`: exit status and stdout with stderr.
fn on_pack(sub: &str, pack: &Path) -> (Option<i32>, String) {
    let out = harness()
        .args([sub, "--spec"])
        .arg(pack)
        .output()
        .expect("run the harness");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn the_model_never_reads_the_suites_answers_in_any_layout() {
    // Every way to the case file a model was found to have: beside its
    // script, above it, from its case folder, through a `-cp .`-style
    // word (`$1`), and by absolute path.
    let reader = |case: &Path| {
        format!(
            "here=$(dirname \"$0\")\nfor f in \"$here/c/a.yaml\" \"$here/../c/a.yaml\" c/a.yaml \
             ../c/a.yaml \"$1/c/a.yaml\" \"$1/../c/a.yaml\" '{}'; do\n  if cat \"$f\" \
             >/dev/null 2>&1; then echo \"ESCAPED $f\"; exit 0; fi\ndone\necho refused\n",
            case.display()
        )
    };
    let layouts = [
        ("default", "model:\n  command: sh model.sh .\n"),
        ("dir", "model:\n  dir: m\n  command: sh model.sh .\n"),
        (
            "build",
            "model:\n  build: cp model.sh prog.sh\n  command: sh prog.sh .\n",
        ),
    ];
    for (name, model) in layouts {
        let dir = tempfile::tempdir().expect("temp dir");
        let pack = script_pack(dir.path(), "", &[("a", "args: []\n")]);
        let script = reader(&pack.join("c/a.yaml"));
        std::fs::write(pack.join("model.sh"), &script).expect("model");
        std::fs::create_dir_all(pack.join("m")).expect("mkdir");
        std::fs::write(pack.join("m/model.sh"), &script).expect("model");
        std::fs::write(pack.join("pack.yaml"), format!("name: toy\n{model}")).expect("pack.yaml");
        let (code, text) = on_pack("bless", &pack);
        assert_eq!(code, Some(0), "{name}: {text}");
        let blessed = std::fs::read_to_string(pack.join("c/a.yaml")).expect("case");
        assert!(
            blessed.contains("stdout: \"refused\\n\""),
            "{name}: {blessed}"
        );
    }
}

#[test]
fn bless_refuses_output_naming_the_models_folders() {
    let dir = tempfile::tempdir().expect("temp dir");
    let model = "if [ \"$1\" = where ]; then pwd; else echo \"Usage: $0\" >&2; exit 1; fi\n";
    let pack = script_pack(
        dir.path(),
        model,
        &[("usage", "args: []\n"), ("where", "args: [where]\n")],
    );
    let (code, text) = on_pack("bless", &pack);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("c/usage.yaml: not blessed: its stderr names the folder it runs from"),
        "{text}"
    );
    assert!(
        text.contains("c/where.yaml: not blessed: its stdout names its case folder"),
        "{text}"
    );
    for name in ["usage", "where"] {
        let case = std::fs::read_to_string(pack.join(format!("c/{name}.yaml"))).expect("case");
        assert!(!case.contains("std"), "blessed anyway: {case}");
    }
}

#[test]
fn a_command_word_naming_no_file_is_refused_at_load() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = script_pack(dir.path(), "echo hi\n", &[("a", "args: []\n")]);
    std::fs::write(
        pack.join("pack.yaml"),
        "name: toy\nmodel:\n  command: sh modl.sh\n",
    )
    .expect("pack.yaml");
    let (code, text) = on_pack("list", &pack);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains(&format!(
            "{}:3:1: model.command: `modl.sh` looks like a file",
            pack.join("pack.yaml").display()
        )),
        "{text}"
    );
}

#[test]
fn a_suite_in_a_subfolder_keeps_its_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let inner = script_pack(dir.path(), "echo same\n", &[("a", "args: []\n")]);
    // The pack holds the model; its suite is the folder `suite` inside.
    let pack = dir.path().join("outer");
    std::fs::create_dir_all(&pack).expect("mkdir");
    std::fs::rename(&inner, pack.join("suite")).expect("move the suite");
    std::fs::rename(pack.join("suite/model.sh"), pack.join("model.sh")).expect("move the model");
    std::fs::write(
        pack.join("pack.yaml"),
        "name: toy\nsuite: suite\nmodel:\n  command: sh model.sh\n",
    )
    .expect("pack.yaml");
    let (code, text) = on_pack("bless", &pack);
    assert_eq!(code, Some(0), "{text}");
    let case = std::fs::read_to_string(pack.join("suite/c/a.yaml")).expect("case");
    assert!(case.contains("stdout: \"same\\n\""), "{case}");
}

#[test]
fn a_suite_file_past_the_cap_is_refused_by_its_length() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = script_pack(dir.path(), "echo hi\n", &[("a", "args: []\n")]);
    // A sparse terabyte: read whole, it would exhaust memory first.
    let big = std::fs::File::create(pack.join("c/big.bin")).expect("create");
    big.set_len(1 << 40).expect("sparse file");
    let (code, text) = on_pack("list", &pack);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("more than 256 MiB of files"), "{text}");
}

#[test]
fn a_build_output_cut_at_the_cap_is_an_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = script_pack(dir.path(), "echo hi\n", &[("a", "args: []\n")]);
    std::fs::write(
        pack.join("pack.yaml"),
        "name: toy\nmodel:\n  build: head -c 16777217 /dev/zero > big\n  command: sh model.sh\n",
    )
    .expect("pack.yaml");
    let (code, text) = on_pack("bless", &pack);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("left big, longer than the 16 MiB a built file may be"),
        "{text}"
    );
}

#[test]
fn diff_stops_when_the_model_cannot_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = script_pack(
        dir.path(),
        "echo \"python3: can't open file 'modl.py'\" >&2\nexit 127\n",
        &[("a", "args: [go]\nstatus: 0\nstdout: \"x\\n\"\n")],
    );
    let bin = dir.path().join("prog");
    std::fs::write(&bin, "#!/bin/sh\necho y\n").expect("program");
    std::fs::set_permissions(&bin, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let out_dir = dir.path().join("found");
    let run = harness()
        .args(["diff", "--spec"])
        .arg(&pack)
        .arg("--bin")
        .arg(&bin)
        .args(["--sessions", "20", "--seed", "1", "--out"])
        .arg(&out_dir)
        .output()
        .expect("diff");
    let text =
        String::from_utf8_lossy(&run.stdout).into_owned() + &String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{text}");
    assert!(
        text.contains("the model could not run (status 127") && text.contains("can't open file"),
        "{text}"
    );
    assert!(!out_dir.exists(), "cases written: {text}");
}
