//! The state a kernel recorder's stream (Tracealyzer PSF, SystemView, CTF) is
//! read against: one core's running task and the ISRs above it, which tasks
//! made a blocking call since they ran, and whose signal came last. The
//! readers decode their own records; this turns "X runs now", "X is ready",
//! "X blocks" into the model's events the same way for both.

use crate::Warning;
use crate::model::{Event, EventKind, TaskId, TaskKind, Trace};

/// One core's state.
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

/// Every core's state, from core 0 up to the highest core the stream has
/// named, each knowing every task added so far.
#[derive(Debug, Default)]
pub(crate) struct Cores {
    states: Vec<CoreState>,
    tasks: usize,
}

impl Cores {
    /// A task was added to the trace (ids are dense).
    pub(crate) fn add_task(&mut self) {
        self.tasks += 1;
        for state in &mut self.states {
            state.add_task();
        }
    }

    /// The state of `core`, added (with the cores below it) when new.
    pub(crate) fn on(&mut self, core: u16) -> &mut CoreState {
        let c = usize::from(core);
        while self.states.len() <= c {
            let core = self.states.len() as u16;
            self.states.push(CoreState { core, blocking: vec![false; self.tasks], ..CoreState::default() });
        }
        &mut self.states[c]
    }

    /// How many cores the stream has named (at least one once any has).
    pub(crate) fn len(&self) -> usize {
        self.states.len()
    }
}

impl CoreState {
    fn add_task(&mut self) {
        self.blocking.push(false);
    }

    /// Who performs an operation: the innermost ISR running, else the task.
    pub(crate) fn actor(&self) -> Option<TaskId> {
        self.isrs.last().copied().or(self.current)
    }

    /// An ISR enters at `now`; `false` (and no event) when the same ISR is
    /// already open on this core: an exception does not preempt itself, so
    /// that is a recorder writing a second enter, not nesting.
    pub(crate) fn enter_isr(&mut self, trace: &mut Trace, i: TaskId, now: u64) -> bool {
        if self.isrs.contains(&i) {
            return false;
        }
        self.isrs.push(i);
        trace.events.push(Event::new(now, self.core, EventKind::IsrEnter, i));
        true
    }

    /// The ISRs above the innermost one that is `keep` (all when `None`)
    /// return at `now`; how many did.
    pub(crate) fn end_isrs(&mut self, trace: &mut Trace, keep: Option<TaskId>, now: u64) -> usize {
        let mut ended = 0;
        while let Some(&top) = self.isrs.last() {
            if Some(top) == keep {
                break;
            }
            self.isrs.pop();
            trace.events.push(Event::new(now, self.core, EventKind::IsrExit, top));
            ended += 1;
        }
        ended
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

/// A stretch without any event that is far longer than the recording's
/// gaps otherwise are (a target halted by a debugger, packets lost without
/// an overflow packet) is a gap of the recording: added to `trace.gaps`,
/// with the warning that says where. Kernel recorders record at least the
/// tick or the idle loop, so such a silence is not the system's.
pub(crate) fn mark_silence(trace: &mut Trace) -> Option<Warning> {
    let times: Vec<u64> = trace.events.iter().map(|e| e.time).collect();
    let mut gaps: Vec<(u64, u64)> = times.windows(2).map(|w| (w[1].saturating_sub(w[0]), w[0])).collect();
    if gaps.len() < 20 {
        return None;
    }
    let duration = trace.duration().max(1);
    gaps.sort_unstable();
    let (longest, from) = *gaps.last()?;
    let p90 = gaps[gaps.len() * 9 / 10].0.max(1);
    if longest < 50 * p90 || longest * 10 < duration {
        return None;
    }
    let ms = |ns: u64| ns as f64 / 1e6;
    let warning = Warning {
        line: None,
        message: format!(
            "no event for {:.3} ms from {:.3} ms to {:.3} ms ({:.0} % of the recording) while 90 % of its events come within {:.3} ms of the previous one: the target was probably halted or its packets lost there; that stretch is a gap, not counted in loads, rates and response times",
            ms(longest),
            ms(from - trace.start()),
            ms(from + longest - trace.start()),
            100.0 * longest as f64 / duration as f64,
            ms(p90)
        ),
    };
    trace.add_gap(from, from + longest);
    Some(warning)
}

/// For a recording that never marks a task leaving the ready state
/// (ESP-IDF's SystemView streams carry no `TASK_STOP_READY`): a task made
/// ready while switched out had blocked, whatever its switch-out said. A
/// kernel keeps a preempted task in its ready list without a new READY
/// (FreeRTOS's `traceMOVED_TASK_TO_READY_STATE` fires when a task enters
/// it), so a READY before it runs again means it waited. The one exception,
/// a ready task re-queued at an inherited priority, is why recordings that
/// do mark blocking are not read this way. Likewise a task switched out for
/// its core's idle loop and never run nor readied again had blocked or
/// ended (ESP-IDF's example tasks delete themselves): a kernel runs the
/// idle loop only when nothing that may use the core is ready, unless the
/// task shares the idle loop's priority. Events must be in time order.
pub(crate) fn infer_blocking(trace: &mut Trace) {
    let mut last_out: Vec<Option<usize>> = vec![None; trace.tasks.len()];
    // Per core: the latest switch-out not yet followed by a switch-in there.
    let mut out_on_core: Vec<Option<usize>> = Vec::new();
    let mut idle_next = std::collections::HashSet::new();
    let idle_priority = trace.tasks.iter().find(|t| t.kind == TaskKind::Idle).and_then(|t| t.priority);
    let mut retype = Vec::new();
    for (i, e) in trace.events.iter().enumerate() {
        let t = e.task as usize;
        let c = usize::from(e.core);
        if out_on_core.len() <= c {
            out_on_core.resize(c + 1, None);
        }
        match e.kind {
            EventKind::Preempted => {
                last_out[t] = Some(i);
                out_on_core[c] = Some(i);
            }
            EventKind::SwitchIn => {
                if let Some(out) = out_on_core[c].take()
                    && trace.tasks[t].kind == TaskKind::Idle
                {
                    idle_next.insert(out);
                }
                last_out[t] = None;
            }
            EventKind::Blocked | EventKind::Finished => last_out[t] = None,
            EventKind::Ready => retype.extend(last_out[t].take()),
            _ => {}
        }
    }
    for (t, out) in last_out.iter().enumerate() {
        let shares_idle = idle_priority.is_some() && trace.tasks[t].priority == idle_priority;
        if let Some(i) = *out
            && idle_next.contains(&i)
            && !shares_idle
        {
            retype.push(i);
        }
    }
    if retype.is_empty() {
        return;
    }
    retype.sort_unstable();
    let mut next = retype.into_iter().peekable();
    let mut index = 0;
    trace.events.retain_mut(|e| {
        if next.peek() == Some(&index) {
            next.next();
            e.kind = EventKind::Blocked;
        }
        index += 1;
        true
    });
}
