//! Applying [`Constraints`] to a [`Problem`]: allowed cores per task (pins,
//! the ISR default, forbidden cores), groups kept together (a union-find
//! over tasks, each group sharing the cores its members allow) and tasks
//! kept apart (extended to the groups they belong to), each step checking
//! that what it asks can hold and naming the rules that conflict.

use crate::constraints::Rule;
use crate::{Constraints, CoreId, PlacementError, Platform, Problem};

/// Disjoint sets of tasks with path halving.
#[derive(Clone, Debug)]
pub(crate) struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    /// `n` singletons.
    pub(crate) fn new(n: usize) -> UnionFind {
        UnionFind { parent: (0..n).collect() }
    }

    /// The representative of `i`'s set.
    pub(crate) fn root(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    /// Joins the sets of `a` and `b`; returns `(kept, absorbed)` roots when
    /// they were apart.
    pub(crate) fn union(&mut self, a: usize, b: usize) -> Option<(usize, usize)> {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra == rb {
            return None;
        }
        self.parent[rb] = ra;
        Some((ra, rb))
    }

    /// The representative of every element.
    pub(crate) fn roots(&mut self) -> Vec<usize> {
        (0..self.parent.len()).map(|i| self.root(i)).collect()
    }
}

/// The state of applying constraints to one problem.
struct Application<'a> {
    problem: &'a Problem,
    platform: &'a Platform,
    constraints: &'a Constraints,
    /// Per task, the cores it may use.
    allowed: Vec<Vec<bool>>,
    /// Per task, the rules that restricted its cores.
    why: Vec<Vec<Rule>>,
}

impl Application<'_> {
    fn describe(&self, rule: Rule) -> String {
        self.constraints.describe(rule, &self.problem.names)
    }

    fn lookup(&self, task: &str, rule: Rule) -> Result<usize, PlacementError> {
        let names = &self.problem.names;
        names.iter().position(|name| name == task).ok_or_else(|| PlacementError::UnknownTask {
            rule: self.describe(rule),
            task: task.to_string(),
            hint: Problem::similar_names(names, task),
        })
    }

    fn check_cores(&self, cores: &[CoreId], rule: Rule) -> Result<(), PlacementError> {
        let k = usize::from(self.platform.cores);
        match cores.iter().find(|&&c| usize::from(c) >= k) {
            Some(_) => Err(PlacementError::NoSuchCore { rule: self.describe(rule), last: self.platform.cores - 1 }),
            None if cores.is_empty() => {
                Err(PlacementError::Usage { rule: self.describe(rule), problem: "name at least one core".into() })
            }
            None => Ok(()),
        }
    }

    /// `rule` names at least `least` (one or two) tasks.
    fn at_least(&self, names: &[String], least: usize, rule: Rule) -> Result<(), PlacementError> {
        if names.len() < least {
            let problem = if least == 1 { "name at least one task" } else { "name at least two tasks" };
            return Err(PlacementError::Usage { rule: self.describe(rule), problem: problem.into() });
        }
        Ok(())
    }

    /// Pins, then the default pin of ISRs the user did not pin, then
    /// forbidden cores; every task must keep a core.
    fn core_rules(&mut self, isr: &[Option<CoreId>]) -> Result<(), PlacementError> {
        let n = self.problem.len();
        let mut user_pinned = vec![false; n];
        for (r, pin) in self.constraints.pin.iter().enumerate() {
            let i = self.lookup(&pin.task, Rule::Pin(r))?;
            self.check_cores(&pin.cores, Rule::Pin(r))?;
            for (c, ok) in self.allowed[i].iter_mut().enumerate() {
                *ok &= pin.cores.contains(&(c as CoreId));
            }
            self.why[i].push(Rule::Pin(r));
            user_pinned[i] = true;
        }
        for i in (0..n).filter(|&i| !user_pinned[i]) {
            let Some(&Some(core)) = isr.get(i) else { continue };
            for (c, ok) in self.allowed[i].iter_mut().enumerate() {
                *ok &= c == usize::from(core);
            }
            self.why[i].push(Rule::IsrDefault(i as u32, core));
        }
        for (r, forbid) in self.constraints.forbid.iter().enumerate() {
            let i = self.lookup(&forbid.task, Rule::Forbid(r))?;
            self.check_cores(&forbid.cores, Rule::Forbid(r))?;
            for &c in &forbid.cores {
                self.allowed[i][usize::from(c)] = false;
            }
            self.why[i].push(Rule::Forbid(r));
        }
        match (0..n).find(|&i| !self.allowed[i].contains(&true)) {
            Some(i) => Err(PlacementError::Conflict {
                reason: format!("no core is left for `{}`", self.problem.names[i]),
                rules: self.why[i].iter().map(|&r| self.describe(r)).collect(),
            }),
            None => Ok(()),
        }
    }

    /// The groups kept together: per task its group's root, the members
    /// of each root, and the rules that made each group.
    fn together(&self) -> Result<Groups, PlacementError> {
        let n = self.problem.len();
        let mut sets = UnionFind::new(n);
        let mut rules: Vec<Vec<Rule>> = vec![Vec::new(); n];
        // `--together` groups (two or more tasks) and OS-Applications (one
        // or more): each joins its tasks into one set.
        let together = self.constraints.together.iter().enumerate().map(|(r, names)| (Rule::Together(r), names, 2));
        let apps =
            self.constraints.os_applications.iter().enumerate().map(|(r, a)| (Rule::OsApplication(r), &a.tasks, 1));
        for (rule, names, least) in together.chain(apps) {
            self.at_least(names, least, rule)?;
            let first = self.lookup(&names[0], rule)?;
            for name in &names[1..] {
                let i = self.lookup(name, rule)?;
                if let Some((kept, absorbed)) = sets.union(first, i) {
                    let moved = std::mem::take(&mut rules[absorbed]);
                    rules[kept].extend(moved);
                }
            }
            let root = sets.root(first);
            rules[root].push(rule);
        }
        let root = sets.roots();
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, &r) in root.iter().enumerate() {
            members[r].push(i as u32);
        }
        Ok(Groups { root, members, rules })
    }

    /// Each group of two or more must find a core all its members allow,
    /// with room for their summed load; its members then share those
    /// cores. Returns the groups of two or more.
    fn share_cores(&mut self, groups: &Groups) -> Result<Vec<Vec<u32>>, PlacementError> {
        let k = usize::from(self.platform.cores);
        let horizon = self.problem.horizon_ns;
        let mut together = Vec::new();
        for (g, members) in groups.members.iter().enumerate().filter(|(_, m)| m.len() > 1) {
            let shared: Vec<bool> = (0..k).map(|c| members.iter().all(|&i| self.allowed[i as usize][c])).collect();
            let mut rules: Vec<String> = groups.rules[g].iter().map(|&r| self.describe(r)).collect();
            rules.extend(members.iter().flat_map(|&i| self.why[i as usize].iter().map(|&r| self.describe(r))));
            rules.dedup();
            let names = &self.problem.names;
            let list = members.iter().map(|&i| format!("`{}`", names[i as usize])).collect::<Vec<_>>().join(", ");
            if !shared.contains(&true) {
                return Err(PlacementError::Conflict {
                    reason: format!("{list} must share a core, but no core is allowed for all of them"),
                    rules,
                });
            }
            if horizon > 0 {
                let load: u64 = members.iter().map(|&i| self.problem.load[i as usize]).sum();
                let best = (0..k)
                    .filter(|&c| shared[c])
                    .map(|c| self.platform.capacity[c] * self.platform.speed[c] * horizon as f64)
                    .fold(0.0, f64::max);
                if load as f64 > best {
                    return Err(PlacementError::Conflict {
                        reason: format!(
                            "{list} must share a core but need {:.1} % of the traced core, more than any allowed \
                             core can give",
                            load as f64 * 100.0 / horizon as f64
                        ),
                        rules,
                    });
                }
            }
            for &i in members {
                self.allowed[i as usize].clone_from(&shared);
            }
            together.push(members.clone());
        }
        Ok(together)
    }

    /// Per task, the tasks it must not share a core with: each `apart`
    /// rule's tasks and everything kept together with them.
    fn apart(&self, groups: &Groups) -> Result<Vec<Vec<u32>>, PlacementError> {
        let k = usize::from(self.platform.cores);
        let root = &groups.root;
        let mut apart: Vec<Vec<u32>> = vec![Vec::new(); self.problem.len()];
        for (r, names) in self.constraints.apart.iter().enumerate() {
            self.at_least(names, 2, Rule::Apart(r))?;
            let tasks: Vec<usize> = names.iter().map(|t| self.lookup(t, Rule::Apart(r))).collect::<Result<_, _>>()?;
            for (x, &a) in tasks.iter().enumerate() {
                for &b in &tasks[x + 1..] {
                    if root[a] == root[b] {
                        let mut rules = vec![self.describe(Rule::Apart(r))];
                        rules.extend(groups.rules[root[a]].iter().map(|&r| self.describe(r)));
                        let names = &self.problem.names;
                        let reason = if a == b {
                            format!("`{}` is named twice", names[a])
                        } else {
                            format!("`{}` and `{}` must share a core and run apart", names[a], names[b])
                        };
                        return Err(PlacementError::Conflict { reason, rules });
                    }
                    for &p in &groups.members[root[a]] {
                        for &q in &groups.members[root[b]] {
                            apart[p as usize].push(q);
                            apart[q as usize].push(p);
                        }
                    }
                }
            }
            // Pigeonhole: the tasks need as many distinct cores as there are
            // distinct groups among them.
            let mut distinct: Vec<usize> = tasks.iter().map(|&t| root[t]).collect();
            distinct.sort_unstable();
            distinct.dedup();
            let usable = (0..k).filter(|&c| tasks.iter().any(|&t| self.allowed[t][c])).count();
            if usable < distinct.len() {
                let mut rules = vec![self.describe(Rule::Apart(r))];
                rules.extend(tasks.iter().flat_map(|&t| self.why[t].iter().map(|&r| self.describe(r))));
                rules.dedup();
                return Err(PlacementError::Conflict {
                    reason: format!(
                        "{} tasks must run on different cores, but only {usable} cores are allowed for them",
                        distinct.len()
                    ),
                    rules,
                });
            }
        }
        for list in &mut apart {
            list.sort_unstable();
            list.dedup();
        }
        Ok(apart)
    }
}

/// Groups of tasks kept together.
struct Groups {
    /// Per task, its group's representative.
    root: Vec<usize>,
    /// Per representative, the group's tasks (empty for other tasks).
    members: Vec<Vec<u32>>,
    /// Per representative, the rules that made the group.
    rules: Vec<Vec<Rule>>,
}

impl Problem {
    /// Applies `constraints` (and the default pin of each ISR, `isr[i]`: the
    /// core its interrupt is routed to), checking that they can all hold.
    ///
    /// # Errors
    /// As [`Problem::from_graph`].
    pub fn apply(
        &mut self,
        platform: &Platform,
        constraints: &Constraints,
        isr: &[Option<CoreId>],
    ) -> Result<(), PlacementError> {
        let n = self.len();
        let k = usize::from(platform.cores);
        let mut step = Application {
            problem: self,
            platform,
            constraints,
            allowed: vec![vec![true; k]; n],
            why: vec![Vec::new(); n],
        };
        step.core_rules(isr)?;
        let groups = step.together()?;
        let together = step.share_cores(&groups)?;
        let apart = step.apart(&groups)?;
        let allowed = step.allowed;
        self.together.extend(together);
        self.apart = apart;
        // A task belongs to one OS-Application.
        let mut owner: Vec<Option<usize>> = vec![None; n];
        self.os_applications.clear();
        for (r, app) in constraints.os_applications.iter().enumerate() {
            let mut ids = Vec::new();
            for name in &app.tasks {
                let i = self.names.iter().position(|x| x == name).expect("looked up with the groups");
                if let Some(other) = owner[i].filter(|&o| o != r) {
                    return Err(PlacementError::Conflict {
                        reason: format!("`{name}` belongs to two OS-Applications"),
                        rules: vec![
                            constraints.describe(Rule::OsApplication(other), &self.names),
                            constraints.describe(Rule::OsApplication(r), &self.names),
                        ],
                    });
                }
                owner[i] = Some(r);
                ids.push(i as u32);
            }
            self.os_applications.push((app.clone(), ids));
        }
        for (i, mask) in allowed.into_iter().enumerate() {
            self.restrict(i, mask);
        }
        self.check_pins(platform)
    }
}

#[cfg(test)]
mod tests {
    use super::UnionFind;

    #[test]
    fn union_find_joins_sets_once() {
        let mut sets = UnionFind::new(5);
        assert_eq!(sets.union(0, 1), Some((0, 1)));
        assert_eq!(sets.union(3, 1), Some((3, 0)));
        assert_eq!(sets.union(0, 3), None, "already one set");
        let roots = sets.roots();
        assert_eq!(roots[0], roots[1]);
        assert_eq!(roots[1], roots[3]);
        assert_ne!(roots[2], roots[0]);
        assert_eq!(roots[4], 4);
    }
}
