//! Output files by rule: a failure whose every part is a file (missing,
//! extra or different) is one cause by what is wrong with the files
//! (not written, written where none is, written otherwise), never by
//! their names or bytes, and its label blames the rules that judge the
//! case's files (those declaring a `files:` tolerance, else the case's
//! own): a program that never saves is one cause ("files: not written
//! where the reference writes them"; its example "does not write `out`
//! (SAVE-1, SAVE-3)"), not one a file, a case's rules and a kind of
//! difference. A file a checker judged
//! speaks by the checker's reason instead ([`crate::judge::decided`]).

use super::signature::{Cause, Edit, PartCause};
use crate::judge::compare::Mismatch;

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
    let mut kinds: Vec<&str> = Vec::new();
    let mut said: Vec<String> = Vec::new();
    for m in mismatches {
        let (path, kind, how) = match m {
            Mismatch::FileMissing { path } => (
                path,
                "not written where the reference writes them",
                "does not write",
            ),
            Mismatch::FileDiffers { path, .. } => (
                path,
                "written otherwise than the reference",
                "writes otherwise",
            ),
            Mismatch::FileUnexpected { path } => {
                (path, "written where the reference writes none", "writes")
            }
            _ => continue,
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
        said.push(format!(
            "{how} `{}`",
            crate::bytes::visible::escape(path.as_bytes())
        ));
    }
    let kind = match kinds.as_slice() {
        [one] => (*one).to_owned(),
        _ => "not as the reference writes them".to_owned(),
    };
    cause.parts = vec![PartCause {
        part: "files".to_owned(),
        place: None,
        edit: Edit::Files(kind),
    }];
    *label = Some(format!("{} ({})", said.join(", "), rules.join(", ")));
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
        assert_ne!(one, other);
        let (again, _) = blamed(&[Mismatch::FileMissing { path: "c".into() }]);
        assert_eq!(one, again);
        assert_eq!(
            one.to_string(),
            "files: not written where the reference writes them"
        );
        assert_eq!(
            label.as_deref(),
            Some("does not write `out`, does not write `b` (SAVE-2)")
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
