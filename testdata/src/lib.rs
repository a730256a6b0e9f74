//! Finds the data made by others that corera's tests read in place.
//!
//! Real traces, recordings, models and benchmark graphs made by other
//! people are never copied into the repository: CI has them in
//! `../shared/data/` beside the checkout, a user's clone usually does not.
//! A test that needs one asks for it by its path below that folder:
//!
//! ```
//! # fn main() {
//! let Some(_btf) = corera_testdata::shared("traces/btf/freertos_v11_rv64sim_2cores.btf") else {
//!     return; // skipped, and said so on the terminal
//! };
//! # }
//! ```
//!
//! or, inside a test returning `()`, `let path =
//! corera_testdata::shared_or_skip!("traces/btf/...");`. Where the data is
//! absent the test says `skipped <test>: needs ../shared/data/<path>` on
//! the terminal (past the test harness's capture, so `cargo test` lists
//! every skip) and passes; with `CORERA_REQUIRE_SHARED=1` (`.ci/run` sets
//! it) it fails instead. `CORERA_SHARED_DATA=DIR` points at the data
//! elsewhere.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The environment variable under which missing data fails a test.
pub const REQUIRE: &str = "CORERA_REQUIRE_SHARED";

/// The environment variable naming the data folder, when it is not
/// `../shared/data` beside the checkout.
pub const DIR: &str = "CORERA_SHARED_DATA";

/// The workspace root (the repository's checkout).
pub fn workspace_root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The folder the shared data is read from: `CORERA_SHARED_DATA`, or
/// `../shared/data` beside the checkout (whether it exists or not).
pub fn shared_dir() -> PathBuf {
    match std::env::var_os(DIR) {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("../shared/data"),
    }
}

/// A test input by its name: `shared/REL` is `REL` in the shared data
/// (made by others, never copied into the repository), anything else is
/// relative to the workspace root. Whether it exists is not checked.
pub fn path(name: &str) -> PathBuf {
    match name.strip_prefix("shared/") {
        Some(rel) => shared_dir().join(rel),
        None => workspace_root().join(name),
    }
}

/// `rel` inside the shared data, if it is there. If it is not: under
/// `CORERA_REQUIRE_SHARED=1` this panics (the test fails, naming the
/// path); otherwise it says on the terminal which test is skipped and
/// what it needs, and returns `None`.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let test = std::thread::current().name().unwrap_or("a test").to_string();
    match lookup(&shared_dir(), rel, required()) {
        Ok(found) => found,
        Err(missing) => panic!("{test} needs {missing} ({REQUIRE} is set, so it may not be skipped)"),
    }
    .or_else(|| {
        // Straight to the terminal: the harness captures `eprintln!` of
        // passing tests, and a skip must be seen.
        let _ = writeln!(std::io::stderr(), "skipped {test}: needs ../shared/data/{rel} (absent)");
        None
    })
}

/// `dir/rel` if it exists; `Ok(None)` if not and skipping is allowed;
/// `Err(path)` if not and it is required.
fn lookup(dir: &Path, rel: &str, required: bool) -> Result<Option<PathBuf>, String> {
    let path = dir.join(rel);
    match (path.exists(), required) {
        (true, _) => Ok(Some(path)),
        (false, false) => Ok(None),
        (false, true) => Err(path.display().to_string()),
    }
}

/// Whether missing shared data fails a test (`CORERA_REQUIRE_SHARED=1`).
pub fn required() -> bool {
    std::env::var_os(REQUIRE).is_some_and(|v| v == "1")
}

/// `rel` inside the shared data, or return from the calling test (which
/// passes, skipped, unless `CORERA_REQUIRE_SHARED=1`). See [`shared`].
#[macro_export]
macro_rules! shared_or_skip {
    ($rel:expr) => {
        match $crate::shared($rel) {
            Some(path) => path,
            None => return,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn present_data_is_found_missing_data_skips_or_fails_when_required() {
        let root = workspace_root();
        assert_eq!(lookup(root, "Cargo.toml", true), Ok(Some(root.join("Cargo.toml"))));
        assert_eq!(lookup(root, "no/such/file.btf", false), Ok(None));
        let missing = lookup(root, "no/such/file.btf", true).unwrap_err();
        assert!(missing.ends_with("no/such/file.btf"), "{missing}");
        assert_eq!(path("samples/printer/printer.log"), root.join("samples/printer/printer.log"));
        assert_eq!(path("shared/traces/btf/x.btf"), shared_dir().join("traces/btf/x.btf"));
    }
}
