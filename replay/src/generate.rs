//! Trace generation: runs a [`Workload`] through a single-core, fixed-priority
//! preemptive scheduler and records what an RTOS trace hook would print.
//!
//! The scheduler model (the one documented in the book's replay page):
//! - the most urgent ready task runs; equal priorities do not preempt each
//!   other (no time slicing) and are served first-ready-first;
//! - ISRs preempt any task, run to completion and do not nest; a pending ISR
//!   of higher priority goes first;
//! - mutexes use priority inheritance and are handed to the most urgent
//!   waiter on release;
//! - a release that arrives while the task is busy is queued (counted) and
//!   starts a new job as soon as the current one finishes.

use corera_trace_ingest::{Clock, Event, EventKind, NONE, Object, ObjectKind, Task, TaskKind, Trace};

use crate::workload::{Release, Resolved, Step, Workload, WorkloadError};
use corera_placement::rng::SplitMix64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Waiting for its next activation.
    Dormant,
    Ready,
    Running,
    /// Waiting for a mutex, mid-job.
    Blocked,
}

#[derive(Clone, Debug)]
struct Job {
    exec: u64,
    done: u64,
    /// (offset into the job in ns, step), in order.
    steps: Vec<(u64, Step)>,
    next: usize,
    started: bool,
    take_on_resume: Option<usize>,
}

#[derive(Clone, Debug)]
struct TaskState {
    state: State,
    pending: u32,
    jobs: u64,
    job: Option<Job>,
    ready_seq: u64,
    next_release: u64,
    nominal_release: u64,
}

/// The single-core scheduler and the trace it records.
struct Machine<'w> {
    w: &'w Resolved,
    rng: SplitMix64,
    quantum: u64,
    t: u64,
    tasks: Vec<TaskState>,
    /// The switched-in task (`None`: none, or the idle task).
    current: Option<usize>,
    /// Whether the idle task is switched in.
    idle_in: bool,
    /// The ISR executing now, if any.
    isr: Option<usize>,
    pending_isrs: Vec<usize>,
    queues: Vec<std::collections::VecDeque<u32>>,
    holder: Vec<Option<usize>>,
    waiters: Vec<Vec<usize>>,
    seq: u64,
    events: Vec<Event>,
    idle: u32,
    /// Next member of each round-robin group.
    turn: Vec<usize>,
}

/// Generates the trace of `workload` run on one core.
///
/// Task `i` of the workload becomes task id `i` with handle `i + 1`; the idle
/// task is last, with handle 0. Queues and mutexes become objects.
///
/// # Errors
/// [`WorkloadError::Invalid`] when the workload is inconsistent.
pub fn generate(workload: &Workload) -> Result<Trace, WorkloadError> {
    let w = workload.resolve()?;
    let (clock, quantum) = if workload.clock == "ns" { (Clock::Ns, 1) } else { (Clock::Us, 1000) };
    let mut trace = Trace::new(clock);
    trace.os = Some(corera_trace_ingest::Os::CoreraGen);
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
    let mut m = Machine {
        w: &w,
        rng: SplitMix64::new(workload.seed),
        quantum,
        t: 0,
        tasks: Vec::new(),
        current: None,
        idle_in: false,
        isr: None,
        pending_isrs: Vec::new(),
        queues: vec![Default::default(); w.queues.len()],
        holder: vec![None; w.mutexes.len()],
        waiters: vec![Vec::new(); w.mutexes.len()],
        seq: 0,
        events: Vec::new(),
        idle: w.tasks.len() as u32,
        turn: vec![0; w.turns.len()],
    };
    for t in &w.tasks {
        let first = match t.release {
            Release::Periodic { offset_ns, .. } => offset_ns,
            _ => u64::MAX,
        };
        m.tasks.push(TaskState {
            state: State::Dormant,
            pending: 0,
            jobs: 0,
            job: None,
            ready_seq: 0,
            next_release: first,
            nominal_release: first,
        });
    }
    for i in 0..w.tasks.len() {
        m.jitter(i);
    }
    m.run(workload.duration_ms * 1_000_000);
    trace.events = m.events.into_iter().collect();
    Ok(trace)
}

impl Machine<'_> {
    fn emit(&mut self, kind: EventKind, task: usize) -> &mut Event {
        self.events.push(Event::new(self.t, 0, kind, task as u32));
        self.events.last_mut().expect("just pushed")
    }

    /// Sets `next_release` to the nominal release plus a jitter draw.
    fn jitter(&mut self, i: usize) {
        if let Release::Periodic { jitter_ns, .. } = self.w.tasks[i].release {
            let nominal = self.tasks[i].nominal_release;
            let draw = if jitter_ns > 0 { self.rng.below(jitter_ns / self.quantum + 1) * self.quantum } else { 0 };
            self.tasks[i].next_release = nominal.saturating_add(draw);
        }
    }

    fn run(&mut self, end: u64) {
        self.idle_in = true;
        self.emit(EventKind::SwitchIn, self.idle as usize);
        loop {
            self.release_due();
            self.dispatch();
            if self.step_due() {
                continue;
            }
            let next_timer = self.tasks.iter().map(|t| t.next_release).min().unwrap_or(u64::MAX);
            let mut next = next_timer.min(end);
            let running = self.isr.or(self.current);
            if let Some(r) = running {
                let job = self.tasks[r].job.as_ref().expect("a running task has a job");
                let point = job.steps.get(job.next).map_or(job.exec, |s| s.0);
                next = next.min(self.t + (point - job.done));
            }
            if let Some(r) = running {
                let job = self.tasks[r].job.as_mut().expect("a running task has a job");
                job.done += next - self.t;
            }
            self.t = next;
            if self.t >= end {
                break;
            }
        }
    }

    fn release_due(&mut self) {
        for i in 0..self.tasks.len() {
            while self.tasks[i].next_release <= self.t {
                if let Release::Periodic { period_ns, .. } = self.w.tasks[i].release {
                    self.tasks[i].nominal_release += period_ns;
                    self.jitter(i);
                }
                self.activate(i, None);
            }
        }
    }

    /// One more job for task `i`, woken by `waker` if given.
    fn activate(&mut self, i: usize, waker: Option<usize>) {
        if self.w.tasks[i].isr {
            if self.isr == Some(i) || self.pending_isrs.contains(&i) {
                self.tasks[i].pending += 1;
            } else {
                self.pending_isrs.push(i);
            }
            return;
        }
        if self.tasks[i].state != State::Dormant {
            self.tasks[i].pending += 1;
            return;
        }
        if let Some(w) = waker {
            self.emit(EventKind::Wakeup, w).peer = i as u32;
        }
        self.start_job(i);
    }

    fn start_job(&mut self, i: usize) {
        let spec = &self.w.tasks[i];
        let q = self.quantum;
        let exec = (spec.exec_ns[0] / q + self.rng.below((spec.exec_ns[1] - spec.exec_ns[0]) / q + 1)) * q;
        let n = self.tasks[i].jobs;
        let mut steps = Vec::new();
        for s in spec.steps.iter().filter(|s| n % u64::from(s.every) == u64::from(s.every) - 1) {
            let mut next = |group: usize| {
                let members = &self.w.turns[group];
                let member = members[self.turn[group] % members.len()];
                self.turn[group] += 1;
                member
            };
            let step = match s.step {
                Step::SendTurn { group, bytes } => Step::Send { queue: next(group), bytes },
                Step::NotifyTurn(group) => Step::Notify(next(group)),
                step => step,
            };
            steps.push((((s.at * exec as f64) as u64 / q * q).min(exec), step));
        }
        let ts = &mut self.tasks[i];
        ts.jobs += 1;
        ts.job = Some(Job { exec, done: 0, steps, next: 0, started: false, take_on_resume: None });
        if spec.isr {
            return;
        }
        ts.state = State::Ready;
        self.seq += 1;
        ts.ready_seq = self.seq;
        self.emit(EventKind::Ready, i);
    }

    fn priority(&self, i: usize, depth: u32) -> i32 {
        let mut p = self.w.tasks[i].priority;
        if depth < 8 {
            for (m, holder) in self.holder.iter().enumerate() {
                if *holder == Some(i) {
                    for &w in &self.waiters[m] {
                        p = p.max(self.priority(w, depth + 1));
                    }
                }
            }
        }
        p
    }

    fn dispatch(&mut self) {
        if self.isr.is_some() {
            return;
        }
        if !self.pending_isrs.is_empty() {
            let best = (0..self.pending_isrs.len())
                .max_by_key(|&k| (self.w.tasks[self.pending_isrs[k]].priority, std::cmp::Reverse(k)))
                .expect("not empty");
            let i = self.pending_isrs.remove(best);
            self.start_job(i);
            self.isr = Some(i);
            self.emit(EventKind::IsrEnter, i);
            return;
        }
        let best = (0..self.tasks.len())
            .filter(|&i| self.tasks[i].state == State::Ready)
            .max_by_key(|&i| (self.priority(i, 0), std::cmp::Reverse(self.tasks[i].ready_seq)));
        let Some(best) = best else {
            if self.current.is_none() && !self.idle_in {
                self.idle_in = true;
                self.emit(EventKind::SwitchIn, self.idle as usize);
            }
            return;
        };
        match self.current {
            Some(c) if self.priority(c, 0) >= self.priority(best, 0) => return,
            Some(c) => {
                self.emit(EventKind::Preempted, c);
                self.tasks[c].state = State::Ready;
                self.seq += 1;
                self.tasks[c].ready_seq = self.seq;
            }
            None if self.idle_in => {
                self.idle_in = false;
                self.emit(EventKind::Preempted, self.idle as usize);
            }
            None => {}
        }
        self.current = Some(best);
        self.tasks[best].state = State::Running;
        self.emit(EventKind::SwitchIn, best);
        let job = self.tasks[best].job.as_mut().expect("a ready task has a job");
        let first = !job.started;
        job.started = true;
        let take = job.take_on_resume.take();
        if first && let Release::Queue(q) = self.w.tasks[best].release {
            let bytes = self.queues[q].pop_front().expect("a queue-triggered job has a message");
            let e = self.emit(EventKind::Receive, best);
            e.object = q as u32;
            e.bytes = bytes;
        }
        if let Some(m) = take {
            let obj = self.mutex_object(m);
            self.emit(EventKind::Take, best).object = obj;
        }
    }

    fn mutex_object(&self, m: usize) -> u32 {
        (self.w.queues.len() + m) as u32
    }

    /// Performs the next step of the running job if it is due now, or
    /// completes the job. Returns whether anything happened.
    fn step_due(&mut self) -> bool {
        let Some(r) = self.isr.or(self.current) else {
            return false;
        };
        let job = self.tasks[r].job.as_mut().expect("a running task has a job");
        if let Some(&(offset, step)) = job.steps.get(job.next) {
            if offset > job.done {
                return false;
            }
            job.next += 1;
            self.perform(r, step);
            return true;
        }
        if job.done < job.exec {
            return false;
        }
        self.complete(r);
        true
    }

    fn perform(&mut self, r: usize, step: Step) {
        match step {
            Step::Send { queue, bytes } => {
                let bytes = bytes.unwrap_or(NONE);
                let e = self.emit(EventKind::Send, r);
                e.object = queue as u32;
                e.bytes = bytes;
                self.queues[queue].push_back(bytes);
                self.activate(self.w.queue_receiver[queue], Some(r));
            }
            Step::Notify(target) => {
                self.emit(EventKind::EventSet, r).peer = target as u32;
                self.activate(target, Some(r));
            }
            Step::Lock(m) => {
                let obj = self.mutex_object(m);
                if self.holder[m].is_none() {
                    self.holder[m] = Some(r);
                    self.emit(EventKind::Take, r).object = obj;
                } else {
                    self.emit(EventKind::Blocked, r);
                    self.tasks[r].state = State::Blocked;
                    self.tasks[r].job.as_mut().expect("running").take_on_resume = Some(m);
                    self.waiters[m].push(r);
                    self.current = None;
                }
            }
            Step::SendTurn { .. } | Step::NotifyTurn(_) => unreachable!("resolved when the job starts"),
            Step::Unlock(m) => {
                let obj = self.mutex_object(m);
                self.emit(EventKind::Give, r).object = obj;
                self.holder[m] = None;
                if !self.waiters[m].is_empty() {
                    let k = (0..self.waiters[m].len())
                        .max_by_key(|&k| (self.priority(self.waiters[m][k], 0), std::cmp::Reverse(k)))
                        .expect("not empty");
                    let w = self.waiters[m].remove(k);
                    self.holder[m] = Some(w);
                    self.emit(EventKind::Wakeup, r).peer = w as u32;
                    self.tasks[w].state = State::Ready;
                    self.seq += 1;
                    self.tasks[w].ready_seq = self.seq;
                    self.emit(EventKind::Ready, w);
                }
            }
        }
    }

    fn complete(&mut self, r: usize) {
        self.tasks[r].job = None;
        if self.w.tasks[r].isr {
            self.emit(EventKind::IsrExit, r);
            self.isr = None;
            if self.tasks[r].pending > 0 {
                self.tasks[r].pending -= 1;
                self.pending_isrs.push(r);
            }
            return;
        }
        self.emit(EventKind::Finished, r);
        self.current = None;
        self.tasks[r].state = State::Dormant;
        if self.tasks[r].pending > 0 {
            self.tasks[r].pending -= 1;
            self.start_job(r);
        }
    }
}
