//! Replay speed: a generated trace of at least 10 million events (the
//! printer workload run for long enough), replayed under each policy.
//! Reports trace events per second, next to a reference measured in the
//! same run: one pass over the events that only sums their times (the
//! floor any replay pays). `CORERA_BENCH_EVENTS` sets the event target.
//! Last, the SMP replay again while measuring the chains discovered in
//! the trace, and time-sliced at a 1 ms tick, each against the same replay
//! without.
//!
//! Run: `cargo bench -p corera-replay --bench replay`

use std::time::Instant;

use corera_placement::Platform;
use corera_replay::{Policy, Replay, Setup, Workload, generate, simulate};

fn main() {
    let target: usize = std::env::var("CORERA_BENCH_EVENTS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000_000);
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/printer/workload.toml"))
        .expect("printer workload");
    // 8.5 s of the printer gives about 325,000 events.
    let ms = (target as f64 / 320_000.0 * 8_500.0).ceil() as u64;
    let text = text.replace("duration_ms = 8500", &format!("duration_ms = {ms}"));
    let workload = Workload::from_toml(&text).expect("valid workload");
    let t = Instant::now();
    let trace = generate(&workload).expect("generates");
    println!(
        "generated {} events ({} s of printer time) in {:.2} s",
        trace.events.len(),
        ms / 1000,
        t.elapsed().as_secs_f64()
    );
    let events = trace.events.len() as f64;
    let t = Instant::now();
    let sum: u64 = trace.events.iter().map(|e| e.time).fold(0, u64::wrapping_add);
    let scan = t.elapsed().as_secs_f64().max(1e-9);
    println!("reference: one pass over the events {:.3} s ({:.0} M events/s) [{}]", scan, events / scan / 1e6, sum % 7);
    let t = Instant::now();
    let replay = Replay::from_trace(&trace, &[]);
    let extract = t.elapsed().as_secs_f64();
    println!(
        "extract jobs: {:.2} s, {:.1} M events/s, {:.0}x the reference",
        extract,
        events / extract / 1e6,
        extract / scan
    );
    let platform = Platform::identical(2);
    let cores: Vec<u16> = (0..replay.tasks.len()).map(|i| (i % 2) as u16).collect();
    let mut smp_s = 0.0;
    for policy in [Policy::Single, Policy::Smp, Policy::SmpLeastLoaded, Policy::Amp] {
        let t = Instant::now();
        let o = simulate(
            &replay,
            &Setup { policy, platform: &platform, core_of: Some(&cores), masks: None, timeline: false },
        );
        let s = t.elapsed().as_secs_f64();
        println!(
            "{:<17} {:.2} s, {:.1} M events/s, {:.0}x the reference (makespan {:.1} s)",
            policy.name(),
            s,
            events / s / 1e6,
            s / scan,
            o.makespan_ns as f64 / 1e9
        );
        if policy == Policy::Smp {
            smp_s = s;
        }
    }
    let mut chained = replay.clone();
    chained.set_discovered_chains(3);
    let t = Instant::now();
    let o = simulate(
        &chained,
        &Setup { policy: Policy::Smp, platform: &platform, core_of: Some(&cores), masks: None, timeline: false },
    );
    let s = t.elapsed().as_secs_f64();
    println!(
        "smp with {} chains {:.2} s, {:.2}x the same replay without chains ({} instances of the first)",
        o.chains.len(),
        s,
        s / smp_s.max(1e-9),
        o.chains.first().map_or(0, |c| c.instances)
    );
    // The kernel's rules: equal priorities sliced at a 1 ms tick.
    let mut sliced = replay.clone();
    let kernel = corera_placement::Kernel { tick_us: Some(1000.0), time_slicing: Some(true), ..Default::default() };
    sliced.set_kernel(&kernel).expect("a tick is given");
    let t = Instant::now();
    simulate(
        &sliced,
        &Setup { policy: Policy::Smp, platform: &platform, core_of: Some(&cores), masks: None, timeline: false },
    );
    let s = t.elapsed().as_secs_f64();
    println!("smp sliced at 1 ms {:.2} s, {:.2}x the same replay without slicing", s, s / smp_s.max(1e-9));
}
