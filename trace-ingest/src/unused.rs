//! The one count of "events corera does not use" every reader keeps and
//! reports in one warning, named.

use std::collections::BTreeMap;

/// Skipped events by name.
#[derive(Debug, Default)]
pub(crate) struct Unused(BTreeMap<String, u64>);

impl Unused {
    /// Counts one more `what` (no allocation when it was seen before).
    pub(crate) fn add(&mut self, what: &str) {
        match self.0.get_mut(what) {
            Some(n) => *n += 1,
            None => {
                self.0.insert(what.to_string(), 1);
            }
        }
    }

    /// The warning's text, if anything was skipped.
    pub(crate) fn message(&self) -> Option<String> {
        if self.0.is_empty() {
            return None;
        }
        let total: u64 = self.0.values().sum();
        let list: Vec<String> = self.0.iter().map(|(k, n)| format!("{k} ({n})")).collect();
        Some(format!("skipped {total} events corera does not use: {}", list.join(", ")))
    }
}
