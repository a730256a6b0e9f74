//! What a kernel's trace hook would have written while the simulator ran
//! a generated workload: corera's event vocabulary, as the old hooks of
//! the project's samples wrote it.
//!
//! - a task made ready: `Ready`, after the `Wakeup` of the task that
//!   released it at that instant (a message, a notification, a mutex
//!   handed over); ISRs have no ready events;
//! - a switch: the outgoing task's `Preempted`, `Blocked` or `Finished`
//!   (the idle task's `Preempted`), then `SwitchIn`; an ISR is
//!   `IsrEnter` .. `IsrExit` on top of the task it interrupted, which
//!   resumes without a switch;
//! - a queue-released job's first switch-in is followed by its `Receive`,
//!   a mutex handed over while the task waited by its `Take`;
//! - actions: `Send` (queue, bytes), `EventSet` (the notified task),
//!   `Take`, `Give`.
//!
//! The recording stops at the workload's end: nothing at or after it is
//! written.

use std::collections::VecDeque;

use corera_trace_ingest::{Action, Event, EventKind, NONE};

use crate::sim::{Hook, Out};
use crate::workload::{Release, Resolved, Step};

/// The trace hook of a generated run on one core.
pub(super) struct Recorder<'w> {
    w: &'w Resolved,
    steps: &'w [Vec<Vec<Step>>],
    end: u64,
    events: Vec<Event>,
    idle: u32,
    /// The idle task is switched in.
    idle_in: bool,
    /// The task switched in, `None` while the idle task or only ISRs run.
    current: Option<usize>,
    /// The task an ISR interrupted, still switched in under it.
    held: Option<usize>,
    /// Per task, who sent to it and when, for the `Wakeup` of a release at
    /// that instant.
    woken_by: Vec<Option<(usize, u64)>>,
    /// Per task, whether its job has not run yet.
    fresh: Vec<bool>,
    /// Per task, the object of a take that blocked, recorded when it runs.
    taking: Vec<Option<u32>>,
    /// Per queue, the sizes of the messages in it.
    messages: Vec<VecDeque<u32>>,
}

impl<'w> Recorder<'w> {
    pub(super) fn new(w: &'w Resolved, steps: &'w [Vec<Vec<Step>>], end: u64) -> Recorder<'w> {
        let n = w.tasks.len();
        let mut r = Recorder {
            w,
            steps,
            end,
            events: Vec::new(),
            idle: n as u32,
            idle_in: true,
            current: None,
            held: None,
            woken_by: vec![None; n],
            fresh: vec![false; n],
            taking: vec![None; n],
            messages: vec![VecDeque::new(); w.queues.len()],
        };
        // The scheduler starts in the idle loop.
        r.emit(Event::new(0, 0, EventKind::SwitchIn, r.idle));
        r
    }

    pub(super) fn into_events(self) -> Vec<Event> {
        self.events
    }

    fn emit(&mut self, e: Event) {
        if e.time < self.end {
            self.events.push(e);
        }
    }

    fn at(&mut self, now: u64, kind: EventKind, task: usize) {
        self.emit(Event::new(now, 0, kind, task as u32));
    }
}

impl Hook for Recorder<'_> {
    fn released(&mut self, now: u64, task: usize, new_job: bool, by: Option<usize>) {
        if self.w.tasks[task].isr {
            return;
        }
        let waker = by.or_else(|| self.woken_by[task].filter(|&(_, at)| at == now).map(|(w, _)| w));
        if let Some(w) = waker {
            self.emit(Event::new(now, 0, EventKind::Wakeup, w as u32).with_peer(task as u32));
        }
        self.woken_by[task] = None;
        if new_job {
            self.fresh[task] = true;
        }
        self.at(now, EventKind::Ready, task);
    }

    fn switched_in(&mut self, now: u64, _core: u16, task: usize) {
        if self.w.tasks[task].isr {
            self.at(now, EventKind::IsrEnter, task);
            return;
        }
        match self.held.take() {
            Some(h) if h == task => return,
            Some(h) => self.at(now, EventKind::Preempted, h),
            None if self.idle_in => {
                self.idle_in = false;
                self.at(now, EventKind::Preempted, self.idle as usize);
            }
            None => {}
        }
        self.current = Some(task);
        self.at(now, EventKind::SwitchIn, task);
        if std::mem::take(&mut self.fresh[task])
            && let Release::Queue(q) = self.w.tasks[task].release
        {
            let bytes = self.messages[q].pop_front().unwrap_or(NONE);
            self.emit(Event::new(now, 0, EventKind::Receive, task as u32).with_object(q as u32).with_bytes(bytes));
        }
        if let Some(obj) = self.taking[task].take() {
            self.emit(Event::new(now, 0, EventKind::Take, task as u32).with_object(obj));
        }
    }

    fn switched_out(&mut self, now: u64, _core: u16, task: usize, why: Out) {
        if self.w.tasks[task].isr {
            if matches!(why, Out::PhaseEnd { .. }) {
                self.at(now, EventKind::IsrExit, task);
            }
            return;
        }
        let kind = match why {
            Out::Interrupted => {
                self.held = Some(task);
                return;
            }
            Out::Preempted => EventKind::Preempted,
            Out::Blocked | Out::PhaseEnd { job_done: false } => EventKind::Blocked,
            Out::PhaseEnd { job_done: true } => EventKind::Finished,
        };
        self.current = None;
        self.at(now, kind, task);
    }

    fn acted(&mut self, now: u64, task: usize, (job, _, index): (usize, usize, usize), action: Action, blocked: bool) {
        let step = self.steps[task][job][index];
        match (step, action) {
            (Step::Send { queue, bytes }, Action::Signal { target, .. }) => {
                let bytes = bytes.unwrap_or(NONE);
                self.emit(Event::new(now, 0, EventKind::Send, task as u32).with_object(queue as u32).with_bytes(bytes));
                self.messages[queue].push_back(bytes);
                self.sent(now, task, target as usize);
            }
            (Step::Notify(_), Action::Signal { target, .. }) => {
                self.emit(Event::new(now, 0, EventKind::EventSet, task as u32).with_peer(target));
                self.sent(now, task, target as usize);
            }
            (_, Action::Take(obj)) if blocked => self.taking[task] = Some(obj),
            (_, Action::Take(obj)) => self.emit(Event::new(now, 0, EventKind::Take, task as u32).with_object(obj)),
            (_, Action::Give(obj)) => self.emit(Event::new(now, 0, EventKind::Give, task as u32).with_object(obj)),
            (step, action) => unreachable!("step {step:?} planned as {action:?}"),
        }
    }

    fn settled(&mut self, now: u64, running: &[Option<usize>]) {
        if running[0].is_none() && self.current.is_none() && self.held.is_none() && !self.idle_in {
            self.idle_in = true;
            self.at(now, EventKind::SwitchIn, self.idle as usize);
        }
    }
}

impl Recorder<'_> {
    /// `task` sent to `target` at `now`: the first such at an instant is
    /// what releases it then, if anything does.
    fn sent(&mut self, now: u64, task: usize, target: usize) {
        if self.woken_by[target].is_none_or(|(_, at)| at != now) {
            self.woken_by[target] = Some((task, now));
        }
    }
}
