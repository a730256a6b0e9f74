//! A model's cause-effect chains (`constraintsModel/eventChains`) and the
//! communication semantics of its tasks (LET or implicit).
//!
//! | model element | what corera takes |
//! |---|---|
//! | `eventModel` `ProcessEvent @entity` | the task an event is about |
//! | `eventChains @stimulus @response`, `items` (`EventChainContainer` > `eventChain`, `EventChainReference @eventChain`) | a chain: the tasks of the events in order; `itemType="parallel"` makes one chain per branch |
//! | `timingConstraints` `EventChainLatencyConstraint @scope @type` `maximum` | the chain's deadline, on its data age (`Age`) or its reaction time (`Reaction`) |
//! | `LabelAccess @implementation="timed"` (every label access of a task) | a LET task: reads at its release, writes its logical execution time later (its response-time requirement, else its period) |
//!
//! The tasks of a chain communicate through labels, each on its own
//! release, so the chains are data chains: their latency is a data age or
//! a reaction time ([`ModelChain::age`]), measured in every replay.

use std::collections::{BTreeMap, HashMap};

use super::Failure;
use super::xml::{Element, reference, time_ns};
use crate::system::ModelChain;

/// The chains of the model under `root`; what cannot be read as a chain
/// of tasks is counted in `ignored`.
pub(super) fn read(root: &Element, ignored: &mut BTreeMap<String, u64>) -> Result<Vec<ModelChain>, Failure> {
    let Some(cm) = root.kid("constraintsModel") else { return Ok(Vec::new()) };
    let mut task_of: HashMap<String, String> = HashMap::new();
    for e in root.kids("eventModel").flat_map(|m| m.kids("events")) {
        if e.kind() == "ProcessEvent"
            && let Some(entity) = e.attr("entity")
        {
            task_of.insert(e.name_attr().to_string(), reference(entity));
        }
    }
    let top: HashMap<&str, &Element> = cm.kids("eventChains").map(|c| (c.name_attr(), c)).collect();
    let mut limits: HashMap<String, (bool, u64)> = HashMap::new();
    for t in cm.kids("timingConstraints").filter(|t| t.kind() == "EventChainLatencyConstraint") {
        let Some(max) = t.kid("maximum") else { continue };
        let age = t.attr("type") != Some("Reaction");
        limits.insert(reference(t.attr("scope").unwrap_or("")), (age, time_ns(max)?));
    }
    let reader = Flatten { task_of: &task_of, top: &top };
    let mut chains = Vec::new();
    for c in cm.kids("eventChains") {
        let branches = if c.attr("itemType") == Some("parallel") {
            c.kids("items").map(|i| reader.item(i, 0)).collect::<Result<Vec<_>, _>>()
        } else {
            reader.chain(c, 0).map(|t| vec![t])
        };
        let branches = match branches {
            Ok(b) => b,
            Err(why) => {
                *ignored.entry(format!("event chains {why}")).or_default() += 1;
                continue;
            }
        };
        let (age, deadline_ns) = match limits.get(c.name_attr()) {
            Some(&(age, max)) => (age, Some(max)),
            None => (true, None),
        };
        let many = branches.len() > 1;
        for (k, tasks) in branches.into_iter().enumerate() {
            let name = if many { format!("{}/{k}", c.name_attr()) } else { c.name_attr().to_string() };
            chains.push(ModelChain { name, tasks, age, deadline_ns });
        }
    }
    Ok(chains)
}

/// Flattens an event chain into its tasks.
struct Flatten<'a> {
    task_of: &'a HashMap<String, String>,
    top: &'a HashMap<&'a str, &'a Element>,
}

impl Flatten<'_> {
    /// The tasks of chain `c`: its items' in sequence, else its stimulus
    /// and response. `Err`: why it is not a chain of tasks.
    fn chain(&self, c: &Element, depth: usize) -> Result<Vec<String>, &'static str> {
        if depth > 16 {
            return Err("nested more than 16 deep (or referring to themselves)");
        }
        let items: Vec<&Element> = c.kids("items").collect();
        if items.is_empty() {
            let mut tasks = vec![self.task(c.attr("stimulus"))?, self.task(c.attr("response"))?];
            tasks.dedup();
            return Ok(tasks);
        }
        if c.attr("itemType") == Some("parallel") {
            return Err("with parallel branches inside a sequence");
        }
        let mut tasks: Vec<String> = Vec::new();
        for i in items {
            for t in self.item(i, depth + 1)? {
                if tasks.last() != Some(&t) {
                    tasks.push(t);
                }
            }
        }
        Ok(tasks)
    }

    fn item(&self, i: &Element, depth: usize) -> Result<Vec<String>, &'static str> {
        match i.kind() {
            "EventChainContainer" => self.chain(i.kid("eventChain").ok_or("with an empty container")?, depth),
            "EventChainReference" => {
                let name = reference(i.attr("eventChain").unwrap_or(""));
                self.chain(self.top.get(name.as_str()).ok_or("referring to a chain the model lacks")?, depth)
            }
            _ => Err("with items of another kind"),
        }
    }

    fn task(&self, event: Option<&str>) -> Result<String, &'static str> {
        let name = reference(event.ok_or("without a stimulus or response")?);
        self.task_of.get(&name).cloned().ok_or("through events other than ProcessEvents on tasks")
    }
}

/// Whether the task `t` communicates under LET: it accesses labels, all of
/// them `timed`.
pub(super) fn is_let(t: &Element) -> bool {
    fn accesses<'a>(e: &'a Element, out: &mut Vec<&'a Element>) {
        for c in &e.children {
            if c.kind() == "LabelAccess" {
                out.push(c);
            }
            accesses(c, out);
        }
    }
    let mut all = Vec::new();
    accesses(t, &mut all);
    !all.is_empty() && all.iter().all(|a| a.attr("implementation") == Some("timed"))
}
