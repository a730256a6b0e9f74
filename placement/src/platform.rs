//! The target platform: cores, their topology and the balance rule.

use serde::{Deserialize, Serialize};

use crate::CoreId;

/// Default balance tolerance: a core may carry up to 10 % more than an
/// equal share of the load.
pub const DEFAULT_BALANCE_TOLERANCE: f64 = 0.10;

/// A multicore target: `cores` cores, each with a speed relative to the
/// core the trace was recorded on, and a distance between every two cores
/// that scales the cost of traffic between them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "PlatformFields")]
pub struct Platform {
    /// What the platform is, as `--platform` takes it where possible: `2`,
    /// `rp2`, `mesh:8x8`, `clusters:2x4:1,10`, or a platform file's name.
    pub name: String,
    /// Number of cores (at least 1).
    pub cores: CoreId,
    /// Largest utilisation each core may carry (0 ..= 1, default 1.0 each;
    /// `1 − capacity` is the headroom kept free): a core above it cannot
    /// keep up with its tasks.
    pub capacity: Vec<f64>,
    /// Balance tolerance ε: a core's load may exceed an equal share of the
    /// total load by this fraction (default [`DEFAULT_BALANCE_TOLERANCE`]).
    pub balance_tolerance: f64,
    /// Speed of each core relative to the traced core (default 1.0 each):
    /// a task that ran for 10 ms on the traced core needs 5 ms on a core
    /// of speed 2. Balance shares and capacities scale with speed.
    pub speed: Vec<f64>,
    /// What crossing cores costs in the replay.
    pub costs: Costs,
    /// Distance between cores, row-major `cores × cores`, 0 on the
    /// diagonal: traffic between tasks on cores a and b costs
    /// `weight × distance[a][b]`. In JSON, a list of rows.
    #[serde(serialize_with = "rows")]
    pub distance: Vec<u32>,
    /// The kernel's scheduling rules where the platform file states them.
    pub kernel: Kernel,
    /// Whether the platform states its costs (a platform file's `[costs]`,
    /// or a platform read back from JSON): a replay of a recording as
    /// recorded charges them then, and else what the recording shows.
    #[serde(skip)]
    pub costs_stated: bool,
}

/// The kernel's scheduling rules as a platform file states them
/// (`tick_us`, `time_slicing`, `isr_nesting`, `preempted_to_back`,
/// `run_multiple_priorities`) and the firmware's queue lengths
/// (`queue_length`, `[queues]`); each rule left out is what the recording
/// shows or the recorded OS does by default, each length left out
/// unbounded.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Kernel {
    /// The tick period, µs.
    pub tick_us: Option<f64>,
    /// Whether tasks of equal priority take turns at every tick
    /// (FreeRTOS's `configUSE_TIME_SLICING`, Zephyr's `CONFIG_TIMESLICING`).
    pub time_slicing: Option<bool>,
    /// Whether a more urgent ISR preempts a running one (`false`: a pending
    /// ISR waits for the running one to end, as tail-chaining targets do).
    pub isr_nesting: Option<bool>,
    /// Whether a preempted task goes behind the ready tasks of its priority
    /// (FreeRTOS) rather than resuming first among them (Zephyr, POSIX
    /// `SCHED_FIFO`).
    pub preempted_to_back: Option<bool>,
    /// Whether, on several cores, tasks of different priorities run at
    /// once (FreeRTOS SMP's `configRUN_MULTIPLE_PRIORITIES`); `false`: only
    /// tasks of the highest priority ready run, the other cores idle.
    pub run_multiple_priorities: Option<bool>,
    /// How many items every queue holds, where `queues` does not say:
    /// a send to a full queue blocks until a receive makes room.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue_length: Option<u32>,
    /// How many items each named queue holds (the name the recording
    /// gives it: a SystemView or Tracealyzer name, the BTF logger's
    /// address).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub queues: std::collections::BTreeMap<String, u32>,
}

/// The distance matrix as rows.
fn rows<S: serde::Serializer>(distance: &[u32], s: S) -> Result<S::Ok, S::Error> {
    let k = distance.len().isqrt();
    s.collect_seq(distance.chunks(k.max(1)))
}

/// A platform as JSON holds it, checked before it becomes a [`Platform`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlatformFields {
    name: String,
    cores: CoreId,
    capacity: Vec<f64>,
    balance_tolerance: f64,
    speed: Vec<f64>,
    costs: Costs,
    distance: Vec<Vec<u32>>,
    #[serde(default)]
    kernel: Kernel,
}

impl TryFrom<PlatformFields> for Platform {
    type Error = PlatformError;

    fn try_from(f: PlatformFields) -> Result<Platform, PlatformError> {
        let mut p = Platform::from_matrix(&f.distance)?;
        if p.cores != f.cores {
            return Err(PlatformError::File(format!(
                "`cores` is {} but the distance matrix has {} rows",
                f.cores, p.cores
            )));
        }
        p.name = f.name;
        p.capacity = PerCore::List(f.capacity).values("capacity", p.cores, |c| c > 0.0 && c <= 1.0, "(0, 1]")?;
        p.speed = PerCore::List(f.speed).values("speed", p.cores, |s| s > 0.0 && s <= 1000.0, "(0, 1000]")?;
        if !(0.0..=10.0).contains(&f.balance_tolerance) {
            return Err(PlatformError::File(format!("balance {} must be in [0, 10]", f.balance_tolerance)));
        }
        p.balance_tolerance = f.balance_tolerance;
        p.costs = f.costs;
        p.costs_stated = true;
        p.kernel = f.kernel;
        Ok(p)
    }
}

/// What crossing cores costs in the replay, from the platform file
/// (`[costs]`). The defaults are measurements on one named class of part,
/// a dual-core Arm Cortex-A9 MPCore at 667 MHz with a shared 512 KiB L2
/// (Xilinx Zynq-7000); the book's cost-model page gives the source of each
/// figure and how it was derived. Set your part's own in the platform file,
/// and see where the answer changes with `corera simulate --sweep`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Costs {
    /// Latency of a signal (message, event, wakeup) to a task on another
    /// core, an inter-processor interrupt, per unit of core distance, ns
    /// (default 1,310: 876 cycles of mean interrupt latency measured on
    /// that part).
    pub message_latency_ns: u64,
    /// CPU time the receiving core spends taking that interrupt, ns per
    /// signal (default 1,310: the same interrupt entry, spent on the
    /// receiver).
    pub message_cpu_ns: u64,
    /// CPU time on the receiving core per byte a cross-core message
    /// carries, per unit of distance: the cache lines pulled across (default
    /// 0.56 ns, the 1,776 MB/s of that part's central interconnect).
    pub byte_ns: f64,
    /// CPU time a task spends when it resumes on another core than it last
    /// ran on: refilling its cache (default 2,300 ns: a 4 KiB footprint at
    /// `refill_ns_per_byte`).
    pub migration_ns: u64,
    /// Refill time per byte of a task's footprint (default 0.56 ns).
    pub refill_ns_per_byte: f64,
    /// Per-task cache footprint in bytes, by task name: such a task's
    /// migration costs `footprint × refill_ns_per_byte` instead of
    /// `migration_ns`.
    pub footprint_bytes: std::collections::BTreeMap<String, u64>,
    /// CPU time of one decision of a global scheduler (the shared run
    /// queue and its lock), charged each time a task that may run on
    /// several cores is dispatched, ns (default 1,000). Tasks bound to one
    /// core are scheduled by that core alone and pay nothing.
    pub schedule_ns: u64,
    /// Time from a task made ready on its own core to its start there,
    /// when nothing more urgent runs: the kernel's dispatch path (the tick
    /// or PendSV handler, the context switch) that a recording shows only
    /// as this delay, ns. Unset: what the recording shows, when it shows
    /// one steady delay onto an idle core, else 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch_ns: Option<u64>,
    /// CPU time of a context switch on its core: from a task's switch-out
    /// to the next task's switch-in there, a stretch in which no task
    /// runs, charged to the task switched in, ns. Unset: what the
    /// recording shows, where it records ready events (without them that
    /// stretch is the dispatch of a hand-off) and one steady time, else 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_switch_ns: Option<u64>,
    /// Time from a core being told by another to yield to a more urgent
    /// priority (a kernel that runs one priority at a time) to its
    /// switch: the inter-processor interrupt and the critical section it
    /// waits out, ns. Unset: what the recording shows (the spans in which
    /// a lower priority ran beside a higher one), when it
    /// shows one steady time, else `message_latency_ns`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub yield_ns: Option<u64>,
    /// The SMP kernel's lock (`[costs.lock]`): how long each kernel entry
    /// holds it on a target of several cores (none by default: no source
    /// gives one figure; `corera calibrate` fits them to a pair of
    /// recordings).
    #[serde(skip_serializing_if = "KernelLock::is_none")]
    pub lock: KernelLock,
}

/// The SMP kernel's lock: CPU time each kind of kernel entry holds it, ns,
/// on a target of several cores (one core takes no lock: its recording
/// already holds what the single-core kernel spent). A core that needs it
/// while another holds it spins, running, until it is free (FreeRTOS SMP:
/// the task and ISR spinlocks of its critical sections; Zephyr: the
/// scheduler's spinlock).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct KernelLock {
    /// A context switch: the scheduler picks and dispatches a task.
    pub switch_ns: u64,
    /// A send, notify, event set or wake of another task.
    pub signal_ns: u64,
    /// A semaphore or mutex take.
    pub take_ns: u64,
    /// A semaphore or mutex give.
    pub give_ns: u64,
    /// An application event the recorder wrote (the FreeRTOS BTF logger's
    /// interval and tag lines): the logger writes each in a critical
    /// section of the kernel's, so on several cores a traced run holds the
    /// lock for it where the untraced firmware would not.
    pub logged_ns: u64,
}

impl KernelLock {
    /// Whether no entry holds the lock.
    pub fn is_none(&self) -> bool {
        *self == KernelLock::default()
    }
}

impl Default for Costs {
    fn default() -> Costs {
        Costs {
            message_latency_ns: 1_310,
            message_cpu_ns: 1_310,
            byte_ns: 0.56,
            migration_ns: 2_300,
            refill_ns_per_byte: 0.56,
            footprint_bytes: std::collections::BTreeMap::new(),
            schedule_ns: 1_000,
            dispatch_ns: None,
            context_switch_ns: None,
            yield_ns: None,
            lock: KernelLock::default(),
        }
    }
}

impl Costs {
    /// No modelled overheads at all (a recording's execution already
    /// contains what its kernel spent).
    pub fn none() -> Costs {
        Costs {
            message_latency_ns: 0,
            message_cpu_ns: 0,
            byte_ns: 0.0,
            migration_ns: 0,
            refill_ns_per_byte: 0.0,
            footprint_bytes: Default::default(),
            schedule_ns: 0,
            dispatch_ns: None,
            context_switch_ns: None,
            yield_ns: None,
            lock: KernelLock::default(),
        }
    }

    /// The costs `--sweep` can vary (and `corera calibrate` fits some of),
    /// by their `[costs]` names (`lock.` for `[costs.lock]`).
    pub const KEYS: [&'static str; 13] = [
        "message_latency_ns",
        "message_cpu_ns",
        "byte_ns",
        "migration_ns",
        "refill_ns_per_byte",
        "schedule_ns",
        "dispatch_ns",
        "context_switch_ns",
        "lock.switch_ns",
        "lock.signal_ns",
        "lock.take_ns",
        "lock.give_ns",
        "lock.logged_ns",
    ];

    /// The value of cost `key`.
    pub fn get(&self, key: &str) -> Option<f64> {
        Some(match key {
            "message_latency_ns" => self.message_latency_ns as f64,
            "message_cpu_ns" => self.message_cpu_ns as f64,
            "byte_ns" => self.byte_ns,
            "migration_ns" => self.migration_ns as f64,
            "refill_ns_per_byte" => self.refill_ns_per_byte,
            "schedule_ns" => self.schedule_ns as f64,
            "dispatch_ns" => self.dispatch_ns.unwrap_or(0) as f64,
            "context_switch_ns" => self.context_switch_ns.unwrap_or(0) as f64,
            "lock.switch_ns" => self.lock.switch_ns as f64,
            "lock.signal_ns" => self.lock.signal_ns as f64,
            "lock.take_ns" => self.lock.take_ns as f64,
            "lock.give_ns" => self.lock.give_ns as f64,
            "lock.logged_ns" => self.lock.logged_ns as f64,
            _ => return None,
        })
    }

    /// Sets cost `key` to `value` (rounded for the ns fields).
    ///
    /// # Errors
    /// An unknown key or a negative or non-finite value, with the known keys.
    pub fn set(&mut self, key: &str, value: f64) -> Result<(), PlatformError> {
        if !(value >= 0.0 && value.is_finite()) {
            return Err(PlatformError::NegativeCost { key: key.to_string(), value });
        }
        let ns = value.round() as u64;
        match key {
            "message_latency_ns" => self.message_latency_ns = ns,
            "message_cpu_ns" => self.message_cpu_ns = ns,
            "byte_ns" => self.byte_ns = value,
            "migration_ns" => self.migration_ns = ns,
            "refill_ns_per_byte" => self.refill_ns_per_byte = value,
            "schedule_ns" => self.schedule_ns = ns,
            "dispatch_ns" => self.dispatch_ns = Some(ns),
            "context_switch_ns" => self.context_switch_ns = Some(ns),
            "lock.switch_ns" => self.lock.switch_ns = ns,
            "lock.signal_ns" => self.lock.signal_ns = ns,
            "lock.take_ns" => self.lock.take_ns = ns,
            "lock.give_ns" => self.lock.give_ns = ns,
            "lock.logged_ns" => self.lock.logged_ns = ns,
            _ => return Err(PlatformError::UnknownCost(key.to_string())),
        }
        Ok(())
    }

    /// The CPU time a migration of task `name` costs.
    pub fn migration_of(&self, name: &str) -> u64 {
        match self.footprint_bytes.get(name) {
            Some(&bytes) => (bytes as f64 * self.refill_ns_per_byte).round() as u64,
            None => self.migration_ns,
        }
    }
}

/// A platform description that cannot be used.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PlatformError {
    /// A shorthand that is not one of the known forms.
    #[error(
        "unknown platform `{0}`; expected a core count (`4`), `rp2`, `clusters:<count>x<size>[:<near>,<far>]`, \
         `mesh:<rows>x<cols>` or a platform file ending in .toml"
    )]
    Unknown(String),
    /// A platform file with an error.
    #[error("invalid platform file: {0}")]
    File(String),
    /// A model whose hardware cannot be a platform.
    #[error("{0}")]
    Model(String),
    /// A cost set to something that is not a cost.
    #[error("cost {key} = {value}: a cost is a number >= 0")]
    NegativeCost {
        /// The cost.
        key: String,
        /// The value given.
        value: f64,
    },
    /// A cost the platform does not have.
    #[error("unknown cost `{0}`; the costs are {keys}", keys = Costs::KEYS.join(", "))]
    UnknownCost(String),
}

/// A platform file (TOML). Exactly one of `cores`, `clusters`, `mesh` or
/// `distance` says what the cores are.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlatformFile {
    name: Option<String>,
    cores: Option<CoreId>,
    clusters: Option<ClusterSpec>,
    mesh: Option<MeshSpec>,
    distance: Option<Vec<Vec<u32>>>,
    capacity: Option<PerCore>,
    balance: Option<f64>,
    speed: Option<PerCore>,
    costs: Option<Costs>,
    tick_us: Option<f64>,
    time_slicing: Option<bool>,
    isr_nesting: Option<bool>,
    preempted_to_back: Option<bool>,
    run_multiple_priorities: Option<bool>,
    queue_length: Option<u32>,
    queues: Option<std::collections::BTreeMap<String, u32>>,
}

/// One value for every core, or one per core.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum PerCore {
    All(f64),
    List(Vec<f64>),
}

impl PerCore {
    /// The value of each of `cores` cores, each within `range` (shown as
    /// `shown` in the error).
    fn values(
        self,
        what: &str,
        cores: CoreId,
        range: impl Fn(f64) -> bool,
        shown: &str,
    ) -> Result<Vec<f64>, PlatformError> {
        let list = match self {
            PerCore::All(v) => vec![v; usize::from(cores)],
            PerCore::List(list) => list,
        };
        if list.len() != usize::from(cores) {
            return Err(PlatformError::File(format!("{what} lists {} cores but the platform has {cores}", list.len())));
        }
        match list.iter().find(|v| !range(**v)) {
            Some(bad) => Err(PlatformError::File(format!("{what} {bad} must be in {shown}"))),
            None => Ok(list),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClusterSpec {
    count: CoreId,
    size: CoreId,
    #[serde(default = "one")]
    near: u32,
    #[serde(default = "ten")]
    far: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MeshSpec {
    rows: CoreId,
    cols: CoreId,
}

fn one() -> u32 {
    1
}

fn ten() -> u32 {
    10
}

impl Platform {
    /// `cores` identical cores, all at distance 1, default capacity and
    /// tolerance.
    pub fn identical(cores: CoreId) -> Platform {
        assert!(cores >= 1, "a platform has at least one core");
        let k = cores as usize;
        let distance = (0..k * k).map(|i| u32::from(i / k != i % k)).collect();
        Platform {
            name: cores.to_string(),
            cores,
            capacity: vec![1.0; k],
            balance_tolerance: DEFAULT_BALANCE_TOLERANCE,
            distance,
            speed: vec![1.0; k],
            costs: Costs::default(),
            kernel: Kernel::default(),
            costs_stated: false,
        }
    }

    /// `count` clusters of `size` cores: distance `near` inside a cluster,
    /// `far` across (Renesas RP-2: 2 clusters of 4 cores, 1 and 10).
    pub fn clusters(count: CoreId, size: CoreId, near: u32, far: u32) -> Platform {
        let group: Vec<usize> = (0..usize::from(count * size)).map(|c| c / usize::from(size)).collect();
        Platform { name: format!("clusters:{count}x{size}:{near},{far}"), ..Platform::grouped(&group, near, far) }
    }

    /// Cores in groups (`group[c]`: core c's group): distance `near`
    /// inside a group, `far` across; clusters of any sizes.
    pub fn grouped(group: &[usize], near: u32, far: u32) -> Platform {
        let k = group.len();
        let distance = (0..k * k)
            .map(|i| {
                let (a, b) = (i / k, i % k);
                if a == b {
                    0
                } else if group[a] == group[b] {
                    near
                } else {
                    far
                }
            })
            .collect();
        Platform { name: format!("{k} cores in groups"), distance, ..Platform::identical(k as CoreId) }
    }

    /// An Amalthea model's processing units as a platform: speeds relative
    /// to its reference definition, distance 1 within a structure
    /// (cluster) and 2 across.
    ///
    /// # Errors
    /// [`PlatformError::Model`] when the model has no processing units.
    pub fn of_model(model: &corera_trace_ingest::ModelInfo) -> Result<Platform, PlatformError> {
        let cores = &model.cores;
        if cores.is_empty() {
            return Err(PlatformError::Model(
                "the model has no processing units: give the target with --platform (e.g. --platform 2)".into(),
            ));
        }
        let mut clusters: Vec<&str> = Vec::new();
        let group: Vec<usize> = cores
            .iter()
            .map(|c| {
                clusters.iter().position(|&n| n == c.cluster).unwrap_or_else(|| {
                    clusters.push(&c.cluster);
                    clusters.len() - 1
                })
            })
            .collect();
        let mut platform = Platform::grouped(&group, 1, 2);
        platform.name = format!("the model's {} processing units", cores.len());
        platform.speed = cores.iter().map(|c| c.speed).collect();
        Ok(platform)
    }

    /// A `rows × cols` 2-D mesh; distance is the Manhattan hop count
    /// (TILE64's iMesh: 8 × 8). Core `r * cols + c` is at row r, column c.
    pub fn mesh(rows: CoreId, cols: CoreId) -> Platform {
        let cores = rows * cols;
        let k = cores as usize;
        let w = cols as usize;
        let distance = (0..k * k)
            .map(|i| {
                let (a, b) = (i / k, i % k);
                ((a / w).abs_diff(b / w) + (a % w).abs_diff(b % w)) as u32
            })
            .collect();
        Platform { name: format!("mesh:{rows}x{cols}"), distance, ..Platform::identical(cores) }
    }

    /// A platform from an explicit distance matrix.
    ///
    /// # Errors
    /// When the matrix is not square, not symmetric, or has a non-zero
    /// diagonal or a zero off the diagonal.
    pub fn from_matrix(rows: &[Vec<u32>]) -> Result<Platform, PlatformError> {
        let k = rows.len();
        let bad = |m: String| PlatformError::File(m);
        if k == 0 || k > usize::from(CoreId::MAX) {
            return Err(bad("the distance matrix needs 1 or more rows".into()));
        }
        let mut distance = Vec::with_capacity(k * k);
        for (a, row) in rows.iter().enumerate() {
            if row.len() != k {
                return Err(bad(format!("distance row {a} has {} entries; expected {k}", row.len())));
            }
            for (b, &d) in row.iter().enumerate() {
                if (a == b) != (d == 0) {
                    return Err(bad(format!(
                        "distance[{a}][{b}] = {d}: the diagonal must be 0 and other entries positive"
                    )));
                }
                if rows[b][a] != d {
                    return Err(bad(format!("distance[{a}][{b}] = {d} but distance[{b}][{a}] = {}", rows[b][a])));
                }
                distance.push(d);
            }
        }
        Ok(Platform { name: format!("{k} cores (distance matrix)"), distance, ..Platform::identical(k as CoreId) })
    }

    /// Parses a shorthand: `4` (identical cores), `rp2` (2 clusters × 4
    /// cores, distance 1 inside, 10 across), `esp32` (the two identical
    /// cores of an ESP32, ESP32-S3 or ESP32-P4: on two cores every mask is
    /// one core or both, all that ESP-IDF's `xTaskCreatePinnedToCore` can
    /// express), `clusters:2x4[:1,10]`, or `mesh:8x8`.
    ///
    /// # Errors
    /// [`PlatformError::Unknown`] for anything else.
    pub fn parse(spec: &str) -> Result<Platform, PlatformError> {
        let unknown = || PlatformError::Unknown(spec.to_string());
        let pair = |s: &str| -> Option<(CoreId, CoreId)> {
            let (a, b) = s.split_once('x')?;
            let (a, b) = (a.parse().ok()?, b.parse().ok()?);
            (a >= 1 && b >= 1 && u32::from(a) * u32::from(b) <= u32::from(CoreId::MAX)).then_some((a, b))
        };
        if let Ok(n) = spec.parse::<CoreId>() {
            return if n >= 1 { Ok(Platform::identical(n)) } else { Err(unknown()) };
        }
        if spec == "esp32" {
            let mut p = Platform::identical(2);
            p.name = "esp32".into();
            return Ok(p);
        }
        if spec == "rp2" {
            let mut p = Platform::clusters(2, 4, 1, 10);
            p.name = "rp2".into();
            return Ok(p);
        }
        if let Some(rest) = spec.strip_prefix("mesh:") {
            let (r, c) = pair(rest).ok_or_else(unknown)?;
            return Ok(Platform::mesh(r, c));
        }
        if let Some(rest) = spec.strip_prefix("clusters:") {
            let (shape, costs) = rest.split_once(':').unwrap_or((rest, "1,10"));
            let (count, size) = pair(shape).ok_or_else(unknown)?;
            let (near, far) = costs.split_once(',').ok_or_else(unknown)?;
            let (near, far) = (near.parse().map_err(|_| unknown())?, far.parse().map_err(|_| unknown())?);
            if near == 0 || far == 0 {
                return Err(unknown());
            }
            return Ok(Platform::clusters(count, size, near, far));
        }
        Err(unknown())
    }

    /// Reads a platform file (TOML), e.g.
    ///
    /// ```toml
    /// name = "RP-2"
    /// clusters = { count = 2, size = 4, near = 1, far = 10 }
    /// capacity = 0.9   # a core may be at most 90 % busy (or one per core)
    /// speed = [1, 1, 1, 1, 2, 2, 2, 2]   # relative to the traced core (or one for all)
    ///
    /// tick_us = 1000        # the kernel's tick (default: the recording's)
    /// time_slicing = true   # equal priorities take turns at each tick
    /// isr_nesting = false   # a pending ISR waits for the running one
    /// preempted_to_back = true   # a preempted task goes behind its equals
    /// run_multiple_priorities = true   # several priorities at once on several cores
    /// queue_length = 4   # every queue holds 4 items: a send to a full one blocks
    ///
    /// [queues]           # a length per queue, by its name in the recording
    /// "0x80007740" = 8
    ///
    /// [costs]            # of crossing cores in the replay
    /// message_latency_ns = 1000
    /// byte_ns = 0.25
    /// migration_ns = 2000
    /// balance = 0.05
    /// ```
    ///
    /// # Errors
    /// [`PlatformError::File`] naming the problem.
    pub fn from_toml(text: &str) -> Result<Platform, PlatformError> {
        let f: PlatformFile = toml::from_str(text).map_err(|e| PlatformError::File(e.to_string()))?;
        let given = [f.cores.is_some(), f.clusters.is_some(), f.mesh.is_some(), f.distance.is_some()];
        if given.iter().filter(|g| **g).count() != 1 {
            return Err(PlatformError::File("give exactly one of `cores`, `clusters`, `mesh` or `distance`".into()));
        }
        let mut p = match (f.cores, f.clusters, f.mesh, f.distance) {
            (Some(n), ..) if n >= 1 => Platform::identical(n),
            (_, Some(c), ..) if c.count >= 1 && c.size >= 1 && c.near >= 1 && c.far >= 1 => {
                Platform::clusters(c.count, c.size, c.near, c.far)
            }
            (_, _, Some(m), _) if m.rows >= 1 && m.cols >= 1 => Platform::mesh(m.rows, m.cols),
            (_, _, _, Some(rows)) => Platform::from_matrix(&rows)?,
            _ => return Err(PlatformError::File("core counts, cluster sizes and distances must be positive".into())),
        };
        if let Some(name) = f.name {
            p.name = name;
        }
        if let Some(spec) = f.capacity {
            p.capacity = spec.values("capacity", p.cores, |c| c > 0.0 && c <= 1.0, "(0, 1]")?;
        }
        if let Some(b) = f.balance {
            if !(0.0..=10.0).contains(&b) {
                return Err(PlatformError::File(format!("balance {b} must be in [0, 10]")));
            }
            p.balance_tolerance = b;
        }
        if let Some(costs) = f.costs {
            for (key, v) in [("byte_ns", costs.byte_ns), ("refill_ns_per_byte", costs.refill_ns_per_byte)] {
                if !(v >= 0.0 && v.is_finite()) {
                    return Err(PlatformError::File(format!("costs.{key} {v} must be >= 0")));
                }
            }
            p.costs = costs;
            p.costs_stated = true;
        }
        if let Some(spec) = f.speed {
            p.speed = spec.values("speed", p.cores, |s| s > 0.0 && s <= 1000.0, "(0, 1000]")?;
        }
        if let Some(tick) = f.tick_us
            && !(1.0..=10_000_000.0).contains(&tick)
        {
            return Err(PlatformError::File(format!("tick_us {tick} must be in [1, 10000000] (1 µs to 10 s)")));
        }
        let queues = f.queues.unwrap_or_default();
        let empty = (f.queue_length == Some(0)).then(|| "queue_length".to_string());
        if let Some(key) = empty.or_else(|| queues.iter().find(|q| *q.1 == 0).map(|q| format!("queues.\"{}\"", q.0))) {
            return Err(PlatformError::File(format!("{key} = 0: a queue holds at least one item")));
        }
        p.kernel = Kernel {
            tick_us: f.tick_us,
            time_slicing: f.time_slicing,
            isr_nesting: f.isr_nesting,
            preempted_to_back: f.preempted_to_back,
            run_multiple_priorities: f.run_multiple_priorities,
            queue_length: f.queue_length,
            queues,
        };
        Ok(p)
    }

    /// The platform file (TOML) that [`Platform::from_toml`] reads back as
    /// this platform: its cores (`cores`, or the `distance` rows), the
    /// capacities, speeds and balance, the kernel's rules it states, and
    /// every cost.
    pub fn to_toml(&self) -> String {
        #[derive(Serialize)]
        struct Costs<'a> {
            costs: &'a crate::Costs,
        }
        let k = self.cores as usize;
        let mut s = format!("name = {:?}\n", self.name);
        if self.distance == Platform::identical(self.cores).distance {
            s += &format!("cores = {}\n", self.cores);
        } else {
            let rows: Vec<String> = self.distance.chunks(k).map(|r| format!("{r:?}")).collect();
            s += &format!("distance = [{}]\n", rows.join(", "));
        }
        s += &format!(
            "capacity = {:?}\nspeed = {:?}\nbalance = {:?}\n",
            self.capacity, self.speed, self.balance_tolerance
        );
        let kernel = toml::to_string(&self.kernel).expect("the kernel's rules are TOML");
        s += &kernel;
        s += "\n";
        s += &toml::to_string(&Costs { costs: &self.costs }).expect("the costs are TOML");
        if !s.ends_with('\n') {
            s.push('\n');
        }
        s
    }

    /// A description for people: `2 identical cores`, `rp2 (8 cores)`.
    pub fn describe(&self) -> String {
        if self.is_uniform() && self.name == self.cores.to_string() {
            format!("{} identical cores", self.cores)
        } else {
            format!("{} ({} cores)", self.name, self.cores)
        }
    }

    /// Distance between cores `a` and `b`.
    pub fn distance(&self, a: usize, b: usize) -> u64 {
        u64::from(self.distance[a * self.cores as usize + b])
    }

    /// Whether all distances between distinct cores are equal.
    pub fn is_uniform(&self) -> bool {
        let k = self.cores as usize;
        let first = if k > 1 { self.distance[1] } else { 0 };
        (0..k * k).all(|i| i / k == i % k || self.distance[i] == first)
    }

    /// Whether all cores are interchangeable (equal distances and equal
    /// speeds), so that placements differing by a renaming of cores are
    /// the same.
    pub fn is_symmetric(&self) -> bool {
        self.is_uniform() && self.speed.iter().all(|&s| s == self.speed[0])
    }

    /// Whether the cores differ in speed.
    pub fn is_heterogeneous(&self) -> bool {
        !self.speed.iter().all(|&s| s == self.speed[0])
    }

    /// The balance limit for a total load on identical cores:
    /// `floor((1 + ε) · ceil(total / k))` (Walshaw's rule, as used by METIS
    /// and KaHIP).
    pub fn balance_limit(&self, total_load: u64) -> u64 {
        let share = total_load.div_ceil(u64::from(self.cores));
        ((1.0 + self.balance_tolerance) * share as f64).floor() as u64
    }

    /// The most load (in ns of the traced core) each core can carry and
    /// keep up: its capacity over the horizon (`capacity × speed ×
    /// horizon`; no cap when the horizon is 0), whatever the balance.
    pub fn capacity_limits(&self, horizon_ns: u64) -> Vec<u64> {
        self.speed
            .iter()
            .zip(&self.capacity)
            .map(
                |(&s, &capacity)| {
                    if horizon_ns == 0 { u64::MAX } else { (capacity * s * horizon_ns as f64).floor() as u64 }
                },
            )
            .collect()
    }

    /// The most load (in ns of the traced core) each core may carry before
    /// it counts as overloaded: its balance share (Walshaw's rule, the
    /// share proportional to its speed), and never more than its capacity
    /// over the horizon (`capacity × speed × horizon`; no cap when the
    /// horizon is 0).
    pub fn core_limits(&self, total_load: u64, horizon_ns: u64) -> Vec<u64> {
        let total_speed: f64 = self.speed.iter().sum();
        self.speed
            .iter()
            .zip(&self.capacity)
            .map(|(&s, &capacity)| {
                let balance = if self.is_heterogeneous() {
                    let share = (total_load as f64 * s / total_speed).ceil();
                    ((1.0 + self.balance_tolerance) * share).floor() as u64
                } else {
                    self.balance_limit(total_load)
                };
                if horizon_ns == 0 { balance } else { balance.min((capacity * s * horizon_ns as f64).floor() as u64) }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorthands_build_the_expected_distances() {
        let rp2 = Platform::parse("rp2").unwrap();
        assert_eq!(rp2.cores, 8);
        assert_eq!((rp2.distance(0, 3), rp2.distance(0, 4), rp2.distance(5, 7), rp2.distance(2, 2)), (1, 10, 1, 0));
        assert!(!rp2.is_uniform());
        let mesh = Platform::parse("mesh:8x8").unwrap();
        assert_eq!(mesh.cores, 64);
        assert_eq!((mesh.distance(0, 63), mesh.distance(9, 18), mesh.distance(7, 8)), (14, 2, 8));
        let four = Platform::parse("4").unwrap();
        assert!(four.is_uniform());
        let esp32 = Platform::parse("esp32").unwrap();
        assert_eq!((esp32.cores, esp32.name.as_str(), esp32.is_uniform()), (2, "esp32", true));
        assert_eq!(four.distance(1, 2), 1);
        assert_eq!(Platform::parse("clusters:3x2:2,5").unwrap().distance(0, 2), 5);
        for bad in ["0", "mesh:0x3", "clusters:2x4:0,1", "torus:4", ""] {
            assert!(Platform::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn replay_costs_come_from_the_file_with_defaults() {
        let p = Platform::from_toml("cores = 2\n[costs]\nmigration_ns = 500\n").unwrap();
        assert_eq!(p.costs, Costs { migration_ns: 500, ..Costs::default() });
        let p =
            Platform::from_toml("cores = 2\n[costs]\nrefill_ns_per_byte = 0.5\n[costs.footprint_bytes]\nFft = 65536\n")
                .unwrap();
        assert_eq!((p.costs.migration_of("Fft"), p.costs.migration_of("Other")), (32_768, 2_300));
        let mut c = Costs::default();
        c.set("schedule_ns", 2500.4).unwrap();
        assert_eq!(c.get("schedule_ns"), Some(2500.0));
        let unknown = c.set("latency", 1.0).unwrap_err();
        assert!(matches!(&unknown, PlatformError::UnknownCost(k) if k == "latency"));
        assert!(unknown.to_string().contains("message_latency_ns, message_cpu_ns"), "{unknown}");
        assert!(matches!(c.set("byte_ns", -1.0), Err(PlatformError::NegativeCost { .. })));
        let e = Platform::from_toml("cores = 2\n[costs]\nlatency = 5\n").unwrap_err().to_string();
        assert!(e.contains("unknown field `latency`"), "{e}");
    }

    /// What `corera calibrate -o` writes reads back as the same platform:
    /// identical cores and a topology, the kernel's lock, a footprint, the
    /// kernel's rules.
    #[test]
    fn a_platform_written_as_a_file_reads_back_the_same() {
        let mut two = Platform::identical(2);
        two.costs.set("lock.switch_ns", 64_000.0).unwrap();
        two.costs.set("dispatch_ns", 4_000.0).unwrap();
        two.costs.footprint_bytes.insert("Fft".into(), 65_536);
        two.kernel.run_multiple_priorities = Some(false);
        two.kernel.queue_length = Some(4);
        two.kernel.queues.insert("0x80007740".into(), 8);
        let mut rp2 = Platform::parse("rp2").unwrap();
        rp2.speed[5] = 2.0;
        rp2.capacity[0] = 0.75;
        for p in [two, rp2, Platform::parse("mesh:2x3").unwrap()] {
            let text = p.to_toml();
            let back = Platform::from_toml(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            // The file states every cost.
            assert!(back.costs_stated && !p.costs_stated);
            assert_eq!(back, Platform { costs_stated: true, ..p }, "{text}");
        }
        let text = Platform::identical(2).to_toml();
        assert!(text.contains("cores = 2\n") && !text.contains("[costs.lock]"), "{text}");
    }

    #[test]
    fn kernel_rules_come_from_the_file_and_are_checked() {
        let p = Platform::from_toml(
            "cores = 2\ntick_us = 1000\ntime_slicing = true\nisr_nesting = false\npreempted_to_back = true\n\
             run_multiple_priorities = false\n",
        )
        .unwrap();
        let want = Kernel {
            tick_us: Some(1000.0),
            time_slicing: Some(true),
            isr_nesting: Some(false),
            preempted_to_back: Some(true),
            run_multiple_priorities: Some(false),
            ..Kernel::default()
        };
        assert_eq!(p.kernel, want);
        assert_eq!(Platform::from_toml("cores = 2\n").unwrap().kernel, Kernel::default());
        for bad in ["tick_us = 0", "tick_us = -5", "tick_us = 2e7"] {
            let e = Platform::from_toml(&format!("cores = 2\n{bad}\n")).unwrap_err().to_string();
            assert!(e.contains("tick_us") && e.contains("[1, 10000000]"), "{bad}: {e}");
        }
        let e = Platform::from_toml("cores = 2\ntime_slicing = \"yes\"\n").unwrap_err().to_string();
        assert!(e.contains("time_slicing") || e.contains("bool"), "{e}");
        // A saved analysis's platform (JSON) keeps them.
        let json = serde_json::to_string(&p).unwrap();
        let back: Platform = serde_json::from_str(&json).unwrap();
        assert_eq!(back.kernel, p.kernel);
    }

    /// Queue lengths: one for all, one per named queue, never 0.
    #[test]
    fn queue_lengths_come_from_the_file_and_are_checked() {
        let p = Platform::from_toml("cores = 2\nqueue_length = 4\n[queues]\n\"0x80007740\" = 8\n").unwrap();
        assert_eq!(p.kernel.queue_length, Some(4));
        assert_eq!(p.kernel.queues.get("0x80007740"), Some(&8));
        for bad in ["queue_length = 0", "[queues]\nq1 = 0"] {
            let e = Platform::from_toml(&format!("cores = 2\n{bad}\n")).unwrap_err().to_string();
            assert!(e.contains("at least one item"), "{bad}: {e}");
        }
        let e = Platform::from_toml("cores = 2\nqueue_length = -1\n").unwrap_err().to_string();
        assert!(e.contains("queue_length"), "{e}");
    }

    #[test]
    fn heterogeneous_cores_share_load_by_speed() {
        let p = Platform::from_toml("cores = 2\nspeed = [1.0, 3.0]\nbalance = 0.0\ncapacity = 0.5\n").unwrap();
        assert!(p.is_heterogeneous() && !p.is_symmetric() && p.is_uniform());
        // Shares 25 and 75 of 100; capacity 0.5 x speed x horizon 100 caps core 0 at 50.
        assert_eq!(p.core_limits(100, 0), vec![25, 75]);
        assert_eq!(p.core_limits(100, 100), vec![25, 75]);
        assert_eq!(p.core_limits(400, 100), vec![50, 150]);
        let same = Platform::identical(3);
        assert_eq!(same.core_limits(100, 1000), vec![same.balance_limit(100); 3]);
    }

    #[test]
    fn platform_files() {
        let p = Platform::from_toml(
            "name = \"RP-2\"\nclusters = { count = 2, size = 4 }\ncapacity = 0.9\nbalance = 0.05\n",
        )
        .unwrap();
        assert_eq!((p.name.as_str(), p.cores, p.capacity[7], p.balance_tolerance), ("RP-2", 8, 0.9, 0.05));
        // Core 0 takes the interrupts: keep half of it free.
        let q = Platform::from_toml("cores = 2\ncapacity = [0.5, 1.0]\nbalance = 1.0\n").unwrap();
        assert_eq!(q.core_limits(100, 100), vec![50, 100]);
        // One speed for all cores: slower, but still interchangeable.
        let slow = Platform::from_toml(
            "mesh = { rows = 2, cols = 2 }
speed = 0.25
capacity = 0.8
",
        )
        .unwrap();
        assert_eq!(slow.speed, vec![0.25; 4]);
        assert!(!slow.is_heterogeneous());
        assert_eq!(slow.core_limits(400, 1000), vec![110, 110, 110, 110], "balance share, then 0.8 x 0.25 x 1000");
        assert_eq!(slow.core_limits(4000, 1000), vec![200; 4]);
        assert_eq!(p.distance(0, 4), 10);
        let m = Platform::from_toml("distance = [[0, 2, 5], [2, 0, 1], [5, 1, 0]]\n").unwrap();
        assert_eq!((m.cores, m.distance(0, 2)), (3, 5));
        for (text, want) in [
            ("cores = 2\nmesh = { rows = 2, cols = 2 }\n", "exactly one of"),
            ("distance = [[0, 2], [3, 0]]\n", "distance[0][1] = 2 but distance[1][0] = 3"),
            ("distance = [[1, 2], [2, 0]]\n", "the diagonal must be 0"),
            ("cores = 2\ncapacity = 1.5\n", "capacity 1.5 must be in (0, 1]"),
            ("cores = 2\ncapacity = [0.5]\n", "capacity lists 1 cores but the platform has 2"),
            ("cores = 2\nspeed = [1.0]\n", "speed lists 1 cores but the platform has 2"),
            ("cores = 2\nspeed = [1.0, 0.0]\n", "speed 0 must be in (0, 1000]"),
            ("cores = 2\nspeeds = [1.0, 1.0]\n", "unknown field `speeds`"),
        ] {
            let e = Platform::from_toml(text).unwrap_err().to_string();
            assert!(e.contains(want), "got {e}\nwant {want}");
        }
    }
}
