//! `corera check`: a new recording replayed under the placement already in
//! the firmware, judged against the requirements, one verdict each, as
//! text and as JUnit XML for CI systems.

use std::fmt::Write as _;

use corera_placement::Platform;
use corera_replay::{Outcome, Replay};
use serde::{Deserialize, Serialize};

use crate::escape_markup as xml;
use crate::records::SCHEMA_VERSION;

/// One requirement and whether the replay meets it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// What is required (`core 0 busy at most 90 %`).
    pub requirement: String,
    /// Whether it holds.
    pub holds: bool,
    /// What the replay showed: the figure, and where it fails by how much
    /// (the task, the instant, the chain instance).
    pub detail: String,
}

/// `corera check --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckRecord {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The recording checked.
    pub input: String,
    /// The set-up replayed (`AMP on 2 identical cores`).
    pub setup: String,
    /// One verdict per requirement, in the order they were given: per-core
    /// load, the input rate, task deadlines, chain deadlines, READY and
    /// response limits.
    pub verdicts: Vec<Verdict>,
}

impl CheckRecord {
    /// How many requirements fail.
    pub fn failures(&self) -> usize {
        self.verdicts.iter().filter(|v| !v.holds).count()
    }
}

/// A per-task limit: the task, ns.
pub type TaskLimit = (String, u64);

/// What the check judges by: task deadlines (the user's), per-task limits
/// on mean READY per job and on the longest response. Per-core load limits
/// are the platform's capacities; chain deadlines the workload's chains'.
#[derive(Clone, Debug, Default)]
pub struct Requirements {
    /// Per task: its deadline (release to finish), ns.
    pub deadlines: Vec<TaskLimit>,
    /// Per task: the most READY a job may wait on average, ns.
    pub max_ready: Vec<TaskLimit>,
    /// Per task: the longest response any job may take, ns.
    pub max_response: Vec<TaskLimit>,
}

fn ms(ns: u64) -> String {
    format!("{:.3} ms", ns as f64 / 1e6)
}

/// A requirement naming a task the recording does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no task `{0}` in the recording; `corera graph TRACE` lists the task names")]
pub struct UnknownTask(pub String);

/// Judges the replay `o` of `workload` on `platform` against `req`.
///
/// # Errors
/// A limit names a task the replay does not have.
pub fn check(
    input: &str,
    setup: &str,
    workload: &Replay,
    platform: &Platform,
    o: &Outcome,
    req: &Requirements,
) -> Result<CheckRecord, UnknownTask> {
    let mut verdicts = Vec::new();
    for (c, busy) in o.core_busy.iter().enumerate() {
        let cap = platform.capacity.get(c).copied().unwrap_or(1.0);
        verdicts.push(Verdict {
            requirement: format!("core {c} busy at most {:.1} %", cap * 100.0),
            holds: *busy <= cap + 1e-9,
            detail: format!("{:.1} % busy", busy * 100.0),
        });
    }
    verdicts.push(Verdict {
        requirement: "the cores keep up with the recorded input rate".to_string(),
        holds: o.keeps_up(),
        detail: format!("{:.1} % of it sustained", o.sustained_rate * 100.0),
    });
    let task =
        |name: &str| workload.tasks.iter().position(|t| t.name == name).ok_or_else(|| UnknownTask(name.to_string()));
    for (name, limit) in &req.deadlines {
        let i = task(name)?;
        let t = &o.tasks[i];
        // The replay counts misses against the task's deadline, which is
        // the user's where given.
        let misses = if workload.tasks[i].deadline_ns == Some(*limit) {
            t.deadline_misses.map_or(String::new(), |m| format!("; {m} of {} jobs late", t.jobs))
        } else {
            String::new()
        };
        let (holds, detail) = match t.response_max_ns {
            Some(w) if w <= *limit => (true, format!("longest response {}", ms(w))),
            Some(w) => (false, format!("longest response {}, {} over{misses}", ms(w), ms(w - limit))),
            None => (true, "no job finished in the replay".to_string()),
        };
        verdicts.push(Verdict { requirement: format!("{name} within its deadline of {}", ms(*limit)), holds, detail });
    }
    for (k, chain) in workload.chains.iter().enumerate() {
        let (Some(limit), Some(r)) = (chain.deadline_ns, o.chains.get(k)) else { continue };
        let worst = r.latencies_ns.iter().enumerate().filter_map(|(n, l)| Some((n, (*l)?))).max_by_key(|&(_, l)| l);
        let missed = r.latencies_ns.iter().filter(|l| l.is_none_or(|l| l > limit)).count();
        // Where the worst instance is: its release in the replay's clock.
        let at = |n: usize| {
            r.released_ns
                .get(n)
                .filter(|&&t| t != u64::MAX)
                .map_or(String::new(), |&t| format!(", released at {}", ms(t)))
        };
        let (holds, detail) = match worst {
            Some((n, w)) if w > limit || missed > 0 => (
                false,
                format!(
                    "worst instance {n} (of {}{}) took {}, {} over; {missed} instances late or unfinished",
                    r.instances,
                    at(n),
                    ms(w),
                    ms(w.saturating_sub(limit))
                ),
            ),
            Some((n, w)) => (true, format!("worst instance {n} (of {}) took {}", r.instances, ms(w))),
            None => (r.instances == 0, format!("{} instances, none finished", r.instances)),
        };
        verdicts.push(Verdict { requirement: format!("chain {} within {}", chain.name, ms(limit)), holds, detail });
    }
    for (name, limit) in &req.max_ready {
        let i = task(name)?;
        let t = &o.tasks[i];
        let mean = t.ready_ns.checked_div(t.jobs).unwrap_or(t.ready_ns);
        verdicts.push(Verdict {
            requirement: format!("{name} READY at most {} per job on average", ms(*limit)),
            holds: mean <= *limit,
            detail: format!("{} per job over {} jobs", ms(mean), t.jobs),
        });
    }
    for (name, limit) in &req.max_response {
        let i = task(name)?;
        let t = &o.tasks[i];
        let (holds, detail) = match t.response_max_ns {
            Some(w) if w <= *limit => (true, format!("longest response {}", ms(w))),
            Some(w) => (false, format!("longest response {}, {} over", ms(w), ms(w - limit))),
            None => (true, "no job finished in the replay".to_string()),
        };
        verdicts.push(Verdict { requirement: format!("{name} responds within {}", ms(*limit)), holds, detail });
    }
    Ok(CheckRecord { schema_version: SCHEMA_VERSION, input: input.to_string(), setup: setup.to_string(), verdicts })
}

/// One line per requirement, then the count.
pub fn check_text(r: &CheckRecord) -> String {
    let mut s = format!("{}: replayed under {}\n", r.input, r.setup);
    for v in &r.verdicts {
        let _ = writeln!(s, "{}  {}: {}", if v.holds { "holds" } else { "FAILS" }, v.requirement, v.detail);
    }
    let failed = r.failures();
    let _ = writeln!(
        s,
        "{}",
        if failed == 0 {
            format!("all {} requirements hold", r.verdicts.len())
        } else {
            format!("{failed} of {} requirements fail", r.verdicts.len())
        }
    );
    s
}

/// JUnit XML: one test suite, one test case per requirement, a failure for
/// each that fails.
pub fn junit(r: &CheckRecord) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ =
        writeln!(s, "<testsuites name=\"corera check\" tests=\"{}\" failures=\"{}\">", r.verdicts.len(), r.failures());
    let _ = writeln!(
        s,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\">",
        xml(&format!("{} under {}", r.input, r.setup)),
        r.verdicts.len(),
        r.failures()
    );
    for v in &r.verdicts {
        let name = xml(&v.requirement);
        if v.holds {
            let _ = writeln!(s, "    <testcase classname=\"corera.check\" name=\"{name}\"/>");
        } else {
            let _ = writeln!(
                s,
                "    <testcase classname=\"corera.check\" name=\"{name}\">\n      <failure message=\"{}\"/>\n    </testcase>",
                xml(&v.detail)
            );
        }
    }
    s.push_str("  </testsuite>\n</testsuites>\n");
    s
}
