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
        let (aside, words) = match m {
            Mismatch::FileMissing { path } => (file_aside(asides, path), "not written"),
            Mismatch::FileDiffers { path, .. } if unchanged.contains(path) => {
                (file_aside(asides, path), "left as it was")
            }
            Mismatch::Stream {
                stream: Stream::Stderr,
                expected,
                actual,
                dropped: 0,
            } => (lost_message(asides, expected, actual), "not on stderr"),
            _ => return false,
        };
        let Some(aside) = aside else { return false };
        match context {
            Some(c) if c.rules != aside.rules || c.what != aside.what => return false,
            Some(_) => {}
            None => context = Some(aside),
        }
        let shown = match aside.channel {
            Channel::File => aside.bytes.as_slice(),
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
}
