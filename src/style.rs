//! How messages look on stderr: colour (`--color`, `NO_COLOR`) and
//! verbosity (`-v`), decided once at start-up.

use std::io::IsTerminal;
use std::sync::OnceLock;

use crate::cli::ColorArg;

static COLOR: OnceLock<bool> = OnceLock::new();
static VERBOSE: OnceLock<bool> = OnceLock::new();

/// Whether `choice` means colour on stderr: `always`, `never`, or `auto`
/// (a terminal, and `NO_COLOR` unset or empty, as no-color.org asks).
pub(crate) fn wants_color(choice: ColorArg) -> bool {
    match choice {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stderr().is_terminal(),
    }
}

/// Sets colour and verbosity for the rest of the run.
pub(crate) fn init(color: bool, verbose: bool) {
    let _ = COLOR.set(color);
    let _ = VERBOSE.set(verbose);
}

/// Whether `-v` was given.
pub(crate) fn verbose() -> bool {
    VERBOSE.get().copied().unwrap_or(false)
}

fn paint(text: &str, code: &str) -> String {
    if COLOR.get().copied().unwrap_or(false) { format!("\x1b[{code}m{text}\x1b[0m") } else { text.to_string() }
}

/// `error:` (bold red when colour is on).
pub(crate) fn error() -> String {
    paint("error:", "1;31")
}

/// `warning:` (bold yellow when colour is on).
pub(crate) fn warning() -> String {
    paint("warning:", "1;33")
}
