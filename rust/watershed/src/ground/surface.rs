//! Where channels and water are laid: node positions, the natural ground between nodes and
//! the node nearest a point — on the planet's sphere ([`PlanetSurface`]) or on a flat
//! heightmap ([`GridSurface`]). The carve and the water table read only this, so both kinds
//! of world share one carve, one bell and one backwater pass.

use crate::ground::grid::Grid;
use crate::ground::height::PlanetHeight;
use crate::ground::lattice::FibonacciLattice;
use crate::ground::topology::Topology;
use crate::math::sphere;
use glam::DVec3;

/// How far apart [`Surface::stays_under`] reads the ground, metres.
pub const LAKE_REACH_STEP_M: f64 = 4.0;

/// A ground surface: a [`Topology`] whose nodes have positions and whose natural ground
/// can be read anywhere on it.
///
/// Positions are in units of [`Surface::metres_per_unit`] metres: unit directions on the
/// sphere (a unit is the planet's radius), metres east and south on a grid (a unit is a
/// metre). Distances between nearby points are chord lengths times that scale.
pub trait Surface: Topology {
    /// Position of node `i`.
    fn position(&self, i: usize) -> DVec3;

    /// Metres per unit of position.
    fn metres_per_unit(&self) -> f64;

    /// The natural ground (before carving) at `p`, a point on the surface, metres.
    fn natural_at(&self, p: DVec3) -> f64;

    /// [`Surface::natural_at`] for a point already on the surface whose nearest node is
    /// `node`: the same value, possibly cheaper.
    fn natural_near(&self, p: DVec3, node: usize) -> f64 {
        let _ = node;
        self.natural_at(p)
    }

    /// The node nearest `p`, a point on the surface (ties to the lower index).
    fn nearest_node(&self, p: DVec3) -> usize;

    /// [`Surface::nearest_node`] given `near`, the nearest node of a point close by: the
    /// same node, possibly cheaper.
    fn nearest_node_from(&self, p: DVec3, near: usize) -> usize {
        let _ = near;
        self.nearest_node(p)
    }

    /// One metre sideways from the segment `a`→`b`, in position units: perpendicular to it,
    /// in the surface.
    fn metre_across(&self, a: DVec3, b: DVec3) -> DVec3;

    /// The middle of the segment `a`→`b` on the surface and the unit vector across it there
    /// (in the surface, perpendicular to the segment).
    fn middle_across(&self, a: DVec3, b: DVec3) -> (DVec3, DVec3);

    /// The point of the surface under `p` (normalised on the sphere, flattened on a grid).
    fn onto(&self, p: DVec3) -> DVec3;

    /// Whether the natural ground stays under `level_m` all the way from `p` to `to` (read
    /// every `LAKE_REACH_STEP_M` out from `to`, the ends excepted): water at that level at
    /// `to` reaches `p` without crossing a rim. Points further out on one line from `to`
    /// share the readings nearer it, so along that line the water ends where a reading
    /// meets higher ground, never beyond a rim it was let past. Channels do not count: a
    /// lake's outlet is cut through its rim, but the lake stands at the rim's level.
    fn stays_under(&self, p: DVec3, to: DVec3, level_m: f64) -> bool {
        let length_m = (to - p).length() * self.metres_per_unit();
        let readings = (length_m / LAKE_REACH_STEP_M).ceil() as usize;
        (1..readings).all(|k| {
            let out_m = k as f64 * LAKE_REACH_STEP_M;
            self.natural_at(self.onto(to + (p - to) * (out_m / length_m))) < level_m
        })
    }
}

/// The planet: its Fibonacci lattice and its ground field.
#[derive(Debug, Clone, Copy)]
pub struct PlanetSurface<'a> {
    /// The ground field.
    pub planet: &'a PlanetHeight,
    /// The lattice the drainage was solved on.
    pub lattice: &'a FibonacciLattice,
}

impl Topology for PlanetSurface<'_> {
    fn len(&self) -> usize {
        self.lattice.len()
    }

    fn neighbors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.lattice.neighbors(i)
    }

    fn area_m2(&self, i: usize) -> f64 {
        self.lattice.area_m2(i)
    }

    fn distance_m(&self, a: usize, b: usize) -> f64 {
        self.lattice.distance_m(a, b)
    }

    fn on_edge(&self, _i: usize) -> bool {
        false
    }
}

impl Surface for PlanetSurface<'_> {
    #[inline]
    fn position(&self, i: usize) -> DVec3 {
        self.lattice.positions()[i]
    }

    fn metres_per_unit(&self) -> f64 {
        self.planet.radius_m()
    }

    #[inline]
    fn natural_at(&self, p: DVec3) -> f64 {
        self.planet.height_unit(p)
    }

    #[inline]
    fn natural_near(&self, p: DVec3, node: usize) -> f64 {
        self.planet.height_unit_near(p, node)
    }

    #[inline]
    fn nearest_node(&self, p: DVec3) -> usize {
        self.lattice.nearest_node(p).index()
    }

    #[inline]
    fn nearest_node_from(&self, p: DVec3, near: usize) -> usize {
        self.lattice.nearest_node_from(p, near).index()
    }

    fn metre_across(&self, a: DVec3, b: DVec3) -> DVec3 {
        sphere::unit((b - a).cross(a + b)) / self.planet.radius_m()
    }

    fn middle_across(&self, a: DVec3, b: DVec3) -> (DVec3, DVec3) {
        let mid = sphere::unit(a + b);
        (mid, sphere::unit(mid.cross(b - a)))
    }

    #[inline]
    fn onto(&self, p: DVec3) -> DVec3 {
        sphere::unit(p)
    }
}

/// A heightmap: a [`Grid`] and the natural ground at its cells, read bilinearly between
/// them. Cell `i` stands at `(column · cell_m, row · cell_m, 0)`.
#[derive(Debug, Clone, Copy)]
pub struct GridSurface<'a> {
    /// The grid.
    pub grid: &'a Grid,
    /// Natural ground at every cell, row-major, metres.
    pub heights: &'a [f64],
}

impl Topology for GridSurface<'_> {
    fn len(&self) -> usize {
        self.grid.len()
    }

    fn neighbors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.grid.neighbors(i)
    }

    fn area_m2(&self, i: usize) -> f64 {
        self.grid.area_m2(i)
    }

    fn distance_m(&self, a: usize, b: usize) -> f64 {
        self.grid.distance_m(a, b)
    }

    fn on_edge(&self, i: usize) -> bool {
        self.grid.on_edge(i)
    }

    fn grid(&self) -> Option<&Grid> {
        Some(self.grid)
    }
}

impl Surface for GridSurface<'_> {
    #[inline]
    fn position(&self, i: usize) -> DVec3 {
        let w = self.grid.width;
        DVec3::new((i % w) as f64 * self.grid.cell_m, (i / w) as f64 * self.grid.cell_m, 0.0)
    }

    fn metres_per_unit(&self) -> f64 {
        1.0
    }

    fn natural_at(&self, p: DVec3) -> f64 {
        let g = self.grid;
        let max = |n: usize| (n.max(1) - 1) as f64;
        let x = (p.x / g.cell_m).clamp(0.0, max(g.width));
        let y = (p.y / g.cell_m).clamp(0.0, max(g.height));
        let (c0, r0) = (x.floor() as usize, y.floor() as usize);
        let (c1, r1) = ((c0 + 1).min(g.width - 1), (r0 + 1).min(g.height - 1));
        let (fx, fy) = (x - c0 as f64, y - r0 as f64);
        let h = |r: usize, c: usize| self.heights[r * g.width + c];
        let top = if fx == 0.0 { h(r0, c0) } else { h(r0, c0) + (h(r0, c1) - h(r0, c0)) * fx };
        let bottom = if fx == 0.0 { h(r1, c0) } else { h(r1, c0) + (h(r1, c1) - h(r1, c0)) * fx };
        if fy == 0.0 {
            top
        } else {
            top + (bottom - top) * fy
        }
    }

    fn nearest_node(&self, p: DVec3) -> usize {
        let g = self.grid;
        let max = |n: usize| (n.max(1) - 1) as f64;
        // Halves round down, to the lower index.
        let snap = |v: f64, n: usize| (v / g.cell_m - 0.5).ceil().clamp(0.0, max(n)) as usize;
        snap(p.y, g.height) * g.width + snap(p.x, g.width)
    }

    fn metre_across(&self, a: DVec3, b: DVec3) -> DVec3 {
        let d = b - a;
        DVec3::new(-d.y, d.x, 0.0).normalize_or_zero()
    }

    fn middle_across(&self, a: DVec3, b: DVec3) -> (DVec3, DVec3) {
        ((a + b) * 0.5, self.metre_across(a, b))
    }

    #[inline]
    fn onto(&self, p: DVec3) -> DVec3 {
        DVec3::new(p.x, p.y, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_reads_its_cells_exactly_and_bilinearly_between() {
        let grid = Grid { width: 3, height: 2, cell_m: 2.0 };
        let heights = [0.0, 2.0, 4.0, 10.0, 12.0, 14.0];
        let s = GridSurface { grid: &grid, heights: &heights };
        for (i, &h) in heights.iter().enumerate() {
            assert_eq!(s.natural_at(s.position(i)), h);
            assert_eq!(s.nearest_node(s.position(i)), i);
        }
        assert_eq!(s.natural_at(DVec3::new(1.0, 1.0, 0.0)), 6.0);
        assert_eq!(s.natural_at(DVec3::new(3.0, 0.5, 0.0)), 5.5);
        // Off the map the edge holds.
        assert_eq!(s.natural_at(DVec3::new(-5.0, 9.0, 0.0)), 10.0);
        // Halfway between two cells the lower index is nearer.
        assert_eq!(s.nearest_node(DVec3::new(1.0, 0.0, 0.0)), 0);
        assert_eq!(s.nearest_node(DVec3::new(1.01, 2.9, 0.0)), 4);
        let across = s.metre_across(s.position(0), s.position(2));
        assert_eq!(across.length(), 1.0);
        assert_eq!(across.dot(DVec3::X), 0.0);
    }

    /// On rough ground (a random height every metre), along any line out from where the
    /// water stands, the points it reaches come first and the points cut off after: once a
    /// point is cut off, every point further out is too, so the water never ends in a wall
    /// where a rim between readings let one point through and not its neighbour.
    #[test]
    fn a_reach_along_a_line_out_ends_once() {
        let grid = Grid { width: 96, height: 96, cell_m: 1.0 };
        let mut state = 0x5EED_u64;
        let heights: Vec<f64> = (0..grid.width * grid.height)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (state >> 11) as f64 / (1u64 << 53) as f64 * 10.0
            })
            .collect();
        let s = GridSurface { grid: &grid, heights: &heights };
        let (mut cut_off, mut reach_far) = (0, 0);
        for ray in 0..400 {
            let to = DVec3::new(20.0 + (ray % 20) as f64 * 2.7, 20.0 + (ray / 20) as f64 * 2.7, 0.0);
            let angle = ray as f64 * 2.399_963;
            let out = DVec3::new(angle.cos(), angle.sin(), 0.0);
            let level = 9.0;
            let reached: Vec<bool> =
                (1..=60).map(|k| s.stays_under(to + out * (k as f64 * 0.5), to, level)).collect();
            let first_cut = reached.iter().position(|&r| !r).unwrap_or(reached.len());
            assert!(reached[first_cut..].iter().all(|&r| !r), "ray {ray}: {reached:?}");
            cut_off += usize::from(first_cut < reached.len());
            reach_far += usize::from(first_cut >= 16);
        }
        assert!(cut_off > 0 && reach_far > 0, "{cut_off} rays cut off, {reach_far} reach 8 m");
    }
}
