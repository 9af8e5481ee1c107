//! `publish --spec PACKAGE OUT`: the student's copy of a problem package,
//! as a folder pack's is written ([`crate::packs::folder::publish`]):
//! what a student may read and needs to check a program on the samples
//! (`problem.yaml`, `languages.yaml`, the statement, `attachments/`,
//! `data/sample/` and the `testdata.yaml` files that set its flags, the
//! output validator, which judges the samples as a folder pack's checker
//! does), never the secret groups' data, the jury's submissions (the
//! package's models), its input validators or generators. A `.zip` is
//! read unpacked; the copy is a folder.

use std::path::Path;

use crate::packs::folder::publish::{Published, copy_into, fresh_out, write_note};
use crate::packs::problem::package::Problem;

/// The top-level entries of a package the student's copy keeps whole.
const KEPT: [&str; 8] = [
    "problem.yaml",
    "languages.yaml",
    "problem_statement",
    "statement",
    "attachments",
    "output_validators",
    "output_validator",
    ".timelimit",
];

/// What the note at the top of the copy says, for the harness `program`.
fn note_text(program: &str) -> String {
    format!(
        "# The students' copy of this problem package\n\nWritten by `{program} publish`: the \
         statement, the sample data and the output validator. The secret test data and the \
         jury's submissions are not here, so a case's time limit is the package's \
         `time_limit`, or 10 s when it sets none. Check your program on the samples with\n\n    \
         {program} --spec . --bin \"python3 solution.py\"\n"
    )
}

/// Whether `rel` (a path below the package, `/`-separated) goes into the
/// student's copy, and if it is a case's `.in`/`.ans`, which kind.
fn kept(rel: &str) -> Kept {
    let mut parts = rel.split('/');
    let top = parts.next().unwrap_or_default();
    if KEPT.contains(&top) {
        return Kept::File;
    }
    if top != "data" {
        return Kept::Not;
    }
    let rest: Vec<&str> = parts.collect();
    let is_case = |name: &str| {
        Path::new(name)
            .extension()
            .is_some_and(|e| e == "in" || e == "ans")
    };
    match rest.as_slice() {
        ["sample", ..] if rest.last().is_some_and(|n| is_case(n)) => Kept::Public,
        // `data/testdata.yaml` sets every group's flags, the samples' too.
        ["testdata.yaml"] | ["sample", ..] => Kept::File,
        [.., last] if is_input(last) => Kept::Secret,
        _ => Kept::Not,
    }
}

/// Whether `name` is a case's input (`.in`).
fn is_input(name: &str) -> bool {
    Path::new(name).extension().is_some_and(|e| e == "in")
}

/// How [`kept`] classes a file.
#[derive(Debug, PartialEq, Eq)]
enum Kept {
    /// Copied.
    File,
    /// A sample case's file: copied and counted.
    Public,
    /// A secret case's input: left out and counted.
    Secret,
    /// Left out.
    Not,
}

/// Writes the student's copy of the package at `spec` (a folder or a
/// `.zip`) into `out` (a folder that does not exist yet, or an empty
/// one). `model_files` counts the jury's submissions left out.
pub fn publish(program: &str, spec: &Path, out: &Path) -> Result<Published, String> {
    let problem = Problem::load(spec)?;
    fresh_out(out)?;
    let mut done = Published {
        model_files: problem.submissions.len(),
        ..Published::default()
    };
    for entry in walkdir::WalkDir::new(&problem.dir)
        .min_depth(1)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.file_name() != ".git")
    {
        let entry = entry.map_err(|e| format!("publish: {e}"))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let path = entry.path();
        let Ok(rel) = path.strip_prefix(&problem.dir) else {
            continue;
        };
        let rel_text = rel.to_string_lossy().replace('\\', "/");
        match kept(&rel_text) {
            Kept::Not => continue,
            Kept::Secret => {
                done.secret_cases += 1;
                continue;
            }
            Kept::Public if is_input(&rel_text) => done.public_cases += 1,
            Kept::Public | Kept::File => {}
        }
        copy_into(path, &out.join(rel))?;
        done.copied += 1;
    }
    write_note(out, &note_text(program))?;
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copy_keeps_the_samples_statement_and_validator_never_secret_data_or_submissions() {
        assert_eq!(kept("problem.yaml"), Kept::File);
        assert_eq!(kept("problem_statement/problem.en.tex"), Kept::File);
        assert_eq!(kept("output_validator/validate.py"), Kept::File);
        assert_eq!(kept("data/testdata.yaml"), Kept::File);
        assert_eq!(kept("data/sample/1.in"), Kept::Public);
        assert_eq!(kept("data/sample/1.ans"), Kept::Public);
        assert_eq!(kept("data/sample/testdata.yaml"), Kept::File);
        assert_eq!(kept("data/secret/01.in"), Kept::Secret);
        assert_eq!(kept("data/secret/group1/01.in"), Kept::Secret);
        assert_eq!(kept("data/secret/01.ans"), Kept::Not);
        assert_eq!(kept("data/secret/testdata.yaml"), Kept::Not);
        assert_eq!(kept("submissions/accepted/hello.py"), Kept::Not);
        assert_eq!(kept("input_validators/check.py"), Kept::Not);
        assert_eq!(kept("generators/gen.py"), Kept::Not);
    }
}
