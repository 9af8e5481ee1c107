//! Programs built with AddressSanitizer run at the default containment:
//! their memory is bounded by what they hold, not by their address space
//! (which ASan's shadow memory takes terabytes of), so an ASan build
//! passes the cases a plain build passes, and an ASan-built memory hog
//! still ends at its limit. Needs gcc with its sanitizer runtimes: where
//! they are missing the tests say so and pass, except under CI (`CI`
//! set), where `.ci/run` installs them and a missing one fails.

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

const PROGRAM: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "hog") == 0) {
        for (;;) {
            char *p = malloc(1 << 20);
            if (!p) return 3;
            memset(p, 1, 1 << 20);
        }
    }
    if (argc > 1 && strcmp(argv[1], "leak") == 0) {
        char *p = malloc(64);
        strcpy(p, "leaked");
        p = NULL;
    }
    puts("refused");
    return 0;
}
"#;

/// The program built with `-fsanitize=address,undefined` into `dir`, or
/// `None` where this machine's gcc cannot (a failure under CI).
fn sanitized(dir: &Path) -> Option<PathBuf> {
    let source = dir.join("prog.c");
    std::fs::write(&source, PROGRAM).unwrap();
    let exe = dir.join("prog");
    let built = std::process::Command::new("gcc")
        .args(["-g", "-fsanitize=address,undefined", "-o"])
        .arg(&exe)
        .arg(&source)
        .output();
    match built {
        Ok(out) if out.status.success() => Some(exe),
        other => {
            let why = format!("gcc cannot build with -fsanitize=address,undefined: {other:?}");
            assert!(std::env::var_os("CI").is_none(), "{why}");
            eprintln!("skipped: {why}");
            None
        }
    }
}

fn suite(cases: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/misbehave");
    std::fs::copy(fixtures.join("suite.yaml"), dir.path().join("suite.yaml")).unwrap();
    std::fs::create_dir(dir.path().join("process")).unwrap();
    for (name, arg) in cases {
        std::fs::write(
            dir.path().join(format!("process/{name}.yaml")),
            format!(
                "summary: {name}\ncategory: process\nrules: [T-1]\nargs: [{arg}]\ntimeout: 20\n\
                 status: 0\nstdout: \"refused\\n\"\n"
            ),
        )
        .unwrap();
    }
    dir
}

fn run(exe: &Path, suite: &Path, level: &str) -> (i32, String) {
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .env("NO_COLOR", "1")
        .env("CONFORMANCE_CONTAINMENT", level)
        .env_remove("CONFORMANCE_ALLOW_READ")
        .args(["--max-memory", "256", "--format", "libtest", "--bin"])
        .arg(exe)
        .arg("--cases")
        .arg(suite)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn an_asan_build_keeps_its_verdicts_and_a_hog_ends_at_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    let Some(exe) = sanitized(dir.path()) else {
        return;
    };
    let honest = suite(&[("plain", "plain"), ("leak", "leak")]);
    let hog = suite(&[("hog", "hog")]);
    for level in ["pid", "landlock"] {
        // Passes, its leak not charged (leaks are off unless asked).
        let (code, text) = run(&exe, honest.path(), level);
        assert_eq!(code, 0, "{level}: {text}");
        assert!(!text.contains("failed to allocate"), "{level}: {text}");
        let (code, text) = run(&exe, hog.path(), level);
        assert_eq!(code, 1, "{level}: {text}");
        assert!(
            text.contains(
                "conformance: killed: its processes held more than 256 MiB of memory (the \
                 memory limit)"
            ),
            "{level}: {text}"
        );
    }
}
