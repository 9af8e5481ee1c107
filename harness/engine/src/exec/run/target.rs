//! The program a run starts: a path, a command line split into words, or
//! the reference (this very executable re-run with [`REFERENCE_ENV`]).
//!
//! One piece: how a command's words are found (typed in a folder, or
//! passed as written for a checker) and what the program may read of its
//! own are two readings of the same [`Target`], and must agree word by
//! word.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The environment variable that turns an engine binary into a pack's
/// reference: its value is the pack's name.
pub const REFERENCE_ENV: &str = "CONFORMANCE_REFERENCE";

/// The `PATH` a contained program runs with.
pub const RUN_PATH: &str = "/usr/bin:/bin";

/// The program to run: a path, or the reference, which is this very
/// executable re-run with [`REFERENCE_ENV`] set (never looked up by path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    path: PathBuf,
    /// Words after the path that belong to the program (a command line's
    /// arguments), before any a case adds.
    words: Vec<OsString>,
    /// The pack whose reference this is, if it is one.
    pub(super) reference: Option<&'static str>,
    /// A folder pack's model solution (the folder it runs from): the
    /// reference of its pack, yet run and contained exactly as a program
    /// under test.
    model: Option<PathBuf>,
    /// The program was named by a word looked up in `PATH` (`python3`),
    /// not by a path: with words after it, an interpreter.
    by_name: bool,
    /// Folders it may read besides its own: the installation of the
    /// interpreter a version manager's shim stands for ([`super::shim`]).
    reads: Vec<PathBuf>,
    /// A Java program's class-data archive ([`super::jvm`]).
    archive: super::jvm::Archive,
}

/// A `--bin` that cannot be run.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// The path does not exist.
    #[error("binary {0} does not exist")]
    Missing(PathBuf),
    /// The path is not a regular file with an execute bit.
    #[error("binary {0} is not an executable file")]
    NotExecutable(PathBuf),
    /// A command line that does not split into words.
    #[error("cannot split the command `{0}` into words (unbalanced quotes, or empty)")]
    BadCommand(String),
    /// A command's program is not found in `PATH`.
    #[error("command `{0}` not found in PATH")]
    NotFound(String),
    /// This executable's own path is unknown.
    #[error("cannot find the harness's own executable to run the reference: {0}")]
    NoSelf(io::Error),
}

/// A later word of a command line typed in `base`: its absolute path
/// when it names a file or folder there (never an option: `-x`, `--x=y`).
fn typed_in(base: &Path, word: &str) -> OsString {
    // A class path (`.:/course/lib/a.jar`, `java -cp .:{classpath}`):
    // each of its parts as typed there.
    if !word.starts_with('-')
        && word.contains(':')
        && !word.contains('=')
        && word.split(':').all(|p| !p.is_empty())
    {
        let parts: Vec<String> = word
            .split(':')
            .map(|p| typed_in(base, p).to_string_lossy().into_owned())
            .collect();
        return OsString::from(parts.join(":"));
    }
    let path = Path::new(word);
    if word.starts_with('-') || path.is_absolute() || !base.join(path).exists() {
        return OsString::from(word);
    }
    clean(&base.join(path)).into_os_string()
}

/// The command line `line` as typed in `base`, for a harness started in
/// another folder: a first word holding a `/` and each later word naming
/// a file or folder of `base` become their paths there; a first word
/// without one stays, to be looked up as [`Target::command`] does.
pub fn typed_line(line: &str, base: &Path) -> Option<String> {
    use crate::bytes::quote::shell_quote;
    let words = shlex::split(line)?;
    let (first, rest) = words.split_first()?;
    let mut out = if first.contains('/') {
        shell_quote(&clean(&base.join(first)).to_string_lossy())
    } else {
        shell_quote(first)
    };
    for w in rest {
        out.push(' ');
        out.push_str(&shell_quote(&typed_in(base, w).to_string_lossy()));
    }
    Some(out)
}

/// `path` without `.` and `..` components, lexically.
pub fn clean(path: &Path) -> PathBuf {
    path.components().fold(PathBuf::new(), |mut acc, c| {
        match c {
            std::path::Component::ParentDir => {
                acc.pop();
            }
            std::path::Component::CurDir => {}
            c => acc.push(c),
        }
        acc
    })
}

impl Target {
    /// The reference of the pack `pack`: the current executable in
    /// reference mode (the file this process runs from, even once its
    /// path names another: [`conformance_sandbox::own_exe`]).
    pub fn reference(pack: &'static str) -> Result<Self, TargetError> {
        let path = conformance_sandbox::own_exe().map_err(TargetError::NoSelf)?;
        Ok(Self {
            path,
            words: Vec::new(),
            reference: Some(pack),
            model: None,
            by_name: false,
            reads: Vec::new(),
            archive: super::jvm::Archive::None,
        })
    }

    /// A candidate binary, checked to exist and be executable; a bare name
    /// without a slash is taken relative to the current directory, never
    /// searched in `PATH`.
    pub fn binary(path: &Path) -> Result<Self, TargetError> {
        use std::os::unix::fs::PermissionsExt;
        let meta = fs::metadata(path).map_err(|_| TargetError::Missing(path.to_owned()))?;
        if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
            return Err(TargetError::NotExecutable(path.to_owned()));
        }
        // The child runs in the sandbox: a relative path must not resolve
        // against it.
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
        Ok(Self {
            path,
            words: Vec::new(),
            reference: None,
            model: None,
            by_name: false,
            reads: Vec::new(),
            archive: super::jvm::Archive::None,
        })
    }

    /// A command line: one shell-quoted string split into words with the
    /// shell's quoting rules (never run through a shell). A first word
    /// with a slash is a path, checked like [`Target::binary`]; one
    /// without is looked up as a shell would, first in [`RUN_PATH`] (where
    /// the program itself looks: a contained run cannot read a caller's
    /// `~/.pyenv/shims` or the like), then in the caller's `PATH`.
    ///
    /// A later word naming a file or folder of the current folder (the
    /// `fuel.py` of `python3 fuel.py`, the `.` of `java -cp . Fuel`) is
    /// taken as typed there: it becomes its absolute path, since the
    /// program runs from its case folder ([`Target::command_from`]).
    pub fn command(line: &str) -> Result<Self, TargetError> {
        let here = std::env::current_dir().unwrap_or_default();
        Self::command_from(line, &here)
    }

    /// [`Target::command`] as typed in the folder `base`: a relative first
    /// word with a `/` and every later word naming a file or folder of
    /// `base` become absolute paths there.
    pub fn command_from(line: &str, base: &Path) -> Result<Self, TargetError> {
        let words = shlex::split(line)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| TargetError::BadCommand(line.to_owned()))?;
        let (first, rest) = words
            .split_first()
            .ok_or_else(|| TargetError::BadCommand(line.to_owned()))?;
        let mut target = Self::program_from(first, base)?;
        target.words = rest.iter().map(|w| typed_in(base, w)).collect();
        Ok(target)
    }

    /// A command given as words, run from `base`: its first word found as
    /// [`Target::command_from`] finds it, every later word passed exactly
    /// as given (a checker's command line, whose words are the
    /// lecturer's: [`crate::judge::checker::checker_words`]).
    pub fn command_words(words: &[String], base: &Path) -> Result<Self, TargetError> {
        let (first, rest) = words
            .split_first()
            .ok_or_else(|| TargetError::BadCommand(String::new()))?;
        let mut target = Self::program_from(first, base)?;
        target.words = rest.iter().map(OsString::from).collect();
        Ok(target)
    }

    /// The program a command's first word names, typed in `base`.
    fn program_from(first: &str, base: &Path) -> Result<Self, TargetError> {
        let target = if first.contains('/') {
            Self::binary(&base.join(first))?
        } else {
            let caller = std::env::var_os("PATH").unwrap_or_default();
            let found = std::env::split_paths(RUN_PATH)
                .chain(std::env::split_paths(&caller))
                .map(|dir| dir.join(first))
                .find(|p| Self::binary(p).is_ok())
                .ok_or_else(|| TargetError::NotFound(first.to_owned()))?;
            // A version manager's shim cannot run contained: the
            // interpreter it stands for runs, its installation readable.
            let resolved = super::shim::is_shim(&found)
                .then(|| super::shim::resolve_shim(&found))
                .flatten();
            let mut target = match &resolved {
                Some(r) => Self::binary(&r.program)?,
                None => Self::binary(&found)?,
            };
            target.by_name = true;
            target.reads = resolved.map(|r| r.prefix).into_iter().collect();
            target
        };
        Ok(target)
    }

    /// This program run by `tool` with `options` before it (`valgrind
    /// -q … ./prog ARGS`): what it reads stays readable, its home and
    /// model folder are its own.
    pub fn under(self, tool: &Path, options: Vec<OsString>) -> Result<Self, TargetError> {
        let mut wrapped = Self::binary(tool)?;
        wrapped.words = options;
        wrapped.words.push(self.path.into_os_string());
        wrapped.words.extend(self.words);
        wrapped.model = self.model;
        wrapped.reads = self.reads;
        Ok(wrapped)
    }

    /// This target allowed to read `dir` besides its own folders (a
    /// checker reads its pack's folder).
    #[must_use]
    pub fn reading(mut self, dir: PathBuf) -> Self {
        self.reads.push(dir);
        self
    }

    /// The folders and files it was allowed to read besides its own
    /// ([`Target::reading`]); for the built-in reference, what a mount
    /// namespace shows it besides the harness's folder.
    pub fn extra_reads(&self) -> &[PathBuf] {
        &self.reads
    }

    /// The words after the path that belong to the program.
    pub fn words(&self) -> &[OsString] {
        &self.words
    }

    /// The words the program is started with: a Java program's quick
    /// start-up options ([`super::jvm`]), then its own. Never shown in a
    /// command a person reads: they change how fast it starts, not what
    /// it does.
    pub fn start_words(&self) -> Vec<OsString> {
        let mut words = super::jvm::start_options(&self.path, &self.words, &self.archive);
        words.extend(self.words.iter().cloned());
        words
    }

    /// This program with other words of its own (a Java program's run
    /// that makes its archive: [`super::jvm::dumping`]).
    #[must_use]
    pub fn with_words(mut self, words: Vec<OsString>) -> Self {
        self.words = words;
        self
    }

    /// This program started with `archive`, when it is a Java program.
    #[must_use]
    pub fn with_archive(mut self, archive: super::jvm::Archive) -> Self {
        self.archive = archive;
        self
    }

    /// Whether a class-data archive of this program's run would be used:
    /// a Java program, the quick start on, no archive yet.
    pub fn wants_archive(&self) -> bool {
        self.archive == super::jvm::Archive::None
            && super::jvm::start_options(&self.path, &self.words, &super::jvm::Archive::Make)
                .iter()
                .any(|o| o.to_string_lossy().starts_with("-XX:ArchiveClassesAtExit"))
    }

    /// The reference mode variable to set when running this target (the
    /// pack's name), if it is a reference.
    pub fn reference_env(&self) -> Option<(&'static str, &'static str)> {
        self.reference.map(|pack| (REFERENCE_ENV, pack))
    }

    /// What a program under test may read of its own: for the program and
    /// each word of its command line naming an existing file, the folder
    /// holding it, or the file alone where that folder is shared (the
    /// caller's home, `/tmp`, one holding the caller's working folder or
    /// the harness: [`conformance_sandbox::reads::own_of`]). Empty for the
    /// reference, which is not narrowed.
    pub fn own_paths(&self) -> Vec<PathBuf> {
        if self.is_builtin_reference() {
            return Vec::new();
        }
        conformance_sandbox::reads::own_of(
            std::iter::once(self.path.clone())
                .chain(self.reads.iter().cloned())
                .chain(match &self.archive {
                    super::jvm::Archive::Use(path) => Some(path.clone()),
                    _ => None,
                })
                .chain(
                    self.words
                        .iter()
                        // A class path's parts are each the program's.
                        .flat_map(|w| {
                            let w = w.to_string_lossy();
                            if w.starts_with('-') || w.contains('=') {
                                vec![PathBuf::from(&*w)]
                            } else {
                                w.split(':').map(PathBuf::from).collect()
                            }
                        })
                        .filter(|w| w.is_absolute() && w.exists()),
                ),
        )
    }

    /// Whether this runs an interpreter: a program named by a word looked
    /// up in `PATH`, with words after it (`python3 fuel.py`).
    pub fn is_interpreted(&self) -> bool {
        self.by_name && !self.words.is_empty()
    }

    /// The interpreter alone (no words), contained as this target is: to
    /// ask it its version.
    #[must_use]
    pub fn interpreter_only(&self) -> Self {
        Self {
            path: self.path.clone(),
            words: Vec::new(),
            reference: None,
            model: None,
            by_name: self.by_name,
            reads: self.reads.clone(),
            archive: super::jvm::Archive::None,
        }
    }

    /// The executable's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The program's path as a person or a script names it. The built-in
    /// reference runs as `/proc/self/exe`, which in a printed command or a
    /// kit's `run.sh` would name the shell that runs it: there it is the
    /// harness's own path as it was started.
    pub fn shown_path(&self) -> PathBuf {
        if self.reference.is_some()
            && self.path == Path::new("/proc/self/exe")
            && let Ok(started) = std::env::current_exe()
        {
            return started;
        }
        self.path.clone()
    }

    /// This command as a folder pack's model solution run from `home`:
    /// the source of its pack's expectations, contained as a program
    /// under test.
    #[must_use]
    pub fn into_model(mut self, home: PathBuf) -> Self {
        self.model = Some(home);
        self
    }

    /// The program's own folder, as a report shows it (`./`): a model's
    /// folder; the folder of the first file (or the folder) its command
    /// line names by an absolute path (`python3 /x/fuel.py`: `/x`); a
    /// program's own folder when it has no words. `None` for the built-in
    /// reference and for a command naming no file (an interpreter's folder
    /// is the system's, not the program's).
    pub fn home(&self) -> Option<PathBuf> {
        if let Some(home) = &self.model {
            return Some(home.clone());
        }
        if self.reference.is_some() {
            return None;
        }
        if self.words.is_empty() {
            return self.path.parent().map(Path::to_owned);
        }
        // A class path's first part (`/sub:/course/lib/a.jar`) is its
        // program's folder.
        let first_parts: Vec<PathBuf> = self
            .words
            .iter()
            .map(|w| match w.to_str().and_then(|t| t.split_once(':')) {
                Some((first, _)) => PathBuf::from(first),
                None => PathBuf::from(w),
            })
            .collect();
        first_parts.iter().map(PathBuf::as_path).find_map(|w| {
            if !w.is_absolute() {
                None
            } else if w.is_file() {
                w.parent().map(Path::to_owned)
            } else if w.is_dir() {
                Some(w.to_owned())
            } else {
                None
            }
        })
    }

    /// The folder a model solution runs from, if this is one.
    pub fn model_home(&self) -> Option<&Path> {
        self.model.as_deref()
    }

    /// Whether this is the reference: a pack's built-in one or a folder
    /// pack's model (the source of expectations either way).
    pub fn is_reference(&self) -> bool {
        self.reference.is_some() || self.model.is_some()
    }

    /// Whether this is a built-in reference (this executable re-run, not
    /// narrowed by containment).
    pub fn is_builtin_reference(&self) -> bool {
        self.reference.is_some()
    }

    /// Whether this is a folder pack's model solution.
    pub fn is_model(&self) -> bool {
        self.model.is_some()
    }

    /// The pack whose reference this is, if it is one.
    pub fn reference_pack(&self) -> Option<&'static str> {
        self.reference
    }

    /// How the target is named to people.
    pub fn describe(&self) -> String {
        if self.reference.is_some() {
            return "the reference (built in)".to_owned();
        }
        let mut line = self.path.display().to_string();
        for w in &self.words {
            line.push(' ');
            line.push_str(&crate::bytes::quote::shell_quote(&w.to_string_lossy()));
        }
        if self.model.is_some() {
            format!("the model: {line}")
        } else {
            line
        }
    }
}
