//! Eclipse APP4MC Amalthea models (`.amxmi`): the software, stimuli,
//! hardware, OS and mapping models, turned into the same trace model a
//! recording gives.
//!
//! A model is not a recording, so the reader synthesises one: jobs are
//! released by the stimuli over a horizon (the hyperperiod of the periodic
//! stimuli, capped at [`MAX_HORIZON_NS`], or [`ModelOptions::horizon_ns`](crate::ModelOptions::horizon_ns)),
//! and each task runs its activity graph in a lane of its own (as if it had
//! a core to itself: no task waits for another's CPU), so that RUNNING,
//! jobs, periods, label traffic and triggers are exactly the model's and
//! READY is zero. The recording ends at the horizon, so that load is demand
//! over the horizon; activations a task's own core had not started by then
//! are named in a warning. The replay then
//! schedules those jobs on the platform.
//!
//! | model element | trace model |
//! |---|---|
//! | `swModel/tasks` | a task; priority from the mapping's `schedulingParameters @priority`, else a `customProperties` `priority` |
//! | `activityGraph` / `callGraph` items (`Group`, `RunnableCall`, `Ticks`, `LabelAccess`, `InterProcessTrigger`, `SetEvent`, `WaitEvent`, `ClearEvent`; the first entry of a `ModeSwitch` or `ProbabilitySwitch`) | the job's execution, in order |
//! | `Ticks` (`default`, `extended @key=<PU definition>`: `lowerBound`, `upperBound`, `average` or `value`) | execution: average or upper ticks ([`TicksMode`](crate::TicksMode)) at the frequency of a processing unit of that definition |
//! | `LabelAccess @access=write` / `read` | a send / receive on the label (with its size), from the label's last writer |
//! | `InterProcessTrigger @stimulus` | a wakeup of the tasks that stimulus activates |
//! | `SetEvent` / `WaitEvent` | an event set for `@process` / a block until it is set |
//! | `stimuliModel` `PeriodicStimulus` (`recurrence`, `offset`), `RelativePeriodicStimulus`, `SingleStimulus`, `InterProcessStimulus` | releases |
//! | `hwModel` `ProcessingUnit` (its definition, frequency domain and enclosing structure) | the platform: a core each, speeds relative to the reference definition, distance 1 within a structure and 2 across |
//! | `mappingModel` `schedulerAllocation @responsibility`, `taskAllocation @scheduler @affinity` | allowed cores per task, and the model's own mapping ([`ModelInfo::mapping`](crate::ModelInfo::mapping)) |
//! | `constraintsModel` `ProcessRequirement` on `ResponseTime` | deadlines |
//! | `constraintsModel` `eventChains` and their `EventChainLatencyConstraint`s; `eventModel` `ProcessEvent`s | cause-effect chains through data ([`ModelChain`](crate::ModelChain)) |
//! | `LabelAccess @implementation="timed"` on every label a task accesses | a LET task ([`ModelInfo::let_tasks`](crate::ModelInfo::let_tasks)) |
//!
//! Execution times are those on the reference definition (the CPU
//! definition with the most processing units): every task's job is
//! "recorded" on it, and a core of another definition runs at the speed
//! the runnables that have ticks for both give it. A task can run only on
//! cores whose definition every runnable it calls has ticks for.
//! Everything else in a model is counted in one warning.

use std::io::BufRead;

mod chains;
mod model;
mod synth;
mod xml;

use crate::error::{ParseError, ParseErrorKind};
use crate::{Parsed, ReadOptions, TraceFormat};

use model::Model;
use xml::tree;

/// Format name used in messages and `--format`.
pub const NAME: &str = "amalthea";

/// Longest horizon the jobs are generated over without `--horizon`: 10 s.
pub const MAX_HORIZON_NS: u64 = 10_000_000_000;

/// Most jobs a model may release over its horizon, and most events its
/// synthesis may write (a model with a 1 ns period, or tasks that trigger
/// each other without executing, would otherwise never end).
pub const MAX_JOBS: u64 = 2_000_000;
/// See [`MAX_JOBS`].
pub const MAX_EVENTS: usize = 20_000_000;

/// Schema versions read (the namespace's version): 0.9.x to 3.x.
const VERSIONS: &str = "0.9 to 3.x";

/// Reader of Amalthea models.
#[derive(Clone, Debug, Default)]
pub struct Amalthea {
    options: ReadOptions,
}

impl From<ReadOptions> for Amalthea {
    fn from(options: ReadOptions) -> Amalthea {
        Amalthea { options }
    }
}

impl TraceFormat for Amalthea {
    fn name(&self) -> &'static str {
        NAME
    }

    fn is_applicable(&mut self, head: &str) -> Option<bool> {
        let text = head.trim_start_matches('\u{feff}').trim_start();
        if text.is_empty() {
            return None;
        }
        if !text.starts_with('<') {
            return Some(false);
        }
        if text.contains("app4mc.eclipse.org/amalthea") || text.contains("<am:Amalthea") {
            return Some(true);
        }
        // An XML declaration and comments may come first.
        if head.len() < 8192 { None } else { Some(false) }
    }

    fn parse(&mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError> {
        let path = self.options.path.clone();
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).map_err(|e| error(&path, 1, ParseErrorKind::Io(e)))?;
        let text = match std::str::from_utf8(&bytes) {
            Ok(t) => t,
            Err(e) => {
                let line = line_of(&bytes, e.valid_up_to());
                let byte = bytes[e.valid_up_to()];
                return Err(error(&path, line, ParseErrorKind::NotUtf8 { byte }));
            }
        };
        if text.trim().is_empty() {
            return Err(error(&path, 1, ParseErrorKind::Empty { expected: "<am:Amalthea xmlns:am=...>" }));
        }
        let root = tree(text).map_err(|(line, kind)| error(&path, line, kind))?;
        let model = Model::of(&root).map_err(|(line, kind)| error(&path, line, kind))?;
        model.synthesise(&self.options.model).map_err(|(line, kind)| error(&path, line, kind))
    }
}

fn error(path: &str, line: u64, kind: ParseErrorKind) -> ParseError {
    ParseError { path: path.to_string(), line, column: 1, format: NAME, kind }
}

fn line_of(bytes: &[u8], offset: usize) -> u64 {
    1 + memchr::memchr_iter(b'\n', &bytes[..offset.min(bytes.len())]).count() as u64
}

type Failure = (u64, ParseErrorKind);

fn expected(line: u64, what: impl Into<String>, found: &str) -> Failure {
    (line, ParseErrorKind::expected(what, found))
}
