//! Which language a submission is written in, chosen by its files'
//! extensions as problemtools' `languages.yaml` chooses, and how it is
//! compiled and run: a default table (C, C++, Java, Kotlin, Python 3,
//! JavaScript, Rust, Go, C#, Ruby, shell), which a package's own
//! `languages.yaml` overrides language by language (`LANG: {name, files,
//! compile, run}`, the same keys). In a line, `{files}` is the
//! submission's source files, `{mainfile}` its main file, `{mainclass}`
//! that file's name without extension, `{binary}` the program a compile
//! leaves (`prog`).

use std::collections::BTreeMap;
use std::path::Path;

/// One language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Language {
    /// Its ID (`cpp`).
    pub id: String,
    /// How people name it (`C++`).
    pub name: String,
    /// File name patterns (`*.cc *.cpp`): `*.EXT` only.
    pub files: Vec<String>,
    /// The compile line, if compiled.
    pub compile: Option<String>,
    /// The run line.
    pub run: String,
}

impl Language {
    fn matches(&self, file: &str) -> bool {
        self.files.iter().any(|p| {
            p.strip_prefix('*')
                .is_some_and(|ext| file.len() > ext.len() && file.ends_with(ext))
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
}

/// `(id, name, files, compile, run)` of the default table.
const DEFAULTS: [(&str, &str, &str, &str, &str); 11] = [
    (
        "c",
        "C",
        "*.c",
        "gcc -g -O2 -std=gnu11 -o {binary} {files} -lm",
        "./{binary}",
    ),
    (
        "cpp",
        "C++",
        "*.cc *.cpp *.cxx *.c++ *.C",
        "g++ -g -O2 -std=gnu++17 -o {binary} {files}",
        "./{binary}",
    ),
    (
        "java",
        "Java",
        "*.java",
        "javac -encoding UTF-8 {files}",
        "java -Xmx256m -Xss64m -XX:+UseSerialGC -cp . {mainclass}",
    ),
    (
        "kotlin",
        "Kotlin",
        "*.kt",
        "kotlinc -d . {files}",
        "kotlin -cp . {mainclass}Kt",
    ),
    (
        "python3",
        "Python 3",
        "*.py *.py3",
        "",
        "python3 {mainfile}",
    ),
    ("javascript", "JavaScript", "*.js", "", "node {mainfile}"),
    (
        "rust",
        "Rust",
        "*.rs",
        "rustc -O --edition 2021 -o {binary} {mainfile}",
        "./{binary}",
    ),
    (
        "go",
        "Go",
        "*.go",
        "go build -o {binary} {files}",
        "./{binary}",
    ),
    (
        "csharp",
        "C#",
        "*.cs",
        "mcs -out:{binary}.exe {files}",
        "mono {binary}.exe",
    ),
    ("ruby", "Ruby", "*.rb", "", "ruby {mainfile}"),
    ("bash", "Bash", "*.sh", "", "bash {mainfile}"),
];

/// The language table: the defaults with a package's overrides.
#[derive(Debug, Clone)]
pub struct Table(Vec<Language>);

impl Table {
    /// The default table.
    pub fn defaults() -> Self {
        Self(
            DEFAULTS
                .iter()
                .map(|(id, name, files, compile, run)| Language {
                    id: (*id).to_owned(),
                    name: (*name).to_owned(),
                    files: files.split_whitespace().map(str::to_owned).collect(),
                    compile: (!compile.is_empty()).then(|| (*compile).to_owned()),
                    run: (*run).to_owned(),
                })
                .collect(),
        )
    }

    /// The defaults overridden by `languages.yaml` in `dir`, if it holds one.
    pub fn for_package(dir: &Path) -> Result<Self, String> {
        let mut table = Self::defaults();
        let path = dir.join("languages.yaml");
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Ok(table);
        };
        let shown = path.display();
        let map: BTreeMap<String, BTreeMap<String, yaml_serde::Value>> =
            yaml_serde::from_str(&text).map_err(|e| format!("{shown}: {e}"))?;
        for (id, keys) in map {
            let at = table.0.iter().position(|l| l.id == id);
            let mut lang = at.map_or_else(
                || Language {
                    id: id.clone(),
                    name: id.clone(),
                    files: Vec::new(),
                    compile: None,
                    run: String::new(),
                },
                |i| table.0[i].clone(),
            );
            for (key, v) in keys {
                let text = v.as_str().map(str::to_owned).unwrap_or_default();
                match key.as_str() {
                    "name" => lang.name = text,
                    "files" => lang.files = text.split_whitespace().map(str::to_owned).collect(),
                    "compile" => lang.compile = (!text.is_empty()).then_some(text),
                    "run" => lang.run = text,
                    "priority" => {}
                    other => {
                        return Err(format!(
                            "{shown}: {id}: no key `{other}` (name, files, compile, run)"
                        ));
                    }
                }
            }
            if lang.run.is_empty() || lang.files.is_empty() {
                return Err(format!("{shown}: {id}: needs `files` and `run`"));
            }
            match at {
                Some(i) => table.0[i] = lang,
                None => table.0.push(lang),
            }
        }
        Ok(table)
    }

    /// The language of a submission made of `files` (names): the one its
    /// files' extensions name; `None` when none does, or two do.
    pub fn detect(&self, files: &[String]) -> Option<&Language> {
        let mut found: Option<&Language> = None;
        for f in files {
            if let Some(lang) = self.0.iter().find(|l| l.matches(f)) {
                match found {
                    Some(other) if other.id != lang.id => return None,
                    _ => found = Some(lang),
                }
            }
        }
        found
    }
}

/// The program [`build_script`] leaves at the top of a submission.
pub const BUILT_PROGRAM: &str = "solution";

/// An `sh` script that builds a student's submission as the table says,
/// leaving one program, `solution` (`mark` keeps that file alone): the
/// first language (in the table's order) with a source file at the top
/// of the submission decides. A compiled language whose run line is
/// `./{binary}` is compiled to `solution`; an interpreted one run as
/// `INTERPRETER {mainfile}` becomes its main file behind a `#!/usr/bin/env
/// INTERPRETER` line (Python, JavaScript, Ruby and shell read a first
/// `#!` line as a comment); any other (Java, Kotlin, C#: a folder of
/// classes) fails the build saying so, as does a submission of no known
/// language, naming the extensions looked for.
pub fn build_script(table: &Table) -> String {
    let mut out = vec!["set -e\n".to_owned()];
    let mut looked = Vec::new();
    for lang in &table.0 {
        let globs = lang.files.join(" ");
        looked.push(globs.clone());
        out.push(format!(
            "files=$(ls -d {globs} 2>/dev/null | tr '\\n' ' ')\nif [ -n \"$files\" ]; then\n  \
             main=$(ls -d {globs} 2>/dev/null | grep -i '^main\\.' | head -n 1)\n  \
             [ -n \"$main\" ] || main=${{files%% *}}\n  class=${{main%.*}}\n"
        ));
        let words: Vec<&str> = lang.run.split_whitespace().collect();
        match (&lang.compile, words.as_slice()) {
            (Some(compile), ["./{binary}"]) => {
                let line = compile
                    .replace("{files}", "$files")
                    .replace("{mainfile}", "$main")
                    .replace("{mainclass}", "$class")
                    .replace("{binary}", BUILT_PROGRAM);
                out.push(format!("  {line}\n"));
            }
            (None, [interpreter, "{mainfile}"]) if !interpreter.contains('\'') => {
                out.push(format!(
                    "  {{ printf '#!/usr/bin/env {interpreter}\\n'; cat \"$main\"; }} > \
                     {BUILT_PROGRAM}\n  chmod +x {BUILT_PROGRAM}\n"
                ));
            }
            _ => out.push(format!(
                "  echo 'a {} submission cannot be marked yet: mark keeps one program file' >&2\n  \
                 exit 1\n",
                lang.name.replace('\'', "")
            )),
        }
        out.push("  exit 0\nfi\n".to_owned());
    }
    out.push(format!(
        "echo 'no source file of a language this package knows at the top of the submission \
         (looked for {})' >&2\nexit 1\n",
        looked.join(" ")
    ));
    out.concat()
}

/// The lines of `lang` for a submission of `files` (names), the placeholders
/// filled: `(compile, run)`.
pub fn lines(lang: &Language, files: &[String]) -> (Option<String>, String) {
    let sources: Vec<&String> = files.iter().filter(|f| lang.matches(f)).collect();
    // The main file: one named main, else the first, as problemtools picks.
    let main = sources
        .iter()
        .find(|f| {
            f.split('.')
                .next()
                .is_some_and(|s| s.eq_ignore_ascii_case("main"))
        })
        .or_else(|| sources.first())
        .map_or(String::new(), |f| (*f).clone());
    let class = main
        .rsplit_once('.')
        .map_or(main.as_str(), |(s, _)| s)
        .to_owned();
    let fill = |line: &str| {
        line.replace(
            "{files}",
            &sources
                .iter()
                .map(|f| f.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        )
        .replace("{mainfile}", &main)
        .replace("{mainclass}", &class)
        .replace("{Mainclass}", &capitalised(&class))
        .replace("{binary}", "prog")
    };
    (lang.compile.as_deref().map(fill), fill(&lang.run))
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// Whether `program` is found on `PATH`.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|d| {
            let p = d.join(program);
            p.is_file()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn extensions_pick_the_language_and_fill_its_lines() {
        let t = Table::defaults();
        let java = t.detect(&names(&["Hello.java"])).expect("java");
        assert_eq!(java.name, "Java");
        let (compile, run) = lines(java, &names(&["Hello.java"]));
        assert_eq!(compile.as_deref(), Some("javac -encoding UTF-8 Hello.java"));
        assert_eq!(run, "java -Xmx256m -Xss64m -XX:+UseSerialGC -cp . Hello");
        let py = t.detect(&names(&["util.py", "main.py"])).expect("python");
        assert_eq!(
            lines(py, &names(&["util.py", "main.py"])).1,
            "python3 main.py"
        );
        assert_eq!(
            t.detect(&names(&["a.cc"])).map(|l| l.id.as_str()),
            Some("cpp")
        );
        assert!(t.detect(&names(&["a.c", "b.py"])).is_none());
        assert!(t.detect(&names(&["README"])).is_none());
        assert_eq!(java.tools(), ["javac", "java"]);
    }

    #[test]
    fn a_package_overrides_a_language() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::write(
            dir.path().join("languages.yaml"),
            "python3:\n  run: pypy3 {mainfile}\nlua:\n  name: Lua\n  files: \"*.lua\"\n  run: lua {mainfile}\n",
        )
        .expect("write");
        let t = Table::for_package(dir.path()).expect("table");
        let py = t.detect(&names(&["a.py"])).expect("python");
        assert_eq!(lines(py, &names(&["a.py"])).1, "pypy3 a.py");
        assert_eq!(
            t.detect(&names(&["x.lua"])).map(|l| l.name.as_str()),
            Some("Lua")
        );
        std::fs::write(dir.path().join("languages.yaml"), "c:\n  compiler: cc\n").expect("write");
        assert!(
            Table::for_package(dir.path())
                .unwrap_err()
                .contains("compiler")
        );
    }
}
