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
    delta_m: Vec<f64>,
    /// The change's gradient at every node, metres per unit of chord, in the tangent plane.
    gradient: Vec<DVec3>,
    /// Support radius on the unit sphere (chord length).
    support: f64,
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
        let gradient = (0..lattice.len()).map(|i| tangent_gradient(&lattice, &delta_m, i)).collect();
        ErodedField { lattice, natural_share, delta_m, gradient, support }
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
        // the near-Delaunay graph), so the walk reaches them all.
        let mut seen = [0u32; MAX_CANDIDATES];
        let mut count = 1;
        seen[0] = start as u32;
        let (mut sum, mut weights) = (0.0, 0.0);
        let mut k = 0;
        while k < count {
            let i = seen[k] as usize;
            k += 1;
            let d = (positions[i] - p).length();
            if d == 0.0 {
                return self.delta_m[i];
            }
            if d < r {
                let w = ((r - d) / (r * d)).powi(2);
                sum += w * (self.delta_m[i] + self.gradient[i].dot(p - positions[i]));
                weights += w;
            }
            if d < r {
                for j in lattice.neighbors(i) {
                    if count < MAX_CANDIDATES && !seen[..count].contains(&(j as u32)) {
                        seen[count] = j as u32;
                        count += 1;
                    }
                }
            }
        }
        if weights > 0.0 {
            sum / weights
        } else {
            self.delta_m[start]
        }
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
