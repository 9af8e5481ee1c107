//! Proof over the suite (issue 19): played by the reference's own rules,
//! the suite's cases make the computer decide from every first-level list
//! (COMP-2, COMP-3, COMP-4) and settle a tie at every level (COMP-5,
//! COMP-6, COMP-7), on every board size 2..8.

use std::collections::BTreeSet;
use std::path::Path;

use gridgame_reference::chooser::{self, FirstLevel, TieLevel};
use gridgame_reference::grid::{Grid, Player};
use gridgame_reference::moves::{self, Line};
use gridgame_reference::size;

/// Every computer decision a stdin makes, with its board size.
fn decisions(stdin: &[u8]) -> Vec<(u8, FirstLevel, TieLevel)> {
    let mut out = Vec::new();
    let mut lines = stdin.split(|&b| b == b'\n');
    let Some(n) = lines.by_ref().find_map(size::parse) else {
        return out;
    };
    let mut grid = Grid::new(n);
    for line in lines {
        match moves::read(line, &grid) {
            Line::Quit => break,
            Line::Bad => {}
            Line::Move(e) => {
                if grid.fill(e, Player::Human) == 0 {
                    while let Some(d) = chooser::decide(&grid) {
                        out.push((n, d.first, d.settled_by));
                        if grid.fill(d.edge, Player::Computer) == 0 || grid.is_full() {
                            break;
                        }
                    }
                }
                if grid.is_full() {
                    break;
                }
            }
        }
    }
    out
}

#[test]
fn the_suite_reaches_every_level_of_the_chooser_on_every_size() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../cases/gridgame");
    let mut seen = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() || dir.ends_with("tools") {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_none_or(|e| e != "yaml") {
                continue;
            }
            let case: yaml_serde::Value =
                yaml_serde::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let stdin = match (&case["stdin"], &case["stdin-file"]) {
                (yaml_serde::Value::String(s), _) => s.as_bytes().to_vec(),
                (_, yaml_serde::Value::String(f)) => std::fs::read(dir.join(f)).unwrap(),
                _ => continue,
            };
            seen.extend(decisions(&stdin));
        }
    }
    let firsts: BTreeSet<FirstLevel> = seen.iter().map(|d| d.1).collect();
    let ties: BTreeSet<TieLevel> = seen.iter().map(|d| d.2).collect();
    let sizes: BTreeSet<u8> = seen.iter().map(|d| d.0).collect();
    assert_eq!(
        firsts,
        [FirstLevel::Complete, FirstLevel::Safe, FirstLevel::Any].into(),
        "first-level lists reached"
    );
    assert_eq!(
        ties,
        [
            TieLevel::Alone,
            TieLevel::Freedom,
            TieLevel::XSum,
            TieLevel::YSum
        ]
        .into(),
        "tie levels reached"
    );
    assert_eq!(sizes, (2..=8).collect(), "sizes where the computer moved");
    // COMP-7 decides on boards of more than one size.
    let y_sizes: BTreeSet<u8> = seen
        .iter()
        .filter(|d| d.2 == TieLevel::YSum)
        .map(|d| d.0)
        .collect();
    assert!(y_sizes.len() >= 2, "{y_sizes:?}");
}
