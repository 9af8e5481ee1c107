//! A small boxes pack for the whole-class stories: the built-in boxes
//! suite's first cases of each category, and the cases a test names, said
//! as a folder pack whose model is the boxes fixture under the reference's
//! name. `mark` runs every case on every submission, two or three times in
//! a story; a few cases per category prove what those stories prove (the
//! rows, the slices, the load) at a tenth of the runs (issue 47). `mark`
//! on the whole built-in suite is still run by `mark_rules.rs` and
//! `mark/class.rs`.

#![expect(
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers: a pack that cannot be written must fail the test"
)]

use std::path::{Path, PathBuf};

/// The boxes fixture: under the name `boxes` it is the reference.
const FIXTURE: &str = env!("CARGO_BIN_EXE_boxes-fixture-variant");

/// Cases kept from each category, the first by name.
const PER_CATEGORY: usize = 3;

/// Writes the pack into `dir` (made) and returns its folder, for `--spec`:
/// the first [`PER_CATEGORY`] cases of each category of `cases/boxes`,
/// and every case of `extra` (`category/name`) with its files. Its
/// `suite.yaml` and `rules.yaml` are the built-in pack's, so its marks
/// total the same 42.
pub fn mini_boxes(dir: &Path, extra: &[&str]) -> PathBuf {
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases/boxes");
    std::fs::create_dir_all(dir).expect("the pack's folder");
    for file in ["suite.yaml", "rules.yaml", "boxes-rulings.md"] {
        copy(&suite.join(file), &dir.join(file));
    }
    let (mut kept, mut named_found) = (0, 0);
    for entry in std::fs::read_dir(&suite).expect("cases/boxes").flatten() {
        if !entry.path().is_dir() {
            continue;
        }
        let category = entry.file_name().to_string_lossy().into_owned();
        let files: Vec<String> = std::fs::read_dir(entry.path())
            .expect("a category")
            .map(|f| {
                let f = f.expect("a category's entry");
                f.file_name().to_string_lossy().into_owned()
            })
            .collect();
        let mut stems: Vec<&str> = files
            .iter()
            .filter_map(|name| name.strip_suffix(".yaml"))
            .collect();
        stems.sort_unstable();
        let mut chosen: Vec<&str> = stems.iter().take(PER_CATEGORY).copied().collect();
        let prefix = format!("{category}/");
        for stem in extra.iter().filter_map(|e| e.strip_prefix(&prefix)) {
            assert!(stems.contains(&stem), "no case {category}/{stem}");
            named_found += 1;
            if !chosen.contains(&stem) {
                chosen.push(stem);
            }
        }
        std::fs::create_dir_all(dir.join(&category)).expect("a category folder");
        // A case's files are its stem and a dot, then what they hold.
        for name in files
            .iter()
            .filter(|name| chosen.iter().any(|s| name.starts_with(&format!("{s}."))))
        {
            copy(&entry.path().join(name), &dir.join(&category).join(name));
        }
        kept += chosen.len();
    }
    assert!(kept >= 12 * PER_CATEGORY, "only {kept} cases kept");
    assert_eq!(
        named_found,
        extra.len(),
        "a named case in no category: {extra:?}"
    );
    // In a hidden folder: the suite's walk skips it, so no harness run
    // reads and hashes the binary as one of the suite's files.
    std::fs::create_dir_all(dir.join(".model")).expect("the model's folder");
    let model = dir.join(".model/boxes");
    std::os::unix::fs::symlink(FIXTURE, &model).expect("the model");
    let model = model.to_str().expect("a UTF-8 temporary path");
    // Shell words (a path may hold a space), then a JSON string, which is
    // a YAML double-quoted scalar.
    let command = shlex::try_quote(model).expect("a path without NUL");
    let command = serde_json::to_string(&command).expect("a string");
    std::fs::write(
        dir.join("pack.yaml"),
        format!(
            "name: boxes\nmodel:\n  command: {command}\nsubmissions:\n  program: boxes\n  \
             build: gcc -Wall -pedantic -std=gnu99 -o boxes *.c\n  with_makefile: make\n"
        ),
    )
    .expect("pack.yaml");
    dir.to_owned()
}

/// Copies a file of the suite, naming both paths when it cannot.
fn copy(from: &Path, to: &Path) {
    if let Err(e) = std::fs::copy(from, to) {
        panic!("copying {} to {}: {e}", from.display(), to.display());
    }
}
