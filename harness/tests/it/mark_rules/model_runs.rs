//! `mark` never runs a folder pack's model (issue 53, item 6): what a
//! check needs of it (expectations, the trace naming a failure's rule,
//! read counts) is kept by `bless`. The model here is a shell script that
//! writes a marker file each time it runs (the runs are kept at the
//! `group` level, so it can): after `bless`, `mark` must not make it. A
//! pack blessed before traces were kept still marks the same, the model
//! run as it was, and `mark` says so once.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::Path;

use crate::write_file::write;

/// The sum of the numbers read until -1; the marker written first.
fn model(marker: &Path) -> String {
    format!(
        "echo ran >> '{}'\nsum=0\nwhile read n; do [ \"$n\" = -1 ] && break; \
         sum=$((sum + n)); done\necho \"Sum: $sum\"\necho \"Thx!\"\n",
        marker.display()
    )
}

/// A pack of three cases whose rule frees spacing (so a run that differs
/// needs the model's spans), blessed from the model.
fn pack(root: &Path, marker: &Path) -> std::path::PathBuf {
    let pack = root.join("sum");
    write(
        &pack.join("pack.yaml"),
        "name: sum\nmodel:\n  dir: model\n  command: sh sum.sh\nsubmissions:\n  program: \
         sum.sh\n  run: \"sh {program}\"\ntimeout: 10s\n",
    );
    write(&pack.join("model/sum.sh"), &model(marker));
    write(
        &pack.join("suite.yaml"),
        "name: sum\nversion: \"1\"\nspec: sum-rulings.md\ncategories:\n  - {name: sum, marks: \
         1}\n",
    );
    write(
        &pack.join("rules.yaml"),
        "rules:\n  - {id: SUM-1, summary: \"the sum\", ambiguous: no, match: {stdout: \
         spacing}}\n",
    );
    write(
        &pack.join("sum-rulings.md"),
        "# sum\n\n- **SUM-1** The sum.\n",
    );
    for (name, stdin) in [
        ("one", "5\\n-1\\n"),
        ("two", "2\\n3\\n-1\\n"),
        ("none", "-1\\n"),
    ] {
        write(
            &pack.join(format!("sum/{name}.yaml")),
            &format!("summary: \"{name}\"\ncategory: sum\nrules: [SUM-1]\nstdin: \"{stdin}\"\n"),
        );
    }
    let out = harness()
        .arg("bless")
        .arg("--spec")
        .arg(&pack)
        .output()
        .expect("bless");
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    pack
}

fn harness() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("boxes-harness").expect("the harness binary");
    c.env("NO_COLOR", "1")
        .env("CONFORMANCE_CONTAINMENT", "group")
        .env_remove("CONFORMANCE_REFERENCE");
    c
}

fn said(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Marks `subs` into `out`: the marks column of `marks.csv` by student,
/// and what `mark` said.
fn mark(pack: &Path, subs: &Path, out: &Path) -> (Vec<String>, String) {
    let run = harness()
        .args([
            "mark",
            "--allow-weaker-containment",
            "--jobs",
            "2",
            "--spec",
        ])
        .arg(pack)
        .arg(subs)
        .arg("--out")
        .arg(out)
        .output()
        .expect("mark");
    assert_eq!(run.status.code(), Some(0), "{}", said(&run));
    let csv = std::fs::read_to_string(out.join("marks.csv")).expect("marks.csv");
    let rows = csv
        .lines()
        .skip(1)
        .map(|row| {
            // id, build, the category's marks, total, passed, failed.
            let fields: Vec<&str> = row.split(',').collect();
            [0, 4, 6, 7, 8, 9]
                .iter()
                .map(|&i| fields.get(i).copied().unwrap_or(""))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    (rows, said(&run))
}

#[test]
fn mark_runs_no_model_once_blessed_and_an_older_pack_marks_the_same() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let marker = root.join("model-ran");
    let pack = pack(root, &marker);
    let kept = std::fs::read_to_string(pack.join("sum/two.yaml")).expect("a case");
    assert!(kept.contains("trace: none"), "{kept}");
    assert!(marker.exists(), "bless runs the model");
    let subs = root.join("subs");
    let body = model(&marker);
    let body = body.split_once('\n').expect("a marker line").1;
    // Right; right with other spacing (tolerated: the spans are asked);
    // a sum always 0 (right only where nothing is summed).
    write(&subs.join("right/sum.sh"), body);
    write(
        &subs.join("spaced/sum.sh"),
        &body.replace("Sum: ", "Sum:   "),
    );
    write(
        &subs.join("wrong/sum.sh"),
        &body.replace("Sum: $sum", "Sum: 0"),
    );

    std::fs::remove_file(&marker).expect("remove the marker");
    let (rows, _) = mark(&pack, &subs, &root.join("marks"));
    assert!(!marker.exists(), "mark ran the model");

    // The same pack as blessed before traces were kept.
    for name in ["one", "two", "none"] {
        let case = pack.join(format!("sum/{name}.yaml"));
        let text = std::fs::read_to_string(&case).expect("a case");
        let old: String = text
            .split_inclusive('\n')
            .filter(|l| !l.starts_with("trace:"))
            .collect();
        std::fs::write(&case, old).expect("strip the trace");
    }
    let (old_rows, said) = mark(&pack, &subs, &root.join("old-marks"));
    assert_eq!(rows, old_rows);
    assert_eq!(
        said.matches("have no trace of the model kept").count(),
        1,
        "{said}"
    );
    assert!(
        marker.exists(),
        "an older pack's failures are named by the model"
    );
    assert_eq!(
        rows,
        [
            "right,ok,1,1,3,0",
            "spaced,ok,1,1,3,0",
            "wrong,ok,0.33,0.33,1,2"
        ]
    );
}
