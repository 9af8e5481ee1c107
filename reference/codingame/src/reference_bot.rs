//! `cg-bot`'s whole program (the strategy of [`crate::strategy`] over the
//! protocol of [`crate::client`]), a library function so that other
//! binaries (a conformance pack checking the reference) run the same bot.

use std::process::ExitCode;

use crate::client::{answer_line, serve};
use crate::greedy::name_of;
use crate::strategy::choose;

/// The seed variable: the bot is deterministic for its value.
pub const SEED_ENV: &str = "CG_BOT_SEED";

/// What `cg-bot --help` prints.
pub const USAGE: &str = "\
cg-bot: the reference bot for CodinGame's Dots and Boxes

Usage: cg-bot

It plays one match on its standard input and output, as the CodinGame
referee (or cg-referee) talks to a bot: it reads the board size and its
seat, then each turn's scores and boxes, and answers each request with one
line `BOX SIDE` (for example `A1 T`), until its input ends.

Environment:
  CG_BOT_SEED=N   the seed of its choices among equal moves (default 0):
                  the same seed and the same requests give the same answers

Examples:
  cg-referee --p1 cg-bot --p2 'python3 bot.py' --size 5
  printf '2\\nA\\n0 0\\n4\\nA1 LTRB\\nB1 LTRB\\nA2 LTRB\\nB2 LTRB\\n' | cg-bot
";

/// `cg-bot [--help | --version]`: plays on standard input and output
/// until the input ends; any other argument is a usage error (exit 2).
pub fn main_with_args(args: &[std::ffi::OsString]) -> ExitCode {
    match args.get(1).map(|a| a.to_string_lossy()) {
        None => main(),
        Some(a) if a == "--help" || a == "-h" => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(a) if a == "--version" || a == "-V" => {
            println!("cg-bot {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some(a) => {
            eprintln!("cg-bot: unexpected argument `{a}` (cg-bot --help)");
            ExitCode::from(2)
        }
    }
}

/// Plays on standard input and output until the input ends.
pub fn main() -> ExitCode {
    let seed = std::env::var(SEED_ENV)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut rng = fastrand::Rng::with_seed(seed);
    let result = serve(|view| {
        let lead = i64::from(view.own) - i64::from(view.opponent);
        choose(&view.board, lead as i32, &mut rng)
            .and_then(|e| name_of(&view.board, e))
            .map_or_else(|| b"A1 L".to_vec(), |(b, s)| answer_line(b, s))
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cg-bot: {e}");
            ExitCode::FAILURE
        }
    }
}
