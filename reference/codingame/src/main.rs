//! `cg-referee`: referee, replay and arena for CodinGame's Dots and Boxes.

use std::process::ExitCode;

use clap::Parser as _;
use codingame_reference::cli::{Cli, Exit, run};

fn main() -> ExitCode {
    // Each bot's sandbox starts this executable as its keeper (PID 1).
    if let Some(code) = conformance_sandbox::keeper_mode() {
        return code;
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                Exit::Usage.code()
            } else {
                0
            });
        }
    };
    if let Err(e) = conformance_sandbox::check_choice() {
        eprintln!("cg-referee: {e}");
        return ExitCode::from(Exit::Usage.code());
    }
    // The bots' keepers are forked by one zygote for the whole command,
    // not started by `exec` each; it ends (and is waited for) with it.
    let _zygote = conformance_sandbox::zygote::Session::enter();
    ExitCode::from(run(cli).code())
}
