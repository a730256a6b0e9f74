//! Calibrating: the costs that make a single-core recording, replayed under
//! global SMP on the cores of a multi-core recording of the same firmware,
//! reproduce that recording ([`corera_replay::calibrate`] fits them).

use corera_emit::records::CalibrateRecord;
use corera_replay::calibrate::{Reference, fit};
use corera_trace_ingest::Warning;

use crate::error::{Result, usage};
use crate::options::{Input, Options};
use crate::prepare::prepare;

/// A fit, and the warnings of reading both recordings.
pub struct Calibration {
    /// What `calibrate --json` prints.
    pub record: CalibrateRecord,
    /// The single-core recording's warnings, then the multi-core one's,
    /// each with its file's name.
    pub warnings: Vec<(String, Vec<Warning>)>,
}

/// Fits the costs of `options`' platform (its costs the start; its cores
/// those `multi` ran on) so that `single` replayed on it comes closest to
/// `multi`.
///
/// # Errors
/// Reading either fails; `single` ran on several cores or `multi` on one;
/// a platform with another core count than `multi`'s.
pub fn calibrate(single: &Input, multi: &Input, options: &Options) -> Result<Calibration> {
    let m = prepare(multi, options)?;
    let cores = m.schedule.cores;
    if cores < 2 {
        return Err(usage(format!(
            "{}: recorded on one core; calibrate fits a replay to a recording of several cores (give it second)",
            m.name
        )));
    }
    let s = prepare(single, &Options { cores: cores as u16, ..options.clone() })?;
    if s.schedule.cores > 1 {
        return Err(usage(format!(
            "{}: recorded on {} cores; calibrate replays a single-core recording (give it first)",
            s.name, s.schedule.cores
        )));
    }
    if usize::from(s.platform.cores) != cores {
        return Err(usage(format!(
            "the platform has {} cores and {} ran on {cores}: calibrate fits the costs of the cores recorded",
            s.platform.cores, m.name
        )));
    }
    let (workload, _) = s.workload()?;
    let reference = Reference::of(&m.parsed.trace, &m.schedule);
    let f = fit(&workload, &s.platform, &reference);
    let mut platform = s.platform.clone();
    platform.costs = f.costs;
    let record = CalibrateRecord {
        schema_version: corera_emit::records::SCHEMA_VERSION,
        corera_version: corera_emit::VERSION.to_string(),
        single: s.input(),
        multi: m.input(),
        platform,
        good: f.after.good(),
        before: f.before,
        after: f.after,
        replays: f.replays,
        releases_from_switches: [&s, &m]
            .iter()
            .filter(|p| p.releases_from_switches())
            .map(|p| p.name.clone())
            .collect(),
    };
    Ok(Calibration { record, warnings: vec![(s.name.clone(), s.warnings), (m.name.clone(), m.warnings)] })
}
