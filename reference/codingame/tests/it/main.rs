//! The integration tests of this crate, one module per topic, in one test
//! binary: each binary links the whole crate, so one binary links once
//! (issue 47). Run one topic with `cargo test -p <crate> --test it <module>::`.

mod arena;
mod referee;
mod strength;
