//! The sanitizers' reports: a block from `==PID==ERROR: AddressSanitizer:
//! KIND` (or LeakSanitizer, MemorySanitizer, ThreadSanitizer) to its
//! `SUMMARY` line and shadow bytes, and UndefinedBehaviorSanitizer's
//! `FILE:LINE:COL: runtime error: MESSAGE` with its stack.

use super::{Frame, Line, MemoryError, Tool, bytes, number, own_frame};

/// The report starting at line `i`, if one does: the line after its end
/// and its errors.
pub(super) fn at(lines: &[Line<'_>], i: usize) -> Option<(usize, Vec<MemoryError>)> {
    let text = &lines.get(i)?.text;
    // The rule of `=` ASan prints before its block belongs to it.
    if is_rule(text)
        && lines
            .get(i + 1)
            .is_some_and(|l| block_kind(&l.text).is_some())
    {
        let (end, errors) = block(lines, i + 1)?;
        return Some((end, errors));
    }
    if block_kind(text).is_some() {
        return block(lines, i);
    }
    undefined(lines, i)
}

fn is_rule(text: &str) -> bool {
    text.len() >= 20 && text.bytes().all(|b| b == b'=')
}

/// `==PID==` at the start of `text`: the rest.
pub(super) fn after_pid(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("==")?;
    let end = rest.find("==")?;
    if end == 0 || !rest[..end].bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(&rest[end + 2..])
}

/// The kind a block's first line names (`==1==ERROR: AddressSanitizer:
/// heap-buffer-overflow on …`: `heap-buffer-overflow`).
fn block_kind(text: &str) -> Option<String> {
    let rest = after_pid(text)?;
    let rest = rest
        .strip_prefix("ERROR: ")
        .or_else(|| rest.strip_prefix("WARNING: "))?;
    let (tool, said) = rest.split_once(": ")?;
    if !tool.ends_with("Sanitizer") {
        return None;
    }
    if said.starts_with("detected memory leaks") {
        return Some("leak".to_owned());
    }
    let mut words = said.split_whitespace();
    let first = words.next()?;
    let kind = if first == "attempting" {
        words.next().unwrap_or(first)
    } else {
        first
    };
    Some(kind.trim_end_matches([':', ',', '.']).to_owned())
}

/// A frame line of a sanitizer's stack (`    #1 0x55 in shout /x/y.c:11`):
/// its function and location.
fn frame(text: &str) -> Option<(String, String)> {
    let rest = text.trim_start().strip_prefix('#')?;
    let (_, rest) = rest.split_once(" in ")?;
    let (function, location) = rest.split_once(' ').unwrap_or((rest, ""));
    Some((function.to_owned(), location.to_owned()))
}

/// A block from its first line at `i`.
fn block(lines: &[Line<'_>], i: usize) -> Option<(usize, Vec<MemoryError>)> {
    let kind = block_kind(&lines.get(i)?.text)?;
    let mut end = lines.len();
    let mut summary = false;
    for (j, line) in lines.iter().enumerate().skip(i + 1) {
        let text = &line.text;
        if summary {
            let shadow = text.starts_with("Shadow byte")
                || text.starts_with("  ")
                || text.starts_with("=>")
                || after_pid(text).is_some();
            if !shadow {
                end = j;
                break;
            }
        } else if block_kind(text).is_some() || is_rule(text) {
            end = j;
            break;
        } else if text.starts_with("SUMMARY: ") {
            summary = true;
        }
        if after_pid(text).is_some_and(|r| r.starts_with("ABORTING")) {
            end = j + 1;
            break;
        }
    }
    let body = &lines[i + 1..end];
    let errors = if kind == "leak" {
        leaks(body)
    } else {
        vec![error(kind, body)]
    };
    Some((end, errors))
}

/// The error of a block's body.
fn error(kind: String, body: &[Line<'_>]) -> MemoryError {
    let first_stack: Vec<(String, String)> = body
        .iter()
        .skip_while(|l| frame(&l.text).is_none())
        .map_while(|l| frame(&l.text))
        .collect();
    let sized = body.iter().find_map(|l| {
        let text = l.text.as_ref();
        let (verb, rest) = text
            .strip_prefix("READ of size ")
            .map(|r| ("read", r))
            .or_else(|| text.strip_prefix("WRITE of size ").map(|r| ("write", r)))?;
        Some((verb, number(rest)?))
    });
    let by = intercepted(&first_stack);
    let access = sized.map(|(verb, size)| match by {
        Some(call) => format!("a {verb} of {} by `{call}`", bytes(size)),
        None => format!("a {verb} of {}", bytes(size)),
    });
    let located = body
        .iter()
        .find_map(|l| l.text.split_once(" is located ").map(|(_, r)| r.to_owned()));
    let variable = body
        .iter()
        .find(|l| l.text.contains("<== Memory access at offset"))
        .and_then(|l| stack_variable(&l.text, sized.map(|(_, size)| size)));
    // A library call's range is checked whole and reported at its first
    // bad byte, with the size of the whole range: `strcpy` of 12 bytes into
    // `char[8]` is "WRITE of size 12" at the array's end. Only part of it
    // fell past, so it *reaches* past; an instrumented access of the
    // program's own is reported where it starts.
    let reach = |place: String| match (by, place.strip_prefix("past ")) {
        (Some(_), Some(rest)) => format!("reaching past {rest}"),
        _ => place,
    };
    let what = match (kind.as_str(), access, located, variable) {
        ("double-free", _, Some(located), _) => region_size(&located).map_or_else(
            || "a block freed twice".to_owned(),
            |n| format!("a {n}-byte block freed twice"),
        ),
        (_, Some(access), _, Some(variable)) => format!("{access} {}", reach(variable)),
        (_, Some(access), Some(located), None) => match relation(&located) {
            Some(relation) => format!("{access} {}", reach(relation)),
            None => access,
        },
        (_, Some(access), None, None) => access,
        _ => String::new(),
    };
    MemoryError {
        kind,
        what,
        frame: own_frame(&first_stack),
        tool: Tool::Sanitizer,
        lines: Vec::new(),
    }
}

/// The library call the innermost frame of `stack` is, when the sanitizer
/// intercepted one (`__interceptor_strcpy` in GCC's runtime, `strcpy` in
/// `asan_interceptors.cpp`, `__asan_memcpy`): its name.
fn intercepted(stack: &[(String, String)]) -> Option<&str> {
    let (function, location) = stack.first()?;
    let name = function
        .strip_prefix("___interceptor_")
        .or_else(|| function.strip_prefix("__interceptor_"))
        .or_else(|| function.strip_prefix("__asan_"))
        .or_else(|| {
            location
                .contains("_interceptors")
                .then_some(function.as_str())
        })?;
    (!name.is_empty()).then_some(name)
}

/// `[32, 58) 'key' (line 6) <== Memory access at offset 58 overflows
/// this variable`: `past the 26-byte array `key``. An access of `size`
/// bytes that starts inside and runs past the end (`partially overflows`:
/// `strcpy` of 9 bytes into 8) says how far: `reaching 1 byte past the
/// 8-byte array `last``.
fn stack_variable(text: &str, size: Option<u64>) -> Option<String> {
    let inside = text.trim_start().strip_prefix('[')?;
    let (from, rest) = inside.split_once(", ")?;
    let (to, rest) = rest.split_once(')')?;
    let (from, to) = (number(from)?, number(to)?);
    let length = to.checked_sub(from)?;
    let name = rest.split('\'').nth(1)?;
    if text.contains("underflows") {
        return Some(format!("before the {length}-byte array `{name}`"));
    }
    let at = text.split_once("at offset ").and_then(|(_, r)| number(r));
    if let (Some(at), Some(size)) = (at, size)
        && at < to
        && text.contains("partially")
    {
        let over = (at + size).saturating_sub(to);
        return Some(format!(
            "reaching {} past the {length}-byte array `{name}`",
            bytes(over)
        ));
    }
    Some(format!("past the {length}-byte array `{name}`"))
}

/// The size of `… of 72-byte region […)`.
fn region_size(located: &str) -> Option<u64> {
    let (before, _) = located.split_once("-byte region")?;
    number(before.rsplit(' ').next()?)
}

/// Where an access fell, from what follows `is located`: `0 bytes to
/// the right of 5-byte region`, `0 bytes inside of 72-byte region`, `8
/// bytes after global variable 'g' defined in … of size 26`.
fn relation(located: &str) -> Option<String> {
    let offset = number(located)?;
    let past = |what: String| {
        if offset == 0 {
            format!("past {what}")
        } else {
            format!("{} past {what}", bytes(offset))
        }
    };
    if located.contains("global variable") {
        let name = located.split('\'').nth(1)?;
        let size = number(located.rsplit("of size ").next()?)?;
        let what = format!("the {size}-byte global `{name}`");
        return Some(
            if located.contains("to the left of") || located.contains("before") {
                format!("before {what}")
            } else {
                past(what)
            },
        );
    }
    let size = region_size(located)?;
    let block = format!("a {size}-byte block");
    if located.contains("to the right of") || located.contains("after") {
        Some(past(block))
    } else if located.contains("to the left of") || located.contains("before") {
        Some(format!("before {block}"))
    } else if located.contains("inside of") {
        Some(format!("in a freed {size}-byte block"))
    } else {
        None
    }
}

/// LeakSanitizer's body: one error per direct leak.
fn leaks(body: &[Line<'_>]) -> Vec<MemoryError> {
    let mut out = Vec::new();
    for (j, line) in body.iter().enumerate() {
        let Some(rest) = line.text.strip_prefix("Direct leak of ") else {
            continue;
        };
        let size = number(rest).unwrap_or(0);
        let objects = rest
            .split_once(" in ")
            .and_then(|(_, r)| number(r))
            .unwrap_or(1);
        let stack: Vec<(String, String)> =
            body[j + 1..].iter().map_while(|l| frame(&l.text)).collect();
        out.push(MemoryError {
            kind: "leak".to_owned(),
            what: format!(
                "{} in {objects} block{} never freed",
                bytes(size),
                if objects == 1 { "" } else { "s" }
            ),
            frame: own_frame(&stack),
            tool: Tool::Sanitizer,
            lines: Vec::new(),
        });
    }
    out
}

/// UndefinedBehaviorSanitizer's `FILE:LINE:COL: runtime error: MESSAGE`
/// and what follows it (its notes, its stack).
fn undefined(lines: &[Line<'_>], i: usize) -> Option<(usize, Vec<MemoryError>)> {
    let text = &lines.get(i)?.text;
    let (location, message) = text.split_once(": runtime error: ")?;
    // `FILE:LINE:COL` (or `FILE:LINE`), never any line that says so.
    let (place, last) = location.rsplit_once(':')?;
    last.parse::<u32>().ok()?;
    let mut end = i + 1;
    let mut stack = Vec::new();
    while let Some(line) = lines.get(end) {
        let t = &line.text;
        if let Some(f) = frame(t) {
            stack.push(f);
        } else if t.is_empty() {
            // The blank line that closes its stack, not one of the
            // program's own.
            if stack.is_empty() {
                break;
            }
            end += 1;
            break;
        } else if !(t.starts_with(' ') || t.contains(": note: ")) {
            break;
        }
        end += 1;
    }
    let (file, line) = match place.rsplit_once(':') {
        Some((file, line)) if line.parse::<u32>().is_ok() => (file, line.parse().ok()),
        _ => (place, last.parse().ok()),
    };
    let frame = own_frame(&stack).or_else(|| {
        Some(Frame {
            function: String::new(),
            file: Some(file.rsplit('/').next().unwrap_or(file).to_owned()),
            line,
        })
    });
    Some((
        end,
        vec![MemoryError {
            kind: undefined_kind(message).to_owned(),
            what: message.chars().take(120).collect(),
            frame,
            tool: Tool::Undefined,
            lines: Vec::new(),
        }],
    ))
}

/// The check a message of UndefinedBehaviorSanitizer comes from, in the
/// names of its `-fsanitize=` options.
fn undefined_kind(message: &str) -> &'static str {
    const KINDS: [(&str, &str); 14] = [
        ("out of bounds for type", "out-of-bounds-index"),
        ("insufficient space for an object", "object-size"),
        ("signed integer overflow", "signed-integer-overflow"),
        ("null pointer", "null-pointer"),
        ("shift exponent", "shift"),
        ("left shift of", "shift"),
        ("division by zero", "division-by-zero"),
        ("misaligned address", "misaligned-address"),
        ("is not a valid value for type", "invalid-value"),
        ("pointer overflow", "pointer-overflow"),
        ("applying non-zero offset", "pointer-overflow"),
        (
            "reached the end of a value-returning function",
            "missing-return",
        ),
        ("reached an unreachable program point", "unreachable"),
        (
            "outside the range of representable values",
            "float-cast-overflow",
        ),
    ];
    KINDS
        .iter()
        .find(|(said, _)| message.contains(said))
        .map_or("undefined-behaviour", |(_, kind)| kind)
}
