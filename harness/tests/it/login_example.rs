//! The login example (`examples/login/`): a small C class marked with its
//! memory checked. Four of its eight submissions write one byte (or a
//! few) past an array (`strcpy` into a `char[8]`, the terminating NUL one
//! past a `char[8]` on the stack and in a global, a heap block one short)
//! and pass every case marked plain: their output is right by luck of the
//! layout. Marked with `--memcheck asan`, each is named by kind and
//! source line, and the programs without memory errors lose nothing: the
//! correct three keep full marks, `hiro` (a wrong login, no memory error)
//! exactly the marks it loses marked plain.
//!
//! Needs gcc with AddressSanitizer: where it is missing the test says so
//! and passes, except under CI (`CI` set), where it fails.

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

fn pack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/login")
}

/// Whether gcc here builds and runs a program with AddressSanitizer;
/// says why not where it cannot.
fn has_asan(dir: &Path) -> bool {
    let exe = dir.join("probe");
    let built = std::process::Command::new("gcc")
        .args(["-fsanitize=address", "-x", "c", "-o"])
        .arg(&exe)
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write as _;
            if let Some(mut stdin) = child.stdin.take() {
                stdin.write_all(b"int main(void) { return 0; }\n")?;
            }
            child.wait()
        });
    let ok = matches!(built, Ok(status) if status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "gcc cannot build with -fsanitize=address: {built:?}"
        );
        eprintln!("skipped: gcc cannot build with -fsanitize=address here ({built:?})");
    }
    ok
}

/// The class marked into `out` (with `--memcheck memcheck` when given):
/// `marks.csv`'s rows as (id, total, first cause).
fn mark(out: &Path, memcheck: Option<&str>) -> Vec<(String, String, String)> {
    let mut cmd = Command::cargo_bin("boxes-harness").unwrap();
    cmd.env("NO_COLOR", "1")
        .env_remove("CONFORMANCE_CONTAINMENT")
        .env_remove("CONFORMANCE_ALLOW_READ")
        .timeout(Duration::from_secs(900))
        .arg("mark")
        .arg("--spec")
        .arg(pack())
        .arg(pack().join("submissions"))
        .arg("--out")
        .arg(out)
        .args(["--jobs", "2"]);
    if let Some(m) = memcheck {
        cmd.args(["--memcheck", m]);
    }
    let done = cmd.output().unwrap();
    assert_eq!(
        done.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let csv = std::fs::read_to_string(out.join("marks.csv")).unwrap();
    csv.lines()
        .skip(1)
        .map(|line| {
            // No field before the cause holds a comma; the cause may. The
            // last two columns, after it, are the deductions and the
            // memory warnings (none here: the errors are charged).
            let fields: Vec<&str> = line.splitn(14, ',').collect();
            let cause = fields[13].rsplitn(3, ',').last().unwrap_or(fields[13]);
            (fields[0].to_owned(), fields[9].to_owned(), cause.to_owned())
        })
        .collect()
}

/// Each buggy submission and the one cause its report must give.
const BUGS: [(&str, &str); 4] = [
    (
        "dmitri",
        "stack-buffer-overflow: a write of 9 bytes by `strcpy` reaching past the 8-byte array \
         `last` in `main` (login.c:12)",
    ),
    (
        "elena",
        "stack-buffer-overflow: a write of 1 byte past the 8-byte array `login` in `main` \
         (login.c:31)",
    ),
    (
        "farid",
        "heap-buffer-overflow: a write of 1 byte past a 3-byte block in `main` (login.c:42)",
    ),
    (
        "grace",
        "global-buffer-overflow: a write of 1 byte past the 8-byte global `login` in `main` \
         (login.c:31)",
    ),
];

#[test]
fn the_class_marked_with_asan_names_each_overflow_by_kind_and_line_and_charges_no_one_else() {
    let dir = tempfile::tempdir().unwrap();
    if !has_asan(dir.path()) {
        return;
    }
    let plain = mark(&dir.path().join("plain"), None);
    let checked = mark(&dir.path().join("asan"), Some("asan"));
    let row = |rows: &[(String, String, String)], id: &str| {
        let found = rows.iter().find(|r| r.0 == id).cloned();
        assert!(found.is_some(), "no row {id}: {rows:?}");
        found.unwrap()
    };
    // Marked plain, every submission but hiro passes every case: the
    // overflows go unseen.
    for (id, _) in BUGS {
        assert_eq!(row(&plain, id).1, "10", "{id}: {plain:?}");
    }
    // Marked with ASan, each is named by kind and source line.
    for (id, cause) in BUGS {
        let (_, total, first) = row(&checked, id);
        assert_ne!(total, "10", "{id}: {checked:?}");
        let (kind, place) = cause.split_once(": ").unwrap();
        let place = place.rsplit_once(" in ").unwrap().1;
        // The key, then the worked example's values.
        assert_eq!(
            first,
            format!("memory: {kind} in {place}; for example {cause}"),
            "{id}"
        );
        let report =
            std::fs::read_to_string(dir.path().join(format!("asan/submissions/{id}/report.txt")))
                .unwrap();
        let causes: Vec<&str> = report
            .lines()
            .filter_map(|l| l.strip_prefix("cause 1 of 1: "))
            .collect();
        assert_eq!(causes.len(), 1, "{report}");
        assert!(causes[0].ends_with(cause), "{id}: {}", causes[0]);
    }
    // The programs without memory errors lose nothing to the check.
    for id in ["amara", "bashir", "chen"] {
        assert_eq!(
            row(&checked, id),
            (id.to_owned(), "10".to_owned(), String::new())
        );
    }
    assert_eq!(row(&checked, "hiro"), row(&plain, "hiro"));
    assert_eq!(row(&plain, "hiro").1, "8");
    // The class view lists the four, each by kind and place.
    let page = std::fs::read_to_string(dir.path().join("asan/index.html")).unwrap();
    let table = page
        .split_once("<table id=\"memory-errors\">")
        .and_then(|(_, rest)| rest.split_once("</table>"))
        .map(|(table, _)| table);
    assert!(table.is_some(), "no memory table: {page}");
    let table = table.unwrap();
    for (id, cause) in BUGS {
        let kind = cause.split_once(':').unwrap().0;
        let line = cause.rsplit_once('(').unwrap().1.trim_end_matches(')');
        assert!(
            table
                .lines()
                .any(|l| l.contains(&format!("<code>{kind}</code>"))
                    && l.contains(line)
                    && l.contains(&format!("<td>{id}</td>"))),
            "{id}: {table}"
        );
    }
    assert_eq!(table.matches("<tr><td>").count(), 4, "{table}");
}
