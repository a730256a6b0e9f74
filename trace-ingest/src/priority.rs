//! Priorities where the trace has none.
//!
//! BTF and many RTOS traces carry no priorities, yet the replay schedules
//! by priority. [`infer`] reads an order from what the trace shows:
//!
//! - a **preemption**: task A is switched in on a core at the instant task
//!   B is switched out there still ready: A is above B;
//! - a **pass-over**: task A is switched in on a core while task C has been
//!   waiting ready there since before: A is at least as urgent as C;
//! - a **tick kept**: task B runs on through a tick of the kernel (and half
//!   a period after it) while task C waits ready there since before the
//!   tick: the kernel's scheduling point passed C over, so B is at least as
//!   urgent as C.
//!
//! The recorders' own tasks take their documented defaults instead
//! ([`RECORDER_TASKS`]).
//!
//! Evidence seen both ways for a pair is reported as a conflict and the
//! majority decides; a tie, or a cycle over several tasks, shares a level. Tasks without evidence fall back to
//! rate-monotonic order (more jobs per second is more urgent), which also
//! breaks ties between tasks the evidence does not order. [`resolve`]
//! applies the result to a trace: priorities the trace gives are kept,
//! the user's overrides win.

use serde::{Deserialize, Serialize};

use crate::{EventKind, PriorityOrder, Schedule, TaskId, TaskKind, Trace, Warning};

/// A `--priority` override naming a task the trace does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "--priority {task}={priority}: there is no task `{task}` in the trace; `corera graph TRACE` lists the task names"
)]
pub struct UnknownPriorityTask {
    /// The name given.
    pub task: String,
    /// The priority given.
    pub priority: i32,
}

/// Tasks a recorder adds to the system it records, by name, with what its
/// documentation gives as their priority: where the recording lost their
/// creation, they take it rather than a place inferred from what they did.
/// Each entry: the name, its default priority in the kernel's own numbering
/// for the kernel the recorder's port records (FreeRTOS), and the source.
pub const RECORDER_TASKS: [(&str, i32, &str); 1] = [(
    "TzCtrl",
    1,
    "TraceRecorder's control task: TRC_CFG_CTRL_TASK_PRIORITY defaults to 1 (\"should be low\"), the least urgent",
)];

/// The entry of [`RECORDER_TASKS`] for a task named `name`, if it is one.
pub fn recorder_task(name: &str) -> Option<&'static (&'static str, i32, &'static str)> {
    RECORDER_TASKS.iter().find(|(n, ..)| *n == name)
}

/// Where a task's priority came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PrioritySource {
    /// The trace states it.
    #[default]
    Given,
    /// The user set it (`--priority`, the constraints file).
    Override,
    /// Inferred from preemptions and pass-overs in the trace.
    Inferred,
    /// No evidence: rate-monotonic (or the lowest given priority when the
    /// trace gives some tasks one).
    Assumed,
}

impl PrioritySource {
    /// Its name, as in JSON and summaries.
    pub fn name(self) -> &'static str {
        match self {
            PrioritySource::Given => "given",
            PrioritySource::Override => "override",
            PrioritySource::Inferred => "inferred",
            PrioritySource::Assumed => "assumed",
        }
    }
}

/// What the trace shows about one ordered pair of tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// The task chosen.
    pub higher: TaskId,
    /// The task it preempted or passed over.
    pub lower: TaskId,
    /// Times `higher` preempted `lower`.
    pub preemptions: u64,
    /// Times `higher` was switched in while `lower` waited ready.
    pub passed_over: u64,
}

impl Evidence {
    /// All observations.
    pub fn total(&self) -> u64 {
        self.preemptions + self.passed_over
    }
}

/// An inferred priority order.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Inference {
    /// Every ordered pair with evidence, by (higher, lower).
    pub pairs: Vec<Evidence>,
    /// Groups of tasks whose evidence contradicts itself (both directions
    /// for a pair, or a cycle): they share a level.
    pub conflicts: Vec<Vec<TaskId>>,
    /// Per task: its inferred priority, larger is more urgent (`None` for
    /// idle tasks and ISRs).
    pub priority: Vec<Option<i32>>,
    /// Per task: how many pairs its place rests on.
    pub pairs_of: Vec<u64>,
}

impl Inference {
    /// The evidence that `a` is above `b`, if any.
    pub fn evidence(&self, a: TaskId, b: TaskId) -> Option<&Evidence> {
        self.pairs.iter().find(|e| e.higher == a && e.lower == b)
    }
}

/// Infers a priority order from `trace`'s preemptions and pass-overs;
/// `schedule` (its recorded schedule) gives the job rates for the
/// rate-monotonic fallback.
pub fn infer(trace: &Trace, schedule: &Schedule) -> Inference {
    let n = trace.tasks.len();
    let counts = Watch::new(trace).counts();
    let pairs: Vec<Evidence> = counts
        .iter()
        .map(|(&(higher, lower), &(preemptions, passed_over))| Evidence { higher, lower, preemptions, passed_over })
        .collect();
    // The majority direction of each pair; a tie is a conflict.
    let mut above: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut conflicts: Vec<Vec<TaskId>> = Vec::new();
    let mut pairs_of = vec![0u64; n];
    for e in &pairs {
        let (a, b) = (e.higher as usize, e.lower as usize);
        pairs_of[a] += 1;
        pairs_of[b] += 1;
        let back = counts.get(&(e.lower, e.higher)).map_or(0, |c| c.0 + c.1);
        if back > 0 && a < b {
            conflicts.push(vec![e.higher, e.lower]);
        }
        // A tie puts the pair in one cycle: one level.
        if e.total() >= back {
            above[a].push(b);
        }
    }
    // Strongly connected components of "is above": a cycle shares a level.
    let comp = components(&above);
    let groups = comp.iter().copied().max().map_or(0, |m| m + 1);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); groups];
    for (t, &c) in comp.iter().enumerate() {
        members[c].push(t);
    }
    for m in &members {
        if m.len() > 1 {
            conflicts.push(m.iter().map(|&t| t as TaskId).collect());
        }
    }
    conflicts.sort();
    conflicts.dedup();
    let priority = levels(trace, schedule, &above, &comp, &members);
    Inference { pairs, conflicts, priority, pairs_of }
}

/// Each schedulable task's level: the components of "is above" (`comp`,
/// their `members`) in topological order, most urgent first; among the
/// free ones the highest job rate (rate-monotonic), then the name. The
/// most urgent gets the largest number.
fn levels(
    trace: &Trace,
    schedule: &Schedule,
    above: &[Vec<usize>],
    comp: &[usize],
    members: &[Vec<usize>],
) -> Vec<Option<i32>> {
    let eligible = |t: usize| trace.tasks[t].kind == TaskKind::Task;
    let groups = members.len();
    let rate = |t: usize| schedule.tasks.get(t).map_or(0, |s| s.jobs.len());
    let mut indegree = vec![0usize; groups];
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); groups];
    for (a, list) in above.iter().enumerate() {
        for &b in list {
            if comp[a] != comp[b] {
                edges[comp[a]].push(comp[b]);
                indegree[comp[b]] += 1;
            }
        }
    }
    let key = |c: usize| {
        let best = members[c].iter().copied().max_by_key(|&t| rate(t)).unwrap_or(0);
        (std::cmp::Reverse(rate(best)), trace.tasks[best].name.clone())
    };
    let mut free: std::collections::BTreeSet<((std::cmp::Reverse<usize>, String), usize)> =
        (0..groups).filter(|&c| indegree[c] == 0).map(|c| (key(c), c)).collect();
    let mut order = Vec::with_capacity(groups);
    while let Some(first) = free.pop_first() {
        let c = first.1;
        order.push(c);
        for &d in &edges[c] {
            indegree[d] -= 1;
            if indegree[d] == 0 {
                free.insert((key(d), d));
            }
        }
    }
    let eligible_groups: Vec<usize> = order.into_iter().filter(|&c| members[c].iter().any(|&t| eligible(t))).collect();
    let mut priority = vec![None; trace.tasks.len()];
    let levels = eligible_groups.len() as i32;
    for (rank, &c) in eligible_groups.iter().enumerate() {
        for &t in &members[c] {
            if eligible(t) {
                priority[t] = Some(levels - rank as i32);
            }
        }
    }
    priority
}

/// The scan of a trace for priority evidence: per pair of tasks (higher,
/// lower), the preemptions and the pass-overs it shows.
struct Watch<'a> {
    trace: &'a Trace,
    counts: std::collections::BTreeMap<(TaskId, TaskId), (u64, u64)>,
    /// Per task: running, or ready since (and on which core).
    running: Vec<bool>,
    ready: Vec<Option<(u64, u16)>>,
    /// Per core: the last switch-in and the last preemption (task, time).
    last_in: Vec<Option<(usize, u64)>>,
    last_out: Vec<Option<(usize, u64)>>,
    /// Pass-overs seen at `pending_at`: (chosen, passed over, ready since),
    /// counted once the instant is over if the passed-over task is still
    /// waiting (not switched in elsewhere at the same instant, which a
    /// trace that does not say where a task became ready cannot tell
    /// apart).
    pending: Vec<(usize, usize, u64)>,
    pending_at: u64,
    /// The tick (period, phase), and the next one.
    tick: Option<(u64, u64)>,
    next_tick: u64,
    /// Ticks kept: (when to check, the core, the task running through the
    /// tick, the task waiting, ready since).
    kept: Vec<(u64, usize, usize, usize, u64)>,
}

impl<'a> Watch<'a> {
    fn new(trace: &'a Trace) -> Watch<'a> {
        let n = trace.tasks.len();
        let tick = trace.tick.as_ref().filter(|t| t.period_ns > 0).map(|t| (t.period_ns, t.at_ns % t.period_ns));
        let next_tick = tick.map_or(u64::MAX, |(p, at)| {
            let start = trace.start();
            if start <= at { at } else { start + p - (start - at) % p }
        });
        Watch {
            trace,
            counts: Default::default(),
            running: vec![false; n],
            ready: vec![None; n],
            last_in: vec![None; usize::from(u16::MAX) + 1],
            last_out: vec![None; usize::from(u16::MAX) + 1],
            pending: Vec::new(),
            pending_at: 0,
            tick,
            next_tick,
            kept: Vec::new(),
        }
    }

    fn eligible(&self, t: usize) -> bool {
        self.trace.tasks[t].kind == TaskKind::Task
    }

    /// The evidence of the whole trace.
    fn counts(mut self) -> std::collections::BTreeMap<(TaskId, TaskId), (u64, u64)> {
        for e in &self.trace.events {
            self.ticks_until(e.time);
            self.settle(e.time);
            self.event(e.task as usize, e.core, e.kind, e.time);
        }
        for (a, x, since) in std::mem::take(&mut self.pending) {
            if self.ready[x].is_some_and(|(s, _)| s == since) {
                self.counts.entry((a as TaskId, x as TaskId)).or_default().1 += 1;
            }
        }
        self.counts
    }

    /// Ticks up to `now`: who runs through each and who waits; then the
    /// kept ticks whose check is due.
    fn ticks_until(&mut self, now: u64) {
        while self.next_tick <= now
            && let Some((period, _)) = self.tick
        {
            for c in 0..64 {
                let Some((b, since_in)) = self.last_in[c] else { continue };
                if !self.running[b] || !self.eligible(b) || since_in > self.next_tick {
                    continue;
                }
                for x in 0..self.ready.len() {
                    if let Some((since, rc)) = self.ready[x]
                        && usize::from(rc) == c
                        && since < self.next_tick
                        && x != b
                        && self.eligible(x)
                    {
                        self.kept.push((self.next_tick + period / 2, c, b, x, since));
                    }
                }
            }
            self.next_tick += period;
        }
        let half = self.tick.map_or(0, |t| t.0) / 2;
        let (running, ready, last_in, counts) = (&self.running, &self.ready, &self.last_in, &mut self.counts);
        self.kept.retain(|&(check, c, b, x, since)| {
            if check > now {
                return true;
            }
            let b_ran_on = last_in[c].is_some_and(|(r, at)| r == b && at + half <= check);
            if running[b] && b_ran_on && ready[x].is_some_and(|(s, _)| s == since) {
                counts.entry((b as TaskId, x as TaskId)).or_default().1 += 1;
            }
            false
        });
    }

    /// Once an instant is over, the pass-overs seen at it whose task is
    /// still waiting.
    fn settle(&mut self, now: u64) {
        if now > self.pending_at {
            for (a, x, since) in std::mem::take(&mut self.pending) {
                if self.ready[x].is_some_and(|(s, _)| s == since) {
                    self.counts.entry((a as TaskId, x as TaskId)).or_default().1 += 1;
                }
            }
            self.pending_at = now;
        }
    }

    /// One event: the states it changes, and the preemptions and
    /// pass-overs it shows.
    fn event(&mut self, t: usize, at_core: u16, kind: EventKind, time: u64) {
        let core = usize::from(at_core);
        match kind {
            EventKind::Ready if !self.running[t] && self.ready[t].is_none() => self.ready[t] = Some((time, at_core)),
            EventKind::SwitchIn => {
                if self.eligible(t) {
                    if let Some((b, at)) = self.last_out[core]
                        && at == time
                        && b != t
                        && self.eligible(b)
                    {
                        self.counts.entry((t as TaskId, b as TaskId)).or_default().0 += 1;
                    }
                    for x in 0..self.ready.len() {
                        if let Some((since, c)) = self.ready[x]
                            && x != t
                            && c == at_core
                            && since < time
                            && self.eligible(x)
                            && self.last_out[core].is_none_or(|(b, at)| b != x || at != time)
                        {
                            self.pending.push((t, x, since));
                        }
                    }
                }
                self.running[t] = true;
                self.ready[t] = None;
                self.last_in[core] = Some((t, time));
            }
            EventKind::Preempted => {
                self.running[t] = false;
                self.ready[t] = Some((time, at_core));
                if let Some((a, at)) = self.last_in[core]
                    && at == time
                    && a != t
                    && self.eligible(a)
                    && self.eligible(t)
                {
                    self.counts.entry((a as TaskId, t as TaskId)).or_default().0 += 1;
                }
                self.last_out[core] = Some((t, time));
            }
            EventKind::Blocked | EventKind::Finished => {
                self.running[t] = false;
                self.ready[t] = None;
            }
            _ => {}
        }
    }
}

/// Tarjan's strongly connected components; returns each node's component.
fn components(edges: &[Vec<usize>]) -> Vec<usize> {
    let n = edges.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut comp = vec![usize::MAX; n];
    let mut next_index = 0;
    let mut next_comp = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // Iterative DFS: (node, next edge to look at).
        let mut work = vec![(root, 0usize)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = work.last_mut() {
            if let Some(&w) = edges[v].get(*i) {
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp[w] = next_comp;
                    if w == v {
                        break;
                    }
                }
                next_comp += 1;
            }
        }
    }
    comp
}

/// A priority the user sets for a task, in the trace's own convention
/// (larger is more urgent, except for traces whose priorities count the
/// other way, such as Linux `prio`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriorityOverride {
    /// Task name.
    pub task: String,
    /// Its priority.
    pub priority: i32,
}

impl PriorityOverride {
    /// An override from `NAME=N`.
    ///
    /// # Errors
    /// A message saying what was expected.
    pub fn parse(text: &str) -> Result<PriorityOverride, String> {
        match text.rsplit_once('=').map(|(t, n)| (t, n.trim().parse::<i32>())) {
            Some((task, Ok(priority))) if !task.is_empty() => Ok(PriorityOverride { task: task.to_string(), priority }),
            _ => Err(format!("`{text}`: expected NAME=N with an integer priority, e.g. MotorCtl=5")),
        }
    }
}

/// The priorities a trace's tasks are replayed with, and where each came
/// from.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Priorities {
    /// Per task (trace id).
    pub source: Vec<PrioritySource>,
    /// What the trace shows (computed for every trace, also one that gives
    /// its priorities).
    pub inference: Inference,
    /// Recoverable oddities (tasks assumed lowest, conflicts).
    #[serde(skip)]
    pub warnings: Vec<Warning>,
}

impl Priorities {
    /// Tasks whose priority came from `source`.
    pub fn count(&self, source: PrioritySource) -> usize {
        self.source.iter().filter(|s| **s == source).count()
    }
}

/// Fills in the priorities `trace` lacks: inferred, else assumed; then
/// applies `overrides`.
///
/// # Errors
/// An override names a task the trace does not have.
pub fn resolve(
    trace: &mut Trace,
    schedule: &Schedule,
    overrides: &[PriorityOverride],
) -> Result<Priorities, UnknownPriorityTask> {
    let inference = infer(trace, schedule);
    let mut warnings = Vec::new();
    let schedulable = |k: TaskKind| k == TaskKind::Task;
    let given = trace.tasks.iter().filter(|t| schedulable(t.kind) && t.priority.is_some()).count();
    let missing = trace.tasks.iter().filter(|t| schedulable(t.kind) && t.priority.is_none()).count();
    let mut source = vec![PrioritySource::Given; trace.tasks.len()];
    if missing > 0 && given == 0 {
        trace.priority_order = PriorityOrder::High;
        for (i, t) in trace.tasks.iter_mut().enumerate() {
            if schedulable(t.kind) {
                t.priority = inference.priority[i];
                source[i] = if inference.pairs_of[i] > 0 { PrioritySource::Inferred } else { PrioritySource::Assumed };
            }
        }
        // The recorder's own tasks: their documented default, below the rest.
        let lowest = trace.tasks.iter().filter(|t| schedulable(t.kind)).filter_map(|t| t.priority).min().unwrap_or(1);
        for (i, t) in trace.tasks.iter_mut().enumerate() {
            if let Some((_, _, why)) = recorder_task(&t.name)
                && schedulable(t.kind)
            {
                t.priority = Some(lowest - 1);
                source[i] = PrioritySource::Assumed;
                warnings.push(Warning {
                    line: None,
                    message: format!(
                        "{} is {why}: placed below every other task, not where its own waits put it",
                        t.name
                    ),
                });
            }
        }
    } else if missing > 0 {
        let lowest = trace.tasks.iter().filter_map(|t| t.priority).reduce(|a, b| match trace.priority_order {
            PriorityOrder::High => a.min(b),
            PriorityOrder::Low => a.max(b),
        });
        let mut names = Vec::new();
        let os = trace.os;
        for (i, t) in trace.tasks.iter_mut().enumerate() {
            // A recorder's own task in a FreeRTOS recording whose other
            // priorities are given takes its documented default there.
            if let Some((_, default, why)) = recorder_task(&t.name)
                && schedulable(t.kind)
                && t.priority.is_none()
                && os == Some(crate::Os::FreeRtos)
            {
                t.priority = Some(*default);
                source[i] = PrioritySource::Assumed;
                warnings.push(Warning {
                    line: None,
                    message: format!("{} is {why}: the recording gives no priority for it; taken as {default}", t.name),
                });
                continue;
            }
            if schedulable(t.kind) && t.priority.is_none() {
                t.priority = lowest;
                source[i] = PrioritySource::Assumed;
                names.push(t.name.clone());
            }
        }
        if !names.is_empty() {
            warnings.push(Warning {
                line: None,
                message: format!(
                    "the trace gives no priority for {}; taken as the lowest the trace gives (set one with --priority \
                     NAME=N)",
                    names.join(", ")
                ),
            });
        }
    }
    for o in overrides {
        let Some(i) = trace.tasks.iter().position(|t| t.name == o.task) else {
            return Err(UnknownPriorityTask { task: o.task.clone(), priority: o.priority });
        };
        trace.tasks[i].priority = Some(o.priority);
        source[i] = PrioritySource::Override;
    }
    if !inference.conflicts.is_empty() && source.contains(&PrioritySource::Inferred) {
        let list: Vec<String> = inference
            .conflicts
            .iter()
            .map(|g| g.iter().map(|&t| trace.tasks[t as usize].name.as_str()).collect::<Vec<_>>().join("/"))
            .collect();
        warnings.push(Warning {
            line: None,
            message: format!(
                "inferred priorities: the trace orders these tasks both ways (equal priorities with time slicing, \
                 or priority inheritance); the majority decides, a tie or a cycle shares a level: {}",
                list.join(", ")
            ),
        });
    }
    Ok(Priorities { source, inference, warnings })
}
