//! The `nogo-corpus` command: `generate` writes a corpus folder of cases,
//! `classes` lists the classes. All work is in the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use nogo_corpus::{Class, GenerateError, Spec, generate};

/// Labelled faulty and valid nogo save files, as conformance cases.
#[derive(Debug, Parser)]
#[command(name = "nogo-corpus", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Write the corpus for one grid size into a folder of cases.
    Generate {
        /// Rows (4..=1000).
        #[arg(long)]
        height: usize,
        /// Columns (4..=1000).
        #[arg(long)]
        width: usize,
        /// A new or empty folder to write into.
        #[arg(long)]
        out: PathBuf,
        /// Picks the base position and the places of the changes.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// List the classes, one a line: name, flags, description, rules.
    Classes,
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Classes => {
            for c in Class::ALL {
                let kind = if c.is_control() { "control" } else { "faulty" };
                let amb = if c.ambiguous() { " ambiguous" } else { "" };
                println!(
                    "{:<30} {:<17} {} [{}]",
                    c.name(),
                    format!("{kind}{amb}"),
                    c.description(),
                    c.rules().join(", ")
                );
            }
            ExitCode::SUCCESS
        }
        Command::Generate {
            height,
            width,
            out,
            seed,
        } => match generate(
            &Spec {
                height,
                width,
                seed,
            },
            &out,
        ) {
            Ok(entries) => {
                let controls = entries
                    .iter()
                    .filter(|e| e.sample.class.is_control())
                    .count();
                println!(
                    "wrote {} cases ({} faulty, {controls} valid) into {}",
                    entries.len(),
                    entries.len() - controls,
                    out.display()
                );
                ExitCode::SUCCESS
            }
            Err(e @ GenerateError::Size(..)) => {
                eprintln!("nogo-corpus: {e}");
                ExitCode::from(2)
            }
            Err(e) => {
                eprintln!("nogo-corpus: {e}");
                ExitCode::FAILURE
            }
        },
    }
}
