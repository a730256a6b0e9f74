//! The library pipeline (`corera_pipeline`) as the subcommands call it:
//! their flags turned into its options, its progress drawn on stderr, its
//! warnings printed, outputs written atomically.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
pub(crate) use corera_pipeline::{Analyzed, Prepared, Read, Simulation};
use corera_pipeline::{Observer, Options};
use corera_placement::{Constraints, CoreSet, Platform, Problem, TrafficScore};
use corera_search::Solution;
use corera_trace_ingest::{Parsed, PriorityOverride, Warning};
use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::{CalibrateArgs, InputArgs, PlaceArgs, SimulateArgs};

/// A spinner on stderr for steps that take longer than a moment; hidden
/// with `-q` or when stderr is not a terminal. With `-v`, each step's
/// duration.
pub(crate) struct Progress {
    quiet: bool,
    state: Mutex<Shown>,
}

/// The spinner on screen, and the step it shows (with `-v`, since when).
#[derive(Default)]
struct Shown {
    bar: Option<ProgressBar>,
    step: Option<(&'static str, Instant)>,
}

impl Progress {
    pub(crate) fn new(quiet: bool) -> Arc<Progress> {
        Arc::new(Progress { quiet, state: Mutex::new(Shown::default()) })
    }

    fn bar(&self) -> ProgressBar {
        if self.quiet || !std::io::stderr().is_terminal() {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::new_spinner();
        bar.set_style(ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("valid template"));
        bar.enable_steady_tick(Duration::from_millis(100));
        bar
    }

    /// With `-v`: the step that just ended and its duration.
    fn report(bar: Option<&ProgressBar>, step: Option<(&'static str, Instant)>) {
        if let Some((step, since)) = step {
            let line = || eprintln!("corera: {step}: {:.3} s", since.elapsed().as_secs_f64());
            match bar {
                Some(bar) => bar.suspend(line),
                None => line(),
            }
        }
    }

    fn message(&self, text: String) {
        if let Some(bar) = &self.state.lock().expect("not poisoned").bar {
            bar.set_message(text);
        }
    }
}

impl Observer for Progress {
    fn step(&self, what: &'static str) {
        let mut state = self.state.lock().expect("not poisoned");
        let bar = state.bar.get_or_insert_with(|| self.bar()).clone();
        Progress::report(Some(&bar), state.step.take());
        bar.set_message(what);
        if crate::style::verbose() {
            state.step = Some((what, Instant::now()));
        }
    }

    fn searching(&self, stage: &str, best: TrafficScore, bound: TrafficScore) {
        self.message(format!(
            "searching placements: {stage} done, best {}{}, bound {}",
            best.cross_traffic,
            if best.overload_ns > 0 { format!(" (overload {} ns)", best.overload_ns) } else { String::new() },
            bound.cross_traffic
        ));
    }

    fn tuning(&self, done: u64, budget: u64, best: &str) {
        self.message(format!("replaying candidate placements: {done} of {budget} replays, best {best}"));
    }

    fn finish(&self) {
        let mut state = self.state.lock().expect("not poisoned");
        let step = state.step.take();
        let bar = state.bar.take();
        Progress::report(bar.as_ref(), step);
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
    }
}

/// The library's options for `place`, its progress on stderr unless
/// `quiet`; `masks`: also search affinity masks.
fn options(place: &PlaceArgs, masks: bool, quiet: bool) -> Options {
    let mut options = place.options();
    options.masks = masks;
    options.observer = Some(Progress::new(quiet));
    options
}

/// The input's display name.
pub(crate) fn input_name(input: &InputArgs) -> String {
    corera_pipeline::input_name(&input.to_input())
}

/// Reads the trace named by `input` (a file, or stdin).
pub(crate) fn ingest(input: &InputArgs) -> anyhow::Result<Parsed> {
    Ok(corera_pipeline::ingest(&input.to_input())?)
}

/// Reads the trace, its priorities (`priorities` applied last) and its
/// task graph.
pub(crate) fn read(input: &InputArgs, priorities: &[PriorityOverride], quiet: bool) -> anyhow::Result<Read> {
    let progress = Progress::new(quiet);
    let read = corera_pipeline::read(&input.to_input(), priorities, progress.as_ref());
    progress.finish();
    Ok(read?)
}

/// Fits the costs of `args.single`'s replay to `args.multi`.
pub(crate) fn calibrate(args: &CalibrateArgs, quiet: bool) -> anyhow::Result<corera_pipeline::Calibration> {
    let options =
        Options { platform: args.platform.clone(), observer: Some(Progress::new(quiet)), ..Options::default() };
    Ok(corera_pipeline::calibrate(&args.input(&args.single), &args.input(&args.multi), &options)?)
}

/// Runs ingest → graph → problem (no search).
pub(crate) fn prepare(input: &InputArgs, place: &PlaceArgs, quiet: bool) -> anyhow::Result<Prepared> {
    Ok(corera_pipeline::prepare(&input.to_input(), &options(place, place.masks, quiet))?)
}

/// Runs ingest → graph → place (traffic, then timing) → replay;
/// `masks`: also search affinity masks.
pub(crate) fn analyze(input: &InputArgs, place: &PlaceArgs, masks: bool, quiet: bool) -> anyhow::Result<Analyzed> {
    Ok(corera_pipeline::analyze(&input.to_input(), &options(place, masks, quiet))?)
}

/// The constraints of the placement flags and the constraints file.
pub(crate) fn constraints(place: &PlaceArgs) -> anyhow::Result<Constraints> {
    Ok(corera_pipeline::constraints(&place.options())?)
}

/// The platform the placement flags describe.
pub(crate) fn platform(place: &PlaceArgs) -> anyhow::Result<Platform> {
    Ok(corera_pipeline::platform(&place.options())?)
}

/// The traffic / busiest-core trade-off front.
pub(crate) fn pareto(
    problem: &Problem,
    platform: &Platform,
    place: &PlaceArgs,
    quiet: bool,
) -> anyhow::Result<Vec<corera_search::ParetoPoint>> {
    Ok(corera_pipeline::pareto(problem, platform, &options(place, place.masks, quiet))?)
}

/// The traffic search the flags name.
pub(crate) fn search(
    problem: &Problem,
    platform: &Platform,
    place: &PlaceArgs,
    quiet: bool,
) -> anyhow::Result<Solution> {
    Ok(corera_pipeline::search(problem, platform, &options(place, place.masks, quiet))?)
}

/// What `simulate` replays: the policy on the placement the flags give.
pub(crate) fn simulation(args: &SimulateArgs, quiet: bool) -> anyhow::Result<Simulation> {
    let options = options(&args.place, args.place.masks, quiet);
    Ok(corera_pipeline::simulation(&args.input.to_input(), &options, args.policy, args.placement.as_deref())?)
}

/// Reads a placement file into a core per task of `problem`, and masks.
pub(crate) fn read_placement(
    file: &Path,
    problem: &Problem,
    platform: &Platform,
) -> anyhow::Result<(Vec<u16>, Option<Vec<CoreSet>>)> {
    Ok(corera_pipeline::read_placement(file, problem, platform)?)
}

/// Prints warnings to stderr, naming the input.
pub(crate) fn warn(quiet: bool, input: &str, warnings: &[Warning]) {
    if quiet {
        return;
    }
    const SHOWN: usize = 20;
    for w in warnings.iter().take(SHOWN) {
        match w.line {
            Some(line) => eprintln!("{} {input}:{line}: {}", crate::style::warning(), w.message),
            None => eprintln!("{} {input}: {}", crate::style::warning(), w.message),
        }
    }
    if warnings.len() > SHOWN {
        eprintln!("{} {} more warnings not shown", crate::style::warning(), warnings.len() - SHOWN);
    }
}

/// Writes an output file atomically (or stdout for `-`).
pub(crate) fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    corera_emit::write_atomic(path, bytes).with_context(|| format!("could not write `{}`", path.display()))
}
