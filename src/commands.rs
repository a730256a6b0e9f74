//! One function per subcommand.

use anyhow::Context;
use clap::ValueEnum;
use corera_emit::{CHeader, Emitter, HeaderTarget, HtmlReport, Json, TasksetScript};
use corera_trace_ingest::TraceSummary;

use crate::cli::{
    AnalyzeArgs, Cli, Command, EmitArgs, GenArgs, GraphArgs, IngestArgs, PlaceCommandArgs, PolicyArg, SimulateArgs,
    Target,
};
use crate::exit::{Failure, WithCode};
use crate::pipeline::{self, input_name, warn};

pub(crate) fn run(cli: &Cli) -> Result<(), Failure> {
    match &cli.command {
        Command::Analyze(args) => analyze(args, cli.quiet),
        Command::Ingest(args) => ingest(args, cli.quiet),
        Command::Graph(args) => graph(args, cli.quiet),
        Command::Place(args) => place(args, cli.quiet),
        Command::Emit(args) => emit(args, cli.quiet),
        Command::Gen(args) => gen_log(args),
        Command::Simulate(args) => simulate(args, cli.quiet),
    }
}

fn stdout(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).context("could not write to stdout").internal()
}

fn analyze(args: &AnalyzeArgs, quiet: bool) -> Result<(), Failure> {
    let a = pipeline::analyze(&args.input, &args.place, quiet)?;
    warn(quiet, &a.name, &a.warnings);
    let report = a.report();
    std::fs::create_dir_all(&args.output)
        .with_context(|| format!("could not create output directory `{}`", args.output.display()))
        .internal()?;
    let mut written = Vec::new();
    for emitter in [&CHeader::default() as &dyn Emitter, &Json, &HtmlReport] {
        let path = args.output.join(emitter.file_name());
        pipeline::write(&path, &emitter.emit(&report))?;
        written.push(path.display().to_string());
    }
    let cores_by_id = a.problem.cores_by_task_id(&a.solution.placement.core_of, a.graph.tasks.len());
    let dot = args.output.join("graph.dot");
    pipeline::write(&dot, a.graph.to_dot(Some(&cores_by_id)).as_bytes())?;
    written.push(dot.display().to_string());
    if args.timelines {
        for o in &a.replay {
            let path = args.output.join(format!("timeline-{}.json", o.policy.name()));
            pipeline::write(&path, &corera_emit::perfetto(&a.workload, o))?;
            written.push(path.display().to_string());
            if o.policy == corera_replay::Policy::Amp {
                let path = args.output.join("amp.btf");
                pipeline::write(&path, &corera_emit::btf(&a.workload, o))?;
                written.push(path.display().to_string());
            }
        }
    }
    if args.json {
        return stdout(&String::from_utf8(Json.emit(&report)).expect("JSON is UTF-8"));
    }
    let mut text = corera_emit::summary(&report);
    text.push_str(&format!(
        "settings: {} --balance {} --node-budget {} --seed {}{}\nwrote {}\n",
        match &args.place.platform {
            Some(p) => format!("--platform {p}"),
            None => format!("--cores {}", args.place.cores),
        },
        a.platform.balance_tolerance,
        args.place.node_budget,
        args.place.seed,
        args.place.time_limit.map(|t| format!(" --time-limit {t}")).unwrap_or_default()
            + &pipeline::constraints(&args.place)?.flags().iter().map(|f| format!(" {f}")).collect::<String>(),
        written.join(", ")
    ));
    stdout(&text)
}

fn ingest(args: &IngestArgs, quiet: bool) -> Result<(), Failure> {
    let parsed = pipeline::ingest(&args.input)?;
    let name = input_name(&args.input);
    warn(quiet, &name, &parsed.warnings);
    if let Some(path) = &args.write_log {
        let mut bytes = Vec::new();
        corera_trace_ingest::corera_log::write(&parsed.trace, &mut bytes)
            .context("could not convert the trace")
            .input()?;
        pipeline::write(path, &bytes)?;
        if path.as_os_str() == "-" {
            return Ok(());
        }
    }
    let summary = TraceSummary::of(&parsed.trace);
    if args.json {
        let value =
            serde_json::json!({ "input": name, "format": parsed.format, "source": parsed.source, "trace": summary });
        return stdout(&format!("{}\n", serde_json::to_string_pretty(&value).expect("serialisable")));
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
    for (kind, n) in &summary.events_by_kind {
        text.push_str(&format!("  {kind:<10} {n:>10}\n"));
    }
    stdout(&text)
}

fn graph(args: &GraphArgs, quiet: bool) -> Result<(), Failure> {
    let parsed = pipeline::ingest(&args.input)?;
    let (graph, warnings) = pipeline::graph(&parsed.trace)?;
    let name = input_name(&args.input);
    warn(quiet, &name, &parsed.warnings);
    warn(quiet, &name, &warnings);
    if let Some(dot) = &args.dot {
        pipeline::write(dot, graph.to_dot(None).as_bytes())?;
    }
    let mut json = serde_json::to_vec_pretty(&graph).expect("serialisable");
    json.push(b'\n');
    match &args.output {
        Some(path) => pipeline::write(path, &json),
        None if args.json => stdout(&String::from_utf8(json).expect("JSON is UTF-8")),
        // The DOT went to stdout: the table would corrupt it.
        None if args.dot.as_deref().is_some_and(|d| d.as_os_str() == "-") => Ok(()),
        None => stdout(&format!("{name}:\n{}", graph.to_table(15))),
    }
}

/// `--json` on a command that writes its artifact to `-o`: the record goes
/// to stdout, so the artifact needs a file.
fn json_needs_file(json: bool, output: &std::path::Path) -> Result<(), Failure> {
    if json && output.as_os_str() == "-" {
        return Err(anyhow::anyhow!("--json prints a record on stdout, so the output needs a file: add -o FILE"))
            .input();
    }
    Ok(())
}

/// The JSON record of an artifact written to `path`.
fn written(path: &std::path::Path, kind: &str, bytes: &[u8]) -> serde_json::Value {
    serde_json::json!({
        "file": path.display().to_string(),
        "target": kind,
        "bytes": bytes.len(),
        "fingerprint": corera_trace_ingest::Fingerprint::of(bytes),
    })
}

fn place(args: &PlaceCommandArgs, quiet: bool) -> Result<(), Failure> {
    if let Some(graph) = &args.graph {
        return place_graph(args, graph, quiet);
    }
    if args.pareto {
        return place_pareto(args, quiet);
    }
    let a = pipeline::analyze(&args.input, &args.place, quiet)?;
    warn(quiet, &a.name, &a.warnings);
    if args.json {
        let value = serde_json::json!({
            "placement": (0..a.problem.len()).map(|i| serde_json::json!({
                "task": a.problem.names[i], "core": a.solution.placement.core_of[i]
            })).collect::<Vec<_>>(),
            "platform": a.platform,
            "search": a.solution,
            "cost": a.cost,
        });
        return stdout(&format!("{}\n", serde_json::to_string_pretty(&value).expect("serialisable")));
    }
    stdout(&corera_emit::summary(&a.report()))
}

/// `corera place --pareto`: the traffic / busiest-core trade-off.
fn place_pareto(args: &PlaceCommandArgs, quiet: bool) -> Result<(), Failure> {
    let p = pipeline::prepare(&args.input, &args.place, quiet)?;
    warn(quiet, &p.name, &p.warnings);
    let front = pipeline::pareto(&p.problem, &p.platform, &args.place, quiet)?;
    if args.json {
        let points: Vec<_> = front
            .iter()
            .map(|f| {
                serde_json::json!({
                    "balance_tolerance": f.balance_tolerance,
                    "max_core_utilisation": f.max_core_utilisation,
                    "imbalance": f.imbalance,
                    "cross_traffic": f.cross_traffic,
                    "proven_optimal": f.solution.proven_optimal,
                    "placement": (0..p.problem.len()).map(|i| serde_json::json!({
                        "task": p.problem.names[i], "core": f.solution.placement.core_of[i]
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        let value =
            serde_json::json!({ "platform": p.platform, "total_traffic": p.problem.total_traffic(), "front": points });
        return stdout(&format!("{}\n", serde_json::to_string_pretty(&value).expect("serialisable")));
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
    stdout(&text)
}

/// `corera place --graph`: a METIS graph in, a METIS partition out.
fn place_graph(args: &PlaceCommandArgs, path: &std::path::Path, quiet: bool) -> Result<(), Failure> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("could not read graph `{}`", path.display())).input()?;
    let problem = corera_placement::read_metis(&text, &path.display().to_string()).input()?;
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
        let value = serde_json::json!({ "search": solution, "cost": cost, "seconds": seconds });
        return stdout(&format!("{}\n", serde_json::to_string_pretty(&value).expect("serialisable")));
    }
    let max = cost.core_load_ns.iter().copied().max().unwrap_or(0);
    stdout(&format!(
        "{}: {} vertices, {} edges, {} blocks, eps {}\ncut {} ({}{}), max block weight {} (limit {}), {:.2} s\n",
        path.display(),
        problem.len(),
        problem.edges.len(),
        platform.cores,
        platform.balance_tolerance,
        solution.objective.cross_traffic,
        solution.method,
        if solution.proven_optimal {
            ", proven optimal".to_string()
        } else {
            format!(", lower bound {}", solution.lower_bound.cross_traffic)
        },
        max,
        cost.core_limit_ns.iter().max().copied().unwrap_or(0),
        seconds
    ))
}

fn emit(args: &EmitArgs, quiet: bool) -> Result<(), Failure> {
    json_needs_file(args.json, &args.output)?;
    let a = pipeline::analyze(&args.input, &args.place, quiet)?;
    warn(quiet, &a.name, &a.warnings);
    let header = |target| CHeader { target };
    let emitter: &dyn Emitter = match args.target {
        Target::CHeader => &header(HeaderTarget::Generic),
        Target::Freertos => &header(HeaderTarget::FreeRtos),
        Target::Zephyr => &header(HeaderTarget::Zephyr),
        Target::Posix => &header(HeaderTarget::Posix),
        Target::Taskset => &TasksetScript,
        Target::Json => &Json,
        Target::Html => &HtmlReport,
    };
    let bytes = emitter.emit(&a.report());
    pipeline::write(&args.output, &bytes)?;
    if !args.json {
        return Ok(());
    }
    let target = args.target.to_possible_value().expect("no skipped targets");
    let mut record = written(&args.output, target.get_name(), &bytes);
    record["placement"] = (0..a.problem.len())
        .map(|i| serde_json::json!({ "task": a.problem.names[i], "core": a.solution.placement.core_of[i] }))
        .collect();
    stdout(&format!("{}\n", serde_json::to_string_pretty(&record).expect("serialisable")))
}

fn gen_log(args: &GenArgs) -> Result<(), Failure> {
    json_needs_file(args.json, &args.output)?;
    let text = std::fs::read_to_string(&args.workload)
        .with_context(|| format!("could not read workload `{}`", args.workload.display()))
        .input()?;
    let workload = corera_replay::Workload::from_toml(&text)
        .with_context(|| format!("invalid workload `{}`", args.workload.display()))
        .input()?;
    let trace = corera_replay::generate(&workload)
        .with_context(|| format!("invalid workload `{}`", args.workload.display()))
        .input()?;
    let mut bytes = format!(
        "# Generated by corera {} from {} (seed {}); regenerate with\n#   corera gen {}\n",
        corera_emit::VERSION,
        args.workload.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        workload.seed,
        args.workload.display()
    )
    .into_bytes();
    let mut body = Vec::new();
    corera_trace_ingest::corera_log::write(&trace, &mut body).context("could not write the log").internal()?;
    // The header line must come first; the comment goes right after it.
    let newline = body.iter().position(|&b| b == b'\n').map_or(body.len(), |i| i + 1);
    let mut out = body[..newline].to_vec();
    out.append(&mut bytes);
    out.extend_from_slice(&body[newline..]);
    pipeline::write(&args.output, &out)?;
    if !args.json {
        return Ok(());
    }
    let mut record = written(&args.output, "corera-log", &out);
    record["seed"] = workload.seed.into();
    record["trace"] = serde_json::to_value(TraceSummary::of(&trace)).expect("serialisable");
    stdout(&format!("{}\n", serde_json::to_string_pretty(&record).expect("serialisable")))
}

/// `corera simulate`: the traced jobs under one policy.
fn simulate(args: &SimulateArgs, quiet: bool) -> Result<(), Failure> {
    use corera_replay::{Policy, Setup};
    let p = pipeline::prepare(&args.input, &args.place, quiet)?;
    warn(quiet, &p.name, &p.warnings);
    let policy = match args.policy {
        PolicyArg::Single => Policy::Single,
        PolicyArg::Smp => Policy::Smp,
        PolicyArg::SmpLeastLoaded => Policy::SmpLeastLoaded,
        PolicyArg::Amp => Policy::Amp,
    };
    let replay = pipeline::replay_of(&p.parsed.trace, &p.graph);
    let core_of: Vec<u16> = match (&args.placement, policy) {
        (Some(file), _) => read_placement(file, &p.problem, &p.platform)?,
        (None, Policy::Amp) => pipeline::search(&p.problem, &p.platform, &args.place, quiet)?.placement.core_of,
        (None, _) => vec![0; p.problem.len()],
    };
    let cores = pipeline::replay_cores(&replay, &p.problem, &core_of);
    let timeline = args.perfetto.is_some() || args.btf.is_some();
    let o = corera_replay::simulate(&replay, &Setup { policy, platform: &p.platform, core_of: Some(&cores), timeline });
    if let Some(path) = &args.perfetto {
        pipeline::write(path, &corera_emit::perfetto(&replay, &o))?;
    }
    if let Some(path) = &args.btf {
        pipeline::write(path, &corera_emit::btf(&replay, &o))?;
    }
    if args.json {
        let value = serde_json::json!({ "input": p.name, "platform": p.platform, "outcome": o });
        return stdout(&format!("{}\n", serde_json::to_string_pretty(&value).expect("serialisable")));
    }
    let ms = |ns: Option<u64>| ns.map_or("-".to_string(), |x| format!("{:.3}", x as f64 / 1e6));
    let width = o.tasks.iter().map(|t| t.name.len()).max().unwrap_or(4).max(4);
    let mut text = format!(
        "{}: {} jobs replayed, policy {} on {} core(s)\n\n{:<width$} {:>11} {:>11} {:>7} {:>9} {:>9} {:>9} {:>6} {:>5}\n",
        p.name,
        replay.tasks.iter().map(|t| t.jobs.len()).sum::<usize>(),
        policy.name(),
        o.cores,
        "task",
        "RUNNING ms",
        "READY ms",
        "jobs",
        "resp ms",
        "p95 ms",
        "max ms",
        "misses",
        "migr."
    );
    for t in &o.tasks {
        text.push_str(&format!(
            "{:<width$} {:>11.3} {:>11.3} {:>7} {:>9} {:>9} {:>9} {:>6} {:>5}\n",
            t.name,
            t.running_ns as f64 / 1e6,
            t.ready_ns as f64 / 1e6,
            t.jobs,
            ms(t.response_mean_ns),
            ms(t.response_p95_ns),
            ms(t.response_max_ns),
            t.deadline_misses.map_or("-".to_string(), |m| m.to_string()),
            t.migrations
        ));
    }
    text.push('\n');
    for line in corera_emit::core_lines(o.core_busy.len(), |c| o.core_busy_ns[c] > 0) {
        match line {
            corera_emit::CoreLine::One(c) => {
                let b = o.core_busy[c] * 100.0;
                text.push_str(&format!("core {c}: {b:5.1} % busy, {:5.1} % idle\n", 100.0 - b));
            }
            corera_emit::CoreLine::Unused(first, last) => text.push_str(&format!("cores {first}-{last}: unused\n")),
        }
    }
    if policy == Policy::Amp {
        let cost = corera_placement::Cost::of(&p.problem, &p.platform, &corera_placement::Placement::new(core_of));
        text.push_str(&format!(
            "placement: {} cross-core traffic{}, busiest core {:.1} % load\n",
            cost.objective.cross_traffic,
            if p.platform.is_uniform() { "" } else { " (topology-weighted)" },
            cost.core_utilisation.iter().copied().fold(0.0, f64::max) * 100.0
        ));
    }
    text.push_str(&format!(
        "makespan {:.3} s, {:.1} jobs/s, RUNNING {:.3} s, READY {:.3} s, mean response {:.3} ms\n\
         migrations {}, cross-core messages {}, idle core while a task waited {:.3} ms\n\
         input rate sustained {:.1} % of the recorded rate ({})\n",
        o.makespan_ns as f64 / 1e9,
        o.throughput_jobs_per_s,
        o.running_ns as f64 / 1e9,
        o.ready_ns as f64 / 1e9,
        o.response_mean_ns / 1e6,
        o.migrations,
        o.cross_core_messages,
        o.non_work_conserving_ns as f64 / 1e6,
        o.sustained_rate * 100.0,
        if o.keeps_up() { "keeps up" } else { "falls behind: work piles up faster than the cores do it" }
    ));
    stdout(&text)
}

/// A placement file: `placement` is a list of `{task, core}`.
fn read_placement(
    file: &std::path::Path,
    problem: &corera_placement::Problem,
    platform: &corera_placement::Platform,
) -> Result<Vec<u16>, Failure> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("could not read placement file `{}`", file.display()))
        .input()?;
    let bad = |what: String| anyhow::anyhow!("placement file `{}`: {what}", file.display());
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string())).input()?;
    let list = v["placement"].as_array().ok_or_else(|| bad("no `placement` list".into())).input()?;
    let mut core_of: Vec<Option<u16>> = vec![None; problem.len()];
    for entry in list {
        let (Some(task), Some(core)) = (entry["task"].as_str(), entry["core"].as_u64()) else {
            return Err(bad(format!("entry {entry} needs `task` and `core`"))).input();
        };
        let i = problem
            .names
            .iter()
            .position(|n| n == task)
            .ok_or_else(|| bad(format!("no task `{task}` in the trace")))
            .input()?;
        if core >= u64::from(platform.cores) {
            return Err(bad(format!("`{task}` is on core {core}; the platform has {} cores", platform.cores))).input();
        }
        core_of[i] = Some(core as u16);
    }
    let missing: Vec<&str> =
        (0..problem.len()).filter(|&i| core_of[i].is_none()).map(|i| problem.names[i].as_str()).collect();
    if !missing.is_empty() {
        return Err(bad(format!("no core for {}", missing.join(", ")))).input();
    }
    Ok(core_of.into_iter().map(|c| c.unwrap_or(0)).collect())
}
