//! Every record corera writes or prints with `--json`, defined once.
//!
//! # Format
//! Each record is one JSON object whose first field is `schema_version`
//! ([`SCHEMA_VERSION`]), then `corera_version`. Fields are added, never
//! renamed or removed, within a schema version; consumers must ignore
//! unknown fields. The book's outputs page documents every field.
//!
//! | record | written by |
//! |---|---|
//! | [`Analysis`] | `analyze` (`analysis.json`, `--json`), `emit --target json` |
//! | [`PlaceRecord`] | `place --json` |
//! | [`ParetoRecord`] | `place --pareto --json` |
//! | [`PartitionRecord`] | `place --graph --json` |
//! | [`SimulateRecord`] | `simulate --json` |
//! | [`WrittenRecord`] | `emit --json`, `gen --json` |
//! | [`GraphRecord`] | `graph --json`, `graph -o` |
//! | [`IngestRecord`] | `ingest --json` |
//!
//! A placement is always the same list of [`PlacedTask`]s under
//! `placement`, so any record that carries one is a placement file for
//! `--placement` ([`read_placement`]).

use corera_placement::{CoreSet, Problem};
use corera_task_graph::TaskGraph;
use corera_trace_ingest::{Fingerprint, TaskKind};
use serde::{Deserialize, Serialize};

mod analysis;
mod commands;
mod fidelity;
mod replay;
mod timing;

pub use analysis::*;
pub use commands::*;
pub use fidelity::*;
pub use replay::*;
pub use timing::*;

/// Version of every record's schema. 3: every record is typed and carries
/// `schema_version`; `placement` entries gained `kind`, `restricted` and
/// `traffic`; `traffic`, `platform.distance`, `replay.tasks` and each
/// policy's `lanes` were added; `graph --json` nests the graph under
/// `graph`; the p95 response time is the nearest-rank percentile. 4: the
/// recommended `setup` is a policy name (`amp`, `smp`, `masks`; `strict`
/// became `amp`); `cost.objective` became `cost.score`; `timing` counts its
/// budget in replays (`replays`; `evaluations` and `window` are gone: every
/// replay is of the whole trace) and carries the certificates of its
/// answers (`strict`, `masks`), as does the recommendation
/// (`certificate`). 5: one name for one core per task, AMP: `timing.strict`
/// became `timing.amp`, the alternative `best strict` became `best AMP`,
/// the improvement key `best_strict` became `best_amp` and the replay label
/// `AMP, best strict` became `AMP, best`.
pub const SCHEMA_VERSION: u32 = 5;

/// The oldest schema whose `placement` list [`read_placement`] reads: the
/// list has not changed since 3.
const PLACEMENT_SINCE: u32 = 3;

/// The input a record came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    /// File name as given (no directories), or `<stdin>`.
    pub name: String,
    /// Format read (`corera-log`, `btf`, `ftrace`, ...).
    pub format: String,
    /// Size in bytes (decompressed).
    pub bytes: u64,
    /// 64-bit hash of those bytes, 16 hex digits.
    pub hash: String,
    /// What the input says about itself (a recording's header: the tool
    /// that saved it, its OS, its cores).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Input {
    /// The record of an input named `name`, read as `format`, with
    /// fingerprint `source`.
    pub fn new(name: &str, format: &str, source: Fingerprint) -> Input {
        Input {
            name: name.to_string(),
            format: format.to_string(),
            bytes: source.bytes,
            hash: format!("{:016x}", source.hash),
            notes: Vec::new(),
        }
    }

    /// The same, with what the input says about itself.
    pub fn with_notes(mut self, notes: &[String]) -> Input {
        self.notes = notes.to_vec();
        self
    }
}

/// One task of a placement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedTask {
    /// Task name.
    pub task: String,
    /// Task id in the trace (informational; `--placement` matches names).
    #[serde(default)]
    pub id: u32,
    /// Its core (for a task that may float: the core it starts on, the
    /// lowest of `cores` unless the search chose another).
    pub core: u16,
    /// The cores it may run on: `[core]` for an AMP placement, several
    /// for an affinity mask (`--placement` takes `cores` when given).
    #[serde(default)]
    pub cores: Vec<u16>,
    /// Pinned to its core by a constraint or the ISR default.
    #[serde(default)]
    pub pinned: bool,
    /// Its load over the trace, ns of the traced core.
    #[serde(default)]
    pub load_ns: u64,
    /// Task or ISR (informational).
    #[serde(default = "task_kind")]
    pub kind: TaskKind,
    /// Restricted to a subset of the cores (not pinned).
    #[serde(default)]
    pub restricted: bool,
    /// Its traffic weight with every other task.
    #[serde(default)]
    pub traffic: u64,
}

fn task_kind() -> TaskKind {
    TaskKind::Task
}

/// The placement of `core_of` (a placement of `problem`, with the masks
/// of a mask placement), in problem order.
pub fn placed_tasks(
    problem: &Problem,
    graph: &TaskGraph,
    core_of: &[u16],
    masks: Option<&[CoreSet]>,
) -> Vec<PlacedTask> {
    (0..problem.len())
        .map(|i| PlacedTask {
            task: problem.names[i].clone(),
            id: problem.task_ids[i],
            core: core_of[i],
            cores: masks.map_or_else(|| vec![core_of[i]], |m| m[i].iter().collect()),
            pinned: problem.pinned[i].is_some(),
            load_ns: problem.load[i],
            kind: graph.tasks.get(problem.task_ids[i] as usize).map_or(TaskKind::Task, |t| t.kind),
            restricted: problem.pinned[i].is_none() && problem.allowed[i].is_some(),
            traffic: problem.adjacency[i].iter().map(|a| a.1).sum(),
        })
        .collect()
}

/// Undirected traffic between two placed tasks: indices into
/// `placement`, and the weight (both directions plus shared resources).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrafficEdge(pub u32, pub u32, pub u64);

/// Why a saved record cannot be read back.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Not JSON, or not the record's shape (serde names the line and
    /// column, and the field).
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A schema version this corera does not read (or none).
    #[error("{}", old_schema(*found))]
    Schema {
        /// The `schema_version` found.
        found: Option<u32>,
    },
    /// A placement file without a `placement` list.
    #[error("no `placement` list (a list of {{\"task\": NAME, \"core\": N}})")]
    NoPlacement,
    /// A field out of the range the rest of the record gives it.
    #[error("{0}")]
    OutOfRange(String),
}

pub(crate) fn old_schema(found: Option<u32>) -> String {
    match found {
        Some(v) if v < SCHEMA_VERSION => format!(
            "schema_version {v} is from an older corera (this one writes {SCHEMA_VERSION}); write the file again \
             with this corera"
        ),
        Some(v) => format!("schema_version {v} is newer than this corera reads ({SCHEMA_VERSION}); update corera"),
        None => format!(
            "no `schema_version`: corera's records start with \"schema_version\": {SCHEMA_VERSION} (see the book's \
             outputs page)"
        ),
    }
}

/// Reads the placement of any record that carries one (`place --json`,
/// `analysis.json`, `simulate --json`) or a hand-written file of the same
/// shape: `{"schema_version": 5, "placement": [{"task": "A", "core": 0},
/// ...]}`.
///
/// # Errors
/// A message naming the line and column, or the field, that is wrong, or
/// the schema version found.
pub fn read_placement(text: &str) -> Result<Vec<PlacedTask>, RecordError> {
    #[derive(Deserialize)]
    struct Version {
        schema_version: Option<u32>,
    }
    #[derive(Deserialize)]
    struct File {
        placement: Option<Vec<PlacedTask>>,
    }
    let version: Version = serde_json::from_str(text)?;
    if !version.schema_version.is_some_and(|v| (PLACEMENT_SINCE..=SCHEMA_VERSION).contains(&v)) {
        return Err(RecordError::Schema { found: version.schema_version });
    }
    let file: File = serde_json::from_str(text)?;
    file.placement.ok_or(RecordError::NoPlacement)
}

/// Reads `analysis.json` back and checks it.
///
/// # Errors
/// A message naming the line and column, the field, or the schema version
/// that is wrong.
pub fn read_analysis(text: &str) -> Result<Analysis, RecordError> {
    #[derive(Deserialize)]
    struct Version {
        schema_version: Option<u32>,
    }
    let version: Version = serde_json::from_str(text)?;
    if version.schema_version != Some(SCHEMA_VERSION) {
        return Err(RecordError::Schema { found: version.schema_version });
    }
    let analysis: Analysis = serde_json::from_str(text)?;
    analysis.validate()?;
    Ok(analysis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downsampling_keeps_the_span_and_the_bound() {
        let lane: Vec<[u64; 3]> = (0..100_000u64).map(|i| [i * 10, i * 10 + 7, i % 5]).collect();
        let out = downsample(&lane, MAX_SEGMENTS_PER_LANE);
        assert!(out.len() <= MAX_SEGMENTS_PER_LANE, "{}", out.len());
        assert_eq!((out[0][0], out[out.len() - 1][1]), (0, 999_997));
        assert!(out.windows(2).all(|w| w[0][1] <= w[1][0]), "merged segments stay ordered and disjoint");
    }

    #[test]
    fn placement_files_name_what_is_wrong() {
        let ok = r#"{"schema_version": 3, "placement": [{"task": "A", "core": 1}]}"#;
        let p = read_placement(ok).unwrap();
        assert_eq!((p[0].task.as_str(), p[0].core, p[0].kind), ("A", 1, TaskKind::Task));
        for (text, want) in [
            (r#"{"placement": []}"#, "no `schema_version`"),
            (r#"{"schema_version": 2, "placement": []}"#, "schema_version 2 is from an older corera"),
            (r#"{"schema_version": 9}"#, "newer than this corera reads"),
            (r#"{"schema_version": 3}"#, "no `placement` list"),
            ("{\"schema_version\": 3,\n \"placement\": [{\"task\": \"A\"}]}", "missing field `core` at line 2"),
            ("{\"schema_version\": 3,\n \"placement\": [{\"task\": \"A\", \"core\": -1}]}", "line 2 column"),
            ("not json", "expected ident at line 1 column 2"),
        ] {
            let e = read_placement(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
