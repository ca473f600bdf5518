//! Walks along a topology's edges from many sources at once.

use crate::ground::topology::Topology;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// From every node, the cheapest `start[source] + walk to it` over all sources (nodes with a
/// finite, non-negative `start`; walks in metres along the edges) and which source gives it;
/// infinite and `None` where no source reaches. Ties go to the node popped first: the lower
/// cost, then the lower index.
pub(crate) fn cheapest_walks<T: Topology>(topo: &T, start: &[f64]) -> (Vec<f64>, Vec<Option<usize>>) {
    let mut cost = vec![f64::INFINITY; topo.len()];
    let mut source = vec![None; topo.len()];
    let mut queue = BinaryHeap::new();
    for (i, &c) in start.iter().enumerate().filter(|(_, c)| c.is_finite()) {
        // `+ 0.0` turns -0.0 into 0.0, so the bit patterns sort as the numbers do.
        cost[i] = c + 0.0;
        source[i] = Some(i);
        queue.push(Reverse((cost[i].to_bits(), i)));
    }
    while let Some(Reverse((bits, i))) = queue.pop() {
        if bits != cost[i].to_bits() {
            continue;
        }
        for j in topo.neighbors(i) {
            let c = cost[i] + topo.distance_m(i, j);
            if c < cost[j] {
                cost[j] = c;
                source[j] = source[i];
                queue.push(Reverse((c.to_bits(), j)));
            }
        }
    }
    (cost, source)
}
