//! Problem packages (the Kattis / ICPC problem package format, legacy
//! and the 2023-07 draft as problemtools reads them) and `verify`, which
//! runs a package's jury submissions against it and checks each against
//! the folder it was put in (docs/problem-packages.md).
//!
//! - [`package`]: `problem.yaml`, the test data as groups, the
//!   submissions; [`unzip`]: a package sent as a `.zip`.
//! - [`testdata`]: a group's flags (`testdata.yaml`).
//! - [`validator`]: the default output validator; [`custom_check`]: a
//!   custom one as a `match:` checker (`run`, `mark`).
//! - [`languages`]: a submission's language by extension, and its lines;
//!   [`entry`]: the class a JVM submission starts from; [`launch`]: a
//!   student's submission built and started by the table (`mark`, `run
//!   --bin FILE`).
//! - [`programs`]: a submission or validator compiled once.
//! - [`run`]: one case run and judged; [`interactive`]: an interactive
//!   problem's case, the program contained and joined to the validator.
//! - [`grade`]: a submission's verdict and score from its cases'.
//! - [`limit`]: the time limit, fixed or derived from the accepted
//!   submissions, one way for every command; [`time_limit`]: the one a
//!   command works out once, shared by the pack and its driver.
//! - [`as_pack`]: the package as a spec pack (`run`, `mark`, the course
//!   outputs): a suite of its test groups, judged by its validator;
//!   [`conversation`]: an interactive problem's cases there.
//! - [`diff`]: `diff` on a package: a candidate against the reference
//!   on its inputs (and inputs its input validators accept), judged by
//!   its validator.
//! - [`verify`]: the jury's submissions run and checked; [`table`]: the
//!   table it prints.
//! - [`publish`]: the student's copy (samples, statement, validator).
//!
//! There are no rule IDs in a problem package: a verdict names the test
//! group, the case and the validator's reason.

pub mod as_pack;
pub mod conversation;
pub mod custom_check;
pub mod diff;
pub mod entry;
pub mod grade;
pub mod interactive;
pub mod languages;
pub mod launch;
pub mod limit;
pub mod package;
pub mod programs;
pub mod publish;
pub mod run;
pub mod table;
pub mod testdata;
pub mod time_limit;
pub mod unzip;
pub mod validator;
pub mod verify;
