//! The pages of a cohort: `index.html` (the class view) and each
//! submission's `report.html`. Each is one self-contained file (inline CSS
//! and SVG, no script, nothing fetched) that opens from disk; every text
//! from a submission or a case is escaped.
//!
//! One piece: the two pages share one escaping, style and page frame,
//! and every section of `index.html` reads the same `Cohort`. Its tests
//! are the sibling `html/tests.rs`.

use std::fmt::Write as _;

use crate::output::report::as_f64;

use crate::output::results::VerdictKind;

use super::build::BuildStatus;
use super::cohort::{BINS, Cohort};
use super::record::SubmissionMark;

/// Escapes text for HTML.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Percent-encodes a folder name for a link (a slug holds `%`).
fn href(slug: &str) -> String {
    slug.replace('%', "%25")
}

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;\
padding:0 1em;color:#1b1f24}h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}\
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.25em .6em;border-bottom:1px solid #ddd;\
text-align:left;vertical-align:top}td.n,th.n{text-align:right}code{font-size:.92em}\
.flag{background:#fff3cd}.bad{color:#a40000}.ok{color:#13620f}.muted{color:#667}\
.share{display:inline-block;height:.7em;background:#c0392b}pre{background:#f6f8fa;padding:1em;overflow-x:auto;font-size:.85em}svg text{font:12px sans-serif}.top{display:flex;flex-wrap:wrap;gap:3em}";

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head>\n<body>\n{body}</body></html>\n",
        esc(title)
    )
}

fn mark(x: f64) -> String {
    format!("{}", (x * 100.0).round() / 100.0)
}

fn students(s: &[super::intake::Student]) -> String {
    s.iter()
        .map(|s| {
            if s.email.is_empty() {
                esc(&s.name)
            } else {
                format!("{} &lt;{}&gt;", esc(&s.name), esc(&s.email))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn histogram(c: &Cohort) -> String {
    let (w, h, pad) = (600.0, 200.0, 30.0);
    let top = as_f64(c.histogram.iter().copied().max().unwrap_or(0).max(1));
    let bar = (w - pad) / as_f64(BINS);
    let mut svg = format!(
        "<svg id=\"histogram\" role=\"img\" aria-label=\"distribution of marks\" width=\"{w}\" \
         height=\"{}\" viewBox=\"0 0 {w} {}\">",
        h + 40.0,
        h + 40.0
    );
    for (i, &count) in c.histogram.iter().enumerate() {
        let bh = (as_f64(count) / top) * (h - 20.0);
        let x = pad + as_f64(i) * bar;
        let from = c.max * as_f64(i) / as_f64(BINS);
        let to = c.max * as_f64(i + 1) / as_f64(BINS);
        let _ = write!(
            svg,
            "<rect class=\"bar\" data-count=\"{count}\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" \
             height=\"{bh:.1}\" fill=\"#2e6fba\"><title>{} to {}: {count}</title></rect>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{count}</text>\
             <text x=\"{x:.1}\" y=\"{:.1}\">{}</text>",
            x + 2.0,
            h - bh,
            bar - 4.0,
            mark(from),
            mark(to),
            x + bar / 2.0,
            h - bh - 4.0,
            h + 16.0,
            mark(from),
        );
    }
    let _ = write!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text></svg>",
        w - 2.0,
        h + 16.0,
        mark(c.max)
    );
    svg
}

/// `index.html`: the header (suite, content hash, build line), every
/// submission with a link to its report, the causes several share, the
/// distribution and averages, the cases more than half failed, then every
/// case, collapsed by category.
pub fn index(c: &Cohort) -> String {
    let mut b = String::new();
    let _ = write!(
        b,
        "<h1>{} — {} submissions</h1>\n<p class=\"muted\" id=\"header\">suite {} (content \
         <code>{}</code>); built with <code>{}</code>; {} built; mean {} and median {} of {} \
         marks</p>\n",
        esc(&c.suite.spec),
        c.submissions,
        esc(&c.suite.suite),
        esc(&c.suite.content_hash),
        esc(&c.suite.build),
        c.built,
        mark(c.mean),
        mark(c.median),
        mark(c.max),
    );
    environment_banner(c, &mut b);
    unmarked_banner(c, &mut b);
    submissions(c, &mut b);
    b.push_str("<h2>Causes shared across submissions</h2>\n<table id=\"causes\"><tr><th>cause</th><th class=\"n\">submissions</th><th class=\"n\">cases</th><th>which</th></tr>\n");
    for s in &c.shared_causes {
        let _ = writeln!(
            b,
            "<tr><td><code>{}</code></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            esc(&s.cause),
            s.submissions.len(),
            s.cases,
            esc(&s.submissions.join(", "))
        );
    }
    if c.shared_causes.is_empty() {
        b.push_str("<tr><td colspan=\"4\" class=\"muted\">none: no cause is shared by two submissions</td></tr>\n");
    }
    missing_checks(c, &mut b);
    memory_errors(c, &mut b);
    let _ = write!(
        b,
        "<div class=\"top\"><div><h2>Distribution of marks</h2>\n{}</div>\n",
        histogram(c)
    );
    b.push_str("<div><h2>Averages per category</h2>\n<table id=\"categories\"><tr><th>category</th><th class=\"n\">mean</th><th class=\"n\">of</th></tr>\n");
    for cat in &c.categories {
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            esc(&cat.name),
            mark(cat.mean),
            mark(cat.marks)
        );
    }
    b.push_str("</table></div></div>\n");
    flagged(c, &mut b);
    cases(c, &mut b);
    page(&format!("{} cohort", c.suite.spec), &b)
}

/// The checks the class misses, by rule, with the submissions missing
/// each: what a teacher reteaches. Closes the shared causes' table first.
fn missing_checks(c: &Cohort, b: &mut String) {
    b.push_str("</table>\n<h2>Checks the class misses</h2>\n<table id=\"missing-checks\"><tr><th>rule</th><th>check</th><th class=\"n\">submissions</th><th class=\"n\">cases</th><th>which</th></tr>\n");
    for m in &c.missing_checks {
        let _ = writeln!(
            b,
            "<tr><td><code>{}</code></td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            esc(&m.rule),
            esc(&m.check),
            m.submissions.len(),
            m.cases,
            esc(&m.submissions.join(", "))
        );
    }
    if c.missing_checks.is_empty() {
        b.push_str("<tr><td colspan=\"5\" class=\"muted\">none: no submission lets through what a rule rejects</td></tr>\n");
    }
    b.push_str("</table>\n");
}

/// The memory errors the class makes, by kind and place, with the
/// submissions making each (only under `--memcheck`: none otherwise);
/// those only warned about (`warn`) say so.
fn memory_errors(c: &Cohort, b: &mut String) {
    if c.memory_errors.is_empty() {
        return;
    }
    b.push_str("<h2>Memory errors</h2>\n<table id=\"memory-errors\"><tr><th>kind</th><th>where</th><th class=\"n\">submissions</th><th class=\"n\">cases</th><th>which</th><th>marks</th></tr>\n");
    for m in &c.memory_errors {
        let _ = writeln!(
            b,
            "<tr><td><code>{}</code></td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td></tr>",
            esc(&m.kind),
            esc(&m.place),
            m.submissions.len(),
            m.cases,
            esc(&m.submissions.join(", ")),
            if m.warning {
                "warning: none lost"
            } else {
                "its cases failed"
            }
        );
    }
    b.push_str("</table>\n");
}

/// The cases more than half the class failed, with the rules they cite.
fn flagged(c: &Cohort, b: &mut String) {
    let flagged: Vec<_> = c.cases.iter().filter(|x| x.flagged).collect();
    let _ = writeln!(
        b,
        "<h2>Failed by more than half the class: check the ruling or the teaching</h2>\n\
         <p class=\"muted\">{} case(s); shares are of the submissions that built.</p>",
        flagged.len()
    );
    if !c.flagged_rules.is_empty() {
        let rules: Vec<String> = c
            .flagged_rules
            .iter()
            .map(|r| format!("<code>{}</code> ({})", esc(&r.rule), r.cases))
            .collect();
        let _ = writeln!(
            b,
            "<p id=\"flagged-rules\">The rules they cite, the most first: {}</p>",
            rules.join(", ")
        );
    }
    b.push_str("<ul id=\"flagged\">\n");
    for x in &flagged {
        let _ = writeln!(
            b,
            "<li class=\"flagged\"><code>{}</code>: {} of {}{}</li>",
            esc(&x.name),
            x.failed,
            x.judged,
            if x.ambiguous {
                " (ambiguous ruling)"
            } else {
                ""
            }
        );
    }
    b.push_str("</ul>\n");
}

/// Every case with the share that failed it, one collapsed section per
/// category (the most failed case first within it).
fn cases(c: &Cohort, b: &mut String) {
    b.push_str("<h2>Every case, by category</h2>\n<div id=\"cases\">\n");
    let mut categories: Vec<&str> = c
        .cases
        .iter()
        .map(|x| x.category.as_deref().unwrap_or(""))
        .collect();
    categories.sort_unstable();
    categories.dedup();
    for cat in categories {
        let mine: Vec<_> = c
            .cases
            .iter()
            .filter(|x| x.category.as_deref().unwrap_or("") == cat)
            .collect();
        let failed_by_some = mine.iter().filter(|x| x.failed > 0).count();
        let flagged = mine.iter().filter(|x| x.flagged).count();
        let _ = writeln!(
            b,
            "<details><summary>{} — {} case(s), {failed_by_some} failed by someone, {flagged} \
             flagged</summary>\n<table><tr><th>case</th><th class=\"n\">failed</th><th>share</th></tr>",
            esc(if cat.is_empty() { "(no category)" } else { cat }),
            mine.len()
        );
        for x in mine {
            let share = if x.judged == 0 {
                0.0
            } else {
                as_f64(x.failed) / as_f64(x.judged)
            };
            let _ = writeln!(
                b,
                "<tr{}><td><code>{}</code>{}</td><td class=\"n\">{}/{}</td>\
                 <td><span class=\"share\" style=\"width:{:.0}px\"></span> {:.0}%</td></tr>",
                if x.flagged { " class=\"flag\"" } else { "" },
                esc(&x.name),
                if x.ambiguous {
                    " <span class=\"muted\">ambiguous</span>"
                } else {
                    ""
                },
                x.failed,
                x.judged,
                share * 100.0,
                share * 100.0
            );
        }
        b.push_str("</table></details>\n");
    }
    b.push_str("</div>\n");
}

/// The table of submissions, first on the page: each links its report.
/// The banner over everything when the environment failed submissions:
/// their marks are not the programs' and must not be published.
fn environment_banner(c: &Cohort, b: &mut String) {
    if c.environment.is_empty() {
        return;
    }
    b.push_str(
        "<div id=\"environment\" style=\"border:3px solid #b00;padding:0.5em 1em;margin:1em 0\">\
         <h2>Environment failures: do not publish these marks</h2>\n<p>These submissions failed \
         for what the machine that marked them lacks, not for their own bugs. Install what is \
         missing where the marks run, then mark again (their marks are re-made; the others \
         kept).</p>\n<ul>\n",
    );
    for e in &c.environment {
        let which: Vec<String> = e.submissions.iter().map(|s| esc(s)).collect();
        let (n, cases, cause) = (e.submissions.len(), e.cases, esc(&e.cause));
        let _ = writeln!(
            b,
            "<li><code>{cause}</code>: {n} submission(s), {cases} case(s): {}</li>",
            which.join(", ")
        );
    }
    b.push_str("</ul></div>\n");
}

/// The submissions of the class without a row (`mark merge
/// --allow-missing`, a submission the harness could not mark).
fn unmarked_banner(c: &Cohort, b: &mut String) {
    if c.unmarked.is_empty() {
        return;
    }
    let which: Vec<String> = c.unmarked.iter().map(|u| esc(&u.describe())).collect();
    let _ = writeln!(
        b,
        "<p id=\"unmarked\" style=\"border:3px solid #b00;padding:0.5em 1em\">Not marked \
         ({}): {}. Mark them, then build the class view again.</p>",
        which.len(),
        which.join(", ")
    );
}

fn submissions(c: &Cohort, b: &mut String) {
    b.push_str("<h2>Submissions</h2>\n<table id=\"submissions\"><tr><th>id</th><th>students</th><th>build</th><th class=\"n\">mark</th><th>first cause</th></tr>\n");
    for r in &c.rows {
        let _ = writeln!(
            b,
            "<tr><td><a class=\"report\" href=\"submissions/{}/report.html\">{}</a></td><td>{}</td>\
             <td class=\"{}\">{}</td><td class=\"n\">{}</td><td><code>{}</code></td></tr>",
            href(&r.slug),
            esc(&r.id),
            students(&r.students),
            if r.build == BuildStatus::Ok {
                "ok"
            } else {
                "bad"
            },
            r.build,
            if r.unjudged.is_empty() {
                mark(r.total)
            } else {
                "not judged".to_owned()
            },
            esc(r.first_cause.as_deref().unwrap_or(""))
        );
    }
    b.push_str("</table>\n");
}

/// One cause of a submission as an item of a list: its cases, the first
/// twelve named.
fn cause_item(b: &mut String, c: &crate::output::results::CauseRecord) {
    let shown: Vec<&str> = c.cases.iter().take(12).map(String::as_str).collect();
    let more = c.cases.len().saturating_sub(shown.len());
    let _ = writeln!(
        b,
        "<li><code>{}</code>: {} case(s): {}{}</li>",
        esc(&c.cause),
        c.cases.len(),
        esc(&shown.join(", ")),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    );
}

/// Bytes of `report.txt` shown in `report.html`.
const REPORT_SHOWN: usize = 256 << 10;

/// A submission's `report.html`, with `report.txt` (what `--bin` prints:
/// each cause's worked example and the command that reproduces it) shown
/// in full below the summary.
pub fn report(m: &SubmissionMark, suite: &str, text: &[u8]) -> String {
    let mut b = String::new();
    let _ = writeln!(
        b,
        "<p><a href=\"../../index.html\">← the class</a></p>\n<h1>{}</h1>\n<p>{}</p>\n\
         <p>build: <b class=\"{}\">{}</b>, {} warning(s){} · <a href=\"build.log\">build.log</a> · \
         <a href=\"report.txt\">report.txt</a></p>\n<p>mark: <b>{}</b> of {} ({suite})</p>",
        esc(&m.id),
        students(&m.students),
        if m.build == BuildStatus::Ok {
            "ok"
        } else {
            "bad"
        },
        m.build,
        m.warnings,
        m.reason
            .as_ref()
            .map(|r| format!(": {}", esc(r)))
            .unwrap_or_default(),
        if m.unjudged.is_empty() {
            mark(m.total)
        } else {
            "not judged".to_owned()
        },
        mark(m.max),
        suite = esc(suite)
    );
    b.push_str(
        "<table><tr><th>category</th><th class=\"n\">earned</th><th class=\"n\">of</th></tr>\n",
    );
    for c in &m.categories {
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            esc(&c.name),
            mark(c.earned),
            mark(c.marks)
        );
    }
    let _ = writeln!(
        b,
        "</table>\n<p>{} passed, {} failed, {} not judged.</p>\n<h2>Causes, the most cases first</h2>\n<ol>",
        m.passed, m.failed, m.errors
    );
    for c in &m.causes {
        cause_item(&mut b, c);
    }
    b.push_str("</ol>\n");
    if !m.memory_warnings.is_empty() {
        b.push_str("<h2>Memory warnings (no marks lost)</h2>\n<ol id=\"memory-warnings\">\n");
        for c in &m.memory_warnings {
            cause_item(&mut b, c);
        }
        b.push_str("</ol>\n");
    }
    b.push_str("<p class=\"muted\">The full differences, each with the command that reproduces it, are in the report below (<a href=\"report.txt\">report.txt</a>).</p>\n");
    let failed = m
        .cases
        .iter()
        .filter(|c| c.verdict != VerdictKind::Passed)
        .count();
    let struck = m
        .cases
        .iter()
        .filter(|c| c.verdict == VerdictKind::Environment)
        .count();
    let struck = if struck > 0 {
        format!(" ({struck} of them not judged: the environment's failure, not the program's)")
    } else {
        String::new()
    };
    let _ = writeln!(
        b,
        "<p class=\"muted\">{failed} case(s) not passed in all{struck}.</p>"
    );
    let shown = String::from_utf8_lossy(text.get(..REPORT_SHOWN).unwrap_or(text));
    let _ = writeln!(
        b,
        "<h2>The report</h2>\n<pre id=\"report\">{}{}</pre>",
        esc(&shown),
        if text.len() > REPORT_SHOWN {
            "\n[… the rest is in report.txt]"
        } else {
            ""
        }
    );
    page(&format!("{} — {}", m.id, suite), &b)
}

#[cfg(test)]
mod tests;
