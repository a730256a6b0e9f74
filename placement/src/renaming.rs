//! Placements compared up to a renaming of identical cores: the one
//! symmetry rule every enumeration of placements keeps (the traffic
//! search's exact solver and the replay-judged search's enumeration).

use crate::{Platform, Problem};

/// Which cores keep their identity, and which a task may be tried on so
/// that every placement is met once up to a renaming of the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renaming {
    /// Per core: it keeps its identity (it holds a pinned task, some task
    /// may use only some cores, or the distances tell it apart).
    fixed: Vec<bool>,
}

impl Renaming {
    /// For `problem` on `platform`: cores are interchangeable only when
    /// all distances are equal ([`Platform::is_symmetric`]) and
    /// [`Problem::fixed_cores`] does not fix them.
    pub fn of(problem: &Problem, platform: &Platform) -> Renaming {
        let fixed = if platform.is_symmetric() {
            problem.fixed_cores(platform.cores)
        } else {
            vec![true; usize::from(platform.cores)]
        };
        Renaming { fixed }
    }

    /// Whether a task may be tried on core `c`, given which cores are in
    /// use: a core that keeps its identity, a core in use, or the first of
    /// the interchangeable cores not in use (the others are all alike).
    pub fn may_try(&self, c: usize, in_use: impl Fn(usize) -> bool) -> bool {
        self.fixed[c] || in_use(c) || (0..self.fixed.len()).find(|&f| !self.fixed[f] && !in_use(f)) == Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn of_the_unused_interchangeable_cores_only_the_first_is_tried() {
        let r = Renaming { fixed: vec![true, false, false, false] };
        let used = [false, false, true, false];
        let tried: Vec<usize> = (0..4).filter(|&c| r.may_try(c, |x| used[x])).collect();
        assert_eq!(tried, [0, 1, 2], "core 0 keeps its identity, 2 is in use, 1 stands for 1 and 3");
    }
}
