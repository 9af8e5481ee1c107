//! The `boxes-corpus` command: `generate` writes a corpus folder, `classes`
//! lists the error classes. All work is in the library.

use std::path::PathBuf;
use std::process::ExitCode;

use boxes_corpus::{Class, Options, Spec, generate};
use clap::{Parser, Subcommand};

/// Labelled faulty and valid grid files for boxes, with expected outcomes.
#[derive(Debug, Parser)]
#[command(name = "boxes-corpus", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Write the corpus for one grid size and player count into a folder
    /// of cases.
    Generate {
        /// Rows of cells (2..=999).
        #[arg(long)]
        height: usize,
        /// Columns of cells (2..=999).
        #[arg(long)]
        width: usize,
        /// Player count (2..=100).
        #[arg(long)]
        players: usize,
        /// A new or empty folder to write into.
        #[arg(long)]
        out: PathBuf,
        /// Picks the random base states and positions.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Also write every single-byte deletion, insertion and
        /// substitution of the base file (small grids only).
        #[arg(long)]
        exhaustive: bool,
    },
    /// List the classes, one a line: name, flags, description.
    Classes,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Classes => {
            for c in Class::all() {
                let kind = if c.is_control() { "control" } else { "faulty" };
                let amb = if c.ambiguous() { " ambiguous" } else { "" };
                let flags = format!("{kind}{amb}");
                println!(
                    "{:<36} {flags:<17} {} [{}]",
                    c.name(),
                    c.description(),
                    c.rules().join(", ")
                );
            }
            ExitCode::SUCCESS
        }
        Command::Generate {
            height,
            width,
            players,
            out,
            seed,
            exhaustive,
        } => {
            let spec = match Spec::new(height, width, players, seed) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("boxes-corpus: {e}");
                    return ExitCode::from(2);
                }
            };
            match generate(&Options { spec, exhaustive }, &out) {
                Ok(m) => {
                    let controls = m.entries.iter().filter(|e| e.control).count();
                    println!(
                        "wrote {} cases ({} faulty, {controls} valid) into {}, indexed by {}",
                        m.entries.len(),
                        m.entries.len() - controls,
                        out.display(),
                        out.join(boxes_corpus::manifest::FILE_NAME).display()
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("boxes-corpus: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}
