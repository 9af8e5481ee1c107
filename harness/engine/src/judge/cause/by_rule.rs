//! Output files by rule: a failure whose every part is a file (missing,
//! extra or different) is blamed on the rules that judge the case's
//! files (those declaring a `files:` tolerance, else the case's own)
//! rather than on each file's bytes or name, so a program that never
//! saves is one cause ("its files are not the reference's (SAVE-2)"),
//! not one a file and a kind of difference. A file a checker judged
//! speaks by the checker's reason instead ([`crate::judge::decided`]).

use super::signature::{Cause, Edit, PartCause, Place};
use crate::judge::compare::Mismatch;

/// What the files are called as a place.
const FILES: &str = "the files the case checks";

/// Blames a failure made of file parts alone on `rules`; a cause already
/// named (`label` set) is left as it is.
pub fn blame_files(
    cause: &mut Cause,
    label: &mut Option<String>,
    mismatches: &[Mismatch],
    rules: &[String],
) {
    let files_only =
        !cause.parts.is_empty() && cause.parts.iter().all(|p| p.part.starts_with("file"));
    if label.is_some() || !files_only || rules.is_empty() {
        return;
    }
    let said: Vec<String> = mismatches
        .iter()
        .filter_map(|m| {
            let (path, how) = match m {
                Mismatch::FileMissing { path } => (path, "missing"),
                Mismatch::FileDiffers { path, .. } => (path, "differs"),
                Mismatch::FileUnexpected { path } => (path, "should not exist"),
                _ => return None,
            };
            Some(format!(
                "`{}` {how}",
                crate::bytes::visible::escape(path.as_bytes())
            ))
        })
        .collect();
    cause.parts = vec![PartCause {
        part: "files".to_owned(),
        place: Some(Place {
            what: FILES.to_owned(),
            rules: rules.to_vec(),
        }),
        edit: Edit::Files,
    }];
    *label = Some(format!(
        "its files are not the reference's ({}): {}",
        rules.join(", "),
        said.join(", ")
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_that_never_saves_is_one_cause_whatever_the_file() {
        let rules = ["SAVE-2".to_owned()];
        let blamed = |m: &[Mismatch]| {
            let (mut cause, mut label) = Cause::labelled(m, None, None);
            blame_files(&mut cause, &mut label, m, &rules);
            (cause, label)
        };
        let missing = Mismatch::FileMissing { path: "out".into() };
        let (one, label) = blamed(&[missing.clone(), Mismatch::FileMissing { path: "b".into() }]);
        let (other, _) = blamed(&[Mismatch::FileDiffers {
            path: "game".into(),
            expected: b"4 4\n".to_vec(),
            actual: b"3 3\n".to_vec(),
        }]);
        assert_eq!(one, other);
        assert_eq!(
            one.to_string(),
            "files, in the files the case checks (SAVE-2): not as the reference writes them"
        );
        assert_eq!(
            label.as_deref(),
            Some("its files are not the reference's (SAVE-2): `out` missing, `b` missing")
        );
        // Another part besides: not the files' alone.
        let status = Mismatch::Ending {
            expected: crate::exec::run::Ending::Exited(0),
            actual: crate::exec::run::Ending::Exited(1),
        };
        let (mixed, _) = blamed(&[status, missing]);
        assert!(!mixed.to_string().starts_with("files"), "{mixed}");
    }
}
