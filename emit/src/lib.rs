//! Firmware headers, JSON and summaries.
//!
//! The last stage of corera's pipeline: it prints a [`Report`] (what every
//! earlier stage produced) in the forms a user takes away. Every emitter is
//! deterministic: no timestamps, stable ordering, so reruns give the same
//! bytes.
//!
//! # Brief overview
//! - [`Report`]: the inputs to every emitter.
//! - [`Emitter`]: one trait, implemented by [`CHeader`] and [`Json`].
//! - [`summary`]: the short text table `corera analyze` prints.
//! - [`c_identifiers`]: task names to unique C identifiers.
//! - [`write_atomic`]: temporary file then rename, or `-` for stdout.

mod header;
mod html;
mod json;
mod summary;
mod timeline;
mod write;

use corera_placement::{Cost, Platform, Problem};
use corera_replay::Outcome;
use corera_search::Solution;
use corera_task_graph::TaskGraph;
use corera_trace_ingest::{Fingerprint, TraceSummary, Warning};

pub use header::{CHeader, HeaderTarget, TasksetScript, c_identifiers};
pub use html::{HtmlReport, MAX_SEGMENTS_PER_LANE};
pub use json::{Json, SCHEMA_VERSION};
pub use summary::{CoreLine, core_lines, summary};
pub use timeline::{btf, perfetto};
pub use write::write_atomic;

/// corera's version, printed in every output.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What the pipeline produced, for the emitters.
#[derive(Clone, Debug)]
pub struct Report<'a> {
    /// Input file name as given (no directories), or `<stdin>`.
    pub input_name: &'a str,
    /// Input format name.
    pub format: &'a str,
    /// Size and hash of the input.
    pub source: Fingerprint,
    /// Trace summary.
    pub trace: &'a TraceSummary,
    /// The task graph.
    pub graph: &'a TaskGraph,
    /// The target platform.
    pub platform: &'a Platform,
    /// The placement problem.
    pub problem: &'a Problem,
    /// The search result.
    pub solution: &'a Solution,
    /// The cost of the chosen placement.
    pub cost: &'a Cost,
    /// Warnings from every stage.
    pub warnings: &'a [Warning],
    /// The traced jobs replayed under each policy (single core first).
    pub replay: &'a [Outcome],
    /// Names of the replay's tasks (timeline segments index them).
    pub replay_tasks: &'a [String],
}

/// An output format.
pub trait Emitter {
    /// Format name, e.g. `c-header`.
    fn name(&self) -> &'static str;
    /// Default file name in the output directory.
    fn file_name(&self) -> &'static str;
    /// The output bytes.
    fn emit(&self, report: &Report<'_>) -> Vec<u8>;
}

#[cfg(test)]
mod tests;
