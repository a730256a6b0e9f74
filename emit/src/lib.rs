//! Firmware headers, JSON records and reports.
//!
//! The last stage of corera's pipeline. Every record corera writes or
//! prints is a typed struct in [`records`], defined once with
//! `schema_version` first; the [`Analysis`] record holds everything a user
//! takes away, so every [`Emitter`] renders from it alone: from a fresh
//! analysis, or from an `analysis.json` read back without the trace. Every
//! emitter is deterministic: no timestamps, stable ordering, so reruns give
//! the same bytes.
//!
//! # Brief overview
//! - [`records`]: [`Analysis`] and the other records, built from the
//!   pipeline's [`Results`], read back with [`read_analysis`] and
//!   [`read_placement`]; [`to_json`] prints any of them.
//! - [`Emitter`]: one trait, implemented by [`CHeader`] (generic C,
//!   FreeRTOS, Zephyr, POSIX), [`TasksetScript`], [`Json`] and
//!   [`HtmlReport`]; [`Target`] lists them (the CLI's `--target` values).
//! - [`summary`]: the text table `corera analyze` prints.
//! - [`perfetto`], [`btf`]: replay timelines.
//! - [`write_atomic`]: temporary file then rename, or `-` for stdout.
//!
//! # Example
//! ```
//! // A placement file, as `place --json` writes it or a user writes by hand.
//! let text = r#"{"schema_version": 3, "placement": [{"task": "Motor", "core": 1}]}"#;
//! let placement = corera_emit::read_placement(text)?;
//! assert_eq!((placement[0].task.as_str(), placement[0].core), ("Motor", 1));
//! // An old file is refused with the reason.
//! let old = corera_emit::read_placement(r#"{"schema_version": 2, "placement": []}"#).unwrap_err();
//! assert!(old.contains("older corera"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod amalthea;
mod header;
mod html;
mod json;
pub mod records;
mod summary;
mod timeline;
mod write;

pub use amalthea::AmaltheaMapping;
pub use header::{CHeader, HeaderTarget, TasksetScript, c_identifiers};
pub use html::HtmlReport;
pub use json::{Json, to_json};
pub use records::{Analysis, MAX_SEGMENTS_PER_LANE, Results, SCHEMA_VERSION, read_analysis, read_placement};
pub use summary::{CoreLine, core_lines, fidelity_table, summary, sweep_table};
pub use timeline::{btf, perfetto};
pub use write::write_atomic;

/// corera's version, printed in every output.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// An output format.
pub trait Emitter {
    /// Format name, e.g. `c-header`.
    fn name(&self) -> &'static str;
    /// Default file name in the output directory.
    fn file_name(&self) -> &'static str;
    /// The output bytes.
    fn emit(&self, analysis: &Analysis) -> Vec<u8>;
}

/// The outputs `corera emit --target` writes: the one list the CLI, the
/// help and the book take their names from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Generic C header.
    CHeader,
    /// FreeRTOS SMP header.
    Freertos,
    /// Zephyr SMP header.
    Zephyr,
    /// POSIX threads header.
    Posix,
    /// `taskset` script.
    Taskset,
    /// The analysis JSON.
    Json,
    /// The HTML report.
    Html,
    /// An Amalthea mapping model.
    Amalthea,
}

impl Target {
    /// Every target, in the order the help lists them.
    pub const ALL: [Target; 8] = [
        Target::CHeader,
        Target::Freertos,
        Target::Zephyr,
        Target::Posix,
        Target::Taskset,
        Target::Json,
        Target::Html,
        Target::Amalthea,
    ];

    /// Its emitter.
    pub fn emitter(self) -> &'static dyn Emitter {
        match self {
            Target::CHeader => &CHeader { target: HeaderTarget::Generic },
            Target::Freertos => &CHeader { target: HeaderTarget::FreeRtos },
            Target::Zephyr => &CHeader { target: HeaderTarget::Zephyr },
            Target::Posix => &CHeader { target: HeaderTarget::Posix },
            Target::Taskset => &TasksetScript,
            Target::Json => &Json,
            Target::Html => &HtmlReport,
            Target::Amalthea => &AmaltheaMapping,
        }
    }

    /// The `--target` name (the emitter's name).
    pub fn name(self) -> &'static str {
        self.emitter().name()
    }

    /// The target named `name`.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// One line for `--help`.
    pub fn help(self) -> &'static str {
        match self {
            Target::CHeader => "Generic C header: defines, task -> core table, per-core task lists",
            Target::Freertos => "The generic header plus FreeRTOS SMP affinity masks and `corera_apply_freertos()`",
            Target::Zephyr => "The generic header plus Zephyr CPU masks and `corera_apply_zephyr()`",
            Target::Posix => "The generic header plus `cpu_set_t` / `pthread_setaffinity_np` helpers for Linux threads",
            Target::Taskset => "A shell script pinning Linux processes by name with `taskset`",
            Target::Json => "The analysis JSON",
            Target::Html => "The self-contained HTML report",
            Target::Amalthea => "An Eclipse APP4MC Amalthea mapping model (task and scheduler allocations)",
        }
    }
}

#[cfg(test)]
mod tests;
