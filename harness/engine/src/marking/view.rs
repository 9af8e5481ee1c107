//! The class view written to disk: `marks.csv`, `cohort.json` and
//! `index.html`, each through a temporary file and a rename, with a row
//! for each submission of the class that has no mark.

use std::fmt::Write as _;

use super::gap::{self, Class, Unmarked};
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
    csv.push_str(&csv_rows(&csv, &view.unmarked));
    write_atomic(&out.join("marks.csv"), csv.as_bytes())?;
    let json = serde_json::to_string_pretty(&view).map_err(|e| e.to_string())? + "\n";
    write_atomic(&out.join("cohort.json"), json.as_bytes())?;
    write_atomic(&out.join("index.html"), html::index(&view).as_bytes())?;
    Ok(view)
}

/// The rows of `marks.csv` for `unmarked` (after the marked ones): the
/// id, `not marked` as the build, why in the first cause's column, every
/// mark left empty (a gradebook reads no mark, not a zero). `csv` is the
/// file so far, whose header gives the columns.
pub fn csv_rows(csv: &str, unmarked: &[Unmarked]) -> String {
    let header = header_fields(csv.lines().next().unwrap_or(""));
    let mut rows = String::new();
    for u in unmarked {
        let why = match u.slice {
            Some(p) => format!(
                "not marked: slice {}/{} has no row for it; mark it, then merge again",
                p.k, p.n
            ),
            None => "not marked: the harness could not mark it; the same command tries it again"
                .to_owned(),
        };
        let fields: Vec<String> = header
            .iter()
            .enumerate()
            .map(|(i, name)| match (i, name.as_str()) {
                (0, _) => cohort::field(&u.id),
                (_, "build") => "not marked".to_owned(),
                (_, "first cause") => cohort::field(&why),
                _ => String::new(),
            })
            .collect();
        let _ = writeln!(rows, "{}", fields.join(","));
    }
    rows
}

/// A CSV line's fields, a quoted field's commas and doubled quotes read
/// as the text they stand for (a category may be named `a, b`).
fn header_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                if let Some(f) = fields.last_mut() {
                    f.push('"');
                }
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(String::new()),
            (c, _) => {
                if let Some(f) = fields.last_mut() {
                    f.push(c);
                }
            }
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::marking::partition::Partition;

    #[test]
    fn an_unmarked_submission_is_a_row_with_no_marks_saying_why() {
        let csv = "id,name,build,\"c, \"\"d\"\"\",total,first cause,deductions\na,,ok,1,1,,\n";
        let gap = [Unmarked {
            id: "d,1".to_owned(),
            slice: Some(Partition { k: 2, n: 4 }),
        }];
        assert_eq!(
            csv_rows(csv, &gap),
            "\"d,1\",,not marked,,,\"not marked: slice 2/4 has no row for it; mark it, then merge \
             again\",\n"
        );
    }
}
