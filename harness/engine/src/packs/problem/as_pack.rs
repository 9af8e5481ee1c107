//! A problem package presented to the engine as a spec pack, as a folder
//! pack presents its folder: its test data becomes a suite held in
//! memory (a `suite.yaml` whose categories are the test groups, one case
//! file beside each `.in`/`.ans` pair, stdin and the expected stdout read
//! from them as sidecars), so the default run, `mark`, `--results`,
//! `--junit` and the course outputs read it as they read any suite.
//!
//! - A case's `visibility:` is its group's: `data/sample` public, the
//!   rest secret (and the category says the same).
//! - A case is judged by a `match:` checker, the default output
//!   validator with its group's flags ([`super::validator::DEFAULT_VALIDATOR`]) or the
//!   package's own ([`custom_check::CUSTOM_VALIDATOR`], built once when the pack
//!   loads): the harness re-executed contained, as a built-in pack's
//!   checker is; its rejection is the cause's reason, and the cause
//!   names the group (a problem package has no rule IDs: a case cites
//!   none).
//! - An interactive problem's case holds a `script` the pack's driver
//!   runs ([`conversation`]): the program contained, joined to the
//!   validator; so does a scoring problem's with its own validator (the
//!   program run, then the validator on its output, as `verify` runs
//!   them), whose score (`score.txt`) the case's grader takes.
//! - Marks: a pass-fail problem's groups are worth one mark each; a
//!   scoring problem's are worth the group's full score, and earn what
//!   its grader gives its cases (a category's `grader:`, the same
//!   grading `verify`'s [`grade`] uses: a `min` group all or nothing);
//!   its total is the root group's grade, parents over their subgroups
//!   (the suite's `grading:`).
//! - A case's time limit is `limits.time_limit`; without one the
//!   accepted submissions are timed once per command as `verify` times
//!   them ([`limit`]; `mark`'s checks inherit their `mark`'s).
//! - `mark` and `--bin FILE` build a submission by the language table
//!   ([`launch`]).
//! - `diff` compares a candidate with the reference, the first accepted
//!   submission that needs no compiling (else one `diff` compiles),
//!   judged by the validator ([`PackageDiff`]); nothing runs the
//!   reference beside a check ([`Pack::reference_in_checks`]).
//!
//! One piece: the suite made in memory (categories with their graders,
//! case files, sidecars) and the `Pack` that serves it, its reference,
//! its limit and its `diff` read the same package once; its tests are in
//! `as_pack_tests.rs`.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use crate::exec::driver::CaseDriver;
use crate::exec::run::Target;
use crate::model::schema::Visibility;
use crate::packs::pack::{BuildRecipe, Dependency, EmbeddedSuite, Pack, SubmissionBuilds};
use crate::packs::problem::conversation::{self, Driver};
use crate::packs::problem::custom_check;
use crate::packs::problem::diff::PackageDiff;
use crate::packs::problem::languages::Table;
use crate::packs::problem::package::{Group, Problem, TestCase};
use crate::packs::problem::programs;
use crate::packs::problem::time_limit::TimeLimit;
use crate::packs::problem::{grade, launch};

/// A problem package as a spec pack.
#[derive(Debug)]
pub struct ProblemPack {
    spec: &'static str,
    name: &'static str,
    suite: &'static EmbeddedSuite,
    dir: PathBuf,
    /// The distinct checker names the cases use.
    checkers: Vec<&'static str>,
    /// A case's time limit: fixed, or derived once a command asks.
    time_limit: Arc<TimeLimit>,
    recipe: BuildRecipe,
    reference: Result<(String, PathBuf), String>,
    /// The language table, which builds a submission.
    table: Table,
    /// What `diff` needs.
    diff: PackageDiff,
    /// The built custom validator, for its checkers: its command line
    /// and what it reads.
    checker_env: Vec<(OsString, OsString)>,
    checker_reads: Vec<PathBuf>,
    /// An interactive problem's driver.
    driver: Option<Arc<Driver>>,
}

/// How a package's cases are judged: by the default validator or the
/// package's own (built) as a checker, or by the pack's driver
/// ([`conversation`]): in a conversation with it, or (a scoring
/// problem's, whose validator may score a case) run then judged by it,
/// its score taken.
enum Judging {
    Default,
    Custom(Target),
    Driven(Target),
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

impl ProblemPack {
    /// Reads the package at `spec` (a folder or a `.zip`), builds its
    /// suite and its output validator, if it has its own.
    pub fn load(spec: &str) -> Result<Self, String> {
        let problem = Problem::load(Path::new(spec))?;
        let table = Table::for_package(&problem.dir)?;
        let judging = match (problem.validator.as_deref(), problem.interactive) {
            (None, false) => Judging::Default,
            (None, true) => {
                return Err(format!(
                    "--spec {spec}: an interactive problem needs its output validator"
                ));
            }
            (Some(v), false) if !problem.scoring => {
                Judging::Custom(programs::validator(spec, v, &table)?)
            }
            (Some(v), _) => Judging::Driven(programs::validator(spec, v, &table)?),
        };
        let (suite, checkers, checker_of) =
            suite_of(&problem, spec, Path::new(spec).is_file(), &judging)?;
        let spec: &'static str = leak(spec.to_owned());
        let time_limit = Arc::new(TimeLimit::of(spec, &problem.time));
        // A `.zip` is unpacked into a folder that goes with `problem`:
        // its submissions are not kept for a reference.
        let reference = if Path::new(spec).is_file() {
            Err(format!(
                "--spec {spec}: a .zip's submissions are not kept for a reference; unzip it and \
                 name the folder"
            ))
        } else {
            programs::reference(&problem, &table)
        };
        let (checker_env, checker_reads) = match &judging {
            Judging::Custom(v) => (
                vec![custom_check::checker_env(v)?],
                custom_check::checker_reads(v),
            ),
            _ => (Vec::new(), Vec::new()),
        };
        let driver = match judging {
            Judging::Driven(v) => Some(Arc::new(Driver::of(&problem, v, Arc::clone(&time_limit)))),
            _ => None,
        };
        Ok(Self {
            spec,
            name: leak(problem.name.clone()),
            suite,
            dir: problem.dir.clone(),
            checkers,
            time_limit,
            recipe: BuildRecipe {
                program: launch::BUILT_PROGRAM,
                with_makefile: None,
                otherwise: launch::DESCRIBED,
            },
            reference,
            table,
            diff: PackageDiff {
                spec,
                suite,
                checker_of,
            },
            checker_env,
            checker_reads,
            driver,
        })
    }
}

/// What a group's category is worth: a scoring problem's group its full
/// score, its sample nothing (problemtools' `ignore_sample`); a
/// pass-fail problem's group one mark.
fn marks_of(problem: &Problem, group: &Group) -> f64 {
    if problem.scoring && group.name == "sample" {
        0.0
    } else if problem.scoring {
        let own = Group {
            groups: Vec::new(),
            ..group.clone()
        };
        grade::full_score(&own)
    } else {
        1.0
    }
}

/// How a scoring problem's group (its sample aside, worth nothing)
/// earns its marks from its cases: its grader's rules, as `verify`
/// grades it (a `min` group all or nothing).
fn grader_of(problem: &Problem, group: &Group) -> Option<serde_json::Value> {
    if !problem.scoring || group.name == "sample" {
        return None;
    }
    serde_json::to_value(group.flags.grader()).ok()
}

/// A scoring problem's total as its groups' graders make it, parents
/// over their subgroups as `verify` grades the package (`grading:` in the
/// suite): each group's own cases are its category's.
fn grading_of(problem: &Problem) -> Option<serde_json::Value> {
    fn tree(group: &Group) -> crate::model::grader::GradeTree {
        crate::model::grader::GradeTree {
            grader: group.flags.grader(),
            cases: (!group.cases.is_empty()).then(|| group.category().to_owned()),
            groups: group.groups.iter().map(tree).collect(),
        }
    }
    if !problem.scoring {
        return None;
    }
    serde_json::to_value(crate::model::grader::Grading {
        marks: grade::full_score(&problem.root),
        tree: tree(&problem.root),
    })
    .ok()
}

/// The case file of `case` of `group`, in the category `category`,
/// judged by `checker` (`None`: a conversation, [`conversation`]); its
/// input inline when the package was `unpacked` from a `.zip`, whose
/// folder is gone when the harness returns (a reproduce line must not
/// name its `.in`).
fn case_file(
    problem: &Problem,
    group: &Group,
    case: &TestCase,
    category: &str,
    checker: Option<&str>,
    unpacked: bool,
) -> serde_json::Value {
    let stem = case.name.rsplit('/').next().unwrap_or(&case.name);
    let visibility = match case.visibility {
        Visibility::Public => "public",
        Visibility::Secret => "secret",
    };
    let mut file = json!({
        "summary": format!("test case data/{} of group {}", case.name, group.name),
        "category": category,
        "rules": [],
        "visibility": visibility,
        "output-cap": problem.output_cap,
        "stdin-file": format!("{stem}.in"),
        "status": 0,
        "stdout-file": format!("{stem}.ans"),
        "match": {
            "stdout": {"checker": format!("builtin:{}", checker.unwrap_or_default())},
            "stderr": "any",
        },
    });
    if checker.is_none()
        && let Some(map) = file.as_object_mut()
    {
        for key in ["stdin-file", "status", "stdout-file", "match"] {
            map.remove(key);
        }
        map.insert("script".to_owned(), conversation::script(&case.name));
        return file;
    }
    // Without `limits.time_limit` a case sets none: the pack's default,
    // derived from the accepted submissions when a run asks for it.
    if let (Some(t), Some(map)) = (
        problem.time.fixed.filter(|t| t.is_finite() && *t > 0.0),
        file.as_object_mut(),
    ) {
        map.insert("timeout".to_owned(), t.into());
    }
    if unpacked && let Some(map) = file.as_object_mut() {
        use base64::Engine as _;
        map.remove("stdin-file");
        map.insert(
            "stdin-base64".to_owned(),
            base64::engine::general_purpose::STANDARD
                .encode(&case.input)
                .into(),
        );
    }
    file
}

/// What [`suite_of`] makes: the suite, the checker names its cases use,
/// and each category's checker.
type Made = (
    &'static EmbeddedSuite,
    Vec<&'static str>,
    std::collections::BTreeMap<String, String>,
);

/// The suite of `problem` (`suite.yaml`, a case file and its two
/// sidecars for each test case), the checker names its cases use and
/// each category's.
fn suite_of(
    problem: &Problem,
    spec: &str,
    unpacked: bool,
    judging: &Judging,
) -> Result<Made, String> {
    let yaml = |v: &serde_json::Value| {
        yaml_serde::to_string(v).map_err(|e| format!("{spec}: a case written as YAML: {e}"))
    };
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut categories = Vec::new();
    let mut checkers = BTreeSet::new();
    let mut checker_by_category = std::collections::BTreeMap::new();
    let mut seen = std::collections::BTreeMap::new();
    let mut groups = vec![&problem.root];
    while let Some(group) = groups.pop() {
        groups.extend(group.groups.iter().rev());
        if group.cases.is_empty() {
            continue;
        }
        let category = group.category();
        if let Some(other) = seen.insert(category, &group.name) {
            return Err(format!(
                "--spec {spec}: groups data/{other} and data/{} share the folder name \
                 `{category}`, which names a marking category: rename one",
                group.name
            ));
        }
        let public = group
            .cases
            .iter()
            .all(|c| c.visibility == Visibility::Public);
        let mut entry = json!({
            "name": category,
            "marks": marks_of(problem, group),
            "title": format!("test group {category}"),
            "visibility": if public { "public" } else { "secret" },
        });
        if let (Some(g), Some(map)) = (grader_of(problem, group), entry.as_object_mut()) {
            map.insert("grader".to_owned(), g);
        }
        categories.push(entry);
        let conversation = matches!(judging, Judging::Driven(_));
        let custom = matches!(judging, Judging::Custom(_));
        let flags = &group.flags.validator_flags;
        let checker = (!conversation).then(|| custom_check::checker_name(flags, custom));
        for case in &group.cases {
            let stem = case.name.rsplit('/').next().unwrap_or(&case.name);
            let at = if group.name.is_empty() {
                format!("{category}/{stem}")
            } else {
                format!("{}/{stem}", group.name)
            };
            let file = case_file(problem, group, case, category, checker.as_deref(), unpacked);
            files.push((format!("{at}.yaml"), yaml(&file)?.into_bytes()));
            // A conversation's input and answer are the validator's
            // alone, held by the driver.
            if checker.is_some() {
                files.push((format!("{at}.in"), case.input.clone()));
                files.push((format!("{at}.ans"), case.answer.clone()));
            }
        }
        if let Some(checker) = checker {
            checker_by_category.insert(category.to_owned(), checker.clone());
            checkers.insert(checker);
        }
    }
    let mut suite_yaml = json!({
        "name": problem.name,
        "version": "1",
        "spec": "problem.yaml (a problem package: no rule IDs)",
        "categories": categories,
    });
    if let (Some(g), Some(map)) = (grading_of(problem), suite_yaml.as_object_mut()) {
        map.insert("grading".to_owned(), g);
    }
    files.push(("suite.yaml".to_owned(), yaml(&suite_yaml)?.into_bytes()));
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let files: Vec<(&'static str, &'static [u8])> = files
        .into_iter()
        .map(|(p, b)| (leak(p), &*Box::leak(b.into_boxed_slice())))
        .collect();
    let suite = Box::leak(Box::new(EmbeddedSuite {
        files: Box::leak(files.into_boxed_slice()),
        source_dir: leak(problem.dir.join("data").display().to_string()),
        display: leak(format!("{spec}/data")),
        at_run_time: true,
        in_pack: "",
    }));
    Ok((
        suite,
        checkers.into_iter().map(leak).collect(),
        checker_by_category,
    ))
}

impl Pack for ProblemPack {
    fn name(&self) -> &'static str {
        self.name
    }

    fn suite(&self) -> &'static EmbeddedSuite {
        self.suite
    }

    fn rule_ids(&self) -> Vec<&'static str> {
        Vec::new()
    }

    /// The first accepted submission that needs no compiling; without
    /// one, this binary re-run as the package's reference, which refuses
    /// (exit 2, a fault): nothing runs the reference beside a check
    /// ([`Pack::reference_in_checks`]), so `mark`'s readiness check and
    /// `diff` (which then compiles an accepted submission) ask for it.
    fn reference(&self) -> Result<Target, String> {
        let Ok((line, dir)) = self.reference.clone() else {
            return Target::reference(self.name).map_err(|e| e.to_string());
        };
        Target::command_from(&line, &dir)
            .map(|t| t.reading(dir.clone()))
            .map_err(|e| format!("the reference `{line}` in {}: {e}", dir.display()))
    }

    /// `diff`: the candidate against the reference on the package's
    /// inputs, judged by its validator ([`PackageDiff`]).
    fn explorer(&self) -> Option<&dyn crate::explorer::DynExplorer> {
        Some(&self.diff)
    }

    fn reference_in_checks(&self) -> bool {
        false
    }

    fn spec(&self) -> &'static str {
        self.spec
    }

    /// `limits.time_limit`, else the limit `verify` would derive: the
    /// accepted submissions compiled and timed once per command (a
    /// `mark`'s checks inherit their `mark`'s), said on stderr.
    fn default_timeout(&self) -> Option<Duration> {
        Some(self.time_limit.get())
    }

    fn bin_is_command(&self) -> bool {
        true
    }

    fn build(&self) -> Option<BuildRecipe> {
        Some(self.recipe)
    }

    fn submission_builds(&self) -> Option<std::sync::Arc<dyn SubmissionBuilds>> {
        Some(std::sync::Arc::new(launch::ByTable(self.table.clone())))
    }

    fn bin_target(&self, bin: &Path) -> Option<Result<Target, String>> {
        launch::student_target(bin, &self.table)
    }

    fn checker_names(&self) -> Vec<&'static str> {
        self.checkers.clone()
    }

    fn checker_env(&self) -> Vec<(OsString, OsString)> {
        self.checker_env.clone()
    }

    fn checker_reads(&self) -> Vec<PathBuf> {
        self.checker_reads.clone()
    }

    fn driver(&self) -> Option<Arc<dyn CaseDriver>> {
        self.driver.clone().map(|d| d as Arc<dyn CaseDriver>)
    }

    /// The package as named: its folder, or its `.zip`.
    fn travels(&self) -> Option<&Path> {
        Some(Path::new(self.spec))
    }

    fn depends_on(&self) -> Vec<Dependency> {
        vec![Dependency {
            name: "the problem package",
            paths: vec![self.dir.clone()],
            commands: Vec::new(),
        }]
    }
}

#[cfg(test)]
#[path = "as_pack_tests.rs"]
mod tests;
