//! The options of `mark` and `mark merge`, as clap reads them.

use std::path::PathBuf;
use std::time::Duration;

use super::partition::{Partition, parse_partition};
use crate::exec::run;

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
    /// The submissions are programs already built (each holds the pack's
    /// program, `nogo`): nothing is built, each runs as handed in,
    /// contained like any other.
    #[arg(long, conflicts_with = "build")]
    pub prebuilt: bool,
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
    /// Check each program's memory: `asan` builds each submission with
    /// AddressSanitizer and UndefinedBehaviorSanitizer (through CFLAGS,
    /// CXXFLAGS and LDFLAGS), `valgrind` runs each case under valgrind's
    /// memcheck; `,leaks` charges leaks too; `,warn` reports memory errors as
    /// warnings, no marks lost by them (docs/memory.md).
    #[arg(long, value_name = "TOOL[,leaks][,warn]")]
    pub memcheck: Option<crate::exec::memcheck::Memcheck>,
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
