//! `cg-bot`'s whole program (the strategy of [`crate::strategy`] over the
//! protocol of [`crate::client`]), a library function so that other
//! binaries (a conformance pack checking the reference) run the same bot.

use std::process::ExitCode;

use crate::client::{answer_line, serve};
use crate::greedy::name_of;
use crate::strategy::choose;

/// The seed variable: the bot is deterministic for its value.
pub const SEED_ENV: &str = "CG_BOT_SEED";

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
