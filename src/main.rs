//! The `corera` command: flags parsed into the options of the pipeline
//! library (`corera_pipeline`), which runs the stages
//!
//! ```text
//! trace-ingest → task-graph → placement → search (traffic) ─┐
//!                                  └────→ replay ───────────┴→ tune (replay-judged) → emit
//! ```
//!
//! and its results printed or written.

mod cli;
mod commands;
mod exit;
mod pipeline;
mod style;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let color = style::wants_color(cli::ColorArg::from_args(&args));
    let command = cli::Cli::command().color(if color { clap::ColorChoice::Always } else { clap::ColorChoice::Never });
    let cli = match command.try_get_matches_from(&args).and_then(|m| cli::Cli::from_arg_matches(&m)) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    style::init(color, cli.verbose);
    match commands::run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`corera ... | head`) is not an error.
        Err(error) if exit::is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{} {error:#}", style::error());
            ExitCode::from(exit::exit_code(&error))
        }
    }
}
