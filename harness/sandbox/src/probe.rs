//! Which containment level this process's runs get, decided once
//! ([`containment`]): the choice of [`CONTAINMENT_ENV`], then a probe that
//! starts a keeper that runs nothing at that level and reads its report;
//! and what the chosen level does not promise ([`shortfall`]).
//!
//! Near the top of the sandbox's order (docs/architecture.md): probing
//! starts a keeper ([`crate::start`]); only the mode a re-run executable
//! takes is above it.

use std::sync::OnceLock;
use std::sync::atomic::Ordering;

use crate::level::{CONTAINMENT_ENV, Containment, LEVELS};
use crate::process::{KEEPER_CAPABLE, SEALED, seal};
use crate::reads;
use crate::report::{Report, Reported, read_report};
use crate::spec::{Layout, Spec};
use crate::start::{Io, Streams, start};

/// The containment of this process's runs, decided once: the choice of
/// [`CONTAINMENT_ENV`], then a probe that starts a keeper in namespaces.
/// The fall-back is announced once on stderr.
pub fn containment() -> &'static Containment {
    static CHOSEN: OnceLock<Containment> = OnceLock::new();
    CHOSEN.get_or_init(|| {
        // The keeper is this executable re-run: one whose `main` never
        // called [`keeper_mode`] (a test binary calling the engine
        // in-process) would run its own `main` instead, so it runs its
        // programs in process groups, quietly.
        if !KEEPER_CAPABLE.load(Ordering::Relaxed) {
            return Containment::ProcessGroup(
                "this executable cannot act as the sandbox's keeper".to_owned(),
            );
        }
        let wanted = std::env::var(CONTAINMENT_ENV).unwrap_or_default();
        let chosen = match wanted.as_str() {
            "group" => Containment::ProcessGroup(format!("{CONTAINMENT_ENV}=group")),
            // The network namespace is opt-in: its creation and tear-down
            // cost more than the rest of a run (see docs/containment.md
            // for the numbers).
            // Landlock where the kernel has it: a mount namespace costs
            // tens of milliseconds per run.
            "" | "pid" => {
                let namespaces = Containment::Namespaces {
                    network: true,
                    landlock: true,
                };
                match probe(namespaces) {
                    Containment::ProcessGroup(_) => match probe(Containment::Namespaces {
                        network: true,
                        landlock: false,
                    }) {
                        // Namespaces refused (a container): Landlock alone.
                        Containment::ProcessGroup(why) => probe(Containment::Landlock(why)),
                        chosen => chosen,
                    },
                    chosen => chosen,
                }
            }
            "full" => probe(Containment::Namespaces {
                network: false,
                landlock: false,
            }),
            "landlock" => probe(Containment::Landlock(format!("{CONTAINMENT_ENV}=landlock"))),
            // [`check_choice`] stopped the command before any run.
            other => Containment::ProcessGroup(format!(
                "{CONTAINMENT_ENV}={other} is not one of {}",
                LEVELS.join(", ")
            )),
        };
        match &chosen {
            Containment::ProcessGroup(_) if wanted != "group" => {
                eprintln!("{}: {}", own_name(), chosen.describe());
            }
            // Chosen or fallen back to, it says what it cannot promise.
            Containment::Landlock(_) => {
                seal();
                SEALED.store(true, Ordering::Relaxed);
                eprintln!("{}: {}", own_name(), chosen.describe());
            }
            Containment::Namespaces { .. } if !reads::available() => eprintln!(
                "{}: containment: reads are not narrowed (this kernel lacks Landlock): \
                 programs may read the whole file system",
                own_name()
            ),
            _ => {}
        }
        chosen
    })
}

/// What the default containment promises and this process's runs do not
/// get, in words (`None`: they get all of it): a process group instead of
/// namespaces, or reads not narrowed (no Landlock). `mark` refuses to run
/// without `--allow-weaker-containment` when there is any.
pub fn shortfall() -> Option<String> {
    level_shortfall().or_else(readable_harness)
}

/// What the containment level itself lacks.
fn level_shortfall() -> Option<String> {
    match containment() {
        Containment::ProcessGroup(why) => Some(format!(
            "programs would run in a process group only ({why}): they could read and write \
             what the harness can and signal it"
        )),
        Containment::Namespaces { .. } if !reads::available() => {
            Some("this kernel lacks Landlock: programs could read the whole file system".to_owned())
        }
        Containment::Landlock(_) if !reads::scopes_signals() => Some(
            "this kernel's Landlock predates signal scoping (ABI 6): with no PID namespace, \
             programs could signal the harness and its keeper, and leave processes behind"
                .to_owned(),
        ),
        // Reads and writes confined by Landlock and no socket: what `mark`
        // needs (the header says what this level cannot promise).
        Containment::Namespaces { .. } | Containment::Landlock(_) => None,
    }
}

/// The harness's own executable, when it lies in a folder every program
/// may read (`/usr/local/bin` after a `sudo pip install`): it embeds the
/// suites, and so the expected outputs.
fn readable_harness() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let exe = std::fs::canonicalize(&exe).unwrap_or(exe);
    reads::system()
        .iter()
        .any(|dir| dir.is_dir() && exe.starts_with(dir))
        .then(|| {
            format!(
                "this executable, {}, lies in a folder every program may read, and it embeds \
                 the suites with their expected outputs: install it elsewhere (a virtual \
                 environment, /opt; docs/install.md)",
                exe.display()
            )
        })
}

/// The name this executable was started as, for messages of the engine
/// that come before any command line is parsed.
fn own_name() -> String {
    std::env::args_os()
        .next()
        .map(std::path::PathBuf::from)
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default()
}

/// Starts one keeper that runs nothing at `level`: its namespaces (and
/// its Landlock rules) work if it reports.
fn probe(level: Containment) -> Containment {
    let result = (|| -> Result<(), String> {
        let dir = tempfile::Builder::new()
            .prefix("conformance-probe-")
            .tempdir()
            .map_err(|e| format!("no temporary folder: {e}"))?;
        let layout = Layout::for_containment(dir.path(), &level).map_err(|e| e.to_string())?;
        let streams = Streams {
            stdin: Io::Inherit,
            stdout: Io::Inherit,
            stderr: Io::Inherit,
        };
        let mut kept = start(&layout, &Spec::probe(&layout), &level, &[], streams)
            .map_err(|e| format!("the kernel refused namespaces ({e})"))?;
        let ended = kept
            .wait()
            .map_err(|e| format!("the kernel refused namespaces ({e})"))?;
        match read_report(&layout) {
            Some(Report {
                ending: Reported::Probe,
                ..
            }) => Ok(()),
            Some(Report {
                ending: Reported::ConfineFailed(why),
                ..
            }) => Err(why),
            _ => Err(format!("the kernel refused namespaces ({})", ended.trim())),
        }
    })();
    match (result, level) {
        (Ok(()), level) => level,
        (Err(why), Containment::Landlock(before)) => {
            Containment::ProcessGroup(format!("{before}, and {why}"))
        }
        (Err(why), _) => Containment::ProcessGroup(why),
    }
}
