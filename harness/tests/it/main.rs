//! The integration tests of this crate, one module per topic, in one test
//! binary: each binary links the whole crate, so one binary links once
//! (issue 47). Run one topic with `cargo test -p <crate> --test it <module>::`.

mod boxes_mini;
mod budget;
mod cause_lines;
mod causes;
mod celsius_example;
mod cli;
mod cli_order;
mod codingame;
mod confirm;
mod contain;
mod corpus;
mod course_env;
mod course_outputs;
mod coverage;
mod diff;
mod docs;
mod exceptions;
mod fds;
mod files;
mod folder_pack;
mod frictions;
mod gridgame;
mod hanoi_example;
mod hostile;
mod install;
mod login_example;
mod mark;
mod mark_env;
mod mark_rules;
mod matching;
mod memory;
mod misbehave;
mod nogo_runs;
mod nogo_variants;
mod python;
mod report;
mod results;
mod robust;
mod sanitized;
mod schema;
mod span;
mod strict_unchanged;
mod terminal;
mod variants;
