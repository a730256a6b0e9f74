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
//!
//! [[chain]]                # a cause-effect chain, measured in every replay
//! name = "page"
//! tasks = ["NetRxIsr", "NetStack", "JobParser"]
//! deadline_ms = 5          # optional: its instances must end within 5 ms
//! ```
//!
//! [`Problem::from_graph`](crate::Problem::from_graph) applies them and
//! names the constraints that conflict when no placement can meet them.

use serde::{Deserialize, Serialize};

/// A constraints file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ConstraintsFileError {
    /// Not TOML, or not the file's shape (names the line and column).
    #[error(transparent)]
    Toml(Box<toml::de::Error>),
    /// A chain that is not one (names the chain).
    #[error("{0}")]
    Chain(String),
}

use corera_trace_ingest::ModelChain;
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

/// How a chain's tasks pass work on, and so what its latency is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChainKind {
    /// Each task releases the next (a message, a notification, a semaphore
    /// given): from the release of a first job to the finish of the last
    /// job it caused.
    #[default]
    Triggered,
    /// The tasks pass data through shared variables, each on its own
    /// release: the reaction time, from the release of a first job to the
    /// finish of the first job of the last task that reads data derived
    /// from it.
    Reaction,
    /// Through shared variables: the data age, from the release of the
    /// first job whose data a last job used to that last job's finish.
    Age,
}

impl ChainKind {
    /// Every kind: the one list `--chain KIND:` and the reports read.
    pub const ALL: [ChainKind; 3] = [ChainKind::Triggered, ChainKind::Reaction, ChainKind::Age];

    /// Its name, as `--chain KIND:NAME=...` and the constraints file write
    /// it.
    pub fn name(self) -> &'static str {
        match self {
            ChainKind::Triggered => "triggered",
            ChainKind::Reaction => "reaction",
            ChainKind::Age => "age",
        }
    }
}

/// A cause-effect chain the user names, measured end to end in every
/// replay (`--chain [KIND:]NAME=A>B>C[@MS]`, `[[chain]]`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chain {
    /// Its name in reports.
    pub name: String,
    /// Its tasks, cause first.
    pub tasks: Vec<String>,
    /// End-to-end deadline of each instance, ms.
    #[serde(default)]
    pub deadline_ms: Option<f64>,
    /// How its tasks pass work on (default `triggered`).
    #[serde(default)]
    pub kind: ChainKind,
}

impl Chain {
    /// A chain from `NAME=A>B>C`, optionally followed by `@DEADLINE` in ms
    /// (or with a unit: `@500us`, `@2ms`, `@0.1s`) and preceded by its kind
    /// (`reaction:NAME=...`, `age:NAME=...`; default triggered).
    ///
    /// # Errors
    /// A message saying what was expected.
    pub fn parse(text: &str) -> Result<Chain, String> {
        const WANT: &str = "expected [KIND:]NAME=A>B>C[@MS], e.g. page=NetRxIsr>NetStack>JobParser@5 \
                            (KIND: triggered, reaction or age)";
        let (kind, text) = match text.split_once(':') {
            Some((k, rest)) if !k.contains('=') => {
                let kind = ChainKind::ALL
                    .into_iter()
                    .find(|c| c.name() == k.trim())
                    .ok_or_else(|| format!("`{k}` is not a chain kind: {WANT}"))?;
                (kind, rest)
            }
            _ => (ChainKind::Triggered, text),
        };
        let (name, rest) = text.split_once('=').ok_or_else(|| format!("`{text}`: {WANT}"))?;
        let (path, deadline) = match rest.rsplit_once('@') {
            Some((path, d)) => (path, Some(parse_ms_with_unit(d).ok_or_else(|| format!("`{d}`: {WANT}"))?)),
            None => (rest, None),
        };
        let tasks: Vec<String> = path.split('>').map(|t| t.trim().to_string()).collect();
        if name.trim().is_empty() || tasks.iter().any(String::is_empty) {
            return Err(format!("`{text}`: {WANT}"));
        }
        Ok(Chain { name: name.trim().to_string(), tasks, deadline_ms: deadline, kind })
    }

    /// Checks what a file may hold but a chain may not be.
    ///
    /// # Errors
    /// What is wrong, naming the chain.
    pub fn check(&self) -> Result<(), String> {
        if self.name.trim().is_empty() || self.tasks.is_empty() || self.tasks.iter().any(|t| t.trim().is_empty()) {
            return Err(format!("chain `{}`: a chain needs a name and at least one task name", self.name));
        }
        match self.deadline_ms {
            Some(d) if !(d > 0.0 && d.is_finite()) => {
                Err(format!("chain `{}`: deadline_ms = {d} is not a positive number of milliseconds", self.name))
            }
            _ => Ok(()),
        }
    }

    /// The deadline in ns.
    pub fn deadline_ns(&self) -> Option<u64> {
        self.deadline_ms.map(|ms| (ms * 1e6).round() as u64)
    }

    /// How the user would write it on the command line.
    pub fn flag_value(&self) -> String {
        let path = self.tasks.join(">");
        let kind = match self.kind {
            ChainKind::Triggered => String::new(),
            k => format!("{}:", k.name()),
        };
        match self.deadline_ms {
            Some(d) => format!("{kind}{}={path}@{d}", self.name),
            None => format!("{kind}{}={path}", self.name),
        }
    }
}

impl From<&ModelChain> for Chain {
    /// A model's event chain: a data chain judged by its data age or its
    /// reaction time, as its latency constraint says.
    fn from(c: &ModelChain) -> Chain {
        Chain {
            name: c.name.clone(),
            tasks: c.tasks.clone(),
            deadline_ms: c.deadline_ns.map(|ns| ns as f64 / 1e6),
            kind: if c.age { ChainKind::Age } else { ChainKind::Reaction },
        }
    }
}

/// `5`, `5ms`, `500us`, `500µs`, `0.1s` as ms; `None` unless positive.
fn parse_ms_with_unit(text: &str) -> Option<f64> {
    let t = text.trim();
    let (number, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix("us").or_else(|| t.strip_suffix("µs")) {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix("ns") {
        (n, 1e-6)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1e3)
    } else {
        (t, 1.0)
    };
    let v = number.trim().parse::<f64>().ok()? * scale;
    (v > 0.0 && v.is_finite()).then_some(v)
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
    /// Cause-effect chains to measure in every replay.
    #[serde(default, rename = "chain")]
    pub chains: Vec<Chain>,
    /// Requirements `corera check` judges: the longest response a task's
    /// jobs may take ...
    #[serde(default)]
    pub max_response: Vec<Deadline>,
    /// ... and the most READY they may wait on average.
    #[serde(default)]
    pub max_ready: Vec<Deadline>,
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
    pub fn from_toml(text: &str) -> Result<Constraints, ConstraintsFileError> {
        let c: Constraints = toml::from_str(text).map_err(|e| ConstraintsFileError::Toml(Box::new(e)))?;
        c.chains.iter().try_for_each(Chain::check).map_err(ConstraintsFileError::Chain)?;
        Ok(c)
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
        self.chains.extend(other.chains);
        self.max_response.extend(other.max_response);
        self.max_ready.extend(other.max_ready);
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
        flags.extend(self.chains.iter().map(|c| format!("--chain {}", quote(&c.flag_value()))));
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
    fn chains_parse_with_and_without_a_deadline() {
        let c = Chain::parse("page=NetRxIsr > NetStack>JobParser@5").unwrap();
        assert_eq!((c.name.as_str(), c.tasks.len(), c.deadline_ns()), ("page", 3, Some(5_000_000)));
        assert_eq!(Chain::parse("a=X>Y@500us").unwrap().deadline_ns(), Some(500_000));
        assert_eq!(Chain::parse("a=X@0.1s").unwrap().deadline_ns(), Some(100_000_000));
        assert_eq!(Chain::parse("a=X>Y").unwrap().deadline_ns(), None);
        assert_eq!(Chain::parse("a=X>Y@2").unwrap().flag_value(), "a=X>Y@2");
        let age = Chain::parse("age:a=X>Y@25").unwrap();
        assert_eq!((age.kind, age.flag_value().as_str()), (ChainKind::Age, "age:a=X>Y@25"));
        assert_eq!(Chain::parse("reaction:a=X").unwrap().kind, ChainKind::Reaction);
        assert_eq!(Chain::parse("a=X:Y>Z").unwrap().tasks, ["X:Y", "Z"]);
        for bad in ["page", "=A>B", "p=A>>B", "p=A>B@", "p=A>B@-3", "p=A>B@soon", "late:p=A>B"] {
            assert!(Chain::parse(bad).unwrap_err().contains("expected [KIND:]NAME=A>B>C"), "{bad}");
        }
    }

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
        assert!(matches!(e, ConstraintsFileError::Toml(_)) && e.to_string().contains("unknown field `keep`"), "{e}");
        let c = Constraints::from_toml("[[chain]]\nname = \"p\"\ntasks = [\"A\", \"B\"]\ndeadline_ms = 2.5\n").unwrap();
        assert_eq!(c.chains[0].deadline_ns(), Some(2_500_000));
        assert_eq!(c.flags(), ["--chain 'p=A>B@2.5'"]);
        let e = Constraints::from_toml("[[chain]]\nname = \"p\"\ntasks = []\n").unwrap_err();
        assert!(matches!(e, ConstraintsFileError::Chain(_)) && e.to_string().contains("at least one task"), "{e}");
        let e = Constraints::from_toml("[[chain]]\nname = \"p\"\ntasks = [\"A\"]\ndeadline_ms = -1\n").unwrap_err();
        assert!(e.to_string().contains("not a positive number"), "{e}");
    }
}
