//! Helpers the folder-pack tests share: a file written with its folders,
//! a finished command's output as one text.

#![expect(
    clippy::expect_used,
    reason = "test helpers: a file that cannot be written must fail the test"
)]

use std::path::Path;
use std::process::Output;

/// Writes `text` to `path`, making its folders.
pub fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("folder");
    }
    std::fs::write(path, text).expect("write");
}

/// What a finished command printed, stdout then stderr.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
