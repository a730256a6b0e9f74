//! Scheduling simulation: generates traces from workload descriptions and
//! (in later stages) replays traced workloads on other platforms.
//!
//! # Brief overview
//! - [`Workload`]: a TOML description of tasks, ISRs, queues, notifications
//!   and mutexes.
//! - [`generate`]: runs a workload on one core under fixed-priority
//!   preemptive scheduling and returns the [`Trace`](corera_trace_ingest::Trace)
//!   a kernel trace hook would have recorded.
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

mod generate;
mod workload;

pub use generate::generate;
pub use workload::{ActionSpec, TaskSpec, Workload, WorkloadError};

#[cfg(test)]
mod tests;
