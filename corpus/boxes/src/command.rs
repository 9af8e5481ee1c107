//! The `boxes-corpus` command's own part (the rest is the engine's
//! [`conformance_engine::corpus_cli`]): the options of `generate` and the
//! classes it lists.

use std::path::Path;

use conformance_engine::corpus_cli::{ClassLine, CorpusError, CorpusWriter};

use crate::class::Class;
use crate::generate::{Options, generate};
use crate::manifest;
use crate::spec::Spec;

/// The boxes corpus writer.
#[derive(Debug, Clone, Copy)]
pub struct Corpus;

/// The size, players and seed of a corpus.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Rows of cells (2..=999).
    #[arg(long)]
    height: usize,
    /// Columns of cells (2..=999).
    #[arg(long)]
    width: usize,
    /// Player count (2..=100).
    #[arg(long)]
    players: usize,
    /// Picks the random base states and positions.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Also write every single-byte deletion, insertion and substitution
    /// of the base file (small grids only).
    #[arg(long)]
    exhaustive: bool,
}

impl CorpusWriter for Corpus {
    const COMMAND: &'static str = "boxes-corpus";
    const ABOUT: &'static str =
        "Labelled faulty and valid grid files for boxes, with expected outcomes.";
    const GENERATE: &'static str =
        "Write the corpus for one grid size and player count into a folder of cases.";
    type Options = GenerateArgs;

    fn classes() -> Option<Vec<ClassLine>> {
        Some(
            Class::all()
                .into_iter()
                .map(|c| ClassLine {
                    name: c.name(),
                    control: c.is_control(),
                    ambiguous: c.ambiguous(),
                    description: c.description(),
                    rules: c.rules().into_iter().map(str::to_owned).collect(),
                })
                .collect(),
        )
    }

    fn generate(a: &GenerateArgs, out: &Path) -> Result<String, CorpusError> {
        let spec = Spec::new(a.height, a.width, a.players, a.seed)
            .map_err(|e| CorpusError::Options(e.to_string()))?;
        let options = Options {
            spec,
            exhaustive: a.exhaustive,
        };
        let m = generate(&options, out).map_err(|e| CorpusError::Writing(e.to_string()))?;
        let controls = m.entries.iter().filter(|e| e.control).count();
        Ok(format!(
            "wrote {} cases ({} faulty, {controls} valid) into {}, indexed by {}",
            m.entries.len(),
            m.entries.len() - controls,
            out.display(),
            out.join(manifest::FILE_NAME).display()
        ))
    }
}
