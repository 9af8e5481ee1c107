//! Output files by rule: a failure whose every part is a file (missing,
//! extra or different) is one cause by what is wrong with the files
//! (not written, written where none is, written otherwise), never by
//! their names or bytes, and its label blames the rules that judge the
//! case's files (those declaring a `files:` tolerance, else the case's
//! own): a program that never saves is one cause ("files: not written
//! where the reference writes them"; its example "does not write `out`
//! (SAVE-1, SAVE-3)"), not one a file, a case's rules and a kind of
//! difference. A file a checker judged
//! speaks by the checker's reason instead ([`crate::judge::decided`]).
//!
//! Where the model marks what writes a file or a stderr message (an
//! [`Aside`] of its record: `reference_kit::trace::wrote_aside`), a
//! failure whose every part is such a thing left undone (a file not
//! written, or left as the case gave it; a message missing from stderr,
//! the rest of stderr as the reference's) is one cause keyed by that
//! context ("does not save the game (SAVE-1, SAVE-2, SAVE-4)"), whichever
//! file or message it misses ([`blame_asides`]): never saving is one bug,
//! whether the case saves or fails to.

use super::signature::{Cause, Edit, PartCause, Place};
use crate::exec::run::Stream;
use crate::judge::compare::Mismatch;
use crate::judge::provenance::{Aside, Channel};

/// Blames a failure whose every part is an aside of the reference left
/// undone on that aside's context, all of one context; `unchanged` names
/// the files the run left as the case placed them (not written). Whether
/// it did; a checker's reason on a file left as it was gives way, since
/// the program never wrote it.
pub fn blame_asides(
    cause: &mut Cause,
    label: &mut Option<String>,
    mismatches: &[Mismatch],
    asides: &[Aside],
    unchanged: &[String],
) -> bool {
    let mut context: Option<&Aside> = None;
    let mut said: Vec<String> = Vec::new();
    for m in mismatches {
        let (aside, words, file) = match m {
            Mismatch::FileMissing { path } => {
                (file_aside(asides, path), "not written", path.as_str())
            }
            Mismatch::FileDiffers { path, .. } if unchanged.contains(path) => {
                (file_aside(asides, path), "left as it was", path.as_str())
            }
            Mismatch::Stream {
                stream: Stream::Stderr,
                expected,
                actual,
                dropped: 0,
            } => (lost_message(asides, expected, actual), "not on stderr", ""),
            _ => return false,
        };
        let Some(aside) = aside else { return false };
        match context {
            Some(c) if c.rules != aside.rules || c.what != aside.what => return false,
            Some(_) => {}
            None => context = Some(aside),
        }
        // A file as the case names it; a message without its newline.
        let shown = match aside.channel {
            Channel::File => file.as_bytes(),
            Channel::Stderr => aside.bytes.strip_suffix(b"\n").unwrap_or(&aside.bytes),
        };
        said.push(format!(
            "`{}` {words}",
            crate::bytes::visible::escape(shown)
        ));
    }
    let Some(context) = context else {
        return false;
    };
    let place = Place {
        what: context.what.clone(),
        rules: context.rules.clone(),
    };
    *label = Some(format!(
        "does not {}: {} ({})",
        place.what,
        said.join(", "),
        place.rules.join(", ")
    ));
    cause.parts = vec![PartCause {
        part: "output".to_owned(),
        place: Some(place),
        edit: Edit::Undone,
    }];
    true
}

/// The aside that writes the file `path` (as the case names it; a
/// leading `./` on either side is the same file).
fn file_aside<'a>(asides: &'a [Aside], path: &str) -> Option<&'a Aside> {
    let bare = |p: &[u8]| -> Vec<u8> {
        let mut p = p;
        while let Some(rest) = p.strip_prefix(b"./") {
            p = rest;
        }
        p.to_vec()
    };
    let want = bare(path.as_bytes());
    asides
        .iter()
        .find(|a| a.channel == Channel::File && bare(&a.bytes) == want)
}

/// The stderr aside whose message stderr lacks, where that is its only
/// departure: the expected and actual stderr are the same once every
/// aside message is taken out, and the expected holds more of them.
fn lost_message<'a>(asides: &'a [Aside], expected: &[u8], actual: &[u8]) -> Option<&'a Aside> {
    let messages: Vec<&Aside> = asides
        .iter()
        .filter(|a| a.channel == Channel::Stderr && !a.bytes.is_empty())
        .collect();
    let (mut e, mut a) = (expected.to_vec(), actual.to_vec());
    let mut lost = None;
    for m in messages {
        let (rest_e, in_e) = without(&e, &m.bytes);
        let (rest_a, in_a) = without(&a, &m.bytes);
        if in_e > in_a && lost.is_none() {
            lost = Some(m);
        }
        (e, a) = (rest_e, rest_a);
    }
    lost.filter(|_| e == a)
}

/// `hay` without every occurrence of `needle`, and how many there were.
fn without(hay: &[u8], needle: &[u8]) -> (Vec<u8>, usize) {
    let mut kept = Vec::with_capacity(hay.len());
    let mut count = 0;
    let mut i = 0;
    while i < hay.len() {
        if hay[i..].starts_with(needle) {
            count += 1;
            i += needle.len();
        } else {
            kept.push(hay[i]);
            i += 1;
        }
    }
    (kept, count)
}

/// Blames a failure made of file parts alone on `rules`; a cause already
/// named (`label` set) is left as it is.
pub fn blame_files(
    cause: &mut Cause,
    label: &mut Option<String>,
    mismatches: &[Mismatch],
    rules: &[String],
) {
    let files_only =
        !cause.parts.is_empty() && cause.parts.iter().all(|p| p.part.starts_with("file"));
    if label.is_some() || !files_only || rules.is_empty() {
        return;
    }
    let mut kinds: Vec<&str> = Vec::new();
    let mut said: Vec<String> = Vec::new();
    for m in mismatches {
        let (path, kind, how) = match m {
            Mismatch::FileMissing { path } => (
                path,
                "not written where the reference writes them",
                "does not write",
            ),
            Mismatch::FileDiffers { path, .. } => (
                path,
                "written otherwise than the reference",
                "writes otherwise",
            ),
            Mismatch::FileUnexpected { path } => {
                (path, "written where the reference writes none", "writes")
            }
            _ => continue,
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
        said.push(format!(
            "{how} `{}`",
            crate::bytes::visible::escape(path.as_bytes())
        ));
    }
    let kind = match kinds.as_slice() {
        [one] => (*one).to_owned(),
        _ => "not as the reference writes them".to_owned(),
    };
    cause.parts = vec![PartCause {
        part: "files".to_owned(),
        place: None,
        edit: Edit::Files(kind),
    }];
    *label = Some(format!("{} ({})", said.join(", "), rules.join(", ")));
}

/// A cause that names no rule where the model marks its output (no span,
/// ruling or aside places it: a status where the model's stdout could
/// not be written, say) is labelled with the case's own rules after its
/// key: every cause names at least one rule. The key
/// stays as it was, so the rules of one case never split a cause.
pub fn name_case_rules(
    cause: &Cause,
    label: &mut Option<String>,
    record: &crate::judge::provenance::Record,
    rules: &[String],
) {
    if rules.is_empty() {
        return;
    }
    let said = label.clone().unwrap_or_else(|| cause.to_string());
    let mut known = rules
        .iter()
        .chain(record.spans.iter().flat_map(|s| &s.rules))
        .chain(record.asides.iter().flat_map(|a| &a.rules))
        .chain(record.rulings.iter().map(|r| &r.rule));
    if known.any(|rule| names(&said, rule)) {
        return;
    }
    *label = Some(format!("{said} (the case's rules: {})", rules.join(", ")));
}

/// Whether `text` names `rule` as a whole word (`SAVE-1`, not `SAVE-12`).
fn names(text: &str, rule: &str) -> bool {
    !rule.is_empty()
        && text.match_indices(rule).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + rule.len()..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-');
            !word(before) && !word(after)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_that_never_saves_is_one_cause_whatever_the_file() {
        let rules = ["SAVE-2".to_owned()];
        let blamed = |m: &[Mismatch]| {
            let (mut cause, mut label) = Cause::labelled(m, None, None);
            blame_files(&mut cause, &mut label, m, &rules);
            (cause, label)
        };
        let missing = Mismatch::FileMissing { path: "out".into() };
        let (one, label) = blamed(&[missing.clone(), Mismatch::FileMissing { path: "b".into() }]);
        let (other, _) = blamed(&[Mismatch::FileDiffers {
            path: "game".into(),
            expected: b"4 4\n".to_vec(),
            actual: b"3 3\n".to_vec(),
        }]);
        assert_ne!(one, other);
        let (again, _) = blamed(&[Mismatch::FileMissing { path: "c".into() }]);
        assert_eq!(one, again);
        assert_eq!(
            one.to_string(),
            "files: not written where the reference writes them"
        );
        assert_eq!(
            label.as_deref(),
            Some("does not write `out`, does not write `b` (SAVE-2)")
        );
        // Another part besides: not the files' alone.
        let status = Mismatch::Ending {
            expected: crate::exec::run::Ending::Exited(0),
            actual: crate::exec::run::Ending::Exited(1),
        };
        let (mixed, _) = blamed(&[status, missing]);
        assert!(!mixed.to_string().starts_with("files"), "{mixed}");
    }

    fn save(channel: Channel, bytes: &[u8]) -> Aside {
        Aside {
            channel,
            at: 10,
            bytes: bytes.to_vec(),
            rules: vec!["SAVE-1".to_owned(), "SAVE-4".to_owned()],
            what: "save the game".to_owned(),
        }
    }

    use crate::judge::cause::test_mismatch::stderr;

    /// Never saving is one cause whether the case saves, fails to, or
    /// saves over a file it placed: named by what the model marks.
    #[test]
    fn a_save_left_undone_is_one_cause_by_the_context_that_writes_it() {
        let asides = [
            save(Channel::File, b"./out"),
            save(Channel::Stderr, b"Unable to save game\n"),
        ];
        let blamed = |m: &[Mismatch], unchanged: &[String]| {
            let (mut cause, mut label) = Cause::labelled(m, None, None);
            let done = blame_asides(&mut cause, &mut label, m, &asides, unchanged);
            (done, cause, label)
        };
        let missing = Mismatch::FileMissing { path: "out".into() };
        let (done, file, label) = blamed(&[missing], &[]);
        assert!(done);
        assert_eq!(file.to_string(), "does not save the game (SAVE-1, SAVE-4)");
        assert_eq!(
            label.as_deref(),
            Some("does not save the game: `out` not written (SAVE-1, SAVE-4)")
        );
        let lost = stderr(b"Unable to save game\nEnd of input\n", b"End of input\n");
        let (done, message, label) = blamed(&[lost], &[]);
        assert!(done);
        assert_eq!(message, file);
        assert!(
            label.is_some_and(|l| l.contains("`Unable to save game` not on stderr")),
            "{message}"
        );
        let placed = Mismatch::FileDiffers {
            path: "out".into(),
            expected: b"4 4\n".to_vec(),
            actual: b"xx\n".to_vec(),
        };
        let (done, kept, _) = blamed(std::slice::from_ref(&placed), &["out".to_owned()]);
        assert!(done);
        assert_eq!(kept, file);
        // Written otherwise, another message, another file: not undone.
        assert!(!blamed(&[placed], &[]).0);
        assert!(!blamed(&[stderr(b"Unable to save game\n", b"Oops\n")], &[]).0);
        assert!(!blamed(&[Mismatch::FileMissing { path: "b".into() }], &[]).0);
        let status = Mismatch::Ending {
            expected: crate::exec::run::Ending::Exited(0),
            actual: crate::exec::run::Ending::Exited(1),
        };
        let missing = Mismatch::FileMissing { path: "out".into() };
        assert!(!blamed(&[status, missing], &[]).0);
    }

    #[test]
    fn a_cause_naming_no_rule_is_labelled_with_the_case_rules() {
        let status = [Mismatch::Ending {
            expected: crate::exec::run::Ending::Exited(0),
            actual: crate::exec::run::Ending::Exited(6),
        }];
        let record = crate::judge::provenance::Record::default();
        let (cause, mut label) = Cause::labelled(&status, Some(&record), None);
        let rules = ["SYS-1".to_owned(), "COMP-3".to_owned()];
        name_case_rules(&cause, &mut label, &record, &rules);
        assert_eq!(
            label.as_deref(),
            Some("status: status 6 where status 0 was expected (the case's rules: SYS-1, COMP-3)")
        );
        // A label naming a rule already is left as it is.
        let mut named = Some("does not save the game (SYS-1)".to_owned());
        name_case_rules(&cause, &mut named, &record, &rules);
        assert_eq!(named.as_deref(), Some("does not save the game (SYS-1)"));
        assert!(names("a (SAVE-1)", "SAVE-1") && !names("SAVE-12", "SAVE-1"));
    }
}
