//! valgrind's memcheck: every line of its report starts `==PID==`; an
//! error is a header (`Invalid write of size 1`) and its indented lines
//! (the stack, `Address … is 0 bytes after a block of size 5 alloc'd`),
//! up to the next header or the empty line that closes it.

use super::sanitizer::after_pid;
use super::{Line, MemoryError, Tool, bytes, number, own_frame};

/// The report starting at line `i`, if one does: the line after it and
/// its error (none for lines of valgrind's that name no error:
/// `Process terminating …`, warnings).
pub(super) fn at(lines: &[Line<'_>], i: usize) -> Option<(usize, Vec<MemoryError>)> {
    let header = after_pid(&lines.get(i)?.text)?.trim_start().to_owned();
    let mut end = i + 1;
    let mut body = Vec::new();
    while let Some(line) = lines.get(end) {
        let Some(rest) = after_pid(&line.text) else {
            break;
        };
        if rest.trim().is_empty() {
            end += 1;
            break;
        }
        if !rest.starts_with("  ") {
            break;
        }
        body.push(rest.trim_start().to_owned());
        end += 1;
    }
    Some((end, error(&header, &body).into_iter().collect()))
}

/// A stack line (`at 0x1091EF: shout (/x/heap.c:11)`, `by 0x48D3993:
/// puts (in /usr/lib/libc.so.6)`): its function and location.
fn frame(text: &str) -> Option<(String, String)> {
    let rest = text
        .strip_prefix("at ")
        .or_else(|| text.strip_prefix("by "))?;
    let (_, rest) = rest.split_once(": ")?;
    let (function, location) = rest.rsplit_once(" (")?;
    Some((
        function.to_owned(),
        location.strip_suffix(')').unwrap_or(location).to_owned(),
    ))
}

/// The error a header and its lines name.
fn error(header: &str, body: &[String]) -> Option<MemoryError> {
    let stack: Vec<(String, String)> = body.iter().map_while(|l| frame(l)).collect();
    let address = body
        .iter()
        .find_map(|l| l.strip_prefix("Address ").map(str::to_owned))
        .unwrap_or_default();
    let block = block_size(&address);
    let freed = address.ends_with("free'd");
    let (kind, what) = if let Some((verb, rest)) = header
        .strip_prefix("Invalid read of size ")
        .map(|r| ("read", r))
        .or_else(|| {
            header
                .strip_prefix("Invalid write of size ")
                .map(|r| ("write", r))
        }) {
        let access = format!("a {verb} of {}", bytes(number(rest)?));
        let offset = address
            .split_once(" is ")
            .and_then(|(_, r)| number(r))
            .unwrap_or(0);
        match block {
            Some(size) if freed => (
                "heap-use-after-free",
                format!("{access} in a freed {size}-byte block"),
            ),
            Some(size) if address.contains(" after a block") => {
                let past = if offset == 0 {
                    String::new()
                } else {
                    format!("{} ", bytes(offset))
                };
                (
                    "heap-buffer-overflow",
                    format!("{access} {past}past a {size}-byte block"),
                )
            }
            Some(size) if address.contains(" before a block") => (
                "heap-buffer-overflow",
                format!("{access} before a {size}-byte block"),
            ),
            _ if verb == "read" => ("invalid-read", access),
            _ => ("invalid-write", access),
        }
    } else if header.starts_with("Invalid free()") {
        match block {
            Some(size) if freed => ("double-free", format!("a {size}-byte block freed twice")),
            _ => (
                "invalid-free",
                "a free of memory malloc did not give".to_owned(),
            ),
        }
    } else if header.starts_with("Mismatched free()") {
        ("mismatched-free", String::new())
    } else if header.starts_with("Conditional jump or move depends on uninitialised") {
        (
            "uninitialised-value",
            "a branch on an uninitialised value".to_owned(),
        )
    } else if header.starts_with("Use of uninitialised value") {
        (
            "uninitialised-value",
            "a use of an uninitialised value".to_owned(),
        )
    } else if let Some(rest) = header.strip_prefix("Syscall param ")
        && header.contains("uninitialised byte")
    {
        let param = rest.split_whitespace().next().unwrap_or("");
        (
            "uninitialised-value",
            format!("uninitialised bytes passed to `{param}`"),
        )
    } else if header.contains(" are definitely lost in loss record") {
        let size = number(header).unwrap_or(0);
        let blocks = header
            .split_once(" in ")
            .and_then(|(_, r)| number(r))
            .unwrap_or(1);
        (
            "leak",
            format!(
                "{} in {blocks} block{} never freed",
                bytes(size),
                if blocks == 1 { "" } else { "s" }
            ),
        )
    } else if header.starts_with("Source and destination overlap") {
        ("overlap", header.chars().take(80).collect())
    } else {
        return None;
    };
    Some(MemoryError {
        kind: kind.to_owned(),
        what,
        frame: own_frame(&stack),
        tool: Tool::Valgrind,
        lines: Vec::new(),
    })
}

/// The size of `… a block of size 72 free'd`.
fn block_size(address: &str) -> Option<u64> {
    number(address.split_once("a block of size ")?.1)
}
