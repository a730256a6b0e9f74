//! One stream's packets, decoded and timed on the stream's own clock,
//! skipping what does not decode with a warning that says where, why and
//! what share of the stream the figures rest on.
//!
//! The first `TRACE_START` of a stream is time 0 of that stream, as
//! ESP-IDF's decoder takes it: the streams of one recording's cores start
//! together.

use super::layout::Stream;
use super::packet::{Cursor, Cut, Packet, SYNC};
use crate::Warning;
use crate::error::{ParseError, ParseErrorKind};

/// A time delta larger than this (in seconds of the stream's timebase) is
/// taken for damage: SystemView's RTOS glue records at least the tick
/// interrupt or the idle loop long before.
const MAX_DELTA_S: u64 = 10;

/// A packet on its stream's clock.
pub(super) struct Timed {
    pub(super) ticks: u64,
    pub(super) core: u16,
    pub(super) packet: Packet,
}

/// What one stream held.
pub(super) struct Decoded {
    pub(super) packets: Vec<Timed>,
    pub(super) frequency: u64,
    /// Byte ranges that did not decode: file offset, length, why.
    pub(super) skipped: Vec<(usize, usize, String)>,
    pub(super) overflows: u64,
    pub(super) sessions: u32,
    /// Stretches on the stream's clock (ticks) it does not cover: packets
    /// the target dropped (from the packet before an `OVERFLOW` to it), and
    /// the time between a `TRACE_STOP` and the next `TRACE_START`.
    pub(super) gaps: Vec<(u64, u64)>,
}

pub(super) fn fail(path: &str, byte: usize, expected: &str, found: String) -> ParseError {
    ParseError::at_byte(
        path,
        super::NAME,
        byte as u64,
        ParseErrorKind::Expected { expected: expected.to_string(), found },
    )
}

/// Decodes one stream's packets on its own clock, skipping what does not
/// decode (with a warning that says where and how much).
pub(super) fn decode_stream(path: &str, stream: Stream, warnings: &mut Vec<Warning>) -> Result<Decoded, ParseError> {
    let b = stream.bytes;
    let mut out =
        Decoded { packets: Vec::new(), frequency: 0, skipped: Vec::new(), overflows: 0, sessions: 0, gaps: Vec::new() };
    let Some(start) = b.windows(SYNC.len()).position(|w| w == SYNC) else {
        return Err(fail(
            path,
            stream.start + b.len(),
            "a SystemView stream: the sync sequence of ten zero bytes",
            format!("none in the stream's {} bytes from byte {}", b.len(), stream.start),
        ));
    };
    if start > 0 {
        warnings.push(Warning {
            line: None,
            message: format!(
                "{path}: {start} bytes before the first sync sequence (byte {}) skipped",
                stream.start + start
            ),
        });
    }
    let mut cursor = Cursor::new(b, stream.core.is_none());
    cursor.pos = start;
    let mut clock = Clock::default();
    while cursor.pos < b.len() {
        let at = cursor.pos;
        let packet = match cursor.packet() {
            Ok(p) if out.frequency > 0 && u64::from(p.delta) > MAX_DELTA_S * out.frequency => Err((Cut, Some(p.delta))),
            Ok(p) => Ok(p),
            Err(c) => Err((c, None)),
        };
        match packet {
            Ok(p) => {
                let ticks = clock.advance(&p.packet, p.delta, &mut out);
                let core = p.core.or(stream.core).unwrap_or(0);
                out.packets.push(Timed { ticks, core, packet: p.packet });
            }
            Err((Cut, delta)) => match resync(&stream, at, delta, &mut out) {
                Some(n) => cursor.pos = n,
                None => break,
            },
        }
    }
    if out.frequency == 0 && !out.packets.is_empty() {
        return Err(fail(path, stream.start + start, "an INIT packet giving the timestamp frequency", "none".into()));
    }
    report_skipped(path, &stream, &out, warnings);
    Ok(out)
}

/// A stream's clock: ticks since its first `TRACE_START`, the stops and
/// restarts between sessions, and the target's drop count so far.
#[derive(Default)]
struct Clock {
    ticks: u64,
    started: bool,
    stopped_at: Option<u64>,
    last_drops: u64,
}

impl Clock {
    /// Moves the clock by one packet's delta and records what the packet
    /// says about sessions, the frequency, gaps and drops; returns the
    /// packet's time in ticks.
    fn advance(&mut self, packet: &Packet, delta: u32, out: &mut Decoded) -> u64 {
        let delta = u64::from(delta);
        match packet {
            Packet::TraceStart if !self.started => {
                self.started = true;
                self.ticks = 0;
                out.sessions += 1;
            }
            Packet::TraceStart => {
                self.ticks += delta;
                out.sessions += 1;
                if let Some(stop) = self.stopped_at.take() {
                    out.gaps.push((stop, self.ticks));
                }
            }
            Packet::TraceStop => {
                self.ticks += delta;
                self.stopped_at = Some(self.ticks);
            }
            Packet::Init { frequency } if out.frequency == 0 => {
                out.frequency = u64::from(*frequency);
                self.ticks += delta;
            }
            Packet::Overflow(n) => {
                // The target's drop count so far (SEGGER_SYSVIEW.c never
                // resets it while recording): what is new since the last
                // overflow packet, or all of it after a restart.
                let n = u64::from(*n);
                out.overflows += if n >= self.last_drops { n - self.last_drops } else { n };
                self.last_drops = n;
                let before = self.ticks;
                self.ticks += delta;
                out.gaps.push((before, self.ticks));
            }
            _ => self.ticks += delta,
        }
        self.ticks
    }
}

/// Notes the bytes from `at` that do not decode (and why) and returns where
/// decoding goes on: the next sync sequence, if any.
fn resync(stream: &Stream, at: usize, delta: Option<u32>, out: &mut Decoded) -> Option<usize> {
    let b = stream.bytes;
    let next = b[at + 1..].windows(SYNC.len()).position(|w| w == SYNC).map(|p| p + at + 1);
    let end = next.unwrap_or(b.len());
    let why = match delta {
        Some(d) => format!(
            "a packet advancing the clock by {:.0} s, longer than a recording goes without an event",
            d as f64 / out.frequency as f64
        ),
        None if next.is_none() && end - at < 64 => "a packet cut by the end of the input".to_string(),
        None => "bytes that are no SystemView packet".to_string(),
    };
    out.skipped.push((stream.start + at, end - at, why));
    next
}

/// One warning per stream for what did not decode: where, why, and the
/// share of the stream the figures rest on.
fn report_skipped(path: &str, stream: &Stream, out: &Decoded, warnings: &mut Vec<Warning>) {
    let Some((first, _, why)) = out.skipped.first() else { return };
    let lost: usize = out.skipped.iter().map(|s| s.1).sum();
    let total = stream.bytes.len().max(1);
    let core = stream.core.map_or(String::new(), |c| format!(" (core {c})"));
    let places = if out.skipped.len() == 1 { "one place".to_string() } else { format!("{} places", out.skipped.len()) };
    warnings.push(Warning {
        line: None,
        message: format!(
            "{path}{core}: {lost} bytes in {places} did not decode, the first at byte {first}: {why}; decoding went on at the next sync sequence, so the figures rest on {:.1} % of the stream's {total} bytes",
            100.0 * (total - lost.min(total)) as f64 / total as f64
        ),
    });
}
