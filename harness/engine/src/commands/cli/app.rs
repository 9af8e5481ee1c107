//! What the binary hands the command line: its name and spec packs
//! ([`App`]), the defaults that differ between binaries ([`Defaults`]), and
//! how a usage error is reported ([`usage_error`]).

use std::process::ExitCode;

use crate::output::exit;
use crate::packs::pack::{self, Pack};

/// Behaviour that differs between the harness binary and the conformance
/// test target.
#[derive(Debug, Clone, Copy, Default)]
pub struct Defaults {
    /// Run ambiguous cases too, as if `--include-ignored` were given.
    pub include_ambiguous: bool,
    /// Ignore `NAME_BIN`: `cargo test` checks the reference whatever the
    /// environment says.
    pub ignore_bin_env: bool,
    /// libtest's per-case output by default (a `cargo test` target), as if
    /// `--format libtest` were given.
    pub libtest_output: bool,
}

/// A binary built on the engine: its name and the packs it registers.
#[derive(Clone, Copy)]
pub struct App<'a> {
    /// The binary's name, shown in usage lines and printed commands.
    pub program: &'static str,
    /// The registered packs; the first is the default.
    pub packs: &'a [&'a dyn Pack],
}

impl<'a> App<'a> {
    /// The pack named `name`, or the default pack.
    pub(super) fn pack(&self, name: Option<&str>) -> Result<&'a dyn Pack, String> {
        match name {
            None => self
                .packs
                .first()
                .copied()
                .ok_or_else(|| "no spec pack is registered".to_owned()),
            Some(name) => {
                let registered = pack::find(self.packs, name);
                if crate::packs::problem::package::is_package(std::path::Path::new(name)) {
                    // Loaded once per command, as a folder pack is.
                    let problem = crate::packs::problem::as_pack::ProblemPack::load(name)?;
                    return Ok(Box::leak(Box::new(problem)));
                }
                if crate::packs::folder::names_folder(name, registered.is_some()) {
                    // Loaded once per command; it lives as long as the
                    // process, like the registered packs.
                    let folder = crate::packs::folder::FolderPack::load(name)?;
                    return Ok(Box::leak(Box::new(folder)));
                }
                registered.ok_or_else(|| {
                    format!(
                        "--spec {name}: no such spec pack (known: {}; a folder pack is named \
                         by a path holding a `/`, or a folder holding pack.yaml)",
                        self.packs
                            .iter()
                            .map(|p| p.name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
            }
        }
    }

    /// Whether `pack` is the default pack.
    pub(super) fn is_default(&self, pack: &dyn Pack) -> bool {
        self.packs.first().is_some_and(|p| p.spec() == pack.spec())
    }
}

pub(super) fn usage_error(program: &str, message: &str) -> ExitCode {
    eprintln!("{program}: {message}");
    exit::code(exit::USAGE)
}
