//! A representative window of a long trace: the search judges thousands of
//! moves, and a replay of a window a fraction of the trace's length costs
//! that fraction of the time. The final candidates are confirmed on the
//! whole trace.

use corera_trace_ingest::{Schedule, Trace};
use serde::{Deserialize, Serialize};

/// A stretch of a trace, ns from its first event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    /// Start, ns from the trace start.
    pub start_ns: u64,
    /// End, ns from the trace start.
    pub end_ns: u64,
}

/// Candidate starts tried for a window.
const STARTS: u64 = 16;

/// The window of a trace longer than `max_events` events that holds about
/// that many and whose per-task CPU demand is closest to the whole trace's
/// (the sum over tasks of the difference of their load shares, over 16
/// evenly spaced starts; the earliest wins a tie); `None` for a trace that
/// is short enough to replay whole.
pub fn representative_window(trace: &Trace, schedule: &Schedule, max_events: usize) -> Option<Window> {
    let events = trace.events.len();
    let duration = schedule.duration_ns;
    if events <= max_events || duration == 0 {
        return None;
    }
    let length = (duration as u128 * max_events as u128 / events as u128) as u64;
    let total: Vec<f64> = schedule.tasks.iter().map(|t| t.running_ns() as f64 / duration as f64).collect();
    let span = duration - length;
    let mut best: Option<(f64, Window)> = None;
    for k in 0..STARTS {
        let start = span * k / (STARTS - 1);
        let w = Window { start_ns: start, end_ns: start + length };
        let distance: f64 = schedule
            .tasks
            .iter()
            .zip(&total)
            .map(|(t, &share)| {
                let inside: u64 =
                    t.running.iter().map(|r| r.end_ns.min(w.end_ns).saturating_sub(r.start_ns.max(w.start_ns))).sum();
                (inside as f64 / length as f64 - share).abs()
            })
            .sum();
        if best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, w));
        }
    }
    best.map(|(_, w)| w)
}

/// The part of `trace` inside `window`: every task and object, the events
/// in the window (a job in progress at its start counts as released
/// there).
pub fn window_trace(trace: &Trace, window: Window) -> Trace {
    let start = trace.start();
    let (from, to) = (start + window.start_ns, start + window.end_ns);
    let mut out = Trace::new(trace.clock);
    out.priority_order = trace.priority_order;
    out.tasks.clone_from(&trace.tasks);
    out.objects.clone_from(&trace.objects);
    out.events = trace.events.iter().filter(|e| e.time >= from && e.time < to).collect();
    out
}

#[cfg(test)]
mod tests {
    use corera_trace_ingest::Schedule;

    use super::*;
    use crate::{Workload, generate};

    #[test]
    fn the_window_holds_about_the_events_asked_and_every_task() {
        let w = Workload::from_toml(
            "name = \"w\"\nduration_ms = 100\n[[task]]\nname = \"A\"\npriority = 2\nperiod_us = 1000\nexec_us = [100, 100]\n\
             [[task]]\nname = \"B\"\npriority = 1\nperiod_us = 5000\nexec_us = [1000, 1000]\n",
        )
        .unwrap();
        let trace = generate(&w).unwrap();
        let schedule = Schedule::of(&trace);
        assert_eq!(representative_window(&trace, &schedule, trace.events.len()), None, "short enough");
        let window = representative_window(&trace, &schedule, trace.events.len() / 4).unwrap();
        let length = window.end_ns - window.start_ns;
        assert!((24_000_000..=26_000_000).contains(&length), "{window:?}");
        let part = window_trace(&trace, window);
        let n = part.events.len();
        assert!(n * 5 < trace.events.len() * 2 && n * 5 > trace.events.len(), "{n} of {}", trace.events.len());
        let schedule = Schedule::of(&part);
        assert!(schedule.tasks.iter().take(2).all(|t| !t.jobs.is_empty()), "both tasks run in the window");
    }
}
