//! Tiny spec packs run through the real engine, in one binary (issue 47:
//! one link, not one per pack): `toy` (arguments, `diff`, written cases)
//! and `conversation` (a driver's scripts). The binary is also each pack's
//! reference (the engine runs it again with the pack's name in the
//! environment), so `main` is written by hand, not by libtest.

mod common;
mod conversation;
mod toy;

use std::process::ExitCode;

use conformance_engine::pack::Pack;

fn main() -> ExitCode {
    let every_pack: Vec<&dyn Pack> = toy::PACKS
        .iter()
        .chain(conversation::PACKS)
        .copied()
        .collect();
    if let Some(code) = conformance_engine::reference_mode(&every_pack) {
        return code;
    }
    let toy = toy::checks();
    let conversation = conversation::checks();
    if toy == ExitCode::SUCCESS && conversation == ExitCode::SUCCESS {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
