//! Read counts of real buffered readers ([`super::reads`]): C's `scanf`,
//! Python's `input()` and `sys.stdin`, Java's `Scanner`, Node's
//! `readline`, each reading the same count on every run or declaring
//! the run uncertain (not judged): never a certain count that differs.
//! A few runs each here ([`RUNS_ENV`] unset: 3); the hundred runs of
//! issue 53 are `harness/benches/reads.sh`, which sets [`RUNS_ENV`] and
//! reports the counts (docs/benchmarks.md). A runtime not installed
//! prints `SKIPPED` and why.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{Ending, Invocation, Target, run};

/// The MOOC exercise's input: numbers until -1, then more the program
/// must never read.
const INPUT: &[u8] = b"3\n4\n-1\n5\n6\n";

/// The variable giving how many runs each reader gets (the bench: 100).
const RUNS_ENV: &str = "CONFORMANCE_READS_RUNS";

/// How many runs each reader gets: [`RUNS_ENV`], else 3.
fn runs() -> usize {
    std::env::var(RUNS_ENV)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

/// How many certain runs read how many lines, over `runs` runs of
/// `command` in `dir`, and how many runs were uncertain.
fn counts(command: &str, dir: &Path, runs: usize) -> (BTreeMap<usize, usize>, usize) {
    let target = Target::command_from(command, dir).expect("the command runs");
    let mut seen = BTreeMap::new();
    let mut uncertain = 0;
    for _ in 0..runs {
        let mut inv = Invocation::new(target.clone(), Vec::new(), INPUT.to_vec());
        inv.timeout = Duration::from_secs(20);
        inv.count_reads = true;
        let out = run(&inv).expect("the run");
        assert_eq!(
            out.ending,
            Ending::Exited(0),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let reads = out.reads.expect("counted");
        if reads.uncertain {
            uncertain += 1;
        } else {
            *seen.entry(reads.count()).or_insert(0) += 1;
        }
    }
    (seen, uncertain)
}

/// A folder holding `name` with `text`.
fn program(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a folder");
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("written");
    (dir, path)
}

/// Whether every tool is installed; if not, says `SKIPPED` and which.
fn installed(test: &str, tools: &[&str]) -> bool {
    let missing: Vec<&str> = tools
        .iter()
        .copied()
        .filter(|t| Target::command(&format!("{t} --version")).is_err())
        .collect();
    if !missing.is_empty() {
        println!("SKIPPED {test}: {} not installed", missing.join(", "));
    }
    missing.is_empty()
}

/// Every certain run of `command` read the 3 lines up to `-1`; the
/// uncertain ones (not judged) are said, and at least one is certain.
fn same_count(command: &str, dir: &Path, runs: usize) {
    let (seen, uncertain) = counts(command, dir, runs);
    println!(
        "reads: {command}: {runs} runs: lines read by certain runs {seen:?}, uncertain {uncertain}"
    );
    assert!(uncertain < runs, "{command}: every count was uncertain");
    assert_eq!(
        seen,
        BTreeMap::from([(3, runs - uncertain)]),
        "{command}: lines read per certain run ({uncertain} uncertain)"
    );
}

#[test]
fn c_scanf_reads_the_same_count_every_run() {
    if !installed("c_scanf", &["cc"]) {
        return;
    }
    let (dir, src) = program(
        "sum.c",
        "#include <stdio.h>\nint main(void){int n,s=0;\
         while(scanf(\"%d\",&n)==1&&n!=-1)s+=n;printf(\"%d\\n\",s);return 0;}\n",
    );
    let built = std::process::Command::new("cc")
        .arg("-o")
        .arg(dir.path().join("sum"))
        .arg(&src)
        .status()
        .expect("cc");
    assert!(built.success());
    same_count("./sum", dir.path(), runs());
}

#[test]
fn python_input_and_sys_stdin_read_the_same_count_every_run() {
    if !installed("python", &["python3"]) {
        return;
    }
    let (dir, _) = program(
        "sum.py",
        "s = 0\nwhile True:\n    n = int(input())\n    if n == -1:\n        break\n    s += n\nprint(s)\n",
    );
    same_count("python3 sum.py", dir.path(), runs());
    let (dir, _) = program(
        "lines.py",
        "import sys\ns = 0\nfor line in sys.stdin:\n    if int(line) == -1:\n        break\n    \
         s += int(line)\nprint(s)\n",
    );
    same_count("python3 lines.py", dir.path(), runs());
}

#[test]
fn java_scanner_reads_the_same_count_every_run() {
    if !installed("java_scanner", &["javac", "java"]) {
        return;
    }
    let (dir, src) = program(
        "Main.java",
        "import java.util.Scanner;\npublic class Main {\n  public static void main(String[] a) {\n    \
         Scanner sc = new Scanner(System.in);\n    int s = 0;\n    while (true) {\n      \
         int n = sc.nextInt();\n      if (n == -1) break;\n      s += n;\n    }\n    \
         System.out.println(s);\n  }\n}\n",
    );
    let built = std::process::Command::new("javac")
        .arg(&src)
        .status()
        .expect("javac");
    assert!(built.success());
    // The JVM sized as docs/java.md suggests (a small heap and the serial
    // collector start faster and with fewer threads; the harness bounds
    // resident memory, so the default heap would start too).
    same_count(
        "java -Xmx64m -XX:+UseSerialGC -XX:CompressedClassSpaceSize=64m \
         -XX:ReservedCodeCacheSize=32m -XX:TieredStopAtLevel=1 -cp . Main",
        dir.path(),
        runs(),
    );
}

#[test]
fn node_readline_reads_the_same_count_every_run() {
    if !installed("node_readline", &["node"]) {
        return;
    }
    let (dir, _) = program(
        "sum.js",
        "const rl = require('readline').createInterface({input: process.stdin});\nlet s = 0;\n\
         rl.on('line', (l) => { const n = parseInt(l, 10); if (n === -1) { console.log(s); \
         process.exit(0); } s += n; });\n",
    );
    same_count("node sum.js", dir.path(), runs());
}
