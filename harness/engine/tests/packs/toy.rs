//! A second, tiny spec pack run through the real engine: `shout` prints
//! its arguments in capitals (TOY-1) and, given none, a usage line on
//! stderr with exit 1 (TOY-2). Two cases, a trivial explorer, and the
//! engine's whole path: suite run, failure, `--results`, `diff` with
//! shrinking and case writing, and the written case run again. It proves
//! the engine works for a pack it has never heard of.

use crate::common;

use std::ffi::OsString;
use std::io::Write as _;
use std::process::ExitCode;

use conformance_engine::diff::DynExplorer;
use conformance_engine::diff::explore::{Classification, Explorer, Label, Probe};
use conformance_engine::pack::{EmbeddedSuite, Pack};
use conformance_engine::{App, Defaults};

static SUITE: EmbeddedSuite = EmbeddedSuite {
    files: &[
        (
            "rules.yaml",
            b"rules:\n  - {id: TOY-1, summary: arguments in capitals, ambiguous: no}\n  \
              - {id: TOY-2, summary: no argument is a usage error, ambiguous: no}\n",
        ),
        (
            "shout/two-words.yaml",
            b"summary: two words are shouted\ncategory: shout\nrules: [TOY-1]\n\
              args: [hello, there]\nstatus: 0\nstdout: \"HELLO THERE\\n\"\n",
        ),
        (
            "suite.yaml",
            b"name: toy\nversion: \"1\"\ncategories:\n  - {name: shout, marks: 3}\n  \
              - {name: usage, marks: 1}\n",
        ),
        (
            "usage/no-args.yaml",
            b"summary: no argument\ncategory: usage\nrules: [TOY-2]\nargs: []\nstatus: 1\n\
              stderr: \"usage: shout WORD...\\n\"\n",
        ),
    ],
    source_dir: "/nonexistent/toy-cases",
    display: "toy-cases",
    at_run_time: false,
    in_pack: "",
};

struct Toy;

struct ToyExplorer;

impl Pack for Toy {
    fn name(&self) -> &'static str {
        "toy"
    }
    fn suite(&self) -> &'static EmbeddedSuite {
        &SUITE
    }
    fn rule_ids(&self) -> Vec<&'static str> {
        vec!["TOY-1", "TOY-2"]
    }
    fn reference_main(&self, args: Vec<OsString>) -> ExitCode {
        let words: Vec<String> = args
            .iter()
            .skip(1)
            .map(|a| a.to_string_lossy().to_uppercase())
            .collect();
        if words.is_empty() {
            eprintln!("usage: shout WORD...");
            return ExitCode::from(1);
        }
        let _ = writeln!(std::io::stdout(), "{}", words.join(" "));
        ExitCode::SUCCESS
    }
    fn explorer(&self) -> Option<&dyn DynExplorer> {
        Some(&ToyExplorer)
    }
}

impl Explorer for ToyExplorer {
    type Session = Vec<String>;

    fn generate(&self, seed: u64, index: u64, _ambiguous: bool) -> Vec<String> {
        let n = (seed.wrapping_add(index) % 4) as usize;
        (0..n).map(|i| format!("w{i}x{index}")).collect()
    }
    fn probe(&self, session: &Vec<String>) -> Probe {
        Probe {
            args: session.clone(),
            ..Probe::default()
        }
    }
    fn shrink(&self, session: &Vec<String>) -> Vec<Vec<String>> {
        (0..session.len())
            .map(|i| {
                let mut s = session.clone();
                s.remove(i);
                s
            })
            .collect()
    }
    fn classify(&self, session: &Vec<String>, _status: u8) -> Classification {
        let (category, rule) = if session.is_empty() {
            ("usage", "TOY-2")
        } else {
            ("shout", "TOY-1")
        };
        Classification {
            category: category.to_owned(),
            rules: [rule.to_owned()].into(),
        }
    }
    fn labels(&self, _session: &Vec<String>) -> Vec<Label> {
        Vec::new()
    }
}

static TOY: Toy = Toy;
pub static PACKS: &[&dyn Pack] = &[&TOY];

fn app() -> App<'static> {
    App {
        program: "toy-engine",
        packs: PACKS,
    }
}

fn run(words: &[&str]) -> ExitCode {
    let mut argv: Vec<OsString> = vec!["toy-engine".into()];
    argv.extend(words.iter().map(OsString::from));
    common::quietly(|| conformance_engine::main_with_args(&app(), argv, Defaults::default()))
}

/// A wrong `shout`: it does not capitalize.
fn wrong_program(dir: &std::path::Path) -> String {
    use std::os::unix::fs::PermissionsExt as _;
    let path = dir.join("shout");
    std::fs::write(
        &path,
        "#!/bin/sh\nif [ $# -eq 0 ]; then echo 'usage: shout WORD...' >&2; exit 1; fi\necho \"$@\"\n",
    )
    .unwrap_or_default();
    let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755));
    path.display().to_string()
}

fn check(what: &str, ok: bool, failures: &mut Vec<String>) {
    common::check("toy", what, ok, failures);
}

/// Runs the pack's checks (the binary's `main` runs each pack's in turn).
pub fn checks() -> ExitCode {
    let Ok(dir) = tempfile::tempdir() else {
        return ExitCode::FAILURE;
    };
    let mut failures = Vec::new();
    let wrong = wrong_program(dir.path());
    let results = dir.path().join("results.json");
    let results_arg = results.display().to_string();

    check(
        "the reference passes its suite",
        run(&["--spec", "toy", "--results", &results_arg]) == ExitCode::from(0),
        &mut failures,
    );
    let doc = std::fs::read_to_string(&results).unwrap_or_default();
    check(
        "the results name the pack and both cases",
        doc.contains("\"spec\": \"toy\"")
            && doc.contains("shout/two-words")
            && doc.contains("usage/no-args"),
        &mut failures,
    );
    check(
        "a wrong program fails (default pack, NAME_BIN-free)",
        run(&["--bin", &wrong]) == ExitCode::from(1),
        &mut failures,
    );
    check(
        "an unknown pack is a usage error",
        run(&["--spec", "nope"]) == ExitCode::from(2),
        &mut failures,
    );
    let out = dir.path().join("found");
    let out_arg = out.display().to_string();
    check(
        "diff finds the mismatch",
        run(&[
            "diff",
            "--spec",
            "toy",
            "--bin",
            &wrong,
            "--sessions",
            "12",
            "--seed",
            "1",
            "--jobs",
            "1",
            "--out",
            &out_arg,
        ]) == ExitCode::from(1),
        &mut failures,
    );
    let written: Vec<_> = std::fs::read_dir(out.join("shout"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    let case = written
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "yaml"));
    let text = case
        .and_then(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_default();
    check(
        "diff wrote a shrunk case in the pack's category",
        text.contains("category: shout")
            && text.contains("rules: [TOY-1]")
            && text
                .lines()
                .any(|l| l.starts_with("args: [w") && !l.contains(',')),
        &mut failures,
    );
    let case_arg = case.map(|p| p.display().to_string()).unwrap_or_default();
    check(
        "the written case passes on the reference",
        run(&["--cases", &case_arg]) == ExitCode::from(0),
        &mut failures,
    );
    check(
        "and fails on the wrong program",
        run(&["--cases", &case_arg, "--bin", &wrong]) == ExitCode::from(1),
        &mut failures,
    );
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("toy pack: failed: {}", failures.join("; "));
        ExitCode::FAILURE
    }
}
