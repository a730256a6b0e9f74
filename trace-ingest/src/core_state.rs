//! The state a kernel recorder's stream (Tracealyzer PSF, SystemView) is
//! read against: one core's running task and the ISRs above it, which tasks
//! made a blocking call since they ran, and whose signal came last. The
//! readers decode their own records; this turns "X runs now", "X is ready",
//! "X blocks" into the model's events the same way for both.

use crate::model::{Event, EventKind, TaskId, Trace};

#[derive(Debug, Default)]
pub(crate) struct CoreState {
    /// The core whose events these are.
    core: u16,
    /// The running task.
    pub(crate) current: Option<TaskId>,
    /// ISRs running above it, innermost last.
    pub(crate) isrs: Vec<TaskId>,
    /// Per task: made a blocking call since it was switched in.
    blocking: Vec<bool>,
    /// The task or ISR whose send, give or notification was the last event.
    signalled: Option<TaskId>,
}

impl CoreState {
    /// The state of core `core`.
    pub(crate) fn on(core: u16) -> CoreState {
        CoreState { core, ..CoreState::default() }
    }

    /// A task was added to the trace (ids are dense).
    pub(crate) fn add_task(&mut self) {
        self.blocking.push(false);
    }

    /// Who performs an operation: the innermost ISR running, else the task.
    pub(crate) fn actor(&self) -> Option<TaskId> {
        self.isrs.last().copied().or(self.current)
    }

    /// `t` runs from `now`: the task it replaces blocked if it made a
    /// blocking call since it ran, else it was preempted.
    pub(crate) fn switch_in(&mut self, trace: &mut Trace, t: TaskId, now: u64) {
        if self.current != Some(t) {
            if let Some(prev) = self.current {
                let kind = if self.blocking[prev as usize] { EventKind::Blocked } else { EventKind::Preempted };
                trace.events.push(Event::new(now, self.core, kind, prev));
            }
            trace.events.push(Event::new(now, self.core, EventKind::SwitchIn, t));
            self.current = Some(t);
        }
        self.blocking[t as usize] = false;
        self.signalled = None;
    }

    /// `t` became ready at `now`, woken by the last signaller if any.
    pub(crate) fn ready(&mut self, trace: &mut Trace, t: TaskId, now: u64) {
        if let Some(by) = self.signalled.take()
            && by != t
        {
            trace.events.push(Event::new(now, self.core, EventKind::Wakeup, by).with_peer(t));
        }
        trace.events.push(Event::new(now, self.core, EventKind::Ready, t));
    }

    /// `t` (the running task when `None`, unless an ISR runs) made a
    /// blocking call.
    pub(crate) fn blocks(&mut self, t: Option<TaskId>) {
        let t = t.or(if self.isrs.is_empty() { self.current } else { None });
        if let Some(t) = t {
            self.blocking[t as usize] = true;
        }
        self.signalled = None;
    }

    /// Whose signal came last, forgetting it.
    pub(crate) fn take_signal(&mut self) -> Option<TaskId> {
        self.signalled.take()
    }

    /// The last event was a signal by `actor` (or none).
    pub(crate) fn signal(&mut self, actor: Option<TaskId>) {
        self.signalled = actor;
    }
}
