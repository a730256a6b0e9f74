//! The kernel's own rules the replay keeps beyond fixed-priority
//! preemption: whether tasks of equal priority take turns at every tick
//! (time slicing), where a preempted task goes among the ready tasks of its
//! priority, whether a more urgent ISR preempts a running one, and whether
//! tasks of several priorities run at once on several cores. Each is
//! what the recording shows (its tick, ISRs seen nested or not) and the
//! recorded kernel does by default ([`OsRules::of`], one row per OS),
//! unless the platform file says otherwise ([`Kernel`]);
//! [`Rules::describe`] states where each came from.

use crate::ReplayError;
use corera_placement::Kernel;
use corera_trace_ingest::{Os, TaskId, Tick, Trace};
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

/// What a kernel does by default, by the recording's OS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OsRules {
    /// Whether tasks of equal priority take turns at the tick.
    pub slices: bool,
    /// Whether a preempted task goes behind the ready tasks of its
    /// priority (else it resumes first among them).
    pub preempted_to_back: bool,
    /// Whether, on several cores, tasks of different priorities run at
    /// once (else only tasks of the highest priority ready or running do,
    /// and the other cores idle).
    pub multiple_priorities: bool,
    /// Whether the kernel schedules by fixed priority at all (Linux's CFS
    /// shares its cores by virtual runtime, which the replay only
    /// approximates and no setting reproduces).
    pub fixed_priority: bool,
    /// Whether its build for several cores starts each core on its idle
    /// task, so that no task is started directly (it is switched to, as
    /// from any release); on one core the start switches to the first task
    /// directly ([`crate::Replay::started_with`]).
    pub cores_start_idle: bool,
    /// Whether its build for one core serves each priority's ready list
    /// round robin from an index, a task made ready going in before the
    /// task last served ([`Rules::served_from_index`]).
    pub served_from_index: bool,
    /// What the row rests on, for the summary.
    pub source: &'static str,
    /// What the several-cores rule rests on.
    pub cores_source: &'static str,
}

impl OsRules {
    /// The row of `os`; for a recording that names none, POSIX
    /// `SCHED_FIFO`'s order and no slicing.
    ///
    /// | OS | slices at its tick | a preempted task | several priorities at once on several cores | several cores start on |
    /// |---|---|---|---|---|
    /// | FreeRTOS | yes (`configUSE_TIME_SLICING` defaults to 1) | goes behind (the ready list's index moves past it at the next switch; on several cores also when it yields to a higher priority elsewhere); built for one core, a task made ready goes in before the one last served, at the index | no (`configRUN_MULTIPLE_PRIORITIES` defaults to 0 in `FreeRTOS.h`; the core whose call made a task ready yields last) | their idle tasks (the SMP build's `prvCreateIdleTasks` makes them the cores' first tasks; the recorded two- and four-core starts switch from them) |
    /// | ESP-IDF | yes | resumes first (its SMP scheduler skips tasks in the rotation, as its documentation says; Espressif's recordings replay closer so) | yes (each core schedules its own highest) | the first task, directly |
    /// | Zephyr | no (`CONFIG_TIMESLICE_SIZE` 0) | resumes first (it stays at the head of its priority's queue) | yes | the first task, directly |
    /// | RT-Thread | yes (each thread's slice of ticks) | resumes first (it stays at the head of its ready list) | yes | the first task, directly |
    /// | embOS | yes (round robin, a slice per task) | resumes first | yes | the first task, directly |
    /// | ThreadX | no (a slice of 0 per thread unless given) | resumes first | yes | the first task, directly |
    /// | Linux | no (CFS is not fixed-priority: its nice levels rank as one, below real-time ([`Trace::urgency`]), and the recorded choices among them stand) | resumes first | yes | (no start traced) |
    /// | corera's generator | no | goes behind (it serves equal priorities first-ready-first and re-queues the preempted) | yes | (no dispatch) |
    pub fn of(os: Option<Os>) -> OsRules {
        let row = |slices, preempted_to_back, source| OsRules {
            slices,
            preempted_to_back,
            multiple_priorities: true,
            fixed_priority: true,
            cores_start_idle: false,
            served_from_index: false,
            source,
            cores_source: "each core runs its most urgent ready task",
        };
        match os {
            Some(Os::FreeRtos) => OsRules {
                multiple_priorities: false,
                cores_start_idle: true,
                served_from_index: true,
                cores_source: "FreeRTOS SMP: configRUN_MULTIPLE_PRIORITIES defaults to 0 in FreeRTOS.h",
                ..row(
                    true,
                    true,
                    "FreeRTOS: configUSE_TIME_SLICING defaults to 1; the next switch moves the ready list's index past \
                     a preempted task",
                )
            },
            Some(Os::EspIdf) => row(
                true,
                false,
                "ESP-IDF FreeRTOS: time slicing on; its SMP scheduler skips tasks in the rotation, a preempted task \
                 taken to resume first",
            ),
            Some(Os::Zephyr) => row(false, false, "Zephyr: time slicing off unless CONFIG_TIMESLICE_SIZE is set"),
            Some(Os::RtThread) => row(true, false, "RT-Thread: every thread has a slice of ticks"),
            Some(Os::Embos) => row(true, false, "embOS: round robin among equal priorities"),
            Some(Os::ThreadX) => row(false, false, "ThreadX: a thread's time slice is 0 unless given"),
            Some(Os::Linux) => OsRules {
                fixed_priority: false,
                ..row(
                    false,
                    false,
                    "Linux: CFS is not fixed-priority (its nice levels rank as one, below real-time; the recorded \
                         choices among them stand); approximated",
                )
            },
            Some(Os::CoreraGen) => row(false, true, "corera's generator: first ready, first served, no slicing"),
            None => row(false, false, "the recording names no OS: POSIX SCHED_FIFO's order, no slicing"),
        }
    }
}

/// What the recording shows of the kernel's rules.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recorded {
    /// The OS it names.
    pub os: Option<Os>,
    /// Its tick, if it shows one.
    pub tick: Option<Tick>,
    /// Whether an ISR was seen entered while another ran on its core
    /// (`None`: no ISR at all).
    pub isr_nesting: Option<bool>,
    /// Where it shows two cores running tasks of different priorities for
    /// longer than a tick (1 ms without one): a kernel that runs one
    /// priority at a time would have made the lower one yield by then.
    pub several_priorities: Option<String>,
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
        let several_priorities = several_priorities(trace);
        Recorded { os: trace.os, tick, isr_nesting: trace.isrs_nested(), several_priorities }
    }
}

/// The evidence [`Recorded::several_priorities`] states, if `trace` holds it.
fn several_priorities(trace: &Trace) -> Option<String> {
    let seen = trace.priorities_at_once()?;
    let bound = trace.tick.as_ref().map_or(1_000_000, |t| t.period_ns.max(1));
    if seen.longest_ns <= bound {
        return None;
    }
    let (from, a, b) = seen.longest;
    let name = |t: TaskId| {
        let task = &trace.tasks[t as usize];
        format!("{} (priority {})", task.name, task.priority.map_or("?".into(), |p| p.to_string()))
    };
    Some(format!(
        "the recording runs {} and {} at once for {} ms from {} ms",
        name(a),
        name(b),
        trim(seen.longest_ns as f64 / 1e6),
        trim(from.saturating_sub(trace.start()) as f64 / 1e6)
    ))
}

/// The rules a replay runs by.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rules {
    /// The tick at which tasks of equal priority take turns (`None`: they
    /// run to completion, the running one first).
    pub slice: Option<Slice>,
    /// Whether a more urgent ISR preempts a running one.
    pub isr_nesting: bool,
    /// Whether a preempted task goes behind the ready tasks of its priority
    /// (else it resumes first among them); either way equal priorities are
    /// served first ready, first served.
    #[serde(default)]
    pub preempted_to_back: bool,
    /// Where the slicing rule came from.
    pub slicing_from: String,
    /// Where the nesting rule came from.
    pub nesting_from: String,
    /// Where the order of equal priorities came from.
    #[serde(default)]
    pub order_from: String,
    /// Whether, on a core of its own (one core, or AMP), the kernel
    /// serves each priority's ready list round robin from an index: a
    /// task made ready goes in before the task that priority last served,
    /// which stays last (FreeRTOS built for one core: `listINSERT_END`
    /// before the index that `listGET_OWNER_OF_NEXT_ENTRY` moves); else,
    /// and under global SMP (FreeRTOS's SMP build serves from the head),
    /// first ready, first served.
    #[serde(default)]
    pub served_from_index: bool,
    /// Whether, on several cores, tasks of different priorities run at
    /// once; else only ISRs and the tasks of the highest priority ready or
    /// running run, and the other cores idle (FreeRTOS SMP with
    /// `configRUN_MULTIPLE_PRIORITIES` 0: `prvSelectHighestPriorityTask`
    /// picks only idle tasks below `uxTopReadyPriority`, and
    /// `prvYieldForTask` yields every core running a lower priority).
    #[serde(default = "yes")]
    pub multiple_priorities: bool,
    /// Where the several-cores rule came from.
    #[serde(default)]
    pub priorities_from: String,
    /// Whether the recorded kernel schedules by fixed priority
    /// ([`OsRules::fixed_priority`]): else the replay only approximates
    /// it, and no priority or kernel setting makes it reproduce.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub fixed_priority: bool,
}

fn is_true(b: &bool) -> bool {
    *b
}

fn yes() -> bool {
    true
}

impl Rules {
    /// The rules for a recording that shows `recorded`, under a platform
    /// file's `kernel` settings.
    ///
    /// # Errors
    /// `time_slicing = true` with no tick: neither the recording nor
    /// `tick_us` gives one.
    pub fn of(recorded: &Recorded, kernel: &Kernel) -> Result<Rules, ReplayError> {
        let os = OsRules::of(recorded.os);
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
                return Err(ReplayError::SlicingWithoutTick);
            }
            (None, Some((s, from))) if recorded.tick.is_some() && os.slices => {
                (Some(s), format!("{} (tick from {from}; {})", every(&s), os.source))
            }
            (None, Some((_, from))) if recorded.tick.is_some() => {
                (None, format!("off (tick from {from}; {})", os.source))
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
        let (preempted_to_back, order_from) = match kernel.preempted_to_back {
            Some(b) => (b, "the platform file's preempted_to_back".to_string()),
            None => (os.preempted_to_back, os.source.to_string()),
        };
        let (multiple_priorities, priorities_from) =
            match (kernel.run_multiple_priorities, &recorded.several_priorities) {
                (Some(b), _) => (b, "the platform file's run_multiple_priorities".to_string()),
                (None, Some(seen)) => (true, seen.clone()),
                (None, None) => (os.multiple_priorities, os.cores_source.to_string()),
            };
        Ok(Rules {
            slice,
            isr_nesting,
            preempted_to_back,
            slicing_from,
            nesting_from,
            order_from,
            served_from_index: os.served_from_index && preempted_to_back,
            multiple_priorities,
            priorities_from,
            fixed_priority: os.fixed_priority,
        })
    }

    /// One line for the summary.
    pub fn describe(&self) -> String {
        format!(
            "equal priorities time-sliced: {}; served first ready first, a preempted task {}{} ({}); ISRs {} ({}); \
             on several cores {} ({})",
            self.slicing_from,
            if self.preempted_to_back { "going behind them" } else { "resuming first" },
            if self.served_from_index {
                "; on a core of its own, a task made ready goes in before the task its priority last served (the \
                 one-core build's ready list index)"
            } else {
                ""
            },
            self.order_from,
            if self.isr_nesting { "nest by priority" } else { "do not nest: a pending ISR waits" },
            self.nesting_from,
            if self.multiple_priorities {
                "tasks of several priorities run at once"
            } else {
                "only the highest ready priority's tasks run, other cores idle"
            },
            self.priorities_from
        )
    }
}

/// `1000`, `62.5`: a number without trailing zeros.
fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
pub(crate) mod tests;
