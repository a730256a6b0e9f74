//! Reading: the trace (a file, files per core, or stdin), its schedule,
//! its priorities and its task graph.

use std::io::{BufRead, BufReader};
use std::path::Path;

use corera_task_graph::TaskGraph;
use corera_trace_ingest::{Parsed, PriorityOverride, PrioritySource, Schedule, Warning};

use crate::error::{Error, Result};
use crate::options::{Input, Observer};

/// The input's display name: its file name (names joined by `+` for one
/// file per core), or `<stdin>`.
pub fn input_name(input: &Input) -> String {
    let name = |p: &Path| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned());
    match &input.path {
        Some(p) if p.as_os_str() != "-" => {
            std::iter::once(name(p)).chain(input.more.iter().map(|m| name(m))).collect::<Vec<_>>().join("+")
        }
        _ => "<stdin>".to_string(),
    }
}

fn open(path: &Path) -> Result<Box<dyn BufRead>> {
    let file = std::fs::File::open(path).map_err(|source| Error::Open {
        what: "open trace",
        path: path.display().to_string(),
        source,
    })?;
    Ok(Box::new(BufReader::with_capacity(256 * 1024, file)))
}

/// Reads the trace named by `input` (a file, or stdin).
pub fn ingest(input: &Input) -> Result<Parsed> {
    let path = input.path.as_deref().map(corera_trace_ingest::input_file);
    let (mut reader, shown): (Box<dyn BufRead>, String) = match &path {
        Some(p) if p.as_os_str() != "-" => (open(p)?, p.display().to_string()),
        // Messages name the file as the user gave it, so editors can jump there.
        _ => (Box::new(BufReader::with_capacity(256 * 1024, std::io::stdin().lock())), "<stdin>".to_string()),
    };
    let mut options = input.read.clone();
    options.path = shown.clone();
    if !input.more.is_empty() {
        let mut files = vec![(shown, reader)];
        for p in &input.more {
            files.push((p.display().to_string(), open(p)?));
        }
        return Ok(corera_trace_ingest::read_per_core(files, input.format, &options)?);
    }
    Ok(corera_trace_ingest::read(&mut reader, input.format, &options)?)
}

/// A trace read, its priorities resolved, its task graph built.
pub struct Read {
    /// The input's display name.
    pub name: String,
    /// The trace.
    pub parsed: Parsed,
    /// What it records each task did.
    pub schedule: Schedule,
    /// Its task graph.
    pub graph: TaskGraph,
    /// Warnings of every step.
    pub warnings: Vec<Warning>,
}

/// Runs ingest → schedule → priorities → task graph. `priorities` are the
/// user's, applied last.
pub fn read(input: &Input, priorities: &[PriorityOverride], observer: &dyn Observer) -> Result<Read> {
    observer.step("reading trace");
    let mut parsed = ingest(input)?;
    let name = input_name(input);
    observer.step("building task graph");
    let schedule = Schedule::of(&parsed.trace);
    let resolved = corera_trace_ingest::priority::resolve(&mut parsed.trace, &schedule, priorities)?;
    let (mut graph, graph_warnings) = TaskGraph::from_schedule(&parsed.trace, &schedule)?;
    for (t, source) in graph.tasks.iter_mut().zip(&resolved.source) {
        t.priority_source = *source;
        if *source == PrioritySource::Inferred {
            t.priority_pairs = resolved.inference.pairs_of[t.id as usize];
        }
    }
    let mut warnings = parsed.warnings.clone();
    warnings.extend(graph_warnings);
    warnings.extend(resolved.warnings);
    Ok(Read { name, parsed, schedule, graph, warnings })
}
