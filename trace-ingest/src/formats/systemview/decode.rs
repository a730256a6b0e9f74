//! One recording's files into the trace model: the layout of each file,
//! each stream decoded on its own clock ([`super::stream`]), the OS's API
//! table chosen from the system description ([`super::os`]), the packets
//! merged in time order across cores and given meaning
//! ([`super::build`]).

use rustc_hash::FxHashMap as HashMap;

use super::build::Decoder;
use super::layout::{self, Stream};
use super::os::Api;
use super::packet::Packet;
use super::stream::{Decoded, Timed, decode_stream, fail};
use crate::error::{ParseError, ParseErrorKind};
use crate::{Parsed, ReadOptions, Warning};

/// One input file.
pub(super) struct File<'a> {
    pub(super) path: &'a str,
    pub(super) bytes: &'a [u8],
}

/// Decodes the files of one recording (one file, or one file per core).
pub(super) fn decode(files: &[File], options: &ReadOptions) -> Result<Parsed, ParseError> {
    let mut warnings = Vec::new();
    let mut notes = Vec::new();
    let (streams, espressif) = streams_of(files, &mut notes)?;
    let multicore = streams.len() > 1 || streams.iter().any(|(_, s)| s.core.is_none());
    let mut decoded = Vec::new();
    for &(f, stream) in &streams {
        decoded.push(decode_stream(files[f].path, stream, &mut warnings)?);
    }
    let System { api, os, isr_names } = system(&decoded, options, espressif, &mut notes, &mut warnings)?;
    let cores = streams.len().max(if multicore { 2 } else { 1 });
    if multicore {
        notes.push(format!("{cores} cores, one stream each merged on their common timebase"));
    }
    let mut d = Decoder::new(api, os.as_deref(), isr_names, multicore);
    let mut gaps = Vec::new();
    let all = merged(&mut decoded, &mut gaps);
    for (now, t) in all {
        d.apply(t.core, t.packet, now);
    }
    if decoded.iter().any(|s| s.sessions > 1) {
        let n: Vec<String> = decoded.iter().map(|s| s.sessions.to_string()).collect();
        warnings.push(Warning {
            line: None,
            message: format!(
                "the recording holds several start/stop sessions ({} per stream); the time between them is not counted",
                n.join(", ")
            ),
        });
    }
    let mut parsed = d.finish(warnings, decoded.iter().map(|s| s.overflows).sum(), &gaps);
    parsed.notes = notes;
    Ok(parsed)
}

/// The streams of the files (with the index of the file each is in and
/// its core), whether Espressif wrote them, and a note per file of what
/// its header says.
fn streams_of<'a>(files: &[File<'a>], notes: &mut Vec<String>) -> Result<(Vec<(usize, Stream<'a>)>, bool), ParseError> {
    let mut streams: Vec<(usize, Stream)> = Vec::new();
    let mut espressif = false;
    for (f, file) in files.iter().enumerate() {
        let header = layout::header(file.bytes);
        espressif |= header.fields.iter().any(|(k, v)| k == "Author" && v.contains("Espressif"));
        let found = layout::streams(file.bytes, &header).map_err(|e| fail(file.path, 0, "a valid header", e))?;
        if files.len() > 1 && (found.len() > 1 || header.esp_extension) {
            return Err(fail(
                file.path,
                0,
                "one stream per file when several files are given",
                "a file holding several cores' streams: give it alone".to_string(),
            ));
        }
        if !header.fields.is_empty() {
            let said: Vec<String> = header
                .fields
                .iter()
                .filter(|(k, _)| k != "Offset")
                .map(|(k, v)| if v.is_empty() { k.clone() } else { format!("{k} {v}") })
                .collect();
            notes.push(format!("{}: {}", file.path, said.join("; ")));
        }
        for s in found {
            let core = if files.len() > 1 { Some(f as u16) } else { s.core };
            streams.push((f, Stream { core, ..s }));
        }
    }
    Ok((streams, espressif))
}

/// What the system description says.
struct System {
    /// The OS's API table, when corera has one.
    api: Option<Api>,
    /// The OS named (`O=`).
    os: Option<String>,
    /// ISR names by number (`I#15=SysTick`).
    isr_names: HashMap<u32, String>,
}

/// The OS and its API table, from the system description (`N=name,
/// D=device,O=OS` and `I#15=SysTick`, in any SYSDESC packets) or the
/// user's description file; the OS's name and the ISRs' names.
fn system(
    decoded: &[Decoded],
    options: &ReadOptions,
    espressif: bool,
    notes: &mut Vec<String>,
    warnings: &mut Vec<Warning>,
) -> Result<System, ParseError> {
    let descs: Vec<&str> = decoded
        .iter()
        .flat_map(|d| d.packets.iter())
        .filter_map(|t| if let Packet::SysDesc(s) = &t.packet { Some(s.as_str()) } else { None })
        .collect();
    let parts = || descs.iter().flat_map(|d| d.split(',')).map(str::trim);
    let field = |key: &str| -> Option<String> { parts().find_map(|kv| kv.strip_prefix(key).map(str::to_string)) };
    let isr_names: HashMap<u32, String> = parts()
        .filter_map(|kv| kv.strip_prefix("I#")?.split_once('='))
        .filter_map(|(irq, name)| Some((irq.parse().ok()?, name.to_string())))
        .collect();
    let os = field("O=");
    let device = field("D=").unwrap_or_default();
    let api = match (&options.sysview_desc, &os) {
        (Some(path), _) => Some(read_description(path)?),
        (None, Some(os)) => Api::built_in(os, &device, espressif),
        (None, None) => {
            warnings.push(Warning {
                line: None,
                message: "the recording names no OS (no `O=` in its system description); its API calls are read as SEGGER's FreeRTOS glue numbers them (--sysview-desc FILE reads another OS's description)".into(),
            });
            Api::built_in("FreeRTOS", &device, espressif)
        }
    };
    let os_name = os.clone().unwrap_or_else(|| "FreeRTOS".into());
    match &api {
        Some(api) => notes.push(format!("OS {os_name}: API calls read with {} ({})", api.os, api.source)),
        None => warnings.push(Warning {
            line: None,
            message: format!(
                "the recording's OS is {os_name}, for which corera has no table of API calls (built in: FreeRTOS, ESP-IDF FreeRTOS, Zephyr): its API events are skipped, so no messages or wakeups between tasks are read; --sysview-desc FILE reads its SYSVIEW_{}.txt",
                os_name.split_whitespace().next().unwrap_or("OS")
            ),
        }),
    }
    Ok(System { api, os, isr_names })
}

/// Every stream's packets in time order (ns; ties keep stream order: the
/// sort is stable); the stretches the streams do not cover go to `gaps`,
/// in ns.
fn merged(decoded: &mut [Decoded], gaps: &mut Vec<(u64, u64)>) -> Vec<(u64, Timed)> {
    let mut all: Vec<(u64, Timed)> = Vec::new();
    for s in decoded.iter_mut() {
        let frequency = s.frequency.max(1);
        let ns =
            |ticks: u64| u64::try_from(u128::from(ticks) * 1_000_000_000 / u128::from(frequency)).unwrap_or(u64::MAX);
        for t in s.packets.drain(..) {
            all.push((ns(t.ticks), t));
        }
        gaps.extend(s.gaps.iter().map(|&(a, b)| (ns(a), ns(b))));
    }
    all.sort_by_key(|&(ns, _)| ns);
    all
}

/// Reads a user's `SYSVIEW_<OS>.txt`.
fn read_description(path: &std::path::Path) -> Result<Api, ParseError> {
    let shown = path.display().to_string();
    let text = std::fs::read(path).map_err(|e| ParseError {
        path: shown.clone(),
        line: 1,
        column: 1,

        format: super::NAME,
        kind: ParseErrorKind::Io(e),
    })?;
    let text = String::from_utf8_lossy(&text);
    let os = path
        .file_stem()
        .and_then(|s| s.to_str())
        .and_then(|s| s.strip_prefix("SYSVIEW_"))
        .unwrap_or("the described OS")
        .to_string();
    Api::parse(&text, &os, &format!("--sysview-desc {shown}")).map_err(|(line, message)| ParseError {
        path: shown.clone(),
        line: line as u64,
        column: 1,

        format: "SystemView description",
        kind: ParseErrorKind::Expected { expected: "a SystemView description file".into(), found: message },
    })
}
