//! `gridgame` and `dotsAndBoxes` as processes: status 0 however the game
//! ends, nothing on stderr, arguments ignored, hostile input survived, and
//! a closed or full stdout status 1 without a signal (SYS-1).

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use assert_cmd::Command;
use proptest::prelude::*;

const GRIDGAME: &str = env!("CARGO_BIN_EXE_gridgame");
const DOTS: &str = env!("CARGO_BIN_EXE_dotsAndBoxes");

fn run(bin: &str, args: &[&str], input: &[u8]) -> std::process::Output {
    Command::new(bin)
        .args(args)
        .write_stdin(input.to_vec())
        .output()
        .unwrap()
}

#[test]
fn both_names_play_the_same_game_and_ignore_arguments() {
    let input = b"2\na1 a2\n2a,b2\nQ\n";
    let a = run(GRIDGAME, &[], input);
    let b = run(DOTS, &["5", "--help"], input);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(b.status.code(), Some(0));
    assert!(a.stderr.is_empty() && b.stderr.is_empty());
    assert!(String::from_utf8_lossy(&a.stdout).ends_with("Better luck next time.\n"));
}

#[test]
fn hostile_lines_are_bad_lines() {
    let mut input = b"3\n\0\0\n\xff\xfe\n".to_vec();
    input.extend(std::iter::repeat_n(b'a', 5_000_000));
    input.extend_from_slice(b"\nQ");
    let out = run(GRIDGAME, &[], &input);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("Sorry, try again.").count(), 3, "{text}");
    assert!(text.ends_with("I think we need a rematch.\n"), "{text}");
}

#[test]
fn sys_1_a_closed_or_full_stdout_is_status_1_and_no_signal() {
    let closed = std::process::Command::new("sh")
        .args(["-c", "printf '2\\nQ\\n' | \"$0\" >&-"])
        .arg(GRIDGAME)
        .output()
        .unwrap();
    assert_eq!(closed.status.code(), Some(1));
    assert!(closed.stderr.is_empty());
    let full = std::process::Command::new("sh")
        .args(["-c", "printf '2\\nQ\\n' | \"$0\" > /dev/full"])
        .arg(GRIDGAME)
        .output()
        .unwrap();
    assert_eq!(full.status.code(), Some(1));
    assert!(full.stderr.is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any input: status 0, nothing on stderr, the same bytes twice
    /// (PROG-4), and a post-game whenever a game began and reached one.
    #[test]
    fn any_input_ends_well_and_the_same_way(
        lines in proptest::collection::vec(
            prop_oneof![
                Just("2".to_owned()), Just("8".to_owned()), Just("Q".to_owned()),
                "[a-c][1-3] [a-c][1-3]", "[1-3][a-c],[a-c][1-3]", "[ -~]{0,8}",
            ],
            0..40,
        ),
    ) {
        let input = lines.join("\n").into_bytes();
        let a = run(GRIDGAME, &[], &input);
        let b = run(GRIDGAME, &[], &input);
        prop_assert_eq!(a.status.code(), Some(0));
        prop_assert!(a.stderr.is_empty());
        prop_assert_eq!(&a.stdout, &b.stdout);
    }
}
