//! A pack compiled into the binary, stated as one value: its name, its
//! embedded suite, its rule IDs, its reference's `main` and what else it
//! has (an explorer, a conversation driver, a build line). [`Builtin`]
//! implements [`Pack`] once for every such pack, so that a pack crate
//! writes its registration as a `static`, never the trait by hand.
//!
//! A pack crate writes it with [`builtin_pack!`](crate::builtin_pack),
//! which embeds its suite too:
//!
//! ```ignore
//! conformance_engine::builtin_pack! {
//!     /// The talk pack, for registration.
//!     pub static PACK = "talk", talk::rules::ids, talk::main_with_args;
//!     .with_explorer(&EXPLORER)
//!     .with_build(BuildRecipe { program: "talk", with_makefile: None, otherwise: "cc -o talk *.c" })
//! }
//! ```

use std::ffi::OsString;
use std::fmt;
use std::process::ExitCode;
use std::sync::Arc;

use crate::exec::driver::CaseDriver;
use crate::explorer::DynExplorer;
use crate::model::embedded::EmbeddedSuite;
use crate::packs::pack::{BuildRecipe, CheckerFn, Pack};

/// Registers a pack compiled into the binary: its suite, embedded at build
/// time from `cases/NAME` as the `static SUITE` beside it
/// ([`embedded_suite!`](crate::embedded_suite)), and the `static` naming
/// the pack, its rule IDs and its reference's `main`, then the rest of its
/// [`Builtin`] (`.with_…` calls). Every pack crate registers this way, so
/// the wiring is written once.
#[macro_export]
macro_rules! builtin_pack {
    (
        $(#[$meta:meta])*
        $vis:vis static $ident:ident = $name:literal, $rules:path, $reference:path;
        $($with:tt)*
    ) => {
        $crate::embedded_suite! {
            #[doc = concat!("The suite, as built from `cases/", $name, "`.")]
            $vis static SUITE = $name;
        }

        $(#[$meta])*
        $vis static $ident: $crate::builtin::Builtin =
            $crate::builtin::Builtin::new($name, &SUITE, $rules, $reference) $($with)*;
    };
}

/// A pack compiled into the binary.
pub struct Builtin {
    name: &'static str,
    suite: &'static EmbeddedSuite,
    rule_ids: fn() -> Vec<&'static str>,
    reference: fn(Vec<OsString>) -> ExitCode,
    explorer: Option<&'static dyn DynExplorer>,
    driver: Option<fn() -> Arc<dyn CaseDriver>>,
    bin_is_command: bool,
    build: Option<BuildRecipe>,
    checkers: &'static [(&'static str, CheckerFn)],
}

impl Builtin {
    /// A pack named `name` (one lowercase word) with its embedded suite,
    /// its rule IDs in the rulings' order and its reference's `main` (called
    /// with the arguments, the program's name first).
    pub const fn new(
        name: &'static str,
        suite: &'static EmbeddedSuite,
        rule_ids: fn() -> Vec<&'static str>,
        reference: fn(Vec<OsString>) -> ExitCode,
    ) -> Self {
        Self {
            name,
            suite,
            rule_ids,
            reference,
            explorer: None,
            driver: None,
            bin_is_command: false,
            build: None,
            checkers: &[],
        }
    }

    /// With built-in checkers (`match: {…: {checker: "builtin:NAME"}}`),
    /// by name.
    #[must_use]
    pub const fn with_checkers(mut self, checkers: &'static [(&'static str, CheckerFn)]) -> Self {
        self.checkers = checkers;
        self
    }

    /// With the explorer behind `diff`.
    #[must_use]
    pub const fn with_explorer(mut self, explorer: &'static dyn DynExplorer) -> Self {
        self.explorer = Some(explorer);
        self
    }

    /// With the driver that runs cases holding a `script` as conversations.
    #[must_use]
    pub const fn with_driver(mut self, driver: fn() -> Arc<dyn CaseDriver>) -> Self {
        self.driver = Some(driver);
        self
    }

    /// With `--bin` naming a command line rather than an executable's path.
    #[must_use]
    pub const fn with_bin_as_command(mut self) -> Self {
        self.bin_is_command = true;
        self
    }

    /// With the course's build line for submissions (`mark`).
    #[must_use]
    pub const fn with_build(mut self, build: BuildRecipe) -> Self {
        self.build = Some(build);
        self
    }
}

impl fmt::Debug for Builtin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builtin")
            .field("name", &self.name)
            .field("suite", &self.suite.display)
            .field("explorer", &self.explorer.is_some())
            .field("driver", &self.driver.is_some())
            .field("bin_is_command", &self.bin_is_command)
            .field("build", &self.build)
            .finish_non_exhaustive()
    }
}

impl Pack for Builtin {
    fn name(&self) -> &'static str {
        self.name
    }

    fn suite(&self) -> &'static EmbeddedSuite {
        self.suite
    }

    fn rule_ids(&self) -> Vec<&'static str> {
        (self.rule_ids)()
    }

    fn reference_main(&self, args: Vec<OsString>) -> ExitCode {
        (self.reference)(args)
    }

    fn explorer(&self) -> Option<&dyn DynExplorer> {
        self.explorer
    }

    fn driver(&self) -> Option<Arc<dyn CaseDriver>> {
        self.driver.map(|make| make())
    }

    fn bin_is_command(&self) -> bool {
        self.bin_is_command
    }

    fn build(&self) -> Option<BuildRecipe> {
        self.build
    }

    fn checker(&self, name: &str) -> Option<CheckerFn> {
        self.checkers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f)
    }

    fn checker_names(&self) -> Vec<&'static str> {
        self.checkers.iter().map(|(n, _)| *n).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static SUITE: EmbeddedSuite = EmbeddedSuite {
        files: &[("rules.yaml", b"rules: []\n")],
        source_dir: "cases/toy",
        display: "cases/toy",
        at_run_time: false,
        in_pack: "",
    };

    fn ids() -> Vec<&'static str> {
        vec!["ARGS-1", "ARGS-2"]
    }

    #[expect(
        clippy::needless_pass_by_value,
        reason = "the signature of every reference's main"
    )]
    fn reference(args: Vec<OsString>) -> ExitCode {
        ExitCode::from(u8::try_from(args.len()).unwrap_or(u8::MAX))
    }

    static TOY: Builtin = Builtin::new("toy", &SUITE, ids, reference).with_build(BuildRecipe {
        program: "toy",
        with_makefile: None,
        otherwise: "cc -o toy *.c",
    });

    #[test]
    fn a_builtin_answers_as_its_fields_say() {
        let pack: &dyn Pack = &TOY;
        assert_eq!(pack.name(), "toy");
        assert_eq!(pack.suite(), &SUITE);
        assert_eq!(pack.rule_ids(), ["ARGS-1", "ARGS-2"]);
        assert!(pack.explorer().is_none() && pack.driver().is_none());
        assert!(!pack.bin_is_command());
        assert_eq!(pack.build().map(|b| b.program), Some("toy"));
        assert_eq!(pack.bin_env(), "TOY_BIN");
        assert!(format!("{TOY:?}").contains("cases/toy"));
    }
}
