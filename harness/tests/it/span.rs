//! The span protocol from other languages (`span/conformance_span.h`,
//! `span/conformance_span.py`, docs/span-protocol.md): a small C model and
//! its Python twin (`tests/fixtures/span/`) write, under
//! `CONFORMANCE_PROVENANCE`, the very record `reference_kit::trace` renders
//! for the same spans and rulings, whether they leave by `exit` or by the
//! end of `main`; untraced they write no record and the same stdout bytes.
//! A model's own exit handlers still count. Every pack folder's copy of the
//! header and module equals `span/`'s. The Java class
//! (`span/ConformanceSpan.java`) writes the same record too (an ignored
//! test: a JVM start costs too much for the suite's budget). Both helpers' asides (a file
//! saved, a stderr message) read back as the kit's.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use reference_kit::trace::{Record, Ruling, Span, Verdict, parse_record, render};

const ENV: &str = reference_kit::trace::ENV;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root")
        .to_path_buf()
}

/// A temporary folder holding the fixtures and the protocol's files.
fn workdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temp dir");
    for from in [
        root().join("span"),
        root().join("harness/tests/fixtures/span"),
    ] {
        for entry in std::fs::read_dir(&from).expect("the fixture folder") {
            let path = entry.expect("an entry").path();
            let name = path.file_name().expect("a file name");
            std::fs::copy(&path, dir.path().join(name)).expect("a copy");
        }
    }
    dir
}

/// Compiles `sources` in `dir` to `dir/out` as strictly as a course would.
fn cc(dir: &Path, out: &str, sources: &[&str]) -> PathBuf {
    let status = Command::new("cc")
        .current_dir(dir)
        .args([
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-pedantic",
            "-Werror",
            "-o",
            out,
        ])
        .args(sources)
        .status()
        .expect("cc runs");
    assert!(status.success(), "cc failed on {sources:?}");
    dir.join(out)
}

/// Runs `program args` in `dir`, traced into `record` when given.
fn run(dir: &Path, program: &[&str], record: Option<&str>) -> Output {
    let mut cmd = Command::new(program[0]);
    cmd.current_dir(dir).args(&program[1..]).env_remove(ENV);
    if let Some(record) = record {
        cmd.env(ENV, record);
    }
    cmd.output().expect("the program runs")
}

fn rejected(at: u64, kind: &str, says: &str, line: &[u8], detail: &str) -> Ruling {
    Ruling {
        verdict: Verdict::Rejected,
        at,
        rule: "MOVE-2".to_owned(),
        kind: kind.to_owned(),
        says: says.to_owned(),
        detail: detail.to_owned(),
        line: line.to_vec(),
        exit_rule: String::new(),
    }
}

fn span(start: u64, end: u64, rules: &[&str], what: &str) -> Span {
    Span {
        start,
        end,
        rules: rules.iter().map(|r| (*r).to_owned()).collect(),
        what: what.to_owned(),
    }
}

/// What both demos record: the first 6 bytes before any span, merged
/// prompts, a 200-byte line kept to 120, tabs and newlines made spaces.
fn demo_record() -> Record {
    let board = ["DISP-1", "DISP-2"];
    Record {
        asides: Vec::new(),
        spans: vec![
            span(6, 21, &board, "the board"),
            span(21, 37, &["MOVE-1"], "the prompt"),
            span(37, 39, &board, "the board"),
        ],
        rulings: vec![
            rejected(
                29,
                "range",
                "a peg outside 1..3",
                b"4 1\tx",
                "MOVE-2 rejects it (peg 4)",
            ),
            rejected(29, "form", "not two pegs", &[b'z'; 120], "too long"),
            Ruling {
                verdict: Verdict::Stopped,
                at: 39,
                rule: "FILE-2".to_owned(),
                kind: "disc".to_owned(),
                says: "a disc not in 1..N".to_owned(),
                detail: "line 2 of the file".to_owned(),
                line: Vec::new(),
                exit_rule: "FILE-4".to_owned(),
            },
        ],
    }
}

const DEMO_STDOUT: &[u8] = b"hello\n+--+\n|..|\nx\nab\nMove 1> Move 1> B\n";

/// Runs a demo both ways it can end and checks its record, status and
/// stdout; then untraced: the same stdout and no record.
fn check_demo(dir: &Path, program: &[&str]) {
    for (how, status) in [("exit", 4), ("return", 0)] {
        let args: Vec<&str> = program.iter().copied().chain([how]).collect();
        let name = format!("record-{how}");
        let traced = run(dir, &args, Some(&name));
        assert_eq!(traced.status.code(), Some(status), "{program:?} {how}");
        assert_eq!(traced.stdout, DEMO_STDOUT, "{program:?} {how}");
        assert_eq!(traced.stderr, b"not counted\n");
        let text = std::fs::read_to_string(dir.join(&name)).expect("the record was written");
        assert_eq!(
            parse_record(&text),
            demo_record(),
            "{program:?} {how}:\n{text}"
        );
        assert_eq!(text, render(&demo_record()), "the Rust writer's very bytes");

        let before: Vec<_> = std::fs::read_dir(dir).expect("the dir").collect();
        let plain = run(dir, &args, None);
        assert_eq!(plain.stdout, traced.stdout, "untraced stdout is the same");
        assert_eq!(plain.status.code(), Some(status));
        let after: Vec<_> = std::fs::read_dir(dir).expect("the dir").collect();
        assert_eq!(before.len(), after.len(), "untraced, no file is written");
    }
}

#[test]
fn the_c_header_writes_the_kits_record_at_exit_and_at_return() {
    let dir = workdir();
    let demo = cc(dir.path(), "demo", &["span_demo.c"]);
    check_demo(dir.path(), &[demo.to_str().expect("a UTF-8 path")]);
}

#[test]
fn the_python_module_writes_the_kits_record_at_exit_and_at_the_end() {
    let dir = workdir();
    check_demo(dir.path(), &["python3", "span_demo.py"]);
}

/// javac and four JVM starts, each at the JVM's first JIT tier with the
/// serial collector (about half the CPU of a plain start: these runs are
/// short); SKIPPED, said, where no JDK is installed.
#[test]
fn the_java_class_writes_the_kits_record_at_exit_and_at_the_end() {
    if Command::new("javac").arg("-version").output().is_err() {
        println!("SKIPPED: no javac here: the Java span class is not checked");
        return;
    }
    let dir = workdir();
    let status = Command::new("javac")
        .current_dir(dir.path())
        .args([
            "-J-XX:TieredStopAtLevel=1",
            "-J-XX:+UseSerialGC",
            "-Xlint:all",
            "-Werror",
            "ConformanceSpan.java",
            "SpanDemo.java",
        ])
        .status()
        .expect("javac runs");
    assert!(status.success(), "javac failed");
    check_demo(
        dir.path(),
        &[
            "java",
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-cp",
            ".",
            "SpanDemo",
        ],
    );
}

#[test]
fn an_empty_variable_is_no_trace() {
    let dir = workdir();
    let demo = cc(dir.path(), "demo", &["span_demo.c"]);
    let out = Command::new(&demo)
        .current_dir(dir.path())
        .env(ENV, "")
        .output()
        .expect("the demo runs");
    assert_eq!(out.stdout, DEMO_STDOUT);
    let out = Command::new("python3")
        .current_dir(dir.path())
        .arg("span_demo.py")
        .env(ENV, "")
        .output()
        .expect("the demo runs");
    assert_eq!(out.stdout, DEMO_STDOUT);
}

/// Runs `program` traced in `dir`: its stdout and the spans it recorded.
fn traced_spans(dir: &Path, program: &[&str]) -> (Vec<u8>, Vec<Span>) {
    let out = run(dir, program, Some("rec"));
    assert!(out.status.success(), "{program:?}: {out:?}");
    let text = std::fs::read_to_string(dir.join("rec")).expect("the record");
    (out.stdout, parse_record(&text).spans)
}

#[test]
fn several_translation_units_share_one_record() {
    let dir = workdir();
    let two = cc(dir.path(), "two", &["span_two_main.c", "span_two_board.c"]);
    let (stdout, spans) = traced_spans(dir.path(), &[two.to_str().expect("a UTF-8 path")]);
    assert_eq!(stdout, b"> |..|\n");
    let board = span(2, 7, &["DISP-1"], "the board");
    assert_eq!(spans, vec![span(0, 2, &["MOVE-1"], "the prompt"), board]);
}

/// Every copy of a protocol file in a pack folder (`examples/*/model/`).
fn copies() -> Vec<(PathBuf, PathBuf)> {
    let mut found = Vec::new();
    let examples = root().join("examples");
    for pack in std::fs::read_dir(&examples).expect("examples/") {
        let model = pack.expect("an entry").path().join("model");
        for name in [
            "conformance_span.h",
            "conformance_span.py",
            "ConformanceSpan.java",
        ] {
            let copy = model.join(name);
            if copy.exists() {
                found.push((copy, root().join("span").join(name)));
            }
        }
    }
    found
}

#[test]
fn pack_folders_carry_exact_copies_of_the_protocol_files() {
    let copies = copies();
    assert!(
        copies
            .iter()
            .any(|(c, _)| c.ends_with("hanoi/model/conformance_span.h")),
        "the hanoi example carries the header: {copies:?}"
    );
    for (copy, original) in copies {
        assert!(
            std::fs::read(&copy).expect("the copy") == std::fs::read(&original).expect("span/"),
            "{} differs from {}: copy it again",
            copy.display(),
            original.display()
        );
    }
}

#[test]
fn output_of_the_models_own_exit_handlers_is_recorded() {
    let dir = workdir();
    let late = cc(dir.path(), "late", &["span_late.c"]);
    let (stdout, spans) = traced_spans(dir.path(), &[late.to_str().expect("a UTF-8 path")]);
    assert_eq!(stdout, b"hi\nbye\n");
    let bye = span(3, 7, &["END-9"], "at exit");
    assert_eq!(spans, vec![span(0, 3, &["A-1"], "main"), bye]);
}

#[test]
fn the_prompt_of_pythons_input_is_counted_at_a_terminal() {
    let dir = workdir();
    let (_, spans) = traced_spans(dir.path(), &["python3", "span_input.py"]);
    let answer = span(8, 16, &["DISP-1"], "the answer");
    assert_eq!(spans, vec![span(0, 8, &["MOVE-1"], "the prompt"), answer]);
}

#[test]
fn a_traced_python_stdout_is_still_the_real_stream() {
    let dir = workdir();
    let (stdout, spans) = traced_spans(dir.path(), &["python3", "span_stream.py"]);
    assert_eq!(stdout, b"a\nbc\nd\n");
    assert_eq!(spans, vec![span(0, 7, &["DISP-1"], "the lines")]);
}

/// The asides of the C header and the Python module (a file saved, a
/// stderr message, under a context) read back as the kit's: what blames a
/// program that never writes them on their rules.
#[test]
fn the_c_header_and_python_module_record_asides_the_kit_reads() {
    let dir = workdir();
    let python = "import conformance_span as span\n\
                  span.install()\n\
                  span.write('A> ')\n\
                  span.wrote_file('sub/out', 'SAVE-1,SAVE-2', 'save the game')\n\
                  span.wrote_stderr('Unable to save game\\n', 'SAVE-4', 'save the game')\n\
                  span.wrote_file('x' * 5000, 'SAVE-1', 'too long a path: not kept')\n";
    std::fs::write(dir.path().join("asides.py"), python).expect("write the script");
    let c = "#include \"conformance_span.h\"\n\
             int main(void) {\n\
             static char path[5001];\n\
             span_fputs(\"A> \");\n\
             span_wrote_file(\"sub/out\", \"SAVE-1,SAVE-2\", \"save the game\");\n\
             span_wrote_stderr(\"Unable to save game\\n\", 20, \"SAVE-4\", \"save the game\");\n\
             memset(path, 'x', 5000);\n\
             span_wrote_file(path, \"SAVE-1\", \"too long a path: not kept\");\n\
             return 0;\n\
             }\n";
    std::fs::write(dir.path().join("asides.c"), c).expect("write the source");
    let bin = cc(dir.path(), "asides", &["asides.c"]);
    let bin = bin.to_str().expect("a UTF-8 path");
    for program in [&["python3", "asides.py"][..], &[bin]] {
        let out = run(dir.path(), program, Some("rec"));
        assert!(out.status.success(), "{program:?}: {out:?}");
        let text = std::fs::read_to_string(dir.path().join("rec")).expect("the record");
        let asides = parse_record(&text).asides;
        assert_eq!(asides.len(), 2, "{program:?}: {text}");
        assert_eq!(asides[0].at, 3);
        assert_eq!(asides[0].channel, reference_kit::trace::Channel::File);
        assert_eq!(asides[0].bytes, b"sub/out");
        assert_eq!(asides[0].rules, ["SAVE-1", "SAVE-2"]);
        assert_eq!(asides[1].bytes, b"Unable to save game\n");
        assert_eq!(asides[1].what, "save the game");
    }
}

/// What both `span_empty` fixtures record: an empty span of END-1 between
/// the two lines, one of END-2 at the end.
fn empty_spans() -> Vec<Span> {
    vec![
        span(0, 2, &["A-1"], "the answer"),
        span(2, 2, &["END-1"], "after the last prompt"),
        span(2, 4, &["B-1"], "the goodbye"),
        span(4, 4, &["END-2"], "at the end"),
    ]
}

#[test]
fn the_c_header_marks_an_empty_span() {
    let dir = workdir();
    let empty = cc(dir.path(), "empty", &["span_empty.c"]);
    let (stdout, spans) = traced_spans(dir.path(), &[empty.to_str().expect("a UTF-8 path")]);
    assert_eq!(stdout, b"a\nb\n");
    assert_eq!(spans, empty_spans());
}

#[test]
fn the_python_module_marks_an_empty_span() {
    let dir = workdir();
    let (stdout, spans) = traced_spans(dir.path(), &["python3", "span_empty.py"]);
    assert_eq!(stdout, b"a\nb\n");
    assert_eq!(spans, empty_spans());
}
