//! The text summary that `corera analyze` prints.

use std::fmt::Write as _;

use corera_trace_ingest::TaskKind;

use corera_placement::ChainKind;
use corera_replay::{ChainOrigin, ChainResult};

use crate::records::{Analysis, ChainRecord};

fn ms(ns: u64) -> String {
    format!("{:.3}", ns as f64 / 1e6)
}

/// A short table: one row per task (kind, priority, load, throughput,
/// p95 response, traffic, core), then the placement's cross-core traffic
/// and per-core load, the search's notes and the replay comparison.
pub fn summary(a: &Analysis) -> String {
    let mut s = String::new();
    task_table(&mut s, a);
    if let Some(note) = corera_task_graph::priority_note(&a.graph.tasks) {
        let _ = writeln!(s, "{note}");
    }
    s.push_str(&corera_task_graph::runnables_text(&a.graph.tasks));
    if let Some(m) = &a.model {
        model_block(&mut s, &m.info);
    }
    search_lines(&mut s, a);
    core_lines_of(&mut s, a);
    for note in &a.search.notes {
        let _ = writeln!(s, "note: {note}");
    }
    if let Some(m) = &a.model {
        mapping_comparison(&mut s, a, m);
    }
    timing_lines(&mut s, a);
    replay_table(&mut s, a);
    chain_table(&mut s, a);
    s
}

/// The input line and the task table: kind, priority, load, rate, p95
/// response, traffic and core of each placed task.
fn task_table(s: &mut String, a: &Analysis) {
    let t = &a.trace;
    let _ = writeln!(
        s,
        "{}: {} tasks ({} ISRs), {} events, {} s, format {}",
        a.input.name,
        t.tasks,
        t.isrs,
        t.events,
        format_args!("{:.3}", t.duration_ns as f64 / 1e9),
        a.input.format
    );
    for note in &a.input.notes {
        let _ = writeln!(s, "  {note}");
    }
    let p = &a.placement;
    let name_width = p.iter().map(|x| x.task.chars().count()).max().unwrap_or(4).max(4);
    let core_width = p.iter().map(|x| cores_text(x).len()).max().unwrap_or(4).max(4);
    let _ = writeln!(
        s,
        "\n{:<name_width$}  {:<4} {:>5} {:>7} {:>9} {:>11} {:>8} {:>core_width$}",
        "task", "kind", "prio", "load %", "jobs/s", "p95 resp ms", "traffic", "core"
    );
    for (i, task) in p.iter().enumerate() {
        let m = a.metrics(i);
        let _ = writeln!(
            s,
            "{:<name_width$}  {:<4} {:>5} {:>7.2} {:>9.1} {:>11} {:>8} {:>core_width$}{}",
            task.task,
            if task.kind == TaskKind::Isr { "isr" } else { "task" },
            m.and_then(|m| m.priority).map_or("-".to_string(), |x| x.to_string()),
            m.map_or(0.0, |m| m.utilisation * 100.0),
            m.map_or(0.0, |m| m.throughput_hz),
            m.and_then(|m| m.response_p95_ns).map_or("-".to_string(), ms),
            task.traffic,
            cores_text(task),
            if task.pinned {
                "*"
            } else if task.restricted {
                "+"
            } else {
                ""
            }
        );
    }
}

/// The recommendation (or the placement, for the traffic objective) and
/// the traffic search's result.
fn search_lines(s: &mut String, a: &Analysis) {
    let sol = &a.search;
    let total = a.cost.total_traffic;
    let proof = if sol.proven_optimal {
        ", proven optimal".to_string()
    } else {
        format!(", lower bound {}, gap {:.1} %", sol.lower_bound.cross_traffic, sol.gap * 100.0)
    };
    let traffic = if a.platform.is_uniform() {
        let share = if total == 0 { 0.0 } else { sol.cross_traffic as f64 * 100.0 / total as f64 };
        format!("cross-core traffic {} of {} ({share:.1} %)", sol.cross_traffic, total)
    } else {
        format!("topology-weighted traffic {} (traffic x core distance; total traffic {total})", sol.cross_traffic)
    };
    match &a.recommendation {
        None => {
            let _ = writeln!(s, "\nplacement on {}: {traffic}, {}{proof}", a.platform.describe(), sol.method);
        }
        Some(r) => {
            recommendation(s, a, r);
            let _ = writeln!(s, "traffic search: {traffic}, {}{proof}", sol.method);
        }
    }
}

/// Each core's load and tasks, and the balance limit.
fn core_lines_of(s: &mut String, a: &Analysis) {
    let p = &a.placement;
    let tasks_on = |c: usize| p.iter().filter(|x| usize::from(x.core) == c).count();
    for run in core_lines(a.cost.core_utilisation.len(), |c| tasks_on(c) > 0) {
        match run {
            CoreLine::One(c) => {
                let (u, n) = (a.cost.core_utilisation[c], tasks_on(c));
                let floating = p.iter().filter(|x| usize::from(x.core) == c && x.cores.len() > 1).count();
                let floats = if floating > 0 { format!(" ({floating} of them may float)") } else { String::new() };
                let _ = writeln!(
                    s,
                    "core {c}: {:5.1} % load, {n} task{}{floats}",
                    u * 100.0,
                    if n == 1 { "" } else { "s" }
                );
            }
            CoreLine::Unused(first, last) => {
                let _ = writeln!(s, "cores {first}-{last}: no tasks");
            }
        }
    }
    // Limits are in ns of the traced core; shown as load of each core.
    let percent = |c: usize| {
        let l = a.cost.core_limit_ns[c] as f64 / a.platform.speed.get(c).copied().unwrap_or(1.0);
        format!("{:.1}", l * 100.0 / a.graph.duration_ns.max(1) as f64)
    };
    let limits: Vec<String> = (0..a.cost.core_limit_ns.len()).map(percent).collect();
    let limit = if limits.iter().all(|l| *l == limits[0]) {
        format!("{} % load per core", limits[0])
    } else {
        format!("{} % load on cores 0..{}", limits.join(" / "), limits.len() - 1)
    };
    let _ = writeln!(
        s,
        "imbalance {:.1} % (limit: {limit}){}{}",
        a.cost.imbalance * 100.0,
        if p.iter().any(|x| x.pinned) { "; * = pinned" } else { "" },
        if p.iter().any(|x| x.restricted) { "; + = restricted cores" } else { "" }
    );
}

/// What the timing search did and what it proved.
fn timing_lines(s: &mut String, a: &Analysis) {
    if let Some(t) = &a.timing {
        let rank = t.surrogate_rank.map_or(String::new(), |r| format!("; surrogate rank correlation {r:.2}"));
        let stopped = if t.out_of_time { " (stopped by --time-limit)" } else { "" };
        let _ = writeln!(s, "timing search: {} of {} replays of the whole trace{stopped}{rank}", t.replays, t.budget);
        let _ = writeln!(s, "  best AMP placement: {}", t.amp.text);
        if let Some(m) = &t.masks {
            let _ = writeln!(s, "  best mask placement: {}", m.text);
        }
    }
}

/// Each cause-effect chain's latency in the recording and under each
/// replayed set-up.
fn chain_table(s: &mut String, a: &Analysis) {
    let runs: Vec<(&str, &[ChainResult])> =
        a.replay.policies.iter().map(|r| (r.label.as_str(), r.outcome.chains.as_slice())).collect();
    s.push_str(&chains_text(&a.replay.chains, &runs));
}

/// What a chain kind's latency is, for people.
fn kind_text(kind: ChainKind) -> &'static str {
    match kind {
        ChainKind::Triggered => "release of a first job to the finish of the last job it caused",
        ChainKind::Reaction => {
            "release of a first job to the finish of the first job of the last task that read data derived from it"
        }
        ChainKind::Age => "release of the first job whose data a last job used to that last job's finish",
    }
}

/// The chains' table: per chain, its tasks and a row for the recording
/// and for each labelled run (`runs[k].1[i]` is chain `i`'s figures).
pub fn chains_text(chains: &[ChainRecord], runs: &[(&str, &[ChainResult])]) -> String {
    let mut s = String::new();
    if chains.is_empty() {
        return s;
    }
    let discovered = chains.iter().all(|c| c.origin == ChainOrigin::Discovered);
    let _ = writeln!(
        s,
        "\ncause-effect chains, latency in ms{}",
        if discovered { "; found in the trace's causes (name your own with --chain NAME=A>B>C[@MS])" } else { "" }
    );
    for kind in ChainKind::ALL {
        if chains.iter().any(|c| c.kind == kind) {
            let _ = writeln!(s, "  ({}: {})", kind.name(), kind_text(kind));
        }
    }
    let width = runs.iter().map(|r| r.0.chars().count()).max().unwrap_or(0).max(20);
    for (k, c) in chains.iter().enumerate() {
        let deadline = c.deadline_ns.map_or(String::new(), |d| format!(", deadline {} ms", ms(d)));
        let from = match c.origin {
            ChainOrigin::User => "",
            ChainOrigin::Model => ", from the model",
            ChainOrigin::Discovered => ", found",
        };
        let _ = writeln!(s, "  {} ({}{from}): {}{deadline}", c.name, c.kind.name(), c.tasks.join(" > "));
        let _ = writeln!(
            s,
            "    {:<width$} {:>9} {:>9} {:>9} {:>9} {:>7}",
            "set-up", "instances", "mean", "p95", "max", "misses"
        );
        let row = |s: &mut String, label: &str, r: &ChainResult| {
            let f = |v: Option<u64>| v.map_or("-".to_string(), ms);
            let misses = r.misses().map_or("-".to_string(), |m| m.to_string());
            let _ = writeln!(
                s,
                "    {label:<width$} {:>9} {:>9} {:>9} {:>9} {misses:>7}",
                r.instances,
                f(r.latency_mean_ns),
                f(r.latency_p95_ns),
                f(r.latency_max_ns),
            );
        };
        row(&mut s, "recorded", &c.recorded);
        for (label, results) in runs {
            if let Some(r) = results.get(k) {
                row(&mut s, label, r);
            }
        }
    }
    let _ = writeln!(s, "(misses: instances over the chain's deadline, or not finished when the run ended)");
    s
}

/// A task's cores: `1`, or `0-3` for a mask.
fn cores_text(p: &crate::records::PlacedTask) -> String {
    if p.cores.len() > 1 {
        p.cores.iter().copied().collect::<corera_placement::CoreSet>().to_string()
    } else {
        p.core.to_string()
    }
}

/// The recommendation: set-up, value, why, gains, break-even, costs.
fn recommendation(s: &mut String, a: &Analysis, r: &crate::records::RecommendationRecord) {
    let setup = crate::records::setup_text(&r.setup);
    let _ = writeln!(
        s,
        "\nrecommended on {} (objective {}): {setup}, {}",
        a.platform.describe(),
        a.objective,
        r.value.text
    );
    let _ = writeln!(s, "  why: {}", r.reason);
    if let Some(caution) = a.replay.fidelity.as_ref().and_then(|f| fidelity_caution(f, a.replay.rules.as_ref())) {
        let _ = writeln!(s, "  caution: {caution}");
    }
    if let Some(c) = &r.certificate {
        let _ = writeln!(s, "  proof: {}", c.text);
    }
    let against: Vec<String> = r
        .improvement_pct
        .iter()
        .map(|(what, pct)| {
            let name = crate::records::RecommendationRecord::reference_name(what);
            format!("{pct:+.1} % over {name}")
        })
        .collect();
    let _ = writeln!(s, "  gain: {} (positive is better)", against.join(", "));
    if let Some(b) = &r.break_even {
        let _ = writeln!(s, "  break-even: {}", b.statement);
    }
    let c = &r.costs;
    let _ = writeln!(
        s,
        "  costs: cross-core signal {} ns latency + {} ns CPU, {} ns/byte, migration {} ns, global scheduling {} ns \
         per dispatch",
        c.message_latency_ns, c.message_cpu_ns, c.byte_ns, c.migration_ns, c.schedule_ns
    );
}

/// How well the replay reproduces the recording, in one line:
/// `replay fidelity: as recorded (amp), 23 of 24 tasks within 10 % on mean
/// response, 21 of 24 on READY (6290.459 ms recorded, 6342.504 replayed);
/// furthest: MotorPaper +33.1 %`.
pub fn fidelity_line(f: &crate::records::Fidelity) -> String {
    let pct = (crate::records::Fidelity::WITHIN * 100.0).round();
    let mut line = format!(
        "replay fidelity: the recording replayed as recorded ({}): {} of {} tasks within {pct} % on mean response, \
         {} of {} on READY ({:.3} ms recorded, {:.3} replayed)",
        f.policy.name(),
        f.response_within,
        f.with_response,
        f.ready_within,
        f.tasks,
        f.recorded_ready_ns as f64 / 1e6,
        f.replayed_ready_ns as f64 / 1e6
    );
    let worst: Vec<String> = f
        .worst(3)
        .iter()
        .map(|t| {
            let why = if t.why.is_empty() { String::new() } else { format!(" ({})", t.why.join("; ")) };
            format!("{} {:+.1} %{why}", t.task, t.response_error().unwrap_or(0.0) * 100.0)
        })
        .collect();
    if !worst.is_empty() {
        line.push_str(&format!("; furthest: {}", worst.join(", ")));
    }
    if f.releases_from_switches {
        line.push_str(
            "; releases read from the switches (no ready events): recorded READY and responses are lower bounds",
        );
    }
    line
}

/// For a replay (under `rules`) that does not reproduce the recording, or
/// a recording whose releases were read from the switches: what the
/// comparisons built on it are worth and what to supply.
pub fn fidelity_caution(f: &crate::records::Fidelity, rules: Option<&corera_replay::Rules>) -> Option<String> {
    let replay = (!f.reproduces()).then(|| {
        format!(
            "this rests on a replay that does not reproduce the recording ({} of {} tasks within {} % on mean \
             response, below {} %): the comparisons of set-ups here are not evidence until it does; {}",
            f.response_within,
            f.with_response,
            (crate::records::Fidelity::WITHIN * 100.0).round(),
            (crate::records::Fidelity::ENOUGH * 100.0).round(),
            crate::records::Fidelity::advice(rules)
        )
    });
    let cautions: Vec<String> = replay.into_iter().chain(f.releases_caution().map(str::to_string)).collect();
    (!cautions.is_empty()).then(|| cautions.join("; and "))
}

/// The single core / SMP / AMP comparison.
fn replay_table(s: &mut String, a: &Analysis) {
    if a.replay.single().is_none() {
        return;
    }
    if let Some(f) = &a.replay.fidelity {
        let _ = writeln!(s, "\n{}", fidelity_line(f));
    }
    let width = a.replay.policies.iter().map(|r| r.label.chars().count()).max().unwrap_or(0).max(20);
    let _ = writeln!(
        s,
        "\nreplay of the traced jobs: {:<width$} {:>5} {:>10} {:>10} {:>9} {:>7} {:>8} {:>6} {:>8} {:>10} {:>7}",
        "policy", "cores", "RUNNING s", "READY ms", "resp µs", "READY", "resp", "misses", "migr.", "x-core msg", "rate"
    );
    for run in &a.replay.policies {
        let o = &run.outcome;
        let _ = writeln!(
            s,
            "{:26} {:<width$} {:>5} {:>10.3} {:>10.3} {:>9} {:>6.1}% {:>7.1}% {:>6} {:>8} {:>10} {:>6.1}%",
            "",
            run.label,
            o.cores,
            o.running_ns as f64 / 1e9,
            o.ready_ns as f64 / 1e6,
            if o.tasks.iter().any(|t| t.response_mean_ns.is_some()) {
                format!("{:.1}", o.response_mean_ns / 1e3)
            } else {
                "-".to_string()
            },
            run.ready_improvement_pct,
            run.response_improvement_pct,
            o.tasks.iter().filter_map(|t| t.deadline_misses).sum::<u64>(),
            o.migrations,
            o.cross_core_messages,
            o.sustained_rate * 100.0
        );
    }
    let _ = writeln!(
        s,
        "(READY and resp columns with %: improvement over single core, positive is better; misses: jobs that \
         finished after their deadline, the period unless --deadline)"
    );
    let behind: Vec<&str> =
        a.replay.policies.iter().filter(|r| !r.outcome.keeps_up()).map(|r| r.label.as_str()).collect();
    let _ = writeln!(
        s,
        "(rate: share of the recorded input rate sustained; {})",
        if behind.is_empty() {
            "every policy keeps up".to_string()
        } else {
            format!("{} fall(s) behind the input", behind.join(", "))
        }
    );
    let stuck: Vec<String> = a
        .replay
        .policies
        .iter()
        .filter(|r| r.outcome.deadlocks > 0)
        .map(|r| format!("{} {} times", r.label, r.outcome.deadlocks))
        .collect();
    if !stuck.is_empty() {
        let _ = writeln!(s, "({})", deadlock_note(&stuck.join(", ")));
    }
    if let Some(rules) = &a.replay.rules {
        let _ = writeln!(s, "(kernel: {})", rules.describe());
    }
}

/// What a model is: its hardware and the load it puts on each kind of
/// processing unit.
pub(crate) fn model_block(s: &mut String, m: &corera_trace_ingest::ModelInfo) {
    let mut kinds: Vec<String> = Vec::new();
    for d in &m.definitions {
        let f = m.cores.iter().find(|c| c.definition == d.name).map_or(0.0, |c| c.frequency_hz);
        kinds.push(format!("{} x{} at {:.3} GHz", d.name, d.cores, f / 1e9));
    }
    let _ = writeln!(
        s,
        "\nmodel: Amalthea {}, {} processing units ({}; execution times on {}), {} labels ({}), jobs over {:.3} s with {} ticks",
        m.version,
        m.cores.len(),
        kinds.join(", "),
        if m.reference.is_empty() { "-" } else { &m.reference },
        m.labels,
        bytes(m.label_bytes),
        m.horizon_ns as f64 / 1e9,
        m.ticks.name()
    );
    let loads: Vec<String> = m
        .definitions
        .iter()
        .map(|d| format!("{} {:.2} of {} ({} tasks may run there)", d.name, d.load, d.cores, d.tasks))
        .collect();
    let _ = writeln!(s, "load per core type, were every task that may run there on it: {}", loads.join("; "));
    let names: Vec<String> = m.cores.iter().enumerate().map(|(i, c)| format!("{i} {}", c.name)).collect();
    let _ = writeln!(s, "cores: {}", names.join(", "));
}

/// A size for people: B, kB or MB.
fn bytes(n: u64) -> String {
    match n {
        0..1_000 => format!("{n} B"),
        1_000..1_000_000 => format!("{:.1} kB", n as f64 / 1e3),
        _ => format!("{:.1} MB", n as f64 / 1e6),
    }
}

/// corera's recommendation beside the model's own mapping.
pub(crate) fn mapping_comparison(s: &mut String, a: &Analysis, m: &crate::records::ModelRecord) {
    let Some(mapping) = &m.mapping else {
        let why = if m.info.mapping.is_empty() {
            "the model carries none"
        } else if m.info.cores.len() != usize::from(a.platform.cores) {
            "--platform replaced the model's hardware"
        } else {
            "it leaves some task without a core"
        };
        let _ = writeln!(s, "the model's mapping: {why}; nothing to compare");
        return;
    };
    let kind = if a.platform.is_uniform() { "cross-core traffic" } else { "topology-weighted traffic" };
    let line = |cost: &corera_placement::Cost| {
        let busiest = cost.core_utilisation.iter().copied().fold(0.0, f64::max);
        format!(
            "{kind} {} (total traffic {}), busiest core {:.1} % load{}",
            cost.score.cross_traffic,
            cost.total_traffic,
            busiest * 100.0,
            if cost.over_capacity { ", over a core's capacity" } else { "" }
        )
    };
    let _ = writeln!(s, "the model's mapping: {}", line(&mapping.cost));
    let _ = writeln!(s, "corera's placement:  {}", line(&a.cost));
}

/// What `how_often` replays deadlocking means (`single core 6 times`).
pub fn deadlock_note(how_often: &str) -> String {
    format!(
        "deadlocked {how_often}: the run stopped with every unfinished task blocked on a semaphore or mutex it took \
         in another order than recorded; each time the most urgent blocked take went on, as recorded, and its wait \
         counts in READY"
    )
}

/// The `simulate --as-recorded` table: per task, the replay against the
/// recording, then the largest errors.
pub fn fidelity_table(r: &crate::records::FidelityRecord) -> String {
    let mut s = String::new();
    let w = r.tasks.iter().map(|t| t.task.chars().count()).max().unwrap_or(4).max(4);
    let cw = r.tasks.iter().map(|t| cores_list(&t.cores).len()).max().unwrap_or(5).max(5);
    let _ = writeln!(
        s,
        "{}: replayed as recorded, policy {} on {} core(s)\n\n{:<w$} {:<cw$} {:>11} {:>11} {:>7} {:>10} {:>10} {:>9} {:>9} {:>7}",
        r.input.name,
        r.policy.name(),
        r.platform.cores,
        "task",
        "cores",
        "RUNNING rec",
        "replayed",
        "err %",
        "READY rec",
        "replayed",
        "resp rec",
        "replayed",
        "err %"
    );
    // ms, or µs for a recording shorter than 10 ms of RUNNING per task.
    let longest = r.tasks.iter().map(|t| t.recorded_running_ns).max().unwrap_or(0);
    let (unit, div) = if longest < 10_000_000 { ("µs", 1e3) } else { ("ms", 1e6) };
    let ms = |ns: u64| format!("{:.3}", ns as f64 / div);
    let pct = |e: Option<f64>| e.map_or("-".to_string(), |e| format!("{:+.1}", e * 100.0));
    for t in &r.tasks {
        let _ = writeln!(
            s,
            "{:<w$} {:<cw$} {:>11} {:>11} {:>7} {:>10} {:>10} {:>9} {:>9} {:>7}",
            t.task,
            cores_list(&t.cores),
            ms(t.recorded_running_ns),
            ms(t.replayed_running_ns),
            pct(Some(t.running_error())),
            ms(t.recorded_ready_ns),
            ms(t.replayed_ready_ns),
            t.recorded_response_mean_ns.map_or("-".to_string(), ms),
            t.replayed_response_mean_ns.map_or("-".to_string(), ms),
            pct(t.response_error())
        );
    }
    let worst = |f: &dyn Fn(&crate::records::FidelityRow) -> Option<f64>| {
        r.tasks.iter().filter_map(|t| Some((f(t)?.abs(), t.task.as_str()))).max_by(|a, b| a.0.total_cmp(&b.0))
    };
    let run = worst(&|t| (t.recorded_running_ns > 0).then(|| t.running_error()));
    let resp = worst(&|t| t.response_error());
    let _ = writeln!(s, "\n(times in {unit}; err = replayed against recorded)");
    if let Some((e, task)) = run {
        let within = r.tasks.iter().filter(|t| t.running_error().abs() <= 0.02).count();
        let _ = writeln!(
            s,
            "RUNNING within 2 % for {within} of {} tasks; largest error {:.1} % ({task})",
            r.tasks.len(),
            e * 100.0
        );
    }
    match resp {
        Some((e, task)) => {
            // The fidelity line's rule, one for both.
            let with: Vec<bool> = r.tasks.iter().filter_map(|t| t.response_within()).collect();
            let within = with.iter().filter(|&&w| w).count();
            let _ = writeln!(
                s,
                "mean response within 10 % for {within} of {} tasks with job ends; largest error {:.1} % ({task})",
                with.len(),
                e * 100.0
            );
        }
        None => {
            let _ = writeln!(s, "no response times: the recording has no job ends");
        }
    }
    if r.releases_from_switches {
        let _ = writeln!(s, "releases: {}", crate::records::RELEASES_CAUTION);
    }
    if let Some(rules) = &r.rules {
        let _ = writeln!(s, "kernel: {}", rules.describe());
    }
    if let Some(w) = &r.cross_core_wake {
        let _ = writeln!(
            s,
            "cross-core wake: {}",
            wake_text(
                w,
                r.platform.costs.message_latency_ns,
                WAKES,
                "cross-core signal whose own wake is not recorded"
            )
        );
    }
    if let Some(w) = &r.local_wake {
        let charged = r.platform.costs.dispatch_ns.unwrap_or(0);
        let _ = writeln!(
            s,
            "dispatch on the same core: {}",
            wake_text(w, charged, WAKES, "local release whose own wake is not recorded")
        );
    }
    if let Some(w) = &r.context_switch {
        let charged = r.platform.costs.context_switch_ns.unwrap_or(0);
        let samples = "switches onto a task ready already";
        let _ = writeln!(s, "context switch: {}", wake_text(w, charged, samples, "switch from one task to another"));
    }
    if let Some(w) = &r.yield_latency {
        let costs = &r.platform.costs;
        let charged = costs.yield_ns.unwrap_or(costs.message_latency_ns);
        let _ = writeln!(
            s,
            "yield to a higher priority on another core: {}",
            wake_text(w, charged, "spans of a lower priority running beside it", "such yield")
        );
    }
    s.push_str(&chains_text(&r.chains, &[("replayed as recorded", r.replayed_chains.as_slice())]));
    s
}

/// The samples of a recorded wake latency.
const WAKES: &str = "wakes onto an idle core";

/// What a recording's `samples` (wakes onto an idle core) took, and the
/// latency the replay charged each `what` (`charged_ns`).
fn wake_text(w: &corera_trace_ingest::CrossCoreWake, charged_ns: u64, samples: &str, what: &str) -> String {
    let us = |ns: u64| format!("{:.1} µs", ns as f64 / 1e3);
    let (median, low, high, n) = (us(w.median_ns), us(w.p25_ns), us(w.p75_ns), w.wakes);
    let charged = match charged_ns {
        0 => "none charged".to_string(),
        ns => format!("the platform's {} charged", us(ns)),
    };
    if !w.is_steady() {
        let spread = format!("{low} to {high} in the middle half of {n} {samples} (median {median}): no one latency");
        return if charged_ns > 0 && charged_ns == w.p25_ns {
            format!("{spread}; its lower quartile, which three in four took at least, charged to each {what}")
        } else {
            format!("{spread}, {charged}")
        };
    }
    let measured = format!("{median} (median of {n} {samples}; middle half {low} to {high})");
    if w.median_ns == 0 {
        format!("{measured}: nothing to charge")
    } else if charged_ns == w.median_ns {
        format!("{measured}, charged to each {what}")
    } else if charged_ns == w.p75_ns {
        format!("{measured}, its upper quartile charged to each {what}")
    } else {
        format!("{measured}; {charged}")
    }
}

fn cores_list(cores: &[u16]) -> String {
    cores.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
}

/// The `simulate --sweep` table: the policy and global SMP at each value.
pub fn sweep_table(r: &crate::records::SweepRecord) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: policy {} against global SMP as {} changes (objective {})\n",
        r.input.name,
        r.policy.name(),
        r.key,
        r.objective
    );
    let _ = writeln!(
        s,
        "{:>12}  {:>10} {:>9} {:>6}  {:>10} {:>9} {:>6}  better",
        r.key, "READY ms", "resp µs", "misses", "SMP READY", "SMP resp", "misses"
    );
    for p in &r.points {
        let _ = writeln!(
            s,
            "{:>12}  {:>10.3} {:>9.1} {:>6}  {:>10.3} {:>9.1} {:>6}  {}",
            p.value,
            p.ready_ns as f64 / 1e6,
            p.response_mean_ns / 1e3,
            p.deadline_misses,
            p.smp_ready_ns as f64 / 1e6,
            p.smp_response_mean_ns / 1e3,
            p.smp_deadline_misses,
            match p.better.as_str() {
                "policy" => r.policy.name(),
                "smp" => "smp",
                _ => "tie",
            }
        );
    }
    let swaps: Vec<String> = r
        .points
        .windows(2)
        .filter(|w| w[0].better != w[1].better && w[0].better != "tie" && w[1].better != "tie")
        .map(|w| format!("between {} and {}", w[0].value, w[1].value))
        .collect();
    let _ = writeln!(
        s,
        "\n{}",
        if swaps.is_empty() {
            "no swap in this range".to_string()
        } else {
            format!("they swap places {}", swaps.join(", "))
        }
    );
    s
}

/// One line of a per-core listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoreLine {
    /// A core of its own.
    One(usize),
    /// A run of two or more unused cores, first and last.
    Unused(usize, usize),
}

/// The lines of a listing of `cores` cores in which runs of two or more
/// cores that `used` says are unused share one line (a 64-core mesh with
/// seven busy tiles takes a few lines, not 64).
pub fn core_lines(cores: usize, used: impl Fn(usize) -> bool) -> Vec<CoreLine> {
    let mut lines = Vec::new();
    let mut c = 0;
    while c < cores {
        let end = (c..cores).find(|&d| used(d)).unwrap_or(cores);
        if end > c + 1 {
            lines.push(CoreLine::Unused(c, end - 1));
            c = end;
        } else {
            lines.push(CoreLine::One(c));
            c += 1;
        }
    }
    lines
}

/// `cores` (ascending) named in a sentence, runs of three or more as a
/// range: `core 1`, `cores 1, 2`, `cores 2-63`.
pub fn cores_named(cores: &[u16]) -> String {
    let mut parts: Vec<String> = Vec::new();
    for run in cores.chunk_by(|a, b| b.checked_sub(*a) == Some(1)) {
        match run {
            [one] => parts.push(one.to_string()),
            [a, b] => parts.extend([a.to_string(), b.to_string()]),
            [a, .., b] => parts.push(format!("{a}-{b}")),
            [] => {}
        }
    }
    let plural = cores.len() > 1;
    format!("core{} {}", if plural { "s" } else { "" }, parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cores_are_named_with_runs_as_ranges() {
        assert_eq!(cores_named(&[1]), "core 1");
        assert_eq!(cores_named(&[1, 2]), "cores 1, 2");
        assert_eq!(cores_named(&[0, 2, 3, 4, 5, 9]), "cores 0, 2-5, 9");
    }

    #[test]
    fn runs_of_unused_cores_share_a_line() {
        let used = [true, false, false, true, false, true, false, false, false];
        assert_eq!(
            core_lines(used.len(), |c| used[c]),
            [
                CoreLine::One(0),
                CoreLine::Unused(1, 2),
                CoreLine::One(3),
                CoreLine::One(4),
                CoreLine::One(5),
                CoreLine::Unused(6, 8)
            ]
        );
        assert_eq!(core_lines(0, |_| true), []);
    }

    /// A replay that does not reproduce its recording says what to supply,
    /// except where nothing it takes would help: a Linux recording's
    /// threads share their cores by CFS, which no priority reproduces.
    #[test]
    fn the_caution_advises_only_what_can_help() {
        // The rules the replay keeps for a recording of `os`.
        let rules = |os: &str| {
            let text =
                format!("corera-log 1 clock=us os={os}\ntask 1 task 1 A\n0 0 rdy 1\n0 0 in 1\n50 0 out 1 done\n");
            let options = corera_trace_ingest::ReadOptions::new("t.log");
            let parsed =
                corera_trace_ingest::read(&mut text.as_bytes(), corera_trace_ingest::FormatChoice::AUTO, &options);
            corera_replay::Replay::from_trace(&parsed.unwrap().trace, &[]).rules
        };
        let fidelity = crate::records::Fidelity {
            tasks: 4,
            with_response: 4,
            response_within: 1,
            ready_within: 1,
            recorded_ready_ns: 0,
            replayed_ready_ns: 0,
            policy: corera_replay::Policy::Amp,
            rows: Vec::new(),
            releases_from_switches: false,
        };
        let freertos = fidelity_caution(&fidelity, Some(&rules("freertos"))).unwrap();
        assert!(freertos.contains("1 of 4 tasks") && freertos.contains("--priority TASK=N"), "{freertos}");
        let linux = fidelity_caution(&fidelity, Some(&rules("linux"))).unwrap();
        assert!(linux.contains("(CFS)") && !linux.contains("--priority"), "{linux}");
        let reproduced = crate::records::Fidelity { response_within: 4, ..fidelity };
        assert_eq!(fidelity_caution(&reproduced, Some(&rules("linux"))), None);
    }
}
