//! The placement problem: tasks, loads, traffic and pins.

use corera_task_graph::TaskGraph;
use corera_trace_ingest::TaskKind;
use serde::Serialize;

use crate::{Constraints, CoreId, CoreSet, Placement, Platform};

/// Constraints that no placement can meet, or that name what is not there.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PlacementError {
    /// A constraint names a task that is not in the trace.
    #[error("{rule}: there is no task `{task}` in the trace; {hint}")]
    UnknownTask {
        /// The constraint, as written on the command line.
        rule: String,
        /// The name given.
        task: String,
        /// Names it may have meant, or where to find the names.
        hint: String,
    },
    /// A constraint names a core the platform does not have.
    #[error("{rule}: the platform has cores 0..={last} only")]
    NoSuchCore {
        /// The constraint, as written on the command line.
        rule: String,
        /// The last core.
        last: CoreId,
    },
    /// A constraint that says nothing (e.g. `--apart` with one task).
    #[error("{rule}: {problem}")]
    Usage {
        /// The constraint, as written on the command line.
        rule: String,
        /// What is wrong with it.
        problem: String,
    },
    /// Constraints that no placement can meet together.
    #[error("the constraints conflict: {reason}; see {}", rules.join(" and "))]
    Conflict {
        /// Why.
        reason: String,
        /// The constraints involved, as written on the command line.
        rules: Vec<String>,
    },
    /// Pinned load alone overloads a core.
    #[error(
        "the tasks pinned to core {core} ({tasks}) need {utilisation:.1} % of it, above its capacity of {capacity:.1} %"
    )]
    Overloaded {
        /// The core.
        core: CoreId,
        /// The tasks pinned there.
        tasks: String,
        /// Their utilisation in %.
        utilisation: f64,
        /// The capacity in %.
        capacity: f64,
    },
}

impl PlacementError {
    /// Whether the error is a mistake in the request (an unknown task or
    /// core), rather than constraints that cannot all hold.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            PlacementError::UnknownTask { .. } | PlacementError::NoSuchCore { .. } | PlacementError::Usage { .. }
        )
    }
}

/// What the placement search works on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Problem {
    /// Task names, one per placeable task.
    pub names: Vec<String>,
    /// The task's id in the trace and task graph.
    pub task_ids: Vec<u32>,
    /// CPU demand of each task in ns over the horizon.
    pub load: Vec<u64>,
    /// Core each task must run on, when only one core is allowed.
    pub pinned: Vec<Option<CoreId>>,
    /// Whether each task is an ISR.
    #[serde(skip)]
    pub isr: Vec<bool>,
    /// Cores each task may run on (`None`: any core); `pinned` holds the
    /// tasks with exactly one.
    #[serde(skip)]
    pub allowed: Vec<Option<Vec<bool>>>,
    /// Per task, the tasks that must run on another core.
    #[serde(skip)]
    pub apart: Vec<Vec<u32>>,
    /// Groups of tasks that must share a core (each of two or more).
    #[serde(skip)]
    pub together: Vec<Vec<u32>>,
    /// Undirected traffic edges `(a, b, weight)` with `a < b`, sorted.
    pub edges: Vec<(u32, u32, u64)>,
    /// Adjacency lists `(neighbour, weight)`, built from `edges`.
    #[serde(skip)]
    pub adjacency: Vec<Vec<(u32, u64)>>,
    /// The time span the loads were measured over, in ns.
    pub horizon_ns: u64,
    /// The user's AUTOSAR OS-Applications, each with its tasks (indices).
    #[serde(skip)]
    pub os_applications: Vec<(crate::OsApplication, Vec<u32>)>,
}

impl Problem {
    /// Up to three task names like `given` (equal but for case, or
    /// containing it), as a hint for a misspelt constraint.
    pub(crate) fn similar_names(names: &[String], given: &str) -> String {
        let lower = given.to_lowercase();
        let like: Vec<String> = names
            .iter()
            .filter(|n| {
                let n = n.to_lowercase();
                !lower.is_empty() && (n == lower || n.contains(&lower) || lower.contains(&n))
            })
            .take(3)
            .map(|n| format!("`{n}`"))
            .collect();
        if like.is_empty() {
            "`corera graph TRACE` lists the task names".to_string()
        } else {
            format!("did you mean {}?", like.join(" or "))
        }
    }

    /// A problem from raw parts; `edges` may hold either direction and
    /// repeats, which are merged. Nothing is pinned.
    pub fn new(names: Vec<String>, load: Vec<u64>, edges: Vec<(u32, u32, u64)>, horizon_ns: u64) -> Problem {
        let n = names.len();
        let mut merged: Vec<(u32, u32, u64)> =
            edges.into_iter().filter(|&(a, b, w)| a != b && w > 0).map(|(a, b, w)| (a.min(b), a.max(b), w)).collect();
        merged.sort_unstable();
        merged.dedup_by(|next, kept| {
            if (next.0, next.1) == (kept.0, kept.1) {
                kept.2 += next.2;
                true
            } else {
                false
            }
        });
        let mut adjacency = vec![Vec::new(); n];
        for &(a, b, w) in &merged {
            adjacency[a as usize].push((b, w));
            adjacency[b as usize].push((a, w));
        }
        Problem {
            task_ids: (0..n as u32).collect(),
            names,
            load,
            pinned: vec![None; n],
            isr: vec![false; n],
            allowed: vec![None; n],
            apart: vec![Vec::new(); n],
            together: Vec::new(),
            edges: merged,
            adjacency,
            horizon_ns,
            os_applications: Vec::new(),
        }
    }

    /// The placement problem of a task graph: every task and ISR (idle
    /// tasks excluded), loads from RUNNING time, traffic from interactions
    /// and shared resources. ISRs the user does not pin are pinned to core
    /// 0, where a single-core design routes its interrupts; `constraints`
    /// add the user's pins, forbidden cores, and tasks kept together or
    /// apart.
    ///
    /// # Errors
    /// [`PlacementError`] when a constraint names an unknown task or core,
    /// when constraints conflict (the error names them), or when pinned
    /// load overloads a core.
    pub fn from_graph(
        graph: &TaskGraph,
        platform: &Platform,
        constraints: &Constraints,
    ) -> Result<Problem, PlacementError> {
        let placeable: Vec<_> = graph.tasks.iter().filter(|t| t.kind != TaskKind::Idle).collect();
        let mut index = vec![u32::MAX; graph.tasks.len()];
        for (i, t) in placeable.iter().enumerate() {
            index[t.id as usize] = i as u32;
        }
        let mut edges = Vec::new();
        for e in &graph.edges {
            edges.push((index[e.src as usize], index[e.dst as usize], e.weight));
        }
        for a in &graph.affinities {
            edges.push((index[a.a as usize], index[a.b as usize], a.weight));
        }
        edges.retain(|&(a, b, _)| a != u32::MAX && b != u32::MAX);
        let mut problem = Problem::new(
            placeable.iter().map(|t| t.name.clone()).collect(),
            placeable.iter().map(|t| t.running_ns).collect(),
            edges,
            graph.duration_ns,
        );
        problem.task_ids = placeable.iter().map(|t| t.id).collect();
        // An ISR stays on the core its interrupt is routed to: the one it
        // ran on in a multi-core recording, else core 0.
        let isr_core: Vec<Option<CoreId>> = placeable
            .iter()
            .map(|t| {
                (t.kind == TaskKind::Isr).then(|| match t.cores[..] {
                    [c] if c < platform.cores => c,
                    _ => 0,
                })
            })
            .collect();
        problem.apply(platform, constraints, &isr_core)?;
        problem.isr = isr_core.iter().map(Option::is_some).collect();
        Ok(problem)
    }

    /// Sets the cores task `i` may use (all `true`: any core).
    pub fn restrict(&mut self, i: usize, mask: Vec<bool>) {
        let mut on = mask.iter().enumerate().filter(|(_, ok)| **ok).map(|(c, _)| c as CoreId);
        let (first, second) = (on.next(), on.next());
        self.pinned[i] = if second.is_none() { first } else { None };
        self.allowed[i] = if mask.iter().all(|&ok| ok) { None } else { Some(mask) };
    }

    /// Whether task `i` may run on core `c`.
    #[inline]
    pub fn allows(&self, i: usize, c: usize) -> bool {
        self.allowed[i].as_ref().is_none_or(|mask| mask[c])
    }

    /// Whether task `i` may run on core `c` given where the others are (its
    /// apart partners are not there).
    #[inline]
    pub fn fits(&self, i: usize, c: usize, core_of: &[CoreId]) -> bool {
        self.allows(i, c) && self.apart[i].iter().all(|&j| usize::from(core_of[j as usize]) != c)
    }

    /// Applies an input's hardware restrictions (an Amalthea model's
    /// allowed cores: task name, cores), after the user's constraints: as
    /// hard as a pin, but an overload they alone cause is the workload's
    /// (the search reports it), not a conflict among the user's rules.
    /// Tasks not in the problem are skipped.
    ///
    /// # Errors
    /// [`PlacementError::Usage`] when the user's pins and forbidden cores
    /// leave a task none of the cores its hardware allows.
    pub fn restrict_to_hardware(
        &mut self,
        allowed: &[(String, Vec<CoreId>)],
        cores: CoreId,
    ) -> Result<(), PlacementError> {
        for (task, list) in allowed {
            let Some(i) = self.names.iter().position(|n| n == task) else { continue };
            let mask: Vec<bool> =
                (0..usize::from(cores)).map(|c| self.allows(i, c) && list.contains(&(c as CoreId))).collect();
            if !mask.contains(&true) {
                return Err(PlacementError::Usage {
                    rule: format!("the --pin/--forbid rules for `{task}`"),
                    problem: format!("they exclude every core the model's hardware lets it run on ({list:?})"),
                });
            }
            self.restrict(i, mask);
        }
        Ok(())
    }

    /// A mapping given with the input (an Amalthea model's own: task name,
    /// its cores) as each task's cores: a task it does not name keeps its
    /// pin, or its allowed cores when they are one. `None` when some task
    /// is left without a core.
    pub fn given_mapping(&self, mapping: &[(String, Vec<CoreId>)]) -> Option<Vec<CoreSet>> {
        self.names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                if let Some((_, cores)) = mapping.iter().find(|(t, _)| t == name) {
                    return Some(cores.iter().copied().collect());
                }
                if let Some(c) = self.pinned[i] {
                    return Some(CoreSet::one(c));
                }
                let allowed = self.allowed[i].as_ref()?;
                let cores: CoreSet = (0..allowed.len()).filter(|&c| allowed[c]).map(|c| c as CoreId).collect();
                (cores.len() == 1).then_some(cores)
            })
            .collect()
    }

    /// Whether tasks `i` and `j` may trade cores under `core_of`: each may
    /// use the other's core, and no other task either must avoid is there.
    /// The one swap rule of every search that swaps.
    pub fn swap_fits(&self, i: usize, j: usize, core_of: &[CoreId]) -> bool {
        let (ci, cj) = (core_of[i], core_of[j]);
        let clear = |t: usize, other: usize, on: CoreId| {
            self.apart[t].iter().all(|&x| x as usize == other || core_of[x as usize] != on)
        };
        self.allows(i, cj.into()) && self.allows(j, ci.into()) && clear(i, j, cj) && clear(j, i, ci)
    }

    /// Whether some task may use several but not all cores.
    pub fn has_core_subsets(&self) -> bool {
        self.allowed.iter().zip(&self.pinned).any(|(a, p)| a.is_some() && p.is_none())
    }

    /// What `placement` breaks, as sentences (empty when it meets every
    /// constraint).
    pub fn violations(&self, placement: &Placement) -> Vec<String> {
        let core_of = &placement.core_of;
        let mut out = Vec::new();
        for i in 0..self.len() {
            if !self.allows(i, usize::from(core_of[i])) {
                out.push(format!("`{}` is on core {}, which it may not use", self.names[i], core_of[i]));
            }
            for &j in self.apart[i].iter().filter(|&&j| j as usize > i) {
                if core_of[i] == core_of[j as usize] {
                    out.push(format!(
                        "`{}` and `{}` share core {} but must run apart",
                        self.names[i], self.names[j as usize], core_of[i]
                    ));
                }
            }
        }
        for group in &self.together {
            if group.iter().any(|&i| core_of[i as usize] != core_of[group[0] as usize]) {
                out.push(format!(
                    "{} must share a core",
                    group.iter().map(|&i| format!("`{}`", self.names[i as usize])).collect::<Vec<_>>().join(", ")
                ));
            }
        }
        out
    }

    /// The problem with each group of tasks kept together merged into one
    /// task (load summed, traffic inside the group dropped: it is always
    /// on-core), and each task's index in it; `None` when there are no
    /// such groups. Objectives are equal on both for matching placements.
    pub fn contract(&self) -> Option<(Problem, Vec<u32>)> {
        if self.together.is_empty() {
            return None;
        }
        let n = self.len();
        let mut leader: Vec<usize> = (0..n).collect();
        for group in &self.together {
            for &i in group {
                leader[i as usize] = group[0] as usize;
            }
        }
        let mut slot = vec![u32::MAX; n];
        let mut next = 0u32;
        for i in 0..n {
            if slot[leader[i]] == u32::MAX {
                slot[leader[i]] = next;
                next += 1;
            }
            slot[i] = slot[leader[i]];
        }
        Some((self.merge(&slot), slot))
    }

    /// The problem with the tasks of each group merged into one task:
    /// task `i` becomes task `slot[i]` (slots numbered from 0 without gaps).
    /// Loads add up, traffic inside a group is dropped (always on-core),
    /// traffic between groups adds up; names join with `+`; a merged task
    /// keeps the pin, allowed cores and apart partners of its members (the
    /// caller merges only tasks whose constraints agree).
    pub fn merge(&self, slot: &[u32]) -> Problem {
        let m = slot.iter().map(|&s| s as usize + 1).max().unwrap_or(0);
        let mut names: Vec<String> = vec![String::new(); m];
        let mut load = vec![0u64; m];
        let mut task_ids = vec![0u32; m];
        for (i, &s) in slot.iter().enumerate() {
            let s = s as usize;
            if names[s].is_empty() {
                task_ids[s] = self.task_ids[i];
            } else {
                names[s].push('+');
            }
            names[s].push_str(&self.names[i]);
            load[s] += self.load[i];
        }
        let edges = self.edges.iter().map(|&(a, b, w)| (slot[a as usize], slot[b as usize], w)).collect();
        let mut merged = Problem::new(names, load, edges, self.horizon_ns);
        merged.task_ids = task_ids;
        for (i, &s) in slot.iter().enumerate() {
            let s = s as usize;
            if self.pinned[i].is_some() {
                merged.pinned[s] = self.pinned[i];
            }
            if self.allowed[i].is_some() {
                merged.allowed[s].clone_from(&self.allowed[i]);
            }
            merged.apart[s].extend(self.apart[i].iter().map(|&j| slot[j as usize]));
        }
        for list in &mut merged.apart {
            list.sort_unstable();
            list.dedup();
        }
        merged
    }

    /// Traffic between cores under `core_of`, each edge weighted by the
    /// distance between its cores on `platform` (J, the objective's
    /// traffic term).
    pub fn cross_traffic(&self, platform: &Platform, core_of: &[CoreId]) -> u64 {
        self.edges
            .iter()
            .map(|&(a, b, w)| w * platform.distance(core_of[a as usize].into(), core_of[b as usize].into()))
            .sum()
    }

    /// The core of every trace task under `core_of` (a placement of this
    /// problem), indexed by trace task id; tasks outside the problem (idle
    /// tasks) get core 0.
    pub fn cores_by_task_id(&self, core_of: &[CoreId], trace_tasks: usize) -> Vec<CoreId> {
        let mut cores = vec![0; trace_tasks];
        for (&id, &c) in self.task_ids.iter().zip(core_of) {
            if let Some(slot) = cores.get_mut(id as usize) {
                *slot = c;
            }
        }
        cores
    }

    /// Number of tasks.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no tasks.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The cores task `i` may use on a platform of `cores` cores: its pin,
    /// else its allowed cores, else all.
    pub fn cores_allowed(&self, i: usize, cores: CoreId) -> CoreSet {
        match (&self.pinned[i], &self.allowed[i]) {
            (Some(c), _) => CoreSet::one(*c),
            (None, Some(allowed)) => (0..cores).filter(|&c| allowed.get(usize::from(c)) == Some(&true)).collect(),
            (None, None) => CoreSet::all(cores),
        }
    }

    /// Global SMP within the constraints, on `cores` cores: every task on
    /// every core it may use ([`Problem::cores_allowed`]; an ISR on its pin,
    /// core 0 unless the user pins it elsewhere), and whether that narrows
    /// plain global SMP (every task anywhere, ISRs on core 0).
    pub fn smp_masks(&self, cores: CoreId) -> (Vec<CoreSet>, bool) {
        let masks: Vec<CoreSet> = (0..self.len()).map(|i| self.cores_allowed(i, cores)).collect();
        let plain = |i: usize, set: &CoreSet| {
            if self.isr[i] { *set == CoreSet::one(0) } else { set.len() == usize::from(cores) }
        };
        let narrowed = masks.iter().enumerate().any(|(i, set)| !plain(i, set));
        (masks, narrowed)
    }

    /// Total load in ns.
    pub fn total_load(&self) -> u64 {
        self.load.iter().sum()
    }

    /// Total traffic weight (what a one-core placement keeps on-core).
    pub fn total_traffic(&self) -> u64 {
        self.edges.iter().map(|e| e.2).sum()
    }

    /// Which cores keep their identity when placements are compared up to
    /// a renaming of cores: those holding a pinned task, and every core
    /// when some task may use only a subset of several cores.
    pub fn fixed_cores(&self, cores: CoreId) -> Vec<bool> {
        if self.has_core_subsets() {
            return vec![true; cores as usize];
        }
        let mut fixed = vec![false; cores as usize];
        for c in self.pinned.iter().flatten() {
            fixed[*c as usize] = true;
        }
        fixed
    }

    pub(crate) fn check_pins(&self, platform: &Platform) -> Result<(), PlacementError> {
        if self.horizon_ns == 0 {
            return Ok(());
        }
        for core in 0..platform.cores {
            let on: Vec<usize> = (0..self.len()).filter(|&i| self.pinned[i] == Some(core)).collect();
            let load: u64 = on.iter().map(|&i| self.load[i]).sum();
            let utilisation = load as f64 / (self.horizon_ns as f64 * platform.speed[usize::from(core)]);
            let capacity = platform.capacity[usize::from(core)];
            if utilisation > capacity {
                return Err(PlacementError::Overloaded {
                    core,
                    tasks: on.iter().map(|&i| self.names[i].as_str()).collect::<Vec<_>>().join(", "),
                    utilisation: utilisation * 100.0,
                    capacity: capacity * 100.0,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CoreRule;

    fn four() -> Problem {
        let names = ["Irq", "A", "B", "C"].map(String::from).to_vec();
        Problem::new(names, vec![100, 200, 300, 400], vec![(1, 2, 5), (2, 3, 7), (0, 1, 1)], 1000)
    }

    fn rule(task: &str, cores: &[CoreId]) -> CoreRule {
        CoreRule { task: task.into(), cores: cores.to_vec() }
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn an_os_application_keeps_its_tasks_on_one_core_and_owns_them_alone() {
        let app = |name: &str, tasks: &[&str]| crate::OsApplication {
            name: name.into(),
            tasks: names(tasks),
            trusted: Some(true),
            criticality: Some("ASIL-D".into()),
        };
        let mut p = four();
        let c =
            Constraints { os_applications: vec![app("Safety", &["A", "C"]), app("Qm", &["B"])], ..Default::default() };
        p.apply(&Platform::identical(2), &c, &[Some(0), None, None, None]).unwrap();
        assert_eq!(p.together, vec![vec![1, 3]]);
        assert_eq!(
            p.os_applications.iter().map(|(a, ids)| (a.name.as_str(), ids.clone())).collect::<Vec<_>>(),
            [("Safety", vec![1, 3]), ("Qm", vec![2])]
        );
        assert_eq!(c.flags(), ["--together 'A,C'"]);
        // A task in two OS-Applications, or an unknown one, is refused with
        // the rules named.
        let two =
            Constraints { os_applications: vec![app("Safety", &["A"]), app("Qm", &["A", "B"])], ..Default::default() };
        let e = four().apply(&Platform::identical(2), &two, &[Some(0), None, None, None]).unwrap_err().to_string();
        assert!(e.contains("`A` belongs to two OS-Applications") && e.contains("OS-Application `Qm` (A,B)"), "{e}");
        let unknown = Constraints { os_applications: vec![app("Safety", &["Nope"])], ..Default::default() };
        assert!(four().apply(&Platform::identical(2), &unknown, &[None; 4]).is_err());
        // In the constraints file.
        let parsed = Constraints::from_toml(
            "[[os_application]]\nname = \"Safety\"\ntasks = [\"A\", \"C\"]\ntrusted = true\ncriticality = \"ASIL-D\"\n",
        )
        .unwrap();
        assert_eq!(parsed.os_applications, vec![app("Safety", &["A", "C"])]);
        assert!(Constraints::from_toml("[[os_application]]\nname = \"X\"\ntasks = []\nlevel = 1\n").is_err());
    }

    #[test]
    fn constraints_set_allowed_cores_groups_and_partners() {
        let mut p = four();
        let c = Constraints {
            pin: vec![rule("A", &[1, 2])],
            forbid: vec![rule("A", &[2]), rule("C", &[0])],
            together: vec![names(&["B", "C"])],
            apart: vec![names(&["A", "C"])],
            ..Default::default()
        };
        p.apply(&Platform::identical(3), &c, &[Some(0), None, None, None]).unwrap();
        // The ISR is pinned to core 0 by default; A's pin and forbid leave core 1.
        assert_eq!(p.pinned, vec![Some(0), Some(1), None, None]);
        assert_eq!(p.allowed[2], Some(vec![false, true, true]), "B takes C's forbid");
        // A apart from C means apart from B too (B shares C's core).
        assert_eq!(p.apart[1], vec![2, 3]);
        assert_eq!(p.together, vec![vec![2, 3]]);
        assert!(p.has_core_subsets());
        let bad = Placement::new(vec![0, 1, 1, 2]);
        assert_eq!(
            p.violations(&bad),
            ["`A` and `B` share core 1 but must run apart", "`B`, `C` must share a core"].map(String::from)
        );
        assert!(p.violations(&Placement::new(vec![0, 1, 2, 2])).is_empty());
        let (merged, slot) = p.contract().unwrap();
        assert_eq!((merged.names[2].as_str(), merged.load[2], slot), ("B+C", 700, vec![0, 1, 2, 2]));
        assert_eq!(merged.edges, vec![(0, 1, 1), (1, 2, 5)]);
        assert_eq!(merged.apart[1], vec![2]);
    }

    #[test]
    fn conflicts_name_the_constraints_involved() {
        let platform = Platform::identical(2);
        let isr = [Some(0), None, None, None];
        let cases = [
            (
                Constraints { pin: vec![rule("A", &[1])], forbid: vec![rule("A", &[1])], ..Default::default() },
                "no core is left for `A`; see --pin A=1 and --forbid A=1",
            ),
            (
                Constraints { together: vec![names(&["Irq", "A"])], pin: vec![rule("A", &[1])], ..Default::default() },
                "`Irq`, `A` must share a core, but no core is allowed for all of them; see --together Irq,A and \
                 ISR `Irq` on core 0 (the default; --pin it elsewhere) and --pin A=1",
            ),
            (
                Constraints {
                    together: vec![names(&["A", "B"]), names(&["B", "C"])],
                    apart: vec![names(&["A", "C"])],
                    ..Default::default()
                },
                "`A` and `C` must share a core and run apart; see --apart A,C and --together A,B and --together B,C",
            ),
            (
                Constraints { apart: vec![names(&["A", "B", "C"])], ..Default::default() },
                "3 tasks must run on different cores, but only 2 cores are allowed for them; see --apart A,B,C",
            ),
            (
                Constraints { together: vec![names(&["A", "B", "C"])], ..Default::default() },
                "`A`, `B`, `C` must share a core but need 120.0 % of the traced core, more than any allowed core can \
                 give; see --together A,B,C",
            ),
        ];
        for (c, want) in cases {
            let mut p = four();
            if want.contains("120.0 %") {
                p.load = vec![100, 400, 400, 400];
            }
            let e = p.apply(&platform, &c, &isr).unwrap_err();
            assert!(!e.is_usage());
            assert_eq!(e.to_string(), format!("the constraints conflict: {want}"));
        }
        for (c, want) in [
            (
                Constraints { pin: vec![rule("Z", &[1])], ..Default::default() },
                "--pin Z=1: there is no task `Z` in the trace; `corera graph TRACE` lists the task names",
            ),
            (
                Constraints { pin: vec![rule("b", &[1])], ..Default::default() },
                "--pin b=1: there is no task `b` in the trace; did you mean `B`?",
            ),
            (Constraints { forbid: vec![rule("A", &[2])], ..Default::default() }, "cores 0..=1 only"),
            (Constraints { apart: vec![names(&["A"])], ..Default::default() }, "--apart A: name at least two tasks"),
        ] {
            let e = four().apply(&platform, &c, &isr).unwrap_err();
            assert!(e.is_usage() && e.to_string().contains(want), "{e}");
        }
    }
}
