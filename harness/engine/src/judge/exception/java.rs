//! A Java uncaught exception: `Exception in thread "main" TYPE: message`,
//! its frames (`\tat pkg.Class.method(File.java:N)`), and each
//! `Caused by: TYPE: message` with frames of its own (`... N more`
//! standing for the frames it shares). The deepest cause is what went
//! wrong first, and is the one named; its own frame, else the first own
//! frame of the causes around it. A main class that cannot load is
//! `Error: Could not find or load main class X` and its `Caused by`.

use super::{Frame, Language, Raised, line_number, type_line};

const THREAD: &str = "Exception in thread \"";
const CAUSED: &str = "Caused by: ";
const LOAD: &str = "Error: Could not find or load main class";

pub(super) fn parse(lines: &[&str]) -> Option<Raised> {
    let start = lines
        .iter()
        .rposition(|l| l.starts_with(THREAD) || l.starts_with(LOAD))?;
    let first = lines[start];
    // Each exception of the chain with its own frames, outermost first.
    let mut chain: Vec<(String, String, Option<Frame>)> = Vec::new();
    if let Some(rest) = first.strip_prefix(THREAD) {
        let (_, what) = rest.split_once("\" ")?;
        let (kind, message) = type_line(what, |_| true)?;
        chain.push((kind, message, None));
    }
    for line in lines.get(start + 1..).unwrap_or_default() {
        if let Some(what) = line.strip_prefix(CAUSED) {
            let Some((kind, message)) = type_line(what, |_| true) else {
                break;
            };
            chain.push((kind, message, None));
        } else if let Some(at) = line.trim_start().strip_prefix("at ") {
            if let Some(last) = chain.last_mut()
                && last.2.is_none()
            {
                last.2 = own_frame(at);
            }
        } else if !line.trim_start().starts_with("...") {
            break;
        }
    }
    let frame = chain.iter().rev().find_map(|c| c.2.clone());
    let (kind, message, _) = chain.pop()?;
    Some(Raised {
        language: Language::Java,
        kind: kind.rsplit('.').next().unwrap_or(&kind).to_owned(),
        message,
        frame,
    })
}

/// `pkg.Class.method(File.java:N)` outside the JDK: a frame of the
/// program's own.
fn own_frame(at: &str) -> Option<Frame> {
    let (method, location) = at.split_once('(')?;
    // `java.base/java.io.…`: a module's frame; the JDK's packages.
    let library = method.contains('/')
        || ["java.", "javax.", "jdk.", "sun.", "com.sun."]
            .iter()
            .any(|p| method.starts_with(p));
    if library {
        return None;
    }
    let (file, line) = location.strip_suffix(')')?.rsplit_once(':')?;
    Some(Frame {
        file: file.to_owned(),
        line: line_number(line)?,
    })
}
