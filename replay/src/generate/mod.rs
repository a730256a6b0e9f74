//! Trace generation: a [`Workload`] run on one core by the replay's own
//! simulator, recorded as an RTOS trace hook would record it.
//!
//! One engine: the workload becomes a [`Replay`] ([`jobs`]: each task's
//! jobs, their execution drawn, their actions at offsets), the simulator
//! runs it on one core by the rules every replay keeps for corera's
//! generator ([`OsRules`](crate::OsRules): fixed priorities, equal
//! priorities first ready first served with a preempted task going behind,
//! no time slicing, ISRs not nested; mutexes with priority inheritance
//! handed to the most urgent waiter), and [`record`] writes down what it
//! did. So a rule of the kernel is written once, and `--as-recorded`
//! reproduces a generated trace exactly.
//!
//! A release that arrives while the task is busy (a period, a message, a
//! notification) waits and starts a new job as soon as the current one
//! finishes. Messages and notifications release their target's jobs
//! first come, first served.

use corera_placement::{Costs, Kernel, Platform};
use corera_trace_ingest::{Clock, Object, ObjectKind, Os, Task, TaskKind, Trace};

use crate::extract::Replay;
use crate::rules::{Recorded, Rules};
use crate::sim::{Policy, Setup, simulate_observed};
use crate::workload::{Workload, WorkloadError};

mod jobs;
mod record;

/// Generates the trace of `workload` run on one core.
///
/// Task `i` of the workload becomes task id `i` with handle `i + 1`; the idle
/// task is last, with handle 0. Queues and mutexes become objects.
///
/// # Errors
/// [`WorkloadError::Invalid`] when the workload is inconsistent, or would
/// release more jobs than a run holds.
pub fn generate(workload: &Workload) -> Result<Trace, WorkloadError> {
    let w = workload.resolve()?;
    let (clock, quantum) = if workload.clock == "ns" { (Clock::Ns, 1) } else { (Clock::Us, 1000) };
    let end = workload.duration_ms * 1_000_000;
    let planned = jobs::plan(&w, workload.seed, quantum, end)?;
    let recorded = Recorded { os: Some(Os::CoreraGen), tick: None, isr_nesting: Some(false), several_priorities: None };
    let replay = Replay {
        index_of: (0..w.tasks.len() as u32).chain([u32::MAX]).collect(),
        mutexes: (0..w.queues.len() + w.mutexes.len()).map(|o| o >= w.queues.len()).collect(),
        tokens: vec![0; w.queues.len() + w.mutexes.len()],
        duration_ns: end,
        recorded_cores: 1,
        cores_up_ns: Vec::new(),
        cores_up_running: Vec::new(),
        started_with: Vec::new(),
        events: 0,
        chains: Vec::new(),
        // Its queues never fill: they hold what is sent.
        queues: vec![None; w.queues.len() + w.mutexes.len()],
        capacity: vec![0; w.queues.len() + w.mutexes.len()],
        rules: Rules::of(&recorded, &Kernel::default()).expect("no tick asked for"),
        recorded,
        tasks: planned.tasks,
    };
    let mut platform = Platform::identical(1);
    platform.costs = Costs::none();
    let setup = Setup { policy: Policy::Single, platform: &platform, core_of: None, masks: None, timeline: false };
    let mut recorder = record::Recorder::new(&w, &planned.steps, end);
    simulate_observed(&replay, &setup, &mut recorder);

    let mut trace = Trace::new(clock);
    trace.os = Some(Os::CoreraGen);
    for (i, t) in w.tasks.iter().enumerate() {
        trace.tasks.push(Task {
            name: t.name.clone(),
            kind: if t.isr { TaskKind::Isr } else { TaskKind::Task },
            priority: Some(t.priority),
            handle: i as u64 + 1,
        });
    }
    trace.tasks.push(Task { name: "IDLE".into(), kind: TaskKind::Idle, priority: Some(0), handle: 0 });
    for q in &w.queues {
        trace.objects.push(Object { name: q.clone(), kind: ObjectKind::Queue });
    }
    for m in &w.mutexes {
        trace.objects.push(Object { name: m.clone(), kind: ObjectKind::Mutex });
    }
    trace.events = recorder.into_events().into_iter().collect();
    Ok(trace)
}
