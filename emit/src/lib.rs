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
//!   FreeRTOS, ESP-IDF, Zephyr, ThreadX, NuttX, POSIX), [`TasksetScript`], [`Json`] and
//!   [`HtmlReport`]; [`Target`] lists them (the CLI's `--target` values).
//! - [`summary`]: the text table `corera analyze` prints.
//! - [`perfetto`], [`btf`]: replay timelines.
//! - [`write_atomic`]: temporary file then rename, or `-` for stdout.
//!
//! # Example
//! ```
//! // A placement file, as `place --json` writes it or a user writes by hand.
//! let text = r#"{"schema_version": 5, "placement": [{"task": "Motor", "core": 1}]}"#;
//! let placement = corera_emit::read_placement(text)?;
//! assert_eq!((placement[0].task.as_str(), placement[0].core), ("Motor", 1));
//! // An old file is refused with the reason.
//! let old = corera_emit::read_placement(r#"{"schema_version": 2, "placement": []}"#).unwrap_err();
//! assert!(matches!(old, corera_emit::RecordError::Schema { found: Some(2) }));
//! assert!(old.to_string().contains("older corera"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod amalthea;
mod autosar;
mod calibrate;
mod check;
mod diff;
mod header;
mod html;
mod json;
pub mod records;
mod simulate;
mod summary;
pub mod timeline;
mod write;

pub use amalthea::AmaltheaMapping;
pub use autosar::{AutosarEcuc, OsekOil, short_names};
pub use calibrate::calibrate_text;
pub use check::{CheckRecord, Requirements, TaskLimit, UnknownTask, Verdict, check, check_text, junit};
pub use diff::{DiffRecord, DiffRow, diff, diff_text};
pub use header::{CHeader, HeaderTarget, TasksetScript, c_identifiers};
pub use html::{HtmlReport, timeline_page};
pub use json::{Json, to_json};
pub use records::{
    Analysis, MAX_SEGMENTS_PER_LANE, RecordError, Results, SCHEMA_VERSION, read_analysis, read_placement,
};
pub use simulate::{SimulateRun, simulate_text};
pub use summary::{
    CoreLine, chains_text, core_lines, cores_named, deadlock_note, fidelity_caution, fidelity_line, fidelity_table,
    summary, sweep_table,
};
pub use timeline::{TimelineRecord, btf, perfetto};
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
    /// Whether the target can express `analysis`'s placement; the reason
    /// when it cannot (a placement the RTOS cannot run is refused, never
    /// emitted wrongly).
    ///
    /// # Errors
    /// The reason, naming what the target's RTOS cannot express.
    fn check(&self, analysis: &Analysis) -> Result<(), Unexpressible> {
        let _ = analysis;
        Ok(())
    }
}

/// A placement a target cannot express, and why (naming what its RTOS
/// cannot do and what to do instead).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unexpressible(pub String);

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
    /// ESP-IDF header.
    EspIdf,
    /// ThreadX SMP header.
    ThreadX,
    /// NuttX SMP header.
    NuttX,
    /// `taskset` script.
    Taskset,
    /// The analysis JSON.
    Json,
    /// The HTML report.
    Html,
    /// An Amalthea mapping model.
    Amalthea,
    /// An AUTOSAR ECUC fragment: OS-Applications per core.
    Autosar,
    /// OSEK OIL with each task's core.
    Oil,
}

impl Target {
    /// Every target, in the order the help lists them.
    pub const ALL: [Target; 13] = [
        Target::CHeader,
        Target::Freertos,
        Target::EspIdf,
        Target::Zephyr,
        Target::ThreadX,
        Target::NuttX,
        Target::Posix,
        Target::Taskset,
        Target::Json,
        Target::Html,
        Target::Amalthea,
        Target::Autosar,
        Target::Oil,
    ];

    /// Its emitter.
    pub fn emitter(self) -> &'static dyn Emitter {
        match self {
            Target::CHeader => &CHeader { target: HeaderTarget::Generic },
            Target::Freertos => &CHeader { target: HeaderTarget::FreeRtos },
            Target::Zephyr => &CHeader { target: HeaderTarget::Zephyr },
            Target::Posix => &CHeader { target: HeaderTarget::Posix },
            Target::EspIdf => &CHeader { target: HeaderTarget::EspIdf },
            Target::ThreadX => &CHeader { target: HeaderTarget::ThreadX },
            Target::NuttX => &CHeader { target: HeaderTarget::NuttX },
            Target::Taskset => &TasksetScript,
            Target::Json => &Json,
            Target::Html => &HtmlReport,
            Target::Amalthea => &AmaltheaMapping,
            Target::Autosar => &AutosarEcuc,
            Target::Oil => &OsekOil,
        }
    }

    /// The `--target` name (the emitter's name).
    pub fn name(self) -> &'static str {
        self.emitter().name()
    }

    /// Which placements the target can express: what its RTOS's affinity
    /// API holds (the outputs page's target table shows it).
    pub fn masks(self) -> &'static str {
        match self {
            Target::CHeader | Target::Freertos | Target::Posix | Target::Taskset => "any mask of up to 64 cores",
            Target::EspIdf => "at most 2 cores: one core or every core (`tskNO_AFFINITY`)",
            Target::Zephyr => "any mask of up to 16 CPUs; one CPU per thread under `CONFIG_SCHED_CPU_MASK_PIN_ONLY`",
            Target::ThreadX => "any mask of up to `TX_THREAD_SMP_MAX_CORES` (at most 32) cores, as an exclusion map",
            Target::NuttX => "any mask of up to `CONFIG_SMP_NCPUS` CPUs",
            Target::Json | Target::Html | Target::Amalthea => "any placement",
            Target::Autosar | Target::Oil => {
                "one core per task (AUTOSAR Classic cannot migrate); with masks, the best AMP placement"
            }
        }
    }

    /// The target named `name`.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// One line for `--help`.
    pub fn help(self) -> &'static str {
        match self {
            Target::CHeader => "Generic C header: defines, task -> core table, per-core task lists",
            Target::Freertos => {
                "The generic header plus FreeRTOS SMP affinity masks, creation with affinity and `corera_apply_freertos()`"
            }
            Target::EspIdf => "The generic header plus the core per task for ESP-IDF's `xTaskCreatePinnedToCore()`",
            Target::ThreadX => "The generic header plus ThreadX SMP exclusion maps for `tx_thread_smp_core_exclude()`",
            Target::NuttX => "The generic header plus NuttX `cpu_set_t` per task for `sched_setaffinity()`",
            Target::Zephyr => "The generic header plus Zephyr CPU masks and `corera_apply_zephyr()`",
            Target::Posix => "The generic header plus `cpu_set_t` / `pthread_setaffinity_np` helpers for Linux threads",
            Target::Taskset => "A shell script pinning Linux processes by name with `taskset`",
            Target::Json => "The analysis JSON",
            Target::Html => "The self-contained HTML report",
            Target::Amalthea => "An Eclipse APP4MC Amalthea mapping model (task and scheduler allocations)",
            Target::Autosar => "An AUTOSAR ECUC fragment (ARXML): an OS-Application per core, its tasks and ISRs",
            Target::Oil => "OSEK OIL with each task's and ISR's core (CPU_ID)",
        }
    }
}

#[cfg(test)]
mod tests;

/// Text with `&`, `<`, `>` and `"` escaped, for XML and HTML (attributes
/// included): the report, the ARXML and the JUnit XML.
pub(crate) fn escape_markup(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
