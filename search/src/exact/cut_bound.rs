//! A min-cut lower bound for two-core placements.
//!
//! With some tasks fixed on core 0 and some on core 1, every completion of
//! the placement cuts at least the minimum s–t cut of the traffic graph
//! between the two fixed sets (max-flow min-cut), whatever the balance.
//! This bound counts edges among unplaced tasks too, which the per-task
//! bound cannot, and is what lets the exhaustive search prove 60-task
//! two-core instances.

/// The traffic graph in compressed form plus reusable flow buffers.
#[derive(Clone, Debug)]
pub(crate) struct CutBound {
    /// Arcs of node `v` are `start[v]..start[v + 1]`.
    start: Vec<usize>,
    to: Vec<usize>,
    cap: Vec<u64>,
    /// Index of the reverse arc.
    rev: Vec<usize>,
    flow: Vec<i64>,
    parent: Vec<usize>,
    queue: Vec<usize>,
}

const NONE: usize = usize::MAX;
/// `parent` of a source node (other nodes hold the arc they were reached by).
const SOURCE: usize = usize::MAX - 1;

impl CutBound {
    /// Builds the graph on nodes `0..n` from undirected weighted edges.
    pub(crate) fn new(n: usize, edges: &[(usize, usize, u64)]) -> CutBound {
        let mut degree = vec![0usize; n];
        for &(a, b, _) in edges {
            degree[a] += 1;
            degree[b] += 1;
        }
        let mut start = vec![0; n + 1];
        for v in 0..n {
            start[v + 1] = start[v] + degree[v];
        }
        let arcs = start[n];
        let (mut to, mut cap, mut rev) = (vec![0; arcs], vec![0; arcs], vec![0; arcs]);
        let mut fill = start.clone();
        for &(a, b, w) in edges {
            let (ia, ib) = (fill[a], fill[b]);
            to[ia] = b;
            cap[ia] = w;
            rev[ia] = ib;
            to[ib] = a;
            cap[ib] = w;
            rev[ib] = ia;
            fill[a] += 1;
            fill[b] += 1;
        }
        CutBound { start, to, cap, rev, flow: vec![0; arcs], parent: vec![NONE; n], queue: Vec::with_capacity(n) }
    }

    /// The maximum flow from the nodes with `side(v) == Some(0)` to those
    /// with `side(v) == Some(1)`, which equals the minimum cut between them;
    /// the computation stops early once the flow reaches `enough`.
    pub(crate) fn min_cut(&mut self, side: impl Fn(usize) -> Option<u8>, enough: u64) -> u64 {
        self.flow.iter_mut().for_each(|f| *f = 0);
        let n = self.start.len() - 1;
        let mut total = 0u64;
        loop {
            // Breadth-first search from every source node at once.
            self.parent.iter_mut().for_each(|p| *p = NONE);
            self.queue.clear();
            for v in 0..n {
                if side(v) == Some(0) {
                    self.parent[v] = SOURCE;
                    self.queue.push(v);
                }
            }
            let mut sink = NONE;
            let mut head = 0;
            'bfs: while head < self.queue.len() {
                let v = self.queue[head];
                head += 1;
                for arc in self.start[v]..self.start[v + 1] {
                    let u = self.to[arc];
                    if self.parent[u] != NONE || (self.cap[arc] as i64 - self.flow[arc]) <= 0 {
                        continue;
                    }
                    self.parent[u] = arc;
                    if side(u) == Some(1) {
                        sink = u;
                        break 'bfs;
                    }
                    if side(u).is_none() {
                        self.queue.push(u);
                    }
                }
            }
            if sink == NONE {
                return total;
            }
            // Bottleneck along the path, then augment.
            let mut bottleneck = i64::MAX;
            let mut v = sink;
            while self.parent[v] != SOURCE {
                let arc = self.parent[v];
                bottleneck = bottleneck.min(self.cap[arc] as i64 - self.flow[arc]);
                v = self.to[self.rev[arc]];
            }
            let mut v = sink;
            while self.parent[v] != SOURCE {
                let arc = self.parent[v];
                self.flow[arc] += bottleneck;
                self.flow[self.rev[arc]] -= bottleneck;
                v = self.to[self.rev[arc]];
            }
            total += bottleneck as u64;
            if total >= enough {
                return total;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_cut_of_a_small_graph() {
        // 0 -5- 1 -1- 2 -5- 3, and 0 -2- 2: cut between {0} and {3} is 3
        // (edges 1-2 and 0-2).
        let mut g = CutBound::new(4, &[(0, 1, 5), (1, 2, 1), (2, 3, 5), (0, 2, 2)]);
        let side = |v: usize| match v {
            0 => Some(0),
            3 => Some(1),
            _ => None,
        };
        assert_eq!(g.min_cut(side, u64::MAX), 3);
        // Stopping early still gives a valid (smaller or equal) bound.
        let early = g.min_cut(side, 1);
        assert!((1..=3).contains(&early), "{early}");
        // Direct edges between the two sides are cut too.
        let side = |v: usize| Some(if v < 2 { 0 } else { 1 });
        assert_eq!(g.min_cut(side, u64::MAX), 3);
        // No sinks: nothing to cut.
        assert_eq!(g.min_cut(|v| if v == 0 { Some(0) } else { None }, u64::MAX), 0);
    }
}
