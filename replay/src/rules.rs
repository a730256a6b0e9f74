//! The kernel's own rules the replay keeps beyond fixed-priority
//! preemption: whether tasks of equal priority take turns at every tick
//! (time slicing), and whether a more urgent ISR preempts a running one.
//! Each is what the recording shows (its tick, the kernel's default, ISRs
//! seen nested or not) unless the platform file says otherwise
//! ([`Kernel`]), and [`Rules::describe`] states where each came from.

use corera_placement::Kernel;
use corera_trace_ingest::{Tick, Trace};
use serde::{Deserialize, Serialize};

/// The tick at which equal priorities take turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slice {
    /// Ns between ticks.
    pub period_ns: u64,
    /// One tick instant, ns, in the replay's clock (0 at the trace's
    /// first event).
    pub at_ns: u64,
}

impl Slice {
    /// The first tick instant after `now`.
    pub fn next_after(&self, now: u64) -> u64 {
        let phase = self.at_ns % self.period_ns;
        if now < phase {
            return phase;
        }
        now + self.period_ns - (now - phase) % self.period_ns
    }

    /// Whether `now` is a tick instant.
    pub fn is_tick(&self, now: u64) -> bool {
        now >= self.at_ns % self.period_ns && (now - self.at_ns % self.period_ns).is_multiple_of(self.period_ns)
    }
}

/// What the recording shows of the kernel's rules.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recorded {
    /// Its tick, if it shows one.
    pub tick: Option<Tick>,
    /// Whether an ISR was seen entered while another ran on its core
    /// (`None`: no ISR at all).
    pub isr_nesting: Option<bool>,
}

impl Recorded {
    /// What `trace` shows, in the replay's clock: it starts at the trace's
    /// first event, so the tick's instant is moved by as much (a tick
    /// recorded at 1.408 ms of a trace starting there is at 0).
    pub fn of(trace: &Trace) -> Recorded {
        let tick = trace.tick.clone().map(|mut t| {
            let period = i128::from(t.period_ns.max(1));
            t.at_ns = (i128::from(t.at_ns) - i128::from(trace.start())).rem_euclid(period) as u64;
            t
        });
        Recorded { tick, isr_nesting: trace.isrs_nested() }
    }
}

/// The rules a replay runs by.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rules {
    /// The tick at which tasks of equal priority take turns (`None`: they
    /// run to completion, the running one first).
    pub slice: Option<Slice>,
    /// Whether a more urgent ISR preempts a running one.
    pub isr_nesting: bool,
    /// Where the slicing rule came from.
    pub slicing_from: String,
    /// Where the nesting rule came from.
    pub nesting_from: String,
}

impl Rules {
    /// The rules for a recording that shows `recorded`, under a platform
    /// file's `kernel` settings.
    ///
    /// # Errors
    /// `time_slicing = true` with no tick: neither the recording nor
    /// `tick_us` gives one.
    pub fn of(recorded: &Recorded, kernel: &Kernel) -> Result<Rules, String> {
        let tick = match (kernel.tick_us, &recorded.tick) {
            (Some(us), t) => Some((
                Slice { period_ns: (us * 1e3).round().max(1.0) as u64, at_ns: t.as_ref().map_or(0, |t| t.at_ns) },
                "the platform file's tick_us".to_string(),
            )),
            (None, Some(t)) => Some((Slice { period_ns: t.period_ns.max(1), at_ns: t.at_ns }, t.source.clone())),
            (None, None) => None,
        };
        let every = |s: &Slice| format!("every {} µs", trim(s.period_ns as f64 / 1e3));
        let (slice, slicing_from) = match (kernel.time_slicing, tick) {
            (Some(false), _) => (None, "off (the platform file's time_slicing)".to_string()),
            (Some(true), Some((s, from))) => {
                (Some(s), format!("{} (the platform file's time_slicing; tick from {from})", every(&s)))
            }
            (Some(true), None) => {
                return Err("time_slicing = true needs a tick: the recording shows none; give tick_us in the \
                            platform file"
                    .into());
            }
            (None, Some((s, from))) if recorded.tick.as_ref().is_some_and(|t| t.slices) => {
                (Some(s), format!("{} (tick from {from}; the recorded kernel slices by default)", every(&s)))
            }
            (None, Some((_, from))) if recorded.tick.is_some() => {
                (None, format!("off (tick from {from}; the recorded kernel does not slice by default)"))
            }
            (None, Some(_)) => {
                (None, "off (tick_us without time_slicing = true, and the recording shows no tick)".to_string())
            }
            (None, None) => (None, "off (the recording shows no tick; set tick_us and time_slicing)".to_string()),
        };
        let (isr_nesting, nesting_from) = match (kernel.isr_nesting, recorded.isr_nesting) {
            (Some(n), _) => (n, "the platform file's isr_nesting".to_string()),
            (None, Some(true)) => (true, "the recording nests them".to_string()),
            (None, Some(false)) => (false, "none nested in the recording".to_string()),
            (None, None) => (true, "the recording has no ISR".to_string()),
        };
        Ok(Rules { slice, isr_nesting, slicing_from, nesting_from })
    }

    /// One line for the summary.
    pub fn describe(&self) -> String {
        format!(
            "equal priorities time-sliced: {}; ISRs {} ({})",
            self.slicing_from,
            if self.isr_nesting { "nest by priority" } else { "do not nest: a pending ISR waits" },
            self.nesting_from
        )
    }
}

/// `1000`, `62.5`: a number without trailing zeros.
fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests;
