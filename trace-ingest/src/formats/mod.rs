//! The readers, one module per input format, beside the scaffolding they
//! share (`crate::lines` for text formats, `crate::core_state` for kernel
//! recorder streams, `crate::error` for located errors and warnings).
//!
//! [`REGISTRY`] is the one table of formats: each row names a format, says
//! what it is, where the book describes it, and makes its reader (which
//! detects its input, [`crate::TraceFormat::is_applicable`], and takes the
//! [`crate::ReadOptions`] it needs). `--format`, detection (in the table's
//! order), `--help` and the book's lists all read it. A new format is a
//! new module here and a row ([`crate::FormatChoice::of`] names it).

use crate::{FormatChoice, ReadOptions, TraceFormat};

pub mod amalthea;
pub mod btf;
pub mod corera_log;
pub mod ctf;
pub mod ftrace;
pub mod psf;
pub mod systemview;

/// A format corera reads: its row in [`REGISTRY`].
#[derive(Clone, Copy)]
pub struct Format {
    /// Its `--format` name.
    pub name: &'static str,
    /// One line for `--help`.
    pub help: &'static str,
    /// Its reference page in the book (`book/src/reference/<page>`).
    pub page: &'static str,
    /// Its reader, with the options it takes.
    pub reader: fn(&ReadOptions) -> Box<dyn TraceFormat>,
}

impl std::fmt::Debug for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Format").field("name", &self.name).finish_non_exhaustive()
    }
}

/// Every format, in detection order.
pub const REGISTRY: [Format; 7] = [
    Format {
        name: corera_log::NAME,
        help: "corera's own log (`corera-log 1`)",
        page: "log-format.md",
        reader: |o| Box::new(corera_log::CoreraLog::from(o.clone())),
    },
    Format {
        name: btf::NAME,
        help: "BTF (Best Trace Format), including the FreeRTOS-logger dialect",
        page: "btf.md",
        reader: |o| Box::new(btf::Btf::from(o.clone())),
    },
    Format {
        name: ftrace::NAME,
        help: "Linux ftrace text: kernel/systrace, `trace-cmd report` (default or `-R`), `perf script`",
        page: "ftrace.md",
        reader: |o| Box::new(ftrace::Ftrace::from(o.clone())),
    },
    Format {
        name: amalthea::NAME,
        help: "Eclipse APP4MC Amalthea model (`.amxmi`, schema 0.9 to 3.x)",
        page: "amalthea.md",
        reader: |o| Box::new(amalthea::Amalthea::from(o.clone())),
    },
    Format {
        name: psf::NAME,
        help: "Percepio TraceRecorder stream (Tracealyzer `.psf`, FreeRTOS kernel port)",
        page: "psf.md",
        reader: |o| Box::new(psf::PsfReader::from(o.clone())),
    },
    Format {
        name: systemview::NAME,
        help: "SEGGER SystemView recording (`.SVDat`, one file per core, ESP-IDF and 3.60 multi-core files)",
        page: "systemview.md",
        reader: |o| Box::new(systemview::SystemView::from(o.clone())),
    },
    Format {
        name: ctf::NAME,
        help: "Zephyr's CTF tracing (the trace directory, or its `metadata`)",
        page: "ctf.md",
        reader: |o| Box::new(ctf::Ctf::from(o.clone())),
    },
];

/// The row of `choice` (`None` for [`FormatChoice::AUTO`]).
pub fn row(choice: FormatChoice) -> Option<&'static Format> {
    REGISTRY.iter().find(|f| f.name == choice.name())
}
