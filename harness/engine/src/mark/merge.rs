//! `mark merge DIR... --out DIR`: the slices of a `--partition` run joined
//! into one output folder, the class view rebuilt from their submissions'
//! `mark.json` files exactly as a single run builds it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::exit;

use super::cohort::{Cohort, SuiteInfo};
use super::record::SubmissionMark;
use super::{MergeCli, write_class_view};

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The marks of one slice's folder, with its suite.
fn slice(dir: &Path) -> Result<(SuiteInfo, Vec<(SubmissionMark, PathBuf)>), String> {
    let cohort: Cohort = read_json(&dir.join("cohort.json"))?;
    let mut marks = Vec::new();
    // Exactly the rows the slice's own class view lists: a folder left
    // from an earlier run with other submissions is not part of it.
    for row in &cohort.rows {
        let folder = dir.join("submissions").join(&row.slug);
        let mark: SubmissionMark = read_json(&folder.join("mark.json"))?;
        marks.push((mark, folder));
    }
    Ok((cohort.suite, marks))
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

fn merged(cli: &MergeCli) -> Result<Cohort, String> {
    let mut suite: Option<SuiteInfo> = None;
    let mut all: Vec<(SubmissionMark, PathBuf)> = Vec::new();
    for dir in &cli.dirs {
        let (s, marks) = slice(dir)?;
        match &suite {
            Some(first) if first.content_hash != s.content_hash || first.spec != s.spec => {
                return Err(format!(
                    "{} was marked with {} suite {}, not {} suite {} as {}",
                    dir.display(),
                    s.spec,
                    s.content_hash,
                    first.spec,
                    first.content_hash,
                    cli.dirs
                        .first()
                        .map_or(String::new(), |d| d.display().to_string())
                ));
            }
            Some(_) => {}
            None => suite = Some(s),
        }
        all.extend(marks);
    }
    let suite = suite.ok_or("no slices given")?;
    all.sort_by(|a, b| a.0.id.as_bytes().cmp(b.0.id.as_bytes()));
    if let Some(w) = all.windows(2).find(|w| w[0].0.id == w[1].0.id) {
        return Err(format!(
            "submission {} is in two slices ({} and {})",
            w[0].0.id,
            w[0].1.display(),
            w[1].1.display()
        ));
    }
    let subs = cli.out.join("submissions");
    std::fs::create_dir_all(&subs).map_err(|e| format!("cannot make {}: {e}", subs.display()))?;
    for (mark, folder) in &all {
        let to = subs.join(&mark.slug);
        let same = std::fs::canonicalize(folder).ok() == std::fs::canonicalize(&to).ok();
        if !same {
            let _ = std::fs::remove_dir_all(&to);
            copy_dir(folder, &to).map_err(|e| format!("cannot copy {}: {e}", folder.display()))?;
        }
    }
    let marks: Vec<SubmissionMark> = all.into_iter().map(|(m, _)| m).collect();
    write_class_view(&cli.out, &suite, &marks)
}

/// `mark merge`.
pub fn merge(program: &str, cli: &MergeCli) -> ExitCode {
    match merged(cli) {
        Ok(view) => {
            say!(
                "{program} mark merge: {} slice(s), {} submission(s), mean {} of {}: {}",
                cli.dirs.len(),
                view.submissions,
                view.mean,
                view.max,
                cli.out.join("index.html").display()
            );
            exit::code(exit::PASSED)
        }
        Err(e) => {
            say!("{program} mark merge: {e}");
            exit::code(exit::USAGE)
        }
    }
}
