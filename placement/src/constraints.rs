//! User constraints on a placement: pins to a core or a set of cores,
//! forbidden cores, tasks kept together, tasks kept apart.
//!
//! Constraints come from the command line (`--pin`, `--forbid`,
//! `--together`, `--apart`) or a constraints file (TOML):
//!
//! ```toml
//! together = [["NetRx", "Parser"]]
//! apart = [["MotorA", "MotorB"]]
//!
//! [[pin]]
//! task = "MotorCtl"
//! cores = [1]
//!
//! [[forbid]]
//! task = "Logger"
//! cores = [0]
//!
//! objective = "response"   # what the placement is judged by (see Objective)
//!
//! [[deadline]]             # jobs of MotorCtl must finish within 0.5 ms
//! task = "MotorCtl"
//! ms = 0.5
//!
//! [[priority]]             # the replay's priority of MotorCtl
//! task = "MotorCtl"
//! priority = 12
//! ```
//!
//! [`Problem::from_graph`](crate::Problem::from_graph) applies them and
//! names the constraints that conflict when no placement can meet them.

use serde::Deserialize;

use corera_trace_ingest::PriorityOverride;

use crate::{CoreId, Objective};

/// A rule about the cores one task may use.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoreRule {
    /// Task name.
    pub task: String,
    /// Cores.
    pub cores: Vec<CoreId>,
}

impl CoreRule {
    /// A rule from `NAME=CORES`, where CORES is a list of cores and ranges
    /// such as `1`, `0,2` or `4-7`.
    ///
    /// # Errors
    /// A message saying what was expected.
    pub fn parse(text: &str) -> Result<CoreRule, String> {
        let (task, cores) =
            text.rsplit_once('=').ok_or("expected NAME=CORES, e.g. MotorCtl=1 or Logger=0,2-3".to_string())?;
        if task.is_empty() {
            return Err("the task name before `=` is empty".into());
        }
        let mut out = Vec::new();
        for part in cores.split(',') {
            let part = part.trim();
            let number = |s: &str| s.trim().parse::<CoreId>().map_err(|_| format!("`{s}` is not a core number"));
            match part.split_once('-') {
                Some((a, b)) => {
                    let (a, b) = (number(a)?, number(b)?);
                    if a > b {
                        return Err(format!("core range `{part}` runs backwards"));
                    }
                    out.extend(a..=b);
                }
                None => out.push(number(part)?),
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(CoreRule { task: task.to_string(), cores: out })
    }

    fn cores_text(&self) -> String {
        self.cores.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
    }
}

/// A deadline for a task's jobs.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deadline {
    /// Task name.
    pub task: String,
    /// Release to finish, in ms.
    pub ms: f64,
}

impl Deadline {
    /// A deadline from `NAME=MS`.
    ///
    /// # Errors
    /// A message saying what was expected.
    pub fn parse(text: &str) -> Result<Deadline, String> {
        let (task, ms) = text.rsplit_once('=').ok_or("expected NAME=MS, e.g. MotorCtl=0.5".to_string())?;
        match ms.trim().parse::<f64>() {
            Ok(ms) if ms > 0.0 && ms.is_finite() && !task.is_empty() => Ok(Deadline { task: task.to_string(), ms }),
            _ => Err(format!("`{text}`: expected NAME=MS with a positive number of milliseconds")),
        }
    }

    /// The deadline in ns.
    pub fn ns(&self) -> u64 {
        (self.ms * 1e6).round() as u64
    }
}

/// An AUTOSAR OS-Application the user names (`[[os_application]]` in the
/// constraints file): its tasks share a core, as an OS-Application is bound
/// to one, and `--target autosar` writes it under this name.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OsApplication {
    /// Its short name.
    pub name: String,
    /// Its tasks and ISRs.
    pub tasks: Vec<String>,
    /// `OsTrusted`, when given.
    #[serde(default)]
    pub trusted: Option<bool>,
    /// Its criticality (ASIL, SIL, QM), written as its description.
    #[serde(default)]
    pub criticality: Option<String>,
}

/// Everything the user asked of a placement besides its cost.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Constraints {
    /// Each task may run only on the listed cores (several rules for one
    /// task intersect).
    #[serde(default)]
    pub pin: Vec<CoreRule>,
    /// Each task may not run on the listed cores.
    #[serde(default)]
    pub forbid: Vec<CoreRule>,
    /// Each group of tasks shares one core.
    #[serde(default)]
    pub together: Vec<Vec<String>>,
    /// The tasks of each group run on pairwise different cores.
    #[serde(default)]
    pub apart: Vec<Vec<String>>,
    /// What the placement is judged by, when the file says (the command
    /// line's `--objective` wins).
    #[serde(default)]
    pub objective: Option<Objective>,
    /// Deadlines of tasks' jobs (else a periodic task's period is its
    /// deadline).
    #[serde(default)]
    pub deadline: Vec<Deadline>,
    /// Task priorities for the replay (the command line's `--priority`
    /// is added after them and wins).
    #[serde(default)]
    pub priority: Vec<PriorityOverride>,
    /// AUTOSAR OS-Applications: groups of tasks on one core, by name.
    #[serde(default, rename = "os_application")]
    pub os_applications: Vec<OsApplication>,
}

/// One constraint, for messages: how the user would write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    /// `Constraints::pin[i]`.
    Pin(usize),
    /// `Constraints::forbid[i]`.
    Forbid(usize),
    /// `Constraints::together[i]`.
    Together(usize),
    /// `Constraints::apart[i]`.
    Apart(usize),
    /// `Constraints::os_applications[i]`.
    OsApplication(usize),
    /// The default pin of an ISR: to the core it ran on, else core 0.
    IsrDefault(u32, CoreId),
}

impl Constraints {
    /// Reads a constraints file (TOML).
    ///
    /// # Errors
    /// The TOML error, which names the line.
    pub fn from_toml(text: &str) -> Result<Constraints, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }

    /// Whether there are no constraints on cores.
    pub fn is_empty(&self) -> bool {
        self.pin.is_empty() && self.forbid.is_empty() && self.together.is_empty() && self.apart.is_empty()
    }

    /// Adds all of `other`'s constraints; `other`'s objective, when it has
    /// one, wins.
    pub fn extend(&mut self, other: Constraints) {
        self.pin.extend(other.pin);
        self.forbid.extend(other.forbid);
        self.together.extend(other.together);
        self.apart.extend(other.apart);
        self.deadline.extend(other.deadline);
        self.priority.extend(other.priority);
        self.os_applications.extend(other.os_applications);
        self.objective = other.objective.or(self.objective);
    }

    /// Every constraint as a command-line flag, quoted for a POSIX shell,
    /// so that a run can be repeated exactly.
    pub fn flags(&self) -> Vec<String> {
        let rules = (0..self.pin.len())
            .map(Rule::Pin)
            .chain((0..self.forbid.len()).map(Rule::Forbid))
            .chain((0..self.together.len()).map(Rule::Together))
            .chain((0..self.apart.len()).map(Rule::Apart));
        let quote = |value: &str| format!("'{}'", value.replace('\'', "'\\''"));
        let mut flags: Vec<String> = rules
            .map(|r| {
                let text = self.describe(r, &[]);
                let (flag, value) = text.split_once(' ').expect("flags have a value");
                format!("{flag} {}", quote(value))
            })
            .collect();
        // An OS-Application keeps its tasks together; its name only the
        // constraints file carries.
        flags.extend(
            self.os_applications
                .iter()
                .filter(|a| a.tasks.len() > 1)
                .map(|a| format!("--together {}", quote(&a.tasks.join(",")))),
        );
        flags.extend(self.deadline.iter().map(|d| format!("--deadline {}", quote(&format!("{}={}", d.task, d.ms)))));
        flags.extend(
            self.priority.iter().map(|p| format!("--priority {}", quote(&format!("{}={}", p.task, p.priority)))),
        );
        flags
    }

    /// How the user would write `rule` on the command line.
    pub(crate) fn describe(&self, rule: Rule, names: &[String]) -> String {
        match rule {
            Rule::Pin(i) => format!("--pin {}={}", self.pin[i].task, self.pin[i].cores_text()),
            Rule::Forbid(i) => format!("--forbid {}={}", self.forbid[i].task, self.forbid[i].cores_text()),
            Rule::Together(i) => format!("--together {}", self.together[i].join(",")),
            Rule::Apart(i) => format!("--apart {}", self.apart[i].join(",")),
            Rule::OsApplication(i) => {
                let app = &self.os_applications[i];
                format!("OS-Application `{}` ({}) of the constraints file", app.name, app.tasks.join(","))
            }
            Rule::IsrDefault(t, 0) => {
                format!("ISR `{}` on core 0 (the default; --pin it elsewhere)", names[t as usize])
            }
            Rule::IsrDefault(t, c) => {
                format!("ISR `{}` on core {c}, where the recording ran it (--pin it elsewhere)", names[t as usize])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_rules_parse_lists_and_ranges() {
        assert_eq!(CoreRule::parse("Motor Ctl=1"), Ok(CoreRule { task: "Motor Ctl".into(), cores: vec![1] }));
        assert_eq!(CoreRule::parse("a=b=4-6,0, 5").unwrap().cores, vec![0, 4, 5, 6]);
        assert_eq!(CoreRule::parse("a=b=4-6").unwrap().task, "a=b");
        for (bad, want) in [("Motor", "expected NAME=CORES"), ("=1", "empty"), ("M=x", "`x`"), ("M=3-1", "backwards")] {
            let e = CoreRule::parse(bad).unwrap_err();
            assert!(e.contains(want), "{bad}: {e}");
        }
    }

    #[test]
    fn files_parse_and_reject_unknown_keys() {
        let c = Constraints::from_toml(
            "together = [[\"A\", \"B\"]]\napart = [[\"C\", \"D\", \"E\"]]\n[[pin]]\ntask = \"A\"\ncores = [1, 2]\n",
        )
        .unwrap();
        assert_eq!(c.together, vec![vec!["A".to_string(), "B".into()]]);
        assert_eq!(c.apart[0].len(), 3);
        assert_eq!(c.pin[0].cores, vec![1, 2]);
        assert_eq!(c.describe(Rule::Pin(0), &[]), "--pin A=1,2");
        assert_eq!(c.flags(), ["--pin 'A=1,2'", "--together 'A,B'", "--apart 'C,D,E'"]);
        let e = Constraints::from_toml("keep = 1\n").unwrap_err();
        assert!(e.contains("unknown field `keep`"), "{e}");
    }
}
