//! The cube-sphere quadtree: the planet's surface cut into square chunks on the six faces
//! of a cube, for terrain meshes and scatter alike.

use crate::math::sphere;
use glam::DVec3;

/// One square of the cube-sphere quadtree: cube face, depth, and position on its face.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ChunkKey {
    /// Cube face 0..6 (+X, -X, +Y, -Y, +Z, -Z).
    pub face: u8,
    /// Depth in the quadtree; a face is `2^level` chunks across.
    pub level: u8,
    /// Column on the face, `0..2^level`.
    pub x: u32,
    /// Row on the face, `0..2^level`.
    pub y: u32,
}

/// Unit direction at face coordinates `(u, v)` in `-1..=1` of cube face `face`.
pub(crate) fn cube_to_sphere(face: u8, u: f64, v: f64) -> DVec3 {
    let p = match face {
        0 => DVec3::new(1.0, v, -u),
        1 => DVec3::new(-1.0, v, u),
        2 => DVec3::new(u, 1.0, -v),
        3 => DVec3::new(u, -1.0, v),
        4 => DVec3::new(u, v, 1.0),
        _ => DVec3::new(-u, v, -1.0),
    };
    sphere::unit(p)
}

impl ChunkKey {
    /// Face coordinates of the chunk's corner `(i, j)` of a `res`-square grid, `-1..=1`.
    pub(crate) fn face_uv(self, i: usize, j: usize, res: usize) -> (f64, f64) {
        let n = f64::from(1u32 << self.level);
        let u = -1.0 + 2.0 * (f64::from(self.x) + i as f64 / res as f64) / n;
        let v = -1.0 + 2.0 * (f64::from(self.y) + j as f64 / res as f64) / n;
        (u, v)
    }

    /// Unit directions of the `(res + 1)²` corners of the chunk's `res`-square grid, row by
    /// row.
    pub(crate) fn grid_dirs(self, res: usize) -> Vec<DVec3> {
        let side = res + 1;
        (0..side * side)
            .map(|k| {
                let (u, v) = self.face_uv(k % side, k / side, res);
                cube_to_sphere(self.face, u, v)
            })
            .collect()
    }

    /// Unit direction of the chunk's centre.
    pub fn centre(self) -> DVec3 {
        let (u, v) = self.face_uv(1, 1, 2);
        cube_to_sphere(self.face, u, v)
    }

    /// The four children one level deeper.
    pub fn children(self) -> [ChunkKey; 4] {
        let (x, y, level) = (self.x * 2, self.y * 2, self.level + 1);
        [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(dx, dy)| ChunkKey {
            face: self.face,
            level,
            x: x + dx,
            y: y + dy,
        })
    }
}

/// The chunks to draw around a viewer at `viewer` (metres from the planet's centre): each
/// chunk is split while the viewer is closer than `split_factor` chunk widths to its centre,
/// down to `max_level`. The centre is taken at the viewer's own distance from the planet's
/// centre (at least `radius_m`), so a viewer standing on high ground gets the detail of one
/// standing at the datum. Ascending; a pure function of its inputs.
pub fn select_chunks(radius_m: f64, viewer: DVec3, split_factor: f64, max_level: u8) -> Vec<ChunkKey> {
    let mut out = Vec::new();
    let mut stack: Vec<ChunkKey> = (0..6).map(|face| ChunkKey { face, level: 0, x: 0, y: 0 }).collect();
    let lifted = viewer.length().max(radius_m);
    while let Some(chunk) = stack.pop() {
        let width = radius_m * std::f64::consts::FRAC_PI_2 / f64::from(1u32 << chunk.level);
        let distance = (chunk.centre() * lifted).distance(viewer);
        if chunk.level < max_level && distance < split_factor * width {
            stack.extend(chunk.children());
        } else {
            out.push(chunk);
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_sphere_once_and_refine_near_the_viewer() {
        let radius = 2_000.0;
        let viewer = sphere::direction(10.0, 20.0) * (radius + 50.0);
        let chunks = select_chunks(radius, viewer, 1.5, 6);
        // Area check: the chunks' shares of their faces add up to six faces.
        let total: f64 = chunks.iter().map(|c| 1.0 / f64::from(1u32 << (2 * c.level))).sum();
        assert!((total - 6.0).abs() < 1e-12);
        let deepest = chunks.iter().max_by_key(|c| c.level).expect("chunks");
        assert_eq!(deepest.level, 6);
        assert!(deepest.centre().dot(sphere::unit(viewer)) > 0.99, "detail where the viewer is");
        assert_eq!(chunks, select_chunks(radius, viewer, 1.5, 6));
    }

    #[test]
    fn a_viewer_on_high_ground_gets_the_finest_chunks() {
        // 500 m above the datum of a 10 km planet: deeper than its finest chunk's width.
        let radius = 10_000.0;
        let viewer = sphere::direction(85.0, -20.0) * (radius + 500.0);
        let chunks = select_chunks(radius, viewer, 1.6, 9);
        assert_eq!(chunks.iter().map(|c| c.level).max(), Some(9));
    }

    #[test]
    fn every_face_maps_onto_its_own_sixth() {
        for face in 0..6 {
            let c = cube_to_sphere(face, 0.0, 0.0);
            let corner = cube_to_sphere(face, 1.0, 1.0);
            assert!((c.length() - 1.0).abs() < 1e-12 && corner.dot(c) > 0.5);
        }
    }
}
