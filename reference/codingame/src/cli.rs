//! The `cg-referee` command line: a match (`--p1 CMD --p2 CMD …`), `replay
//! RECORD` and `arena --bot NAME=CMD …`. Each returns an [`Exit`]; `main`
//! only maps it to the process status.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::clock::Limits;
pub use crate::exit::Exit;
use crate::record::Record;
use crate::referee::{run_match, size_from_seed, write_transcripts};
use crate::replay::replay;

/// The referee for CodinGame's Dots and Boxes.
#[derive(Debug, Parser)]
#[command(name = "cg-referee", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Re-judges a match record by the rules (exit 3 when inconsistent).
    Replay {
        /// The record (JSON) to check.
        record: PathBuf,
    },
    /// Plays a round robin between bots and prints a win-rate table.
    Arena(crate::arena::ArenaArgs),
}

/// One match.
#[derive(Debug, Args)]
struct PlayArgs {
    /// Seat A's command, one shell-quoted string.
    #[arg(long, value_name = "CMD")]
    p1: Option<String>,
    /// Seat B's command, one shell-quoted string.
    #[arg(long, value_name = "CMD")]
    p2: Option<String>,
    /// Board size, 2 to 9 (default: from the seed, MATCH-2).
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=9))]
    size: Option<u8>,
    /// Match seed (a non-negative integer).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Scales every time limit (TIME-5).
    #[arg(long, default_value_t = 1.0)]
    time_factor: f64,
    /// Also writes the record to this file.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Writes each seat's exact bytes sent and received into this folder.
    #[arg(long, value_name = "DIR")]
    transcript: Option<PathBuf>,
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Exit {
    match cli.command {
        Some(Command::Replay { record }) => run_replay(&record),
        Some(Command::Arena(args)) => crate::arena::run(&args),
        None => run_play(&cli.play),
    }
}

fn run_play(args: &PlayArgs) -> Exit {
    let (Some(p1), Some(p2)) = (&args.p1, &args.p2) else {
        eprintln!("cg-referee: --p1 CMD and --p2 CMD are required (see --help)");
        return Exit::Usage;
    };
    for cmd in [p1, p2] {
        if let Err(e) = crate::bot::split_command(cmd) {
            eprintln!("cg-referee: {e}");
            return Exit::Usage;
        }
    }
    let limits = match Limits::scaled(args.time_factor) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("cg-referee: {e}");
            return Exit::Usage;
        }
    };
    let size = args.size.unwrap_or_else(|| size_from_seed(args.seed));
    let played = match run_match(p1, p2, size, limits) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("cg-referee: {e}");
            return Exit::Usage;
        }
    };
    for ((seat, cmd), why) in crate::board::Seat::BOTH
        .iter()
        .zip([p1, p2])
        .zip(&played.start_errors)
    {
        if let Some(why) = why {
            eprintln!("cg-referee: could not start bot {seat} (`{cmd}`): {why}");
        }
    }
    // The record is for machines (stdout); the outcome in words for people.
    eprintln!("cg-referee: {}", played.record.summary());
    let json = played.record.to_json();
    println!("{json}");
    if let Some(path) = &args.record
        && let Err(e) = std::fs::write(path, format!("{json}\n"))
    {
        eprintln!("cg-referee: cannot write {}: {e}", path.display());
        return Exit::Usage;
    }
    if let Some(dir) = &args.transcript
        && let Err(e) = write_transcripts(dir, &played.transcripts)
    {
        eprintln!(
            "cg-referee: cannot write the transcript in {}: {e}",
            dir.display()
        );
        return Exit::Usage;
    }
    Exit::Done
}

fn run_replay(path: &std::path::Path) -> Exit {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cg-referee: cannot read {}: {e}", path.display());
            return Exit::Usage;
        }
    };
    let record = match Record::from_json(&text) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cg-referee: {} is not a match record: {e}", path.display());
            return Exit::Usage;
        }
    };
    match replay(&record) {
        Ok(()) => {
            println!("consistent");
            Exit::Done
        }
        Err(e) => {
            println!("inconsistent: {e}");
            Exit::Inconsistent
        }
    }
}
