//! `cg-fixture-faulty`: a correct simple bot with one fault chosen by
//! `CG_FAULT` (see `codingame_reference::faulty::Fault`); slow faults sleep
//! `CG_FAULT_SLEEP_MS` (default three times the limit and more).

use std::io::{self, Write as _};
use std::process::ExitCode;
use std::time::Duration;

use codingame_reference::client::Client;
use codingame_reference::faulty::{Action, EARLY_LINE, Fault, act};

fn main() -> ExitCode {
    let name = std::env::var("CG_FAULT").unwrap_or_else(|_| "none".to_owned());
    let Some(fault) = Fault::from_name(&name) else {
        eprintln!("cg-fixture-faulty: unknown CG_FAULT `{name}`");
        return ExitCode::from(2);
    };
    let sleep = std::env::var("CG_FAULT_SLEEP_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or_else(|| fault.default_sleep(), Duration::from_millis);
    let mut out = io::stdout().lock();
    if fault == Fault::EarlyLine && (out.write_all(EARLY_LINE).is_err() || out.flush().is_err()) {
        return ExitCode::FAILURE;
    }
    let stdin = io::stdin();
    let mut client = Client::new(stdin.lock());
    let mut nth = 0;
    loop {
        let view = match client.next_view() {
            Ok(Some(v)) => v,
            Ok(None) => return ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("cg-fixture-faulty: {e}");
                return ExitCode::FAILURE;
            }
        };
        nth += 1;
        let written = match act(fault, &view, nth, sleep) {
            Action::Write(bytes) => out.write_all(&bytes).and_then(|()| out.flush()),
            Action::Late(d, bytes) => {
                std::thread::sleep(d);
                out.write_all(&bytes).and_then(|()| out.flush())
            }
            Action::WriteAndExit(bytes) => {
                let _ = out.write_all(&bytes).and_then(|()| out.flush());
                return ExitCode::SUCCESS;
            }
            Action::Skip => Ok(()),
        };
        if written.is_err() {
            return ExitCode::FAILURE;
        }
    }
}
