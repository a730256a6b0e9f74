//! Timelines: the report's view of the recording and each replay on one
//! time axis (`view.rs`: which window it opens on, what it keeps in full),
//! and whole replays for other tools (`export.rs`: Perfetto, BTF).

mod export;
mod view;
mod window;

pub use export::{btf, perfetto};
pub use view::{
    ChainMark, DETAIL_BUDGET, MAX_WINDOW_SEGMENTS, OVERVIEW_BINS, Pick, READY_SLOTS, Run, TimelineRecord, TimelineRow,
};
