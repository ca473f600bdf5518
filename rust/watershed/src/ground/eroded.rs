//! What erosion and sediment did to the ground, stored on the lattice and read anywhere. The
//! worked ground is `share · natural + change`: a share of the natural field (all of it
//! where only sediment settled, a tenth where erosion remade the land) keeps its fine
//! detail between nodes, and the change, known at every node, is interpolated between them
//! so the one ground function (`PlanetHeight`) carries it.
//!
//! Interpolation is Franke and Little's modified Shepard with a linear term per node: each
//! node within `R` (1.6 node spacings) of the point offers its change plus its least-squares
//! gradient times the offset, weighted by `((R − d)₊ / (R·d))²`. It is exact at the nodes
//! (the drainage sees the heights it was given), continuous everywhere, and has no flat
//! spot at the nodes, so shading between them stays smooth.

use crate::ground::lattice::FibonacciLattice;
use crate::ground::topology::Topology;
use glam::DVec3;
use std::sync::Arc;

/// Support radius of a node's weight, in mean node spacings.
const SUPPORT_SPACINGS: f64 = 1.6;

/// Nodes a query looks at, at most (the support holds about ten).
const MAX_CANDIDATES: usize = 64;

/// Height changes (metres, worked minus `natural_share` times natural) at every node of a
/// lattice.
#[derive(Debug, Clone)]
pub struct ErodedField {
    lattice: Arc<FibonacciLattice>,
    natural_share: f64,
    /// The change and its gradient at every node, side by side: a query reads both.
    nodes: Vec<NodeChange>,
    /// Support radius on the unit sphere (chord length).
    support: f64,
    /// Squared chords at and beyond which a node is surely outside the support: its
    /// distance, rounded, is not below `support` either.
    beyond_squared: f64,
}

/// A node's change and its gradient, in one cache line.
#[derive(Debug, Clone, Copy)]
#[repr(align(32))]
struct NodeChange {
    /// Metres.
    delta_m: f64,
    /// Metres per unit of chord, in the plane tangent to the sphere at the node.
    gradient: DVec3,
}

impl ErodedField {
    /// The field of `delta_m` (one change per node of `lattice`, metres) over
    /// `natural_share` (0..=1) of the natural ground.
    ///
    /// # Panics
    /// If `delta_m.len() != lattice.len()`.
    pub fn new(lattice: Arc<FibonacciLattice>, natural_share: f64, delta_m: Vec<f64>) -> Self {
        assert_eq!(delta_m.len(), lattice.len(), "one change per node");
        let support = SUPPORT_SPACINGS * lattice.spacing();
        let nodes = (0..lattice.len())
            .map(|i| NodeChange { delta_m: delta_m[i], gradient: tangent_gradient(&lattice, &delta_m, i) })
            .collect();
        let beyond_squared = support * support * (1.0 + 1e-9);
        ErodedField { lattice, natural_share, nodes, support, beyond_squared }
    }

    /// Share of the natural ground the worked ground keeps, 0..=1.
    pub fn natural_share(&self) -> f64 {
        self.natural_share
    }

    /// The change at unit direction `p`, metres: exact at a node, interpolated between.
    pub fn at(&self, p: DVec3) -> f64 {
        self.at_from(p, self.lattice.nearest_node(p).index())
    }

    /// [`ErodedField::at`] with the lattice's nearest node to `p` already found (`start`).
    pub(crate) fn at_from(&self, p: DVec3, start: usize) -> f64 {
        let lattice = &*self.lattice;
        let positions = lattice.positions();
        let r = self.support;
        // Walk out from the nearest node over the neighbour graph through the nodes inside
        // the support: every node inside has a neighbour nearer to `p` (greedy routing on
        // the near-Delaunay graph), so the walk reaches them all. The weights are summed in
        // the order the walk meets the nodes.
        let mut walk = Walk::new(start as u32);
        let (mut sum, mut weights) = (0.0, 0.0);
        let mut k = 0;
        while let Some(i) = walk.get(k) {
            k += 1;
            let offset = positions[i] - p;
            let squared = offset.length_squared();
            if squared >= self.beyond_squared {
                continue;
            }
            let d = squared.sqrt();
            let node = &self.nodes[i];
            if d == 0.0 {
                return node.delta_m;
            }
            if d < r {
                let w = ((r - d) / (r * d)).powi(2);
                sum += w * (node.delta_m + node.gradient.dot(p - positions[i]));
                weights += w;
                for &j in lattice.neighbor_slice(i) {
                    walk.push(j);
                }
            }
        }
        if weights > 0.0 {
            sum / weights
        } else {
            self.nodes[start].delta_m
        }
    }
}

/// The nodes a query's walk has met, in the order it met them, at most [`MAX_CANDIDATES`].
struct Walk {
    order: [u32; MAX_CANDIDATES],
    count: usize,
    /// Open-addressed set of the nodes in `order` (`u32::MAX`: an empty slot).
    slots: [u32; WALK_SLOTS],
}

/// Slots of a walk's set: a power of two, at least twice [`MAX_CANDIDATES`].
const WALK_SLOTS: usize = 2 * MAX_CANDIDATES;

impl Walk {
    fn new(start: u32) -> Self {
        let mut walk = Walk { order: [0; MAX_CANDIDATES], count: 0, slots: [u32::MAX; WALK_SLOTS] };
        walk.push(start);
        walk
    }

    /// The `k`th node met, if the walk has met that many.
    fn get(&self, k: usize) -> Option<usize> {
        (k < self.count).then(|| self.order[k] as usize)
    }

    /// Meets `node`, unless it was met before or the walk is full.
    fn push(&mut self, node: u32) {
        if self.count == MAX_CANDIDATES {
            return;
        }
        // The node's low bits pick its first slot: the nodes near a point differ by sums of
        // a few Fibonacci numbers, which seldom agree there (the top bits of the node times
        // an odd constant did, for about a sixth of the nodes met).
        let mut slot = node as usize % WALK_SLOTS;
        let first = self.slots[slot];
        if (first == u32::MAX) | (first == node) {
            // The first slot decides, as it nearly always does with the set at most half
            // full: empty for a new node, the node itself for one met before. Written without
            // a jump, since which of the two it is cannot be foreseen.
            let new = first == u32::MAX;
            self.slots[slot] = node;
            self.order[self.count] = node;
            self.count += usize::from(new);
            return;
        }
        loop {
            slot = (slot + 1) % WALK_SLOTS;
            match self.slots[slot] {
                u32::MAX => break,
                met if met == node => return,
                _ => {}
            }
        }
        self.slots[slot] = node;
        self.order[self.count] = node;
        self.count += 1;
    }
}

/// The least-squares gradient of `delta` at node `i` from its neighbours, in the plane
/// tangent to the sphere there (metres per unit of chord).
fn tangent_gradient(lattice: &FibonacciLattice, delta: &[f64], i: usize) -> DVec3 {
    let positions = lattice.positions();
    let x = positions[i];
    let e1 = x.any_orthonormal_vector();
    let e2 = x.cross(e1);
    let (mut a11, mut a12, mut a22, mut b1, mut b2) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for j in lattice.neighbors(i) {
        let d = positions[j] - x;
        let (u, v) = (d.dot(e1), d.dot(e2));
        let dz = delta[j] - delta[i];
        a11 += u * u;
        a12 += u * v;
        a22 += v * v;
        b1 += u * dz;
        b2 += v * dz;
    }
    let det = a11 * a22 - a12 * a12;
    if det.abs() < f64::MIN_POSITIVE {
        return DVec3::ZERO;
    }
    e1 * ((a22 * b1 - a12 * b2) / det) + e2 * ((a11 * b2 - a12 * b1) / det)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nodes whose first slot is taken by another probe on, and are still met once each.
    #[test]
    fn nodes_sharing_a_first_slot_are_each_met_once() {
        let slots = WALK_SLOTS as u32;
        let mut walk = Walk::new(7);
        for node in [7 + slots, 7, 7 + 2 * slots, 7 + slots, 8, 7 + 2 * slots, 7 + 3 * slots] {
            walk.push(node);
        }
        let met: Vec<usize> = (0..).map_while(|k| walk.get(k)).collect();
        let slots = slots as usize;
        assert_eq!(met, vec![7, 7 + slots, 7 + 2 * slots, 8, 7 + 3 * slots]);
    }

    /// Neighbours in the lattice differ by Fibonacci numbers: the walk still meets each node
    /// once, in the order pushed, and stops at [`MAX_CANDIDATES`].
    #[test]
    fn a_walk_meets_each_node_once_in_order_up_to_its_limit() {
        let fibonacci = [1u32, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987];
        let start = 50_000;
        let mut walk = Walk::new(start);
        let mut expected = vec![start as usize];
        for round in 0..3 {
            for f in fibonacci {
                for node in [start + f * (round + 1), start - f * (round + 1), start + f] {
                    walk.push(node);
                    if !expected.contains(&(node as usize)) && expected.len() < MAX_CANDIDATES {
                        expected.push(node as usize);
                    }
                }
            }
        }
        let met: Vec<usize> = (0..).map_while(|k| walk.get(k)).collect();
        assert_eq!(met, expected);
        assert_eq!(met.len(), MAX_CANDIDATES, "the walk is full");
    }
}
