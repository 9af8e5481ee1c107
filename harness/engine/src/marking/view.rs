//! The class view written to disk: `marks.csv`, `cohort.json` and
//! `index.html`, each through a temporary file and a rename.

use super::gap::{self, Class};
use super::partition::Partition;
use super::{cohort, html, record};

/// Writes `bytes` to `path` through a temporary file and a rename, so a
/// reader never sees half a file.
pub(crate) fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension(format!("partial-{}", std::process::id()));
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("cannot write {}: {e}", path.display())
        })
}

/// Writes `marks.csv`, `cohort.json` and `index.html` of `marks` into
/// `out`: of slice `slice` of `class`, or of all of it. The submissions of
/// the class (or of the slice) without a row are listed in each.
pub(crate) fn write_class_view(
    out: &std::path::Path,
    suite: &cohort::SuiteInfo,
    marks: &[record::SubmissionMark],
    slice: Option<Partition>,
    class: &Class,
) -> Result<cohort::Cohort, String> {
    let mut view = cohort::build(suite, marks);
    view.slice = slice;
    if slice.is_some() {
        view.class.clone_from(&class.ids);
    }
    view.unmarked = gap::unmarked(class, marks.iter().map(|m| m.id.as_str()), slice);
    let mut csv = cohort::csv(suite, marks);
    csv.push_str(&gap::csv_rows(&csv, &view.unmarked));
    write_atomic(&out.join("marks.csv"), csv.as_bytes())?;
    let json = serde_json::to_string_pretty(&view).map_err(|e| e.to_string())? + "\n";
    write_atomic(&out.join("cohort.json"), json.as_bytes())?;
    write_atomic(&out.join("index.html"), html::index(&view).as_bytes())?;
    Ok(view)
}
