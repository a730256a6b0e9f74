//! Sets of cores: the affinity mask a task may run on.

use serde::{Deserialize, Serialize};

use crate::CoreId;

/// A set of cores, as a bit set; in JSON, the sorted list of its cores.
/// One core is an AMP placement; every core is global SMP.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CoreSet {
    words: Vec<u64>,
}

impl CoreSet {
    /// The empty set.
    pub fn new() -> CoreSet {
        CoreSet::default()
    }

    /// The set of one core.
    pub fn one(core: CoreId) -> CoreSet {
        let mut s = CoreSet::new();
        s.insert(core);
        s
    }

    /// Cores `0..cores`.
    pub fn all(cores: CoreId) -> CoreSet {
        (0..cores).collect()
    }

    /// Adds `core`.
    pub fn insert(&mut self, core: CoreId) {
        let (w, b) = (usize::from(core) / 64, core % 64);
        if self.words.len() <= w {
            self.words.resize(w + 1, 0);
        }
        self.words[w] |= 1 << b;
    }

    /// Removes `core`.
    pub fn remove(&mut self, core: CoreId) {
        let w = usize::from(core) / 64;
        if let Some(word) = self.words.get_mut(w) {
            *word &= !(1 << (core % 64));
        }
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
    }

    /// Whether `core` is in the set.
    #[inline]
    pub fn contains(&self, core: CoreId) -> bool {
        self.words.get(usize::from(core) / 64).is_some_and(|w| w >> (core % 64) & 1 == 1)
    }

    /// Number of cores in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The lowest core, if any.
    pub fn first(&self) -> Option<CoreId> {
        self.iter().next()
    }

    /// The only core, when the set has exactly one.
    pub fn single(&self) -> Option<CoreId> {
        if self.len() == 1 { self.first() } else { None }
    }

    /// The cores in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = CoreId> + '_ {
        self.words
            .iter()
            .enumerate()
            .flat_map(|(w, &word)| (0..64).filter(move |b| word >> b & 1 == 1).map(move |b| (w * 64 + b) as CoreId))
    }

    /// The set as a bit mask of cores 0..64 (for headers); `None` when it
    /// holds a core above 63.
    pub fn mask64(&self) -> Option<u64> {
        match self.words.len() {
            0 => Some(0),
            1 => Some(self.words[0]),
            _ => None,
        }
    }
}

impl FromIterator<CoreId> for CoreSet {
    fn from_iter<I: IntoIterator<Item = CoreId>>(iter: I) -> CoreSet {
        let mut s = CoreSet::new();
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl Serialize for CoreSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CoreSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CoreSet, D::Error> {
        Ok(Vec::<CoreId>::deserialize(d)?.into_iter().collect())
    }
}

impl std::fmt::Display for CoreSet {
    /// `0`, `0,2`, `4-7`: runs of three or more cores as ranges.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cores: Vec<CoreId> = self.iter().collect();
        let mut parts = Vec::new();
        let mut i = 0;
        while i < cores.len() {
            let mut j = i;
            while j + 1 < cores.len() && cores[j + 1] == cores[j] + 1 {
                j += 1;
            }
            match j - i {
                0 => parts.push(cores[i].to_string()),
                1 => parts.extend([cores[i].to_string(), cores[j].to_string()]),
                _ => parts.push(format!("{}-{}", cores[i], cores[j])),
            }
            i = j + 1;
        }
        f.write_str(&parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_hold_cores_beyond_one_word_and_print_as_ranges() {
        let mut s: CoreSet = [0, 2, 3, 4, 70].into_iter().collect();
        assert!(s.contains(70) && s.contains(3) && !s.contains(1) && !s.contains(200));
        assert_eq!(s.len(), 5);
        assert_eq!(s.to_string(), "0,2-4,70");
        assert_eq!(s.mask64(), None);
        s.remove(70);
        assert_eq!((s.mask64(), s.first(), s.single()), (Some(0b11101), Some(0), None));
        assert_eq!(CoreSet::one(5).single(), Some(5));
        assert_eq!(CoreSet::all(3).to_string(), "0-2");
        assert_eq!(serde_json::to_string(&s).unwrap(), "[0,2,3,4]");
        let back: CoreSet = serde_json::from_str("[4, 0, 3, 2]").unwrap();
        assert_eq!(back, s);
    }
}
