//! SEGGER SystemView recordings, as the SystemView application, ESP-IDF and
//! a raw RTT dump save them, decoded from SEGGER's own sources (no Rust
//! crate decodes them) and checked against ESP-IDF's decoder.
//!
//! - [`layout`]: the text header and where each core's stream is;
//! - [`packet`]: one stream's packets;
//! - [`os`]: which API call an id is, per OS;
//! - [`stream`]: one stream's packets, timed, damage skipped and located;
//! - [`decode`]: a recording's files and streams, its OS, the merge;
//! - [`build`]: the trace model from the merged packets.
//!
//! Several files of one recording (one stream per core, `cpu0.svdat
//! cpu1.svdat` as ESP-IDF writes them) are read together by [`read_files`].

mod build;
mod decode;
mod layout;
mod os;
mod packet;
mod stream;

use std::io::BufRead;

pub use os::BUILT_IN as OSES;

use crate::error::{ParseError, ParseErrorKind};
use crate::{Parsed, ReadOptions, TraceFormat};

/// Format name used in messages and `--format`.
pub const NAME: &str = "systemview";

/// Reader of SystemView recordings.
#[derive(Clone, Debug, Default)]
pub struct SystemView {
    options: ReadOptions,
}

impl From<ReadOptions> for SystemView {
    fn from(options: ReadOptions) -> SystemView {
        SystemView { options }
    }
}

impl TraceFormat for SystemView {
    fn name(&self) -> &'static str {
        NAME
    }

    fn is_applicable(&mut self, head: &str) -> Option<bool> {
        if head.starts_with(';') {
            return layout::looks_like_header(head);
        }
        let b = head.as_bytes();
        if b.len() < packet::SYNC.len() + 1 {
            return None;
        }
        // The sync sequence, then the start of a recording (TRACE_START,
        // INIT or a task event).
        Some(
            b.starts_with(&packet::SYNC)
                && b[packet::SYNC.len()..].iter().find(|&&x| x != 0).is_some_and(|&x| x < 0x80),
        )
    }

    fn parse(&mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).map_err(|e| ParseError {
            path: self.options.path.clone(),
            line: 1,
            column: 1,
            format: NAME,
            kind: ParseErrorKind::Io(e),
        })?;
        read_files(&[(self.options.path.clone(), bytes)], &self.options)
    }
}

/// Reads the files of one recording: one file (a single core, or a
/// multi-core layout), or one file per core in core order, merged on their
/// common timebase into one trace with each event's core.
///
/// # Errors
/// A file with no stream, a header that does not fit its data, a stream
/// with no timestamp frequency, a `--sysview-desc` file that cannot be
/// read; each names the file and the byte.
pub fn read_files(files: &[(String, Vec<u8>)], options: &ReadOptions) -> Result<Parsed, ParseError> {
    let files: Vec<decode::File> = files.iter().map(|(path, bytes)| decode::File { path, bytes }).collect();
    decode::decode(&files, options)
}
