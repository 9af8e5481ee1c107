//! `diff --spec PACKAGE --bin CANDIDATE` (docs/problem-packages.md): a
//! wrong candidate found on an input the input validators accept and a
//! right one passed; a reference compiled from C; a package's own
//! output validator judging each session (its reason the finding's, a
//! crash of it exit 2); an interactive problem refused, saying why.

use super::*;

#[test]
fn diff_on_a_package_finds_a_wrong_candidate_on_a_validated_input_and_passes_a_right_one() {
    let dir = tempfile::tempdir().expect("dir");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/problems/oddsum-sh");
    let write = |name: &str, test: &str| {
        let path = dir.path().join(name);
        std::fs::write(
            &path,
            format!(
                "read -r n\nread -ra xs\ns=0\nfor x in \"${{xs[@]}}\"; do (( {test} )) && (( s += \
                 x )); done\necho \"  $s \"\n"
            ),
        )
        .expect("write");
        format!("bash {}", path.display())
    };
    let diff = |bin: &str| {
        let seeded = ["-j", "2", "--sessions", "20", "--seed", "1"];
        with_spec(dir.path(), &["diff"], &fixture, bin, &seeded)
    };
    // Spaced otherwise: the default validator accepts it.
    let (code, text) = diff(&write("right.sh", "x % 2 != 0"));
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("input validator(s) accept"), "{text}");
    // Wrong on negative odd numbers, which no case of the package holds:
    // found on a derived input the validator accepts, shrunk, judged by
    // the default validator against the reference's output.
    let (code, text) = diff(&write("positive.sh", "x % 2 == 1"));
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("1 distinct mismatch")
            && text.contains("the default output validator: line 1 of the output")
            && text.contains("stdin: \"3\\n1 -1 1\\n\""),
        "{text}"
    );
    // A package's groups cite no rule: none is listed.
    assert!(
        text.contains(" was expected (category ") && !text.contains("; rules"),
        "{text}"
    );
    // Without input validators only the package's own inputs run, each
    // named; more sessions than that cannot be honoured.
    let bare = dir.path().join("bare");
    for sub in ["data/sample", "data/secret", "submissions/accepted"] {
        std::fs::create_dir_all(bare.join(sub)).expect("mkdir");
        for entry in std::fs::read_dir(fixture.join(sub)).expect("read_dir") {
            let from = entry.expect("entry").path();
            std::fs::copy(&from, bare.join(sub).join(from.file_name().expect("name")))
                .expect("copy");
        }
    }
    std::fs::copy(fixture.join("problem.yaml"), bare.join("problem.yaml")).expect("copy");
    let wrong = write("all.sh", "1");
    let (code, text) = with_spec(dir.path(), &["diff"], &bare, &wrong, &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("the package's 3 input(s) only, each once")
            && text.contains("is the package's input data/"),
        "{text}"
    );
    let (code, text) = with_spec(
        dir.path(),
        &["diff", "--sessions", "50"],
        &bare,
        &wrong,
        &[],
    );
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("no input validator, so no input past the package's own 3"),
        "{text}"
    );
}

/// `boxes-harness BEFORE --spec PACKAGE --bin BIN AFTER` run in `dir`
/// (where `diff` writes its cases).
fn with_spec(
    dir: &Path,
    before: &[&str],
    package: &Path,
    bin: &str,
    after: &[&str],
) -> (Option<i32>, String) {
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("CONFORMANCE_CONTAINMENT", "group")
        .args(before)
        .arg("--spec")
        .arg(package)
        .args(["--bin", bin])
        .args(after)
        .output()
        .expect("the harness runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

/// Writes `files` (path below `dir`, text) and returns `dir`.
fn write_all(dir: &Path, files: &[(&str, &str)]) -> PathBuf {
    for (rel, text) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir.to_owned()
}

/// Arg max: the index of a largest of n integers, any of them when
/// several are (so its own output validator, in Python); its only
/// accepted submission is C (the first largest), its input validator a
/// shell script (cheap to start: it runs on every varied input).
const ARGMAX: &[(&str, &str)] = &[
    (
        "problem.yaml",
        "problem_format_version: 2023-07-draft\nname: Arg Max\ntype: pass-fail\n",
    ),
    ("data/sample/1.in", "3\n1 2 2\n"),
    ("data/sample/1.ans", "2\n"),
    ("data/secret/1.in", "4\n5 7 10 12\n"),
    ("data/secret/1.ans", "4\n"),
    ("data/secret/2.in", "2\n2 4\n"),
    ("data/secret/2.ans", "2\n"),
    ("data/secret/3.in", "1\n3\n"),
    ("data/secret/3.ans", "1\n"),
    (
        "input_validators/validate.sh",
        "IFS= read -r -d '' input && exit 43\nx='-?(0|[1-9][0-9]{0,8})'\n[[ $input =~ \
         ^([1-9][0-9]?)$'\\n'($x( $x)*)$'\\n'$ ]] || exit 43\nread -ra xs <<< \
         \"${BASH_REMATCH[2]}\"\n(( ${#xs[@]} == BASH_REMATCH[1] && BASH_REMATCH[1] <= 20 )) \
         || exit 43\nexit 42\n",
    ),
    (
        "output_validator/validate.py",
        "import sys\nxs = [int(w) for w in open(sys.argv[1]).read().split()[1:]]\nwords = \
         sys.stdin.read().split()\ndef reject(why):\n    open(sys.argv[3] + \
         '/judgemessage.txt', 'w').write(why + '\\n')\n    sys.exit(43)\nif len(words) != 1 or \
         not words[0].isdigit():\n    reject('expected one index')\ni = int(words[0])\nif not 1 \
         <= i <= len(xs):\n    reject(f'index {i} is not in 1..{len(xs)}')\nif xs[i - 1] != \
         max(xs):\n    reject(f'x{i} is not the largest')\nsys.exit(42)\n",
    ),
    (
        "submissions/accepted/first.c",
        "#include <stdio.h>\nint main(void) {\n    int n, best = 0;\n    long x, max = 0;\n    \
         if (scanf(\"%d\", &n) != 1) return 1;\n    for (int i = 1; i <= n; i++) {\n        if \
         (scanf(\"%ld\", &x) != 1) return 1;\n        if (i == 1 || x > max) { max = x; best = \
         i; }\n    }\n    printf(\"%d\\n\", best);\n    return 0;\n}\n",
    ),
    // The last largest: right, its bytes other than the reference's on
    // a tie (the sample's).
    (
        "last.sh",
        "read -r n; read -ra xs; b=1\nfor i in \"${!xs[@]}\"; do (( xs[i] >= xs[b-1] )) && \
         b=$((i+1)); done\necho $b\n",
    ),
    // Starts from 0 as the largest: wrong when every number is below 1.
    (
        "zero.sh",
        "read -r n; read -ra xs; b=0; m=0\nfor i in \"${!xs[@]}\"; do (( xs[i] > m )) && { \
         m=${xs[i]}; b=$((i+1)); }; done\necho $b\n",
    ),
];

#[test]
fn diff_compiles_a_c_reference_and_judges_by_the_packages_own_validator() {
    let cc = std::process::Command::new("cc").arg("--version").output();
    if !cc.is_ok_and(|o| o.status.success()) {
        println!("SKIPPED: no cc on PATH to compile the C reference");
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let package = write_all(&dir.path().join("argmax"), ARGMAX);
    let run = |bin: &str, sessions: &str| {
        let bin = format!("bash {}", package.join(bin).display());
        let seeded = ["--sessions", sessions, "--seed", "1", "-j", "2"];
        with_spec(dir.path(), &["diff"], &package, &bin, &seeded)
    };
    // Another index of a tie: the validator accepts it.
    let (code, text) = run("last.sh", "8");
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("the reference is accepted/first.c, compiled once")
            && text.contains("stdout compared by checker `builtin:kattis-validator` (suite): "),
        "{text}"
    );
    // Found on a varied input the input validator accepts, its reason the
    // validator's, the shrunk input still rejected by it.
    let (code, text) = run("zero.sh", "20");
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("1 distinct mismatch")
            && text.contains("stdin: \"1\\n-1\\n\"")
            && text.contains(
                "judged: stdout compared by checker `builtin:kattis-validator` (suite): the \
                 output validator: index 0 is not in 1..1"
            ),
        "{text}"
    );
    // Its case replays judged by the validator, not byte for byte.
    let case = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("case: "))
        .expect("a case written");
    let zero = format!("bash {}", package.join("zero.sh").display());
    let (code, text) = with_spec(dir.path(), &[], &package, &zero, &["--cases", case]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("(by checker `builtin:kattis-validator`)"),
        "{text}"
    );
    // A validator that crashes is the package's fault, never a finding.
    write_all(
        &package,
        &[(
            "output_validator/validate.py",
            "raise ValueError('broken')\n",
        )],
    );
    let (code, text) = run("last.sh", "1");
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("ValueError: broken")
            && text.contains("a fault of the checker")
            && !text.contains("mismatch 1"),
        "{text}"
    );
}

#[test]
fn diff_refuses_an_interactive_problem_saying_what_it_would_need() {
    let dir = tempfile::tempdir().expect("dir");
    let package = copy("guess", dir.path(), &["accepted/bisect.py"], &["sample/1"]);
    let (code, text) = with_spec(dir.path(), &["diff"], &package, "true", &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("an interactive problem: diff cannot run it yet")
            && text.contains("each joined to the output validator"),
        "{text}"
    );
}
