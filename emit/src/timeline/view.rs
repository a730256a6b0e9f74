//! What the report's timeline shows: the recording as recorded and each
//! replay, on one time axis.
//!
//! A timeline opens on a window chosen for what it shows ([`Pick`]): where
//! two runs (the recommendation and its rival, or a replay and the
//! recording) differ most: the instance of a chain whose latency differs
//! most when the objective is a chain's, else the window in which the
//! runs' READY differs most. Around that window every segment is kept as
//! it ran (nothing merged: the detail range), as far as
//! [`DETAIL_BUDGET`] segments over all runs allow; beyond it, each core
//! keeps only its load per [`OVERVIEW_BINS`]th of the run, drawn as load
//! and never as a task. With each run's segments come its READY stretches
//! (packed into [`READY_SLOTS`] rows), its cross-core signals and its
//! migrations, and one chain instance marked across the runs.

use corera_replay::{ChainResult, Flow, Outcome, Replay, Segment};
use corera_trace_ingest::Schedule;
use serde::{Deserialize, Serialize};

use super::window;

/// Segments kept in full over all runs of a timeline (beyond the window,
/// which is always kept).
pub const DETAIL_BUDGET: usize = 30_000;

/// Bins of a run's length in which each core's load is kept.
pub const OVERVIEW_BINS: usize = 1_000;

/// Segments a window asked for may hold over all runs
/// (`simulate --window`).
pub const MAX_WINDOW_SEGMENTS: usize = 1_000_000;

/// Rows READY stretches are packed into under each run's cores.
pub const READY_SLOTS: u64 = 4;

/// One run to draw: the recording or a replay.
#[derive(Clone, Debug)]
pub struct Run<'a> {
    /// Its name (`as recorded`, `global SMP`, ...).
    pub label: String,
    /// Whether it is the recording itself.
    pub recorded: bool,
    /// Its cores.
    pub cores: usize,
    /// Who ran where, sorted by start (task: a replay task index).
    pub segments: Vec<Segment>,
    /// READY stretches: task, start, end (ns).
    pub ready: Vec<(u32, u64, u64)>,
    /// Signals between tasks (none for a recording).
    pub flows: &'a [Flow],
    /// Its figures of each chain, in the chains' order (triggered chains
    /// carry each instance's release and latency).
    pub chains: Vec<&'a ChainResult>,
}

impl<'a> Run<'a> {
    /// Replay `o` (run with its timeline), named `label`.
    pub fn replayed(label: &str, o: &'a Outcome) -> Run<'a> {
        let mut segments = o.timeline.clone();
        segments.sort_by_key(|s| (s.start_ns, s.core));
        Run {
            label: label.to_string(),
            recorded: false,
            cores: o.cores,
            segments,
            ready: o.ready_spans.clone(),
            flows: &o.flows,
            chains: o.chains.iter().collect(),
        }
    }

    /// The recording `schedule` of `replay`'s tasks, as the row above the
    /// replays: `as recorded`, or `the model's synthesised run` when it was
    /// `synthesised` from a model.
    /// Each task's running and READY stretches are as recorded; `chains`
    /// are the chains' recorded figures.
    pub fn recording(schedule: &Schedule, replay: &Replay, synthesised: bool, chains: Vec<&'a ChainResult>) -> Run<'a> {
        let label = if synthesised { "the model's synthesised run" } else { "as recorded" };
        let mut segments = Vec::new();
        let mut ready = Vec::new();
        for (i, t) in replay.tasks.iter().enumerate() {
            let Some(s) = schedule.tasks.get(t.id as usize) else { continue };
            segments.extend(s.running.iter().map(|r| Segment {
                core: r.core,
                task: i as u32,
                start_ns: r.start_ns,
                end_ns: r.end_ns,
            }));
            ready.extend(s.ready.iter().map(|r| (i as u32, r.start_ns, r.end_ns)));
        }
        segments.sort_by_key(|s| (s.start_ns, s.core));
        ready.sort_by_key(|r| (r.1, r.0));
        Run {
            label: label.to_string(),
            recorded: true,
            cores: schedule.cores.max(1),
            segments,
            ready,
            flows: &[],
            chains,
        }
    }

    /// When its last segment or READY stretch ends, ns.
    pub fn end_ns(&self) -> u64 {
        let ran = self.segments.iter().map(|s| s.end_ns).max().unwrap_or(0);
        ran.max(self.ready.iter().map(|r| r.2).max().unwrap_or(0))
    }

    /// Its segments that overlap `window`.
    pub fn count_in(&self, window: [u64; 2]) -> usize {
        self.lanes().iter().map(|lane| overlapping(lane, window).len()).sum()
    }

    /// Per core, its segments in time order.
    fn lanes(&self) -> Vec<Vec<Segment>> {
        let cores = self.segments.iter().map(|s| usize::from(s.core) + 1).max().unwrap_or(0).max(self.cores);
        let mut lanes = vec![Vec::new(); cores];
        for s in &self.segments {
            lanes[usize::from(s.core)].push(*s);
        }
        lanes
    }
}

/// Which window a timeline opens on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The one given (ns).
    Given([u64; 2]),
    /// Where runs `a` and `b` differ most: with `chain`, around the chain
    /// instance whose latency differs most (when a triggered chain has
    /// one), else the window where their READY differs most.
    Differ {
        /// A run's index.
        a: usize,
        /// The other's.
        b: usize,
        /// Whether the objective is a chain's latency.
        chain: bool,
    },
}

/// A chain instance marked across the runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainMark {
    /// The chain's name.
    pub name: String,
    /// Its tasks (replay task indices), cause first.
    pub tasks: Vec<u32>,
    /// The instance's number, from 0.
    pub instance: u32,
    /// Per row, from the release of its first job to the finish of the
    /// last job it caused (ns), when that row measured it.
    pub spans: Vec<Option<[u64; 2]>>,
}

/// One run as the timeline draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimelineRow {
    /// Its name.
    pub label: String,
    /// Whether it is the recording itself.
    pub recorded: bool,
    /// Per core, flat `start, end, task` triples of every segment that
    /// overlaps the detail range, as they ran.
    pub lanes: Vec<Vec<u64>>,
    /// Per core, its load in % in each of [`OVERVIEW_BINS`] equal bins of
    /// the run.
    pub overview: Vec<Vec<u8>>,
    /// READY stretches overlapping the detail range: flat `task, start,
    /// end, slot` (slot: the row under the cores it is drawn in).
    pub ready: Vec<u64>,
    /// Signals to a task that then ran on another core, in the detail
    /// range: flat `sent, from core, started, to core, from task, to
    /// task`.
    pub signals: Vec<u64>,
    /// Tasks that started on another core than they last ran on, in the
    /// detail range: flat `start, core, task`.
    pub migrations: Vec<u64>,
}

/// The timeline: where it opens, what it keeps, the runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimelineRecord {
    /// The window it opens on, ns.
    pub window_ns: [u64; 2],
    /// Why that window, in a sentence.
    pub why: String,
    /// Where every segment is kept, ns (the whole run when it fits).
    pub detail_ns: [u64; 2],
    /// The end of the longest run, ns.
    pub end_ns: u64,
    /// The replay tasks that are ISRs.
    pub isrs: Vec<u32>,
    /// The runs, in the order given.
    pub rows: Vec<TimelineRow>,
    /// A chain instance marked across the runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<ChainMark>,
}

impl TimelineRecord {
    /// The timeline of `runs`, opening where `pick` says; `isrs` are the
    /// ISR tasks, `chains` each chain's name and tasks (as the runs'
    /// [`Run::chains`] are ordered).
    pub fn new(runs: &[Run<'_>], isrs: Vec<u32>, chains: &[(String, Vec<u32>)], pick: Pick) -> TimelineRecord {
        let lanes: Vec<Vec<Vec<Segment>>> = runs.iter().map(Run::lanes).collect();
        let end_ns = runs.iter().map(Run::end_ns).max().unwrap_or(0).max(1);
        let busiest = lanes.iter().flatten().map(Vec::len).max().unwrap_or(0);
        let width = window::width(end_ns, busiest);
        let (window_ns, why, chain) = match pick {
            Pick::Given(w) => (w, format!("the window asked for, {}", span_text(w)), None),
            Pick::Differ { a, b, chain: by_chain } => {
                let instance = by_chain.then(|| chain_instance(runs, a, b, None)).flatten();
                match instance {
                    Some((c, i)) => {
                        let (w, why) = chain_window(runs, a, b, &chains[c].0, c, i);
                        (w, why, Some((c, i)))
                    }
                    None => {
                        let (w, ra, rb) = window::most_ready_difference(&runs[a].ready, &runs[b].ready, end_ns, width);
                        let why = if ra == rb {
                            format!(
                                "{}: {} and {} wait READY alike everywhere, so it opens at the start",
                                span_text(w),
                                runs[a].label,
                                runs[b].label
                            )
                        } else {
                            format!(
                                "{}, where READY differs most between {} ({}) and {} ({})",
                                span_text(w),
                                runs[a].label,
                                ms(ra),
                                runs[b].label,
                                ms(rb)
                            )
                        };
                        (w, why, chain_instance(runs, a, b, Some(w)))
                    }
                }
            }
        };
        let detail_ns = detail(&lanes, window_ns, end_ns, width);
        let rows = runs.iter().zip(&lanes).map(|(run, lanes)| row(run, lanes, detail_ns, end_ns, &isrs)).collect();
        let chain = chain.map(|(c, i)| ChainMark {
            name: chains[c].0.clone(),
            tasks: chains[c].1.clone(),
            instance: i as u32,
            spans: runs.iter().map(|r| instance_span(r, c, i)).collect(),
        });
        TimelineRecord { window_ns, why, detail_ns, end_ns, isrs, rows, chain }
    }
}

impl TimelineRecord {
    /// The timeline of `runs` of `workload` (its ISRs and chains), opening
    /// where `pick` says.
    pub fn of_replay(runs: &[Run<'_>], workload: &Replay, pick: Pick) -> TimelineRecord {
        let isrs = workload.tasks.iter().enumerate().filter(|(_, t)| t.isr).map(|(i, _)| i as u32).collect();
        let chains: Vec<(String, Vec<u32>)> =
            workload.chains.iter().map(|c| (c.name.clone(), c.tasks.clone())).collect();
        TimelineRecord::new(runs, isrs, &chains, pick)
    }

    /// What in it names a task beyond `tasks` or is not whole tuples,
    /// when something does (a hand-edited `analysis.json`).
    pub fn out_of_range(&self, tasks: u64) -> Option<String> {
        if let Some(&i) = self.isrs.iter().find(|&&i| u64::from(i) >= tasks) {
            return Some(format!("isrs names task {i} of {tasks}"));
        }
        for row in &self.rows {
            let bad_lane =
                row.lanes.iter().any(|l| l.len() % 3 != 0 || l.chunks(3).any(|s| s[2] >= tasks || s[0] > s[1]));
            let bad_ready = row.ready.len() % 4 != 0 || row.ready.chunks(4).any(|r| r[0] >= tasks || r[1] > r[2]);
            let bad_marks = row.signals.len() % 6 != 0
                || row.signals.chunks(6).any(|s| s[4] >= tasks || s[5] >= tasks)
                || row.migrations.len() % 3 != 0
                || row.migrations.chunks(3).any(|m| m[2] >= tasks);
            if bad_lane || bad_ready || bad_marks {
                return Some(format!("row `{}` is not whole tuples of this analysis's tasks", row.label));
            }
        }
        if let Some(c) = &self.chain
            && (c.tasks.iter().any(|&t| u64::from(t) >= tasks) || c.spans.len() != self.rows.len())
        {
            return Some(format!("chain `{}` names a task or row that is not there", c.name));
        }
        None
    }
}

fn ms(ns: u64) -> String {
    format!("{:.3} ms", ns as f64 / 1e6)
}

fn span_text(w: [u64; 2]) -> String {
    format!("{:.3}..{:.3} ms", w[0] as f64 / 1e6, w[1] as f64 / 1e6)
}

/// Instance `i` of chain `c` in `run`: release to end, when measured.
fn instance_span(run: &Run<'_>, c: usize, i: usize) -> Option<[u64; 2]> {
    let r = run.chains.get(c)?;
    let release = *r.released_ns.get(i)?;
    let latency = (*r.latencies_ns.get(i)?)?;
    Some([release, release + latency])
}

/// The triggered chain instance whose latency differs most between runs
/// `a` and `b` (released in `within`, when given): chain and instance.
fn chain_instance(runs: &[Run<'_>], a: usize, b: usize, within: Option<[u64; 2]>) -> Option<(usize, usize)> {
    let mut best: Option<(u64, usize, usize)> = None;
    for c in 0..runs[a].chains.len().min(runs[b].chains.len()) {
        let (ra, rb) = (runs[a].chains[c], runs[b].chains[c]);
        for (i, &release) in ra.released_ns.iter().enumerate() {
            if within.is_some_and(|w| release < w[0] || release >= w[1]) {
                continue;
            }
            let (Some(Some(la)), Some(Some(lb))) = (ra.latencies_ns.get(i), rb.latencies_ns.get(i)) else { continue };
            let d = la.abs_diff(*lb);
            if best.is_none_or(|(x, _, _)| d > x) {
                best = Some((d, c, i));
            }
        }
    }
    best.map(|(_, c, i)| (c, i))
}

/// The window around instance `i` of chain `c` (named `name`) in runs `a`
/// and `b`, with a quarter of its length either side, and why.
fn chain_window(runs: &[Run<'_>], a: usize, b: usize, name: &str, c: usize, i: usize) -> ([u64; 2], String) {
    let (sa, sb) = (instance_span(&runs[a], c, i), instance_span(&runs[b], c, i));
    let (from, to) = [sa, sb].into_iter().flatten().fold((u64::MAX, 0), |(f, t), s| (f.min(s[0]), t.max(s[1])));
    let pad = ((to - from) / 4).max(1_000);
    let len = |s: Option<[u64; 2]>| s.map_or("-".to_string(), |s| ms(s[1] - s[0]));
    let w = [from.saturating_sub(pad), to + pad];
    let why = format!(
        "{}: instance {i} of chain {name}, whose latency differs most between {} ({}) and {} ({})",
        span_text(w),
        runs[a].label,
        len(sa),
        runs[b].label,
        len(sb)
    );
    (w, why)
}

/// Segments of `lanes` (per run, per core, in time order) that overlap
/// `from..to`.
fn count(lanes: &[Vec<Vec<Segment>>], [from, to]: [u64; 2]) -> usize {
    lanes.iter().flatten().map(|lane| overlapping(lane, [from, to]).len()).sum()
}

/// The segments of `lane` (in time order, not overlapping) that overlap
/// `from..to`.
fn overlapping(lane: &[Segment], [from, to]: [u64; 2]) -> &[Segment] {
    let first = lane.partition_point(|s| s.end_ns <= from);
    let last = lane.partition_point(|s| s.start_ns < to).max(first);
    &lane[first..last]
}

/// The detail range: `window` widened by `width`, then twice that, and so
/// on, while the segments in it stay within [`DETAIL_BUDGET`].
fn detail(lanes: &[Vec<Vec<Segment>>], window: [u64; 2], end: u64, width: u64) -> [u64; 2] {
    let mut best = window;
    let mut margin = width.max(1);
    loop {
        let wider = [window[0].saturating_sub(margin), window[1].saturating_add(margin).min(end)];
        if count(lanes, wider) > DETAIL_BUDGET {
            return best;
        }
        best = [best[0].min(wider[0]), best[1].max(wider[1])];
        if wider[0] == 0 && wider[1] >= end {
            return best;
        }
        margin = margin.saturating_mul(2);
    }
}

/// `run` as drawn: its segments in `detail`, its load per bin elsewhere.
fn row(run: &Run<'_>, lanes: &[Vec<Segment>], detail: [u64; 2], end: u64, isrs: &[u32]) -> TimelineRow {
    let in_detail = |t: u64| t >= detail[0] && t < detail[1];
    let flat = lanes
        .iter()
        .map(|lane| overlapping(lane, detail).iter().flat_map(|s| [s.start_ns, s.end_ns, u64::from(s.task)]).collect())
        .collect();
    // The first segment of each task at or after an instant, by task.
    let mut by_task: Vec<Vec<&Segment>> = Vec::new();
    for s in &run.segments {
        let t = s.task as usize;
        if by_task.len() <= t {
            by_task.resize(t + 1, Vec::new());
        }
        by_task[t].push(s);
    }
    let mut signals = Vec::new();
    for f in run.flows.iter().filter(|f| in_detail(f.at_ns) || in_detail(f.arrive_ns)) {
        let Some(runs) = by_task.get(f.to_task as usize) else { continue };
        let Some(landed) = runs.get(runs.partition_point(|s| s.start_ns < f.arrive_ns)) else { continue };
        if landed.core != f.from_core {
            signals.extend([
                f.at_ns,
                u64::from(f.from_core),
                landed.start_ns,
                u64::from(landed.core),
                u64::from(f.from_task),
                u64::from(f.to_task),
            ]);
        }
    }
    let mut migrations = Vec::new();
    for (task, segs) in by_task.iter().enumerate().filter(|(t, _)| !isrs.contains(&(*t as u32))) {
        for pair in segs.windows(2) {
            if pair[0].core != pair[1].core && in_detail(pair[1].start_ns) {
                migrations.extend([pair[1].start_ns, u64::from(pair[1].core), task as u64]);
            }
        }
    }
    let mut ordered: Vec<[u64; 3]> = migrations.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
    ordered.sort_unstable();
    TimelineRow {
        label: run.label.clone(),
        recorded: run.recorded,
        lanes: flat,
        overview: lanes.iter().map(|lane| overview(lane, end)).collect(),
        ready: ready_rows(&run.ready, detail),
        signals,
        migrations: ordered.into_iter().flatten().collect(),
    }
}

/// A lane's load in % per bin of `end / OVERVIEW_BINS`.
fn overview(lane: &[Segment], end: u64) -> Vec<u8> {
    let bins = OVERVIEW_BINS as u64;
    let width = end.div_ceil(bins).max(1);
    let mut busy = vec![0u64; OVERVIEW_BINS];
    for s in lane {
        let mut t = s.start_ns;
        while t < s.end_ns {
            let bin = (t / width).min(bins - 1);
            let next = ((bin + 1) * width).min(s.end_ns).max(t + 1);
            busy[bin as usize] += next - t;
            t = next;
        }
    }
    busy.into_iter().map(|b| (b * 100 / width).min(100) as u8).collect()
}

/// The READY stretches overlapping `detail`, each in the first of
/// [`READY_SLOTS`] rows free at its start (else the one freed first).
fn ready_rows(ready: &[(u32, u64, u64)], detail: [u64; 2]) -> Vec<u64> {
    let mut spans: Vec<(u64, u64, u32)> =
        ready.iter().filter(|r| r.2 > detail[0] && r.1 < detail[1] && r.2 > r.1).map(|&(t, s, e)| (s, e, t)).collect();
    spans.sort_unstable();
    let mut free = [0u64; READY_SLOTS as usize];
    let mut out = Vec::with_capacity(spans.len() * 4);
    for (start, end, task) in spans {
        let slot = free
            .iter()
            .position(|&f| f <= start)
            .unwrap_or_else(|| (0..free.len()).min_by_key(|&k| free[k]).expect("there are slots"));
        free[slot] = free[slot].max(end);
        out.extend([u64::from(task), start, end, slot as u64]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(core: u16, task: u32, start_ns: u64, end_ns: u64) -> Segment {
        Segment { core, task, start_ns, end_ns }
    }

    fn run(label: &str, cores: usize, segments: Vec<Segment>, ready: Vec<(u32, u64, u64)>) -> Run<'static> {
        Run { label: label.into(), recorded: false, cores, segments, ready, flows: &[], chains: Vec::new() }
    }

    #[test]
    fn every_segment_in_the_detail_range_is_kept_as_it_ran() {
        // Two tasks alternating every µs for 10 ms: 10,000 segments, all
        // within the budget, so nothing is merged anywhere.
        let segs: Vec<Segment> = (0..10_000u64).map(|i| seg(0, (i % 2) as u32, i * 1_000, i * 1_000 + 900)).collect();
        let t = TimelineRecord::new(&[run("one", 1, segs.clone(), vec![])], vec![], &[], Pick::Given([0, 1_000_000]));
        assert_eq!(t.detail_ns, [0, 9_999_900], "the whole run fits the budget");
        assert_eq!(t.rows[0].lanes[0].len(), 3 * segs.len());
        assert_eq!(&t.rows[0].lanes[0][3..6], &[1_000, 1_900, 1]);
    }

    #[test]
    fn beyond_the_budget_only_the_load_is_kept() {
        // 200,000 segments over 200 ms, asked for 100..101 ms: the detail
        // range widens around it until the budget, and the overview keeps
        // each core's load (90 % busy) everywhere.
        let segs: Vec<Segment> = (0..200_000u64).map(|i| seg(0, 0, i * 1_000, i * 1_000 + 900)).collect();
        let t =
            TimelineRecord::new(&[run("one", 1, segs, vec![])], vec![], &[], Pick::Given([100_000_000, 101_000_000]));
        let [from, to] = t.detail_ns;
        assert!(from <= 100_000_000 && to >= 101_000_000, "{from}..{to}");
        let kept = t.rows[0].lanes[0].len() / 3;
        assert!(kept <= DETAIL_BUDGET && kept > DETAIL_BUDGET / 4, "{kept}");
        assert_eq!(t.rows[0].overview[0].len(), OVERVIEW_BINS);
        assert!(t.rows[0].overview[0].iter().all(|&p| (89..=91).contains(&p)), "{:?}", &t.rows[0].overview[0][..5]);
    }

    #[test]
    fn it_opens_where_two_runs_wait_differently() {
        // Both runs run the same; `b` waits 2 ms READY at 60 ms only.
        let segs: Vec<Segment> = (0..100u64).map(|i| seg(0, 0, i * 1_000_000, i * 1_000_000 + 500_000)).collect();
        let a = run("a", 1, segs.clone(), vec![]);
        let b = run("b", 1, segs, vec![(1, 60_200_000, 62_200_000)]);
        let t = TimelineRecord::new(&[a, b], vec![], &[], Pick::Differ { a: 0, b: 1, chain: false });
        let [from, to] = t.window_ns;
        assert!(from <= 60_200_000 && to >= 62_200_000, "{from}..{to}: {}", t.why);
        assert!(t.why.contains("b (2.000 ms)"), "{}", t.why);
        assert_eq!(t.rows[1].ready, vec![1, 60_200_000, 62_200_000, 0]);
    }

    #[test]
    fn migrations_and_cross_core_signals_are_marked() {
        let flows = [Flow { from_task: 0, from_core: 0, at_ns: 100, to_task: 1, arrive_ns: 150 }];
        let segs = vec![seg(0, 0, 0, 200), seg(1, 1, 160, 300), seg(0, 1, 400, 500), seg(0, 2, 500, 600)];
        let mut r = run("r", 2, segs, vec![]);
        r.flows = &flows;
        let t = TimelineRecord::new(&[r], vec![2], &[], Pick::Given([0, 600]));
        assert_eq!(t.rows[0].signals, vec![100, 0, 160, 1, 0, 1]);
        assert_eq!(t.rows[0].migrations, vec![400, 0, 1], "task 1 moved from core 1 to core 0");
    }

    #[test]
    fn ready_stretches_that_overlap_take_separate_rows() {
        let rows = ready_rows(&[(0, 0, 100), (1, 50, 150), (2, 120, 200)], [0, 1_000]);
        assert_eq!(rows, vec![0, 0, 100, 0, 1, 50, 150, 1, 2, 120, 200, 0]);
    }

    #[test]
    fn a_chain_objective_opens_on_the_instance_that_differs_most() {
        let result = |latencies: Vec<Option<u64>>| ChainResult {
            name: "c".into(),
            instances: latencies.len() as u64,
            unfinished: 0,
            latency_mean_ns: None,
            latency_p95_ns: None,
            latency_max_ns: None,
            latency_quartiles_ns: None,
            deadline_misses: None,
            latencies_ns: latencies,
            released_ns: vec![0, 10_000_000, 20_000_000],
        };
        // Instance 1 takes 5 ms in `a` and 1 ms in `b`; the others agree.
        let (ra, rb) =
            (result(vec![Some(1_000_000), Some(5_000_000), Some(1_000_000)]), result(vec![Some(1_000_000); 3]));
        let segs = vec![seg(0, 0, 0, 25_000_000)];
        let mut a = run("a", 1, segs.clone(), vec![]);
        let mut b = run("b", 1, segs, vec![]);
        a.chains = vec![&ra];
        b.chains = vec![&rb];
        let chains = [("c".to_string(), vec![0])];
        let t = TimelineRecord::new(&[a, b], vec![], &chains, Pick::Differ { a: 0, b: 1, chain: true });
        let [from, to] = t.window_ns;
        assert!(from <= 10_000_000 && to >= 15_000_000 && to - from < 10_000_000, "{from}..{to}: {}", t.why);
        let mark = t.chain.expect("the instance is marked");
        assert_eq!(
            (mark.instance, mark.spans),
            (1, vec![Some([10_000_000, 15_000_000]), Some([10_000_000, 11_000_000])])
        );
    }
}
