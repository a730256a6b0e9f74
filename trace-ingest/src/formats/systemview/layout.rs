//! How a SystemView file lays out its streams.
//!
//! The SystemView application (V2.42 to V3.60) and ESP-IDF's tracing save a
//! text header before the binary data: lines that start with `;`
//! (`; Version SEGGER SystemView V3.60`, `; RecordTime ...`, `; Author ...`)
//! between two lone `;` lines. It says how to read what follows:
//! - nothing more: one stream, one core;
//! - `; ESP_Extension`: one stream of both cores of an ESP32, bit 6 of each
//!   packet's id naming the core;
//! - `; Offset Core0 0`, `; Offset Core1 12262`: SystemView 3.60's
//!   multi-core file, each core's complete stream at its offset (counted
//!   from the end of the header), back to back.
//!
//! A raw RTT dump has no header: one stream.

/// What a file's text header says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Header {
    /// Bytes the header takes (0 without one).
    pub(super) len: usize,
    /// Its lines, as `key value` pairs (`Version`, `SEGGER SystemView V3.60`).
    pub(super) fields: Vec<(String, String)>,
    /// `; ESP_Extension`.
    pub(super) esp_extension: bool,
    /// `; Offset CoreN X`, in the header's order.
    pub(super) offsets: Vec<(u16, usize)>,
}

/// One stream of a file: its bytes and the core it records (`None`: the
/// packets name their core, `ESP_Extension`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Stream<'a> {
    pub(super) bytes: &'a [u8],
    /// Offset of `bytes` in the file, for messages.
    pub(super) start: usize,
    pub(super) core: Option<u16>,
}

/// Whether `b` starts like a header the SystemView application or ESP-IDF
/// writes: `;` lines, one naming SEGGER SystemView.
pub(super) fn looks_like_header(head: &str) -> Option<bool> {
    if !head.starts_with(';') {
        return Some(false);
    }
    let mut lone = 0;
    for line in head.split_inclusive('\n') {
        if !line.ends_with('\n') {
            return None;
        }
        if !line.starts_with(';') {
            return Some(false);
        }
        if line.contains("SystemView") {
            return Some(true);
        }
        if line.trim_end() == ";" {
            lone += 1;
            if lone == 2 {
                return Some(false);
            }
        }
    }
    None
}

/// Reads the text header at the start of `b`, if any.
pub(super) fn header(b: &[u8]) -> Header {
    let mut h = Header::default();
    if b.first() != Some(&b';') {
        return h;
    }
    let mut pos = 0;
    let mut lone = 0;
    while pos < b.len() && b[pos] == b';' && lone < 2 {
        let end = b[pos..].iter().position(|&c| c == b'\n').map_or(b.len(), |n| pos + n + 1);
        let line = String::from_utf8_lossy(&b[pos + 1..end]);
        let line = line.trim();
        pos = end;
        if line.is_empty() {
            lone += 1;
            continue;
        }
        let (key, value) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let value = value.trim();
        match key {
            "ESP_Extension" => h.esp_extension = true,
            "Offset" => {
                let mut words = value.split_whitespace();
                let core = words.next().and_then(|c| c.strip_prefix("Core")).and_then(|c| c.parse().ok());
                let offset = words.next().and_then(|o| o.parse().ok());
                if let (Some(core), Some(offset)) = (core, offset) {
                    h.offsets.push((core, offset));
                }
            }
            _ => {}
        }
        h.fields.push((key.to_string(), value.to_string()));
    }
    h.len = pos;
    h
}

/// The streams of a file whose header is `h`; an error names the offset
/// that does not fit.
pub(super) fn streams<'a>(b: &'a [u8], h: &Header) -> Result<Vec<Stream<'a>>, String> {
    let body = &b[h.len..];
    if h.offsets.is_empty() {
        let core = if h.esp_extension { None } else { Some(0) };
        return Ok(vec![Stream { bytes: body, start: h.len, core }]);
    }
    if let Some(&(core, offset)) = h.offsets.iter().find(|&&(_, o)| o > body.len()) {
        return Err(format!(
            "the header's `Offset Core{core} {offset}` is beyond the data's {} bytes (after the {}-byte header)",
            body.len(),
            h.len
        ));
    }
    let mut offsets = h.offsets.clone();
    offsets.sort_by_key(|&(_, o)| o);
    let mut out = Vec::new();
    for (i, &(core, offset)) in offsets.iter().enumerate() {
        let end = offsets.get(i + 1).map_or(body.len(), |&(_, o)| o);
        if out.iter().any(|s: &Stream| s.core == Some(core)) {
            return Err(format!("the header gives core {core} two offsets"));
        }
        out.push(Stream { bytes: &body[offset..end], start: h.len + offset, core: Some(core) });
    }
    out.sort_by_key(|s| s.core);
    Ok(out)
}
