//! The discrete-event simulator: a [`Replay`] run under a scheduling
//! policy on a number of cores.
//!
//! Time advances from event to event (a release, an action offset, the end
//! of a phase). Between events every running task consumes its core's
//! speed in work per ns. Fixed-priority preemptive scheduling everywhere:
//! ISRs above all tasks and never preempted by them; among tasks the more
//! urgent runs first, ties keep the running task, then the lower index.
//!
//! # The kernel's rules ([`Rules`](crate::Rules))
//! With time slicing, tasks of equal urgency are served first-ready-first
//! and at every tick a running task that has a ready task of its own
//! urgency able to take its core goes behind it (FreeRTOS's
//! `configUSE_TIME_SLICING`). Without ISR nesting a running ISR keeps its
//! core until it ends; a more urgent one waits (tail-chaining).
//!
//! # Mutexes
//! A task blocked on a mutex lends its urgency to the holder (priority
//! inheritance, as FreeRTOS, Zephyr and RT-Thread mutexes do), through a
//! chain of holders each blocked on the next; a holder gets back the
//! urgency of the most urgent task still waiting on a mutex it holds when
//! it gives one. Semaphores lend nothing: they count tokens, a take with
//! none left blocks until a give, and each starts with the tokens the
//! recording needed ([`Replay::tokens`]). A given object or token goes to
//! its most urgent waiter.
//!
//! # Costs
//! What crossing cores costs ([`Costs`](corera_placement::Costs)) is
//! charged as CPU time, so that it competes for the cores like any work:
//! a signal to a task on another core arrives `message_latency_ns` per unit
//! of distance later, and the released phase first executes
//! `message_cpu_ns` plus `byte_ns` per byte carried (the interrupt and the
//! cache lines it pulls across); a task resuming on another core first
//! executes its migration cost; a task that may run on several cores
//! (global SMP, a mask of two or more) pays `schedule_ns` each time it is
//! dispatched (the shared run queue's lock), as every job of the
//! least-loaded policy does when it is assigned. Each task's RUNNING is its
//! demand plus these overheads, exactly ([`TaskResult::overhead_ns`]).

use corera_placement::{CoreSet, Platform};

use corera_trace_ingest::{Action, ResponseStats};

use crate::chain::{JobTimes, NEVER, quartiles};
use crate::extract::Replay;

mod choices;
mod flat;
mod hook;
mod objects;
mod outcome;
mod policy;
mod ready_list;
mod schedule;
#[cfg(test)]
mod tests;

use choices::Pending;
use flat::{CONTINUES, DELAYED, Flat, Followed, PERIODIC, RESELECTED, SIGNALLED};
pub(crate) use hook::{Hook, Out};
pub use outcome::{Flow, KEEPS_UP, Outcome, Overheads, Segment, Spans, TaskResult};
pub use policy::Policy;
use ready_list::ReadyLists;

/// Simulation settings.
#[derive(Clone, Debug)]
pub struct Setup<'a> {
    /// The policy.
    pub policy: Policy,
    /// Cores, their speeds and distances.
    pub platform: &'a Platform,
    /// For [`Policy::Amp`]: the core of each replay task; for
    /// [`Policy::Masks`], the core of each ISR (interrupts are routed to one
    /// core).
    pub core_of: Option<&'a [u16]>,
    /// For [`Policy::Masks`]: the cores each replay task may run on
    /// (ISRs take their `core_of` core).
    pub masks: Option<&'a [CoreSet]>,
    /// Keep the timeline.
    pub timeline: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// Waiting for the release of the current phase.
    Waiting,
    Ready,
    Running(u16),
    /// Waiting for an object held by another task.
    Blocked(u32),
    /// Waiting for an item of a queue ([`Sim::own_blocks`]).
    Receiving(u32),
    /// All jobs done.
    Done,
}

struct Sim<'a> {
    r: &'a Replay,
    s: &'a Setup<'a>,
    k: usize,
    state: Vec<State>,
    job: Vec<usize>,
    phase: Vec<usize>,
    /// Work done in the current phase (ns of the traced core).
    done: Vec<u64>,
    /// Next action index in the current phase.
    next_action: Vec<usize>,
    /// Extra work owed (modelled overheads) before the phase continues.
    owed: Vec<u64>,
    /// Per task, CPU time charged for overheads so far.
    overhead: Vec<u64>,
    /// Per task, the part of `overhead` that is context switches.
    switched: Vec<u64>,
    /// Per task, what a migration costs it.
    migration_cost: Vec<u64>,
    /// Per task, whether it may run on several cores (and so is dispatched
    /// by the global scheduler, at `schedule_ns` a time).
    floats: Vec<bool>,
    /// Per task under [`Policy::Masks`] and [`Policy::Smp`]: the cores it
    /// may run on (`None`: any).
    mask: Vec<Option<CoreSet>>,
    /// When the current phase was made ready to wait for its release.
    wait_from: Vec<u64>,
    /// Release time of the current job.
    job_release: Vec<u64>,
    /// Per task, the release of its latest finished job: where a
    /// [`PERIODIC`] release counts from.
    period_from: Vec<u64>,
    /// Fired signal times (arrival, after the cross-core latency) by
    /// global phase id.
    fired: Vec<u64>,
    /// When each fired signal was sent (the release, for response times),
    /// by global phase id.
    sent: Vec<u64>,
    /// When the kernel made each fired phase's task ready, by global phase
    /// id: as its signal was sent, on the sender's core or on another core
    /// of a chip whose cores are all one distance apart (one SMP kernel:
    /// the wake's latency there is READY); on a topology of distances
    /// (clusters, a mesh) a message travels, and makes the task ready as
    /// it arrives.
    made_ready: Vec<u64>,
    /// Whether every two cores are one distance apart
    /// ([`Platform::is_uniform`]).
    uniform: bool,
    /// CPU time each signalled phase must spend on arrival (interrupt and
    /// bytes), by global phase id.
    arrival_cost: Vec<(u64, u64)>,
    /// The jobs, flat.
    f: Flat,
    /// Core each task is bound to (fixed policies) or last ran on.
    home: Vec<Option<u16>>,
    last_core: Vec<Option<u16>>,
    /// Per core, the task that last left it and when (kept only when a
    /// context switch costs something).
    left: Vec<Option<(usize, u64)>>,
    /// The platform's `context_switch_ns`.
    switch_cost: u64,
    holder: Vec<Option<u32>>,
    /// Tokens each semaphore holds.
    tokens: Vec<u32>,
    /// Each task's own urgency: its recorded priority, as the recording's
    /// priority changes set it.
    base: Vec<i64>,
    /// When the SMP kernel's lock is next free (`[costs.lock]`).
    lock_free_at: u64,
    /// A task that lowered its own priority: the urgency it takes at the
    /// end of its phase (the kernel yields as the call returns).
    lowered: Vec<Option<i64>>,
    /// Per task: its phase ended where the recording blocked, but what
    /// released its next phase was sent first, so the call it blocked in
    /// succeeds at once and it runs on ([`Sim::runs_on`]).
    ran_on: Vec<bool>,
    /// Each task's urgency with what it inherits from tasks waiting on the
    /// mutexes it holds.
    inherited: Vec<i64>,
    responses: Vec<Vec<u64>>,
    /// Per task, the release of the first job of its span in progress
    /// (`NOT_FIRED`: none), and whether every job in it counts.
    span_from: Vec<(u64, bool)>,
    /// The replay blocks where the objects say, not where the recording
    /// did: on more cores than recorded, a receive waits for an item of a
    /// queue of known length ([`Flat`]'s `own_blocks`).
    own_blocks: bool,
    /// Per queue of known length, the items it holds.
    items: Vec<u32>,
    /// Per global job, when it was released, first ran and finished (kept
    /// only when the replay has chains to measure).
    job_times: Vec<JobTimes>,
    out: Outcome,
    seg_start: Vec<u64>,
    /// Something changed that may change who runs where.
    dirty: bool,
    /// The task running on each core.
    running: Vec<Option<usize>>,
    /// The last job of each task that started running (`usize::MAX`: none).
    started: Vec<usize>,
    /// Since when each ready task has been ready.
    ready_since: Vec<u64>,
    /// Tasks ready and not running.
    n_ready: usize,
    /// Cached release time of each task's awaited phase (NOT_FIRED when
    /// unknown), kept by `refresh`.
    rel: Vec<u64>,
    /// Cached offset (in the phase) of each task's next point.
    point: Vec<u64>,
    /// Release times of waiting tasks, earliest first: `(rel, task)`,
    /// entries whose task is no longer waiting or whose `rel` changed
    /// left in place and skipped.
    releases: std::collections::BinaryHeap<std::cmp::Reverse<(u64, u32)>>,
    /// Scratch buffer of `release`.
    due: Vec<usize>,
    /// Tasks ready or running (in no order), and each task's place in it
    /// (`u32::MAX`: not there): what the schedulers look at.
    active: Vec<u32>,
    active_at: Vec<u32>,
    /// Cores running a task (in no order), and each core's place in it.
    busy: Vec<u16>,
    busy_at: Vec<u32>,
    /// Scratch buffer of `process_points`.
    scratch_cores: Vec<usize>,
    /// Scratch buffers of `schedule`.
    cand: Vec<usize>,
    chosen: Vec<Option<usize>>,
    placed: Vec<bool>,
    open: Vec<usize>,
    winners: Vec<usize>,
    /// Per task, its place in the queue of its urgency (smaller: earlier):
    /// taken when it becomes ready, when it blocks on an object (kernels
    /// queue equal-priority waiters first come, first served), when a
    /// tick sends it behind the others, and when preempted where the
    /// kernel sends it behind.
    queued: Vec<u64>,
    next_queued: u64,
    /// FreeRTOS's single-core ready lists, where the kernel serves from
    /// their index ([`crate::Rules::served_from_index`]): `queued` keeps
    /// the order they serve their tasks in (the index's task last).
    lists: Option<ReadyLists>,
    /// Per core, the task an ISR took it from, while only ISRs ran since.
    interrupted: Vec<Option<usize>>,
    /// Per task, whether it is ready only because an ISR holds its core.
    isr_held: Vec<bool>,
    /// Per task, whether it runs on a core a hand-off gave it
    /// ([`Sim::give_core`]): the kernel chose it there over the equally
    /// urgent tasks ready then, so none of them takes the core from it.
    handed: Vec<bool>,
    /// Per task, whether its first job starts a core's scheduler directly,
    /// with no dispatch ([`Replay::started_with`], unless the kernel starts
    /// its several cores on their idle tasks, [`crate::OsRules`]).
    starts_core: Vec<bool>,
    /// Per task, the core the recording shows the kernel chose it on,
    /// for when the replay releases it ([`Sim::yield_to`],
    /// [`Sim::hand_core`]), and how many tasks have one.
    pending: Vec<Option<Pending>>,
    n_pending: usize,
    /// Per task, its next job a [`NEXT_JOB`] signal releases.
    next_signalled: Vec<u32>,
    /// Per running task told to yield to a higher priority on another core
    /// (one priority at a time), when the request arrives (`NOT_FIRED`:
    /// none).
    yield_at: Vec<u64>,
    /// Per phase, the core of the task whose signal released it
    /// (`NO_CORE`: none, or a timer, a hand-off, an ISR); kept only where
    /// the kernel runs one priority at a time on several cores (else
    /// empty), the one place `calling` is read.
    waker: Vec<u16>,
    /// Per core, when a signal from the task it ran last made another
    /// task ready (one priority at a time; `NOT_FIRED`: never). FreeRTOS
    /// SMP (`prvYieldForTask`) interrupts the other cores that must yield
    /// at once, but the calling core only at the end of its critical
    /// section: its task is the last to leave ([`Sim::schedule`]), so the
    /// task made ready starts on another core and the caller goes behind
    /// the tasks preempted there (a timer's release is left out: which
    /// core ran the tick is not known for every recording).
    calling: Vec<u64>,
    /// Who is told what happens (the generator's recorder).
    hook: Option<&'a mut dyn Hook>,
    /// Per core, when it comes up ([`Replay::cores_up_ns`]; 0 beyond the
    /// recorded cores), and the next such instant still to come.
    up: Vec<u64>,
    next_up: u64,
}

const NOT_FIRED: u64 = u64::MAX;
const NO_CORE: u16 = u16::MAX;

/// In an [`Action::Signal`], the target's next job no signal has released
/// yet, whichever that is when the signal is sent (a queue's messages or
/// a task's notifications, first come, first served), rather than a job
/// the recording names.
pub(crate) const NEXT_JOB: u32 = u32::MAX;

/// Runs `replay` under `setup`.
pub fn simulate(replay: &Replay, setup: &Setup<'_>) -> Outcome {
    simulate_with(replay, setup, None)
}

/// Runs `replay` under `setup`, telling `hook` each moment a trace hook
/// would record.
pub(crate) fn simulate_observed(replay: &Replay, setup: &Setup<'_>, hook: &mut dyn Hook) -> Outcome {
    simulate_with(replay, setup, Some(hook))
}

fn simulate_with<'a>(replay: &'a Replay, setup: &'a Setup<'a>, hook: Option<&'a mut dyn Hook>) -> Outcome {
    let n = replay.tasks.len();
    let k = match setup.policy {
        Policy::Single => 1,
        _ => usize::from(setup.platform.cores),
    };
    // A queue call holds the kernel's lock, and blocks on a full queue;
    // an application event the recorder wrote holds the lock: each
    // followed only where that matters.
    let lock = &setup.platform.costs.lock;
    let bounded = replay.capacity.iter().any(|&c| c > 0);
    let flat = Flat::of(
        replay,
        Followed {
            queue_calls: bounded || (k > 1 && (lock.take_ns > 0 || lock.give_ns > 0)),
            logged: k > 1 && lock.logged_ns > 0,
            own_blocks: k > replay.recorded_cores,
        },
    );
    let total = flat.exec.len();
    let flat_jobs = flat.job_finished.len();
    let Where { mask, home, floats } = Where::of(replay, setup, k);
    let costs = &setup.platform.costs;
    let one_at_a_time = k > 1 && !replay.rules.multiple_priorities;
    let lists = (replay.rules.served_from_index && matches!(setup.policy, Policy::Single | Policy::Amp)).then(|| {
        // The urgencies tasks start at, and those priority changes set.
        let set = flat.actions.iter().filter_map(|&(_, a)| match a {
            Action::SetPriority { priority, .. } => Some(i64::from(priority)),
            _ => None,
        });
        ReadyLists::new(n, k, replay.tasks.iter().map(|t| t.urgency).chain(set).collect())
    });
    let mut sim = Sim {
        r: replay,
        s: setup,
        k,
        uniform: setup.platform.is_uniform(),
        state: vec![State::Waiting; n],
        job: vec![0; n],
        phase: vec![0; n],
        done: vec![0; n],
        next_action: vec![0; n],
        owed: vec![0; n],
        overhead: vec![0; n],
        switched: vec![0; n],
        migration_cost: replay.tasks.iter().map(|t| costs.migration_of(&t.name)).collect(),
        floats,
        mask,
        wait_from: vec![0; n],
        job_release: vec![0; n],
        period_from: vec![0; n],
        fired: vec![NOT_FIRED; total],
        sent: vec![NOT_FIRED; total],
        made_ready: vec![NOT_FIRED; total],
        arrival_cost: vec![(0, 0); total],
        f: flat,
        home,
        last_core: vec![None; n],
        left: vec![None; k],
        switch_cost: setup.platform.costs.context_switch_ns.unwrap_or(0),
        holder: vec![None; replay.mutexes.len()],
        // A bounded queue's tokens are its free places.
        tokens: replay.tokens.iter().zip(&replay.capacity).map(|(&t, &c)| if c > 0 { c } else { t }).collect(),
        base: replay.tasks.iter().map(|t| t.urgency).collect(),
        lowered: vec![None; n],
        ran_on: vec![false; n],
        lock_free_at: 0,
        inherited: replay.tasks.iter().map(|t| t.urgency).collect(),
        responses: vec![Vec::new(); n],
        span_from: vec![(NOT_FIRED, true); n],
        own_blocks: k > replay.recorded_cores,
        items: replay.queues.iter().map(|q| q.as_ref().map_or(0, |q| q.at_start)).collect(),
        job_times: if replay.chains.is_empty() { Vec::new() } else { vec![JobTimes::NONE; flat_jobs] },
        out: Outcome::empty(setup.policy, k, replay),
        seg_start: vec![0; n],
        dirty: true,
        running: vec![None; k],
        up: (0..k).map(|c| replay.cores_up_ns.get(c).copied().unwrap_or(0)).collect(),
        next_up: replay.cores_up_ns.iter().take(k).copied().filter(|&at| at > 0).min().unwrap_or(u64::MAX),
        started: vec![usize::MAX; n],
        ready_since: vec![0; n],
        n_ready: 0,
        rel: vec![NOT_FIRED; n],
        point: vec![0; n],
        releases: std::collections::BinaryHeap::with_capacity(2 * n),
        due: Vec::with_capacity(n),
        active: Vec::with_capacity(n),
        active_at: vec![u32::MAX; n],
        busy: Vec::with_capacity(k),
        busy_at: vec![u32::MAX; k],
        scratch_cores: Vec::with_capacity(k),
        cand: Vec::with_capacity(n),
        chosen: vec![None; k],
        placed: vec![false; n],
        open: Vec::with_capacity(k),
        winners: Vec::with_capacity(k),
        queued: vec![0; n],
        next_queued: 0,
        lists,
        interrupted: vec![None; k],
        isr_held: vec![false; n],
        handed: vec![false; n],
        starts_core: {
            let mut starts = vec![false; n];
            if k < 2 || !crate::OsRules::of(replay.recorded.os).cores_start_idle {
                for &i in &replay.started_with {
                    starts[i as usize] = true;
                }
            }
            starts
        },
        pending: vec![None; n],
        n_pending: 0,
        next_signalled: vec![0; n],
        yield_at: vec![NOT_FIRED; n],
        waker: if one_at_a_time { vec![NO_CORE; total] } else { Vec::new() },
        calling: vec![NOT_FIRED; k],
        hook,
    };
    for i in 0..n {
        if replay.tasks[i].jobs.is_empty() {
            sim.state[i] = State::Done;
        } else {
            sim.refresh(i);
        }
    }
    sim.run();
    sim.finish()
}

/// Where each task of a replay may run under its set-up: its mask
/// (masks), its home core (the one core it is bound to, if any) and
/// whether it floats.
struct Where {
    mask: Vec<Option<CoreSet>>,
    home: Vec<Option<u16>>,
    floats: Vec<bool>,
}

impl Where {
    /// For `replay` under `setup` on `k` cores.
    fn of(replay: &Replay, setup: &Setup<'_>, k: usize) -> Where {
        let n = replay.tasks.len();
        let last = k as u16 - 1;
        let placed = |i: usize| setup.core_of.map_or(0, |c| c[i]).min(last);
        let mask: Vec<Option<CoreSet>> = (0..n)
            .map(|i| match setup.policy {
                Policy::Masks if !replay.tasks[i].isr => {
                    let m: CoreSet = setup.masks.map_or_else(|| CoreSet::one(placed(i)), |m| m[i].clone());
                    let m: CoreSet = m.iter().filter(|&c| c <= last).collect();
                    Some(if m.is_empty() { CoreSet::one(placed(i)) } else { m })
                }
                _ => None,
            })
            .collect();
        let home: Vec<Option<u16>> = (0..n)
            .map(|i| match setup.policy {
                Policy::Single => Some(0),
                Policy::Amp => Some(placed(i)),
                // An ISR does not float: it runs where it is placed, when its
                // mask allows that core, else on the first core its mask
                // allows (an interrupt routed to core 1 is not taken on 0).
                Policy::Masks if replay.tasks[i].isr => {
                    let allowed: Option<CoreSet> = setup.masks.map(|m| m[i].iter().filter(|&c| c <= last).collect());
                    match allowed.and_then(|a| a.first().filter(|_| !a.contains(placed(i)))) {
                        Some(first) => Some(first),
                        None => Some(placed(i)),
                    }
                }
                Policy::Masks => mask[i].as_ref().and_then(CoreSet::single),
                // ISRs stay where interrupts are routed: core 0.
                _ => replay.tasks[i].isr.then_some(0),
            })
            .collect();
        let floats: Vec<bool> = (0..n)
            .map(|i| match setup.policy {
                Policy::Smp | Policy::SmpLeastLoaded => !replay.tasks[i].isr && k > 1,
                Policy::Masks => home[i].is_none(),
                Policy::Single | Policy::Amp => false,
            })
            .collect();
        Where { mask, home, floats }
    }
}

impl Sim<'_> {
    /// Tells the hook, if there is one.
    #[inline]
    fn tell(&mut self, f: impl FnOnce(&mut dyn Hook)) {
        if let Some(h) = self.hook.as_deref_mut() {
            f(h);
        }
    }

    /// The time `work` takes on `core`, ns (rounded up).
    #[inline]
    fn time_for(&self, work: u64, core: u16) -> u64 {
        let speed = self.speed(core);
        if speed == 1.0 { work } else { (work as f64 / speed).ceil() as u64 }
    }

    fn speed(&self, core: u16) -> f64 {
        if self.s.policy == Policy::Single { 1.0 } else { self.s.platform.speed[usize::from(core)] }
    }

    /// Moves task `i` between states, keeping the READY accounting (RUNNING
    /// is accounted per segment in `stop`).
    fn set_state(&mut self, i: usize, to: State, now: u64) {
        if self.state[i] == State::Ready && std::mem::take(&mut self.isr_held[i]) {
            // Back from under an interrupt: no READY.
            self.n_ready -= 1;
        } else if self.state[i] == State::Ready {
            // READY counts for jobs the recording saw finish, as the
            // comparison's recorded figure does (`ReplayTask::comparable_ready_ns`).
            if self.f.job_finished.get(self.global_job(i)).copied().unwrap_or(false) {
                self.out.tasks[i].ready_ns += now - self.ready_since[i];
            }
            self.n_ready -= 1;
            if self.s.timeline && now > self.ready_since[i] && to != State::Ready {
                self.out.ready_spans.push((i as u32, self.ready_since[i], now));
            }
        }
        if to == State::Ready {
            self.ready_since[i] = now;
            self.n_ready += 1;
            // A task made ready joins the back of its priority's queue; a
            // preempted one keeps its place ([`Sim::preempt`]).
            if !matches!(self.state[i], State::Running(_)) {
                self.enqueue(i);
                if self.ran_on[i] {
                    // Still the task its core runs: ahead of those waiting.
                    self.queued[i] = 0;
                }
                if !self.r.tasks[i].isr {
                    self.insert_in_list(i);
                }
            }
        }
        let active = |s: State| matches!(s, State::Ready | State::Running(_));
        if active(self.state[i])
            && !active(to)
            && let Some(lists) = self.lists.as_mut()
        {
            lists.remove(i);
        }
        match (active(self.state[i]), active(to)) {
            (false, true) => {
                self.active_at[i] = self.active.len() as u32;
                self.active.push(i as u32);
            }
            (true, false) => {
                let at = self.active_at[i] as usize;
                self.active.swap_remove(at);
                if let Some(&moved) = self.active.get(at) {
                    self.active_at[moved as usize] = at as u32;
                }
                self.active_at[i] = u32::MAX;
            }
            _ => {}
        }
        self.state[i] = to;
    }

    /// Recomputes the cached release time and next point of task `i`
    /// (after its phase, action index or fired signals changed).
    fn refresh(&mut self, i: usize) {
        let gj = self.f.job_base[i] as usize + self.job[i];
        if gj >= self.f.job_base[i + 1] as usize {
            return;
        }
        let g = self.f.job_phase[gj] as usize + self.phase[i];
        let at = match self.f.release[g] {
            SIGNALLED => self.fired[g],
            // A recorded delay includes the dispatch path.
            DELAYED => self.timer_release(i, g),
            // Ready throughout: it owes the switch instead.
            RESELECTED | CONTINUES => self.wait_from[i],
            _ => self.timer_release(i, g).saturating_add(self.timer_dispatch(i, g)),
        };
        self.rel[i] = if at == NOT_FIRED { NOT_FIRED } else { at.max(self.wait_from[i]) };
        if self.rel[i] != NOT_FIRED && self.state[i] == State::Waiting {
            self.releases.push(std::cmp::Reverse((self.rel[i], i as u32)));
        }
        let a = self.f.action_base[g] as usize + self.next_action[i];
        self.point[i] = if a < self.f.action_base[g + 1] as usize { self.f.actions[a].0 } else { self.f.exec[g] };
    }

    /// When the kernel made task `i`, released at `now`, ready: a signal as
    /// it was sent (or as the task's previous job ended, if later); a timer
    /// as it expired, the dispatch path before its release (a recorded
    /// delay holds that path, and the scheduler's start switches to its
    /// first task directly).
    fn made_ready_at(&self, i: usize, now: u64) -> u64 {
        let id = self.global_phase(i);
        match self.f.release[id] {
            SIGNALLED => self.made_ready[id].max(self.wait_from[i]),
            DELAYED | RESELECTED | CONTINUES => now,
            _ => now.saturating_sub(self.timer_dispatch(i, id)),
        }
    }

    /// What the kernel's dispatch path adds to task `i`'s timer release of
    /// phase `g`: none for an ISR, nor where the start of the scheduler
    /// switches to its first task directly.
    fn timer_dispatch(&self, i: usize, g: usize) -> u64 {
        if self.r.tasks[i].isr || self.starts_directly(i) { 0 } else { self.dispatch(g) }
    }

    /// What waking phase `g` on its core takes: its recorded wake, else the
    /// kernel's dispatch path.
    #[inline]
    fn dispatch(&self, g: usize) -> u64 {
        match self.f.local_wake[g] {
            flat::NO_WAKE => self.s.platform.costs.dispatch_ns.unwrap_or(0),
            w => w,
        }
    }

    /// When timed phase `g` of task `i` is released: its recorded time, its
    /// period after the replayed release of the task's previous job, or
    /// its delay after the end of the task's previous phase (for a phase
    /// ready throughout, where the switch back to it ends: its response
    /// counts from there, as recorded).
    #[inline]
    fn timer_release(&self, i: usize, g: usize) -> u64 {
        match self.f.release[g] {
            DELAYED | RESELECTED => self.wait_from[i].saturating_add(self.f.delay[g]),
            PERIODIC => self.period_from[i].saturating_add(self.f.delay[g]),
            at => at,
        }
    }

    /// Whether task `i`'s current phase is the first of the job that starts
    /// its core's scheduler directly.
    fn starts_directly(&self, i: usize) -> bool {
        self.starts_core[i] && self.job[i] == 0 && self.phase[i] == 0
    }

    /// The global index of task `i`'s current job.
    #[inline]
    fn global_job(&self, i: usize) -> usize {
        self.f.job_base[i] as usize + self.job[i]
    }

    /// The global id of task `i`'s current phase.
    #[inline]
    fn global_phase(&self, i: usize) -> usize {
        self.f.job_phase[self.global_job(i)] as usize + self.phase[i]
    }

    /// Release time of task i's current phase, if known.
    #[inline]
    fn release_time(&self, i: usize) -> u64 {
        self.rel[i]
    }

    /// Work left before the next point of interest (action or phase end).
    #[inline]
    fn work_to_next(&self, i: usize) -> u64 {
        self.owed[i] + self.point[i].saturating_sub(self.done[i])
    }

    /// How task `i` ranks for a core: ISRs above tasks; a running ISR that
    /// may not be preempted above every other ISR.
    fn urgency(&self, i: usize) -> (bool, i64) {
        let isr = self.r.tasks[i].isr;
        if isr && !self.r.rules.isr_nesting && matches!(self.state[i], State::Running(_)) {
            return (true, i64::MAX);
        }
        (isr, self.inherited[i])
    }

    /// Task `i`'s place among tasks of its urgency: first ready, first
    /// served, or as its ready list serves them.
    #[inline]
    fn queue_place(&self, i: usize) -> u64 {
        self.queued[i]
    }

    /// Task `i` goes behind every task queued so far.
    fn enqueue(&mut self, i: usize) {
        self.queued[i] = self.next_queued;
        self.next_queued += 1;
    }

    /// Task `i`, queued last, enters the ready list of its core and
    /// urgency, where the kernel serves from an index: it goes in before
    /// the index's task, which stays last. That task, where it still holds
    /// its core (running, or under an interrupt that switched no task),
    /// goes last as it leaves the core ([`Sim::preempt`]).
    fn insert_in_list(&mut self, i: usize) {
        let key = (self.home[i].unwrap_or(0), self.inherited[i]);
        if let Some(lists) = self.lists.as_mut()
            && let Some(x) = lists.insert(i, key)
            && self.state[x] == State::Ready
            && !self.isr_held[x]
        {
            self.enqueue(x);
        }
    }

    /// Task `i`, ready or running, moves to the ready list of its new
    /// urgency (a priority change), where the kernel serves from an index.
    fn relist(&mut self, i: usize) {
        if self.r.tasks[i].isr || !matches!(self.state[i], State::Ready | State::Running(_)) {
            return;
        }
        let key = (self.home[i].unwrap_or(0), self.inherited[i]);
        if self.lists.as_ref().is_some_and(|l| !l.is_in(i, key)) {
            self.enqueue(i);
            self.insert_in_list(i);
        }
    }

    /// The busy cores in core order, in the scratch buffer (to be given
    /// back to `scratch_cores`).
    fn busy_in_core_order(&mut self) -> Vec<usize> {
        let mut cores = std::mem::take(&mut self.scratch_cores);
        cores.clear();
        cores.extend(self.busy.iter().map(|&c| usize::from(c)));
        cores.sort_unstable();
        cores
    }

    fn run(&mut self) {
        let mut now = 0u64;
        loop {
            self.release(now);
            self.process_points(now);
            let next_release = self.release(now);
            if now >= self.next_up {
                // A core came up: it may take a task waiting ready.
                self.dirty = true;
                self.next_up = self.up.iter().copied().filter(|&at| at > now).min().unwrap_or(u64::MAX);
            }
            if !self.r.rules.multiple_priorities
                && self.busy.iter().any(|&c| self.running[usize::from(c)].is_some_and(|i| self.yield_at[i] == now))
            {
                self.dirty = true;
            }
            if let Some(slice) = self.r.rules.slice
                && slice.is_tick(now)
                && self.n_ready > 0
            {
                self.rotate(now);
            }
            if self.dirty {
                self.schedule(now);
                self.dirty = false;
                if let Some(h) = self.hook.as_deref_mut() {
                    h.settled(now, &self.running);
                }
            }
            // Next event: a running task's next point, a yield request's
            // arrival, or a release.
            let mut next = u64::MAX;
            for &c in &self.busy {
                let i = self.running[usize::from(c)].expect("a busy core runs a task");
                let work = self.work_to_next(i);
                let dt = self.time_for(work, c);
                next = next.min(now + dt.max(u64::from(work > 0)));
                if self.yield_at[i] != NOT_FIRED && self.yield_at[i] > now {
                    next = next.min(self.yield_at[i]);
                }
            }
            next = next.min(next_release);
            if self.n_ready > 0 {
                next = next.min(self.next_up);
            }
            if next == u64::MAX {
                if self.grant_a_stuck_take(now) {
                    continue;
                }
                break;
            }
            // A tick matters when a task waits ready while others run.
            if let Some(slice) = self.r.rules.slice
                && self.n_ready > 0
                && !self.busy.is_empty()
            {
                next = next.min(slice.next_after(now));
            }
            let dt = next - now;
            // Some core idle while a task waits ready: not work-conserving.
            if self.n_ready > 0 && self.busy.len() < self.k {
                self.out.non_work_conserving_ns += dt;
            }
            for b in 0..self.busy.len() {
                let c = self.busy[b];
                let i = self.running[usize::from(c)].expect("a busy core runs a task");
                let work = self.work_to_next(i);
                let ran = if now + self.time_for(work, c) <= next {
                    work
                } else {
                    let speed = self.speed(c);
                    if speed == 1.0 { dt.min(work) } else { (((dt as f64) * speed).floor() as u64).min(work) }
                };
                let from_owed = ran.min(self.owed[i]);
                self.owed[i] -= from_owed;
                self.done[i] += ran - from_owed;
            }
            now = next;
            if dt == 0 && !self.progress_possible() {
                break;
            }
        }
        self.out.makespan_ns = now;
    }

    /// Whether core `c` has come up by `now` for task `i` (an ISR runs
    /// before the scheduler does).
    #[inline]
    fn is_up(&self, c: usize, i: usize, now: u64) -> bool {
        self.up[c] <= now || self.r.tasks[i].isr
    }

    /// Whether a zero-length step can still change something (guards
    /// against a livelock on inconsistent input).
    fn progress_possible(&self) -> bool {
        (0..self.r.tasks.len()).any(|i| match self.state[i] {
            State::Running(_) => self.work_to_next(i) == 0,
            State::Waiting => self.release_time(i) != NOT_FIRED,
            _ => false,
        })
    }

    /// Waiting tasks whose release has come become ready; returns the
    /// earliest release still to come (`u64::MAX`: none known).
    fn release(&mut self, now: u64) -> u64 {
        // Due releases, in task order (the least-loaded policy's choice of
        // core depends on the tasks released before).
        let mut due = std::mem::take(&mut self.due);
        due.clear();
        while let Some(&std::cmp::Reverse((at, i))) = self.releases.peek() {
            let i = i as usize;
            if self.state[i] != State::Waiting || self.rel[i] != at {
                // Stale: released already, or its release time changed.
                self.releases.pop();
                continue;
            }
            if at > now {
                break;
            }
            self.releases.pop();
            due.push(i);
        }
        // Tasks released together are readied in the order they went to
        // wait: kernels keep equal wake times first come, first served
        // (FreeRTOS `vListInsert`, Zephyr's timeout list, RT-Thread's timer
        // list), as their event lists keep equal waiters.
        due.sort_unstable_by_key(|&i| (self.rel[i], self.made_ready_at(i, self.rel[i]), self.wait_from[i], i));
        due.dedup();
        for &i in &due {
            let at = self.rel[i];
            self.set_state(i, State::Ready, now);
            let id = self.global_phase(i);
            // Its sender's core switches last (one priority at a time).
            if let Some(&c) = self.waker.get(id)
                && c != NO_CORE
            {
                self.calling[usize::from(c)] = now;
            }
            // The kernel made the task ready before it was eligible: a
            // wake's latency (the dispatch path, the other core's
            // interrupt and scheduler) is READY, as a recorder shows it
            // (ready event to switch-in).
            self.ready_since[i] = self.ready_since[i].min(self.made_ready_at(i, now));
            self.dirty = true;
            let (released, signal_cost, bytes_cost) = self.release_of(i, at);
            self.charge(i, signal_cost, |o| &mut o.signal_ns);
            self.charge(i, bytes_cost, |o| &mut o.bytes_ns);
            if self.f.release[id] == RESELECTED {
                // The kernel's switch back to it, as recorded.
                self.charge_switch(i, self.f.delay[id]);
            }
            let new_job = self.phase[i] == 0;
            self.tell(|h| h.released(now, i, new_job, None));
            if new_job && self.f.release[id] != CONTINUES {
                // Release to finish: from the recorded time or the send,
                // so that a cross-core latency and a backlog behind the
                // task's own previous job count in the response.
                self.job_release[i] = released;
                let gj = self.global_job(i);
                if let Some(t) = self.job_times.get_mut(gj) {
                    t.release = released;
                }
                if self.s.policy == Policy::SmpLeastLoaded && !self.r.tasks[i].isr {
                    self.home[i] = Some(self.least_loaded());
                    self.charge(i, self.s.platform.costs.schedule_ns, |o| &mut o.scheduling_ns);
                }
            }
        }
        self.due = due;
        if self.n_pending > 0 {
            self.pending_choices(now);
        }
        // The earliest release still to come.
        while let Some(&std::cmp::Reverse((at, i))) = self.releases.peek() {
            let i = i as usize;
            if self.state[i] == State::Waiting && self.rel[i] == at {
                return at;
            }
            self.releases.pop();
        }
        u64::MAX
    }

    /// When task `i`'s current phase was released (its timer, or when its
    /// signal was sent; `at` if unknown), and the CPU time its signal's
    /// arrival costs (interrupt, bytes).
    fn release_of(&self, i: usize, at: u64) -> (u64, u64, u64) {
        let id = self.global_phase(i);
        match self.f.release[id] {
            SIGNALLED => {
                let (signal, bytes) = self.arrival_cost[id];
                (self.sent[id].min(at), signal, bytes)
            }
            CONTINUES => (self.job_release[i], 0, 0),
            _ => (self.timer_release(i, id), 0, 0),
        }
    }

    /// Task `i` owes `ns` of modelled overhead, counted under `cause`.
    fn charge(&mut self, i: usize, ns: u64, cause: impl Fn(&mut Overheads) -> &mut u64) {
        if ns > 0 {
            self.owed[i] += ns;
            self.overhead[i] += ns;
            *cause(&mut self.out.overheads) += ns;
        }
    }

    fn least_loaded(&self) -> u16 {
        let mut queued = vec![0u64; self.k];
        for j in 0..self.r.tasks.len() {
            if let (State::Ready | State::Running(_), Some(h)) = (self.state[j], self.home[j]) {
                queued[usize::from(h)] += self.work_to_next(j);
            }
        }
        (0..self.k).min_by_key(|&c| (queued[c], c)).unwrap_or(0) as u16
    }

    /// Running tasks at an action offset or a phase end act, one point
    /// each: a signal that readies a more urgent task preempts the sender
    /// before its next point, as the kernel does inside the send call.
    fn process_points(&mut self, now: u64) {
        {
            // In core order: what one core's task does at this instant
            // (a signal, a take) comes before the next core's.
            let cores = self.busy_in_core_order();
            for &c in &cores {
                let Some(i) = self.running[c] else { continue };
                let State::Running(core) = self.state[i] else { continue };
                if self.work_to_next(i) > 0 {
                    continue;
                }
                self.dirty = true;
                let g = self.global_phase(i);
                let a = self.f.action_base[g] as usize + self.next_action[i];
                // The task the kernel chose on this core as the phase ends.
                let mut hand_to = None;
                if a < self.f.action_base[g + 1] as usize {
                    let action = self.f.actions[a].1;
                    let at = (self.job[i], self.phase[i], self.next_action[i]);
                    self.next_action[i] += 1;
                    self.refresh(i);
                    let lock = &self.s.platform.costs.lock;
                    let hold = match action {
                        Action::Signal { .. } => lock.signal_ns,
                        Action::HandOff { .. } | Action::Yield { .. } | Action::Next { .. } => 0,
                        // A queue's send and receive are its give and take.
                        Action::Take(_) | Action::Receive(_) => lock.take_ns,
                        Action::Give(_) | Action::Send(_) => lock.give_ns,
                        Action::SetPriority { .. } => 0,
                        Action::Logged => lock.logged_ns,
                    };
                    self.enter_kernel(i, hold, now);
                    match action {
                        Action::Signal { target, job, phase, bytes } => {
                            self.tell(|h| h.acted(now, i, at, action, false));
                            self.signal(now, (i, core), target, job, phase, bytes)
                        }
                        Action::Yield { target } => {
                            self.tell(|h| h.acted(now, i, at, action, false));
                            self.yield_to(i, target as usize, now);
                        }
                        Action::Next { target } => {
                            self.tell(|h| h.acted(now, i, at, action, false));
                            hand_to = Some(target as usize);
                        }
                        Action::HandOff { target, job, phase, preempts } => {
                            self.tell(|h| h.acted(now, i, at, action, false));
                            self.hand_off(now, target, job, phase);
                            if preempts {
                                self.yield_to(i, target as usize, now);
                            } else {
                                hand_to = Some(target as usize);
                            }
                        }
                        Action::Take(obj) => {
                            let blocked = self.take(i, core, obj, now);
                            self.tell(|h| h.acted(now, i, at, action, blocked));
                        }
                        Action::Give(obj) => {
                            self.tell(|h| h.acted(now, i, at, action, false));
                            self.give(obj, i, now)
                        }
                        Action::Send(obj) | Action::Receive(obj) if self.r.capacity[obj as usize] > 0 => {
                            self.bounded_queue_call(i, core, action, at, now);
                        }
                        Action::Send(_) | Action::Receive(_) => self.tell(|h| h.acted(now, i, at, action, false)),
                        // Its hold above is all it does.
                        Action::Logged => {}
                        Action::SetPriority { task, priority } => {
                            self.tell(|h| h.acted(now, i, at, action, false));
                            let u = i64::from(priority);
                            let ends_phase = self.work_to_next(i) == 0 && a + 1 >= self.f.action_base[g + 1] as usize;
                            if task as usize == i && u < self.base[i] && ends_phase {
                                // It yields on leaving the call, which the
                                // recording shows as its switch-out: here
                                // the end of its phase.
                                self.lowered[i] = Some(u);
                            } else {
                                self.set_priority(task as usize, u);
                            }
                        }
                    }
                    // The kernel's choice takes the core where the task
                    // leaves it here (its phase ends at this action).
                    if self.work_to_next(i) > 0 || a + 1 < self.f.action_base[g + 1] as usize {
                        hand_to = None;
                    }
                    if hand_to.is_none() {
                        continue;
                    }
                }
                let runs_on = hand_to.is_none() && self.lowered[i].is_none() && self.runs_on(i, g, now);
                // End of the phase.
                self.stop(i, now);
                if let Some(u) = self.lowered[i].take() {
                    self.set_priority(i, u);
                }
                let gj = self.global_job(i);
                let job_done = self.f.job_phase[gj] as usize + self.phase[i] + 1 >= self.f.job_phase[gj + 1] as usize;
                self.tell(|h| h.switched_out(now, core, i, Out::PhaseEnd { job_done }));
                if !job_done {
                    self.phase[i] += 1;
                } else {
                    // A job the task runs straight on from counts with the
                    // next.
                    let continues = self.f.release.get(self.f.job_phase[gj + 1] as usize) == Some(&CONTINUES);
                    if self.f.job_finished[gj] && !continues {
                        if self.f.job_counted[gj] {
                            self.responses[i].push(now - self.job_release[i]);
                        }
                        if let Some(t) = self.job_times.get_mut(gj) {
                            t.finish = now;
                        }
                    }
                    self.phase[i] = 0;
                    self.job[i] += 1;
                    self.period_from[i] = self.job_release[i];
                    if self.s.policy == Policy::SmpLeastLoaded && !self.r.tasks[i].isr {
                        self.home[i] = None;
                    }
                }
                self.done[i] = 0;
                self.next_action[i] = 0;
                self.wait_from[i] = now;
                let jobs = (self.f.job_base[i + 1] - self.f.job_base[i]) as usize;
                let next = if self.job[i] >= jobs { State::Done } else { State::Waiting };
                self.set_state(i, next, now);
                self.refresh(i);
                if runs_on && next == State::Waiting {
                    self.rel[i] = now;
                    self.releases.push(std::cmp::Reverse((now, i as u32)));
                    self.ran_on[i] = true;
                }
                if job_done {
                    self.end_span(i, gj, now);
                }
                if let Some(t) = hand_to {
                    self.hand_core(t, core, now);
                }
            }
            self.scratch_cores = cores;
        }
    }

    /// Task `i` ended its job `gj` (global index) at `now`, its next one
    /// waiting: unless that one is released already (it would not block)
    /// and is no yield (a yield leaves the core as a block does: a recorder
    /// cuts there), its span ends.
    #[inline(never)]
    fn end_span(&mut self, i: usize, gj: usize, now: u64) {
        let span = &mut self.span_from[i];
        if span.0 == NOT_FIRED {
            *span = (self.job_release[i], true);
        }
        span.1 &= self.f.job_finished[gj] && self.f.job_counted[gj];
        if self.state[i] == State::Waiting && self.rel[i] <= now && self.f.release[self.global_phase(i)] != RESELECTED {
            return;
        }
        let (from, counted) = std::mem::replace(&mut self.span_from[i], (NOT_FIRED, true));
        if counted {
            let spans = &mut self.out.tasks[i].spans;
            spans.count += 1;
            spans.total_ns += now - from;
        }
    }

    /// Task `i` on `core` sends to or receives from a bounded queue: a send
    /// takes a free place, blocking while there is none; a receive gives
    /// one back.
    #[cold]
    #[inline(never)]
    fn bounded_queue_call(&mut self, i: usize, core: u16, action: Action, at: (usize, usize, usize), now: u64) {
        match action {
            Action::Send(obj) => {
                let blocked = self.take(i, core, obj, now);
                self.tell(|h| h.acted(now, i, at, action, blocked));
                if !blocked {
                    self.deliver(obj, now);
                }
            }
            Action::Receive(obj) if self.own_blocks && self.items[obj as usize] == 0 => {
                self.block(i, core, State::Receiving(obj), now);
                self.tell(|h| h.acted(now, i, at, action, true));
            }
            Action::Receive(obj) => {
                self.tell(|h| h.acted(now, i, at, action, false));
                self.items[obj as usize] = self.items[obj as usize].saturating_sub(1);
                self.give(obj, i, now);
            }
            _ => unreachable!("only queue calls"),
        }
    }

    /// Running task `i` on `core` blocks inside its phase at `now`, in
    /// `state`.
    fn block(&mut self, i: usize, core: u16, state: State, now: u64) {
        self.stop(i, now);
        self.tell(|h| h.switched_out(now, core, i, Out::Blocked));
        self.cut_job(i, now);
        self.set_state(i, state, now);
        self.enqueue(i);
    }

    /// A send's item arrives in queue `obj` at `now` (where the replay
    /// counts them, [`Sim::own_blocks`]): its most urgent waiting
    /// receiver (the first to wait among equals) takes it and frees its
    /// place, else the queue holds it.
    pub(super) fn deliver(&mut self, obj: u32, now: u64) {
        if !self.own_blocks {
            return;
        }
        let receiver = (0..self.r.tasks.len())
            .filter(|&j| self.state[j] == State::Receiving(obj))
            .max_by_key(|&j| (self.urgency(j), std::cmp::Reverse(self.queued[j])));
        match receiver {
            Some(j) => {
                self.set_state(j, State::Ready, now);
                self.resume_job(j, now);
                self.tell(|h| h.released(now, j, false, None));
                self.give(obj, j, now);
            }
            None => {
                let cap = self.r.capacity[obj as usize];
                let n = &mut self.items[obj as usize];
                *n = (*n + 1).min(cap.max(1));
            }
        }
    }

    /// Task `i` blocks inside its job at `now` (a take, a send to a full
    /// queue, a receive from an empty one) where the replay makes its own
    /// blocks ([`Sim::own_blocks`]) and the recording cut the task's jobs
    /// where it blocked: a recorder cuts its job and its span there, and
    /// the next runs from the call that readies it ([`Sim::resume_job`]).
    fn cut_job(&mut self, i: usize, now: u64) {
        if !self.own_blocks || !self.r.tasks[i].jobs_end_at_blocks {
            return;
        }
        let gj = self.global_job(i);
        if self.f.job_counted[gj] {
            self.responses[i].push(now - self.job_release[i]);
        }
        let (from, counted) = std::mem::replace(&mut self.span_from[i], (NOT_FIRED, true));
        let from = if from == NOT_FIRED { self.job_release[i] } else { from };
        if counted && self.f.job_counted[gj] {
            let spans = &mut self.out.tasks[i].spans;
            spans.count += 1;
            spans.total_ns += now - from;
        }
    }

    /// Task `j`, blocked inside its job, is made ready at `now`: where
    /// [`Sim::cut_job`] cut its job, the next runs from here.
    pub(super) fn resume_job(&mut self, j: usize, now: u64) {
        if self.own_blocks && self.r.tasks[j].jobs_end_at_blocks {
            self.job_release[j] = now;
            self.span_from[j] = (now, true);
        }
    }

    /// Running task `i` takes `obj`; returns whether it blocked (a
    /// semaphore with no token left, a mutex another task holds).
    fn take(&mut self, i: usize, core: u16, obj: u32, now: u64) -> bool {
        let o = obj as usize;
        let free = if self.r.mutexes[o] {
            match self.holder[o] {
                Some(h) if h as usize != i => false,
                _ => {
                    self.holder[o] = Some(i as u32);
                    true
                }
            }
        } else if self.tokens[o] > 0 {
            self.tokens[o] -= 1;
            true
        } else {
            false
        };
        if free {
            return false;
        }
        self.block(i, core, State::Blocked(obj), now);
        if self.r.mutexes[o] {
            self.lend(i, obj);
        }
        true
    }

    fn signal(&mut self, now: u64, (from, core): (usize, u16), target: u32, job: u32, phase: u32, bytes: u32) {
        let t = target as usize;
        let job = if job == NEXT_JOB {
            let next = self.next_signalled[t];
            if next as usize >= self.f.job_base[t + 1] as usize - self.f.job_base[t] as usize {
                // Every job it has is released already: nothing to release.
                return;
            }
            self.next_signalled[t] += 1;
            next
        } else {
            job
        };
        let Some(id) = self.unfired(t, job, phase) else { return };
        if !self.r.tasks[from].isr
            && let Some(w) = self.waker.get_mut(id)
        {
            *w = core;
        }
        let dest = self.home[t].or(self.last_core[t]).unwrap_or(core);
        let distance = if self.k > 1 { self.s.platform.distance(usize::from(core), usize::from(dest)) } else { 0 };
        let costs = &self.s.platform.costs;
        let delay = if distance > 0 {
            self.out.cross_core_messages += 1;
            let bytes_ns = (distance as f64 * f64::from(bytes) * costs.byte_ns).round() as u64;
            self.arrival_cost[id] = (costs.message_cpu_ns, bytes_ns);
            match self.f.cross_wake[id] {
                // On a chip of one distance, the wake as recorded across cores.
                w if self.uniform && w != flat::NO_WAKE => w,
                _ => distance * costs.message_latency_ns,
            }
        } else if self.r.tasks[t].isr {
            0
        } else {
            // A local wake goes through the kernel's dispatch path.
            self.dispatch(id)
        };
        let travel = if distance > 0 && !self.uniform { delay } else { 0 };
        self.fire(id, (t, job, phase), now, (travel, delay));
        if self.s.timeline {
            self.out.flows.push(Flow {
                from_task: from as u32,
                from_core: core,
                at_ns: now,
                to_task: target,
                arrive_ns: now + delay,
            });
        }
    }

    /// A task leaves its core to `target`'s phase: released there,
    /// through the kernel's dispatch path (no message crosses cores).
    fn hand_off(&mut self, now: u64, target: u32, job: u32, phase: u32) {
        let t = target as usize;
        let Some(id) = self.unfired(t, job, phase) else { return };
        self.fire(id, (t, job, phase), now, (0, self.dispatch(id)));
    }

    /// The global id of task `t`'s phase `phase` of job `job`, unless a
    /// signal or hand-off released it already (another changes nothing).
    fn unfired(&self, t: usize, job: u32, phase: u32) -> Option<usize> {
        let id = self.f.job_phase[self.f.job_base[t] as usize + job as usize] as usize + phase as usize;
        (self.fired[id] == NOT_FIRED).then_some(id)
    }

    /// Phase `id` (task `t`'s `job`, `phase`) is released, sent at `now`,
    /// made ready `travel` later (a message's travel), eligible `delay`
    /// later.
    fn fire(&mut self, id: usize, (t, job, phase): (usize, u32, u32), now: u64, (travel, delay): (u64, u64)) {
        self.fired[id] = now + delay;
        self.sent[id] = now;
        self.made_ready[id] = now + travel;
        if self.job[t] == job as usize && self.phase[t] == phase as usize {
            self.refresh(t);
        }
    }

    fn stop(&mut self, i: usize, now: u64) {
        if let State::Running(c) = self.state[i] {
            let ran = now - self.seg_start[i];
            self.out.tasks[i].running_ns += ran;
            self.out.core_busy_ns[usize::from(c)] += ran;
            if self.s.timeline && ran > 0 {
                self.out.timeline.push(Segment { core: c, task: i as u32, start_ns: self.seg_start[i], end_ns: now });
            }
            self.running[usize::from(c)] = None;
            self.handed[i] = false;
            if self.switch_cost > 0 {
                self.left[usize::from(c)] = Some((i, now));
            }
            let at = self.busy_at[usize::from(c)] as usize;
            self.busy.swap_remove(at);
            if let Some(&moved) = self.busy.get(at) {
                self.busy_at[usize::from(moved)] = at as u32;
            }
            self.busy_at[usize::from(c)] = u32::MAX;
            self.set_state(i, State::Ready, now);
        }
    }

    /// Task `i` enters the SMP kernel at `now` on a target of several
    /// cores: it spins, running, while another core holds the lock, then
    /// holds it for `hold`.
    fn enter_kernel(&mut self, i: usize, hold: u64, now: u64) {
        if hold == 0 || self.k < 2 {
            return;
        }
        let from = now.max(self.lock_free_at);
        self.lock_free_at = from + hold;
        self.charge(i, from - now + hold, |o| &mut o.lock_ns);
    }

    /// Whether task `i`, whose phase (global `g`) ends at `now` where the
    /// recording blocked, runs on instead: its next phase is released by a
    /// signal sent already (the give, send or notification it blocked for
    /// came first here), so the call it blocked in finds what it waited
    /// for and the kernel never switches it out.
    fn runs_on(&self, i: usize, g: usize, now: u64) -> bool {
        // One core replays the recorded order: a task's sender ran before
        // it only where the recording shows it.
        if self.k < 2 || self.r.tasks[i].isr {
            return false;
        }
        let last = self.f.job_phase[self.f.job_base[i + 1] as usize] as usize;
        g + 1 < last
            && (self.f.release[g + 1] == CONTINUES || self.f.release[g + 1] == SIGNALLED && self.sent[g + 1] <= now)
    }

    /// Task `i` starts on `core` at `now`: straight after another task
    /// left it, it pays a context switch; so it does as the core comes up
    /// running a task the recording never shows switched in
    /// ([`Replay::cores_up_running`]: FreeRTOS SMP's core 1, up on its idle
    /// task, first switched 15 µs after that task's switch-out), no task
    /// having left it yet.
    #[cold]
    #[inline(never)]
    fn context_switch(&mut self, i: usize, core: u16, now: u64) {
        let c = usize::from(core);
        let from_task = self.left[c].is_some_and(|(j, at)| at == now && j != i && !self.r.tasks[j].isr);
        let from_unrecorded =
            self.left[c].is_none() && now == self.up[c] && self.r.cores_up_running.get(c) == Some(&true);
        if from_task || from_unrecorded {
            self.charge_switch(i, self.switch_cost);
        }
    }

    /// Task `i` owes a context switch of `ns`: overhead, and its own figure.
    fn charge_switch(&mut self, i: usize, ns: u64) {
        self.charge(i, ns, |o| &mut o.context_switch_ns);
        self.switched[i] += ns;
    }

    fn start(&mut self, i: usize, core: u16, now: u64) {
        let ran_on = std::mem::take(&mut self.ran_on[i]) && now == self.wait_from[i];
        if !self.r.tasks[i].isr && !ran_on {
            self.enter_kernel(i, self.s.platform.costs.lock.switch_ns, now);
            if self.switch_cost > 0 {
                self.context_switch(i, core, now);
            }
        }
        if !self.r.tasks[i].isr
            && let Some(x) = self.interrupted[usize::from(core)].take()
            && x != i
            && self.state[x] == State::Ready
        {
            // The task an interrupt left ready here is preempted by `i`:
            // READY from now.
            self.isr_held[x] = false;
            self.ready_since[x] = now;
            if self.r.rules.preempted_to_back {
                self.enqueue(x);
            }
        }
        if let Some(last) = self.last_core[i]
            && last != core
        {
            self.out.tasks[i].migrations += 1;
            self.out.migrations += 1;
            self.charge(i, self.migration_cost[i], |o| &mut o.migration_ns);
        }
        if self.floats[i] && self.s.policy != Policy::SmpLeastLoaded {
            self.charge(i, self.s.platform.costs.schedule_ns, |o| &mut o.scheduling_ns);
        }
        self.last_core[i] = Some(core);
        if let Some(lists) = self.lists.as_mut()
            && lists.listed(i)
        {
            lists.selected(i);
            self.enqueue(i);
        }
        let gj = self.global_job(i);
        if let Some(t) = self.job_times.get_mut(gj)
            && t.start == NEVER
        {
            t.start = now;
        }
        if self.s.timeline && self.started[i] != self.job[i] {
            self.started[i] = self.job[i];
            self.out.job_starts.push((i as u32, self.job[i] as u32, self.job_release[i], now));
        }
        self.set_state(i, State::Running(core), now);
        if self.running[usize::from(core)].is_none() {
            self.busy_at[usize::from(core)] = self.busy.len() as u32;
            self.busy.push(core);
        }
        self.running[usize::from(core)] = Some(i);
        self.seg_start[i] = now;
        self.tell(|h| h.switched_in(now, core, i));
    }

    fn finish(mut self) -> Outcome {
        let now = self.out.makespan_ns;
        for i in 0..self.r.tasks.len() {
            self.stop(i, now);
            if self.state[i] == State::Ready {
                self.set_state(i, State::Done, now);
            }
        }
        let mut all = Vec::new();
        let mut jobs = 0;
        for (i, res) in self.out.tasks.iter_mut().enumerate() {
            let mut r = std::mem::take(&mut self.responses[i]);
            jobs += r.len() as u64;
            res.jobs = r.len() as u64;
            all.extend_from_slice(&r);
            if let Some(stats) = ResponseStats::of(&mut r) {
                res.response_mean_ns = Some(stats.mean_ns);
                res.response_p95_ns = Some(stats.p95_ns);
                res.response_max_ns = Some(stats.max_ns);
                res.response_quartiles_ns = Some(quartiles(&r));
                if let Some(d) = self.r.tasks[i].deadline_ns {
                    res.deadline_misses = Some(r.iter().filter(|&&x| x > d).count() as u64);
                    res.lateness_ns = Some(r.iter().map(|&x| x.saturating_sub(d)).sum());
                }
            }
            res.overhead_ns = self.overhead[i];
            res.context_switch_ns = self.switched[i];
            self.out.running_ns += res.running_ns;
            self.out.ready_ns += res.ready_ns;
        }
        self.out.response_mean_ns =
            if all.is_empty() { 0.0 } else { all.iter().sum::<u64>() as f64 / all.len() as f64 };
        self.out.overhead_ns = self.out.overheads.total();
        let span = now.max(1) as f64;
        self.out.core_busy = self.out.core_busy_ns.iter().map(|&b| b as f64 / span).collect();
        self.out.throughput_jobs_per_s = jobs as f64 * 1e9 / span;
        self.out.sustained_rate = (self.r.duration_ns as f64 / span).min(1.0);
        self.out.timeline.sort_by_key(|s| (s.start_ns, s.core));
        self.out.chains = self.r.chains.iter().map(|c| c.measure(self.r, &self.f.job_base, &self.job_times)).collect();
        self.out
    }
}
