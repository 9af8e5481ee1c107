//! Writing a test's pack files: one helper for the tests that build small
//! folder packs and classes on disk (frictions, secret, mark_env,
//! mark_cluster each wrote it).

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::Path;

/// Writes `text` to `path`, making its folders first.
pub fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}
