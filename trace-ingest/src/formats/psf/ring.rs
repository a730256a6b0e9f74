//! A RAM dump of TraceRecorder's RingBuffer stream port: how TraceRecorder
//! is used without a streaming link. The recorder keeps its events in a
//! buffer in RAM, overwriting the oldest when full, and a debugger saves the
//! buffer (`TraceRingBuffer_t`, which `RecorderDataPtr` points at) to a file.
//!
//! The dump holds, between 12 start markers and 12 end markers: the PSF
//! header, the timestamp configuration and the entry table (as a stream
//! starts), then the event buffer's size and the buffer: one ring per core,
//! each a `TraceEventBuffer_t` (head, tail, size, options, dropped events,
//! free bytes, slack, next head, timer wraparounds, reserved, a pointer)
//! followed by its ring. A ring's events run from its tail to its head,
//! wrapping at the slack left at the end (`trcEventBuffer.c`). Read for a
//! 32-bit target (32-bit base types and pointers), as the PSF crate reads
//! streams.

/// The 12 bytes before the dumped buffer (`trcStreamPort.c`).
pub(super) const START: [u8; 12] = [0x05, 0x06, 0x07, 0x08, 0x75, 0x76, 0x77, 0x78, 0xF5, 0xF6, 0xF7, 0xF8];
/// The 12 bytes after it.
pub(super) const END: [u8; 12] = [0x0A, 0x0B, 0x0C, 0x0D, 0x71, 0x72, 0x73, 0x74, 0xF1, 0xF2, 0xF3, 0xF4];

/// `TraceEventBuffer_t` on a 32-bit target: ten 32-bit fields and a pointer.
const EVENT_BUFFER_HEADER: usize = 44;

/// One core's events, oldest first, and where its ring starts in the dump.
pub(super) struct CoreEvents {
    pub(super) bytes: Vec<u8>,
    pub(super) at: u64,
}

/// A located dump.
pub(super) struct Ring<'a> {
    /// Header, timestamp configuration and entry table: what a stream
    /// starts with.
    pub(super) header: &'a [u8],
    pub(super) header_at: u64,
    /// The event buffer (all cores' rings) and its offset in the dump.
    buffer: &'a [u8],
    buffer_at: usize,
}

/// The cores' events of a dump.
pub(super) struct Rings {
    pub(super) cores: Vec<CoreEvents>,
    /// Bytes of each core's ring.
    pub(super) ring_size: usize,
    /// What the dump says that the figures depend on (dropped events).
    pub(super) notes: Vec<String>,
}

/// Whether `head` (the first bytes of an input) holds the start markers'
/// first eight bytes, which survive a lossy text conversion.
pub(super) fn has_markers(head: &[u8]) -> bool {
    memchr::memmem::find(head, &START[..8]).is_some()
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
}

/// Finds the buffer between the markers and each core's events; an error
/// gives the byte offset, what was expected and what was found.
pub(super) fn locate(dump: &[u8]) -> Result<Ring<'_>, (u64, &'static str, String)> {
    let start = memchr::memmem::find(dump, &START).ok_or((
        0,
        "the RingBuffer stream port's 12 start markers",
        "none".to_string(),
    ))?;
    let body = start + START.len();
    let end = memchr::memmem::find(&dump[body..], &END).map(|e| body + e).ok_or((
        body as u64,
        "the RingBuffer stream port's 12 end markers after its start markers",
        format!("none in the {} bytes after byte {body} (a dump cut short?)", dump.len() - body),
    ))?;
    // The event buffer is the last part before the end markers: find its
    // size field by trying where it can be (the entry table's size depends
    // on the recorder's configuration): `size` bytes before the end
    // markers, 4-byte aligned, holding `size`.
    let region = &dump[body..end];
    let size_at = (0..region.len().saturating_sub(4))
        .step_by(4)
        .find(|&at| u32_at(region, at).is_some_and(|n| n as usize == region.len() - at - 4 && n > 0))
        .ok_or((
            body as u64,
            "an event buffer whose size field matches the bytes before the end markers",
            "none (not a 32-bit RingBuffer dump?)".to_string(),
        ))?;
    let header = &dump[body..body + size_at];
    Ok(Ring { header, header_at: body as u64, buffer: &region[size_at + 4..], buffer_at: body + size_at + 4 })
}

/// Each of `cores` cores' events, oldest first.
pub(super) fn rings(ring: &Ring, cores_field: usize) -> Result<Rings, (u64, &'static str, String)> {
    let (buffer, buffer_at) = (ring.buffer, ring.buffer_at);
    let cores_field = cores_field.max(1);
    let per_core = (buffer.len() / cores_field) / 4 * 4;
    let mut cores = Vec::new();
    let mut notes = Vec::new();
    let mut ring_size = 0;
    for c in 0..cores_field {
        let base = c * per_core;
        let at = buffer_at + base;
        let field = |i: usize| u32_at(buffer, base + 4 * i).unwrap_or(0) as usize;
        let (head, tail, size, dropped, slack) = (field(0), field(1), field(2), field(4), field(6));
        if size != per_core.saturating_sub(EVENT_BUFFER_HEADER) || head > size || tail > size || slack > size {
            return Err((
                at as u64,
                "a core's event buffer: head, tail and slack within its size",
                format!("head {head}, tail {tail}, size {size}, slack {slack} (a ring of {per_core} bytes)"),
            ));
        }
        ring_size = size;
        let ring = &buffer[base + EVENT_BUFFER_HEADER..base + EVENT_BUFFER_HEADER + size];
        let data_at = (at + EVENT_BUFFER_HEADER) as u64;
        let tail = if tail >= size - slack && head < tail { 0 } else { tail };
        let bytes = if tail <= head {
            ring[tail..head].to_vec()
        } else {
            let mut b = ring[tail..size - slack].to_vec();
            b.extend_from_slice(&ring[..head]);
            b
        };
        if dropped > 0 {
            notes.push(format!("core {c}'s ring dropped {dropped} events (its buffer was full)"));
        }
        cores.push(CoreEvents { bytes, at: data_at + tail as u64 });
    }
    Ok(Rings { cores, ring_size, notes })
}

#[cfg(test)]
mod tests {
    use trace_recorder_parser::streaming::RecorderData;

    fn dump() -> Vec<u8> {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/tracealyzer/printer-ringbuffer.bin");
        std::fs::read(path).unwrap()
    }

    /// The ring, unwrapped, is one unbroken run of records: the crate
    /// decodes every one, and the recorder's own event counter goes up by
    /// one from each to the next, from the oldest kept to the newest.
    #[test]
    fn the_unwrapped_ring_is_an_unbroken_run_of_the_recorders_events() {
        let dump = dump();
        let ring = super::locate(&dump).unwrap();
        let mut rd = RecorderData::find(&mut &ring.header[..]).unwrap();
        let rings = super::rings(&ring, rd.header.num_cores as usize).unwrap();
        assert_eq!(rings.cores.len(), 1);
        let mut r = &rings.cores[0].bytes[..];
        let mut counts = Vec::new();
        while let Some((_, event)) = rd.read_event(&mut r).unwrap() {
            counts.push(u16::from(event.event_count()));
        }
        assert!(counts.len() > 1000, "{} events", counts.len());
        assert!(counts.windows(2).all(|w| w[1] == w[0].wrapping_add(1)), "{counts:?}");
        // Nothing of the ring is left over: the events fill it but for less
        // than one record at the seam.
        assert!(
            rings.cores[0].bytes.len() + 64 > rings.ring_size,
            "{} of {}",
            rings.cores[0].bytes.len(),
            rings.ring_size
        );
    }

    #[test]
    fn a_dump_without_its_end_markers_or_with_a_wrong_size_is_located_and_refused() {
        let dump = dump();
        let cut = &dump[..dump.len() - 20];
        let (at, expected, _) = super::locate(cut).err().unwrap();
        assert!(expected.contains("end markers") && at == 16, "{at} {expected}");
        let mut bad = dump.clone();
        // The ring's size field: the 4 bytes before the first core's
        // TraceEventBuffer_t, found by the same rule locate uses.
        let ring = super::locate(&dump).unwrap();
        let head_at = ring.buffer_at;
        bad[head_at..head_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let ring = super::locate(&bad).unwrap();
        let (at, expected, found) = super::rings(&ring, 1).err().unwrap();
        assert_eq!(at as usize, head_at);
        assert!(expected.contains("head, tail and slack") && found.contains("head 4294967295"), "{found}");
    }
}
