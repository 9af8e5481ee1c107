//! Every command a user copies from the README and `docs/` is run, so the
//! documentation cannot drift from the command line.
//!
//! The convention (stated in `docs/README.md`): in a ```` ```sh ```` block,
//! every command is a harness command (`boxes-harness …` or
//! `cargo run --release -p boxes-harness -- …`) and is run here, in a fresh
//! folder, the commands of one block in order; a trailing `# exit N` gives
//! its documented exit status (default 0). A block that needs a program of
//! the reader's or another tool is marked ```` ```sh no-run ````. A program
//! named with `--bin` or `--against` is replaced by the pack's reference
//! fixture (unless the page wrote it), and `diff` runs a few sessions
//! instead of thousands.
//!
//! A tutorial page (one holding the line `<!-- docs-test: one folder -->`)
//! runs all its blocks in one folder, in order; there a block whose info
//! string names a file (```` ```python file=quiz/model/quiz.py ````) is
//! written to that path when the reader would write it, executable when it
//! starts with `#!`.

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// One documented command: where it is written, its arguments, the exit
/// status the documentation gives it.
#[derive(Debug)]
struct Documented {
    at: String,
    args: Vec<String>,
    exit: i32,
    /// Run as the reader runs it, at the default containment (a
    /// tutorial's `mark` needs it); other pages' commands run in a process
    /// group, which is quicker and shows the same bytes.
    contained: bool,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// A block of a page the test acts on.
#[derive(Debug, PartialEq)]
enum Block {
    /// A ```` ```sh ```` block: (line number, command line), continuations
    /// joined.
    Sh(Vec<(usize, String)>),
    /// A block naming the file it is (`file=PATH`): its line, path, text.
    File(usize, String, String),
}

/// The `sh` blocks of `text`: each a list of (line number, command line)
/// with continuations joined.
#[cfg(test)]
fn sh_blocks(text: &str) -> Vec<Vec<(usize, String)>> {
    blocks(text)
        .into_iter()
        .filter_map(|b| match b {
            Block::Sh(commands) => Some(commands),
            Block::File(..) => None,
        })
        .collect()
}

/// The `sh` blocks and the file blocks of `text`, in order.
fn blocks(text: &str) -> Vec<Block> {
    enum State {
        Outside,
        Sh(Vec<(usize, String)>),
        File(usize, String, String),
        Other,
    }
    let mut blocks = Vec::new();
    let mut state = State::Outside;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(info) = trimmed.strip_prefix("```") {
            let file = info
                .split_whitespace()
                .find_map(|w| w.strip_prefix("file="));
            state = match state {
                State::Outside if info.trim() == "sh" => State::Sh(Vec::new()),
                State::Outside => match file {
                    Some(path) => State::File(i + 1, path.to_owned(), String::new()),
                    None => State::Other,
                },
                State::Sh(block) => {
                    blocks.push(Block::Sh(block));
                    State::Outside
                }
                State::File(at, path, text) => {
                    blocks.push(Block::File(at, path, text));
                    State::Outside
                }
                State::Other => State::Outside,
            };
            pending = None;
            continue;
        }
        if let State::File(_, _, text) = &mut state {
            text.push_str(line);
            text.push('\n');
            continue;
        }
        let State::Sh(block) = &mut state else {
            continue;
        };
        let (start, mut joined) = pending.take().unwrap_or((i + 1, String::new()));
        joined.push_str(trimmed.trim_end_matches('\\').trim_end());
        if trimmed.ends_with('\\') {
            joined.push(' ');
            pending = Some((start, joined));
        } else if !joined.is_empty() && !joined.starts_with('#') {
            block.push((start, joined));
        }
    }
    blocks
}

/// The line that makes a page a tutorial, run in one folder.
const ONE_FOLDER: &str = "<!-- docs-test: one folder -->";

/// One thing the test does for a page, in order.
#[derive(Debug)]
enum Step {
    /// Runs a documented command.
    Run(Documented),
    /// Writes a file the reader writes: where, path, text.
    Write(String, String, String),
}

/// Reads the documented commands of every page; `Err` lists the commands
/// in `sh` blocks that are not harness commands.
fn documented() -> (Vec<Vec<Step>>, Vec<String>) {
    let mut all = Vec::new();
    let mut foreign = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page.file_name().unwrap().to_string_lossy().into_owned();
        let one_folder = text.lines().any(|l| l.trim() == ONE_FOLDER);
        let mut tutorial = Vec::new();
        for block in blocks(&text) {
            let block = match block {
                Block::Sh(block) => block,
                Block::File(line, path, text) if one_folder => {
                    tutorial.push(Step::Write(format!("{name}:{line}"), path, text));
                    continue;
                }
                Block::File(..) => continue,
            };
            let mut commands = Vec::new();
            for (line, command) in block {
                let at = format!("{name}:{line}");
                let (command, exit) = match command.split_once(" # ") {
                    Some((c, note)) => (
                        c.to_owned(),
                        note.trim()
                            .strip_prefix("exit ")
                            .and_then(|n| n.split_whitespace().next()?.parse().ok())
                            .unwrap_or(0),
                    ),
                    None => (command, 0),
                };
                let Some(words) = shlex::split(&command) else {
                    foreign.push(format!("{at}: cannot split `{command}`"));
                    continue;
                };
                let args = match words.iter().map(String::as_str).collect::<Vec<_>>()[..] {
                    ["boxes-harness", ..] => words[1..].to_vec(),
                    ["cargo", "run", "--release", "-p", "boxes-harness"] => Vec::new(),
                    ["cargo", "run", "--release", "-p", "boxes-harness", "--", ..] => {
                        words[6..].to_vec()
                    }
                    // The test command: it is what runs this test.
                    ["cargo", "test", "--workspace"] => continue,
                    _ => {
                        foreign.push(format!("{at}: `{command}`"));
                        continue;
                    }
                };
                commands.push(Step::Run(Documented {
                    at,
                    args,
                    exit,
                    contained: one_folder,
                }));
            }
            if one_folder {
                tutorial.extend(commands);
            } else if !commands.is_empty() {
                all.push(commands);
            }
        }
        if !tutorial.is_empty() {
            all.push(tutorial);
        }
    }
    (all, foreign)
}

#[test]
fn every_sh_block_holds_only_harness_commands() {
    let (_, foreign) = documented();
    assert!(
        foreign.is_empty(),
        "commands in ```sh blocks that the docs test cannot run; mark their block \
         ```sh no-run or make them harness commands:\n{}",
        foreign.join("\n")
    );
}

/// The program standing for the reader's: the pack's reference fixture.
fn stand_in(dir: &Path, spec: &str) -> (String, Option<(&'static str, &'static str)>) {
    let (fixture, name) = match spec {
        "nogo" => (env!("CARGO_BIN_EXE_nogo-fixture-variant"), "nogo"),
        "gridgame" => {
            // The harness in reference mode, behind a script.
            let script = dir.join("stand-in-gridgame/dotsAndBoxes");
            if !script.exists() {
                std::fs::create_dir_all(script.parent().unwrap()).unwrap();
                std::fs::write(
                    &script,
                    format!(
                        "#!/bin/sh\nCONFORMANCE_REFERENCE=gridgame exec {} \"$@\"\n",
                        env!("CARGO_BIN_EXE_boxes-harness")
                    ),
                )
                .unwrap();
                std::fs::set_permissions(
                    &script,
                    std::os::unix::fs::PermissionsExt::from_mode(0o755),
                )
                .unwrap();
            }
            return (script.display().to_string(), None);
        }
        "codingame" => {
            return (
                env!("CARGO_BIN_EXE_codingame-fixture-faulty").to_owned(),
                Some(("CG_FAULT", "none")),
            );
        }
        _ => (env!("CARGO_BIN_EXE_boxes-fixture-variant"), "boxes"),
    };
    let link = dir.join(format!("stand-in-{name}/{name}"));
    if !link.exists() {
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(fixture, &link).unwrap();
    }
    (link.display().to_string(), None)
}

/// The arguments as run: programs replaced, `diff` shortened.
fn as_run(args: &[String], dir: &Path) -> (Vec<String>, Vec<(&'static str, &'static str)>) {
    let spec = args
        .iter()
        .position(|a| a == "--spec")
        .and_then(|i| args.get(i + 1))
        .map_or("boxes", String::as_str);
    let mut out = Vec::new();
    let mut env = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        out.push(word.clone());
        match word.as_str() {
            "--bin" | "--against" => {
                let named = words.next();
                // A program the page itself wrote is the reader's own, and
                // so is a command line naming a file of a folder it wrote
                // (`python3 submissions/bob/fuel.py`, or a typo there).
                let written = |n: &&String| {
                    let in_written = |w: &String| {
                        let path = dir.join(w);
                        path.is_file() || path.parent().is_some_and(|p| p != dir && p.is_dir())
                    };
                    dir.join(n).is_file()
                        || shlex::split(n).is_some_and(|w| w.iter().skip(1).any(in_written))
                };
                if let Some(own) = named.filter(written) {
                    out.push(own.clone());
                    continue;
                }
                let (bin, var) = stand_in(dir, spec);
                env.extend(var);
                out.push(bin);
            }
            "--time" => {
                words.next();
                out.push("1".to_owned());
            }
            "--sessions" => {
                words.next();
                out.push("20".to_owned());
            }
            _ => {}
        }
    }
    if out.iter().any(|w| w == "diff") && !out.iter().any(|w| w == "--sessions" || w == "--time") {
        out.extend(["--sessions".to_owned(), "20".to_owned()]);
    }
    (out, env)
}

#[test]
fn every_documented_harness_command_runs_as_documented() {
    let (blocks, _) = documented();
    assert!(blocks.len() >= 5, "too few documented commands: {blocks:?}");
    let mut problems = Vec::new();
    // A block written again on another page (`--bin ./boxes --score` in
    // the README and boxes.md) runs once: in a fresh folder the same
    // commands do the same, and each whole-suite run costs a second of CPU.
    let mut ran = std::collections::HashSet::new();
    for block in blocks {
        let same: Option<Vec<(Vec<String>, i32, bool)>> = block
            .iter()
            .map(|step| match step {
                Step::Run(c) => Some((c.args.clone(), c.exit, c.contained)),
                Step::Write(..) => None,
            })
            .collect();
        if same.is_some_and(|same| !ran.insert(same)) {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        for step in block {
            let command = match step {
                Step::Run(command) => command,
                Step::Write(at, path, text) => {
                    if let Err(e) = write_file(&dir.path().join(&path), &text) {
                        problems.push(format!("{at}: writing {path}: {e}"));
                    }
                    continue;
                }
            };
            let (args, env) = as_run(&command.args, dir.path());
            let mut cmd = Command::cargo_bin("boxes-harness").unwrap();
            cmd.current_dir(dir.path())
                .env("NO_COLOR", "1")
                .env(
                    "CONFORMANCE_CONTAINMENT",
                    if command.contained { "" } else { "group" },
                )
                .env_remove("BOXES_BIN")
                .env_remove("NOGO_BIN")
                .env_remove("CODINGAME_BIN")
                // What the documented commands do, not how fast the
                // reference bot answers on a loaded machine (TIME-2's
                // 100 ms for a debug build beside other tests): speed is
                // benchmarked (`cargo bench -p codingame-reference`).
                .env("CODINGAME_TIME_FACTOR", "10")
                .args(&args);
            for (k, v) in env {
                cmd.env(k, v);
            }
            let out = cmd.output().unwrap();
            let code = out.status.code().unwrap_or(-1);
            if code != command.exit {
                problems.push(format!(
                    "{}: boxes-harness {} exited {code}, documented {}\n{}",
                    command.at,
                    args.join(" "),
                    command.exit,
                    String::from_utf8_lossy(&out.stderr)
                        .lines()
                        .take(5)
                        .collect::<Vec<_>>()
                        .join("\n")
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// Writes a file a tutorial's reader writes; a script is made executable.
fn write_file(path: &Path, text: &str) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, text)?;
    if text.starts_with("#!") {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

#[test]
fn file_blocks_are_read_with_their_path_and_text() {
    let text = "```python file=q/m.py\n#!/usr/bin/env python3\nprint(1)\n```\n```sh\nboxes-harness list\n```\n";
    assert_eq!(
        blocks(text),
        [
            Block::File(
                1,
                "q/m.py".to_owned(),
                "#!/usr/bin/env python3\nprint(1)\n".to_owned()
            ),
            Block::Sh(vec![(6, "boxes-harness list".to_owned())]),
        ]
    );
}

#[test]
fn the_block_reader_skips_no_run_blocks_and_joins_lines() {
    let text = "```sh no-run\nboxes-harness --nope\n```\n```sh\n# a comment\nboxes-harness --bin x \\\n    --score\n```\n```yaml\nboxes-harness x\n```\n";
    let blocks = sh_blocks(text);
    assert_eq!(blocks.len(), 1, "{blocks:?}");
    assert_eq!(
        blocks[0],
        vec![(6, "boxes-harness --bin x --score".to_owned())]
    );
}
