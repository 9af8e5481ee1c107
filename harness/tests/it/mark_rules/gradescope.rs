//! `mark`'s Gradescope autograder run end to end against a fake
//! `/autograder` tree (a failing and an unbuildable submission, `setup.sh`
//! installing the release archive, `--memcheck asan`), checked against the
//! autograder's format and for its causes.

use std::path::Path;

use super::{executables, harness, said, wrapper, write};

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
    // Stored, not deflated: `tar -xzf` reads it alike, and deflating the
    // 57 MB debug harness with an unoptimised flate2 was a third of this
    // test's CPU.
    let pack = |binary: &Path| {
        let file =
            std::fs::File::create(scripts.join(format!("{archive}.tar.gz"))).expect("archive");
        let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
            file,
            flate2::Compression::none(),
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

/// `gradescope-autograder --spec boxes` written into `root/autograder-zip`:
/// that folder and what the command said.
fn autograder(root: &Path) -> (std::path::PathBuf, std::process::Output) {
    let scripts = root.join("autograder-zip");
    let wrote = harness(root)
        .args(["gradescope-autograder", "--spec", "boxes", "--out"])
        .arg(&scripts)
        .output()
        .expect("runs");
    assert_eq!(wrote.status.code(), Some(0), "{}", said(&wrote));
    (scripts, wrote)
}

#[test]
fn the_gradescope_autograder_runs_against_a_fake_tree() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let (scripts, wrote) = autograder(root);
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

/// `run_autograder` when `mark` gives no mark (exit 3: the environment
/// struck a case; exit 2: the harness could not mark it): no
/// `results.json` (an earlier one removed), which Gradescope shows as an
/// autograder failure with no score, never a 0; why on stdout, for staff.
#[test]
fn no_mark_from_mark_is_an_autograder_failure_not_a_zero() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let (scripts, _) = autograder(root);
    for (status, says) in [
        (3, "autograder: ENVIRONMENT FAILURE (mark exit 3)"),
        (
            2,
            "the harness could not mark this submission (mark exit 2)",
        ),
    ] {
        let tree = root.join(format!("tree-{status}"));
        write(
            &tree.join("submission/main.c"),
            b"int main(void) { return 0; }\n",
        );
        write(&tree.join("results/results.json"), b"{\"score\": 9}\n");
        // A `mark` that writes nothing and ends with `status`.
        let fake = root.join(format!("fake-{status}"));
        write(&fake, format!("#!/bin/sh\nexit {status}\n").as_bytes());
        std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .expect("chmod");
        let out = std::process::Command::new(scripts.join("run_autograder"))
            .env("AUTOGRADER_ROOT", &tree)
            .env("AUTOGRADER_HARNESS", &fake)
            .env("TMPDIR", root)
            .output()
            .expect("run_autograder runs");
        assert_eq!(out.status.code(), Some(1), "{}", said(&out));
        assert!(
            String::from_utf8_lossy(&out.stdout).contains(says),
            "{}",
            said(&out)
        );
        assert!(!tree.join("results/results.json").exists());
    }
}
