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
//! - `cli/`: every subcommand from the outside, a file per area: exit
//!   codes, stdin, errors.
//! - `golden`: the printer sample's outputs against `samples/printer/expected/`.
//! - `header`: the generated C header compiles and agrees with the JSON.
//! - `properties`: laws that hold across the crates on random workloads.
//! - `provenance`: only the project's own files are in the repository.
//! - `search`: the timing search against naive baselines, brute force,
//!   a published mapping, and its own certificates.
//! - `timeline`: the timeline opens where the set-ups differ, or on the
//!   window asked for.
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
mod provenance;
mod search;
mod support;
mod timeline;
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

/// A file made by others, read in place from `../shared/data/` (`rel`
/// below it). The calling test checks first that the data is there, with
/// `corera_testdata::shared_or_skip!`, and is skipped (or fails under
/// `CORERA_REQUIRE_SHARED=1`) where it is not.
fn shared(rel: &str) -> &'static str {
    // Leaked: a test asks for a few paths, and `&'static str` fits every
    // argument list beside the literals.
    corera_testdata::shared_dir().join(rel).display().to_string().leak()
}

/// `corera` ready to run, in the repository root.
fn corera() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("corera").expect("binary built");
    cmd.current_dir(root());
    cmd
}
