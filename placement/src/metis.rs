//! METIS graph files in, METIS partition files out, so that corera's
//! search compares directly with gpmetis, KaHIP, Scotch and Mt-KaHyPar.
//!
//! A graph file is a header `n m [fmt [ncon]]` and one line per vertex
//! listing its neighbours (1-based); `fmt` digits say whether vertex sizes,
//! vertex weights and edge weights follow (`011`: a vertex weight first on
//! each line, a weight after each neighbour). Lines starting with `%` are
//! comments. A partition file has one line per vertex: its block (core).

use std::fmt::Write as _;

use crate::{Placement, Problem};

/// A METIS file that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("{path}:{line}: invalid METIS graph: {message}")]
pub struct MetisError {
    /// File name as given.
    pub path: String,
    /// 1-based line number.
    pub line: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

/// Reads a METIS graph into a placement [`Problem`]: vertices become tasks
/// `v1`, `v2`, ... with their weight as load (1 when unweighted), edges
/// become traffic (weight 1 when unweighted). The horizon is the total
/// vertex weight, so that no core's capacity binds; balance is Walshaw's
/// rule through [`Platform::balance_limit`](crate::Platform::balance_limit).
///
/// # Errors
/// [`MetisError`] naming the line: a bad header, a neighbour out of range,
/// a missing weight, a vertex count or edge count that does not match.
pub fn read_metis(text: &str, path: &str) -> Result<Problem, MetisError> {
    let err = |line: usize, message: String| MetisError { path: path.to_string(), line, message };
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l)).filter(|(_, l)| !l.trim_start().starts_with('%'));
    let (hline, header) =
        lines.next().ok_or_else(|| err(1, "the file is empty; expected a header `n m [fmt]`".into()))?;
    let h: Vec<&str> = header.split_whitespace().collect();
    let number = |s: &str, what: &str, line: usize| {
        s.parse::<u64>().map_err(|_| err(line, format!("expected {what}, found `{s}`")))
    };
    if h.len() < 2 {
        return Err(err(hline, format!("expected a header `n m [fmt [ncon]]`, found `{header}`")));
    }
    let n = number(h[0], "the vertex count", hline)? as usize;
    let m = number(h[1], "the edge count", hline)?;
    let fmt = h.get(2).copied().unwrap_or("0");
    if fmt.len() > 3 || !fmt.bytes().all(|b| b == b'0' || b == b'1') {
        return Err(err(hline, format!("expected a format such as 011, found `{fmt}`")));
    }
    let fmt = format!("{fmt:0>3}");
    let (sizes, vweights, eweights) = (&fmt[0..1] == "1", &fmt[1..2] == "1", &fmt[2..3] == "1");
    let ncon = match h.get(3) {
        Some(c) => number(c, "the number of vertex weights", hline)? as usize,
        None => 1,
    };
    if ncon != 1 {
        return Err(err(hline, format!("{ncon} weights per vertex are not supported; expected 1")));
    }
    let mut load = Vec::with_capacity(n);
    let mut edges = Vec::new();
    let mut half_edges = 0u64;
    for v in 0..n {
        let (line, text) = lines
            .next()
            .ok_or_else(|| err(text.lines().count() + 1, format!("expected {n} vertex lines, found {v}")))?;
        let mut tokens = text.split_whitespace();
        if sizes {
            tokens.next().ok_or_else(|| err(line, "expected a vertex size".into()))?;
        }
        let weight = if vweights {
            let t = tokens.next().ok_or_else(|| err(line, "expected a vertex weight".into()))?;
            number(t, "a vertex weight", line)?
        } else {
            1
        };
        load.push(weight);
        while let Some(t) = tokens.next() {
            let u = number(t, "a neighbour (1-based vertex number)", line)? as usize;
            if u == 0 || u > n {
                return Err(err(line, format!("neighbour {u} is out of range 1..={n}")));
            }
            let w = if eweights {
                let t =
                    tokens.next().ok_or_else(|| err(line, format!("expected an edge weight after neighbour {u}")))?;
                number(t, "an edge weight", line)?
            } else {
                1
            };
            half_edges += 1;
            // Each edge is listed at both ends; keep it once.
            if v < u - 1 {
                edges.push((v as u32, (u - 1) as u32, w));
            }
        }
    }
    if half_edges != 2 * m {
        return Err(err(
            hline,
            format!("the header says {m} edges, the vertex lines list {} ends (expected {})", half_edges, 2 * m),
        ));
    }
    let names = (1..=n).map(|i| format!("v{i}")).collect();
    let total = load.iter().sum();
    Ok(Problem::new(names, load, edges, total))
}

/// A METIS partition file: one line per vertex with its core.
pub fn write_partition(placement: &Placement) -> String {
    let mut s = String::with_capacity(placement.core_of.len() * 3);
    for c in &placement.core_of {
        let _ = writeln!(s, "{c}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cost, Platform};

    #[test]
    fn reads_weighted_graphs_and_writes_partitions() {
        let text = "% a comment\n4 4 011\n5 2 3 4 1\n6 1 3 3 2\n7 2 2 4 4\n8 1 1 3 4\n";
        let p = read_metis(text, "g.graph").unwrap();
        assert_eq!(p.load, vec![5, 6, 7, 8]);
        assert_eq!(p.edges, vec![(0, 1, 3), (0, 3, 1), (1, 2, 2), (2, 3, 4)]);
        let placement = Placement::new(vec![0, 0, 1, 1]);
        let cost = Cost::of(&p, &Platform::identical(2), &placement);
        assert_eq!(cost.score.cross_traffic, 1 + 2);
        assert_eq!(write_partition(&placement), "0\n0\n1\n1\n");
        let unweighted = read_metis("3 2\n2\n1 3\n2\n", "u.graph").unwrap();
        assert_eq!((unweighted.load, unweighted.edges), (vec![1, 1, 1], vec![(0, 1, 1), (1, 2, 1)]));
    }

    #[test]
    fn errors_name_the_line() {
        for (text, want) in [
            ("", "g:1: invalid METIS graph: the file is empty"),
            ("3\n", "g:1: invalid METIS graph: expected a header"),
            ("2 1 011\n1 2\n", "g:2: invalid METIS graph: expected an edge weight after neighbour 2"),
            ("2 1\n3\n1\n", "g:2: invalid METIS graph: neighbour 3 is out of range 1..=2"),
            (
                "2 2\n2\n1\n",
                "g:1: invalid METIS graph: the header says 2 edges, the vertex lines list 2 ends (expected 4)",
            ),
            ("3 1\n2\n1\n", "g:4: invalid METIS graph: expected 3 vertex lines, found 2"),
        ] {
            let e = read_metis(text, "g").unwrap_err().to_string();
            assert!(e.starts_with(want), "got {e}\nwant {want}");
        }
    }
}
