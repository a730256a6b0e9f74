//! The timing search (issue 20) against what nobody on the team tuned: the
//! naive baselines of `support/baseline.rs` and the best of 50 random
//! placements on every bundled sample, real trace and model; complete
//! enumeration on traces small enough for it; the WATERS 2019 model's own
//! mapping; and its certificates checked by replaying every neighbour.

use std::collections::HashSet;

use corera_placement::{CoreId, CoreSet, Objective, Placement, Platform, Problem};
use corera_replay::{Replay, Workload, generate};
use corera_search::{Options, portfolio};
use corera_trace_ingest::Schedule;
use corera_tune::{Certificate, Neighbourhood, Proof, Score, TimingSolution, describe};

use crate::root;
use crate::support::baseline::{self, Case, INPUTS};

/// corera's answers on `file` are never worse than the baselines'. A
/// baseline is not run where corera proved its answer optimal (nothing can
/// beat it). A naive search that needed more replays than corera's budget
/// is held against corera given as many ([`as_many_replays`]).
fn against_baselines(file: &str) {
    let (file, spec) = *INPUTS.iter().find(|(f, _)| f.ends_with(file)).expect("a listed input");
    if let Some(rel) = file.strip_prefix("shared/") {
        corera_testdata::shared_or_skip!(rel);
    }
    let case = baseline::case(root().to_str().unwrap(), file, spec);
    let objective = Objective::Ready;
    let found = baseline::search(&case, objective);
    let amp = &found.amp;
    let proven = |c: &Option<Certificate>| matches!(c, Some(Certificate::Optimal(_)));
    let d = |s: &Score| describe(objective, s);
    if !proven(&amp.certificate) {
        let naive = baseline::naive(&case, objective);
        let amp = &as_many_replays(&case, &found, &naive, |f| f.amp.score).amp;
        assert!(
            amp.score.no_worse_than(&naive.score),
            "{file}: corera's AMP placement {} is beaten by first-improvement single moves: {} ({} replays: {:?})",
            d(&amp.score),
            d(&naive.score),
            naive.replays,
            naive.core_of
        );
        if let Some(random) = baseline::random_best(&case, objective, 50, 1) {
            assert!(
                amp.score.no_worse_than(&random.score),
                "{file}: random {} beats {}",
                d(&random.score),
                d(&amp.score)
            );
        }
    }
    let masks = found.masks.as_ref();
    assert_eq!(masks.is_some(), case.platform.cores > 1, "{file}: masks are searched on more than one core");
    if masks.is_some_and(|m| !proven(&m.certificate)) {
        let naive = baseline::naive_masks(&case, objective);
        let again = as_many_replays(&case, &found, &naive, |f| f.masks.as_ref().expect("masks").score);
        let masks = again.masks.as_ref().expect("masks searched");
        assert!(
            masks.score.no_worse_than(&naive.score),
            "{file}: corera's mask placement {} is beaten by single mask changes: {} ({} replays: {:?})",
            d(&masks.score),
            d(&naive.score),
            naive.replays,
            naive.masks
        );
    }
    certified(&found, file);
}

/// corera's search on `case` again with the replays `naive` took, when
/// `naive` beat the answer `score_of` picks from `found` with more replays
/// than corera's budget; else `found` itself. (On rp2's eight cores the
/// naive mask search needs 3,761 replays for a READY of 0, against the
/// automatic budget of 1,011.)
fn as_many_replays(
    case: &baseline::Case,
    found: &TimingSolution,
    naive: &baseline::Found,
    score_of: impl Fn(&TimingSolution) -> Score,
) -> TimingSolution {
    if score_of(found).no_worse_than(&naive.score) || naive.replays <= found.budget {
        return found.clone();
    }
    baseline::search_within(case, Objective::Ready, Some(naive.replays))
}

/// Every answer carries a certificate, and a partial one only when the
/// budget ran out (within a batch of eight replays).
fn certified(found: &TimingSolution, file: &str) {
    for c in [Some(&found.amp), found.masks.as_ref()].into_iter().flatten() {
        let cert = c.certificate.unwrap_or_else(|| panic!("{file}: {} has no certificate", c.label()));
        if let Certificate::Partial { checked, neighbours, .. } = cert {
            assert!(checked < neighbours, "{file}: {cert:?}");
            assert!(
                found.replays + 8 >= found.budget || found.out_of_time,
                "{file}: partial with budget left: {cert:?}"
            );
        }
    }
}

macro_rules! baseline_tests {
    ($($(#[$attr:meta])* $name:ident: $file:expr,)*) => {$(
        #[test]
        $(#[$attr])*
        fn $name() {
            against_baselines($file);
        }
    )*};
}

baseline_tests! {
    beats_the_baselines_on_the_printer: "printer/printer.log",
    #[ignore = "long check (minutes in a debug build): .ci/run runs it with --ignored"]
    beats_the_baselines_on_rp2_cluster: "ecu.log",
    #[ignore = "long check (minutes in a debug build): .ci/run runs it with --ignored"]
    beats_the_baselines_on_tile64_daq: "daq.log",
    beats_the_baselines_on_app4mc_example1: "app4mc_example1_task_only_short.btf",
    beats_the_baselines_on_app4mc_vit: "app4mc_rtana2sim_vit.btf",
    beats_the_baselines_on_freertos_btf: "freertos_v11_rv64sim_2cores.btf",
    beats_the_baselines_on_android_small: "android_sched_small.txt",
    beats_the_baselines_on_android_youtube: "android_youtube_4cpu_atrace.txt",
    beats_the_baselines_on_juno: "lisa_juno_sched_load.trace-cmd-report.txt",
    beats_the_baselines_on_systemview: "printer.SVDat",
    beats_the_baselines_on_tracealyzer_printer: "tracealyzer/printer.psf",
    beats_the_baselines_on_tracealyzer_sampler: "sampler.psf",
    beats_the_baselines_on_btf_spec_entities: "spec_entities.btf",
    beats_the_baselines_on_waters_2019: "waters2019_challenge.amxmi",
    beats_the_baselines_on_democar: "democar.amxmi",
    beats_the_baselines_on_app4mc_periodic: "modeling_example_periodic_9.amxmi",
    beats_the_baselines_on_app4mc_feedback_loop: "modeling_example_feedback_loop_9.amxmi",
}

/// Every placement of the case's tasks on two cores within corera's hard
/// rules (constraints, and no more load above the cores' capacities than
/// the traffic optimum), replayed: the best score and how many distinct
/// placements there are up to swapping the two cores.
fn brute_force(case: &Case, objective: Objective) -> (Score, u64) {
    let p = &case.problem;
    let n = p.len();
    assert_eq!(case.platform.cores, 2);
    assert!(n <= 16, "{n} tasks are too many to enumerate here");
    let limits = case.platform.capacity_limits(p.horizon_ns);
    let overload = |core_of: &[u16]| {
        let mut load = [0u64; 2];
        for (i, &c) in core_of.iter().enumerate() {
            load[usize::from(c)] += p.load[i];
        }
        load.iter().zip(&limits).map(|(&l, &m)| l.saturating_sub(m)).sum::<u64>()
    };
    let allowed = overload(&case.traffic.placement.core_of);
    let input = baseline::input(case, objective);
    let fixed = p.fixed_cores(2);
    let mut seen = HashSet::new();
    let mut best: Option<Score> = None;
    for code in 0u32..1 << n {
        let core_of: Vec<u16> = (0..n).map(|i| (code >> i & 1) as u16).collect();
        let placement = Placement::new(core_of.clone());
        if !p.violations(&placement).is_empty() || overload(&core_of) > allowed {
            continue;
        }
        if !seen.insert(placement.canonical(2, &fixed).core_of) {
            continue;
        }
        let s = baseline::replay(&input, &core_of, None);
        if best.is_none_or(|b| s.beats(&b)) {
            best = Some(s);
        }
    }
    (best.expect("some placement"), seen.len() as u64)
}

/// A case from a workload description, on two identical cores.
fn generated(toml: &str) -> Case {
    let trace = generate(&Workload::from_toml(toml).unwrap()).unwrap();
    let schedule = Schedule::of(&trace);
    let (graph, _) = corera_task_graph::TaskGraph::from_schedule(&trace, &schedule).unwrap();
    let platform = Platform::identical(2);
    let problem = Problem::from_graph(&graph, &platform, &corera_placement::Constraints::default()).unwrap();
    let deadlines: Vec<Option<u64>> = graph.tasks.iter().map(|t| t.period_ns).collect();
    let workload = Replay::new(&trace, &schedule, &deadlines);
    let traffic = portfolio(&problem, &platform, &Options::default()).unwrap();
    Case { file: "generated", problem, platform, workload, traffic, given: None, model: None }
}

/// Nine tasks, one ISR: a sensor chain through queues, a mutex shared by
/// two controllers, and background load, on two cores (2^8 placements).
const NINE: &str = r#"
    name = "nine"
    duration_ms = 200
    seed = 3
    [[task]]
    name = "AdcIsr"
    kind = "isr"
    priority = 3
    period_us = 1000
    exec_us = [5, 9]
    actions = [{ at = 1.0, send = "adcq", bytes = 16 }]
    [[task]]
    name = "Filter"
    priority = 9
    trigger = "queue:adcq"
    exec_us = [120, 200]
    actions = [{ at = 0.9, send = "ctlq", bytes = 8 }]
    [[task]]
    name = "Control"
    priority = 8
    trigger = "queue:ctlq"
    exec_us = [150, 260]
    actions = [{ at = 0.4, lock = "bus", hold = 0.3 }, { at = 0.9, send = "logq", bytes = 24, every = 5 }]
    [[task]]
    name = "Motor"
    priority = 8
    period_us = 2000
    exec_us = [300, 500]
    actions = [{ at = 0.2, lock = "bus", hold = 0.4 }]
    [[task]]
    name = "Comms"
    priority = 6
    period_us = 5000
    exec_us = [600, 1200]
    [[task]]
    name = "Ui"
    priority = 4
    period_us = 10000
    exec_us = [900, 2000]
    [[task]]
    name = "Logger"
    priority = 2
    trigger = "queue:logq"
    exec_us = [40, 80]
    [[task]]
    name = "Stats"
    priority = 3
    period_us = 20000
    exec_us = [1500, 3000]
    [[task]]
    name = "Housekeeping"
    priority = 1
    period_us = 50000
    exec_us = [2000, 6000]
"#;

/// Where the AMP placements are few enough to replay them all, corera
/// does, and its answer is the true optimum (found here by brute force over
/// every assignment) with a certificate that says so.
#[test]
fn small_traces_are_solved_exactly() {
    let root = root().to_str().unwrap().to_string();
    let cases = vec![
        generated(NINE),
        baseline::case(&root, "samples/systemview/printer.SVDat", Some("2")),
        baseline::case(&root, "samples/tracealyzer/printer.psf", Some("2")),
    ];
    for case in &cases {
        for objective in [Objective::Ready, Objective::Response] {
            let (best, count) = brute_force(case, objective);
            let found = baseline::search(case, objective);
            let amp = &found.amp;
            assert_eq!(
                amp.certificate,
                Some(Certificate::Optimal(Proof::Enumeration { placements: count })),
                "{} {objective:?}: {:?}",
                case.file,
                amp.certificate
            );
            assert!(
                amp.score == best || best.no_worse_than(&amp.score) && amp.score.no_worse_than(&best),
                "{} {objective:?}: corera {:?}, brute force {best:?}",
                case.file,
                amp.score
            );
        }
    }
}

/// On the WATERS 2019 challenge corera's best AMP placement replays no
/// worse than the model's own mapping (a published one), on READY and on
/// deadline misses.
#[test]
fn waters_2019_no_worse_than_the_models_own_mapping() {
    corera_testdata::shared_or_skip!("amalthea");
    let root = root().to_str().unwrap().to_string();
    let case = baseline::case(&root, "shared/amalthea/waters2019_challenge.amxmi", None);
    // The model maps some tasks to a set of cores: its mapping replays
    // with those masks.
    let sets = case.model.clone().expect("the model maps every task");
    let core_of: Vec<CoreId> = sets.iter().map(|s| s.first().expect("a core")).collect();
    let masks = sets.iter().any(|s| s.len() > 1).then_some(sets.as_slice());
    for objective in [Objective::Ready, Objective::Deadlines] {
        let found = baseline::search(&case, objective);
        let input = baseline::input(&case, objective);
        let model = baseline::replay(&input, &core_of, masks);
        eprintln!(
            "{objective:?}: corera AMP {}, the model's mapping {}",
            describe(objective, &found.amp.score),
            describe(objective, &model)
        );
        assert!(
            found.amp.score.no_worse_than(&model),
            "{objective:?}: corera {} against the model's mapping {}",
            describe(objective, &found.amp.score),
            describe(objective, &model)
        );
    }
}

/// A local-optimum certificate is true: every single-task move and swap
/// of the best AMP placement, and every one-core change of the best
/// mask placement, replayed here, is no better.
#[test]
fn local_optimum_certificates_hold() {
    corera_testdata::shared_or_skip!("traces/ftrace");
    let root = root().to_str().unwrap().to_string();
    let case = baseline::case(&root, "shared/traces/ftrace/lisa_juno_sched_load.trace-cmd-report.txt", Some("2"));
    let objective = Objective::Ready;
    let found = baseline::search(&case, objective);
    let input = baseline::input(&case, objective);
    let p = &case.problem;
    let limits = case.platform.capacity_limits(p.horizon_ns);
    let overload = |core_of: &[u16]| -> u64 {
        let mut load = vec![0u64; limits.len()];
        for (i, &c) in core_of.iter().enumerate() {
            load[usize::from(c)] += p.load[i];
        }
        load.iter().zip(&limits).map(|(&l, &m)| l.saturating_sub(m)).sum()
    };
    let allowed = overload(&case.traffic.placement.core_of);
    let ok =
        |core_of: &[u16]| p.violations(&Placement::new(core_of.to_vec())).is_empty() && overload(core_of) <= allowed;
    // AMP.
    let amp = &found.amp;
    assert!(matches!(
        amp.certificate,
        Some(Certificate::LocalOptimum { neighbourhood: Neighbourhood::MovesAndSwaps, .. })
    ));
    let x = &amp.core_of;
    let mut checked = 0;
    for i in 0..p.len() {
        for c in 0..2u16 {
            let mut next = x.clone();
            next[i] = c;
            if c != x[i] && ok(&next) {
                checked += 1;
                assert!(!baseline::replay(&input, &next, None).beats(&amp.score), "moving {} beats it", p.names[i]);
            }
        }
        for j in i + 1..p.len() {
            let mut next = x.clone();
            next.swap(i, j);
            if x[i] != x[j] && ok(&next) {
                checked += 1;
                assert!(
                    !baseline::replay(&input, &next, None).beats(&amp.score),
                    "{} <-> {} beats it",
                    p.names[i],
                    p.names[j]
                );
            }
        }
    }
    assert!(checked > 50, "only {checked} neighbours");
    // Masks.
    let m = found.masks.as_ref().unwrap();
    assert!(matches!(m.certificate, Some(Certificate::LocalOptimum { neighbourhood: Neighbourhood::MaskCores, .. })));
    let masks = m.masks.as_ref().unwrap();
    for i in 0..p.len() {
        if p.isr[i] || p.pinned[i].is_some() {
            continue;
        }
        for c in 0..2u16 {
            let mut next: Vec<CoreSet> = masks.clone();
            let mut home = m.core_of.clone();
            if next[i].contains(c) {
                if next[i].len() < 2 {
                    continue;
                }
                next[i].remove(c);
                if home[i] == c {
                    home[i] = next[i].first().unwrap();
                }
                if !ok(&home) {
                    continue;
                }
            } else {
                next[i].insert(c);
            }
            assert!(
                !baseline::replay(&input, &home, Some(&next)).beats(&m.score),
                "changing {}'s mask beats it",
                p.names[i]
            );
        }
    }
}
