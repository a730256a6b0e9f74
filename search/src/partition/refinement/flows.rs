//! Flow-based refinement of the cut between two cores (max-flow min-cut).
//!
//! FM moves one task at a time and stops at a local minimum; a flow looks
//! at a whole band of tasks around the boundary of two cores `a` and `b`
//! at once. The band is grown breadth first from the boundary into each
//! core, no heavier than what the other core could take in. Everything
//! outside the band stays where it is and becomes a terminal: a task in
//! the band pays, on core `a` or `b`, the topology-weighted traffic to its
//! neighbours outside the band, so it is tied to the source (core `a`) or
//! the sink (core `b`) by the difference. Edges inside the band cost their
//! traffic times the distance between `a` and `b`. A minimum s–t cut of
//! that network is then an optimal reassignment of the band between the
//! two cores, topology included; of the two extreme minimum cuts (the
//! smallest and the largest source side) the one that keeps both cores
//! within their limits and evens them best is applied when it lowers the
//! traffic.
//!
//! The band's size is adaptive, as in KaFFPa's flow refinement: it may
//! hold what the other core can take now plus `alpha - 1` times that
//! core's margin above an even share (at least 1/64 of its limit, so that
//! full cores can still swap). `alpha` starts at 1, doubles after an
//! improving cut, jumps to its largest value when a narrow band finds
//! nothing, and halves after a band whose minimum cuts all break a limit.
//! Pairs are tried in rounds, heaviest traffic first; a pair is tried
//! again only when one of its two cores changed.
//!
//! Tasks that cannot move (pinned, not allowed on the other core, with
//! `apart` partners) stay out of the band.

use corera_placement::{CoreId, Platform, Problem};

/// Largest band factor. KaFFPa stops at 16; with every core of a mesh
/// at its limit the band then holds a few tasks, and add20 mapped onto
/// mesh:8x8 gave J = 7,703 with 16, 7,701 with 32 and 7,648 with 64 (as
/// with 128), the other Walshaw mappings within 1 % either way and every
/// cut the same (measured 2026-11-30).
const ALPHA_MAX: u64 = 64;
/// Largest number of rounds over all pairs of cores.
const ROUNDS: usize = 8;

/// A flow network on `n` nodes with arcs stored in pairs (arc `e` and its
/// reverse `e ^ 1`).
struct Network {
    first: Vec<usize>,
    next: Vec<usize>,
    to: Vec<usize>,
    cap: Vec<i64>,
}

const END: usize = usize::MAX;

impl Network {
    fn new(n: usize) -> Network {
        Network { first: vec![END; n], next: Vec::new(), to: Vec::new(), cap: Vec::new() }
    }

    /// An arc `a -> b` of capacity `ab` and its reverse of capacity `ba`.
    fn add(&mut self, a: usize, b: usize, ab: i64, ba: i64) {
        for (from, to, cap) in [(a, b, ab), (b, a, ba)] {
            self.next.push(self.first[from]);
            self.first[from] = self.to.len();
            self.to.push(to);
            self.cap.push(cap);
        }
    }

    /// Pushes a maximum flow from `s` to `t` (Dinic: blocking flows on the
    /// breadth-first level graph, depth first without recursion); returns
    /// its value. `cap` is left as the residual capacities.
    fn max_flow(&mut self, s: usize, t: usize) -> i64 {
        let n = self.first.len();
        let mut total = 0;
        let mut level = vec![u32::MAX; n];
        let mut queue = Vec::with_capacity(n);
        let mut current = vec![END; n];
        let mut path: Vec<usize> = Vec::new();
        loop {
            level.iter_mut().for_each(|l| *l = u32::MAX);
            level[s] = 0;
            queue.clear();
            queue.push(s);
            let mut head = 0;
            while head < queue.len() {
                let v = queue[head];
                head += 1;
                let mut e = self.first[v];
                while e != END {
                    let u = self.to[e];
                    if self.cap[e] > 0 && level[u] == u32::MAX {
                        level[u] = level[v] + 1;
                        queue.push(u);
                    }
                    e = self.next[e];
                }
            }
            if level[t] == u32::MAX {
                return total;
            }
            current.clone_from(&self.first);
            path.clear();
            let mut v = s;
            loop {
                if v == t {
                    let push = path.iter().map(|&e| self.cap[e]).min().unwrap_or(0);
                    total += push;
                    let mut keep = path.len();
                    for (i, &e) in path.iter().enumerate() {
                        self.cap[e] -= push;
                        self.cap[e ^ 1] += push;
                        if self.cap[e] == 0 && keep == path.len() {
                            keep = i;
                        }
                    }
                    path.truncate(keep);
                    v = path.last().map_or(s, |&e| self.to[e]);
                    continue;
                }
                let mut e = current[v];
                while e != END && (self.cap[e] == 0 || level[self.to[e]] != level[v] + 1) {
                    e = self.next[e];
                }
                current[v] = e;
                if e != END {
                    path.push(e);
                    v = self.to[e];
                    continue;
                }
                // Dead end: retreat.
                level[v] = u32::MAX;
                match path.pop() {
                    Some(back) => {
                        let tail = self.to[back ^ 1];
                        current[tail] = self.next[current[tail]];
                        v = tail;
                    }
                    None => break,
                }
            }
        }
    }

    /// The nodes reachable from `from` in the residual network, following
    /// arcs forward (`forward`) or backward (the nodes that reach `from`).
    fn residual_reach(&self, from: usize, forward: bool) -> Vec<bool> {
        let mut seen = vec![false; self.first.len()];
        seen[from] = true;
        let mut stack = vec![from];
        while let Some(v) = stack.pop() {
            let mut e = self.first[v];
            while e != END {
                let u = self.to[e];
                // Backward: u reaches v when the arc u -> v (e ^ 1) has room.
                let room = if forward { self.cap[e] } else { self.cap[e ^ 1] };
                if room > 0 && !seen[u] {
                    seen[u] = true;
                    stack.push(u);
                }
                e = self.next[e];
            }
        }
        seen
    }
}

struct Pair<'a> {
    problem: &'a Problem,
    platform: &'a Platform,
    limits: &'a [u64],
    core_of: &'a mut [CoreId],
    load: &'a mut [u64],
}

impl Pair<'_> {
    /// Whether task `i` may leave its core for `to`.
    fn movable(&self, i: usize, to: usize) -> bool {
        let p = self.problem;
        p.pinned[i].is_none() && p.apart[i].is_empty() && p.allows(i, to)
    }

    /// Tasks of core `from` that may go to `to`, breadth first from those
    /// that talk to `to`, no heavier together than `room`.
    fn band(&self, from: usize, to: usize, room: u64) -> Vec<usize> {
        let p = self.problem;
        let mut band = Vec::new();
        let mut weight = 0u64;
        let mut queue: Vec<usize> = (0..p.len())
            .filter(|&i| {
                usize::from(self.core_of[i]) == from
                    && p.adjacency[i].iter().any(|&(j, _)| usize::from(self.core_of[j as usize]) == to)
            })
            .collect();
        let mut seen = vec![false; p.len()];
        queue.iter().for_each(|&i| seen[i] = true);
        let mut head = 0;
        while head < queue.len() {
            let i = queue[head];
            head += 1;
            if !self.movable(i, to) || weight + p.load[i] > room {
                continue;
            }
            weight += p.load[i];
            band.push(i);
            for &(j, _) in &p.adjacency[i] {
                let j = j as usize;
                if !seen[j] && usize::from(self.core_of[j]) == from {
                    seen[j] = true;
                    queue.push(j);
                }
            }
        }
        band
    }

    /// One flow step between cores `a` and `b` with band factor `alpha`:
    /// `Some(true)` when a better cut was applied, `Some(false)` when the
    /// best cut is no better, `None` when every minimum cut breaks a limit.
    fn step(&mut self, a: usize, b: usize, alpha: u64) -> Option<bool> {
        let p = self.problem;
        let (la, lb) = (self.load[a], self.load[b]);
        let (ma, mb) = (self.limits[a], self.limits[b]);
        // Room: what the other core can take now, plus (alpha - 1) times
        // its margin above an even share of the two cores' load (at least
        // 1/64 of its limit and one unit, so that two full cores still get
        // a band to swap).
        let room = |load: u64, limit: u64| {
            let fair = ((la + lb) as u128 * limit as u128 / (ma + mb).max(1) as u128) as u64;
            limit.saturating_sub(load) + (alpha - 1) * limit.saturating_sub(fair.min(limit)).max((limit / 64).max(1))
        };
        let band_a = self.band(a, b, room(lb, mb));
        let band_b = self.band(b, a, room(la, ma));
        if band_a.is_empty() && band_b.is_empty() {
            return Some(false);
        }
        let nodes: Vec<usize> = band_a.iter().chain(&band_b).copied().collect();
        let mut local = vec![usize::MAX; p.len()];
        for (l, &i) in nodes.iter().enumerate() {
            local[i] = l;
        }
        let (s, t) = (nodes.len(), nodes.len() + 1);
        let mut net = Network::new(nodes.len() + 2);
        let dab = self.platform.distance(a, b) as i64;
        // The network's cut of the present assignment, to compare with.
        let mut present = 0i64;
        for (l, &i) in nodes.iter().enumerate() {
            let on_a = usize::from(self.core_of[i]) == a;
            let mut unary = 0i64; // cost on b minus cost on a
            for &(j, w) in &p.adjacency[i] {
                let j = j as usize;
                let w = w as i64;
                if local[j] == usize::MAX {
                    let cj = usize::from(self.core_of[j]);
                    unary += w * (self.platform.distance(b, cj) as i64 - self.platform.distance(a, cj) as i64);
                } else if j > i {
                    net.add(l, local[j], w * dab, w * dab);
                    if on_a != (usize::from(self.core_of[j]) == a) {
                        present += w * dab;
                    }
                }
            }
            if unary > 0 {
                net.add(s, l, unary, 0);
                present += if on_a { 0 } else { unary };
            } else if unary < 0 {
                net.add(l, t, -unary, 0);
                present += if on_a { -unary } else { 0 };
            }
        }
        let flow = net.max_flow(s, t);
        debug_assert!(flow <= present, "the present assignment is a cut");
        if flow >= present {
            return Some(false);
        }
        // The smallest source side, and the largest (all but what reaches t).
        let least = net.residual_reach(s, true);
        let reach_t = net.residual_reach(t, false);
        let largest: Vec<bool> = reach_t.iter().map(|&r| !r).collect();
        let mut best: Option<(u128, Vec<u64>, &Vec<bool>)> = None;
        for side in [&least, &largest] {
            let (mut na, mut nb) = (la, lb);
            for (l, &i) in nodes.iter().enumerate() {
                let now_a = usize::from(self.core_of[i]) == a;
                match (now_a, side[l]) {
                    (true, false) => (na, nb) = (na - p.load[i], nb + p.load[i]),
                    (false, true) => (na, nb) = (na + p.load[i], nb - p.load[i]),
                    _ => {}
                }
            }
            if na > ma || nb > mb {
                continue;
            }
            // Evenness: the fuller core's load relative to its limit.
            let worst = (na as u128 * mb as u128).max(nb as u128 * ma as u128);
            if best.as_ref().is_none_or(|(w, _, _)| worst < *w) {
                best = Some((worst, vec![na, nb], side));
            }
        }
        let (_, loads, side) = best?;
        for (l, &i) in nodes.iter().enumerate() {
            self.core_of[i] = if side[l] { a } else { b } as CoreId;
        }
        (self.load[a], self.load[b]) = (loads[0], loads[1]);
        Some(true)
    }

    /// Flow steps between `a` and `b` with an adaptive band; whether the
    /// cut improved.
    fn refine_pair(&mut self, a: usize, b: usize) -> bool {
        let mut alpha = 1;
        let mut improved = false;
        let mut tried_larger = false;
        loop {
            match self.step(a, b, alpha) {
                Some(true) => {
                    improved = true;
                    if alpha < ALPHA_MAX {
                        alpha *= 2;
                    }
                }
                Some(false) if !tried_larger && alpha < ALPHA_MAX => {
                    tried_larger = true;
                    alpha = ALPHA_MAX;
                }
                Some(false) => return improved,
                None if alpha > 1 => alpha /= 2,
                None => return improved,
            }
        }
    }
}

/// Flow refinement of every pair of cores with traffic between them,
/// heaviest first, in rounds while it improves; returns the fall in
/// topology-weighted cross traffic. Loads stay within `limits` (a core
/// already above its limit is not filled further).
pub(crate) fn refine(problem: &Problem, platform: &Platform, core_of: &mut [CoreId], limits: &[u64]) -> u64 {
    let k = platform.cores as usize;
    if k < 2 || problem.len() < 2 {
        return 0;
    }
    let before = problem.cross_traffic(platform, core_of);
    let mut load = vec![0u64; k];
    for (i, &c) in core_of.iter().enumerate() {
        load[usize::from(c)] += problem.load[i];
    }
    let limits: Vec<u64> = limits.iter().zip(&load).map(|(&m, &l)| m.max(l)).collect();
    let mut pair = Pair { problem, platform, limits: &limits, core_of, load: &mut load };
    let mut touched = vec![true; k];
    for _ in 0..ROUNDS {
        let mut between = vec![0u64; k * k];
        for &(x, y, w) in &problem.edges {
            let (a, b) = (usize::from(pair.core_of[x as usize]), usize::from(pair.core_of[y as usize]));
            if a != b {
                between[a.min(b) * k + a.max(b)] += w;
            }
        }
        let mut pairs: Vec<(u64, usize, usize)> = (0..k)
            .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
            .filter(|&(a, b)| between[a * k + b] > 0)
            .map(|(a, b)| (between[a * k + b], a, b))
            .collect();
        pairs.sort_by(|x, y| y.0.cmp(&x.0).then((x.1, x.2).cmp(&(y.1, y.2))));
        // A pair is tried again only when one of its cores changed since.
        let mut changed = vec![false; k];
        for (_, a, b) in pairs {
            if (touched[a] || touched[b] || changed[a] || changed[b]) && pair.refine_pair(a, b) {
                (changed[a], changed[b]) = (true, true);
            }
        }
        if !changed.contains(&true) {
            break;
        }
        touched = changed;
    }
    before - problem.cross_traffic(platform, core_of)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_flow_of_a_small_network() {
        // s -> 0 (3), s -> 1 (2), 0 -> 1 (1), 0 -> t (2), 1 -> t (3): max flow 5.
        let mut net = Network::new(4);
        let (s, t) = (2, 3);
        net.add(s, 0, 3, 0);
        net.add(s, 1, 2, 0);
        net.add(0, 1, 1, 0);
        net.add(0, t, 2, 0);
        net.add(1, t, 3, 0);
        assert_eq!(net.max_flow(s, t), 5);
        let reach = net.residual_reach(s, true);
        assert!(!reach[t]);
    }

    #[test]
    fn a_swap_that_single_moves_cannot_make() {
        // Two rings of six (L0..L5 = tasks 0..5 on core 0, R0..R5 = 7..12 on
        // core 1), X (6) on core 0 talking to R0 and R1, Y (13) on core 1
        // talking to L0 and L1. Swapping X and Y cuts 20 down to 2, but the
        // cores have room for less than one task, so no single move is
        // allowed: FM is stuck, a flow over a band of both sides swaps them.
        let mut edges = Vec::new();
        for base in [0u32, 7] {
            for i in 0..6 {
                let (a, b) = (base + i, base + (i + 1) % 6);
                edges.push((a.min(b), a.max(b), 5));
            }
        }
        edges.extend([(6, 7, 5), (6, 8, 5), (0, 6, 1), (0, 13, 5), (1, 13, 5), (7, 13, 1)]);
        let names = (0..14).map(|i| format!("t{i}")).collect();
        let problem = Problem::new(names, vec![10; 14], edges, 1000);
        let mut platform = Platform::identical(2);
        platform.balance_tolerance = 0.05;
        let limits = platform.core_limits(problem.total_load(), problem.horizon_ns);
        assert!(limits.iter().all(|&l| l < 80), "{limits:?}: room for less than one more task");
        let mut core_of: Vec<CoreId> = (0..14).map(|i| (i / 7) as CoreId).collect();
        let mut fm = core_of.clone();
        assert_eq!(crate::partition::refinement::fm::refine(&problem, &platform, &mut fm, &limits), 0, "FM is stuck");
        assert_eq!(refine(&problem, &platform, &mut core_of, &limits), 18, "{core_of:?}");
        assert_eq!((core_of[6], core_of[13]), (1, 0), "X and Y swapped");
        assert_eq!(core_of.iter().filter(|&&c| c == 1).count(), 7, "still seven tasks a core");
    }
}
