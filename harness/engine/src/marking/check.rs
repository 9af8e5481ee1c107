//! A built submission checked against its pack's suite: this very
//! harness run again as a child (`--bin PROGRAM --score --results …
//! --gradescope …`), so a submission's row is by construction what its own
//! `--score` run says, and nothing of one submission's run (its sandbox folders,
//! its early verdict, a crash) touches another's. The child is registered
//! with the interrupt: Ctrl-C or SIGTERM stops it, and it removes its own
//! sandbox folders before it ends. The child's outputs in the
//! submission's folder are the student's (a secret case redacted); the
//! marker's copy of the check goes to `OUT/marker/SLUG/`.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::exec::interrupt::{Killer, Ticket};
use crate::output::results::Results;

/// The folder of a submission's report holding the inputs of the failed
/// cases too long to paste in a reproduce line.
pub const REPRODUCE_DIR: &str = "reproduce";

/// The options of a check that `mark` passes through.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// The pack.
    pub spec: String,
    /// `--timeout` per case, if given.
    pub timeout: Option<Duration>,
    /// `--strict`.
    pub strict: bool,
    /// `--memcheck`.
    pub memcheck: Option<crate::exec::memcheck::Memcheck>,
    /// How the student runs their program, as the reports name it:
    /// `./NAME` for the file the build makes, or the course's run line
    /// (`python3 fuel.py`).
    pub reproduce_as: String,
}

/// Runs the suite on `bin` (a path, or for a folder pack a command line
/// whose paths are absolute), started once already (`mark`'s preflight:
/// the check starts it no more before its cases), and returns its
/// `--results` document, writing `report.txt`, `results.json` and
/// `gradescope.json` into `dir`. `archive`: a Java program's class-data
/// archive, which its cases start from.
///
/// `ticket` is the submission's: its folder is removed and the child
/// stopped if the harness is interrupted.
pub fn check(
    bin: &std::ffi::OsStr,
    archive: Option<&Path>,
    dir: &Path,
    options: &CheckOptions,
    ticket: &Ticket,
) -> Result<Results, String> {
    // The file this harness runs from, however its path changed since
    // (a binary updated on a shared file system mid-run).
    let me =
        conformance_sandbox::own_exe().map_err(|e| format!("cannot find this harness: {e}"))?;
    let results_path = dir.join("results.json");
    let report = std::fs::File::create(dir.join("report.txt"))
        .map_err(|e| format!("cannot write report.txt: {e}"))?;
    let stderr_path = dir.join(".check-stderr");
    let stderr = std::fs::File::create(&stderr_path)
        .map_err(|e| format!("cannot write into {}: {e}", dir.display()))?;
    let mut args: Vec<OsString> = vec![
        "run".into(),
        "--spec".into(),
        options.spec.clone().into(),
        "--bin".into(),
        bin.into(),
        "--score".into(),
        "--results".into(),
        results_path.clone().into(),
        "--gradescope".into(),
        dir.join("gradescope.json").into(),
        "--test-threads".into(),
        "1".into(),
        "--color".into(),
        "never".into(),
        "--reproduce-as".into(),
        options.reproduce_as.clone().into(),
        "--keep-failed".into(),
        dir.join(REPRODUCE_DIR).into(),
        "--started".into(),
    ];
    if let Some(archive) = archive {
        args.extend(["--jvm-archive".into(), archive.into()]);
    }
    // The folder is the student's: secret cases whole go to the marker's.
    if let Some(marker) = marker_dir(dir) {
        let _ = std::fs::remove_dir_all(&marker);
        args.extend(["--marker-copy".into(), marker.into()]);
    }
    if let Some(t) = options.timeout {
        args.extend(["--timeout".into(), t.as_secs_f64().to_string().into()]);
    }
    if options.strict {
        args.push("--strict".into());
    }
    if let Some(m) = options.memcheck {
        args.extend(["--memcheck".into(), m.to_string().into()]);
    }
    let mut cmd = Command::new(&me);
    // Its own name as the caller started it, not the link's.
    if let Some(name) = std::env::args_os().next() {
        std::os::unix::process::CommandExt::arg0(&mut cmd, name);
    }
    cmd.args(&args)
        .stdin(Stdio::null())
        .stdout(report)
        .stderr(stderr)
        .env("NO_COLOR", "1")
        // The marker's --allow-read and --allow-network hold for the checks.
        .envs(conformance_sandbox::policy::get().child_env())
        // A folder pack's model, built once here, serves every check.
        .envs(crate::packs::folder::model::child_env())
        // A problem package's derived time limit, timed once here.
        .envs(crate::packs::problem::limit::child_env())
        .env_remove(crate::exec::run::REFERENCE_ENV);
    // Its own process group: only this harness signals it, with SIGTERM,
    // so that it kills its programs and removes its sandbox folders itself.
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let child = ticket
        .spawn_locked(
            || cmd.spawn(),
            |c| {
                c.as_ref().map_or(Killer::NotStarted, |c| {
                    Killer::Harness(rustix::process::Pid::from_child(c))
                })
            },
        )
        .map_err(|_| INTERRUPTED.to_owned())?;
    let mut child = child.map_err(|e| format!("cannot start {}: {e}", me.display()))?;
    let status = child
        .wait()
        .map_err(|e| format!("cannot wait for the check: {e}"))?;
    ticket.idle();
    if crate::exec::interrupt::interrupted() {
        return Err(INTERRUPTED.to_owned());
    }
    prune_kits(dir);
    let said = std::fs::read(&stderr_path).unwrap_or_default();
    let _ = std::fs::remove_file(&stderr_path);
    let text = std::fs::read_to_string(&results_path).map_err(|_| {
        let said = String::from_utf8_lossy(&said);
        let last = said
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        format!("the suite could not run ({status}): {last}")
    })?;
    serde_json::from_str(&text).map_err(|e| format!("results.json does not parse: {e}"))
}

/// The marker's copy of a submission's check (`OUT/marker/SLUG/`:
/// `results.json` and `report.txt` with secret cases whole) beside its
/// staging folder `OUT/submissions/.SLUG.partial`.
fn marker_dir(staging: &Path) -> Option<std::path::PathBuf> {
    let name = staging.file_name()?.to_str()?;
    let slug = name.strip_prefix('.')?.strip_suffix(".partial")?;
    let out = staging.parent()?.parent()?;
    Some(out.join(MARKER_DIR).join(slug))
}

/// The folder of `mark`'s output holding the marker's copy of each
/// check: never handed to a student.
pub const MARKER_DIR: &str = "marker";

/// Removes every kit under `dir/reproduce/` that neither `report.txt`
/// nor `gradescope.json` names (a case whose inputs fit in its reproduce
/// line needs none), and the folder itself when nothing is left.
fn prune_kits(dir: &Path) {
    let root = dir.join(REPRODUCE_DIR);
    let texts: Vec<Vec<u8>> = ["report.txt", "gradescope.json"]
        .iter()
        .map(|name| std::fs::read(dir.join(name)).unwrap_or_default())
        .collect();
    let named = |rel: &str| {
        // `report.txt` names `reproduce/REL/run.sh`, `gradescope.json` the
        // folder (`reproduce/REL/`, the instructor has it).
        let needle = format!("{REPRODUCE_DIR}/{rel}/");
        texts
            .iter()
            .any(|text| text.windows(needle.len()).any(|w| w == needle.as_bytes()))
    };
    let kits: Vec<std::path::PathBuf> = walkdir::WalkDir::new(&root)
        .follow_links(false)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() == "run.sh")
        .filter_map(|e| e.path().parent().map(Path::to_owned))
        .collect();
    for kit in kits {
        let rel = kit
            .strip_prefix(&root)
            .map(|r| r.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !named(&rel) {
            let _ = std::fs::remove_dir_all(&kit);
        }
    }
    // Folders left empty, deepest first.
    let mut dirs: Vec<std::path::PathBuf> = walkdir::WalkDir::new(&root)
        .follow_links(false)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_dir())
        .map(|e| e.path().to_owned())
        .collect();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
    for d in dirs {
        let _ = std::fs::remove_dir(d);
    }
}

/// The error of a check the interrupt stopped.
pub const INTERRUPTED: &str = "interrupted";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_markers_copy_lies_beside_the_submissions() {
        assert_eq!(
            marker_dir(Path::new("/m/submissions/.ab%20c.partial")),
            Some(std::path::PathBuf::from("/m/marker/ab%20c"))
        );
        assert_eq!(marker_dir(Path::new("/m/submissions/ab")), None);
    }

    #[test]
    fn a_kit_either_output_names_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        for kit in ["c/in-report", "c/in-gradescope", "c/unnamed"] {
            let at = dir.path().join(REPRODUCE_DIR).join(kit);
            std::fs::create_dir_all(&at).unwrap();
            std::fs::write(at.join("run.sh"), "#!/bin/sh\n").unwrap();
        }
        std::fs::write(
            dir.path().join("report.txt"),
            "reproduce: sh reproduce/c/in-report/run.sh\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("gradescope.json"),
            r#"{"tests":[{"output":"(the instructor has them, in reproduce/c/in-gradescope/)"}]}"#,
        )
        .unwrap();
        prune_kits(dir.path());
        let kept = |kit: &str| dir.path().join(REPRODUCE_DIR).join(kit).is_dir();
        assert!(kept("c/in-report"));
        assert!(kept("c/in-gradescope"));
        assert!(!kept("c/unnamed"));
    }
}
