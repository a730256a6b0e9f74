//! corera's timing search against the baselines of `tests/support/
//! baseline.rs` on every bundled sample and every real trace and model:
//! the best AMP placement's objective (READY) against first-improvement
//! single moves from the traffic optimum and the best of 50 random
//! placements, and the best mask placement against the same moves on
//! masks; with the replays each took and the search's certificate. The
//! reference for the time is one replay of the whole trace, measured in the
//! same run.
//!
//! Run: `cargo bench --bench baseline [-- FILTER]` (figures in the book's
//! performance page).

use std::time::Instant;

use corera_placement::Objective;
use corera_tune::describe;

#[path = "../tests/support/baseline.rs"]
#[allow(dead_code, reason = "shared with the tests, which use all of it")]
mod baseline;

fn main() {
    let root = env!("CARGO_MANIFEST_DIR");
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let objective = Objective::Ready;
    for (file, spec) in baseline::INPUTS {
        if filter.as_deref().is_some_and(|f| !file.contains(f)) {
            continue;
        }
        if !corera_testdata::path(file).exists() {
            eprintln!("skipped {file}: not found (data made by others is read from ../shared/data)");
            continue;
        }
        let case = baseline::case(root, file, spec);
        let input = baseline::input(&case, objective);
        let replay_s = (0..5)
            .map(|_| {
                let t = Instant::now();
                input.replay(&case.traffic.placement.core_of, None, false);
                t.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min);
        let one = input.replay(&case.traffic.placement.core_of, None, false);
        let t = Instant::now();
        let found = baseline::search(&case, objective);
        let tune_s = t.elapsed().as_secs_f64();
        let proven = |c: &Option<corera_tune::Certificate>| matches!(c, Some(corera_tune::Certificate::Optimal(_)));
        let d = |s: &corera_tune::Score| describe(objective, s);
        println!(
            "{file} ({}; {} tasks): one replay {:.1} ms ({} jobs)",
            spec.unwrap_or("its hardware"),
            case.problem.len(),
            replay_s * 1e3,
            one.tasks.iter().map(|t| t.jobs).sum::<u64>()
        );
        println!(
            "  corera AMP {} ({} of {} replays, {:.1} s; {})",
            d(&found.amp.score),
            found.replays,
            found.budget,
            tune_s,
            found.amp.certificate.map_or("-".into(), |c| c.describe())
        );
        let verdict = |ours: &corera_tune::Score, theirs: &corera_tune::Score| {
            if theirs.beats(ours) { "LOSES" } else { "ok" }
        };
        if proven(&found.amp.certificate) {
            println!("  (proven optimal: the baselines cannot do better and are not run)");
        } else {
            let naive = baseline::naive(&case, objective);
            println!(
                "  naive AMP  {} ({} replays): {}",
                d(&naive.score),
                naive.replays,
                verdict(&found.amp.score, &naive.score)
            );
            if let Some(r) = baseline::random_best(&case, objective, 50, 1) {
                println!(
                    "  random best   {} (of {} placements): {}",
                    d(&r.score),
                    r.replays,
                    verdict(&found.amp.score, &r.score)
                );
            }
        }
        if let Some(m) = &found.masks {
            println!("  corera masks  {} ({})", d(&m.score), m.certificate.map_or("-".into(), |c| c.describe()));
            if !proven(&m.certificate) {
                let naive = baseline::naive_masks(&case, objective);
                println!(
                    "  naive masks   {} ({} replays): {}",
                    d(&naive.score),
                    naive.replays,
                    verdict(&m.score, &naive.score)
                );
            }
        }
    }
}
