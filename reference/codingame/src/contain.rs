//! Where a bot runs and how it ends (issue 7's containment, applied to
//! bots): through `conformance-sandbox`, at the level `CONFORMANCE_CONTAINMENT`
//! chooses, with its fall-back to a process group said once on stderr.
//!
//! Contained (`pid`, the default, or `full`), a bot runs under a keeper as
//! PID 1 of a PID namespace of its own, so every process it starts (`setsid`
//! daemons included) dies when its match or case ends; it sees the file
//! system read-only except a private folder of its own (its `HOME`, made
//! fresh for each bot and removed afterwards) and a private temporary
//! folder (at the Landlock level, named by `TMPDIR`, `/tmp` itself being
//! read-only; with a mount namespace, a private `/tmp`).
//!
//! Whatever the level, a bot gets the same view:
//! - its working directory is the caller's, so that a command's relative
//!   paths (`python3 bot.py`, `./bot`) mean what they mean in the caller's
//!   shell; a program named without a `/` is found on the caller's `PATH`;
//!   at the default level the bot may read (besides the system) its
//!   program's folder and the folder of every other word that names an
//!   existing file (`env CG_BOT_SEED=1 /opt/bots/mine`, `python3
//!   ../bots/x.py`), or the file alone where that folder is the caller's
//!   working folder or home (docs/containment.md); a path only a shell
//!   script mentions (`sh -c '... /opt/x'`) is not readable;
//! - its environment is cleared, then holds [`environment`]'s variables:
//!   `PATH=/usr/local/bin:/usr/bin:/bin` (interpreters such as `python3` or
//!   `node` installed under `/usr/local` are found), `HOME` (its private
//!   folder), `LC_ALL=C`, and every variable of the caller whose name
//!   starts with `CG_` (`CG_BOT_SEED` seeds the reference bot; the faulty
//!   fixture reads `CG_FAULT`). Nothing else of the caller's environment
//!   reaches a bot.
//!
//! One piece: every level's way to start a bot returns the same `Jail`,
//! whose ending (kill, reap, folder removed) must match how it started;
//! the bot's view (environment, folders, its words resolved) is the
//! same at every level.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use conformance_sandbox::{self as sandbox, Containment, Layout, Reported};
use rustix::process::{Pid, Signal};

/// The prefix of the caller's variables a bot receives.
pub const PASSED_PREFIX: &str = "CG_";

/// The `PATH` a bot gets.
pub const BOT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// How long the sandbox may take to start a bot before the first request
/// is sent anyway (its start-up is not the bot's time, TIME-1, but a
/// sandbox that never starts must not hang the match).
const START_LIMIT: Duration = Duration::from_secs(10);

/// How long killing a keeper may take before its outer process is killed
/// too.
const END_LIMIT: Duration = Duration::from_secs(2);

/// A started bot's streams and its containment.
pub struct Started {
    /// The bot's standard input.
    pub stdin: Option<Box<dyn Write + Send>>,
    /// The bot's standard output.
    pub stdout: Option<Box<dyn Read + Send>>,
    /// The bot's standard error.
    pub stderr: Option<Box<dyn Read + Send>>,
    /// What ends it.
    pub jail: Jail,
}

impl Started {
    /// A started bot from its three pipes (those the child has), what
    /// ends it and its private folder: both start paths end here.
    fn new(
        (stdin, stdout, stderr): Pipes<
            impl Write + Send + 'static,
            impl Read + Send + 'static,
            impl Read + Send + 'static,
        >,
        ending: Ending,
        dir: tempfile::TempDir,
    ) -> Self {
        Self {
            stdin: stdin.map(|w| Box::new(w) as Box<dyn Write + Send>),
            stdout: stdout.map(|r| Box::new(r) as Box<dyn Read + Send>),
            stderr: stderr.map(|r| Box::new(r) as Box<dyn Read + Send>),
            jail: Jail { ending, _dir: dir },
        }
    }
}

/// A child's stdin, stdout and stderr, each `None` once taken.
type Pipes<I, O, E> = (Option<I>, Option<O>, Option<E>);

enum Ending {
    /// A process group led by the bot.
    Group { child: Child, pid: Pid },
    /// The sandbox's process outside the namespaces; its child is the
    /// keeper.
    Keeper {
        child: sandbox::Kept,
        pid: Pid,
        layout: Layout,
        started: bool,
    },
    /// Ended.
    Gone,
}

/// A bot's containment: its private folder and what kills it.
pub struct Jail {
    ending: Ending,
    /// The bot's private folder (removed when the jail is dropped, after
    /// the bot is dead).
    _dir: tempfile::TempDir,
}

/// The whole environment of a bot whose private folder is `home`: see the
/// module's documentation; `extra` comes last.
pub fn environment(home: &Path, extra: &[(String, String)]) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = vec![
        ("PATH".into(), BOT_PATH.into()),
        ("HOME".into(), home.into()),
        ("LC_ALL".into(), "C".into()),
    ];
    env.extend(
        std::env::vars_os().filter(|(k, _)| k.as_bytes().starts_with(PASSED_PREFIX.as_bytes())),
    );
    env.extend(extra.iter().map(|(k, v)| (k.into(), v.into())));
    env
}

/// The program `word` as the caller's shell would find it: a path against
/// `cwd`, a bare name on the caller's `PATH` (left as it is when absent:
/// starting it then fails as it would in a shell).
pub fn resolve(word: &str, cwd: &Path) -> PathBuf {
    if word.contains('/') {
        return cwd.join(word);
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| cwd.join(dir).join(word))
        .find(|p| is_executable(p))
        .unwrap_or_else(|| PathBuf::from(word))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Starts `words` (program then arguments) with `extra` variables, as
/// [`sandbox::containment`] says. A contained bot dies with the thread that
/// started it (the sandbox sets a parent-death signal): start it on the
/// thread that plays its match.
pub fn start(words: &[String], extra: &[(String, String)]) -> std::io::Result<Started> {
    start_in(words, extra, None)
}

/// [`start`], with the bot's private folder made inside `parent` (a folder
/// the caller removes however it ends, Ctrl-C included) rather than in the
/// system's temporary folder.
pub fn start_in(
    words: &[String],
    extra: &[(String, String)],
    parent: Option<&Path>,
) -> std::io::Result<Started> {
    let (program, args) = words
        .split_first()
        .ok_or_else(|| std::io::Error::other("empty command"))?;
    let cwd = std::env::current_dir()
        .and_then(std::fs::canonicalize)
        .unwrap_or_else(|_| PathBuf::from("/"));
    let program = resolve(program, &cwd);
    let mut folder = tempfile::Builder::new();
    folder.prefix("cg-bot-");
    let dir = match parent {
        Some(parent) => folder.tempdir_in(parent)?,
        None => folder.tempdir()?,
    };
    let containment = sandbox::containment();
    let layout = Layout::for_containment(dir.path(), containment)?;
    let mut env = environment(&layout.work, extra);
    // At the Landlock level /tmp itself is read-only: the bot's private
    // temporary folder is named, as for a case's program.
    if let Some(tmp) = &layout.tmp {
        env.push(("TMPDIR".into(), tmp.clone().into()));
    }
    match containment {
        Containment::Namespaces { .. } | Containment::Landlock(_) => {
            start_contained(&program, args, &env, &cwd, layout, containment, dir)
        }
        Containment::ProcessGroup(_) => start_grouped(&program, args, &env, &cwd, dir),
    }
}

fn start_grouped(
    program: &Path,
    args: &[String],
    env: &[(OsString, OsString)],
    cwd: &Path,
    dir: tempfile::TempDir,
) -> std::io::Result<Started> {
    let mut child = Command::new(program)
        .args(args)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .current_dir(cwd)
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let pid = Pid::from_child(&child);
    let pipes = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    Ok(Started::new(pipes, Ending::Group { child, pid }, dir))
}

fn start_contained(
    program: &Path,
    args: &[String],
    env: &[(OsString, OsString)],
    cwd: &Path,
    layout: Layout,
    containment: &Containment,
    dir: tempfile::TempDir,
) -> std::io::Result<Started> {
    let args: Vec<OsString> = args.iter().map(OsString::from).collect();
    // A bot's output ends when the bot closes it (END-3's `eof`), not
    // when its keeper exits.
    // A bot is a program under test: it reads the system, its folders,
    // and its own files (its program's folder, the files its command
    // names), not the rest of the caller's working folder.
    let own = sandbox::reads::own_of(
        std::iter::once(program.to_owned()).chain(
            args.iter()
                .filter(|w| w.as_bytes().contains(&b'/') || cwd.join(w).is_file())
                .map(|w| cwd.join(w))
                .filter(|p| p.exists()),
        ),
    );
    let spec = sandbox::Spec::new(&layout, program, &args, env, Duration::ZERO)
        .in_dir(cwd)
        .releasing_streams()
        .reading(&own.iter().map(PathBuf::as_path).collect::<Vec<_>>());
    let named = named_folders(&args, cwd);
    let shown: Vec<&Path> = program
        .parent()
        .into_iter()
        .chain([cwd])
        .chain(named.iter().map(PathBuf::as_path))
        .collect();
    let mut child = sandbox::start(
        &layout,
        &spec,
        containment,
        &shown,
        sandbox::Streams::piped(),
    )
    .map_err(std::io::Error::other)?;
    let pid = child.pid();
    let pipes = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    let ending = Ending::Keeper {
        child,
        pid,
        layout,
        started: false,
    };
    Ok(Started::new(pipes, ending, dir))
}

/// What kills a running bot from outside, for a caller that must stop it
/// on an interrupt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Running {
    /// SIGKILL to this process group (the bot leads it).
    Group(Pid),
    /// SIGKILL to this process, the sandbox's outer process: the keeper and
    /// every process of the bot die with it.
    Keeper(Pid),
}

impl Jail {
    /// What kills the bot, while it runs.
    pub fn running(&self) -> Option<Running> {
        match &self.ending {
            Ending::Group { pid, .. } => Some(Running::Group(*pid)),
            Ending::Keeper { pid, .. } => Some(Running::Keeper(*pid)),
            Ending::Gone => None,
        }
    }

    /// Waits until the bot itself runs (its `exec` done), so that the
    /// sandbox's start-up stays out of its time (TIME-1). A process group's
    /// bot runs as soon as it is spawned. `Err` when the bot could not be
    /// started at all, with why.
    pub fn wait_started(&mut self) -> Result<(), String> {
        let Ending::Keeper {
            child,
            layout,
            started,
            ..
        } = &mut self.ending
        else {
            return Ok(());
        };
        let until = Instant::now() + START_LIMIT;
        while !*started && Instant::now() < until {
            if sandbox::started(layout) {
                *started = true;
                break;
            }
            if let Some(report) = sandbox::read_report(layout) {
                *started = true;
                if let Reported::SpawnFailed(_, why) = report.ending {
                    return Err(why);
                }
                break;
            }
            if let Ok(Some(ended)) = child.try_wait() {
                *started = true;
                return Err(format!("the sandbox ended first ({ended})"));
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        Ok(())
    }

    /// How the bot ended, if it has within `grace` (`exit status 7`,
    /// `killed by signal 11`): what a failure shows beside the tail of its
    /// stderr. Never reaps it: [`Jail::end`] still owns that.
    pub fn ended(&self, grace: Duration) -> Option<String> {
        let until = Instant::now() + grace;
        loop {
            let got = match &self.ending {
                Ending::Gone => return None,
                Ending::Group { pid, .. } => rustix::process::waitid(
                    rustix::process::WaitId::Pid(*pid),
                    rustix::process::WaitIdOptions::EXITED
                        | rustix::process::WaitIdOptions::NOHANG
                        | rustix::process::WaitIdOptions::NOWAIT,
                )
                .ok()
                .flatten()
                .and_then(|s| match (s.exit_status(), s.terminating_signal()) {
                    (Some(code), _) => Some(format!("exit status {code}")),
                    (None, Some(sig)) => Some(format!("killed by signal {sig}")),
                    _ => None,
                }),
                Ending::Keeper { layout, .. } => {
                    sandbox::read_report(layout).and_then(|r| match r.ending {
                        Reported::Exited(code) => Some(format!("exit status {code}")),
                        Reported::Signaled(sig) => Some(format!("killed by signal {sig}")),
                        _ => None,
                    })
                }
            };
            if got.is_some() || Instant::now() >= until {
                return got;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Kills the bot and everything it started, and waits until they are
    /// gone (END-5).
    pub fn end(&mut self) {
        match std::mem::replace(&mut self.ending, Ending::Gone) {
            Ending::Gone => {}
            Ending::Group { mut child, pid } => {
                // The leader is not reaped yet, so the group id cannot have
                // been reused: the kill reaches only what the bot started.
                let _ = rustix::process::kill_process_group(pid, Signal::KILL);
                let _ = child.wait();
            }
            Ending::Keeper { mut child, pid, .. } => {
                // Killing the keeper (PID 1 inside) kills every process of
                // the namespace: the kernel makes it a zombie only once they
                // are all gone.
                let keepers = children(pid);
                for &keeper in &keepers {
                    let _ = rustix::process::kill_process(keeper, Signal::KILL);
                }
                let until = Instant::now() + END_LIMIT;
                while keepers.iter().any(|&k| running(k)) && Instant::now() < until {
                    std::thread::sleep(Duration::from_micros(200));
                }
                // The keeper's parent exits once it has reaped the keeper;
                // its exit tears the namespaces down, which takes the
                // kernel tens of milliseconds: that wait is nobody's, so it
                // happens on a thread of its own. (Had the keeper not been
                // found, killing its parent kills it: parent-death signal.)
                if keepers.is_empty() {
                    let _ = rustix::process::kill_process(pid, Signal::KILL);
                }
                std::thread::spawn(move || {
                    let _ = child.wait();
                });
            }
        }
    }
}

impl Drop for Jail {
    fn drop(&mut self) {
        self.end();
    }
}

/// The folders the words of a command name by a path (one with a `/`): a
/// file's folder, or the folder itself.
pub fn named_folders(words: &[OsString], cwd: &Path) -> Vec<PathBuf> {
    words
        .iter()
        .filter(|w| w.as_bytes().contains(&b'/'))
        .map(|w| cwd.join(w))
        .filter_map(|p| match std::fs::metadata(&p) {
            Ok(m) if m.is_dir() => Some(p),
            Ok(_) => p.parent().map(Path::to_path_buf),
            Err(_) => None,
        })
        .collect()
}

/// Whether `pid` is alive and not a zombie.
fn running(pid: Pid) -> bool {
    let stat =
        std::fs::read_to_string(format!("/proc/{}/stat", pid.as_raw_nonzero())).unwrap_or_default();
    stat.rsplit_once(") ")
        .and_then(|(_, rest)| rest.chars().next())
        .is_some_and(|state| state != 'Z' && state != 'X')
}

/// The children of `pid`, as `/proc` lists them.
fn children(pid: Pid) -> Vec<Pid> {
    let raw = pid.as_raw_nonzero();
    std::fs::read_to_string(format!("/proc/{raw}/task/{raw}/children"))
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .filter_map(Pid::from_raw)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_programs_resolve_against_the_callers_folder() {
        let cwd = Path::new("/some/where");
        assert_eq!(resolve("./bot", cwd), Path::new("/some/where/./bot"));
        assert_eq!(resolve("bin/bot", cwd), Path::new("/some/where/bin/bot"));
        assert_eq!(resolve("/abs/bot", cwd), Path::new("/abs/bot"));
        assert_eq!(
            resolve("no-such-program-anywhere", cwd),
            Path::new("no-such-program-anywhere")
        );
        assert!(resolve("sh", cwd).is_absolute());
    }

    #[test]
    fn words_naming_files_show_their_folders() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bot.py"), "").unwrap();
        let words: Vec<OsString> = vec![
            "-u".into(),
            dir.path().join("bot.py").into(),
            "./missing/file".into(),
            "plain".into(),
            "/usr".into(),
        ];
        assert_eq!(
            named_folders(&words, Path::new("/")),
            [dir.path().to_path_buf(), PathBuf::from("/usr")]
        );
    }

    #[test]
    fn the_environment_is_cleared_but_for_its_own_variables() {
        let env = environment(Path::new("/home/bot"), &[("X".into(), "1".into())]);
        let get = |k: &str| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        assert_eq!(get("PATH"), Some(BOT_PATH.into()));
        assert_eq!(get("HOME"), Some("/home/bot".into()));
        assert_eq!(get("X"), Some("1".into()));
        assert!(env.iter().all(|(k, _)| {
            ["PATH", "HOME", "LC_ALL", "X"].iter().any(|n| k == n)
                || k.as_bytes().starts_with(b"CG_")
        }));
    }
}
