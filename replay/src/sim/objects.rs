//! Semaphores and mutexes in the replay: blocking on a take, priority
//! inheritance through chains of holders, handing an object to its first
//! waiter among the most urgent, and breaking a deadlock.

use super::{Sim, State};

impl Sim<'_> {
    /// Task `i` now waits on mutex `obj`: its holder, and the holder of
    /// the mutex that one waits on, and so on, run at least as urgently.
    pub(super) fn lend(&mut self, i: usize, obj: u32) {
        let u = self.inherited[i];
        let mut obj = obj;
        for _ in 0..self.r.tasks.len() {
            let Some(h) = self.holder[obj as usize].map(|h| h as usize) else { break };
            if self.inherited[h] < u {
                self.inherited[h] = u;
                self.relist(h);
                self.dirty = true;
            }
            match self.state[h] {
                State::Blocked(next) if self.r.mutexes[next as usize] => obj = next,
                _ => break,
            }
        }
    }

    /// Task `t`'s urgency from scratch: its own, or that of the most
    /// urgent task waiting on a mutex it holds.
    pub(super) fn reclaim(&mut self, t: usize) {
        let mut u = self.base[t];
        for j in 0..self.r.tasks.len() {
            if let State::Blocked(o) = self.state[j]
                && self.r.mutexes[o as usize]
                && self.holder[o as usize] == Some(t as u32)
            {
                u = u.max(self.inherited[j]);
            }
        }
        if self.inherited[t] != u {
            self.inherited[t] = u;
            self.relist(t);
            self.dirty = true;
        }
    }

    /// Task `t`'s own urgency becomes `u` (`vTaskPrioritySet`): it keeps
    /// what it inherits above that, and lends the new figure on to the
    /// holder of the mutex it waits on.
    pub(super) fn set_priority(&mut self, t: usize, u: i64) {
        self.base[t] = u;
        self.reclaim(t);
        if let State::Blocked(obj) = self.state[t]
            && self.r.mutexes[obj as usize]
        {
            self.lend(t, obj);
        }
        self.dirty = true;
    }

    /// Nothing runs and nothing will be released, yet tasks wait on
    /// semaphores or mutexes: the replay took them in an order the
    /// recording did not, and deadlocked. The most urgent blocked take is
    /// granted, as the recording shows it succeeded, and counted; returns
    /// whether there was one.
    pub(super) fn grant_a_stuck_take(&mut self, now: u64) -> bool {
        let stuck = (0..self.r.tasks.len())
            .filter_map(|j| match self.state[j] {
                State::Blocked(obj) | State::Receiving(obj) => Some((j, obj)),
                _ => None,
            })
            .max_by_key(|&(j, _)| (self.urgency(j), std::cmp::Reverse(j)));
        let Some((j, obj)) = stuck else { return false };
        if self.r.mutexes[obj as usize] && self.state[j] == State::Blocked(obj) {
            // The holder (blocked elsewhere) no longer holds it, nor what
            // waiting on it lent.
            let held_by = self.holder[obj as usize].replace(j as u32);
            if let Some(h) = held_by {
                self.reclaim(h as usize);
            }
        }
        self.set_state(j, State::Ready, now);
        self.resume_job(j, now);
        self.tell(|h| h.released(now, j, false, None));
        self.dirty = true;
        self.out.deadlocks += 1;
        true
    }

    /// Task `by` gives `obj`: a semaphore's token (a queue's free place)
    /// goes to its most urgent waiter (the first to wait among equals),
    /// else into the count; a
    /// mutex its holder gives goes to its most urgent waiter, and the
    /// urgencies lent through it are taken back.
    pub(super) fn give(&mut self, obj: u32, by: usize, now: u64) {
        let mutex = self.r.mutexes[obj as usize];
        if mutex && self.holder[obj as usize] != Some(by as u32) && self.holder[obj as usize].is_some() {
            return;
        }
        self.holder[obj as usize] = None;
        let waiter = (0..self.r.tasks.len())
            .filter(|&j| self.state[j] == State::Blocked(obj))
            .max_by_key(|&j| (self.urgency(j), std::cmp::Reverse(self.queued[j])));
        match waiter {
            Some(j) => {
                if mutex {
                    self.holder[obj as usize] = Some(j as u32);
                }
                self.set_state(j, State::Ready, now);
                self.resume_job(j, now);
                self.tell(|h| h.released(now, j, false, Some(by)));
                // A sender that waited for a place sends its item now.
                if !mutex && self.r.capacity[obj as usize] > 0 {
                    self.deliver(obj, now);
                }
            }
            // A queue has no more free places than its length (a receive
            // of an item sent before the replay began frees none).
            None if !mutex => {
                let cap = self.r.capacity[obj as usize];
                let t = &mut self.tokens[obj as usize];
                if cap == 0 || *t < cap {
                    *t += 1;
                }
            }
            None => {}
        }
        if mutex {
            self.reclaim(by);
            if let Some(j) = waiter {
                self.reclaim(j);
            }
        }
    }
}
