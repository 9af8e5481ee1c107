//! Writing a test's pack files: one helper for the tests that build small
//! folder packs and classes on disk (frictions, secret, mark_env,
//! mark_cluster each wrote it), and the one-case toy pack mark_env and
//! mark_cluster mark their classes with.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};

/// A finished harness's status and its stdout followed by its stderr.
pub fn said(out: &std::process::Output) -> (Option<i32>, String) {
    (
        out.status.code(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// Writes `text` to `path`, making its folders first.
pub fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

/// The one-case pack `dir/pack` (not blessed): its model a shell script
/// printing `says`, its submissions' program `prog` built by `build`.
pub fn toy_pack(dir: &Path, says: &str, build: &str) -> PathBuf {
    let pack = dir.join("pack");
    write(
        &pack.join("pack.yaml"),
        &format!(
            "name: toy\nmodel:\n  command: sh model.sh\nsubmissions:\n  program: prog\n  build: \
             {build}\n"
        ),
    );
    write(&pack.join("model.sh"), &format!("echo {says}\n"));
    write(
        &pack.join("suite.yaml"),
        "name: toy\ncategories:\n  - {name: c, marks: 1}\n",
    );
    write(
        &pack.join("rules.yaml"),
        "rules:\n  - id: T-1\n    summary: the toy rule\n    ambiguous: no\n",
    );
    write(
        &pack.join("c/one.yaml"),
        "summary: one\ncategory: c\nrules: [T-1]\nargs: []\n",
    );
    pack
}
