//! Where a JVM submission starts: the class holding `main`, found in its
//! sources, so that a student's `class Main` in `Solution.java`, or a
//! public class of any name, runs whatever its file is called (a JVM is
//! started on a class, not a file). Java: a top-level class, interface,
//! enum or record declaring a `static … void main(` in its body, named
//! with its `package`; a class `Main` first, then a public one, then the
//! first by file name. Kotlin: the file holding a top-level `fun main(`
//! (its class is the file's name, capitalised, with `Kt`, which the run
//! line adds as problemtools' does). Comments, strings and character
//! literals are blanked first, so a `main` in a comment is none. `None`
//! when nothing is found: the language's line then takes the main file's
//! name, as problemtools does, and a missing class is the program's
//! failure to run.

/// The class (Java) or main file stem (Kotlin) to start, for the
/// language `lang_id` and its `sources` (relative name, text).
pub fn main_class(lang_id: &str, sources: &[(String, String)]) -> Option<String> {
    match lang_id {
        "java" => java(sources),
        "kotlin" => kotlin(sources),
        _ => None,
    }
}

/// A Java class holding `main`: its full name and whether it is public.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Found {
    name: String,
    public: bool,
}

fn java(sources: &[(String, String)]) -> Option<String> {
    let mut sorted: Vec<&(String, String)> = sources.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let found: Vec<Found> = sorted
        .iter()
        .flat_map(|(_, text)| java_mains(&blank(text)))
        .collect();
    let simple = |f: &&Found| f.name.rsplit('.').next() == Some("Main");
    found
        .iter()
        .find(simple)
        .or_else(|| found.iter().find(|f| f.public))
        .or_else(|| found.first())
        .map(|f| f.name.clone())
}

/// The top-level types of one Java file (comments and literals blanked)
/// that declare a static `main`.
fn java_mains(code: &str) -> Vec<Found> {
    let words = tokens(code);
    let package = words
        .iter()
        .position(|w| *w == "package")
        .map(|i| {
            words
                .get(i + 1..)
                .unwrap_or_default()
                .iter()
                .take_while(|w| **w != ";")
                .copied()
                .collect::<String>()
        })
        .filter(|p| !p.is_empty());
    let mut out: Vec<Found> = Vec::new();
    let mut depth = 0_usize;
    // The top-level type being read, and whether it is public.
    let mut current: Option<Found> = None;
    let mut pending_public = false;
    let mut last_kind = false;
    for (i, w) in words.iter().enumerate() {
        match *w {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    current = None;
                }
            }
            "public" if depth == 0 => pending_public = true,
            ";" if depth == 0 => pending_public = false,
            "class" | "interface" | "enum" | "record" if depth == 0 => last_kind = true,
            name if depth == 0 && last_kind => {
                last_kind = false;
                let full = package
                    .as_ref()
                    .map_or_else(|| name.to_owned(), |p| format!("{p}.{name}"));
                current = Some(Found {
                    name: full,
                    public: pending_public,
                });
                pending_public = false;
            }
            "main" if depth == 1 && declares_main(&words, i) => {
                if let Some(c) = &current
                    && !out.contains(c)
                {
                    out.push(c.clone());
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether the `main` at `at` is a `static … void main(` declaration
/// (looking back to the statement's start).
fn declares_main(words: &[&str], at: usize) -> bool {
    let next_is_paren = words.get(at + 1) == Some(&"(");
    let before: Vec<&str> = words[..at]
        .iter()
        .rev()
        .take_while(|w| !matches!(**w, ";" | "{" | "}"))
        .copied()
        .collect();
    next_is_paren && before.first() == Some(&"void") && before.contains(&"static")
}

fn kotlin(sources: &[(String, String)]) -> Option<String> {
    let mut sorted: Vec<&(String, String)> = sources.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    sorted.iter().find_map(|(name, text)| {
        let code = blank(text);
        let words = tokens(&code);
        let mut depth = 0_usize;
        let top_main = words.iter().enumerate().any(|(i, w)| {
            match *w {
                "{" => depth += 1,
                "}" => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth == 0
                && *w == "fun"
                && words.get(i + 1) == Some(&"main")
                && words.get(i + 2) == Some(&"(")
        });
        let file = name.rsplit('/').next().unwrap_or(name);
        top_main.then(|| file.rsplit_once('.').map_or(file, |(s, _)| s).to_owned())
    })
}

/// Identifier-like words and the punctuation `{ } ( ) ; .` of `code`.
fn tokens(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in code.char_indices() {
        let word = c.is_alphanumeric() || c == '_' || c == '$';
        match (word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(&code[s..i]);
                start = None;
            }
            _ => {}
        }
        if matches!(c, '{' | '}' | '(' | ')' | ';' | '.')
            && let Some(p) = code.get(i..=i)
        {
            out.push(p);
        }
    }
    if let Some(s) = start {
        out.push(&code[s..]);
    }
    out
}

/// `code` with comments, string, text-block and character literals made
/// spaces (their length kept).
fn blank(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for d in chars.by_ref() {
                    if prev == '*' && d == '/' {
                        break;
                    }
                    prev = d;
                }
                out.push(' ');
            }
            '"' | '\'' => {
                let mut escaped = false;
                for d in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if d == '\\' {
                        escaped = true;
                    } else if d == c {
                        break;
                    }
                }
                out.push(' ');
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(files: &[(&str, &str)]) -> Vec<(String, String)> {
        files
            .iter()
            .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
            .collect()
    }

    #[test]
    fn a_java_main_is_found_in_a_file_of_any_name() {
        let helper = "public class Util { static int twice(int x) { return 2 * x; } }";
        let solution = "import java.util.*;\n// class Fake { public static void main(String[] a) {} }\n\
             class Main {\n  public static void main(String[] args) {\n    \
             System.out.println(\"static void main(\" + Util.twice(2));\n  }\n}\n";
        let found = main_class(
            "java",
            &src(&[("Util.java", helper), ("Solution.java", solution)]),
        );
        assert_eq!(found.as_deref(), Some("Main"));
        // A public class of another name, in a package; `final` and
        // varargs are a main too.
        let other = "package contest.a;\npublic class Hello {\n  public final static void main(final String... args) {}\n}\n";
        assert_eq!(
            main_class("java", &src(&[("Hello.java", other)])).as_deref(),
            Some("contest.a.Hello")
        );
        // Main wins over a public class with its own main; a public one
        // over a package-private one.
        let two = "class Aux { public static void main(String[] a) {} }\npublic class Z { public static void main(String[] a) {} }\n";
        assert_eq!(
            main_class("java", &src(&[("Z.java", two)])).as_deref(),
            Some("Z")
        );
        let three = "class Main { static public void main(String[] a) {} }";
        assert_eq!(
            main_class("java", &src(&[("Z.java", two), ("A.java", three)])).as_deref(),
            Some("Main")
        );
        // A nested class's main, an instance `main`, or a call to main is
        // no entry.
        let none = "class A { class B { public static void main(String[] a) {} } void main(String[] a) { main(a); } }";
        assert_eq!(main_class("java", &src(&[("A.java", none)])), None);
        assert_eq!(
            main_class("python3", &src(&[("a.py", "def main(): pass")])),
            None
        );
    }

    #[test]
    fn a_kotlin_main_is_the_file_holding_a_top_level_fun_main() {
        let util = "fun twice(x: Int) = 2 * x\nclass K { fun main() {} }\n";
        let app = "/* fun main() */\nfun main() {\n    println(twice(21))\n}\n";
        assert_eq!(
            main_class("kotlin", &src(&[("a_util.kt", util), ("hello.kt", app)])).as_deref(),
            Some("hello")
        );
        assert_eq!(main_class("kotlin", &src(&[("a_util.kt", util)])), None);
    }

    #[test]
    fn literals_and_comments_are_blanked_keeping_lines() {
        let code = "a /* x\ny */ b // c\n\"d\\\"e\" 'f' g";
        let blanked = blank(code);
        assert!(
            !blanked.contains(['x', 'y', 'c', 'd', 'e', 'f']),
            "{blanked}"
        );
        assert!(blanked.contains('a') && blanked.contains('b') && blanked.contains('g'));
    }
}
