//! The weighted task graph and its exports.

use std::fmt::Write as _;

use corera_trace_ingest::{PrioritySource, Schedule, TaskKind, Trace, Warning};
use petgraph::graph::UnGraph;
use serde::{Deserialize, Serialize};

use crate::{aggregate, derive};

/// Per-task behaviour measured from the trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskMetrics {
    /// Task id in the trace.
    pub id: u32,
    /// Task name.
    pub name: String,
    /// Task, ISR or idle.
    pub kind: TaskKind,
    /// Priority as traced, inferred, assumed or set by the user (see
    /// `priority_source`), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<i32>,
    /// Where the priority came from.
    #[serde(default)]
    pub priority_source: PrioritySource,
    /// For an inferred priority: the task pairs (preemptions, pass-overs)
    /// its place in the order rests on.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub priority_pairs: u64,
    /// CPU time (RUNNING) in ns; ISR time is not counted for the task it
    /// interrupted.
    pub running_ns: u64,
    /// Time ready but not running (READY) in ns.
    pub ready_ns: u64,
    /// Activations (job releases).
    pub activations: u64,
    /// Completed jobs.
    pub jobs: u64,
    /// Completed jobs per second of trace.
    pub throughput_hz: f64,
    /// RUNNING time / trace duration (0 ..= 1 on one core).
    pub utilisation: f64,
    /// Mean response time (release to finish) in ns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_mean_ns: Option<u64>,
    /// 95th percentile response time in ns (the smallest observed value
    /// with at least 95 % of jobs at or below it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_p95_ns: Option<u64>,
    /// Largest response time in ns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_max_ns: Option<u64>,
    /// Inferred activation period in ns, when activations are periodic: at
    /// least [`PERIOD_MIN_GAPS`] gaps whose coefficient of variation is at
    /// most [`PERIOD_MAX_CV`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period_ns: Option<u64>,
    /// The runnables it ran, when the trace records them (BTF `R`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runnables: Vec<RunnableMetrics>,
    /// The cores it ran on in the trace, in order.
    #[serde(skip)]
    pub cores: Vec<u16>,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

/// A runnable a task ran, and what it spent there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunnableMetrics {
    /// Runnable name.
    pub name: String,
    /// Times it was started.
    pub calls: u64,
    /// Execution time, ns.
    pub exec_ns: u64,
}

/// Fewest activation gaps from which a period is inferred.
pub const PERIOD_MIN_GAPS: u64 = 3;
/// Largest coefficient of variation (std / mean) of activation gaps that
/// still counts as periodic: 10 % tolerates typical release jitter while
/// rejecting event-driven tasks.
pub const PERIOD_MAX_CV: f64 = 0.10;

/// Interactions from one task to another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edge {
    /// Sending / notifying / waking task id.
    pub src: u32,
    /// Receiving / notified / woken task id.
    pub dst: u32,
    /// Messages passed.
    pub messages: u64,
    /// Bytes in those messages (where sizes are known).
    pub bytes: u64,
    /// Event or notification sets aimed at `dst`.
    pub notifications: u64,
    /// Wakeups of `dst` by `src`.
    pub wakeups: u64,
    /// Traffic weight: messages + notifications + wakeups. A message that
    /// also wakes its receiver counts twice, as it costs a transfer and an
    /// inter-core interrupt when the two tasks are on different cores.
    pub weight: u64,
}

/// Two tasks that use the same semaphores or mutexes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Affinity {
    /// Lower task id.
    pub a: u32,
    /// Higher task id.
    pub b: u32,
    /// Number of semaphores or mutexes both use.
    pub shared_objects: u64,
    /// Affinity weight: per shared object, the smaller of the two tasks'
    /// take counts, summed.
    pub weight: u64,
}

/// Tasks weighted by load and throughput, edges by inter-task traffic.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TaskGraph {
    /// Time the trace covers in ns: its span less its gaps
    /// ([`corera_trace_ingest::Trace::gaps`]), over which loads and rates
    /// are computed.
    pub duration_ns: u64,
    /// One entry per trace task, indexed by task id.
    pub tasks: Vec<TaskMetrics>,
    /// Directed interaction edges, sorted by (src, dst).
    pub edges: Vec<Edge>,
    /// Undirected shared-resource affinities, sorted by (a, b).
    pub affinities: Vec<Affinity>,
}

/// The task graph could not be computed.
#[derive(Debug, thiserror::Error)]
#[error("could not aggregate the trace")]
pub struct GraphError(#[from] polars::error::PolarsError);

impl TaskGraph {
    /// Builds the task graph of `trace`, with warnings about events that
    /// did not fit the tasks' states: [`TaskGraph::from_schedule`] on the
    /// schedule the trace records.
    ///
    /// # Errors
    /// Only if polars fails, which indicates a bug.
    pub fn build(trace: &Trace) -> Result<(TaskGraph, Vec<Warning>), GraphError> {
        TaskGraph::from_schedule(trace, &Schedule::of(trace))
    }

    /// Builds the task graph of `trace` from its recorded `schedule`
    /// (RUNNING, READY, jobs, response times and periods per task) and its
    /// communication events (edges and affinities). The warnings are the
    /// communication pass's, then the schedule's.
    ///
    /// # Errors
    /// Only if polars fails, which indicates a bug.
    pub fn from_schedule(trace: &Trace, schedule: &Schedule) -> Result<(TaskGraph, Vec<Warning>), GraphError> {
        let n = trace.tasks.len();
        let mut tables = derive::Tables::of(schedule);
        let mut warnings = derive::communication(trace, &mut tables);
        warnings.extend(schedule.warnings.iter().cloned());
        let agg = aggregate::tasks(&tables, n)?;
        // Loads and rates are over the time the recording covers.
        let duration_ns = trace.covered();
        let seconds = duration_ns as f64 / 1e9;
        let per_second = |x: u64| if seconds > 0.0 { x as f64 / seconds } else { 0.0 };
        let tasks = trace
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let period_ns = match (agg.gap_mean_ns[i], agg.gap_std_ns[i]) {
                    (Some(mean), Some(std))
                        if agg.gaps[i] >= PERIOD_MIN_GAPS && mean > 0.0 && std / mean <= PERIOD_MAX_CV =>
                    {
                        Some(mean.round() as u64)
                    }
                    _ => None,
                };
                TaskMetrics {
                    id: i as u32,
                    name: t.name.clone(),
                    kind: t.kind,
                    priority: t.priority,
                    priority_source: PrioritySource::Given,
                    priority_pairs: 0,
                    running_ns: agg.running_ns[i],
                    ready_ns: agg.ready_ns[i],
                    activations: agg.activations[i],
                    jobs: agg.jobs[i],
                    throughput_hz: per_second(agg.jobs[i]),
                    utilisation: if duration_ns > 0 { agg.running_ns[i] as f64 / duration_ns as f64 } else { 0.0 },
                    response_mean_ns: agg.response_mean_ns[i].map(|m| m.round() as u64),
                    response_p95_ns: agg.response_p95_ns[i],
                    response_max_ns: agg.response_max_ns[i],
                    period_ns,
                    runnables: trace
                        .runnables
                        .iter()
                        .filter(|r| r.task as usize == i)
                        .map(|r| RunnableMetrics { name: r.name.clone(), calls: r.calls, exec_ns: r.exec_ns })
                        .collect(),
                    cores: {
                        let mut cores: Vec<u16> = schedule.tasks[i].running.iter().map(|s| s.core).collect();
                        cores.sort_unstable();
                        cores.dedup();
                        cores
                    },
                }
            })
            .collect();
        let edges = aggregate::pairs(&tables)?
            .into_iter()
            .map(|p| Edge {
                src: p.src,
                dst: p.dst,
                messages: p.messages,
                bytes: p.bytes,
                notifications: p.notifications,
                wakeups: p.wakeups,
                weight: p.messages + p.notifications + p.wakeups,
            })
            .collect();
        let affinities = aggregate::affinities(&tables)?
            .into_iter()
            .map(|(a, b, weight, shared_objects)| Affinity { a, b, shared_objects, weight })
            .collect();
        Ok((TaskGraph { duration_ns, tasks, edges, affinities }, warnings))
    }

    /// Total traffic weight between two tasks, both directions plus their
    /// shared-resource affinity.
    pub fn traffic_between(&self, a: u32, b: u32) -> u64 {
        let directed: u64 =
            self.edges.iter().filter(|e| (e.src, e.dst) == (a, b) || (e.src, e.dst) == (b, a)).map(|e| e.weight).sum();
        let (lo, hi) = (a.min(b), a.max(b));
        let shared: u64 = self.affinities.iter().filter(|x| (x.a, x.b) == (lo, hi)).map(|x| x.weight).sum();
        directed + shared
    }

    /// The undirected traffic graph over the placeable tasks (tasks and
    /// ISRs; idle tasks are left out). Node weights are task ids; edge
    /// weights are interaction weights plus affinities, both directions
    /// summed. Nodes are in task-id order.
    pub fn traffic_graph(&self) -> UnGraph<u32, u64> {
        let mut g = UnGraph::default();
        let mut node = vec![None; self.tasks.len()];
        for t in self.tasks.iter().filter(|t| t.kind != TaskKind::Idle) {
            node[t.id as usize] = Some(g.add_node(t.id));
        }
        let mut add = |a: u32, b: u32, w: u64| {
            if let (Some(x), Some(y)) = (node[a as usize], node[b as usize])
                && w > 0
            {
                match g.find_edge(x, y) {
                    Some(e) => g[e] += w,
                    None => {
                        g.add_edge(x, y, w);
                    }
                }
            }
        };
        for e in &self.edges {
            add(e.src, e.dst, e.weight);
        }
        for a in &self.affinities {
            add(a.a, a.b, a.weight);
        }
        g
    }

    /// Number of groups of tasks that interact with each other (connected
    /// components of the traffic graph, isolated tasks counted singly).
    pub fn communication_groups(&self) -> usize {
        petgraph::algo::connected_components(&self.traffic_graph())
    }

    /// A table for people: one row per task (idle tasks left out), then
    /// the heaviest `edges` interactions and shared-resource affinities.
    pub fn to_table(&self, edges: usize) -> String {
        let ms = |ns: Option<u64>| ns.map_or("-".to_string(), |x| format!("{:.3}", x as f64 / 1e6));
        let tasks: Vec<&TaskMetrics> = self.tasks.iter().filter(|t| t.kind != TaskKind::Idle).collect();
        let w = tasks.iter().map(|t| t.name.chars().count()).max().unwrap_or(4).max(4);
        let mut s = format!(
            "{:<w$}  {:<4} {:>5} {:>7} {:>9} {:>9} {:>9} {:>9} {:>9}\n",
            "task", "kind", "prio", "load %", "jobs/s", "period ms", "resp ms", "p95 ms", "max ms"
        );
        for t in &tasks {
            let _ = writeln!(
                s,
                "{:<w$}  {:<4} {:>5} {:>7.2} {:>9.1} {:>9} {:>9} {:>9} {:>9}",
                t.name,
                if t.kind == TaskKind::Isr { "isr" } else { "task" },
                t.priority.map_or("-".to_string(), |p| p.to_string()),
                t.utilisation * 100.0,
                t.throughput_hz,
                ms(t.period_ns),
                ms(t.response_mean_ns),
                ms(t.response_p95_ns),
                ms(t.response_max_ns)
            );
        }
        if let Some(note) = self.priority_note() {
            let _ = writeln!(s, "{note}");
        }
        s.push_str(&runnables_text(&self.tasks));
        let name = |id: u32| self.tasks.get(id as usize).map_or("?", |t| t.name.as_str());
        let mut order: Vec<&Edge> = self.edges.iter().collect();
        order.sort_by_key(|e| (std::cmp::Reverse(e.weight), e.src, e.dst));
        let _ = writeln!(
            s,
            "\n{} interaction edges, total weight {}{}",
            self.edges.len(),
            self.edges.iter().map(|e| e.weight).sum::<u64>(),
            if self.edges.len() > edges { format!("; the {edges} heaviest:") } else { ":".to_string() }
        );
        for e in order.iter().take(edges) {
            let _ = writeln!(
                s,
                "  {} -> {}: {} ({} messages, {} bytes, {} notifications, {} wakeups)",
                name(e.src),
                name(e.dst),
                e.weight,
                e.messages,
                e.bytes,
                e.notifications,
                e.wakeups
            );
        }
        let mut shared: Vec<&Affinity> = self.affinities.iter().collect();
        shared.sort_by_key(|a| (std::cmp::Reverse(a.weight), a.a, a.b));
        let _ = writeln!(s, "{} shared-resource affinities{}", shared.len(), if shared.is_empty() { "" } else { ":" });
        for a in shared.iter().take(edges) {
            let _ =
                writeln!(s, "  {} <-> {}: {} ({} shared objects)", name(a.a), name(a.b), a.weight, a.shared_objects);
        }
        s
    }

    /// Where the tasks' priorities came from ([`priority_note`]).
    pub fn priority_note(&self) -> Option<String> {
        priority_note(&self.tasks)
    }

    /// Graphviz DOT text: boxes for tasks (ISRs as ellipses), labelled with
    /// utilisation and throughput; solid arrows for interactions, dashed
    /// lines for shared resources. With `cores`, tasks are coloured by the
    /// core at their task id.
    pub fn to_dot(&self, cores: Option<&[u16]>) -> String {
        const PALETTE: [&str; 8] =
            ["#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5"];
        let mut s =
            String::from("digraph tasks {\n  rankdir=LR;\n  node [shape=box, style=filled, fillcolor=white];\n");
        for t in self.tasks.iter().filter(|t| t.kind != TaskKind::Idle) {
            let shape = if t.kind == TaskKind::Isr { ", shape=ellipse" } else { "" };
            let fill = match cores {
                Some(c) => format!(", fillcolor=\"{}\"", PALETTE[usize::from(c[t.id as usize]) % PALETTE.len()]),
                None => String::new(),
            };
            let core = cores.map_or(String::new(), |c| format!("\\ncore {}", c[t.id as usize]));
            let _ = writeln!(
                s,
                "  t{} [label=\"{}\\n{:.1} % | {:.0} Hz{}\"{}{}];",
                t.id,
                t.name.replace('\\', "\\\\").replace('"', "\\\""),
                t.utilisation * 100.0,
                t.throughput_hz,
                core,
                shape,
                fill
            );
        }
        let max = self.edges.iter().map(|e| e.weight).max().unwrap_or(1).max(1) as f64;
        for e in &self.edges {
            let cross = cores.is_some_and(|c| c[e.src as usize] != c[e.dst as usize]);
            let _ = writeln!(
                s,
                "  t{} -> t{} [label=\"{}\", penwidth={:.1}{}];",
                e.src,
                e.dst,
                e.weight,
                1.0 + 4.0 * e.weight as f64 / max,
                if cross { ", color=red" } else { "" }
            );
        }
        for a in &self.affinities {
            let _ = writeln!(s, "  t{} -> t{} [dir=none, style=dashed, label=\"{} shared\"];", a.a, a.b, a.weight);
        }
        s.push_str("}\n");
        s
    }
}

/// Where the tasks' priorities came from, in one line, when any was not
/// given by the trace.
pub fn priority_note(tasks: &[TaskMetrics]) -> Option<String> {
    let tasks: Vec<&TaskMetrics> = tasks.iter().filter(|t| t.kind == TaskKind::Task).collect();
    let count = |s: PrioritySource| tasks.iter().filter(|t| t.priority_source == s).count();
    if count(PrioritySource::Given) == tasks.len() {
        return None;
    }
    let mut parts = Vec::new();
    let given = count(PrioritySource::Given);
    if given > 0 {
        parts.push(format!("given by the trace for {given}"));
    }
    let inferred = count(PrioritySource::Inferred);
    if inferred > 0 {
        let pairs: u64 = tasks.iter().map(|t| t.priority_pairs).sum::<u64>() / 2;
        parts.push(format!("inferred for {inferred} from {pairs} ordered pairs (preemptions, pass-overs)"));
    }
    // A recorder's own task takes its documented default
    // ([`corera_trace_ingest::priority::RECORDER_TASKS`]), the others the
    // lowest given, else rate-monotonic order.
    let assumed = tasks.iter().filter(|t| t.priority_source == PrioritySource::Assumed);
    let recorders: Vec<&str> = assumed
        .clone()
        .filter(|t| corera_trace_ingest::priority::recorder_task(&t.name).is_some())
        .map(|t| t.name.as_str())
        .collect();
    let others = assumed.count() - recorders.len();
    if others > 0 {
        parts.push(format!(
            "assumed for {others} ({})",
            if given > 0 { "the lowest given" } else { "rate-monotonic: no evidence" }
        ));
    }
    if !recorders.is_empty() {
        parts.push(format!("the recorder's documented default for {}", recorders.join(", ")));
    }
    let set = count(PrioritySource::Override);
    if set > 0 {
        parts.push(format!("set by --priority for {set}"));
    }
    let order = if given == 0 { "; larger is more urgent" } else { "" };
    Some(format!("priorities: {}{order}; set any with --priority NAME=N", parts.join(", ")))
}

/// The runnables each task ran (calls, execution), a paragraph with a
/// blank line before it; empty when the trace records none.
pub fn runnables_text(tasks: &[TaskMetrics]) -> String {
    let mut s = String::new();
    for t in tasks.iter().filter(|t| !t.runnables.is_empty()) {
        if s.is_empty() {
            s.push_str("\nrunnables (calls, execution µs):\n");
        }
        let list: Vec<String> =
            t.runnables.iter().map(|r| format!("{} ({}, {:.3})", r.name, r.calls, r.exec_ns as f64 / 1e3)).collect();
        let _ = writeln!(s, "  {}: {}", t.name, list.join(", "));
    }
    s
}
