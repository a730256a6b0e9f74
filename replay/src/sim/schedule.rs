//! Choosing what runs where: per-core fixed scheduling, global scheduling
//! within masks, time slicing at the tick, and where a preempted task goes
//! (the kernel's rules, [`crate::Rules`]).

use super::{NOT_FIRED, Out, Policy, Sim, State};

impl Sim<'_> {
    /// At a tick, with time slicing: each running task with a ready task of
    /// its own urgency that may take its core goes behind it.
    pub(super) fn rotate(&mut self, now: u64) {
        let cores = self.busy_in_core_order();
        for &c in &cores {
            let c = c as u16;
            let i = self.running[usize::from(c)].expect("a busy core runs a task");
            if !self.r.tasks[i].isr {
                self.goes_behind_equals(i, c, now);
            }
        }
        self.scratch_cores = cores;
    }

    /// Running task `i` on core `c` goes behind the ready tasks of its
    /// urgency that may take `c`, if there is one (returned): the kernel's
    /// round robin among equals, at a tick or a yield.
    pub(super) fn goes_behind_equals(&mut self, i: usize, c: u16, now: u64) -> bool {
        let rival = self.active.iter().map(|&j| j as usize).any(|j| {
            self.state[j] == State::Ready
                && !self.r.tasks[j].isr
                && self.inherited[j] == self.inherited[i]
                && match self.home[j] {
                    Some(h) => h == c,
                    None => self.mask[j].as_ref().is_none_or(|m| m.contains(c)),
                }
        });
        if rival {
            self.stop(i, now);
            self.tell(|h| h.switched_out(now, c, i, Out::Preempted));
            self.enqueue(i);
            self.dirty = true;
        }
        rival
    }

    /// Running task `i` loses its core to `by` (none: to nothing it may
    /// use, as when it yields to a more urgent priority running on another
    /// core): it stays ready, at the front of its priority's queue, or
    /// behind the others where the kernel sends a preempted task there
    /// (FreeRTOS SMP moves a core's task to the end of its ready list at
    /// each selection on that core, whatever it then selects; an interrupt
    /// that does not switch tasks leaves it in place).
    pub(super) fn preempt(&mut self, i: usize, by: Option<usize>, now: u64) {
        let State::Running(c) = self.state[i] else { return };
        self.stop(i, now);
        let why = if by.is_some_and(|b| self.r.tasks[b].isr) { Out::Interrupted } else { Out::Preempted };
        self.tell(|h| h.switched_out(now, c, i, why));
        match by {
            // Still its core's task, not READY (a recording counts the
            // ISR's time to neither): only a task switched in after the
            // interrupt preempts it ([`Sim::start`]).
            Some(b) if self.r.tasks[b].isr => {
                self.isr_held[i] = true;
                let slot = &mut self.interrupted[usize::from(c)];
                if slot.is_none() {
                    *slot = Some(i);
                }
            }
            _ if self.r.rules.preempted_to_back => self.enqueue(i),
            _ => {}
        }
    }

    /// What runs where from `now`: global scheduling under SMP and masks,
    /// else each core its own tasks.
    pub(super) fn schedule(&mut self, now: u64) {
        if matches!(self.s.policy, Policy::Smp | Policy::Masks) {
            self.schedule_global(now);
        } else {
            self.schedule_fixed(now);
        }
    }

    /// Global scheduling (SMP, masks): bound tasks (ISRs, single-core
    /// masks) claim their core, most urgent first, unless a more urgent
    /// free task runs there; then the most urgent
    /// free tasks take the cores left, each within its mask: the core it
    /// runs on, else the one it last ran on, else the first open one it
    /// may use; a task whose mask has no open core left may take a core
    /// from a task that can move to another open core; then the bound
    /// tasks that left their core to a more urgent one take it if it is
    /// still open. With every mask full this is global SMP; with every
    /// mask one core, AMP. Out of line: kept in `schedule`, it slowed the
    /// fixed policies' replays too (the book's performance page).
    #[inline(never)]
    fn schedule_global(&mut self, now: u64) {
        // Candidates: ready or running, most urgent first; running ones
        // first among equals, the one in the kernel call that made a task
        // ready first of those, then first queued, then lower index.
        let mut cand = std::mem::take(&mut self.cand);
        cand.clear();
        cand.extend(self.active.iter().map(|&i| i as usize));
        cand.sort_unstable_by_key(|&i| {
            let (running, calling) = match self.state[i] {
                State::Running(c) => (true, self.calling[usize::from(c)] == now),
                _ => (false, false),
            };
            (std::cmp::Reverse(self.urgency(i)), !running, !calling, self.queue_place(i), i)
        });
        let mut chosen = std::mem::take(&mut self.chosen);
        chosen.iter_mut().for_each(|c| *c = None);
        let mut placed = std::mem::take(&mut self.placed);
        placed.iter_mut().for_each(|p| *p = false);
        let top = self.top_priority(cand.iter().copied());
        let deferred = self.claim_homes(&cand, (top, now), &mut chosen, &mut placed, true);
        self.place_free(&cand, (top, now), &mut chosen, &mut placed);
        if deferred {
            self.claim_homes(&cand, (top, now), &mut chosen, &mut placed, false);
        }
        self.switch_to(&cand, &chosen, now);
        self.cand = cand;
        self.chosen = chosen;
        self.placed = placed;
    }

    /// Whether bound task `i` leaves its core `h` to the free task running
    /// there, more urgent than it (or as urgent, where a hand-off gave it
    /// the core: the kernel chose it there).
    #[inline]
    fn yields_to_runner(&mut self, i: usize, h: u16, top: Option<i64>, now: u64) -> bool {
        self.running[usize::from(h)].is_some_and(|j| {
            self.home[j].is_none()
                && (self.urgency(j) > self.urgency(i) || self.handed[j] && self.urgency(j) == self.urgency(i))
                && !self.held_back(j, top, now)
        })
    }

    /// Bound tasks (ISRs, single-core masks) not placed yet claim their
    /// core where it is open, most urgent first. With `defer`, one leaves
    /// it to a more urgent free task running there: no kernel moves a
    /// running task to make room for a less urgent one (FreeRTOS SMP yields
    /// a core only to a more urgent task; Linux never preempts an RT task
    /// for a CFS one). Returns whether any did.
    fn claim_homes(
        &mut self,
        cand: &[usize],
        (top, now): (Option<i64>, u64),
        chosen: &mut [Option<usize>],
        placed: &mut [bool],
        defer: bool,
    ) -> bool {
        let mut deferred = false;
        for &i in cand {
            if let Some(h) = self.home[i]
                && !placed[i]
                && chosen[usize::from(h)].is_none()
                && self.is_up(usize::from(h), i, now)
                && !self.held_back(i, top, now)
            {
                if defer && self.yields_to_runner(i, h, top, now) {
                    deferred = true;
                    continue;
                }
                chosen[usize::from(h)] = Some(i);
                placed[i] = true;
            }
        }
        deferred
    }

    /// The free tasks' cores: the most urgent that can use an open core
    /// win one (the core they run on, else the one they last ran on, else
    /// the first open one they may use); a winner left without a core
    /// takes one from a placed free task that can move to an open core.
    fn place_free(
        &mut self,
        cand: &[usize],
        (top, now): (Option<i64>, u64),
        chosen: &mut [Option<usize>],
        placed: &mut [bool],
    ) {
        let mut open = std::mem::take(&mut self.open);
        open.clear();
        open.extend((0..self.k).filter(|&c| chosen[c].is_none() && self.up[c] <= now));
        let mut winners = std::mem::take(&mut self.winners);
        winners.clear();
        let allows = |sim: &Self, i: usize, c: usize| sim.mask[i].as_ref().is_none_or(|m| m.contains(c as u16));
        // Admission: the most urgent free tasks that can use an open core.
        for &i in cand {
            if winners.len() == open.len() {
                break;
            }
            if self.home[i].is_none() && !self.held_back(i, top, now) && open.iter().any(|&c| allows(self, i, c)) {
                winners.push(i);
            }
        }
        for pass in 0..3 {
            for &i in &winners {
                if placed[i] {
                    continue;
                }
                let want = match (pass, self.state[i]) {
                    (0, State::Running(c)) => Some(usize::from(c)),
                    (1, _) => self.last_core[i].map(usize::from),
                    (2, _) => open.iter().copied().find(|&c| allows(self, i, c)),
                    _ => None,
                };
                if let Some(c) = want
                    && allows(self, i, c)
                    && let Some(pos) = open.iter().position(|&o| o == c)
                {
                    open.remove(pos);
                    chosen[c] = Some(i);
                    placed[i] = true;
                }
            }
        }
        // A winner left without a core (masks only): take one from a
        // placed free task that can move to an open core.
        for &i in &winners {
            if placed[i] || open.is_empty() {
                continue;
            }
            let swap = (0..self.k).find_map(|c| {
                let j = chosen[c].filter(|&j| self.home[j].is_none() && allows(self, i, c))?;
                let to = open.iter().position(|&o| allows(self, j, o))?;
                Some((c, j, to))
            });
            if let Some((c, j, to)) = swap {
                let o = open.remove(to);
                chosen[o] = Some(j);
                chosen[c] = Some(i);
                placed[i] = true;
            }
        }
        self.open = open;
        self.winners = winners;
    }

    /// Preempts the running tasks not chosen and starts the chosen ones
    /// where they do not run yet.
    fn switch_to(&mut self, cand: &[usize], chosen: &[Option<usize>], now: u64) {
        for &i in cand {
            if let State::Running(c) = self.state[i]
                && chosen[usize::from(c)] != Some(i)
            {
                self.preempt(i, chosen[usize::from(c)], now);
            }
        }
        for (c, pick) in chosen.iter().enumerate() {
            if let Some(i) = *pick
                && self.state[i] != State::Running(c as u16)
            {
                if let State::Running(from) = self.state[i] {
                    self.stop(i, now);
                    self.tell(|h| h.switched_out(now, from, i, Out::Preempted));
                }
                self.start(i, c as u16, now);
            }
        }
    }

    /// Every task bound to a core (single, AMP, least-loaded): per core the
    /// most urgent of its ready or running tasks runs (ties: the running
    /// one, then the lower index). O(tasks), no sorting.
    pub(super) fn schedule_fixed(&mut self, now: u64) {
        let mut chosen = std::mem::take(&mut self.chosen);
        chosen.iter_mut().for_each(|c| *c = None);
        let key = |sim: &Self, i: usize| {
            let running = matches!(sim.state[i], State::Running(_));
            (sim.urgency(i), running, std::cmp::Reverse(sim.queue_place(i)), std::cmp::Reverse(i))
        };
        let top = self.top_priority(self.active.iter().map(|&i| i as usize));
        for a in 0..self.active.len() {
            let i = self.active[a] as usize;
            let Some(h) = self.home[i] else { continue };
            if !self.is_up(usize::from(h), i, now) || self.held_back(i, top, now) {
                continue;
            }
            let slot = &mut chosen[usize::from(h)];
            if slot.is_none_or(|j| key(self, i) > key(self, j)) {
                *slot = Some(i);
            }
        }
        for (c, &pick) in chosen.iter().enumerate() {
            if let Some(r) = self.running[c]
                && pick != Some(r)
            {
                self.preempt(r, pick, now);
            }
        }
        for (c, pick) in chosen.iter().enumerate() {
            if let Some(i) = *pick
                && self.state[i] != State::Running(c as u16)
            {
                self.start(i, c as u16, now);
            }
        }
        self.chosen = chosen;
    }

    /// The priority whose tasks alone may run when the kernel runs one
    /// priority at a time on several cores: the highest of the tasks (not
    /// ISRs) among `tasks`, ready or running. `None` when every priority
    /// may run (one core, or a kernel that runs several).
    pub(super) fn top_priority(&self, tasks: impl Iterator<Item = usize>) -> Option<i64> {
        if self.r.rules.multiple_priorities || self.k < 2 {
            return None;
        }
        tasks.filter(|&i| !self.r.tasks[i].isr).map(|i| self.inherited[i]).max()
    }

    /// Whether task `i` waits for the top priority's tasks to leave the
    /// cores (ISRs never do). A running task is told to yield by the core
    /// that made the top priority ready, and the request takes a
    /// latency to arrive (`yield_ns`, else `message_latency_ns`): it runs
    /// on until then (`yield_at`, when `run` reschedules).
    pub(super) fn held_back(&mut self, i: usize, top: Option<i64>, now: u64) -> bool {
        // Without a top priority every priority may run: no yield is asked.
        let Some(top) = top else { return false };
        let held = !self.r.tasks[i].isr && self.inherited[i] < top;
        if !held || !matches!(self.state[i], State::Running(_)) {
            self.yield_at[i] = NOT_FIRED;
            return held;
        }
        if self.yield_at[i] == NOT_FIRED {
            let costs = &self.s.platform.costs;
            self.yield_at[i] = now + costs.yield_ns.unwrap_or(costs.message_latency_ns);
        }
        now >= self.yield_at[i]
    }
}
