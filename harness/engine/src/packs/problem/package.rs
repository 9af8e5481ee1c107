//! A problem package read from disk: `problem.yaml` (the legacy format or
//! the 2023-07 draft, as problemtools reads them), its test data as a
//! tree of groups (`data/sample`, `data/secret`, nested groups, each
//! with the flags its `testdata.yaml` and its parents' give it), its
//! output validator and its jury submissions by folder. A `.zip` of a
//! package is unpacked into a temporary folder first.

use std::path::{Path, PathBuf};

use crate::model::schema::Visibility;
use crate::packs::problem::testdata::{self, GroupFlags};

/// Bytes of a package's test data read into memory at most.
const DATA_CAP: u64 = 256 << 20;

/// Which version of the format `problem.yaml` says it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// No `problem_format_version`, or `legacy`.
    Legacy,
    /// `problem_format_version: 2023-07-draft`.
    Draft2023,
}

/// The time limit's inputs: an explicit limit, or the slowest accepted
/// submission times a multiplier, and the margin a timeout must pass.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeRule {
    /// `limits.time_limit` (seconds), when the package fixes it.
    pub fixed: Option<f64>,
    /// `time_multiplier` (legacy, default 5) or
    /// `time_multipliers.ac_to_time_limit` (2023-07, default 2).
    pub ac_to_time_limit: f64,
    /// `time_safety_margin` (legacy, default 2) or
    /// `time_multipliers.time_limit_to_tle` (2023-07, default 1.5).
    pub time_limit_to_tle: f64,
}

/// One test case: `NAME.in` and `NAME.ans` of a group's folder.
#[derive(Debug, Clone)]
pub struct TestCase {
    /// Its name below `data/`, without extension: `secret/group1/03`.
    pub name: String,
    /// The input.
    pub input: Vec<u8>,
    /// The answer.
    pub answer: Vec<u8>,
    /// Public under `data/sample`, secret elsewhere.
    pub visibility: Visibility,
}

/// A test group: a folder below `data/`, its flags, its cases then its
/// subgroups (in name order, as problemtools runs them).
#[derive(Debug, Clone)]
pub struct Group {
    /// Its path below `data/` (`secret/group1`); empty for `data/` itself.
    pub name: String,
    /// Its flags, its parents' inherited.
    pub flags: GroupFlags,
    /// Its cases.
    pub cases: Vec<TestCase>,
    /// Its subgroups.
    pub groups: Vec<Group>,
}

impl Group {
    /// The marking category its cases are in under `run` and `mark`: its
    /// folder's name (`group1` of `secret/group1`), or `data` for cases
    /// right inside `data/`.
    pub fn category(&self) -> &str {
        match self.name.rsplit('/').next() {
            Some(last) if !last.is_empty() => last,
            _ => "data",
        }
    }

    /// Every case below, in the order they run.
    pub fn all_cases(&self) -> Vec<(&Group, &TestCase)> {
        let mut out: Vec<(&Group, &TestCase)> = self.cases.iter().map(|c| (self, c)).collect();
        for g in &self.groups {
            out.extend(g.all_cases());
        }
        out
    }
}

/// A jury submission: a file or folder of `submissions/FOLDER/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    /// The folder it was put in (`accepted`, `wrong_answer`, …).
    pub folder: String,
    /// `folder/name` as people say it.
    pub name: String,
    /// The file or folder.
    pub path: PathBuf,
}

/// A problem package.
#[derive(Debug)]
pub struct Problem {
    /// Its folder (the unpacked one for a `.zip`).
    pub dir: PathBuf,
    /// Its short name (the folder's).
    pub name: String,
    /// The format version.
    pub format: Format,
    /// A scoring problem.
    pub scoring: bool,
    /// An interactive problem.
    pub interactive: bool,
    /// The custom output validator's folder or file, if any.
    pub validator: Option<PathBuf>,
    /// The time limit's rule.
    pub time: TimeRule,
    /// Bytes of output a program may write (`limits.output`, MiB).
    pub output_cap: u64,
    /// `data/` as a group.
    pub root: Group,
    /// The jury's submissions.
    pub submissions: Vec<Submission>,
    /// The unpacked `.zip`, removed when the problem is dropped.
    _unpacked: Option<tempfile::TempDir>,
}

/// Whether `path` names a problem package: a folder holding
/// `problem.yaml`, or a `.zip` file.
pub fn is_package(path: &Path) -> bool {
    path.join("problem.yaml").is_file()
        || (path.is_file()
            && path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("zip")))
}

impl Problem {
    /// Reads the package at `path`; every error names the file at fault.
    pub fn load(path: &Path) -> Result<Self, String> {
        let (dir, unpacked) = if path.is_file() {
            let (dir, tmp) = super::unzip::unpack(path)?;
            (dir, Some(tmp))
        } else {
            (path.to_owned(), None)
        };
        let yaml_path = dir.join("problem.yaml");
        let text = std::fs::read_to_string(&yaml_path)
            .map_err(|e| format!("{}: {e}", yaml_path.display()))?;
        let config: yaml_serde::Value = if text.trim().is_empty() {
            yaml_serde::Value::Null
        } else {
            yaml_serde::from_str(&text).map_err(|e| format!("{}: {e}", yaml_path.display()))?
        };
        let get = |keys: &[&str]| -> Option<&yaml_serde::Value> {
            keys.iter().try_fold(&config, |v, k| v.get(*k))
        };
        let format = match get(&["problem_format_version"]).and_then(|v| v.as_str()) {
            None | Some("legacy") => Format::Legacy,
            Some(v) if v.starts_with("2023-07") => Format::Draft2023,
            Some(other) => {
                return Err(format!(
                    "{}: problem_format_version: {other} is not one this harness reads (legacy, \
                     2023-07-draft)",
                    yaml_path.display()
                ));
            }
        };
        let words = |v: Option<&yaml_serde::Value>| -> Vec<String> {
            match v {
                Some(yaml_serde::Value::String(s)) => {
                    s.split_whitespace().map(str::to_owned).collect()
                }
                Some(yaml_serde::Value::Sequence(items)) => items
                    .iter()
                    .filter_map(|i| i.as_str().map(str::to_owned))
                    .collect(),
                _ => Vec::new(),
            }
        };
        let types = words(get(&["type"]));
        let validation = words(get(&["validation"]));
        let scoring =
            types.iter().any(|t| t == "scoring") || validation.iter().any(|v| v == "score");
        let interactive = types.iter().any(|t| t == "interactive")
            || validation.iter().any(|v| v == "interactive");
        let number = |keys: &[&str]| get(keys).and_then(yaml_serde::Value::as_f64);
        let time = match format {
            Format::Legacy => TimeRule {
                fixed: number(&["limits", "time_limit"]),
                ac_to_time_limit: number(&["limits", "time_multiplier"]).unwrap_or(5.0),
                time_limit_to_tle: number(&["limits", "time_safety_margin"]).unwrap_or(2.0),
            },
            Format::Draft2023 => TimeRule {
                fixed: number(&["limits", "time_limit"]),
                ac_to_time_limit: number(&["limits", "time_multipliers", "ac_to_time_limit"])
                    .unwrap_or(2.0),
                time_limit_to_tle: number(&["limits", "time_multipliers", "time_limit_to_tle"])
                    .unwrap_or(1.5),
            },
        };
        let output_mib = number(&["limits", "output"]).unwrap_or(8.0);
        let validator = find_validator(&dir, format, validation.iter().any(|v| v == "custom"))?;
        // Legacy `validator_flags` are the root's default validator flags.
        let root_flags = GroupFlags {
            validator_flags: words(get(&["validator_flags"])),
            ..GroupFlags::default()
        };
        let mut budget = DATA_CAP;
        let data = dir.join("data");
        if !data.is_dir() {
            return Err(format!("{}: a problem package needs data/", dir.display()));
        }
        let root = read_group(&data, "", &root_flags, &mut budget)?;
        let submissions = read_submissions(&dir.join("submissions"))?;
        let name = std::fs::canonicalize(path)
            .unwrap_or_else(|_| path.to_owned())
            .file_stem()
            .map_or_else(
                || "problem".to_owned(),
                |n| n.to_string_lossy().into_owned(),
            );
        Ok(Self {
            dir,
            name,
            format,
            scoring,
            interactive,
            validator,
            time,
            output_cap: mib(output_mib),
            root,
            submissions,
            _unpacked: unpacked,
        })
    }
}

/// Whole MiB as bytes, at least one MiB and at most 1 GiB.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "clamped to 1..=1024 first"
)]
fn mib(value: f64) -> u64 {
    (value.clamp(1.0, 1024.0) as u64) << 20
}

/// The custom output validator: `output_validators/NAME/` (legacy, when
/// `validation` is custom) or `output_validator/` (2023-07).
fn find_validator(dir: &Path, format: Format, custom: bool) -> Result<Option<PathBuf>, String> {
    let draft = dir.join("output_validator");
    if format == Format::Draft2023 && draft.exists() {
        return Ok(Some(draft));
    }
    let legacy = dir.join("output_validators");
    if !custom && format == Format::Legacy {
        return Ok(None);
    }
    if !legacy.is_dir() {
        return if custom {
            Err(format!(
                "{}: validation: custom, but there is no output validator ({} or {})",
                dir.join("problem.yaml").display(),
                legacy.display(),
                draft.display()
            ))
        } else {
            Ok(None)
        };
    }
    let mut entries = listed(&legacy)?;
    match (entries.pop(), entries.is_empty()) {
        (Some(only), true) => Ok(Some(only)),
        _ => Err(format!(
            "{}: exactly one output validator is needed",
            legacy.display()
        )),
    }
}

/// The entries of a folder whose names do not start with `.`, sorted.
pub fn listed(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// A group's folder: its `testdata.yaml` over `inherited`, its `.in`
/// files paired with `.ans`, then its subfolders.
fn read_group(
    dir: &Path,
    name: &str,
    inherited: &GroupFlags,
    budget: &mut u64,
) -> Result<Group, String> {
    let flags = testdata::read(&dir.join("testdata.yaml"), inherited)?;
    let mut cases = Vec::new();
    let mut groups = Vec::new();
    let visibility = if name == "sample" || name.starts_with("sample/") {
        Visibility::Public
    } else {
        Visibility::Secret
    };
    for path in listed(dir)? {
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let child = if name.is_empty() {
            file.clone()
        } else {
            format!("{name}/{file}")
        };
        if path.is_dir() {
            groups.push(read_group(&path, &child, &flags, budget)?);
        } else if let Some(stem) = file.strip_suffix(".in") {
            let answer = path.with_extension("ans");
            if !answer.is_file() {
                return Err(format!("{}: no {stem}.ans beside it", path.display()));
            }
            cases.push(TestCase {
                name: child.trim_end_matches(".in").to_owned(),
                input: read_capped(&path, budget)?,
                answer: read_capped(&answer, budget)?,
                visibility,
            });
        }
    }
    Ok(Group {
        name: name.to_owned(),
        flags,
        cases,
        groups,
    })
}

fn read_capped(path: &Path, budget: &mut u64) -> Result<Vec<u8>, String> {
    let len = std::fs::metadata(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    if len > *budget {
        return Err(format!(
            "{}: the package's data passes {} MiB",
            path.display(),
            DATA_CAP >> 20
        ));
    }
    *budget -= len;
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The folders problemtools reads, in its order, and the 2023-07 draft's
/// `rejected`.
pub const FOLDERS: [&str; 6] = [
    "accepted",
    "partially_accepted",
    "wrong_answer",
    "run_time_error",
    "time_limit_exceeded",
    "rejected",
];

fn read_submissions(dir: &Path) -> Result<Vec<Submission>, String> {
    let mut out = Vec::new();
    for folder in FOLDERS {
        let sub = dir.join(folder);
        if !sub.is_dir() {
            continue;
        }
        for path in listed(&sub)? {
            let file = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let name = format!("{folder}/{file}");
            out.push(Submission {
                folder: folder.to_owned(),
                name,
                path,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
#[path = "package_tests.rs"]
mod tests;
