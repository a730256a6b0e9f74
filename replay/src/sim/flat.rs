//! The jobs of a replay laid out flat for the simulator's inner loop.

use corera_trace_ingest::{Action, Release};

use crate::extract::Replay;

/// A phase released by a signal, in [`Flat::release`].
pub(super) const SIGNALLED: u64 = u64::MAX;
/// A phase released a delay after the task's previous phase ended
/// ([`Flat::delay`]), in [`Flat::release`].
pub(super) const DELAYED: u64 = u64::MAX - 1;
/// A phase ready as soon as the task's previous phase ended, which then
/// owes the switch ([`Flat::delay`]; [`Release::Reselected`]), in
/// [`Flat::release`].
pub(super) const RESELECTED: u64 = u64::MAX - 2;
/// A job released a period after the replayed release of the task's
/// previous job ([`Flat::delay`]; [`Release::Period`]), in
/// [`Flat::release`].
pub(super) const PERIODIC: u64 = u64::MAX - 3;
/// A phase whose wake the recording does not show, in [`Flat::local_wake`]
/// and [`Flat::cross_wake`].
pub(super) const NO_WAKE: u64 = u64::MAX;
/// A job the task runs straight into as its previous one ends, with no
/// switch ([`Followed::own_blocks`]), in [`Flat::release`].
pub(super) const CONTINUES: u64 = u64::MAX - 4;

/// The jobs of a replay in flat arrays, in task, job and phase order (a
/// phase's global id is its place in them), so that the simulator's
/// inner loop reads contiguous memory rather than nested vectors.
pub(super) struct Flat {
    /// Per task, its first job's global index (one more entry at the end).
    pub(super) job_base: Vec<u32>,
    /// Per global job, its first phase's global id (one more at the end).
    pub(super) job_phase: Vec<u32>,
    /// Per global job, whether the trace saw it finish.
    pub(super) job_finished: Vec<bool>,
    /// Per global job, whether its response counts: it spans no gap of
    /// the recording (the recording's figures leave it out too).
    pub(super) job_counted: Vec<bool>,
    /// Per phase, its timer release (ns), [`SIGNALLED`], [`DELAYED`],
    /// [`RESELECTED`] or [`PERIODIC`].
    pub(super) release: Vec<u64>,
    /// Per phase released [`DELAYED`], the delay (ns); [`RESELECTED`], the
    /// switch; [`PERIODIC`], the period; 0 for the others.
    pub(super) delay: Vec<u64>,
    /// Per phase, its wake as recorded ([`RecordedWake`](corera_trace_ingest::RecordedWake)) from a task on
    /// its own core (or a timer), else [`NO_WAKE`].
    pub(super) local_wake: Vec<u64>,
    /// Per phase, its wake as recorded from a task on another core, else
    /// [`NO_WAKE`].
    pub(super) cross_wake: Vec<u64>,
    /// Per phase, the execution it needs.
    pub(super) exec: Vec<u64>,
    /// Per phase, its first action's index in `actions` (one more at the
    /// end).
    pub(super) action_base: Vec<u32>,
    /// The actions at execution offsets, in order.
    pub(super) actions: Vec<(u64, Action)>,
}

/// The actions a replay follows only where they matter.
#[derive(Clone, Copy, Debug)]
pub(super) struct Followed {
    /// The queue calls: they hold the kernel's lock, and block on a
    /// bounded queue.
    pub(super) queue_calls: bool,
    /// The recorder's application events: they hold the kernel's lock.
    pub(super) logged: bool,
    /// The replay blocks where the objects say, not where the recording
    /// did ([`own_blocks`]).
    pub(super) own_blocks: bool,
}

impl Flat {
    /// The jobs of `replay`; the queue calls ([`Action::Send`],
    /// [`Action::Receive`]) and the recorder's application events
    /// ([`Action::Logged`]) only where `followed` says; the kernel's choice of
    /// the next task as one blocks ([`Action::Next`]) only where the kernel
    /// is not fixed-priority (a fixed-priority kernel's rules choose as it
    /// did; CFS's choice, which the replay does not model, stands); a yield
    /// ([`Action::Yield`]) only to a task of the yielder's own priority.
    pub(super) fn of(replay: &Replay, followed: Followed) -> Flat {
        let jobs: usize = replay.tasks.iter().map(|t| t.jobs.len()).sum();
        let phases: usize = replay.tasks.iter().flat_map(|t| &t.jobs).map(|j| j.phases.len()).sum();
        let mut f = Flat {
            job_base: Vec::new(),
            job_phase: Vec::with_capacity(jobs + 1),
            job_finished: Vec::with_capacity(jobs),
            job_counted: Vec::with_capacity(jobs),
            release: Vec::with_capacity(phases),
            delay: Vec::with_capacity(phases),
            local_wake: Vec::with_capacity(phases),
            cross_wake: Vec::with_capacity(phases),
            exec: Vec::with_capacity(phases),
            action_base: Vec::with_capacity(phases + 1),
            actions: Vec::new(),
        };
        f.job_base = crate::chain::job_bases(replay);
        let jobs = f.job_base.last().copied().unwrap_or(0) as usize;
        let (retried, resumed) =
            if followed.own_blocks { own_blocks(replay, &f.job_base) } else { (vec![false; jobs], vec![false; jobs]) };
        // A signal's target job, globally, if it names one of the task's
        // (not the task's next, whichever that is).
        let global = |t: u32, j: u32| {
            let (from, to) = (f.job_base[t as usize] as usize, f.job_base[t as usize + 1] as usize);
            Some(from + j as usize).filter(|&g| g < to)
        };
        for (ti, t) in replay.tasks.iter().enumerate() {
            for (ji, j) in t.jobs.iter().enumerate() {
                let at = f.job_base[ti] as usize + ji;
                let skipped = retried[at];
                let continues = skipped || resumed[at];
                f.job_phase.push(f.exec.len() as u32);
                f.job_finished.push(j.finished());
                f.job_counted.push(!j.spans_gap);
                for (pi, p) in j.phases.iter().enumerate() {
                    f.release.push(match p.release {
                        _ if continues && pi == 0 => CONTINUES,
                        Release::Timer(at) => at.min(PERIODIC - 1),
                        Release::Signal { .. } => SIGNALLED,
                        Release::Delay { .. } => DELAYED,
                        Release::Reselected { .. } => RESELECTED,
                        Release::Period { .. } => PERIODIC,
                    });
                    f.delay.push(match p.release {
                        Release::Delay { after_ns, .. } => after_ns,
                        Release::Reselected { switch_ns, .. } => switch_ns,
                        Release::Period { after_ns, .. } => after_ns,
                        _ => 0,
                    });
                    let wake = |across| p.wake.filter(|w| w.across == across).map_or(NO_WAKE, |w| w.ns);
                    f.local_wake.push(wake(false));
                    f.cross_wake.push(wake(true));
                    f.exec.push(if skipped { 0 } else { p.exec_ns });
                    f.action_base.push(f.actions.len() as u32);
                    let kept = |a: &&(u64, Action)| match a.1 {
                        Action::Send(_) | Action::Receive(_) => followed.queue_calls,
                        Action::Logged => followed.logged,
                        Action::Next { .. } => !replay.rules.fixed_priority,
                        // A yield matters only between equal priorities;
                        // one the kernel answered with the same task, only
                        // where the kernel is fixed-priority (`taskYIELD`).
                        Action::Yield { target } if replay.tasks[target as usize].id == t.id => {
                            replay.rules.fixed_priority
                        }
                        Action::Yield { target } => replay.tasks[target as usize].urgency == t.urgency,
                        _ => true,
                    };
                    // A signal that released a job the task now runs
                    // straight into goes.
                    let aimed = |a: &&(u64, Action)| match a.1 {
                        Action::Signal { target, job, .. } => {
                            global(target, job).is_none_or(|at| !retried[at] && !resumed[at])
                        }
                        _ => true,
                    };
                    if !skipped {
                        f.actions.extend(p.actions.iter().filter(kept).filter(aimed));
                    }
                }
            }
        }
        f.job_phase.push(f.exec.len() as u32);
        f.action_base.push(f.actions.len() as u32);
        f
    }
}

/// On more cores than recorded, where each job of a task ends where the
/// recording blocked (the task reports no job ends), the jobs that open
/// with a call that blocks by its object's state (a take; a send or a
/// receive on a queue of known length) and were released by another
/// task's call on that object, and the failed retries before them: jobs
/// of one phase, released by a call on the same object, that ran no
/// call, signal or priority change (another task took what the call
/// waited for first, and it blocked again). Those are the recorded cores'
/// contention. The replay runs the task straight on into them, the
/// retries at no cost, and its call blocks as the object then stands.
/// Returns, per global job (`job_base`: each task's first), whether it is
/// such a retry, and whether it opens with such a call.
fn own_blocks(replay: &Replay, job_base: &[u32]) -> (Vec<bool>, Vec<bool>) {
    let jobs = job_base.last().copied().unwrap_or(0) as usize;
    let (mut retried, mut resumed) = (vec![false; jobs], vec![false; jobs]);
    if !replay.tasks.iter().any(|t| t.jobs_end_at_blocks) {
        return (retried, resumed);
    }
    let quiet = |a: &Action| matches!(a, Action::Logged | Action::Next { .. });
    let on = |a: &Action| match *a {
        Action::Take(o) => Some(o),
        Action::Send(o) | Action::Receive(o) if replay.capacity[o as usize] > 0 => Some(o),
        _ => None,
    };
    let global = |t: usize, j: usize| job_base[t] as usize + j;
    // The objects of the calls that released each job, (global job,
    // object): those at the signal's own offset before it.
    let mut released_by: Vec<(usize, u32)> = Vec::new();
    for phase in replay.tasks.iter().flat_map(|t| &t.jobs).flat_map(|j| &j.phases) {
        for (k, &(at, a)) in phase.actions.iter().enumerate() {
            let Action::Signal { target, job, phase: 0, .. } = a else { continue };
            if !replay.tasks[target as usize].jobs_end_at_blocks {
                continue;
            }
            let calls = phase.actions[..k].iter().rev().take_while(|(o, _)| *o == at);
            let objects = calls.filter_map(|(_, a)| match *a {
                Action::Give(o) | Action::Send(o) | Action::Receive(o) => Some(o),
                _ => None,
            });
            if job as usize >= replay.tasks[target as usize].jobs.len() {
                continue;
            }
            released_by.extend(objects.map(|o| (global(target as usize, job as usize), o)));
        }
    }
    released_by.sort_unstable();
    let by = |t: usize, j: usize, o: u32| released_by.binary_search(&(global(t, j), o)).is_ok();
    for (ti, t) in replay.tasks.iter().enumerate() {
        if !t.jobs_end_at_blocks {
            continue;
        }
        let mut run = Vec::new();
        for (ji, job) in t.jobs.iter().enumerate().skip(1) {
            let Some(first) = job.phases.first() else { continue };
            if first.actions.iter().all(|(_, a)| quiet(a)) {
                run.push(ji);
                continue;
            }
            let opens = first.actions.iter().map(|(_, a)| a).find(|a| !quiet(a)).and_then(on);
            if let Some(o) = opens.filter(|&o| by(ti, ji, o)) {
                for &r in run.iter().rev().take_while(|&&r| by(ti, r, o)) {
                    retried[global(ti, r)] = true;
                }
                resumed[global(ti, ji)] = true;
            }
            run.clear();
        }
    }
    (retried, resumed)
}
