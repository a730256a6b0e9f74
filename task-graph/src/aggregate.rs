//! Reduction of the derived tables with polars: per-task sums, counts,
//! means and quantiles, and per-pair interaction counts.

use polars::prelude::*;

use crate::derive::{Interaction, Tables};

/// Per-task aggregates, indexed by task id.
#[derive(Debug, Default)]
pub(crate) struct TaskAggregates {
    pub(crate) running_ns: Vec<u64>,
    pub(crate) ready_ns: Vec<u64>,
    pub(crate) activations: Vec<u64>,
    pub(crate) jobs: Vec<u64>,
    pub(crate) response_mean_ns: Vec<Option<f64>>,
    pub(crate) response_p95_ns: Vec<Option<u64>>,
    pub(crate) response_max_ns: Vec<Option<u64>>,
    pub(crate) gap_mean_ns: Vec<Option<f64>>,
    pub(crate) gap_std_ns: Vec<Option<f64>>,
    pub(crate) gaps: Vec<u64>,
}

/// One directed pair's interactions.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PairAggregate {
    pub(crate) src: u32,
    pub(crate) dst: u32,
    pub(crate) messages: u64,
    pub(crate) bytes: u64,
    pub(crate) notifications: u64,
    pub(crate) wakeups: u64,
}

fn u32_col(name: &str, v: &[u32]) -> Column {
    Column::new(name.into(), v)
}

fn u64_col(name: &str, v: &[u64]) -> Column {
    Column::new(name.into(), v)
}

/// Reads a column of a small result frame as `Option<u64>` values.
fn read_u64(df: &DataFrame, name: &str) -> PolarsResult<Vec<Option<u64>>> {
    let s = df.column(name)?.cast(&DataType::UInt64)?;
    Ok(s.u64()?.iter().collect())
}

fn read_f64(df: &DataFrame, name: &str) -> PolarsResult<Vec<Option<f64>>> {
    let s = df.column(name)?.cast(&DataType::Float64)?;
    Ok(s.f64()?.iter().collect())
}

/// Scatters grouped `(task, value)` results into a vector indexed by task.
fn scatter<T: Clone>(n: usize, fill: T, tasks: &[Option<u64>], values: Vec<T>) -> Vec<T> {
    let mut out = vec![fill; n];
    for (t, v) in tasks.iter().zip(values) {
        if let Some(t) = t {
            out[*t as usize] = v;
        }
    }
    out
}

pub(crate) fn tasks(tables: &Tables, n: usize) -> PolarsResult<TaskAggregates> {
    let mut agg = TaskAggregates::default();

    let seg = DataFrame::new(
        tables.seg_task.len(),
        vec![
            u32_col("task", &tables.seg_task),
            Column::new("ready".into(), &tables.seg_ready),
            u64_col("ns", &tables.seg_ns),
        ],
    )?;
    let sums = seg
        .lazy()
        .group_by([col("task")])
        .agg([
            col("ns").filter(col("ready").not()).sum().alias("running"),
            col("ns").filter(col("ready")).sum().alias("ready"),
        ])
        .collect()?;
    let task = read_u64(&sums, "task")?;
    let flat = |v: Vec<Option<u64>>| v.into_iter().map(|x| x.unwrap_or(0)).collect::<Vec<_>>();
    agg.running_ns = scatter(n, 0, &task, flat(read_u64(&sums, "running")?));
    agg.ready_ns = scatter(n, 0, &task, flat(read_u64(&sums, "ready")?));

    let jobs = DataFrame::new(
        tables.job_task.len(),
        vec![u32_col("task", &tables.job_task), u64_col("response", &tables.job_response)],
    )?;
    let resp = jobs
        .lazy()
        .group_by([col("task")])
        .agg([
            col("response").count().alias("jobs"),
            col("response").mean().alias("mean"),
            col("response").quantile(lit(0.95), QuantileMethod::Equiprobable).alias("p95"),
            col("response").max().alias("max"),
        ])
        .collect()?;
    let task = read_u64(&resp, "task")?;
    agg.jobs = scatter(n, 0, &task, flat(read_u64(&resp, "jobs")?));
    agg.response_mean_ns = scatter(n, None, &task, read_f64(&resp, "mean")?);
    agg.response_p95_ns = scatter(n, None, &task, read_u64(&resp, "p95")?);
    agg.response_max_ns = scatter(n, None, &task, read_u64(&resp, "max")?);

    let acts = DataFrame::new(
        tables.act_task.len(),
        vec![
            u32_col("task", &tables.act_task),
            u64_col("gap", &tables.act_gap),
            Column::new("has_gap".into(), &tables.act_has_gap),
        ],
    )?;
    let gaps = acts
        .lazy()
        .group_by([col("task")])
        .agg([
            col("gap").count().alias("activations"),
            col("gap").filter(col("has_gap")).count().alias("gaps"),
            col("gap").filter(col("has_gap")).cast(DataType::Float64).mean().alias("mean"),
            col("gap").filter(col("has_gap")).cast(DataType::Float64).std(1).alias("std"),
        ])
        .collect()?;
    let task = read_u64(&gaps, "task")?;
    agg.activations = scatter(n, 0, &task, flat(read_u64(&gaps, "activations")?));
    agg.gaps = scatter(n, 0, &task, flat(read_u64(&gaps, "gaps")?));
    agg.gap_mean_ns = scatter(n, None, &task, read_f64(&gaps, "mean")?);
    agg.gap_std_ns = scatter(n, None, &task, read_f64(&gaps, "std")?);
    Ok(agg)
}

pub(crate) fn pairs(tables: &Tables) -> PolarsResult<Vec<PairAggregate>> {
    let df = DataFrame::new(
        tables.int_src.len(),
        vec![
            u32_col("src", &tables.int_src),
            u32_col("dst", &tables.int_dst),
            Column::new("kind".into(), tables.int_kind.iter().map(|&k| u32::from(k)).collect::<Vec<_>>()),
            u64_col("bytes", &tables.int_bytes),
        ],
    )?;
    let is = |k: Interaction| col("kind").eq(lit(k as u32));
    let out = df
        .lazy()
        .group_by([col("src"), col("dst")])
        .agg([
            col("kind").filter(is(Interaction::Message)).count().alias("messages"),
            col("bytes").filter(is(Interaction::Message)).sum().alias("bytes"),
            col("kind").filter(is(Interaction::Notification)).count().alias("notifications"),
            col("kind").filter(is(Interaction::Wakeup)).count().alias("wakeups"),
        ])
        .sort(["src", "dst"], SortMultipleOptions::default())
        .collect()?;
    let cols: Vec<Vec<Option<u64>>> = ["src", "dst", "messages", "bytes", "notifications", "wakeups"]
        .iter()
        .map(|c| read_u64(&out, c))
        .collect::<PolarsResult<_>>()?;
    Ok((0..out.height())
        .map(|i| {
            let v = |c: usize| cols[c][i].unwrap_or(0);
            PairAggregate {
                src: v(0) as u32,
                dst: v(1) as u32,
                messages: v(2),
                bytes: v(3),
                notifications: v(4),
                wakeups: v(5),
            }
        })
        .collect())
}

/// Undirected shared-resource affinity: for each pair of tasks using the
/// same semaphore or mutex, the smaller of their take counts, summed over
/// objects. Returns `(a, b, weight, objects)` with `a < b`, sorted.
pub(crate) fn affinities(tables: &Tables) -> PolarsResult<Vec<(u32, u32, u64, u64)>> {
    let df = DataFrame::new(
        tables.take_task.len(),
        vec![u32_col("task", &tables.take_task), u32_col("object", &tables.take_object)],
    )?;
    let uses = df.lazy().group_by([col("task"), col("object")]).agg([col("task").count().alias("takes")]);
    let other = uses.clone().select([col("task").alias("other"), col("object"), col("takes").alias("other_takes")]);
    let out = uses
        .inner_join(other, col("object"), col("object"))
        .filter(col("task").lt(col("other")))
        .with_column(
            when(col("takes").lt(col("other_takes"))).then(col("takes")).otherwise(col("other_takes")).alias("weight"),
        )
        .group_by([col("task"), col("other")])
        .agg([col("weight").sum().alias("weight"), col("object").count().alias("objects")])
        .sort(["task", "other"], SortMultipleOptions::default())
        .collect()?;
    let cols: Vec<Vec<Option<u64>>> =
        ["task", "other", "weight", "objects"].iter().map(|c| read_u64(&out, c)).collect::<PolarsResult<_>>()?;
    Ok((0..out.height())
        .map(|i| {
            let v = |c: usize| cols[c][i].unwrap_or(0);
            (v(0) as u32, v(1) as u32, v(2), v(3))
        })
        .collect())
}
