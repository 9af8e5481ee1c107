//! `cg-fixture-faulty`: a correct simple bot with one fault chosen by
//! `CG_FAULT` (see `codingame_reference::faulty::Fault`); slow faults sleep
//! `CG_FAULT_SLEEP_MS` (default three times the limit and more).

use std::process::ExitCode;

fn main() -> ExitCode {
    codingame_reference::faulty::main()
}
