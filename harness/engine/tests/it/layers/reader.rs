//! The source reader of the layers check: a file's text with comments
//! and strings blanked, its tokens, its `use` trees and the `crate::`,
//! `super::` and `self::` paths it names, each resolved to a module.

use std::collections::BTreeSet;

use super::Source;

/// The text with comments, strings and character literals blanked (lines
/// kept), so that only code is read.
pub(super) fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !is_ident(chars[i - 1]))
            && raw_start(&chars, i + 1).is_some()
        {
            let (hashes, body) = raw_start(&chars, i + 1).unwrap_or((0, i + 1));
            for _ in i..body {
                out.push(' ');
            }
            i = body;
            while i < chars.len() {
                if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                    for _ in 0..=hashes {
                        out.push(' ');
                    }
                    i += hashes + 1;
                    break;
                }
                out.push(blank(chars[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if let Some(&ch) = chars.get(i) {
                    out.push(blank(ch));
                }
                i += 1;
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\''), not a lifetime ('a).
            let close = if next == Some('\\') {
                (i + 3..chars.len().min(i + 12)).find(|&k| chars[k] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            if let Some(end) = close {
                for _ in i..=end {
                    out.push(' ');
                }
                i = end + 1;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// After an `r` at `at - 1`: the number of `#` and where the body starts,
/// when a raw string opens there.
pub(super) fn raw_start(chars: &[char], at: usize) -> Option<(usize, usize)> {
    let mut k = at;
    while chars.get(k) == Some(&'#') {
        k += 1;
    }
    (chars.get(k) == Some(&'"')).then_some((k - at, k + 1))
}

pub(super) fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// A token of code: an identifier, `::`, or one other character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
    Ident(String),
    Sep,
    Punct(char),
}

/// The tokens of code, each with its line (from 1).
pub(super) fn tokens(code: &str) -> Vec<(Tok, usize)> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if is_ident(c) {
            let start = i;
            while i < chars.len() && is_ident(chars[i]) {
                i += 1;
            }
            out.push((Tok::Ident(chars[start..i].iter().collect()), line));
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push((Tok::Sep, line));
            i += 2;
        } else {
            out.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    out
}

/// Reads a `use` tree from `toks[at..]`: every full path it names, each
/// with its line; returns where the tree ends.
pub(super) fn use_tree(
    toks: &[(Tok, usize)],
    mut at: usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, usize)>,
) -> usize {
    let mut path = prefix.to_vec();
    let mut line = toks.get(at).map_or(0, |t| t.1);
    loop {
        match toks.get(at) {
            Some((Tok::Ident(name), l)) => {
                if name == "as" {
                    // `as name`: the alias names nothing new.
                    at += 2;
                    out.push((path, line));
                    return at;
                }
                path.push(name.clone());
                line = *l;
                at += 1;
                if toks.get(at).map(|t| &t.0) == Some(&Tok::Sep) {
                    at += 1;
                } else {
                    out.push((path, line));
                    return at;
                }
            }
            Some((Tok::Punct('{'), _)) => {
                at += 1;
                loop {
                    match toks.get(at) {
                        Some((Tok::Punct('}'), _)) => return at + 1,
                        Some((Tok::Punct(','), _)) => at += 1,
                        None => return at,
                        _ => at = use_tree(toks, at, &path, out),
                    }
                }
            }
            Some((Tok::Punct('*'), l)) => {
                out.push((path, *l));
                return at + 1;
            }
            _ => {
                if !path.is_empty() && path.len() > prefix.len() {
                    out.push((path, line));
                }
                return at;
            }
        }
    }
}

/// Every module path (absolute, from the crate root) a file names, each
/// with its line.
pub(super) fn named_paths(
    source: &Source,
    modules: &BTreeSet<Vec<String>>,
) -> Vec<(Vec<String>, usize)> {
    let toks = tokens(&code_only(&source.text));
    let mut out = Vec::new();
    // Inline modules (`mod tests { … }`) open at a brace depth.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let current: Vec<String> = source
            .module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(n, _)| n.clone()))
            .collect();
        match &toks[i].0 {
            Tok::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                i += 1;
            }
            Tok::Ident(kw) if kw == "mod" => {
                if let (Some((Tok::Ident(name), _)), Some((Tok::Punct('{'), _))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    inline.push((name.clone(), depth));
                    depth += 1;
                    i += 3;
                } else {
                    i += 1;
                }
            }
            Tok::Ident(kw) if kw == "use" => {
                let mut found = Vec::new();
                i = use_tree(&toks, i + 1, &[], &mut found);
                for (path, line) in found {
                    if let Some(abs) = absolute(&path, &current, modules, true) {
                        out.push((abs, line));
                    }
                }
            }
            Tok::Ident(first)
                if matches!(first.as_str(), "crate" | "super" | "self")
                    && toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Sep)
                    && !(i > 0 && matches!(toks[i - 1].0, Tok::Sep | Tok::Punct('$')))
                    && !(i > 0 && toks[i - 1].0 == Tok::Ident("in".to_owned())) =>
            {
                let line = toks[i].1;
                let mut path = vec![first.clone()];
                let mut k = i + 1;
                while toks.get(k).map(|t| &t.0) == Some(&Tok::Sep) {
                    if let Some((Tok::Ident(seg), _)) = toks.get(k + 1) {
                        path.push(seg.clone());
                        k += 2;
                    } else {
                        break;
                    }
                }
                if let Some(abs) = absolute(&path, &current, modules, false) {
                    out.push((abs, line));
                }
                i = k;
            }
            _ => i += 1,
        }
    }
    out
}

/// A path made absolute from the module `current`, or `None` when it
/// names another crate.
pub(super) fn absolute(
    path: &[String],
    current: &[String],
    modules: &BTreeSet<Vec<String>>,
    in_use: bool,
) -> Option<Vec<String>> {
    let first = path.first()?;
    match first.as_str() {
        "crate" => Some(path[1..].to_vec()),
        "self" => Some(current.iter().chain(&path[1..]).cloned().collect()),
        "super" => {
            let mut base = current.to_vec();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            Some(base.into_iter().chain(rest.iter().cloned()).collect())
        }
        // A `use` may start at a child module (`use watch::Probe;`).
        _ if in_use => {
            let child: Vec<String> = current.iter().chain([first]).cloned().collect();
            modules
                .contains(&child)
                .then(|| current.iter().chain(path).cloned().collect())
        }
        _ => None,
    }
}
