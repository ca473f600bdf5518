//! The order water runs in: every node after all the nodes that drain into it, and the area
//! draining through each node summed along that order.

use super::Outlet;
use crate::ground::topology::Topology;

/// What [`order_and_catchment_into`] works in, kept from one call to the next so repeated
/// calls (erosion's steps) do not allocate it again.
#[derive(Debug, Default)]
pub(crate) struct OrderScratch {
    donors: Vec<u32>,
    state: Vec<u8>,
    chain: Vec<usize>,
}

/// Nodes ordered so every node comes after all the nodes draining into it (sources first,
/// outlets last; nodes on a receiver cycle are left out) into `order`, and the area draining
/// through each node, its own included (m²), into `area`, summed in that order.
///
/// The sum of many areas depends on the order it is taken in, and the catchments the
/// digests hold were summed in Kahn's order (FIFO from the sources in index order). On a
/// grid whose cell area sums exactly (whole or binary-fraction square metres, see
/// [`sums_exactly`]) every order gives those bits, so there the order follows each receiver
/// chain from the nodes in index order instead, without Kahn's jumps across the surface.
pub(crate) fn order_and_catchment_into<T: Topology>(
    topo: &T,
    receivers: &[Outlet],
    order: &mut Vec<u32>,
    area: &mut Vec<f64>,
    scratch: &mut OrderScratch,
) {
    let n = receivers.len();
    let Some(cell_m2) = topo.grid().map(|grid| grid.cell_m * grid.cell_m).filter(|&a| sums_exactly(a, n))
    else {
        kahn(topo, receivers, order, area, &mut scratch.donors);
        return;
    };
    order.clear();
    order.reserve(n);
    receivers_first(receivers, &mut scratch.state, &mut scratch.chain, |i| order.push(i as u32));
    order.reverse();
    area.clear();
    area.resize(n, cell_m2);
    for i in order.iter().map(|&i| i as usize) {
        if let Some(r) = receivers[i].receiver() {
            area[r.index()] += area[i];
        }
    }
}

/// [`order_and_catchment_into`] in Kahn's order; `donors` is scratch.
fn kahn<T: Topology>(
    topo: &T,
    receivers: &[Outlet],
    order: &mut Vec<u32>,
    area: &mut Vec<f64>,
    donors: &mut Vec<u32>,
) {
    let n = receivers.len();
    donors.clear();
    donors.resize(n, 0);
    for r in receivers.iter().filter_map(|r| r.receiver()) {
        donors[r.index()] += 1;
    }
    area.clear();
    area.extend((0..n).map(|i| topo.area_m2(i)));
    order.clear();
    order.reserve(n);
    order.extend((0..n).filter(|&i| donors[i] == 0).map(|i| i as u32));
    let mut k = 0;
    while k < order.len() {
        let i = order[k] as usize;
        if let Some(r) = receivers[i].receiver() {
            let r = r.index();
            area[r] += area[i];
            donors[r] -= 1;
            if donors[r] == 0 {
                order.push(r as u32);
            }
        }
        k += 1;
    }
}

/// Whether every sum of up to `n` terms of `a` (each term `a` itself or such a sum) is
/// exact: whether `n` times the odd part of `a`'s significand fits in a significand.
fn sums_exactly(a: f64, n: usize) -> bool {
    if !a.is_normal() || a < 0.0 {
        return false;
    }
    let significand = a.to_bits() & ((1 << 52) - 1) | 1 << 52;
    let odd = significand >> significand.trailing_zeros();
    u128::from(odd) * n as u128 <= 1 << 53
}

/// Calls `visit` on every node after the node it drains to: down each receiver chain from
/// the nodes in index order, then back up it, so neighbours in the index are visited close
/// together (the nodes of Kahn's order; nodes on a receiver cycle are left out, as that
/// order leaves them out). `state` and `chain` are scratch.
fn receivers_first(
    receivers: &[Outlet],
    state: &mut Vec<u8>,
    chain: &mut Vec<usize>,
    mut visit: impl FnMut(usize),
) {
    const NEW: u8 = 0;
    const WALKING: u8 = 1;
    const DONE: u8 = 2;
    state.clear();
    state.resize(receivers.len(), NEW);
    chain.clear();
    for start in 0..receivers.len() {
        let mut i = start;
        while state[i] == NEW {
            state[i] = WALKING;
            chain.push(i);
            match receivers[i].receiver() {
                Some(r) => i = r.index(),
                None => break,
            }
        }
        if state[i] == WALKING && receivers[i].receiver().is_some() {
            // The walk came round to a node already on it: a cycle, left out.
            if let Some(at) = chain.iter().position(|&c| c == i) {
                for c in chain.drain(at..) {
                    state[c] = DONE;
                }
            }
        }
        while let Some(c) = chain.pop() {
            state[c] = DONE;
            visit(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drainage::{route, DrainageParams};
    use crate::ground::grid::Grid;
    use crate::ground::topology::NodeId;

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|a| a.to_bits()).collect()
    }

    /// An order of nodes and the catchments summed along it (m²).
    type Ordered = (Vec<u32>, Vec<f64>);

    /// The order and catchments of `receivers` on `grid`, and Kahn's.
    fn both(grid: &Grid, receivers: &[Outlet]) -> (Ordered, Ordered) {
        let (mut order, mut area) = (Vec::new(), Vec::new());
        order_and_catchment_into(grid, receivers, &mut order, &mut area, &mut OrderScratch::default());
        let (mut kahn_order, mut kahn_area) = (Vec::new(), Vec::new());
        kahn(grid, receivers, &mut kahn_order, &mut kahn_area, &mut Vec::new());
        ((order, area), (kahn_order, kahn_area))
    }

    /// Every node of `order` comes before the node it drains to, wherever that one is in it.
    fn assert_sources_first(order: &[u32], receivers: &[Outlet], case: &str) {
        let mut place = vec![usize::MAX; receivers.len()];
        for (k, &i) in order.iter().enumerate() {
            place[i as usize] = k;
        }
        for (k, &i) in order.iter().enumerate() {
            if let Some(r) = receivers[i as usize].receiver().filter(|r| place[r.index()] != usize::MAX) {
                assert!(place[r.index()] > k, "{case}: {i} after its receiver {}", r.index());
            }
        }
    }

    /// On grids of any cell size the catchments are Kahn's bit for bit, and the order holds
    /// Kahn's nodes, each before its receiver. Cells of 0.3 m take Kahn's order itself: summed
    /// along the chains, their areas would round differently somewhere.
    #[test]
    fn catchments_are_kahn_s_bit_for_bit_on_every_grid() {
        for cell_m in [1.0, 2.0, 0.5, 0.3, 1.7] {
            let grid = Grid { width: 23, height: 17, cell_m };
            let n = grid.len();
            let z: Vec<f64> =
                (0..n).map(|i| ((i * 7919) % 23) as f64 * 0.37 + (i as f64 * 0.1).sin()).collect();
            let receivers = route(&grid, &z, &DrainageParams::outlets(None, true)).receivers;
            let ((order, area), (kahn_order, kahn_area)) = both(&grid, &receivers);
            let case = format!("cells of {cell_m} m");
            assert_eq!(bits(&area), bits(&kahn_area), "{case}");
            assert_sources_first(&order, &receivers, &case);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..n as u32).collect::<Vec<_>>(), "{case}: every node once");
            assert_eq!(order == kahn_order, !sums_exactly(cell_m * cell_m, n), "{case}: which order");
            if cell_m == 0.3 {
                let mut chained = Vec::new();
                receivers_first(&receivers, &mut Vec::new(), &mut Vec::new(), |i| chained.push(i));
                let mut summed = vec![cell_m * cell_m; n];
                for &i in chained.iter().rev() {
                    if let Some(r) = receivers[i].receiver() {
                        summed[r.index()] += summed[i];
                    }
                }
                assert_ne!(bits(&summed), bits(&kahn_area), "{case}: the chains' sums");
            }
        }
    }

    /// A receiver cycle is left out of both orders and what drains into it is not; its
    /// nodes keep what reached them.
    #[test]
    fn a_receiver_cycle_is_left_out_and_what_drains_into_it_is_not() {
        let flows = |j: u32| Outlet::Flows(NodeId(j));
        // 1 and 2 drain into each other; 0 drains into the cycle and 4 into 0.
        let receivers = [flows(1), flows(2), flows(1), Outlet::Sink, flows(0)];
        let grid = Grid { width: 5, height: 1, cell_m: 1.0 };
        let ((order, area), (kahn_order, kahn_area)) = both(&grid, &receivers);
        assert_eq!(order, vec![4, 3, 0]);
        assert_eq!(kahn_order, vec![3, 4, 0]);
        assert_eq!(area, vec![2.0, 3.0, 1.0, 1.0, 1.0]);
        assert_eq!(bits(&area), bits(&kahn_area));
    }

    /// Sums of an area are exact while the count times the odd part of its significand fits
    /// in 53 bits.
    #[test]
    fn sums_are_exact_for_whole_and_binary_fraction_areas_within_the_significand() {
        assert!(sums_exactly(1.0, 1 << 53));
        assert!(!sums_exactly(1.0, (1 << 53) + 1));
        assert!(sums_exactly(0.25, 1 << 50));
        assert!(sums_exactly(3.0, 1 << 51));
        assert!(!sums_exactly(3.0, 1 << 52));
        assert!(sums_exactly(0.3 * 0.3, 2), "a doubling is exact");
        assert!(!sums_exactly(0.3 * 0.3, 1000));
        assert!(!sums_exactly(0.0, 1));
        assert!(!sums_exactly(f64::NAN, 1));
    }
}
