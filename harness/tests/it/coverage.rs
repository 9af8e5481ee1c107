//! Each pack's suite covers its rulings (`cases/boxes`, `cases/nogo`):
//! every rule of its `rules.yaml` (which lists exactly the rule IDs of the
//! rulings) has cases, every case cites
//! known rules and sits in its category's folder, every case citing a wholly
//! ambiguous rule is tagged `ambiguous`, and the suite is as large as the
//! issue asks. The YAML is read here with `yaml_serde` directly, keeping only
//! the keys this test needs, so it does not depend on the harness's schema.
#![expect(
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers: an unreadable suite file must fail the test loudly"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Minimum cases per rule.
const PER_RULE: usize = 2;
/// Minimum cases per marking category.
const PER_CATEGORY: usize = 6;
const AMBIGUOUS_TAG: &str = "ambiguous";

/// A pack's suite and what the issue asks of its size.
struct Pack {
    name: &'static str,
    /// Minimum `full-games` cases.
    full_games: usize,
    /// Minimum size of the whole suite.
    total: usize,
}

const PACKS: [Pack; 2] = [
    Pack {
        name: "boxes",
        full_games: 30,
        total: 250,
    },
    Pack {
        name: "nogo",
        full_games: 20,
        total: 250,
    },
];

#[derive(Deserialize)]
struct RulesFile {
    rules: Vec<Rule>,
}

#[derive(Deserialize)]
struct Rule {
    id: String,
    summary: String,
    ambiguous: String,
}

#[derive(Deserialize)]
struct SuiteFile {
    categories: Vec<Category>,
}

#[derive(Deserialize)]
struct Category {
    name: String,
}

/// The keys of a case this test checks; the rest belong to the harness.
#[derive(Deserialize)]
struct CaseKeys {
    summary: String,
    category: String,
    rules: Vec<String>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    hint: Option<String>,
    #[serde(default)]
    mode: Option<String>,
}

struct Case {
    /// `category/stem`, as the harness names it.
    name: String,
    folder: String,
    keys: CaseKeys,
}

fn cases_dir(pack: &Pack) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cases")
        .join(pack.name)
}

fn read_yaml<T: for<'de> Deserialize<'de>>(path: &Path) -> T {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    yaml_serde::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn rules(pack: &Pack) -> Vec<Rule> {
    read_yaml::<RulesFile>(&cases_dir(pack).join("rules.yaml")).rules
}

fn categories(pack: &Pack) -> Vec<String> {
    read_yaml::<SuiteFile>(&cases_dir(pack).join("suite.yaml"))
        .categories
        .into_iter()
        .map(|c| c.name)
        .collect()
}

fn cases(pack: &Pack) -> Vec<Case> {
    let mut out = Vec::new();
    for entry in fs::read_dir(cases_dir(pack)).expect("cases/ exists") {
        let dir = entry.expect("dir entry").path();
        if !dir.is_dir() {
            continue;
        }
        let folder = dir
            .file_name()
            .and_then(|n| n.to_str())
            .expect("utf-8 folder")
            .to_owned();
        for file in fs::read_dir(&dir).expect("category folder") {
            let path = file.expect("dir entry").path();
            if path.extension().and_then(|e| e.to_str()) != Some("yaml") {
                continue;
            }
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("utf-8 name");
            out.push(Case {
                name: format!("{folder}/{stem}"),
                folder: folder.clone(),
                keys: read_yaml(&path),
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The rule IDs of the pack's rulings page.
fn rulings_ids(pack: &Pack) -> Option<BTreeSet<String>> {
    let page = cases_dir(pack).join(format!("{}-rulings.md", pack.name));
    let text = fs::read_to_string(page).ok()?;
    Some(
        text.lines()
            .filter_map(|l| l.strip_prefix("- "))
            .filter_map(|l| l.split_whitespace().next())
            .filter(|id| {
                id.split_once('-').is_some_and(|(k, n)| {
                    !k.is_empty()
                        && k.bytes().all(|b| b.is_ascii_uppercase())
                        && !n.is_empty()
                        && n.bytes().all(|b| b.is_ascii_digit())
                })
            })
            .map(str::to_owned)
            .collect(),
    )
}

#[test]
fn rules_yaml_is_well_formed_and_matches_the_rulings() {
    for pack in &PACKS {
        let rules = rules(pack);
        let mut seen = BTreeSet::new();
        for rule in &rules {
            assert!(seen.insert(rule.id.clone()), "{} listed twice", rule.id);
            assert!(
                !rule.summary.trim().is_empty(),
                "{} has no summary",
                rule.id
            );
            assert!(
                ["no", "part", "whole"].contains(&rule.ambiguous.as_str()),
                "{}: ambiguous must be no, part or whole, not {:?}",
                rule.id,
                rule.ambiguous
            );
        }
        if let Some(ids) = rulings_ids(pack) {
            assert_eq!(seen, ids, "rules.yaml and the rulings list different IDs");
        }
    }
}

#[test]
fn every_rule_has_cases_and_every_case_cites_known_rules() {
    for pack in &PACKS {
        let rules = rules(pack);
        let known: BTreeSet<&str> = rules.iter().map(|r| r.id.as_str()).collect();
        let mut counts: BTreeMap<&str, usize> = known.iter().map(|id| (*id, 0)).collect();
        let mut problems = Vec::new();
        for case in &cases(pack) {
            if case.keys.rules.is_empty() {
                problems.push(format!("{} cites no rule", case.name));
            }
            for id in &case.keys.rules {
                match counts.get_mut(id.as_str()) {
                    Some(n) => *n += 1,
                    None => problems.push(format!("{} cites unknown rule {id}", case.name)),
                }
            }
        }
        for (id, n) in &counts {
            if *n < PER_RULE {
                problems.push(format!("{id} has {n} cases, at least {PER_RULE} wanted"));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}

#[test]
fn wholly_ambiguous_rules_are_tagged_and_every_tag_is_justified() {
    for pack in &PACKS {
        let rules = rules(pack);
        let whole: BTreeSet<&str> = rules
            .iter()
            .filter(|r| r.ambiguous == "whole")
            .map(|r| r.id.as_str())
            .collect();
        let some: BTreeSet<&str> = rules
            .iter()
            .filter(|r| r.ambiguous != "no")
            .map(|r| r.id.as_str())
            .collect();
        let mut problems = Vec::new();
        for case in &cases(pack) {
            let tagged = case.keys.tags.iter().any(|t| t == AMBIGUOUS_TAG);
            let cites_whole = case
                .keys
                .rules
                .iter()
                .find(|id| whole.contains(id.as_str()));
            if let (Some(id), false) = (cites_whole, tagged) {
                problems.push(format!(
                    "{} cites wholly ambiguous {id} but is not tagged",
                    case.name
                ));
            }
            let cites_some = case.keys.rules.iter().any(|id| some.contains(id.as_str()));
            if tagged && !cites_some {
                problems.push(format!(
                    "{} is tagged ambiguous but cites no ambiguous rule",
                    case.name
                ));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}

#[test]
fn cases_sit_in_their_category_and_say_what_they_check() {
    for pack in &PACKS {
        let categories = categories(pack);
        let mut per_category: BTreeMap<&str, usize> =
            categories.iter().map(|c| (c.as_str(), 0)).collect();
        let cases = cases(pack);
        let mut problems = Vec::new();
        for case in &cases {
            let k = &case.keys;
            if k.category != case.folder {
                problems.push(format!(
                    "{}: category {} in the wrong folder",
                    case.name, k.category
                ));
            }
            match per_category.get_mut(k.category.as_str()) {
                Some(n) => *n += 1,
                None => problems.push(format!("{}: unknown category {}", case.name, k.category)),
            }
            if k.summary.trim().is_empty() {
                problems.push(format!("{} has an empty summary", case.name));
            }
            if k.hint.as_deref().is_none_or(|h| h.trim().is_empty()) {
                problems.push(format!("{} has no hint", case.name));
            }
        }
        for (category, n) in &per_category {
            let want = if *category == "full-games" {
                pack.full_games
            } else {
                PER_CATEGORY
            };
            if *n < want {
                problems.push(format!("{category} has {n} cases, at least {want} wanted"));
            }
        }
        if cases.len() < pack.total {
            problems.push(format!(
                "{}: {} cases, at least {} wanted",
                pack.name,
                cases.len(),
                pack.total
            ));
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}

#[test]
fn special_modes_prove_their_rules() {
    for pack in &PACKS {
        let cases = cases(pack);
        let with_mode = |mode: &str, rule: &str| {
            cases
                .iter()
                .filter(|c| c.keys.mode.as_deref() == Some(mode))
                .filter(|c| c.keys.rules.iter().any(|r| r == rule))
                .count()
        };
        assert!(
            with_mode("stdout-full", "SYS-1") >= PER_RULE,
            "SYS-1 needs stdout-full cases"
        );
        assert!(
            with_mode("interactive", "TURN-1") >= PER_RULE,
            "TURN-1 needs interactive cases"
        );
        for case in &cases {
            if case.keys.mode.as_deref() == Some("stdout-full") {
                assert!(
                    case.keys.rules.iter().any(|r| r == "SYS-1"),
                    "{} runs on a full stdout without citing SYS-1",
                    case.name
                );
            }
        }
    }
}
