//! FreeRTOS built for one core: a ready list per priority, served round
//! robin from its index ([`crate::Rules::served_from_index`]).
//!
//! `taskSELECT_HIGHEST_PRIORITY_TASK` moves a list's index to the next task
//! and runs it (`listGET_OWNER_OF_NEXT_ENTRY`); a task made ready goes in
//! just before the index (`listINSERT_END` in `prvAddTaskToReadyList`), so
//! the task last served stays last; a task leaving the list while it is
//! the index moves the index back one (`uxListRemove`), to the list's end
//! marker when it was first. The SMP build serves its lists from the head
//! and moves a core's task to the end at each selection instead, which the
//! replay's first-ready-first order already is.

/// One priority's ready list on one core.
#[derive(Clone, Debug, Default)]
struct List {
    /// Its tasks, head first; the end marker sits between the last and
    /// the first.
    order: Vec<usize>,
    /// The task at the index (`None`: the end marker).
    index: Option<usize>,
}

impl List {
    fn position(&self, t: usize) -> Option<usize> {
        self.order.iter().position(|&x| x == t)
    }

    fn insert(&mut self, t: usize) {
        let at = self.index.and_then(|x| self.position(x)).unwrap_or(self.order.len());
        self.order.insert(at, t);
    }

    fn remove(&mut self, t: usize) {
        let Some(at) = self.position(t) else { return };
        if self.index == Some(t) {
            self.index = at.checked_sub(1).map(|p| self.order[p]);
        }
        self.order.remove(at);
    }

    /// Its tasks in the order the kernel serves them: from the one after
    /// the index round to the index.
    #[cfg(test)]
    fn served(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.order.len();
        let start = self.index.and_then(|x| self.position(x)).map_or(0, |p| p + 1);
        (0..n).map(move |k| self.order[(start + k) % n])
    }
}

/// Which list: a core, an urgency.
pub(super) type Key = (u16, i64);

/// The ready lists of every core and priority.
#[derive(Clone, Debug)]
pub(super) struct ReadyLists {
    /// The urgencies a task may take, ascending.
    levels: Vec<i64>,
    /// Per core, per level of `levels`.
    lists: Vec<List>,
    /// The list (its slot in `lists`) each task is in.
    of: Vec<Option<u32>>,
}

impl ReadyLists {
    /// For `n` tasks on `cores`, at the urgencies of `levels` (any order).
    pub(super) fn new(n: usize, cores: usize, mut levels: Vec<i64>) -> ReadyLists {
        levels.sort_unstable();
        levels.dedup();
        let lists = vec![List::default(); cores.max(1) * levels.len().max(1)];
        ReadyLists { levels, lists, of: vec![None; n] }
    }

    fn slot(&self, (core, urgency): Key) -> Option<u32> {
        let level = self.levels.binary_search(&urgency).ok()?;
        let slot = usize::from(core) * self.levels.len() + level;
        (slot < self.lists.len()).then_some(slot as u32)
    }

    /// Whether task `t` is in list `key`.
    pub(super) fn is_in(&self, t: usize, key: Key) -> bool {
        self.of[t].is_some() && self.of[t] == self.slot(key)
    }

    /// Whether task `t` is in a list.
    pub(super) fn listed(&self, t: usize) -> bool {
        self.of[t].is_some()
    }

    /// Task `t` is made ready into list `key` (or moved there from its
    /// list, as a priority change moves it); returns the index's task,
    /// which stays served last. An urgency no task was given (none
    /// expected) leaves it out of every list.
    pub(super) fn insert(&mut self, t: usize, key: Key) -> Option<usize> {
        self.remove(t);
        let slot = self.slot(key)?;
        let list = &mut self.lists[slot as usize];
        list.insert(t);
        self.of[t] = Some(slot);
        list.index.filter(|&x| x != t)
    }

    /// Task `t` leaves its list (blocks, finishes).
    pub(super) fn remove(&mut self, t: usize) {
        if let Some(slot) = self.of[t].take() {
            self.lists[slot as usize].remove(t);
        }
    }

    /// The kernel runs task `t`: its list's index moves to it.
    pub(super) fn selected(&mut self, t: usize) {
        if let Some(slot) = self.of[t] {
            self.lists[slot as usize].index = Some(t);
        }
    }

    /// The tasks of list `key` in the order the kernel serves them.
    #[cfg(test)]
    fn served(&self, key: Key) -> impl Iterator<Item = usize> + '_ {
        self.slot(key).into_iter().flat_map(|s| self.lists[s as usize].served())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn served(l: &ReadyLists) -> Vec<usize> {
        l.served((0, 3)).collect()
    }

    /// FreeRTOS's list on one core: A, B, C made ready; B runs (the index
    /// moves to it); D made ready goes in before B, so B stays last.
    #[test]
    fn a_task_made_ready_goes_before_the_one_last_served() {
        let mut l = ReadyLists::new(4, 1, vec![3]);
        for t in [0, 1, 2] {
            l.insert(t, (0, 3));
        }
        assert_eq!(served(&l), [0, 1, 2]);
        l.selected(1);
        assert_eq!(served(&l), [2, 0, 1]);
        l.insert(3, (0, 3));
        assert_eq!(served(&l), [2, 0, 3, 1]);
    }

    /// The index leaving moves it back one: B (index) blocks, so A is
    /// the last served and D, made ready, goes before A; the first task
    /// leaving as the index moves it to the end marker, after which a task
    /// made ready goes last.
    #[test]
    fn the_index_leaving_moves_it_back_one() {
        let mut l = ReadyLists::new(4, 1, vec![3]);
        for t in [0, 1, 2] {
            l.insert(t, (0, 3));
        }
        l.selected(1);
        l.remove(1);
        assert_eq!(served(&l), [2, 0]);
        l.insert(3, (0, 3));
        assert_eq!(served(&l), [2, 3, 0]);
        // D is now first in the list: served, then leaving.
        l.selected(3);
        l.remove(3);
        assert_eq!(served(&l), [0, 2]);
        l.insert(1, (0, 3));
        assert_eq!(served(&l), [0, 2, 1]);
    }
}
