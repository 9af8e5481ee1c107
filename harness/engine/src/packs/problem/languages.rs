//! Which language a submission is written in, chosen by its files'
//! extensions as problemtools' `languages.yaml` chooses (the language
//! with the most source files; a tie goes to the higher `priority`), and
//! how it is compiled and run: a default table (C, C++, Java, Kotlin,
//! Python 3, JavaScript, Rust, Go, C#, Ruby, shell), which a package's own
//! `languages.yaml` overrides language by language (`LANG: {name,
//! priority, files, compile, run}`, the same keys). In a line, `{files}`
//! is the submission's source files, `{mainfile}` its main file,
//! `{mainclass}` the class a JVM starts (the one holding `main`, found in
//! the sources: [`super::entry`]; else the main file's name without
//! extension), `{Mainclass}` the same capitalised, `{binary}` the program
//! a compile leaves (`prog`), `{path}` the program's folder and
//! `{memlim}` the heap in MiB a runtime is given ([`Table::memlim`]).
//!
//! One piece: the table, its defaults, a package's overrides and the
//! placeholders its lines are filled with are the one thing problemtools'
//! `languages.yaml` describes.

use std::collections::BTreeMap;
use std::path::Path;

/// One language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Language {
    /// Its ID (`cpp`).
    pub id: String,
    /// How people name it (`C++`).
    pub name: String,
    /// Which language wins a tie of source-file counts: the higher.
    pub priority: i64,
    /// File name patterns (`*.cc *.cpp`): `*.EXT` only.
    pub files: Vec<String>,
    /// The compile line, if compiled.
    pub compile: Option<String>,
    /// The run line.
    pub run: String,
}

impl Language {
    /// Whether `file` (a name, or a relative path) is one of its sources.
    pub fn matches(&self, file: &str) -> bool {
        let name = file.rsplit('/').next().unwrap_or(file);
        self.files.iter().any(|p| {
            p.strip_prefix('*')
                .is_some_and(|ext| name.len() > ext.len() && name.ends_with(ext))
        })
    }

    /// The program a line needs from `PATH` (its first word), if it is
    /// looked up there.
    pub fn tools(&self) -> Vec<String> {
        [self.compile.as_deref(), Some(self.run.as_str())]
            .into_iter()
            .flatten()
            .filter_map(|l| l.split_whitespace().next())
            .filter(|w| !w.contains('/') && !w.starts_with('{'))
            .map(str::to_owned)
            .collect()
    }

    /// Why it cannot run here (`no rustc (Rust)`), if a tool it needs
    /// is missing. A compiled language's build and launcher run under
    /// `sh` with the sandbox's `PATH` ([`RUN_PATH`]) alone, so a compiler
    /// found only on the caller's (`~/.cargo/bin/rustc`) is missing there
    /// and says so: otherwise its build's `not found` would be charged as
    /// the submission's compile error. An interpreter's run line is
    /// looked up in the caller's `PATH` too, as any command's first word.
    ///
    /// [`RUN_PATH`]: crate::exec::run::RUN_PATH
    pub fn missing_tool(&self) -> Option<String> {
        let caller = std::env::var_os("PATH").unwrap_or_default();
        self.missing_in(crate::exec::run::RUN_PATH.as_ref(), &caller)
    }

    /// [`Language::missing_tool`] with the sandbox's `PATH` `run_path`
    /// and the caller's `caller`.
    fn missing_in(&self, run_path: &std::ffi::OsStr, caller: &std::ffi::OsStr) -> Option<String> {
        let found = |tool: &str, path: &std::ffi::OsStr| {
            std::env::split_paths(path)
                .map(|d| d.join(tool))
                .find(|p| p.is_file())
        };
        self.tools().into_iter().find_map(|tool| {
            if found(&tool, run_path).is_some() {
                return None;
            }
            match found(&tool, caller) {
                None => Some(format!("no {tool} ({})", self.name)),
                Some(_) if self.compile.is_none() => None,
                Some(at) => Some(format!(
                    "no {tool} ({}) on the build's PATH {} ({} is not used)",
                    self.name,
                    run_path.to_string_lossy(),
                    at.display()
                )),
            }
        })
    }

    /// Whether its run line starts a JVM on a class (`{mainclass}`).
    pub fn runs_a_class(&self) -> bool {
        self.run.contains("{mainclass}") || self.run.contains("{Mainclass}")
    }
}

/// The JVM's options on the Java and Kotlin run lines: the heap sized
/// from the package's memory limit (`{memlim}`, as problemtools and
/// Kattis size it; never the JVM's own quarter of the machine), the
/// serial collector and one processor's worth of threads (the collector's,
/// the compilers' and the C library's arenas scale with the processors
/// the JVM sees), and the code cache and class space reserved small: the
/// JVM then reserves about 2 GiB of address space beyond its heap, within
/// the containment's memory bound (docs/java.md).
const JVM: &str = "-Dfile.encoding=UTF-8 -XX:+UseSerialGC -XX:ActiveProcessorCount=1 \
                   -XX:ReservedCodeCacheSize=64m -XX:CompressedClassSpaceSize=128m -Xss64m \
                   -Xmx{memlim}m";

/// `(id, name, priority, files, compile, run)` of the default table; the
/// priorities are problemtools'.
const DEFAULTS: [(&str, &str, i64, &str, &str, &str); 11] = [
    (
        "c",
        "C",
        950,
        "*.c",
        "gcc -g -O2 -std=gnu11 -o {binary} {files} -lm",
        "./{binary}",
    ),
    (
        "cpp",
        "C++",
        1000,
        "*.cc *.cpp *.cxx *.c++ *.C",
        "g++ -g -O2 -std=gnu++17 -o {binary} {files}",
        "./{binary}",
    ),
    (
        "java",
        "Java",
        800,
        "*.java",
        "javac -encoding UTF-8 -sourcepath {path} -d {path} {files}",
        "java JVM -cp {path} {mainclass}",
    ),
    (
        "kotlin",
        "Kotlin",
        250,
        "*.kt",
        // The compiler's JVM with its first JIT tier only and the serial
        // collector: half the CPU of a short compile (4.0 s to 2.1 s for
        // a hello, kotlinc 1.3), the same classes.
        "kotlinc -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -d {path} {files}",
        "kotlin KOTLIN_JVM -cp {path} {Mainclass}Kt",
    ),
    (
        "python3",
        "Python 3",
        850,
        "*.py *.py3",
        "",
        "python3 {mainfile}",
    ),
    (
        "javascript",
        "JavaScript",
        500,
        "*.js",
        "",
        "node {mainfile}",
    ),
    (
        "rust",
        "Rust",
        575,
        "*.rs",
        "rustc -O --edition 2021 -o {binary} {mainfile}",
        "./{binary}",
    ),
    (
        "go",
        "Go",
        400,
        "*.go",
        "go build -o {binary} {files}",
        "./{binary}",
    ),
    (
        "csharp",
        "C#",
        700,
        "*.cs",
        "mcs -out:{binary}.exe {files}",
        "mono {binary}.exe",
    ),
    ("ruby", "Ruby", 650, "*.rb", "", "ruby {mainfile}"),
    ("bash", "Bash", 100, "*.sh", "", "bash {mainfile}"),
];

/// The memory limit of a package that sets none (`limits.memory`, MiB):
/// problemtools' default.
pub const DEFAULT_MEMORY_MIB: u64 = 1024;

/// The language table: the defaults with a package's overrides, and the
/// package's memory limit.
#[derive(Debug, Clone)]
pub struct Table {
    langs: Vec<Language>,
    /// `limits.memory` of `problem.yaml`, MiB.
    memory_mib: u64,
}

impl Table {
    /// The default table.
    pub fn defaults() -> Self {
        let kotlin_jvm = JVM
            .split_whitespace()
            .map(|o| format!("-J{o}"))
            .collect::<Vec<_>>()
            .join(" ");
        Self {
            langs: DEFAULTS
                .iter()
                .map(|(id, name, priority, files, compile, run)| Language {
                    id: (*id).to_owned(),
                    name: (*name).to_owned(),
                    priority: *priority,
                    files: files.split_whitespace().map(str::to_owned).collect(),
                    compile: (!compile.is_empty()).then(|| (*compile).to_owned()),
                    run: run.replace("KOTLIN_JVM", &kotlin_jvm).replace("JVM", JVM),
                })
                .collect(),
            memory_mib: DEFAULT_MEMORY_MIB,
        }
    }

    /// The defaults overridden by `languages.yaml` in `dir`, if it holds
    /// one; the memory limit `problem.yaml` there sets.
    pub fn for_package(dir: &Path) -> Result<Self, String> {
        let mut table = Self::defaults();
        table.memory_mib = memory_limit(dir)?;
        let path = dir.join("languages.yaml");
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Ok(table);
        };
        let shown = path.display();
        let map: BTreeMap<String, BTreeMap<String, yaml_serde::Value>> =
            yaml_serde::from_str(&text).map_err(|e| format!("{shown}: {e}"))?;
        for (id, keys) in map {
            let at = table.langs.iter().position(|l| l.id == id);
            let mut lang = at.map_or_else(
                || Language {
                    id: id.clone(),
                    name: id.clone(),
                    priority: 0,
                    files: Vec::new(),
                    compile: None,
                    run: String::new(),
                },
                |i| table.langs[i].clone(),
            );
            for (key, v) in keys {
                let text = v.as_str().map(str::to_owned).unwrap_or_default();
                match key.as_str() {
                    "name" => lang.name = text,
                    "files" => lang.files = text.split_whitespace().map(str::to_owned).collect(),
                    "compile" => lang.compile = (!text.is_empty()).then_some(text),
                    "run" => lang.run = text,
                    "priority" => {
                        lang.priority = v.as_i64().ok_or_else(|| {
                            format!("{shown}: {id}: `priority` is a whole number")
                        })?;
                    }
                    other => {
                        return Err(format!(
                            "{shown}: {id}: no key `{other}` (name, priority, files, compile, run)"
                        ));
                    }
                }
            }
            if lang.run.is_empty() || lang.files.is_empty() {
                return Err(format!("{shown}: {id}: needs `files` and `run`"));
            }
            match at {
                Some(i) => table.langs[i] = lang,
                None => table.langs.push(lang),
            }
        }
        Ok(table)
    }

    /// The language of a submission made of `files` (names or relative
    /// paths), as problemtools detects it: the one with the most source
    /// files among them, a tie going to the higher priority; `None` when
    /// no file is a source of any.
    pub fn detect(&self, files: &[String]) -> Option<&Language> {
        self.langs
            .iter()
            .map(|l| (files.iter().filter(|f| l.matches(f)).count(), l))
            .filter(|(n, _)| *n > 0)
            .max_by_key(|(n, l)| (*n, l.priority))
            .map(|(_, l)| l)
    }

    /// Every pattern the table knows (`*.c *.cc …`), for a message.
    pub fn patterns(&self) -> String {
        self.langs
            .iter()
            .map(|l| l.files.join(" "))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The heap a runtime is given (`{memlim}`, MiB): the package's memory
    /// limit, but at most a quarter of the containment's memory bound
    /// (`--max-memory`), so that a JVM's heap, class space, code cache and
    /// thread stacks together start within it; at least 16.
    pub fn memlim(&self) -> u64 {
        let bound = conformance_sandbox::policy::get().bounds.memory >> 20;
        self.memory_mib.min(bound / 4).max(16)
    }

    /// The lines of `lang` for a submission of `files` (names), the
    /// placeholders filled, run in the program's folder (`{path}` is `.`):
    /// `(compile, run)`. `main_class` is the class found holding `main`.
    pub fn lines(
        &self,
        lang: &Language,
        files: &[String],
        main_class: Option<&str>,
    ) -> (Option<String>, String) {
        let filled = Filled::new(self, lang, files, main_class);
        (
            lang.compile.as_deref().map(|l| filled.fill(l, ".")),
            filled.fill(&lang.run, "."),
        )
    }
}

/// What a submission's placeholders stand for.
#[derive(Debug, Clone)]
pub struct Filled {
    /// Its source files of the language, shell-quoted, in name order.
    pub files: Vec<String>,
    /// The main file (one named `main.*`, else the first), unquoted.
    pub main: String,
    /// The class a JVM starts.
    pub class: String,
    /// `{memlim}`.
    pub memlim: u64,
}

impl Filled {
    /// The placeholders of `lang` for `files`.
    pub fn new(table: &Table, lang: &Language, files: &[String], main_class: Option<&str>) -> Self {
        let mut sources: Vec<&String> = files.iter().filter(|f| lang.matches(f)).collect();
        sources.sort();
        // problemtools: the only file, else one named main, else the
        // first by name.
        let main = sources
            .iter()
            .find(|f| {
                f.rsplit('/')
                    .next()
                    .and_then(|n| n.split('.').next())
                    .is_some_and(|s| s.eq_ignore_ascii_case("main"))
            })
            .or_else(|| sources.first())
            .map_or(String::new(), |f| (*f).clone());
        let stem = main.rsplit('/').next().unwrap_or(&main);
        let class = main_class.map_or_else(
            || stem.rsplit_once('.').map_or(stem, |(s, _)| s).to_owned(),
            str::to_owned,
        );
        Self {
            files: sources
                .iter()
                .map(|f| crate::bytes::quote::shell_quote(f))
                .collect(),
            main,
            class,
            memlim: table.memlim(),
        }
    }

    /// `line` with its placeholders filled, `{path}` standing for `path`
    /// (a shell word, as written).
    pub fn fill(&self, line: &str, path: &str) -> String {
        let in_path = |f: &str| {
            if path == "." {
                crate::bytes::quote::shell_quote(f)
            } else {
                format!("{path}/{}", crate::bytes::quote::shell_quote(f))
            }
        };
        line.replace("{files}", &self.files.join(" "))
            .replace("{mainfile}", &in_path(&self.main))
            .replace("{mainclass}", &self.class)
            .replace("{Mainclass}", &capitalised(&self.class))
            .replace("{binary}", &in_path("prog"))
            .replace("{path}", path)
            .replace("{memlim}", &self.memlim.to_string())
    }
}

/// `limits.memory` (MiB) of the `problem.yaml` in `dir`, else
/// [`DEFAULT_MEMORY_MIB`].
fn memory_limit(dir: &Path) -> Result<u64, String> {
    let path = dir.join("problem.yaml");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(DEFAULT_MEMORY_MIB);
    };
    let config: yaml_serde::Value = yaml_serde::from_str(&text).unwrap_or(yaml_serde::Value::Null);
    match config.get("limits").and_then(|l| l.get("memory")) {
        None => Ok(DEFAULT_MEMORY_MIB),
        Some(v) => v
            .as_f64()
            .filter(|m| m.is_finite() && *m >= 1.0)
            .map(whole_mib)
            .ok_or_else(|| {
                format!(
                    "{}: limits.memory: a number of MiB, not `{}`",
                    path.display(),
                    yaml_serde::to_string(v).unwrap_or_default().trim()
                )
            }),
    }
}

/// A memory limit of at least one MiB as whole MiB.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "clamped to 1..=1e9 first"
)]
fn whole_mib(m: f64) -> u64 {
    m.round().clamp(1.0, 1e9) as u64
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

#[cfg(test)]
#[path = "languages_tests.rs"]
mod tests;
