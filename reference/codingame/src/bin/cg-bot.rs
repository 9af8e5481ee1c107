//! `cg-bot`: the reference bot for CodinGame's Dots and Boxes (see
//! `codingame_reference::strategy`), deterministic for `CG_BOT_SEED`.

use std::process::ExitCode;

use codingame_reference::client::{answer_line, serve};
use codingame_reference::greedy::name_of;
use codingame_reference::strategy::choose;

fn main() -> ExitCode {
    let seed = std::env::var("CG_BOT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut rng = fastrand::Rng::with_seed(seed);
    let result = serve(|view| {
        choose(
            &view.board,
            i64::from(view.own) as i32 - i64::from(view.opponent) as i32,
            &mut rng,
        )
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
