//! A problem package's part of `gradescope-autograder`'s `setup.sh`: the
//! Debian packages of the languages its jury's programs (submissions,
//! validators) are written in, installed where missing, and the package
//! read once in the image.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use crate::packs::problem::languages::Table;
use crate::packs::problem::package::Problem;

/// The Debian/Ubuntu package that brings a language's tool, for the
/// tools a Gradescope image (Ubuntu) lacks; C and C++ come with
/// `build-essential`, which every autograder installs.
const TOOL_PACKAGES: [(&str, &str); 11] = [
    ("javac", "default-jdk-headless"),
    ("java", "default-jdk-headless"),
    ("kotlinc", "kotlin"),
    ("kotlin", "kotlin"),
    ("python3", "python3"),
    ("pypy3", "pypy3"),
    ("node", "nodejs"),
    ("mcs", "mono-mcs"),
    ("go", "golang-go"),
    ("rustc", "rustc"),
    ("ruby", "ruby"),
];

/// The tools (first words of compile and run lines) of every language a
/// file of the problem package at `spec` is written in, outside its
/// test data and statement: its jury submissions and validators.
pub(super) fn package_tools(spec: &Path) -> Result<BTreeSet<String>, String> {
    let problem = Problem::load(spec)?;
    let table = Table::for_package(&problem.dir)?;
    let mut tools = BTreeSet::new();
    for entry in walkdir::WalkDir::new(&problem.dir)
        .min_depth(1)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() > 1
                || !matches!(
                    e.file_name().to_str(),
                    Some("data" | "problem_statement" | "statement" | ".git")
                )
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(lang) = table.detect(&[name]) {
            tools.extend(lang.tools());
        }
    }
    Ok(tools)
}

/// `setup.sh`'s last lines for a problem package: the packages its
/// languages' `tools` need, installed where missing (a tool no package
/// is known for is named for the lecturer to add), then the package
/// read and its validators built once in the image, so that a package
/// that cannot load fails the image's build, not a student's submission.
pub(super) fn prepare_package(program: &str, name: &str, tools: &BTreeSet<String>) -> String {
    let mut wanted: BTreeSet<&str> = BTreeSet::new();
    let mut unknown = Vec::new();
    for tool in tools {
        match TOOL_PACKAGES.iter().find(|(t, _)| t == tool) {
            Some((_, package)) => {
                wanted.insert(package);
            }
            None if ["gcc", "g++", "cc", "c++", "make", "bash", "sh"].contains(&tool.as_str()) => {}
            None => unknown.push(tool.as_str()),
        }
    }
    let checks: Vec<String> = tools
        .iter()
        .filter(|t| TOOL_PACKAGES.iter().any(|(k, _)| k == t))
        .map(|t| format!("command -v {t} >/dev/null"))
        .collect();
    let mut text = format!(
        "# The languages of the package's own programs (its submissions and validators);\n\
         # students who may hand in another language need its compiler: add its Debian\n\
         # package here (docs/problem-packages.md).\n\
         packages=\"{}\"\n",
        wanted.into_iter().collect::<Vec<_>>().join(" ")
    );
    for tool in unknown {
        let _ = writeln!(
            text,
            "# `{tool}` (a line of the package's language table) is not installed by this \
             script: add it."
        );
    }
    if !checks.is_empty() {
        let _ = write!(
            text,
            "if ! {{ {}; }}; then\n\
             \x20   apt-get update\n\
             \x20   DEBIAN_FRONTEND=noninteractive apt-get install -y $packages\n\
             fi\n",
            checks.join(" && ")
        );
    }
    let _ = writeln!(
        text,
        "\"$prefix/bin/{program}\" list --spec \"$here/{name}\" > /dev/null"
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packages_languages_become_debian_packages_and_an_unknown_tool_is_named() {
        let tools: BTreeSet<String> = ["javac", "java", "python3", "gcc", "ocaml"]
            .into_iter()
            .map(str::to_owned)
            .collect();
        let text = prepare_package("h", "hello.zip", &tools);
        assert!(
            text.contains("packages=\"default-jdk-headless python3\"\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "if ! { command -v java >/dev/null && command -v javac >/dev/null && command \
                 -v python3 >/dev/null; }; then"
            ),
            "{text}"
        );
        assert!(text.contains("`ocaml`"), "{text}");
        assert!(!text.contains("`gcc`"), "{text}");
        assert!(text.ends_with("list --spec \"$here/hello.zip\" > /dev/null\n"));
    }
}
