//! `cg-fixture-greedy`: the greedy opponent of cg-bot's target (take a
//! fourth side, else a safe side, else any; ties at random, seeded by
//! `CG_BOT_SEED`).

use std::process::ExitCode;

use codingame_reference::client::{answer_line, serve};
use codingame_reference::greedy::{choose, name_of};

fn main() -> ExitCode {
    let seed = std::env::var("CG_BOT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut rng = fastrand::Rng::with_seed(seed);
    let result = serve(|view| {
        choose(&view.board, &mut rng)
            .and_then(|e| name_of(&view.board, e))
            .map_or_else(|| b"A1 L".to_vec(), |(b, s)| answer_line(b, s))
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cg-fixture-greedy: {e}");
            ExitCode::FAILURE
        }
    }
}
