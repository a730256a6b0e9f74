//! The command line, as clap derive structs.

use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use corera_emit::Target;
use corera_placement::{Chain, CoreRule, Deadline, Objective};
use corera_replay::Policy;
use corera_search::Method;
use corera_trace_ingest::TicksMode;
use corera_trace_ingest::{FormatChoice, PriorityOverride};

/// Turns a single-core RTOS run log into the best core placement for a
/// multicore port.
#[derive(Debug, Parser)]
#[command(name = "corera", version, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
    /// Print no progress and no warnings.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub(crate) quiet: bool,
    /// Also print each stage and how long it took, on stderr.
    #[arg(short, long, global = true)]
    pub(crate) verbose: bool,
    /// Colour on stderr: `auto` (a terminal and NO_COLOR unset), `always`
    /// or `never`.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto)]
    pub(crate) color: ColorArg,
}

/// When to colour messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorArg {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorArg {
    /// The choice as given on the command line, before clap has parsed
    /// it (so that clap's own messages follow it too).
    pub(crate) fn from_args(args: &[std::ffi::OsString]) -> ColorArg {
        let mut choice = ColorArg::Auto;
        let mut it = args.iter().map(|a| a.to_string_lossy());
        while let Some(a) = it.next() {
            let value = match a.strip_prefix("--color") {
                Some("") => it.next().map(|v| v.into_owned()),
                Some(rest) => rest.strip_prefix('=').map(str::to_string),
                None => None,
            };
            match value.as_deref() {
                Some("always") => choice = ColorArg::Always,
                Some("never") => choice = ColorArg::Never,
                Some("auto") => choice = ColorArg::Auto,
                _ => {}
            }
        }
        choice
    }
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run the whole pipeline: ingest, build the task graph, place, emit.
    #[command(after_help = "Example:\n  corera analyze samples/printer/printer.log --cores 2 -o out/\n\n\
        Writes out/affinity.h and out/analysis.json and prints a summary.")]
    Analyze(AnalyzeArgs),
    /// Read a trace and summarise it (or convert it to corera's log format).
    #[command(after_help = "Example:\n  corera ingest samples/printer/printer.log --json")]
    Ingest(IngestArgs),
    /// Build the task graph: per-task load, throughput and response times,
    /// per-pair traffic.
    #[command(after_help = "Example:\n  corera graph samples/printer/printer.log\n  \
        corera graph samples/printer/printer.log --json > graph.json\n  \
        corera graph samples/printer/printer.log -o graph.json --dot graph.dot")]
    Graph(GraphArgs),
    /// Find the best placement of the traced tasks on the cores.
    #[command(after_help = "Example:\n  corera place samples/printer/printer.log --cores 2 --pin MotorPaper=1\n  \
        corera place --graph tasks.graph --cores 4 --eps 0.05   # writes tasks.graph.part.4")]
    Place(PlaceCommandArgs),
    /// Write the firmware affinity header (or another output) for the best
    /// placement of a trace, or from a saved analysis.json.
    #[command(after_help = "Example:\n  corera emit samples/printer/printer.log --cores 2 -o affinity.h\n  \
        corera emit out/analysis.json --target freertos -o affinity_freertos.h   # no new search")]
    Emit(EmitArgs),
    /// Replay the traced jobs under a scheduling policy: one core, global
    /// SMP, least-loaded SMP, or AMP with a placement.
    #[command(after_help = "Example:\n  corera simulate samples/printer/printer.log --policy smp --cores 2\n  \
        corera place samples/printer/printer.log --json > p.json\n  \
        corera simulate samples/printer/printer.log --policy amp --placement p.json")]
    Simulate(SimulateArgs),
    /// Generate a single-core trace from a workload description.
    #[command(after_help = "Example:\n  corera gen samples/printer/workload.toml -o samples/printer/printer.log")]
    Gen(GenArgs),
    /// Show what changed between two analyses: per task load, rate, READY
    /// and response, per chain latency, and the recommendation.
    #[command(
        after_help = "Example:\n  corera analyze run.log --cores 2 -o a/ && corera analyze run.log --cores 3 -o b/\n  \
        corera diff a/analysis.json b/analysis.json"
    )]
    Diff(DiffArgs),
    /// Check a recording against the placement already in the firmware:
    /// replay it under that placement and judge each requirement.
    #[command(after_help = "Example:\n  corera check run.log --placement analysis.json --cores 2 \\\n    \
        --chain 'page=NetRxIsr>Rasterizer>BandDma@12' --max-response MotorPaper=0.5 --junit check.xml\n\n\
        Exits 0 when every requirement holds, 4 when one fails.")]
    Check(CheckArgs),
    /// Fit the costs that make a single-core recording, replayed under
    /// global SMP, reproduce a recording of the same firmware on several
    /// cores, and write them as a platform file for later predictions.
    #[command(after_help = "Example:\n  corera calibrate run_1core.btf run_2core.btf -o platform.toml\n  \
        corera simulate run_1core.btf --policy smp --platform platform.toml\n\n\
        Exits 0 when the fit is good (80 % of the task kinds within 10 % on mean response, the makespan within 5 %), \
        4 when it is poor (the platform file is written either way).")]
    Calibrate(CalibrateArgs),
}

#[derive(Debug, Args)]
pub(crate) struct CalibrateArgs {
    /// The single-core recording, replayed.
    #[arg(value_name = "SINGLE")]
    pub(crate) single: PathBuf,
    /// The recording of the same firmware on several cores, fitted to.
    #[arg(value_name = "MULTI")]
    pub(crate) multi: PathBuf,
    /// Format of both recordings.
    #[arg(long, value_parser = format_parser(), default_value = "auto")]
    pub(crate) format: FormatChoice,
    /// Skip malformed lines (with a counted warning) and sort events whose
    /// timestamps go backwards, instead of stopping with an error.
    #[arg(long)]
    pub(crate) lenient: bool,
    /// A task's priority in both recordings, where they give none or give
    /// it wrong: `--priority NAME=N` (repeatable).
    #[arg(long, value_name = "NAME=N", value_parser = PriorityOverride::parse)]
    pub(crate) priority: Vec<PriorityOverride>,
    /// The platform whose costs the fit starts from (a platform file; its
    /// cores must be the multi-core recording's) [default: that many
    /// identical cores with the default costs].
    #[arg(long, value_name = "FILE")]
    pub(crate) platform: Option<String>,
    /// Write the fitted platform file (TOML) to FILE.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Print the fit as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

impl CalibrateArgs {
    /// The library's input of `path`.
    pub(crate) fn input(&self, path: &std::path::Path) -> corera_pipeline::Input {
        let mut input = corera_pipeline::Input::file(path);
        input.format = self.format;
        input.read.lenient = self.lenient;
        input.priority = self.priority.clone();
        input
    }
}

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    /// Platform, constraints (their deadlines and chains are requirements,
    /// the platform's capacities the per-core load limits).
    #[command(flatten)]
    pub(crate) place: PlaceArgs,
    /// The placement in the firmware: `analysis.json`, `place --json`, or
    /// a file of `{"task": NAME, "core": N}` (with `cores` for masks).
    #[arg(long, value_name = "FILE")]
    pub(crate) placement: PathBuf,
    /// A task's jobs may wait READY at most this long on average.
    #[arg(long, value_name = "NAME=MS", value_parser = Deadline::parse)]
    pub(crate) max_ready: Vec<Deadline>,
    /// A task's jobs may take at most this long, release to finish.
    #[arg(long, value_name = "NAME=MS", value_parser = Deadline::parse)]
    pub(crate) max_response: Vec<Deadline>,
    /// Also write the verdicts as JUnit XML, one test case each.
    #[arg(long, value_name = "FILE")]
    pub(crate) junit: Option<PathBuf>,
    /// Print the verdicts as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// The earlier analysis (`analysis.json` written by `corera analyze`).
    pub(crate) a: PathBuf,
    /// The later one, compared against A.
    pub(crate) b: PathBuf,
    /// A change beyond this many percent is listed first.
    #[arg(long, default_value_t = 10.0, value_name = "PCT")]
    pub(crate) threshold: f64,
    /// Also list the figures that changed less.
    #[arg(long)]
    pub(crate) all: bool,
    /// Print the comparison as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

/// A value parser for one of a pipeline crate's registries: the values
/// `--help` lists are the registry's, with its help lines.
fn registry<T: Copy + Send + Sync + 'static>(
    all: Vec<T>,
    name: fn(T) -> &'static str,
    help: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T> {
    let values: Vec<PossibleValue> = all.iter().map(|&x| PossibleValue::new(name(x)).help(help(x))).collect();
    PossibleValuesParser::new(values)
        .map(move |given| *all.iter().find(|&&x| name(x) == given).expect("clap checked the value"))
}

fn format_parser() -> impl TypedValueParser<Value = FormatChoice> {
    let all = std::iter::once(FormatChoice::AUTO).chain(FormatChoice::ALL).collect();
    registry(all, FormatChoice::name, FormatChoice::help)
}

fn method_parser() -> impl TypedValueParser<Value = Method> {
    registry(Method::ALL.to_vec(), Method::name, Method::help)
}

fn policy_parser() -> impl TypedValueParser<Value = Policy> {
    registry(Policy::ALL.to_vec(), Policy::name, Policy::help)
}

/// An event id, decimal or `0x` hexadecimal.
fn parse_event_id(s: &str) -> Result<u16, String> {
    let parsed = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u16::from_str_radix(hex, 16),
        None => s.parse(),
    };
    parsed.map_err(|_| format!("`{s}` is not an event id (a number up to 65535, decimal or 0x hexadecimal)"))
}

fn objective_parser() -> impl TypedValueParser<Value = Objective> {
    registry(Objective::ALL.to_vec(), Objective::name, Objective::help)
}

fn target_parser() -> impl TypedValueParser<Value = Target> {
    registry(Target::ALL.to_vec(), Target::name, Target::help)
}

#[derive(Debug, Args)]
pub(crate) struct InputArgs {
    /// The trace to read; `-` or nothing reads standard input.
    #[arg(value_name = "TRACE")]
    pub(crate) input: Option<PathBuf>,
    /// More files of the same recording, one per core in core order, for
    /// recorders that write one stream per core (SystemView on an ESP32:
    /// `corera analyze cpu0.svdat cpu1.svdat`).
    #[arg(value_name = "TRACE_OF_NEXT_CORE")]
    pub(crate) more: Vec<PathBuf>,
    /// Trace format.
    #[arg(long, value_parser = format_parser(), default_value = "auto")]
    pub(crate) format: FormatChoice,
    /// A SystemView description file (`SYSVIEW_<OS>.txt`, as SystemView
    /// installs them) naming the recording OS's API calls, for an OS corera
    /// has no table of (built in: FreeRTOS, ESP-IDF FreeRTOS, Zephyr).
    #[arg(long, value_name = "FILE")]
    pub(crate) sysview_desc: Option<PathBuf>,
    /// A Tracealyzer (PSF) event id the application writes with a
    /// printf-style payload of its own (a custom printf, such as
    /// `0x0FA0`), so that the records after it decode.
    #[arg(long, value_name = "ID", value_parser = parse_event_id)]
    pub(crate) psf_printf_id: Option<u16>,
    /// Skip malformed lines (with a counted warning) and sort events whose
    /// timestamps go backwards, instead of stopping with an error.
    #[arg(long)]
    pub(crate) lenient: bool,
    /// Keep only these thread ids (ftrace; repeatable or comma-separated).
    #[arg(long, value_name = "PID", value_delimiter = ',', help_heading = "Task filters")]
    pub(crate) pid: Vec<u64>,
    /// Keep only the threads of these process ids (ftrace).
    #[arg(long, value_name = "TGID", value_delimiter = ',', help_heading = "Task filters")]
    pub(crate) tgid: Vec<u64>,
    /// Keep only threads whose name matches this regular expression (ftrace).
    #[arg(long, value_name = "REGEX", help_heading = "Task filters")]
    pub(crate) comm: Option<regex::Regex>,
    /// A task's priority, where the trace gives none or gives it wrong:
    /// `--priority NAME=N` (repeatable; the trace's convention, larger is
    /// more urgent except for Linux `prio`). Without it, priorities the
    /// trace lacks are inferred from its preemptions, else rate-monotonic.
    #[arg(long, value_name = "NAME=N", value_parser = PriorityOverride::parse)]
    pub(crate) priority: Vec<PriorityOverride>,
    /// For a model (Amalthea): generate jobs over this many ms [default:
    /// the hyperperiod of its periodic stimuli, at most 10 s].
    #[arg(long, value_name = "MS", value_parser = parse_ms, help_heading = "Models")]
    pub(crate) horizon: Option<u64>,
    /// For a model (Amalthea): execute each runnable's average ticks or
    /// its upper bound (the worst case).
    #[arg(long, value_name = "avg|upper", value_parser = TicksMode::parse, default_value = "avg", help_heading = "Models")]
    pub(crate) ticks: TicksMode,
}

impl InputArgs {
    /// The library's input.
    pub(crate) fn to_input(&self) -> corera_pipeline::Input {
        let mut read = corera_trace_ingest::ReadOptions::default();
        read.lenient = self.lenient;
        read.filter.pids = self.pid.clone();
        read.filter.tgids = self.tgid.clone();
        read.filter.comm = self.comm.clone();
        read.model.horizon_ns = self.horizon;
        read.model.ticks = self.ticks;
        read.sysview_desc = self.sysview_desc.clone();
        read.psf_printf_event = self.psf_printf_id;
        corera_pipeline::Input {
            path: self.input.clone(),
            more: self.more.clone(),
            format: self.format,
            read,
            priority: self.priority.clone(),
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct PlaceArgs {
    /// Number of identical cores of the target.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub(crate) cores: u16,
    /// The target instead of `--cores`: `rp2` (2 clusters x 4 cores,
    /// distance 1 inside, 10 across), `esp32` (2 identical cores, all that
    /// `--target esp-idf` expresses), `clusters:2x4[:1,10]`, `mesh:8x8`
    /// (hop distance), a core count, or a platform file (`.toml`).
    #[arg(long, value_name = "SPEC|FILE", conflicts_with = "cores")]
    pub(crate) platform: Option<String>,
    /// Keep a task on a core or a set of cores: `--pin NAME=CORES` with
    /// CORES such as `1`, `0,2` or `4-7` (repeatable). ISRs stay on core 0
    /// unless pinned elsewhere.
    #[arg(long, value_name = "NAME=CORES", value_parser = CoreRule::parse)]
    pub(crate) pin: Vec<CoreRule>,
    /// Keep a task off some cores: `--forbid NAME=CORES` (repeatable).
    #[arg(long, value_name = "NAME=CORES", value_parser = CoreRule::parse)]
    pub(crate) forbid: Vec<CoreRule>,
    /// Run these tasks on one core: `--together A,B,C` (repeatable).
    #[arg(long, value_name = "A,B,..")]
    pub(crate) together: Vec<String>,
    /// Run these tasks on pairwise different cores: `--apart A,B`
    /// (repeatable).
    #[arg(long, value_name = "A,B,..")]
    pub(crate) apart: Vec<String>,
    /// A constraints file (TOML with `pin`, `forbid`, `together`, `apart`;
    /// see the book), added to the flags.
    #[arg(long, value_name = "FILE")]
    pub(crate) constraints: Option<PathBuf>,
    /// Balance tolerance ε: a core may carry this fraction more than an
    /// equal share of the load (Walshaw's rule: at most
    /// floor((1 + ε) · ceil(total / cores))).
    /// [default: 0.1, or the platform file's `balance`]
    #[arg(long, visible_alias = "eps", value_name = "EPS")]
    pub(crate) balance: Option<f64>,
    /// Weigh balance against traffic instead of a fixed tolerance: the
    /// placement minimising `traffic / total traffic + W · imbalance` is
    /// chosen from the traffic/balance trade-off front (see `place
    /// --pareto`). 0 = least traffic within capacity; large = most balanced.
    #[arg(long, value_name = "W", conflicts_with = "balance", value_parser = parse_weight)]
    pub(crate) balance_weight: Option<f64>,
    /// Largest number of search nodes for the exact search; past it the
    /// best placement found so far is reported, unproven.
    #[arg(long, value_name = "N", default_value_t = corera_search::DEFAULT_NODE_BUDGET)]
    pub(crate) node_budget: u64,
    /// Wall-clock limit of each search in seconds. With it the portfolio
    /// adds the ILP (on HiGHS when built with `--features highs`, else
    /// microlp) for the time left when nothing proved optimality; `--method
    /// ilp` stops at it; the timing search stops at it with what it has.
    /// Results may then depend on the machine's speed, so the default is
    /// no limit: the node and replay budgets alone decide.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) time_limit: Option<f64>,
    /// Seed of the randomised search (annealing); the same seed gives the
    /// same placement on any machine and thread count.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) seed: u64,
    /// Search method of the traffic search: the portfolio (`auto`) or one
    /// method alone.
    #[arg(long, value_parser = method_parser(), default_value = "auto")]
    pub(crate) method: Method,
    /// What the placement is judged by. The timing objectives replay the
    /// traced jobs under each candidate; the traffic-optimal placement is
    /// always found too and shown beside the recommended one.
    /// [default: the constraints file's `objective`, else ready]
    #[arg(long, value_parser = objective_parser(), help_heading = "Objective")]
    pub(crate) objective: Option<Objective>,
    /// Also search affinity masks (tasks that float over a set of cores,
    /// global SMP at the far end) for `place` and `simulate`; `analyze`
    /// and `emit` always do.
    #[arg(long, help_heading = "Objective")]
    pub(crate) masks: bool,
    /// Replays of the whole trace the timing search may run in all.
    /// [default: sized to the trace and its neighbourhood, 1 s of replays
    /// per square root of the neighbourhood's size, at most 40 s, in a
    /// release build; the summary's `settings` line shows the value]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), help_heading = "Objective")]
    pub(crate) replay_budget: Option<u64>,
    /// A deadline for a task's jobs, release to finish: `--deadline
    /// NAME=MS` (repeatable; else a periodic task's period is its
    /// deadline), for `--objective deadlines` and the misses reported.
    #[arg(long, value_name = "NAME=MS", value_parser = Deadline::parse, help_heading = "Objective")]
    pub(crate) deadline: Vec<Deadline>,
    /// A cause-effect chain to measure in every replay (and to optimise
    /// with `--objective chains`): `--chain NAME=A>B>C[@MS]`, each task
    /// releasing the next; `reaction:NAME=...` or `age:NAME=...` for tasks
    /// that pass data through shared variables, each on its own release
    /// (repeatable). [default: the constraints file's and the model's
    /// chains, else the heaviest ones found in the trace]
    #[arg(long, value_name = "[KIND:]NAME=A>B>C[@MS]", value_parser = Chain::parse, help_heading = "Objective")]
    pub(crate) chain: Vec<Chain>,
}

impl PlaceArgs {
    /// The library's options (no progress shown, masks as `--masks`).
    pub(crate) fn options(&self) -> corera_pipeline::Options {
        let groups = |lists: &[String]| -> Vec<Vec<String>> {
            lists
                .iter()
                .map(|l| l.split(',').map(|t| t.trim().to_string()).filter(|t| !t.is_empty()).collect())
                .collect()
        };
        let constraints = corera_placement::Constraints {
            pin: self.pin.clone(),
            forbid: self.forbid.clone(),
            together: groups(&self.together),
            apart: groups(&self.apart),
            objective: self.objective,
            deadline: self.deadline.clone(),
            chains: self.chain.clone(),
            ..corera_placement::Constraints::default()
        };
        corera_pipeline::Options {
            cores: self.cores,
            platform: self.platform.clone(),
            constraints_file: self.constraints.clone(),
            constraints,
            balance: self.balance,
            balance_weight: self.balance_weight,
            node_budget: self.node_budget,
            time_limit: self.time_limit,
            seed: self.seed,
            method: self.method,
            objective: self.objective,
            replay_budget: self.replay_budget,
            masks: self.masks,
            observer: None,
        }
    }
}

fn parse_weight(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(w) if w >= 0.0 && w.is_finite() => Ok(w),
        _ => Err(format!("`{s}` is not a weight (a number >= 0)")),
    }
}

/// Milliseconds to ns.
fn parse_ms(s: &str) -> Result<u64, String> {
    match s.parse::<f64>() {
        Ok(ms) if ms > 0.0 && ms.is_finite() && ms < 1e12 => Ok((ms * 1e6).round() as u64),
        _ => Err(format!("`{s}` is not a positive number of milliseconds")),
    }
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t.is_finite() => Ok(t),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
    }
}

#[derive(Debug, Args)]
pub(crate) struct AnalyzeArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    #[command(flatten)]
    pub(crate) place: PlaceArgs,
    /// Output directory (created if missing; existing files other than the
    /// outputs are left alone).
    #[arg(short, long, value_name = "DIR", default_value = "corera-out")]
    pub(crate) output: PathBuf,
    /// Print the analysis JSON on stdout instead of the summary table.
    #[arg(long)]
    pub(crate) json: bool,
    /// Also write the replay timelines: `timeline-<set-up>.json` (Chrome /
    /// Perfetto trace JSON) for each replayed set-up (`timeline-single-core.json`,
    /// `timeline-global-smp.json`, `timeline-masks-recommended.json`, ...) and
    /// `recommended.btf` (BTF of the recommendation's run).
    #[arg(long)]
    pub(crate) timelines: bool,
}

#[derive(Debug, Args)]
pub(crate) struct IngestArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    /// Print the trace summary as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// Write the trace in corera's log format to FILE (`-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub(crate) write_log: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct GraphArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    /// Write the task graph as JSON to FILE (`-` for stdout) instead of
    /// printing the table.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Print the task graph as JSON on stdout instead of the table.
    #[arg(long, conflicts_with = "output")]
    pub(crate) json: bool,
    /// Also write Graphviz DOT to FILE (`-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub(crate) dot: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct PlaceCommandArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    #[command(flatten)]
    pub(crate) place: PlaceArgs,
    /// Print the placement as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// Print the trade-off front between cross-core traffic and the busiest
    /// core's load (one placement per balance tolerance that no other
    /// beats on both), instead of one placement.
    #[arg(long)]
    pub(crate) pareto: bool,
    /// Place a METIS-format graph instead of a trace (vertex weights are
    /// loads, edge weights traffic) and write a METIS partition file.
    #[arg(long, value_name = "FILE", conflicts_with = "input")]
    pub(crate) graph: Option<PathBuf>,
    /// Partition file for `--graph` (default: `<FILE>.part.<cores>`, as
    /// gpmetis names it; `-` for stdout).
    #[arg(long, value_name = "FILE", requires = "graph")]
    pub(crate) partition: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct EmitArgs {
    /// A trace (searched as by `analyze`), or an `analysis.json` written by
    /// `analyze`, rendered as it is without reading the trace or searching
    /// again (the placement flags do not apply to it).
    #[command(flatten)]
    pub(crate) input: InputArgs,
    #[command(flatten)]
    pub(crate) place: PlaceArgs,
    /// What to write.
    #[arg(long, value_parser = target_parser(), default_value = "c-header")]
    pub(crate) target: Target,
    /// Output file (`-`, the default, for stdout).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub(crate) output: PathBuf,
    /// After writing FILE, print on stdout a JSON record of what was
    /// written (file, target, bytes, hash, placement); needs `-o FILE`.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Debug, Args)]
pub(crate) struct SimulateArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    #[command(flatten)]
    pub(crate) place: PlaceArgs,
    /// Scheduling policy.
    #[arg(long, value_parser = policy_parser(), default_value = "amp")]
    pub(crate) policy: Policy,
    /// For `amp`: a placement file, any record with a `placement` list
    /// (`place --json`, `analysis.json`, `simulate --json`) or a file of
    /// the same shape written by hand (`schema_version` and `task`, `core`
    /// per task; see the book's outputs page); without it the placement is
    /// searched first, with the placement flags.
    #[arg(long, value_name = "FILE")]
    pub(crate) placement: Option<PathBuf>,
    /// Print the results as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// Write the timeline as Chrome / Perfetto trace JSON (cores as
    /// tracks, jobs as slices, signals as flow arrows).
    #[arg(long, value_name = "FILE")]
    pub(crate) perfetto: Option<PathBuf>,
    /// Write the timeline as BTF (readable by `corera ingest` and Trace
    /// Compass).
    #[arg(long, value_name = "FILE")]
    pub(crate) btf: Option<PathBuf>,
    /// Write an HTML page with the timeline of the recording as recorded
    /// above this replay, on one time axis (the report's timeline): every
    /// segment as it ran, READY, interrupts, migrations and cross-core
    /// signals. It opens on `--window`, or where the two differ most.
    #[arg(long, value_name = "FILE")]
    pub(crate) timeline: Option<PathBuf>,
    /// The window the timeline opens on, in ms from the start of the
    /// trace (`--window 120..135.5`); every segment in it is drawn.
    #[arg(long, value_name = "FROM..TO", value_parser = parse_window, requires = "timeline")]
    pub(crate) window: Option<[u64; 2]>,
    /// Replay at each value of one cost, from FROM to TO by STEP, and print
    /// the objective of the policy and of global SMP at each: where one
    /// overtakes the other (`--sweep migration_ns=0:20000:2000`; the keys
    /// are the platform file's `[costs]`).
    #[arg(long, value_name = "KEY=FROM:TO:STEP", value_parser = parse_sweep)]
    pub(crate) sweep: Option<Sweep>,
    /// Replay a multi-core recording under the placement it was recorded
    /// with (a task that never migrated bound to its core, the others
    /// floating over the cores they used) on the recorded cores, with no
    /// modelled overheads (the recording has them) unless a platform file
    /// states them (`[costs]`), and print per task the replay against the
    /// recording: the fidelity check of the replay model. `--timeline`
    /// draws that replay below the recording, `--perfetto` and `--btf`
    /// write it.
    #[arg(long, conflicts_with_all = ["placement", "sweep", "policy"])]
    pub(crate) as_recorded: bool,
}

impl SimulateArgs {
    /// Whether an output asks for the replay's timeline.
    pub(crate) fn writes_timeline(&self) -> bool {
        self.perfetto.is_some() || self.btf.is_some() || self.timeline.is_some()
    }
}

/// `FROM..TO` in ms (an `ms` after each is allowed) to ns.
fn parse_window(s: &str) -> Result<[u64; 2], String> {
    let bad = || format!("`{s}`: expected FROM..TO in ms from the start of the trace, e.g. 120..135.5");
    let (from, to) = s.split_once("..").ok_or_else(bad)?;
    let ns = |x: &str| -> Result<u64, String> {
        let x = x.trim().trim_end_matches("ms").trim();
        match x.parse::<f64>() {
            Ok(v) if v >= 0.0 && v.is_finite() && v < 1e12 => Ok((v * 1e6).round() as u64),
            _ => Err(bad()),
        }
    };
    let (from, to) = (ns(from)?, ns(to)?);
    if to <= from {
        return Err(format!("`{s}`: the window ends before it starts"));
    }
    Ok([from, to])
}

/// A cost swept by `simulate --sweep`.
#[derive(Clone, Debug)]
pub(crate) struct Sweep {
    pub(crate) key: String,
    pub(crate) values: Vec<f64>,
}

fn parse_sweep(s: &str) -> Result<Sweep, String> {
    let bad = || format!("`{s}`: expected KEY=FROM:TO:STEP, e.g. migration_ns=0:20000:2000");
    let (key, range) = s.split_once('=').ok_or_else(bad)?;
    if corera_placement::Costs::default().get(key).is_none() {
        return Err(format!("unknown cost `{key}`; the costs are {}", corera_placement::Costs::KEYS.join(", ")));
    }
    let parts: Vec<f64> =
        range.split(':').map(|p| p.trim().parse::<f64>()).collect::<Result<_, _>>().map_err(|_| bad())?;
    let [from, to, step] = parts[..] else { return Err(bad()) };
    if !(from >= 0.0 && from.is_finite() && to.is_finite()) {
        return Err(format!("`{s}`: FROM and TO are costs, at least 0"));
    }
    if to < from || step <= 0.0 {
        return Err(format!("`{s}`: expected FROM <= TO and a STEP above 0"));
    }
    let count = ((to - from) / step + 1e-9).floor() as usize + 1;
    if count > 200 {
        return Err(format!("`{s}` is {count} replays of each policy; use a larger STEP (at most 200 values)"));
    }
    Ok(Sweep { key: key.to_string(), values: (0..count).map(|i| from + step * i as f64).collect() })
}

#[derive(Debug, Args)]
pub(crate) struct GenArgs {
    /// Workload description (TOML).
    #[arg(value_name = "WORKLOAD")]
    pub(crate) workload: PathBuf,
    /// Output log (`-`, the default, for stdout).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub(crate) output: PathBuf,
    /// After writing FILE, print on stdout a JSON record of the generated
    /// trace (file, tasks, events per kind, duration, seed); needs `-o FILE`.
    #[arg(long)]
    pub(crate) json: bool,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
