//! The pipeline stages as the subcommands use them, with progress display.

use std::io::{BufRead, BufReader, IsTerminal};
use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use corera_placement::{Constraints, Cost, Platform, Problem};
use corera_replay::{Outcome, Policy, Replay, Setup, simulate};
use corera_search::{Options, Solution};
use corera_task_graph::TaskGraph;
use corera_trace_ingest::{FormatChoice, Parsed, ReadOptions, Trace, TraceSummary, Warning};
use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::{Format, InputArgs, Method, PlaceArgs};
use crate::exit::{Failure, WithCode};

/// A spinner on stderr for steps that take longer than a moment; hidden
/// with `-q` or when stderr is not a terminal.
pub(crate) struct Progress(ProgressBar, std::cell::RefCell<Option<(String, std::time::Instant)>>);

impl Progress {
    pub(crate) fn new(quiet: bool) -> Progress {
        let bar = if quiet || !std::io::stderr().is_terminal() {
            ProgressBar::hidden()
        } else {
            let bar = ProgressBar::new_spinner();
            bar.set_style(ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("valid template"));
            bar.enable_steady_tick(Duration::from_millis(100));
            bar
        };
        Progress(bar, std::cell::RefCell::new(None))
    }

    pub(crate) fn step(&self, msg: &'static str) {
        self.report();
        self.0.set_message(msg);
        if crate::style::verbose() {
            *self.1.borrow_mut() = Some((msg.to_string(), std::time::Instant::now()));
        }
    }

    pub(crate) fn finish(&self) {
        self.report();
        self.0.finish_and_clear();
    }

    /// With `-v`: the step that just ended and its duration.
    fn report(&self) {
        if let Some((step, since)) = self.1.borrow_mut().take() {
            self.0.suspend(|| eprintln!("corera: {step}: {:.3} s", since.elapsed().as_secs_f64()));
        }
    }
}

/// The input's display name: its file name, or `<stdin>`.
pub(crate) fn input_name(input: &InputArgs) -> String {
    match &input.input {
        Some(p) if p.as_os_str() != "-" => {
            p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
        }
        _ => "<stdin>".to_string(),
    }
}

/// Reads the trace named by `input` (a file, or stdin).
pub(crate) fn ingest(input: &InputArgs) -> Result<Parsed, Failure> {
    let choice = match input.format {
        Format::Auto => FormatChoice::Auto,
        Format::CoreraLog => FormatChoice::CoreraLog,
        Format::Btf => FormatChoice::Btf,
        Format::Ftrace => FormatChoice::Ftrace,
    };
    let mut reader: Box<dyn BufRead> = match &input.input {
        Some(p) if p.as_os_str() != "-" => {
            let file =
                std::fs::File::open(p).with_context(|| format!("could not open trace `{}`", p.display())).input()?;
            Box::new(BufReader::with_capacity(256 * 1024, file))
        }
        _ => Box::new(BufReader::with_capacity(256 * 1024, std::io::stdin().lock())),
    };
    // Messages name the file as the user gave it, so editors can jump there.
    let shown = match &input.input {
        Some(p) if p.as_os_str() != "-" => p.display().to_string(),
        _ => "<stdin>".to_string(),
    };
    let mut options = ReadOptions::new(&shown);
    options.lenient = input.lenient;
    options.filter.pids = input.pid.clone();
    options.filter.tgids = input.tgid.clone();
    options.filter.comm = input.comm.clone();
    corera_trace_ingest::read(&mut reader, choice, &options).input()
}

/// Prints warnings to stderr, naming the input.
pub(crate) fn warn(quiet: bool, input: &str, warnings: &[Warning]) {
    if quiet {
        return;
    }
    const SHOWN: usize = 20;
    for w in warnings.iter().take(SHOWN) {
        if w.line > 0 {
            eprintln!("{} {input}:{}: {}", crate::style::warning(), w.line, w.message);
        } else {
            eprintln!("{} {input}: {}", crate::style::warning(), w.message);
        }
    }
    if warnings.len() > SHOWN {
        eprintln!("{} {} more warnings not shown", crate::style::warning(), warnings.len() - SHOWN);
    }
}

/// Everything the pipeline produced for one trace.
pub(crate) struct Analysis {
    pub(crate) name: String,
    pub(crate) parsed: Parsed,
    pub(crate) summary: TraceSummary,
    pub(crate) graph: TaskGraph,
    pub(crate) platform: Platform,
    pub(crate) problem: Problem,
    pub(crate) solution: Solution,
    pub(crate) cost: Cost,
    pub(crate) warnings: Vec<Warning>,
    pub(crate) replay: Vec<Outcome>,
    /// The workload the replays ran.
    pub(crate) workload: Replay,
    /// Its task names.
    pub(crate) replay_names: Vec<String>,
}

/// Builds the task graph of a trace.
pub(crate) fn graph(trace: &Trace) -> Result<(TaskGraph, Vec<Warning>), Failure> {
    TaskGraph::build(trace).internal()
}

/// Runs ingest → graph → place.
pub(crate) fn analyze(input: &InputArgs, place: &PlaceArgs, quiet: bool) -> Result<Analysis, Failure> {
    let Prepared { name, parsed, graph, mut platform, problem, warnings } = prepare(input, place, quiet)?;
    let mut chosen = None;
    if let Some(weight) = place.balance_weight {
        let front = pareto(&problem, &platform, place, quiet)?;
        let i = corera_search::weighted_choice(&front, problem.total_traffic(), weight);
        platform.balance_tolerance = front[i].balance_tolerance;
        chosen = Some(format!(
            "balance tolerance {} chosen by --balance-weight {weight} from a traffic/balance front of {} placements",
            front[i].balance_tolerance,
            front.len()
        ));
    }
    let mut solution = search(&problem, &platform, place, quiet)?;
    solution.notes.extend(chosen);
    let cost = Cost::of(&problem, &platform, &solution.placement);
    let summary = TraceSummary::of(&parsed.trace);
    let (workload, replay) = replay_all(&parsed.trace, &graph, &platform, &problem, &solution.placement.core_of, quiet);
    let replay_names = workload.tasks.iter().map(|t| t.name.clone()).collect();
    Ok(Analysis {
        name,
        parsed,
        summary,
        graph,
        platform,
        problem,
        solution,
        cost,
        warnings,
        replay,
        workload,
        replay_names,
    })
}

/// A trace read and turned into a placement problem.
pub(crate) struct Prepared {
    pub(crate) name: String,
    pub(crate) parsed: Parsed,
    pub(crate) graph: TaskGraph,
    pub(crate) platform: Platform,
    pub(crate) problem: Problem,
    pub(crate) warnings: Vec<Warning>,
}

/// Runs ingest → graph → problem (no search).
pub(crate) fn prepare(input: &InputArgs, place: &PlaceArgs, quiet: bool) -> Result<Prepared, Failure> {
    let progress = Progress::new(quiet);
    progress.step("reading trace");
    let parsed = ingest(input)?;
    let name = input_name(input);
    progress.step("building task graph");
    let (graph, graph_warnings) = graph(&parsed.trace)?;
    let mut warnings = parsed.warnings.clone();
    warnings.extend(graph_warnings);
    let platform = platform(place)?;
    let constraints = constraints(place)?;
    let problem = match Problem::from_graph(&graph, &platform, &constraints) {
        Ok(problem) => problem,
        // Naming a task that is not there is a usage error, not a conflict.
        Err(e) if e.is_usage() => return Err(e).input(),
        Err(e) => return Err(e).infeasible(),
    };
    if problem.is_empty() {
        return Err(anyhow::anyhow!("`{name}` has no tasks to place (only idle tasks or no events)")).input();
    }
    progress.finish();
    Ok(Prepared { name, parsed, graph, platform, problem, warnings })
}

/// The constraints of the placement flags and the constraints file.
pub(crate) fn constraints(place: &PlaceArgs) -> Result<Constraints, Failure> {
    let mut constraints = match &place.constraints {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("could not read constraints file `{}`", path.display()))
                .input()?;
            Constraints::from_toml(&text)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
                .context("invalid constraints file")
                .input()?
        }
        None => Constraints::default(),
    };
    let groups = |lists: &[String]| -> Vec<Vec<String>> {
        lists.iter().map(|l| l.split(',').map(|t| t.trim().to_string()).filter(|t| !t.is_empty()).collect()).collect()
    };
    constraints.extend(Constraints {
        pin: place.pin.clone(),
        forbid: place.forbid.clone(),
        together: groups(&place.together),
        apart: groups(&place.apart),
    });
    Ok(constraints)
}

/// The platform the placement flags describe.
pub(crate) fn platform(place: &PlaceArgs) -> Result<Platform, Failure> {
    let mut platform = match &place.platform {
        Some(file) if file.ends_with(".toml") => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("could not read platform file `{file}`"))
                .input()?;
            Platform::from_toml(&text).with_context(|| format!("--platform {file}")).input()?
        }
        Some(spec) => Platform::parse(spec).with_context(|| format!("--platform {spec}")).input()?,
        None => Platform::identical(place.cores),
    };
    if let Some(balance) = place.balance {
        if !(0.0..=10.0).contains(&balance) {
            return Err(anyhow::anyhow!("--balance {balance} is out of range; use a fraction such as 0.1 (10 %)"))
                .input();
        }
        platform.balance_tolerance = balance;
    }
    Ok(platform)
}

/// The replayable workload of a trace, with periods from its task graph.
pub(crate) fn replay_of(trace: &Trace, graph: &TaskGraph) -> Replay {
    let mut periods = vec![None; trace.tasks.len()];
    for t in &graph.tasks {
        if let Some(p) = periods.get_mut(t.id as usize) {
            *p = t.period_ns;
        }
    }
    Replay::from_trace(trace, &periods)
}

/// The core of each replay task under a placement of `problem`.
pub(crate) fn replay_cores(replay: &Replay, problem: &Problem, core_of: &[u16]) -> Vec<u16> {
    replay.cores(&problem.cores_by_task_id(core_of, replay.index_of.len()))
}

/// Replays the trace on one core, under global SMP, and under the AMP
/// placement, keeping the timelines.
fn replay_all(
    trace: &Trace,
    graph: &TaskGraph,
    platform: &Platform,
    problem: &Problem,
    core_of: &[u16],
    quiet: bool,
) -> (Replay, Vec<Outcome>) {
    let progress = Progress::new(quiet);
    progress.step("replaying the trace on one core, SMP and AMP");
    let replay = replay_of(trace, graph);
    let cores = replay_cores(&replay, problem, core_of);
    let out = [Policy::Single, Policy::Smp, Policy::Amp]
        .into_iter()
        .map(|policy| simulate(&replay, &Setup { policy, platform, core_of: Some(&cores), timeline: true }))
        .collect();
    progress.finish();
    (replay, out)
}

/// The traffic / busiest-core trade-off front.
pub(crate) fn pareto(
    problem: &Problem,
    platform: &Platform,
    place: &PlaceArgs,
    quiet: bool,
) -> Result<Vec<corera_search::ParetoPoint>, Failure> {
    let progress = Progress::new(quiet);
    progress.step("searching the traffic/balance front");
    let front = corera_search::pareto(problem, platform, &options(place));
    progress.finish();
    search_failure(front)
}

fn options(place: &PlaceArgs) -> Options {
    let mut options = Options::default();
    options.node_budget = place.node_budget;
    options.seed = place.seed;
    options.time_limit = place.time_limit;
    options
}

fn search_failure<T>(result: Result<T, corera_search::SearchError>) -> Result<T, Failure> {
    match result {
        Err(e @ corera_search::SearchError::Unsupported(_)) => Err(e).input(),
        Err(e @ corera_search::SearchError::Infeasible(_)) => Err(e).infeasible(),
        other => other.internal(),
    }
}

/// Runs the search portfolio with a progress spinner.
pub(crate) fn search(
    problem: &Problem,
    platform: &Platform,
    place: &PlaceArgs,
    quiet: bool,
) -> Result<Solution, Failure> {
    let progress = Progress::new(quiet);
    progress.step("searching placements");
    let mut options = options(place);
    let bar = progress.0.clone();
    options.progress = Some(corera_search::Progress(std::sync::Arc::new(move |stage, best, bound| {
        bar.set_message(format!(
            "searching placements: {stage} done, best {}{}, bound {}",
            best.cross_traffic,
            if best.overload_ns > 0 { format!(" (overload {} ns)", best.overload_ns) } else { String::new() },
            bound.cross_traffic
        ));
    })));
    let method = match place.method {
        Method::Auto => corera_search::Method::Portfolio,
        Method::Greedy => corera_search::Method::Greedy,
        Method::Multilevel => corera_search::Method::Multilevel,
        Method::Anneal => corera_search::Method::Anneal,
        Method::Exhaustive => corera_search::Method::Exhaustive,
        Method::Enumerate => corera_search::Method::Enumerate,
        Method::Ilp => corera_search::Method::Ilp,
    };
    let solution = search_failure(corera_search::solve(method, problem, platform, &options));
    progress.finish();
    solution
}

impl Analysis {
    pub(crate) fn report(&self) -> corera_emit::Report<'_> {
        corera_emit::Report {
            input_name: &self.name,
            format: self.parsed.format,
            source: self.parsed.source,
            trace: &self.summary,
            graph: &self.graph,
            platform: &self.platform,
            problem: &self.problem,
            solution: &self.solution,
            cost: &self.cost,
            warnings: &self.warnings,
            replay: &self.replay,
            replay_tasks: &self.replay_names,
        }
    }
}

/// Writes an output file atomically (or stdout for `-`).
pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    corera_emit::write_atomic(path, bytes).with_context(|| format!("could not write `{}`", path.display())).internal()
}
