//! Scheduling simulation: replays traced workloads on other platforms and
//! policies, and generates traces from workload descriptions.
//!
//! # Brief overview
//! - [`Replay::from_trace`]: the jobs of each task, their execution split
//!   where they blocked, and what released them (timers, or other tasks at
//!   an offset into their own jobs).
//! - [`simulate`]: runs a [`Replay`] under a [`Policy`] (one core, global
//!   SMP, least-loaded SMP, partitioned AMP, affinity masks) and reports per-task RUNNING,
//!   READY and response times, per-core load and work conservation, and
//!   the end-to-end latency of the cause-effect chains ([`ReplayChain`],
//!   found by [`discover`] or named by the user).
//! - [`Workload`]: a TOML description of tasks, ISRs, queues, notifications
//!   and mutexes.
//! - [`generate`]: runs a workload on one core with the same simulator
//!   (by the rules of corera's generator, [`OsRules`]) and returns the
//!   [`Trace`](corera_trace_ingest::Trace) a kernel trace hook would have
//!   recorded; replayed as recorded, it is reproduced exactly.
//!
//! # Example
//! ```
//! use corera_replay::{generate, Workload};
//!
//! let workload = Workload::from_toml(r#"
//!     name = "demo"
//!     duration_ms = 10
//!     [[task]]
//!     name = "Tick"
//!     priority = 2
//!     period_us = 1000
//!     exec_us = [100, 100]
//! "#)?;
//! let trace = generate(&workload)?;
//! assert_eq!(trace.tasks[0].name, "Tick");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod calibrate;
mod chain;
mod error;
mod extract;
mod generate;
mod rules;
mod sim;
mod workload;

pub use chain::{ChainOrigin, ChainResult, ReplayChain, discover};
pub use corera_placement::Costs;
pub use corera_trace_ingest::{Action, Job, Phase, Release};
pub use error::ReplayError;
pub use extract::{RecordedQueue, Replay, ReplayTask};
pub use generate::generate;
pub use rules::{OsRules, Recorded, Rules, Slice};
pub use sim::{Flow, KEEPS_UP, Outcome, Overheads, Policy, Segment, Setup, Spans, TaskResult, simulate};
pub use workload::{ActionSpec, TaskSpec, Workload, WorkloadError};

#[cfg(test)]
mod tests;
