//! The kernel's recorded choices of the next task on a core, followed
//! wherever the replay's own state allows them: a hand-off gives the
//! incoming task the core the leaver left, a task that stayed ready
//! yields to the one switched in for it, and (on a kernel that is not
//! fixed-priority) a task that blocks hands its core to the one the
//! kernel chose next (the schedule's `HandOff`, `Yield` and `Next`
//! actions, [`corera_trace_ingest::Action`]).

use super::{Out, Sim, State};

/// A core the recording shows the kernel chose a task on, taken as the
/// replay releases the task.
#[derive(Clone, Copy)]
pub(super) struct Pending {
    /// The running task that yields it (with the job and phase it must
    /// still be in); `None`: a task that left it, handing it off.
    pub(super) from: Option<(usize, usize, usize)>,
    /// The core.
    pub(super) core: u16,
}

impl Sim<'_> {
    /// Running task `i` left its core to `t` in the recording and stayed
    /// ready: the kernel chose `t` over it there. Where the two are
    /// equally urgent and `t` may run on that core, `t` takes it and `i`
    /// goes behind, as a yield does (CFS's wake-up preemption on the
    /// waker's CPU, a `taskYIELD`); a more urgent `t` preempts it anyway.
    /// A `t` the replay has not released yet (its dispatch still under
    /// way) is yielded to as it is, if `i` still runs the same phase then.
    /// A `t` that runs elsewhere in the replay, has ended, or may not take
    /// that core leaves the yield to the kernel's own choice, as where it
    /// chose `i` again ([`Sim::yield_again`]), on a fixed-priority kernel.
    #[inline(never)]
    pub(super) fn yield_to(&mut self, i: usize, t: usize, now: u64) {
        if t == i {
            self.yield_again(i, now);
            return;
        }
        let state = self.state[t];
        match state {
            State::Ready if self.takes_for(i, t, now) => self.switch_for(i, t, now),
            State::Waiting => {
                let State::Running(core) = self.state[i] else { return };
                self.pend(t, Pending { from: Some((i, self.job[i], self.phase[i])), core });
            }
            // The task the kernel chose there runs elsewhere in the replay,
            // or may not take this core: the yield still enters the
            // scheduler, which serves the first ready task of its priority
            // (on a fixed-priority kernel; CFS's choice stands).
            _ if self.r.rules.fixed_priority => self.yield_again(i, now),
            _ => {}
        }
    }

    /// Whether ready task `t`, equally urgent, may take the core running
    /// task `i` runs on.
    fn takes_for(&mut self, i: usize, t: usize, now: u64) -> bool {
        let State::Running(c) = self.state[i] else { return false };
        self.urgency(t) == self.urgency(i) && self.may_take(t, c, now)
    }

    /// Running task `i` yields where the recording shows the kernel chose
    /// it again (nothing else of its priority was ready there): it leaves
    /// its core to the first ready task of its urgency that may take it,
    /// as `taskYIELD` does; with none, it goes on, owing the context
    /// switch the kernel made back to it, and on several cores the
    /// kernel's lock that switch holds (FreeRTOS SMP's
    /// `vTaskSwitchContext` takes its locks whatever it selects).
    fn yield_again(&mut self, i: usize, now: u64) {
        let State::Running(c) = self.state[i] else { return };
        if !self.goes_behind_equals(i, c, now) {
            self.enter_kernel(i, self.s.platform.costs.lock.switch_ns, now);
            self.charge_switch(i, self.switch_cost);
        }
    }

    /// Task `t`, which the recording shows the kernel chose on `core` as
    /// the task there left it, takes it: now if it is ready, or as it is
    /// released at this instant (a hand-off's target).
    #[inline(never)]
    pub(super) fn hand_core(&mut self, t: usize, core: u16, now: u64) {
        match self.state[t] {
            State::Ready => self.give_core(t, core, now),
            State::Waiting if self.rel[t] <= now => self.pend(t, Pending { from: None, core }),
            _ => {}
        }
    }

    fn pend(&mut self, t: usize, pending: Pending) {
        if self.pending[t].replace(pending).is_none() {
            self.n_pending += 1;
        }
    }

    /// Running task `i` leaves its core to ready task `t`, equally urgent,
    /// where `t` may take it.
    fn switch_for(&mut self, i: usize, t: usize, now: u64) {
        let State::Running(c) = self.state[i] else { return };
        if self.state[t] != State::Ready || !self.takes_for(i, t, now) {
            return;
        }
        self.stop(i, now);
        self.tell(|h| h.switched_out(now, c, i, Out::Preempted));
        self.enqueue(i);
        self.give_core(t, c, now);
    }

    /// The yields and hand-offs to tasks released at `now` that were
    /// waiting for their release.
    #[inline(never)]
    pub(super) fn pending_choices(&mut self, now: u64) {
        for k in 0..self.due.len() {
            let t = self.due[k];
            let Some(p) = self.pending[t].take() else { continue };
            self.n_pending -= 1;
            match p.from {
                Some((i, job, phase)) if (self.job[i], self.phase[i]) == (job, phase) => self.switch_for(i, t, now),
                Some(_) => {}
                None => self.give_core(t, p.core, now),
            }
        }
    }

    /// A hand-off's target `t` takes the core `c` its task left, as the
    /// kernel chose it there, where it may run on it and it is free.
    fn give_core(&mut self, t: usize, c: u16, now: u64) {
        if self.state[t] == State::Ready && self.running[usize::from(c)].is_none() && self.may_take(t, c, now) {
            self.start(t, c, now);
            self.handed[t] = true;
        }
    }

    /// Whether task `t` may run on core `c` now: its mask or home allows
    /// it, no other priority alone may run (one at a time), and no more
    /// urgent task waits ready for that core.
    fn may_take(&mut self, t: usize, c: u16, now: u64) -> bool {
        let allows = |sim: &Self, i: usize| match sim.home[i] {
            Some(h) => h == c,
            None => sim.mask[i].as_ref().is_none_or(|m| m.contains(c)),
        };
        let top = self.top_priority(self.active.iter().map(|&i| i as usize));
        let urgent = self.urgency(t);
        let outranked = self
            .active
            .iter()
            .map(|&i| i as usize)
            .any(|i| self.state[i] == State::Ready && self.urgency(i) > urgent && allows(self, i));
        allows(self, t) && !outranked && self.is_up(usize::from(c), t, now) && !self.held_back(t, top, now)
    }
}
