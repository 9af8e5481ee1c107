//! What a lecturer's folder pack may get wrong: a bad `pack.yaml` (exit 2
//! naming file and line), a model that is not deterministic (the case
//! named, not blessed), a model that reads outside its folder, the suite's
//! answers or names its own folders in its output (refused, as a program
//! under test is), and a command word naming no file.

use std::path::Path;

use super::{harness, script_pack};

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
