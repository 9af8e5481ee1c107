//! Sidecars beside the suite: the files a folder pack's cases name above
//! their suite's folder yet inside the pack's (`file: ../../sample/in.csv`
//! from `tests/c/one.yaml`), found when the pack loads and kept in its
//! snapshot under `../` paths, so that a run reads them as `bless` does
//! (from the folder) and never reads the pack's folder twice.

use std::path::Path;

use crate::model::suite::resolve_sidecar;

/// The suite's folder inside the pack's, `/`-separated (`tests`); empty
/// when they are one folder or the suite lies outside the pack.
pub(super) fn in_pack(pack_dir: &Path, suite_dir: &Path) -> String {
    suite_dir
        .strip_prefix(pack_dir)
        .map(crate::model::suite::slash_joined)
        .unwrap_or_default()
}

/// The `../` paths of the sidecars the case files among `files` name
/// above the suite, inside the pack, sorted and once each. A case that
/// does not parse names none here: reading it later says what is wrong.
pub(super) fn named(in_pack: &str, files: &[(&str, &[u8])]) -> Vec<String> {
    if in_pack.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<String> = files
        .iter()
        .filter(|(rel, _)| {
            rel.contains('/')
                && !rel.starts_with("../")
                && Path::new(rel)
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("yaml"))
        })
        .flat_map(|(rel, bytes)| {
            let dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
            names(bytes)
                .into_iter()
                .filter_map(move |name| resolve_sidecar(in_pack, dir, &name))
        })
        .filter(|p| p.starts_with("../"))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Every sidecar a case file names: `stdin-file`, `stdout-file`,
/// `stderr-file`, and `file:` of its `files` and `output-files`.
fn names(bytes: &[u8]) -> Vec<String> {
    use yaml_serde::Value;
    let Ok(doc) = yaml_serde::from_slice::<Value>(bytes) else {
        return Vec::new();
    };
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
    let mut out: Vec<String> = ["stdin-file", "stdout-file", "stderr-file"]
        .iter()
        .filter_map(|k| text(doc.get(k)))
        .collect();
    for list in ["files", "output-files"] {
        if let Some(entries) = doc.get(list).and_then(Value::as_sequence) {
            out.extend(entries.iter().filter_map(|e| text(e.get("file"))));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_names_its_sidecars_above_the_suite() {
        let case: &[u8] = b"summary: x\nstdin-file: in.txt\nfiles:\n  - {path: a.csv, file: ../../sample/a.csv}\n\
              output-files:\n  - {path: b.csv, file: ../../../outside.csv}\nstdout-file: ../../sample/a.csv\n";
        let files = [("c/one.yaml", case), ("suite.yaml", b"x: [".as_slice())];
        assert_eq!(named("tests", &files), vec!["../sample/a.csv".to_owned()]);
        // The suite is the pack's folder: nothing is above it.
        assert!(named("", &files).is_empty());
        assert_eq!(in_pack(Path::new("/p"), Path::new("/p/tests/x")), "tests/x");
        assert_eq!(in_pack(Path::new("/p"), Path::new("/q")), "");
    }
}
