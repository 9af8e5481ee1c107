//! The course's environment on the run side: what a folder pack's
//! `environment:` (docs/folder-packs.md) gives every build and run of
//! this process once it is prepared: variables (`COURSE_ENV`, the
//! pack's `variables:`, `PYTHONPATH` for installed requirements,
//! `CLASSPATH` for jars), folders every program may read, the `{env}`
//! and `{classpath}` placeholders of command lines, and the same
//! things said in a reproduce line with `"$COURSE_ENV"` in place of the
//! marker's folders. Set once, before the first run, by the pack that
//! declares it; a process with none set runs as before.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// The variable naming the course's folder in every run and reproduce
/// line.
pub const VAR: &str = "COURSE_ENV";

/// Where reproduce lines say the requirements are installed, below
/// `"$COURSE_ENV"`.
pub const PYTHON_SITE: &str = "python";

/// A prepared environment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CourseEnv {
    /// `{env}`: the pack's folder, whose declared folders programs read.
    pub root: PathBuf,
    /// Variables of every run: name and value as run (absolute paths).
    pub vars: Vec<(String, String)>,
    /// Paths (files or folders) every program may read besides its own.
    pub reads: Vec<PathBuf>,
    /// The folder the Python requirements were installed into, if any.
    pub python_site: Option<PathBuf>,
    /// `{classpath}`: the jars, joined by `:` (absolute).
    pub classpath: Option<String>,
    /// What the header says of it (relative names only).
    pub summary: String,
    /// What a reproduce line adds for the student (how to get the same
    /// environment), if anything.
    pub student_note: Option<String>,
}

static CURRENT: Mutex<Option<CourseEnv>> = Mutex::new(None);

/// Makes `env` the environment of every later run of this process.
pub fn set(env: CourseEnv) {
    *CURRENT.lock().unwrap_or_else(PoisonError::into_inner) = Some(env);
}

/// The environment in force, if a pack declared one.
pub fn get() -> Option<CourseEnv> {
    CURRENT
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

/// The variables every run gets (before a case's own, which win).
pub fn variables() -> Vec<(OsString, OsString)> {
    get().map_or_else(Vec::new, |e| {
        e.vars
            .into_iter()
            .map(|(k, v)| (k.into(), v.into()))
            .collect()
    })
}

/// The paths every run may read besides its own.
pub fn reads() -> Vec<PathBuf> {
    get().map_or_else(Vec::new, |e| e.reads)
}

/// `line` (split into words, never run by a shell: a model's command, a
/// run line) with `{env}` as the course's folder and `{classpath}` as
/// its jars. With no environment, the placeholders stay as typed (and
/// the pack's load refuses them).
pub fn expand_words(line: &str) -> String {
    match get() {
        Some(e) => expand(line, &e.root.to_string_lossy(), e.classpath.as_deref()),
        None => line.to_owned(),
    }
}

/// `line` run by `sh -c` (a build line) with `{env}` as `"$COURSE_ENV"`
/// and `{classpath}` as `"$CLASSPATH"`: the line, as a build log shows
/// it, names no folder of the marker's.
pub fn expand_shell(line: &str) -> String {
    expand(line, &format!("\"${VAR}\""), Some("\"$CLASSPATH\""))
}

fn expand(line: &str, root: &str, classpath: Option<&str>) -> String {
    let line = line.replace("{env}", root);
    match classpath {
        Some(cp) => line.replace("{classpath}", cp),
        None => line,
    }
}

/// Whether `line` names a placeholder of the environment.
pub fn names_placeholder(line: &str) -> bool {
    line.contains("{env}") || line.contains("{classpath}")
}

/// `text` (a reproduce line) with the marker's folders of the
/// environment said as the student's: the installed requirements as
/// `"$COURSE_ENV"/python`, the course's folder as `"$COURSE_ENV"`. A
/// folder whose path needs quoting is left as it is (it is quoted
/// whole in the line, and a variable cannot go inside single quotes).
pub fn hide(text: &str) -> String {
    get().map_or_else(|| text.to_owned(), |e| e.hide(text))
}

impl CourseEnv {
    /// [`hide`] with this environment.
    pub fn hide(&self, text: &str) -> String {
        let e = self;
        let mut out = text.to_owned();
        let plain = |p: &Path| {
            let s = p.to_string_lossy().into_owned();
            (!s.is_empty() && crate::bytes::quote::shell_quote(&s) == s).then_some(s)
        };
        if let Some(site) = e.python_site.as_deref().and_then(plain) {
            out = out.replace(&site, &format!("\"${VAR}\"/{PYTHON_SITE}"));
        }
        if let Some(root) = plain(&e.root) {
            out = out.replace(&root, &format!("\"${VAR}\""));
        }
        out
    }
}

/// The words a reproduce line's `env -i` adds: each variable as the
/// student sets it, the marker's folders as `"$COURSE_ENV"`.
pub fn reproduce_words() -> Vec<String> {
    let Some(e) = get() else {
        return Vec::new();
    };
    e.vars
        .iter()
        .map(|(k, v)| {
            if k == VAR {
                format!("{VAR}=\"${VAR}\"")
            } else {
                hide(&format!("{k}={}", crate::bytes::quote::shell_quote(v)))
            }
        })
        .collect()
}

/// The line a reproduce command ends with when the run had an
/// environment: how the student gets the same one.
pub fn reproduce_note() -> Option<String> {
    get().and_then(|e| e.student_note)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_expand_for_words_and_for_the_shell() {
        assert_eq!(
            expand("cc -I{env}/lib x.c {env}/lib/libcs50.a", "/p", None),
            "cc -I/p/lib x.c /p/lib/libcs50.a"
        );
        assert_eq!(
            expand_shell("cc -I{env}/lib -o x x.c"),
            "cc -I\"$COURSE_ENV\"/lib -o x x.c"
        );
        assert_eq!(
            expand("java -cp .:{classpath} M", "/p", Some("/p/lib/a.jar")),
            "java -cp .:/p/lib/a.jar M"
        );
        assert!(names_placeholder("x {env}/y"));
        assert!(!names_placeholder("python3 {program}"));
    }

    #[test]
    fn a_reproduce_line_names_course_env_not_the_markers_folders() {
        let e = CourseEnv {
            root: PathBuf::from("/home/lec/packs/fuel"),
            python_site: Some(PathBuf::from("/home/lec/.cache/x/python/ab12")),
            ..CourseEnv::default()
        };
        assert_eq!(
            e.hide("PYTHONPATH=/home/lec/.cache/x/python/ab12 cc /home/lec/packs/fuel/lib/a.a"),
            "PYTHONPATH=\"$COURSE_ENV\"/python cc \"$COURSE_ENV\"/lib/a.a"
        );
        let quoted = CourseEnv {
            root: PathBuf::from("/my packs/fuel"),
            ..CourseEnv::default()
        };
        assert_eq!(quoted.hide("'/my packs/fuel/lib'"), "'/my packs/fuel/lib'");
    }
}
