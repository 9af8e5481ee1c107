//! The `gridgame-corpus` command's own part (the rest is the engine's
//! [`conformance_engine::corpus_cli`]): `generate` takes no options besides
//! `--out`, and the corpus has no classes (its lines are labelled by case).

use std::path::Path;

use conformance_engine::corpus_cli::{ClassLine, CorpusError, CorpusWriter};

/// The gridgame corpus writer.
#[derive(Debug, Clone, Copy)]
pub struct Corpus;

/// `generate` has no options of its own.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {}

impl CorpusWriter for Corpus {
    const COMMAND: &'static str = "gridgame-corpus";
    const ABOUT: &'static str = "Labelled hostile gridgame input lines, as conformance cases.";
    const GENERATE: &'static str =
        "Write every labelled line as a case into a new or empty folder.";
    type Options = GenerateArgs;

    fn classes() -> Option<Vec<ClassLine>> {
        None
    }

    fn generate(_: &GenerateArgs, out: &Path) -> Result<String, CorpusError> {
        let n = crate::generate::generate(out).map_err(|e| CorpusError::Writing(e.to_string()))?;
        Ok(format!("wrote {n} cases to {}", out.display()))
    }
}
