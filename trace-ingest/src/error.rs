//! Errors and warnings of the trace readers.

use std::fmt;

/// A trace could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The input could not be opened or read.
    #[error("could not read `{path}`")]
    Io {
        /// File name as given (`-` or `<stdin>` for standard input).
        path: String,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The input is not valid for its format.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// No known format recognised the input.
    #[error(
        "`{path}` is not in a known trace format (known formats: {known}); \
         pass --format to choose one"
    )]
    UnknownFormat {
        /// File name as given.
        path: String,
        /// Comma-separated list of known format names.
        known: String,
    },
}

/// A malformed input line (or, in a binary input, byte), with where it is
/// and what was expected.
#[derive(Debug)]
pub struct ParseError {
    /// File name as given.
    pub path: String,
    /// 1-based line number; in a binary input (`column` 0), the offset of
    /// the first offending byte.
    pub line: u64,
    /// 1-based column (in bytes) where the problem starts; 0 in a binary
    /// input, where `line` is a byte offset.
    pub column: u32,
    /// Name of the format being read.
    pub format: &'static str,
    /// What was wrong.
    pub kind: ParseErrorKind,
}

impl ParseError {
    /// An error at byte `byte` of a binary input.
    ///
    /// ```
    /// use corera_trace_ingest::{ParseError, ParseErrorKind};
    /// let e = ParseError::at_byte("a.SVDat", "systemview", 812, ParseErrorKind::expected("a packet", "0xff"));
    /// assert_eq!(e.to_string(), "a.SVDat: byte 812: invalid systemview input");
    /// ```
    pub fn at_byte(path: &str, format: &'static str, byte: u64, kind: ParseErrorKind) -> ParseError {
        ParseError { path: path.to_string(), line: byte, column: 0, format, kind }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.column == 0 {
            write!(f, "{}: byte {}: invalid {} input", self.path, self.line, self.format)
        } else {
            write!(f, "{}:{}:{}: invalid {} input", self.path, self.line, self.column, self.format)
        }
    }
}

impl std::error::Error for ParseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.kind)
    }
}

/// What was wrong with a line.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// Reading failed part-way.
    #[error("read failed")]
    Io(#[source] std::io::Error),
    /// The line is not UTF-8.
    #[error("the line is not valid UTF-8 (byte {byte:#04x}); expected text")]
    NotUtf8 {
        /// The first offending byte.
        byte: u8,
    },
    /// The input holds no data at all.
    #[error("the input is empty; expected a header line such as `{expected}`")]
    Empty {
        /// An example of the expected first line.
        expected: &'static str,
    },
    /// A token did not have the expected shape.
    #[error("expected {expected}, found `{found}`")]
    Expected {
        /// What the line should have held here.
        expected: String,
        /// The offending text (truncated to 60 characters).
        found: String,
    },
    /// The line ended early.
    #[error("line ends early; expected {expected}")]
    Missing {
        /// What should have followed.
        expected: String,
    },
    /// Leftover text after a complete event.
    #[error("unexpected text `{found}` after a complete `{event}` event")]
    Trailing {
        /// The event keyword.
        event: String,
        /// The leftover text.
        found: String,
    },
    /// Timestamps must not decrease.
    #[error(
        "timestamp {now} is earlier than {previous} on a previous line; \
         events must be in time order (--lenient sorts them)"
    )]
    TimeBackwards {
        /// Previous timestamp, as the source writes it.
        previous: String,
        /// This line's timestamp, as the source writes it.
        now: String,
    },
    /// A timestamp overflowed 64-bit nanoseconds.
    #[error("timestamp {value} does not fit in 64-bit nanoseconds")]
    Overflow {
        /// The timestamp in source units.
        value: u64,
    },
    /// A declaration reused an identifier.
    #[error("{what} `{id}` is declared twice (first on line {first_line})")]
    Duplicate {
        /// "task" or "object".
        what: &'static str,
        /// The identifier.
        id: String,
        /// Line of the first declaration.
        first_line: u64,
    },
}

impl ParseErrorKind {
    /// Shorthand for [`ParseErrorKind::Expected`], truncating `found`.
    pub fn expected(expected: impl Into<String>, found: &str) -> ParseErrorKind {
        ParseErrorKind::Expected { expected: expected.into(), found: clip(found) }
    }
}

/// Truncates quoted input so that errors stay one line.
pub(crate) fn clip(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(MAX).collect();
        out.push('…');
        out
    }
}

/// A recoverable oddity in the input, reported with its line.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Warning {
    /// 1-based line number, when the warning is about one line (written
    /// as `0` in JSON when it is not, as schema 4 has it).
    #[serde(with = "line_or_zero")]
    pub line: Option<u64>,
    /// What was odd and what corera did about it.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// A warning's line in JSON: the number, or `0` for none.
mod line_or_zero {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(line: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(line.unwrap_or(0))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        Ok(Some(u64::deserialize(d)?).filter(|&l| l > 0))
    }
}
