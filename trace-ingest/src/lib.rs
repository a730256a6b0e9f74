//! Trace formats into corera's format-neutral trace model.
//!
//! This is the first stage of corera's pipeline: every supported input
//! format is read into one [`Trace`] (tasks, kernel objects and a time-ordered
//! stream of compactly stored [`Event`]s with nanosecond timestamps), so that
//! later stages never see format details.
//!
//! # Brief overview
//! - [`model`]: [`Trace`], [`Task`], [`Object`], [`Event`], [`Events`], [`EventKind`].
//! - [`TraceFormat`]: the trait every reader implements; [`formats`] lists
//!   them and [`read`] picks one by name or by looking at the first lines.
//! - [`corera_log`]: corera's own text log, reader and writer.
//! - [`Schedule`]: what each task did, from one pass over the events:
//!   running and ready stretches, jobs split into phases, what released
//!   them; the job model the task graph and the replay share.
//! - [`ParseError`] names file, line and column; [`Warning`]s report
//!   recoverable oddities with their line.
//!
//! # Example
//! ```
//! use corera_trace_ingest::{read, FormatChoice, ReadOptions};
//!
//! let log = "corera-log 1 clock=us\n\
//!            task 1 task 5 Motor\n\
//!            100 0 rdy 1\n\
//!            100 0 in 1\n\
//!            180 0 out 1 done\n";
//! let parsed = read(&mut log.as_bytes(), FormatChoice::AUTO, &ReadOptions::new("run.log"))?;
//! assert_eq!(parsed.trace.tasks[0].name, "Motor");
//! assert_eq!(parsed.trace.duration(), 80_000); // ns
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod core_state;
mod error;
mod fingerprint;
pub mod formats;
mod lines;
pub mod model;
pub mod priority;
pub mod schedule;
pub mod system;
mod unused;

pub use formats::{amalthea, btf, corera_log, ctf, ftrace, psf, systemview};

use std::io::{BufRead, Read};

pub use error::{ParseError, ParseErrorKind, ReadError, Warning};
pub use fingerprint::Fingerprint;
pub use model::{
    Clock, CrossCoreWake, Event, EventIter, EventKind, Events, Gap, NONE, Object, ObjectId, ObjectKind, Os,
    PrioritiesAtOnce, PriorityOrder, RunnableUse, SwitchOut, Task, TaskId, TaskKind, Tick, Trace, TraceSummary,
};
pub use priority::{Priorities, PriorityOverride, PrioritySource};
pub use schedule::{
    Action, Job, Phase, RecordedWake, Release, ResponseStats, Schedule, Stretch, TaskSchedule, waiting_shares,
};
pub use system::{DefinitionLoad, ModelChain, ModelCore, ModelInfo, ModelOptions, ModelScheduler, TicksMode};

/// A parsed trace and the warnings met on the way.
#[derive(Debug)]
pub struct Parsed {
    /// The trace.
    pub trace: Trace,
    /// Recoverable oddities, in input order.
    pub warnings: Vec<Warning>,
    /// Size and hash of the bytes read (set by [`read`]).
    pub source: Fingerprint,
    /// Name of the format that was read (set by [`read`]).
    pub format: &'static str,
    /// For a model rather than a recording (Amalthea): its hardware,
    /// mapping and requirements.
    pub model: Option<ModelInfo>,
    /// What the input says about itself (a recording's header: the tool
    /// and version that saved it, its OS, its cores), for the summary.
    pub notes: Vec<String>,
}

/// One input format.
///
/// Implementors write [`TraceFormat::parse`] (the whole trace, streaming
/// line by line) and [`TraceFormat::is_applicable`] (a cheap look at the
/// first lines, used by `--format auto`).
pub trait TraceFormat {
    /// Name used by `--format` and in messages.
    fn name(&self) -> &'static str;
    /// Parses a whole trace into the format-neutral model.
    fn parse(&mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError>;
    /// `None`: need more input; `Some(true)`: this format; `Some(false)`:
    /// not this format. `head` holds the first lines of the input.
    fn is_applicable(&mut self, head: &str) -> Option<bool>;
}

/// Options shared by every reader.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ReadOptions {
    /// File name used in messages. Default: `<stdin>`.
    pub path: String,
    /// Skip malformed lines with a counted warning instead of failing, and
    /// sort events whose timestamps go backwards instead of failing.
    /// Default: false.
    pub lenient: bool,
    /// Which tasks to keep (Linux traces hold many unrelated threads).
    /// Default: all. Used by the ftrace reader.
    pub filter: TaskFilter,
    /// How a model's jobs are generated (Amalthea).
    pub model: ModelOptions,
    /// A SystemView description file (`SYSVIEW_<OS>.txt`) naming the
    /// recording OS's API calls, instead of the built-in table.
    pub sysview_desc: Option<std::path::PathBuf>,
    /// A TraceRecorder (PSF) event id the application writes with a
    /// printf-style payload of its own, which the record does not delimit.
    pub psf_printf_event: Option<u16>,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions {
            path: "<stdin>".into(),
            lenient: false,
            filter: TaskFilter::default(),
            model: ModelOptions::default(),
            sysview_desc: None,
            psf_printf_event: None,
        }
    }
}

/// Selects the tasks of a workload: a task is kept when any given
/// criterion matches (or when none is given).
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct TaskFilter {
    /// Thread ids to keep.
    pub pids: Vec<u64>,
    /// Process ids (thread-group ids) whose threads to keep.
    pub tgids: Vec<u64>,
    /// Keep threads whose name matches.
    pub comm: Option<regex::Regex>,
}

impl TaskFilter {
    /// Whether no criterion is set (everything is kept).
    pub fn is_empty(&self) -> bool {
        self.pids.is_empty() && self.tgids.is_empty() && self.comm.is_none()
    }

    /// Whether a task with this pid, process id and name is kept.
    pub fn selects(&self, pid: u64, tgid: Option<u64>, name: &str) -> bool {
        self.is_empty()
            || self.pids.contains(&pid)
            || tgid.is_some_and(|g| self.tgids.contains(&g))
            || self.comm.as_ref().is_some_and(|r| r.is_match(name))
    }
}

impl ReadOptions {
    /// Options naming the input `path`, strict.
    pub fn new(path: &str) -> ReadOptions {
        ReadOptions { path: path.to_string(), ..ReadOptions::default() }
    }
}

/// Which format to read: [`FormatChoice::AUTO`], or a row of
/// [`formats::REGISTRY`] by its name ([`FormatChoice::of`]), so a new
/// format is a module and a row, and nothing else names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatChoice(&'static str);

impl Default for FormatChoice {
    fn default() -> FormatChoice {
        FormatChoice::AUTO
    }
}

impl FormatChoice {
    /// Guess from the first lines (the default).
    pub const AUTO: FormatChoice = FormatChoice("auto");

    /// Every concrete format, in detection order: the one list the CLI's
    /// `--format` values, detection and the book's format lists come from
    /// (the rows of [`formats::REGISTRY`]).
    pub const ALL: [FormatChoice; formats::REGISTRY.len()] = {
        let mut all = [FormatChoice::AUTO; formats::REGISTRY.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = FormatChoice(formats::REGISTRY[i].name);
            i += 1;
        }
        all
    };

    /// The format of [`formats::REGISTRY`] named `name` (its module's
    /// `NAME`).
    ///
    /// # Panics
    /// When no row has that name (at compile time in a `const`).
    pub const fn of(name: &'static str) -> FormatChoice {
        let mut i = 0;
        while i < formats::REGISTRY.len() {
            if eq(formats::REGISTRY[i].name, name) {
                return FormatChoice(formats::REGISTRY[i].name);
            }
            i += 1;
        }
        panic!("no format of that name in formats::REGISTRY")
    }

    /// The `--format` name (`auto` for [`FormatChoice::AUTO`]).
    pub fn name(self) -> &'static str {
        self.0
    }

    /// One line for `--help`.
    pub fn help(self) -> &'static str {
        formats::row(self).map_or("Guess from the first lines", |f| f.help)
    }

    /// Its reference page in the book (`book/src/reference/<page>`).
    pub fn page(self) -> &'static str {
        formats::row(self).map_or("cli.md", |f| f.page)
    }

    /// The choice named `name`.
    pub fn from_name(name: &str) -> Option<FormatChoice> {
        std::iter::once(FormatChoice::AUTO).chain(FormatChoice::ALL).find(|f| f.name() == name)
    }
}

/// Whether two strings are equal, in a `const`.
const fn eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Names of the known formats, in detection order, for messages.
pub fn formats() -> Vec<&'static str> {
    FormatChoice::ALL.iter().map(|f| f.name()).collect()
}

/// The reader of `choice` (corera's log for [`FormatChoice::AUTO`], whose
/// "empty input" error says what a first line should be).
fn reader_for(choice: FormatChoice, options: &ReadOptions) -> Box<dyn TraceFormat> {
    let row = formats::row(choice).unwrap_or(&formats::REGISTRY[0]);
    (row.reader)(options)
}

/// Reads a trace from `input` (plain or gzip-compressed text), naming it
/// `options.path` in messages.
///
/// With [`FormatChoice::AUTO`], every known reader is shown the first lines
/// (up to 64 KiB) and the first that answers yes is used. The fingerprint
/// in the result is that of the (decompressed) text.
///
/// # Errors
/// [`ReadError::UnknownFormat`] when no reader recognises the input,
/// [`ReadError::Parse`] for malformed input, [`ReadError::Io`] when reading
/// fails.
pub fn read(input: &mut dyn BufRead, choice: FormatChoice, options: &ReadOptions) -> Result<Parsed, ReadError> {
    let path = options.path.as_str();
    // gzip is recognised by its magic bytes, so it works on stdin too.
    if is_gzip(input).map_err(|source| ReadError::Io { path: path.to_string(), source })? {
        let mut plain = std::io::BufReader::with_capacity(256 * 1024, flate2::bufread::MultiGzDecoder::new(input));
        return read_plain(&mut plain, choice, options);
    }
    read_plain(input, choice, options)
}

/// Whether `input` starts with gzip's magic bytes (nothing consumed).
fn is_gzip(input: &mut dyn BufRead) -> std::io::Result<bool> {
    Ok(input.fill_buf()?.starts_with(&[0x1f, 0x8b]))
}

/// The file to read for an input path: a CTF trace directory (what
/// babeltrace2 takes) is read from its `metadata`, which finds the streams
/// beside it; any other path as given.
pub fn input_file(path: &std::path::Path) -> std::path::PathBuf {
    if path.is_dir() { path.join("metadata") } else { path.to_path_buf() }
}

/// Reads one recording given as several files, one per core in core order
/// (`cpu0.svdat cpu1.svdat` as ESP-IDF writes them), merged on their
/// common timebase into one trace with each event's core. Only recorders
/// that write one stream per core come this way: SystemView.
///
/// # Errors
/// As [`read`]; and [`ReadError::Parse`] when a file is not of a format
/// that comes one file per core.
pub fn read_per_core(
    inputs: Vec<(String, Box<dyn BufRead + '_>)>,
    choice: FormatChoice,
    options: &ReadOptions,
) -> Result<Parsed, ReadError> {
    let mut files = Vec::new();
    for (path, mut input) in inputs {
        let io = |source| ReadError::Io { path: path.clone(), source };
        let mut bytes = Vec::new();
        if is_gzip(&mut input).map_err(io)? {
            flate2::bufread::MultiGzDecoder::new(input).read_to_end(&mut bytes).map_err(io)?;
        } else {
            input.read_to_end(&mut bytes).map_err(io)?;
        }
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(64 * 1024)]).into_owned();
        let systemview = FormatChoice::of(formats::systemview::NAME);
        let is_systemview = reader_for(systemview, options).is_applicable(&head) == Some(true);
        if ![FormatChoice::AUTO, systemview].contains(&choice) || (choice == FormatChoice::AUTO && !is_systemview) {
            let found = if choice == FormatChoice::AUTO {
                "not a SystemView recording".to_string()
            } else {
                format!("--format {}", choice.name())
            };
            return Err(ReadError::Parse(ParseError {
                path: path.clone(),
                line: 1,
                column: 1,
                format: choice.name(),
                kind: ParseErrorKind::expected(
                    "a SystemView recording: only recorders that write one stream per core are read from several files",
                    &found,
                ),
            }));
        }
        files.push((path, bytes));
    }
    let mut parsed = systemview::read_files(&files, options)?;
    parsed.notes.extend(coverage_note(&parsed.trace));
    let all: Vec<u8> = files.iter().flat_map(|(_, b)| b.iter().copied()).collect();
    parsed.source = Fingerprint::of(&all);
    Ok(parsed)
}

/// What share of its span a recording with gaps covers, for the summary.
fn coverage_note(trace: &Trace) -> Option<String> {
    if trace.gaps.is_empty() {
        return None;
    }
    let span = trace.duration().max(1);
    Some(format!(
        "covers {:.1} % of its {:.3} s ({} gap{} not counted: loads, rates and response times are over the {:.3} s covered)",
        100.0 * trace.covered() as f64 / span as f64,
        span as f64 / 1e9,
        trace.gaps.len(),
        if trace.gaps.len() == 1 { "" } else { "s" },
        trace.covered() as f64 / 1e9
    ))
}

fn read_plain(input: &mut dyn BufRead, choice: FormatChoice, options: &ReadOptions) -> Result<Parsed, ReadError> {
    let path = options.path.as_str();
    let mut input = fingerprint::Fingerprinting::new(input);
    let mut parsed = read_format(&mut input, choice, options)?;
    parsed.notes.extend(coverage_note(&parsed.trace));
    // Whatever the reader left unread (a stopped-early reader) still
    // belongs to the input's fingerprint.
    std::io::copy(&mut input, &mut std::io::sink())
        .map_err(|source| ReadError::Io { path: path.to_string(), source })?;
    parsed.source = input.fingerprint();
    Ok(parsed)
}

fn read_format(input: &mut dyn BufRead, choice: FormatChoice, options: &ReadOptions) -> Result<Parsed, ReadError> {
    let path = options.path.as_str();
    let io = |source| ReadError::Io { path: path.to_string(), source };
    if choice == FormatChoice::AUTO {
        // Read whole lines until a reader says yes, all say no, or 64 KiB
        // have been seen; then parse from those bytes followed by the rest.
        const HEAD_LIMIT: usize = 64 * 1024;
        let mut head = Vec::new();
        let mut undecided: Vec<FormatChoice> = FormatChoice::ALL.to_vec();
        let mut chosen = None;
        loop {
            let n = input.take((HEAD_LIMIT - head.len()) as u64).read_until(b'\n', &mut head).map_err(io)?;
            let text = String::from_utf8_lossy(&head);
            let at_end = n == 0 || head.len() >= HEAD_LIMIT;
            undecided.retain(|&c| match reader_for(c, options).is_applicable(&text) {
                Some(true) => {
                    chosen = chosen.or(Some(c));
                    true
                }
                Some(false) => false,
                None => !at_end,
            });
            if chosen.is_some() || undecided.is_empty() || at_end {
                break;
            }
        }
        let mut rest = std::io::Cursor::new(head).chain(input);
        let empty = rest.get_ref().0.get_ref().iter().all(u8::is_ascii_whitespace);
        return match chosen {
            Some(c) => Ok(reader_for(c, options).parse(&mut rest)?),
            // An empty input gets the reader's own "empty" error, which
            // says what the first line should be.
            None if empty => Ok(reader_for(FormatChoice::of(formats::corera_log::NAME), options).parse(&mut rest)?),
            None => Err(ReadError::UnknownFormat { path: path.to_string(), known: formats().join(", ") }),
        };
    }
    Ok(reader_for(choice, options).parse(input)?)
}

#[cfg(test)]
mod tests;
