//! The probe battery where a program is not run by `run`: built and run
//! by `mark` (a submitted `./configure`, g++ and make at work), as a
//! CodinGame bot, and `mark`'s refusal of a weaker containment.

use std::path::Path;

use super::{Bait, beside_hogs, harness, output_of};

/// The marker the hostile fixture looks for at the end of its own
/// executable: probes appended to a built program (`mark` keeps only the
/// program's bytes).
const PROBES_START: &str = "\nHOSTILE-PROBES\n";
const PROBES_END: &str = "\nEND-PROBES\n";

#[test]
fn every_probe_is_refused_in_marks_build_and_run() {
    let _alone = beside_hogs();
    let bait = Bait::new();
    let root = tempfile::tempdir().unwrap();
    let subs = root.path().join("subs");
    let out = root.path().join("marks");
    // A classmate, marked beside the hostile one.
    let bob = subs.join("bob");
    std::fs::create_dir_all(&bob).unwrap();
    std::fs::write(bob.join("ass1.c"), b"int main(void) { return 0; }\n").unwrap();
    let eve = subs.join("eve");
    std::fs::create_dir_all(&eve).unwrap();
    let mut probes = bait.probes(&bob.join("ass1.c"));
    probes.push(format!("list {}", out.join("submissions").display()));
    std::fs::write(eve.join("probes.txt"), probes.join("\n") + "\n").unwrap();
    std::fs::write(
        eve.join("trailer.txt"),
        format!("{PROBES_START}{}{PROBES_END}", probes.join("\n")),
    )
    .unwrap();
    std::fs::copy(
        env!("CARGO_BIN_EXE_boxes-fixture-hostile"),
        eve.join("hostile"),
    )
    .unwrap();
    // The build: a submitted `./configure` (executable in the folder, so
    // it must stay so), g++ and make at work, the probes, then the
    // program: the fixture with the probes appended.
    std::fs::write(
        eve.join("configure"),
        "#!/bin/sh\necho '#define READY 1' > config.h\n",
    )
    .unwrap();
    std::fs::write(
        eve.join("helper.cpp"),
        "#include \"config.h\"\n#include <vector>\nint main() { std::vector<int> v{READY}; \
         return v[0] - 1; }\n",
    )
    .unwrap();
    std::fs::write(
        eve.join("Makefile"),
        "boxes: hostile\n\t./configure\n\tg++ -o helper helper.cpp && ./helper\n\t\
         ./hostile check probes.txt\n\tcat hostile trailer.txt > boxes\n\tchmod +x boxes\n",
    )
    .unwrap();
    for f in ["configure", "hostile"] {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(eve.join(f), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let tmp = tempfile::tempdir().unwrap();
    // A few cases per category: every run of eve's program makes every
    // probe, and the whole suite's runs were most of this test's CPU.
    let spec = crate::boxes_mini::mini_boxes(&root.path().join("pack"), &[]);
    let (code, text) = output_of(
        harness(&bait.home, tmp.path())
            .env_remove("CONFORMANCE_REFERENCE")
            .arg("mark")
            .arg("--spec")
            .arg(&spec)
            .arg(&subs)
            .arg("--out")
            .arg(&out),
    );
    assert_eq!(code, 0, "{text}");
    let csv = std::fs::read_to_string(out.join("marks.csv")).unwrap();
    let eve_row = csv.lines().find(|l| l.starts_with("eve,")).unwrap_or("");
    let log = std::fs::read_to_string(out.join("submissions/eve/build.log")).unwrap_or_default();
    assert!(!log.contains("ESCAPED"), "{log}");
    assert_eq!(log.matches("refused\n").count(), probes.len(), "{log}");
    assert!(eve_row.contains(",ok,"), "{csv}\n{log}");
    let report =
        std::fs::read_to_string(out.join("submissions/eve/report.txt")).unwrap_or_default();
    assert!(!report.contains("ESCAPED"), "{report}");
    // Full marks: the program played the reference, which it does only
    // when every probe was refused.
    let said = text
        .lines()
        .find_map(|l| l.split_once("eve: build ok, "))
        .and_then(|(_, score)| score.split_once(" of "))
        .map(|(got, of)| {
            (
                got.to_owned(),
                of.split_whitespace().next().unwrap_or("").to_owned(),
            )
        });
    let (got, of) = said.unwrap_or_default();
    assert!(!got.is_empty() && got == of, "{text}\n{report}");
    bait.assert_untouched();
}

#[test]
fn every_probe_is_refused_to_a_codingame_bot() {
    let _alone = beside_hogs();
    let bait = Bait::new();
    let suite_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/boxes");
    let bot_dir = tempfile::tempdir().unwrap();
    let d = bot_dir.path();
    std::fs::copy(
        env!("CARGO_BIN_EXE_boxes-fixture-hostile"),
        d.join("hostile"),
    )
    .unwrap();
    std::fs::copy(
        env!("CARGO_BIN_EXE_codingame-fixture-faulty"),
        d.join("bot"),
    )
    .unwrap();
    let probes = bait.probes(&suite_file);
    std::fs::write(d.join("probes.txt"), probes.join("\n") + "\n").unwrap();
    // The probes go to stderr (stdout is the protocol); a bot that got
    // through one exits 99, and every case fails.
    let script = d.join("bot.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nd=$(dirname \"$0\")\n\"$d/hostile\" check \"$d/probes.txt\" >&2 || exit 99\n\
         exec \"$d/bot\"\n",
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("r.json");
    let work = tempfile::tempdir().unwrap();
    let (code, text) = output_of(
        harness(&bait.home, work.path())
            .env("CG_FAULT", "none")
            .env_remove("CODINGAME_BIN")
            .env_remove("CODINGAME_TIME_FACTOR")
            .args([
                "--spec",
                "codingame",
                "--include-ignored",
                "--time-factor",
                "10",
            ])
            .arg("--results")
            .arg(&results)
            .arg("--bin")
            .arg(&script),
    );
    assert!(!text.contains("ESCAPED"), "{text}");
    assert_eq!(code, 0, "{text}");
    bait.assert_untouched();
}

#[test]
fn mark_refuses_a_weaker_containment_unless_told() {
    let _alone = beside_hogs();
    let root = tempfile::tempdir().unwrap();
    let subs = root.path().join("subs");
    std::fs::create_dir_all(subs.join("bob")).unwrap();
    std::fs::write(subs.join("bob/ass1.c"), b"int main(void) { return 0; }\n").unwrap();
    let mark = |extra: &[&str]| {
        output_of(
            harness(root.path(), root.path())
                .env("CONFORMANCE_CONTAINMENT", "group")
                .arg("mark")
                .arg(&subs)
                .arg("--out")
                .arg(root.path().join("marks"))
                .args(extra),
        )
    };
    let (code, text) = mark(&[]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("mark needs the default containment, and here programs would run in a process group only"),
        "{text}"
    );
    assert!(text.contains("--allow-weaker-containment"), "{text}");
    assert!(!root.path().join("marks").exists());
    // Marked: bob's program passes no case, which mark says loudly (exit 1).
    let (code, text) = mark(&["--allow-weaker-containment"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("passed any case"), "{text}");
    assert!(root.path().join("marks/marks.csv").exists(), "{text}");
}
