//! The `gridgame-corpus` command: `generate --out DIR` writes the corpus of
//! hostile size and move lines as a folder of cases. All work is in the
//! library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Labelled hostile gridgame input lines, as conformance cases.
#[derive(Debug, Parser)]
#[command(name = "gridgame-corpus", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Write every labelled line as a case into a new or empty folder.
    Generate {
        /// The folder.
        #[arg(long)]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Generate { out } => match gridgame_corpus::generate::generate(&out) {
            Ok(n) => {
                println!("wrote {n} cases to {}", out.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("gridgame-corpus: {e}");
                ExitCode::from(2)
            }
        },
    }
}
