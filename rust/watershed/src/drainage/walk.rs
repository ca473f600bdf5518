//! Walks along a topology's edges from many sources at once.

use super::radix::RadixHeap;
use crate::ground::topology::Topology;

/// From every node, the cheapest `start[source] + walk to it` over all sources (nodes with a
/// finite, non-negative `start`; walks in metres along the edges) and which source gives it;
/// infinite and `None` where no source reaches within `limit` (the cheapest walks up to
/// `limit` are worked out, no further: `f64::INFINITY` for all of them). Ties go to the node
/// popped first: the lower cost, then the lower index.
///
/// # Complexity
/// O(m) amortised for the m nodes reached within `limit` (a radix heap), plus one pass over
/// every node and its neighbours: a source whose neighbours all start no dearer than it
/// never improves one, so it is never queued (the open sea of a coast walk costs a glance,
/// not a heap entry).
pub(crate) fn cheapest_walks<T: Topology>(
    topo: &T,
    start: &[f64],
    limit: f64,
) -> (Vec<f64>, Vec<Option<usize>>) {
    let mut source: Vec<Option<usize>> =
        start.iter().enumerate().map(|(i, c)| c.is_finite().then_some(i)).collect();
    let cost = walk(topo, start, limit, |to, from| source[to] = source[from]);
    if limit < f64::INFINITY {
        for (_, s) in cost.iter().zip(&mut source).filter(|(c, _)| c.is_infinite()) {
            *s = None;
        }
    }
    (cost, source)
}

/// Whether node `i` is a source (a finite `start`) some other node may be cheapest from:
/// one with a dearer neighbour, since a walk on adds a non-negative distance.
pub(crate) fn on_front<T: Topology>(topo: &T, start: &[f64], i: usize) -> bool {
    on_front_of(topo, |j| start[j], i)
}

/// [`on_front`] with each node's start read from `start`.
pub(crate) fn on_front_of<T: Topology>(topo: &T, start: impl Fn(usize) -> f64, i: usize) -> bool {
    let own = start(i);
    own.is_finite() && topo.neighbors(i).any(|j| start(j) > own)
}

/// [`cheapest_walks`]' costs alone, without the sources (a write saved at every step).
pub(crate) fn cheapest_costs<T: Topology>(topo: &T, start: &[f64], limit: f64) -> Vec<f64> {
    walk(topo, start, limit, |_, _| {})
}

/// The costs of [`cheapest_walks`], calling `improved(to, from)` each time the walk through
/// node `from` becomes node `to`'s cheapest yet.
fn walk<T: Topology>(
    topo: &T,
    start: &[f64],
    limit: f64,
    mut improved: impl FnMut(usize, usize),
) -> Vec<f64> {
    // `+ 0.0` turns -0.0 into 0.0, so the bit patterns sort as the numbers do.
    let mut cost: Vec<f64> =
        start.iter().map(|&c| if c.is_finite() { c + 0.0 } else { f64::INFINITY }).collect();
    // Walking on adds a non-negative distance, so a node reached at `cost[i]` improves only
    // neighbours dearer than that: a source without such a neighbour would be popped for
    // nothing, and leaving it out changes no cost and no tie. Costs only grow as the walk
    // goes on, so a radix heap orders them (the lower cost first, then the lower index).
    let mut queue = RadixHeap::new();
    for i in (0..cost.len()).filter(|&i| on_front(topo, &cost, i)) {
        queue.push(cost[i].to_bits(), i as u32);
    }
    while let Some(i) = queue.pop() {
        let i = i as usize;
        if queue.last() != cost[i].to_bits() {
            continue;
        }
        if cost[i] > limit {
            break;
        }
        for j in topo.neighbors(i) {
            if cost[j] <= cost[i] {
                continue;
            }
            let c = cost[i] + topo.distance_m(i, j);
            if c < cost[j] {
                cost[j] = c;
                improved(j, i);
                queue.push(c.to_bits(), j as u32);
            }
        }
    }
    if limit < f64::INFINITY {
        // Every node within `limit` was popped with its final cost; the rest hold guesses.
        for c in cost.iter_mut().filter(|c| **c > limit) {
            *c = f64::INFINITY;
        }
    }
    cost
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::lattice::FibonacciLattice;
    use crate::math::rng::SplitMix64;
    use crate::testkit::FUZZ_SEED;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// The plain multi-source Dijkstra: every source queued, every neighbour relaxed, no
    /// limit.
    fn oracle<T: Topology>(topo: &T, start: &[f64]) -> (Vec<f64>, Vec<Option<usize>>) {
        let mut cost = vec![f64::INFINITY; topo.len()];
        let mut source = vec![None; topo.len()];
        let mut queue = BinaryHeap::new();
        for (i, &c) in start.iter().enumerate().filter(|(_, c)| c.is_finite()) {
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

    #[test]
    fn walks_match_the_plain_dijkstra_and_stop_at_the_limit() {
        let lattice = FibonacciLattice::new(20_000, 1000.0);
        let mut rng = SplitMix64::new(FUZZ_SEED, 0);
        // A sea of free sources, a few dearer ones (a river's weaker pull) and dry land.
        let start: Vec<f64> = (0..lattice.len())
            .map(|_| match rng.next_f64() {
                r if r < 0.5 => 0.0,
                r if r < 0.52 => rng.range(0.0, 80.0),
                _ => f64::INFINITY,
            })
            .collect();
        let (cost, source) = oracle(&lattice, &start);
        assert_eq!(cheapest_walks(&lattice, &start, f64::INFINITY), (cost.clone(), source.clone()));
        let limit = 25.0;
        let (near, from) = cheapest_walks(&lattice, &start, limit);
        for i in 0..lattice.len() {
            if cost[i] <= limit {
                assert_eq!((near[i].to_bits(), from[i]), (cost[i].to_bits(), source[i]), "node {i}");
            } else {
                assert_eq!((near[i], from[i]), (f64::INFINITY, None), "node {i}");
            }
        }
        assert!(cost.iter().any(|&c| c > limit && c.is_finite()), "the limit cuts some walks");
        assert_eq!(cheapest_costs(&lattice, &start, limit), near);
    }
}
