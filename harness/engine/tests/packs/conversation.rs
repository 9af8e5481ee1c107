//! A tiny pack whose cases are conversations: its driver sends the
//! script's `say` line to the program and expects `expect` back (TALK-1).
//! Proves the engine's conversation hook end to end for a pack it has
//! never heard of: `--bin` as a command line, a failure rendered with the
//! request, the answer, the rule and the re-run command, `--results` with
//! an `exchange` difference, a bad script as an error (never the program's
//! fault), and a script case in a pack without a driver as an error.

use crate::common;

use std::ffi::OsString;
use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;

use conformance_engine::driver::{CaseDriver, Conversation, DriveSettings, Exchange};
use conformance_engine::pack::{EmbeddedSuite, Pack};
use conformance_engine::run::Target;
use conformance_engine::{App, Defaults};

static SUITE: EmbeddedSuite = EmbeddedSuite {
    files: &[
        (
            "rules.yaml",
            b"rules:\n  - {id: TALK-1, summary: the line comes back in capitals, ambiguous: no}\n",
        ),
        (
            "suite.yaml",
            b"name: talk\ncategories:\n  - {name: talk, marks: 2}\n",
        ),
        (
            "talk/hello.yaml",
            b"summary: hello comes back\ncategory: talk\nrules: [TALK-1]\n\
              script: {say: hello, expect: HELLO}\n",
        ),
    ],
    source_dir: "/nonexistent/talk-cases",
    display: "talk-cases",
    at_run_time: false,
    in_pack: "",
};

struct Talk {
    with_driver: bool,
}

struct TalkDriver;

impl Pack for Talk {
    fn name(&self) -> &'static str {
        if self.with_driver { "talk" } else { "mute" }
    }
    fn suite(&self) -> &'static EmbeddedSuite {
        &SUITE
    }
    fn rule_ids(&self) -> Vec<&'static str> {
        vec!["TALK-1"]
    }
    fn reference_main(&self, _args: Vec<OsString>) -> ExitCode {
        let mut line = String::new();
        let _ = std::io::stdin().read_line(&mut line);
        print!("{}", line.to_uppercase());
        ExitCode::SUCCESS
    }
    fn driver(&self) -> Option<Arc<dyn CaseDriver>> {
        self.with_driver
            .then(|| Arc::new(TalkDriver) as Arc<dyn CaseDriver>)
    }
    fn bin_is_command(&self) -> bool {
        true
    }
}

fn field<'a>(script: &'a serde_json::Value, key: &str) -> Result<&'a str, String> {
    script[key]
        .as_str()
        .ok_or_else(|| format!("`{key}` must be a string"))
}

impl CaseDriver for TalkDriver {
    fn check(&self, script: &serde_json::Value) -> Result<(), String> {
        field(script, "say")
            .and(field(script, "expect"))
            .map(|_| ())
    }

    fn drive(
        &self,
        script: &serde_json::Value,
        program: &Target,
        _settings: DriveSettings,
    ) -> Result<Conversation, String> {
        let request = format!("{}\n", field(script, "say")?).into_bytes();
        let expect = format!("{}\n", field(script, "expect")?).into_bytes();
        let mut cmd = Command::new(program.path());
        cmd.args(program.words())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        if let Some((k, v)) = program.reference_env() {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().map_err(|e| e.to_string())?;
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(&request);
        }
        let mut answer = Vec::new();
        if let Some(out) = child.stdout.take() {
            let _ = BufReader::new(out).read_until(b'\n', &mut answer);
        }
        let _ = child.kill();
        let _ = child.wait();
        let exchanges = if answer == expect {
            Vec::new()
        } else {
            vec![Exchange {
                rule: "TALK-1".to_owned(),
                message: "not the line in capitals".to_owned(),
                number: 1,
                request,
                answer,
            }]
        };
        Ok(Conversation {
            exchanges,
            reproduce: "echo hello | PROGRAM".to_owned(),
            ending: "one request".to_owned(),
            no_start: None,
            score: None,
        })
    }
}

static TALK: Talk = Talk { with_driver: true };
static MUTE: Talk = Talk { with_driver: false };
pub static PACKS: &[&dyn Pack] = &[&TALK, &MUTE];

fn run(words: &[&str]) -> ExitCode {
    let mut argv: Vec<OsString> = vec!["talk-engine".into()];
    argv.extend(words.iter().map(OsString::from));
    let app = App {
        program: "talk-engine",
        packs: PACKS,
    };
    common::quietly(|| conformance_engine::main_with_args(&app, argv, Defaults::default()))
}

fn check(what: &str, ok: bool, failures: &mut Vec<String>) {
    common::check("conversation", what, ok, failures);
}

/// Runs the pack's checks (the binary's `main` runs each pack's in turn).
pub fn checks() -> ExitCode {
    let Ok(dir) = tempfile::tempdir() else {
        return ExitCode::FAILURE;
    };
    let mut failures = Vec::new();
    let results = dir.path().join("results.json");
    let results_arg = results.display().to_string();
    check(
        "the reference passes its conversation",
        run(&["--spec", "talk"]) == ExitCode::from(0),
        &mut failures,
    );
    check(
        "a command line with arguments passes (tr a-z A-Z)",
        run(&["--spec", "talk", "--bin", "tr a-z A-Z"]) == ExitCode::from(0),
        &mut failures,
    );
    check(
        "a wrong program fails (cat echoes)",
        run(&["--spec", "talk", "--bin", "cat", "--results", &results_arg]) == ExitCode::from(1),
        &mut failures,
    );
    let doc: serde_json::Value = std::fs::read_to_string(&results)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let diff = &doc["cases"][0]["differences"][0];
    check(
        "the results carry the exchange: rule, request, answer",
        diff["part"] == "exchange"
            && diff["rule"] == "TALK-1"
            && diff["request"] == "hello\\n"
            && diff["actual"] == "hello\\n"
            && diff["request_number"] == 1,
        &mut failures,
    );
    let bad = dir.path().join("talk");
    let _ = std::fs::create_dir_all(&bad);
    let _ = std::fs::write(
        bad.join("bad.yaml"),
        "summary: s\ncategory: talk\nrules: [TALK-1]\nscript: {say: 3}\n",
    );
    let _ = std::fs::write(
        dir.path().join("suite.yaml"),
        "name: talk\ncategories:\n  - {name: talk, marks: 2}\n",
    );
    let bad_arg = bad.join("bad.yaml").display().to_string();
    check(
        "a script the driver refuses is an error, not a failure",
        run(&["--spec", "talk", "--cases", &bad_arg]) == ExitCode::from(2),
        &mut failures,
    );
    check(
        "a script case in a pack without a driver is an error",
        run(&["--spec", "mute"]) == ExitCode::from(2),
        &mut failures,
    );
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        println!("failed: {}", failures.join("; "));
        ExitCode::FAILURE
    }
}
