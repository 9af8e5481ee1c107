//! The `nogo-corpus` command's own part (the rest is the engine's
//! [`conformance_engine::corpus_cli`]): the options of `generate` (a
//! [`Spec`]) and the classes it lists.

use std::path::Path;

use conformance_engine::corpus_cli::{ClassLine, CorpusError, CorpusWriter};

use crate::class::Class;
use crate::generate::{GenerateError, generate};
use crate::samples::Spec;

/// The nogo corpus writer.
#[derive(Debug, Clone, Copy)]
pub struct Corpus;

impl CorpusWriter for Corpus {
    const COMMAND: &'static str = "nogo-corpus";
    const ABOUT: &'static str = "Labelled faulty and valid nogo save files, as conformance cases.";
    const GENERATE: &'static str = "Write the corpus for one grid size into a folder of cases.";
    type Options = Spec;

    fn classes() -> Option<Vec<ClassLine>> {
        Some(
            Class::ALL
                .iter()
                .map(|c| ClassLine {
                    name: c.name().to_owned(),
                    control: c.is_control(),
                    ambiguous: c.ambiguous(),
                    description: c.description().to_owned(),
                    rules: c.rules().iter().map(|r| (*r).to_owned()).collect(),
                })
                .collect(),
        )
    }

    fn generate(spec: &Spec, out: &Path) -> Result<String, CorpusError> {
        let entries = generate(spec, out).map_err(|e| match e {
            GenerateError::Size(..) => CorpusError::Options(e.to_string()),
            _ => CorpusError::Writing(e.to_string()),
        })?;
        let controls = entries
            .iter()
            .filter(|e| e.sample.class.is_control())
            .count();
        Ok(format!(
            "wrote {} cases ({} faulty, {controls} valid) into {}",
            entries.len(),
            entries.len() - controls,
            out.display()
        ))
    }
}
