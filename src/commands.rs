//! One function per subcommand. Each fills the records of
//! [`corera_emit::records`] and prints or writes them; none builds output
//! by hand.

use anyhow::Context;
use corera_emit::records::{
    Analysis, GraphRecord, IngestRecord, ParetoRecord, PartitionRecord, PlaceRecord, SCHEMA_VERSION, SearchRecord,
    SimulateRecord, WrittenRecord, placed_tasks,
};
use corera_emit::{Target, to_json};
use corera_replay::Policy;
use corera_trace_ingest::TraceSummary;

use crate::cli::{
    AnalyzeArgs, CalibrateArgs, CheckArgs, Cli, Command, DiffArgs, EmitArgs, GenArgs, GraphArgs, IngestArgs,
    PlaceCommandArgs, SimulateArgs,
};
use crate::exit::{Usage, usage};
use crate::pipeline::{self, input_name, warn};

pub(crate) fn run(cli: &Cli) -> anyhow::Result<()> {
    match &cli.command {
        Command::Analyze(args) => analyze(args, cli.quiet),
        Command::Ingest(args) => ingest(args, cli.quiet),
        Command::Graph(args) => graph(args, cli.quiet),
        Command::Place(args) => place(args, cli.quiet),
        Command::Emit(args) => emit(args, cli.quiet),
        Command::Gen(args) => gen_log(args),
        Command::Simulate(args) => simulate(args, cli.quiet),
        Command::Diff(args) => diff(args),
        Command::Check(args) => check(args, cli.quiet),
        Command::Calibrate(args) => calibrate(args, cli.quiet),
    }
}

fn stdout(bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).and_then(|()| out.flush()).context("could not write to stdout")
}

/// The file-name part of a replay's label: `AMP, best` gives
/// `amp-best`.
fn run_slug(label: &str) -> String {
    let words: Vec<String> = label
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    words.join("-")
}

fn analyze(args: &AnalyzeArgs, quiet: bool) -> anyhow::Result<()> {
    let a = pipeline::analyze(&args.input, &args.place, true, quiet)?;
    warn(quiet, &a.prepared.name, &a.prepared.warnings);
    let analysis = a.analysis();
    std::fs::create_dir_all(&args.output)
        .with_context(|| format!("could not create output directory `{}`", args.output.display()))?;
    let mut written = Vec::new();
    for target in [Target::CHeader, Target::Json, Target::Html] {
        let emitter = target.emitter();
        let path = args.output.join(emitter.file_name());
        pipeline::write(&path, &emitter.emit(&analysis))?;
        written.push(path.display().to_string());
    }
    let p = &a.prepared;
    let cores_by_id = p.problem.cores_by_task_id(&a.placement, p.graph.tasks.len());
    let dot = args.output.join("graph.dot");
    pipeline::write(&dot, p.graph.to_dot(Some(&cores_by_id)).as_bytes())?;
    written.push(dot.display().to_string());
    if args.timelines {
        for (label, o) in &a.replay {
            let path = args.output.join(format!("timeline-{}.json", run_slug(label)));
            pipeline::write(&path, &corera_emit::perfetto(&a.workload, o))?;
            written.push(path.display().to_string());
        }
        // The recommended placement's run (the last) as BTF.
        if let Some((_, o)) = a.replay.last() {
            let path = args.output.join("recommended.btf");
            pipeline::write(&path, &corera_emit::btf(&a.workload, o))?;
            written.push(path.display().to_string());
        }
    }
    if args.json {
        return stdout(&to_json(&analysis));
    }
    let mut text = corera_emit::summary(&analysis);
    text.push_str(&format!(
        "settings: {} --balance {} --node-budget {} --objective {}{} --seed {}{}\nwrote {}\n",
        match (&args.place.platform, &p.parsed.model) {
            (Some(p), _) => format!("--platform {p}"),
            (None, Some(_)) => format!(
                "(the model's hardware){} --ticks {}",
                args.input.horizon.map_or(String::new(), |h| format!(" --horizon {}", h as f64 / 1e6)),
                args.input.ticks.name()
            ),
            (None, None) => format!("--cores {}", args.place.cores),
        },
        p.platform.balance_tolerance,
        args.place.node_budget,
        p.objective.name(),
        a.timing.as_ref().map_or(String::new(), |t| format!(" --replay-budget {}", t.budget)),
        args.place.seed,
        args.place.time_limit.map(|t| format!(" --time-limit {t}")).unwrap_or_default()
            + &pipeline::constraints(&args.place)?.flags().iter().map(|f| format!(" {f}")).collect::<String>()
            + &args
                .input
                .priority
                .iter()
                .map(|o| format!(" --priority '{}={}'", o.task, o.priority))
                .collect::<String>(),
        written.join(", ")
    ));
    stdout(text.as_bytes())
}

fn ingest(args: &IngestArgs, quiet: bool) -> anyhow::Result<()> {
    let parsed = pipeline::ingest(&args.input)?;
    let name = input_name(&args.input);
    warn(quiet, &name, &parsed.warnings);
    if let Some(path) = &args.write_log {
        let mut bytes = Vec::new();
        corera_trace_ingest::corera_log::write(&parsed.trace, &mut bytes).context("could not convert the trace")?;
        pipeline::write(path, &bytes)?;
        if path.as_os_str() == "-" {
            return Ok(());
        }
    }
    let summary = TraceSummary::of(&parsed.trace);
    if args.json {
        let input = corera_emit::records::Input::new(&name, parsed.format, parsed.source).with_notes(&parsed.notes);
        return stdout(&to_json(&IngestRecord::new(input, summary)));
    }
    let mut text = format!(
        "{name}: format {}, {} tasks ({} ISRs), {} events on {} core(s), {:.6} s\n",
        parsed.format,
        summary.tasks,
        summary.isrs,
        summary.events,
        summary.cores_seen,
        summary.duration_ns as f64 / 1e9
    );
    for note in &parsed.notes {
        text.push_str(&format!("  {note}\n"));
    }
    for (kind, n) in &summary.events_by_kind {
        text.push_str(&format!("  {kind:<12} {n:>8}\n"));
    }
    stdout(text.as_bytes())
}

fn graph(args: &GraphArgs, quiet: bool) -> anyhow::Result<()> {
    let pipeline::Read { name, parsed, schedule, graph, warnings } =
        pipeline::read(&args.input, &args.input.priority, quiet)?;
    // The heaviest causal paths, as candidate chains with their recorded
    // latency.
    let mut workload = corera_replay::Replay::new(&parsed.trace, &schedule, &[]);
    workload.set_discovered_chains(CANDIDATE_CHAINS);
    let record =
        GraphRecord::new(corera_emit::records::Input::new(&name, parsed.format, parsed.source), &graph, &workload);
    warn(quiet, &name, &warnings);
    if let Some(dot) = &args.dot {
        pipeline::write(dot, graph.to_dot(None).as_bytes())?;
    }
    let json = to_json(&record);
    match &args.output {
        Some(path) => pipeline::write(path, &json),
        None if args.json => stdout(&json),
        // The DOT went to stdout: the table would corrupt it.
        None if args.dot.as_deref().is_some_and(|d| d.as_os_str() == "-") => Ok(()),
        None => stdout(
            format!("{name}:\n{}{}", graph.to_table(15), corera_emit::chains_text(&record.chains, &[])).as_bytes(),
        ),
    }
}

/// Candidate chains `corera graph` lists.
const CANDIDATE_CHAINS: usize = 10;

/// `--json` on a command that writes its artifact to `-o`: the record goes
/// to stdout, so the artifact needs a file.
fn json_needs_file(json: bool, output: &std::path::Path) -> anyhow::Result<()> {
    if json && output.as_os_str() == "-" {
        return Err(usage("--json prints a record on stdout, so the output needs a file: add -o FILE"));
    }
    Ok(())
}

fn place(args: &PlaceCommandArgs, quiet: bool) -> anyhow::Result<()> {
    if let Some(graph) = &args.graph {
        return place_graph(args, graph, quiet);
    }
    if args.pareto {
        return place_pareto(args, quiet);
    }
    let a = pipeline::analyze(&args.input, &args.place, args.place.masks, quiet)?;
    warn(quiet, &a.prepared.name, &a.prepared.warnings);
    if args.json {
        return stdout(&to_json(&PlaceRecord::new(&a.results())));
    }
    stdout(corera_emit::summary(&a.analysis()).as_bytes())
}

/// `corera place --pareto`: the traffic / busiest-core trade-off.
fn place_pareto(args: &PlaceCommandArgs, quiet: bool) -> anyhow::Result<()> {
    let p = pipeline::prepare(&args.input, &args.place, quiet)?;
    warn(quiet, &p.name, &p.warnings);
    let front = pipeline::pareto(&p.problem, &p.platform, &args.place, quiet)?;
    if args.json {
        return stdout(&to_json(&ParetoRecord::new(p.input(), &p.platform, &p.problem, &p.graph, &front)));
    }
    let mut text = format!(
        "{}: traffic / busiest-core trade-off on {} (total traffic {})\n\n  eps  busiest core  imbalance  cross traffic  proven\n",
        p.name,
        p.platform.describe(),
        p.problem.total_traffic()
    );
    for f in &front {
        text.push_str(&format!(
            "{:5.2}  {:10.1} %  {:7.1} %  {:13}  {}\n",
            f.balance_tolerance,
            f.max_core_utilisation * 100.0,
            f.imbalance * 100.0,
            f.cross_traffic,
            if f.solution.proven_optimal { "yes" } else { "no" }
        ));
    }
    text.push_str(
        "\nrun `corera analyze` with --balance EPS for one of these, or --balance-weight W to choose by weight\n",
    );
    stdout(text.as_bytes())
}

/// `corera place --graph`: a METIS graph in, a METIS partition out.
fn place_graph(args: &PlaceCommandArgs, path: &std::path::Path, quiet: bool) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| Usage(format!("could not read graph `{}`", path.display())))?;
    let problem = corera_placement::read_metis(&text, &path.display().to_string())?;
    let platform = pipeline::platform(&args.place)?;
    let started = std::time::Instant::now();
    let solution = pipeline::search(&problem, &platform, &args.place, quiet)?;
    let seconds = started.elapsed().as_secs_f64();
    let cost = corera_placement::Cost::of(&problem, &platform, &solution.placement);
    let out = args.partition.clone().unwrap_or_else(|| {
        let mut name = path.as_os_str().to_owned();
        name.push(format!(".part.{}", platform.cores));
        name.into()
    });
    pipeline::write(&out, corera_placement::write_partition(&solution.placement).as_bytes())?;
    if args.json {
        return stdout(&to_json(&PartitionRecord {
            schema_version: SCHEMA_VERSION,
            corera_version: corera_emit::VERSION.to_string(),
            graph: path.display().to_string(),
            partition: out.display().to_string(),
            search: SearchRecord::of(&solution),
            cost,
            seconds,
        }));
    }
    let max = cost.core_load_ns.iter().copied().max().unwrap_or(0);
    stdout(
        format!(
            "{}: {} vertices, {} edges, {} blocks, eps {}\ncut {} ({}{}), max block weight {} (limit {}), {:.2} s\n",
            path.display(),
            problem.len(),
            problem.edges.len(),
            platform.cores,
            platform.balance_tolerance,
            solution.score.cross_traffic,
            solution.method,
            if solution.proven_optimal {
                ", proven optimal".to_string()
            } else {
                format!(", lower bound {}", solution.lower_bound.cross_traffic)
            },
            max,
            cost.core_limit_ns.iter().max().copied().unwrap_or(0),
            seconds
        )
        .as_bytes(),
    )
}

/// Whether the file at `path` holds a JSON record (an `analysis.json`)
/// rather than a trace: its first non-blank byte is `{`.
fn is_record(path: &std::path::Path) -> bool {
    use std::io::Read;
    let Ok(file) = std::fs::File::open(path) else { return false };
    let mut head = Vec::new();
    let _ = file.take(4096).read_to_end(&mut head);
    head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// `corera check TRACE --placement FILE`: exits 4 when a requirement
/// fails.
fn check(args: &CheckArgs, quiet: bool) -> anyhow::Result<()> {
    let p = pipeline::prepare(&args.input, &args.place, quiet)?;
    warn(quiet, &p.name, &p.warnings);
    let (core_of, masks) = pipeline::read_placement(&args.placement, &p.problem, &p.platform)?;
    let policy = if masks.is_some() { Policy::Masks } else { Policy::Amp };
    let (workload, chain_warnings) = p.workload()?;
    warn(quiet, &p.name, &chain_warnings);
    let o = p.run(&workload, &p.platform, policy, &core_of, masks.as_deref(), false);
    let limits = |list: &[corera_placement::Deadline]| -> Vec<corera_emit::TaskLimit> {
        list.iter().map(|d| (d.task.clone(), (d.ms * 1e6).round() as u64)).collect()
    };
    // The constraints file's requirements, the command line's and the
    // model's deadlines, then `check`'s own limits.
    let given = &p.constraints;
    let req = corera_emit::Requirements {
        deadlines: limits(&given.deadline),
        max_ready: limits(&[given.max_ready.as_slice(), args.max_ready.as_slice()].concat()),
        max_response: limits(&[given.max_response.as_slice(), args.max_response.as_slice()].concat()),
    };
    let setup = format!("{} on {}", policy.label(), p.platform.describe());
    let record = corera_emit::check(&p.name, &setup, &workload, &p.platform, &o, &req)?;
    if let Some(path) = &args.junit {
        pipeline::write(path, corera_emit::junit(&record).as_bytes())?;
    }
    if args.json {
        stdout(&to_json(&record))?;
    } else {
        stdout(corera_emit::check_text(&record).as_bytes())?;
    }
    if record.failures() > 0 {
        return Err(anyhow::Error::new(crate::exit::RequirementsFail(record.failures(), record.verdicts.len())));
    }
    Ok(())
}

/// `corera diff A B`.
fn diff(args: &DiffArgs) -> anyhow::Result<()> {
    if !(args.threshold.is_finite() && args.threshold >= 0.0) {
        return Err(usage(format!("--threshold {}: a percentage of 0 or more", args.threshold)));
    }
    let read = |path: &std::path::Path| -> anyhow::Result<Analysis> {
        let text = std::fs::read_to_string(path)
            .with_context(|| Usage(format!("could not read analysis `{}`", path.display())))?;
        corera_emit::read_analysis(&text)
            .map_err(|e| usage(format!("`{}` is not an analysis written by `corera analyze`: {e}", path.display())))
    };
    let d = corera_emit::diff(&read(&args.a)?, &read(&args.b)?, args.threshold);
    if args.json {
        return stdout(&to_json(&d));
    }
    stdout(corera_emit::diff_text(&d, args.all).as_bytes())
}

/// The analysis `corera emit` renders: read back from an `analysis.json`,
/// or made from a trace as `analyze` makes it.
fn analysis_for_emit(args: &EmitArgs, quiet: bool) -> anyhow::Result<Analysis> {
    if let Some(path) = args.input.input.as_deref().filter(|p| p.as_os_str() != "-" && is_record(p)) {
        let text = std::fs::read_to_string(path)
            .with_context(|| Usage(format!("could not read analysis `{}`", path.display())))?;
        return corera_emit::read_analysis(&text)
            .map_err(|e| usage(format!("`{}` is not an analysis written by `corera analyze`: {e}", path.display())));
    }
    let a = pipeline::analyze(&args.input, &args.place, true, quiet)?;
    warn(quiet, &a.prepared.name, &a.prepared.warnings);
    Ok(a.analysis())
}

fn emit(args: &EmitArgs, quiet: bool) -> anyhow::Result<()> {
    json_needs_file(args.json, &args.output)?;
    let analysis = analysis_for_emit(args, quiet)?;
    let emitter = args.target.emitter();
    emitter.check(&analysis).map_err(|e| usage(format!("--target {}: {e}", args.target.name())))?;
    let bytes = emitter.emit(&analysis);
    pipeline::write(&args.output, &bytes)?;
    if !args.json {
        return Ok(());
    }
    let mut record = WrittenRecord::new(&args.output.display().to_string(), args.target.name(), &bytes);
    record.placement = analysis.placement;
    stdout(&to_json(&record))
}

fn gen_log(args: &GenArgs) -> anyhow::Result<()> {
    json_needs_file(args.json, &args.output)?;
    let text = std::fs::read_to_string(&args.workload)
        .with_context(|| Usage(format!("could not read workload `{}`", args.workload.display())))?;
    let workload = corera_replay::Workload::from_toml(&text)
        .with_context(|| format!("invalid workload `{}`", args.workload.display()))?;
    let trace = corera_replay::generate(&workload)
        .with_context(|| format!("invalid workload `{}`", args.workload.display()))?;
    let mut bytes = format!(
        "# Generated by corera {} from {} (seed {}); regenerate with\n#   corera gen {}\n",
        corera_emit::VERSION,
        args.workload.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        workload.seed,
        args.workload.display()
    )
    .into_bytes();
    let mut body = Vec::new();
    corera_trace_ingest::corera_log::write(&trace, &mut body).context("could not write the log")?;
    // The header line must come first; the comment goes right after it.
    let newline = body.iter().position(|&b| b == b'\n').map_or(body.len(), |i| i + 1);
    let mut out = body[..newline].to_vec();
    out.append(&mut bytes);
    out.extend_from_slice(&body[newline..]);
    pipeline::write(&args.output, &out)?;
    if !args.json {
        return Ok(());
    }
    let mut record = WrittenRecord::new(&args.output.display().to_string(), "corera-log", &out);
    record.seed = Some(workload.seed);
    record.trace = Some(TraceSummary::of(&trace));
    stdout(&to_json(&record))
}

/// `corera calibrate`: the costs fitted to a pair of recordings; exit 4
/// when the fit is poor.
fn calibrate(args: &CalibrateArgs, quiet: bool) -> anyhow::Result<()> {
    let c = pipeline::calibrate(args, quiet)?;
    for (name, warnings) in &c.warnings {
        warn(quiet, name, warnings);
    }
    if let Some(path) = &args.output {
        let text = format!(
            "# Fitted by corera calibrate: {} replayed under global SMP against {}.\n{}",
            c.record.single.name,
            c.record.multi.name,
            c.record.platform.to_toml()
        );
        pipeline::write(path, text.as_bytes())?;
    }
    if args.json {
        stdout(&to_json(&c.record))?;
    } else {
        stdout(corera_emit::calibrate_text(&c.record).as_bytes())?;
    }
    if c.record.good { Ok(()) } else { Err(crate::exit::PoorFit(c.record.multi.name.clone()).into()) }
}

/// `corera simulate`: the traced jobs under one policy.
fn simulate(args: &SimulateArgs, quiet: bool) -> anyhow::Result<()> {
    if args.as_recorded {
        return as_recorded(args, quiet);
    }
    let sim = pipeline::simulation(args, quiet)?;
    let p = &sim.prepared;
    warn(quiet, &p.name, &p.warnings);
    if sim.narrowed && !quiet {
        eprintln!(
            "{} {}: pins or allowed cores narrow global SMP: replayed as masks, every task on every core it may use",
            crate::style::warning(),
            p.name
        );
    }
    warn(quiet, &p.name, &sim.chain_warnings);
    let (workload, policy, core_of, masks) = (&sim.workload, sim.policy, &sim.core_of, &sim.masks);
    if let Some(sweep) = &args.sweep {
        return sweep_costs(args, p, workload, policy, core_of, masks.as_deref(), sweep);
    }
    let o = sim.run(args.writes_timeline());
    let replayed = format!("replayed under {} on {} core(s)", o.policy.name(), o.cores);
    write_replay(args, p, workload, &o, &format!("corera timeline: {}", p.name), &replayed)?;
    if args.json {
        let placement = if matches!(policy, Policy::Amp | Policy::Masks) {
            placed_tasks(&p.problem, &p.graph, core_of, masks.as_deref())
        } else {
            Vec::new()
        };
        return stdout(&to_json(&SimulateRecord {
            schema_version: SCHEMA_VERSION,
            corera_version: corera_emit::VERSION.to_string(),
            input: p.input(),
            platform: p.platform.clone(),
            placement,
            outcome: o,
            rules: Some(workload.rules.clone()),
            releases_from_switches: p.releases_from_switches(),
        }));
    }
    let cost = matches!(policy, Policy::Amp | Policy::Masks).then(|| {
        corera_placement::Cost::of(&p.problem, &p.platform, &corera_placement::Placement::new(core_of.clone()))
    });
    let chains = corera_emit::records::ChainRecord::of(workload);
    let text = corera_emit::simulate_text(&corera_emit::SimulateRun {
        name: &p.name,
        jobs: workload.tasks.iter().map(|t| t.jobs.len()).sum(),
        outcome: &o,
        placement: cost.as_ref().map(|c| (c, !p.platform.is_uniform())),
        rules: &workload.rules,
        chains: &chains,
        releases_from_switches: p.releases_from_switches(),
    });
    stdout(text.as_bytes())
}

/// `simulate --as-recorded`: the recording's own placement replayed, per
/// task against the recording.
fn as_recorded(args: &SimulateArgs, quiet: bool) -> anyhow::Result<()> {
    let p = pipeline::prepare(&args.input, &args.place, quiet)?;
    warn(quiet, &p.name, &p.warnings);
    let (workload, chain_warnings) = p.workload()?;
    warn(quiet, &p.name, &chain_warnings);
    let (record, o) = p.as_recorded(&workload, args.place.platform.is_some(), args.writes_timeline())?;
    let replayed = format!("replayed as recorded on {} core(s)", o.cores);
    write_replay(args, &p, &workload, &o, &format!("corera timeline: {} as recorded", p.name), &replayed)?;
    if args.json {
        return stdout(&to_json(&record));
    }
    stdout(corera_emit::fidelity_table(&record).as_bytes())
}

/// Writes what `simulate`'s output flags ask of `o`, a replay of `p`'s
/// `workload` run with its timeline: the page with the recording above it
/// (`title`; `replayed` says how it was replayed), Perfetto JSON, BTF.
fn write_replay(
    args: &SimulateArgs,
    p: &pipeline::Prepared,
    workload: &corera_replay::Replay,
    o: &corera_replay::Outcome,
    title: &str,
    replayed: &str,
) -> anyhow::Result<()> {
    if let Some(path) = &args.timeline {
        let names: Vec<String> = workload.tasks.iter().map(|t| t.name.clone()).collect();
        let meta = format!("{} {replayed}, below the recording", p.name);
        let record = corera_pipeline::timeline(p, workload, o, args.window)?;
        pipeline::write(path, &corera_emit::timeline_page(title, &meta, &names, &record))?;
    }
    if let Some(path) = &args.perfetto {
        pipeline::write(path, &corera_emit::perfetto(workload, o))?;
    }
    if let Some(path) = &args.btf {
        pipeline::write(path, &corera_emit::btf(workload, o))?;
    }
    Ok(())
}

/// `simulate --sweep`: the policy and global SMP at each value of one
/// cost.
fn sweep_costs(
    args: &SimulateArgs,
    p: &pipeline::Prepared,
    workload: &corera_replay::Replay,
    policy: Policy,
    core_of: &[u16],
    masks: Option<&[corera_placement::CoreSet]>,
    sweep: &crate::cli::Sweep,
) -> anyhow::Result<()> {
    use corera_emit::records::{SweepPoint, SweepRecord};
    let points: Vec<SweepPoint> = sweep
        .values
        .iter()
        .map(|&value| {
            let mut platform = p.platform.clone();
            platform.costs.set(&sweep.key, value)?;
            let o = p.run(workload, &platform, policy, core_of, masks, false);
            let smp = p.run(workload, &platform, Policy::Smp, core_of, None, false);
            Ok(SweepPoint::new(p.objective, value, &o, &smp))
        })
        .collect::<anyhow::Result<_>>()?;
    let record = SweepRecord {
        schema_version: SCHEMA_VERSION,
        corera_version: corera_emit::VERSION.to_string(),
        input: p.input(),
        key: sweep.key.clone(),
        policy,
        objective: p.objective,
        points,
    };
    if args.json {
        return stdout(&to_json(&record));
    }
    stdout(corera_emit::sweep_table(&record).as_bytes())
}
