//! The parsers on real reports (gcc 12's sanitizers and valgrind 3.19 on
//! the C fixtures of `harness/tests/fixtures/memory`, their folder
//! renamed), and on any bytes.

use proptest::prelude::*;

use super::*;

fn first(text: &str) -> String {
    parse(text.as_bytes())
        .first(true)
        .map(ToString::to_string)
        .unwrap_or_default()
}

#[test]
fn asan_reports_name_kind_access_and_the_programs_own_frame() {
    assert_eq!(
        first(include_str!("reports/heap_overflow.asan.txt")),
        "heap-buffer-overflow: a write of 1 byte past a 5-byte block in `shout` \
         (heap_overflow.c:11)"
    );
    assert_eq!(
        first(include_str!("reports/use_after_free.asan.txt")),
        "heap-use-after-free: a read of 8 bytes in a freed 72-byte block in `main` \
         (use_after_free.c:23)"
    );
    // The sanitizer's own frame (`__interceptor_free`) is skipped.
    assert_eq!(
        first(include_str!("reports/double_free.asan.txt")),
        "double-free: a 6-byte block freed twice in `release` (double_free.c:7)"
    );
    assert_eq!(
        first(include_str!("reports/leak.asan.txt")),
        "leak: 6 bytes in 1 block never freed in `shout` (leak.c:7)"
    );
}

#[test]
fn asan_is_preferred_to_ubsan_on_the_same_bug() {
    let report = parse(include_bytes!("reports/stack_overflow.asan.txt"));
    let kinds: Vec<&str> = report.errors.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "out-of-bounds-index",
            "object-size",
            "stack-buffer-overflow"
        ]
    );
    assert_eq!(
        report.first(false).map(ToString::to_string).as_deref(),
        Some(
            "stack-buffer-overflow: a write of 1 byte past the 26-byte array `key` in \
             `encipher` (stack_overflow.c:8)"
        )
    );
    assert_eq!(
        report.errors[0].to_string(),
        "out-of-bounds-index: index 26 out of bounds for type 'char [26]' in `encipher` \
         (stack_overflow.c:8)"
    );
    // The whole report is taken out of stderr: nothing of the program's.
    assert!(
        report.rest.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&report.rest)
    );
    // Each error quotes its own report.
    assert!(report.errors[2].lines[1].contains("stack-buffer-overflow"));
    assert!(report.errors.iter().all(|e| e.lines.len() <= QUOTED_LINES));
}

#[test]
fn valgrind_reports_read_as_the_sanitizers_kinds() {
    assert_eq!(
        first(include_str!("reports/heap_overflow.valgrind.txt")),
        "heap-buffer-overflow: a write of 1 byte past a 5-byte block in `shout` \
         (heap_overflow.c:11)"
    );
    assert_eq!(
        first(include_str!("reports/use_after_free.valgrind.txt")),
        "heap-use-after-free: a read of 8 bytes in a freed 72-byte block in `main` \
         (use_after_free.c:23)"
    );
    assert_eq!(
        first(include_str!("reports/double_free.valgrind.txt")),
        "double-free: a 6-byte block freed twice in `release` (double_free.c:7)"
    );
    assert_eq!(
        first(include_str!("reports/leak.valgrind.txt")),
        "leak: 6 bytes in 1 block never freed in `shout` (leak.c:7)"
    );
    assert_eq!(
        first(include_str!("reports/uninitialised.valgrind.txt")),
        "uninitialised-value: a branch on an uninitialised value in `main` \
         (uninitialised.c:14)"
    );
    // glibc's `puts` (libio/./libio/ioputs.c) is not the program's frame.
    let report = parse(include_bytes!("reports/heap_overflow.valgrind.txt"));
    assert_eq!(
        report.errors[1]
            .frame
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("`main` (heap_overflow.c:18)")
    );
}

#[test]
fn leaks_count_only_when_asked_and_the_programs_own_stderr_stays() {
    let mut stderr = b"usage: shout WORD\n".to_vec();
    stderr.extend_from_slice(include_bytes!("reports/leak.valgrind.txt"));
    stderr.extend_from_slice(b"bye\n");
    let report = parse(&stderr);
    assert_eq!(report.errors.len(), 1);
    assert!(report.first(false).is_none());
    assert!(report.first(true).is_some_and(MemoryError::is_leak));
    assert_eq!(report.rest, b"usage: shout WORD\nbye\n");
    assert_eq!(report.errors[0].key(), "leak in `shout` (leak.c:7)");
}

#[test]
fn a_program_built_without_debug_information_is_placed_by_its_function() {
    let text = "=================================================================\n\
        ==9==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6 at pc 0x5 bp 0x7 sp 0x7\n\
        READ of size 4 at 0x602000000018 thread T0\n\
        \x20   #0 0x55d1 in tally (/tmp/x/prog+0x12d1)\n\
        \x20   #1 0x7f2 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58\n\
        \n\
        0x602000000018 is located 4 bytes to the right of 4-byte region [0x6,0x6)\n\
        SUMMARY: AddressSanitizer: heap-buffer-overflow (/tmp/x/prog+0x12d1) in tally\n\
        ==9==ABORTING\n";
    assert_eq!(
        first(text),
        "heap-buffer-overflow: a read of 4 bytes 4 bytes past a 4-byte block in `tally`"
    );
}

#[test]
fn ordinary_stderr_is_no_report() {
    for text in [
        "",
        "Usage: prog height width\n",
        "== not a pid ==\n",
        "==12== \n",
        "error: runtime error: (none)",
        "#0 in\n",
    ] {
        let report = parse(text.as_bytes());
        assert!(report.errors.is_empty(), "{text:?}: {report:?}");
    }
    assert_eq!(parse(b"Usage: prog\n").rest, b"Usage: prog\n");
}

proptest! {
    #[test]
    fn any_bytes_parse(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        let report = parse(&bytes);
        prop_assert!(report.errors.iter().all(|e| e.lines.len() <= QUOTED_LINES));
        prop_assert!(report.errors.len() <= ERRORS_KEPT);
        prop_assert!(report.rest.len() <= bytes.len());
    }

    #[test]
    fn any_lines_around_reports_parse(
        pieces in proptest::collection::vec(
            prop_oneof![
                Just("==1==ERROR: AddressSanitizer: heap-buffer-overflow on x\n".to_owned()),
                Just("==1== Invalid write of size 1\n".to_owned()),
                Just("==1==    at 0x1: f (/a.c:1)\n".to_owned()),
                Just("==1==  Address 0x2 is 0 bytes after a block of size 5 alloc'd\n".to_owned()),
                Just("x.c:1:2: runtime error: index 3 out of bounds for type 'int [3]'\n".to_owned()),
                Just("    #0 0x1 in f /a.c:1\n".to_owned()),
                Just("[32, 58) 'key' (line 6) <== Memory access at offset 58 overflows\n".to_owned()),
                Just("SUMMARY: AddressSanitizer: x\n".to_owned()),
                Just("Direct leak of 9 byte(s) in 1 object(s) allocated from:\n".to_owned()),
                Just("==1==ERROR: LeakSanitizer: detected memory leaks\n".to_owned()),
                Just("\n".to_owned()),
                "[ -~]{0,40}\n",
            ],
            0..40,
        )
    ) {
        let text = pieces.concat();
        let report = parse(text.as_bytes());
        for e in &report.errors {
            prop_assert!(!e.kind.is_empty());
            let _ = e.to_string();
        }
    }
}

#[test]
fn a_library_call_running_past_a_stack_array_is_named_and_reaches_past() {
    // dmitri's `strcpy(last, argv[2])` into `char last[8]` with an 11-letter
    // name (examples/login): ASan checks the 12-byte range whole and
    // reports its first bad byte, the array's end, with the whole size.
    assert_eq!(
        first(include_str!("reports/strcpy_overflow.asan.txt")),
        "stack-buffer-overflow: a write of 12 bytes by `strcpy` reaching past the 8-byte \
         array `last` in `main` (login.c:12)"
    );
}

#[test]
fn an_access_starting_inside_a_stack_array_says_how_far_it_runs_past() {
    // ASan's `partially overflows`: an access of the program's own that
    // starts inside the variable (8 bytes read at offset 36 of [32, 40)).
    let report = parse(
        b"==7==ERROR: AddressSanitizer: stack-buffer-overflow on address 0x7ffd24 at pc 0x1 bp 0x2 sp 0x3\n\
READ of size 8 at 0x7ffd24 thread T0\n\
    #0 0x5 in shorten /home/s/login.c:12\n\
    #1 0x6 in main /home/s/login.c:30\n\
\n\
Address 0x7ffd24 is located in stack of thread T0 at offset 36 in frame\n\
    #0 0x7 in shorten /home/s/login.c:9\n\
\n\
  This frame has 1 object(s):\n\
    [32, 40) 'last' (line 10) <== Memory access at offset 36 partially overflows this variable\n\
SUMMARY: AddressSanitizer: stack-buffer-overflow /home/s/login.c:12 in shorten\n",
    );
    assert_eq!(
        report.first(false).map(ToString::to_string).as_deref(),
        Some(
            "stack-buffer-overflow: a read of 8 bytes reaching 4 bytes past the 8-byte array \
             `last` in `shorten` (login.c:12)"
        )
    );
}
