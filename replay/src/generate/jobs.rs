//! The jobs a workload releases, drawn in advance: each task's releases
//! (periods with their jitter) and each job's execution and actions, as a
//! [`ReplayTask`] the simulator runs.
//!
//! A task released by messages or notifications gets as many jobs as it
//! could be sent before the end (the sends its senders' jobs make, and no
//! more than could start one after another before the end); the simulator
//! releases them first come, first served ([`NEXT_JOB`]) and the ones no
//! one sent never run.
//!
//! The draws, from one generator seeded by the workload: the periodic
//! tasks in order, each job's jitter then its execution; then the other
//! tasks in order, each job's execution.

use corera_placement::rng::SplitMix64;
use corera_trace_ingest::{Action, Job, Phase, Release as JobRelease};

use crate::extract::ReplayTask;
use crate::sim::NEXT_JOB;
use crate::workload::{Release, Resolved, Step, WorkloadError};

/// Most jobs a generated run may prepare (about 2 GB): a workload past it
/// is refused rather than left to exhaust the memory.
const MAX_JOBS: u64 = 10_000_000;

/// The jobs of every task, and what each action of each job stands for.
pub(super) struct Planned {
    /// The tasks, in workload order.
    pub(super) tasks: Vec<ReplayTask>,
    /// Per task, per job, the step behind each of its actions, in order.
    pub(super) steps: Vec<Vec<Vec<Step>>>,
}

///
/// # Errors
/// [`WorkloadError::Invalid`] naming the task with the most jobs when the
/// run would need more than [`MAX_JOBS`] (a period far below the run's
/// length, or tasks that notify each other in a cycle with no minimum
/// execution time).
pub(super) fn plan(w: &Resolved, seed: u64, quantum: u64, end: u64) -> Result<Planned, WorkloadError> {
    let n = w.tasks.len();
    let mut rng = SplitMix64::new(seed);
    let mut releases: Vec<Vec<u64>> = vec![Vec::new(); n];
    let mut execs: Vec<Vec<u64>> = vec![Vec::new(); n];
    let draw_exec = |rng: &mut SplitMix64, i: usize| {
        let [lo, hi] = w.tasks[i].exec_ns;
        (lo / quantum + rng.below((hi - lo) / quantum + 1)) * quantum
    };
    for (i, t) in w.tasks.iter().enumerate() {
        if let Release::Periodic { period_ns, offset_ns, jitter_ns } = t.release {
            let mut nominal = offset_ns;
            while nominal < end {
                let jitter = if jitter_ns > 0 { rng.below(jitter_ns / quantum + 1) * quantum } else { 0 };
                if nominal + jitter < end {
                    releases[i].push(nominal + jitter);
                    execs[i].push(draw_exec(&mut rng, i));
                }
                nominal += period_ns;
            }
        }
    }
    let counts = signalled_jobs(w, &releases, quantum, end);
    if counts.iter().sum::<u64>() > MAX_JOBS {
        let most = (0..n).max_by_key(|&i| (counts[i], std::cmp::Reverse(i))).expect("a task");
        return Err(WorkloadError::Invalid {
            task: w.tasks[most].name.clone(),
            message: format!(
                "the run could release it {} times, and all tasks more than {MAX_JOBS} jobs: shorten duration_ms, \
                 lengthen period_us or give exec_us a positive minimum",
                counts[most]
            ),
        });
    }
    for i in 0..n {
        if !matches!(w.tasks[i].release, Release::Periodic { .. }) {
            execs[i] = (0..counts[i]).map(|_| draw_exec(&mut rng, i)).collect();
        }
    }
    let mut turn = vec![0usize; w.turns.len()];
    let mut tasks = Vec::with_capacity(n);
    let mut steps = Vec::with_capacity(n);
    for (i, t) in w.tasks.iter().enumerate() {
        let mut jobs = Vec::with_capacity(execs[i].len());
        let mut job_steps = Vec::with_capacity(execs[i].len());
        for (k, &exec) in execs[i].iter().enumerate() {
            let (actions, done) = actions_of(w, i, k as u64, exec, quantum, &mut turn);
            let (release_ns, release) = match releases[i].get(k) {
                Some(&at) => (at, JobRelease::Timer(at)),
                None => (0, JobRelease::Signal { by: 0 }),
            };
            jobs.push(Job {
                release_ns,
                start_ns: None,
                finish_ns: None,
                phases: vec![Phase { release, exec_ns: exec, actions, wake: None }],
                spans_gap: false,
            });
            job_steps.push(done);
        }
        tasks.push(ReplayTask {
            id: i as u32,
            name: t.name.clone(),
            isr: t.isr,
            urgency: i64::from(t.priority),
            // The generator's jobs end where its recorder says.
            jobs_end_at_blocks: false,
            jobs,
            deadline_ns: None,
            let_ns: None,
            recorded_running_ns: 0,
            recorded_ready_ns: 0,
            recorded_cut_ready_ns: 0,
        });
        steps.push(job_steps);
    }
    Ok(Planned { tasks, steps })
}

/// What job `k` of task `i`, executing `exec`, does: its actions at their
/// offsets and the step behind each (a round-robin target resolved to the
/// group's next member, `turn` counting per group).
fn actions_of(
    w: &Resolved,
    i: usize,
    k: u64,
    exec: u64,
    quantum: u64,
    turn: &mut [usize],
) -> (Vec<(u64, Action)>, Vec<Step>) {
    let mut actions = Vec::new();
    let mut done = Vec::new();
    for s in w.tasks[i].steps.iter().filter(|s| k % u64::from(s.every) == u64::from(s.every) - 1) {
        let mut next = |group: usize| {
            let members = &w.turns[group];
            let member = members[turn[group] % members.len()];
            turn[group] += 1;
            member
        };
        let step = match s.step {
            Step::SendTurn { group, bytes } => Step::Send { queue: next(group), bytes },
            Step::NotifyTurn(group) => Step::Notify(next(group)),
            step => step,
        };
        let signal = |target: usize, bytes: Option<u32>| Action::Signal {
            target: target as u32,
            job: NEXT_JOB,
            phase: 0,
            bytes: bytes.unwrap_or(0),
        };
        let action = match step {
            Step::Send { queue, bytes } => signal(w.queue_receiver[queue], bytes),
            Step::Notify(target) => signal(target, None),
            Step::Lock(m) => Action::Take((w.queues.len() + m) as u32),
            Step::Unlock(m) => Action::Give((w.queues.len() + m) as u32),
            Step::SendTurn { .. } | Step::NotifyTurn(_) => unreachable!("resolved above"),
        };
        actions.push((((s.at * exec as f64) as u64 / quantum * quantum).min(exec), action));
        done.push(step);
    }
    (actions, done)
}

/// How many jobs each task released by messages or notifications needs:
/// the sends aimed at it by its senders' jobs (through chains of such
/// tasks), no more than could start one after another before `end`. A
/// task in a cycle of such releases, or released from one, could be
/// released without end: it gets that most.
fn signalled_jobs(w: &Resolved, releases: &[Vec<u64>], quantum: u64, end: u64) -> Vec<u64> {
    let n = w.tasks.len();
    let cap: Vec<u64> = w.tasks.iter().map(|t| end / t.exec_ns[0].max(quantum) + 2).collect();
    // Who each task's steps release, and what share of its jobs each gets.
    let targets = |t: usize| -> Vec<(usize, u64, u64)> {
        let mut out = Vec::new();
        for step in &w.tasks[t].steps {
            let every = u64::from(step.every);
            match step.step {
                Step::Send { queue, .. } => out.push((w.queue_receiver[queue], every, 1)),
                Step::Notify(target) => out.push((target, every, 1)),
                Step::SendTurn { group, .. } | Step::NotifyTurn(group) => {
                    let members = &w.turns[group];
                    for &m in members {
                        let target = if matches!(step.step, Step::SendTurn { .. }) { w.queue_receiver[m] } else { m };
                        out.push((target, every, members.len() as u64));
                    }
                }
                Step::Lock(_) | Step::Unlock(_) => {}
            }
        }
        out
    };
    let edges: Vec<Vec<(usize, u64, u64)>> = (0..n).map(targets).collect();
    // Tasks reachable from a cycle.
    let reach = |from: usize| -> Vec<bool> {
        let mut seen = vec![false; n];
        let mut stack: Vec<usize> = edges[from].iter().map(|e| e.0).collect();
        while let Some(t) = stack.pop() {
            if !std::mem::replace(&mut seen[t], true) {
                stack.extend(edges[t].iter().map(|e| e.0));
            }
        }
        seen
    };
    let mut unbounded = vec![false; n];
    for t in 0..n {
        let r = reach(t);
        if r[t] {
            for (u, &hit) in r.iter().enumerate() {
                unbounded[u] |= hit;
            }
        }
    }
    let mut count: Vec<u64> = (0..n).map(|i| if unbounded[i] { cap[i] } else { releases[i].len() as u64 }).collect();
    // The rest form chains: each pass settles one more link.
    for _ in 0..=n {
        let mut next: Vec<u64> = (0..n)
            .map(|i| if unbounded[i] || matches!(w.tasks[i].release, Release::Periodic { .. }) { count[i] } else { 0 })
            .collect();
        for (s, out) in edges.iter().enumerate() {
            for &(t, every, share) in out {
                if !unbounded[t] {
                    next[t] = next[t].saturating_add((count[s] / every).div_ceil(share));
                }
            }
        }
        for i in 0..n {
            next[i] = next[i].min(cap[i].max(count[i]));
        }
        if next == count {
            break;
        }
        count = next;
    }
    count
}
