//! How well the timing surrogate ranks placements against the replay, on
//! every bundled sample: Spearman's rank correlation between the surrogate
//! and the replayed READY over random placements within the load limits
//! (random walks of single-task moves from the greedy placement), and how
//! much cheaper a surrogate evaluation is than a replay (the reference
//! measured in the same run).
//!
//! Run: `cargo bench --bench surrogate` (figures in the book's performance
//! page).

use std::time::Instant;

use corera_placement::rng::SplitMix64;
use corera_placement::{Objective, Placement};
use corera_replay::{Policy, Setup, simulate};
use corera_search::{Greedy, Solver};
use corera_tune::{TimingInput, spearman};

/// Placements sampled per sample.
const SAMPLES: usize = 60;

fn main() {
    let root = env!("CARGO_MANIFEST_DIR");
    for (file, spec) in [
        ("samples/printer/printer.log", "2"),
        ("samples/rp2-cluster/ecu.log", "rp2"),
        ("samples/tile64-daq/daq.log", "samples/tile64-daq/tile64.toml"),
        ("shared/traces/btf/freertos_v11_rv64sim_2cores.btf", "2"),
        ("shared/traces/ftrace/android_youtube_4cpu_atrace.txt", "2"),
        ("shared/traces/ftrace/lisa_juno_sched_load.trace-cmd-report.txt", "2"),
    ] {
        let path = corera_testdata::path(file);
        if !path.exists() {
            eprintln!("skipped {file}: not found (data made by others is read from ../shared/data)");
            continue;
        }
        // Prepared by the library, as `corera analyze` prepares it.
        let spec = if spec.ends_with(".toml") { format!("{root}/{spec}") } else { spec.to_string() };
        let options = corera_pipeline::Options { platform: Some(spec), ..corera_pipeline::Options::default() };
        let prepared = corera_pipeline::prepare(&corera_pipeline::Input::file(path), &options).expect("prepares");
        let (workload, _) = prepared.workload().expect("a workload");
        let (problem, platform) = (&prepared.problem, &prepared.platform);
        let greedy = Greedy.solve(problem, platform, None).expect("greedy");
        let input = TimingInput::new(problem, platform, Objective::Ready, &workload, &greedy);
        let surrogate = input.surrogate();
        let limits = platform.core_limits(problem.total_load(), problem.horizon_ns);
        let within = |core_of: &[u16]| {
            let cost = corera_placement::Cost::of(problem, platform, &Placement::new(core_of.to_vec()));
            cost.core_load_ns.iter().zip(&limits).all(|(l, m)| l <= m)
        };
        let mut rng = SplitMix64::new(7);
        let mut placements = Vec::new();
        let mut at = greedy.placement.core_of.clone();
        while placements.len() < SAMPLES {
            for _ in 0..problem.len() {
                let i = rng.below(problem.len() as u64) as usize;
                let c = rng.below(u64::from(platform.cores)) as u16;
                if problem.pinned[i].is_none() && problem.fits(i, usize::from(c), &at) {
                    let before = at[i];
                    at[i] = c;
                    if !within(&at) {
                        at[i] = before;
                    }
                }
            }
            placements.push(at.clone());
        }
        let t = Instant::now();
        let values: Vec<f64> = placements.iter().map(|p| surrogate.value(problem, platform, p)).collect();
        let per_surrogate = t.elapsed().as_secs_f64() / SAMPLES as f64;
        let t = Instant::now();
        let ready: Vec<f64> = placements
            .iter()
            .map(|p| {
                let mut cores = vec![0u16; workload.tasks.len()];
                for (i, &r) in input.replay_of.iter().enumerate() {
                    cores[r as usize] = p[i];
                }
                let setup =
                    Setup { policy: Policy::Amp, platform, core_of: Some(&cores), masks: None, timeline: false };
                simulate(&workload, &setup).ready_ns as f64
            })
            .collect();
        let per_replay = t.elapsed().as_secs_f64() / SAMPLES as f64;
        let pairs: Vec<(f64, f64)> = values.into_iter().zip(ready).collect();
        println!(
            "{file}: Spearman {} over {SAMPLES} placements; surrogate {:.1} us, replay {:.1} ms per placement ({:.0}x)",
            spearman(&pairs).map_or("-".to_string(), |r| format!("{r:.2}")),
            per_surrogate * 1e6,
            per_replay * 1e3,
            per_replay / per_surrogate.max(1e-12)
        );
    }
}
