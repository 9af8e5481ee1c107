//! `mark merge DIR... --out DIR`: the slices of a `--partition` run joined
//! into one output folder (their submissions' folders and programs), the
//! class view rebuilt from their `mark.json` files exactly as a single run
//! builds it. Each slice's `cohort.json` says which K/N it was and the
//! class it was cut from: a set with a slice missing, or a class with a
//! submission no slice has a row for (a slice killed halfway, one the
//! harness could not mark), is refused naming each submission and its
//! slice, unless `--allow-missing` (then `marks.csv` and `cohort.json`
//! list them as not marked).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::output::exit;

use super::args::MergeCli;
use super::cohort::{Cohort, SuiteInfo};
use super::gap::Class;
use super::partition::Partition;
use super::record::SubmissionMark;
use super::view::write_class_view;

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// One slice's folder: its suite, which slice it is, and its marks with
/// their folders.
struct Slice {
    suite: SuiteInfo,
    part: Option<Partition>,
    class: Vec<String>,
    marks: Vec<(SubmissionMark, PathBuf)>,
}

/// The marks of one slice's folder, with its suite; `None` for a folder
/// whose run never wrote its class view (killed, or still at its first
/// submission).
fn slice(dir: &Path) -> Result<Option<Slice>, String> {
    let path = dir.join("cohort.json");
    if !path.exists() && dir.is_dir() {
        return Ok(None);
    }
    let cohort: Cohort = read_json(&path)?;
    let mut marks = Vec::new();
    // Exactly the rows the slice's own class view lists: a folder left
    // from an earlier run with other submissions is not part of it.
    for row in &cohort.rows {
        let folder = dir.join("submissions").join(&row.slug);
        let mark: SubmissionMark = read_json(&folder.join("mark.json"))?;
        marks.push((mark, folder));
    }
    Ok(Some(Slice {
        suite: cohort.suite,
        part: cohort.slice,
        class: cohort.class,
        marks,
    }))
}

/// The most slices a set may have.
const MAX_SLICES: usize = 10_000;

/// Checks that `parts` (each slice's K/N, by folder) are one whole set:
/// the same N, no K twice, none missing unless `allow_missing` (said on
/// stderr unless `quiet`: the caller names the submissions instead).
/// Returns N (none for a whole run merged alone) and the slices missing
/// (`2/4`).
fn check_set(
    parts: &[(Option<Partition>, &Path)],
    allow_missing: bool,
    quiet: bool,
) -> Result<(Option<usize>, Vec<String>), String> {
    let Some(n) = parts.iter().find_map(|(p, _)| p.map(|p| p.n)) else {
        return Ok((None, Vec::new()));
    };
    // A count read from a file: bounded before anything is sized by it.
    if n > MAX_SLICES {
        return Err(format!(
            "{n} slices: more than {MAX_SLICES} is not a --partition set"
        ));
    }
    let mut seen: Vec<Option<&Path>> = vec![None; n];
    for (part, dir) in parts {
        let Some(part) = part else {
            return Err(format!(
                "{} is a whole run, not a --partition slice: merge slices of one set",
                dir.display()
            ));
        };
        if part.n != n {
            return Err(format!(
                "{} is slice {}/{}, of another set than {n} slices",
                dir.display(),
                part.k,
                part.n
            ));
        }
        // A hand-edited K of 0 is refused below, not an underflow.
        match part.k.checked_sub(1).and_then(|i| seen.get_mut(i)) {
            Some(Some(first)) => {
                return Err(format!(
                    "slice {}/{n} is given twice ({} and {})",
                    part.k,
                    first.display(),
                    dir.display()
                ));
            }
            Some(slot) => *slot = Some(dir),
            None => {
                return Err(format!(
                    "{}: slice {}/{n} is not of 1 to {n}",
                    dir.display(),
                    part.k
                ));
            }
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| seen.get(k - 1).is_some_and(Option::is_none))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if missing.is_empty() || allow_missing {
        if !missing.is_empty() && !quiet {
            say!(
                "mark merge: merging without slice(s) {}: their submissions have no row",
                missing.join(", ")
            );
        }
        return Ok((Some(n), missing));
    }
    Err(format!(
        "slice(s) {} of {n} are missing (given: {}); give every slice, or --allow-missing \
         to merge without them",
        missing.join(", "),
        parts
            .iter()
            .map(|(_, d)| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        if kind.is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name()))?;
        } else if kind.is_dir() {
            // `reproduce/` and its kits.
            copy_dir(&entry.path(), &to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

fn merged(cli: &MergeCli) -> Result<Cohort, String> {
    let mut suite: Option<SuiteInfo> = None;
    let mut all: Vec<(SubmissionMark, PathBuf)> = Vec::new();
    let mut parts = Vec::new();
    let mut class: Option<(Vec<String>, &Path)> = None;
    // Folders whose run wrote no class view (killed halfway).
    let mut unfinished = Vec::new();
    // Held until the merge is written: no slice's run may still write.
    let mut held = Vec::new();
    for dir in &cli.dirs {
        held.push(super::lock::read_slice(dir)?);
        let Some(Slice {
            suite: s,
            part,
            class: cut_from,
            marks,
        }) = slice(dir)?
        else {
            unfinished.push(dir.display().to_string());
            continue;
        };
        parts.push((part, dir.as_path()));
        match &class {
            Some((first, from)) if !cut_from.is_empty() && *first != cut_from => {
                return Err(format!(
                    "{} was cut from another class than {} ({} and {} submissions): merge \
                     slices of one run",
                    dir.display(),
                    from.display(),
                    cut_from.len(),
                    first.len()
                ));
            }
            None if !cut_from.is_empty() => class = Some((cut_from, dir.as_path())),
            _ => {}
        }
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
    let Some(suite) = suite else {
        return Err(format!(
            "no slice has a class view (cohort.json): {} did not finish; run them again",
            unfinished.join(", ")
        ));
    };
    // With the class known, the gap is named by submission below.
    let (slices, missing) = check_set(
        &parts,
        cli.allow_missing || class.is_some(),
        class.is_some(),
    )?;
    let class = Class {
        ids: class.map(|(ids, _)| ids).unwrap_or_default(),
        slices,
    };
    let gap = super::gap::unmarked(&class, all.iter().map(|(m, _)| m.id.as_str()), None);
    check_gap(&gap, &missing, &unfinished, cli.allow_missing)?;
    // Only once the slices are known good is anything made or written.
    let _lock = super::lock::take(&cli.out)?;
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
        copy_unless_same(folder, &to)?;
        // The program a report's reproduce lines were checked with.
        if let Some(programs) = folder
            .parent()
            .and_then(Path::parent)
            .map(|d| d.join("programs").join(&mark.slug))
            && programs.is_dir()
        {
            copy_unless_same(&programs, &cli.out.join("programs").join(&mark.slug))?;
        }
    }
    let marks: Vec<SubmissionMark> = all.into_iter().map(|(m, _)| m).collect();
    write_class_view(&cli.out, &suite, &marks, None, &class)
}

/// Refuses a merge with submissions of the class without a row (`gap`),
/// naming each with its slice, the slices `missing` and the folders
/// `unfinished`; with `allow_missing`, says what it merges without.
fn check_gap(
    gap: &[super::gap::Unmarked],
    missing: &[String],
    unfinished: &[String],
    allow_missing: bool,
) -> Result<(), String> {
    if gap.is_empty() && unfinished.is_empty() {
        return Ok(());
    }
    let unfinished = if unfinished.is_empty() {
        String::new()
    } else {
        format!(
            "; {} did not finish (no cohort.json): run the same command again to resume",
            unfinished.join(", ")
        )
    };
    if allow_missing {
        say!(
            "mark merge: merging without {} submission(s), listed as not marked: {}{unfinished}",
            gap.len(),
            super::gap::list(gap)
        );
        return Ok(());
    }
    let n = gap.iter().find_map(|u| u.slice).map_or(0, |p| p.n);
    let slices_missing = if missing.is_empty() {
        String::new()
    } else {
        format!("slice(s) {} of {n} are missing: ", missing.join(", "))
    };
    Err(format!(
        "{slices_missing}{} submission(s) of the class have no row: {}{unfinished}; mark them, \
         then merge again, or --allow-missing to merge without them (listed as not marked)",
        gap.len(),
        super::gap::list(gap)
    ))
}

/// Copies folder `from` to `to` (its files), unless they are one folder.
fn copy_unless_same(from: &Path, to: &Path) -> Result<(), String> {
    if std::fs::canonicalize(from).ok() == std::fs::canonicalize(to).ok() {
        return Ok(());
    }
    let _ = std::fs::remove_dir_all(to);
    copy_dir(from, to).map_err(|e| format!("cannot copy {}: {e}", from.display()))
}

/// `mark merge`.
pub fn merge(program: &str, cli: &MergeCli) -> ExitCode {
    match merged(cli) {
        Ok(view) => {
            say!(
                "{program} mark merge: {} slice(s), {} submission(s), {}: {}",
                cli.dirs.len(),
                view.submissions,
                super::struck::mean_said(view.mean, view.max),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn part(k: usize, n: usize) -> Partition {
        Partition { k, n }
    }

    #[test]
    fn a_set_of_slices_is_whole_or_refused_naming_what_is_missing() {
        let (a, b, c) = (Path::new("a"), Path::new("b"), Path::new("c"));
        assert!(
            check_set(
                &[(Some(part(1, 2)), a), (Some(part(2, 2)), b)],
                false,
                false
            )
            .is_ok()
        );
        let missing = check_set(
            &[(Some(part(2, 4)), a), (Some(part(4, 4)), b)],
            false,
            false,
        )
        .unwrap_err();
        assert!(
            missing.starts_with("slice(s) 1/4, 3/4 of 4 are missing"),
            "{missing}"
        );
        assert!(check_set(&[(Some(part(2, 4)), a)], true, false).is_ok());
        let twice = check_set(
            &[(Some(part(1, 2)), a), (Some(part(1, 2)), c)],
            false,
            false,
        )
        .unwrap_err();
        assert!(twice.contains("given twice (a and c)"), "{twice}");
        assert!(
            check_set(
                &[(Some(part(1, 2)), a), (Some(part(1, 3)), b)],
                false,
                false
            )
            .is_err()
        );
        assert!(check_set(&[(Some(part(1, 2)), a), (None, b)], false, false).is_err());
        assert!(check_set(&[(Some(part(0, 2)), a)], true, false).is_err());
        assert!(check_set(&[(Some(part(1, usize::MAX)), a)], true, false).is_err());
        // One whole run merged alone is no set to check.
        assert!(check_set(&[(None, a)], false, false).is_ok());
    }
}
