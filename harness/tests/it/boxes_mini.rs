//! A small boxes pack for the whole-class stories: the built-in boxes
//! suite's first cases of each category, and the cases a test names, said
//! as a folder pack whose model is the boxes fixture under the reference's
//! name. `mark` runs every case on every submission, two or three times in
//! a story; a few cases per category prove what those stories prove (the
//! rows, the slices, the load) at a tenth of the runs (issue 47). Every
//! case of the full suite is still run against each variant by
//! `variants.rs`, and `mark --spec boxes` by `mark_rules.rs`.

#![expect(
    clippy::expect_used,
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
        std::fs::copy(suite.join(file), dir.join(file)).expect("the suite's files");
    }
    let mut kept = 0;
    for entry in std::fs::read_dir(&suite).expect("cases/boxes").flatten() {
        if !entry.path().is_dir() {
            continue;
        }
        let category = entry.file_name().to_string_lossy().into_owned();
        let mut stems: Vec<String> = std::fs::read_dir(entry.path())
            .expect("a category")
            .flatten()
            .filter_map(|f| {
                let name = f.file_name().to_string_lossy().into_owned();
                name.strip_suffix(".yaml").map(str::to_owned)
            })
            .collect();
        stems.sort();
        let named = extra
            .iter()
            .filter_map(|e| e.strip_prefix(&format!("{category}/")));
        let mut chosen: Vec<String> = stems.iter().take(PER_CATEGORY).cloned().collect();
        for stem in named {
            assert!(stems.iter().any(|s| s == stem), "no case {category}/{stem}");
            if !chosen.iter().any(|s| s == stem) {
                chosen.push(stem.to_owned());
            }
        }
        std::fs::create_dir_all(dir.join(&category)).expect("a category folder");
        for f in std::fs::read_dir(entry.path())
            .expect("a category")
            .flatten()
        {
            let name = f.file_name().to_string_lossy().into_owned();
            // A case's files are its stem and a dot, then what they hold.
            if chosen.iter().any(|s| name.starts_with(&format!("{s}."))) {
                std::fs::copy(f.path(), dir.join(&category).join(&name)).expect("a case file");
            }
        }
        kept += chosen.len();
    }
    assert!(kept >= 12 * PER_CATEGORY, "only {kept} cases kept");
    let model = dir.join("boxes");
    std::os::unix::fs::symlink(FIXTURE, &model).expect("the model");
    std::fs::write(
        dir.join("pack.yaml"),
        format!(
            "name: boxes\nmodel:\n  command: '{}'\nsubmissions:\n  program: boxes\n  \
             build: gcc -Wall -pedantic -std=gnu99 -o boxes *.c\n  with_makefile: make\n",
            model.display()
        ),
    )
    .expect("pack.yaml");
    dir.to_owned()
}
