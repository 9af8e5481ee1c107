//! What this executable is when the sandbox started it: the keepers'
//! zygote ([`crate::zygote`], its variable set), a keeper
//! ([`KEEPER_ENV`] set: [`crate::keeper`]), or neither (then the caller's
//! own `main` goes on). Every binary that runs cases calls
//! [`keeper_mode`] first thing in `main`.
//!
//! The top of the sandbox's order (docs/architecture.md): it imports the
//! zygote and the keeper, and nothing imports it but the crate's facade.

use std::os::unix::ffi::OsStrExt as _;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use crate::keeper::{self, KEEPER_FAILED};
use crate::process::{KEEPER_CAPABLE, seal_inherited_fds};
use crate::spec::{KEEPER_ENV, Spec};
use crate::zygote::{self, ZYGOTE_ENV};

/// Runs the keeper when this process was started as one ([`KEEPER_ENV`]
/// set); every binary that runs cases calls this first thing in `main`
/// (through the engine's `reference_mode`).
pub fn keeper_mode() -> Option<ExitCode> {
    // Whatever this process inherited stays out of every child it starts.
    seal_inherited_fds();
    KEEPER_CAPABLE.store(true, Ordering::Relaxed);
    if std::env::var_os(ZYGOTE_ENV).is_some() {
        return Some(zygote::serve());
    }
    let json = std::env::var_os(KEEPER_ENV)?;
    let spec: Spec = match serde_json::from_slice(json.as_bytes()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("conformance keeper: bad spec: {e}");
            return Some(ExitCode::from(KEEPER_FAILED));
        }
    };
    Some(keeper::run(&spec))
}
