//! `codingame-fixture-faulty`: `cg-fixture-faulty` (a simple bot with the
//! fault `CG_FAULT`) built with the harness, so that its tests find it as
//! one of their own binaries.

use std::process::ExitCode;

fn main() -> ExitCode {
    codingame_reference::faulty::main()
}
