//! `verify`'s table: one line per jury submission (its folder, what it
//! got, its slowest case, whether they agree), the cause of each
//! rejection named by its test group, case and the validator's reason,
//! and the count that decides the exit status.

use std::fmt::Write as _;

use crate::packs::problem::limit::number;
use crate::packs::problem::package::{Format, Problem};
use crate::packs::problem::run::Verdict;
use crate::packs::problem::verify::{Report, Row, agrees};

/// The table, and how many submissions disagree with their folder.
pub fn render(problem: &Problem, report: &Report) -> (String, usize) {
    let mut out = String::new();
    let kind = match (problem.scoring, problem.interactive) {
        (true, true) => "scoring, interactive",
        (true, false) => "scoring",
        (false, true) => "pass-fail, interactive",
        (false, false) => "pass-fail",
    };
    let format = match problem.format {
        Format::Legacy => "legacy",
        Format::Draft2023 => "2023-07-draft",
    };
    let cases = problem.root.all_cases();
    let secret = cases
        .iter()
        .filter(|(_, c)| c.visibility == crate::model::schema::Visibility::Secret)
        .count();
    let _ = writeln!(
        out,
        "{} ({format}, {kind}, {} cases of which {secret} secret; {})",
        problem.name,
        cases.len(),
        report.time.words(&problem.time)
    );
    let width = report
        .rows
        .iter()
        .map(|(s, _)| s.name.len())
        .max()
        .unwrap_or(10)
        .max(10);
    let _ = writeln!(
        out,
        "{:width$}  {:8}  {:>7}  result",
        "submission", "got", "time"
    );
    let mut disagree = 0;
    for (sub, row) in &report.rows {
        let verdict = agrees(&sub.folder, row, problem.scoring, report.full_score);
        let (got, time, detail) = match row {
            Row::Skipped(why) => ("-".to_owned(), String::new(), format!("skipped: {why}")),
            Row::CompileError(log) => (
                "CE".to_owned(),
                String::new(),
                format!("compile error: {}", log.lines().next().unwrap_or_default()),
            ),
            Row::Graded(g, slowest) => {
                let mut got = g.verdict.short().to_owned();
                if problem.scoring {
                    let _ = write!(got, " {}", number(g.score));
                }
                let cause = g.first_failure.as_ref().map_or_else(String::new, |f| {
                    let group = if f.group.is_empty() { "data" } else { &f.group };
                    format!(
                        "{} in group {group}, case {}: {}",
                        f.verdict.short(),
                        f.case,
                        first_line(&f.reason)
                    )
                });
                (got, format!("{:.2}s", slowest.as_secs_f64()), cause)
            }
        };
        let word = match verdict {
            None => "",
            Some(true) => "agrees",
            Some(false) => {
                disagree += 1;
                "DISAGREES"
            }
        };
        let expected = expected_words(&sub.folder, problem.scoring);
        let _ = writeln!(
            out,
            "{:width$}  {got:8}  {time:>7}  {}",
            sub.name,
            [word, detail.as_str()]
                .into_iter()
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(": ")
        );
        if verdict == Some(false) {
            let _ = writeln!(
                out,
                "{:width$}  (its folder {}: {expected})",
                "", sub.folder
            );
        }
    }
    let run = report
        .rows
        .iter()
        .filter(|(_, r)| !matches!(r, Row::Skipped(_)))
        .count();
    let _ = writeln!(
        out,
        "{run} of {} submissions run; {disagree} disagree with their folder",
        report.rows.len()
    );
    (out, disagree)
}

/// What a folder expects, in words.
fn expected_words(folder: &str, scoring: bool) -> &'static str {
    match folder {
        "accepted" if scoring => "accepted with the full score",
        "accepted" => "accepted on every case",
        "partially_accepted" => "accepted with less than the full score",
        "wrong_answer" => "a wrong answer somewhere",
        "time_limit_exceeded" => "a timeout",
        "run_time_error" => "a crash",
        _ => "rejected",
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

/// Whether any graded submission was accepted (a table with none ran no
/// check of the time limit).
pub fn any_accepted(report: &Report) -> bool {
    report
        .rows
        .iter()
        .any(|(_, r)| matches!(r, Row::Graded(g, _) if g.verdict == Verdict::Accepted))
}
