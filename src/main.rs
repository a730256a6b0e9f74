//! The `corera` command: glue code that brings the pipeline crates
//! (trace-ingest → task-graph → placement → search → emit) together.

mod cli;
mod commands;
mod exit;
mod pipeline;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match commands::run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            // A closed pipe (`corera ... | head`) is not an error.
            if failure.is_broken_pipe() {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {:#}", failure.error);
            ExitCode::from(failure.code)
        }
    }
}
