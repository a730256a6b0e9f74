//! The command line from the outside, one file per area:
//!
//! - `analyze`: `analyze` from the outside: outputs, stdin, determinism, bad input and its exit codes, fidelity, colour and verbosity.
//! - `constraints`: Constraints and objectives from flags and files: pins, forbidden cores, groups, conflicts, deadlines, priorities.
//! - `outputs`: `ingest`, `graph`, `emit` and `gen`: what each writes and prints.
//! - `inputs`: Real inputs made by others: BTF, ftrace, Amalthea models, Tracealyzer and SystemView recordings, and malformed ones.
//! - `place`: `place`: METIS graphs, seeds, platforms, every search method, the ILP and the Pareto front.
//! - `simulate`: `simulate`: each policy, timeline exports, mask placements, sweeps, and replays as recorded.
//! - `check`: `diff` and `check`: what changed between analyses, and whether a recording still meets its requirements.
//! - `calibrate`: `calibrate`: costs fitted to a pair of recordings, the platform file it writes, its verdict.

mod analyze;
mod calibrate;
mod check;
mod constraints;
mod inputs;
mod outputs;
mod place;
mod simulate;

/// The bundled sample most tests run on.
const SAMPLE: &str = "samples/printer/printer.log";
