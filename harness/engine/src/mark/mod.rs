//! `mark`: a folder of submissions to marks, reports and a class view.
//! Each submission is read ([`unpack`], with the ids and students of
//! [`intake`]), built contained ([`build`]), checked by this harness run
//! again on its program ([`check`]), and its outputs written into its own
//! folder at once (a rename); the class view ([`cohort`], [`html`]) is then
//! built from those folders alone, which is also what `mark merge` does
//! with the folders of several slices ([`merge`]).
//!
//! - `submissions/ID/`: `build.log`, `report.txt`, `results.json`,
//!   `gradescope.json`, `report.html`, `mark.json` ([`record`]);
//! - `marks.csv`, `cohort.json`, `index.html`.

/// A line on stderr that never panics: a closed stream must not stop a
/// marking run (nor re-enter the interrupt's clean-up).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod build;
pub mod check;
pub mod cohort;
pub mod html;
pub mod intake;
pub mod lock;
pub mod merge;
pub mod record;
pub mod sanity;
pub mod unpack;
mod work;

use std::path::PathBuf;
use std::time::Duration;

pub use work::mark;

use crate::run;

/// The options of `mark`.
#[derive(Debug, Default, clap::Args)]
pub struct MarkCli {
    /// The spec pack whose suite marks the submissions (default: the first
    /// one registered).
    /// A folder holding pack.yaml is a folder pack (docs/folder-packs.md).
    #[arg(long, value_name = "NAME|PATH")]
    pub spec: Option<String>,
    /// A folder holding one entry per submission: a folder or an archive
    /// (.zip, .tar, .tar.gz), its name the submission's id; GitHub
    /// Classroom clones and Gradescope's export (submission_metadata.yml)
    /// give the students' names.
    #[arg(value_name = "SUBMISSIONS")]
    pub submissions: Option<PathBuf>,
    /// The build line, run by `sh -c` in a contained copy of each
    /// submission (default: the pack's course line).
    #[arg(long, value_name = "CMD")]
    pub build: Option<String>,
    /// Where the marks, reports and class view go.
    #[arg(long, value_name = "DIR", default_value = "marks")]
    pub out: PathBuf,
    /// Submissions marked at once (default: one per core).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// Seconds per case, replacing every case's own limit.
    #[arg(long, value_name = "SECS", value_parser = run::parse_timeout)]
    pub timeout: Option<Duration>,
    /// Seconds a build may take.
    #[arg(long, value_name = "SECS", value_parser = run::parse_timeout, default_value = "120")]
    pub build_timeout: Duration,
    /// Mark only slice K of N (ids sorted, dealt round robin), for
    /// several machines; `mark merge` joins the slices.
    #[arg(long, value_name = "K/N", value_parser = parse_partition)]
    pub partition: Option<Partition>,
    /// Mark every submission again, even those whose files and suite are
    /// unchanged since the last run into DIR.
    #[arg(long)]
    pub rerun: bool,
    /// Count ambiguous cases in their categories.
    #[arg(long)]
    pub strict: bool,
}

/// `mark merge`'s options.
#[derive(Debug, clap::Args)]
pub struct MergeCli {
    /// The output folders of the slices.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// Where the merged marks go.
    #[arg(long, value_name = "DIR", default_value = "marks")]
    pub out: PathBuf,
    /// Merge even when slices of the `--partition` set are missing (the
    /// class view then lacks their submissions).
    #[arg(long)]
    pub allow_missing: bool,
}

/// `mark`'s subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum MarkSub {
    /// Join the output folders of `--partition` slices into one.
    Merge(MergeCli),
}

/// `mark [merge]`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MarkCommand {
    /// `merge`.
    #[command(subcommand)]
    pub sub: Option<MarkSub>,
    /// The options of a marking run.
    #[command(flatten)]
    pub mark: MarkCli,
}

/// Slice K of N.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Partition {
    /// 1-based.
    pub k: usize,
    /// Slices in all.
    pub n: usize,
}

impl Partition {
    /// Whether the `index`-th submission (0-based, ids sorted) is ours.
    pub fn holds(self, index: usize) -> bool {
        index % self.n + 1 == self.k
    }
}

/// Parses `K/N` with 1 ≤ K ≤ N.
pub fn parse_partition(text: &str) -> Result<Partition, String> {
    let (k, n) = text
        .split_once('/')
        .ok_or_else(|| format!("`{text}` is not K/N"))?;
    let k: usize = k
        .trim()
        .parse()
        .map_err(|_| format!("`{k}` is not a number"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("`{n}` is not a number"))?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("{k}/{n}: K must be 1 to N"));
    }
    Ok(Partition { k, n })
}

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
/// `out`.
pub(crate) fn write_class_view(
    out: &std::path::Path,
    suite: &cohort::SuiteInfo,
    marks: &[record::SubmissionMark],
    slice: Option<Partition>,
) -> Result<cohort::Cohort, String> {
    let mut view = cohort::build(suite, marks);
    view.slice = slice;
    write_atomic(&out.join("marks.csv"), cohort::csv(suite, marks).as_bytes())?;
    let json = serde_json::to_string_pretty(&view).map_err(|e| e.to_string())? + "\n";
    write_atomic(&out.join("cohort.json"), json.as_bytes())?;
    write_atomic(&out.join("index.html"), html::index(&view).as_bytes())?;
    Ok(view)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_deal_round_robin_and_cover_everything_once() {
        assert_eq!(parse_partition("2/3"), Ok(Partition { k: 2, n: 3 }));
        assert!(parse_partition("0/3").is_err());
        assert!(parse_partition("4/3").is_err());
        assert!(parse_partition("3").is_err());
        let parts: Vec<Partition> = (1..=3).map(|k| Partition { k, n: 3 }).collect();
        for i in 0..10 {
            assert_eq!(parts.iter().filter(|p| p.holds(i)).count(), 1);
        }
        assert!(parts[0].holds(0) && parts[1].holds(1) && parts[0].holds(3));
    }
}
