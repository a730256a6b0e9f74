//! Trace model into a weighted task graph.
//!
//! The second stage of corera's pipeline. From a
//! [`Trace`](corera_trace_ingest::Trace) it measures, per task, CPU time
//! (RUNNING), READY time, activations, throughput, utilisation, response
//! times and an inferred period, and per directed task pair the messages,
//! bytes, notifications and wakeups exchanged; tasks sharing semaphores or
//! mutexes get an undirected affinity. A sequential pass turns events into
//! interval and interaction columns; polars does the aggregations; petgraph
//! holds the traffic graph.
//!
//! # Brief overview
//! - [`TaskGraph::build`] builds a [`TaskGraph`] of [`TaskMetrics`], [`Edge`]s
//!   and [`Affinity`]s; it serialises to JSON with serde.
//! - [`TaskGraph::traffic_graph`] gives the undirected weighted graph that
//!   placement works on; [`TaskGraph::to_dot`] exports Graphviz DOT.
//!
//! # Example
//! ```
//! use corera_trace_ingest::{read, FormatChoice, ReadOptions};
//! use corera_task_graph::TaskGraph;
//!
//! let log = "corera-log 1 clock=us\ntask 1 task 2 A\ntask 2 task 1 B\n\
//!            0 0 rdy 1\n0 0 in 1\n10 0 send 1 q 4\n20 0 out 1 done\n\
//!            20 0 rdy 2\n20 0 in 2\n20 0 recv 2 q 4\n50 0 out 2 done\n";
//! let trace = read(&mut log.as_bytes(), FormatChoice::AUTO, &ReadOptions::new("x.log"))?.trace;
//! let (graph, _warnings) = TaskGraph::build(&trace)?;
//! assert_eq!(graph.tasks[1].running_ns, 30_000);
//! assert_eq!(graph.edges[0].messages, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod aggregate;
mod derive;
mod graph;

pub use graph::{
    Affinity, Edge, GraphError, PERIOD_MAX_CV, PERIOD_MIN_GAPS, RunnableMetrics, TaskGraph, TaskMetrics, priority_note,
    runnables_text,
};

#[cfg(test)]
mod tests;
