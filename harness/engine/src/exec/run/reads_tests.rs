//! Read counts of real buffered readers ([`super::reads`]): each the
//! same on every run. C's `scanf` a hundred times here; Python's
//! `input()` and `sys.stdin` ten times; Java's `Scanner` and Node's
//! `readline` a hundred times each in ignored tests (a JVM start costs a
//! quarter of a second: `cargo test -p conformance-engine --lib
//! reads_tests -- --ignored`). A runtime not installed skips its test.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{Ending, Invocation, Target, run};

/// The MOOC exercise's input: numbers until -1, then more the program
/// must never read.
const INPUT: &[u8] = b"3\n4\n-1\n5\n6\n";

/// How many runs read how many lines, over `runs` runs of `command` in
/// `dir`, and whether any count was uncertain.
fn counts(command: &str, dir: &Path, runs: usize) -> (BTreeMap<usize, usize>, bool) {
    let target = Target::command_from(command, dir).expect("the command runs");
    let mut seen = BTreeMap::new();
    let mut uncertain = false;
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
        uncertain |= reads.uncertain;
        *seen.entry(reads.count()).or_insert(0) += 1;
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

fn installed(tool: &str) -> bool {
    Target::command(&format!("{tool} --version")).is_ok()
}

fn same_count(command: &str, dir: &Path, runs: usize) {
    let (seen, uncertain) = counts(command, dir, runs);
    assert!(!uncertain, "{command}: a count was uncertain");
    assert_eq!(
        seen,
        BTreeMap::from([(3, runs)]),
        "{command}: lines read per run"
    );
}

#[test]
fn c_scanf_reads_the_same_count_every_run() {
    if !installed("cc") {
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
    same_count("./sum", dir.path(), 100);
}

#[test]
fn python_input_and_sys_stdin_read_the_same_count_every_run() {
    if !installed("python3") {
        return;
    }
    let (dir, _) = program(
        "sum.py",
        "s = 0\nwhile True:\n    n = int(input())\n    if n == -1:\n        break\n    s += n\nprint(s)\n",
    );
    same_count("python3 sum.py", dir.path(), 10);
    let (dir, _) = program(
        "lines.py",
        "import sys\ns = 0\nfor line in sys.stdin:\n    if int(line) == -1:\n        break\n    \
         s += int(line)\nprint(s)\n",
    );
    same_count("python3 lines.py", dir.path(), 10);
}

#[test]
#[ignore = "a hundred JVM starts: run with --ignored"]
fn java_scanner_reads_the_same_count_every_run() {
    if !installed("javac") || !installed("java") {
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
    // The JVM sized for a contained run (docs/java.md): its default heap
    // reserves a quarter of the machine, past the address-space bound.
    same_count(
        "java -Xmx64m -XX:+UseSerialGC -XX:CompressedClassSpaceSize=64m \
         -XX:ReservedCodeCacheSize=32m -XX:TieredStopAtLevel=1 -cp . Main",
        dir.path(),
        100,
    );
}

#[test]
#[ignore = "a hundred Node.js starts: run with --ignored"]
fn node_readline_reads_the_same_count_every_run() {
    if !installed("node") {
        return;
    }
    let (dir, _) = program(
        "sum.js",
        "const rl = require('readline').createInterface({input: process.stdin});\nlet s = 0;\n\
         rl.on('line', (l) => { const n = parseInt(l, 10); if (n === -1) { console.log(s); \
         process.exit(0); } s += n; });\n",
    );
    same_count("node sum.js", dir.path(), 100);
}
