//! Candidate chains in a trace's causes.
//!
//! [`discover`] follows the causes from each task released by timers or
//! interrupts: from each task to the task whose jobs it starts most often
//! (a message or notification that releases a job, not a mutex handed to a
//! task blocked in the middle of one), while at least a quarter of its jobs
//! start one and at least a quarter of the instances that reached it go on
//! through the next task (a task that fuses several inputs may be woken by
//! another); paths of three or more tasks, travelled by at least ten
//! instances, that are not part of a longer one are candidate chains.

use corera_placement::{Chain, ChainKind};
use corera_trace_ingest::{Action, Release};

use super::caused;
use crate::extract::Replay;

/// Share of a task's jobs that must release a job of the next task for a
/// discovered chain to go on to it.
const FOLLOW_SHARE: f64 = 0.25;

/// Instances a discovered chain needs to be worth reporting: below, its
/// p95 is its maximum and its figures are one or two jobs' (on the Android
/// trace two kernel-worker paths of 1 and 8 instances were found).
const MIN_INSTANCES: usize = 10;

/// Instances of the triggered chain along replay tasks `path`.
fn instances_along(replay: &Replay, path: &[usize]) -> usize {
    let tasks: Vec<u32> = path.iter().map(|&i| i as u32).collect();
    caused(replay, &tasks).0.len()
}

/// Candidate chains in `replay`'s causes, heaviest first (most tasks, then
/// most instances), at most `max`: see the module's notes.
pub fn discover(replay: &Replay, max: usize) -> Vec<Chain> {
    let n = replay.tasks.len();
    // causes[a] = (b, jobs of a that release a job of b), b ascending.
    let causes: Vec<Vec<(usize, usize)>> = replay
        .tasks
        .iter()
        .map(|t| {
            let mut per: Vec<(usize, usize)> = Vec::new();
            let mut seen: Vec<usize> = Vec::new();
            for job in &t.jobs {
                seen.clear();
                for (_, a) in job.phases.iter().flat_map(|p| &p.actions) {
                    // A job's first phase: a message or a notification
                    // that starts a job, not a mutex handed to a task
                    // blocked in the middle of one.
                    if let Action::Signal { target, phase: 0, .. } = *a
                        && (target as usize) < n
                    {
                        seen.push(target as usize);
                    }
                }
                seen.sort_unstable();
                seen.dedup();
                for &b in &seen {
                    match per.binary_search_by_key(&b, |x| x.0) {
                        Ok(k) => per[k].1 += 1,
                        Err(k) => per.insert(k, (b, 1)),
                    }
                }
            }
            per
        })
        .collect();
    // Sources: tasks most of whose jobs a timer or an interrupt released.
    let source = |t: &crate::ReplayTask| {
        // Released by a timer or by the task itself, not by another task.
        let timed = t.jobs.iter().filter(|j| !matches!(j.phases[0].release, Release::Signal { .. })).count();
        !t.jobs.is_empty() && timed * 2 >= t.jobs.len()
    };
    let mut paths: Vec<(Vec<usize>, usize)> = Vec::new();
    for (s, task) in replay.tasks.iter().enumerate() {
        if !source(task) {
            continue;
        }
        let mut path = vec![s];
        let mut instances = task.jobs.len();
        loop {
            let a = *path.last().expect("a path has a task");
            let jobs = replay.tasks[a].jobs.len().max(1);
            let best = causes[a]
                .iter()
                .filter(|(b, _)| !path.contains(b))
                .max_by_key(|&&(b, count)| (count, std::cmp::Reverse(b)));
            let Some(&(b, _)) = best.filter(|&&(_, count)| count as f64 >= FOLLOW_SHARE * jobs as f64) else {
                break;
            };
            // The whole path must still be travelled end to end, by at
            // least the same share of what reached this far.
            path.push(b);
            let through = instances_along(replay, &path);
            if (through as f64) < FOLLOW_SHARE * instances as f64 {
                path.pop();
                break;
            }
            instances = through;
        }
        if path.len() >= 3 && instances >= MIN_INSTANCES {
            paths.push((path, instances));
        }
    }
    let contains =
        |long: &[usize], short: &[usize]| long.len() > short.len() && long.windows(short.len()).any(|w| w == short);
    let mut kept: Vec<&(Vec<usize>, usize)> =
        paths.iter().filter(|(p, _)| !paths.iter().any(|(q, _)| contains(q, p))).collect();
    let name = |i: usize| replay.tasks[i].name.clone();
    kept.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(b.1.cmp(&a.1)).then_with(|| name(a.0[0]).cmp(&name(b.0[0]))));
    kept.into_iter()
        .take(max)
        .map(|(p, _)| Chain {
            name: format!("{}..{}", name(p[0]), name(p[p.len() - 1])),
            tasks: p.iter().map(|&i| name(i)).collect(),
            deadline_ms: None,
            kind: ChainKind::Triggered,
        })
        .collect()
}
