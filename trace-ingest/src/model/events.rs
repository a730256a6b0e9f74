//! How a trace's events are stored: [`Events`], about 12 bytes an event.

use super::{Event, EventKind, NONE, ObjectId, TaskId};

/// The stored part of every event: 12 bytes. The time's upper 32 bits
/// are kept once per run of events that share them ([`Events`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Record {
    time_low: u32,
    task: TaskId,
    core: u16,
    kind: EventKind,
}

/// The fields only some events use: 12 bytes, stored for the events that
/// use any of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Extra {
    object: ObjectId,
    peer: TaskId,
    bytes: u32,
}

/// Events per block of the extra-field index.
const BLOCK: usize = 64;

/// A trace's events, stored compactly: a 12-byte record per event (the
/// time's lower 32 bits, task, core, kind); the upper 32 bits of the time
/// once per run of events that share them (about 4.3 s of ns each: a few
/// entries per hour of sorted trace); and a side table with the object, peer
/// and size of the events that have one (sends, receives, wakeups, takes
/// ...), found in constant time through a per-64-event bit mask and a
/// running count (0.2 bytes per event). A trace where a third of the events
/// carry extra fields takes about 16 bytes per event instead of 32.
///
/// Events are handed out by value ([`Event`]); build with [`Events::push`]
/// or `collect()`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Events {
    records: Vec<Record>,
    /// (first event, upper 32 bits of the time) where the upper bits change.
    epochs: Vec<(usize, u32)>,
    extras: Vec<Extra>,
    /// Per block: extras stored before the block.
    base: Vec<u32>,
    /// Per block: which of its events have extras.
    mask: Vec<u64>,
}

impl Events {
    /// An empty store with room for `n` events.
    pub fn with_capacity(n: usize) -> Events {
        Events {
            records: Vec::with_capacity(n),
            epochs: Vec::new(),
            extras: Vec::new(),
            base: Vec::with_capacity(n / BLOCK + 1),
            mask: Vec::with_capacity(n / BLOCK + 1),
        }
    }

    /// Number of events.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there are no events.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Appends an event.
    pub fn push(&mut self, e: Event) {
        let i = self.records.len();
        if i.is_multiple_of(BLOCK) {
            self.base.push(u32::try_from(self.extras.len()).expect("fewer than 2^32 events with extra fields"));
            self.mask.push(0);
        }
        let high = (e.time >> 32) as u32;
        if self.epochs.last().is_none_or(|&(_, h)| h != high) {
            self.epochs.push((i, high));
        }
        self.records.push(Record { time_low: e.time as u32, task: e.task, core: e.core, kind: e.kind });
        if e.object != NONE || e.peer != NONE || e.bytes != NONE {
            *self.mask.last_mut().expect("a block per 64 events") |= 1 << (i % BLOCK);
            self.extras.push(Extra { object: e.object, peer: e.peer, bytes: e.bytes });
        }
    }

    /// The event at `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<Event> {
        let r = *self.records.get(i)?;
        let (block, bit) = (i / BLOCK, i % BLOCK);
        let mask = self.mask[block];
        let x = if mask >> bit & 1 == 1 {
            let before = (mask & ((1u64 << bit) - 1)).count_ones();
            self.extras[self.base[block] as usize + before as usize]
        } else {
            Extra { object: NONE, peer: NONE, bytes: NONE }
        };
        let high = self.epochs[self.epochs.partition_point(|&(first, _)| first <= i) - 1].1;
        Some(Event {
            time: u64::from(high) << 32 | u64::from(r.time_low),
            task: r.task,
            object: x.object,
            peer: x.peer,
            bytes: x.bytes,
            core: r.core,
            kind: r.kind,
        })
    }

    /// The event at `i`.
    ///
    /// # Panics
    /// When `i` is out of range.
    pub fn at(&self, i: usize) -> Event {
        self.get(i).unwrap_or_else(|| panic!("event {i} of {}", self.len()))
    }

    /// The first event.
    pub fn first(&self) -> Option<Event> {
        self.get(0)
    }

    /// The last event.
    pub fn last(&self) -> Option<Event> {
        self.get(self.len().wrapping_sub(1))
    }

    /// The events in order.
    pub fn iter(&self) -> EventIter<'_> {
        EventIter { events: self, next: 0, extra: 0, epoch: 0, high: 0 }
    }

    /// Bytes the events take in memory (records, side table, index).
    pub fn heap_bytes(&self) -> usize {
        self.records.capacity() * std::mem::size_of::<Record>()
            + self.epochs.capacity() * std::mem::size_of::<(usize, u32)>()
            + self.extras.capacity() * std::mem::size_of::<Extra>()
            + self.base.capacity() * 4
            + self.mask.capacity() * 8
    }

    /// Gives back the room reserved beyond the events.
    pub fn shrink_to_fit(&mut self) {
        self.records.shrink_to_fit();
        self.epochs.shrink_to_fit();
        self.extras.shrink_to_fit();
        self.base.shrink_to_fit();
        self.mask.shrink_to_fit();
    }

    /// Sorts by time, keeping the order of events at the same time.
    pub fn sort_by_time(&mut self) {
        let mut all: Vec<Event> = self.iter().collect();
        all.sort_by_key(|e| e.time);
        *self = all.into_iter().collect();
    }

    /// Keeps the events for which `keep` returns true, after it changed
    /// them as it likes.
    pub fn retain_mut(&mut self, mut keep: impl FnMut(&mut Event) -> bool) {
        let old = std::mem::take(self);
        *self = Events::with_capacity(old.len());
        for mut e in &old {
            if keep(&mut e) {
                self.push(e);
            }
        }
    }
}

/// The events of an [`Events`] store in order, by value.
#[derive(Clone, Debug)]
pub struct EventIter<'a> {
    events: &'a Events,
    next: usize,
    /// Index of the next extra to hand out.
    extra: usize,
    /// Index of the next epoch to enter, and the current upper time bits.
    epoch: usize,
    high: u32,
}

impl Iterator for EventIter<'_> {
    type Item = Event;

    #[inline]
    fn next(&mut self) -> Option<Event> {
        let i = self.next;
        let r = *self.events.records.get(i)?;
        self.next += 1;
        if let Some(&(first, high)) = self.events.epochs.get(self.epoch)
            && first == i
        {
            self.high = high;
            self.epoch += 1;
        }
        let mut e = Event::new(u64::from(self.high) << 32 | u64::from(r.time_low), r.core, r.kind, r.task);
        if self.events.mask[i / BLOCK] >> (i % BLOCK) & 1 == 1 {
            let x = self.events.extras[self.extra];
            self.extra += 1;
            (e.object, e.peer, e.bytes) = (x.object, x.peer, x.bytes);
        }
        Some(e)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.events.len() - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for EventIter<'_> {}

impl<'a> IntoIterator for &'a Events {
    type Item = Event;
    type IntoIter = EventIter<'a>;

    fn into_iter(self) -> EventIter<'a> {
        self.iter()
    }
}

impl FromIterator<Event> for Events {
    fn from_iter<I: IntoIterator<Item = Event>>(iter: I) -> Events {
        let iter = iter.into_iter();
        let mut events = Events::with_capacity(iter.size_hint().0);
        for e in iter {
            events.push(e);
        }
        events
    }
}

impl Extend<Event> for Events {
    fn extend<I: IntoIterator<Item = Event>>(&mut self, iter: I) {
        for e in iter {
            self.push(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_stored_in_12_bytes_plus_12_for_extra_fields() {
        assert_eq!(std::mem::size_of::<Record>(), 12);
        assert_eq!(std::mem::size_of::<Extra>(), 12);
        let plain = Event::new(5, 1, EventKind::SwitchIn, 3);
        let send = Event::new(6, 0, EventKind::Send, 2).with_object(4).with_bytes(16);
        let wake = Event::new(7, 0, EventKind::Wakeup, 2).with_peer(3);
        let mut all = Vec::new();
        for i in 0..1000u64 {
            all.push(match i % 7 {
                0 => send,
                3 => wake,
                _ => plain,
            });
            // Times cross several 2^32 ns epochs, once backwards (as
            // events pushed before a lenient sort may).
            let epoch = if i == 700 { 1 } else { i / 200 };
            all.last_mut().unwrap().time = (epoch << 32) + i * 1000;
        }
        let events: Events = all.iter().copied().collect();
        assert_eq!(events.len(), 1000);
        assert_eq!(events.iter().collect::<Vec<_>>(), all, "iteration gives every field back");
        for i in [0, 1, 3, 63, 64, 65, 127, 128, 500, 999] {
            assert_eq!(events.get(i), Some(all[i]), "random access to event {i}");
        }
        assert_eq!(events.get(1000), None);
        assert_eq!((events.first(), events.last()), (Some(all[0]), Some(all[999])));
        assert_eq!(events.extras.len(), all.iter().filter(|e| e.kind != EventKind::SwitchIn).count());
        let bytes = events.records.len() * 12 + events.extras.len() * 12 + events.base.len() * 12;
        assert!(bytes < 1000 * 16, "{bytes} bytes for 1,000 events of which 2/7 have extra fields");
        assert_eq!(events.epochs.len(), 7, "epochs 0..=3, then 1 at event 700, then 3 and 4 again");
        // Editing keeps the side table in step.
        let mut kept = events.clone();
        kept.retain_mut(|e| {
            e.time += 1;
            e.kind != EventKind::Wakeup
        });
        let want: Vec<Event> =
            all.iter().filter(|e| e.kind != EventKind::Wakeup).map(|e| Event { time: e.time + 1, ..*e }).collect();
        assert_eq!(kept.iter().collect::<Vec<_>>(), want);
        let mut sorted = all.clone();
        sorted.sort_by_key(|e| e.time);
        let mut shuffled: Events = all.iter().rev().copied().collect();
        shuffled.sort_by_time();
        assert_eq!(shuffled.iter().collect::<Vec<_>>(), sorted);
        assert_eq!(shuffled.epochs.len(), 5, "sorted, each epoch is one run");
        assert_eq!(shuffled, sorted.iter().copied().collect::<Events>(), "sorting gives the store a fresh build gives");
    }
}
