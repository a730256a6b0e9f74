//! End-to-end tests of the `corera` binary, in one test binary so that the
//! pipeline crates are linked once.
//!
//! - `agreement`: the task graph and the replay agree on every job of every
//!   sample, real trace and random trace.
//! - `autosar`: the AUTOSAR ECUC fragment and the OIL parsed back.
//! - `chains`: cause-effect chains found, named, measured and optimised.
//! - `book`: the reference pages show the real `--help`, the quick start the
//!   real summary.
//! - `browser`: the HTML report in headless Chromium (skipped without it,
//!   unless `CORERA_REQUIRE_BROWSER=1`).
//! - `cli`: every subcommand from the outside: exit codes, stdin, errors.
//! - `golden`: the printer sample's outputs against `samples/printer/expected/`.
//! - `header`: the generated C header compiles and agrees with the JSON.
//! - `properties`: laws that hold across the crates on random workloads.
//! - `search`: the timing search against naive baselines, brute force,
//!   a published mapping, and its own certificates.
//! - `timing`: the timing search's budget, determinism and guarantees.
//!
//! See `tests/README.md` for how to add a case and how to update golden
//! files.

mod agreement;
mod autosar;
mod book;
mod browser;
mod chains;
mod cli;
mod golden;
mod header;
mod properties;
mod search;
mod support;
mod timing;

use std::path::{Path, PathBuf};

/// The repository root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A path inside the repository.
fn repo(rel: &str) -> PathBuf {
    root().join(rel)
}

/// `corera` ready to run, in the repository root.
fn corera() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("corera").expect("binary built");
    cmd.current_dir(root());
    cmd
}
